// Shadowing (seeds/002, "Local Variable"); evaluates to 4:
//
// let %a = 1;
// let %b = 2 * %a;  // %b = 2
// let %a = %a + %a; // %a = 2. %a is shadowed
// %a + %b           // 2 + 2 = 4
//
// Each let binding is its own SSA value, so shadowing needs no scopes.
relay.func @main() -> tensor<i32> {
  %a = relay.constant dense<1> : tensor<i32>
  %two = relay.constant dense<2> : tensor<i32>
  %b = relay.multiply %two, %a : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %a_1 = relay.add %a, %a : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %r = relay.add %a_1, %b : (tensor<i32>, tensor<i32>) -> tensor<i32>
  relay.return %r : tensor<i32>
}

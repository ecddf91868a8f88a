// Factorial through a recursive local function (seeds/002, "Functions"):
//
// let %fact = fn (%x: int64) -> int64 {
//   if (%x == 0) { 1 } else { %x * %fact(%x - 1) }
// };
// %fact(10)
//
// The reference writes it over Tensor[(10, 10), float32]; there `%x == 0`
// is a 10x10 bool tensor, which `if` does not accept, so this is the scalar
// form. The closure gets itself as its `rec` argument.
relay.func @main() -> tensor<i64> {
  %fact = relay.fn rec(%fact_self) (%x: tensor<i64>) -> tensor<i64> {
    %zero = relay.constant dense<0> : tensor<i64>
    %one = relay.constant dense<1> : tensor<i64>
    %is_zero = relay.equal %x, %zero : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %r = relay.if %is_zero : tensor<i1> -> tensor<i64> {
      relay.yield %one : tensor<i64>
    } else {
      %x1 = relay.subtract %x, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
      %rec = relay.apply %fact_self(%x1) : (!relay.fn<(tensor<i64>) -> tensor<i64>>, tensor<i64>) -> tensor<i64>
      %p = relay.multiply %x, %rec : (tensor<i64>, tensor<i64>) -> tensor<i64>
      relay.yield %p : tensor<i64>
    }
    relay.return %r : tensor<i64>
  }
  %ten = relay.constant dense<10> : tensor<i64>
  %result = relay.apply %fact(%ten) : (!relay.fn<(tensor<i64>) -> tensor<i64>>, tensor<i64>) -> tensor<i64>
  relay.return %result : tensor<i64>
}

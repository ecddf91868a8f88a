// The Ackermann function from the Relay language reference (seeds/002):
//
// def @ackermann(%m : Tensor[(), int32], %n : Tensor[(), int32]) -> Tensor[(), int32] {
//     if (%m == 0) { %n + 1 }
//     else if (%m > 0 && %n == 0) { @ackermann(%m - 1, 1) }
//     else { @ackermann(%m - 1, @ackermann(%m, %n - 1)) }
// }
relay.func @ackermann(%m: tensor<i32>, %n: tensor<i32>) -> tensor<i32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %one = relay.constant dense<1> : tensor<i32>
  %m_is_zero = relay.equal %m, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %result = relay.if %m_is_zero : tensor<i1> -> tensor<i32> {
    %n1 = relay.add %n, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    relay.yield %n1 : tensor<i32>
  } else {
    %m_pos = relay.greater %m, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %n_zero = relay.equal %n, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %both = relay.logical_and %m_pos, %n_zero : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %m1 = relay.subtract %m, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %inner = relay.if %both : tensor<i1> -> tensor<i32> {
      %a = relay.call @ackermann(%m1, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      relay.yield %a : tensor<i32>
    } else {
      %n_1 = relay.subtract %n, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %b = relay.call @ackermann(%m, %n_1) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %c = relay.call @ackermann(%m1, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      relay.yield %c : tensor<i32>
    }
    relay.yield %inner : tensor<i32>
  }
  relay.return %result : tensor<i32>
}

relay.func @main() -> tensor<i32> {
  %two = relay.constant dense<2> : tensor<i32>
  %three = relay.constant dense<3> : tensor<i32>
  %r = relay.call @ackermann(%two, %three) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  relay.return %r : tensor<i32>
}

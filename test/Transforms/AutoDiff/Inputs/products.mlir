// batch_matmul in its four transpositions, strided_slice (negative
// begin), power on positive operands.
relay.func @main(%a: tensor<2x3x4xf64>, %b: tensor<2x5x4xf64>, %c: tensor<2x4x3xf64>, %p: tensor<3xf64>) -> tensor<f64> {
  %x = relay.nn.batch_matmul %a, %b {transpose_b = true} : (tensor<2x3x4xf64>, tensor<2x5x4xf64>) -> tensor<2x3x5xf64>
  %y = relay.nn.batch_matmul %c, %b {transpose_a = true, transpose_b = true} : (tensor<2x4x3xf64>, tensor<2x5x4xf64>) -> tensor<2x3x5xf64>
  %z = relay.nn.batch_matmul %a, %c {transpose_b = false} : (tensor<2x3x4xf64>, tensor<2x4x3xf64>) -> tensor<2x3x3xf64>
  %w = relay.nn.batch_matmul %c, %a {transpose_a = true, transpose_b = true} : (tensor<2x4x3xf64>, tensor<2x3x4xf64>) -> tensor<2x3x3xf64>
  %s = relay.strided_slice %x {begin = array<i64: 0, 1, -3>, end = array<i64: 2, 3, 5>} : (tensor<2x3x5xf64>) -> tensor<2x2x3xf64>
  %m = relay.multiply %s, %s : (tensor<2x2x3xf64>, tensor<2x2x3xf64>) -> tensor<2x2x3xf64>
  %zw = relay.multiply %z, %w : (tensor<2x3x3xf64>, tensor<2x3x3xf64>) -> tensor<2x3x3xf64>
  %q = relay.multiply %y, %x : (tensor<2x3x5xf64>, tensor<2x3x5xf64>) -> tensor<2x3x5xf64>
  %two = relay.constant dense<2.0> : tensor<f64>
  %pw = relay.power %p, %p : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %s1 = relay.sum %m : (tensor<2x2x3xf64>) -> tensor<f64>
  %s2 = relay.sum %zw : (tensor<2x3x3xf64>) -> tensor<f64>
  %s3 = relay.sum %q : (tensor<2x3x5xf64>) -> tensor<f64>
  %s4 = relay.sum %pw : (tensor<3xf64>) -> tensor<f64>
  %t1 = relay.add %s1, %s2 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %t2 = relay.add %s3, %s4 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %t = relay.add %t1, %t2 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %u = relay.multiply %t, %two : (tensor<f64>, tensor<f64>) -> tensor<f64>
  relay.return %u : tensor<f64>
}

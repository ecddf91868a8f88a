// nn.matmul in its four transpositions.
relay.func @main(%a: tensor<3x4xf64>, %b: tensor<4x5xf64>, %c: tensor<5x4xf64>, %d: tensor<4x3xf64>) -> tensor<f64> {
  %x = relay.nn.matmul %a, %b : (tensor<3x4xf64>, tensor<4x5xf64>) -> tensor<3x5xf64>
  %y = relay.nn.matmul %a, %c {transpose_b = true} : (tensor<3x4xf64>, tensor<5x4xf64>) -> tensor<3x5xf64>
  %z = relay.nn.matmul %d, %b {transpose_a = true} : (tensor<4x3xf64>, tensor<4x5xf64>) -> tensor<3x5xf64>
  %w = relay.nn.matmul %d, %c {transpose_a = true, transpose_b = true} : (tensor<4x3xf64>, tensor<5x4xf64>) -> tensor<3x5xf64>
  %p = relay.multiply %x, %y : (tensor<3x5xf64>, tensor<3x5xf64>) -> tensor<3x5xf64>
  %q = relay.multiply %z, %w : (tensor<3x5xf64>, tensor<3x5xf64>) -> tensor<3x5xf64>
  %r = relay.add %p, %q : (tensor<3x5xf64>, tensor<3x5xf64>) -> tensor<3x5xf64>
  %s = relay.sum %r : (tensor<3x5xf64>) -> tensor<f64>
  relay.return %s : tensor<f64>
}

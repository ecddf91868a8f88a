// Convolutions: strided and padded (unevenly), dilated, then a relu and a
// sum; NCHW/OIHW.
relay.func @main(%x: tensor<1x2x7x6xf64>, %w: tensor<3x2x3x3xf64>, %v: tensor<2x3x2x2xf64>) -> tensor<f64> {
  %a = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 1>} : (tensor<1x2x7x6xf64>, tensor<3x2x3x3xf64>) -> tensor<1x3x4x3xf64>
  %r = relay.tanh %a : (tensor<1x3x4x3xf64>) -> tensor<1x3x4x3xf64>
  %b = relay.nn.conv2d %r, %v {dilation = array<i64: 2, 1>, padding = array<i64: 1, 1>} : (tensor<1x3x4x3xf64>, tensor<2x3x2x2xf64>) -> tensor<1x2x4x4xf64>
  %s = relay.sum %b : (tensor<1x2x4x4xf64>) -> tensor<f64>
  %t = relay.multiply %s, %s : (tensor<f64>, tensor<f64>) -> tensor<f64>
  relay.return %t : tensor<f64>
}

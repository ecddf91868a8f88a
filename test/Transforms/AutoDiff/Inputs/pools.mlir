// Global pooling, NCHW and NHWC.
relay.func @main(%x: tensor<2x3x4x5xf64>, %y: tensor<1x4x5x3xf64>) -> tensor<f64> {
  %a = relay.nn.global_avg_pool2d %x : (tensor<2x3x4x5xf64>) -> tensor<2x3x1x1xf64>
  %m = relay.nn.global_max_pool2d %x : (tensor<2x3x4x5xf64>) -> tensor<2x3x1x1xf64>
  %n = relay.nn.global_avg_pool2d %y {layout = "NHWC"} : (tensor<1x4x5x3xf64>) -> tensor<1x1x1x3xf64>
  %p = relay.multiply %a, %m : (tensor<2x3x1x1xf64>, tensor<2x3x1x1xf64>) -> tensor<2x3x1x1xf64>
  %s = relay.sum %p : (tensor<2x3x1x1xf64>) -> tensor<f64>
  %q = relay.tanh %n : (tensor<1x1x1x3xf64>) -> tensor<1x1x1x3xf64>
  %t = relay.sum %q : (tensor<1x1x1x3xf64>) -> tensor<f64>
  %u = relay.multiply %s, %t : (tensor<f64>, tensor<f64>) -> tensor<f64>
  relay.return %u : tensor<f64>
}

// Global pooling, NCHW and NHWC; and the maximum of a broadcast (every
// element a copy of one value: its derivative is 1, the ties sharing it).
relay.func @main(%x: tensor<2x3x4x5xf64>, %y: tensor<1x4x5x3xf64>, %z: tensor<1x2x1x1xf64>) -> tensor<f64> {
  %a = relay.nn.global_avg_pool2d %x : (tensor<2x3x4x5xf64>) -> tensor<2x3x1x1xf64>
  %m = relay.nn.global_max_pool2d %x : (tensor<2x3x4x5xf64>) -> tensor<2x3x1x1xf64>
  %n = relay.nn.global_avg_pool2d %y {layout = "NHWC"} : (tensor<1x4x5x3xf64>) -> tensor<1x1x1x3xf64>
  %p = relay.multiply %a, %m : (tensor<2x3x1x1xf64>, tensor<2x3x1x1xf64>) -> tensor<2x3x1x1xf64>
  %s = relay.sum %p : (tensor<2x3x1x1xf64>) -> tensor<f64>
  %q = relay.tanh %n : (tensor<1x1x1x3xf64>) -> tensor<1x1x1x3xf64>
  %t = relay.sum %q : (tensor<1x1x1x3xf64>) -> tensor<f64>
  %u = relay.multiply %s, %t : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %b = relay.broadcast_to %z {shape = array<i64: 1, 2, 3, 3>} : (tensor<1x2x1x1xf64>) -> tensor<1x2x3x3xf64>
  %c = relay.nn.global_max_pool2d %b : (tensor<1x2x3x3xf64>) -> tensor<1x2x1x1xf64>
  %d = relay.sin %c : (tensor<1x2x1x1xf64>) -> tensor<1x2x1x1xf64>
  %e = relay.sum %d : (tensor<1x2x1x1xf64>) -> tensor<f64>
  %v = relay.add %u, %e : (tensor<f64>, tensor<f64>) -> tensor<f64>
  relay.return %v : tensor<f64>
}

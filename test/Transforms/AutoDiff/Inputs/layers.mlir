// A two-layer perceptron's pieces: dense, bias_add, reductions (with and
// without keepdims, exclude), reshape, transpose, a tuple and a
// projection, a value used twice.
relay.func @main(%x: tensor<2x3xf64>, %w: tensor<4x3xf64>, %b: tensor<4xf64>, %v: tensor<2x4xf64>) -> tensor<f64> {
  %d = relay.nn.dense %x, %w : (tensor<2x3xf64>, tensor<4x3xf64>) -> tensor<2x4xf64>
  %a = relay.nn.bias_add %d, %b : (tensor<2x4xf64>, tensor<4xf64>) -> tensor<2x4xf64>
  %t = relay.tanh %a : (tensor<2x4xf64>) -> tensor<2x4xf64>
  %p = relay.tuple(%t, %v : tensor<2x4xf64>, tensor<2x4xf64>)
  %q = relay.tuple_get %p[0] : tuple<tensor<2x4xf64>, tensor<2x4xf64>>
  %m = relay.multiply %q, %t : (tensor<2x4xf64>, tensor<2x4xf64>) -> tensor<2x4xf64>
  %tr = relay.transpose %m : (tensor<2x4xf64>) -> tensor<4x2xf64>
  %r = relay.reshape %tr {newshape = array<i64: 8>} : (tensor<4x2xf64>) -> tensor<8xf64>
  %s = relay.mean %m {axis = array<i64: 1>, keepdims = true} : (tensor<2x4xf64>) -> tensor<2x1xf64>
  %u = relay.sum %m {axis = array<i64: 0>, exclude = true} : (tensor<2x4xf64>) -> tensor<2xf64>
  %s1 = relay.sum %r : (tensor<8xf64>) -> tensor<f64>
  %s2 = relay.sum %s : (tensor<2x1xf64>) -> tensor<f64>
  %s3 = relay.sum %u : (tensor<2xf64>) -> tensor<f64>
  %o1 = relay.add %s1, %s2 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %o2 = relay.multiply %o1, %s3 : (tensor<f64>, tensor<f64>) -> tensor<f64>
  relay.return %o2 : tensor<f64>
}

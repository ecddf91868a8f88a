// Shape and data movement: expand_dims, squeeze, batch_flatten, split and
// concatenate (tuple operands and results), softmax and log_softmax.
relay.func @main(%x: tensor<2x6xf64>, %y: tensor<2x3xf64>) -> tensor<f64> {
  %parts = relay.split %x {indices_or_sections = 3 : i64, axis = 1 : i64} : (tensor<2x6xf64>) -> tuple<tensor<2x2xf64>, tensor<2x2xf64>, tensor<2x2xf64>>
  %p0 = relay.tuple_get %parts[0] : tuple<tensor<2x2xf64>, tensor<2x2xf64>, tensor<2x2xf64>>
  %p2 = relay.tuple_get %parts[2] : tuple<tensor<2x2xf64>, tensor<2x2xf64>, tensor<2x2xf64>>
  %joined = relay.tuple(%p2, %y, %p0 : tensor<2x2xf64>, tensor<2x3xf64>, tensor<2x2xf64>)
  %c = relay.concatenate %joined {axis = 1 : i64} : (tuple<tensor<2x2xf64>, tensor<2x3xf64>, tensor<2x2xf64>>) -> tensor<2x7xf64>
  %s = relay.nn.softmax %c : (tensor<2x7xf64>) -> tensor<2x7xf64>
  %e = relay.expand_dims %s {axis = 1 : i64} : (tensor<2x7xf64>) -> tensor<2x1x7xf64>
  %f = relay.nn.batch_flatten %e : (tensor<2x1x7xf64>) -> tensor<2x7xf64>
  %l = relay.nn.log_softmax %c {axis = 0 : i64} : (tensor<2x7xf64>) -> tensor<2x7xf64>
  %m = relay.multiply %f, %l : (tensor<2x7xf64>, tensor<2x7xf64>) -> tensor<2x7xf64>
  %q = relay.expand_dims %m {axis = 0 : i64} : (tensor<2x7xf64>) -> tensor<1x2x7xf64>
  %r = relay.squeeze %q : (tensor<1x2x7xf64>) -> tensor<2x7xf64>
  %t = relay.sum %r : (tensor<2x7xf64>) -> tensor<f64>
  relay.return %t : tensor<f64>
}

// Broadcasting arithmetic and elementwise functions: every operand's
// gradient summed back to its shape.
relay.func @main(%x: tensor<2x3xf64>, %y: tensor<3xf64>, %z: tensor<2x1xf64>) -> tuple<tensor<2x3xf64>, tensor<2x3xf64>> {
  %a = relay.add %x, %y : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  %b = relay.multiply %a, %z : (tensor<2x3xf64>, tensor<2x1xf64>) -> tensor<2x3xf64>
  %c = relay.subtract %b, %y : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  %d = relay.sigmoid %c : (tensor<2x3xf64>) -> tensor<2x3xf64>
  %e = relay.tanh %d : (tensor<2x3xf64>) -> tensor<2x3xf64>
  %f = relay.negative %e : (tensor<2x3xf64>) -> tensor<2x3xf64>
  %g = relay.exp %f : (tensor<2x3xf64>) -> tensor<2x3xf64>
  %h = relay.divide %g, %z : (tensor<2x3xf64>, tensor<2x1xf64>) -> tensor<2x3xf64>
  %i = relay.nn.relu %c : (tensor<2x3xf64>) -> tensor<2x3xf64>
  %j = relay.copy %i : (tensor<2x3xf64>) -> tensor<2x3xf64>
  %t = relay.tuple(%h, %j : tensor<2x3xf64>, tensor<2x3xf64>)
  relay.return %t : tuple<tensor<2x3xf64>, tensor<2x3xf64>>
}

relay.func @main(%a: tensor<2x4xf32>, %b: tensor<3x4xf16>) -> !relay.incomplete {
  %d = relay.nn.dense %a, %b : (tensor<2x4xf32>, tensor<3x4xf16>) -> !relay.incomplete
  relay.return %d : !relay.incomplete
}

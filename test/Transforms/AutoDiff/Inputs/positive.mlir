// log and sqrt, on positive inputs.
relay.func @main(%x: tensor<4xf64>, %y: tensor<4xf64>) -> tensor<4xf64> {
  %a = relay.log %x : (tensor<4xf64>) -> tensor<4xf64>
  %b = relay.sqrt %y : (tensor<4xf64>) -> tensor<4xf64>
  %c = relay.multiply %a, %b : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  relay.return %c : tensor<4xf64>
}

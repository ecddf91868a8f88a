relay.func private @square(%x: tensor<f32>) -> tensor<f32> {
  %0 = relay.multiply %x, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
  relay.return %0 : tensor<f32>
}
relay.func @main(%x: tensor<f32>) -> !relay.incomplete {
  %0 = relay.call @square(%x) : (tensor<f32>) -> tensor<f32>
  %1 = relay.call @square(%x) : (tensor<f32>) -> !relay.incomplete
  %2 = relay.add %0, %1 : (tensor<f32>, !relay.incomplete) -> !relay.incomplete
  relay.return %2 : !relay.incomplete
}
func.func @host(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}

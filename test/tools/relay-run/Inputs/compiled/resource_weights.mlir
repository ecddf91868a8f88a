// Weights held as resource blobs (how ONNX initializers arrive), 4-byte
// aligned: compiled code reads them in place.
relay.func @main(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %w = relay.constant dense_resource<w> : tensor<3x4xf32>
  %b = relay.constant dense_resource<b> : tensor<3xf32>
  %h = relay.nn.dense %x, %w {units = 3 : i64} : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
  %y = relay.nn.bias_add %h, %b {axis = -1 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  relay.return %y : tensor<2x3xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x04000000000000BF000080BE000000000000803E0000003F0000403F0000803F000000BF000080BE000000000000803E0000003F",
      b: "0x040000000000003F000080BF00000040"
    }
  }
#-}

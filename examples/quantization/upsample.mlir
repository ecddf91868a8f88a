// A convolution, nearest-neighbour upsampling and another convolution,
// with constant weights. Quantize it with the rules beside it:
//
//   relay-mlir-opt upsample.mlir \
//     '--relay-quantize=skip-conv-layers=none rules=examples/quantization/rules.txt'
//
// and nn.upsampling runs on int8 between the two int8 convolutions;
// without rules=..., the first convolution's result is dequantized before
// it and quantized again after.
relay.func @main(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x16x16xf32> {
  %w = relay.constant dense<0.125> : tensor<4x4x3x3xf32>
  %c = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %r = relay.nn.relu %c : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %u = relay.nn.upsampling %r {scale_h = 2.0 : f64, scale_w = 2.0 : f64} : (tensor<1x4x8x8xf32>) -> tensor<1x4x16x16xf32>
  %d = relay.nn.conv2d %u, %w {padding = array<i64: 1, 1>} : (tensor<1x4x16x16xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x16x16xf32>
  relay.return %d : tensor<1x4x16x16xf32>
}

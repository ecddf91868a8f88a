// RUN: relay-mlir-opt %s --relay-quantize-annotate=skip-conv-layers=none | FileCheck %s --check-prefix=TVM
// RUN: relay-mlir-opt %s '--relay-quantize-annotate=skip-conv-layers=none rules=%S/../../../examples/quantization/squeeze_excitation.txt' 2>&1 | FileCheck %s --check-prefix=SE

// Tests that with TVM's rules global average pooling in the middle of a
// network (a squeeze-and-excitation block's) stops quantization: the
// convolution after it stays in float; and that the example rules file's
// `nn.global_avg_pool2d float` keeps the pooling in float without
// stopping, so that the convolution after it is quantized again, with a
// remark that names the rule.
// TVM-COUNT-2: simulated_quantize
// TVM: relay.nn.global_avg_pool2d
// TVM-NOT: simulated_quantize
// SE: remark: stays in float: relay.nn.global_avg_pool2d's rule is float
// SE-COUNT-2: simulated_quantize
// SE: relay.nn.global_avg_pool2d
// SE: simulated_quantize
// SE: simulated_quantize
// SE: relay.nn.conv2d
relay.func @main(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %w = relay.constant dense<0.125> : tensor<4x4x3x3xf32>
  %c = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %g = relay.nn.global_avg_pool2d %c : (tensor<1x4x8x8xf32>) -> tensor<1x4x1x1xf32>
  %m = relay.multiply %c, %g : (tensor<1x4x8x8xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %d = relay.nn.conv2d %m, %w {padding = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  relay.return %d : tensor<1x4x8x8xf32>
}

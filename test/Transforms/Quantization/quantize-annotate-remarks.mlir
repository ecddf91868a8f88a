// RUN: relay-mlir-opt %s --relay-quantize-annotate=skip-conv-layers=none -verify-diagnostics -o /dev/null

// Tests that an operator a quantized value reaches without a quantization
// rule stays in float and a remark says so; one no quantized value
// reaches says nothing.
relay.func @main(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = relay.constant dense<0.5> : tensor<2x2x1x1xf32>
  %e = relay.exp %x : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = relay.nn.conv2d %e, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  // expected-remark @+1 {{stays in float: relay.sigmoid has no quantization rule (a rules file can give it one)}}
  %s = relay.sigmoid %c : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  relay.return %s : tensor<1x2x4x4xf32>
}

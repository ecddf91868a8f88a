// RUN: relay-mlir-opt %s '--relay-quantize=skip-conv-layers=none' | FileCheck %s --check-prefix=BUILTIN
// RUN: relay-mlir-opt %s '--relay-quantize=skip-conv-layers=none rules=%S/../../../examples/quantization/rules.txt' | FileCheck %s --check-prefix=RULES
// RUN: not relay-mlir-opt %s '--relay-quantize=rules=%S/Inputs/bad-line.rules' 2>&1 | FileCheck %s --check-prefix=LINE
// RUN: not relay-mlir-opt %s '--relay-quantize=rules=%S/Inputs/bad-rule.rules' 2>&1 | FileCheck %s --check-prefix=RULE
// RUN: not relay-mlir-opt %s '--relay-quantize=rules=%S/Inputs/bad-op.rules' 2>&1 | FileCheck %s --check-prefix=OP
// RUN: not relay-mlir-opt %s '--relay-quantize-annotate=rules=%S/Inputs/missing.rules' 2>&1 | FileCheck %s --check-prefix=MISSING

// Tests that nn.upsampling, which has no built-in rule, reads the
// convolution's result dequantized (float upsampling), and that the
// example rules file's `nn.upsampling identity` runs it on the integers.
// BUILTIN: relay.nn.upsampling %{{.*}} : (tensor<1x4x8x8xf32>)
// RULES: relay.nn.upsampling %{{.*}} : (tensor<1x4x8x8xi32>)

// Tests the rules file's errors: file, line and what is wrong.
// LINE: bad-line.rules:1:1: error: expected '<operator> <rule>', got 'nn.max_pool2d'
// RULE: bad-rule.rules:3:1: error: unknown rule 'copy' (expected identity, pool, product, add, multiply, clip, concatenate, stop or float)
// OP: bad-op.rules:1:1: error: unknown operator 'nn.frobnicate'
// MISSING: error: cannot read the quantization rules file '{{.*}}missing.rules': No such file or directory
relay.func @main(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x16x16xf32> {
  %w = relay.constant dense<0.125> : tensor<4x4x3x3xf32>
  %c = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %r = relay.nn.relu %c : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %u = relay.nn.upsampling %r {scale_h = 2.0 : f64, scale_w = 2.0 : f64} : (tensor<1x4x8x8xf32>) -> tensor<1x4x16x16xf32>
  %d = relay.nn.conv2d %u, %w {padding = array<i64: 1, 1>} : (tensor<1x4x16x16xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x16x16xf32>
  relay.return %d : tensor<1x4x16x16xf32>
}

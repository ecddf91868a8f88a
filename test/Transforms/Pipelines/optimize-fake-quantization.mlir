// RUN: relay-mlir-opt %s --relay-optimize="opt-level=3" | FileCheck %s --check-prefix=O3
// RUN: relay-mlir-opt %s --relay-optimize="opt-level=2" | FileCheck %s --check-prefix=O2
// RUN: relay-mlir-opt %s --relay-optimize="opt-level=3 disabled-passes=FakeQuantizationToInteger" | FileCheck %s --check-prefix=O2

// Tests that -O3 computes a quantize/dequantize model's operators in
// integers (FakeQuantizationToInteger runs first) and lower levels, or -O3
// with the pass disabled, keep them in float.
// O3-LABEL: relay.func @main
// O3: relay.qnn.requantize
// O3-NOT: relay.qnn.quantize
// O2-LABEL: relay.func @main
// O2: relay.qnn.dequantize
// O2: relay.qnn.quantize
relay.func @main(%x: tensor<1x4x4x4xi8>) -> tensor<1x4x2x2xi8> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %so = relay.constant dense<0.25> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %xf = relay.qnn.dequantize %x, %s, %z : (tensor<1x4x4x4xi8>, tensor<f32>, tensor<i32>) -> tensor<1x4x4x4xf32>
  %p = relay.nn.max_pool2d %xf {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x4xf32>) -> tensor<1x4x2x2xf32>
  %q = relay.qnn.quantize %p, %so, %z : (tensor<1x4x2x2xf32>, tensor<f32>, tensor<i32>) -> tensor<1x4x2x2xi8>
  relay.return %q : tensor<1x4x2x2xi8>
}

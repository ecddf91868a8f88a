// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver4 --relay-to-linalg | FileCheck %s
// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver4 --relay-to-linalg | relay-mlir-opt --pass-pipeline="builtin.module(func.func(relay-fuse-elementwise))" | FileCheck %s --check-prefix=FUSED
// Broadcasting elementwise ops read a size-1 operand dim at 0 only where the
// output's dim is larger: an operand of the output's own shape (batch 1
// included) is read through the identity, so that chains of elementwise
// ops fuse (bias_add then clip is one loop nest, not two passes over the
// activation).

// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$BIAS:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
// CHECK-LABEL: func.func @bias_relu6(
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$BIAS]], #[[$ID]]]
// CHECK: arith.addf
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]]]
// CHECK: arith.minimumf

// FUSED-LABEL: func.func @bias_relu6(
// FUSED: linalg.generic
// FUSED: arith.addf
// FUSED: arith.maximumf
// FUSED: arith.minimumf
// FUSED-NOT: linalg.generic
relay.func @bias_relu6(%x: tensor<1x8x4x4xf32>, %b: tensor<8x1x1xf32>) -> tensor<1x8x4x4xf32> {
  %s = relay.add %x, %b : (tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) -> tensor<1x8x4x4xf32>
  %r = relay.clip %s {a_min = 0.0 : f64, a_max = 6.0 : f64} : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  relay.return %r : tensor<1x8x4x4xf32>
}

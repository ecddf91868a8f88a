// RUN: relay-mlir-opt %s --relay-decompose --mlir-print-debuginfo --split-input-file | FileCheck %s
// RUN: relay-mlir-opt %s --relay-decompose --mlir-print-debuginfo --split-input-file | relay-mlir-translate --export-relay --split-input-file | FileCheck %s --check-prefix=EXPORT

// Tests that --relay-decompose locates a composite operator's primitive
// ops at its location marked with its name, so that their run-time errors
// name it, and that the Relay text exporter still reads the let name
// through the mark.
// CHECK-LABEL: relay.func @variance(
// CHECK: relay.subtract {{.*}} loc(#[[LOC:loc[0-9]+]])
// CHECK: relay.divide {{.*}} loc(#[[LOC]])
// CHECK: #[[LOC]] = loc(fused<"relay.decomposed_from:variance">[#{{loc[0-9]+}}])
// EXPORT: def @variance(
// EXPORT: let %v: Tensor[(3, 4), float32] = subtract(
// EXPORT: let %v3: Tensor[(3), float32] = divide(
relay.func @variance(%x: tensor<3x4xf32>) -> tensor<3xf32> {
  %m = relay.mean %x {axis = array<i64: 1>, keepdims = true} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %v = relay.variance %x, %m {axis = array<i64: 1>} : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3xf32> loc("v"("prog.rly":3:12))
  relay.return %v : tensor<3xf32>
}

// -----

// Tests that a decomposition decomposed again keeps the outermost
// operator's mark: bicubic nn.upsampling's image.resize2d is the
// upsampling's.
// CHECK-LABEL: relay.func @bicubic(
// CHECK: relay.take {{.*}} loc(#[[LOC:loc[0-9]+]])
// CHECK-NOT: relay.decomposed_from:image.resize2d
// CHECK: #[[LOC]] = loc(fused<"relay.decomposed_from:nn.upsampling">
relay.func @bicubic(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  %u = relay.nn.upsampling %x {scale_h = 2.0 : f64, scale_w = 2.0 : f64, method = "bicubic"} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  relay.return %u : tensor<1x1x4x4xf32>
}

// RUN: relay-mlir-opt %s --relay-optimize=opt-level=0 | FileCheck %s --check-prefix=O0
// RUN: relay-mlir-opt %s --relay-optimize=opt-level=1 | FileCheck %s --check-prefix=O1
// RUN: relay-mlir-opt %s --relay-optimize=opt-level=2 | FileCheck %s --check-prefix=O2
// RUN: relay-mlir-opt %s --relay-optimize | FileCheck %s --check-prefix=O3
// RUN: relay-mlir-opt %s --relay-optimize="opt-level=3 disabled-passes=FuseOps,relay-fold-scale-axis" | FileCheck %s --check-prefix=DISABLED
// RUN: relay-mlir-opt %s --relay-optimize="opt-level=0 required-passes=FoldConstant" | FileCheck %s --check-prefix=REQUIRED

// Tests what each level does to a convolution with a batch norm whose
// statistics are constants, an expression of constants, and a function
// nothing calls:
// -O0 only simplifies the batch norm (SimplifyInference);
// O0-LABEL: relay.func @main(
// O0-NOT: relay.nn.batch_norm
// O0-DAG: relay.sqrt
// O0-DAG: relay.nn.conv2d
// O0: relay.multiply
// O0-NOT: relay.call
// O0: relay.func @unused(
// -O1 also fuses (FuseOps) and removes @unused (DeadCodeElimination);
// O1-LABEL: relay.func @main(
// O1-NOT: relay.nn.conv2d
// O1: relay.call @fused_
// O1-NOT: relay.func @unused(
// O1: attributes {relay.primitive}
// -O2 folds the constants: the statistics' arithmetic is gone;
// O2-LABEL: relay.func @main(
// O2-NOT: relay.sqrt
// O2: relay.call @fused_nn_conv2d_multiply_add_nn_relu(
// O2-NOT: relay.sqrt
// -O3 folds the batch norm's scale into the convolution's weight.
// O3-LABEL: relay.func @main(
// O3: relay.call @fused_nn_conv2d_add_nn_relu(
// O3-NOT: relay.multiply
// DISABLED-LABEL: relay.func @main(
// DISABLED-NOT: relay.call
// DISABLED: relay.nn.conv2d
// DISABLED-NEXT: relay.multiply
// REQUIRED-LABEL: relay.func @main(
// REQUIRED-NOT: relay.sqrt
// REQUIRED: relay.nn.conv2d
// REQUIRED-NEXT: relay.multiply
// REQUIRED: relay.func @unused(
relay.func @main(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = relay.constant dense<0.5> : tensor<2x2x3x3xf32>
  %g = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %be = relay.constant dense<[0.1, 0.2]> : tensor<2xf32>
  %m = relay.constant dense<[0.3, -0.3]> : tensor<2xf32>
  %v = relay.constant dense<[4.0, 9.0]> : tensor<2xf32>
  %c = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  %t = relay.nn.batch_norm %c, %g, %be, %m, %v : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>>
  %y = relay.tuple_get %t[0] : tuple<tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>>
  %r = relay.nn.relu %y : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  relay.return %r : tensor<1x2x4x4xf32>
}
relay.func @unused(%x: tensor<2xf32>) -> tensor<2xf32> {
  relay.return %x : tensor<2xf32>
}

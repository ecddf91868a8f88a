// RUN: not relay-mlir-opt %s --relay-optimize=opt-level=4 2>&1 | FileCheck %s --check-prefix=LEVEL
// RUN: not relay-mlir-opt %s --relay-optimize=disabled-passes=FuseOp 2>&1 | FileCheck %s --check-prefix=DISABLED
// RUN: not relay-mlir-opt %s --relay-optimize=required-passes=AlterLayout 2>&1 | FileCheck %s --check-prefix=REQUIRED
// RUN: not relay-mlir-opt %s --relay-to-llvm=opt-level=-1 2>&1 | FileCheck %s --check-prefix=PIPELINE

// Tests that a level outside 0..3 and unknown pass names are errors that
// list what is known.
// LEVEL: error: --relay-optimize: opt-level must be 0, 1, 2 or 3, got 4
// DISABLED: error: --relay-optimize: unknown pass 'FuseOp' in disabled-passes (known: FakeQuantizationToInteger (relay-fake-quantization-to-integer), SimplifyInference (relay-simplify-inference), {{.*}}FuseOps (relay-fuse-ops))
// REQUIRED: error: --relay-optimize: unknown pass 'AlterLayout' in required-passes
// PIPELINE: error: --relay-optimize: opt-level must be 0, 1, 2 or 3, got -1
relay.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  relay.return %x : tensor<2xf32>
}

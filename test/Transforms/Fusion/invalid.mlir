// RUN: not relay-mlir-opt %s --relay-fuse-ops=max-depth=0 2>&1 | FileCheck %s
// RUN: not relay-mlir-opt %s --relay-fuse-ops=fuse-level=1 2>&1 | FileCheck %s --check-prefix=OPTION

// Tests that a group bound below one operator is refused, and that an
// unknown option of the pass is an error.
// CHECK: error: --relay-fuse-ops: max-depth must be at least 1, got 0
// OPTION: no such option fuse-level
relay.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = relay.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  relay.return %e : tensor<4xf32>
}

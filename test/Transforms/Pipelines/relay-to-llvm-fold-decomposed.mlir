// RUN: relay-mlir-opt %s --relay-to-llvm="threads=1 cpu=znver4" --mlir-print-ir-after=relay-decompose,relay-fold-constant -o /dev/null 2>&1 | FileCheck %s
// RUN: relay-mlir-opt %s --relay-to-llvm="threads=1 cpu=znver4 opt-level=1" --mlir-print-ir-after=relay-decompose,relay-fold-constant -o /dev/null 2>&1 | FileCheck %s --check-prefix=O1

// Tests that --relay-to-llvm folds the operators of constants its
// decompositions make (at the -O levels with FoldConstant): a 3-d
// convolution becomes a 2-d one whose weights are the 3-d ones with the
// depth taps moved next to the input channels, a transpose of a constant
// that is computed once, not on every run. At -O1 (no FoldConstant) it
// stays.
// CHECK-LABEL: IR Dump After Decompose
// CHECK: %[[W:.*]] = relay.transpose %{{.*}} {axes = array<i64: 0, 2, 1, 3, 4>} : (tensor<8x4x3x3x3xf32>) -> tensor<8x3x4x3x3xf32>
// CHECK: relay.nn.conv2d
// CHECK-LABEL: IR Dump After FoldConstant
// CHECK-NOT: (tensor<8x4x3x3x3xf32>) -> tensor<8x3x4x3x3xf32>
// CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} {{.*}} : (tensor<4x12x8x8xf32>, tensor<8x12x3x3xf32>)
// O1-LABEL: IR Dump After Decompose
// O1-NOT: IR Dump After FoldConstant
// O1: relay.transpose %{{.*}} : (tensor<8x4x3x3x3xf32>) -> tensor<8x3x4x3x3xf32>
relay.func @main(%x: tensor<1x4x4x8x8xf32>) -> tensor<1x8x4x8x8xf32> {
  %w = relay.constant dense<[[[[[0.5, 0.25, 0.125]]]]]> : tensor<1x1x1x1x3xf32>
  %wb = relay.broadcast_to %w {shape = array<i64: 8, 4, 3, 3, 3>} : (tensor<1x1x1x1x3xf32>) -> tensor<8x4x3x3x3xf32>
  %r = relay.nn.conv3d %x, %wb {channels = 8 : i64, kernel_size = array<i64: 3, 3, 3>, padding = array<i64: 1, 1, 1>} : (tensor<1x4x4x8x8xf32>, tensor<8x4x3x3x3xf32>) -> tensor<1x8x4x8x8xf32>
  relay.return %r : tensor<1x8x4x8x8xf32>
}

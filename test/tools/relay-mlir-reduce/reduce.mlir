// RUN: relay-mlir-reduce %s --reduction-tree='traversal-mode=0 test=%S/has-conv.sh test-arg=%relay_tools/relay-mlir-opt' 2>/dev/null | FileCheck %s

// Tests that MLIR's reducer shrinks a Relay program to what the
// interestingness test needs: the function that does not matter goes, the
// convolution (and the valid program around it) stays.
// CHECK: relay.func @main(
// CHECK: relay.nn.conv2d
// CHECK-NOT: relay.func @unused
relay.func @main(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %c = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %r = relay.nn.relu %c : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  relay.return %r : tensor<1x4x8x8xf32>
}
relay.func @unused(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = relay.exp %x : (tensor<2xf32>) -> tensor<2xf32>
  relay.return %y : tensor<2xf32>
}

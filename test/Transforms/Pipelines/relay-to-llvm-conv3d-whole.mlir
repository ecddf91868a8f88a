// RUN: relay-mlir-opt %s --relay-to-llvm="threads=1 cpu=znver4" --mlir-print-ir-after=relay-decompose -o /dev/null 2>&1 | FileCheck %s
// RUN: relay-mlir-opt %s --relay-to-llvm="threads=1 cpu=znver4 precision=bf16" --mlir-print-ir-after=relay-decompose -o /dev/null 2>&1 | FileCheck %s --check-prefix=BF16

// Tests that --relay-to-llvm keeps whole the 3-d convolutions the CPU
// target computes itself (Winograd on each depth slice), and that at
// precision bf16, whose products are narrowed, it decomposes them (the
// 3-d kernel is a float32 one).
// CHECK-LABEL: IR Dump After Decompose
// CHECK: relay.nn.conv3d
// CHECK-NOT: relay.nn.conv2d
// BF16-LABEL: IR Dump After Decompose
// BF16-NOT: relay.nn.conv3d
// BF16: relay.nn.conv2d
relay.func @main(%x: tensor<1x16x4x16x16xf32>, %w: tensor<16x16x3x3x3xf32>) -> tensor<1x16x4x16x16xf32> {
  %r = relay.nn.conv3d %x, %w {padding = array<i64: 1>} : (tensor<1x16x4x16x16xf32>, tensor<16x16x3x3x3xf32>) -> tensor<1x16x4x16x16xf32>
  relay.return %r : tensor<1x16x4x16x16xf32>
}

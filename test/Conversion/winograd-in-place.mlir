// RUN: relay-mlir-opt %s --pass-pipeline='builtin.module(relay-to-llvm{threads=2 cpu=znver4})' --mlir-print-ir-after=relay-parallelize-loops -o /dev/null 2>&1 | FileCheck %s
// A Winograd convolution bufferizes in place: every transform writes into
// the buffer the next step reads (no copies of transformed planes), and
// its two bands of tile rows become one parallel loop.

// CHECK-LABEL: IR Dump After ParallelizeLoops
// CHECK-NOT: memref.copy
// CHECK-NOT: linalg.copy
// CHECK: scf.forall (%{{.*}}) = (0) to (24) step (12) {
// CHECK-NOT: memref.copy
// CHECK-NOT: linalg.copy
relay.func @main(%x: tensor<1x16x24x24xf32>) -> tensor<1x16x24x24xf32> {
  %w = relay.constant dense<0.5> : tensor<16x16x3x3xf32>
  %r = relay.nn.conv2d %x, %w {channels = 16 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x16x24x24xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x24x24xf32>
  relay.return %r : tensor<1x16x24x24xf32>
}

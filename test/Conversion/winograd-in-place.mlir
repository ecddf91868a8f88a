// RUN: relay-mlir-opt %s --pass-pipeline='builtin.module(relay-to-llvm{threads=2 cpu=znver4})' --mlir-print-ir-after=relay-parallelize-loops -o /dev/null 2>&1 | FileCheck %s
// A Winograd convolution bufferizes in place: every transform writes into
// the buffer the next step reads (no copies of transformed planes), and
// its bands of tile rows (two of 7 here: the whole image's transformed
// input would not fit the 1 MB L2 cache) become one parallel loop.

// CHECK-LABEL: IR Dump After ParallelizeLoops
// CHECK-NOT: memref.copy
// CHECK-NOT: linalg.copy
// CHECK: scf.forall (%{{.*}}) = (0) to (56) step (28) {
// CHECK-NOT: memref.copy
// CHECK-NOT: linalg.copy
relay.func @main(%x: tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32> {
  %w = relay.constant dense<0.5> : tensor<64x64x3x3xf32>
  %r = relay.nn.conv2d %x, %w {channels = 64 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32>
  relay.return %r : tensor<1x64x56x56xf32>
}

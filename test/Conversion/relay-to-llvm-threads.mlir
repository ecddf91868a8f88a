// RUN: relay-mlir-opt %s --relay-to-llvm="threads=2 cpu=znver4" | FileCheck %s
// With threads, a large product's tiles are outlined into a function the
// async runtime's workers call, one task per block of tiles.
// CHECK-DAG: llvm.func @parallel_compute_fn(
// CHECK-DAG: llvm.call @mlirAsyncRuntimeExecute(
// CHECK-DAG: llvm.call @mlirAsyncRuntimeAwaitAllInGroup(
// CHECK-NOT: async.
// CHECK-NOT: scf.
relay.func @main(%x: tensor<256x512xf32>, %w: tensor<512x512xf32>) -> tensor<256x512xf32> {
  %y = relay.nn.dense %x, %w : (tensor<256x512xf32>, tensor<512x512xf32>) -> tensor<256x512xf32>
  relay.return %y : tensor<256x512xf32>
}

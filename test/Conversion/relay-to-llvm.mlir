// RUN: relay-mlir-opt %s --relay-to-llvm=cpu=znver4 | FileCheck %s
// The whole pipeline ends in the LLVM dialect, with a C interface for each
// function.
// CHECK: llvm.func @main(
// CHECK: llvm.func @_mlir_ciface_main(
// CHECK-NOT: relay.
// CHECK-NOT: linalg.
relay.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %s = relay.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %e = relay.exp %s : (tensor<4xf32>) -> tensor<4xf32>
  relay.return %e : tensor<4xf32>
}

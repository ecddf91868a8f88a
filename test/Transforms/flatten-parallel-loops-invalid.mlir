// RUN: not relay-mlir-opt %s --relay-flatten-parallel-loops=blocks=-2 2>&1 | FileCheck %s

// Tests that a negative block count is an error naming the option and the
// value, not a silent no-op.
// CHECK: error: --relay-flatten-parallel-loops: blocks must be at least 0, got -2
func.func @row(%out: memref<25xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c25 = arith.constant 25 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c25) step (%c1) {
    memref.store %one, %out[%i] : memref<25xf32>
  }
  return
}

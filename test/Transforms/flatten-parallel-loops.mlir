// RUN: relay-mlir-opt %s --relay-flatten-parallel-loops --split-input-file | FileCheck %s

// Tests that an scf.parallel over two dimensions becomes one over their
// product, the indices recovered by remainder and division.
// CHECK-LABEL: func.func @tiles
// CHECK-DAG:   %[[C7:.*]] = arith.constant 7 : index
// CHECK-DAG:   %[[C175:.*]] = arith.constant 175 : index
// CHECK:       scf.parallel (%[[IJ:.*]]) = (%{{.*}}) to (%[[C175]]) step (%{{.*}}) {
// CHECK:         %[[J:.*]] = arith.remsi %[[IJ]], %[[C7]] : index
// CHECK:         %[[I:.*]] = arith.divsi %[[IJ]], %[[C7]] : index
// CHECK:         memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
// CHECK-NOT:   scf.parallel
func.func @tiles(%out: memref<25x7xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c25 = arith.constant 25 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c25, %c7) step (%c1, %c1) {
    memref.store %one, %out[%i, %j] : memref<25x7xf32>
  }
  return
}

// -----

// Tests that a one-dimensional scf.parallel is left as it is.
// CHECK-LABEL: func.func @row
// CHECK:       scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK-NEXT:    memref.store
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

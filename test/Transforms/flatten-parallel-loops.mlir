// RUN: relay-mlir-opt %s --relay-flatten-parallel-loops --split-input-file | FileCheck %s
// RUN: relay-mlir-opt %s --relay-flatten-parallel-loops=blocks=2 --split-input-file | FileCheck %s --check-prefix=BLOCKS

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

// -----

// Tests that with blocks=2 a loop of 25 iterations from 3 in steps of 2
// becomes two blocks of 13 consecutive iterations (the last one shorter),
// each a sequential loop: --async-parallel-for then starts one task per
// thread, not one per iteration.
// BLOCKS-LABEL: func.func @strided
// BLOCKS-DAG:   %[[C0:.*]] = arith.constant 0 : index
// BLOCKS-DAG:   %[[C1:.*]] = arith.constant 1 : index
// BLOCKS-DAG:   %[[C3:.*]] = arith.constant 3 : index
// BLOCKS-DAG:   %[[C26:.*]] = arith.constant 26 : index
// BLOCKS-DAG:   %[[C53:.*]] = arith.constant 53 : index
// BLOCKS:       scf.parallel (%[[B:.*]]) = (%[[C0]]) to (%{{.*}}) step (%[[C1]]) {
// BLOCKS:         %[[OFF:.*]] = arith.muli %[[B]], %[[C26]] : index
// BLOCKS:         %[[BEGIN:.*]] = arith.addi %[[OFF]], %[[C3]] : index
// BLOCKS:         %[[NEXT:.*]] = arith.addi %[[BEGIN]], %[[C26]] : index
// BLOCKS:         %[[END:.*]] = arith.minsi %[[NEXT]], %[[C53]] : index
// BLOCKS:         scf.for %[[I:.*]] = %[[BEGIN]] to %[[END]] step %{{.*}} {
// BLOCKS-NEXT:      memref.store %{{.*}}, %{{.*}}[%[[I]]]
// BLOCKS-NOT:   scf.parallel
func.func @strided(%out: memref<53xf32>) {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c53 = arith.constant 53 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c3) to (%c53) step (%c2) {
    memref.store %one, %out[%i] : memref<53xf32>
  }
  return
}

// -----

// Tests that with blocks=2 a loop of two iterations, and one whose bounds
// are not constants, are left as they are.
// BLOCKS-LABEL: func.func @few_or_dynamic
// BLOCKS:       scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// BLOCKS-NEXT:    memref.store
// BLOCKS:       scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// BLOCKS-NEXT:    memref.store
func.func @few_or_dynamic(%out: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    memref.store %one, %out[%i] : memref<?xf32>
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %one, %out[%i] : memref<?xf32>
  }
  return
}

// RUN: relay-mlir-opt %s --relay-parallelize-loops | FileCheck %s

// A loop marked as having independent iterations becomes an scf.forall
// with the same bounds and body (its buffers still allocated and freed per
// iteration); unmarked loops stay sequential.
// CHECK-LABEL: func.func @bands
// CHECK:       scf.forall (%[[I:.*]]) = (0) to (64) step (16) {
// CHECK:         %[[T:.*]] = memref.alloc() : memref<16xf32>
// CHECK:         linalg.fill {{.*}} outs(%[[T]] : memref<16xf32>)
// CHECK:         memref.subview %{{.*}}[%[[I]]] [16] [1]
// CHECK:         memref.copy %[[T]]
// CHECK:         memref.dealloc %[[T]]
// CHECK:       }
// CHECK-NOT:   relay.independent_iterations
// CHECK:       scf.for
// CHECK:       return
func.func @bands(%out: memref<64xf32>) {
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c16 {
    %t = memref.alloc() : memref<16xf32>
    linalg.fill ins(%z : f32) outs(%t : memref<16xf32>)
    %v = memref.subview %out[%i] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1], offset: ?>>
    memref.copy %t, %v : memref<16xf32> to memref<16xf32, strided<[1], offset: ?>>
    memref.dealloc %t : memref<16xf32>
  } {relay.independent_iterations}
  scf.for %i = %c0 to %c64 step %c16 {
    %v = memref.subview %out[%i] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1], offset: ?>>
    linalg.fill ins(%z : f32) outs(%v : memref<16xf32, strided<[1], offset: ?>>)
  }
  return
}

// Tests that only the outermost of nested marked loops becomes an
// scf.forall: the threads are busy with it, the inner loop stays sequential
// inside each task.
// CHECK-LABEL: func.func @nested
// CHECK:       scf.forall (%{{.*}}) in (4) {
// CHECK-NOT:     scf.forall
// CHECK:         scf.for %{{.*}} = %c0 to %c64 step %c16 {
// CHECK:       }
// CHECK:       return
func.func @nested(%out: memref<4x64xf32>) {
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  scf.for %r = %c0 to %c4 step %c1 {
    scf.for %i = %c0 to %c64 step %c16 {
      %v = memref.subview %out[%r, %i] [1, 16] [1, 1] : memref<4x64xf32> to memref<16xf32, strided<[1], offset: ?>>
      linalg.fill ins(%z : f32) outs(%v : memref<16xf32, strided<[1], offset: ?>>)
    } {relay.independent_iterations}
  } {relay.independent_iterations}
  return
}

// Tests that a marked loop inside an scf.forall stays sequential.
// CHECK-LABEL: func.func @inside_forall
// CHECK:       scf.forall
// CHECK-NOT:     scf.forall
// CHECK:         scf.for
// CHECK:       return
func.func @inside_forall(%out: memref<4x64xf32>) {
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  scf.forall (%r) in (4) {
    scf.for %i = %c0 to %c64 step %c16 {
      %v = memref.subview %out[%r, %i] [1, 16] [1, 1] : memref<4x64xf32> to memref<16xf32, strided<[1], offset: ?>>
      linalg.fill ins(%z : f32) outs(%v : memref<16xf32, strided<[1], offset: ?>>)
    } {relay.independent_iterations}
  }
  return
}

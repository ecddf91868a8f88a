// RUN: relay-mlir-opt %s --relay-hoist-deallocs --split-input-file | FileCheck %s

// Each buffer is freed after the last op that uses it or a view of it (a
// loop using it counts as the use), before later buffers are allocated.
// CHECK-LABEL: func.func @sequence
// CHECK:       %[[A:.*]] = memref.alloc() : memref<64xf32>
// CHECK:       linalg.fill {{.*}} outs(%[[A]] : memref<64xf32>)
// CHECK:       %[[V:.*]] = memref.expand_shape %[[A]]
// CHECK:       scf.for
// CHECK:         memref.load %[[V]]
// CHECK:       }
// CHECK-NEXT:  memref.dealloc %[[A]] : memref<64xf32>
// CHECK-NEXT:  %[[B:.*]] = memref.alloc() : memref<64xf32>
// CHECK:       linalg.fill {{.*}} outs(%[[B]] : memref<64xf32>)
// CHECK-NEXT:  memref.dealloc %[[B]] : memref<64xf32>
// CHECK-NEXT:  return
func.func @sequence(%out: memref<64xf32>) {
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %a = memref.alloc() : memref<64xf32>
  linalg.fill ins(%z : f32) outs(%a : memref<64xf32>)
  %v = memref.expand_shape %a [[0, 1]] output_shape [8, 8] : memref<64xf32> into memref<8x8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %v[%i, %c0] : memref<8x8xf32>
    memref.store %x, %out[%i] : memref<64xf32>
  }
  %b = memref.alloc() : memref<64xf32>
  linalg.fill ins(%z : f32) outs(%b : memref<64xf32>)
  memref.dealloc %a : memref<64xf32>
  memref.dealloc %b : memref<64xf32>
  return
}

// -----

// A buffer whose view is returned, or that an op other than a view derives
// a buffer from, keeps its deallocation where it was.
// CHECK-LABEL: func.func @kept
// CHECK:       %[[A:.*]] = memref.alloc() : memref<64xf32>
// CHECK:       %[[B:.*]] = memref.alloc() : memref<64xf32>
// CHECK:       %[[S:.*]] = arith.select
// CHECK:       linalg.fill
// CHECK-NEXT:  memref.dealloc %[[A]]
// CHECK-NEXT:  memref.dealloc %[[B]]
// CHECK-NEXT:  return
func.func @kept(%c: i1) -> memref<8x8xf32> {
  %z = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  %s = arith.select %c, %a, %b : memref<64xf32>
  %r = memref.alloc() : memref<8x8xf32>
  linalg.fill ins(%z : f32) outs(%r : memref<8x8xf32>)
  memref.dealloc %a : memref<64xf32>
  memref.dealloc %b : memref<64xf32>
  return %r : memref<8x8xf32>
}

// -----

// A buffer whose address is taken (a tensor boxed into an ADT or a
// closure: the runtime call reads it through the pointer) stays alive to
// the end.
// CHECK-LABEL: func.func @address_taken
// CHECK:       %[[A:.*]] = memref.alloc() : memref<64xf32>
// CHECK:       memref.extract_aligned_pointer_as_index %[[A]]
// CHECK:       call @read
// CHECK-NEXT:  memref.dealloc %[[A]]
func.func private @read(index)
func.func @address_taken() {
  %z = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<64xf32>
  linalg.fill ins(%z : f32) outs(%a : memref<64xf32>)
  %p = memref.extract_aligned_pointer_as_index %a : memref<64xf32> -> index
  func.call @read(%p) : (index) -> ()
  memref.dealloc %a : memref<64xf32>
  return
}

// RUN: relay-mlir-opt %s --split-input-file --verify-diagnostics \
// RUN:   --relay-gpu-managed-memory | FileCheck %s

// Tests that an entry function's buffers are managed memory: its argument is
// copied in, its temporary allocated and freed as managed memory, the
// constant copied into a managed buffer, and its result copied into a host
// buffer (which the caller frees) before the managed ones are freed. Copies
// and frees run on a stream each, waited for.

memref.global "private" constant @weights : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @main(%x: memref<4xf32>) -> memref<4xf32> {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %w = memref.get_global @weights : memref<4xf32>
  %t = memref.alloc() : memref<4xf32>
  %r = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %a = memref.load %x[%tx] : memref<4xf32>
    %b = memref.load %w[%tx] : memref<4xf32>
    %s = arith.addf %a, %b : f32
    memref.store %s, %t[%tx] : memref<4xf32>
    memref.store %s, %r[%tx] : memref<4xf32>
    gpu.terminator
  }
  memref.dealloc %t : memref<4xf32>
  return %r : memref<4xf32>
}
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[X:.*]]: memref<4xf32>)
// CHECK:         %[[XM:.*]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK:         %[[S0:.*]] = gpu.wait async
// CHECK:         %[[S1:.*]] = gpu.memcpy async [%[[S0]]] %[[XM]], %[[X]]
// CHECK:         gpu.wait [%[[S1]]]
// CHECK:         %[[W:.*]] = memref.get_global @weights
// CHECK:         %[[WM:.*]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK:         gpu.memcpy async [%{{.*}}] %[[WM]], %[[W]]
// CHECK:         %[[T:.*]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK:         %[[R:.*]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK:         gpu.launch
// CHECK:           memref.load %[[XM]]
// CHECK:           memref.load %[[WM]]
// CHECK:           memref.store %{{.*}}, %[[T]]
// CHECK:           memref.store %{{.*}}, %[[R]]
// CHECK:         gpu.dealloc async [%{{.*}}] %[[T]]
// CHECK:         %[[HOST:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         gpu.memcpy async [%{{.*}}] %[[HOST]], %[[R]]
// CHECK:         gpu.dealloc async [%{{.*}}] %[[R]]
// CHECK:         gpu.dealloc async [%{{.*}}] %[[WM]]
// CHECK:         gpu.dealloc async [%{{.*}}] %[[XM]]
// CHECK:         return %[[HOST]] : memref<4xf32>

// -----

// Tests that a private function keeps its buffers (the caller's managed
// ones) and returns its managed result as it is, and that dynamic sizes of
// an argument's copy are read from the argument.

func.func private @helper(%x: memref<?xf32>) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %r = memref.alloc(%n) : memref<?xf32>
  memref.copy %x, %r : memref<?xf32> to memref<?xf32>
  return %r : memref<?xf32>
}
// CHECK-LABEL: func.func private @helper
// CHECK-SAME:    (%[[X:.*]]: memref<?xf32>)
// CHECK:         %[[N:.*]] = memref.dim %[[X]]
// CHECK:         %[[R:.*]] = gpu.alloc host_shared (%[[N]]) : memref<?xf32>
// CHECK:         memref.copy %[[X]], %[[R]]
// CHECK-NOT:     gpu.memcpy
// CHECK:         return %[[R]]

func.func @entry(%x: memref<?xf32>) -> memref<?xf32> {
  %r = func.call @helper(%x) : (memref<?xf32>) -> memref<?xf32>
  return %r : memref<?xf32>
}
// CHECK-LABEL: func.func @entry
// CHECK-SAME:    (%[[X:.*]]: memref<?xf32>)
// CHECK:         %[[N:.*]] = memref.dim %[[X]]
// CHECK:         %[[XM:.*]] = gpu.alloc host_shared (%[[N]]) : memref<?xf32>
// CHECK:         gpu.memcpy async [%{{.*}}] %[[XM]], %[[X]]
// CHECK:         %[[R:.*]] = call @helper(%[[XM]])
// CHECK:         %[[M:.*]] = memref.dim %[[R]]
// CHECK:         %[[HOST:.*]] = memref.alloc(%[[M]]) : memref<?xf32>
// CHECK:         gpu.memcpy async [%{{.*}}] %[[HOST]], %[[R]]
// CHECK:         gpu.dealloc async [%{{.*}}] %[[R]]
// CHECK:         gpu.dealloc async [%{{.*}}] %[[XM]]
// CHECK:         return %[[HOST]]

// -----

// Tests that a kernel reading a buffer on the host's stack is an error.

func.func @stack(%v: f32) {
  %c1 = arith.constant 1 : index
  // expected-note @below {{allocated here}}
  %s = memref.alloca() : memref<1xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @below {{a GPU kernel reads a buffer on the host's stack (memref.alloca)}}
    memref.store %v, %s[%tx] : memref<1xf32>
    gpu.terminator
  }
  return
}

// RUN: relay-mlir-opt %s --split-input-file --verify-diagnostics \
// RUN:   --relay-gpu-managed-memory | FileCheck %s

// Tests that an entry function's buffers are managed memory: its argument is
// copied in, its temporary allocated and freed as managed memory, and its
// result copied into a host buffer (which the caller frees) before the
// managed ones are freed; copies and frees run on a stream each, waited
// for. The constant is uploaded once per loaded module: the runtime's
// relay_cuda_constant fills a module-level slot on the first call, the
// kernel reads the slot's pointer through a memref descriptor, and the
// module's destructor releases it.

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
// CHECK:       llvm.mlir.global internal @[[$SLOT:weights__cuda]]() {{.*}} : !llvm.ptr {
// CHECK:         llvm.mlir.zero : !llvm.ptr
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[X:.*]]: memref<4xf32>)
// CHECK:         %[[XM:.*]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK:         %[[S0:.*]] = gpu.wait async
// CHECK:         %[[S1:.*]] = gpu.memcpy async [%[[S0]]] %[[XM]], %[[X]]
// CHECK:         gpu.wait [%[[S1]]]
// CHECK:         %[[W:.*]] = memref.get_global @weights
// CHECK:         %[[HOST:.*]] = memref.extract_aligned_pointer_as_index %[[W]]
// CHECK:         %[[SLOTPTR:.*]] = llvm.mlir.addressof @[[$SLOT]]
// CHECK:         %[[BYTES:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK:         %[[DEVICE:.*]] = llvm.call @relay_cuda_constant(%[[SLOTPTR]], %{{.*}}, %[[BYTES]])
// CHECK:         llvm.insertvalue %[[DEVICE]], %{{.*}}[0]
// CHECK:         llvm.insertvalue %[[DEVICE]], %{{.*}}[1]
// CHECK:         %[[WM:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<4xf32>
// CHECK:         %[[T:.*]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK:         %[[R:.*]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK:         gpu.launch
// CHECK:           memref.load %[[XM]]
// CHECK:           memref.load %[[WM]]
// CHECK:           memref.store %{{.*}}, %[[T]]
// CHECK:           memref.store %{{.*}}, %[[R]]
// CHECK:         gpu.dealloc async [%{{.*}}] %[[T]]
// CHECK:         %[[OUT:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         gpu.memcpy async [%{{.*}}] %[[OUT]], %[[R]]
// CHECK:         gpu.dealloc async [%{{.*}}] %[[R]]
// CHECK-NOT:     gpu.dealloc async [%{{.*}}] %[[WM]]
// CHECK:         gpu.dealloc async [%{{.*}}] %[[XM]]
// CHECK:         return %[[OUT]] : memref<4xf32>
// CHECK:       llvm.func @relay_cuda_constant(!llvm.ptr, !llvm.ptr, i64) -> !llvm.ptr
// CHECK:       llvm.func @relay_cuda_constant_release(!llvm.ptr)
// CHECK:       llvm.func internal @__relay_cuda_release_constants() {
// CHECK:         %[[S:.*]] = llvm.mlir.addressof @[[$SLOT]]
// CHECK:         llvm.call @relay_cuda_constant_release(%[[S]])
// CHECK:       llvm.mlir.global_dtors {{.*}}@__relay_cuda_release_constants

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

// Tests that a public function the module also calls (a Relay global
// function called by another; here recursively) keeps its name as an
// entry that copies in and out around a call of a private copy of its body,
// and that the module's calls, the recursive one included, take the
// private one: managed buffers in, managed buffers out (copying at each
// call would hand kernels host buffers).

func.func @step(%x: memref<4xf32>, %n: i32) -> memref<4xf32> attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %done = arith.cmpi eq, %n, %c0 : i32
  %r = scf.if %done -> memref<4xf32> {
    %copy = memref.alloc() : memref<4xf32>
    memref.copy %x, %copy : memref<4xf32> to memref<4xf32>
    scf.yield %copy : memref<4xf32>
  } else {
    %m = arith.subi %n, %c1 : i32
    %inner = func.call @step(%x, %m) : (memref<4xf32>, i32) -> memref<4xf32>
    scf.yield %inner : memref<4xf32>
  }
  return %r : memref<4xf32>
}
func.func @main(%x: memref<4xf32>) -> memref<4xf32> {
  %c3 = arith.constant 3 : i32
  %r = func.call @step(%x, %c3) : (memref<4xf32>, i32) -> memref<4xf32>
  return %r : memref<4xf32>
}
// CHECK-LABEL: func.func @step
// CHECK-SAME:    (%[[X:.*]]: memref<4xf32>, %[[N:.*]]: i32) -> memref<4xf32> attributes {llvm.emit_c_interface}
// CHECK:         %[[XM:.*]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK:         gpu.memcpy async [%{{.*}}] %[[XM]], %[[X]]
// CHECK:         %[[R:.*]] = call @step_device(%[[XM]], %[[N]])
// CHECK:         %[[HOST:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         gpu.memcpy async [%{{.*}}] %[[HOST]], %[[R]]
// CHECK:         gpu.dealloc async [%{{.*}}] %[[R]]
// CHECK:         gpu.dealloc async [%{{.*}}] %[[XM]]
// CHECK:         return %[[HOST]]
// CHECK-LABEL: func.func private @step_device
// CHECK-SAME:    (%[[X:.*]]: memref<4xf32>, %{{.*}}: i32) -> memref<4xf32> {
// CHECK-NOT:     gpu.memcpy
// CHECK:         gpu.alloc host_shared () : memref<4xf32>
// CHECK:         func.call @step_device(%[[X]],
// CHECK-NOT:     gpu.memcpy
// CHECK:         return
// CHECK-LABEL: func.func @main
// CHECK:         call @step_device(
// CHECK-NOT:     call @step(

// -----

// Tests that a mutable global is copied into managed memory for the call
// (and freed at its end), not uploaded once.

memref.global "private" @state : memref<2xf32> = dense<0.0>
func.func private @reads_state() -> f32 {
  %c0 = arith.constant 0 : index
  %s = memref.get_global @state : memref<2xf32>
  %v = memref.load %s[%c0] : memref<2xf32>
  return %v : f32
}
// CHECK-LABEL: func.func private @reads_state
// CHECK:         %[[G:.*]] = memref.get_global @state
// CHECK:         %[[M:.*]] = gpu.alloc host_shared () : memref<2xf32>
// CHECK:         gpu.memcpy async [%{{.*}}] %[[M]], %[[G]]
// CHECK:         memref.load %[[M]]
// CHECK:         gpu.dealloc async [%{{.*}}] %[[M]]
// CHECK-NOT:   relay_cuda_constant

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

// RUN: relay-mlir-opt %s --split-input-file --relay-elide-call-copies | FileCheck %s
// Copies that bufferization makes before calls inside a recursive group
// go where the callee only reads the argument (a fixpoint over the group),
// and stay where it writes, returns or stores it.

// @walk only reads %w (loads, a linalg input, a recursive call): the copy
// before each call goes and %w itself is passed.
// CHECK-LABEL: func.func @walk(
// CHECK-SAME: %[[N:.*]]: index, %[[W:.*]]: memref<4xf32>
// CHECK-NOT: memref.copy
// CHECK: call @walk(%{{.*}}, %[[W]])
// CHECK-LABEL: func.func @caller(
// CHECK-SAME: %[[V:.*]]: memref<4xf32>
// CHECK-NOT: memref.alloc
// CHECK: call @walk(%{{.*}}, %[[V]])
func.func @walk(%n: index, %w: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %done = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %done -> f32 {
    %x = memref.load %w[%c0] : memref<4xf32>
    scf.yield %x : f32
  } else {
    %m = arith.subi %n, %c1 : index
    %tmp = memref.alloc() : memref<4xf32>
    memref.copy %w, %tmp : memref<4xf32> to memref<4xf32>
    %y = func.call @walk(%m, %tmp) : (index, memref<4xf32>) -> f32
    %out = memref.alloc() : memref<4xf32>
    linalg.copy ins(%w : memref<4xf32>) outs(%out : memref<4xf32>)
    scf.yield %y : f32
  }
  return %r : f32
}
func.func @caller(%v: memref<4xf32>) -> f32 {
  %c3 = arith.constant 3 : index
  %tmp = memref.alloc() : memref<4xf32>
  memref.copy %v, %tmp : memref<4xf32> to memref<4xf32>
  %r = call @walk(%c3, %tmp) : (index, memref<4xf32>) -> f32
  return %r : f32
}

// -----

// @scribble writes its argument (through a view) and @relay passes its own
// on to @scribble: the copy before the call of @relay stays. (A callee
// that copies its argument before passing it on only reads it.)
// CHECK-LABEL: func.func @scribble(
// CHECK: memref.copy
// CHECK: call @relay(
// CHECK-LABEL: func.func @relay(
// CHECK-NEXT: call @scribble(
func.func @scribble(%n: index, %w: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %view = memref.subview %w[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  memref.store %one, %view[%c0] : memref<2xf32, strided<[1]>>
  %tmp = memref.alloc() : memref<4xf32>
  memref.copy %w, %tmp : memref<4xf32> to memref<4xf32>
  func.call @relay(%n, %tmp) : (index, memref<4xf32>) -> ()
  return
}
func.func @relay(%n: index, %w: memref<4xf32>) {
  func.call @scribble(%n, %w) : (index, memref<4xf32>) -> ()
  return
}

// -----

// A callee that returns its argument: the caller may write the result, so
// the copy stays.
// CHECK-LABEL: func.func @same(
// CHECK-LABEL: func.func @user(
// CHECK: memref.copy
// CHECK: call @same(
func.func @same(%w: memref<4xf32>) -> memref<4xf32> {
  return %w : memref<4xf32>
}
func.func @user(%v: memref<4xf32>) -> memref<4xf32> {
  %tmp = memref.alloc() : memref<4xf32>
  memref.copy %v, %tmp : memref<4xf32> to memref<4xf32>
  %r = call @same(%tmp) : (memref<4xf32>) -> memref<4xf32>
  return %r : memref<4xf32>
}

// -----

// Between the copy and the call the source is written: the copy holds the
// old value, so it stays.
// CHECK-LABEL: func.func @written_between(
// CHECK: memref.copy
// CHECK: memref.store
// CHECK: call @read(
func.func @read(%w: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %x = memref.load %w[%c0] : memref<4xf32>
  return %x : f32
}
func.func @written_between(%v: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %tmp = memref.alloc() : memref<4xf32>
  memref.copy %v, %tmp : memref<4xf32> to memref<4xf32>
  memref.store %one, %v[%c0] : memref<4xf32>
  %r = call @read(%tmp) : (memref<4xf32>) -> f32
  return %r : f32
}

// -----

// The source is also passed, as itself, to an argument the callee writes:
// the copy kept its old value for the argument only read, so it stays.
// CHECK-LABEL: func.func @aliased(
// CHECK: memref.copy
// CHECK: call @read_and_write(%{{.*}}, %arg0)
func.func @read_and_write(%r: memref<4xf32>, %w: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  memref.store %one, %w[%c0] : memref<4xf32>
  %x = memref.load %r[%c0] : memref<4xf32>
  return %x : f32
}
func.func @aliased(%v: memref<4xf32>) -> f32 {
  %tmp = memref.alloc() : memref<4xf32>
  memref.copy %v, %tmp : memref<4xf32> to memref<4xf32>
  %r = call @read_and_write(%tmp, %v) : (memref<4xf32>, memref<4xf32>) -> f32
  return %r : f32
}

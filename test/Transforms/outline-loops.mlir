// RUN: relay-mlir-opt %s --relay-outline-loops | FileCheck %s
// Each outermost loop nest becomes a call of a private noinline function;
// the same nest on other buffers calls the same function, constants are
// cloned in, values from outside become parameters, loop results become
// function results.

// CHECK-LABEL: func.func @two
// CHECK-SAME: (%[[A:.*]]: memref<8xf32>, %[[B:.*]]: memref<8xf32>, %[[S:.*]]: f32)
// CHECK-NOT: scf.for
// CHECK: call @[[$SCALE:relay_loop_nest]](%[[A]], %[[S]]) : (memref<8xf32>, f32) -> ()
// CHECK-NEXT: call @[[$SCALE]](%[[B]], %[[S]]) : (memref<8xf32>, f32) -> ()
// A different step is a different function.
// CHECK: call @[[$STEP2:relay_loop_nest_[0-9]+]](%[[B]], %[[S]])
// CHECK-NOT: scf.for
// CHECK: return

func.func @two(%a: memref<8xf32>, %b: memref<8xf32>, %s: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %a[%i] : memref<8xf32>
    %y = arith.mulf %x, %s : f32
    memref.store %y, %a[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %b[%i] : memref<8xf32>
    %y = arith.mulf %x, %s : f32
    memref.store %y, %b[%i] : memref<8xf32>
  }
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c8 step %c2 {
    %x = memref.load %b[%i] : memref<8xf32>
    %y = arith.mulf %x, %s : f32
    memref.store %y, %b[%i] : memref<8xf32>
  }
  return
}


// A loop with results: the function returns them; the inner loop moves
// with its nest.
// CHECK-LABEL: func.func @sum
// CHECK: %[[R:.*]] = call @[[$SUM:relay_loop_nest_[0-9]+]](%{{.*}}) : (memref<8xf32>) -> f32
// CHECK-NEXT: return %[[R]] : f32
func.func @sum(%a: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> f32 {
    %x = memref.load %a[%i] : memref<8xf32>
    %y = arith.addf %acc, %x : f32
    scf.for %j = %c0 to %c8 step %c1 {
      memref.store %y, %a[%j] : memref<8xf32>
    }
    scf.yield %y : f32
  }
  return %r : f32
}

// A linalg op is a loop nest too.
// CHECK-LABEL: func.func @fill
// CHECK: call @[[$FILL:relay_loop_nest_[0-9]+]](%{{.*}}, %{{.*}}) : (f32, memref<4x4xf32>) -> ()
func.func @fill(%a: memref<4x4xf32>, %v: f32) {
  linalg.fill ins(%v : f32) outs(%a : memref<4x4xf32>)
  return
}

// Tests that a loop carrying AMX tiles (a product's k loop) stays in its
// function: tiles cannot cross a call.
// CHECK-LABEL: func.func @tiles(
// CHECK: amx.tile_zero
// CHECK: scf.for {{.*}} -> (!amx.tile<16x16xf32>)
// CHECK: amx.tile_store
func.func @tiles(%out: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = amx.tile_zero : !amx.tile<16x16xf32>
  %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %zero) -> (!amx.tile<16x16xf32>) {
    scf.yield %t : !amx.tile<16x16xf32>
  }
  amx.tile_store %out[%c0, %c0], %sum : memref<16x16xf32>, !amx.tile<16x16xf32>
  return
}

// CHECK: func.func private @[[$SCALE]](%[[P:.*]]: memref<8xf32>, %[[Q:.*]]: f32) attributes {passthrough = ["noinline"], relay.loop_nest}
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: scf.for %{{.*}} = %[[C0]] to %[[C8]] step %[[C1]]
// CHECK: arith.mulf %{{.*}}, %[[Q]]
// CHECK: func.func private @[[$STEP2]](
// CHECK: arith.constant 2 : index
// CHECK: func.func private @[[$SUM]](%{{.*}}: memref<8xf32>) -> f32
// CHECK: %[[L:.*]] = scf.for
// CHECK: scf.for
// CHECK: return %[[L]] : f32
// CHECK: func.func private @[[$FILL]](
// CHECK-NEXT: linalg.fill
// CHECK-NOT: func.func

// RUN: relay-mlir-opt %s --cse | FileCheck %s

// Tests that upstream --cse merges pure Relay ops and keeps effects.

// CHECK-LABEL: relay.func @pure_ops(
// CHECK-SAME:      %[[A:.*]]: tensor<4xf32>
// CHECK:         %[[C:.*]] = relay.constant dense<2.000000e+00>
// CHECK-NOT:     relay.constant
// CHECK:         %[[S:.*]] = relay.multiply %[[A]], %[[C]]
// CHECK-NOT:     relay.multiply
// CHECK:         %[[T:.*]] = relay.tuple(%[[S]], %[[S]] :
// CHECK-NOT:     relay.tuple(
// CHECK:         relay.tuple_get %[[T]][0]
// CHECK-NOT:     relay.tuple_get
relay.func @pure_ops(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c1 = relay.constant dense<2.0> : tensor<f32>
  %c2 = relay.constant dense<2.0> : tensor<f32>
  %0 = relay.multiply %a, %c1 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = relay.multiply %a, %c2 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %t1 = relay.tuple(%0, %1 : tensor<4xf32>, tensor<4xf32>)
  %t2 = relay.tuple(%0, %1 : tensor<4xf32>, tensor<4xf32>)
  %x = relay.tuple_get %t1[0] : tuple<tensor<4xf32>, tensor<4xf32>>
  %y = relay.tuple_get %t2[0] : tuple<tensor<4xf32>, tensor<4xf32>>
  %s = relay.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  relay.return %s : tensor<4xf32>
}

// Two allocations are two cells; a read after a write is a new read.
// CHECK-LABEL: relay.func @refs_kept(
// CHECK:         %[[R1:.*]] = relay.ref %
// CHECK:         %[[R2:.*]] = relay.ref %
// CHECK:         relay.ref_read %[[R1]]
// CHECK:         relay.ref_write %[[R1]]
// CHECK:         relay.ref_read %[[R1]]
// CHECK:         relay.ref_read %[[R2]]
relay.func @refs_kept(%x: tensor<f32>) -> tensor<f32> {
  %r1 = relay.ref %x : tensor<f32>
  %r2 = relay.ref %x : tensor<f32>
  %v1 = relay.ref_read %r1 : !relay.ref<tensor<f32>>
  %u = relay.ref_write %r1, %x : !relay.ref<tensor<f32>>, tensor<f32>
  %v2 = relay.ref_read %r1 : !relay.ref<tensor<f32>>
  %v3 = relay.ref_read %r2 : !relay.ref<tensor<f32>>
  %s = relay.add %v1, %v2 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %t = relay.add %s, %v3 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  relay.return %t : tensor<f32>
}

relay.func @square(%x: tensor<f32>) -> tensor<f32> {
  %0 = relay.multiply %x, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
  relay.return %0 : tensor<f32>
}

relay.func @bump(%r: !relay.ref<tensor<f32>>) -> tensor<f32> {
  %v = relay.ref_read %r : !relay.ref<tensor<f32>>
  %w = relay.add %v, %v : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %u = relay.ref_write %r, %w : !relay.ref<tensor<f32>>, tensor<f32>
  relay.return %w : tensor<f32>
}

// Calls to pure functions are merged; calls to functions that touch
// references are not.
// CHECK-LABEL: relay.func @calls(
// CHECK:         relay.call @square
// CHECK-NOT:     relay.call @square
// CHECK:         relay.call @bump
// CHECK:         relay.call @bump
relay.func @calls(%x: tensor<f32>, %r: !relay.ref<tensor<f32>>) -> tensor<f32> {
  %0 = relay.call @square(%x) : (tensor<f32>) -> tensor<f32>
  %1 = relay.call @square(%x) : (tensor<f32>) -> tensor<f32>
  %2 = relay.call @bump(%r) : (!relay.ref<tensor<f32>>) -> tensor<f32>
  %3 = relay.call @bump(%r) : (!relay.ref<tensor<f32>>) -> tensor<f32>
  %s = relay.add %0, %1 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %t = relay.add %2, %3 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %u = relay.add %s, %t : (tensor<f32>, tensor<f32>) -> tensor<f32>
  relay.return %u : tensor<f32>
}

// Applying an unknown closure may have effects; applying a visible pure
// closure does not.
// CHECK-LABEL: relay.func @closures(
// CHECK:         relay.apply %[[F:.*]](%
// CHECK:         relay.apply %[[F]](%
// CHECK:         %[[G:.*]] = relay.fn
// CHECK:         relay.apply %[[G]](%
// CHECK-NOT:     relay.apply %[[G]](%
relay.func @closures(%f: !relay.fn<(tensor<f32>) -> tensor<f32>>, %x: tensor<f32>) -> tensor<f32> {
  %0 = relay.apply %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  %1 = relay.apply %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  %g = relay.fn (%y: tensor<f32>) -> tensor<f32> {
    %m = relay.multiply %y, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
    relay.return %m : tensor<f32>
  }
  %2 = relay.apply %g(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  %3 = relay.apply %g(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  %s = relay.add %0, %1 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %t = relay.add %2, %3 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %u = relay.add %s, %t : (tensor<f32>, tensor<f32>) -> tensor<f32>
  relay.return %u : tensor<f32>
}

// A recursive function that only computes is pure.
// CHECK-LABEL: relay.func @recursive_pure(
// CHECK:         relay.call @ackermann
// CHECK-NOT:     relay.call @ackermann
relay.func @ackermann(%m: tensor<i32>, %n: tensor<i32>) -> tensor<i32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %c = relay.equal %m, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r = relay.if %c : tensor<i1> -> tensor<i32> {
    relay.yield %n : tensor<i32>
  } else {
    %x = relay.call @ackermann(%n, %m) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    relay.yield %x : tensor<i32>
  }
  relay.return %r : tensor<i32>
}
relay.func @recursive_pure(%m: tensor<i32>) -> tensor<i32> {
  %0 = relay.call @ackermann(%m, %m) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %1 = relay.call @ackermann(%m, %m) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %s = relay.add %0, %1 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  relay.return %s : tensor<i32>
}

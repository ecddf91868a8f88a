// RUN: relay-mlir-opt %s --canonicalize | FileCheck %s

// Tests that upstream --canonicalize folds Relay projections of tuples and
// removes dead pure code, but keeps reference effects.

// CHECK-LABEL: relay.func @fold_projection(
// CHECK-SAME:      %[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<i32>
// CHECK-NEXT:    relay.return %[[B]] : tensor<i32>
relay.func @fold_projection(%a: tensor<f32>, %b: tensor<i32>) -> tensor<i32> {
  %t = relay.tuple(%a, %b : tensor<f32>, tensor<i32>)
  %x = relay.tuple_get %t[1] : tuple<tensor<f32>, tensor<i32>>
  relay.return %x : tensor<i32>
}

relay.func @pure(%x: tensor<f32>) -> tensor<f32> {
  relay.return %x : tensor<f32>
}

relay.func @impure(%r: !relay.ref<tensor<f32>>, %x: tensor<f32>) -> tensor<f32> {
  %u = relay.ref_write %r, %x : !relay.ref<tensor<f32>>, tensor<f32>
  relay.return %x : tensor<f32>
}

// CHECK-LABEL: relay.func @dead_code(
// CHECK-NOT:     relay.fn
// CHECK-NOT:     relay.call @pure
// CHECK-NOT:     relay.ref %
// CHECK:         relay.ref_write
// CHECK:         relay.call @impure
// CHECK:         relay.return
relay.func @dead_code(%x: tensor<f32>, %r: !relay.ref<tensor<f32>>) -> tensor<f32> {
  %unused_fn = relay.fn (%y: tensor<f32>) -> tensor<f32> {
    relay.return %y : tensor<f32>
  }
  %unused_call = relay.call @pure(%x) : (tensor<f32>) -> tensor<f32>
  %unused_ref = relay.ref %x : tensor<f32>
  %u = relay.ref_write %r, %x : !relay.ref<tensor<f32>>, tensor<f32>
  %v = relay.call @impure(%r, %x) : (!relay.ref<tensor<f32>>, tensor<f32>) -> tensor<f32>
  relay.return %x : tensor<f32>
}

// RUN: relay-mlir-opt %s --split-input-file --relay-outline-native-regions | FileCheck %s

// Tests that a run of operators native code lowers becomes one native
// region taking what the run uses from outside, with the constants it uses
// copied in, and that a dyn operator (its result sizes depend on values)
// stays outside, splitting the program into two regions around it.
// CHECK-LABEL: relay.func @split_by_dyn(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[S:.*]]: tensor<2xi64>)
// CHECK-NEXT: %[[A:.*]] = relay.call @split_by_dyn_native(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[R:.*]] = relay.dyn.reshape %[[A]], %[[S]]
// CHECK-NEXT: %[[B:.*]] = relay.call @split_by_dyn_native_0(%[[R]]) : (tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT: relay.return %[[B]]
// CHECK: relay.func private @split_by_dyn_native(%[[P:.*]]: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {relay.native_region}
// CHECK-NEXT: %[[C:.*]] = relay.constant dense<2.000000e+00>
// CHECK-NEXT: %[[M:.*]] = relay.multiply %[[P]], %[[C]]
// CHECK-NEXT: %[[E:.*]] = relay.exp %[[M]]
// CHECK-NEXT: relay.return %[[E]]
// CHECK: relay.func private @split_by_dyn_native_0(%[[Q:.*]]: tensor<?x?xf32>) -> tensor<?x?xf32> attributes {relay.native_region}
// CHECK-NEXT: relay.nn.relu %[[Q]]
relay.func @split_by_dyn(%x: tensor<2x3xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %c = relay.constant dense<2.0> : tensor<f32>
  %m = relay.multiply %x, %c : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %e = relay.exp %m : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = relay.dyn.reshape %e, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %b = relay.nn.relu %r : (tensor<?x?xf32>) -> tensor<?x?xf32>
  relay.return %b : tensor<?x?xf32>
}

// -----

// Tests that native ops which do not depend on an op native code cannot
// compute move before it (into the first region), and that a region whose
// values are used after it returns them as a tuple, projected at the call.
// CHECK-LABEL: relay.func @reordered(
// CHECK-NEXT: %[[T:.*]] = relay.call @reordered_native(%x, %y)
// CHECK-SAME: -> tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT: %[[A:.*]] = relay.tuple_get %[[T]][0]
// CHECK-NEXT: %[[B:.*]] = relay.tuple_get %[[T]][1]
// CHECK-NEXT: %[[D:.*]] = relay.dyn.reshape %[[A]], %s
// CHECK-NEXT: %[[F:.*]] = relay.tuple(%[[D]], %[[B]]
// CHECK-NEXT: relay.return %[[F]]
// CHECK: relay.func private @reordered_native(
// CHECK-NEXT: relay.exp
// CHECK-NEXT: relay.negative
// CHECK-NEXT: relay.tuple(
relay.func @reordered(%x: tensor<4xf32>, %y: tensor<4xf32>, %s: tensor<1xi64>) -> tuple<tensor<?xf32>, tensor<4xf32>> {
  %a = relay.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  %d = relay.dyn.reshape %a, %s : (tensor<4xf32>, tensor<1xi64>) -> tensor<?xf32>
  %b = relay.negative %y : (tensor<4xf32>) -> tensor<4xf32>
  %t = relay.tuple(%d, %b : tensor<?xf32>, tensor<4xf32>)
  relay.return %t : tuple<tensor<?xf32>, tensor<4xf32>>
}

// -----

// Tests that an operator without a lowering or a decomposition (argwhere:
// its result's size depends on the values) is left to the interpreter,
// and that a single projection or tuple is not outlined on its own.
// CHECK-LABEL: relay.func @no_lowering(
// CHECK-NEXT: %[[W:.*]] = relay.argwhere %x
// CHECK-NEXT: relay.return %[[W]]
// CHECK-NOT: native_region
relay.func @no_lowering(%x: tensor<4xi1>) -> tensor<?x1xi32> {
  %w = relay.argwhere %x : (tensor<4xi1>) -> tensor<?x1xi32>
  relay.return %w : tensor<?x1xi32>
}

// -----

// Tests that ops with effects keep their order: the native ops on either
// side of a reference write form two regions, and the read after the write
// stays after it.
// CHECK-LABEL: relay.func @effects(
// CHECK-NEXT: %[[R:.*]] = relay.ref %x
// CHECK-NEXT: %[[A:.*]] = relay.call @effects_native(%x)
// CHECK-NEXT: relay.ref_write %[[R]], %[[A]]
// CHECK-NEXT: %[[V:.*]] = relay.ref_read %[[R]]
// CHECK-NEXT: %[[B:.*]] = relay.call @effects_native_0(%[[V]])
// CHECK-NEXT: relay.return %[[B]]
relay.func @effects(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.ref %x : tensor<4xf32>
  %a = relay.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  %u = relay.ref_write %r, %a : !relay.ref<tensor<4xf32>>, tensor<4xf32>
  %v = relay.ref_read %r : !relay.ref<tensor<4xf32>>
  %b = relay.negative %v : (tensor<4xf32>) -> tensor<4xf32>
  relay.return %b : tensor<4xf32>
}

// -----

// Tests that a call of a primitive function whose operators are all native
// joins a region and one with an operator that is not (argwhere) does not,
// and that the branches of an `if` get regions of their own.
// CHECK-LABEL: relay.func @primitives(
// CHECK-NEXT: %[[A:.*]] = relay.call @primitives_native(%x)
// CHECK-NEXT: %[[W:.*]] = relay.call @fused_argwhere(%[[A]])
// CHECK-NEXT: relay.if %c
// CHECK-NEXT: relay.call @primitives_native_0(%[[A]])
// CHECK: relay.func private @primitives_native(
// CHECK-NEXT: relay.call @fused_exp(
// CHECK: relay.func private @primitives_native_0(
// CHECK-NEXT: relay.negative
relay.func @primitives(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %a = relay.call @fused_exp(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %w = relay.call @fused_argwhere(%a) : (tensor<4xf32>) -> tensor<?x1xi32>
  %r = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %n = relay.negative %a : (tensor<4xf32>) -> tensor<4xf32>
    relay.yield %n : tensor<4xf32>
  } else {
    relay.yield %a : tensor<4xf32>
  }
  relay.return %r : tensor<4xf32>
}
relay.func private @fused_exp(%x: tensor<4xf32>) -> tensor<4xf32> attributes {relay.primitive} {
  %e = relay.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  relay.return %e : tensor<4xf32>
}
relay.func private @fused_argwhere(%x: tensor<4xf32>) -> tensor<?x1xi32> attributes {relay.primitive} {
  %w = relay.argwhere %x : (tensor<4xf32>) -> tensor<?x1xi32>
  relay.return %w : tensor<?x1xi32>
}

// -----

// Tests that a row of static size taken from a value whose size is known
// only when it runs (a recurrent step's input) stays with the interpreter,
// alone or as a primitive function of such takes, so that the region after
// it takes the row rather than the whole value at each call; and that a
// reduction of such a value, which reads all of it, joins the region.
// CHECK-LABEL: relay.func @rows(
// CHECK-NEXT: %[[R:.*]] = relay.take %xs, %t
// CHECK-NEXT: %[[F:.*]] = relay.call @fused_take_tanh(%xs, %t)
// CHECK-NEXT: %[[N:.*]] = relay.call @rows_native(%[[R]], %[[F]], %xs)
// CHECK: relay.func private @rows_native(%{{.*}}: tensor<4xf32>, %{{.*}}: tensor<4xf32>, %{{.*}}: tensor<?x4xf32>)
// CHECK-NEXT: relay.exp
// CHECK-NEXT: relay.add
// CHECK-NEXT: relay.sum
relay.func @rows(%xs: tensor<?x4xf32>, %t: tensor<i64>) -> tensor<4xf32> {
  %r = relay.take %xs, %t {axis = 0 : i64} : (tensor<?x4xf32>, tensor<i64>) -> tensor<4xf32>
  %f = relay.call @fused_take_tanh(%xs, %t) : (tensor<?x4xf32>, tensor<i64>) -> tensor<4xf32>
  %e = relay.exp %r : (tensor<4xf32>) -> tensor<4xf32>
  %a = relay.add %e, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %s = relay.sum %xs {axis = array<i64: 0>} : (tensor<?x4xf32>) -> tensor<4xf32>
  %b = relay.add %a, %s : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  relay.return %b : tensor<4xf32>
}
relay.func private @fused_take_tanh(%xs: tensor<?x4xf32>, %t: tensor<i64>) -> tensor<4xf32> attributes {relay.primitive} {
  %r = relay.take %xs, %t {axis = 0 : i64} : (tensor<?x4xf32>, tensor<i64>) -> tensor<4xf32>
  %h = relay.tanh %r : (tensor<4xf32>) -> tensor<4xf32>
  relay.return %h : tensor<4xf32>
}

// -----

// Tests that RoIAlign stays with the interpreter, whose kernel is fast,
// where its decomposition would cost the region it joined a second of
// compilation: the products on either side get regions of their own.
// CHECK-LABEL: relay.func @roi_align(
// CHECK-NEXT: %[[F:.*]] = relay.call @roi_align_native(%img)
// CHECK-NEXT: %[[R:.*]] = relay.vision.roi_align %[[F]], %rois
// CHECK-NEXT: %[[D:.*]] = relay.call @roi_align_native_0(%[[R]])
// CHECK-NEXT: relay.return %[[D]]
relay.func @roi_align(%img: tensor<1x3x8x8xf32>, %rois: tensor<?x5xf32>) -> tensor<?x3x2x2xf32> {
  %f = relay.exp %img : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %r = relay.vision.roi_align %f, %rois {pooled_size = array<i64: 2, 2>, spatial_scale = 1.0 : f64, sample_ratio = 2 : i64, aligned = true} : (tensor<1x3x8x8xf32>, tensor<?x5xf32>) -> tensor<?x3x2x2xf32>
  %d = relay.nn.relu %r : (tensor<?x3x2x2xf32>) -> tensor<?x3x2x2xf32>
  relay.return %d : tensor<?x3x2x2xf32>
}

// RUN: relay-mlir-opt %s --relay-decompose --split-input-file | FileCheck %s

// tile interleaves unit axes, broadcasts and reshapes.
// CHECK-LABEL: relay.func @tile
// CHECK-NOT: relay.tile
// CHECK: relay.reshape %{{.*}} {newshape = array<i64: 1, 3, 1, 2>}
// CHECK: relay.broadcast_to %{{.*}} {shape = array<i64: 2, 3, 3, 2>}
// CHECK: relay.reshape %{{.*}} {newshape = array<i64: 6, 6>}
relay.func @tile(%x: tensor<3x2xf32>) -> tensor<6x6xf32> {
  %r = relay.tile %x {reps = array<i64: 2, 3>} : (tensor<3x2xf32>) -> tensor<6x6xf32>
  relay.return %r : tensor<6x6xf32>
}

// -----

// collapse_sum_like sums the leading axis and the axes the target keeps as
// 1, then reshapes.
// CHECK-LABEL: relay.func @collapse
// CHECK: relay.sum %{{.*}} {axis = array<i64: 0, 2>, keepdims = true}
// CHECK: relay.reshape %{{.*}} {newshape = array<i64: 3, 1>}
relay.func @collapse(%x: tensor<2x3x4xf32>, %t: tensor<3x1xf32>) -> tensor<3x1xf32> {
  %r = relay.collapse_sum_like %x, %t : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  relay.return %r : tensor<3x1xf32>
}

// -----

// isfinite is |x| < inf (false for NaN as well).
// CHECK-LABEL: relay.func @isfinite
// CHECK: %[[INF:.*]] = relay.constant dense<0x7F800000> : tensor<f32>
// CHECK: %[[A:.*]] = relay.abs %arg0
// CHECK: relay.less %[[A]], %[[INF]]
relay.func @isfinite(%x: tensor<4xf32>) -> tensor<4xi1> {
  %r = relay.isfinite %x : (tensor<4xf32>) -> tensor<4xi1>
  relay.return %r : tensor<4xi1>
}

// -----

// group_norm normalises [N, G, C/G, ...] over the axes after the groups,
// then scales and shifts per channel.
// CHECK-LABEL: relay.func @group_norm
// CHECK: relay.reshape %arg0 {newshape = array<i64: 1, 2, 3, 5>}
// CHECK: relay.mean %{{.*}} {axis = array<i64: 2, 3>, keepdims = true}
// CHECK: relay.reshape %{{.*}} {newshape = array<i64: 1, 6, 5>}
// CHECK: relay.reshape %arg1 {newshape = array<i64: 1, 6, 1>}
// CHECK: relay.multiply
// CHECK: relay.add
// CHECK-NOT: relay.nn.group_norm
relay.func @group_norm(%x: tensor<1x6x5xf32>, %g: tensor<6xf32>, %b: tensor<6xf32>) -> tensor<1x6x5xf32> {
  %r = relay.nn.group_norm %x, %g, %b {num_groups = 2 : i64} : (tensor<1x6x5xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<1x6x5xf32>
  relay.return %r : tensor<1x6x5xf32>
}

// -----

// Without static shapes (a polymorphic function before specialisation) the
// op stays.
// CHECK-LABEL: relay.func @generic
// CHECK: relay.fast_exp
relay.func @generic[t : Type](%x: !relay.tvar<t : Type>) -> !relay.tvar<t : Type> {
  %r = relay.fast_exp %x : (!relay.tvar<t : Type>) -> !relay.tvar<t : Type>
  relay.return %r : !relay.tvar<t : Type>
}

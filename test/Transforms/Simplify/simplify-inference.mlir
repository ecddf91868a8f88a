// RUN: relay-mlir-opt %s --split-input-file --relay-simplify-inference | FileCheck %s

// Tests that batch_norm becomes x * scale + shift along its axis, with
// scale = gamma / sqrt(var + eps) and shift = beta - mean * scale (its
// other results, the statistics passed through, fold away with the tuple).
// CHECK-LABEL: relay.func @batch_norm(
// CHECK-SAME: %[[X:.*]]: tensor<1x2x3x3xf32>, %[[G:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<2xf32>, %[[M:.*]]: tensor<2xf32>, %[[V:.*]]: tensor<2xf32>)
// CHECK-NOT: relay.nn.batch_norm
// CHECK: %[[E:.*]] = relay.constant dense<1.000000e-03> : tensor<f32>
// CHECK: %[[VE:.*]] = relay.add %[[V]], %[[E]]
// CHECK: %[[STD:.*]] = relay.sqrt %[[VE]]
// CHECK: %[[S:.*]] = relay.divide %[[G]], %[[STD]]
// CHECK: %[[MS:.*]] = relay.multiply %[[M]], %[[S]]
// CHECK: %[[SH:.*]] = relay.subtract %[[B]], %[[MS]]
// CHECK: %[[SR:.*]] = relay.reshape %[[S]] {newshape = array<i64: 1, 2, 1, 1>}
// CHECK: %[[XS:.*]] = relay.multiply %[[X]], %[[SR]]
// CHECK: %[[SHR:.*]] = relay.reshape %[[SH]] {newshape = array<i64: 1, 2, 1, 1>}
// CHECK: %[[Y:.*]] = relay.add %[[XS]], %[[SHR]]
// CHECK: relay.return %[[Y]]
relay.func @batch_norm(%x: tensor<1x2x3x3xf32>, %g: tensor<2xf32>, %b: tensor<2xf32>, %m: tensor<2xf32>, %v: tensor<2xf32>) -> tensor<1x2x3x3xf32> {
  %t = relay.nn.batch_norm %x, %g, %b, %m, %v {epsilon = 1.0e-03 : f64} : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>>
  %y = relay.tuple_get %t[0] : tuple<tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>>
  relay.return %y : tensor<1x2x3x3xf32>
}

// -----

// Tests that dropout is the identity (its mask of ones goes unused).
// CHECK-LABEL: relay.func @dropout(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>
// CHECK-NOT: relay.nn.dropout
// CHECK: relay.return %[[X]]
relay.func @dropout(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = relay.nn.dropout %x : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  %y = relay.tuple_get %t[0] : tuple<tensor<4xf32>, tensor<4xf32>>
  relay.return %y : tensor<4xf32>
}

// -----

// Tests that layer_norm is a mean, the deviations' mean square, and the
// scale and shift along its axis.
// CHECK-LABEL: relay.func @layer_norm(
// CHECK-NOT: relay.nn.layer_norm
// CHECK: relay.mean {{.*}}axis = array<i64: 1>{{.*}}keepdims = true
// CHECK: relay.subtract
// CHECK: relay.mean
// CHECK: relay.sqrt
// CHECK: relay.divide
// CHECK: relay.multiply
// CHECK: relay.add
relay.func @layer_norm(%x: tensor<2x5xf32>, %g: tensor<5xf32>, %b: tensor<5xf32>) -> tensor<2x5xf32> {
  %y = relay.nn.layer_norm %x, %g, %b : (tensor<2x5xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  relay.return %y : tensor<2x5xf32>
}

// -----

// Tests that instance_norm, group_norm and l2_normalize become arithmetic.
// CHECK-LABEL: relay.func @others(
// CHECK-NOT: relay.nn.instance_norm
// CHECK-NOT: relay.nn.group_norm
// CHECK-NOT: relay.nn.l2_normalize
// CHECK: relay.return
relay.func @others(%x: tensor<1x4x2x2xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<1x4x2x2xf32> {
  %i = relay.nn.instance_norm %x, %g, %b : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  %n = relay.nn.group_norm %i, %g, %b {num_groups = 2 : i64} : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  %l = relay.nn.l2_normalize %n {eps = 1.0e-03 : f64} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  relay.return %l : tensor<1x4x2x2xf32>
}

// -----

// Tests that batch_norm, layer_norm and dropout simplify when dimensions
// are `?` (they read ranks and axes only), the channel count too: the
// per-channel scale is then reshaped with -1 along the axis.
// CHECK-LABEL: relay.func @any_dims(
// CHECK-NOT: relay.nn.batch_norm
// CHECK-NOT: relay.nn.layer_norm
// CHECK-NOT: relay.nn.dropout
// CHECK: relay.reshape %{{.*}} {newshape = array<i64: 1, -1, 1>} : (tensor<?xf32>) -> tensor<1x?x1xf32>
// CHECK: relay.multiply %{{.*}}, %{{.*}} : (tensor<?x?x5xf32>, tensor<1x?x1xf32>) -> tensor<?x?x5xf32>
// CHECK: relay.mean
// CHECK: relay.return
relay.func @any_dims(%x: tensor<?x?x5xf32>, %c: tensor<?xf32>, %g: tensor<5xf32>, %b: tensor<5xf32>) -> tensor<?x?x5xf32> {
  %t = relay.nn.batch_norm %x, %c, %c, %c, %c {epsilon = 1.0e-03 : f64} : (tensor<?x?x5xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> tuple<tensor<?x?x5xf32>, tensor<?xf32>, tensor<?xf32>>
  %y = relay.tuple_get %t[0] : tuple<tensor<?x?x5xf32>, tensor<?xf32>, tensor<?xf32>>
  %n = relay.nn.layer_norm %y, %g, %b : (tensor<?x?x5xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<?x?x5xf32>
  %d = relay.nn.dropout %n : (tensor<?x?x5xf32>) -> tuple<tensor<?x?x5xf32>, tensor<?x?x5xf32>>
  %z = relay.tuple_get %d[0] : tuple<tensor<?x?x5xf32>, tensor<?x?x5xf32>>
  relay.return %z : tensor<?x?x5xf32>
}

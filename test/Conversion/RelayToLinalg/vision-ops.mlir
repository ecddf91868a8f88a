// RUN: relay-mlir-opt %s --relay-to-linalg | FileCheck %s
// vision.non_max_suppression and vision.proposal as scf loops over each
// batch's rows (greedy: a row is kept by the rows kept before it).

// Tests that the classic NMS lowers to loops (ranking, sorted copy,
// suppression against the earlier rows, the indices through `indices`,
// then their packing to the front), checks each valid_count at run time,
// and suppresses at an IoU of at least the threshold (area / union).
// CHECK-LABEL: func.func @nms(
// CHECK-NOT: relay.
// CHECK: scf.for
// CHECK: arith.cmpi slt
// CHECK: arith.cmpi sgt
// CHECK: scf.if
// CHECK: func.call @relay_rt_fail
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.divf
// CHECK: arith.cmpf oge
// CHECK: return {{.*}} : tensor<1x4xi32>, tensor<1x1xi32>
relay.func @nms(%d: tensor<1x4x6xf32>, %v: tensor<1xi32>, %i: tensor<1x4xi32>, %m: tensor<i32>, %t: tensor<f32>) -> tuple<tensor<1x4xi32>, tensor<1x1xi32>> {
  %r = relay.vision.non_max_suppression %d, %v, %i, %m, %t : (tensor<1x4x6xf32>, tensor<1xi32>, tensor<1x4xi32>, tensor<i32>, tensor<f32>) -> tuple<tensor<1x4xi32>, tensor<1x1xi32>>
  relay.return %r : tuple<tensor<1x4xi32>, tensor<1x1xi32>>
}

// Tests that without return_indices the result is the rows, in sorted
// order, and that with invalid_to_bottom the kept ones are moved to the
// front by a last loop reading each row's first element.
// CHECK-LABEL: func.func @nms_rows(
// CHECK-NOT: relay.
// CHECK: scf.for
// CHECK: tensor.insert_slice {{.*}} into tensor<2x5x6xf32>
// CHECK: return {{.*}} : tensor<2x5x6xf32>
relay.func @nms_rows(%d: tensor<2x5x6xf32>, %v: tensor<2xi32>, %i: tensor<2x5xi32>, %m: tensor<i32>, %t: tensor<f32>) -> tensor<2x5x6xf32> {
  %r = relay.vision.non_max_suppression %d, %v, %i, %m, %t {return_indices = false, invalid_to_bottom = true} : (tensor<2x5x6xf32>, tensor<2xi32>, tensor<2x5xi32>, tensor<i32>, tensor<f32>) -> tensor<2x5x6xf32>
  relay.return %r : tensor<2x5x6xf32>
}

// Tests that vision.proposal lowers to loops: the anchors a constant
// table, the regression (exp of the size deltas; cells past the image
// found by truncating its size over the stride), a merge sort whose runs
// double each level, the suppression at an IoU strictly above the
// threshold, and the survivors cycled into each image's rows.
// CHECK-LABEL: func.func @proposal(
// CHECK-NOT: relay.
// CHECK: arith.constant dense<{{.*}}> : tensor<3x4xf32>
// CHECK: math.trunc
// CHECK: scf.for
// CHECK: math.exp
// CHECK: arith.shli
// CHECK: arith.cmpf ogt
// CHECK: arith.divf
// CHECK: arith.cmpf ogt
// CHECK: arith.remui
// CHECK: return {{.*}} : tensor<10x5xf32>
relay.func @proposal(%p: tensor<2x6x4x5xf32>, %d: tensor<2x12x4x5xf32>, %i: tensor<2x3xf32>) -> tensor<10x5xf32> {
  %r = relay.vision.proposal %p, %d, %i {scales = array<f64: 8.0>, ratios = array<f64: 0.5, 1.0, 2.0>, rpn_post_nms_top_n = 5 : i64} : (tensor<2x6x4x5xf32>, tensor<2x12x4x5xf32>, tensor<2x3xf32>) -> tensor<10x5xf32>
  relay.return %r : tensor<10x5xf32>
}

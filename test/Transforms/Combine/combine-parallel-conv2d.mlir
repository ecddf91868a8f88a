// RUN: relay-mlir-opt %s --split-input-file --relay-combine-parallel-conv2d | FileCheck %s
// RUN: relay-mlir-opt %s --split-input-file --relay-combine-parallel-conv2d=min-num-branches=4 | FileCheck %s --check-prefix=FOUR

// Tests that three 1x1 convolutions of one input (an Inception block's)
// become one on the kernels concatenated along O, each branch a slice of
// its channels; and that fewer branches than min-num-branches are left.
// CHECK-LABEL: relay.func @inception(
// CHECK-SAME: %[[X:.*]]: tensor<1x8x4x4xf32>, %[[A:.*]]: tensor<4x8x1x1xf32>, %[[B:.*]]: tensor<2x8x1x1xf32>, %[[C:.*]]: tensor<6x8x1x1xf32>)
// CHECK: %[[T:.*]] = relay.tuple(%[[A]], %[[B]], %[[C]]
// CHECK: %[[W:.*]] = relay.concatenate %[[T]] : {{.*}} -> tensor<12x8x1x1xf32>
// CHECK: %[[Y:.*]] = relay.nn.conv2d %[[X]], %[[W]] {channels = 12 : i64} : (tensor<1x8x4x4xf32>, tensor<12x8x1x1xf32>) -> tensor<1x12x4x4xf32>
// CHECK: relay.strided_slice %[[Y]] {begin = array<i64: 0, 0, 0, 0>, end = array<i64: 1, 4, 4, 4>, strides = array<i64: 1, 1, 1, 1>} {{.*}} -> tensor<1x4x4x4xf32>
// CHECK: relay.strided_slice %[[Y]] {begin = array<i64: 0, 4, 0, 0>, end = array<i64: 1, 6, 4, 4>, {{.*}} -> tensor<1x2x4x4xf32>
// CHECK: relay.strided_slice %[[Y]] {begin = array<i64: 0, 6, 0, 0>, end = array<i64: 1, 12, 4, 4>, {{.*}} -> tensor<1x6x4x4xf32>
// CHECK-NOT: relay.nn.conv2d
// FOUR-LABEL: relay.func @inception(
// FOUR-COUNT-3: relay.nn.conv2d
// FOUR-NOT: relay.strided_slice
relay.func @inception(%x: tensor<1x8x4x4xf32>, %a: tensor<4x8x1x1xf32>, %b: tensor<2x8x1x1xf32>, %c: tensor<6x8x1x1xf32>) -> tuple<tensor<1x4x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x6x4x4xf32>> {
  %ya = relay.nn.conv2d %x, %a {channels = 4 : i64} : (tensor<1x8x4x4xf32>, tensor<4x8x1x1xf32>) -> tensor<1x4x4x4xf32>
  %yb = relay.nn.conv2d %x, %b {channels = 2 : i64} : (tensor<1x8x4x4xf32>, tensor<2x8x1x1xf32>) -> tensor<1x2x4x4xf32>
  %yc = relay.nn.conv2d %x, %c {channels = 6 : i64} : (tensor<1x8x4x4xf32>, tensor<6x8x1x1xf32>) -> tensor<1x6x4x4xf32>
  %t = relay.tuple(%ya, %yb, %yc : tensor<1x4x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x6x4x4xf32>)
  relay.return %t : tuple<tensor<1x4x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x6x4x4xf32>>
}

// -----

// Tests that convolutions with other strides, other kernel sizes or
// groups are not joined with the rest.
// CHECK-LABEL: relay.func @mixed(
// CHECK-COUNT-3: relay.nn.conv2d
// CHECK-NOT: relay.concatenate
relay.func @mixed(%x: tensor<1x8x4x4xf32>, %a: tensor<4x8x1x1xf32>, %b: tensor<4x8x3x3xf32>, %c: tensor<8x1x1x1xf32>) -> tuple<tensor<1x4x2x2xf32>, tensor<1x4x4x4xf32>, tensor<1x8x4x4xf32>> {
  %ya = relay.nn.conv2d %x, %a {strides = array<i64: 2, 2>} : (tensor<1x8x4x4xf32>, tensor<4x8x1x1xf32>) -> tensor<1x4x2x2xf32>
  %yb = relay.nn.conv2d %x, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x4x4xf32>, tensor<4x8x3x3xf32>) -> tensor<1x4x4x4xf32>
  %yc = relay.nn.conv2d %x, %c {groups = 8 : i64} : (tensor<1x8x4x4xf32>, tensor<8x1x1x1xf32>) -> tensor<1x8x4x4xf32>
  %t = relay.tuple(%ya, %yb, %yc : tensor<1x4x2x2xf32>, tensor<1x4x4x4xf32>, tensor<1x8x4x4xf32>)
  relay.return %t : tuple<tensor<1x4x2x2xf32>, tensor<1x4x4x4xf32>, tensor<1x8x4x4xf32>>
}

// -----

// Tests that convolutions on packed layouts (NCHW4c data, OIHW4o weights:
// the channels are two axes) are left as they are.
// CHECK-LABEL: relay.func @packed(
// CHECK-COUNT-3: relay.nn.conv2d
// CHECK-NOT: relay.concatenate
relay.func @packed(%x: tensor<1x2x4x4x4xf32>, %a: tensor<1x8x1x1x4xf32>, %b: tensor<2x8x1x1x4xf32>, %c: tensor<1x8x1x1x4xf32>) -> tuple<tensor<1x1x4x4x4xf32>, tensor<1x2x4x4x4xf32>, tensor<1x1x4x4x4xf32>> {
  %ya = relay.nn.conv2d %x, %a {channels = 4 : i64, data_layout = "NCHW4c", kernel_layout = "OIHW4o"} : (tensor<1x2x4x4x4xf32>, tensor<1x8x1x1x4xf32>) -> tensor<1x1x4x4x4xf32>
  %yb = relay.nn.conv2d %x, %b {channels = 8 : i64, data_layout = "NCHW4c", kernel_layout = "OIHW4o"} : (tensor<1x2x4x4x4xf32>, tensor<2x8x1x1x4xf32>) -> tensor<1x2x4x4x4xf32>
  %yc = relay.nn.conv2d %x, %c {channels = 4 : i64, data_layout = "NCHW4c", kernel_layout = "OIHW4o"} : (tensor<1x2x4x4x4xf32>, tensor<1x8x1x1x4xf32>) -> tensor<1x1x4x4x4xf32>
  %t = relay.tuple(%ya, %yb, %yc : tensor<1x1x4x4x4xf32>, tensor<1x2x4x4x4xf32>, tensor<1x1x4x4x4xf32>)
  relay.return %t : tuple<tensor<1x1x4x4x4xf32>, tensor<1x2x4x4x4xf32>, tensor<1x1x4x4x4xf32>>
}

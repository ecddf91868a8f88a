// RUN: relay-mlir-opt %s --split-input-file --relay-canonicalize-ops | FileCheck %s

// Tests that bias_add along axis 1 of NCHW is an add of the bias expanded
// over H and W.
// CHECK-LABEL: relay.func @nchw(
// CHECK-SAME: %[[X:.*]]: tensor<1x16x8x8xf32>, %[[B:.*]]: tensor<16xf32>)
// CHECK: %[[E:.*]] = relay.expand_dims %[[B]] {axis = 1 : i64, num_newaxis = 2 : i64} : (tensor<16xf32>) -> tensor<16x1x1xf32>
// CHECK: relay.add %[[X]], %[[E]] : (tensor<1x16x8x8xf32>, tensor<16x1x1xf32>) -> tensor<1x16x8x8xf32>
relay.func @nchw(%x: tensor<1x16x8x8xf32>, %b: tensor<16xf32>) -> tensor<1x16x8x8xf32> {
  %y = relay.nn.bias_add %x, %b : (tensor<1x16x8x8xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
  relay.return %y : tensor<1x16x8x8xf32>
}

// -----

// Tests that a bias along the last axis broadcasts as it is.
// CHECK-LABEL: relay.func @last(
// CHECK-SAME: %[[X:.*]]: tensor<2x4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-NOT: relay.expand_dims
// CHECK: relay.add %[[X]], %[[B]]
relay.func @last(%x: tensor<2x4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  %y = relay.nn.bias_add %x, %b {axis = -1 : i64} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  relay.return %y : tensor<2x4xf32>
}

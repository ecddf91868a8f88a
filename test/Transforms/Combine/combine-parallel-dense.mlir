// RUN: relay-mlir-opt %s --relay-combine-parallel-dense=min-num-branches=2 | FileCheck %s

// Tests that two dense products of one input become one on the weights
// concatenated along the units, each a slice of the last axis.
// CHECK-LABEL: relay.func @dense(
// CHECK: relay.concatenate %{{.*}} : {{.*}} -> tensor<7x3xf32>
// CHECK: %[[D:.*]] = relay.nn.dense {{.*}} -> tensor<2x7xf32>
// CHECK: relay.strided_slice %[[D]] {begin = array<i64: 0, 0>, end = array<i64: 2, 4>
// CHECK: relay.strided_slice %[[D]] {begin = array<i64: 0, 4>, end = array<i64: 2, 7>
relay.func @dense(%x: tensor<2x3xf32>, %a: tensor<4x3xf32>, %b: tensor<3x3xf32>) -> tensor<2x4xf32> {
  %ya = relay.nn.dense %x, %a : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %yb = relay.nn.dense %x, %b : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32>
  %s = relay.sum %yb {axis = array<i64: 1>, keepdims = true} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %r = relay.add %ya, %s : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  relay.return %r : tensor<2x4xf32>
}

// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver3 --relay-to-linalg --relay-fuse-elementwise --canonicalize --eliminate-empty-tensors --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --cse --canonicalize | FileCheck %s
// --relay-fuse-elementwise with the bufferization --relay-to-llvm runs
// after it: an elementwise op whose result a product reads as rows padded
// to whole register tiles (AVX2's 6-row tiles: 49 -> 54) writes into the
// padded buffer itself, through the reshape between them.

// Tests that the ReLU before a product of its 7x7x96 image taken as 49
// rows writes into the first 49 rows of the product's 54-row operand: no
// buffer is copied and nothing is filled but the product's result, and the
// result is a view of the product's rows.
// CHECK-LABEL: func.func @rows(
// CHECK-NOT: memref.copy
// CHECK: %[[ROWS:.*]] = memref.alloc() {{.*}} : memref<54x96xf32>
// CHECK: %[[RELU:.*]] = memref.subview %[[ROWS]][0, 0] [49, 96] [1, 1]
// CHECK-NOT: memref.copy
// CHECK: linalg.generic {{.*}} outs(%[[RELU]] : memref<49x96xf32, strided<[96, 1]>>)
// CHECK: arith.maximumf
// CHECK-NOT: memref.copy
// CHECK: linalg.fill {{.*}} : memref<54x64xf32>
// CHECK: linalg.generic {{.*}} ins(%[[ROWS]], %{{.*}} : memref<54x96xf32>, memref<96x64xf32>)
// CHECK-NOT: memref.copy
// CHECK: memref.expand_shape
// CHECK-NOT: memref.copy
// CHECK: return
relay.func @rows(%x: tensor<1x7x7x96xf32>, %w: tensor<96x64xf32>) -> tensor<1x7x7x64xf32> {
  %r = relay.nn.relu %x : (tensor<1x7x7x96xf32>) -> tensor<1x7x7x96xf32>
  %a = relay.reshape %r {newshape = array<i64: 49, 96>} : (tensor<1x7x7x96xf32>) -> tensor<49x96xf32>
  %m = relay.nn.matmul %a, %w : (tensor<49x96xf32>, tensor<96x64xf32>) -> tensor<49x64xf32>
  %y = relay.reshape %m {newshape = array<i64: 1, 7, 7, 64>} : (tensor<49x64xf32>) -> tensor<1x7x7x64xf32>
  relay.return %y : tensor<1x7x7x64xf32>
}

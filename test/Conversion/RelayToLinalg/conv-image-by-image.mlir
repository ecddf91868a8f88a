// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver4 --relay-to-linalg --relay-fuse-elementwise | FileCheck %s
// A batch of im2col convolutions goes image by image (convImageByImage),
// each image a single-image product.

// Tests that the images' loop is marked independent, so that the bias and
// the activation after the convolution join each image's iteration (one
// pass over each image's result while it is in the cache) instead of
// reading the whole batch's result again after the loop.
// CHECK-LABEL: func.func @bias_relu(
// CHECK:       scf.for %[[N:.*]] = %{{.*}} to %c2 step %c1
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<32x9xf32>, tensor<9x784xf32>)
// CHECK:         linalg.generic
// CHECK:           arith.addf
// CHECK:           arith.maximumf
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[%[[N]], 0, 0, 0] [1, 32, 28, 28]
// CHECK:       } {relay.independent_iterations}
// CHECK-NOT:   linalg.generic
// CHECK:       return
relay.func @bias_relu(%x: tensor<2x1x28x28xf32>, %w: tensor<32x1x3x3xf32>, %b: tensor<32xf32>) -> tensor<2x32x28x28xf32> {
  %c = relay.nn.conv2d %x, %w {channels = 32 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<2x1x28x28xf32>, tensor<32x1x3x3xf32>) -> tensor<2x32x28x28xf32>
  %a = relay.nn.bias_add %c, %b : (tensor<2x32x28x28xf32>, tensor<32xf32>) -> tensor<2x32x28x28xf32>
  %r = relay.nn.relu %a : (tensor<2x32x28x28xf32>) -> tensor<2x32x28x28xf32>
  relay.return %r : tensor<2x32x28x28xf32>
}

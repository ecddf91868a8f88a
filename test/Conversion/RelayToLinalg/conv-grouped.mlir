// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver3 --relay-to-linalg | FileCheck %s
// Grouped convolutions (neither ungrouped nor depthwise) on the CPU go group
// by group: each group's channels of the image and its filters are an
// ungrouped convolution (im2col product) of their own, in a loop whose
// iterations are independent, instead of one product batched over groups.

// Tests that a grouped 3x3 stride-2 convolution of one image (RegNet's
// 8-channel groups) loops over its 6 groups (8 filters at a time, from
// the group's first filter and channel), each a product of its 8
// filters (8 x 72) with its own im2col matrix (72 x 784), inserted at the
// group's channels.
// CHECK-LABEL: func.func @grouped(
// CHECK: %[[PAD:.*]] = tensor.insert_slice %{{.*}}[0, 0, 1, 1] [1, 48, 56, 56]
// CHECK: scf.for %[[F0:.*]] = %{{.*}} to %c48 step %c8 iter_args(%[[ACC:.*]] =
// CHECK:   tensor.extract_slice %[[PAD]][0, %[[F0]], 0, 0] [1, 8, 58, 58]
// CHECK:   tensor.extract_slice %arg1[%[[F0]], 0, 0, 0] [8, 8, 3, 3]
// CHECK:   linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x72xf32>, tensor<72x784xf32>)
// CHECK:   tensor.insert_slice %{{.*}} into %[[ACC]][0, %[[F0]], 0, 0] [1, 8, 28, 28]
// CHECK: } {relay.independent_iterations}
// CHECK-NOT: linalg.generic
relay.func @grouped(%x: tensor<1x48x56x56xf32>, %w: tensor<48x8x3x3xf32>) -> tensor<1x48x28x28xf32> {
  %r = relay.nn.conv2d %x, %w {channels = 48 : i64, groups = 6 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x48x56x56xf32>, tensor<48x8x3x3xf32>) -> tensor<1x48x28x28xf32>
  relay.return %r : tensor<1x48x28x28xf32>
}

// Tests that a batch of grouped convolutions goes image by image, and each
// image group by group: 2 input channels and 8 filters per group of a 1x1
// convolution (the group of filters f0.. reads channels 2 * (f0 / 8)..),
// the positions padded to whole vectors (196 -> 208) as in an ungrouped
// one.
// CHECK-LABEL: func.func @batch(
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %c2 step %c1
// CHECK:   tensor.extract_slice %arg0[%[[N]], 0, 0, 0] [1, 8, 14, 14]
// CHECK:   scf.for %[[F:.*]] = %{{.*}} to %c32 step %c8
// CHECK:     %[[G:.*]] = arith.divui %[[F]], %c8
// CHECK:     %[[C:.*]] = arith.muli %[[G]], %c2
// CHECK:     tensor.extract_slice %{{.*}}[0, %[[C]], 0, 0] [1, 2, 14, 14]
// CHECK:     tensor.pad %{{.*}} high[0, 12]
// CHECK:     linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x2xf32>, tensor<2x208xf32>)
// CHECK:   } {relay.independent_iterations}
relay.func @batch(%x: tensor<2x8x14x14xf32>, %w: tensor<32x2x1x1xf32>) -> tensor<2x32x14x14xf32> {
  %r = relay.nn.conv2d %x, %w {channels = 32 : i64, groups = 4 : i64, kernel_size = array<i64: 1, 1>} : (tensor<2x8x14x14xf32>, tensor<32x2x1x1xf32>) -> tensor<2x32x14x14xf32>
  relay.return %r : tensor<2x32x14x14xf32>
}

// RUN: relay-mlir-opt %s --split-input-file --relay-set-target-cpu=cpu=znver4 --relay-to-linalg | FileCheck %s

// Tests that a grouped NHWC convolution with an HWOI kernel (no kernel of
// its own) is the NCHW/OIHW convolution between transposes: the data to
// NCHW, the kernel to OIHW, the result back to NHWC.
// CHECK-LABEL: func.func @groups_nhwc(
// CHECK: %[[D:.*]] = linalg.transpose ins(%arg0 : tensor<1x8x8x4xf32>) outs(%{{.*}} : tensor<1x4x8x8xf32>) permutation = [0, 3, 1, 2]
// CHECK: %[[K:.*]] = linalg.transpose ins(%arg1 : tensor<3x3x4x1xf32>) outs(%{{.*}} : tensor<4x1x3x3xf32>) permutation = [2, 3, 0, 1]
// CHECK: %[[R:.*]] = linalg.transpose ins(%{{.*}} : tensor<1x4x6x6xf32>) outs(%{{.*}} : tensor<1x6x6x4xf32>) permutation = [0, 2, 3, 1]
// CHECK-NEXT: return %[[R]]
relay.func @groups_nhwc(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x1xf32>) -> tensor<1x6x6x4xf32> {
  %r = relay.nn.conv2d %x, %w {groups = 4 : i64, data_layout = "NHWC", kernel_layout = "HWOI"} : (tensor<1x8x8x4xf32>, tensor<3x3x4x1xf32>) -> tensor<1x6x6x4xf32>
  relay.return %r : tensor<1x6x6x4xf32>
}

// -----

// Tests that max pooling in NHWC is the NCHW pooling between transposes,
// and that global average pooling in NHWC reduces its axes 1 and 2.
// CHECK-LABEL: func.func @pool_nhwc(
// CHECK: linalg.transpose ins(%arg0 : tensor<1x4x4x3xf32>) outs(%{{.*}} : tensor<1x3x4x4xf32>) permutation = [0, 3, 1, 2]
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x3x2x2xf32>) outs(%{{.*}} : tensor<1x2x2x3xf32>) permutation = [0, 2, 3, 1]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "reduction", "parallel"]
relay.func @pool_nhwc(%x: tensor<1x4x4x3xf32>) -> tensor<1x1x1x3xf32> {
  %p = relay.nn.max_pool2d %x {layout = "NHWC", pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32>
  %g = relay.nn.global_avg_pool2d %p {layout = "NHWC"} : (tensor<1x2x2x3xf32>) -> tensor<1x1x1x3xf32>
  relay.return %g : tensor<1x1x1x3xf32>
}

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

// Tests that max pooling in NHWC reads one strided view of the image per
// window tap (channels innermost, no transposes), and that global average
// pooling in NHWC reduces its axes 1 and 2.
// CHECK-LABEL: func.func @pool_nhwc(
// CHECK-NOT: linalg.transpose
// CHECK: tensor.extract_slice %arg0[0, 0, 0, 0] [1, 2, 2, 3] [1, 2, 2, 1]
// CHECK: tensor.extract_slice %arg0[0, 0, 1, 0] [1, 2, 2, 3] [1, 2, 2, 1]
// CHECK: tensor.extract_slice %arg0[0, 1, 0, 0] [1, 2, 2, 3] [1, 2, 2, 1]
// CHECK: tensor.extract_slice %arg0[0, 1, 1, 0] [1, 2, 2, 3] [1, 2, 2, 1]
// CHECK: arith.maximumf
// CHECK: arith.maximumf
// CHECK: arith.maximumf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "reduction", "parallel"]
relay.func @pool_nhwc(%x: tensor<1x4x4x3xf32>) -> tensor<1x1x1x3xf32> {
  %p = relay.nn.max_pool2d %x {layout = "NHWC", pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32>
  %g = relay.nn.global_avg_pool2d %p {layout = "NHWC"} : (tensor<1x2x2x3xf32>) -> tensor<1x1x1x3xf32>
  relay.return %g : tensor<1x1x1x3xf32>
}

// -----

// Tests that NHWC average pooling whose windows count different numbers of
// elements (padding not counted) is the NCHW pooling between transposes.
// CHECK-LABEL: func.func @avg_pool_nhwc_padded(
// CHECK: linalg.transpose ins(%arg0 : tensor<1x4x4x3xf32>) outs(%{{.*}} : tensor<1x3x4x4xf32>) permutation = [0, 3, 1, 2]
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x3x4x4xf32>) outs(%{{.*}} : tensor<1x4x4x3xf32>) permutation = [0, 2, 3, 1]
relay.func @avg_pool_nhwc_padded(%x: tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32> {
  %a = relay.nn.avg_pool2d %x {layout = "NHWC", pool_size = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  relay.return %a : tensor<1x4x4x3xf32>
}

// -----

// Tests that NHWC average pooling of uniform windows sums the tap views
// and divides by their number, without transposes.
// CHECK-LABEL: func.func @avg_pool_nhwc(
// CHECK-NOT: linalg.transpose
// CHECK: arith.addf
// CHECK: arith.constant 4.000000e+00 : f32
// CHECK: arith.divf
// CHECK-NOT: linalg.transpose
// CHECK: return
relay.func @avg_pool_nhwc(%x: tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32> {
  %b = relay.nn.avg_pool2d %x {layout = "NHWC", pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32>
  relay.return %b : tensor<1x2x2x3xf32>
}

// -----

// Tests that a depthwise int8 NHWC convolution with an HWOI kernel (an int8
// network's on the CPU) is one generic along the channels: each tap a
// strided view of the padded image, widened to f32 and multiplied by its
// row of the weights, the sum back to int32; no transposes.
// CHECK-LABEL: func.func @depthwise_int8_nhwc(
// CHECK-NOT: linalg.transpose
// CHECK-COUNT-9: tensor.extract_slice %{{.*}} [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x9x9x16xi8> to tensor<1x4x4x16xi8>
// CHECK-COUNT-9: tensor.extract_slice %{{.*}} [1, 16] [1, 1] : tensor<9x16xf32> to tensor<16xf32>
// CHECK: linalg.generic
// CHECK: arith.sitofp
// CHECK: arith.mulf
// CHECK-COUNT-8: math.fma
// CHECK: arith.fptosi %{{.*}} : f32 to i32
relay.func @depthwise_int8_nhwc(%x: tensor<1x8x8x16xi8>) -> tensor<1x4x4x16xi32> {
  %w = relay.constant dense<3> : tensor<3x3x16x1xi8>
  %r = relay.nn.conv2d %x, %w {groups = 16 : i64, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 0, 0>, data_layout = "NHWC", kernel_layout = "HWOI", out_dtype = i32} : (tensor<1x8x8x16xi8>, tensor<3x3x16x1xi8>) -> tensor<1x4x4x16xi32>
  relay.return %r : tensor<1x4x4x16xi32>
}

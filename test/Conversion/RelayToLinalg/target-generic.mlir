// RUN: relay-mlir-opt %s --split-input-file --relay-to-linalg="target=generic" | FileCheck %s

// Tests that the generic target's products are plain contractions: a
// filled accumulator and one generic over (m, n, k), no padding or copies.
// CHECK-LABEL: func.func @dense(
// CHECK-SAME: %[[X:.*]]: tensor<3x8xf32>, %[[W:.*]]: tensor<5x8xf32>)
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[MX:.*]], #[[MW:.*]], #[[MO:.*]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]], %[[W]] : tensor<3x8xf32>, tensor<5x8xf32>) outs(%[[FILL]] : tensor<3x5xf32>)
// CHECK-NOT: linalg.transpose
// CHECK-NOT: tensor.pad
relay.func @dense(%x: tensor<3x8xf32>, %w: tensor<5x8xf32>) -> tensor<3x5xf32> {
  %d = relay.nn.dense %x, %w : (tensor<3x8xf32>, tensor<5x8xf32>) -> tensor<3x5xf32>
  relay.return %d : tensor<3x5xf32>
}

// -----

// Tests that the generic target's convolution is linalg's named
// convolution of the padded image.
// CHECK-LABEL: func.func @conv(
// CHECK: %[[PADDED:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 1, 1] [1, 3, 8, 8] [1, 1, 1, 1] : tensor<1x3x8x8xf32> into tensor<1x3x10x10xf32>
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PADDED]], %{{.*}} : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%{{.*}} : tensor<1x4x4x4xf32>)
relay.func @conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %c = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  relay.return %c : tensor<1x4x4x4xf32>
}

// -----

// Tests that a grouped convolution is linalg's grouped named convolution
// over views with the groups split out.
// CHECK-LABEL: func.func @grouped(
// CHECK-SAME: %[[X:.*]]: tensor<1x4x6x6xf32>, %[[W:.*]]: tensor<6x2x3x3xf32>)
// CHECK: %[[GX:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 2, 6, 6]
// CHECK: %[[GW:.*]] = tensor.expand_shape %[[W]] {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 3]
// CHECK: %[[G:.*]] = linalg.conv_2d_ngchw_gfchw {{.*}} ins(%[[GX]], %[[GW]] : tensor<1x2x2x6x6xf32>, tensor<2x3x2x3x3xf32>) outs(%{{.*}} : tensor<1x2x3x4x4xf32>)
// CHECK: tensor.collapse_shape %[[G]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x3x4x4xf32> into tensor<1x6x4x4xf32>
relay.func @grouped(%x: tensor<1x4x6x6xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x4x4xf32> {
  %c = relay.nn.conv2d %x, %w {groups = 2 : i64} : (tensor<1x4x6x6xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x4x4xf32>
  relay.return %c : tensor<1x6x4x4xf32>
}

// -----

// Tests that an NHWC convolution is linalg's NHWC/HWCF named convolution.
// CHECK-LABEL: func.func @nhwc(
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x6x6x2xf32>, tensor<3x3x2x4xf32>) outs(%{{.*}} : tensor<1x4x4x4xf32>)
relay.func @nhwc(%x: tensor<1x6x6x2xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<1x4x4x4xf32> {
  %c = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x6x6x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x4x4x4xf32>
  relay.return %c : tensor<1x4x4x4xf32>
}

// -----

// Tests that a product of float16s into float32 (out_dtype) widens its
// operands before it multiplies them in the generic contraction (it had a
// float16 product added to a float32 accumulator, which does not verify).
// CHECK-LABEL: func.func @dense_out_dtype(
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[A:.*]]: f16, %[[B:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-NEXT:   %[[WA:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK-NEXT:   %[[WB:.*]] = arith.extf %[[B]] : f16 to f32
// CHECK-NEXT:   %[[P:.*]] = arith.mulf %[[WA]], %[[WB]] : f32
// CHECK-NEXT:   %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:   linalg.yield %[[S]] : f32
relay.func @dense_out_dtype(%x: tensor<3x8xf16>, %w: tensor<5x8xf16>) -> tensor<3x5xf32> {
  %d = relay.nn.dense %x, %w {out_dtype = f32} : (tensor<3x8xf16>, tensor<5x8xf16>) -> tensor<3x5xf32>
  relay.return %d : tensor<3x5xf32>
}

// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver4 --relay-to-linalg | FileCheck %s
// The network operators lowered by gathers (tensor.extract at computed
// indices) and chains of generics rather than named ops.

// layout_transform: each output element reads the input at the same
// coordinate on every primal axis (C = 2 * outer + inner here).
// CHECK-LABEL: func.func @split_channels(
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]
// CHECK-DAG: %[[CO:.*]] = linalg.index 1
// CHECK-DAG: %[[CI:.*]] = linalg.index 4
// CHECK: %[[SCALED:.*]] = arith.muli %[[CO]], %c2
// CHECK: %[[C:.*]] = arith.addi %[[SCALED]], %[[CI]]
// CHECK: tensor.extract %arg0[%{{.*}}, %[[C]], %{{.*}}, %{{.*}}]
relay.func @split_channels(%x: tensor<1x4x2x2xf32>) -> tensor<1x2x2x2x2xf32> {
  %r = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW2c"} : (tensor<1x4x2x2xf32>) -> tensor<1x2x2x2x2xf32>
  relay.return %r : tensor<1x2x2x2x2xf32>
}

// layer_norm: a sum per line, the squared deviations, then the normalised
// and scaled values.
// CHECK-LABEL: func.func @layer_norm(
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: arith.mulf
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK: math.rsqrt
relay.func @layer_norm(%x: tensor<3x4xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<3x4xf32> {
  %r = relay.nn.layer_norm %x, %g, %b : (tensor<3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  relay.return %r : tensor<3x4xf32>
}

// Tests that a strided conv2d_transpose is one direct convolution per
// output phase (row and column modulo the strides), each of the input
// (padded by one row and column here) with the kernel taps that reach that
// phase, flipped (1x1, 1x2, 2x1 and 2x2 of the 3x3 kernel at stride 2),
// its result inserted into every second row and column.
// CHECK-LABEL: func.func @deconv(
// CHECK: tensor.insert_slice %arg0 into {{.*}} : tensor<1x2x4x4xf32> into tensor<1x2x5x5xf32>
// CHECK: tensor.extract %arg1
// CHECK: -> tensor<3x2x1x1xf32>
// CHECK: tensor.insert_slice {{.*}}[0, 0, 0, 0] [1, 3, 4, 4] [1, 1, 2, 2] : tensor<1x3x4x4xf32> into tensor<1x3x8x8xf32>
// CHECK: -> tensor<3x2x1x2xf32>
// CHECK: tensor.insert_slice {{.*}}[0, 0, 0, 1] [1, 3, 4, 4] [1, 1, 2, 2]
// CHECK: -> tensor<3x2x2x1xf32>
// CHECK: tensor.insert_slice {{.*}}[0, 0, 1, 0] [1, 3, 4, 4] [1, 1, 2, 2]
// CHECK: -> tensor<3x2x2x2xf32>
// CHECK: tensor.insert_slice {{.*}}[0, 0, 1, 1] [1, 3, 4, 4] [1, 1, 2, 2]
relay.func @deconv(%x: tensor<1x2x4x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x3x8x8xf32> {
  %r = relay.nn.conv2d_transpose %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x3x3x3xf32>) -> tensor<1x3x8x8xf32>
  relay.return %r : tensor<1x3x8x8xf32>
}

// Tests that at stride 1 the one phase is the direct convolution of the
// input padded by K - 1 - p (here 1) with the kernel flipped.
// CHECK-LABEL: func.func @deconv_unit_stride(
// CHECK: tensor.insert_slice %arg0 into {{.*}} : tensor<1x2x4x4xf32> into tensor<1x2x6x6xf32>
// CHECK: tensor.extract %arg1
// CHECK: -> tensor<3x2x3x3xf32>
relay.func @deconv_unit_stride(%x: tensor<1x2x4x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x3x4x4xf32> {
  %r = relay.nn.conv2d_transpose %x, %w {padding = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x3x3x3xf32>) -> tensor<1x3x4x4xf32>
  relay.return %r : tensor<1x3x4x4xf32>
}

// Tests that when the direct convolution of a unit-stride conv2d_transpose
// pads its input again (here Winograd's, to whole tiles: 16 rows), the
// input is padded once by both (one buffer, no copy of the first).
// CHECK-LABEL: func.func @deconv_winograd(
// CHECK: tensor.insert_slice %arg0 into {{.*}}[0, 0, 1, 1] [1, 32, 14, 14] [1, 1, 1, 1] : tensor<1x32x14x14xf32> into tensor<1x32x16x16xf32>
relay.func @deconv_winograd(%x: tensor<1x32x14x14xf32>, %w: tensor<32x32x3x3xf32>) -> tensor<1x32x14x14xf32> {
  %r = relay.nn.conv2d_transpose %x, %w {padding = array<i64: 1, 1>} : (tensor<1x32x14x14xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x14x14xf32>
  relay.return %r : tensor<1x32x14x14xf32>
}

// Tests that a phase no kernel tap reaches (a 1x1 kernel at stride 2
// reaches only even rows and columns) is zeros: the result starts filled.
// CHECK-LABEL: func.func @deconv_gaps(
// CHECK: linalg.fill {{.*}} -> tensor<1x3x8x8xf32>
// CHECK: tensor.insert_slice {{.*}}[0, 0, 0, 0] [1, 3, 4, 4] [1, 1, 2, 2]
// CHECK-NOT: tensor.insert_slice {{.*}} [1, 1, 2, 2]
// CHECK: return
relay.func @deconv_gaps(%x: tensor<1x2x4x4xf32>, %w: tensor<2x3x1x1xf32>) -> tensor<1x3x8x8xf32> {
  %r = relay.nn.conv2d_transpose %x, %w {strides = array<i64: 2, 2>, output_padding = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x3x1x1xf32>) -> tensor<1x3x8x8xf32>
  relay.return %r : tensor<1x3x8x8xf32>
}

// Tests that a dilated conv2d_transpose spreads the input by the strides
// into a padded image (zeros between pixels), flips and transposes the
// kernel, then convolves it as an im2col product.
// CHECK-LABEL: func.func @deconv_dilated(
// CHECK: %[[SPREAD:.*]] = linalg.generic
// CHECK: tensor.extract %arg0
// CHECK: arith.select
// CHECK: -> tensor<1x2x14x14xf32>
// CHECK: %[[FLIPPED:.*]] = linalg.generic
// CHECK: tensor.extract %arg1
// CHECK: -> tensor<3x2x3x3xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
relay.func @deconv_dilated(%x: tensor<1x2x4x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x3x10x10xf32> {
  %r = relay.nn.conv2d_transpose %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 2, 2>, output_padding = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x3x3x3xf32>) -> tensor<1x3x10x10xf32>
  relay.return %r : tensor<1x3x10x10xf32>
}

// Adaptive pooling reduces over the widest window (here 3x3: rows [1, 4),
// columns [1, 4) and [3, 6)), masking the positions past each window's end.
// CHECK-LABEL: func.func @adaptive_max(
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<3x3xf32>)
// CHECK: tensor.extract %arg0
// CHECK: arith.maximumf
// CHECK: arith.select
relay.func @adaptive_max(%x: tensor<1x1x5x7xf32>) -> tensor<1x1x3x4xf32> {
  %r = relay.nn.adaptive_max_pool2d %x {output_size = array<i64: 3, 4>} : (tensor<1x1x5x7xf32>) -> tensor<1x1x3x4xf32>
  relay.return %r : tensor<1x1x3x4xf32>
}

// Tests that bilinear upsampling reads four neighbours and interpolates in
// f64, its output rows' and columns' source rows and columns and fractions
// tables made at compile time (TVM's asymmetric coordinates, steps of
// in / out: output 3 reads 1.5, rows 1 and 1, clamped).
// CHECK-LABEL: func.func @bilinear(
// CHECK-DAG: arith.constant dense<[0, 0, 1, 1]> : tensor<4xi32>
// CHECK-DAG: arith.constant dense<1> : tensor<4xi32>
// CHECK-DAG: arith.constant dense<[0.000000e+00, 5.000000e-01, 0.000000e+00, 5.000000e-01]> : tensor<4xf64>
// CHECK: linalg.generic
// CHECK-NOT: arith.divf
// CHECK-COUNT-4: tensor.extract %arg0
// CHECK: arith.truncf {{.*}} : f64 to f32
relay.func @bilinear(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  %r = relay.nn.upsampling %x {scale_h = 2.0 : f64, scale_w = 2.0 : f64, method = "bilinear"} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  relay.return %r : tensor<1x1x4x4xf32>
}

// Tests that nearest upsampling reads one element at the rows and columns
// of tables: 5 columns at 1.5 are 8, sampled at steps of 5 / 8 (TVM's),
// not of 1 / 1.5.
// CHECK-LABEL: func.func @nearest(
// CHECK-DAG: arith.constant dense<[0, 0, 1, 1, 2, 3, 3, 4]> : tensor<8xi32>
// CHECK: linalg.generic
// CHECK-NOT: arith.divf
// CHECK-COUNT-1: tensor.extract %arg0
// CHECK-NOT: tensor.extract %arg0
relay.func @nearest(%x: tensor<1x1x2x5xi32>) -> tensor<1x1x4x8xi32> {
  %r = relay.nn.upsampling %x {scale_h = 2.0 : f64, scale_w = 1.5 : f64} : (tensor<1x1x2x5xi32>) -> tensor<1x1x4x8xi32>
  relay.return %r : tensor<1x1x4x8xi32>
}

// Tests that a linear resize is one kernel over its output: each axis's
// two taps are tables of rows (columns) and float32 weights (half-pixel
// centres, 2 to 4: positions -0.25, 0.25, 0.75, 1.25, clamped at the
// edges), four reads summed rows first, as the decomposition it replaces.
// CHECK-LABEL: func.func @resize_linear(
// CHECK-DAG: arith.constant dense<[0, 0, 0, 1]> : tensor<4xi32>
// CHECK-DAG: arith.constant dense<[0, 1, 1, 1]> : tensor<4xi32>
// CHECK-DAG: arith.constant dense<[2.500000e-01, 7.500000e-01, 2.500000e-01, 7.500000e-01]> : tensor<4xf32>
// CHECK-DAG: arith.constant dense<[7.500000e-01, 2.500000e-01, 7.500000e-01, 2.500000e-01]> : tensor<4xf32>
// CHECK: linalg.generic
// CHECK-NOT: relay.
// CHECK-COUNT-4: tensor.extract %arg0
// CHECK-NOT: tensor.extract %arg0
// CHECK-NOT: f64
// CHECK: linalg.yield
relay.func @resize_linear(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  %r = relay.image.resize2d %x {size = array<i64: 4, 4>, coordinate_transformation_mode = "half_pixel"} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  relay.return %r : tensor<1x1x4x4xf32>
}

// Tests that a nearest resize reads one element at a table's columns
// (asymmetric, floor: 5 to 8 samples at steps of 5 / 8).
// CHECK-LABEL: func.func @resize_nearest(
// CHECK: arith.constant dense<[0, 0, 1, 1, 2, 3, 3, 4]> : tensor<8xi32>
// CHECK: linalg.generic
// CHECK-COUNT-1: tensor.extract %arg0
// CHECK-NOT: tensor.extract %arg0
// CHECK: linalg.yield
relay.func @resize_nearest(%x: tensor<2x3x5xf32>) -> tensor<2x3x8xf32> {
  %r = relay.image.resize1d %x {size = array<i64: 8>, method = "nearest_neighbor", coordinate_transformation_mode = "asymmetric", rounding_method = "floor"} : (tensor<2x3x5xf32>) -> tensor<2x3x8xf32>
  relay.return %r : tensor<2x3x8xf32>
}

// Tests that a 3-d resize keeping its depth reads the depth where it is
// (no table for it): 2 x 2 taps.
// CHECK-LABEL: func.func @resize_volume(
// CHECK: linalg.generic
// CHECK-COUNT-4: tensor.extract %arg0
// CHECK-NOT: tensor.extract %arg0
// CHECK: linalg.yield
relay.func @resize_volume(%x: tensor<1x2x3x4x4xf32>) -> tensor<1x2x3x8x6xf32> {
  %r = relay.image.resize3d %x {size = array<i64: 3, 8, 6>} : (tensor<1x2x3x4x4xf32>) -> tensor<1x2x3x8x6xf32>
  relay.return %r : tensor<1x2x3x8x6xf32>
}

// Integer powers avoid math.ipowi's division by zero for 0 ** -1.
// CHECK-LABEL: func.func @int_power(
// CHECK: %[[NEG:.*]] = arith.cmpi slt
// CHECK: %[[EXP:.*]] = arith.select %[[NEG]]
// CHECK: math.ipowi %{{.*}}, %[[EXP]]
relay.func @int_power(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %r = relay.power %x, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  relay.return %r : tensor<4xi32>
}

// An int8 convolution into int32: the im2col columns of the image (a
// copy), then one product per image of the weights and the columns, the
// operands sign-extended (uint8 ones zero-extended), not linalg's named
// convolution (which tiling leaves scalar).
// CHECK-LABEL: func.func @conv_int8
// CHECK-NOT: linalg.conv_2d
// CHECK: %[[COLS:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<1x2x5x5xi8>) outs(%{{.*}} : tensor<1x2x3x3x3x3xi8>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]{{.*}}outs(%{{.*}} : tensor<1x3x9xi32>)
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: arith.muli
// CHECK: arith.addi
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1], [2, 3]]
relay.func @conv_int8(%x: tensor<1x2x5x5xi8>, %w: tensor<3x2x3x3xi8>) -> tensor<1x3x3x3xi32> {
  %y = relay.nn.conv2d %x, %w {out_dtype = i32} : (tensor<1x2x5x5xi8>, tensor<3x2x3x3xi8>) -> tensor<1x3x3x3xi32>
  relay.return %y : tensor<1x3x3x3xi32>
}

// CHECK-LABEL: func.func @conv_uint8
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: arith.extui %{{.*}} : i8 to i32
relay.func @conv_uint8(%x: tensor<1x2x5x5xui8>, %w: tensor<3x2x3x3xui8>) -> tensor<1x3x3x3xi32> {
  %y = relay.nn.conv2d %x, %w {out_dtype = i32} : (tensor<1x2x5x5xui8>, tensor<3x2x3x3xui8>) -> tensor<1x3x3x3xi32>
  relay.return %y : tensor<1x3x3x3xi32>
}

// Tests that a pad value of another dtype (TVM's text pads float16 data
// with an int32 0) is cast to the data's dtype, as TVM's pad casts it (the
// pad had yielded an i32 into f16 data, invalid IR that crashed later).
// CHECK-LABEL: func.func @pad_int_value
// CHECK: %[[V:.*]] = tensor.extract %{{.*}}[] : tensor<i32>
// CHECK: %[[F:.*]] = arith.sitofp %[[V]] : i32 to f16
// CHECK: tensor.pad %{{.*}} low[0, 1] high[0, 0]
// CHECK: tensor.yield %[[F]] : f16
relay.func @pad_int_value(%x: tensor<2x3xf16>) -> tensor<2x4xf16> {
  %0 = relay.constant dense<0> : tensor<i32>
  %1 = relay.nn.pad %x, %0 {pad_width = array<i64: 0, 0, 1, 0>} : (tensor<2x3xf16>, tensor<i32>) -> tensor<2x4xf16>
  relay.return %1 : tensor<2x4xf16>
}

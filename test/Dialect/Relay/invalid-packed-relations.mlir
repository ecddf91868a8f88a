// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// The errors of the packed-layout operators' relations
// (nn.contrib_conv2d_NCHWc, nn.contrib_depthwise_conv2d_NCHWc,
// nn.contrib_dense_pack, each with a note saying which step failed; the
// GEMM convolution pair; nn.conv2d and the poolings on packed layouts).

// Tests that the data must have the rank of its packed layout.
relay.func @data_rank(%x: tensor<1x16x6x6xf32>, %w: tensor<2x2x3x3x8x8xf32>) -> tensor<i1> {
  // expected-error @+2 {{nn.contrib_conv2d_NCHWc: src_layout "NCHW8c" has 5 axes but the tensor has rank 4}}
  // expected-note @+1 {{unpacking the data from data_layout "NCHW8c" to NCHW}}
  %r = relay.nn.contrib_conv2d_NCHWc %x, %w {channels = 16 : i64, kernel_size = array<i64: 3, 3>, data_layout = "NCHW8c", kernel_layout = "OIHW8i8o"} : (tensor<1x16x6x6xf32>, tensor<2x2x3x3x8x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the kernel layout must be a packing of OIHW.
relay.func @kernel_layout(%x: tensor<1x2x6x6x8xf32>, %w: tensor<2x2x3x3x8x8xf32>) -> tensor<i1> {
  // expected-error @+2 {{nn.contrib_conv2d_NCHWc: dst_layout "OIHW" has axis O that src_layout "NIHW8i8n" lacks}}
  // expected-note @+1 {{unpacking the weight from kernel_layout "NIHW8i8n" to OIHW}}
  %r = relay.nn.contrib_conv2d_NCHWc %x, %w {channels = 16 : i64, kernel_size = array<i64: 3, 3>, data_layout = "NCHW8c", kernel_layout = "NIHW8i8n"} : (tensor<1x2x6x6x8xf32>, tensor<2x2x3x3x8x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the unpacked weight must fit the unpacked data.
relay.func @channels(%x: tensor<1x2x6x6x8xf32>, %w: tensor<2x1x3x3x8x8xf32>) -> tensor<i1> {
  // expected-error @+2 {{nn.contrib_conv2d_NCHWc: weight 'tensor<16x8x3x3xf32>' has 8 input channels, expected 16 (data channels / groups)}}
  // expected-note @+1 {{the convolution of the unpacked data and weight}}
  %r = relay.nn.contrib_conv2d_NCHWc %x, %w {channels = 16 : i64, kernel_size = array<i64: 3, 3>, data_layout = "NCHW8c", kernel_layout = "OIHW8i8o"} : (tensor<1x2x6x6x8xf32>, tensor<2x1x3x3x8x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that out_layout's factor must divide the output channels.
relay.func @out_layout(%x: tensor<1x2x6x6x8xf32>, %w: tensor<2x2x3x3x8x8xf32>) -> tensor<i1> {
  // expected-error @+2 {{nn.contrib_conv2d_NCHWc: axis C of size 16 is not divisible by 5}}
  // expected-note @+1 {{packing the result from NCHW to out_layout "NCHW5c"}}
  %r = relay.nn.contrib_conv2d_NCHWc %x, %w {channels = 16 : i64, kernel_size = array<i64: 3, 3>, data_layout = "NCHW8c", kernel_layout = "OIHW8i8o", out_layout = "NCHW5c"} : (tensor<1x2x6x6x8xf32>, tensor<2x2x3x3x8x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that nn.contrib_dense_pack takes 2-d data.
relay.func @dense_rank(%x: tensor<2x4x32xf32>, %w: tensor<2x32x16xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.contrib_dense_pack: expected 2-d data, got 'tensor<2x4x32xf32>'}}
  %r = relay.nn.contrib_dense_pack %x, %w {weight_layout = "NC16n"} : (tensor<2x4x32xf32>, tensor<2x32x16xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the unpacked weight must fit the data.
relay.func @dense_k(%x: tensor<4x32xf32>, %w: tensor<2x24x16xf32>) -> tensor<i1> {
  // expected-error @+2 {{nn.contrib_dense_pack}}
  // expected-note @+1 {{the product with the unpacked weight}}
  %r = relay.nn.contrib_dense_pack %x, %w {weight_layout = "NC16n"} : (tensor<4x32xf32>, tensor<2x24x16xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the GEMM weight transform's tiles are positive.
relay.func @gemm_tiles(%w: tensor<3x3x5x7xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.contrib_conv2d_gemm_weight_transform: expected positive tile_rows and tile_cols, got 0 and 16}}
  %r = relay.nn.contrib_conv2d_gemm_weight_transform %w {tile_rows = 0 : i64, tile_cols = 16 : i64} : (tensor<3x3x5x7xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that GEMM convolution takes NHWC data.
relay.func @gemm_layout(%x: tensor<1x5x6x6xf32>, %w: tensor<2x3x4x16xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.contrib_conv2d_gemm_without_weight_transform: expected 4-d NHWC data (data_layout "NHWC") for GEMM convolution, got 'tensor<1x5x6x6xf32>' in "NCHW"}}
  %r = relay.nn.contrib_conv2d_gemm_without_weight_transform %x, %w {channels = 7 : i64, kernel_size = array<i64: 3, 3>} : (tensor<1x5x6x6xf32>, tensor<2x3x4x16xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that GEMM convolution needs channels and kernel_size.
relay.func @gemm_channels(%x: tensor<1x6x6x5xf32>, %w: tensor<2x3x4x16xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.contrib_conv2d_gemm_without_weight_transform: expected channels and a 2-d kernel_size: GEMM convolution cannot infer them from its weight}}
  %r = relay.nn.contrib_conv2d_gemm_without_weight_transform %x, %w {data_layout = "NHWC"} : (tensor<1x6x6x5xf32>, tensor<2x3x4x16xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the interleaved weight must hold the convolution's matrix.
relay.func @gemm_small(%x: tensor<1x6x6x5xf32>, %w: tensor<2x2x4x16xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.contrib_conv2d_gemm_without_weight_transform: the interleaved weight 'tensor<2x2x4x16xf32>' holds a 32x8 matrix, smaller than the 45x7 of a 3x3 kernel from 5 to 7 channels}}
  %r = relay.nn.contrib_conv2d_gemm_without_weight_transform %x, %w {channels = 7 : i64, kernel_size = array<i64: 3, 3>, data_layout = "NHWC"} : (tensor<1x6x6x5xf32>, tensor<2x2x4x16xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that grouped GEMM convolution is refused.
relay.func @gemm_groups(%x: tensor<1x6x6x4xf32>, %w: tensor<2x3x4x16xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.contrib_conv2d_gemm_without_weight_transform: expected one group for GEMM convolution, got 2}}
  %r = relay.nn.contrib_conv2d_gemm_without_weight_transform %x, %w {groups = 2 : i64, channels = 8 : i64, kernel_size = array<i64: 3, 3>, data_layout = "NHWC"} : (tensor<1x6x6x4xf32>, tensor<2x3x4x16xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that qnn.contrib_dense_pack takes 2-d data (TVM's relation's
// check).
relay.func @qnn_dense_rank(%x: tensor<2x4x8xi8>, %w: tensor<1x2x32x4xi8>, %z: tensor<i32>, %s: tensor<f32>) -> tensor<i1> {
  // expected-error @+1 {{qnn.contrib_dense_pack: expected 2-d data, got 'tensor<2x4x8xi8>'}}
  %r = relay.qnn.contrib_dense_pack %x, %w, %z, %z, %s, %s {weight_layout = "NC32n4c"} : (tensor<2x4x8xi8>, tensor<1x2x32x4xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the packed weight must unpack by its weight_layout.
relay.func @qnn_dense_layout(%x: tensor<2x8xi8>, %w: tensor<1x2x16x4xi8>, %z: tensor<i32>, %s: tensor<f32>) -> tensor<i1> {
  // expected-error @+2 {{qnn.contrib_dense_pack}}
  // expected-note @+1 {{unpacking the weight from weight_layout "NC32n4c" to NC}}
  %r = relay.qnn.contrib_dense_pack %x, %w, %z, %z, %s, %s {weight_layout = "NC32n4c"} : (tensor<2x8xi8>, tensor<1x2x16x4xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the quantized product's checks apply to the unpacked weight
// (qnn.dense's: a zero point of int32).
relay.func @qnn_dense_zero_point(%x: tensor<2x8xi8>, %w: tensor<1x2x32x4xi8>, %z: tensor<f32>, %s: tensor<f32>) -> tensor<i1> {
  // expected-error @+2 {{qnn.contrib_dense_pack}}
  // expected-note @+1 {{the quantized product with the unpacked weight}}
  %r = relay.qnn.contrib_dense_pack %x, %w, %z, %z, %s, %s {weight_layout = "NC32n4c"} : (tensor<2x8xi8>, tensor<1x2x32x4xi8>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that nn.conv2d on a packed layout reports the unpacking step that
// fails: a sub-axis that is not its factor.
relay.func @conv2d_sub_axis(%x: tensor<1x2x6x6x4xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<i1> {
  // expected-error @+2 {{nn.conv2d: sub-axis 8c of src_layout "NCHW8c" has extent 4 in 'tensor<1x2x6x6x4xf32>'}}
  // expected-note @+1 {{unpacking the data from data_layout "NCHW8c" to NCHW}}
  %r = relay.nn.conv2d %x, %w {data_layout = "NCHW8c"} : (tensor<1x2x6x6x4xf32>, tensor<16x8x3x3xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that nn.conv2d on packed layouts checks the unpacked operands as
// nn.conv2d does.
relay.func @conv2d_channels(%x: tensor<1x2x6x6x4xf32>, %w: tensor<4x1x3x3x4x4xf32>) -> tensor<i1> {
  // expected-error @+2 {{nn.conv2d: weight 'tensor<16x4x3x3xf32>' has 4 input channels, expected 8 (data channels / groups)}}
  // expected-note @+1 {{the convolution of the unpacked data and weight}}
  %r = relay.nn.conv2d %x, %w {data_layout = "NCHW4c", kernel_layout = "OIHW4i4o"} : (tensor<1x2x6x6x4xf32>, tensor<4x1x3x3x4x4xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the output channels must divide into the packed result's
// blocks (the data's layout when out_layout is empty).
relay.func @conv2d_out_blocks(%x: tensor<1x1x6x6x16xf32>, %w: tensor<24x16x1x1xf32>) -> tensor<i1> {
  // expected-error @+2 {{nn.conv2d: axis C of size 24 is not divisible by 16}}
  // expected-note @+1 {{packing the result from NCHW to data_layout "NCHW16c"}}
  %r = relay.nn.conv2d %x, %w {data_layout = "NCHW16c"} : (tensor<1x1x6x6x16xf32>, tensor<24x16x1x1xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that nn.max_pool2d on a packed layout needs a tensor of that
// layout's rank.
relay.func @pool_rank(%x: tensor<1x16x6x6xf32>) -> tensor<i1> {
  // expected-error @+2 {{nn.max_pool2d: src_layout "NCHW16c" has 5 axes but the tensor has rank 4}}
  // expected-note @+1 {{unpacking the data from layout "NCHW16c" to NCHW}}
  %r = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, layout = "NCHW16c"} : (tensor<1x16x6x6xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the pooling's own checks run on the unpacked data.
relay.func @pool_window(%x: tensor<1x2x3x3x8xf32>) -> tensor<i1> {
  // expected-error @+2 {{nn.avg_pool2d: the window (5) is larger than the height dimension 3 plus padding 0}}
  // expected-note @+1 {{the pooling of the unpacked data}}
  %r = relay.nn.avg_pool2d %x {pool_size = array<i64: 5, 5>, layout = "NCHW8c"} : (tensor<1x2x3x3x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

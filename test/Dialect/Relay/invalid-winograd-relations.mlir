// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// The errors of the Winograd convolutions' relations
// (nn.contrib_conv2d_winograd_weight_transform,
// nn.contrib_conv2d_winograd_without_weight_transform, their 3-d forms):
// the limits of topi's Winograd matrices and the transformed weight's
// shape.

// Tests that the tile size must be one topi has matrices for.
relay.func @tile_size(%w: tensor<8x4x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.contrib_conv2d_winograd_weight_transform: expected tile_size between 2 and 8 (topi's Winograd matrices), got 9}}
  %r = relay.nn.contrib_conv2d_winograd_weight_transform %w {tile_size = 9 : i64} : (tensor<8x4x3x3xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the weight transform takes a square kernel.
relay.func @square(%w: tensor<8x4x3x5xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.contrib_conv2d_winograd_weight_transform: expected a kernel square in height and width for Winograd convolution, got 3x5}}
  %r = relay.nn.contrib_conv2d_winograd_weight_transform %w {tile_size = 4 : i64} : (tensor<8x4x3x5xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that a 1x1 kernel has no Winograd transform.
relay.func @kernel_size(%w: tensor<8x4x1x1xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.contrib_conv2d_winograd_weight_transform: expected a kernel size between 3 and 7 for Winograd convolution, got 1}}
  %r = relay.nn.contrib_conv2d_winograd_weight_transform %w {tile_size = 4 : i64} : (tensor<8x4x1x1xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that integer weights are refused.
relay.func @int_weight(%w: tensor<8x4x3x3xi8>) -> tensor<i1> {
  // expected-error @+1 {{nn.contrib_conv2d_winograd_weight_transform: expected a 4-d float OIHW weight, got 'tensor<8x4x3x3xi8>'}}
  %r = relay.nn.contrib_conv2d_winograd_weight_transform %w {tile_size = 4 : i64} : (tensor<8x4x3x3xi8>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the convolution needs channels and kernel_size.
relay.func @no_channels(%x: tensor<1x4x8x8xf32>, %u: tensor<4x4x4x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.contrib_conv2d_winograd_without_weight_transform: expected channels and kernel_size: Winograd convolution cannot infer them from its weight}}
  %r = relay.nn.contrib_conv2d_winograd_without_weight_transform %x, %u {tile_size = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<4x4x4x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that strides other than 1 are refused.
relay.func @strides(%x: tensor<1x4x8x8xf32>, %u: tensor<4x4x4x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.contrib_conv2d_winograd_without_weight_transform: expected strides [1, 1] for Winograd convolution, got [2, 2]}}
  %r = relay.nn.contrib_conv2d_winograd_without_weight_transform %x, %u {tile_size = 2 : i64, strides = array<i64: 2, 2>, channels = 8 : i64, kernel_size = array<i64: 3, 3>} : (tensor<1x4x8x8xf32>, tensor<4x4x4x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that grouped convolution is refused.
relay.func @groups(%x: tensor<1x4x8x8xf32>, %u: tensor<4x4x2x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.contrib_conv2d_winograd_without_weight_transform: expected one group for Winograd convolution, got 2}}
  %r = relay.nn.contrib_conv2d_winograd_without_weight_transform %x, %u {tile_size = 2 : i64, groups = 2 : i64, channels = 8 : i64, kernel_size = array<i64: 3, 3>} : (tensor<1x4x8x8xf32>, tensor<4x4x2x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the transformed weight must be [a, a, I, O] for NCHW data.
relay.func @weight_shape(%x: tensor<1x4x8x8xf32>, %u: tensor<4x4x8x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.contrib_conv2d_winograd_without_weight_transform: the transformed weight ([a, a, I, O] for NCHW data, a = tile_size + K - 1) must have type 'tensor<4x4x4x8xf32>', got 'tensor<4x4x8x4xf32>'}}
  %r = relay.nn.contrib_conv2d_winograd_without_weight_transform %x, %u {tile_size = 2 : i64, channels = 8 : i64, kernel_size = array<i64: 3, 3>} : (tensor<1x4x8x8xf32>, tensor<4x4x8x4xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the tile size must agree with the weight's a = tile + K - 1.
relay.func @alpha(%x: tensor<1x8x8x4xf32>, %u: tensor<4x4x8x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.contrib_conv2d_winograd_without_weight_transform: the transformed weight ([a, a, O, I] for NHWC data, a = tile_size + K - 1) must have type 'tensor<6x6x8x4xf32>', got 'tensor<4x4x8x4xf32>'}}
  %r = relay.nn.contrib_conv2d_winograd_without_weight_transform %x, %u {tile_size = 4 : i64, channels = 8 : i64, kernel_size = array<i64: 3, 3>, data_layout = "NHWC"} : (tensor<1x8x8x4xf32>, tensor<4x4x8x4xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that packed data layouts are refused.
relay.func @layout(%x: tensor<1x1x8x8x4xf32>, %u: tensor<4x4x4x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.contrib_conv2d_winograd_without_weight_transform: expected 4-d data, got 'tensor<1x1x8x8x4xf32>'}}
  %r = relay.nn.contrib_conv2d_winograd_without_weight_transform %x, %u {tile_size = 2 : i64, channels = 8 : i64, kernel_size = array<i64: 3, 3>, data_layout = "NCHW4c"} : (tensor<1x1x8x8x4xf32>, tensor<4x4x4x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the result stays in the data's layout.
relay.func @out_layout(%x: tensor<1x4x8x8xf32>, %u: tensor<4x4x4x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.contrib_conv2d_winograd_without_weight_transform: expected out_layout to be data_layout "NCHW" (or empty), got "NHWC"}}
  %r = relay.nn.contrib_conv2d_winograd_without_weight_transform %x, %u {tile_size = 2 : i64, channels = 8 : i64, kernel_size = array<i64: 3, 3>, out_layout = "NHWC"} : (tensor<1x4x8x8xf32>, tensor<4x4x4x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the 3-d weight transform takes a kernel square in height and width.
relay.func @square3d(%w: tensor<4x2x3x3x5xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.contrib_conv3d_winograd_weight_transform: expected a kernel square in height and width for Winograd convolution, got 3x5}}
  %r = relay.nn.contrib_conv3d_winograd_weight_transform %w {tile_size = 2 : i64} : (tensor<4x2x3x3x5xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that a 3-d Winograd convolution transforming its depth takes no depth stride.
relay.func @stride3d(%x: tensor<1x2x6x6x6xf32>, %u: tensor<4x4x4x3x2xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.contrib_conv3d_winograd_without_weight_transform: expected strides [1, 1, 1] for Winograd convolution, got [2, 1, 1]}}
  %r = relay.nn.contrib_conv3d_winograd_without_weight_transform %x, %u {tile_size = 2 : i64, strides = array<i64: 2, 1, 1>, channels = 3 : i64, kernel_size = array<i64: 3, 3, 3>} : (tensor<1x2x6x6x6xf32>, tensor<4x4x4x3x2xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that a depth kept apart may stride, but height and width may not.
relay.func @stride3d_hw(%x: tensor<1x2x6x6x6xf32>, %u: tensor<4x4x1x3x2xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.contrib_conv3d_winograd_without_weight_transform: expected strides [*, 1, 1] for Winograd convolution, got [2, 2, 1]}}
  %r = relay.nn.contrib_conv3d_winograd_without_weight_transform %x, %u {tile_size = 2 : i64, strides = array<i64: 2, 2, 1>, channels = 3 : i64, kernel_size = array<i64: 1, 3, 3>} : (tensor<1x2x6x6x6xf32>, tensor<4x4x1x3x2xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the 3-d transformed weight follows topi's depth rule.
relay.func @weight3d(%x: tensor<1x2x6x6x6xf32>, %u: tensor<4x4x3x3x2xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.contrib_conv3d_winograd_without_weight_transform: the transformed weight ([a, a, a, O, I], a = tile_size + K - 1) must have type 'tensor<4x4x4x3x2xf32>', got 'tensor<4x4x3x3x2xf32>'}}
  %r = relay.nn.contrib_conv3d_winograd_without_weight_transform %x, %u {tile_size = 2 : i64, channels = 3 : i64, kernel_size = array<i64: 3, 3, 3>} : (tensor<1x2x6x6x6xf32>, tensor<4x4x3x3x2xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the 3-d convolution takes NCDHW data.
relay.func @layout3d(%x: tensor<1x6x6x6x2xf32>, %u: tensor<4x4x4x3x2xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.contrib_conv3d_winograd_without_weight_transform: expected 5-d NCDHW data for Winograd convolution, got 'tensor<1x6x6x6x2xf32>'}}
  %r = relay.nn.contrib_conv3d_winograd_without_weight_transform %x, %u {tile_size = 2 : i64, channels = 3 : i64, kernel_size = array<i64: 3, 3, 3>, data_layout = "NDHWC"} : (tensor<1x6x6x6x2xf32>, tensor<4x4x4x3x2xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

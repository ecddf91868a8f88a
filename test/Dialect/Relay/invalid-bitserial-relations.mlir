// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// The errors of the bit-serial operators' relations: integer operands, the
// packed axis a whole number of words, the bit counts topi's masks allow,
// the packed weights' shapes, layouts and out_dtype.

// Tests that nn.bitpack packs integers only (topi's masks are integer
// ands).
relay.func @bitpack_float(%x: tensor<2x32xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.bitpack: expected an integer tensor of at least one axis, got 'tensor<2x32xf32>'}}
  %r = relay.nn.bitpack %x : (tensor<2x32xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the packed axis must hold whole words (topi's assert).
relay.func @bitpack_words(%x: tensor<2x20xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.bitpack: the packed axis (20) must be a multiple of the 32-bit word the bits are packed in}}
  %r = relay.nn.bitpack %x : (tensor<2x20xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that words are unsigned integers of 8 to 64 bits.
relay.func @bitpack_type(%x: tensor<2x32xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.bitpack: pack_type must be uint8, uint16, uint32 or uint64, got 'i32'}}
  %r = relay.nn.bitpack %x {pack_type = i32} : (tensor<2x32xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that at most 8 bits are packed (topi reads them through 8 masks).
relay.func @bitpack_bits(%x: tensor<2x32xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.bitpack: bits must be in [1, 8], got 9}}
  %r = relay.nn.bitpack %x {bits = 9 : i64} : (tensor<2x32xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the planes' axis must be within the result's axes.
relay.func @bitpack_bit_axis(%x: tensor<2x32xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.bitpack: bit_axis 3 is out of range for a tensor of rank 3 (expected in [-3, 3))}}
  %r = relay.nn.bitpack %x {bit_axis = 3 : i64} : (tensor<2x32xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that a packed dense weight must hold the data's K bits.
relay.func @dense_packed(%x: tensor<2x64xi32>, %w: tensor<4x1x1xui32>) -> tensor<i1> {
  // expected-error @+1 {{nn.bitserial_dense: the packed weight 'tensor<4x1x1xui32>' holds 1 words of 32 bits, not the data's 64}}
  %r = relay.nn.bitserial_dense %x, %w : (tensor<2x64xi32>, tensor<4x1x1xui32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the dense data's K must be whole words.
relay.func @dense_words(%x: tensor<2x24xi32>, %w: tensor<4x24xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.bitserial_dense: the data's last axis (24) must be a multiple of the 32-bit word the bits are packed in}}
  %r = relay.nn.bitserial_dense %x, %w : (tensor<2x24xi32>, tensor<4x24xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the products' out_dtype must be an integer type.
relay.func @dense_float_out(%x: tensor<2x32xi32>, %w: tensor<4x32xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.bitserial_dense: out_dtype must be an integer type (the bits' products are shifted), got 'f32'}}
  %r = relay.nn.bitserial_dense %x, %w {out_dtype = f32} : (tensor<2x32xi32>, tensor<4x32xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that a units attribute must match the weight (nn.dense's check).
relay.func @dense_units(%x: tensor<2x32xi32>, %w: tensor<4x32xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.bitserial_dense: weight 'tensor<4x32xi32>' does not have units = 5}}
  %r = relay.nn.bitserial_dense %x, %w {units = 5 : i64} : (tensor<2x32xi32>, tensor<4x32xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the convolution's data must be integers.
relay.func @conv_float(%x: tensor<1x32x4x4xf32>, %w: tensor<2x32x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.bitserial_conv2d: expected 4-d integer data, got 'tensor<1x32x4x4xf32>'}}
  %r = relay.nn.bitserial_conv2d %x, %w : (tensor<1x32x4x4xf32>, tensor<2x32x3x3xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the data's channels must be whole words.
relay.func @conv_channels(%x: tensor<1x12x4x4xi32>, %w: tensor<2x12x3x3xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.bitserial_conv2d: the data's channels (12) must be a multiple of the 32-bit word the bits are packed in}}
  %r = relay.nn.bitserial_conv2d %x, %w : (tensor<1x12x4x4xi32>, tensor<2x12x3x3xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that NHWC data takes HWIO weights (topi has no other pairing).
relay.func @conv_layout(%x: tensor<1x4x4x32xi32>, %w: tensor<2x32x3x3xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.bitserial_conv2d: expected kernel_layout HWIO for NHWC data, got 'OIHW'}}
  %r = relay.nn.bitserial_conv2d %x, %w {data_layout = "NHWC", kernel_layout = "OIHW"} : (tensor<1x4x4x32xi32>, tensor<2x32x3x3xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that a packed convolution weight must hold the data's channels.
relay.func @conv_packed(%x: tensor<1x64x4x4xi32>, %w: tensor<2x1x3x3x1xui32>) -> tensor<i1> {
  // expected-error @+1 {{nn.bitserial_conv2d: the packed weight 'tensor<2x1x3x3x1xui32>' holds 1 words of 32 bits, not the data's 64 channels}}
  %r = relay.nn.bitserial_conv2d %x, %w : (tensor<1x64x4x4xi32>, tensor<2x1x3x3x1xui32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that kernel_size must match the weight (nn.conv2d's check; TVM's
// relation shapes the result by the attribute alone).
relay.func @conv_kernel(%x: tensor<1x32x6x6xi32>, %w: tensor<2x32x3x3xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.bitserial_conv2d: weight 'tensor<2x32x3x3xi32>' does not match kernel_size}}
  %r = relay.nn.bitserial_conv2d %x, %w {kernel_size = array<i64: 5, 5>} : (tensor<1x32x6x6xi32>, tensor<2x32x3x3xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

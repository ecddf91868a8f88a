// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver4 --relay-to-linalg | FileCheck %s
// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver3 --relay-to-linalg | FileCheck %s --check-prefix=AVX2
// Convolutions of one image whose spatial size would be padded to whole
// vectors (7x7: 49 -> 64 columns) multiply transposed when their weights
// are constant: the weights are packed at compile time into panels of 16
// or 32 output channels, each contiguous along k, the product runs over
// (positions, panels, channels in a panel, k) and its result is transposed
// back to NCHW.

// w[f, c] = 2f + c; packed[0, c, f] = w[f, c].
// CHECK-LABEL: func.func @packed_1x1(
// CHECK: %[[PACKED:.*]] = arith.constant dense<{{\[\[\[}}0.000000e+00, 2.000000e+00, 4.000000e+00, {{.*}}, 3.000000e+01], [1.000000e+00, 3.000000e+00, {{.*}}, 3.100000e+01]]]> : tensor<1x2x16xf32>
// CHECK: %[[PRODUCT:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %[[PACKED]] : tensor<2x49xf32>, tensor<1x2x16xf32>) outs(%{{.*}} : tensor<49x1x16xf32>)
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[PRODUCT]] {{\[\[}}0], [1, 2]] : tensor<49x1x16xf32> into tensor<49x16xf32>
// CHECK: linalg.transpose ins(%[[FLAT]] : tensor<49x16xf32>) outs(%{{.*}} : tensor<16x49xf32>) permutation = [1, 0]
// CHECK-NOT: tensor.pad
relay.func @packed_1x1(%x: tensor<1x2x7x7xf32>) -> tensor<1x16x7x7xf32> {
  %w = relay.constant dense<[[[[0.0]], [[1.0]]], [[[2.0]], [[3.0]]], [[[4.0]], [[5.0]]], [[[6.0]], [[7.0]]], [[[8.0]], [[9.0]]], [[[10.0]], [[11.0]]], [[[12.0]], [[13.0]]], [[[14.0]], [[15.0]]], [[[16.0]], [[17.0]]], [[[18.0]], [[19.0]]], [[[20.0]], [[21.0]]], [[[22.0]], [[23.0]]], [[[24.0]], [[25.0]]], [[[26.0]], [[27.0]]], [[[28.0]], [[29.0]]], [[[30.0]], [[31.0]]]]> : tensor<16x2x1x1xf32>
  %r = relay.nn.conv2d %x, %w {channels = 16 : i64, kernel_size = array<i64: 1, 1>} : (tensor<1x2x7x7xf32>, tensor<16x2x1x1xf32>) -> tensor<1x16x7x7xf32>
  relay.return %r : tensor<1x16x7x7xf32>
}

// Weights that are not constant: the columns are padded to 64 instead.
// CHECK-LABEL: func.func @padded_7x7(
// CHECK-NOT: linalg.transpose
// CHECK: tensor.pad
// CHECK: tensor<2x64xf32>
// CHECK: tensor.extract_slice {{.*}} tensor<16x64xf32> to tensor<16x49xf32>
relay.func @padded_7x7(%x: tensor<1x2x7x7xf32>, %w: tensor<16x2x1x1xf32>) -> tensor<1x16x7x7xf32> {
  %r = relay.nn.conv2d %x, %w {channels = 16 : i64, kernel_size = array<i64: 1, 1>} : (tensor<1x2x7x7xf32>, tensor<16x2x1x1xf32>) -> tensor<1x16x7x7xf32>
  relay.return %r : tensor<1x16x7x7xf32>
}

// 14x14 pads 196 -> 208 columns (6%): with a short k (2) the padded
// product stays.
// CHECK-LABEL: func.func @padded_14x14(
// CHECK-NOT: linalg.transpose
// CHECK: tensor.pad
// CHECK: tensor<2x208xf32>
relay.func @padded_14x14(%x: tensor<1x2x14x14xf32>) -> tensor<1x16x14x14xf32> {
  %w = relay.constant dense<0.5> : tensor<16x2x1x1xf32>
  %r = relay.nn.conv2d %x, %w {channels = 16 : i64, kernel_size = array<i64: 1, 1>} : (tensor<1x2x14x14xf32>, tensor<16x2x1x1xf32>) -> tensor<1x16x14x14xf32>
  relay.return %r : tensor<1x16x14x14xf32>
}

// A splat weight packs to a splat; 32 channels make one panel of 32 (a
// register tile's columns with AVX-512), and the 49 positions are 7 tiles
// of 7 rows.
// CHECK-LABEL: func.func @splat_7x7(
// CHECK-NOT: tensor.pad
// CHECK: arith.constant dense<2.500000e-01> : tensor<1x3x32xf32>
// CHECK-NOT: tensor.pad
// CHECK: linalg.transpose
// Tests that with AVX2 (6x16 register tiles) the panels are 16 channels
// wide and the positions padded to 54 rows (49 has no divisor of 5 or 6),
// sliced off before the transpose.
// AVX2-LABEL: func.func @splat_7x7(
// AVX2: %[[PACKED:.*]] = arith.constant dense<2.500000e-01> : tensor<2x3x16xf32>
// AVX2: %[[COL:.*]] = tensor.pad {{.*}} low[0, 0] high[0, 5]
// AVX2: tensor<3x49xf32> to tensor<3x54xf32>
// AVX2: %[[PRODUCT:.*]] = linalg.generic {{.*}} ins(%[[COL]], %[[PACKED]] : tensor<3x54xf32>, tensor<2x3x16xf32>) outs(%{{.*}} : tensor<54x2x16xf32>)
// AVX2: %[[FLAT:.*]] = tensor.collapse_shape %[[PRODUCT]]
// AVX2: %[[ROWS:.*]] = tensor.extract_slice %[[FLAT]][0, 0] [49, 32] [1, 1] : tensor<54x32xf32> to tensor<49x32xf32>
// AVX2: linalg.transpose ins(%[[ROWS]] : tensor<49x32xf32>)
relay.func @splat_7x7(%x: tensor<1x3x7x7xf32>) -> tensor<1x32x7x7xf32> {
  %w = relay.constant dense<0.25> : tensor<32x3x1x1xf32>
  %r = relay.nn.conv2d %x, %w {channels = 32 : i64, kernel_size = array<i64: 1, 1>} : (tensor<1x3x7x7xf32>, tensor<32x3x1x1xf32>) -> tensor<1x32x7x7xf32>
  relay.return %r : tensor<1x32x7x7xf32>
}

// Tests that a single position (a 1x1 map, as in squeeze-and-excitation
// blocks) is not padded to a register tile's rows: that would multiply the
// work (6 rows for 1 with AVX2).
// AVX2-LABEL: func.func @one_position(
// AVX2-NOT: tensor.pad
// AVX2: outs(%{{.*}} : tensor<1x2x16xf32>)
// AVX2-NOT: tensor.pad
// AVX2: linalg.transpose
relay.func @one_position(%x: tensor<1x8x1x1xf32>) -> tensor<1x32x1x1xf32> {
  %w = relay.constant dense<0.5> : tensor<32x8x1x1xf32>
  %r = relay.nn.conv2d %x, %w {channels = 32 : i64, kernel_size = array<i64: 1, 1>} : (tensor<1x8x1x1xf32>, tensor<32x8x1x1xf32>) -> tensor<1x32x1x1xf32>
  relay.return %r : tensor<1x32x1x1xf32>
}

// Tests that with a long k (512: read in place, a register tile's rows
// take a cache line per k step, 32 KB, over half of L1) and 256 channels
// the positions are packed into panels of 7 rows contiguous along k, and
// with AVX-512 the product runs over (panels of channels, panels of
// positions, positions, channels, k), its result in panels of channels
// ([8, 7, 7, 32]: each register tile contiguous), each panel's [49, 32]
// block then transposed. AVX2's 6x16 tiles pad the positions to 54, packed
// into panels of 6 (8 from the image, the ninth from its last position
// padded with zeros), and keep the result in rows of positions.
// CHECK-LABEL: func.func @packed_positions_7x7(
// CHECK: %[[COLP:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<512x49xf32>) outs(%{{.*}} : tensor<7x512x7xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[COLP]], %{{.*}} : tensor<7x512x7xf32>, tensor<8x512x32xf32>) outs(%{{.*}} : tensor<8x7x7x32xf32>)
// CHECK: linalg.transpose ins(%{{.*}} : tensor<8x49x32xf32>) outs(%{{.*}} : tensor<8x32x49xf32>) permutation = [0, 2, 1]
// AVX2-LABEL: func.func @packed_positions_7x7(
// AVX2: ins(%{{.*}} : tensor<512x49xf32>) outs(%{{.*}} : tensor<8x512x6xf32>)
// AVX2: tensor.pad %{{.*}} low[0, 0] high[0, 5]
// AVX2: tensor<512x1xf32> to tensor<512x6xf32>
// AVX2: outs(%{{.*}} : tensor<1x512x6xf32>)
// AVX2: tensor.insert_slice %{{.*}}[8, 0, 0] [1, 512, 6] [1, 1, 1] : tensor<1x512x6xf32> into tensor<9x512x6xf32>
// AVX2: outs(%{{.*}} : tensor<9x6x16x16xf32>)
relay.func @packed_positions_7x7(%x: tensor<1x512x7x7xf32>) -> tensor<1x256x7x7xf32> {
  %w = relay.constant dense<0.5> : tensor<256x512x1x1xf32>
  %r = relay.nn.conv2d %x, %w {channels = 256 : i64, kernel_size = array<i64: 1, 1>} : (tensor<1x512x7x7xf32>, tensor<256x512x1x1xf32>) -> tensor<1x256x7x7xf32>
  relay.return %r : tensor<1x256x7x7xf32>
}

// Tests that with AVX-512 a 1x1 convolution of a 14x14 map whose weights
// are over a quarter of L2 (256 -> 1024 channels, 1 MB) packs its positions
// (196, padded to 200) into panels of 8 although k is short (256), so that
// the product streams each weight panel once; AVX2 reads them in place.
// The 24 whole panels are copied from the image, the last from its last 4
// positions padded with zeros (not the whole image padded first).
// CHECK-LABEL: func.func @packed_positions_large_weights(
// CHECK-NOT: tensor<256x200xf32>
// CHECK: %[[HEAD:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<256x196xf32>) outs(%{{.*}} : tensor<24x256x8xf32>)
// CHECK: %[[REST:.*]] = tensor.extract_slice %{{.*}}[0, 192] [256, 4] [1, 1] : tensor<256x196xf32> to tensor<256x4xf32>
// CHECK: %[[PAD:.*]] = tensor.pad %[[REST]] low[0, 0] high[0, 4]
// CHECK: %[[TAIL:.*]] = linalg.generic {{.*}} ins(%[[PAD]] : tensor<256x8xf32>) outs(%{{.*}} : tensor<1x256x8xf32>)
// CHECK: %[[PART:.*]] = tensor.insert_slice %[[HEAD]] into %{{.*}}[0, 0, 0] [24, 256, 8]
// CHECK: %[[COLP:.*]] = tensor.insert_slice %[[TAIL]] into %[[PART]][24, 0, 0] [1, 256, 8]
// CHECK: ins(%[[COLP]], %{{.*}} : tensor<25x256x8xf32>, tensor<32x256x32xf32>) outs(%{{.*}} : tensor<32x25x8x32xf32>)
// AVX2-LABEL: func.func @packed_positions_large_weights(
// AVX2-NOT: x256x6xf32>
// AVX2: return
relay.func @packed_positions_large_weights(%x: tensor<1x256x14x14xf32>) -> tensor<1x1024x14x14xf32> {
  %w = relay.constant dense<0.5> : tensor<1024x256x1x1xf32>
  %r = relay.nn.conv2d %x, %w {channels = 1024 : i64, kernel_size = array<i64: 1, 1>} : (tensor<1x256x14x14xf32>, tensor<1024x256x1x1xf32>) -> tensor<1x1024x14x14xf32>
  relay.return %r : tensor<1x1024x14x14xf32>
}

// With k of 1024 or more, 6% of padding is enough to multiply transposed.
// CHECK-LABEL: func.func @long_k_14x14(
// CHECK: arith.constant dense<5.000000e-01> : tensor<1x1024x16xf32>
// CHECK: linalg.transpose
// CHECK-NOT: tensor.pad
relay.func @long_k_14x14(%x: tensor<1x1024x14x14xf32>) -> tensor<1x16x14x14xf32> {
  %w = relay.constant dense<0.5> : tensor<16x1024x1x1xf32>
  %r = relay.nn.conv2d %x, %w {channels = 16 : i64, kernel_size = array<i64: 1, 1>} : (tensor<1x1024x14x14xf32>, tensor<16x1024x1x1xf32>) -> tensor<1x16x14x14xf32>
  relay.return %r : tensor<1x16x14x14xf32>
}

// Tests that with AVX-512 a 28x28 map (784 positions, not whole 32-column
// register tiles, where the plain product would take 16x16 tiles) of 32
// channels with 128 products per output multiplies transposed, the
// channels one 32-wide panel, while AVX2's 16-column tiles take 784 whole
// and keep the plain product (in bands of 4 rows, with its 512 KB L2).
// CHECK-LABEL: func.func @partial_tiles_28x28(
// CHECK: arith.constant dense<5.000000e-01> : tensor<1x128x32xf32>
// CHECK: outs(%{{.*}} : tensor<784x1x32xf32>)
// CHECK: linalg.transpose
// AVX2-LABEL: func.func @partial_tiles_28x28(
// AVX2-NOT: linalg.transpose
// AVX2: outs(%{{.*}} : tensor<32x112xf32>)
// AVX2-NOT: linalg.transpose
// AVX2: return
relay.func @partial_tiles_28x28(%x: tensor<1x128x28x28xf32>) -> tensor<1x32x28x28xf32> {
  %w = relay.constant dense<0.5> : tensor<32x128x1x1xf32>
  %r = relay.nn.conv2d %x, %w {channels = 32 : i64, kernel_size = array<i64: 1, 1>} : (tensor<1x128x28x28xf32>, tensor<32x128x1x1xf32>) -> tensor<1x32x28x28xf32>
  relay.return %r : tensor<1x32x28x28xf32>
}

// Tests that with few products per output (2 here, SqueezeNet's expand
// layers have 16-64) the plain product stays: transposing the result back
// would cost about what the whole tiles save.
// CHECK-LABEL: func.func @short_k_28x28(
// CHECK-NOT: linalg.transpose
// CHECK: outs(%{{.*}} : tensor<32x784xf32>)
// CHECK-NOT: linalg.transpose
// CHECK: return
relay.func @short_k_28x28(%x: tensor<1x2x28x28xf32>) -> tensor<1x32x28x28xf32> {
  %w = relay.constant dense<0.5> : tensor<32x2x1x1xf32>
  %r = relay.nn.conv2d %x, %w {channels = 32 : i64, kernel_size = array<i64: 1, 1>} : (tensor<1x2x28x28xf32>, tensor<32x2x1x1xf32>) -> tensor<1x32x28x28xf32>
  relay.return %r : tensor<1x32x28x28xf32>
}

// Tests that 16 channels (one 16-wide panel, no whole 32-column tile
// either way) keep the plain product on 784 positions with AVX-512 too.
// CHECK-LABEL: func.func @one_vector_of_channels_28x28(
// CHECK-NOT: linalg.transpose
// CHECK: outs(%{{.*}} : tensor<16x784xf32>)
// CHECK-NOT: linalg.transpose
// CHECK: return
relay.func @one_vector_of_channels_28x28(%x: tensor<1x128x28x28xf32>) -> tensor<1x16x28x28xf32> {
  %w = relay.constant dense<0.5> : tensor<16x128x1x1xf32>
  %r = relay.nn.conv2d %x, %w {channels = 16 : i64, kernel_size = array<i64: 1, 1>} : (tensor<1x128x28x28xf32>, tensor<16x128x1x1xf32>) -> tensor<1x16x28x28xf32>
  relay.return %r : tensor<1x16x28x28xf32>
}

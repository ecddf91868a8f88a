// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver4 --relay-to-linalg | FileCheck %s
// 3x3 stride-1 convolutions of one image with at least 16 input channels,
// whole panels of 16 output channels and 32 tiles or more use Winograd's
// minimal filtering: the weights transformed (a*a x F/lanes x C x lanes;
// at compile time when they are constant), the input transformed by rows
// then columns, a*a products over channels, the output transformed and
// transposed back. An image whose transformed input fits the L2 cache is
// convolved in one band (the transformed weights are read once).

// 24x24 outputs: F(4x4, 3x3), 6x6 tiles of 4x4, a = 6, one band.
// CHECK-LABEL: func.func @f4(
// CHECK-DAG: %[[U:.*]] = arith.constant dense<{{.*}}> : tensor<36x1x16x16xf32>
// CHECK-NOT: relay.independent_iterations
// CHECK: linalg.generic {{.*}} ins({{.*}} : tensor<16x6x26xf32>, {{.*}}) outs({{.*}} : tensor<16x6x26xf32>, tensor<16x6x26xf32>, tensor<16x6x26xf32>, tensor<16x6x26xf32>, tensor<16x6x26xf32>, tensor<16x6x26xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %[[U]] : tensor<36x16x36xf32>, tensor<36x1x16x16xf32>) outs(%{{.*}} : tensor<36x36x1x16xf32>)
// CHECK: linalg.transpose ins(%{{.*}} : tensor<576x16xf32>) outs(%{{.*}} : tensor<16x576xf32>) permutation = [1, 0]
// CHECK-NOT: relay.independent_iterations
// CHECK: return
relay.func @f4(%x: tensor<1x16x24x24xf32>) -> tensor<1x16x24x24xf32> {
  %w = relay.constant dense<0.5> : tensor<16x16x3x3xf32>
  %r = relay.nn.conv2d %x, %w {channels = 16 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x16x24x24xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x24x24xf32>
  relay.return %r : tensor<1x16x24x24xf32>
}

// U of a splat g = 2: U[0] = (G g G^T)[0, 0] = g / 16 = 0.125 (0x3E000000
// little-endian), U[35] = g (0x40000000).
// CHECK-LABEL: func.func @f4_values(
// CHECK: arith.constant dense<"0x0000003E0000003E{{[0-9A-F]*}}0000004000000040"> : tensor<36x1x16x16xf32>
relay.func @f4_values(%x: tensor<1x16x24x24xf32>) -> tensor<1x16x24x24xf32> {
  %w = relay.constant dense<2.0> : tensor<16x16x3x3xf32>
  %r = relay.nn.conv2d %x, %w {channels = 16 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x16x24x24xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x24x24xf32>
  relay.return %r : tensor<1x16x24x24xf32>
}

// 12x12 outputs have 9 tiles of 4x4 but 36 of 2x2: F(2x2, 3x3), a = 4.
// CHECK-LABEL: func.func @f2(
// CHECK: arith.constant dense<{{.*}}> : tensor<16x1x16x16xf32>
// CHECK: tensor<16x16x36xf32>
relay.func @f2(%x: tensor<1x16x12x12xf32>) -> tensor<1x16x12x12xf32> {
  %w = relay.constant dense<0.5> : tensor<16x16x3x3xf32>
  %r = relay.nn.conv2d %x, %w {channels = 16 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x16x12x12xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x12x12xf32>
  relay.return %r : tensor<1x16x12x12xf32>
}

// 22x22 outputs take 6x6 tiles of 4x4 that hang over by two rows and
// columns (the image is padded with zeros for them); the result is sliced
// back.
// CHECK-LABEL: func.func @sliced(
// CHECK: tensor.extract_slice {{.*}} : tensor<1x32x24x24xf32> to tensor<1x32x22x22xf32>
relay.func @sliced(%x: tensor<1x16x22x22xf32>) -> tensor<1x32x22x22xf32> {
  %w = relay.constant dense<0.5> : tensor<32x16x3x3xf32>
  %r = relay.nn.conv2d %x, %w {channels = 32 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x16x22x22xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x22x22xf32>
  relay.return %r : tensor<1x32x22x22xf32>
}

// Tests that weights that are not a constant (a training step's) are
// transformed at run time: the product of the 36 x 9 matrix G (x) G with
// the weights' taps gives U in the same packed layout.
// CHECK-LABEL: func.func @runtime_weights(
// CHECK: %[[GG:.*]] = arith.constant dense<{{.*}}> : tensor<36x9xf32>
// CHECK: tensor.expand_shape %arg1 {{.*}} into tensor<1x16x16x3x3xf32>
// CHECK: %[[U:.*]] = linalg.generic {{.*}} ins(%[[GG]], %{{.*}} : tensor<36x9xf32>, tensor<1x9x16x16xf32>) outs(%{{.*}} : tensor<36x1x16x16xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[U]] : tensor<36x16x36xf32>, tensor<36x1x16x16xf32>)
relay.func @runtime_weights(%x: tensor<1x16x24x24xf32>, %w: tensor<16x16x3x3xf32>) -> tensor<1x16x24x24xf32> {
  %r = relay.nn.conv2d %x, %w {channels = 16 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x16x24x24xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x24x24xf32>
  relay.return %r : tensor<1x16x24x24xf32>
}

// Tests that a batch's images are convolved in parallel, each in one band
// when its transformed input fits (all 6 tile rows of a 24x24 image here:
// V is 36 x 16 x 6 x 6), the bands not split further.
// CHECK-LABEL: func.func @batch(
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args(%{{.*}}) -> (tensor<2x16x24x24xf32>)
// CHECK-NOT: relay.independent_iterations
// CHECK: -> (tensor<36x16x6x6xf32>)
// CHECK: } {relay.independent_iterations}
relay.func @batch(%x: tensor<2x16x24x24xf32>, %w: tensor<16x16x3x3xf32>) -> tensor<2x16x24x24xf32> {
  %r = relay.nn.conv2d %x, %w {channels = 16 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<2x16x24x24xf32>, tensor<16x16x3x3xf32>) -> tensor<2x16x24x24xf32>
  relay.return %r : tensor<2x16x24x24xf32>
}

// Tests that a batch with weights known only at run time takes Winograd
// from 16 tiles an image (7x7: F(2x2, 3x3), U of 16 x 1 x 16 x 16).
// CHECK-LABEL: func.func @batch_few_tiles(
// CHECK: arith.constant dense<{{.*}}> : tensor<16x9xf32>
// CHECK: -> tensor<16x1x16x16xf32>
relay.func @batch_few_tiles(%x: tensor<2x16x7x7xf32>, %w: tensor<16x16x3x3xf32>) -> tensor<2x16x7x7xf32> {
  %r = relay.nn.conv2d %x, %w {channels = 16 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<2x16x7x7xf32>, tensor<16x16x3x3xf32>) -> tensor<2x16x7x7xf32>
  relay.return %r : tensor<2x16x7x7xf32>
}

// Not Winograd: a stride of 2, 8 input channels, 24 output channels (no
// whole panel), 7x7 outputs (16 tiles of 2x2), transformed weights over
// 64 MB (36 x 704 x 704 floats).
// CHECK-LABEL: func.func @strided(
// CHECK-NOT: tensor<36x
// CHECK-LABEL: func.func @few_channels(
// CHECK-NOT: tensor<36x
// CHECK-LABEL: func.func @partial_panel(
// CHECK-NOT: tensor<36x
// CHECK-LABEL: func.func @few_tiles(
// CHECK-NOT: tensor<16x1x
// CHECK-LABEL: func.func @too_large(
// CHECK-NOT: tensor<36x
// CHECK: return
relay.func @strided(%x: tensor<1x16x48x48xf32>) -> tensor<1x16x24x24xf32> {
  %w = relay.constant dense<0.5> : tensor<16x16x3x3xf32>
  %r = relay.nn.conv2d %x, %w {channels = 16 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x16x48x48xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x24x24xf32>
  relay.return %r : tensor<1x16x24x24xf32>
}
relay.func @few_channels(%x: tensor<1x8x24x24xf32>) -> tensor<1x16x24x24xf32> {
  %w = relay.constant dense<0.5> : tensor<16x8x3x3xf32>
  %r = relay.nn.conv2d %x, %w {channels = 16 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x8x24x24xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x24x24xf32>
  relay.return %r : tensor<1x16x24x24xf32>
}
relay.func @partial_panel(%x: tensor<1x16x24x24xf32>) -> tensor<1x24x24x24xf32> {
  %w = relay.constant dense<0.5> : tensor<24x16x3x3xf32>
  %r = relay.nn.conv2d %x, %w {channels = 24 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x16x24x24xf32>, tensor<24x16x3x3xf32>) -> tensor<1x24x24x24xf32>
  relay.return %r : tensor<1x24x24x24xf32>
}
relay.func @few_tiles(%x: tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32> {
  %w = relay.constant dense<0.5> : tensor<16x16x3x3xf32>
  %r = relay.nn.conv2d %x, %w {channels = 16 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x16x7x7xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x7x7xf32>
  relay.return %r : tensor<1x16x7x7xf32>
}
relay.func @too_large(%x: tensor<1x704x24x24xf32>) -> tensor<1x704x24x24xf32> {
  %w = relay.constant dense<0.5> : tensor<704x704x3x3xf32>
  %r = relay.nn.conv2d %x, %w {channels = 704 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x704x24x24xf32>, tensor<704x704x3x3xf32>) -> tensor<1x704x24x24xf32>
  relay.return %r : tensor<1x704x24x24xf32>
}

// Tests that a convolution dilated by 2 and padded by 2 on a 28x28 map
// takes Winograd on its 2x2 phases of 14x14 laid side by side, each
// followed by a row and a column of zeros (a 30x30 mosaic: F(4x4) on 32x32
// outputs), and that the phases' outputs come back without the gutters,
// interleaved.
// CHECK-LABEL: func.func @dilated(
// CHECK: %[[S:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1], [2, 3], [4, 5]] output_shape [1, 16, 14, 2, 14, 2]
// CHECK: %[[P:.*]] = linalg.transpose ins(%[[S]] : tensor<1x16x14x2x14x2xf32>) outs(%{{.*}} : tensor<1x16x2x14x2x14xf32>) permutation = [0, 1, 3, 2, 5, 4]
// CHECK: %[[G:.*]] = tensor.pad %[[P]] low[0, 0, 0, 0, 0, 0] high[0, 0, 0, 1, 0, 1]
// CHECK: tensor.collapse_shape %[[G]] {{.*}} : tensor<1x16x2x15x2x15xf32> into tensor<1x16x30x30xf32>
// CHECK: %[[O:.*]] = tensor.expand_shape %{{.*}} output_shape [1, 16, 2, 15, 2, 15] : tensor<1x16x30x30xf32> into tensor<1x16x2x15x2x15xf32>
// CHECK: %[[K:.*]] = tensor.extract_slice %[[O]][0, 0, 0, 0, 0, 0] [1, 16, 2, 14, 2, 14] [1, 1, 1, 1, 1, 1]
// CHECK: %[[I:.*]] = linalg.transpose ins(%[[K]] : tensor<1x16x2x14x2x14xf32>) outs(%{{.*}} : tensor<1x16x14x2x14x2xf32>) permutation = [0, 1, 3, 2, 5, 4]
// CHECK: %[[Y:.*]] = tensor.collapse_shape %[[I]] {{.*}} into tensor<1x16x28x28xf32>
// CHECK: return %[[Y]]
relay.func @dilated(%x: tensor<1x16x28x28xf32>) -> tensor<1x16x28x28xf32> {
  %w = relay.constant dense<0.5> : tensor<16x16x3x3xf32>
  %r = relay.nn.conv2d %x, %w {channels = 16 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 2, 2>, dilation = array<i64: 2, 2>} : (tensor<1x16x28x28xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x28x28xf32>
  relay.return %r : tensor<1x16x28x28xf32>
}

// Tests that an image of partial phases (15 rows dilated by 2) is extended
// with a row of zeros to whole phases (2x2 of 8x14), takes the mosaic, and
// that the extra row of outputs is cropped.
// CHECK-LABEL: func.func @partial_phases(
// CHECK: %[[X:.*]] = tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 0, 1, 0]
// CHECK: tensor.expand_shape %[[X]] {{.*}} output_shape [1, 16, 8, 2, 14, 2] : tensor<1x16x16x28xf32>
// CHECK: tensor.pad %{{.*}} low[0, 0, 0, 0, 0, 0] high[0, 0, 0, 1, 0, 1]
// CHECK: %[[Y:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 16, 15, 28] [1, 1, 1, 1] : tensor<1x16x16x28xf32> to tensor<1x16x15x28xf32>
// CHECK: return %[[Y]]
relay.func @partial_phases(%x: tensor<1x16x15x28xf32>) -> tensor<1x16x15x28xf32> {
  %w = relay.constant dense<0.5> : tensor<16x16x3x3xf32>
  %r = relay.nn.conv2d %x, %w {padding = array<i64: 2, 2>, dilation = array<i64: 2, 2>} : (tensor<1x16x15x28xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x15x28xf32>
  relay.return %r : tensor<1x16x15x28xf32>
}

// Tests that a mosaic over 1.5 times the output (17x13 dilated by 4:
// phases of 5x4, a 24x20 mosaic, 2.2 times) is not made: the im2col
// product, no phases.
// CHECK-LABEL: func.func @mosaic_too_large(
// CHECK-NOT: tensor<1x32x4x5x4x4xf32>
// CHECK-NOT: tensor<1x32x24x20xf32>
// CHECK: return
relay.func @mosaic_too_large(%x: tensor<1x32x17x13xf32>) -> tensor<1x32x17x13xf32> {
  %w = relay.constant dense<0.5> : tensor<32x32x3x3xf32>
  %r = relay.nn.conv2d %x, %w {padding = array<i64: 4, 4>, dilation = array<i64: 4, 4>} : (tensor<1x32x17x13xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x17x13xf32>
  relay.return %r : tensor<1x32x17x13xf32>
}

// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver3 --relay-to-linalg | FileCheck %s
// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver4 --relay-to-linalg | FileCheck %s --check-prefix=ROWS
// Grouped convolutions (neither ungrouped nor depthwise) on the CPU go group
// by group, in a loop whose iterations are independent. On AVX-512, a 3x3
// or 5x5 one padded like a depthwise one with at most 128 channels per
// group is convolved in rows by the depthwise row kernels, over register
// tiles of a group's output channels; otherwise (and on AVX2: CHECK) each
// group's channels of the image and its filters are an ungrouped
// convolution (im2col product) of their own, instead of one product
// batched over groups.

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

// Tests that on AVX-512 RegNet's grouped 3x3 stride-2 convolution (6 groups
// of 8 channels) is convolved in rows: a loop over the groups (8 filters at
// a time, from the group's first filter and channel) marked as a row kernel,
// reading the unpadded image; in each group the register tile is all 8
// output channels of one row of 28 columns (chunks 0..16 and 12..28: 16
// accumulators), carried through a loop over the group's 8 input channels
// that reads the weights one by one; each row written as row vectors.
// ROWS-LABEL: func.func @grouped(
// ROWS-NOT:   tensor<1x48x58x58xf32>
// ROWS:       scf.for %[[G:.*]] = %{{.*}} to %c48 step %c8 iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<1x48x28x28xf32>)
// ROWS:         scf.for %{{.*}} = %{{.*}} to %c8{{[_0-9]*}} step %c8{{[_0-9]*}} iter_args(%{{.*}}) -> (tensor<1x8x28x28xf32>)
// ROWS:           scf.for %[[CI:.*]] = %{{.*}} to %c8{{[_0-9]*}} step %c1{{[_0-9]*}} iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// ROWS:             %[[C:.*]] = arith.addi %[[G]], %[[CI]]
// ROWS:             vector.transfer_read %arg0[%{{.*}}, %[[C]], {{.*}} : tensor<1x48x56x56xf32>, vector<16xf32>
// ROWS:             tensor.extract %arg1[%{{.*}}, %[[CI]], %{{.*}}, %{{.*}}] : tensor<48x8x3x3xf32>
// ROWS:             math.fma
// ROWS:           vector.transfer_write {{.*}}, %c0{{[_0-9]*}}] {{.*}} : vector<16xf32>, tensor<1x8x28x28xf32>
// ROWS:           vector.transfer_write {{.*}}, %c12{{[_0-9]*}}] {{.*}} : vector<16xf32>, tensor<1x8x28x28xf32>
// ROWS:         tensor.insert_slice %{{.*}} into %[[ACC]][0, %[[G]], 0, 0] [1, 8, 28, 28]
// ROWS:       } {relay.independent_iterations, relay.row_kernel}
// ROWS-NOT:   linalg.generic
// ROWS-LABEL: func.func @batch(

// Tests that a row of 5 chunks (80 columns) takes 4 of a group's 8 output
// channels per register tile (20 accumulators; 8 would be 40), so a group
// is two blocks of channels; the first and last rows (a row of the image
// missing) have their own code and the rows between a loop.
// ROWS-LABEL: func.func @wide_rows(
// ROWS:       scf.for %{{.*}} = %{{.*}} to %c16 step %c8
// ROWS:         scf.for %{{.*}} = %{{.*}} to %c8{{[_0-9]*}} step %c4
// ROWS:           scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// ROWS:           scf.for %{{.*}} = %c1{{[_0-9]*}} to %c3{{[_0-9]*}} step %c1
// ROWS:       } {relay.independent_iterations, relay.row_kernel}
relay.func @wide_rows(%x: tensor<1x16x4x80xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x4x80xf32> {
  %r = relay.nn.conv2d %x, %w {channels = 16 : i64, groups = 2 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x16x4x80xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x4x80xf32>
  relay.return %r : tensor<1x16x4x80xf32>
}

// Tests that a batch of grouped 3x3 convolutions goes image by image, each
// image in rows (rows of 6 columns written under a mask of 6 lanes).
// ROWS-LABEL: func.func @batch_rows(
// ROWS:       scf.for %[[N:.*]] = %{{.*}} to %c2 step %c1
// ROWS:         scf.for %{{.*}} = %{{.*}} to %c8 step %c4
// ROWS:           vector.constant_mask [6] : vector<16xi1>
// ROWS:         } {relay.independent_iterations, relay.row_kernel}
// ROWS:         tensor.insert_slice %{{.*}} into %{{.*}}[%[[N]], 0, 0, 0] [1, 8, 6, 6]
relay.func @batch_rows(%x: tensor<2x8x6x6xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<2x8x6x6xf32> {
  %r = relay.nn.conv2d %x, %w {channels = 8 : i64, groups = 2 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<2x8x6x6xf32>, tensor<8x4x3x3xf32>) -> tensor<2x8x6x6xf32>
  relay.return %r : tensor<2x8x6x6xf32>
}

// Tests that groups of more than 128 channels (2 of 256) stay im2col
// products group by group on AVX-512 too.
// ROWS-LABEL: func.func @wide_groups(
// ROWS:       scf.for %{{.*}} = %{{.*}} to %c512 step %c256
// ROWS:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<256x2304xf32>, tensor<2304x64xf32>)
// ROWS:       } {relay.independent_iterations}
relay.func @wide_groups(%x: tensor<1x512x8x8xf32>, %w: tensor<512x256x3x3xf32>) -> tensor<1x512x8x8xf32> {
  %r = relay.nn.conv2d %x, %w {channels = 512 : i64, groups = 2 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x512x8x8xf32>, tensor<512x256x3x3xf32>) -> tensor<1x512x8x8xf32>
  relay.return %r : tensor<1x512x8x8xf32>
}

// Tests that rows of at most 7 columns go two to a vector: each input
// channel's two input rows (masked reads of 6 columns; zeros for the row
// above the image) are one vector, the first row in lanes 0..8 and the
// second in 8..16, and its side taps that
// vector rotated by one lane with no mask (lanes 7 and 15 are the
// padding's zeros); each output row is half of an accumulator, written
// under a mask of 6 of 8 lanes. 5 rows: the first pair (a row above the
// image), the pairs between in a loop, the last row alone.
// ROWS-LABEL: func.func @paired_rows(
// ROWS:       scf.for %{{.*}} = %{{.*}} to %c16 step %c4
// ROWS:         scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// ROWS:           vector.transfer_read %arg0{{.*}} : tensor<1x16x5x6xf32>, vector<16xf32>
// ROWS:           %[[B:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23]
// ROWS:           %[[L:.*]] = vector.shuffle %[[B]], %[[B]] [15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
// ROWS-NOT:       arith.select
// ROWS:           math.fma %[[L]]
// ROWS:         %[[M:.*]] = vector.constant_mask [6] : vector<8xi1>
// ROWS:         %[[LO:.*]] = vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [8], strides = [1]} : vector<16xf32> to vector<8xf32>
// ROWS:         vector.transfer_write %[[LO]], %{{.*}}, %[[M]] {{.*}} : vector<8xf32>, tensor<1x4x5x6xf32>
// ROWS:         %[[HI:.*]] = vector.extract_strided_slice %{{.*}} {offsets = [8], sizes = [8], strides = [1]} : vector<16xf32> to vector<8xf32>
// ROWS:         vector.transfer_write %[[HI]], %{{.*}}, %[[M]] {{.*}} : vector<8xf32>, tensor<1x4x5x6xf32>
// ROWS:         scf.for %{{.*}} = %c2{{[_0-9]*}} to %c4{{[_0-9]*}} step %c2
// ROWS:       } {relay.independent_iterations, relay.row_kernel}
relay.func @paired_rows(%x: tensor<1x16x5x6xf32>, %w: tensor<16x4x3x3xf32>) -> tensor<1x16x5x6xf32> {
  %r = relay.nn.conv2d %x, %w {channels = 16 : i64, groups = 4 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x16x5x6xf32>, tensor<16x4x3x3xf32>) -> tensor<1x16x5x6xf32>
  relay.return %r : tensor<1x16x5x6xf32>
}

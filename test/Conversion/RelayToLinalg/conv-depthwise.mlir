// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver4 --relay-to-linalg --split-input-file | FileCheck %s
// A 3x3 depthwise convolution with one pixel of padding, stride 1 or 2
// (or 5x5 with two; 7x7 with three at stride 1), of one image: loop nests
// of vector code reading the unpadded image (no padded copy). Channels go
// in blocks of at most 64 KB of output, an independent loop each inserting
// its block, marked as a row kernel (its results written as row vectors,
// for --relay-fuse-elementwise to apply the bias and activation to);
// inside, rows of whole 16-lane chunks, the last overlapping the one before
// (20 = columns 0..16 and 4..20); the side taps read one column over or, at
// the row's ends, the chunk rotated by one lane with the wrapped lane
// masked off its multiply-add (no shuffle that shifts in a zero).

// CHECK-LABEL: func.func @stride_1(
// CHECK-NOT:   tensor<1x4x10x22xf32>
// CHECK:       %[[R:.*]] = scf.for %[[C0:.*]] = %c0 to %c4{{.*}} step %c4{{[_0-9]*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<1x4x8x20xf32>) {
// CHECK:         scf.for
// CHECK:           tensor.extract %arg1
// First row: no row above. Its first chunk, rotated right, lane 0 off.
// CHECK:           %[[V:.*]] = vector.transfer_read %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %c0{{[_0-9]*}}]{{.*}} : tensor<1x4x8x20xf32>, vector<16xf32>
// CHECK:           %[[L:.*]] = vector.shuffle %[[V]], %[[V]] [15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14] : vector<16xf32>, vector<16xf32>
// CHECK:           %[[LM:.*]] = arith.constant dense<[false, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true]> : vector<16xi1>
// CHECK:           vector.transfer_read %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %c1{{[_0-9]*}}]{{.*}} : tensor<1x4x8x20xf32>, vector<16xf32>
// The second chunk (columns 4..20): left tap read at 3, right the chunk
// rotated left, lane 15 off.
// CHECK:           %[[W:.*]] = vector.transfer_read %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %c4{{[_0-9]*}}]{{.*}} : tensor<1x4x8x20xf32>, vector<16xf32>
// CHECK:           vector.transfer_read %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %c3{{[_0-9]*}}]{{.*}} : tensor<1x4x8x20xf32>, vector<16xf32>
// CHECK:           %[[R1:.*]] = vector.shuffle %[[W]], %[[W]] [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0] : vector<16xf32>, vector<16xf32>
// CHECK:           %[[RM:.*]] = arith.constant dense<[true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false]> : vector<16xi1>
// CHECK:           %[[P:.*]] = arith.mulf %[[L]], %{{.*}} : vector<16xf32>
// CHECK:           arith.select %[[LM]], %[[P]], %{{.*}} : vector<16xi1>, vector<16xf32>
// CHECK:           %[[S:.*]] = math.fma %[[R1]], %{{.*}}, %[[ACC2:.*]] : vector<16xf32>
// CHECK:           arith.select %[[RM]], %[[S]], %[[ACC2]] : vector<16xi1>, vector<16xf32>
// CHECK-NOT:       vector<4xf32>
// CHECK:           vector.transfer_write {{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %c0{{[_0-9]*}}]{{.*}} : vector<16xf32>, tensor<1x4x8x20xf32>
// CHECK:           vector.transfer_write {{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %c4{{[_0-9]*}}]{{.*}} : vector<16xf32>, tensor<1x4x8x20xf32>
// The rows between: three input rows each.
// CHECK:           scf.for %{{.*}} = %c1{{.*}} to %c7
// CHECK-COUNT-6:     vector.transfer_read %arg0{{.*}} vector<16xf32>
// CHECK:           }
// CHECK:         tensor.insert_slice %{{.*}} into %[[ACC]][0, %[[C0]], 0, 0] [1, 4, 8, 20] [1, 1, 1, 1]
// CHECK:       } {relay.independent_iterations, relay.row_kernel}
// CHECK:       return %[[R]]
relay.func @stride_1(%x: tensor<1x4x8x20xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x8x20xf32> {
  %y = relay.nn.conv2d %x, %w {groups = 4 : i64, padding = array<i64: 1, 1>} : (tensor<1x4x8x20xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x8x20xf32>
  relay.return %y : tensor<1x4x8x20xf32>
}

// -----

// Stride 2 of a 9x9 image (5x5 out): a row narrower than a chunk. The
// span of 9 columns as one read under a mask (lanes 9 to 15 zeros), its
// even columns (the centre taps), its odd ones (right; the column past the
// end, 9, a zero) and the odd ones rotated by one lane (left, lane 0 off).
// The row is written under a mask of its 5 lanes.
// CHECK-LABEL: func.func @stride_2(
// CHECK-NOT:   tensor<1x4x11x11xf32>
// CHECK:       %[[M:.*]] = vector.constant_mask [9] : vector<16xi1>
// CHECK:       %[[S:.*]] = vector.transfer_read %arg0{{.*}}, %{{.*}}, %[[M]] {{.*}} : tensor<1x4x9x9xf32>, vector<16xf32>
// CHECK:       vector.shuffle %[[S]], %[[S]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30] : vector<16xf32>, vector<16xf32>
// CHECK:       %[[O:.*]] = vector.shuffle %[[S]], %[[S]] [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31] : vector<16xf32>, vector<16xf32>
// CHECK:       vector.shuffle %[[O]], %[[O]] [15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14] : vector<16xf32>, vector<16xf32>
// CHECK:       %[[WM:.*]] = vector.constant_mask [5] : vector<16xi1>
// CHECK:       vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}], %[[WM]] {{.*}} : vector<16xf32>, tensor<1x4x5x5xf32>
// CHECK:       } {relay.independent_iterations, relay.row_kernel}
relay.func @stride_2(%x: tensor<1x4x9x9xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x5x5xf32> {
  %y = relay.nn.conv2d %x, %w {groups = 4 : i64, padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x9x9xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x5x5xf32>
  relay.return %y : tensor<1x4x5x5xf32>
}

// -----

// Stride 2 to 20 output columns: chunks of outputs 0..16 and 4..20. The
// second reads the span of input columns 8..40 in two halves; its left
// taps start with the first chunk's odd lane 3 (input column 7).
// CHECK-LABEL: func.func @stride_2_overlap(
// CHECK:       %[[O0:.*]] = vector.shuffle %{{.*}}, %{{.*}} [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31] : vector<16xf32>, vector<16xf32>
// CHECK:       vector.shuffle %[[O0]], %[[O0]] [15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14] : vector<16xf32>, vector<16xf32>
// CHECK:       vector.transfer_read %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %c8{{[_0-9]*}}]{{.*}} vector<16xf32>
// CHECK:       vector.transfer_read %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %c24{{[_0-9]*}}]{{.*}} vector<16xf32>
// CHECK:       %[[O1:.*]] = vector.shuffle %{{.*}}, %{{.*}} [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31] : vector<16xf32>, vector<16xf32>
// CHECK:       vector.shuffle %[[O0]], %[[O1]] [3, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30] : vector<16xf32>, vector<16xf32>
// CHECK-NOT:   vector<4xf32>
// CHECK:       } {relay.independent_iterations, relay.row_kernel}
relay.func @stride_2_overlap(%x: tensor<1x4x6x40xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x3x20xf32> {
  %y = relay.nn.conv2d %x, %w {groups = 4 : i64, padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x6x40xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x3x20xf32>
  relay.return %y : tensor<1x4x3x20xf32>
}

// -----

// An image over 2 MB (64x96x96) goes in bands of output rows (8 here), each
// reading a window of the image's rows (17 = 2 * 7 + 3 at stride 2) that
// starts at row 2 * o0 - 1 within the image, and convolving every channel;
// the first band, with no row above, has its own code. The loop is marked
// for --relay-fuse-elementwise to compute each window in its band.
// CHECK-LABEL: func.func @row_bands(
// CHECK:       scf.for %[[O0:.*]] = %c0 to %c48 step %c8 iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<1x64x48x48xf32>) {
// CHECK:         %[[S0:.*]] = arith.muli %[[O0]], %c2
// CHECK:         %[[S1:.*]] = arith.subi %[[S0]], %c1
// CHECK:         %[[S2:.*]] = arith.maxsi %[[S1]], %c0
// CHECK:         %[[START:.*]] = arith.minsi %[[S2]], %c79
// CHECK:         %[[WIN:.*]] = tensor.extract_slice %arg0[0, 0, %[[START]], 0] [1, 64, 17, 96] [1, 1, 1, 1]
// CHECK:         %[[FIRST:.*]] = arith.cmpi eq, %[[O0]], %c0
// CHECK:         %[[BAND:.*]] = scf.if %[[FIRST]] -> (tensor<1x64x8x48xf32>) {
// CHECK:           scf.for %{{.*}} = %c0{{.*}} to %c64 step %c1
// CHECK:             vector.transfer_read %[[WIN]]
// CHECK:         } else {
// CHECK-NOT:       scf.if
// CHECK:           scf.for %{{.*}} = %c0{{.*}} to %c64 step %c1
// CHECK:         }
// CHECK:         tensor.insert_slice %[[BAND]] into %[[ACC]][0, 0, %[[O0]], 0] [1, 64, 8, 48] [1, 1, 1, 1]
// CHECK:       } {relay.image_windows, relay.independent_iterations, relay.row_kernel}
relay.func @row_bands(%x: tensor<1x64x96x96xf32>, %w: tensor<64x1x3x3xf32>) -> tensor<1x64x48x48xf32> {
  %y = relay.nn.conv2d %x, %w {groups = 64 : i64, padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x64x96x96xf32>, tensor<64x1x3x3xf32>) -> tensor<1x64x48x48xf32>
  relay.return %y : tensor<1x64x48x48xf32>
}

// -----

// At stride 1 the last band's window (10 rows) would end below the image:
// it starts at row 118 and the band has its own code too.
// CHECK-LABEL: func.func @row_bands_stride_1(
// CHECK:       scf.for %[[O0:.*]] = %c0 to %c128 step %c8
// CHECK:         arith.minsi %{{.*}}, %c118
// CHECK:         tensor.extract_slice %arg0[0, 0, %{{.*}}, 0] [1, 40, 10, 128] [1, 1, 1, 1]
// CHECK:         scf.if
// CHECK:         } else {
// CHECK:           %[[LAST:.*]] = arith.cmpi eq, %[[O0]], %c120
// CHECK:           scf.if %[[LAST]] -> (tensor<1x40x8x128xf32>) {
// CHECK:           } else {
// CHECK:       } {relay.image_windows, relay.independent_iterations, relay.row_kernel}
relay.func @row_bands_stride_1(%x: tensor<1x40x128x128xf32>, %w: tensor<40x1x3x3xf32>) -> tensor<1x40x128x128xf32> {
  %y = relay.nn.conv2d %x, %w {groups = 40 : i64, padding = array<i64: 1, 1>} : (tensor<1x40x128x128xf32>, tensor<40x1x3x3xf32>) -> tensor<1x40x128x128xf32>
  relay.return %y : tensor<1x40x128x128xf32>
}

// -----

// 5x5 with two pixels of padding at stride 1 (EfficientNet's): five taps a
// row. The first chunk's left taps are it rotated by two lanes and by one,
// lanes 0-1 and 0 off; its right taps reads 1 and 2 columns over. The
// second chunk (columns 4..20) reads its left taps at columns 2 and 3, and
// its right ones are it rotated, lanes 15 and 14-15 off.
// CHECK-LABEL: func.func @five_by_five(
// CHECK:       %[[V:.*]] = vector.transfer_read %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %c0{{[_0-9]*}}]{{.*}} vector<16xf32>
// CHECK:       vector.shuffle %[[V]], %[[V]] [14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
// CHECK:       arith.constant dense<[false, false, true, true, true, true, true, true, true, true, true, true, true, true, true, true]> : vector<16xi1>
// CHECK:       vector.shuffle %[[V]], %[[V]] [15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
// CHECK:       vector.transfer_read %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %c1{{[_0-9]*}}]
// CHECK:       vector.transfer_read %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %c2{{[_0-9]*}}]
// CHECK:       %[[W:.*]] = vector.transfer_read %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %c4{{[_0-9]*}}]
// CHECK:       vector.transfer_read %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %c2{{[_0-9]*}}]
// CHECK:       vector.transfer_read %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %c3{{[_0-9]*}}]
// CHECK:       vector.shuffle %[[W]], %[[W]] [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0]
// CHECK:       vector.shuffle %[[W]], %[[W]] [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1]
// CHECK:       arith.constant dense<[true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false]> : vector<16xi1>
// CHECK:       } {relay.independent_iterations, relay.row_kernel}
relay.func @five_by_five(%x: tensor<1x4x6x20xf32>, %w: tensor<4x1x5x5xf32>) -> tensor<1x4x6x20xf32> {
  %y = relay.nn.conv2d %x, %w {groups = 4 : i64, padding = array<i64: 2, 2>} : (tensor<1x4x6x20xf32>, tensor<4x1x5x5xf32>) -> tensor<1x4x6x20xf32>
  relay.return %y : tensor<1x4x6x20xf32>
}

// -----

// 5x5 rows 17 wide (a second chunk one column in) keep the generic.
// CHECK-LABEL: func.func @five_by_five_17(
// CHECK-NOT:   vector.shuffle
// CHECK:       linalg.generic
relay.func @five_by_five_17(%x: tensor<1x4x6x17xf32>, %w: tensor<4x1x5x5xf32>) -> tensor<1x4x6x17xf32> {
  %y = relay.nn.conv2d %x, %w {groups = 4 : i64, padding = array<i64: 2, 2>} : (tensor<1x4x6x17xf32>, tensor<4x1x5x5xf32>) -> tensor<1x4x6x17xf32>
  relay.return %y : tensor<1x4x6x17xf32>
}

// -----

// Tests that a 7x7 convolution with three pixels of padding at stride 1
// (ConvNeXt's) on rows of 14 columns, narrower than a chunk, is a row
// kernel over the unpadded image (no 20x20 copy): each of the input
// rows read once under a mask of its 14 columns, its side taps the chunk
// rotated by one to three lanes. Only the lanes that wrap around onto
// columns of the row need masking off: lanes 0-2 of the tap three left
// (from columns 13-15, column 13 real), lanes 13-15 of the tap three right
// (output column 13 is written); lanes past the row are zeros or unwritten.
// CHECK-LABEL: func.func @seven_by_seven(
// CHECK-NOT:   tensor<1x4x20x20xf32>
// CHECK:       %[[M:.*]] = vector.constant_mask [14] : vector<16xi1>
// CHECK:       %[[V:.*]] = vector.transfer_read %arg0{{.*}}, %{{.*}}, %[[M]] {{.*}} : tensor<1x4x14x14xf32>, vector<16xf32>
// CHECK:       vector.shuffle %[[V]], %[[V]] [13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
// CHECK:       arith.constant dense<[false, false, false, true, true, true, true, true, true, true, true, true, true, true, true, true]> : vector<16xi1>
// CHECK-NEXT:  vector.shuffle %[[V]], %[[V]] [14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
// CHECK-NEXT:  vector.shuffle %[[V]], %[[V]] [15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
// CHECK-NEXT:  vector.shuffle %[[V]], %[[V]] [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0]
// CHECK-NEXT:  vector.shuffle %[[V]], %[[V]] [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1]
// CHECK-NEXT:  vector.shuffle %[[V]], %[[V]] [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2]
// CHECK-NEXT:  arith.constant dense<[true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false]> : vector<16xi1>
// The rows between (3 to 10, which read no row outside the image) go two
// at a time: eight input rows read once each, two output rows written.
// CHECK:       scf.for %{{.*}} = %c3{{[_0-9]*}} to %c11 step %c2
// CHECK-COUNT-8: vector.transfer_read %arg0
// CHECK-NOT:     vector.transfer_read
// CHECK-COUNT-2: vector.transfer_write
// CHECK-NEXT:    scf.yield
// CHECK:       } {relay.independent_iterations, relay.row_kernel}
relay.func @seven_by_seven(%x: tensor<1x4x14x14xf32>, %w: tensor<4x1x7x7xf32>) -> tensor<1x4x14x14xf32> {
  %y = relay.nn.conv2d %x, %w {groups = 4 : i64, padding = array<i64: 3, 3>} : (tensor<1x4x14x14xf32>, tensor<4x1x7x7xf32>) -> tensor<1x4x14x14xf32>
  relay.return %y : tensor<1x4x14x14xf32>
}

// -----

// Tests that 7x7 rows 18 wide (a second chunk two columns in, where the
// tap three left would read before the row) and 7x7 at stride 2 keep the
// generic over the padded image.
// CHECK-LABEL: func.func @seven_by_seven_18(
// CHECK-NOT:   vector.shuffle
// CHECK:       linalg.generic
// CHECK-LABEL: func.func @seven_by_seven_stride_2(
// CHECK-NOT:   vector.shuffle
// CHECK:       linalg.generic
relay.func @seven_by_seven_18(%x: tensor<1x4x6x18xf32>, %w: tensor<4x1x7x7xf32>) -> tensor<1x4x6x18xf32> {
  %y = relay.nn.conv2d %x, %w {groups = 4 : i64, padding = array<i64: 3, 3>} : (tensor<1x4x6x18xf32>, tensor<4x1x7x7xf32>) -> tensor<1x4x6x18xf32>
  relay.return %y : tensor<1x4x6x18xf32>
}
relay.func @seven_by_seven_stride_2(%x: tensor<1x4x8x40xf32>, %w: tensor<4x1x7x7xf32>) -> tensor<1x4x4x20xf32> {
  %y = relay.nn.conv2d %x, %w {groups = 4 : i64, padding = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x4x8x40xf32>, tensor<4x1x7x7xf32>) -> tensor<1x4x4x20xf32>
  relay.return %y : tensor<1x4x4x20xf32>
}

// -----

// 5x5 at stride 2 (20 outputs: chunks 0..16 and 4..20): the taps two
// columns left are the even columns one output back (the first chunk's
// rotated, lane 0 off; the second's start with the first's even lane 3),
// those two columns right the even columns one output on: lanes 1-15 and
// column 32, read under a one-lane mask.
// CHECK-LABEL: func.func @five_by_five_stride_2(
// CHECK:       %[[E0:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]
// CHECK:       vector.shuffle %[[E0]], %[[E0]] [15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
// CHECK:       %[[M:.*]] = vector.constant_mask [1] : vector<16xi1>
// CHECK:       %[[C32:.*]] = vector.transfer_read %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %c32], %{{.*}}, %[[M]]
// CHECK:       vector.shuffle %[[E0]], %[[C32]] [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
// CHECK:       %[[E1:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]
// CHECK:       vector.shuffle %[[E0]], %[[E1]] [3, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30]
// CHECK:       vector.shuffle %[[E1]], %[[E1]] [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0]
// CHECK:       } {relay.independent_iterations, relay.row_kernel}
relay.func @five_by_five_stride_2(%x: tensor<1x4x8x40xf32>, %w: tensor<4x1x5x5xf32>) -> tensor<1x4x4x20xf32> {
  %y = relay.nn.conv2d %x, %w {groups = 4 : i64, padding = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x8x40xf32>, tensor<4x1x5x5xf32>) -> tensor<1x4x4x20xf32>
  relay.return %y : tensor<1x4x4x20xf32>
}

// -----

// Other padding, strides, dilations and batches keep the generic over the
// padded image's taps.
// CHECK-LABEL: func.func @no_padding(
// CHECK-NOT:   vector.shuffle
// CHECK:       linalg.generic
// CHECK-LABEL: func.func @stride_3(
// CHECK-NOT:   vector.shuffle
// CHECK:       tensor<1x4x11x11xf32>
// CHECK-LABEL: func.func @dilated(
// CHECK-NOT:   vector.shuffle
// CHECK:       tensor<1x4x11x11xf32>
// CHECK-LABEL: func.func @batch_2(
// CHECK-NOT:   vector.shuffle
// CHECK:       tensor<2x4x11x11xf32>
relay.func @no_padding(%x: tensor<1x4x9x9xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x7x7xf32> {
  %y = relay.nn.conv2d %x, %w {groups = 4 : i64} : (tensor<1x4x9x9xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x7x7xf32>
  relay.return %y : tensor<1x4x7x7xf32>
}
relay.func @stride_3(%x: tensor<1x4x9x9xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %y = relay.nn.conv2d %x, %w {groups = 4 : i64, padding = array<i64: 1, 1>, strides = array<i64: 3, 3>} : (tensor<1x4x9x9xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x3x3xf32>
  relay.return %y : tensor<1x4x3x3xf32>
}
relay.func @dilated(%x: tensor<1x4x9x9xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x7x7xf32> {
  %y = relay.nn.conv2d %x, %w {groups = 4 : i64, padding = array<i64: 1, 1>, dilation = array<i64: 2, 2>} : (tensor<1x4x9x9xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x7x7xf32>
  relay.return %y : tensor<1x4x7x7xf32>
}
relay.func @batch_2(%x: tensor<2x4x9x9xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<2x4x9x9xf32> {
  %y = relay.nn.conv2d %x, %w {groups = 4 : i64, padding = array<i64: 1, 1>} : (tensor<2x4x9x9xf32>, tensor<4x1x3x3xf32>) -> tensor<2x4x9x9xf32>
  relay.return %y : tensor<2x4x9x9xf32>
}

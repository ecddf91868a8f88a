// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver4 --relay-to-linalg | FileCheck %s --check-prefix=L2MB
// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=haswell --relay-to-linalg | FileCheck %s --check-prefix=L2256K
// RUN: relay-mlir-opt %s "--relay-set-target-cpu=cpu=znver4 threads=2" --relay-to-linalg | FileCheck %s --check-prefix=THREADS
// The CPU kernels' bands are sized from the L2 cache of the CPU the module
// is compiled for (--relay-set-target-cpu): a Zen 4's 1 MB, a Haswell's
// 256 KB.

// Tests that an im2col convolution (3x3, stride 2: no Winograd) is built
// and multiplied in bands of output rows whose im2col matrix fits L2: 8
// rows with 1 MB, 2 with 256 KB.
// L2MB-LABEL: func.func @strided(
// L2MB: scf.for %{{.*}} = %c0 to %c56 step %c8
// L2MB: tensor<576x448xf32>
// L2256K-LABEL: func.func @strided(
// L2256K: scf.for %{{.*}} = %c0 to %c56 step %c2
// L2256K: tensor<576x112xf32>
relay.func @strided(%x: tensor<1x64x112x112xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %r = relay.nn.conv2d %x, %w {channels = 64 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32>
  relay.return %r : tensor<1x64x56x56xf32>
}

// Tests that a Winograd convolution's bands of tile rows keep their
// transformed input within L2: 7 tile rows (28 output rows) with 1 MB, 2
// (8 rows) with 256 KB.
// L2MB-LABEL: func.func @winograd(
// L2MB: scf.for %{{.*}} = %c0 to %c56 step %c28
// L2MB: tensor<36x64x7x14xf32>
// L2256K-LABEL: func.func @winograd(
// L2256K: scf.for %{{.*}} = %c0 to %c56 step %c8
// L2256K: tensor<36x64x2x14xf32>
relay.func @winograd(%x: tensor<1x64x56x56xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %r = relay.nn.conv2d %x, %w {channels = 64 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32>
  relay.return %r : tensor<1x64x56x56xf32>
}

// Tests that a depthwise convolution of an image over twice L2 goes in
// bands of output rows whose window of the image fits half of L2: 8 rows
// with 1 MB, 1 with 256 KB.
// L2MB-LABEL: func.func @depthwise(
// L2MB: scf.for %{{.*}} = %c0 to %c112 step %c8
// L2256K-LABEL: func.func @depthwise(
// L2256K: scf.for %{{.*}} = %c0 to %c112 step %c1 iter_args
relay.func @depthwise(%x: tensor<1x96x112x112xf32>, %w: tensor<96x1x3x3xf32>) -> tensor<1x96x112x112xf32> {
  %r = relay.nn.conv2d %x, %w {channels = 96 : i64, groups = 96 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x96x112x112xf32>, tensor<96x1x3x3xf32>) -> tensor<1x96x112x112xf32>
  relay.return %r : tensor<1x96x112x112xf32>
}

// Tests that a 1x1 convolution whose product exceeds an eighth of L2 goes
// in bands of output rows within it, of whole vectors: 4 rows (112
// positions, 7 bands) with 1 MB; on two threads a count of bands they
// divide comes first: 2 rows (56 positions, 14 bands).
// L2MB-LABEL: func.func @reducing_1x1(
// L2MB: scf.for %{{.*}} = %c0 to %c28 step %c4
// THREADS-LABEL: func.func @reducing_1x1(
// THREADS: scf.for %{{.*}} = %c0 to %c28 step %c2
relay.func @reducing_1x1(%x: tensor<1x512x28x28xf32>, %w: tensor<128x512x1x1xf32>) -> tensor<1x128x28x28xf32> {
  %r = relay.nn.conv2d %x, %w {channels = 128 : i64, kernel_size = array<i64: 1, 1>} : (tensor<1x512x28x28xf32>, tensor<128x512x1x1xf32>) -> tensor<1x128x28x28xf32>
  relay.return %r : tensor<1x128x28x28xf32>
}

// Tests that an im2col convolution whose one output row's matrix is over
// L2 (R(2+1)D's temporal convolutions: depth by 3136 flattened positions,
// 432 taps, 5.4 MB a row) goes in bands of columns too, one loop over the
// bands: 448 columns (16 rows x 7 bands) with 1 MB, whose matrix and
// product fit; 64 (16 x 49) with 256 KB.
// L2MB-LABEL: func.func @wide_rows(
// L2MB: scf.for %{{.*}} = %c0 to %c112 step %c1
// L2MB: tensor<432x448xf32>
// L2256K-LABEL: func.func @wide_rows(
// L2256K: scf.for %{{.*}} = %c0 to %c784 step %c1
// L2256K: tensor<432x64xf32>
relay.func @wide_rows(%x: tensor<1x144x18x3136xf32>, %w: tensor<64x144x3x1xf32>) -> tensor<1x64x16x3136xf32> {
  %r = relay.nn.conv2d %x, %w {channels = 64 : i64, kernel_size = array<i64: 3, 1>} : (tensor<1x144x18x3136xf32>, tensor<64x144x3x1xf32>) -> tensor<1x64x16x3136xf32>
  relay.return %r : tensor<1x64x16x3136xf32>
}

// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver4 --relay-to-linalg --split-input-file | FileCheck %s
// RUN: relay-mlir-opt %s --relay-set-target-cpu="cpu=znver4 threads=2" --relay-to-linalg --split-input-file | FileCheck %s --check-prefix=THREADS
// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=sapphirerapids --relay-to-linalg --split-input-file | FileCheck %s --check-prefix=BANDS
// 3-d convolutions of 3x3 rows and columns at unit strides that the CPU
// target keeps whole (--relay-decompose{target=cpu}) are computed by
// Winograd's minimal filtering on each depth slice: the images padded in
// depth, rows and columns once, each depth slice's band of tile rows
// transformed once into its slot of V, and each output depth the product
// of a window of KD slots (the depth taps' channels, tap-major) with U.

// Tests that a 3x3x3 convolution over 4 depths of 24x24 (F(4x4), one band)
// transforms 6 padded depth slices, 2 before the loop over the output
// depths and one in each of its iterations, and multiplies windows of 3
// slots (48 channels) by U of 48 channels; with two threads the 4 output
// depths are two runs of 2, each with 4 slots.
// CHECK-LABEL: func.func @f4(
// CHECK-DAG: %[[U:.*]] = arith.constant dense<{{.*}}> : tensor<36x1x48x16xf32>
// CHECK: tensor.empty() : tensor<1x16x6x26x26xf32>
// CHECK: tensor.insert_slice %arg0 into %{{.*}}[0, 0, 1, 1, 1] [1, 16, 4, 24, 24]
// CHECK: tensor.empty() : tensor<36x6x16x6x6xf32>
// CHECK: scf.for {{.*}} -> (tensor<36x6x16x6x6xf32>)
// CHECK: tensor.extract_slice %{{.*}}[0, %{{.*}}, %{{.*}}, 0] [16, 1, 26, 26] [1, 1, 1, 1] : tensor<16x6x26x26xf32> to tensor<16x26x26xf32>
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, %{{.*}}, 0, 0, 0] [36, 1, 16, 6, 6] [1, 1, 1, 1, 1] : tensor<36x16x6x6xf32> into tensor<36x6x16x6x6xf32>
// CHECK: scf.for {{.*}} -> (tensor<36x6x16x6x6xf32>, tensor<16x4x24x24xf32>)
// CHECK: tensor.extract_slice %{{.*}}[0, %{{.*}}, 0, 0, 0] [36, 3, 16, 6, 6] [1, 1, 1, 1, 1] : tensor<36x6x16x6x6xf32> to tensor<36x3x16x6x6xf32>
// CHECK: tensor.collapse_shape {{.*}} into tensor<36x48x36xf32>
// CHECK: linalg.generic {{.*}} "reduction"]} ins(%{{.*}}, %[[U]] : tensor<36x48x36xf32>, tensor<36x1x48x16xf32>)
// CHECK-NOT: relay.nn.conv3d
// THREADS-LABEL: func.func @f4(
// THREADS: tensor.empty() : tensor<36x4x16x6x6xf32>
// THREADS: scf.for {{.*}} -> (tensor<36x4x16x6x6xf32>, tensor<16x2x24x24xf32>)
// THREADS: } {relay.independent_iterations}{{[[:space:]]+}}return
relay.func @f4(%x: tensor<1x16x4x24x24xf32>) -> tensor<1x16x4x24x24xf32> {
  %w = relay.constant dense<0.5> : tensor<16x16x3x3x3xf32>
  %r = relay.nn.conv3d %x, %w {padding = array<i64: 1>} : (tensor<1x16x4x24x24xf32>, tensor<16x16x3x3x3xf32>) -> tensor<1x16x4x24x24xf32>
  relay.return %r : tensor<1x16x4x24x24xf32>
}

// -----

// Tests that weights that are a parameter are transformed at run time from
// their depth taps moved before the input channels (a 5x3x3 kernel: 5 taps
// of 16 channels, windows of 5 slots), and that 12x12 slices with too few
// 4x4 tiles take F(2x2) (a = 4).
// CHECK-LABEL: func.func @runtime_weights(
// CHECK: linalg.transpose ins(%arg1 : tensor<32x16x5x3x3xf32>) outs(%{{.*}} : tensor<32x5x16x3x3xf32>) permutation = [0, 2, 1, 3, 4]
// CHECK: tensor.collapse_shape {{.*}} into tensor<32x80x3x3xf32>
// CHECK: tensor.extract_slice %{{.*}} [16, 5, 16, 6, 6] [1, 1, 1, 1, 1] : tensor<16x{{[0-9]+}}x16x6x6xf32> to tensor<16x5x16x6x6xf32>
// CHECK: tensor.collapse_shape {{.*}} into tensor<16x80x36xf32>
relay.func @runtime_weights(%x: tensor<1x16x4x12x12xf32>, %w: tensor<32x16x5x3x3xf32>) -> tensor<1x32x4x12x12xf32> {
  %r = relay.nn.conv3d %x, %w {padding = array<i64: 2, 1, 1>} : (tensor<1x16x4x12x12xf32>, tensor<32x16x5x3x3xf32>) -> tensor<1x32x4x12x12xf32>
  relay.return %r : tensor<1x32x4x12x12xf32>
}

// -----

// Tests that a long clip (130 depths of 64 channels in 2-row bands of
// 56x56, 258 KB a transformed slice) is cut into runs of output depths
// whose slices stay within 32 MB a band: two runs of 65, 67 slots each.
// CHECK-LABEL: func.func @long_clip(
// CHECK: scf.for %{{.*}} = %{{.*}} to %c130 step %c65
// CHECK: tensor.empty() : tensor<36x67x64x2x14xf32>
relay.func @long_clip(%x: tensor<1x64x130x56x56xf32>) -> tensor<1x64x130x56x56xf32> {
  %w = relay.constant dense<0.5> : tensor<64x64x3x3x3xf32>
  %r = relay.nn.conv3d %x, %w {padding = array<i64: 1>} : (tensor<1x64x130x56x56xf32>, tensor<64x64x3x3x3xf32>) -> tensor<1x64x130x56x56xf32>
  relay.return %r : tensor<1x64x130x56x56xf32>
}

// -----

// Tests that bands of tile rows divide the rows: R3D-18's first stage (14
// tile rows of 56x56, 192 channels in a window) in the 2 MB L2 of a
// Sapphire Rapids core would be 3 bands of 5 rows (one of zeros): it takes
// 2 of 7 (28 output rows each).
// BANDS-LABEL: func.func @bands(
// BANDS: scf.for %{{.*}} = %{{.*}} to %c56 step %c28
// BANDS: tensor.empty() : tensor<36x6x64x7x14xf32>
relay.func @bands(%x: tensor<1x64x4x56x56xf32>) -> tensor<1x64x4x56x56xf32> {
  %w = relay.constant dense<0.5> : tensor<64x64x3x3x3xf32>
  %r = relay.nn.conv3d %x, %w {padding = array<i64: 1>} : (tensor<1x64x4x56x56xf32>, tensor<64x64x3x3x3xf32>) -> tensor<1x64x4x56x56xf32>
  relay.return %r : tensor<1x64x4x56x56xf32>
}

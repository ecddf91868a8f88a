// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver4 --relay-to-linalg | FileCheck %s
// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver3 --relay-to-linalg | FileCheck %s --check-prefix=AVX2
// Output channels that are neither whole register tiles nor whole vectors
// (R(2+1)D's 230, 460 and 921) are padded with zero filters, so that the
// product's register tiles keep their rows, and the result is sliced back.

// Tests that the im2col product of 58 channels computes 64 rows on
// AVX-512 (8-row tiles) and 60 on AVX2 (6-row tiles), the constant weights
// padded at compile time (rows 58 and 59 zeros).
// CHECK-LABEL: func.func @im2col(
// CHECK: arith.constant dense<{{.*}}> : tensor<64x144x1xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<64x64xf32>)
// CHECK: tensor.extract_slice {{.*}} : tensor<64x64xf32> to tensor<58x64xf32>
// AVX2-LABEL: func.func @im2col(
// AVX2: arith.constant dense<{{.*}}> : tensor<60x144x1xf32>
// AVX2: linalg.generic {{.*}} outs(%{{.*}} : tensor<60x64xf32>)
// AVX2: tensor.extract_slice {{.*}} : tensor<60x64xf32> to tensor<58x64xf32>
relay.func @im2col(%x: tensor<1x16x16x16xf32>) -> tensor<1x58x8x8xf32> {
  %w = relay.constant dense<0.5> : tensor<58x16x3x3xf32>
  %r = relay.nn.conv2d %x, %w {channels = 58 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x16x16x16xf32>, tensor<58x16x3x3xf32>) -> tensor<1x58x8x8xf32>
  relay.return %r : tensor<1x58x8x8xf32>
}

// Tests that weights known only at run time are padded by the compiled
// code.
// CHECK-LABEL: func.func @im2col_runtime_weights(
// CHECK: tensor.pad %{{.*}} low[0, 0] high[6, 0]
// CHECK: tensor<64x64xf32>
relay.func @im2col_runtime_weights(%x: tensor<1x16x16x16xf32>, %w: tensor<58x16x3x3xf32>) -> tensor<1x58x8x8xf32> {
  %r = relay.nn.conv2d %x, %w {channels = 58 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x16x16x16xf32>, tensor<58x16x3x3xf32>) -> tensor<1x58x8x8xf32>
  relay.return %r : tensor<1x58x8x8xf32>
}

// Tests that channels that are whole register tiles (40: five 8-row tiles)
// stay.
// CHECK-LABEL: func.func @whole_tiles(
// CHECK-NOT: tensor<48x
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<40x64xf32>)
// CHECK-NOT: tensor<48x
// CHECK: return
relay.func @whole_tiles(%x: tensor<1x16x16x16xf32>) -> tensor<1x40x8x8xf32> {
  %w = relay.constant dense<0.5> : tensor<40x16x3x3xf32>
  %r = relay.nn.conv2d %x, %w {channels = 40 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x16x16x16xf32>, tensor<40x16x3x3xf32>) -> tensor<1x40x8x8xf32>
  relay.return %r : tensor<1x40x8x8xf32>
}

// Tests that Winograd's convolution pads 60 channels to 64 (four whole
// vectors, 7% more), its transformed weights in two panels of 32, and
// slices the result.
// CHECK-LABEL: func.func @winograd(
// CHECK: arith.constant dense<{{.*}}> : tensor<36x2x16x32xf32>
// CHECK: tensor.extract_slice {{.*}} : tensor<1x64x24x24xf32> to tensor<1x60x24x24xf32>
relay.func @winograd(%x: tensor<1x16x24x24xf32>) -> tensor<1x60x24x24xf32> {
  %w = relay.constant dense<0.5> : tensor<60x16x3x3xf32>
  %r = relay.nn.conv2d %x, %w {channels = 60 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x16x24x24xf32>, tensor<60x16x3x3xf32>) -> tensor<1x60x24x24xf32>
  relay.return %r : tensor<1x60x24x24xf32>
}

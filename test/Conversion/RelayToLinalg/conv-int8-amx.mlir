// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=sapphirerapids --relay-to-linalg | FileCheck %s
// RUN: relay-mlir-opt %s --relay-to-llvm=cpu=sapphirerapids | FileCheck %s --check-prefix=LLVM
// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=cooperlake --relay-to-linalg | FileCheck %s --check-prefix=NOAMX
// Ungrouped int8 convolutions with constant weights on a CPU with AMX-INT8
// (Sapphire Rapids here): one product out[m, n] += A[m, k] * B[n / 32,
// k / 4, n % 32, k % 4] of signed bytes into int32 (B in panels of 32
// output channels, quads along k), marked relay.amx_tiles, M and N padded
// to multiples of 32 and K to 64 (--relay-lower-amx-products then computes
// it with tdpbssd), on the im2col matrix (pixels x tap * C + channel, from
// the image in NHWC) and the weights packed at compile time. The result,
// pixels x output channels, is NHWC as it is.

// Tests that a 3x3 NHWC convolution of 20 channels copies each tap's window
// of the zero-padded image into A's columns, output row by output row in a
// loop of independent iterations (run in parallel with threads) (k 180 in a zeroed 64x192 A: 49
// pixels), packs the weights into two panels of 48 rows of 32 quads (40
// output channels padded) and reshapes the product's 49x40 corner to NHWC; and that the
// LLVM lowering asks the runtime for the tiles and multiplies signed bytes
// (tdpbssd).
// CHECK-LABEL: func.func @conv(
// CHECK: tensor.insert_slice %arg0 into %{{.*}}[0, 1, 1, 0] [1, 7, 7, 20] [1, 1, 1, 1] : tensor<1x7x7x20xi8> into tensor<1x9x9x20xi8>
// CHECK: %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : i8) outs(%{{.*}} : tensor<64x192xi8>)
// CHECK: tensor.extract_slice %[[ZERO]][0, 0] [49, 180] [1, 1]
// CHECK: %[[TAPS:.*]] = scf.for %[[Y:.*]] = %c0 to %c7 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (tensor<1x7x7x9x20xi8>) {
// CHECK-COUNT-9: tensor.insert_slice %{{.*}} into %{{.*}}[0, %[[Y]], 0, {{[0-8]}}, 0] [1, 1, 7, 1, 20] [1, 1, 1, 1, 1] : tensor<1x1x7x20xi8> into tensor<1x7x7x9x20xi8>
// CHECK: } {relay.independent_iterations}
// CHECK: %[[A:.*]] = tensor.insert_slice %{{.*}} into %[[ZERO]][0, 0] [49, 180] [1, 1] : tensor<49x180xi8> into tensor<64x192xi8>
// CHECK: %[[B:.*]] = arith.constant dense<{{.*}}> : tensor<2x48x32x4xi8>
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<64x192xi8>, tensor<2x48x32x4xi8>) outs(%{{.*}} : tensor<64x64xi32>) attrs = {relay.amx_tiles}
// CHECK: arith.extsi
// CHECK: arith.muli
// CHECK: arith.addi
// CHECK: tensor.extract_slice %[[P]][0, 0] [49, 40] [1, 1]
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1, 2], [3]] output_shape [1, 7, 7, 40] : tensor<49x40xi32> into tensor<1x7x7x40xi32>
// LLVM-LABEL: llvm.func @conv(
// LLVM: llvm.call @relay_rt_request_amx()
// LLVM: llvm.call_intrinsic "llvm.x86.tdpbssd.internal"
// Tests that a CPU without AMX keeps the vpdpbusd kernel.
// NOAMX-LABEL: func.func @conv(
// NOAMX-NOT: relay.amx_tiles
// NOAMX: llvm.x86.avx512.vpdpbusd.512
relay.func @conv(%x: tensor<1x7x7x20xi8>) -> tensor<1x7x7x40xi32> {
  %w = relay.constant dense<1> : tensor<3x3x20x40xi8>
  %r = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO", out_dtype = i32} : (tensor<1x7x7x20xi8>, tensor<3x3x20x40xi8>) -> tensor<1x7x7x40xi32>
  relay.return %r : tensor<1x7x7x40xi32>
}

// Tests that a 1x1 convolution with unit strides of an image whose sizes
// need no padding (64 pixels, 64 channels) takes the image itself as A.
// CHECK-LABEL: func.func @whole(
// CHECK: %[[A:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1, 2], [3]] : tensor<1x8x8x64xi8> into tensor<64x64xi8>
// CHECK-NOT: tensor.insert_slice
// CHECK: linalg.generic {{.*}} ins(%[[A]], %{{.*}} : tensor<64x64xi8>, tensor<1x16x32x4xi8>) outs(%{{.*}} : tensor<64x32xi32>) attrs = {relay.amx_tiles}
relay.func @whole(%x: tensor<1x8x8x64xi8>) -> tensor<1x8x8x32xi32> {
  %w = relay.constant dense<2> : tensor<1x1x64x32xi8>
  %r = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO", out_dtype = i32} : (tensor<1x8x8x64xi8>, tensor<1x1x64x32xi8>) -> tensor<1x8x8x32xi32>
  relay.return %r : tensor<1x8x8x32xi32>
}

// Tests that an NCHW convolution of two images with strides transposes the
// padded image to NHWC, takes strided windows (both images' 9 pixels are
// rows of A) and transposes the result back to NCHW.
// CHECK-LABEL: func.func @nchw(
// CHECK: linalg.transpose ins(%{{.*}} : tensor<2x16x8x8xi8>) outs(%{{.*}} : tensor<2x8x8x16xi8>) permutation = [0, 2, 3, 1]
// CHECK: tensor.extract_slice %{{.*}}[0, %{{.*}}, 0, 0] [2, 1, 3, 16] [1, 1, 2, 1] : tensor<2x8x8x16xi8> to tensor<2x1x3x16xi8>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<32x192xi8>, tensor<1x48x32x4xi8>) outs(%{{.*}} : tensor<32x32xi32>) attrs = {relay.amx_tiles}
// CHECK: linalg.transpose ins(%{{.*}} : tensor<2x9x32xi32>) outs(%{{.*}} : tensor<2x32x9xi32>) permutation = [0, 2, 1]
relay.func @nchw(%x: tensor<2x16x6x6xi8>) -> tensor<2x32x3x3xi32> {
  %w = relay.constant dense<3> : tensor<32x16x3x3xi8>
  %r = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>, out_dtype = i32} : (tensor<2x16x6x6xi8>, tensor<32x16x3x3xi8>) -> tensor<2x32x3x3xi32>
  relay.return %r : tensor<2x32x3x3xi32>
}

// Tests that an image of fewer than 16 channels (RGB) keeps the vpdpbusd
// kernel, which reads the image where it is.
// CHECK-LABEL: func.func @rgb(
// CHECK-NOT: relay.amx_tiles
// CHECK: llvm.x86.avx512.vpdpbusd.512
relay.func @rgb(%x: tensor<1x3x8x8xi8>) -> tensor<1x16x8x8xi32> {
  %w = relay.constant dense<1> : tensor<16x3x3x3xi8>
  %r = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, out_dtype = i32} : (tensor<1x3x8x8xi8>, tensor<16x3x3x3xi8>) -> tensor<1x16x8x8xi32>
  relay.return %r : tensor<1x16x8x8xi32>
}

// Tests that an unsigned image keeps the other kernels (the tiles here
// multiply signed bytes).
// CHECK-LABEL: func.func @unsigned(
// CHECK-NOT: relay.amx_tiles
// CHECK: return
relay.func @unsigned(%x: tensor<1x16x4x4xui8>) -> tensor<1x32x4x4xi32> {
  %w = relay.constant dense<1> : tensor<32x16x1x1xui8>
  %r = relay.nn.conv2d %x, %w {out_dtype = i32} : (tensor<1x16x4x4xui8>, tensor<32x16x1x1xui8>) -> tensor<1x32x4x4xi32>
  relay.return %r : tensor<1x32x4x4xi32>
}

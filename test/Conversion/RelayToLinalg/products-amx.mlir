// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=sapphirerapids --relay-to-linalg | FileCheck %s
// RUN: relay-mlir-opt %s --relay-to-llvm=cpu=sapphirerapids | FileCheck %s --check-prefix=LLVM
// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=cooperlake --relay-to-linalg | FileCheck %s --check-prefix=NOAMX
// Products of bfloat16 operands into float32 (--relay-to-mixed-precision's)
// on a CPU with AMX-BF16 (Sapphire Rapids here): one product
// out[m, n] += A[m, k] * B[n / 32, k / 2, n % 32, k % 2] (B in panels of 32
// columns, pairs along k) marked relay.amx_tiles, M, N
// and K padded to multiples of 32 (--relay-lower-amx-products then computes
// it on AMX tiles), for convolutions on their im2col matrix (pixels x
// tap * C + channel, from the image in NHWC) and matrix products on their
// left operand.

// Tests that a 3x3 convolution of constant weights copies each tap's window
// of the NHWC image into A's columns (output row by output row, the rows
// independent) (k 180 in a zeroed 64x192 A: 49 pixels,
// 20 channels), packs the weights at compile time into two panels of 96
// rows of 32 pairs (40 output channels padded), and transposes the
// product's 49x40 corner back to NCHW; and that the LLVM lowering asks the runtime for the tiles
// and multiplies them with tdpbf16ps.
// CHECK-LABEL: func.func @conv(
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x20x9x9xbf16>) outs(%{{.*}} : tensor<1x9x9x20xbf16>) permutation = [0, 2, 3, 1]
// CHECK: %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : bf16) outs(%{{.*}} : tensor<64x192xbf16>)
// CHECK: tensor.extract_slice %[[ZERO]][0, 0] [49, 180] [1, 1]
// CHECK: tensor.expand_shape {{.*}} into tensor<1x7x7x9x20xbf16>
// CHECK: scf.for %[[Y:.*]] = %c0 to %c7 step %c1
// CHECK-COUNT-9: tensor.insert_slice %{{.*}} into %{{.*}}[0, %[[Y]], 0, {{[0-8]}}, 0] [1, 1, 7, 1, 20] [1, 1, 1, 1, 1] : tensor<1x1x7x20xbf16> into tensor<1x7x7x9x20xbf16>
// CHECK: } {relay.independent_iterations}
// CHECK: %[[A:.*]] = tensor.insert_slice %{{.*}} into %[[ZERO]][0, 0] [49, 180] [1, 1] : tensor<49x180xbf16> into tensor<64x192xbf16>
// CHECK: %[[B:.*]] = arith.constant dense<{{.*}}> : tensor<2x96x32x2xbf16>
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<64x192xbf16>, tensor<2x96x32x2xbf16>) outs(%{{.*}} : tensor<64x64xf32>) attrs = {relay.amx_tiles}
// CHECK: tensor.extract_slice %[[P]][0, 0] [49, 40] [1, 1]
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x49x40xf32>) outs(%{{.*}} : tensor<1x40x49xf32>) permutation = [0, 2, 1]
// LLVM-LABEL: llvm.func @conv(
// LLVM: llvm.call @relay_rt_request_amx()
// LLVM: llvm.call_intrinsic "llvm.x86.tdpbf16ps.internal"
// Tests that a CPU without AMX keeps the vdpbf16ps kernel.
// NOAMX-LABEL: func.func @conv(
// NOAMX-NOT: relay.amx_tiles
// NOAMX: llvm.x86.avx512bf16.dpbf16ps.512
// NOAMX-LABEL: func.func @runtime(
relay.func @conv(%x: tensor<1x20x7x7xbf16>) -> tensor<1x40x7x7xf32> {
  %w = relay.constant dense<1.0> : tensor<40x20x3x3xbf16>
  %r = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, out_dtype = f32} : (tensor<1x20x7x7xbf16>, tensor<40x20x3x3xbf16>) -> tensor<1x40x7x7xf32>
  relay.return %r : tensor<1x40x7x7xf32>
}

// Tests that a strided convolution of two images with weights known only at
// run time takes strided windows (every image's 16 pixels are rows of A, no
// padding) and packs the weights by one copy, k = tap * 32 + channel.
// CHECK-LABEL: func.func @runtime(
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1, 2], [3, 4]] output_shape [2, 4, 4, 9, 32] : tensor<32x288xbf16> into tensor<2x4x4x9x32xbf16>
// CHECK: tensor.extract_slice %{{.*}}[0, %{{.*}}, 0, 0] [2, 1, 4, 32] [1, 1, 2, 1]
// CHECK: linalg.generic {indexing_maps = [#[[PACK:.*]], #{{.*}}], {{.*}} ins(%{{.*}} : tensor<32x32x3x3xbf16>) outs(%{{.*}} : tensor<1x144x32x2xbf16>)
// CHECK: relay.amx_tiles
// CHECK-LABEL: func.func @dense(
relay.func @runtime(%x: tensor<2x32x8x8xbf16>, %w: tensor<32x32x3x3xbf16>) -> tensor<2x32x4x4xf32> {
  %r = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, strides = array<i64: 2, 2>, out_dtype = f32} : (tensor<2x32x8x8xbf16>, tensor<32x32x3x3xbf16>) -> tensor<2x32x4x4xf32>
  relay.return %r : tensor<2x32x4x4xf32>
}

// Tests that a dense layer of 20 rows is its rows padded to 32 times the
// weights packed at compile time, its 20x48 corner the result.
// CHECK: %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<2x32x32x2xbf16>
// CHECK: %[[X:.*]] = tensor.pad %{{.*}} low[0, 0] high[12, 0]
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[W]] : tensor<32x64xbf16>, tensor<2x32x32x2xbf16>) outs(%{{.*}} : tensor<32x64xf32>) attrs = {relay.amx_tiles}
// CHECK: tensor.extract_slice %[[P]][0, 0] [20, 48] [1, 1]
// CHECK-LABEL: func.func @rgb(
relay.func @dense(%x: tensor<20x64xbf16>) -> tensor<20x48xf32> {
  %w = relay.constant dense<1.0> : tensor<48x64xbf16>
  %r = relay.nn.dense %x, %w {out_dtype = f32} : (tensor<20x64xbf16>, tensor<48x64xbf16>) -> tensor<20x48xf32>
  relay.return %r : tensor<20x48xf32>
}

// Tests that an RGB image's convolution (3 channels: windows copied a few
// bytes at a time) keeps the vdpbf16ps kernel.
// CHECK-NOT: relay.amx_tiles
// CHECK: llvm.x86.avx512bf16.dpbf16ps.512
// CHECK-NOT: relay.amx_tiles
relay.func @rgb(%x: tensor<1x3x16x16xbf16>) -> tensor<1x16x8x8xf32> {
  %w = relay.constant dense<1.0> : tensor<16x3x3x3xbf16>
  %r = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, strides = array<i64: 2, 2>, out_dtype = f32} : (tensor<1x3x16x16xbf16>, tensor<16x3x3x3xbf16>) -> tensor<1x16x8x8xf32>
  relay.return %r : tensor<1x16x8x8xf32>
}

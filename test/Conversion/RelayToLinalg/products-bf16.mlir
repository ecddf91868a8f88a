// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver4 --relay-to-linalg | FileCheck %s
// RUN: relay-mlir-opt %s --relay-to-llvm=cpu=znver4 | FileCheck %s --check-prefix=LLVM
// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=haswell --relay-to-linalg | FileCheck %s --check-prefix=AVX2
// Products of bfloat16 operands into float32 (--relay-to-mixed-precision's)
// on AVX-512 BF16 where the CPU the code is for has it (a Zen 4 here): the
// image (or a product's rows) packed into words of two bf16 channels
// (NHWC), the weights in panels of the register tile's output channels,
// [O/pw, taps, C/2, pw*2] bf16 (at compile time when constant), register
// tiles summing vdpbf16ps from accumulators that start at zero.

// Tests that a strided 3x3 convolution of constant weights is a vdpbf16ps
// kernel: 8 channels are 4 words; 32 output channels one panel of 2 vectors
// (register tiles of 12 positions: 24 accumulators).
// CHECK-LABEL: func.func @strided(
// CHECK-DAG: arith.constant dense<1.000000e+00> : tensor<1x9x4x64xbf16>
// CHECK-DAG: arith.constant dense<0.000000e+00> : tensor<32xf32>
// CHECK: arith.bitcast %{{.*}} : bf16 to i16
// CHECK: arith.shli
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x4x12x12xi32>) outs(%{{.*}} : tensor<1x12x12x4xi32>)
// CHECK: %{{.*}}:24 = scf.for {{.*}} -> (vector<16xf32>,
// CHECK: %{{.*}}:24 = scf.for {{.*}} -> (vector<16xf32>,
// CHECK: vector.bitcast %{{.*}} : vector<16xi32> to vector<32xbf16>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"({{.*}}) : (vector<16xf32>, vector<32xbf16>, vector<32xbf16>) -> vector<16xf32>
// CHECK: } {relay.independent_iterations}
// LLVM-LABEL: llvm.func @strided(
// LLVM: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// Tests that without AVX-512 BF16 the operands are widened to f32 (exact)
// and the f32 kernels compute the products.
// AVX2-LABEL: func.func @strided(
// AVX2-NOT: dpbf16ps
// AVX2: arith.extf %{{.*}} : bf16 to f32
// AVX2-NOT: dpbf16ps
// AVX2-LABEL: func.func @winograd(
relay.func @strided(%x: tensor<1x8x10x10xbf16>) -> tensor<1x32x5x5xf32> {
  %w = relay.constant dense<1.0> : tensor<32x8x3x3xbf16>
  %r = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, strides = array<i64: 2, 2>, out_dtype = f32} : (tensor<1x8x10x10xbf16>, tensor<32x8x3x3xbf16>) -> tensor<1x32x5x5xf32>
  relay.return %r : tensor<1x32x5x5xf32>
}

// Tests that where Winograd's minimal filtering applies and pays (a 3x3
// stride-1 convolution of a 28x28 image) it computes on the widened values,
// the weights widened at compile time (and transformed there), rather than
// vdpbf16ps: it saves more multiplies than the doubled rate gains.
// CHECK-LABEL: func.func @winograd(
// CHECK-NOT: dpbf16ps
// CHECK: tensor<36x64x
// CHECK-NOT: dpbf16ps
relay.func @winograd(%x: tensor<1x64x28x28xbf16>) -> tensor<1x64x28x28xf32> {
  %w = relay.constant dense<1.0> : tensor<64x64x3x3xbf16>
  %r = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, out_dtype = f32} : (tensor<1x64x28x28xbf16>, tensor<64x64x3x3xbf16>) -> tensor<1x64x28x28xf32>
  relay.return %r : tensor<1x64x28x28xf32>
}

// Tests that a dilated 3x3 convolution (dilation 2, padded by 2, a 28x28
// map) takes the same widened values into Winograd on its mosaic of
// phases (2x2 phases of 14x14 with a row and a column of zeros between:
// 30x30) rather than vdpbf16ps.
// CHECK-LABEL: func.func @dilated(
// CHECK-NOT: dpbf16ps
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK-NOT: dpbf16ps
// CHECK: tensor.collapse_shape %{{.*}} : tensor<1x64x2x15x2x15xf32> into tensor<1x64x30x30xf32>
// CHECK-NOT: dpbf16ps
// CHECK: tensor<36x64x
// CHECK-NOT: dpbf16ps
// CHECK-LABEL: func.func @rgb(
relay.func @dilated(%x: tensor<1x64x28x28xbf16>) -> tensor<1x64x28x28xf32> {
  %w = relay.constant dense<1.0> : tensor<64x64x3x3xbf16>
  %r = relay.nn.conv2d %x, %w {padding = array<i64: 2, 2>, dilation = array<i64: 2, 2>, out_dtype = f32} : (tensor<1x64x28x28xbf16>, tensor<64x64x3x3xbf16>) -> tensor<1x64x28x28xf32>
  relay.return %r : tensor<1x64x28x28xf32>
}

// Tests that an RGB image's 7x7 convolution (3 channels: 2 words) runs
// along each kernel row's 14 words, the image seen as [n, h, w * 2], and
// that weights known only at run time are packed by a copy, panel by panel.
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<16x4x7x7xbf16>) outs(%{{.*}} : tensor<1x7x14x32xbf16>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : tensor<1x38x38x2xi32> into tensor<1x38x76xi32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c7{{.*}} step
// CHECK: scf.for %{{.*}} = %{{.*}} to %c14{{.*}} step
// CHECK: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
relay.func @rgb(%x: tensor<1x3x32x32xbf16>, %w: tensor<16x3x7x7xbf16>) -> tensor<1x16x16x16xf32> {
  %r = relay.nn.conv2d %x, %w {padding = array<i64: 3, 3>, strides = array<i64: 2, 2>, out_dtype = f32} : (tensor<1x3x32x32xbf16>, tensor<16x3x7x7xbf16>) -> tensor<1x16x16x16xf32>
  relay.return %r : tensor<1x16x16x16xf32>
}

// Tests that a dense layer of constant weights is the same kernel on rows
// of 64 bf16 (32 words): 40 outputs padded to 48 (3 vectors), the weights
// packed at compile time, the result sliced back.
// CHECK-LABEL: func.func @dense(
// CHECK: arith.constant dense<"0x003F{{.*}}"> : tensor<1x1x32x96xbf16>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x64xbf16>, tensor<8x64xbf16>) outs(%{{.*}} : tensor<8x32xi32>)
// CHECK: tensor.expand_shape %{{.*}} : tensor<8x32xi32> into tensor<1x8x1x32xi32>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [8, 40] [1, 1] : tensor<8x48xf32> to tensor<8x40xf32>
relay.func @dense(%x: tensor<8x64xbf16>) -> tensor<8x40xf32> {
  %w = relay.constant dense<0.5> : tensor<40x64xbf16>
  %r = relay.nn.dense %x, %w {out_dtype = f32} : (tensor<8x64xbf16>, tensor<40x64xbf16>) -> tensor<8x40xf32>
  relay.return %r : tensor<8x40xf32>
}

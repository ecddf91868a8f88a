// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver4 --relay-to-linalg | FileCheck %s
// RUN: relay-mlir-opt %s --relay-to-llvm=cpu=znver4 | FileCheck %s --check-prefix=LLVM
// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=haswell --relay-to-linalg | FileCheck %s --check-prefix=AVX2
// RUN: relay-mlir-opt %s --relay-to-llvm=cpu=haswell | FileCheck %s --check-prefix=AVX2-LLVM
// Ungrouped int8 convolutions with constant weights run on AVX-512 VNNI
// where the CPU the code is for has it (--relay-set-target-cpu; here a
// Zen 4): the padded image repacked as words of four
// channels shifted by 128, transposed to NHWC, the weights packed at compile time as
// [O/pw, taps, C/4, pw*4] bytes (panels of pw output channels, the
// register tile's) with -128 * sum(w[o]) as each channel's start,
// bands of register tiles (positions x vectors of 16 channels) summing
// vpdpbusd over taps and channel groups, and the [P, O] result read back
// into NCHW (by rows, or by whole planes where rows are narrower than a
// vector).

// Tests that for a CPU with AVX2 and without AVX-512 VNNI (Haswell) the
// same kernel runs on vpmaddwd: the image as words of two sign-extended
// channels (no shift), the weights widened to 16 bits as [O/16, taps,
// C/2, 16*2] and starting from zero, register tiles of 6 positions x one
// vector of 16 channels, and each vector's halves one vpmaddwd each.
// AVX2-LABEL: func.func @conv3x3(
// AVX2-DAG: arith.constant dense<1> : tensor<2x9x4x32xi16>
// AVX2-DAG: arith.constant dense<0> : tensor<32xi32>
// AVX2: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x12x12xi8>, tensor<1x8x12x12xi8>) outs(%{{.*}} : tensor<1x4x12x12xi32>)
// AVX2: arith.extsi %{{.*}} : i8 to i16
// AVX2-NOT: arith.xori
// AVX2: %{{.*}}:6 = scf.for {{.*}} -> (vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>)
// AVX2: vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [16], strides = [1]} : vector<32xi16> to vector<16xi16>
// AVX2: llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"(%{{.*}}, %{{.*}}) : (vector<16xi16>, vector<16xi16>) -> vector<8xi32>
// AVX2: arith.addi %{{.*}}, %{{.*}} : vector<8xi32>
// AVX2: vector.extract_strided_slice %{{.*}} {offsets = [16], sizes = [16], strides = [1]} : vector<32xi16> to vector<16xi16>
// AVX2: llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"
// AVX2-LABEL: func.func @conv3x3_nhwc(
// AVX2: linalg.generic {{.*}} ins(%arg0 : tensor<1x6x6x4xi8>) outs(%{{.*}} : tensor<1x6x6x4xi16>)
// AVX2: arith.extsi %{{.*}} : i8 to i16
// AVX2: tensor.insert_slice %{{.*}}[0, 1, 1, 0] [1, 6, 6, 4] [1, 1, 1, 1] : tensor<1x6x6x4xi16> into tensor<1x8x8x4xi16>
// AVX2: vector.transfer_read %{{.*}} : tensor<1x8x32xi16>, vector<2xi16>
// AVX2-NEXT: vector.bitcast %{{.*}} : vector<2xi16> to vector<1xi32>
// AVX2: llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"
// AVX2-LABEL: func.func @runtime_weights(
// AVX2-NOT: pmadd
// AVX2: arith.muli
// AVX2-LLVM-LABEL: llvm.func @conv3x3(
// AVX2-LLVM: llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"({{.*}}) : (vector<16xi16>, vector<16xi16>) -> vector<8xi32>

// Tests that a 3x3 convolution of 8 channels (two groups of four) into 32
// (register tiles of 12 positions x 2 vectors: 24 accumulators) with a
// splat weight 1 starts each channel at -128 * 72, and that its 9 tiles
// (100 positions) go as 9 bands of one tile (108 rows), not 5 of two (120).
// CHECK-LABEL: func.func @conv3x3(
// CHECK-DAG: arith.constant dense<-9216> : tensor<32xi32>
// CHECK-DAG: arith.constant dense<1> : tensor<1x9x2x128xi8>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x8x12x12xi8>, tensor<1x8x12x12xi8>, tensor<1x8x12x12xi8>, tensor<1x8x12x12xi8>) outs(%{{.*}} : tensor<1x2x12x12xi32>)
// CHECK: arith.xori
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x2x12x12xi32>) outs(%{{.*}} : tensor<1x12x12x2xi32>)
// CHECK: scf.for {{.*}} to %c9 step {{.*}} -> (tensor<108x32xi32>)
// CHECK: %{{.*}}:24 = scf.for {{.*}} -> (vector<16xi32>,
// CHECK: %{{.*}}:24 = scf.for {{.*}} -> (vector<16xi32>,
// CHECK: tensor.extract %{{.*}} : tensor<1x12x12x2xi32>
// CHECK: vector.broadcast %{{.*}} : i32 to vector<16xi32>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: } {relay.independent_iterations}
// Rows of 10 are narrower than a vector: the planes are transposed whole.
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x100x32xi32>) outs(%{{.*}} : tensor<1x32x100xi32>)
// CHECK: tensor.expand_shape {{.*}} : tensor<1x32x100xi32> into tensor<1x32x10x10xi32>
// LLVM-LABEL: llvm.func @conv3x3(
// LLVM: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"({{.*}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
relay.func @conv3x3(%x: tensor<1x8x10x10xi8>) -> tensor<1x32x10x10xi32> {
  %w = relay.constant dense<1> : tensor<32x8x3x3xi8>
  %r = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, out_dtype = i32} : (tensor<1x8x10x10xi8>, tensor<32x8x3x3xi8>) -> tensor<1x32x10x10xi32>
  relay.return %r : tensor<1x32x10x10xi32>
}

// Tests that an NHWC/HWIO convolution (the layout the CPU's rules give int8
// convolutions) shifts the image by 128 (an xor, before the padding, so
// that it fuses into the op making the image), pads it with the shifted
// zero (-128), reads four neighbouring channels as one word where they are
// (here along the kernel row: 4 channels), starts each output channel at
// -128 times the sum of its own weights (w[kh, kw, c, o] = o - 8: -4608 *
// (o - 8)), and gives the kernel's [P, O] result as it is (NHWC). On
// AVX2 the bytes are sign-extended to 16 bits where they are (the padding
// zero) and read two channels at a time as a word.
// CHECK-LABEL: func.func @conv3x3_nhwc(
// CHECK-DAG: arith.constant dense<[36864, 32256, 27648, 23040, 18432, 13824, 9216, 4608, 0, -4608, -9216, -13824, -18432, -23040, -27648, -32256]> : tensor<16xi32>
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<1x6x6x4xi8>) outs(%{{.*}} : tensor<1x6x6x4xi8>)
// CHECK: arith.xori %{{.*}}, %{{.*}} : i8
// CHECK: linalg.fill ins(%{{.*}} : i8) outs(%{{.*}} : tensor<1x1x8x4xi8>)
// CHECK: tensor.insert_slice %{{.*}}[0, 1, 1, 0] [1, 6, 6, 4] [1, 1, 1, 1] : tensor<1x6x6x4xi8> into tensor<1x8x8x4xi8>
// CHECK-NOT: linalg.generic
// CHECK: vector.transfer_read %{{.*}} : tensor<1x8x32xi8>, vector<4xi8>
// CHECK-NEXT: vector.bitcast %{{.*}} : vector<4xi8> to vector<1xi32>
// CHECK-NEXT: vector.broadcast %{{.*}} : vector<1xi32> to vector<16xi32>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-NOT: linalg.generic
// CHECK: tensor.expand_shape {{.*}} : tensor<36x16xi32> into tensor<1x6x6x16xi32>
// CHECK-NEXT: return
relay.func @conv3x3_nhwc(%x: tensor<1x6x6x4xi8>) -> tensor<1x6x6x16xi32> {
  %w = relay.constant dense<[[[[-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7]], [[-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7]], [[-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7]]], [[[-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7]], [[-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7]], [[-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7]]], [[[-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7]], [[-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7]], [[-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7]]]]> : tensor<3x3x4x16xi8>
  %r = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO", out_dtype = i32} : (tensor<1x6x6x4xi8>, tensor<3x3x4x16xi8>) -> tensor<1x6x6x16xi32>
  relay.return %r : tensor<1x6x6x16xi32>
}

// Tests that weights that are not constants take the integer product.
// CHECK-LABEL: func.func @runtime_weights(
// CHECK-NOT: vpdpbusd
// CHECK: arith.muli
// CHECK: return
relay.func @runtime_weights(%x: tensor<1x8x10x10xi8>, %w: tensor<16x8x3x3xi8>) -> tensor<1x16x10x10xi32> {
  %r = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, out_dtype = i32} : (tensor<1x8x10x10xi8>, tensor<16x8x3x3xi8>) -> tensor<1x16x10x10xi32>
  relay.return %r : tensor<1x16x10x10xi32>
}

// Tests that grouped int8 convolutions are not taken.
// CHECK-LABEL: func.func @grouped(
// CHECK-NOT: vpdpbusd
// CHECK: return
relay.func @grouped(%x: tensor<1x8x10x10xi8>) -> tensor<1x8x10x10xi32> {
  %w = relay.constant dense<1> : tensor<8x4x3x3xi8>
  %r = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, groups = 2 : i64, out_dtype = i32} : (tensor<1x8x10x10xi8>, tensor<8x4x3x3xi8>) -> tensor<1x8x10x10xi32>
  relay.return %r : tensor<1x8x10x10xi32>
}

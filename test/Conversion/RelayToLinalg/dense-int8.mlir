// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver4 --relay-to-linalg | FileCheck %s
// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=haswell --relay-to-linalg | FileCheck %s --check-prefix=AVX2
// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=x86-64 --relay-to-linalg | FileCheck %s --check-prefix=SSE
// RUN: relay-mlir-opt %s --relay-to-llvm=cpu=znver4 | FileCheck %s --check-prefix=LLVM
// An int8 dense layer with constant weights (signed bytes into int32) is a
// 1x1 convolution of an NHWC image [1, 1, m, k] by HWIO weights
// [1, 1, k, n] (w transposed at compile time) on the int8 convolutions'
// dot-product kernels: VNNI's vpdpbusd, AVX2's vpmaddwd; a CPU with
// neither takes the generic integer product.

// Tests that on a Zen 4 (AVX-512 VNNI) the weights are transposed to HWIO
// and packed for vpdpbusd with -128 * sum(w[o]) as each output's start,
// the rows shifted by 128 (xor), and the [m, n] result collapsed from the
// convolution's NHWC result.
// CHECK-LABEL: func.func @dense(
// CHECK: tensor.expand_shape %arg0 {{\[\[}}0, 1, 2], [3]] output_shape [1, 1, 3, 8] : tensor<3x8xi8> into tensor<1x1x3x8xi8>
// CHECK-DAG: arith.constant dense<"0xF901FA02{{[0-9A-F]*}}"> : tensor<1x1x8x16xi8>
// CHECK-DAG: arith.constant dense<[3584, -2688, 2560, -1792, 1536, -896, 512, 0, -512, 896, -1536, 1792, -2560, 2688, -3584, 3584]> : tensor<16xi32>
// CHECK: arith.xori
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : tensor<1x1x3x16xi32> into tensor<3x16xi32>

// Tests that on a Haswell (AVX2, no VNNI) the same product runs on
// vpmaddwd.
// AVX2-LABEL: func.func @dense(
// AVX2: llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"
// AVX2: tensor.collapse_shape

// Tests that on a CPU with neither the bytes are widened and multiplied
// one by one.
// SSE-LABEL: func.func @dense(
// SSE-NOT: llvm.call_intrinsic
// SSE: arith.extsi %{{.*}} : i8 to i32
// SSE: arith.muli %{{.*}}, %{{.*}} : i32
// SSE-NOT: llvm.call_intrinsic

// Tests that the VNNI product reaches LLVM.
// LLVM-LABEL: llvm.func @dense(
// LLVM: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
relay.func @dense(%x: tensor<3x8xi8>) -> tensor<3x16xi32> {
  %w = relay.constant dense<[[-7, -6, -5, -4, -3, -2, -1, 0], [1, 2, 3, 4, 5, 6, 7, -7], [-6, -5, -4, -3, -2, -1, 0, 1], [2, 3, 4, 5, 6, 7, -7, -6], [-5, -4, -3, -2, -1, 0, 1, 2], [3, 4, 5, 6, 7, -7, -6, -5], [-4, -3, -2, -1, 0, 1, 2, 3], [4, 5, 6, 7, -7, -6, -5, -4], [-3, -2, -1, 0, 1, 2, 3, 4], [5, 6, 7, -7, -6, -5, -4, -3], [-2, -1, 0, 1, 2, 3, 4, 5], [6, 7, -7, -6, -5, -4, -3, -2], [-1, 0, 1, 2, 3, 4, 5, 6], [7, -7, -6, -5, -4, -3, -2, -1], [0, 1, 2, 3, 4, 5, 6, 7], [-7, -6, -5, -4, -3, -2, -1, 0]]> : tensor<16x8xi8>
  %r = relay.nn.dense %x, %w {out_dtype = i32} : (tensor<3x8xi8>, tensor<16x8xi8>) -> tensor<3x16xi32>
  relay.return %r : tensor<3x16xi32>
}

// Tests that rows of a 3-d input (a sequence of tokens) are the image's
// positions: [2, 5, 8] as [10, 8], the result expanded back.
// CHECK-LABEL: func.func @tokens(
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<2x5x8xi8> into tensor<10x8xi8>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [2, 5, 16] : tensor<10x16xi32> into tensor<2x5x16xi32>
relay.func @tokens(%x: tensor<2x5x8xi8>) -> tensor<2x5x16xi32> {
  %w = relay.constant dense<[[-7, -6, -5, -4, -3, -2, -1, 0], [1, 2, 3, 4, 5, 6, 7, -7], [-6, -5, -4, -3, -2, -1, 0, 1], [2, 3, 4, 5, 6, 7, -7, -6], [-5, -4, -3, -2, -1, 0, 1, 2], [3, 4, 5, 6, 7, -7, -6, -5], [-4, -3, -2, -1, 0, 1, 2, 3], [4, 5, 6, 7, -7, -6, -5, -4], [-3, -2, -1, 0, 1, 2, 3, 4], [5, 6, 7, -7, -6, -5, -4, -3], [-2, -1, 0, 1, 2, 3, 4, 5], [6, 7, -7, -6, -5, -4, -3, -2], [-1, 0, 1, 2, 3, 4, 5, 6], [7, -7, -6, -5, -4, -3, -2, -1], [0, 1, 2, 3, 4, 5, 6, 7], [-7, -6, -5, -4, -3, -2, -1, 0]]> : tensor<16x8xi8>
  %r = relay.nn.dense %x, %w {out_dtype = i32} : (tensor<2x5x8xi8>, tensor<16x8xi8>) -> tensor<2x5x16xi32>
  relay.return %r : tensor<2x5x16xi32>
}

// Tests that weights made at run time and unsigned inputs take the
// generic integer product.
// CHECK-LABEL: func.func @runtime_weights(
// CHECK-NOT: llvm.call_intrinsic
// CHECK: arith.muli %{{.*}}, %{{.*}} : i32
// CHECK: return
relay.func @runtime_weights(%x: tensor<3x8xi8>, %w: tensor<16x8xi8>) -> tensor<3x16xi32> {
  %r = relay.nn.dense %x, %w {out_dtype = i32} : (tensor<3x8xi8>, tensor<16x8xi8>) -> tensor<3x16xi32>
  relay.return %r : tensor<3x16xi32>
}
// CHECK-LABEL: func.func @unsigned_input(
// CHECK-NOT: llvm.call_intrinsic
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: return
relay.func @unsigned_input(%x: tensor<3x8xui8>) -> tensor<3x16xi32> {
  %w = relay.constant dense<3> : tensor<16x8xui8>
  %r = relay.nn.dense %x, %w {out_dtype = i32} : (tensor<3x8xui8>, tensor<16x8xui8>) -> tensor<3x16xi32>
  relay.return %r : tensor<3x16xi32>
}

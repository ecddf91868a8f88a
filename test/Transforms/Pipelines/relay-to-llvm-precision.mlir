// RUN: relay-mlir-opt %s --relay-to-llvm="cpu=znver4 precision=bf16" | FileCheck %s
// RUN: relay-mlir-opt %s --relay-to-llvm="cpu=haswell precision=bf16" | FileCheck %s --check-prefix=AVX2
// RUN: relay-mlir-opt %s --relay-to-llvm=cpu=znver4 | FileCheck %s --check-prefix=F32
// RUN: not relay-mlir-opt %s --relay-to-llvm=precision=fp8 2>&1 | FileCheck %s --check-prefix=BAD

// Tests that --relay-to-llvm{precision=bf16} runs --relay-to-mixed-precision
// after the optimisations, so that a float32 dense layer sums bf16
// products on vdpbf16ps (for a CPU with AVX-512 BF16) with its weights
// packed as bf16 at compile time; f32 stays the default.
// The input is rounded by vcvtneps2bf16 (an fptrunc).
// CHECK: llvm.mlir.global {{.*}} : !llvm.array<{{.*}} x bf16>
// CHECK: llvm.fptrunc {{.*}} to vector<{{[0-9]+}}xbf16>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// Tests that for a CPU without AVX-512 BF16 (Haswell) the rounding is
// integer arithmetic (no call to compiler-rt's __truncsfbf2) and the
// products are f32 ones.
// AVX2-NOT: fptrunc
// AVX2-NOT: dpbf16ps
// AVX2-NOT: __truncsfbf2
// F32-NOT: dpbf16ps
// F32-NOT: x bf16>

// Tests that a precision other than fp32 and bf16 is an error.
// BAD: error: --relay-to-mixed-precision: unknown mixed-precision-type 'fp8' (expected bfloat16 or float16)
relay.func @main(%x: tensor<8x64xf32>) -> tensor<8x32xf32> {
  %w = relay.constant dense<0.5> : tensor<32x64xf32>
  %d = relay.nn.dense %x, %w : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
  %r = relay.nn.relu %d : (tensor<8x32xf32>) -> tensor<8x32xf32>
  relay.return %r : tensor<8x32xf32>
}

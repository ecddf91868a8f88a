// REQUIRES: cuda-toolkit
// RUN: relay-mlir-opt %s --split-input-file --relay-to-nvvm | FileCheck %s
// RUN: relay-mlir-opt %s --split-input-file \
// RUN:   --relay-to-nvvm='chip=sm_80 features=+ptx75 block-size=128' \
// RUN:   | FileCheck %s --check-prefix=SM80

// Tests that a product with its bias and ReLU lowers to host LLVM code
// launching kernels from gpu.binary objects that hold PTX for sm_90: the
// product's zeroed output, the product (one 64 x 64 block of 256 threads
// per split of its reduction, operands staged through 16-byte aligned
// dynamic shared memory and read by vector loads, fused multiply-adds,
// the splits' sums added atomically) and the fused bias + ReLU, launched
// on one stream one after the other (the product's result freed on that
// stream too), the host waiting only before it copies the result; the
// host copies the arguments into managed memory and the result out.

module {
  relay.func @main(%x: tensor<64x128xf32>, %w: tensor<32x128xf32>, %b: tensor<32xf32>) -> tensor<64x32xf32> {
    %0 = relay.nn.dense %x, %w : (tensor<64x128xf32>, tensor<32x128xf32>) -> tensor<64x32xf32>
    %1 = relay.nn.bias_add %0, %b : (tensor<64x32xf32>, tensor<32xf32>) -> tensor<64x32xf32>
    %2 = relay.nn.relu %1 : (tensor<64x32xf32>) -> tensor<64x32xf32>
    relay.return %2 : tensor<64x32xf32>
  }
}
// CHECK:     llvm.func @main(
// CHECK:       llvm.call @mgpuMemAlloc
// CHECK:       llvm.call @mgpuMemcpy
// CHECK:       gpu.launch_func <%[[STREAM:.*]] : !llvm.ptr> @[[FILL:main_kernel[_0-9]*]]::@[[FILL]]
// CHECK-NOT:   mgpuStreamSynchronize
// CHECK:       gpu.launch_func <%[[STREAM]] : !llvm.ptr> @[[PRODUCT:main_kernel[_0-9]*]]::@[[PRODUCT]] blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in ({{.*}}) : i64 dynamic_shared_memory_size
// CHECK-NOT:   mgpuStreamSynchronize
// CHECK:       gpu.launch_func <%[[STREAM]] : !llvm.ptr> @[[BIAS:main_kernel[_0-9]*]]::@[[BIAS]]
// CHECK-NOT:   gpu.launch_func
// CHECK:       llvm.call @mgpuMemFree(%{{.*}}, %[[STREAM]])
// CHECK:       llvm.call @malloc
// CHECK:       llvm.call @mgpuStreamSynchronize(%[[STREAM]])
// CHECK:       llvm.call @mgpuMemcpy
// CHECK:       llvm.call @mgpuMemFree
// CHECK:     gpu.binary @[[FILL]] {{.*}}#nvvm.target<chip = "sm_90", features = "+ptx80">{{.*}}.target sm_90
// CHECK:     gpu.binary @[[PRODUCT]] {{.*}}.entry [[PRODUCT]](
// CHECK-SAME:  .maxntid 256, 1, 1
// CHECK-SAME:  .shared .align 16 .b8 __dynamic_shmem__
// CHECK-SAME:  ld.global
// CHECK-SAME:  bar.sync
// CHECK-SAME:  ld.shared.v4
// CHECK-SAME:  fma.rn.f32
// CHECK-SAME:  atom.global.add.f32
// CHECK:     gpu.binary @[[BIAS]] {{.*}}ld.global{{.*}}max.NaN.f32
// CHECK-NOT: gpu.binary
// SM80: gpu.binary {{.*}}#nvvm.target<chip = "sm_80", features = "+ptx75">{{.*}}.target sm_80
// SM80-SAME: .maxntid 128, 1, 1

// -----

// Tests that a strided convolution lowers to three kernels: zeros for the
// padded image's border (its four strips in one kernel), its interior copied
// in, and the convolution (a thread per output element, looping over
// channels and the kernel window from zero in a register).

module {
  relay.func @main(%x: tensor<1x3x9x9xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x5x5xf32> {
    %0 = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x9x9xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x5x5xf32>
    relay.return %0 : tensor<1x4x5x5xf32>
  }
}
// CHECK:     llvm.func @main(
// CHECK-COUNT-3: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK:     llvm.return
// CHECK-COUNT-2: gpu.binary @{{.*}}.target sm_90
// CHECK:     gpu.binary @{{.*}}.entry main_kernel
// CHECK-SAME:  mul.rn.f32{{.*}}add.rn.f32
// CHECK-NOT: gpu.binary

// -----

// Tests that a chain of elementwise operators (add with a broadcast, exp,
// multiply, tanh) is one kernel, exp and tanh from the toolkit's libdevice.

module {
  relay.func @main(%x: tensor<8x100xf32>, %y: tensor<100xf32>) -> tensor<8x100xf32> {
    %0 = relay.add %x, %y : (tensor<8x100xf32>, tensor<100xf32>) -> tensor<8x100xf32>
    %1 = relay.exp %0 : (tensor<8x100xf32>) -> tensor<8x100xf32>
    %c = relay.constant dense<5.000000e-01> : tensor<f32>
    %2 = relay.multiply %1, %c : (tensor<8x100xf32>, tensor<f32>) -> tensor<8x100xf32>
    %3 = relay.tanh %2 : (tensor<8x100xf32>) -> tensor<8x100xf32>
    relay.return %3 : tensor<8x100xf32>
  }
}
// CHECK:     llvm.func @main(
// CHECK:       gpu.launch_func
// CHECK-NOT:   gpu.launch_func
// CHECK:     gpu.binary @{{.*}}.entry main_kernel
// CHECK-SAME:  setp.gt.u32 {{.*}}, 799;
// CHECK-SAME:  ex2.approx
// CHECK-SAME:  mul.rn.f32 {{.*}}0f3F000000
// CHECK-NOT: gpu.binary

// -----

// Tests that the remainder of floats (trunc_mod: arith.remf, which PTX has
// no instruction for) lowers in a kernel, as libdevice's fmod (before, the
// host's arith-to-llvm made it an llvm.frem that no kernel pattern took).

module {
  relay.func @main(%x: tensor<8x100xf32>, %y: tensor<8x100xf64>) -> tuple<tensor<8x100xf32>, tensor<8x100xf64>> {
    %c = relay.constant dense<1.500000e+00> : tensor<f32>
    %d = relay.constant dense<2.500000e+00> : tensor<f64>
    %0 = relay.trunc_mod %x, %c : (tensor<8x100xf32>, tensor<f32>) -> tensor<8x100xf32>
    %1 = relay.trunc_mod %y, %d : (tensor<8x100xf64>, tensor<f64>) -> tensor<8x100xf64>
    %t = relay.tuple(%0, %1 : tensor<8x100xf32>, tensor<8x100xf64>)
    relay.return %t : tuple<tensor<8x100xf32>, tensor<8x100xf64>>
  }
}
// CHECK:     llvm.func @main(
// CHECK-COUNT-2: gpu.launch_func
// CHECK:     gpu.binary @{{.*}}.entry main_kernel
// CHECK:     gpu.binary @{{.*}}.entry main_kernel

// -----

// Tests that a product of float16s runs on tensor cores: its kernel's PTX
// copies operands with 16-byte global loads, reads fragments with ldmatrix
// and multiplies with mma.sync m16n8k16 (float32 accumulators).

module {
  relay.func @main(%x: tensor<96x64xf16>, %w: tensor<80x64xf16>) -> tensor<96x80xf16> {
    %0 = relay.nn.dense %x, %w : (tensor<96x64xf16>, tensor<80x64xf16>) -> tensor<96x80xf16>
    relay.return %0 : tensor<96x80xf16>
  }
}
// CHECK:     llvm.func @main(
// CHECK:       gpu.launch_func {{.*}} dynamic_shared_memory_size
// CHECK:     gpu.binary @{{.*}}.entry main_kernel
// CHECK-SAME:  ld.global.v4.b32
// CHECK-SAME:  st.shared.v4.b32
// CHECK-SAME:  ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-SAME:  ldmatrix.sync.aligned.m8n8.x2.shared.b16
// CHECK-SAME:  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

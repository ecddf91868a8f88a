// REQUIRES: cuda-toolkit
// RUN: relay-mlir-opt %s --relay-to-nvvm | FileCheck %s --check-prefix=STAGED
// RUN: relay-mlir-opt %s --relay-to-nvvm='shared-tile=-1' | FileCheck %s --check-prefix=LOOPS
// RUN: relay-mlir-opt %s --relay-to-nvvm='shared-tile=8' | FileCheck %s --check-prefix=TILE8
// RUN: relay-mlir-opt %s --relay-to-nvvm='precision=tf32' | FileCheck %s --check-prefix=TF32
// RUN: relay-mlir-opt %s --relay-to-nvvm='precision=tf32 format=bin' | FileCheck %s --check-prefix=TF32BIN

// Tests --relay-to-nvvm's shared-tile option on a dense layer: by default
// the product stages its operands in dynamic shared memory (64 x 64
// blocks: 2 x 4 = 8.5 KB of tiles); shared-tile=8 makes 128 x 128 blocks
// (two tiles of 8 x 132 floats); shared-tile=-1 leaves it to the loops of
// --relay-gpu-map-parallel-loops (no shared memory). precision=tf32 runs it
// on tensor cores (mma.sync m16n8k8 on TF32s, fragments read by ldmatrix),
// PTX that the toolkit's ptxas accepts for sm_90 (format=bin); float32
// products stay on CUDA cores by default.

module {
  relay.func @main(%x: tensor<64x128xf32>, %w: tensor<64x128xf32>) -> tensor<64x64xf32> {
    %0 = relay.nn.dense %x, %w : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x64xf32>
    relay.return %0 : tensor<64x64xf32>
  }
}
// STAGED: gpu.launch_func {{.*}} dynamic_shared_memory_size
// STAGED: gpu.binary {{.*}}ld.shared.v4
// LOOPS-NOT: dynamic_shared_memory_size
// LOOPS: gpu.launch_func
// LOOPS-NOT: dynamic_shared_memory_size
// LOOPS-NOT: ld.shared
// TILE8: llvm.mlir.constant(8448 : i32) : i32
// TILE8: gpu.launch_func {{.*}} dynamic_shared_memory_size
// STAGED-NOT: mma.sync
// TF32: gpu.binary {{.*}}ldmatrix.sync.aligned.m8n8.x4.shared.b16{{.*}}mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// TF32BIN: gpu.binary @main_kernel [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">, {{.*}}bin = "

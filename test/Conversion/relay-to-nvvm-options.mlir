// REQUIRES: cuda-toolkit
// RUN: relay-mlir-opt %s --relay-to-nvvm='format=bin' | FileCheck %s --check-prefix=CUBIN
// RUN: rm -rf %t.empty && mkdir -p %t.empty
// RUN: not relay-mlir-opt %s --relay-to-nvvm='toolkit=%t.empty' 2>&1 | FileCheck %s --check-prefix=NOLIBDEVICE
// RUN: not relay-mlir-opt %s --relay-to-nvvm='toolkit=%t.none' 2>&1 | FileCheck %s --check-prefix=NOTOOLKIT
// RUN: not relay-mlir-opt %s --relay-to-nvvm='block-size=48' 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not relay-mlir-opt %s --relay-to-nvvm='thread-tile=3' 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: not relay-mlir-opt %s --relay-to-nvvm='shared-tile=3' 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: not relay-mlir-opt %s --relay-to-nvvm='format=wrong' 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not relay-mlir-opt %s --relay-to-nvvm='format=bin toolkit=%t.empty' 2>&1 | FileCheck %s --check-prefix=NOPTXAS
// RUN: not relay-mlir-opt %s --relay-to-nvvm='precision=fp8' 2>&1 | FileCheck %s --check-prefix=PRECISION

// Tests --relay-to-nvvm's options on an elementwise exp:
// format=bin holds a cubin (through the toolkit's ptxas) instead of PTX
// text; a toolkit= without libdevice (an empty or missing directory) is an
// error naming the libdevice function the kernel calls (upstream only
// printed one and left the call); a block size that is not whole warps is
// an error.

module {
  relay.func @main(%x: tensor<8x100xf32>) -> tensor<8x100xf32> {
    %0 = relay.exp %x : (tensor<8x100xf32>) -> tensor<8x100xf32>
    relay.return %0 : tensor<8x100xf32>
  }
}
// CUBIN: gpu.binary @main_kernel [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">, {{.*}}bin = "
// CUBIN-NOT: assembly =
// NOLIBDEVICE: error: a kernel calls libdevice's __nv_expf but there is no {{.*}}empty/nvvm/libdevice/libdevice.10.bc (the CUDA toolkit: --relay-to-nvvm's toolkit=, else $CUDA_HOME)
// NOLIBDEVICE-NOT: gpu.binary
// NOTOOLKIT: error: a kernel calls libdevice's __nv_expf but there is no {{.*}}none/nvvm/libdevice/libdevice.10.bc
// BLOCK: error: --relay-gpu-map-parallel-loops: block-size 48 is not a multiple of 32 between 32 and 1024
// Tests that a thread tile other than 1, 2 or 4 results is refused.
// TILE: error: --relay-gpu-map-parallel-loops: thread-tile 3 is not 1, 2 or 4
// Tests that an unknown format is an error (upstream's gpu-module-to-binary
// only prints one), and that a cubin without the toolkit's ptxas is one.
// FORMAT: error: --relay-to-nvvm: unknown format 'wrong' (expected isa, bin or fatbin)
// FORMAT-NOT: gpu.binary
// Tests that a shared-memory thread tile other than 0, 4 or 8 is refused.
// SHARED: error: --relay-gpu-tile-contractions: thread-tile 3 is not 0 (by size), 4 or 8
// NOPTXAS: error: --relay-to-nvvm: format=bin needs the CUDA toolkit's ptxas, but there is no {{.*}}empty/bin/ptxas
// PRECISION: error: --relay-to-mixed-precision: unknown mixed-precision-type 'fp8'

//===- Passes.td - Relay passes: Codegen/GPU ---------------*- tablegen -*-===//
//
// NVIDIA GPU code generation (transforms/Codegen/GPU). Included by
// transforms/Passes.td, which generates every pass declaration into one
// Passes.h.inc.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_TRANSFORMS_CODEGEN_GPU_PASSES
#define RELAY_TRANSFORMS_CODEGEN_GPU_PASSES

include "mlir/Pass/PassBase.td"

def GpuMapParallelLoops
    : Pass<"relay-gpu-map-parallel-loops", "::mlir::func::FuncOp"> {
  let summary = "Lower linalg ops to parallel loops and map each outermost "
                "one to GPU blocks and threads";
  let description = [{
    Runs in `--relay-to-nvvm` on bufferized code, before the upstream
    `--convert-parallel-loops-to-gpu`. Each linalg op outside a kernel
    becomes loops: its parallel dimensions one `scf.parallel`, its
    reductions `scf.for` loops inside it (a `linalg.generic`'s reduction
    dimensions are interchanged after its parallel ones first, so that a
    sum over a middle axis is one kernel whose threads loop over the axis,
    not a host loop of kernels; an op without parallel dimensions gets a
    parallel loop of one iteration: a one-thread kernel, its operands left
    on the device); buffer copies (`memref.copy`) become linalg copies
    first and loops the same way. Adjacent fills of boxes of one buffer (a padded image's border
    strips) become one loop over the buffer; a thread's reduction loops
    carry their accumulator in a register, which starts from the value of
    a fill of the whole accumulator just before the op (the fill then
    goes: one kernel less per product or convolution). Each outermost `scf.parallel` then has its
    dimensions collapsed into one, the innermost fastest, and tiled by
    `block-size` (a multiple of 32 above the iteration count when that is
    smaller): the tiles are GPU blocks and the iterations of a tile its
    threads, so that neighbouring threads of a warp touch neighbouring
    elements of the result (coalesced accesses). The tile's bound is
    guarded by an `scf.if`, so a launch has constant block sizes. Parallel
    loops nested in others run in sequence in the thread of the outer one;
    loops that reduce into values (`scf.reduce` with operands) stay on the
    host.

    ```mlir
    linalg.generic {iterator_types = ["parallel", "parallel"]} ...
      outs(%out : memref<64x32xf32>)
    // becomes (block-size=256)
    scf.parallel (%b) = (%c0) to (%c2048) step (%c256) {
      scf.parallel (%t) = (%c0) to (%c256) step (%c1) {
        // i = (b + t) / 32, j = (b + t) % 32 when b + t < 2048
      } {mapping = [#gpu.loop_dim_map<processor = thread_x, ...>]}
    } {mapping = [#gpu.loop_dim_map<processor = block_x, ...>]}
    ```
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads of a block">,
    Option<"threadTile", "thread-tile", "int64_t", /*default=*/"4",
           "Results a thread of a product or convolution computes along "
           "each of two dimensions, at most (4, 2 or 1: one result per "
           "thread)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def GpuTileContractions
    : Pass<"relay-gpu-tile-contractions", "::mlir::func::FuncOp"> {
  let summary = "Compute products and convolutions as tiled matrix products "
                "on shared memory (CUDA cores or tensor cores)";
  let description = [{
    Runs in `--relay-to-nvvm` on bufferized code, before
    `--relay-gpu-map-parallel-loops`. A linalg op outside a kernel that is a
    contraction of two statically shaped buffers (a multiply-add body, the
    output written whole) becomes one `gpu.launch` computing it as
    `C[b][m][n] = sum_k A[b][m][k] B[b][n][k]`: the loop dimensions only the
    first input reads are the rows, those only the second reads the
    columns, those both read batches, the reductions K; several of a kind
    are flattened, and the operands are read through their indexing maps,
    so a convolution is an implicit product (image pixels by filters, no
    im2col buffer) and a grouped one is batched.

    With at least `min-size` rows and columns, a block of 256 threads
    computes 64 or 128 rows by 64 or 128 columns (8 x 8 results per thread
    along sides of 128 or more, fewer while the blocks do not fill an H100's
    132 multiprocessors; `thread-tile` forces 4 or 8). On CUDA cores, each
    step of 8 along K copies both operands' tiles into dynamic shared
    memory (coalesced: consecutive threads follow the operand's contiguous
    dimension; stored K-major, rows padded by 4), then each thread reads its
    rows and columns with 16-byte vector loads and does the multiply-adds
    (marked contractible: fused multiply-adds) into registers. Products of
    float16s (into float16 or float32) run on tensor cores instead
    (`tensor-cores`): steps of 32 stored K-contiguous (by 16-byte vector
    loads where the operand is contiguous along the reduction), fragments
    read by `nvgpu.ldmatrix`, `nvgpu.mma.sync` m16n8k16 into float32
    accumulators. With `tf32`, products of float32s run on tensor cores
    too, as m16n8k8 TF32 products (their operands' mantissas cut to 10
    bits, as cuBLAS's and cuDNN's TF32 modes do; sums stay float32). Either
    way the next step's operands are read from global
    memory before the current one is used, elements past the edges read as
    zero, and the fill that zeroes the output just before becomes the
    accumulators' start. Where the blocks still do not fill the GPU, the
    reduction is split among blocks (`split-k`) that add their partial sums
    atomically (float32/64 and int32/64 outputs; the fill stays).

    With fewer rows (a batch-1 dense layer, a recurrent cell's product), a
    second operand contiguous along a reduction of 128 or more and float32
    or int32 sums, each warp computes one column for all rows: its lanes
    stride the reduction (coalesced loads of the weights), their sums added
    by `gpu.shuffle xor`. Other contractions keep the loops of
    `--relay-gpu-map-parallel-loops`.
  }];
  let options = [
    Option<"threadTile", "thread-tile", "int64_t", /*default=*/"0",
           "Results a thread computes along each side: 8, 4, or 0 to pick "
           "by the product's size">,
    Option<"minSize", "min-size", "int64_t", /*default=*/"16",
           "Fewest rows and columns a contraction has to be tiled (one with "
           "fewer rows gets a warp per column where its second operand is "
           "contiguous along a long reduction; others keep the loops of "
           "--relay-gpu-map-parallel-loops)">,
    Option<"splitK", "split-k", "int64_t", /*default=*/"0",
           "Blocks that share a tile's reduction, adding their partial sums "
           "atomically: 0 picks enough to fill the multiprocessors where "
           "the output is float32/64 or int32/64, 1 none">,
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"true",
           "Products of float16 operands on tensor cores (mma.sync, "
           "summed in float32)">,
    Option<"tf32", "tf32", "bool", /*default=*/"false",
           "Products of float32s on tensor cores too, their operands read "
           "as TF32 (10 bits of mantissa; mma.sync m16n8k8, summed in "
           "float32), as cuBLAS and cuDNN do when TF32 is allowed">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def GpuCheckToolkit : Pass<"relay-gpu-check-toolkit", "::mlir::ModuleOp"> {
  let summary = "Check that the CUDA toolkit has the libdevice the kernels "
                "call";
  let description = [{
    Runs in `--relay-to-nvvm` before `gpu-module-to-binary`. Kernels call
    libdevice for their math functions (`__nv_expf`, `__nv_tanhf`, ...),
    which the serialisation links from `<toolkit>/nvvm/libdevice/
    libdevice.10.bc`. Upstream only prints an error when that file (or the
    toolkit) is missing and goes on, leaving calls the driver rejects when
    it loads the module; this pass makes it an error at the first such
    call, naming the function and the path, and stops the pipeline.
    `toolkit` empty: upstream's own choice ($CUDA_ROOT, $CUDA_HOME,
    $CUDA_PATH, its built-in default). It also checks `format`, what
    `gpu-module-to-binary` will make: upstream prints an error for an
    unknown one and exits 0; here it is an error, and `bin` and `fatbin`
    (which run the toolkit's `bin/ptxas`) need ptxas.
  }];
  let options = [
    Option<"toolkit", "toolkit", "std::string", /*default=*/"\"\"",
           "The CUDA toolkit's directory">,
    Option<"format", "format", "std::string", /*default=*/"\"isa\"",
           "What gpu-module-to-binary makes: isa, bin or fatbin">,
  ];
}

def GpuManagedMemory : Pass<"relay-gpu-managed-memory", "::mlir::ModuleOp"> {
  let summary = "Allocate buffers in CUDA managed memory, keep constants on "
                "the device, copy entry arguments and results across";
  let description = [{
    Runs in `--relay-to-nvvm` after the kernels are `gpu.launch` ops and
    before they are outlined. GPU kernels read and write device memory; the
    host code around them (control flow, scalar reads, boxing into ADTs)
    reads the same buffers. So every `memref.alloc` of the host code
    becomes `gpu.alloc host_shared` (CUDA managed memory: it migrates to
    the device when a kernel touches it and stays there between kernels)
    and its `memref.dealloc` a `gpu.dealloc`. Buffers from outside:

    - a constant (`memref.get_global` of a constant global, a network's
      weights) is uploaded once per loaded module: the runtime's
      `relay_cuda_constant(slot, host, bytes)` copies it into managed
      memory on the first call and records the pointer in a module-level
      slot (an `llvm.mlir.global` initialised to null); later calls return
      it. The memref is that pointer's descriptor (an LLVM struct cast to
      the memref type, which the lowering to LLVM cancels). The module's
      destructor (`llvm.mlir.global_dtors`) gives the memory back through
      `relay_cuda_constant_release(slot)`. A mutable global is copied for
      each call.
    - the memref arguments of public functions (the caller's host buffers)
      are copied into managed buffers on entry, and the buffers they return
      are copied into host buffers (`memref.alloc`, which the caller frees)
      before the managed ones are freed. A public function the module also
      calls or references (a Relay function called by another, recursion)
      is split first: its body moves into a private `NAME_device` that
      takes and returns managed buffers, which the module's calls name, and
      `NAME` becomes the entry that copies around a call of it.

    Copies and frees take upstream's async form (a stream each, waited for
    at once). A `memref.alloca` used by a kernel is an error: the device
    cannot read the host's stack.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect"];
}

def GpuAsyncLaunches : Pass<"relay-gpu-async-launches", "::mlir::ModuleOp"> {
  let summary = "Launch consecutive kernels without waiting for each";
  let description = [{
    Runs in `--relay-to-nvvm` after kernel outlining. Upstream's lowering of
    a synchronous `gpu.launch_func` waits for the kernel before the host
    goes on; the kernels of a network follow each other with only index
    arithmetic, views and allocations in between. In each block of the host
    code, such launches join one chain of async operations on one stream
    (`gpu.wait async` starts it, each launch depends on the one before), and
    so do the frees of buffers between them (`gpu.dealloc`: the buffer goes
    back to the runtime, for later kernels of the same stream); the chain is
    waited for (`gpu.wait`) before the next operation that touches memory
    on the host or may (a copy, a load, a call, control flow, the block's
    end), so the host never reads what a kernel has not finished writing.

    ```mlir
    gpu.launch_func @k0::@k0 ... args(%a, %b)
    %v = memref.subview %b ...
    gpu.launch_func @k1::@k1 ... args(%v, %c)
    %x = memref.load %c[]
    // becomes
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k0::@k0 ... args(%a, %b)
    %v = memref.subview %b ...
    %t2 = gpu.launch_func async [%t1] @k1::@k1 ... args(%v, %c)
    gpu.wait [%t2]
    %x = memref.load %c[]
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def GpuNameKernels : Pass<"relay-gpu-name-kernels", "::mlir::ModuleOp"> {
  let summary = "Name each outlined kernel after its gpu.module";
  let description = [{
    Runs in `--relay-to-nvvm` after kernel outlining, which names every
    kernel of a function `@main` `main_kernel`, each in a `gpu.module` of
    its own (`@main_kernel`, `@main_kernel_0`, ...). The kernel of each such
    module takes the module's name, unique in the program, and the launches
    follow, so that what reports kernels by name (`relay-run --profile
    --target cuda`, Nsight Compute) tells them apart and names the module
    that holds each in `--relay-to-nvvm`'s output.

    ```mlir
    gpu.module @main_kernel_0 { gpu.func @main_kernel(...) kernel {...} }
    gpu.launch_func @main_kernel_0::@main_kernel ...
    // becomes
    gpu.module @main_kernel_0 { gpu.func @main_kernel_0(...) kernel {...} }
    gpu.launch_func @main_kernel_0::@main_kernel_0 ...
    ```

    A module with more than one kernel, or whose name another of its
    symbols has, is left as it is.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

#endif // RELAY_TRANSFORMS_CODEGEN_GPU_PASSES

//===- Passes.td - Relay passes: Codegen/CPU ---------------*- tablegen -*-===//
//
// x86 CPU code generation (transforms/Codegen/CPU). Included by
// transforms/Passes.td, which generates every pass declaration into one
// Passes.h.inc.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_TRANSFORMS_CODEGEN_CPU_PASSES
#define RELAY_TRANSFORMS_CODEGEN_CPU_PASSES

include "mlir/Pass/PassBase.td"

def SetTargetCPU : Pass<"relay-set-target-cpu", "::mlir::ModuleOp"> {
  let summary = "Record the x86 CPU the code is compiled for on the module";
  let description = [{
    Describes the CPU `cpu` names (`host`, the default: this machine's
    name and features from LLVM, its cache sizes from sysfs; or an LLVM
    x86-64 CPU name such as `skylake-avx512` or `znver4`, with that
    family's cache sizes) as the module's DLTI target system spec, device
    "CPU": keys `cpu`, `features`, `L1_cache_size_in_bytes`,
    `L2_cache_size_in_bytes`, `L3_cache_size_in_bytes_per_core`,
    `max_vector_op_width`, and with `threads` above 0, `threads` (the
    threads the code runs on; --relay-to-llvm passes its own, and the band
    kernels then prefer a count of bands the threads divide; absent means
    1). The CPU lowering target's kernels
    (--relay-to-linalg) and --relay-tile-and-vectorize derive their tile,
    block and band sizes and their instructions (AVX-512 or AVX2 register
    tiles, VNNI) from it, and the ahead-of-time and JIT compilers generate
    code for that CPU. A module that already has a spec with a "CPU" device
    keeps it (a key it lacks takes the named or host CPU's value), so a
    user can describe a CPU by hand:

    ```mlir
    module attributes {dlti.target_system_spec = #dlti.target_system_spec<
        "CPU" = #dlti.target_device_spec<"cpu" = "skylake-avx512",
                                         "L2_cache_size_in_bytes" = 2097152 : i64>>} {
      ...
    }
    ```

    An unknown CPU name is an error that lists the valid ones.
  }];
  let options = [
    Option<"cpu", "cpu", "std::string", /*default=*/"\"host\"",
           "The CPU: host, or an LLVM x86-64 CPU name (llc -mcpu=help)">,
    Option<"threads", "threads", "int64_t", /*default=*/"0",
           "The threads the code runs on, recorded as key `threads` "
           "(0: leave the spec's, else 1)">
  ];
  let dependentDialects = ["::mlir::DLTIDialect"];
}

def TileAndVectorize : Pass<"relay-tile-and-vectorize", "::mlir::func::FuncOp"> {
  let summary = "Tile bufferized linalg ops for cache and registers, then "
                "vectorise them";
  let description = [{
    Runs after one-shot bufferization on static-shaped linalg ops over
    memrefs, with upstream transforms only (TilingInterface tiling,
    the linalg vectoriser, vector transfer hoisting):

    - Contractions (matmul, batch matmul, the im2col products of
      convolutions, dense): tiled for the caches (64x128x512 on m, n, k),
      then for registers (8x32 on m and n, k step 1: 16 AVX-512
      accumulators of 16 floats; 16x16 where n is not a multiple of 32),
      vectorised into `vector.contract`, whose
      accumulator tile is hoisted out of the k loop. `--convert-vector-to-llvm
      vector-contract-lowering=outerproduct` then turns it into FMAs. A
      contraction over a buffer that a `linalg.fill` with zero initialises
      right before it starts its accumulator tiles from zero in its first k
      tile (peeled off when there are several) and the fill goes (a whole
      pass over the output saved). The elementwise op right after such a
      product (a convolution's bias, residual and activation; only ops
      without memory effects between), reading its buffer element for
      element, possibly reshaped, then runs on the register tiles: each
      tile's rows get the op's body in registers and go to the op's output
      (its operands viewed in the product's index space), and the
      product's buffer goes -- where k is one cache tile, so that every
      tile stored is final.
    - Other vectorisable linalg ops (elementwise, broadcasts, reductions,
      transposes, fills): every loop but the innermost tiled to 1, the
      innermost to a vector of up to 64 elements. A reduction into a
      parallel innermost loop (the per-lane partial sums of a
      matrix-vector product) takes 8 rows of the parallel loop outside it,
      as 8 independent chains of `vector.fma`.
    - Reductions along the innermost loop become `vector.reduction`, float
      sums and products with `fastmath<reassoc>` (LLVM then adds the lanes
      as a tree).

    - With `threads` above 1, the m and n cache tiles of contractions of
      at least 2 MFLOP are the iterations of an `scf.forall` (k stays a
      sequential loop inside), which `--relay-to-llvm` runs on the worker
      threads of the C runtime's async runtime.
    - Copies between strided views (`memref.copy` into a padded image's
      interior) become `linalg.copy` and are vectorised like the rest;
      contiguous copies stay one memcpy; copies of a view onto itself (what
      bufferization leaves of a slice filled in place) go.
    - Vector reads along a strided innermost dimension (the windows of
      strided convolutions and pooling) become, up to stride 4, one read of
      the row's span (masked past its end) and a `vector.shuffle` picking
      every s-th lane, else one scalar load per element: MLIR's own
      lowering inserts each element at a variable position, which LLVM
      compiles to a store and reload of the whole vector.

    Tile sizes are divisors of the loop sizes, so every tile is static
    and no masking is needed. Ops the vectoriser does not support (named
    pooling ops, gathers) and ops on i1 buffers (a byte per element in
    memory, packed bits in LLVM vectors) are left for
    `--convert-linalg-to-loops`.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::ub::UBDialect",
    "::mlir::vector::VectorDialect"
  ];
  let options = [
    Option<"vectorize", "vectorize", "bool", /*default=*/"true",
           "Vectorise the tiles (false: tile only)">,
    Option<"threads", "threads", "int64_t", /*default=*/"1",
           "Above 1: the cache tiles of large contractions form an "
           "scf.forall (run in parallel once lowered through the async "
           "dialect)">,
  ];
  let statistics = [
    Statistic<"numContractions", "contractions",
              "Contractions tiled and vectorised">,
    Statistic<"numVectorized", "vectorized", "Other linalg ops vectorised">,
    Statistic<"numFusedEpilogues", "fused-epilogues",
              "Elementwise ops applied to a product's register tiles">,
    Statistic<"numZeroStarts", "zero-starts",
              "Products over a zeroed buffer started from zero instead">,
  ];
}

def LowerAmxProducts : Pass<"relay-lower-amx-products", "::mlir::ModuleOp"> {
  let summary = "Compute the bf16 and int8 products marked relay.amx_tiles "
                "on AMX tiles";
  let description = [{
    Runs after one-shot bufferization, before --relay-tile-and-vectorize.
    The CPU lowering target makes the bf16 convolutions and matrix products
    of `--relay-to-mixed-precision` into one linalg.generic marked
    `relay.amx_tiles` on CPUs with AMX-BF16, and the int8 convolutions of
    `--relay-quantize` on CPUs with AMX-INT8 (AmxProducts.cpp):

    ```mlir
    out[m, n] += A[m, k] * B[n / 32, k / 2, n % 32, k % 2]
    // A: memref<MxKxbf16>, B: memref<N/32xK/2x32x2xbf16>, out: memref<MxNxf32>
    out[m, n] += extsi(A[m, k]) * extsi(B[n / 32, k / 4, n % 32, k % 4])
    // A: memref<MxKxi8>, B: memref<N/32xK/4x32x4xi8>, out: memref<MxNxi32>
    ```

    B is in panels of 32 columns, each one run of memory (K/g rows of 32
    groups of g along k), so that a block of columns streams its panel
    (ResNet-18's 512-channel layers read megabytes of weights from memory;
    with rows of all N columns, a tile's rows were N groups apart).

    This pass computes each such product whose M, N and K are multiples of
    32 (K of 64 for int8), on a CPU (`--relay-set-target-cpu`) with
    AMX-BF16 (AMX-INT8), with the `amx` dialect: for each 32x32 block of
    `out` (consecutive blocks share a
    panel of the larger operand, which then stays in L2 while the other's
    panels stream: the rows' blocks inside when N > M), four 16x16 f32
    (int32) accumulator tiles, and along K two 16x32 bf16 (16x64 byte)
    tiles of A and two of B (16 of the panel's rows of pairs or quads: the
    VNNI layout `tdpbf16ps` and `tdpbssd` read) multiplied into them. The
    accumulators start from zero when a `linalg.fill` with zero of `out`
    comes right before (the fill goes), else from `out`. The blocks' loop is
    marked `relay.independent_iterations` (`--relay-parallelize-loops`).
    Before it the function calls the C runtime's `relay_rt_request_amx`,
    which asks Linux for the AMX tile state once per process (a run-time
    error where the kernel refuses). Other generics are left alone.
  }];
  let dependentDialects = [
    "::mlir::amx::AMXDialect", "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
  let statistics = [
    Statistic<"numLowered", "lowered", "Products computed on AMX tiles">,
  ];
}

def ConvertControlFlowToLLVM
    : Pass<"relay-convert-cf-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Upstream's --convert-cf-to-llvm, for blocks that carry AMX "
                "tiles too";
  let description = [{
    The last control flow of `--relay-to-llvm`: `cf` branches, switches and
    asserts become LLVM's, as upstream's `--convert-cf-to-llvm` makes them,
    with a type converter that also maps `!amx.tile` to LLVM's `x86_amx`:
    the accumulator tiles of `--relay-lower-amx-products` are carried
    through its k loop as block arguments, which upstream's pass cannot
    convert. A loop annotation that scf-to-cf copied from an `scf.for` onto
    its back edge as the discardable `llvm.loop_annotation` (that of
    `--relay-limit-copy-unrolling`) becomes the LLVM branch's own, which
    the translation to LLVM IR writes as `llvm.loop` metadata.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // RELAY_TRANSFORMS_CODEGEN_CPU_PASSES

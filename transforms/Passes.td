//===- Passes.td - Relay passes ----------------------------*- tablegen -*-===//
//
// Every relay-mlir pass. Flags are `--relay-<name>`.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_TRANSFORMS_PASSES
#define RELAY_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def InferTypes : Pass<"relay-infer-types", "::mlir::ModuleOp"> {
  let summary = "Relay type inference: unification plus the relation solver";
  let description = [{
    Infers every type a Relay module leaves out (`!relay.incomplete`) and
    checks the rest: Hindley-Milner unification over the program's types,
    with the operators' type relations solved to a fixpoint (a queue of
    relations, re-run when a type variable they wait on is bound).

    Global functions are inferred callee-first, one strongly connected
    component of the call graph at a time (so mutual recursion is inferred
    together); type variables left free in a function's signature are
    generalised into type parameters. Calls to polymorphic functions get
    their type arguments inferred and written into the call. Closures,
    local recursion, `if`/`match` branches, ADT constructors and patterns,
    references and tuples are all typed.

    The solved types are written back into the IR: every value, function
    signature and closure type. A relation that cannot hold, two types that
    cannot be unified, or a type that stays unknown is an error at the
    offending op's location.

    ```mlir
    relay.func @f(%x: tensor<1x3x8x8xf32>, %w: !relay.incomplete)
        -> !relay.incomplete {
      %y = relay.nn.conv2d %x, %w {channels = 4 : i64,
                                   kernel_size = array<i64: 3, 3>}
          : (tensor<1x3x8x8xf32>, !relay.incomplete) -> !relay.incomplete
      relay.return %y : !relay.incomplete
    }
    // becomes
    relay.func @f(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>)
        -> tensor<1x4x6x6xf32> { ... }
    ```
  }];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let statistics = [
    Statistic<"numRelations", "relations", "Relations solved">,
    Statistic<"numGeneralized", "generalized",
              "Functions generalised into polymorphic ones">,
  ];
}

def Decompose : Pass<"relay-decompose", "::mlir::ModuleOp"> {
  let summary = "Rewrite composite operators into primitive ones";
  let description = [{
    The composite operators (`fast_exp`, `trunc_divide`, `isnan`, `isinf`,
    `isfinite`, `cast_like`, `broadcast_to_like`, `collapse_sum_like`,
    `reverse`, `tile`, `repeat`, `nn.fast_softmax`, `nn.l2_normalize`,
    `nn.lrn`, `nn.instance_norm`, `nn.group_norm`, `one_hot`, `cumsum`, `topk`,
    `argsort`, `sort`, `shape_of`, `ndarray_size`, `nn.mirror_pad`, `variance`,
    `image.resize2d`,
    `nn.depth_to_space`, `nn.space_to_depth`, `sequence_mask`, `nn.conv1d`,
    `nn.conv1d_transpose`, `nn.max_pool1d`, `nn.avg_pool1d`,
    `nn.adaptive_avg_pool1d`, `nn.adaptive_max_pool1d`, `nn.conv3d`,
    `nn.max_pool3d`, `nn.avg_pool3d`, `nn.adaptive_avg_pool3d`,
    `nn.adaptive_max_pool3d`) are typed by their
    relations like every operator; this pass rewrites them into the
    primitive operators that lowering and the interpreter implement, as
    TVM's SimplifyInference and Legalize do. It needs static operand
    shapes: native compilation runs it after `--relay-specialize`, relay-run
    after type inference; an op whose shapes are not known is left alone.

    ```mlir
    %y = relay.tile %x {reps = array<i64: 2>} : (tensor<3xf32>) -> tensor<6xf32>
    // becomes
    %0 = relay.reshape %x {newshape = array<i64: 1, 3>} : ...
    %1 = relay.broadcast_to %0 {shape = array<i64: 2, 3>} : ...
    %y = relay.reshape %1 {newshape = array<i64: 6>} : ...
    ```
  }];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

def Specialize : Pass<"relay-specialize", "::mlir::ModuleOp"> {
  let summary = "Monomorphise polymorphic functions by their calls' type "
                "arguments";
  let description = [{
    Every `relay.call` of a polymorphic `relay.func` with type arguments
    (written by `--relay-infer-types`) is redirected to a private copy of the
    callee with those arguments substituted for its type parameters: one copy
    per callee and distinct list of arguments, named `<callee>_spec` (made
    unique). Copies are processed in turn, so chains of polymorphic calls
    are followed from the monomorphic functions. A polymorphic function
    used as a value (`relay.global_ref @id`, a `relay.fn [A]`) where a
    monomorphic function type is expected (a call's argument, an applied
    closure, a returned, yielded or stored value) becomes the instance of
    that type, at each such use. Polymorphic functions left without users
    are removed. Native code generation runs it first: a
    lowered function has a single machine signature.

    ```mlir
    relay.func @id[!relay.tvar<a : Type>](%x: !relay.tvar<a : Type>) -> ...
    %y = relay.call @id [tensor<2xf32>](%x) : ...
    // becomes
    relay.func private @id_spec(%x: tensor<2xf32>) -> tensor<2xf32>
    %y = relay.call @id_spec(%x) : ...
    ```
  }];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let statistics = [
    Statistic<"numInstances", "instances", "Specialised copies made">,
  ];
}

def BindParams : Pass<"relay-bind-params", "::mlir::ModuleOp"> {
  let summary = "Bind parameters to constants read from .npy files (TVM's "
                "bind_params_by_name)";
  let description = [{
    Each parameter of `func` (default @main) whose Relay name `%w` has a
    `w.npy` in `dir` becomes that constant and leaves the signature (so
    that quantization, constant folding and packed weights see the
    weights). A file that names no parameter, or holds another type, is an
    error naming it.
  }];
  let options = [
    Option<"dir", "dir", "std::string", /*default=*/"\"\"",
           "The directory of <parameter name>.npy files">,
    Option<"func", "func", "std::string", /*default=*/"\"main\"",
           "The function whose parameters are bound">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

def SetTargetCPU : Pass<"relay-set-target-cpu", "::mlir::ModuleOp"> {
  let summary = "Record the x86 CPU the code is compiled for on the module";
  let description = [{
    Describes the CPU `cpu` names (`host`, the default: this machine's
    name and features from LLVM, its cache sizes from sysfs; or an LLVM
    x86-64 CPU name such as `skylake-avx512` or `znver4`, with that
    family's cache sizes) as the module's DLTI target system spec, device
    "CPU": keys `cpu`, `features`, `L1_cache_size_in_bytes`,
    `L2_cache_size_in_bytes`, `L3_cache_size_in_bytes_per_core`,
    `max_vector_op_width`. The CPU lowering target's kernels
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
           "The CPU: host, or an LLVM x86-64 CPU name (llc -mcpu=help)">
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
      pass over the output saved).
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
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect"
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
    Statistic<"numZeroStarts", "zero-starts",
              "Products over a zeroed buffer started from zero instead">,
  ];
}

def LowerAmxProducts : Pass<"relay-lower-amx-products", "::mlir::ModuleOp"> {
  let summary = "Compute the bf16 products marked relay.amx_tiles on AMX "
                "tiles";
  let description = [{
    Runs after one-shot bufferization, before --relay-tile-and-vectorize.
    The CPU lowering target makes the bf16 convolutions and matrix products
    of `--relay-to-mixed-precision` into one linalg.generic marked
    `relay.amx_tiles` on CPUs with AMX-BF16 (AmxProducts.cpp):

    ```mlir
    out[m, n] += A[m, k] * B[k / 2, n, k % 2]
    // A: memref<MxKxbf16>, B: memref<K/2xNx2xbf16>, out: memref<MxNxf32>
    ```

    This pass computes each such product whose M, N and K are multiples of
    32, on a CPU (`--relay-set-target-cpu`) with AMX-BF16, with the `amx`
    dialect: for each 32x32 block of `out` (consecutive blocks share a
    panel of the larger operand, which then stays in L2 while the other's
    panels stream: the rows' blocks inside when N > M), four 16x16 f32
    accumulator tiles, and along K two 16x32 tiles of A and two of B (rows
    of pairs: the VNNI layout `tdpbf16ps` reads) multiplied into them. The
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

def FlattenConstantGlobals
    : Pass<"relay-flatten-constant-globals", "::mlir::ModuleOp"> {
  let summary = "Give constant LLVM globals of tensors a flat array type, "
                "of bytes where possible";
  let description = [{
    Runs on the LLVM dialect at the end of `--relay-to-llvm`. A constant
    `llvm.mlir.global` holding a tensor of rank 2 or more (a weight) has a
    nested array type, `!llvm.array<64 x array<3 x array<7 x array<7 x
    f32>>>>`, which the translation to LLVM IR builds as one uniqued
    constant per innermost row: millions of constants for a network's
    weights, most of its compile time; and LLVM writes an array of floats
    into the object file one element at a time. The pass gives such a
    global (of rank 1 or more) the flat array type of its bytes,
    `!llvm.array<37632 x i8>`, which is written in one go (the flat array
    of its elements for splats and elements narrower than a byte), and
    replaces the all-zero
    `llvm.getelementptr` that takes its address (what memref lowering
    emits) with the address itself; the bytes and their alignment are
    unchanged. Globals used otherwise are left alone.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let statistics = [
    Statistic<"numFlattened", "flattened", "Constant globals flattened">,
  ];
}

def NarrowConstantInputs
    : Pass<"relay-narrow-constant-inputs", "::mlir::func::FuncOp"> {
  let summary = "Read 64-bit integer constants of linalg generics in the "
                "narrowest integer type that holds their values";
  let description = [{
    Runs in `--relay-to-llvm` (and `--relay-to-nvvm`) right after
    `--relay-to-linalg`, on linalg on tensors. Requantization in fixed
    point (`qnn.requantize` as `--relay-qnn-canonicalize` writes it)
    multiplies an int32 accumulator, widened to int64, by per-channel int64
    significands. The significands are 31-bit, but as int64 constants LLVM
    cannot know it: a 64-bit multiply on AVX2 is three `vpmuludq` with
    shifts and adds (AVX-512's `vpmullq` is also several micro-ops), where a
    product of two sign-extended 32-bit values is one `vpmuldq`, and its
    high half, shifted down and truncated, eight lanes at a time.

    So an input of a `linalg.generic` that is an `arith.constant` of 64-bit
    integers whose every value fits a signed 8, 16 or 32-bit integer
    becomes a constant of the narrowest of these, and the generic's body
    sign-extends the element back to 64 bits where it reads it. The
    arithmetic is the same; the constant is smaller and LLVM sees the
    extension.

    ```mlir
    %m = arith.constant dense<[1518500250, 1073741824]> : tensor<2xi64>
    linalg.generic ... ins(%x, %m : tensor<2xi64>, tensor<2xi64>) ... {
    ^bb0(%a: i64, %b: i64, %out: i64):
      %p = arith.muli %a, %b : i64
    ```
    becomes
    ```mlir
    %m = arith.constant dense<[1518500250, 1073741824]> : tensor<2xi32>
    linalg.generic ... ins(%x, %m : tensor<2xi64>, tensor<2xi32>) ... {
    ^bb0(%a: i64, %b32: i32, %out: i64):
      %b = arith.extsi %b32 : i32 to i64
      %p = arith.muli %a, %b : i64
    ```
    Constants of other element types, constants with a value that needs
    64 bits and inputs the body does not read are left as they are.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let statistics = [
    Statistic<"numNarrowed", "narrowed", "Constant inputs narrowed">,
  ];
}

def FuseElementwise : Pass<"relay-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Fuse chains of elementwise linalg ops on tensors into one "
                "loop nest";
  let description = [{
    Runs in `--relay-to-llvm` on the linalg-on-tensors code of
    `--relay-to-linalg`, before bufferization. Each Relay operator lowers
    to its own `linalg.generic`; a chain such as `tanh(add(add(a, b), c))`
    would otherwise write and re-read a buffer per operator. Upstream's
    elementwise fusion merges a producer into its consumer when both are
    all-parallel generics, the producer's result has no other use (so no
    work is repeated) and the consumer reads it element for element, not
    broadcast (a broadcast read would recompute the producer per copy).
    Reductions and contractions are left as they are, so the tiling
    of `--relay-tile-and-vectorize` still recognises them.

    Then, into a loop of image windows (marked `relay.image_windows`: the
    row bands of a depthwise convolution of a large image, each reading a
    window of the image's rows), the ops that make the image move, each
    iteration computing only its window (upstream's producer fusion, and
    its bubbling of extract_slice through reshapes): the elementwise ops
    and the one contraction before them (a 1x1 convolution and its fill),
    when nothing else uses their results. The rows that neighbouring
    windows share are computed in both; the image is never whole in
    memory.

    Then an elementwise op that reads, element for element and as its only
    use, the result of a loop of independent bands (an scf.for marked
    `relay.independent_iterations` whose iterations each insert a band: the
    row bands of large convolutions) moves into that loop, band by band
    (upstream's consumer fusion): a convolution's bias and activation read
    each band while it is in the cache. When the loop is also marked
    `relay.row_kernel` (a depthwise convolution's row kernel, whose results
    are written as row vectors) and the op's body is elementwise-mappable,
    the body is applied to each row vector before it is written instead,
    its other inputs read per row (a per-channel bias broadcast).

    Last, a row-kernel loop over channel blocks that reads block c of its
    image only in its iteration c merges into the loop of channel bands
    before it that makes the image, when both go over the same blocks (a
    1x1 convolution and the depthwise convolution after it, MobileNet's
    inverted residual blocks): each iteration convolves the band it has
    just made, from the cache, and the image is never assembled.

    Finally, an elementwise op whose result is collapsed (an ONNX MatMul's
    [1, 56, 56, 96] as [3136, 96] rows) and inserted at the start of a
    larger empty tensor (the rows padded to whole register tiles) computes
    in the collapsed shape, into an empty tensor of it, its inputs read at
    a constant index on unit dimensions (a layer norm's statistics) dropped
    to maps of loops: bufferization's empty-tensor elimination then lets
    it write into the padded buffer, which was otherwise a copy.

    ```mlir
    %s = linalg.generic {...} ins(%a, %b) outs(%e0) { addf }
    %t = linalg.generic {...} ins(%s) outs(%e1) { tanh }
    // becomes
    %t = linalg.generic {...} ins(%a, %b) outs(%e1) { addf, tanh }
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect"];
}

def HoistDeallocs : Pass<"relay-hoist-deallocs", "::mlir::func::FuncOp"> {
  let summary = "Free each buffer right after its last use instead of at "
                "the end of its block";
  let description = [{
    Runs in `--relay-to-llvm` after `--buffer-deallocation-pipeline` and
    `--convert-bufferization-to-memref`. The ownership-based deallocation
    frees buffers at the end of the block that allocated them: in a network
    every activation and im2col buffer of a function then lives until it
    returns, tens of megabytes that are never reused within a call and
    evict each other from the caches. This pass moves a `memref.dealloc` of
    a `memref.alloc` in the same block up to just after the last op of
    that block that uses the buffer or a view of it (uses nested in loops
    count as the loop). Buffers whose views are returned or yielded, whose
    address is taken (boxing a tensor into an ADT or a closure), or from
    which an op other than a view or cast derives a buffer (unknown
    aliasing) are left where they are.

    ```mlir
    %a = memref.alloc() : memref<64xf32>
    linalg.fill ins(%z : f32) outs(%a : memref<64xf32>)
    "use"(%a) : (memref<64xf32>) -> ()
    %b = memref.alloc() : memref<64xf32>
    ...
    memref.dealloc %a : memref<64xf32>
    // becomes: memref.dealloc %a right after "use", before %b's alloc
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
  let statistics = [
    Statistic<"numHoisted", "hoisted", "Deallocations moved up">,
  ];
}

def ParallelizeLoops : Pass<"relay-parallelize-loops", "::mlir::func::FuncOp"> {
  let summary = "Turn loops marked as having independent iterations into "
                "scf.forall";
  let description = [{
    Runs in `--relay-to-llvm` with threads, after bufferization and buffer
    deallocation. The lowering marks loops whose iterations read shared
    data and write disjoint parts of their outputs with
    `relay.independent_iterations` (the row bands of a convolution whose
    im2col matrix is built band by band). Such an `scf.for` without
    results becomes an `scf.forall` with the same bounds and body, which
    the async lowering runs on the worker threads; each iteration keeps its
    own temporary buffers (allocated and freed in the body). Marking the
    tensor-level loop and converting the bufferized one keeps upstream's
    buffer deallocation, which does not take `scf.forall` with buffers
    allocated inside, on an `scf.for`.

    ```mlir
    scf.for %i = %c0 to %c56 step %c8 { ... } {relay.independent_iterations}
    // becomes
    scf.forall (%i) = (0) to (56) step (8) { ... }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
  let statistics = [
    Statistic<"numParallelized", "parallelized", "Loops made parallel">,
  ];
}

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

def ElideCallCopies : Pass<"relay-elide-call-copies", "::mlir::ModuleOp"> {
  let summary = "Pass a buffer itself, not a fresh copy, to a function that "
                "only reads it";
  let description = [{
    Runs in `--relay-to-llvm` right after one-shot bufferization. Within a
    recursive group of functions (a TreeLSTM's `@tree_lstm` -> `@map` ->
    closure -> `@tree_lstm`) bufferization cannot analyse a callee before
    its caller, so it assumes the callee writes every buffer argument and
    copies each one into a fresh buffer before the call: the TreeLSTM copied
    its 97 KB of weights several times per tree node.

    This pass decides, for every function with a body, which buffer
    arguments it only reads: the argument and the views of it are only read
    (loads, vector reads, linalg inputs, copy sources, metadata, boxing by
    `relay_rt_box`, which copies) or passed to arguments of functions that
    only read them, never written, returned, yielded or stored. It starts
    from "all only read" and drops arguments until nothing changes (a
    fixpoint, so recursion is handled). Then a call operand that is a fresh
    `memref.alloc` used only as the target of one `memref.copy` and by the
    call, passed to an argument that is only read, with nothing but
    allocations, copies into them and effect-free ops between the copy and
    the call, becomes the copy's source: the allocation and the copy go.

    ```mlir
    %tmp = memref.alloc() : memref<256x64xf32>
    memref.copy %w, %tmp : memref<256x64xf32> to memref<256x64xf32>
    %r = call @tree_lstm(%t, %tmp) : ...
    // becomes, when @tree_lstm only reads its second argument,
    %r = call @tree_lstm(%t, %w) : ...
    ```
  }];
  let statistics = [
    Statistic<"numElided", "elided", "Copies before calls removed">,
  ];
}

def LimitCopyUnrolling
    : Pass<"relay-limit-copy-unrolling", "::mlir::func::FuncOp"> {
  let summary = "Keep LLVM from unrolling nests of copy loops into one huge "
                "basic block";
  let description = [{
    Runs in `--relay-to-llvm` just before `scf` becomes `cf`. LLVM unrolls
    every loop with a small constant trip count completely, innermost
    first, so a nest of such loops becomes one straight block: an im2col
    copy of an 8-channel image (nine taps, 8 channels, 16 rows, two 32-lane
    halves) was a block of 9,235 instructions, whose machine scheduling
    (quadratic in a block's memory operations) took 40 of RAFT-small's 54
    seconds of code generation, for code no faster than a loop.

    So a loop of at most 64 iterations without loop-carried values (a copy
    or an elementwise loop, never a reduction's, whose unrolling the
    products' register tiles rely on) whose complete unrolling would give
    more than 512 operations (its trip count times its body, nested loops
    counted at their own unrolled size where they stay under the bound,
    else at their body's) gets the annotation `llvm.loop_annotation = #llvm.loop_annotation<unroll =
    <disable = true>>`, which `--relay-convert-cf-to-llvm` puts on the
    loop's back edge as `llvm.loop.unroll.disable`. The loops inside it
    still unroll. Longer loops are not annotated (LLVM unrolls those
    completely only when their body is a few instructions, and the
    annotation would also stop their partial unrolling).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let statistics = [
    Statistic<"numLimited", "limited", "Loops kept from unrolling">,
  ];
}

def OutlineLoops : Pass<"relay-outline-loops", "::mlir::ModuleOp"> {
  let summary = "Move each outermost loop nest into a function of its own, "
                "one function per distinct nest";
  let description = [{
    Runs in `--relay-to-llvm` after buffer deallocation, before the
    lowering to loops and LLVM. A network's entry function holds every
    operator's loops, a thousand loop nests in one function: LLVM's loop
    passes (induction variable simplification, through scalar evolution's
    dominance queries) take time that grows with the function, half of
    ResNet-18's compile time, and the same convolution appears once per
    layer of a stage. This pass replaces each outermost loop nest
    (`scf.for`, `scf.forall`, `scf.parallel`, `scf.while`, a linalg op)
    with a call of a private `noinline` function whose parameters are the
    values the nest uses from outside, apart from constants, which are
    cloned in. Nests whose functions print the same (op for op, ignoring
    locations) share one function: layers of the same shape compile once.
    The functions are marked `relay.loop_nest`: they call nothing of the
    program's, and the JIT compiles them on other threads. A nest that
    carries AMX tiles in or out (the k loop of a product on tiles whose
    blocks' loop had one iteration and folded away) stays where it is:
    tiles cannot cross a call.

    ```mlir
    func.func @main(%a: memref<8xf32>, %b: memref<8xf32>) {
      scf.for %i = %c0 to %c8 step %c1 { ... %a ... }
      scf.for %i = %c0 to %c8 step %c1 { ... %b ... }
    }
    // becomes
    func.func @main(%a: memref<8xf32>, %b: memref<8xf32>) {
      call @relay_loop_nest(%a) : (memref<8xf32>) -> ()
      call @relay_loop_nest(%b) : (memref<8xf32>) -> ()
    }
    func.func private @relay_loop_nest(%arg0: memref<8xf32>)
        attributes {passthrough = ["noinline"], relay.loop_nest} { ... }
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
  let statistics = [
    Statistic<"numNests", "nests", "Loop nests outlined">,
    Statistic<"numFunctions", "functions", "Functions made for them">,
  ];
}

def ApproximateMath : Pass<"relay-approximate-math", "::mlir::func::FuncOp"> {
  let summary = "Replace f32 transcendental functions with polynomial "
                "approximations that vectorise";
  let description = [{
    Runs in `--relay-to-llvm` after `--relay-tile-and-vectorize`. LLVM
    compiles `math.tanh`, `math.exp`, `math.log` and the like on vectors
    into one libm call per element; sigmoid, tanh and softmax in recurrent
    cells and attention then cost more than the products around them. This
    pass rewrites those ops on f32 scalars and vectors (`tanh`, `exp`,
    `expm1`, `log`, `log1p`, `log2`, `erf`) with MLIR's polynomial
    approximations (upstream's patterns: range reduction plus a minimax
    polynomial, a few ulp from the exact result, with infinities, NaNs,
    overflow and underflow kept), which stay in vector registers. Ops on
    other element types are left for `--convert-math-to-libm`. The inverse
    hyperbolic functions (`asinh`, `acosh`, `atanh`), which neither LLVM
    intrinsics nor the libm lowering take on vectors, are expanded into
    `log` and `sqrt` (upstream's expansion patterns) first.

    ```mlir
    %y = math.tanh %x : vector<16xf32>
    // becomes clamps, multiplies and adds on vector<16xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect"
  ];
}

//===----------------------------------------------------------------------===//
// Simplification (transforms/Simplify)
//===----------------------------------------------------------------------===//

def DeadCodeElimination
    : Pass<"relay-dead-code-elimination", "::mlir::ModuleOp"> {
  let summary = "Remove unused bindings, closures and functions, soundly "
                "with references and effects";
  let description = [{
    TVM's DeadCodeElimination. A binding (an op's result) nobody uses is
    removed when evaluating it has no effect: operators, tuples,
    constants, closures (`relay.fn`: making one does nothing), an `if` or
    `match` whose branches have none, a call or application whose callee
    touches no reference. A `ref_write`, a call of a function that writes a
    reference (or applies an unknown closure) and whatever they depend on
    stay (TVM's DCE once dropped such writes, apache/tvm#6803).

    Global functions that the entry functions (`entry-functions`, by
    default `main`) do not reach through calls and global references are
    removed; a module without any of the entry functions keeps every public
    function and what they reach.

    With `inline-once`, as TVM's option, a binding used once is inlined
    where it is used: every value here is an SSA value already, printed
    there by --export-relay, so what remains is a closure bound once and
    applied once: its body is inlined at the application
    (`let %f = fn (%y) { e }; %f(1)` becomes `e` with `%y` = 1).

    ```mlir
    relay.func @main(%z: tensor<i32>) -> tensor<i32> {
      %x = relay.constant dense<1> : tensor<i32>
      relay.return %z : tensor<i32>
    }
    // becomes
    relay.func @main(%z: tensor<i32>) -> tensor<i32> {
      relay.return %z : tensor<i32>
    }
    ```
  }];
  let options = [
    Option<"inlineOnce", "inline-once", "bool", /*default=*/"false",
           "Inline a closure bound once and applied once at its "
           "application">,
    ListOption<"entryFunctions", "entry-functions", "std::string",
               "The functions the program is called through (default: "
               "main)">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let statistics = [
    Statistic<"numBindings", "bindings", "Unused bindings removed">,
    Statistic<"numFunctions", "functions", "Unreachable functions removed">,
    Statistic<"numInlined", "inlined", "Closures inlined at their one use">,
  ];
}

def FoldConstant : Pass<"relay-fold-constant", "::mlir::ModuleOp"> {
  let summary = "Evaluate the operators of constants at compile time";
  let description = [{
    TVM's FoldConstant. Every operator whose operands are all constants
    (tuples of constants included) is evaluated with its reference kernel
    (the interpreter's, runtime/Interpreter) and replaced by the constant
    it computes; tuples of constants and projections out of them fold
    along, and an `if` on a constant condition is replaced by its taken
    branch. References, calls and applications are never evaluated, so no
    effect moves to compile time. A result of more than `max-elements`
    elements is left to run time (a folded tensor is stored in the
    program), and so is an operator whose kernel reports an error (an
    integer division by zero fails when the program runs, as it would
    have).

    ```mlir
    %a = relay.constant dense<2.0> : tensor<f32>
    %b = relay.constant dense<3.0> : tensor<f32>
    %c = relay.multiply %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    // becomes
    %c = relay.constant dense<6.0> : tensor<f32>
    ```
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t", /*default=*/"1 << 22",
           "The largest tensor (in elements) a fold may produce">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let statistics = [
    Statistic<"numFolded", "folded", "Operators evaluated">,
    Statistic<"numBranches", "branches", "Conditionals decided">,
  ];
}

def SimplifyInference : Pass<"relay-simplify-inference", "::mlir::ModuleOp"> {
  let summary = "Rewrite the training-time normalisations for inference";
  let description = [{
    TVM's SimplifyInference: the operators that behave differently in
    training become arithmetic on their inference semantics, which later
    passes fold (--relay-fold-constant with constant statistics) and fuse.
    `nn.batch_norm` becomes `x * scale + shift` along its axis, with
    `scale = gamma / sqrt(var + epsilon)` and `shift = beta - mean * scale`
    (its other results are the moving statistics, passed through);
    `nn.dropout` the identity (its mask ones); `nn.layer_norm`,
    `nn.instance_norm`, `nn.group_norm` and `nn.l2_normalize` means,
    deviations and square roots. Ops whose shapes are not static are left
    alone.

    ```mlir
    %t = relay.nn.batch_norm %x, %g, %b, %m, %v {epsilon = 1.0e-05 : f64} : ...
    // becomes (axis 1 of NCHW)
    %s = relay.divide %g, (relay.sqrt (relay.add %v, eps))
    %y = relay.add (relay.multiply %x, (relay.expand_dims %s ...)), ...
    ```
  }];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

def CanonicalizeOps : Pass<"relay-canonicalize-ops", "::mlir::ModuleOp"> {
  let summary = "Rewrite special operators into basic ones";
  let description = [{
    TVM's CanonicalizeOps: `nn.bias_add` becomes `expand_dims` of the bias
    (to broadcast along its axis) and `add`, which FoldScaleAxis, fusion
    and constant folding treat like any broadcast.

    ```mlir
    %y = relay.nn.bias_add %x, %b : (tensor<1x16x8x8xf32>, tensor<16xf32>) -> ...
    // becomes
    %e = relay.expand_dims %b {axis = 1 : i64, num_newaxis = 2 : i64} : ...
    %y = relay.add %x, %e : (tensor<1x16x8x8xf32>, tensor<16x1x1xf32>) -> ...
    ```
  }];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

def SimplifyExpr : Pass<"relay-simplify-expr", "::mlir::ModuleOp"> {
  let summary = "Simplify reshape and transpose chains, identities and "
                "casts";
  let description = [{
    TVM's SimplifyExpr: consecutive reshape-like ops (reshape, squeeze,
    expand_dims, batch_flatten) become one reshape, and a reshape to the
    operand's own type goes; consecutive transposes compose into one, and
    the identity permutation goes; `x * 1`, `1 * x`, `x / 1`, `x + 0`,
    `0 + x` and `x - 0` (a splat constant that does not broadcast `x`) are
    `x`; a cast to the operand's own type goes, and a cast of a widening
    cast (to a wider type of the same kind) casts the original value. An
    `nn.conv2d` (NCHW, OIHW) whose kernel has rows or columns of taps that
    read only its padding for every output (a dilation as large as the map,
    as DeepLabV3's atrous pyramid has on small inputs) takes the live taps'
    weights (a `strided_slice`, folded where they are constant) and only the
    padding they read. One whose outer taps reach the image from only some
    outputs, so that at most two thirds of its products read the image
    (dilation 12 or 24 on a 28x28 map), becomes one unpadded convolution per
    region of outputs that read it with the same taps, on the window of the
    image that region reads, concatenated.

    ```mlir
    %a = relay.reshape %x {newshape = array<i64: 6>} : (tensor<2x3xf32>) -> tensor<6xf32>
    %b = relay.reshape %a {newshape = array<i64: 3, 2>} : (tensor<6xf32>) -> tensor<3x2xf32>
    // becomes
    %b = relay.reshape %x {newshape = array<i64: 3, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
    ```
  }];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

//===----------------------------------------------------------------------===//
// Combining ops with their neighbours (transforms/Combine)
//===----------------------------------------------------------------------===//

def FoldScaleAxis : Pass<"relay-fold-scale-axis", "::mlir::ModuleOp"> {
  let summary = "Fold per-channel scales into convolution and dense weights "
                "(TVM's FoldScaleAxis)";
  let description = [{
    A multiplication by a constant that varies along one axis only (a
    channel scale, as a batch norm leaves after --relay-simplify-inference)
    is folded into the weights of the product beside it:

    - backward, a scale of the output of `nn.conv2d` (along its output
      channels), `nn.dense` or `nn.matmul` (along the units), through
      `nn.bias_add` and `add`/`subtract` (the other side is scaled too, or
      takes the scale itself when it is a product) and `nn.relu` (a
      positive scale only): `conv2d(x, w) * s` is `conv2d(x, w * s)`;
    - forward, a scale of the input of `nn.conv2d` (plain or depthwise) or
      `nn.dense` along its channels, through `nn.relu` (positive scale) and
      an added shift (non-zero scale): `conv2d(relu(x * s + t), w)` is
      `conv2d(relu(x + t / s), w * s)` (TVM's pre-activation case, a batch
      norm before the convolution).

    Every value on the way must have no other use. Constants are folded
    (--relay-fold-constant) before, so that a batch norm's scale is one,
    and after, so that the scaled weights are. A scale that cannot be
    folded is left where it is.

    ```mlir
    %c = relay.nn.conv2d %x, %w : ...
    %y = relay.multiply %c, %s : (tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) -> ...
    // becomes
    %y = relay.nn.conv2d %x, %w2 : ...   // %w2 = %w scaled, a constant
    ```
  }];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let statistics = [
    Statistic<"numFolded", "folded", "Scales folded into weights">,
  ];
}

def CombineParallelConv2d : Pass<"relay-combine-parallel-conv2d", "::mlir::ModuleOp"> {
  let summary = "Combine parallel nn.conv2d ops on one input into one (TVM's "
                "CombineParallelConv2D)";
  let description = [{
    `nn.conv2d` ops (groups 1, an Inception block's 1x1 convolutions) become
    one convolution on their kernels concatenated along the output channels
    (the kernel layout's O), split along the result's channel axis.
    Branches are joined when they read the same input, have the same
    attributes but the output size and weights of one type but along the
    joined axis, and the other branches' weights exist where the first
    branch is; fewer than `min-num-branches` such branches are left alone.
    Each branch's result becomes a `strided_slice` of the joined op's.
  }];
  let options = [
    Option<"minNumBranches", "min-num-branches", "int64_t", /*default=*/"3",
           "The fewest branches worth joining">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let statistics = [
    Statistic<"numCombined", "combined", "Ops joined with others">,
  ];
}

def CombineParallelDense : Pass<"relay-combine-parallel-dense", "::mlir::ModuleOp"> {
  let summary = "Combine parallel nn.dense ops on one input into one (TVM's "
                "CombineParallelDense)";
  let description = [{
    `nn.dense` ops become one on their weights concatenated along the units
    (TVM's `to_batch=False` form), split along the result's last axis.
    Branches are joined when they read the same input, have the same
    attributes but the output size and weights of one type but along the
    joined axis, and the other branches' weights exist where the first
    branch is; fewer than `min-num-branches` such branches are left alone.
    Each branch's result becomes a `strided_slice` of the joined op's.
  }];
  let options = [
    Option<"minNumBranches", "min-num-branches", "int64_t", /*default=*/"3",
           "The fewest branches worth joining">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let statistics = [
    Statistic<"numCombined", "combined", "Ops joined with others">,
  ];
}

def CombineParallelBatchMatmul : Pass<"relay-combine-parallel-batch-matmul", "::mlir::ModuleOp"> {
  let summary = "Combine parallel nn.batch_matmul ops on one input into one (TVM's "
                "CombineParallelBatchMatmul)";
  let description = [{
    `nn.batch_matmul` ops (not transposing their first operand) become one
    on their second operands concatenated along N, split along the
    result's last axis (an attention layer's query, key and value
    projections).
    Branches are joined when they read the same input, have the same
    attributes but the output size and weights of one type but along the
    joined axis, and the other branches' weights exist where the first
    branch is; fewer than `min-num-branches` such branches are left alone.
    Each branch's result becomes a `strided_slice` of the joined op's.
  }];
  let options = [
    Option<"minNumBranches", "min-num-branches", "int64_t", /*default=*/"3",
           "The fewest branches worth joining">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let statistics = [
    Statistic<"numCombined", "combined", "Ops joined with others">,
  ];
}

//===----------------------------------------------------------------------===//
// Layouts (transforms/Layout)
//===----------------------------------------------------------------------===//

def ConvertLayout : Pass<"relay-convert-layout", "::mlir::ModuleOp"> {
  let summary = "Convert ops to the data layouts asked for (TVM's "
                "ConvertLayout)";
  let description = [{
    Each op named in `desired-layouts` (`nn.conv2d:NHWC:HWIO`,
    `nn.conv2d:NHWC` or `nn.conv2d:NHWC:default` for TVM's default kernel
    layout, `nn.max_pool2d:NHWC`) takes that layout. The ops after it follow
    through their registry rules ("infer_layout", transforms/Layout/
    LayoutRules.h): elementwise and broadcast ops (a lower-rank operand,
    such as a bias, is broadcast to the full rank and transformed too),
    bias_add and prelu (axis renamed), reductions over axes, concatenate,
    pooling. `layout_transform`s are inserted where a value meets an op that
    needs it in another layout (the edges of the converted region: the
    function's inputs and result, a reshape), once per value and layout;
    transforms that undo each other cancel. A weight's transform is a
    transform of a constant, which --relay-fold-constant folds. An op whose
    rule cannot follow, or whose relation rejects the new layout, reads its
    operands in their original layouts.

    A malformed entry, an unknown op, an op without a layout, or a layout
    that is not a permutation of the op's is an error.
  }];
  let options = [
    ListOption<"desiredLayouts", "desired-layouts", "std::string",
               "OP:DATA_LAYOUT[:KERNEL_LAYOUT] entries (kernel layout "
               "'default': HWIO for NHWC, OIHW for NCHW)">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let statistics = [
    Statistic<"numConverted", "converted", "Ops in a new layout">,
  ];
}

def AlterOpLayout : Pass<"relay-alter-op-layout", "::mlir::ModuleOp"> {
  let summary = "Put ops in the layouts the target's kernels want (TVM's "
                "AlterOpLayout)";
  let description = [{
    Asks each op's "alter_layout:<target>" registry rule which layouts the
    target wants it in, and converts it as --relay-convert-layout does
    (the ops after it follow; transforms at the edges). The CPU target
    (registered by its code generation) wants convolutions in NCHW/OIHW and
    pooling in NCHW, the layouts its kernels (packed, Winograd, depthwise
    row kernels) are built for: an NHWC network (from TensorFlow, or after
    --relay-convert-layout) then runs on them, a grouped NHWC convolution
    included, which the CPU lowering does not take as it is.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "The target whose rules are asked">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let statistics = [
    Statistic<"numConverted", "converted", "Ops in a new layout">,
  ];
}

//===----------------------------------------------------------------------===//
// Fusion (transforms/Fusion)
//===----------------------------------------------------------------------===//

def FuseOps : Pass<"relay-fuse-ops", "::mlir::ModuleOp"> {
  let summary = "Group operators into primitive functions over the "
                "post-dominator tree (TVM's FuseOps)";
  let description = [{
    TVM's operator fusion. Within each block (a function body, a branch, a
    closure body) the dataflow graph of its operators, tuples and
    projections is built, with each edge's pattern kind from the operator
    registry (elemwise, broadcast, injective, reduction,
    out-elemwise-fusable, tuple, opaque), and its post-dominator tree. Then,
    in three phases as TVM's GraphPartitioner: an out-elemwise-fusable op
    (conv2d, dense) takes the elementwise and broadcast ops up to its
    post-dominator (its epilogue); elementwise and broadcast ops join an
    injective or reduction post-dominator when every path to it is
    injective; injective ops and tuples join an injective post-dominator;
    then injective ops join tuples already fused into injective consumers.
    Diamonds fuse when all their paths qualify. A group has at most
    `max-depth` ops.

    Each group with an operator becomes a private `relay.func` with the
    unit attribute `relay.primitive` (exported as TVM's `Primitive=1`),
    named after its ops (`fused_nn_conv2d_add_nn_relu`), called where the
    group's result was; constants the group uses are copied into it (its
    kernels see them, as weights). Calls, closures, `if`, `match` and
    references are not fused. `fuse-opt-level=0` puts each operator in its
    own function.

    ```mlir
    %c = relay.nn.conv2d %x, %w : ...
    %b = relay.add %c, %bias : ...
    %r = relay.nn.relu %b : ...
    // becomes
    %r = relay.call @fused_nn_conv2d_add_nn_relu(%x, %w, %bias) : ...
    relay.func private @fused_nn_conv2d_add_nn_relu(...) attributes {relay.primitive} { ... }
    ```
  }];
  let options = [
    Option<"fuseOptLevel", "fuse-opt-level", "int64_t", /*default=*/"1",
           "0: every operator its own group; 1 and above: TVM's fusion">,
    Option<"maxDepth", "max-depth", "int64_t", /*default=*/"256",
           "The most operators in one group">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let statistics = [
    Statistic<"numGroups", "groups", "Primitive functions made">,
    Statistic<"numFused", "fused", "Operators in them">,
  ];
}

def InlinePrimitives : Pass<"relay-inline-primitives", "::mlir::ModuleOp"> {
  let summary = "Inline the calls of primitive functions";
  let description = [{
    Replaces each call of a `relay.primitive` function by the function's
    body and erases the functions. The CPU pipeline runs it right before
    lowering: the CPU's kernels choose their form from an operator's
    neighbours (a 1x1 convolution feeding a depthwise one is computed
    window by window inside it), and its code generation fuses across the
    groups FuseOps made as well as inside them.

    ```mlir
    %r = relay.call @fused_add(%x, %y) : ...
    relay.func private @fused_add(%a, %b) attributes {relay.primitive} {
      %s = relay.add %a, %b : ...
      relay.return %s : ...
    }
    // becomes
    %r = relay.add %x, %y : ...
    ```
  }];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

//===----------------------------------------------------------------------===//
// Closures (transforms/Closure)
//===----------------------------------------------------------------------===//

def LambdaLift : Pass<"relay-lambda-lift", "::mlir::ModuleOp"> {
  let summary = "Lift local functions to global ones (TVM's LambdaLift)";
  let description = [{
    Every `relay.fn` in a monomorphic function becomes a private global
    function named `<outer>_lifted<N>`, innermost first, as TVM's
    LambdaLift does:

    - a closure that captures nothing becomes the global itself (its type
      parameters included), and `relay.global_ref @<outer>_lifted<N>` stands
      where it was made; inside a recursive one, the closure itself is that
      reference;
    - a closure that captures values becomes a global taking the captured
      values and returning the closure (unit attribute `relay.closure`,
      TVM's `Closure=1`), which now captures only its parameters; where it
      was made, a call of the global passes the values.

    Then the application of a global function's reference is a call of it.
    Closures in polymorphic functions are left where they are (a remark
    says so): run `--relay-specialize` first.

    ```mlir
    %f = relay.fn (%y: tensor<f32>) -> tensor<f32> { ... %x ... }
    // becomes
    %f = relay.call @main_lifted0(%x) : (tensor<f32>) -> !relay.fn<...>
    relay.func private @main_lifted0(%x: tensor<f32>) -> !relay.fn<...>
        attributes {relay.closure} {
      %0 = relay.fn (%y: tensor<f32>) -> tensor<f32> { ... %x ... }
      relay.return %0 : !relay.fn<...>
    }
    ```
  }];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let statistics = [
    Statistic<"numLifted", "lifted", "Local functions lifted">,
  ];
}

def Defunctionalize : Pass<"relay-defunctionalize", "::mlir::ModuleOp"> {
  let summary = "Closures as ADTs and apply functions: a first-order "
                "program (TVM's Defunctionalization)";
  let description = [{
    Runs `--relay-specialize`, then replaces every monomorphic closure type
    (its own function types converted first) by an ADT `@Closure<N>` with
    one constructor per function that makes a value of the type: each
    `relay.fn`, lifted into a global `@<outer>_lifted<M>` taking its
    captured values and then its parameters (the constructor stores the
    captured values), and each global function used as a value (a
    constructor without fields, named after it). Applying a closure whose
    constructor is in sight (a local function's recursive call, say) calls
    its code directly; any other application calls `@apply_Closure<N>`,
    which matches on the constructor. Function types inside tuples,
    references and ADTs are converted too, so no value of the result has a
    function type. The CPU pipeline runs it before lowering: a backend needs
    ADTs and calls, not closures.

    A closure that stays polymorphic, or one applied when the module makes
    no function of its type (a function argument of the entry point), is an
    error; so is a closure among the parameters of an entry function
    (`entry-functions`): its caller, outside the module, cannot make one.
    Given entry functions, the functions they do not reach are erased
    first: nothing runs them, and the closures an unreachable function
    applies may have been folded away with the code that made them.

    ```mlir
    %f = relay.fn (%y: tensor<f32>) -> tensor<f32> { ... %x ... }
    %r = relay.call @twice(%f, %z) : ...
    // becomes
    relay.data @Closure0 { relay.ctor @main_lifted0(tensor<f32>) }
    %f = relay.construct @Closure0::@main_lifted0(%x) : ...
    %r = relay.call @twice(%f, %z) : ...
    // and in @twice, relay.apply %g(%v) is
    %a = relay.call @apply_Closure0(%g, %v) : ...
    ```
  }];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let options = [
    ListOption<"entryFunctions", "entry-functions", "std::string",
               "Functions called from outside the module, whose parameters "
               "may not be closures; the functions they do not reach are "
               "erased">
  ];
  let statistics = [
    Statistic<"numClosureTypes", "closure-types",
              "Closure types made ADTs">,
    Statistic<"numUnreachable", "unreachable-functions",
              "Functions no entry function reaches, erased">,
  ];
}

//===----------------------------------------------------------------------===//
// Automatic differentiation (transforms/AutoDiff)
//===----------------------------------------------------------------------===//

def Gradient : Pass<"relay-gradient", "::mlir::ModuleOp"> {
  let summary = "Reverse-mode gradient of a function (seed 000 Fig. 4, or "
                "TVM's first-order gradient)";
  let description = [{
    Adds `@<func>_grad`, which takes `func`'s parameters and returns
    `(func(x...), (d/dx1, ..., d/dxn))` with the result (a floating-point
    tensor or a tuple of them) seeded by ones: TVM's contract. Each
    operator's adjoint comes from its rule in the registry's gradient column
    (transforms/AutoDiff/GradientRules.h; a user adds rules for their
    operators there); the operators without a rule on the differentiated
    path are reported together, each at its location. Integer and boolean
    parameters get zeros.

    `mode=higher-order` (the default) covers the whole language: `if`,
    `match`, global, local and mutual recursion, closures passed in and
    returned, tuples, ADTs and references. Every function `func` reaches
    gets a private copy `@<g>_ad` over AD values (a floating-point tensor
    paired with a reference to its gradient; an ADT whose fields change
    gets a copy `@<name>_ad`) taking the backpropagator, a reference to the
    closure that runs the backward pass so far, which each operator extends
    (seed 000 Fig. 4). Polymorphic functions are specialised first
    (--relay-specialize). The parameters of `func` are tensors or tuples of
    them. --relay-partial-eval and --relay-dead-code-elimination make the
    result first order again where the program is.

    `mode=first-order` is the fast path for first-order code and creates no
    closures or references: `func` takes tensors and is built from
    operators, constants, tuples and projections; its body is the forward
    computation then the adjoints in reverse order. Any other construct (a
    call: inline it first; `if`, `match`, closures, references) is an error
    at it.

    ```mlir
    relay.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
      %y = relay.exp %x : ...
    }
    // adds
    relay.func @f_grad(%x: tensor<3xf32>)
        -> tuple<tensor<3xf32>, tuple<tensor<3xf32>>> { ... }
    ```
  }];
  let options = [
    Option<"func", "func", "std::string", "\"main\"",
           "The function to differentiate">,
    Option<"mode", "mode", "std::string", "\"higher-order\"",
           "'higher-order' (the whole language) or 'first-order'">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

def ForwardAD : Pass<"relay-forward-ad", "::mlir::ModuleOp"> {
  let summary = "Forward-mode derivative (Jacobian-vector product) by dual "
                "numbers over the whole language";
  let description = [{
    Adds `@<func>_jvp(x..., dx...)`, which returns `(func(x...), J dx)`:
    the value and its directional derivative along the tangents `dx` (one
    per parameter, of its type). Every function `func` reaches gets a
    private copy `@<g>_dual` over dual values (a floating-point tensor
    paired with its tangent; an ADT whose fields change gets a copy
    `@<name>_dual`); `if`, `match`, recursion, closures, tuples, ADTs and
    references carry over. Each operator's tangent comes from its rule in
    the registry's tangent column (transforms/AutoDiff/GradientRules.h);
    the operators without one are reported together. Polymorphic functions
    are specialised first.

    Over a gradient it gives second derivatives: `--relay-gradient
    --relay-forward-ad=func=main_grad` adds `@main_grad_jvp(x, v)`, whose
    tangent holds the Hessian-vector product H v (forward over reverse).
  }];
  let options = [
    Option<"func", "func", "std::string", "\"main\"",
           "The function to differentiate">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

//===----------------------------------------------------------------------===//
// Partial evaluation (transforms/PartialEval)
//===----------------------------------------------------------------------===//

def PartialEval : Pass<"relay-partial-eval", "::mlir::ModuleOp"> {
  let summary = "Online partial evaluation: closures applied, references "
                "read and written, and static control decided at compile "
                "time (seed 000 §4.3, TVM's PartialEvaluate)";
  let description = [{
    Evaluates each function's body with its parameters unknown. Values are
    partially static: tuples, constructors, closures, global functions and
    references known by their parts, small constants (folded through
    operators by the interpreter's kernels), tensors known to be zeros
    (`x + zeros_like(y)` is `x`). Applying a known closure or calling a
    global function unfolds its body; references are cells of a simulated
    store, so reads and writes of cells nothing unknown can reach disappear;
    `if` on a known condition and `match` on a known constructor take their
    branch. The rest is emitted as residual code in program order: a
    reference passed to residual code, or live when control becomes dynamic
    (a residual `if`/`match`, the body of a closure that stays a closure),
    becomes a real `relay.ref` there.

    A function or closure is unfolded again inside its own activation only
    when no dynamic branch lies between the two (recursion decided by known
    values, such as a constant trip count); recursion under a dynamic
    condition stays a call. `fuel` bounds the number of unfoldings and
    `max-depth` their nesting (tail calls, such as a backpropagator's chain,
    do not nest).

    Unused bindings are left for --relay-dead-code-elimination. After
    --relay-gradient, the two make the gradient of a first-order program
    first order again:

    ```
    fn (%d) { (%d, (ones_like(%d),)) }   // the identity's gradient
    ```
  }];
  let options = [
    Option<"fuel", "fuel", "int64_t", "1000000",
           "The most closure and function bodies unfolded per function">,
    Option<"maxDepth", "max-depth", "unsigned", "256",
           "The most unfoldings nested (not in tail position)">,
  ];
  let statistics = [
    Statistic<"numUnfolded", "unfolded", "Closure and function bodies unfolded">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

//===----------------------------------------------------------------------===//
// Quantization (transforms/Quantization)
//===----------------------------------------------------------------------===//

def ToMixedPrecision : Pass<"relay-to-mixed-precision", "::mlir::ModuleOp"> {
  let summary = "Compute convolutions and matrix products on 16-bit float "
                "operands with float32 accumulation (TVM's ToMixedPrecision)";
  let description = [{
    Each ungrouped `nn.conv2d`, each `nn.dense` and `nn.matmul` on
    float32 operands with a float32 result
    takes its operands rounded to `mixed-precision-type` (`bfloat16`, the
    default, or `float16`) and sums in float32: its operands are cast, and
    `out_dtype` is float32, so its result and everything after it stay
    float32. Constant operands (weights) are rounded once, here, to
    constants of the narrow type (round to nearest even); others get a
    `cast`. What is not a product keeps float32: elementwise operators,
    normalisations, reductions and the memory-bound depthwise and grouped
    convolutions gain nothing from narrow operands on a CPU, only lose
    precision.

    On a CPU with AVX-512 BF16, --relay-to-llvm computes bfloat16 products
    with `vdpbf16ps` (two products summed per f32 lane); elsewhere the
    operands are widened and the float32 kernels compute the same values.

    ```mlir
    %y = relay.nn.dense %x, %w : (tensor<8x64xf32>, tensor<10x64xf32>) -> tensor<8x10xf32>
    // becomes
    %xb = relay.cast %x {dtype = bf16} : (tensor<8x64xf32>) -> tensor<8x64xbf16>
    %wb = relay.constant dense<...> : tensor<10x64xbf16>
    %y = relay.nn.dense %xb, %wb {out_dtype = f32} : (tensor<8x64xbf16>, tensor<10x64xbf16>) -> tensor<8x10xf32>
    ```

    Run it on a typed program (--relay-infer-types); ops whose types are
    not known are left as they are.
  }];
  let options = [
    Option<"mixedPrecisionType", "mixed-precision-type", "std::string",
           /*default=*/"\"bfloat16\"",
           "The operands' type: bfloat16 or float16">
  ];
}

def FakeQuantizationToInteger
    : Pass<"relay-fake-quantization-to-integer", "::mlir::ModuleOp"> {
  let summary = "Rewrite the float operators between dequantize and quantize "
                "ops as integer operators (TVM's FakeQuantizationToInteger)";
  let description = [{
    A model quantized elsewhere and exported with quantize/dequantize pairs
    around float operators (ONNX's QuantizeLinear/DequantizeLinear, as
    PyTorch and ONNX Runtime write them) computes in float. For each
    `qnn.quantize`, the operators between it and the `qnn.dequantize` ops
    its input comes from are rewritten on the integers, each value an
    integer tensor with a scale and a zero point: conv2d and dense become
    qnn.conv2d/qnn.dense into int32 (per output channel where the weight
    is), batch_matmul (two activations: attention's products) qnn.batch_matmul
    (per tensor); bias_add, and add of a float constant, add the bias quantized at
    the accumulator's scale; add and subtract become qnn.add/qnn.subtract
    at the quantize's parameters where it reads them, else are computed in
    int32 at the smaller operand scale; relu and clip clip at the quantized
    bounds; max pooling, reshapes, transposes, squeeze, expand_dims,
    batch_flatten, strided_slice, pad, dropout and broadcast_to keep the
    parameters; average pooling sums in int32. The quantize becomes a qnn.requantize
    to its parameters (nothing where they agree). A subgraph with another
    operator, or whose scales and zero points are not constants, stays in
    float (an error naming the operator with hard-fail). At -O3 it runs
    before the qnn operators are canonicalized.

    ```mlir
    %x = relay.qnn.dequantize %a, %sa, %za : ... -> tensor<1x3x8x8xf32>
    %w = relay.qnn.dequantize %wq, %sw, %zw : ... -> tensor<4x3x3x3xf32>
    %c = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>} : ...
    %r = relay.nn.relu %c : ...
    %q = relay.qnn.quantize %r, %s, %z {out_dtype = ui8} : ...
    // becomes
    %c = relay.qnn.conv2d %a, %wq, %za, %zw, %sa, %sw {out_dtype = i32, ...}
    %r = relay.nn.relu %c
    %q = relay.qnn.requantize %r, %sa_sw, %0, %s, %z {out_dtype = ui8}
    ```
  }];
  let options = [
    Option<"hardFail", "hard-fail", "bool", /*default=*/"false",
           "A subgraph that cannot be rewritten is an error naming the "
           "operator (else it stays in float)">,
  ];
  let statistics = [
    Statistic<"numRewritten", "rewritten",
              "Quantize ops whose subgraph now computes in integers">,
    Statistic<"numLeftInFloat", "left-in-float",
              "Quantize ops whose subgraph stays in float">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

def QnnCanonicalize : Pass<"relay-qnn-canonicalize", "::mlir::ModuleOp"> {
  let summary = "Rewrite the quantized operators into integer arithmetic on "
                "primitive operators (TVM's qnn CanonicalizeOps)";
  let description = [{
    Every `qnn.*` operator whose scales and zero points are constants and
    whose shapes are static becomes Relay's primitive operators, computing
    what the interpreter's kernel computes:

    - `qnn.quantize`: `cast(clip(round(x / scale) + zero_point))`;
      `qnn.dequantize`: `(cast(x, float32) - zero_point) * scale`.
    - `qnn.requantize`: TVM's fixed-point multiply in int64 (left shift,
      multiply by the 31-bit significand, add the rounding term of
      `rounding`, right shift), or the product in float32/float64 for those
      `compute_dtype`s, then the output zero point, clip and cast. Where
      that is exact (UPWARD rounding, no left shift, a total right shift n
      of 33 to 63 in every channel, an input that fits 32 bits: a
      requantized product's case), only the product is int64: its high
      half `(t * m) >> 32` is cast to int32 and the rest is int32,
      `(high + 2^(n-33)) >> (n - 32)`, which vectorises eight lanes at a
      time on AVX2 where int64 shifts and clamps take four.
    - `qnn.conv2d`, `qnn.dense`, `qnn.batch_matmul`: the float operator
      with `out_dtype` int32 on the operands themselves where both zero
      points are 0 and the dtypes agree (the int8 kernels), else on the
      operands minus their zero points in int32 (the kernel's per output
      channel).
    - `qnn.add`, `qnn.subtract`: each operand requantized to the output's
      scale and zero point in int32 (only cast where its parameters are
      the output's), added or subtracted, the zero point corrected, clipped;
      `qnn.mul`: the zero-point-shifted product requantized from the
      scale `lhs_scale * rhs_scale` (scalar scales only).
    - `qnn.concatenate`: the inputs whose parameters differ from the
      output's requantized, then concatenate.
    - `relay.op.annotation.simulated_quantize`: its float arithmetic
      `round(clip(x / s, lo, hi)) * s` (kind 0: the identity).

    Scales and zero points known only at run time are read as operands
    where the arithmetic is float and in the products' zero points; the
    int64 requantize, add, subtract, mul and concatenate need constants
    and are left as they are otherwise. --relay-to-llvm runs it after
    specialisation and again after FoldConstant.

    ```mlir
    %y = relay.qnn.dequantize %x, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
    // becomes
    %0 = relay.cast %x {dtype = f32} : (tensor<4xi8>) -> tensor<4xf32>
    %1 = relay.subtract %0, %zf : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    %y = relay.multiply %1, %s : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

def QuantizeAnnotate : Pass<"relay-quantize-annotate", "::mlir::ModuleOp"> {
  let summary = "Mark where values are quantized with simulated_quantize "
                "(TVM's QAnnotate)";
  let description = [{
    Inserts `relay.op.annotation.simulated_quantize` (kind 1 input, 2
    weight, 3 activation) around the operators Relay quantizes: the data
    and weight of nn.conv2d (and nn.dense unless skip-dense-layer), the
    operands of add and multiply, through relu, clip, reshape-like
    operators and pooling, by TVM's annotate rules (see Annotate.cpp). A
    consumer without a rule reads annotated values through an input
    simulated_quantize, and a remark says that it stays in float (the
    statistics count them: -mlir-pass-statistics); nothing after a global
    average pooling is quantized. Scales are 1.0 until
    --relay-quantize-calibrate sets them.
  }];
  let options = [
    Option<"nbitInput", "nbit-input", "int64_t", /*default=*/"8",
           "Bits of the quantized inputs of convolutions and products">,
    Option<"nbitWeight", "nbit-weight", "int64_t", /*default=*/"8",
           "Bits of the quantized weights">,
    Option<"nbitActivation", "nbit-activation", "int64_t", /*default=*/"32",
           "Bits of the quantized results (accumulators)">,
    ListOption<"skipConvLayers", "skip-conv-layers", "std::string",
               "Indices (program order) of the nn.conv2d left in float, or "
               "none (default: 0, the first)">,
    Option<"skipDenseLayer", "skip-dense-layer", "bool", /*default=*/"true",
           "Leave every nn.dense in float">,
    Option<"rules", "rules", "std::string", /*default=*/"\"\"",
           "A file of quantization rules (`<operator> <rule>` per line) "
           "adding to or overriding the built-in ones">,
  ];
  let statistics = [
    Statistic<"quantizedOperators", "quantized-operators",
              "Operators computing on quantized values">,
    Statistic<"floatOperators", "float-operators",
              "Operators quantized values reach that stay in float (no "
              "rule; each also a remark)">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

def QuantizeCalibrate : Pass<"relay-quantize-calibrate", "::mlir::ModuleOp"> {
  let summary = "Set the scales of the simulated quantizations (TVM's "
                "calibrate)";
  let description = [{
    Every simulated_quantize gets the domain scale r / 2^(nbit-1) and the
    clip bounds +-(2^(nbit-1) - 1) of its kind's bit width, r being the
    range of the value: a weight's largest magnitude (rounded up to a power
    of two with weight-scale=power2; the weight must be a constant; with
    per-channel, a convolution's or dense layer's weight gets one range
    per output channel, its scale a tensor that broadcasts along that
    axis), and
    for inputs and activations global-scale or, with calibration-data, what
    the float program computes there over the samples (run natively where
    the tool registers the JIT, as relay-mlir-opt does, else interpreted):
    the threshold of least KL divergence of a 255-level quantization of
    their histogram, or the 99.99th percentile of their magnitudes.
  }];
  let options = [
    Option<"nbitInput", "nbit-input", "int64_t", /*default=*/"8",
           "Bits of the quantized inputs of convolutions and products">,
    Option<"nbitWeight", "nbit-weight", "int64_t", /*default=*/"8",
           "Bits of the quantized weights">,
    Option<"nbitActivation", "nbit-activation", "int64_t", /*default=*/"32",
           "Bits of the quantized results (accumulators)">,
    Option<"calibrateMode", "calibrate-mode", "std::string",
           /*default=*/"\"global-scale\"",
           "How the ranges of inputs and activations are found: "
           "global-scale, or from calibration-data kl-divergence (the "
           "threshold of least KL divergence) or percentile (99.99th "
           "percentile of the magnitudes)">,
    Option<"calibrationData", "calibration-data", "std::string",
           /*default=*/"\"\"",
           "A directory of samples: .npy files (one input), or "
           "subdirectories of .npy files in parameter order">,
    Option<"globalScale", "global-scale", "double", /*default=*/"8.0",
           "The range of every input and activation with "
           "calibrate-mode=global-scale">,
    Option<"weightScale", "weight-scale", "std::string",
           /*default=*/"\"power2\"",
           "A weight's range: its largest magnitude (max) rounded up to a "
           "power of two (power2)">,
    Option<"perChannel", "per-channel", "bool", /*default=*/"false",
           "Scale the weights of convolutions and dense layers per output "
           "channel (each channel's own range) instead of one scale per "
           "tensor">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

def QuantizeRealize : Pass<"relay-quantize-realize", "::mlir::ModuleOp"> {
  let summary = "Turn calibrated simulated quantization into integer "
                "arithmetic (TVM's QRealize)";
  let description = [{
    Values behind simulated_quantize become integer tensors with a scale:
    convolutions and dense run on dtype-input data and dtype-weight
    weights into dtype-activation, add and multiply in dtype-activation,
    requantization between scales by qnn.requantize (TVM's fixed-point
    multiply), relu, clip, reshapes and max pooling on the integers; every
    other use reads the value dequantized (cast to float32 times its
    scale).
  }];
  let options = [
    Option<"dtypeInput", "dtype-input", "std::string", /*default=*/"\"int8\"",
           "The integer type of quantized inputs">,
    Option<"dtypeWeight", "dtype-weight", "std::string", /*default=*/"\"int8\"",
           "The integer type of quantized weights">,
    Option<"dtypeActivation", "dtype-activation", "std::string",
           /*default=*/"\"int32\"",
           "The integer type of quantized results">,
    Option<"rules", "rules", "std::string", /*default=*/"\"\"",
           "A file of quantization rules (`<operator> <rule>` per line) "
           "adding to or overriding the built-in ones">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

def QuantizePartition : Pass<"relay-quantize-partition", "::mlir::ModuleOp"> {
  let summary = "Split a quantized @main into @quantize_inputs, "
                "@quantized_main and @dequantize_outputs (TVM's "
                "partition_conversions)";
  let description = [{
    The conversions from each float input to the integers the program reads
    (chains of add, multiply, right_shift, clip, round and cast from one
    input) go to @quantize_inputs, which returns them as a tuple; the
    conversions of the integers the result is made of back to float go to
    @dequantize_outputs; the rest is @quantized_main; @main calls the three
    in turn. With fully-integral, @quantized_main may compute only values
    of the quantized dtypes and @dequantize_outputs only convert: the first
    value or operator that does not is the error (a layer left in float,
    an operator without a quantization rule).
  }];
  let options = [
    Option<"fullyIntegral", "fully-integral", "bool", /*default=*/"false",
           "Require the quantized part to compute in the quantized dtypes "
           "only">,
    Option<"dtypeInput", "dtype-input", "std::string", /*default=*/"\"int8\"",
           "A quantized dtype">,
    Option<"dtypeWeight", "dtype-weight", "std::string", /*default=*/"\"int8\"",
           "A quantized dtype">,
    Option<"dtypeActivation", "dtype-activation", "std::string",
           /*default=*/"\"int32\"", "A quantized dtype">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

def Quantize : Pass<"relay-quantize", "::mlir::ModuleOp"> {
  let summary = "Relay's quantization flow (TVM's relay.quantize.quantize)";
  let description = [{
    SimplifyInference, FoldConstant, FoldScaleAxis, CanonicalizeOps and
    FoldConstant, then --relay-quantize-annotate, -calibrate and -realize
    with the options below (TVM's qconfig), then FoldConstant. Weights must
    be constants (bound parameters) to be quantized.

    ```
    relay-mlir-opt model.mlir '--relay-quantize=skip-conv-layers=none global-scale=4'
    ```
  }];
  let options = [
    Option<"nbitInput", "nbit-input", "int64_t", /*default=*/"8",
           "Bits of the quantized inputs of convolutions and products">,
    Option<"nbitWeight", "nbit-weight", "int64_t", /*default=*/"8",
           "Bits of the quantized weights">,
    Option<"nbitActivation", "nbit-activation", "int64_t", /*default=*/"32",
           "Bits of the quantized results (accumulators)">,
    Option<"dtypeInput", "dtype-input", "std::string", /*default=*/"\"int8\"",
           "The integer type of quantized inputs">,
    Option<"dtypeWeight", "dtype-weight", "std::string", /*default=*/"\"int8\"",
           "The integer type of quantized weights">,
    Option<"dtypeActivation", "dtype-activation", "std::string",
           /*default=*/"\"int32\"",
           "The integer type of quantized results">,
    Option<"calibrateMode", "calibrate-mode", "std::string",
           /*default=*/"\"global-scale\"",
           "How the ranges of inputs and activations are found: "
           "global-scale, or from calibration-data kl-divergence (the "
           "threshold of least KL divergence) or percentile (99.99th "
           "percentile of the magnitudes)">,
    Option<"calibrationData", "calibration-data", "std::string",
           /*default=*/"\"\"",
           "A directory of samples: .npy files (one input), or "
           "subdirectories of .npy files in parameter order">,
    Option<"globalScale", "global-scale", "double", /*default=*/"8.0",
           "The range of every input and activation with "
           "calibrate-mode=global-scale">,
    Option<"weightScale", "weight-scale", "std::string",
           /*default=*/"\"power2\"",
           "A weight's range: its largest magnitude (max) rounded up to a "
           "power of two (power2)">,
    Option<"perChannel", "per-channel", "bool", /*default=*/"false",
           "Scale the weights of convolutions and dense layers per output "
           "channel (each channel's own range) instead of one scale per "
           "tensor">,
    ListOption<"skipConvLayers", "skip-conv-layers", "std::string",
               "Indices (program order) of the nn.conv2d left in float, or "
               "none (default: 0, the first)">,
    Option<"skipDenseLayer", "skip-dense-layer", "bool", /*default=*/"true",
           "Leave every nn.dense in float">,
    Option<"rules", "rules", "std::string", /*default=*/"\"\"",
           "A file of quantization rules (`<operator> <rule>` per line) "
           "adding to or overriding the built-in ones">,
    Option<"partitionConversions", "partition-conversions", "std::string",
           /*default=*/"\"disabled\"",
           "disabled, enabled (--relay-quantize-partition at the end) or "
           "fully-integral (and require the quantized part integral)">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

//===----------------------------------------------------------------------===//
// Optimisation levels (transforms/Pipelines)
//===----------------------------------------------------------------------===//

def Optimize : Pass<"relay-optimize", "::mlir::ModuleOp"> {
  let summary = "Relay's optimisations at an -O level (TVM's levels)";
  let description = [{
    Types the module (--relay-infer-types), then runs, in this order, the
    passes enabled at `opt-level`, each named by TVM's name or its flag:

    | pass                       | flag                          | level |
    |----------------------------|-------------------------------|-------|
    | SimplifyInference          | relay-simplify-inference      | 0     |
    | DeadCodeElimination        | relay-dead-code-elimination   | 1     |
    | EliminateCommonSubexpr     | cse (upstream)                | 3     |
    | CombineParallelConv2d      | relay-combine-parallel-conv2d | 3     |
    | CombineParallelDense       | relay-combine-parallel-dense  | 3     |
    | CombineParallelBatchMatmul | relay-combine-parallel-batch-matmul | 3 |
    | FoldConstant               | relay-fold-constant           | 2     |
    | FoldScaleAxis              | relay-fold-scale-axis         | 3     |
    | SimplifyExpr               | relay-simplify-expr           | 3     |
    | CanonicalizeOps            | relay-canonicalize-ops        | 3     |
    | AlterOpLayout              | relay-alter-op-layout         | 3     |
    | FoldConstant (again)       | relay-fold-constant           | 2     |
    | FuseOps                    | relay-fuse-ops                | 1     |

    A pass in `disabled-passes` does not run; one in `required-passes` runs
    whatever the level (disabling wins). DeadCodeElimination keeps what
    `entry-functions` reach (default: main, else every public function).
    An unknown pass name, or a level outside 0..3, is an error.

    --relay-to-llvm runs it (its `opt-level`), and its code generation
    fuses loops only where FuseOps ran: at -O0 each operator is its own
    kernel (still vectorised).
  }];
  let options = [
    Option<"optLevel", "opt-level", "int64_t", /*default=*/"3",
           "0: SimplifyInference only; 1: + FuseOps, DeadCodeElimination; "
           "2: + FoldConstant; 3: + FoldScaleAxis, CanonicalizeOps, CSE, "
           "CombineParallel*, SimplifyExpr, AlterOpLayout">,
    ListOption<"disabledPasses", "disabled-passes", "std::string",
               "Passes not to run (TVM's names or flags)">,
    ListOption<"requiredPasses", "required-passes", "std::string",
               "Passes to run whatever the level">,
    ListOption<"entryFunctions", "entry-functions", "std::string",
               "The functions the program is called through (default: "
               "main)">,
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "The target whose layout rules AlterOpLayout asks">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

#endif // RELAY_TRANSFORMS_PASSES

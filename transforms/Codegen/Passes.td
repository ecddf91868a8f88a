//===- Passes.td - Relay passes: Codegen -------------------*- tablegen -*-===//
//
// Target-independent code generation on linalg, bufferized loops and LLVM
// (transforms/Codegen). Included by transforms/Passes.td, which generates every
// pass declaration into one Passes.h.inc.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_TRANSFORMS_CODEGEN_PASSES
#define RELAY_TRANSFORMS_CODEGEN_PASSES

include "mlir/Pass/PassBase.td"

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

def FlattenParallelLoops
    : Pass<"relay-flatten-parallel-loops", "::mlir::func::FuncOp"> {
  let summary = "Make each multi-dimensional scf.parallel one-dimensional, "
                "optionally in one block per thread";
  let description = [{
    Runs in `--relay-to-llvm` with threads, between upstream's
    `--scf-forall-to-parallel` and `--async-parallel-for`. An
    `scf.parallel` over several dimensions becomes one over their product
    (upstream's `collapseParallelLoops`: the indices are recovered by
    division and remainder), so that the async lowering splits a single
    range.

    Why: on a loop of two or more dimensions whose inner ones have static
    sizes, `--async-parallel-for` (LLVM 22) rounds its block size up to a
    multiple of the inner iterations but keeps the block count computed
    for the smaller size; the extra blocks start past the end, and their
    delinearised bounds wrap around to iterations other blocks run too. A
    product tiled as a forall of 25 x 7 tiles ran 16 blocks of 14 where 13
    cover the 175 tiles; three blocks ran tiles 1-24 a second time, at the
    same time, adding their sums into the result twice. With one dimension
    there is nothing to align to.

    ```mlir
    scf.parallel (%i, %j) = (%c0, %c0) to (%c25, %c7) step (%c1, %c1) {...}
    // becomes
    scf.parallel (%ij) = (%c0) to (%c175) step (%c1) {
      %j = arith.remsi %ij, %c7
      %i = arith.divsi %ij, %c7
      ...
    }
    ```

    With `blocks=N` (`--relay-to-llvm` gives its thread count) a loop of
    more than N static iterations then becomes N blocks of consecutive
    iterations, each an `scf.for`: left to itself, the async lowering cuts
    a loop into up to 8 blocks per worker thread, each a task (a coroutine,
    a token, the queue's lock) whose dispatch cost more than the balancing
    gained. At two threads on a Xeon (together with Winograd's transforms
    run in parallel), ResNet-18 ran 8% faster, MobileNet-V2, ResNet-50,
    VGG-16 and GoogLeNet 3-6%, DenseNet-121, ConvNeXt-T, ShuffleNet-V2 and
    EfficientNet-B0 9-12%.

    ```mlir
    scf.parallel (%i) = (%c3) to (%c53) step (%c2) {...}
    // becomes, with blocks=2
    scf.parallel (%b) = (%c0) to (%c2) step (%c1) {
      %begin = arith.addi (%b * 26), %c3
      scf.for %i = %begin to min(%begin + 26, 53) step %c2 {...}
    }
    ```
  }];
  let options = [
    Option<"blocks", "blocks", "int64_t", /*default=*/"0",
           "Split a loop of more static iterations into this many loops of "
           "consecutive iterations (0: leave the iterations as they are)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
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

    Loops that each unroll within the bound but follow one another in a
    block make one straight run of code all the same: the 49 taps' copies
    of ResNet-18's 7x7 stem convolution in bands of 8 rows (3 channels, 8
    rows, a 32-lane vector each) were a block of 8,238 instructions whose
    scheduling took 10 of 12 seconds of the network's code generation. So
    a loop that would lengthen the current run past 512 operations is
    kept too, which ends the run.
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
    The call is located at every operator the nest computes (a fused
    location, the nest's own first), which `--relay-profile-loop-nests`
    names. The functions are marked `relay.loop_nest`: they call nothing of the
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

def ProfileLoopNests : Pass<"relay-profile-loop-nests", "::mlir::ModuleOp"> {
  let summary = "Time each call of a loop nest, under its Relay operator's "
                "location";
  let description = [{
    Runs in `--relay-to-llvm=profile=1` (relay-run `--profile` on compiled
    code) after `--relay-outline-loops`. Each call of an outlined loop nest
    reads the C runtime's clock before (`relay_rt_profile_clock`) and
    records the time since after (`relay_rt_profile_record`), under the
    location of the operators the nest computes (the call's, which
    `--relay-outline-loops` fuses from them): an ONNX node's name and index
    (`/layer1/layer1.0/conv1/Conv (model.onnx:12:0)`), a Relay text file's
    `prog.rly:4:3`, the first three joined by ` + ` where a nest computes
    several (a 1x1 convolution and the depthwise one it feeds, the
    operators fusion merged); a nest without a known location goes by its
    function's name. The runtime
    sums the times by name (`relay_rt_profile_report`).

    ```mlir
    call @relay_loop_nest_3(%a) : (memref<8xf32>) -> () loc(#conv)
    // becomes
    %t = call @relay_rt_profile_clock() : () -> i64
    call @relay_loop_nest_3(%a) : (memref<8xf32>) -> ()
    %name = llvm.mlir.addressof @relay_profile_name_0 : !llvm.ptr
    call @relay_rt_profile_record(%name, %t) : (!llvm.ptr, i64) -> ()
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
  let statistics = [
    Statistic<"numNests", "nests", "Calls of loop nests timed">
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

#endif // RELAY_TRANSFORMS_CODEGEN_PASSES

//===- Passes.td - Relay passes: Simplify ------------------*- tablegen -*-===//
//
// Simplification (transforms/Simplify). Included by transforms/Passes.td, which
// generates every pass declaration into one Passes.h.inc.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_TRANSFORMS_SIMPLIFY_PASSES
#define RELAY_TRANSFORMS_SIMPLIFY_PASSES

include "mlir/Pass/PassBase.td"

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

def DynamicToStatic : Pass<"relay-dynamic-to-static", "::mlir::ModuleOp"> {
  let summary = "Make the dyn operators whose shape operands are constants "
                "their static forms";
  let description = [{
    TVM's DynamicToStatic. The `dyn.*` operators (`dyn.reshape`,
    `dyn.full`, `dyn.zeros`, `dyn.ones`, `dyn.broadcast_to`, `dyn.tile`,
    `dyn.strided_slice`, `dyn.topk`, `dyn.image.resize2d`, `dyn.nn.pad`,
    `dyn.squeeze`, `dyn.expand_dims`, `dyn.one_hot`,
    `dyn.sparse_to_dense`, `dyn.nn.upsampling`, `dyn.nn.upsampling3d`)
    whose shape, repetitions, bounds, k, size, widths, axes, depth or
    scales are constants (given so, or made so by --relay-fold-constant)
    become their static forms with those as attributes, and `arange` of
    constants the constant it computes. Their
    results are then typed static, and so is what follows from them: the
    functions changed are typed again (--relay-infer-types) from their
    parameters, so that native code covers what the interpreter ran. A
    public function keeps its declared result types (its callers' view of
    it; they may say `?` where its body now gives a static size) unless
    `refine-signatures` is set: relay-run and the Executor set it on their
    copy of a program whose entry's results would otherwise stay `?`. A
    `topk` of more than 64 elements stays `dyn.topk` (the static one is at
    most 64 long).

    ```mlir
    %s = relay.constant dense<[3, 2]> : tensor<2xi64>
    %r = relay.dyn.reshape %x, %s : (tensor<6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
    // becomes
    %r = relay.reshape %x {newshape = array<i64: 3, 2>} : (tensor<6xf32>) -> tensor<3x2xf32>
    ```
  }];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let options = [
    Option<"refineSignatures", "refine-signatures", "bool",
           /*default=*/"false",
           "Type public functions' results again too">,
  ];
  let statistics = [
    Statistic<"numMadeStatic", "made-static", "Dynamic operators made static">,
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
    branch. `shape_of` and `ndarray_size` of a tensor whose type is static
    are its shape and size whatever computes it, as in TVM; composite
    operators of constants (`one_hot`, `tile`, ...) are evaluated through
    their decompositions. References, calls and applications are never
    evaluated, so no
    effect moves to compile time. A result of more than `max-elements`
    elements is left to run time (a folded tensor is stored in the
    program) unless it is no larger than the constants the operator
    consumes (those nothing else uses): a large weight's transpose,
    reshape or product with a per-channel scale folds, since the program
    does not grow. An operator whose kernel reports an error is left to
    run time too (an integer division by zero fails when the program
    runs, as it would have). Transposes and reshapes (`reshape`,
    `squeeze`, `expand_dims`, ...) of constants move or re-type their
    bytes instead of running a kernel (a reshaped blob is shared), and a
    folded tensor of 16,384 elements or more, not all equal, is kept as a
    `dense_resource` blob (`relay_folded`), as importers keep weights: the
    JIT reads it in place rather than compiling it into its code.

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
           "The largest tensor (in elements) a fold may produce, unless "
           "no larger than the unshared constants it replaces">,
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
    image that region reads, concatenated. A unary elementwise operator
    whose only use is a `take` (through reshapes) applies to the gathered
    elements instead, where the gather gives fewer (Mask R-CNN's sigmoid of
    all 91 classes' masks, of which one per detection is kept). An
    elementwise or broadcasting operator (or `nn.bias_add`) whose operand
    is a transpose, or a reshape that only inserts or removes unit
    dimensions, used only there, with constants (or values computed from
    constants) for its other operands, moves above it, the constants laid
    out as the transpose's operand is and the bias's axis following its
    dimension: the bias and activation after a decomposed 3-d convolution
    join the 2-d convolution it is made of (--relay-fuse-ops).

    ```mlir
    %a = relay.reshape %x {newshape = array<i64: 6>} : (tensor<2x3xf32>) -> tensor<6xf32>
    %b = relay.reshape %a {newshape = array<i64: 3, 2>} : (tensor<6xf32>) -> tensor<3x2xf32>
    // becomes
    %b = relay.reshape %x {newshape = array<i64: 3, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
    ```
  }];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

#endif // RELAY_TRANSFORMS_SIMPLIFY_PASSES

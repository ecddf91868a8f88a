//===- Passes.td - Relay passes: Pipelines -----------------*- tablegen -*-===//
//
// Optimisation levels (transforms/Pipelines). Included by transforms/Passes.td,
// which generates every pass declaration into one Passes.h.inc.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_TRANSFORMS_PIPELINES_PASSES
#define RELAY_TRANSFORMS_PIPELINES_PASSES

include "mlir/Pass/PassBase.td"

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
    | DynamicToStatic            | relay-dynamic-to-static       | 3     |
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
           "2: + FoldConstant; 3: + DynamicToStatic, FoldScaleAxis, "
           "CanonicalizeOps, CSE, "
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

def OutlineNativeRegions : Pass<"relay-outline-native-regions",
                                "::mlir::ModuleOp"> {
  let summary = "Outline the parts of a program native code covers into "
                "functions the interpreter calls compiled";
  let description = [{
    What relay-run does with a program that native code does not cover as
    a whole (sizes that depend on the data: detectors' post-processing,
    `dyn.*` operators; operators with no lowering): TVM's VM runs such
    programs as host code calling compiled kernels, and so does relay-run,
    the host code being the interpreter.

    Within each block of each function (not the `relay.primitive` ones),
    the ops native code can compute are a call of a primitive function all
    of whose operators have a lowering, an operator with a lowering, and
    tuples and projections; they take and give tensors (or tuples of
    them), and their result sizes follow from their operands' types (no
    `dyn.*` operator, nothing whose static operands give a `?` result).
    The block is reordered (those ops move, the others keep their order)
    so that they form as few runs as the dependences allow; each run
    becomes a private function with the unit attribute
    `relay.native_region`, called where the run was, taking the values
    the run uses from outside (constants are copied in) and returning
    those used after it (a tuple of them when several). A region's
    parameters may have `?` sizes: relay-run compiles it for the sizes
    each call gets, or interprets it where compiling it is not worth it
    or fails.

    ```mlir
    %a = relay.call @fused_nn_conv2d_add(%x) : ...
    %n = relay.dyn.strided_slice %a, %b, %e, %s : ...
    %r = relay.call @fused_sigmoid(%n) : ...
    // becomes
    %a = relay.call @main_native_0(%x) : ...
    %n = relay.dyn.strided_slice %a, %b, %e, %s : ...
    %r = relay.call @main_native_1(%n) : ...
    ```
  }];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let statistics = [
    Statistic<"numRegions", "regions", "Functions outlined">,
    Statistic<"numOutlined", "outlined-ops", "Ops moved into them">,
  ];
}

#endif // RELAY_TRANSFORMS_PIPELINES_PASSES

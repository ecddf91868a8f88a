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

#endif // RELAY_TRANSFORMS_PIPELINES_PASSES

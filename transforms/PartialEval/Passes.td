//===- Passes.td - Relay passes: PartialEval ---------------*- tablegen -*-===//
//
// Partial evaluation (transforms/PartialEval). Included by
// transforms/Passes.td, which generates every pass declaration into one
// Passes.h.inc.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_TRANSFORMS_PARTIALEVAL_PASSES
#define RELAY_TRANSFORMS_PARTIALEVAL_PASSES

include "mlir/Pass/PassBase.td"

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
    Option<"maxOps", "max-ops", "int64_t", "500000",
           "The most operations of residual code per function: past them "
           "the function is left as it was (a static loop of many steps "
           "over dynamic tensors unrolls into code of its length, closures "
           "nested as deep)">,
  ];
  let statistics = [
    Statistic<"numUnfolded", "unfolded", "Closure and function bodies unfolded">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

#endif // RELAY_TRANSFORMS_PARTIALEVAL_PASSES

//===- Passes.td - Relay passes: Closure -------------------*- tablegen -*-===//
//
// Closures (transforms/Closure). Included by transforms/Passes.td, which
// generates every pass declaration into one Passes.h.inc.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_TRANSFORMS_CLOSURE_PASSES
#define RELAY_TRANSFORMS_CLOSURE_PASSES

include "mlir/Pass/PassBase.td"

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

#endif // RELAY_TRANSFORMS_CLOSURE_PASSES

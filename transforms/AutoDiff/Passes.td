//===- Passes.td - Relay passes: AutoDiff ------------------*- tablegen -*-===//
//
// Automatic differentiation (transforms/AutoDiff). Included by
// transforms/Passes.td, which generates every pass declaration into one
// Passes.h.inc.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_TRANSFORMS_AUTODIFF_PASSES
#define RELAY_TRANSFORMS_AUTODIFF_PASSES

include "mlir/Pass/PassBase.td"

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
    closures or references: `func` takes and returns tensors and (nested)
    tuples of them and is built from operators, constants, tuples and
    projections; its body is the forward computation then the adjoints in
    reverse order. Any other construct (a call: inline it first; `if`,
    `match`, closures, references) is an error at it.

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

#endif // RELAY_TRANSFORMS_AUTODIFF_PASSES

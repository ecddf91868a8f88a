//===- Passes.td - Relay passes: TypeInference -------------*- tablegen -*-===//
//
// Type inference (transforms/TypeInference). Included by transforms/Passes.td,
// which generates every pass declaration into one Passes.h.inc.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_TRANSFORMS_TYPEINFERENCE_PASSES
#define RELAY_TRANSFORMS_TYPEINFERENCE_PASSES

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

    As TVM's InferType, it warns about a `match` (not `match?`, which may
    fail at run time by design) whose cases leave values unhandled, listing
    their patterns (TVM's `unmatched_cases`): `match expression does not
    handle the following cases: Nil, Cons(_, Cons(_, _))`. Pipelines that
    infer types again after their own rewrites turn this off
    (`warn-unmatched-cases=false`), so a program is warned about once.
  }];
  let options = [
    Option<"warnUnmatchedCases", "warn-unmatched-cases", "bool",
           /*default=*/"true",
           "Warn about a complete match whose cases miss some values">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
  let statistics = [
    Statistic<"numRelations", "relations", "Relations solved">,
    Statistic<"numGeneralized", "generalized",
              "Functions generalised into polymorphic ones">,
  ];
}

#endif // RELAY_TRANSFORMS_TYPEINFERENCE_PASSES

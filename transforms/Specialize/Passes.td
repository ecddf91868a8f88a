//===- Passes.td - Relay passes: Specialize ----------------*- tablegen -*-===//
//
// Specialising programs to their inputs (transforms/Specialize). Included by
// transforms/Passes.td, which generates every pass declaration into one
// Passes.h.inc.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_TRANSFORMS_SPECIALIZE_PASSES
#define RELAY_TRANSFORMS_SPECIALIZE_PASSES

include "mlir/Pass/PassBase.td"

def Specialize : Pass<"relay-specialize", "::mlir::ModuleOp"> {
  let summary = "Monomorphise polymorphic functions by their calls' type "
                "arguments";
  let description = [{
    Every `relay.call` of a polymorphic `relay.func` with type arguments
    (written by `--relay-infer-types`) is redirected to a private copy of the
    callee with those arguments substituted for its type parameters: one copy
    per callee and distinct list of arguments, named `<callee>_spec` (made
    unique). Copies are processed in turn, so chains of polymorphic calls
    are followed from the monomorphic functions: a copy's recursive calls
    (typed at its own parameters, so without type arguments) go to that
    copy, and a copy's calls whose type arguments were symbolic where the
    callee was typed (a ShapeVar passed on) are typed again by
    `--relay-infer-types`, their operands being concrete there. A
    polymorphic function
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

#endif // RELAY_TRANSFORMS_SPECIALIZE_PASSES

//===- Passes.td - Relay conversion passes -----------------*- tablegen -*-===//

#ifndef RELAY_CONVERSION_PASSES
#define RELAY_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def RelayToLinalg : Pass<"relay-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lower first-order Relay tensor programs to linalg on "
                "tensors";
  let description = [{
    Every relay.func becomes a func.func (with `llvm.emit_c_interface`):
    calls become func.call, `relay.if` scf.if, constants arith.constant, and
    each operator its lowering rule from the operator registry (linalg
    generic/named ops, tensor, arith, math). Tuples are flattened into their
    fields everywhere (signatures, calls, `if` results, projections, the
    tuple operands of concatenate/stack and the tuple results of split,
    batch_norm and dropout). A function whose self-calls are all tail calls
    (through any nesting of `if`) becomes an scf.while loop. The program must
    be typed with static shapes (run --relay-infer-types first) and
    monomorphic (--relay-specialize); closures, ADTs and references are
    reported at the op as not lowered yet.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect"
  ];
}

#endif // RELAY_CONVERSION_PASSES

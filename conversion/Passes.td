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
    monomorphic (--relay-specialize).

    ADT values, references and closures become runtime objects
    (`!llvm.ptr`, runtime/C/RelayRuntime.h): constructors and `ref`
    allocate, `match` tests tags and reads fields (an scf.if chain, nested
    patterns included, with a located run-time error when no case matches).
    Closures are defunctionalised: each `relay.fn` (and each global function
    used as a value) becomes a private func.func taking the closure object,
    which holds the captured values, and `relay.apply` switches on the
    closure's kind. Tensors stored in objects are copied in and out.
    Dynamic shapes are reported at the op as not lowered yet.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect", "::mlir::vector::VectorDialect"
  ];
}

#endif // RELAY_CONVERSION_PASSES

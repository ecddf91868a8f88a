//===- CompositeKernels.h - Operators run by their decomposition -*- C++
//-*-===//
//
// A composite operator (variance, shape_of, conv1d, topk, ...) has no
// kernel of its own: --relay-decompose rewrites it into primitive ones, which
// needs static shapes. Where the program's types leave a dimension `?`, the
// interpreter decomposes the operator at its operands' run-time types
// instead, once per op and types, and runs the decomposed function.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_RUNTIME_INTERPRETER_COMPOSITEKERNELS_H
#define RELAY_MLIR_RUNTIME_INTERPRETER_COMPOSITEKERNELS_H

#include "runtime/Interpreter/Value.h"

#include "dialects/relay/RelayOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace mlir::relay::interp {

class Interpreter;

/// The decompositions made so far, by op and operand types, and the
/// interpreters that run them: an interpreter's runs share them (a
/// detector's post-processing decomposes its shape_of ops once, not once a
/// run).
class CompositeKernels {
public:
  /// `op` (an operator without a kernel) on `operands`, whose result has
  /// `resultType` (the operator's relation on their run-time types):
  /// decomposed at those types and interpreted. Reports at `op` when the
  /// operator has no decomposition there.
  FailureOr<ValuePtr> run(Operation *op, ArrayRef<ValuePtr> operands,
                          ArrayRef<Type> operandTypes, Type resultType);

  CompositeKernels();
  ~CompositeKernels();

private:
  /// A decomposed operator: its module (null where the op has no
  /// decomposition at those types), the function in it and an interpreter
  /// of it.
  struct Decomposition {
    OwningOpRef<ModuleOp> module;
    relay::FuncOp func;
    std::unique_ptr<Interpreter> interpreter;
  };
  /// By op and the opaque pointers of its operand and result types.
  std::map<std::pair<Operation *, std::vector<const void *>>, Decomposition>
      decomposed;
};

} // namespace mlir::relay::interp

#endif // RELAY_MLIR_RUNTIME_INTERPRETER_COMPOSITEKERNELS_H

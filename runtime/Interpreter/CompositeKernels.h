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

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <map>
#include <utility>
#include <vector>

namespace mlir::relay::interp {

/// The decompositions made so far, by op and operand types.
class CompositeKernels {
public:
  /// `op` (an operator without a kernel) on `operands`, whose result has
  /// `resultType` (the operator's relation on their run-time types):
  /// decomposed at those types and interpreted. Reports at `op` when the
  /// operator has no decomposition there.
  FailureOr<ValuePtr> run(Operation *op, ArrayRef<ValuePtr> operands,
                          ArrayRef<Type> operandTypes, Type resultType);

private:
  /// By op and the opaque pointers of its operand and result types; null
  /// where the op has no decomposition at those types.
  std::map<std::pair<Operation *, std::vector<const void *>>,
           OwningOpRef<ModuleOp>>
      decomposed;
};

} // namespace mlir::relay::interp

#endif // RELAY_MLIR_RUNTIME_INTERPRETER_COMPOSITEKERNELS_H

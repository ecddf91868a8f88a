//===- Executor.h - Compile a Relay module and call it ----------*- C++ -*-===//
//
// The C++ Executor API: compile a module once through --relay-to-llvm and
// MLIR's ExecutionEngine (JIT), then call its entry function many times on
// tensors. Covers what --relay-to-linalg lowers today: first-order tensor
// programs with static shapes; parameters and results may be tuples of
// tensors (compiled code takes and returns their fields, flattened in
// order).
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_RUNTIME_EXECUTOR_EXECUTOR_H
#define RELAY_MLIR_RUNTIME_EXECUTOR_EXECUTOR_H

#include "runtime/Interpreter/Value.h"

#include "mlir/IR/BuiltinOps.h"

#include <memory>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace mlir::relay {

/// A thread with a large stack that runs one task at a time for its owner:
/// compiled recursion uses the machine stack, and starting such a thread per
/// call would cost more than many calls.
class BigStackWorker;

class Executor {
public:
  ~Executor();

  /// Compiles `module` (a copy of it: the module is not changed) for calling
  /// `entry`. Fails after reporting, at the op, what cannot be compiled.
  static FailureOr<std::unique_ptr<Executor>> compile(ModuleOp module,
                                                      StringRef entry);

  /// Calls the entry function on tensors.
  FailureOr<interp::ValuePtr> call(ArrayRef<interp::ValuePtr> args);

  /// Calls the entry function on dense row-major buffers laid out as compiled
  /// code stores them (f32 as 4 bytes, i1 as 1 byte), one per tensor of the
  /// flattened parameters (getFlatInputs), and copies each tensor of the
  /// flattened result into `results`. No conversion: this is the call a
  /// benchmark or an embedding application makes.
  LogicalResult callNative(ArrayRef<const void *> args,
                           std::vector<std::vector<char>> &results);

  /// Converts values of the entry's parameter types into the buffers
  /// callNative takes.
  LogicalResult toNative(ArrayRef<interp::ValuePtr> args,
                         std::vector<std::vector<char>> &buffers);

  /// The entry function's Relay type.
  FunctionType getType() const { return type; }
  /// The tensor types compiled code takes and returns (tuples flattened).
  ArrayRef<RankedTensorType> getFlatInputs() const { return flatInputs; }
  ArrayRef<RankedTensorType> getFlatResults() const { return flatResults; }

private:
  Executor() = default;

  std::unique_ptr<ExecutionEngine> engine;
  std::string entry;
  FunctionType type;
  SmallVector<RankedTensorType> flatInputs, flatResults;
  LocationAttr loc;
  bool mayRecurse = true;
  std::unique_ptr<BigStackWorker> worker;
};

} // namespace mlir::relay

#endif // RELAY_MLIR_RUNTIME_EXECUTOR_EXECUTOR_H

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
#include "transforms/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"

#include <memory>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace mlir::relay {

class Executor {
public:
  ~Executor();

  /// Compiles `module` (a copy of it: the module is not changed, and must
  /// outlive the executor) for calling `entry` with `options`: the -O level,
  /// the lowering target, the threads large loops run on (MLIR's async
  /// runtime). Fails after reporting, at the op, what cannot be compiled.
  static FailureOr<std::unique_ptr<Executor>>
  compile(ModuleOp module, StringRef entry,
          const CompileOptions &options = CompileOptions());

  /// Checks that no value of `module` needs more than this machine's
  /// memory, which compiled code could not allocate; reports at the first
  /// such value otherwise.
  static LogicalResult checkFitsInMemory(ModuleOp module);

  /// Calls the entry function on tensors.
  FailureOr<interp::ValuePtr> call(ArrayRef<interp::ValuePtr> args);

  /// Calls the entry function on native arguments, one per value of the
  /// flattened parameters (getFlatInputs): for a tensor, a dense row-major
  /// buffer laid out as compiled code stores it (f32 as 4 bytes, i1 as 1
  /// byte); for an ADT value or a reference, the runtime object. Copies
  /// each flattened result into `results` (the bytes of a tensor, or the
  /// 8-byte address of an object). No conversion: this is the call a
  /// benchmark or an embedding application makes. Objects the call returns
  /// live in the caller's arena (relay_rt_arena_push/pop); a call returning
  /// none frees its objects itself.
  LogicalResult callNative(ArrayRef<const void *> args,
                           std::vector<std::vector<char>> &results);
  /// callNative with each flattened result copied into `outputs[i]`, a
  /// buffer of its bytes the caller owns: one copy of each result instead
  /// of two for the C API and Python, which hand their caller its own
  /// buffers.
  LogicalResult callNativeInto(ArrayRef<const void *> args,
                               ArrayRef<void *> outputs);

  /// Converts values of the entry's parameter types into the arguments
  /// callNative takes (objects go to the current arena).
  LogicalResult toNative(ArrayRef<interp::ValuePtr> args,
                         std::vector<std::vector<char>> &buffers,
                         SmallVectorImpl<const void *> &pointers);

  /// The entry function's Relay type.
  FunctionType getType() const { return type; }
  /// The types compiled code takes and returns (tuples flattened; an ADT
  /// value or a reference is an `!llvm.ptr` to a runtime object).
  ArrayRef<Type> getFlatInputs() const { return flatInputs; }
  ArrayRef<Type> getFlatResults() const { return flatResults; }
  bool takesObjects() const;
  bool returnsObjects() const;

private:
  Executor() = default;

  LogicalResult reportRunTimeError(StringRef message);
  void *boxValue(Type type, const interp::ValuePtr &value);
  interp::ValuePtr unboxValue(Type type, const void *box);
  LogicalResult encode(Type type, const interp::ValuePtr &value,
                       std::vector<std::vector<char>> &buffers,
                       SmallVectorImpl<const void *> &pointers);
  interp::ValuePtr rebuild(Type type, ArrayRef<std::vector<char>> results,
                           size_t &next);

  /// The loop nests compiled on other threads; `engine`'s code calls them,
  /// so they go after it.
  std::vector<std::unique_ptr<ExecutionEngine>> partEngines;
  std::unique_ptr<ExecutionEngine> engine;
  std::string entry;
  FunctionType type;
  SmallVector<Type> flatInputs, flatResults;
  /// The module compiled: its ADT declarations describe returned objects.
  ModuleOp module;
  /// The copy of the caller's module compiled, where the Executor refined
  /// its entry's result types (refineEntryResults).
  OwningOpRef<ModuleOp> ownedModule;
  LocationAttr loc;
  bool mayRecurse = true;
  /// The entry's packed interface (`_mlir_ciface_` + entry), looked up
  /// when compiled.
  void (*packedEntry)(void **) = nullptr;
  /// What a call that overflows the large stack prints before exiting.
  std::string overflowMessage;
};

} // namespace mlir::relay

#endif // RELAY_MLIR_RUNTIME_EXECUTOR_EXECUTOR_H

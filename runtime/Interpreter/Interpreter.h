//===- Interpreter.h - The Relay reference interpreter ----------*- C++ -*-===//
//
// A definitional interpreter for relay dialect modules, following the
// operational semantics of seed 000's appendix: closures capture their
// environment, global and local (and mutual) recursion, ADT construction
// and `match` (a `match?` without a matching case fails at run time with a
// located error), references with a store, tuples, `if`, and every
// operator through its reference kernel (Kernels.h), composite ones through
// their decomposition at the run-time shapes (CompositeKernels.h).
//
// Evaluation runs on an explicit stack of frames, not the C++ stack, so a
// program may nest calls as deeply as memory allows.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_RUNTIME_INTERPRETER_INTERPRETER_H
#define RELAY_MLIR_RUNTIME_INTERPRETER_INTERPRETER_H

#include "runtime/Interpreter/Value.h"

#include "dialects/relay/RelayOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <memory>
#include <optional>

namespace mlir::relay::interp {

class CompositeKernels;
struct ConstantValues;

/// Where the interpreter's time goes: per operator (by name) and per native
/// region (by function), the calls and the seconds they took, summed over
/// the runs while the profile is set (Interpreter::setProfile). A region's
/// first calls include compiling it.
class Profile {
public:
  struct Entry {
    int64_t calls = 0;
    double seconds = 0;
  };
  void add(StringRef name, double seconds) {
    Entry &e = entries[name];
    ++e.calls;
    e.seconds += seconds;
  }
  void clear() { entries.clear(); }
  bool empty() const { return entries.empty(); }
  /// The entries, most time first, as a table of time per run (`runs`
  /// runs), share of the total, calls per run and name.
  void print(raw_ostream &os, int64_t runs) const;

private:
  llvm::StringMap<Entry> entries;
};

class Interpreter {
public:
  explicit Interpreter(ModuleOp module);

  /// Calls the global function `name` on `args`. Errors (a failed match,
  /// a kernel error, wrong arguments) are reported as diagnostics at the
  /// op that failed.
  FailureOr<ValuePtr> call(StringRef name, ArrayRef<ValuePtr> args);
  FailureOr<ValuePtr> call(FuncOp func, ArrayRef<ValuePtr> args);
  /// Applies a closure value to `args`.
  FailureOr<ValuePtr> apply(const ValuePtr &closure, ArrayRef<ValuePtr> args,
                            Location loc);

  /// What a call of a `relay.native_region` function
  /// (--relay-outline-native-regions) runs: its value, or std::nullopt to
  /// interpret the function. relay-run's runs compiled code
  /// (runtime/Executor/NativeRegions.h).
  using RegionRunner = std::function<std::optional<FailureOr<ValuePtr>>(
      FuncOp, ArrayRef<ValuePtr>)>;
  void setRegionRunner(RegionRunner runner) {
    regionRunner = std::move(runner);
  }

  /// Times every operator and native region call into `profile` (null:
  /// none, the default).
  void setProfile(Profile *p) { profile = p; }

  /// Checks that `value` can be passed where a value of `type` is expected
  /// (tensor dtype and shape, `?` matching any size); reports at `loc`.
  static LogicalResult checkArgument(const ValuePtr &value, Type type,
                                     Location loc, const Twine &what);

private:
  ModuleOp module;
  RegionRunner regionRunner;
  Profile *profile = nullptr;
  /// The decompositions of composite operators made so far (kept across
  /// calls).
  std::shared_ptr<CompositeKernels> composites;
  /// The values of constants evaluated more than once (kept across calls).
  std::shared_ptr<ConstantValues> constants;
};

/// Evaluates the operator `op` (a registered relay operator with a kernel)
/// on `operands` with its reference kernel, the result typed by the
/// operator's relation on the operands' run-time types. Errors (no kernel,
/// a relation that fails, a kernel's own error) are reported at `op`.
/// --relay-fold-constant evaluates operators of constants this way.
FailureOr<ValuePtr> evaluateOperator(Operation *op,
                                     ArrayRef<ValuePtr> operands);

} // namespace mlir::relay::interp

#endif // RELAY_MLIR_RUNTIME_INTERPRETER_INTERPRETER_H

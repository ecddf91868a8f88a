//===- ReachableFunctions.h - Functions the entries reach ------*- C++ -*-===//
//
// Which relay.funcs a program can run: those its entry functions reach by
// calls and references, transitively. Dead code elimination erases the
// others, and so does defunctionalization (an unreachable function may hold
// a closure type no closure of the program has).
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_DIALECTS_RELAY_REACHABLEFUNCTIONS_H
#define RELAY_MLIR_DIALECTS_RELAY_REACHABLEFUNCTIONS_H

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::relay {

/// Erases the relay.funcs of `module` that the functions named `entries`
/// (default: main) do not reach; where none of them is in the module,
/// every public symbol is an entry. Returns how many were erased.
int64_t eraseUnreachableFunctions(ModuleOp module,
                                  ArrayRef<std::string> entries);

} // namespace mlir::relay

#endif // RELAY_MLIR_DIALECTS_RELAY_REACHABLEFUNCTIONS_H

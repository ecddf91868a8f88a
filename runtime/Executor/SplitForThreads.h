//===- SplitForThreads.h - Split a module for parallel codegen --*- C++ -*-===//
//
// LLVM optimises and generates code for one module on one thread: most of
// a network's compile time. --relay-outline-loops gives each distinct loop
// nest a function of its own (marked `relay.loop_nest`); those functions
// call nothing of the program's, so they can be compiled apart, each group
// in its own LLVM module on its own thread, while the rest of the program
// (its entry, functions, globals) is compiled with their declarations and
// linked to their addresses.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_RUNTIME_EXECUTOR_SPLITFORTHREADS_H
#define RELAY_MLIR_RUNTIME_EXECUTOR_SPLITFORTHREADS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::relay {

/// Moves the loop-nest functions of `module` (LLVM dialect) into up to
/// `parts` new modules of about equal size, when they hold at least
/// `minOps` ops in all: each new module gets its functions (public) and
/// copies of the private functions and globals and the declarations they
/// use. `module` calls each moved nest through a pointer held in a global
/// named nestSlotName(nest), null until the caller stores the nest's
/// address there, so that `module` links without the parts and compiles
/// while they do; a nest used otherwise than called keeps its declaration.
struct LoopNestParts {
  /// The new modules (none when the module is too small to be worth it).
  SmallVector<OwningOpRef<ModuleOp>> modules;
  /// Whether `module` calls every moved nest through its slot, so that it
  /// links without the parts (false where one kept its declaration).
  bool throughSlots = true;
};
LoopNestParts splitLoopNests(ModuleOp module, unsigned parts, int64_t minOps);

/// The global through which the program calls moved nest `nest`.
std::string nestSlotName(StringRef nest);

} // namespace mlir::relay

#endif // RELAY_MLIR_RUNTIME_EXECUTOR_SPLITFORTHREADS_H

//===- BigStack.h - Run a function on a large machine stack -----*- C++ -*-===//
//
// Compiled Relay recursion (loops over sequences, recursion over ADTs) uses
// the machine stack, deeper than a thread's default 8 MiB allows. Calls run
// on a large stack of their own, on the calling thread: switching stacks
// costs a few hundred nanoseconds, where handing the call to a thread with
// a large stack costs a wake-up and a context switch per call.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_RUNTIME_EXECUTOR_BIGSTACK_H
#define RELAY_MLIR_RUNTIME_EXECUTOR_BIGSTACK_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::relay {

/// Runs `task` on this thread's large stack (reserved on first use, its
/// pages mapped as they are touched, a guard page below it); runs it in
/// place when already on that stack or when the stack cannot be reserved.
void runOnBigStack(llvm::function_ref<void()> task);

} // namespace mlir::relay

#endif // RELAY_MLIR_RUNTIME_EXECUTOR_BIGSTACK_H

//===- BigStack.h - Run a function on a large machine stack -----*- C++ -*-===//
//
// Compiled Relay recursion (loops over sequences, recursion over ADTs) and
// the Relay text parser (expressions nested in one another) use the machine
// stack, deeper than a thread's default stack (8 MiB, or less under a
// smaller `ulimit -s`) allows. They run on a large stack of their own, on
// the calling thread: switching stacks costs a few hundred nanoseconds,
// where handing the call to a thread with a large stack costs a wake-up and
// a context switch per call.
//
// Recursion deeper than that stack runs into its guard pages. A SIGSEGV
// handler on an alternate signal stack recognises the fault, prints the
// caller's message and exits with status 1: the fault may have struck
// inside malloc or the runtime, so nothing can safely continue, and without
// it the default crash handler can deadlock on malloc's lock and hang.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_SUPPORT_BIGSTACK_H
#define RELAY_MLIR_SUPPORT_BIGSTACK_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::relay {

/// The size of the large stack, in bytes: 1 GiB, or RELAY_STACK_MIB MiB
/// when that environment variable holds a whole number from 1 to 2^20.
size_t bigStackSize();

/// Runs `task` on this thread's large stack (reserved on first use, its
/// pages mapped as they are touched, guard pages below it); runs it in
/// place when already on that stack (the overflow message is then
/// `overflowMessage` until `task` returns) or when the stack cannot be
/// reserved.
/// Should the task overflow the stack, `overflowMessage` is written to
/// stderr and the process exits with status 1.
void runOnBigStack(llvm::function_ref<void()> task,
                   llvm::StringRef overflowMessage);

} // namespace mlir::relay

#endif // RELAY_MLIR_SUPPORT_BIGSTACK_H

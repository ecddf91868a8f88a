//===- BigStack.cpp - Run a function on a large machine stack -------------===//

#include "runtime/Executor/BigStack.h"

#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

using namespace mlir::relay;

namespace {
/// The stack's size: address space only, pages are mapped as used.
constexpr size_t kStackSize = size_t(1) << 30;

/// One thread's stack, unmapped when the thread ends.
struct Stack {
  ~Stack() {
    if (base)
      munmap(base, kStackSize);
  }
  void *base = nullptr;
  bool reserved = false, running = false;
  ucontext_t caller, callee;
  llvm::function_ref<void()> task;
};

thread_local Stack stack;

void trampoline() {
  stack.task();
  // Returning resumes `caller` through uc_link.
}
} // namespace

void mlir::relay::runOnBigStack(llvm::function_ref<void()> task) {
  if (stack.running) {
    task();
    return;
  }
  if (!stack.reserved) {
    stack.reserved = true;
    void *base =
        mmap(nullptr, kStackSize, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (base != MAP_FAILED) {
      // The lowest page traps an overflow instead of running into whatever
      // is mapped below.
      mprotect(base, static_cast<size_t>(sysconf(_SC_PAGESIZE)), PROT_NONE);
      stack.base = base;
    }
  }
  if (!stack.base || getcontext(&stack.callee) != 0) {
    task();
    return;
  }
  stack.callee.uc_stack.ss_sp = stack.base;
  stack.callee.uc_stack.ss_size = kStackSize;
  stack.callee.uc_link = &stack.caller;
  makecontext(&stack.callee, trampoline, 0);
  stack.task = task;
  stack.running = true;
  swapcontext(&stack.caller, &stack.callee);
  stack.running = false;
}

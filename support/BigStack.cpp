//===- BigStack.cpp - Run a function on a large machine stack -------------===//

#include "support/BigStack.h"

#include <csignal>
#include <cstdlib>
#include <mutex>
#include <string>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

using namespace mlir::relay;

namespace {
/// The stack's default size: address space only, pages are mapped as used.
constexpr size_t kDefaultStackSize = size_t(1) << 30;
/// Inaccessible bytes at its low end: a frame larger than this (a big
/// alloca) could step over them, hence the slack below in `isOverflow`.
constexpr size_t kGuardSize = size_t(1) << 16;
/// Faults this far below the stack still count as overflows.
constexpr size_t kBelowSlack = size_t(1) << 20;
/// The alternate signal stack the overflow handler runs on.
constexpr size_t kSignalStackSize = size_t(1) << 16;

/// One thread's stack, unmapped when the thread ends.
struct Stack {
  ~Stack() {
    if (signalStack) {
      stack_t off = {};
      off.ss_flags = SS_DISABLE;
      sigaltstack(&off, nullptr);
      munmap(signalStack, kSignalStackSize);
    }
    if (base)
      munmap(base, bigStackSize());
  }
  char *base = nullptr;
  void *signalStack = nullptr;
  bool reserved = false, running = false;
  ucontext_t caller, callee;
  llvm::function_ref<void()> task;
  std::string overflowMessage;
};

thread_local Stack stack;

struct sigaction previousAction;

bool isOverflow(const void *address) {
  if (!stack.running || !stack.base)
    return false;
  auto at = reinterpret_cast<uintptr_t>(address);
  auto base = reinterpret_cast<uintptr_t>(stack.base);
  return at + kBelowSlack >= base && at < base + kGuardSize;
}

void onSegv(int signal, siginfo_t *info, void *context) {
  if (isOverflow(info->si_addr)) {
    // Only async-signal-safe calls from here on.
    const std::string &message = stack.overflowMessage;
    ssize_t ignored = write(STDERR_FILENO, message.data(), message.size());
    (void)ignored;
    _exit(1);
  }
  // Not ours: the previous handler (LLVM's stack trace printer, or the
  // default action) takes the fault when the instruction runs again.
  sigaction(SIGSEGV, &previousAction, nullptr);
  (void)signal;
  (void)context;
}

void installHandler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action = {};
    action.sa_sigaction = onSegv;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, &previousAction);
  });
}

/// The handler runs on an alternate stack (the faulting one is full); the
/// thread gets one unless it already has one large enough.
void ensureSignalStack() {
  stack_t current;
  if (sigaltstack(nullptr, &current) != 0)
    return;
  if (!(current.ss_flags & SS_DISABLE) && current.ss_size >= kSignalStackSize)
    return;
  void *memory = mmap(nullptr, kSignalStackSize, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED)
    return;
  stack_t ours = {};
  ours.ss_sp = memory;
  ours.ss_size = kSignalStackSize;
  if (sigaltstack(&ours, nullptr) != 0) {
    munmap(memory, kSignalStackSize);
    return;
  }
  stack.signalStack = memory;
}

void trampoline() {
  stack.task();
  // Returning resumes `caller` through uc_link.
}
} // namespace

size_t mlir::relay::bigStackSize() {
  static const size_t size = [] {
    const char *mib = std::getenv("RELAY_STACK_MIB");
    char *end = nullptr;
    unsigned long long value = mib ? std::strtoull(mib, &end, 10) : 0;
    if (!mib || end == mib || *end || value < 1 || value > (1ull << 20))
      return kDefaultStackSize;
    return static_cast<size_t>(value) << 20;
  }();
  return size;
}

void mlir::relay::runOnBigStack(llvm::function_ref<void()> task,
                                llvm::StringRef overflowMessage) {
  if (stack.running) {
    // Already on the stack: an overflow inside `task` is its failure.
    std::string outer = std::move(stack.overflowMessage);
    stack.overflowMessage = overflowMessage.str();
    task();
    stack.overflowMessage = std::move(outer);
    return;
  }
  if (!stack.reserved) {
    stack.reserved = true;
    void *base =
        mmap(nullptr, bigStackSize(), PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (base != MAP_FAILED) {
      // The lowest pages trap an overflow instead of running into whatever
      // is mapped below.
      mprotect(base, kGuardSize, PROT_NONE);
      stack.base = static_cast<char *>(base);
      ensureSignalStack();
      installHandler();
    }
  }
  if (!stack.base || getcontext(&stack.callee) != 0) {
    task();
    return;
  }
  stack.callee.uc_stack.ss_sp = stack.base;
  stack.callee.uc_stack.ss_size = bigStackSize();
  stack.callee.uc_link = &stack.caller;
  makecontext(&stack.callee, trampoline, 0);
  stack.task = task;
  if (stack.overflowMessage != overflowMessage)
    stack.overflowMessage = overflowMessage.str();
  stack.running = true;
  swapcontext(&stack.caller, &stack.callee);
  stack.running = false;
}

//===- DeadCodeElimination.cpp - --relay-dead-code-elimination ------------===//
//
// Unused bindings whose evaluation has no effect go (the relay ops'
// MemoryEffectOpInterface says which: operators, tuples, closures and
// `if`/`match` of effect-free branches have none; reference writes and
// calls of functions that touch references do); then, with inline-once,
// closures applied once are inlined; then global functions the entry
// functions do not reach.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "dialects/relay/ReachableFunctions.h"
#include "dialects/relay/RelayOps.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::relay {
#define GEN_PASS_DEF_DEADCODEELIMINATION
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

/// Erases the unused effect-free ops of `region` and of the regions nested
/// in it; returns how many. Each block goes from its end, nested regions
/// before their op, so users go before what they use: one sweep reaches
/// the fixpoint.
static unsigned eraseDeadBindings(Region &region) {
  unsigned erased = 0;
  for (Block &block : region)
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block))) {
      for (Region &nested : op.getRegions())
        erased += eraseDeadBindings(nested);
      if (op.hasTrait<OpTrait::IsTerminator>() || !isOpTriviallyDead(&op))
        continue;
      op.erase();
      ++erased;
    }
  return erased;
}

/// The application `fn` is used by as its callee, when that is its only
/// use and inlining it is possible: not recursive, not polymorphic.
static ApplyOp soleApplication(FnOp fn) {
  if (!fn->hasOneUse() || fn.getFuncType().getTypeParams().size() ||
      (fn.getSelf() && !fn.getSelf().use_empty()))
    return nullptr;
  auto apply = dyn_cast<ApplyOp>(*fn->getUsers().begin());
  if (!apply || apply.getCallee() != fn.getResult() ||
      apply.getArgs().getTypes() != ValueRange(fn.getParams()).getTypes() ||
      apply.getResult().getType() !=
          fn.getBody().front().getTerminator()->getOperand(0).getType())
    return nullptr;
  return apply;
}

/// Inlines `fn`'s body at `apply`, its only application.
static void inlineAt(FnOp fn, ApplyOp apply) {
  IRMapping map;
  for (auto [param, arg] : llvm::zip(fn.getParams(), apply.getArgs()))
    map.map(param, arg);
  OpBuilder b(apply);
  Block &body = fn.getBody().front();
  for (Operation &op : body.without_terminator())
    b.clone(op, map);
  Value result = map.lookupOrDefault(body.getTerminator()->getOperand(0));
  apply.getResult().replaceAllUsesWith(result);
  apply->erase();
  fn->erase();
}

namespace {
struct DeadCodeEliminationPass
    : public relay::impl::DeadCodeEliminationBase<DeadCodeEliminationPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (FuncOp func : module.getOps<FuncOp>())
      numBindings += eraseDeadBindings(func.getBody());
    if (inlineOnce) {
      // Inner closures first: inlining one may leave the enclosing one
      // applied once with a body that can then be inlined too.
      SmallVector<FnOp> fns;
      module.walk([&](FnOp fn) { fns.push_back(fn); });
      for (FnOp fn : fns)
        if (ApplyOp apply = soleApplication(fn)) {
          inlineAt(fn, apply);
          ++numInlined;
        }
      for (FuncOp func : module.getOps<FuncOp>())
        numBindings += eraseDeadBindings(func.getBody());
    }
    SmallVector<std::string> entries(entryFunctions.begin(),
                                     entryFunctions.end());
    numFunctions += eraseUnreachableFunctions(module, entries);
  }
};
} // namespace

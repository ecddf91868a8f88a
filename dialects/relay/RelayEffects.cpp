//===- RelayEffects.cpp - Memory effects of Relay calls ---------*- C++ -*-===//
//
// A call or closure application has the effects of the code it runs. Relay
// is pure but for references, so a call is effect-free exactly when the
// callee (and everything it calls) neither touches a reference nor applies a
// closure it cannot see. Upstream CSE, DCE and the canonicalizer read these
// effects, so pure calls are merged and removed when unused, and effectful
// ones are kept in order.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelayOps.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::relay;

namespace {
/// Decides whether running some Relay code can have a side effect.
/// Recursion is handled coinductively: a function being analysed is assumed
/// pure while its own body is checked.
class PurityAnalysis {
public:
  bool isPureFunc(FuncOp func) {
    if (!visiting.insert(func).second)
      return true;
    return isPureRegion(func.getBody());
  }

  bool isPureClosure(Value callee) {
    if (auto arg = dyn_cast<BlockArgument>(callee)) {
      // The `rec(%self)` argument of a closure is the closure itself.
      auto fn = dyn_cast_or_null<FnOp>(arg.getOwner()->getParentOp());
      if (fn && fn.getSelf() == arg)
        return isPureFn(fn);
      return false;
    }
    Operation *def = callee.getDefiningOp();
    if (auto fn = dyn_cast<FnOp>(def))
      return isPureFn(fn);
    if (auto ref = dyn_cast<GlobalRefOp>(def)) {
      auto func =
          SymbolTable::lookupNearestSymbolFrom<FuncOp>(ref, ref.getNameAttr());
      return func && isPureFunc(func);
    }
    return false; // a closure from a parameter, a call, a tuple, ...
  }

  bool isPureCall(CallOp call) {
    auto func = SymbolTable::lookupNearestSymbolFrom<FuncOp>(
        call, call.getCalleeAttr());
    return func && isPureFunc(func);
  }

private:
  bool isPureFn(FnOp fn) {
    if (!visiting.insert(fn).second)
      return true;
    return isPureRegion(fn.getBody());
  }

  bool isPureRegion(Region &region) {
    for (Block &block : region)
      for (Operation &op : block)
        if (!isPureOp(&op))
          return false;
    return true;
  }

  bool isPureOp(Operation *op) {
    if (auto call = dyn_cast<CallOp>(op))
      return isPureCall(call);
    if (auto apply = dyn_cast<ApplyOp>(op))
      return isPureClosure(apply.getCallee());
    if (isa<FnOp>(op))
      return true; // creating a closure runs nothing
    if (auto effects = dyn_cast<MemoryEffectOpInterface>(op)) {
      if (!effects.hasNoEffect())
        return false;
    } else if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()) {
      return false; // unknown op: assume the worst
    }
    if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      for (Region &region : op->getRegions())
        if (!isPureRegion(region))
          return false;
    return true;
  }

  DenseSet<Operation *> visiting;
};

/// What an unknown or impure callee may do: read and write anything.
void addUnknownEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}
} // namespace

void CallOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (!PurityAnalysis().isPureCall(*this))
    addUnknownEffects(effects);
}

void ApplyOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (!PurityAnalysis().isPureClosure(getCallee()))
    addUnknownEffects(effects);
}

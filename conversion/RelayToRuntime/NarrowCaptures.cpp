//===- NarrowCaptures.cpp - What closures capture, before lowering --------===//
//
// A closure's environment holds a copy of every value it captures. A
// closure that uses a tuple from outside only through projections
// (`%us.3` of a 4-way split) would box all of the tuple's fields; with the
// projections moved out, right before the closure, it captures only the
// fields it reads. Projections are pure, so computing them before the
// closure changes nothing else. A tuple a closure still uses whole is
// captured field by field and rebuilt inside it, so that every captured
// value lowers to one value.
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToRuntime/RelayToRuntime.h"

#include "dialects/relay/RelayOps.h"

#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::relay;

/// Moves the projections `fn` makes of captured tuples out of it, where
/// those are the only uses it makes of them.
static void hoistCapturedProjections(FnOp fn) {
  SetVector<Value> captures;
  getUsedValuesDefinedAbove(fn.getBody(), captures);
  for (Value captured : captures) {
    if (!isa<TupleType>(captured.getType()))
      continue;
    SmallVector<TupleGetOp> projections;
    bool onlyProjected = true;
    for (OpOperand &use : captured.getUses()) {
      Operation *user = use.getOwner();
      if (!fn->isProperAncestor(user))
        continue;
      auto get = dyn_cast<TupleGetOp>(user);
      if (!get) {
        onlyProjected = false;
        break;
      }
      projections.push_back(get);
    }
    if (!onlyProjected)
      continue;
    OpBuilder b(fn);
    llvm::DenseMap<int64_t, Value> outside;
    for (TupleGetOp get : projections) {
      Value &field = outside[get.getIndex()];
      if (!field)
        field = TupleGetOp::create(b, get.getLoc(), get.getType(), captured,
                                   get.getIndexAttr());
      get.replaceAllUsesWith(field);
      get->erase();
    }
  }
}

/// The leaves of tuple `v` projected at `outside`, rebuilt at `inside`.
static Value splitAndRebuild(OpBuilder &outside, OpBuilder &inside,
                             Location loc, Value v) {
  auto tuple = dyn_cast<TupleType>(v.getType());
  if (!tuple)
    return v;
  SmallVector<Value> fields;
  for (auto [i, t] : llvm::enumerate(tuple.getTypes())) {
    Value field =
        TupleGetOp::create(outside, loc, t, v, outside.getI64IntegerAttr(i));
    fields.push_back(splitAndRebuild(outside, inside, loc, field));
  }
  return TupleOp::create(inside, loc, fields);
}

/// Captures the tuples `fn` still uses whole field by field.
static void splitCapturedTuples(FnOp fn) {
  SetVector<Value> captures;
  getUsedValuesDefinedAbove(fn.getBody(), captures);
  OpBuilder outside(fn);
  OpBuilder inside = OpBuilder::atBlockBegin(&fn.getBody().front());
  for (Value captured : captures) {
    if (!isa<TupleType>(captured.getType()))
      continue;
    Value rebuilt = splitAndRebuild(outside, inside, fn.getLoc(), captured);
    captured.replaceUsesWithIf(rebuilt, [&](OpOperand &use) {
      return fn->isProperAncestor(use.getOwner()) &&
             use.getOwner() != rebuilt.getDefiningOp();
    });
  }
}

void mlir::relay::narrowClosureCaptures(ModuleOp module) {
  // Inner closures first: what they hoist is then used by the enclosing
  // closure, which may hoist it further.
  SmallVector<FnOp> fns;
  module.walk([&](FnOp fn) { fns.push_back(fn); });
  for (FnOp fn : fns) {
    hoistCapturedProjections(fn);
    splitCapturedTuples(fn);
  }
}

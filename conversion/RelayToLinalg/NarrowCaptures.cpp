//===- NarrowCaptures.cpp - Closures capture the tuple fields they use ----===//
//
// A closure's environment holds a copy of every tensor it captures. A
// closure that uses a tuple from outside only through projections
// (`%us.3` of a 4-way split) would box all of the tuple's fields; with the
// projections moved out, right before the closure, it captures only the
// fields it reads. Projections are pure, so computing them before the
// closure changes nothing else.
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "dialects/relay/RelayOps.h"

#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::relay;

namespace mlir::relay::lowering {

void hoistCapturedProjections(ModuleOp module) {
  // Inner closures first: their hoisted projections are then uses in the
  // enclosing closure, which may hoist them further.
  SmallVector<FnOp> fns;
  module.walk([&](FnOp fn) { fns.push_back(fn); });
  for (FnOp fn : fns) {
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
}

} // namespace mlir::relay::lowering

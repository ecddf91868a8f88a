//===- InlinePrimitives.cpp - --relay-inline-primitives -------------------===//
//
// Undoes --relay-fuse-ops's outlining: the CPU lowering fuses by itself.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "dialects/relay/RelayOps.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/DenseSet.h"

namespace mlir::relay {
#define GEN_PASS_DEF_INLINEPRIMITIVES
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

struct InlinePrimitivesPass
    : public relay::impl::InlinePrimitivesBase<InlinePrimitivesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<CallOp> calls;
    module.walk([&](CallOp call) {
      auto callee = symbols.lookup<FuncOp>(call.getCallee());
      if (callee && isPrimitiveFunction(callee))
        calls.push_back(call);
    });
    for (CallOp call : calls) {
      auto callee = symbols.lookup<FuncOp>(call.getCallee());
      Block &body = callee.getBody().front();
      IRMapping mapping;
      mapping.map(body.getArguments(), call.getArgs());
      OpBuilder builder(call);
      for (Operation &op : body.without_terminator())
        builder.clone(op, mapping);
      auto ret = cast<ReturnOp>(body.getTerminator());
      call.getResult().replaceAllUsesWith(mapping.lookup(ret.getValue()));
      call.erase();
    }
    // The symbols still referenced, gathered in one walk: asking for each
    // function's uses walks the module once per function, which made this
    // pass take 6 s of a 10 s compile with 2,000 primitives (sorting
    // networks, --relay-decompose).
    llvm::DenseSet<StringAttr> used;
    if (auto uses = SymbolTable::getSymbolUses(&module.getBodyRegion()))
      for (const SymbolTable::SymbolUse &use : *uses)
        used.insert(use.getSymbolRef().getRootReference());
    for (auto func : llvm::to_vector(module.getBody()->getOps<FuncOp>()))
      if (isPrimitiveFunction(func) && func.isPrivate() &&
          !used.contains(func.getSymNameAttr()))
        func.erase();
  }
};

} // namespace

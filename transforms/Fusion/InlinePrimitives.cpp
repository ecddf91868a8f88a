//===- InlinePrimitives.cpp - --relay-inline-primitives -------------------===//
//
// Undoes --relay-fuse-ops's outlining: the CPU lowering fuses by itself.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "dialects/relay/RelayOps.h"

#include "mlir/IR/IRMapping.h"

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
    for (auto func : llvm::to_vector(module.getBody()->getOps<FuncOp>()))
      if (isPrimitiveFunction(func) && func.isPrivate() &&
          SymbolTable::symbolKnownUseEmpty(func, module))
        func.erase();
  }
};

} // namespace

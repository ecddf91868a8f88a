//===- LambdaLift.cpp - Local functions as global ones ----------*- C++ -*-===//
//
// --relay-lambda-lift (TVM's LambdaLift): every relay.fn of a monomorphic
// function becomes a private global. One that captures nothing is the global
// itself, referred to by relay.global_ref; one that captures values becomes
// a global taking them and returning the closure (`relay.closure`, TVM's
// `Closure=1`), called where the closure was made. Innermost first, so an
// outer closure's lifted body calls the inner one's global.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelayDialect.h"
#include "dialects/relay/RelayOps.h"
#include "transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::relay {
#define GEN_PASS_DEF_LAMBDALIFT
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

struct LambdaLiftPass : public relay::impl::LambdaLiftBase<LambdaLiftPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    count.clear(); // a pass instance may run on several modules
    SymbolTable symbols(module);
    SmallVector<FnOp> fns;
    for (auto func : module.getOps<FuncOp>()) {
      if (func.isPolymorphic()) {
        func.walk([&](FnOp fn) {
          fn.emitRemark("relay-lambda-lift: a closure in polymorphic @")
              << func.getSymName()
              << " is not lifted (run --relay-specialize first)";
        });
        continue;
      }
      // Post-order: inner closures first.
      func.walk([&](FnOp fn) { fns.push_back(fn); });
    }
    for (FnOp fn : fns)
      lift(fn, symbols);
    // The application of a reference to a monomorphic global is its call.
    module.walk([&](ApplyOp apply) {
      auto ref = apply.getCallee().getDefiningOp<GlobalRefOp>();
      auto callee = ref ? symbols.lookup<FuncOp>(ref.getName()) : FuncOp();
      if (!callee || callee.isPolymorphic())
        return;
      OpBuilder b(apply);
      auto call =
          CallOp::create(b, apply.getLoc(), apply.getType(), ref.getName(),
                         apply.getArgs(), nullptr, nullptr, nullptr);
      apply.getResult().replaceAllUsesWith(call.getResult());
      apply.erase();
      if (ref->use_empty())
        ref->erase();
    });
  }

  void lift(FnOp fn, SymbolTable &symbols) {
    auto outer = fn->getParentOfType<FuncOp>();
    std::string name =
        (outer.getSymName() + "_lifted" + Twine(count[outer.getSymName()]++))
            .str();
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(fn.getBody(), captured);
    FuncType type = fn.getFuncType();
    OpBuilder b(outer);
    b.setInsertionPointAfter(outer);
    ++numLifted;

    if (captured.empty()) {
      // The closure is the global.
      auto global = FuncOp::create(b, fn.getLoc(), name, type.getInputs(),
                                   type.getResult(), type.getTypeParams());
      global.setPrivate();
      symbols.insert(global);
      BlockArgument self = fn.getSelf();
      global.getBody().front().erase();
      global.getBody().takeBody(fn.getBody());
      Block &entry = global.getBody().front();
      if (self) {
        b.setInsertionPointToStart(&entry);
        auto again =
            GlobalRefOp::create(b, fn.getLoc(), type, global.getSymName());
        self.replaceAllUsesWith(again.getResult());
        entry.eraseArgument(self.getArgNumber());
      }
      b.setInsertionPoint(fn);
      auto ref = GlobalRefOp::create(b, fn.getLoc(), type, global.getSymName());
      fn.getResult().replaceAllUsesWith(ref.getResult());
      fn.erase();
      return;
    }

    // A global of the captured values returning the closure, which now
    // captures the global's parameters.
    SmallVector<Type> inputs(ValueRange(captured.getArrayRef()).getTypes());
    auto global = FuncOp::create(b, fn.getLoc(), name, inputs, type);
    global.setPrivate();
    setClosureFunction(global);
    symbols.insert(global);
    Block &entry = global.getBody().front();
    b.setInsertionPointToStart(&entry);
    IRMapping mapping;
    for (auto [value, arg] : llvm::zip(captured, entry.getArguments())) {
      mapping.map(value, arg);
      arg.setLoc(value.getLoc());
    }
    Operation *closure = b.clone(*fn, mapping);
    ReturnOp::create(b, fn.getLoc(), closure->getResult(0));
    b.setInsertionPoint(fn);
    auto call =
        CallOp::create(b, fn.getLoc(), type, global.getSymName(),
                       captured.getArrayRef(), nullptr, nullptr, nullptr);
    fn.getResult().replaceAllUsesWith(call.getResult());
    fn.erase();
  }

  llvm::StringMap<unsigned> count;
};

} // namespace

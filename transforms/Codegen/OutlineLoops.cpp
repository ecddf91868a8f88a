//===- OutlineLoops.cpp - One function per distinct loop nest ------------===//
//
// --relay-outline-loops: each outermost loop nest of a function moves into a
// private function of its own, shared by nests that are the same (see
// Passes.td).
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "support/DecomposedFrom.h"

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::relay {
#define GEN_PASS_DEF_OUTLINELOOPS
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

bool isLoopNest(Operation *op) {
  return isa<scf::ForOp, scf::ForallOp, scf::ParallelOp, scf::WhileOp,
             linalg::LinalgOp>(op);
}

/// Whether `nest` takes, returns or uses from outside an AMX tile (the
/// accumulators of a product's k loop): tiles live in tile registers and
/// cannot be passed to or returned from a function.
bool carriesTiles(Operation *nest) {
  auto isTile = [](Value v) { return isa<amx::TileType>(v.getType()); };
  if (llvm::any_of(nest->getOperands(), isTile) ||
      llvm::any_of(nest->getResults(), isTile))
    return true;
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(nest->getRegions(), captured);
  return llvm::any_of(captured, isTile);
}

/// Constants without operands are cloned into the outlined function (so
/// nests that differ only in the buffers they read and write are the same
/// function); every other value from outside becomes a parameter.
bool isClonedIn(Value value) {
  Operation *def = value.getDefiningOp();
  return def && def->getNumOperands() == 0 && def->getNumRegions() == 0 &&
         def->hasTrait<OpTrait::ConstantLike>();
}

/// The function's text without its name and locations: equal texts are
/// equal functions.
std::string bodyKey(func::FuncOp func) {
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  flags.printGenericOpForm().enableDebugInfo(false);
  for (Block &block : func.getBody())
    for (Operation &op : block)
      op.print(os, flags);
  os << "\n" << func.getFunctionType();
  return text;
}

struct OutlineLoops : relay::impl::OutlineLoopsBase<OutlineLoops> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> nests;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      func.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (!isLoopNest(op))
          return WalkResult::advance();
        if (!carriesTiles(op))
          nests.push_back(op);
        return WalkResult::skip();
      });
    }
    SymbolTable symbols(module);
    llvm::StringMap<func::FuncOp> outlined;
    for (Operation *nest : nests)
      outline(nest, symbols, outlined);
  }

  void outline(Operation *nest, SymbolTable &symbols,
               llvm::StringMap<func::FuncOp> &outlined) {
    llvm::SetVector<Value> used(nest->getOperands().begin(),
                                nest->getOperands().end());
    getUsedValuesDefinedAbove(nest->getRegions(), used);
    SmallVector<Value> params, cloned;
    for (Value value : used)
      (isClonedIn(value) ? cloned : params).push_back(value);

    OpBuilder builder(&getContext());
    Location loc = nest->getLoc();
    auto type = builder.getFunctionType(ValueRange(params).getTypes(),
                                        nest->getResultTypes());
    auto func = func::FuncOp::create(builder, loc, "relay_loop_nest", type);
    func.setPrivate();
    // LLVM inlines a function called once: noinline keeps each nest's
    // loops out of its caller's (SCEV's work grows with the function).
    func->setAttr("passthrough",
                  builder.getArrayAttr({builder.getStringAttr("noinline")}));
    relay::setCodegenMark(func, relay::CodegenMark::LoopNest);
    Block *entry = func.addEntryBlock();
    builder.setInsertionPointToStart(entry);
    IRMapping mapping;
    for (auto [param, arg] : llvm::zip(params, entry->getArguments()))
      mapping.map(param, arg);
    for (Value value : cloned)
      builder.clone(*value.getDefiningOp(), mapping);
    Operation *copy = builder.clone(*nest, mapping);
    func::ReturnOp::create(builder, loc, copy->getResults());

    std::string key = bodyKey(func);
    auto [it, inserted] = outlined.try_emplace(key, func);
    if (inserted) {
      symbols.insert(func);
      ++numFunctions;
    } else {
      func.erase();
      func = it->second;
    }
    // The call is located at every operator the nest computes, its own
    // first (one kernel may compute two: a 1x1 convolution and the
    // depthwise one it feeds), so that a profile of the calls names them.
    llvm::SetVector<Location> operators;
    operators.insert(loc);
    nest->walk([&](Operation *op) {
      Location at = relay::withoutDecomposedMark(op->getLoc());
      if (isa<NameLoc, FileLineColLoc, CallSiteLoc>(at))
        operators.insert(at);
    });
    builder.setInsertionPoint(nest);
    auto call = func::CallOp::create(
        builder, FusedLoc::get(&getContext(), operators.getArrayRef()), func,
        params);
    nest->replaceAllUsesWith(call.getResults());
    nest->erase();
    ++numNests;
  }
};

} // namespace

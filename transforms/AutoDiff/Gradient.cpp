//===- Gradient.cpp - The --relay-gradient pass -----------------*- C++ -*-===//
//
// Checks what both modes ask of the function, then builds `@<func>_grad`
// by the mode asked for (HigherOrderGradient.cpp, FirstOrderGradient.cpp).
//
//===----------------------------------------------------------------------===//

#include "transforms/AutoDiff/Gradient.h"
#include "transforms/AutoDiff/GradientRules.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/TypeUtils.h"
#include "transforms/Decompose/Decompose.h"
#include "transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_GRADIENT
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

/// Whether `type` is a tensor or a (nested) tuple of them.
static bool isTensors(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type))
    return tuple.size() > 0 && llvm::all_of(tuple.getTypes(), isTensors);
  return isa<RankedTensorType>(type);
}

bool mlir::relay::holdsGradient(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type))
    return llvm::any_of(tuple.getTypes(), holdsGradient);
  auto tensor = dyn_cast<TensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

bool mlir::relay::computedFromConstants(Operation *op,
                                        DenseMap<Operation *, bool> &known) {
  // Depth first over the operands' definitions, with a stack of its own
  // (chains of operators can be longer than the native stack is deep).
  SmallVector<std::pair<Operation *, bool>> stack{{op, false}};
  while (!stack.empty()) {
    auto [top, expanded] = stack.back();
    if (known.count(top)) {
      stack.pop_back();
      continue;
    }
    if (isa<ConstantOp>(top)) {
      known[top] = true;
      stack.pop_back();
      continue;
    }
    if (top->getNumRegions() ||
        !lookupOperator(top->getName().getStringRef())) {
      known[top] = false;
      stack.pop_back();
      continue;
    }
    if (!expanded) {
      stack.back().second = true;
      for (Value operand : top->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def) {
          known[top] = false;
          break;
        }
        if (!known.count(def))
          stack.push_back({def, false});
      }
      continue;
    }
    known[top] = llvm::all_of(top->getOperands(), [&](Value operand) {
      return known.lookup(operand.getDefiningOp());
    });
    stack.pop_back();
  }
  return known.lookup(op);
}

LogicalResult mlir::relay::checkDifferentiable(FuncOp f) {
  if (f.isPolymorphic() || !isConcrete(f.getFunctionType()))
    return f.emitError("relay-gradient: @")
           << f.getSymName()
           << " is polymorphic or not typed (run --relay-infer-types and "
              "--relay-specialize first)";
  if (f.getBody().empty())
    return f.emitError("relay-gradient: @") << f.getSymName() << " has no body";
  // Integer tensors in the result (a gradient's own, for integer
  // parameters: its gradient is then differentiated) take no seed.
  if (!isTensors(f.getReturnType()) || !holdsGradient(f.getReturnType()))
    return f.emitError("relay-gradient: @")
           << f.getSymName() << " returns " << f.getReturnType()
           << "; a gradient needs a result of tensors, at least one of them "
              "floating-point (a tensor or a tuple of them) to seed";
  return success();
}

void mlir::relay::decomposeWithoutRules(FuncOp f, bool tangent) {
  RewritePatternSet patterns(f.getContext());
  populateDecompositionPatterns(patterns, [&](StringRef name) {
    const OperatorInfo *info = lookupOperator(name);
    return info && !(tangent ? bool(info->tangent) : bool(info->gradient));
  });
  // The rules take plain layouts: packed ones (NCHW16c) are unpacked.
  populateUnpackLayoutPatterns(patterns);
  FrozenRewritePatternSet frozen(std::move(patterns));
  // f and the functions it reaches through symbol references.
  auto module = f->getParentOfType<ModuleOp>();
  SmallVector<FuncOp> worklist{f};
  llvm::SmallPtrSet<Operation *, 8> seen{f};
  while (!worklist.empty()) {
    FuncOp g = worklist.pop_back_val();
    (void)applyPatternsGreedily(g, frozen);
    if (auto uses = SymbolTable::getSymbolUses(g))
      for (const SymbolTable::SymbolUse &use : *uses)
        if (auto callee = module.lookupSymbol<FuncOp>(
                use.getSymbolRef().getRootReference()))
          if (seen.insert(callee).second)
            worklist.push_back(callee);
  }
}

namespace {

struct GradientPass : public relay::impl::GradientBase<GradientPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool higherOrder = mode == "higher-order";
    if (!higherOrder && mode != "first-order") {
      module.emitError("relay-gradient: unknown mode '")
          << mode << "' (expected 'higher-order' or 'first-order')";
      return signalPassFailure();
    }
    registerGradientRules();
    if (higherOrder) {
      // Polymorphic functions the gradient reaches become instances.
      OpPassManager specialize("builtin.module");
      specialize.addPass(createSpecialize());
      if (failed(runPipeline(specialize, module)))
        return signalPassFailure();
    }
    auto f = module.lookupSymbol<FuncOp>(func);
    if (!f) {
      module.emitError("relay-gradient: the module has no function @") << func;
      return signalPassFailure();
    }
    if (failed(checkDifferentiable(f)))
      return signalPassFailure();
    decomposeWithoutRules(f, /*tangent=*/false);
    std::string gradName = func + "_grad";
    if (module.lookupSymbol(gradName)) {
      f.emitError("relay-gradient: the module has a @")
          << gradName << " already";
      return signalPassFailure();
    }
    if (failed(higherOrder ? buildHigherOrderGradient(f, gradName)
                           : buildFirstOrderGradient(f, gradName)))
      return signalPassFailure();
  }
};

} // namespace

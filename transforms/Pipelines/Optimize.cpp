//===- Optimize.cpp - --relay-optimize ------------------------------------===//
//
// Relay's -O levels: which of the relay-to-relay passes run at each level,
// in which order (TVM's relay.build order, FuseOps last), and the pass that
// runs them.
//
//===----------------------------------------------------------------------===//

#include "transforms/Codegen/CPU/CPUTarget.h"
#include "transforms/Pipelines/Pipelines.h"
#include "transforms/Simplify/DynamicToStatic.h"

#include "dialects/relay/RelayOps.h"
#include "dialects/relay/TypeUtils.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::relay {
#define GEN_PASS_DEF_OPTIMIZE
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// A pass of the levels: TVM's name, its flag, the lowest level it runs at.
struct LevelPass {
  StringRef name;
  StringRef flag;
  int64_t level;
};

/// In the order they run (FoldConstant runs twice: before FoldScaleAxis and
/// after what makes constants). FakeQuantizationToInteger first, while the
/// weights are still dequantized integers (not TVM's default: it rewrites
/// PyTorch's and ONNX Runtime's quantize/dequantize models to integer
/// kernels, rounding as the integer kernels of their runtimes do).
constexpr LevelPass kLevelPasses[] = {
    {"FakeQuantizationToInteger", "relay-fake-quantization-to-integer", 3},
    {"SimplifyInference", "relay-simplify-inference", 0},
    {"DeadCodeElimination", "relay-dead-code-elimination", 1},
    {"EliminateCommonSubexpr", "cse", 3},
    {"CombineParallelConv2d", "relay-combine-parallel-conv2d", 3},
    {"CombineParallelDense", "relay-combine-parallel-dense", 3},
    {"CombineParallelBatchMatmul", "relay-combine-parallel-batch-matmul", 3},
    {"FoldConstant", "relay-fold-constant", 2},
    {"DynamicToStatic", "relay-dynamic-to-static", 3},
    {"FoldScaleAxis", "relay-fold-scale-axis", 3},
    {"SimplifyExpr", "relay-simplify-expr", 3},
    {"CanonicalizeOps", "relay-canonicalize-ops", 3},
    {"AlterOpLayout", "relay-alter-op-layout", 3},
    {"FoldConstant", "relay-fold-constant", 2},
    {"FuseOps", "relay-fuse-ops", 1},
};

const LevelPass *lookupLevelPass(StringRef nameOrFlag) {
  for (const LevelPass &pass : kLevelPasses)
    if (pass.name == nameOrFlag || pass.flag == nameOrFlag)
      return &pass;
  return nullptr;
}

bool names(ArrayRef<std::string> list, const LevelPass &pass) {
  return llvm::any_of(list, [&](const std::string &n) {
    return n == pass.name || n == pass.flag;
  });
}

std::unique_ptr<Pass> createLevelPass(const LevelPass &pass,
                                      const OptimizeOptions &options) {
  if (pass.name == "DeadCodeElimination") {
    DeadCodeEliminationOptions dce;
    dce.entryFunctions = options.entryFunctions;
    return createDeadCodeElimination(dce);
  }
  if (pass.name == "FakeQuantizationToInteger")
    return createFakeQuantizationToInteger();
  if (pass.name == "SimplifyInference")
    return createSimplifyInference();
  if (pass.name == "EliminateCommonSubexpr")
    return createCSEPass();
  if (pass.name == "CombineParallelConv2d")
    return createCombineParallelConv2d();
  if (pass.name == "CombineParallelDense")
    return createCombineParallelDense();
  if (pass.name == "CombineParallelBatchMatmul")
    return createCombineParallelBatchMatmul();
  if (pass.name == "FoldConstant")
    return createFoldConstant();
  if (pass.name == "DynamicToStatic")
    return createDynamicToStatic();
  if (pass.name == "FoldScaleAxis")
    return createFoldScaleAxis();
  if (pass.name == "SimplifyExpr")
    return createSimplifyExpr();
  if (pass.name == "CanonicalizeOps")
    return createCanonicalizeOps();
  if (pass.name == "AlterOpLayout") {
    AlterOpLayoutOptions alter;
    alter.target = options.target;
    return createAlterOpLayout(alter);
  }
  assert(pass.name == "FuseOps" && "a pass of kLevelPasses");
  return createFuseOps();
}

} // namespace

bool mlir::relay::isOptimizationName(StringRef name) {
  return lookupLevelPass(name) != nullptr;
}

std::string mlir::relay::getOptimizationNames() {
  std::string all;
  for (const LevelPass &pass : kLevelPasses)
    if (all.find((pass.name + " ").str()) == std::string::npos)
      all += (pass.name + " (" + pass.flag + "), ").str();
  return all.substr(0, all.size() - 2);
}

LogicalResult
mlir::relay::verifyOptimizeOptions(const OptimizeOptions &options,
                                   function_ref<InFlightDiagnostic()> error) {
  if (options.optLevel < 0 || options.optLevel > 3)
    return error() << "opt-level must be 0, 1, 2 or 3, got "
                   << options.optLevel;
  for (auto [list, what] :
       {std::pair(&options.disabledPasses, "disabled-passes"),
        std::pair(&options.requiredPasses, "required-passes")})
    for (const std::string &name : *list)
      if (!lookupLevelPass(name))
        return error() << "unknown pass '" << name << "' in " << what
                       << " (known: " << getOptimizationNames() << ")";
  return success();
}

bool mlir::relay::isOptimizationEnabled(StringRef name,
                                        const OptimizeOptions &options) {
  const LevelPass *pass = lookupLevelPass(name);
  assert(pass && "a pass of the levels");
  if (names(options.disabledPasses, *pass))
    return false;
  return pass->level <= options.optLevel ||
         names(options.requiredPasses, *pass);
}

void mlir::relay::buildOptimizePipeline(OpPassManager &pm,
                                        const OptimizeOptions &options) {
  // AlterOpLayout asks the target's layout rules (cpu by default): an
  // embedder that builds this pipeline alone has registered none.
  registerCPULoweringTarget();
  pm.addPass(createReinferTypes());
  for (const LevelPass &pass : kLevelPasses)
    if (isOptimizationEnabled(pass.name, options))
      pm.addPass(createLevelPass(pass, options));
}

/// Whether `type` has a tensor with a `?` dimension.
OwningOpRef<ModuleOp>
mlir::relay::refineEntryResults(ModuleOp module, StringRef entry,
                                const OptimizeOptions &options) {
  auto func = module.lookupSymbol<FuncOp>(entry);
  if (!func || func.getBody().empty() ||
      !llvm::any_of(func.getResultTypes(), hasDynamicTensor) ||
      !isOptimizationEnabled("DynamicToStatic", options) ||
      !module
           .walk([](Operation *op) {
             return isShapeFromValueOperator(op) ? WalkResult::interrupt()
                                                 : WalkResult::advance();
           })
           .wasInterrupted())
    return nullptr;
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(module.getContext());
  if (isOptimizationEnabled("FoldConstant", options))
    pm.addPass(createFoldConstant());
  DynamicToStaticOptions refine;
  refine.refineSignatures = true;
  pm.addPass(createDynamicToStatic(refine));
  // (What fails here fails again, reported, in the lowering.)
  ScopedDiagnosticHandler quiet(module.getContext(),
                                [](Diagnostic &) { return success(); });
  if (failed(pm.run(*copy)))
    return nullptr;
  auto refined = copy->lookupSymbol<FuncOp>(entry);
  if (refined.getFunctionType() == func.getFunctionType())
    return nullptr;
  return copy;
}

namespace {

struct OptimizePass : public relay::impl::OptimizeBase<OptimizePass> {
  using OptimizeBase::OptimizeBase;

  void runOnOperation() override {
    OptimizeOptions options;
    options.optLevel = optLevel;
    options.disabledPasses.assign(disabledPasses.begin(), disabledPasses.end());
    options.requiredPasses.assign(requiredPasses.begin(), requiredPasses.end());
    options.entryFunctions.assign(entryFunctions.begin(), entryFunctions.end());
    options.target = target;
    if (failed(verifyOptimizeOptions(options, [&] {
          return emitError(getOperation().getLoc(), "--relay-optimize: ");
        })))
      return signalPassFailure();
    OpPassManager pm(ModuleOp::getOperationName());
    buildOptimizePipeline(pm, options);
    if (failed(runPipeline(pm, getOperation())))
      signalPassFailure();
  }
};

} // namespace

//===- Decompose.cpp - Composite operators into primitive ones ------------===//
//
// --relay-decompose: the composite operators (the last section of
// RelayOperators.td) become the primitive operators lowering and the
// interpreter implement, as TVM's SimplifyInference and Legalize passes
// do. Each rewrite needs static operand shapes (after --relay-infer-types
// and, for polymorphic functions, --relay-specialize); ops without them
// are left as they are.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "transforms/Decompose/Decompose.h"
#include "transforms/Decompose/Rewrites.h"

#include "dialects/relay/OperatorRegistry.h"

#include "conversion/RelayToLinalg/LoweringTarget.h"
#include "support/DecomposedFrom.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::relay {
#define GEN_PASS_DEF_DECOMPOSE
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

using namespace mlir::relay::decompose;

LogicalResult mlir::relay::decompose::RuleRewrite::matchAndRewrite(
    Operation *op, PatternRewriter &rewriter) const {
  std::function<bool(Type)> isStatic = [&](Type t) {
    if (auto tuple = dyn_cast<TupleType>(t))
      return llvm::all_of(tuple.getTypes(), isStatic);
    auto ranked = dyn_cast<RankedTensorType>(t);
    return ranked && (anyShape || ranked.hasStaticShape());
  };
  if (!llvm::all_of(op->getOperandTypes(), isStatic) ||
      !llvm::all_of(op->getResultTypes(), isStatic))
    return rewriter.notifyMatchFailure(op, "needs static shapes");
  if (keepWhole && keepWhole(op))
    return rewriter.notifyMatchFailure(op, "the lowering target keeps it");
  // Run-time errors of the primitive ops name the operator (DecomposedFrom.h).
  Emitter b(rewriter, decomposedLocation(op));
  Value result = rewrite(b, op);
  if (!b.succeeded() || !result ||
      result.getType() != op->getResult(0).getType()) {
    // Whatever was built is unused; the greedy driver erases it.
    return rewriter.notifyMatchFailure(op, "could not be rewritten");
  }
  rewriter.replaceOp(op, result);
  return success();
}

namespace {
/// TVM's annotations (stop_fusion, checkpoint, on_device, device_copy,
/// ...) are the identity on a value of any type and shape (the device
/// annotations on closures, references and lists too): their operand.
struct RemoveAnnotation : RewritePattern {
  RemoveAnnotation(StringRef name, MLIRContext *context)
      : RewritePattern(name, /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    Value operand = op->getOperand(0);
    if (operand.getType() != op->getResult(0).getType())
      return rewriter.notifyMatchFailure(op, "types not inferred yet");
    rewriter.replaceOp(op, operand);
    return success();
  }
};
} // namespace

void mlir::relay::populateDecompositionPatterns(
    RewritePatternSet &patterns, function_ref<bool(StringRef)> include,
    std::function<bool(Operation *)> keepWhole) {
  MLIRContext *ctx = patterns.getContext();
  auto add = [&](StringRef name, Rewrite rewrite) {
    std::string op = ("relay." + name).str();
    if (!include || include(op))
      patterns.add<RuleRewrite>(op, rewrite, ctx, /*anyShape=*/false,
                                keepWhole);
  };
  addElementwiseRewrites(add);
  addTransformRewrites(add);
  addNNRewrites(add);
  addWindow3DRewrites(add);
  addSortRewrites(add);
  addLossRewrites(add);
  addIndexRewrites(add);
  addEinsumRewrites(add);
  addImageRewrites(add);
  addQnnRewrites(add);
  addGradientRewrites(add);
  addSparseRewrites(add);
  addSignalRewrites(add);
  addPackedRewrites(add);
  addWinogradRewrites(add);
  addRandomRewrites(add);
  addBitserialRewrites(add);
  // Rewrites that read only ranks and attributes: they apply to ops of
  // run-time sizes too.
  auto addAnyShape = [&](StringRef name, Rewrite rewrite) {
    std::string op = ("relay." + name).str();
    if (!include || include(op))
      patterns.add<RuleRewrite>(op, rewrite, ctx, /*anyShape=*/true, keepWhole);
  };
  addDynamicRewrites(addAnyShape);
  addNNAnyShapeRewrites(addAnyShape);
  addPackedLayoutRewrites(addAnyShape);
  // The annotations' names, collected first (`include` may read the
  // registry).
  SmallVector<std::string> annotations;
  forEachOperator([&](const OperatorInfo &info) {
    if (info.relation == "Annotation" || info.relation == "DeviceAnnotation")
      annotations.push_back(info.name);
  });
  for (const std::string &name : annotations)
    if (!include || include(name))
      patterns.add<RemoveAnnotation>(name, ctx);
}

void mlir::relay::populateUnpackLayoutPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  addPackedLayoutRewrites([&](StringRef name, Rewrite rewrite) {
    patterns.add<RuleRewrite>(("relay." + name).str(), rewrite, ctx,
                              /*anyShape=*/true);
  });
}

bool mlir::relay::hasDecomposition(StringRef opName) {
  static const llvm::StringSet<> names = [] {
    llvm::StringSet<> found;
    MLIRContext context;
    RewritePatternSet patterns(&context);
    populateDecompositionPatterns(patterns, [&](StringRef name) {
      found.insert(name);
      return false;
    });
    return found;
  }();
  return names.contains(opName);
}

ArrayRef<std::string> mlir::relay::getSortingOperators() {
  static const std::string names[] = {"relay.topk", "relay.argsort",
                                      "relay.sort"};
  return names;
}

namespace {
struct DecomposePass : relay::impl::DecomposeBase<DecomposePass> {
  using DecomposeBase::DecomposeBase;

  void runOnOperation() override {
    // The operators the lowering target computes whole stay (its kernels
    // beat their decompositions: the CPU's 3-d Winograd convolution).
    const LoweringTarget *lowering = nullptr;
    if (!target.empty()) {
      lowering = lookupLoweringTarget(target);
      if (!lowering) {
        getOperation().emitError()
            << "--relay-decompose: unknown lowering target '" << target
            << "' (known: " << llvm::join(getLoweringTargetNames(), ", ")
            << ")";
        return signalPassFailure();
      }
    }
    std::function<bool(Operation *)> keepWhole;
    if (lowering)
      keepWhole = [lowering](Operation *op) {
        return lowering->lowersWhole(op);
      };
    RewritePatternSet patterns(&getContext());
    populateDecompositionPatterns(
        patterns,
        [&](StringRef name) { return !llvm::is_contained(keepOps, name); },
        keepWhole);
    populateComposeLayoutTransformsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      getOperation().emitError()
          << "--relay-decompose: the rewrites did not converge (a "
             "composite operator's rewrite keeps failing after building "
             "its replacement)";
      signalPassFailure();
    }
  }
};
} // namespace

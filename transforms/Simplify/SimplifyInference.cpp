//===- SimplifyInference.cpp - --relay-simplify-inference -----------------===//
//
// The normalisations and dropout in their inference semantics, as relay
// arithmetic (decompose::Emitter builds it): batch_norm, dropout and
// layer_norm here; instance_norm, group_norm and l2_normalize by
// --relay-decompose's rewrites of them.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "transforms/Decompose/Rewrites.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_SIMPLIFYINFERENCE
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

namespace {

/// batch_norm(x, gamma, beta, mean, var): (x * scale + shift, mean, var)
/// along the axis, scale = gamma / sqrt(var + epsilon) (1 / sqrt(...)
/// without `scale`), shift = beta - mean * scale (-mean * scale without
/// `center`).
Value batchNorm(Emitter &b, Operation *op) {
  Value x = op->getOperand(0), gamma = op->getOperand(1),
        beta = op->getOperand(2), mean = op->getOperand(3),
        var = op->getOperand(4);
  int64_t rank = shapeOf(x).size();
  int64_t axis = positive(intAttr(op, "axis"), rank);
  Value std =
      b.op<SqrtOp>({b.add(var, b.scalar(floatAttr(op, "epsilon"), var))});
  Value scale = boolAttr(op, "scale") ? b.op<DivideOp>({gamma, std})
                                      : b.op<DivideOp>({b.scalar(1, std), std});
  Value shifted = b.mul(mean, scale);
  Value shift = boolAttr(op, "center") ? b.op<SubtractOp>({beta, shifted})
                                       : b.op<NegativeOp>({shifted});
  Value scaled = b.mul(x, alongAxis(b, scale, axis, rank));
  Value y = b.add(scaled, alongAxis(b, shift, axis, rank));
  return b.tuple({y, mean, var});
}

/// dropout(x): (x, a mask of ones).
Value dropout(Emitter &b, Operation *op) {
  Value x = op->getOperand(0);
  return b.tuple({x, b.op<OnesLikeOp>({x})});
}

/// layer_norm(x, gamma, beta): normalised over the axis, scaled and
/// shifted along it.
Value layerNorm(Emitter &b, Operation *op) {
  Value x = op->getOperand(0);
  int64_t axis = positive(intAttr(op, "axis"), shapeOf(x).size());
  Value y = normalize(b, x, {axis}, floatAttr(op, "epsilon"));
  return scaleAndShift(b, op, y, axis);
}

struct SimplifyInferencePass
    : public relay::impl::SimplifyInferenceBase<SimplifyInferencePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    // These read ranks and axes only: `?` dimensions are fine.
    patterns.add<RuleRewrite>(BatchNormOp::getOperationName(), batchNorm,
                              context, /*anyShape=*/true);
    patterns.add<RuleRewrite>(DropoutOp::getOperationName(), dropout, context,
                              /*anyShape=*/true);
    patterns.add<RuleRewrite>(LayerNormOp::getOperationName(), layerNorm,
                              context, /*anyShape=*/true);
    // The other normalisations: --relay-decompose's rewrites of them.
    addNNRewrites([&](StringRef name, Rewrite rewrite) {
      if (llvm::is_contained(
              {"nn.instance_norm", "nn.group_norm", "nn.l2_normalize"}, name))
        patterns.add<RuleRewrite>(("relay." + name).str(), rewrite, context);
    });
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
  }
};

} // namespace

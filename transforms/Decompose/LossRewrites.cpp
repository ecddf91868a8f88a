//===- LossRewrites.cpp - Loss operators ------------------------*- C++ -*-===//
//
// nn.cross_entropy, nn.cross_entropy_with_logits and nn.nll_loss as
// elementwise arithmetic, one_hot, take and sums.
//
//===----------------------------------------------------------------------===//

#include "transforms/Decompose/Rewrites.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

namespace {

/// -sum(logProbabilities * targets) / batch.
Value meanCrossEntropy(Emitter &b, Value logProbabilities, Value targets) {
  Value total = b.op<SumOp>({b.mul(logProbabilities, targets)});
  double batch = static_cast<double>(shapeOf(targets)[0]);
  return b.op<DivideOp>({b.op<NegativeOp>({total}), b.scalar(batch, total)});
}

Value crossEntropy(Emitter &b, Operation *op) {
  return meanCrossEntropy(b, b.op<LogOp>({op->getOperand(0)}),
                          op->getOperand(1));
}

Value crossEntropyWithLogits(Emitter &b, Operation *op) {
  return meanCrossEntropy(b, op->getOperand(0), op->getOperand(1));
}

/// The targets' classes picked from the predictions by a one-hot mask
/// (differentiable in the predictions), weighted by take(weights,
/// targets), zero where a target is ignore_index; reduced as asked. A
/// target outside [0, C) that is not ignore_index is a run-time error (take
/// "fast" checks), as in PyTorch, not a loss of 0 with a clipped weight.
Value nllLoss(Emitter &b, Operation *op) {
  Value predictions = op->getOperand(0), targets = op->getOperand(1),
        weights = op->getOperand(2);
  Type floatType = elementOf(predictions);
  int64_t classes = shapeOf(predictions)[1];
  Value hot = b.op<OneHotOp>(
      {targets, b.scalar(1.0, predictions), b.scalar(0.0, predictions)},
      {b.i64("depth", classes), b.i64("axis", 1), b.type("dtype", floatType)});
  Value picked = b.op<SumOp>({b.mul(predictions, hot)}, {b.ints("axis", {1})});
  Value counted = b.op<NotEqualOp>(
      {targets, b.scalar(intAttr(op, "ignore_index"), targets)});
  Value kept = b.op<CastOp>({counted}, {b.type("dtype", floatType)});
  Value checked = b.op<WhereOp>({counted, targets, b.scalar(0, targets)});
  Value weight = b.mul(b.op<TakeOp>({weights, checked},
                                    {b.i64("axis", 0), b.str("mode", "fast")}),
                       kept);
  Value loss = b.op<NegativeOp>({b.mul(picked, weight)});
  StringRef reduction =
      cast<StringAttr>(getOperatorAttributes(op).get("reduction")).getValue();
  if (reduction == "none")
    return loss;
  Value total = b.op<SumOp>({loss});
  if (reduction == "sum")
    return total;
  return b.op<DivideOp>({total, b.op<SumOp>({weight})});
}

} // namespace

void mlir::relay::decompose::addLossRewrites(AddRewrite add) {
  add("nn.cross_entropy", crossEntropy);
  add("nn.cross_entropy_with_logits", crossEntropyWithLogits);
  add("nn.nll_loss", nllLoss);
}

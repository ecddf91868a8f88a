//===- LossConverters.cpp - ONNX loss functions -----------------*- C++ -*-===//
//
// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (log_softmax over
// the classes, then the former), composed from relay ops: each position's
// log-probability of its target class is gathered along axis 1, weighted by
// its class weight, and positions whose target is `ignore_index` weigh
// nothing; `mean` divides by the total weight, as ONNX specifies.
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/Converters.h"
#include "frontends/ONNX/Emitter.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

namespace {

/// The loss of `logProb` [N, C, d...] against `ctx.input(1)` [N, d...]
/// with the optional class weights `ctx.input(2)` [C].
FailureOr<Value> nllLoss(NodeContext &ctx, Emitter &b, Value logProb) {
  std::string reduction = ctx.attrString("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return ctx.fail("unknown reduction '" + reduction +
                    "' (expected none, sum or mean)");
  ArrayRef<int64_t> scores = ctx.shape(0), target = ctx.shape(1);
  if (scores.size() < 2)
    return ctx.fail("scores must have shape [N, C, d1, ...]");
  SmallVector<int64_t> expected = {scores[0]};
  expected.append(scores.begin() + 2, scores.end());
  if (target != ArrayRef<int64_t>(expected))
    return ctx.fail("the target must have the scores' shape without the "
                    "class dimension");
  if (!isa<IntegerType>(ctx.elementType(1)))
    return ctx.fail("the target must hold integer class indices");
  bool weighted = ctx.hasInput(2);
  if (weighted && ctx.shape(2) != ArrayRef<int64_t>{scores[1]})
    return ctx.fail("the weights must have one value per class (" +
                    Twine(scores[1]) + ")");

  Type i64 = IntegerType::get(ctx.getContext(), 64);
  Value t = b.op<CastOp>({ctx.input(1)}, {ctx.type("dtype", i64)});
  Value keep;
  if (ctx.hasAttr("ignore_index")) {
    keep =
        b.op<NotEqualOp>({t, ctx.scalar(ctx.attrInt("ignore_index", 0), i64)});
    t = b.op<WhereOp>({keep, t, ctx.scalar(0, i64)});
  }
  // Targets outside [0, C) are invalid input; clamped, they read no memory
  // outside the scores.
  t = b.op<MinimumOp>({b.op<MaximumOp>({t, ctx.scalar(0, i64)}),
                       ctx.scalar(scores[1] - 1, i64)});
  Value picked =
      b.op<GatherOp>({logProb, b.op<ExpandDimsOp>({t}, {ctx.i64("axis", 1)})},
                     {ctx.i64("axis", 1)});
  picked = b.op<ReshapeOp>({picked}, {ctx.ints("newshape", target)});
  Type element = ctx.elementType(0);
  Value weight;
  if (weighted)
    weight = b.op<TakeOp>({ctx.input(2), t}, {ctx.i64("axis", 0)});
  if (keep) {
    Value kept = b.op<CastOp>({keep}, {ctx.type("dtype", element)});
    weight = weight ? b.mul(weight, kept) : kept;
  }
  Value loss = b.op<NegativeOp>({picked});
  if (weight)
    loss = b.mul(loss, weight);
  if (reduction == "none")
    return loss;
  Value total = b.op<SumOp>({loss});
  if (reduction == "sum")
    return total;
  if (!weight)
    return b.op<MeanOp>({loss});
  return b.op<DivideOp>({total, b.op<SumOp>({weight})});
}

LogicalResult convertLoss(NodeContext &ctx, bool softmax) {
  if (failed(ctx.checkInputs(2, 3)))
    return failure();
  if (!isa<FloatType>(ctx.elementType(0)))
    return ctx.fail("expects floating-point scores");
  Emitter b(ctx);
  Value logProb = ctx.input(0);
  if (softmax)
    logProb = b.op<LogSoftmaxOp>({logProb}, {ctx.i64("axis", 1)});
  FailureOr<Value> loss = nllLoss(ctx, b, logProb);
  if (failed(loss) || failed(b.output(*loss)))
    return failure();
  if (softmax)
    return b.output(logProb);
  return success();
}

} // namespace

void mlir::relay::onnx_import::addLossConverters(ConverterTable &t) {
  t["NegativeLogLikelihoodLoss"] = [](NodeContext &ctx) {
    return convertLoss(ctx, false);
  };
  t["SoftmaxCrossEntropyLoss"] = [](NodeContext &ctx) {
    return convertLoss(ctx, true);
  };
}

//===- CanonicalizeOps.cpp - --relay-canonicalize-ops ---------------------===//
//
// TVM's canonical forms: bias_add as an add of the bias expanded to
// broadcast along its axis.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "transforms/Decompose/Rewrites.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_CANONICALIZEOPS
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

namespace {

/// bias_add(x, b; axis): add(x, expand_dims(b, 1, rank - axis - 1)).
Value biasAdd(Emitter &b, Operation *op) {
  Value x = op->getOperand(0), bias = op->getOperand(1);
  int64_t rank = shapeOf(x).size();
  int64_t trailing = rank - positive(intAttr(op, "axis"), rank) - 1;
  if (trailing > 0)
    bias = b.op<ExpandDimsOp>(
        {bias}, {b.i64("axis", 1), b.i64("num_newaxis", trailing)});
  return b.add(x, bias);
}

struct CanonicalizeOpsPass
    : public relay::impl::CanonicalizeOpsBase<CanonicalizeOpsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<RuleRewrite>(BiasAddOp::getOperationName(), biasAdd, context);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
  }
};

} // namespace

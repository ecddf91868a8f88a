//===- ScatterGradientRules.cpp - Gradients of gathers and scatters ------===//
//
// gather's gradient adds g back where each element was read from (a
// scatter_elements with reduction add). A scatter that adds passes g to
// data and gathers it for the updates; one that overwrites zeroes g where
// it wrote and gives each written element's gradient to the update that
// wrote it last (the one whose value the result holds: an update
// overwritten by a later one with the same index gets none). Scatters that
// multiply or take a min or max have no rule.
//
//===----------------------------------------------------------------------===//

#include "transforms/AutoDiff/RuleSupport.h"

#include <numeric>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::autodiff;

namespace {

Type i64(MLIRContext *ctx) { return IntegerType::get(ctx, 64); }

/// Whether every operand of `op` is a tensor of static shape (the rules
/// build constants and reshapes of those shapes).
bool staticOperands(Operation *op) {
  return llvm::all_of(op->getOperandTypes(), [](Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    return tensor && tensor.hasStaticShape();
  });
}

/// A constant of `shape` holding 0, 1, 2, ...: each update's position in
/// the order the scatter applies them.
Value ordinals(RelayBuilder &rb, MLIRContext *ctx, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> iota(ShapedType::getNumElements(shape));
  std::iota(iota.begin(), iota.end(), 0);
  return rb.constant(DenseElementsAttr::get(
      RankedTensorType::get(shape, i64(ctx)), ArrayRef<int64_t>(iota)));
}

/// `grad` where `won` holds (broadcast), zero elsewhere.
Value keepWhere(RelayBuilder &rb, Value won, Value grad) {
  return rb.op<WhereOp>({won, grad, rb.op<ZerosLikeOp>({grad})});
}

/// `source`'s slices at scatter_nd's index tuples: indices (M, Y...) over
/// the first M dimensions of `source` give (Y..., source.shape[M:]).
Value gatherTuples(RelayBuilder &rb, Value source, Value indices) {
  MLIRContext *ctx = source.getContext();
  Builder b(ctx);
  ArrayRef<int64_t> is = shapeOf(indices), xs = shapeOf(source);
  int64_t m = is[0];
  SmallVector<int64_t> column(is.size(), 1);
  column[0] = m;
  SmallVector<int64_t> strides(m, 1);
  for (int64_t j = m - 2; j >= 0; --j)
    strides[j] = strides[j + 1] * xs[j + 1];
  auto columnOf = [&](ArrayRef<int64_t> values) {
    return rb.constant(DenseElementsAttr::get(
        RankedTensorType::get(column, i64(ctx)), values));
  };
  Value idx = rb.op<CastOp>({indices},
                            {b.getNamedAttr("dtype", TypeAttr::get(i64(ctx)))});
  // Negative indices count from the end.
  idx = rb.op<WhereOp>({rb.less(idx, rb.scalar(0, i64(ctx))),
                        rb.add(idx, columnOf(xs.take_front(m))), idx});
  Value flat = rb.op<SumOp>({rb.multiply(idx, columnOf(strides))},
                            {ints(b, "axis", {0})});
  SmallVector<int64_t> rows = {ShapedType::getNumElements(xs.take_front(m))};
  rows.append(xs.begin() + m, xs.end());
  Value table = rb.op<ReshapeOp>({source}, {ints(b, "newshape", rows)});
  return rb.op<TakeOp>({table, flat},
                       {b.getNamedAttr("axis", b.getI64IntegerAttr(0))});
}

} // namespace

void mlir::relay::autodiff::registerScatterGradientRules() {
  setRule<GatherOp>([](RelayBuilder &rb, GatherOp op, Value g) -> Grads {
    Builder b(op->getContext());
    Value dx = rb.op<ScatterElementsOp>(
        {rb.op<ZerosLikeOp>({op.getData()}), op.getIndices(), g},
        {b.getNamedAttr("axis", op.getAxisAttr()),
         b.getNamedAttr("reduction", b.getStringAttr("add"))});
    if (!dx)
      return failure();
    return SmallVector<Value>{dx, Value()};
  });

  setRule<ScatterElementsOp>([](RelayBuilder &rb, ScatterElementsOp op,
                                Value g) -> Grads {
    StringRef reduction = op.getReduction();
    if ((reduction != "update" && reduction != "add") || !staticOperands(op))
      return failure();
    MLIRContext *ctx = op->getContext();
    Builder b(ctx);
    NamedAttribute axis = b.getNamedAttr("axis", op.getAxisAttr());
    auto scatter = [&](Value data, Value updates) {
      return rb.op<ScatterElementsOp>(
          {data, op.getIndices(), updates},
          {axis, b.getNamedAttr("reduction", b.getStringAttr("update"))});
    };
    auto gather = [&](Value v) {
      return rb.op<GatherOp>({v, op.getIndices()}, {axis});
    };
    Value dUpdates = gather(g);
    if (reduction == "add")
      return SmallVector<Value>{g, Value(), dUpdates};
    Value dData = scatter(g, rb.op<ZerosLikeOp>({op.getUpdates()}));
    ArrayRef<int64_t> is = shapeOf(op.getIndices());
    Value order = ordinals(rb, ctx, is);
    Value writer = scatter(rb.full(-1, shapeOf(op.getData()), i64(ctx)), order);
    dUpdates = keepWhere(rb, rb.equal(gather(writer), order), dUpdates);
    if (!dData || !dUpdates)
      return failure();
    return SmallVector<Value>{dData, Value(), dUpdates};
  });

  setRule<ScatterNDOp>([](RelayBuilder &rb, ScatterNDOp op, Value g) -> Grads {
    StringRef mode = op.getMode();
    if ((mode != "update" && mode != "add") || !staticOperands(op))
      return failure();
    MLIRContext *ctx = op->getContext();
    Builder b(ctx);
    Value dUpdates = gatherTuples(rb, g, op.getIndices());
    if (mode == "add")
      return SmallVector<Value>{g, Value(), dUpdates};
    auto scatter = [&](Value data, Value updates) {
      return rb.op<ScatterNDOp>({data, op.getIndices(), updates},
                                {b.getNamedAttr("mode", op.getModeAttr())});
    };
    Value dData = scatter(g, rb.op<ZerosLikeOp>({op.getUpdates()}));
    ArrayRef<int64_t> is = shapeOf(op.getIndices()), xs = shapeOf(op.getData());
    int64_t m = is[0];
    // Which update each indexed slice holds last, compared per tuple.
    Value order = ordinals(rb, ctx, is.drop_front());
    Value writer = scatter(rb.full(-1, xs.take_front(m), i64(ctx)), order);
    Value won = rb.equal(gatherTuples(rb, writer, op.getIndices()), order);
    SmallVector<int64_t> perTuple(is.drop_front());
    perTuple.append(xs.size() - m, 1);
    won = rb.op<ReshapeOp>({won}, {ints(b, "newshape", perTuple)});
    dUpdates = keepWhere(rb, won, dUpdates);
    if (!dData || !dUpdates)
      return failure();
    return SmallVector<Value>{dData, Value(), dUpdates};
  });
}

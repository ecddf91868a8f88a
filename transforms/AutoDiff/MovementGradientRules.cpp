//===- MovementGradientRules.cpp - Gradients of data movement ---*- C++ -*-===//
//
// The gradient rules of operators that copy or rearrange their data:
// reverse, layout_transform, tile, repeat, stack, the *_like operators
// (whose second operand gives only a shape or a dtype, so it gets none) and
// dropout, the identity at inference with its mask a constant.
//
//===----------------------------------------------------------------------===//

#include "transforms/AutoDiff/RuleSupport.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::autodiff;

namespace {

/// Sums `g`, reshaped to `split` (each summed axis beside the one it
/// repeats), over the axes `summed`, then reshapes it to `like`'s shape.
/// `axisOf[i]` names the axis of `like` whose size split[i] is (-1 for a
/// count of copies): where `like`'s sizes are known only when it runs, the
/// split is built from its shape then.
Value sumRepeats(RelayBuilder &rb, Value g, ArrayRef<int64_t> split,
                 ArrayRef<int64_t> axisOf, ArrayRef<int64_t> summed,
                 Value like) {
  Builder b(like.getContext());
  Value v;
  if (!ShapedType::isDynamicShape(shapeOf(like))) {
    v = rb.op<ReshapeOp>({g}, {ints(b, "newshape", split)});
  } else {
    Value sizes = runTimeSizes(rb, like);
    SmallVector<Value> pieces;
    for (auto [size, axis] : llvm::zip(split, axisOf))
      pieces.push_back(axis < 0 ? i64Vector(rb, {size})
                                : rb.op<StridedSliceOp>(
                                      {sizes}, {ints(b, "begin", {axis}),
                                                ints(b, "end", {axis + 1})}));
    Value shape = rb.op<ConcatenateOp>(
        {rb.tuple(pieces)}, {b.getNamedAttr("axis", b.getI64IntegerAttr(0))});
    v = rb.op<DynReshapeOp>({g, shape},
                            {b.getNamedAttr("allowzero", b.getBoolAttr(true))});
  }
  v = rb.op<SumOp>({v}, {ints(b, "axis", summed)});
  return v ? reshapedLike(rb, v, like) : v;
}

} // namespace

void mlir::relay::autodiff::registerMovementGradientRules() {
  setUnaryRule<ReverseOp>([](RelayBuilder &rb, ReverseOp op, Value g) {
    Builder b(op->getContext());
    return rb.op<ReverseOp>({g}, {b.getNamedAttr("axis", op.getAxisAttr())});
  });
  // A change of layout moves each element once (its relation takes only
  // factors that divide their axes): the gradient moves back.
  setUnaryRule<LayoutTransformOp>(
      [](RelayBuilder &rb, LayoutTransformOp op, Value g) {
        Builder b(op->getContext());
        return rb.op<LayoutTransformOp>(
            {g}, {b.getNamedAttr("src_layout", op.getDstLayoutAttr()),
                  b.getNamedAttr("dst_layout", op.getSrcLayoutAttr())});
      });
  // numpy.tile: with data and reps padded with leading 1s to one rank R,
  // out is [r0 * d0, ..., r(R-1) * d(R-1)]; the gradient sums the copies.
  setUnaryRule<TileOp>([](RelayBuilder &rb, TileOp op, Value g) {
    Value x = op->getOperand(0);
    ArrayRef<int64_t> xs = shapeOf(x), reps = op.getReps();
    size_t rank = std::max(xs.size(), reps.size());
    SmallVector<int64_t> split, axisOf, summed;
    for (size_t i = 0; i < rank; ++i) {
      bool padded = i + xs.size() < rank;
      int64_t d = padded ? 1 : xs[i + xs.size() - rank];
      int64_t r = i + reps.size() < rank ? 1 : reps[i + reps.size() - rank];
      summed.push_back(split.size());
      split.append({r, d});
      axisOf.append({-1, padded ? -1 : int64_t(i + xs.size() - rank)});
    }
    return sumRepeats(rb, g, split, axisOf, summed, x);
  });
  // out[.., i * r + j, ..] = x[.., i, ..]: sum over j.
  setUnaryRule<RepeatOp>([](RelayBuilder &rb, RepeatOp op, Value g) {
    Value x = op->getOperand(0);
    ArrayRef<int64_t> xs = shapeOf(x);
    int64_t axis = op.getAxisAttr().getInt(),
            repeats = op.getRepeatsAttr().getInt();
    if (axis < 0)
      axis += xs.size();
    SmallVector<int64_t> split(xs);
    split.insert(split.begin() + axis + 1, repeats);
    SmallVector<int64_t> axisOf =
        llvm::to_vector(llvm::seq<int64_t>(0, int64_t(xs.size())));
    axisOf.insert(axisOf.begin() + axis + 1, -1);
    return sumRepeats(rb, g, split, axisOf, {axis + 1}, x);
  });
  // Each stacked tensor's gradient is its slice of g, the new axis removed.
  setUnaryRule<StackOp>([](RelayBuilder &rb, StackOp op, Value g) {
    Builder b(op->getContext());
    auto fields = cast<TupleType>(op->getOperand(0).getType()).getTypes();
    int64_t axis = op.getAxisAttr().getInt();
    if (axis < 0)
      axis += shapeOf(g).size();
    Value parts = rb.op<SplitOp>(
        {g}, {b.getNamedAttr("indices_or_sections",
                             b.getI64IntegerAttr(int64_t(fields.size()))),
              b.getNamedAttr("axis", b.getI64IntegerAttr(axis))});
    if (!parts)
      return parts;
    // Each part is 1 long on the new axis: squeezed away (sizes known only
    // at run time included).
    SmallVector<Value> pieces;
    for (unsigned i = 0; i < fields.size(); ++i)
      pieces.push_back(
          rb.op<SqueezeOp>({rb.tupleGet(parts, i)}, {ints(b, "axis", {axis})}));
    return rb.tuple(pieces);
  });
  setRule<ReshapeLikeOp>(
      [](RelayBuilder &rb, ReshapeLikeOp op, Value g) -> Grads {
        Value dx = reshapedLike(rb, g, op->getOperand(0));
        if (!dx)
          return failure();
        return SmallVector<Value>{dx, Value()};
      });
  setRule<BroadcastToLikeOp>([](RelayBuilder &rb, BroadcastToLikeOp op,
                                Value g) -> Grads {
    return SmallVector<Value>{collapseTo(rb, g, op->getOperand(0)), Value()};
  });
  // Shapes and axes computed at run time: the gradient summed back, or
  // given the data's shape back, all the same.
  setRule<DynBroadcastToOp>([](RelayBuilder &rb, DynBroadcastToOp op,
                               Value g) -> Grads {
    return SmallVector<Value>{collapseTo(rb, g, op->getOperand(0)), Value()};
  });
  auto reshapedBack = [](RelayBuilder &rb, Operation *op, Value g) -> Grads {
    Value dx = rb.op<ReshapeLikeOp>({g, op->getOperand(0)});
    if (!dx)
      return failure();
    return SmallVector<Value>{dx, Value()};
  };
  setRule<DynReshapeOp>(reshapedBack);
  setRule<DynSqueezeOp>(reshapedBack);
  setRule<DynExpandDimsOp>(reshapedBack);
  setRule<CollapseSumLikeOp>(
      [](RelayBuilder &rb, CollapseSumLikeOp op, Value g) -> Grads {
        Value dx = rb.op<BroadcastToLikeOp>({g, op->getOperand(0)});
        if (!dx)
          return failure();
        return SmallVector<Value>{dx, Value()};
      });
  setRule<CastLikeOp>([](RelayBuilder &rb, CastLikeOp op, Value g) -> Grads {
    Value dx = rb.op<CastLikeOp>({g, op->getOperand(0)});
    if (!dx)
      return failure();
    return SmallVector<Value>{dx, Value()};
  });
  // Relay's dropout is the identity at inference; the mask is constant.
  setUnaryRule<DropoutOp>(
      [](RelayBuilder &rb, DropoutOp, Value g) { return rb.tupleGet(g, 0); });
}

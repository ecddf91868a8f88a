//===- KnownShapes.cpp - Shape vectors known in part at import -----------===//
//
// Detection models build shapes from a count that depends on the data and
// sizes that do not: torchvision's Mask R-CNN fills ConstantOfShape(
// Concat(num_rois, 256, 14, 14)) with its RoIAlign results and runs the
// mask head's convolutions on them. Relay's dyn.* operators type such a
// result all-`?`; what is known here is put back into its type, so that
// the convolutions see `?x256x14x14` (a `?` batch is what their relations
// take). Where nothing is known at import, the sizes are read when the
// model runs (runTimeSizes, positionsAlong, flattenAtRunTime: data whose
// sizes depend on it, a NonZero's rows or a sequence grown in a loop).
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/Emitter.h"

namespace mlir::relay::onnx_import {

/// Normalises a 1-d strided_slice bound against a vector of `n` elements.
static int64_t sliceBound(int64_t bound, int64_t n) {
  if (bound < 0)
    bound += n;
  return std::clamp<int64_t>(bound, 0, n);
}

std::optional<SmallVector<int64_t>> knownIntValues(Value v, unsigned depth) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !type.hasStaticShape() || type.getRank() > 1 ||
      !isa<IntegerType>(type.getElementType()))
    return std::nullopt;
  // Shape vectors are short; a long vector is data, not read here.
  constexpr int64_t kMaxLength = 1024;
  int64_t n = type.getNumElements();
  if (n > kMaxLength)
    return std::nullopt;
  SmallVector<int64_t> unknown(n, ShapedType::kDynamic);
  if (depth == 0)
    return unknown;
  Operation *def = v.getDefiningOp();
  if (!def)
    return unknown;
  if (auto c = dyn_cast<ConstantOp>(def))
    return readInts(c.getValue());
  // The sizes of a ranked tensor; `?` where they depend on the data.
  if (auto shapeOf = dyn_cast<ShapeOfOp>(def)) {
    auto of = dyn_cast<RankedTensorType>(shapeOf.getData().getType());
    if (!of || of.getRank() != n)
      return unknown;
    return SmallVector<int64_t>(of.getShape());
  }
  // Moves of one element, or of the whole vector, keep what is known.
  if (isa<CastOp, ExpandDimsOp, ReshapeOp, SqueezeOp>(def)) {
    std::optional<SmallVector<int64_t>> in =
        knownIntValues(def->getOperand(0), depth - 1);
    if (!in || (int64_t)in->size() != n)
      return unknown;
    return in;
  }
  if (auto slice = dyn_cast<StridedSliceOp>(def)) {
    std::optional<SmallVector<int64_t>> in =
        knownIntValues(slice.getData(), depth - 1);
    if (!in || slice.getBegin().size() != 1 || slice.getEnd().size() != 1 ||
        slice.getSliceMode() != "end" ||
        (slice.getStrides() &&
         (slice.getStrides()->size() != 1 || (*slice.getStrides())[0] != 1)))
      return unknown;
    int64_t size = in->size();
    int64_t begin = sliceBound(slice.getBegin()[0], size);
    int64_t end = sliceBound(slice.getEnd()[0], size);
    if (end - begin != n)
      return unknown;
    return SmallVector<int64_t>(in->begin() + begin, in->begin() + end);
  }
  // Elements picked at known indices.
  if (auto take = dyn_cast<TakeOp>(def)) {
    std::optional<SmallVector<int64_t>> in =
        knownIntValues(take.getData(), depth - 1);
    auto indices = take.getIndices().getDefiningOp<ConstantOp>();
    if (!in || !indices)
      return unknown;
    SmallVector<int64_t> picked;
    int64_t size = in->size();
    for (int64_t i : readInts(indices.getValue())) {
      if (i < 0)
        i += size;
      if (i < 0 || i >= size)
        return unknown;
      picked.push_back((*in)[i]);
    }
    if ((int64_t)picked.size() != n)
      return unknown;
    return picked;
  }
  // Pieces joined: each piece's known values in turn.
  if (auto concat = dyn_cast<ConcatenateOp>(def)) {
    auto tuple = concat.getData().getDefiningOp<TupleOp>();
    if (!tuple)
      return unknown;
    SmallVector<int64_t> joined;
    for (Value field : tuple->getOperands()) {
      std::optional<SmallVector<int64_t>> piece =
          knownIntValues(field, depth - 1);
      if (!piece)
        return unknown;
      joined.append(*piece);
    }
    if ((int64_t)joined.size() != n)
      return unknown;
    return joined;
  }
  return unknown;
}

Value refineKnownDims(NodeContext &ctx, Emitter &b, Value v,
                      ArrayRef<int64_t> known) {
  auto type = v ? dyn_cast<RankedTensorType>(v.getType()) : RankedTensorType();
  if (!type || type.getRank() != (int64_t)known.size())
    return v;
  // Relay's reshape copies an input size where newshape says 0; a size
  // known to be 0 is copied too (it is then in the type already).
  SmallVector<int64_t> newshape;
  bool refines = false;
  for (auto [have, want] : llvm::zip(type.getShape(), known)) {
    bool use =
        ShapedType::isDynamic(have) && !ShapedType::isDynamic(want) && want > 0;
    refines |= use;
    newshape.push_back(use ? want : 0);
  }
  if (!refines)
    return v;
  return b.op<ReshapeOp>({v}, {ctx.ints("newshape", newshape)});
}

Value runTimeSizes(NodeContext &ctx, Emitter &b, Value v, int64_t begin,
                   int64_t end) {
  Type i64 = IntegerType::get(ctx.getContext(), 64);
  ArrayRef<int64_t> part =
      cast<RankedTensorType>(v.getType()).getShape().slice(begin, end - begin);
  if (!ShapedType::isDynamicShape(part))
    return ctx.constant(DenseElementsAttr::get(
        RankedTensorType::get({end - begin}, i64), part));
  Value shape = b.op<ShapeOfOp>({v}, {ctx.type("dtype", i64)});
  return b.op<StridedSliceOp>(
      {shape}, {ctx.ints("begin", {begin}), ctx.ints("end", {end})});
}

Value positionsAlong(NodeContext &ctx, Emitter &b, Value v, int64_t axis,
                     Type dtype, ArrayRef<int64_t> shape) {
  Value size = b.op<TakeOp>({b.op<ShapeOfOp>({v}, {ctx.type("dtype", dtype)}),
                             ctx.scalar(axis, dtype)},
                            {ctx.i64("axis", 0)});
  Value iota =
      b.op<ArangeOp>({ctx.scalar(0, dtype), size, ctx.scalar(1, dtype)},
                     {ctx.type("dtype", dtype)});
  return b.op<ReshapeOp>({iota}, {ctx.ints("newshape", shape)});
}

Value flattenAtRunTime(NodeContext &ctx, Emitter &b, Value v, int64_t axis) {
  int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
  auto side = [&](int64_t begin, int64_t end) {
    return b.op<ProdOp>({runTimeSizes(ctx, b, v, begin, end)},
                        {ctx.boolean("keepdims", true)});
  };
  Value sizes = b.op<ConcatenateOp>(
      {ctx.tuple({side(0, axis), side(axis, rank)})}, {ctx.i64("axis", 0)});
  return b.op<DynReshapeOp>({v, sizes}, {});
}

} // namespace mlir::relay::onnx_import

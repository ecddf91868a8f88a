//===- TransformRewrites.cpp - Data-movement composites ---------*- C++ -*-===//
//
// collapse_sum_like, collapse_sum_to, reverse, tile, repeat, one_hot, cumsum,
// cumprod, depth_to_space, space_to_depth, shape_of, ndarray_size, mirror_pad,
// space_to_batch_nd, batch_to_space_nd, dilate, meshgrid, reverse_sequence,
// slice_like.
//
//===----------------------------------------------------------------------===//

#include "transforms/Decompose/Rewrites.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

namespace {

/// `data` summed over the axes broadcasting adds to go from `to`.
Value collapseSum(Emitter &b, Value data, ArrayRef<int64_t> to) {
  ArrayRef<int64_t> from = shapeOf(data);
  int64_t extra = from.size() - to.size();
  SmallVector<int64_t> axes;
  for (int64_t i = 0; i < (int64_t)from.size(); ++i)
    if (i < extra || (to[i - extra] == 1 && from[i] != 1))
      axes.push_back(i);
  if (!axes.empty())
    data = b.op<SumOp>({data},
                       {b.ints("axis", axes), b.boolean("keepdims", true)});
  return b.reshape(data, to);
}

Value collapseSumLike(Emitter &b, Operation *op) {
  return collapseSum(b, op->getOperand(0), shapeOf(op->getOperand(1)));
}

/// collapse_sum_to of a static result: its shape is the target.
Value collapseSumTo(Emitter &b, Operation *op) {
  return collapseSum(b, op->getOperand(0), shapeOf(op->getResult(0)));
}

Value reverse(Emitter &b, Operation *op) {
  Value data = op->getOperand(0);
  int64_t axis = positive(intAttr(op, "axis"), shapeOf(data).size());
  int64_t n = shapeOf(data)[axis];
  SmallVector<int64_t> indices;
  for (int64_t i = n - 1; i >= 0; --i)
    indices.push_back(i);
  auto type =
      RankedTensorType::get({n}, IntegerType::get(op->getContext(), 64));
  Value idx = b.constant(DenseElementsAttr::get(type, ArrayRef(indices)));
  return b.op<TakeOp>({data, idx}, {b.i64("axis", axis)});
}

/// numpy.tile: [d0, d1] -> [1, d0, 1, d1] -> broadcast [r0, d0, r1, d1] ->
/// [r0 * d0, r1 * d1].
Value tile(Emitter &b, Operation *op) {
  Value data = op->getOperand(0);
  ArrayRef<int64_t> reps =
      cast<DenseI64ArrayAttr>(op->getAttr("reps")).asArrayRef();
  ArrayRef<int64_t> shape = shapeOf(data);
  size_t rank = std::max(shape.size(), reps.size());
  SmallVector<int64_t> dims(rank - shape.size(), 1),
      times(rank - reps.size(), 1);
  dims.append(shape.begin(), shape.end());
  times.append(reps.begin(), reps.end());
  SmallVector<int64_t> interleaved, broadcast, result;
  for (size_t i = 0; i < rank; ++i) {
    interleaved.append({1, dims[i]});
    broadcast.append({times[i], dims[i]});
    result.push_back(times[i] * dims[i]);
  }
  Value spread = b.op<BroadcastToOp>({b.reshape(data, interleaved)},
                                     {b.ints("shape", broadcast)});
  return b.reshape(spread, result);
}

/// Each element `repeats` times: [.., d, ..] -> [.., d, 1, ..] ->
/// broadcast [.., d, r, ..] -> [.., d * r, ..].
Value repeat(Emitter &b, Operation *op) {
  Value data = op->getOperand(0);
  SmallVector<int64_t> shape(shapeOf(data));
  int64_t axis = positive(intAttr(op, "axis"), shape.size());
  int64_t r = intAttr(op, "repeats");
  SmallVector<int64_t> expanded(shape), broadcast(shape), result(shape);
  expanded.insert(expanded.begin() + axis + 1, 1);
  broadcast.insert(broadcast.begin() + axis + 1, r);
  result[axis] *= r;
  Value spread = b.op<BroadcastToOp>({b.reshape(data, expanded)},
                                     {b.ints("shape", broadcast)});
  return b.reshape(spread, result);
}

/// where(expand_dims(indices, axis) == iota, on, off) in `dtype`.
Value oneHot(Emitter &b, Operation *op) {
  Type i64 = IntegerType::get(op->getContext(), 64);
  Value indices = op->getOperand(0);
  if (elementOf(indices) != i64)
    indices = b.op<CastOp>({indices}, {b.type("dtype", i64)});
  int64_t rank = shapeOf(indices).size() + 1;
  int64_t axis = positive(intAttr(op, "axis"), rank);
  int64_t depth = intAttr(op, "depth");
  SmallVector<int64_t> iotaShape(rank, 1), positions;
  iotaShape[axis] = depth;
  for (int64_t i = 0; i < depth; ++i)
    positions.push_back(i);
  Value iota = b.constant(DenseElementsAttr::get(
      RankedTensorType::get(iotaShape, i64), ArrayRef(positions)));
  Value same = b.op<EqualOp>(
      {b.op<ExpandDimsOp>({indices}, {b.i64("axis", axis)}), iota});
  Type dtype = cast<TypeAttr>(op->getAttr("dtype")).getValue();
  auto as = [&](Value v) {
    return elementOf(v) == dtype ? v
                                 : b.op<CastOp>({v}, {b.type("dtype", dtype)});
  };
  return b.op<WhereOp>({same, as(op->getOperand(1)), as(op->getOperand(2))});
}

/// log2(n) steps of combining the running sums (or products) with
/// themselves shifted by 1, 2, 4, ... positions (Hillis-Steele), the
/// shift filling in 0 (or 1); `exclusive` shifts by one more.
Value scan(Emitter &b, Operation *op, bool product) {
  Value y = op->getOperand(0);
  std::optional<int64_t> axisAttr;
  if (auto a = op->getAttrOfType<IntegerAttr>("axis"))
    axisAttr = a.getInt();
  if (!axisAttr) {
    y = b.reshape(y, {shapeOf(op->getResult(0))[0]});
    axisAttr = 0;
  }
  Type dtype = elementOf(op->getResult(0));
  if (elementOf(y) != dtype)
    y = b.op<CastOp>({y}, {b.type("dtype", dtype)});
  SmallVector<int64_t> shape(shapeOf(y));
  int64_t rank = shape.size(), axis = positive(*axisAttr, rank);
  Value identity = b.scalar(product ? 1 : 0, y);
  auto shift = [&](Value v, int64_t by) {
    SmallVector<int64_t> width(2 * rank, 0), begin(rank, 0);
    width[2 * axis] = by;
    Value padded = b.op<PadOp>({v, identity}, {b.ints("pad_width", width)});
    return b.op<StridedSliceOp>({padded},
                                {b.ints("begin", begin), b.ints("end", shape)});
  };
  for (int64_t by = 1; by < shape[axis]; by *= 2)
    y = product ? b.op<MultiplyOp>({y, shift(y, by)}) : b.add(y, shift(y, by));
  if (boolAttr(op, "exclusive"))
    y = shift(y, 1);
  return y;
}

/// reshape, transpose, reshape.
Value moveBlocks(Emitter &b, Value x, ArrayRef<int64_t> split,
                 ArrayRef<int64_t> perm, ArrayRef<int64_t> merged) {
  Value t = b.op<TransposeOp>({b.reshape(x, split)}, {b.ints("axes", perm)});
  return b.reshape(t, merged);
}

Value depthToSpace(Emitter &b, Operation *op) {
  Value x = op->getOperand(0);
  ArrayRef<int64_t> s = shapeOf(x);
  int64_t k = intAttr(op, "block_size");
  int64_t n = s[0], c = s[1] / (k * k), h = s[2], w = s[3];
  SmallVector<int64_t> merged = {n, c, h * k, w * k};
  auto mode = cast<StringAttr>(getOperatorAttributes(op).get("mode"));
  if (mode.getValue() == "CRD")
    return moveBlocks(b, x, {n, c, k, k, h, w}, {0, 1, 4, 2, 5, 3}, merged);
  return moveBlocks(b, x, {n, k, k, c, h, w}, {0, 3, 4, 1, 5, 2}, merged);
}

Value spaceToDepth(Emitter &b, Operation *op) {
  Value x = op->getOperand(0);
  ArrayRef<int64_t> s = shapeOf(x);
  int64_t k = intAttr(op, "block_size");
  int64_t n = s[0], c = s[1], h = s[2] / k, w = s[3] / k;
  return moveBlocks(b, x, {n, c, h, k, w, k}, {0, 3, 5, 1, 2, 4},
                    {n, c * k * k, h, w});
}

/// A constant of `op`'s result type holding `values`.
Value intResult(Emitter &b, Operation *op, ArrayRef<int64_t> values) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  unsigned width = type.getElementType().getIntOrFloatBitWidth();
  SmallVector<APInt> bits;
  for (int64_t v : values)
    bits.push_back(APInt(width, v, /*isSigned=*/true));
  return b.constant(DenseElementsAttr::get(type, bits));
}

/// SYMMETRIC mirror padding, one axis at a time: the reversed edge slices
/// around the data. (REFLECT is nn.pad's reflect mode.)
Value mirrorPad(Emitter &b, Operation *op) {
  Value x = op->getOperand(0);
  ArrayRef<int64_t> width =
      cast<DenseI64ArrayAttr>(op->getAttr("pad_width")).asArrayRef();
  auto mode = cast<StringAttr>(getOperatorAttributes(op).get("mode"));
  if (mode.getValue() == "REFLECT")
    return b.op<PadOp>({x, b.scalar(0, x)}, {b.ints("pad_width", width),
                                             b.str("pad_mode", "reflect")});
  int64_t rank = shapeOf(x).size();
  for (int64_t axis = 0; axis < rank; ++axis) {
    int64_t before = width[2 * axis], after = width[2 * axis + 1];
    if (!before && !after)
      continue;
    SmallVector<int64_t> shape(shapeOf(x));
    auto edge = [&](int64_t from, int64_t to) {
      SmallVector<int64_t> begin(rank, 0), end(shape);
      begin[axis] = from;
      end[axis] = to;
      Value slice = b.op<StridedSliceOp>(
          {x}, {b.ints("begin", begin), b.ints("end", end)});
      return b.op<ReverseOp>({slice}, {b.i64("axis", axis)});
    };
    SmallVector<Value> parts;
    if (before)
      parts.push_back(edge(0, before));
    parts.push_back(x);
    if (after)
      parts.push_back(edge(shape[axis] - after, shape[axis]));
    if (!b.succeeded())
      return Value();
    x = b.op<ConcatenateOp>({b.tuple(parts)}, {b.i64("axis", axis)});
  }
  return x;
}

/// 0, 1, ... along `axis` of a rank-`shape.size()` i64 constant (ones
/// elsewhere), the positions of the data of `shape` along it.
Value positionsAlong(Emitter &b, ArrayRef<int64_t> shape, int64_t axis) {
  SmallVector<int64_t> positionShape(shape.size(), 1), positions;
  positionShape[axis] = shape[axis];
  for (int64_t i = 0; i < shape[axis]; ++i)
    positions.push_back(i);
  Type i64 = b.getRewriter().getI64Type();
  return b.constant(DenseElementsAttr::get(
      RankedTensorType::get(positionShape, i64), ArrayRef(positions)));
}

/// One length per entry along `axis` (a vector, any integer type) as i64,
/// shaped to broadcast against data of `shape`.
Value lengthsAlong(Emitter &b, Value lengths, ArrayRef<int64_t> shape,
                   int64_t axis) {
  Type i64 = b.getRewriter().getI64Type();
  if (elementOf(lengths) != i64)
    lengths = b.op<CastOp>({lengths}, {b.type("dtype", i64)});
  SmallVector<int64_t> lengthShape(shape.size(), 1);
  lengthShape[axis] = shape[axis];
  return b.reshape(lengths, lengthShape);
}

/// where(position < length, data, mask_value), the positions along `axis`
/// against each batch entry's length.
Value sequenceMask(Emitter &b, Operation *op) {
  Value data = op->getOperand(0);
  ArrayRef<int64_t> shape = shapeOf(data);
  int64_t axis = intAttr(op, "axis");
  Value live =
      b.op<LessOp>({positionsAlong(b, shape, axis),
                    lengthsAlong(b, op->getOperand(1), shape, 1 - axis)});
  return b.op<WhereOp>(
      {live, data, b.scalar(floatAttr(op, "mask_value"), data)});
}

/// reverse_sequence as TVM computes it: a gather along seq_axis at
/// where(t < L, L - 1 - t, t), L each batch entry's length clamped to the
/// axis (a length of 1 or less keeps the entry as it is).
Value reverseSequence(Emitter &b, Operation *op) {
  Value data = op->getOperand(0);
  ArrayRef<int64_t> shape = shapeOf(data);
  int64_t rank = shape.size();
  int64_t seq = positive(intAttr(op, "seq_axis"), rank),
          batch = positive(intAttr(op, "batch_axis"), rank);
  Value t = positionsAlong(b, shape, seq);
  Value lengths = lengthsAlong(b, op->getOperand(1), shape, batch);
  Value len = b.op<MinimumOp>({lengths, b.scalar(double(shape[seq]), lengths)});
  Value reversed =
      b.op<SubtractOp>({b.op<SubtractOp>({len, b.scalar(1, len)}), t});
  Value index = b.op<WhereOp>({b.op<LessOp>({t, len}), reversed, t});
  index = b.op<BroadcastToOp>({index}, {b.ints("shape", shape)});
  return b.op<GatherOp>({data, index}, {b.i64("axis", seq)});
}

/// sliding_window: each output element's flat position in the windowed
/// axes (window position times stride plus the offset in the window,
/// per axis), one take.
Value slidingWindow(Emitter &b, Operation *op) {
  Value data = op->getOperand(0);
  int64_t axis = intAttr(op, "axis");
  ArrayRef<int64_t> window = intsAttr(op, "window_shape"),
                    strides = intsAttr(op, "strides");
  ArrayRef<int64_t> in = shapeOf(data).drop_front(axis);
  ArrayRef<int64_t> outShape = shapeOf(op->getResult(0)).drop_front(axis);
  int64_t d = window.size();
  SmallVector<int64_t> indices;
  int64_t count = 1;
  for (int64_t size : outShape)
    count *= size;
  SmallVector<int64_t> at(2 * d, 0);
  for (int64_t e = 0; e < count; ++e) {
    int64_t flat = 0;
    for (int64_t i = 0; i < d; ++i)
      flat = flat * in[i] + at[i] * strides[i] + at[d + i];
    indices.push_back(flat);
    for (int64_t i = 2 * d - 1; i >= 0 && ++at[i] == outShape[i]; --i)
      at[i] = 0;
  }
  return takeFlat(b, data, axis, outShape, indices);
}

/// slice_like: the leading part of the data of the result's shape.
Value sliceLike(Emitter &b, Operation *op) {
  ArrayRef<int64_t> out = shapeOf(op->getResult(0));
  return b.op<StridedSliceOp>(
      {op->getOperand(0)},
      {b.ints("begin", SmallVector<int64_t>(out.size(), 0)),
       b.ints("end", out)});
}

/// SpaceToBatchND: pad, split each spatial axis into (blocks, block), move
/// the block offsets in front of the batch, merge them into it.
Value spaceToBatch(Emitter &b, Operation *op) {
  Value data = op->getOperand(0);
  auto block = intsAttr(op, "block_shape");
  auto pads = intsAttr(op, "paddings");
  ArrayRef<int64_t> shape = shapeOf(data);
  int64_t m = block.size(), rank = shape.size();
  SmallVector<int64_t> width(2 * rank, 0);
  for (int64_t i = 0; i < m; ++i) {
    width[2 * (1 + i)] = pads[2 * i];
    width[2 * (1 + i) + 1] = pads[2 * i + 1];
  }
  Value x = b.op<PadOp>({data, b.scalar(floatAttr(op, "pad_value"), data)},
                        {b.ints("pad_width", width)});
  SmallVector<int64_t> split = {shape[0]}, perm, out = {shape[0]};
  for (int64_t i = 0; i < m; ++i) {
    int64_t padded = shape[1 + i] + pads[2 * i] + pads[2 * i + 1];
    split.append({padded / block[i], block[i]});
    out.push_back(padded / block[i]);
    out[0] *= block[i];
  }
  for (int64_t i = 0; i < m; ++i)
    perm.push_back(2 + 2 * i); // the offsets within the blocks
  perm.push_back(0);
  for (int64_t i = 0; i < m; ++i)
    perm.push_back(1 + 2 * i);
  for (int64_t i = 1 + m; i < rank; ++i) {
    split.push_back(shape[i]);
    out.push_back(shape[i]);
    perm.push_back(m + i);
  }
  x = b.op<TransposeOp>({b.reshape(x, split)}, {b.ints("axes", perm)});
  return b.reshape(x, out);
}

/// BatchToSpaceND: split the batch into (block offsets, batch), interleave
/// each offset after its spatial axis, merge, crop.
Value batchToSpace(Emitter &b, Operation *op) {
  Value data = op->getOperand(0);
  auto block = intsAttr(op, "block_shape");
  auto crops = intsAttr(op, "crops");
  ArrayRef<int64_t> shape = shapeOf(data);
  int64_t m = block.size(), rank = shape.size(), batch = shape[0];
  for (int64_t v : block)
    batch /= v;
  SmallVector<int64_t> split(block), perm = {m}, merged = {batch};
  split.push_back(batch);
  SmallVector<int64_t> begin(rank, 0), end;
  end.push_back(batch);
  for (int64_t i = 0; i < m; ++i) {
    split.push_back(shape[1 + i]);
    perm.append({m + 1 + i, i});
    merged.push_back(shape[1 + i] * block[i]);
    begin[1 + i] = crops[2 * i];
    end.push_back(merged.back() - crops[2 * i + 1]);
  }
  for (int64_t i = 1 + m; i < rank; ++i) {
    split.push_back(shape[i]);
    perm.push_back(m + i);
    merged.push_back(shape[i]);
    end.push_back(shape[i]);
  }
  Value x = b.op<TransposeOp>({b.reshape(data, split)}, {b.ints("axes", perm)});
  x = b.reshape(x, merged);
  return b.op<StridedSliceOp>({x},
                              {b.ints("begin", begin), b.ints("end", end)});
}

/// Dilate: per axis with a stride s > 1, each element followed by s - 1
/// fill values (a new axis padded), the trailing fill cut.
Value dilate(Emitter &b, Operation *op) {
  Value x = op->getOperand(0);
  auto strides = intsAttr(op, "strides");
  Value fill = b.scalar(floatAttr(op, "dilation_value"), x);
  for (int64_t axis = 0; axis < int64_t(strides.size()); ++axis) {
    int64_t s = strides[axis];
    SmallVector<int64_t> shape(shapeOf(x));
    if (s == 1 || shape[axis] == 0)
      continue;
    SmallVector<int64_t> spread(shape);
    spread.insert(spread.begin() + axis + 1, 1);
    SmallVector<int64_t> width(2 * spread.size(), 0);
    width[2 * (axis + 1) + 1] = s - 1;
    Value padded =
        b.op<PadOp>({b.reshape(x, spread), fill}, {b.ints("pad_width", width)});
    SmallVector<int64_t> merged(shape), end(shape);
    merged[axis] *= s;
    end[axis] = (shape[axis] - 1) * s + 1;
    x = b.op<StridedSliceOp>(
        {b.reshape(padded, merged)},
        {b.ints("begin", SmallVector<int64_t>(shape.size(), 0)),
         b.ints("end", end)});
  }
  return x;
}

/// Each vector reshaped to run along its own axis of the grid, then
/// broadcast to the grid's shape.
Value meshgrid(Emitter &b, Operation *op) {
  auto grids = cast<TupleType>(op->getResult(0).getType());
  ArrayRef<int64_t> shape = cast<RankedTensorType>(grids.getType(0)).getShape();
  bool xy =
      cast<StringAttr>(getOperatorAttributes(op).get("indexing")).getValue() ==
      "xy";
  SmallVector<Value> fields;
  for (unsigned i = 0; i < grids.size(); ++i) {
    unsigned axis = xy && i < 2 && grids.size() > 1 ? 1 - i : i;
    SmallVector<int64_t> along(shape.size(), 1);
    along[axis] = shape[axis];
    Value v = b.reshape(b.tupleGet(op->getOperand(0), i), along);
    fields.push_back(b.op<BroadcastToOp>({v}, {b.ints("shape", shape)}));
  }
  return b.tuple(fields);
}

/// contrib_reverse_reshape: its type gives the shape.
Value reverseReshape(Emitter &b, Operation *op) {
  return b.reshape(op->getOperand(0), shapeOf(op->getResult(0)));
}

/// nn.fifo_buffer: the buffer then the data, less the buffer's first
/// data-length entries along the axis.
Value fifoBuffer(Emitter &b, Operation *op) {
  Value data = op->getOperand(0), buffer = op->getOperand(1);
  int64_t rank = shapeOf(buffer).size();
  int64_t axis = positive(intAttr(op, "axis"), rank);
  int64_t shift = shapeOf(data)[axis];
  Value joined =
      b.op<ConcatenateOp>({b.tuple({buffer, data})}, {b.i64("axis", axis)});
  return b.op<StridedSliceOp>({joined},
                              {b.ints("begin", {shift}),
                               b.ints("end", {shift + shapeOf(buffer)[axis]}),
                               b.ints("axes", {axis})});
}

} // namespace

Value mlir::relay::decompose::takeFlat(Emitter &b, Value data, int64_t axis,
                                       ArrayRef<int64_t> indexShape,
                                       ArrayRef<int64_t> indices) {
  ArrayRef<int64_t> shape = shapeOf(data);
  SmallVector<int64_t> flatShape(shape.take_front(axis));
  int64_t flat = 1;
  for (int64_t size : shape.drop_front(axis))
    flat *= size;
  flatShape.push_back(flat);
  auto type = RankedTensorType::get(indexShape, b.getRewriter().getI64Type());
  return b.op<TakeOp>({b.reshape(data, flatShape),
                       b.constant(DenseElementsAttr::get(type, indices))},
                      {b.i64("axis", axis)});
}

void mlir::relay::decompose::addTransformRewrites(AddRewrite add) {
  add("meshgrid", meshgrid);
  add("nn.space_to_batch_nd", spaceToBatch);
  add("nn.batch_to_space_nd", batchToSpace);
  add("nn.dilate", dilate);
  add("sequence_mask", sequenceMask);
  add("reverse_sequence", reverseSequence);
  add("slice_like", sliceLike);
  add("sliding_window", slidingWindow);
  add("collapse_sum_like", collapseSumLike);
  add("collapse_sum_to", collapseSumTo);
  add("contrib_reverse_reshape", reverseReshape);
  add("nn.fifo_buffer", fifoBuffer);
  add("reverse", reverse);
  add("tile", tile);
  add("repeat", repeat);
  add("shape_of", [](Emitter &b, Operation *op) {
    return intResult(b, op, shapeOf(op->getOperand(0)));
  });
  add("ndarray_size", [](Emitter &b, Operation *op) {
    auto type = cast<RankedTensorType>(op->getOperand(0).getType());
    return intResult(b, op, {type.getNumElements()});
  });
  add("nn.mirror_pad", mirrorPad);
  add("one_hot", oneHot);
  add("cumsum", [](Emitter &b, Operation *op) { return scan(b, op, false); });
  add("cumprod", [](Emitter &b, Operation *op) { return scan(b, op, true); });
  add("nn.depth_to_space", depthToSpace);
  add("nn.space_to_depth", spaceToDepth);
}

/// A dyn.full of `value` in `op`'s result dtype, of its shape operand.
static Value filledLike(Emitter &b, Operation *op, double value) {
  Type dtype = elementOf(op->getResult(0));
  Value fill = b.constant(DenseElementsAttr::get(
      RankedTensorType::get({}, dtype),
      isa<FloatType>(dtype)
          ? Attribute(FloatAttr::get(dtype, value))
          : Attribute(IntegerAttr::get(dtype, int64_t(value)))));
  return b.op<DynFullOp>({fill, op->getOperand(0)}, {b.type("dtype", dtype)});
}

// dyn.zeros and dyn.ones as dyn.full (the interpreter's kernel sizes it at
// run time): they read no sizes. (dyn.broadcast_to has a kernel.)
void mlir::relay::decompose::addDynamicRewrites(AddRewrite add) {
  add("dyn.zeros",
      [](Emitter &b, Operation *op) { return filledLike(b, op, 0); });
  add("dyn.ones",
      [](Emitter &b, Operation *op) { return filledLike(b, op, 1); });
}

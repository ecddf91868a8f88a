//===- IndexRewrites.cpp - Index-computing composites -----------*- C++ -*-===//
//
// trilu, gather_nd, adv_index, scatter_add, unravel_index,
// invert_permutation, searchsorted, sparse_to_dense, matrix_set_diag and
// strided_set as masks, flat indices, comparisons and scatters over the
// primitive operators.
//
//===----------------------------------------------------------------------===//

#include "transforms/Decompose/Rewrites.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

namespace {

/// Keeps element (i, j) of the last two axes where j - i >= k (upper) or
/// j - i <= k.
Value trilu(Emitter &b, Operation *op) {
  Value data = op->getOperand(0);
  ArrayRef<int64_t> shape = shapeOf(data);
  int64_t rows = shape[shape.size() - 2], cols = shape.back();
  SmallVector<int64_t> offsets;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      offsets.push_back(j - i);
  Value diagonal = i64Constant(b, {rows, cols}, offsets);
  Type i64 = b.getRewriter().getI64Type();
  Value k = castTo(b, op->getOperand(1), i64);
  Value keep = boolAttr(op, "upper") ? b.op<GreaterEqualOp>({diagonal, k})
                                     : b.op<LessEqualOp>({diagonal, k});
  return b.op<WhereOp>({keep, data, b.scalar(0, data)});
}

/// An int64 coordinate clipped to [0, size).
Value clipToAxis(Emitter &b, Value coordinate, int64_t size) {
  return b.op<MinimumOp>(
      {b.op<MaximumOp>({coordinate, i64Constant(b, {}, {0})}),
       i64Constant(b, {}, {size - 1})});
}

/// adv_index: the index tensors (negatives counted from the end of their
/// axis) as one flat index into the indexed axes, which are merged into one
/// for a take.
Value advIndex(Emitter &b, Operation *op) {
  Value inputs = op->getOperand(0);
  size_t k = cast<TupleType>(inputs.getType()).size() - 1;
  Value data = b.tupleGet(inputs, 0);
  ArrayRef<int64_t> shape = shapeOf(data);
  Type i64 = b.getRewriter().getI64Type();
  Value flat;
  int64_t stride = 1;
  for (size_t i = k; i-- > 0;) {
    Value index = castTo(b, b.tupleGet(inputs, i + 1), i64);
    Value negative = b.op<LessOp>({index, i64Constant(b, {}, {0})});
    index = b.op<WhereOp>(
        {negative, b.add(index, i64Constant(b, {}, {shape[i]})), index});
    // One still outside is clipped to its own axis, not the flat index to
    // the data.
    index = clipToAxis(b, index, shape[i]);
    Value term =
        stride == 1 ? index : b.mul(index, i64Constant(b, {}, {stride}));
    flat = flat ? b.add(term, flat) : term;
    stride *= shape[i];
  }
  SmallVector<int64_t> merged = {stride};
  merged.append(shape.begin() + k, shape.end());
  Value rows = k == 1 ? data : b.reshape(data, merged);
  return b.op<TakeOp>({rows, flat}, {b.i64("axis", 0)});
}

/// Each coordinate tuple as one flat index into data's first b + M axes
/// (the batch coordinates from the indices' own position), then take.
Value gatherND(Emitter &b, Operation *op) {
  Value data = op->getOperand(0), indices = op->getOperand(1);
  ArrayRef<int64_t> shape = shapeOf(data), where = shapeOf(indices);
  int64_t m = where[0], batch = intAttr(op, "batch_dims");
  int64_t lead = batch + m;
  SmallVector<int64_t> strides(lead, 1);
  for (int64_t i = lead - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  Type i64 = b.getRewriter().getI64Type();
  SmallVector<int64_t> positions(where.drop_front());
  Value flat;
  auto accumulate = [&](Value term) { flat = flat ? b.add(flat, term) : term; };
  for (int64_t i = 0; i < batch; ++i) {
    // The batch coordinate: the position along the indices' axis i.
    SmallVector<int64_t> along(positions.size(), 1), values;
    along[i] = positions[i];
    for (int64_t v = 0; v < positions[i]; ++v)
      values.push_back(v * strides[i]);
    accumulate(i64Constant(b, along, values));
  }
  for (int64_t j = 0; j < m; ++j) {
    Value coordinate = castTo(
        b, b.op<TakeOp>({indices, i64Constant(b, {}, {j})}, {b.i64("axis", 0)}),
        i64);
    // Each coordinate clipped to its axis, not the flat index to the
    // data: (0, 9) of a 3x4 matrix reads (0, 3), not element 9.
    coordinate = clipToAxis(b, coordinate, shape[batch + j]);
    accumulate(b.mul(coordinate, i64Constant(b, {}, {strides[batch + j]})));
  }
  int64_t rows = 1;
  for (int64_t i = 0; i < lead; ++i)
    rows *= shape[i];
  SmallVector<int64_t> flatShape = {rows};
  flatShape.append(shape.begin() + lead, shape.end());
  Value table = b.reshape(data, flatShape);
  if (!flat) // no coordinates at all: every position reads the whole data
    flat = b.op<BroadcastToOp>({i64Constant(b, {}, {0})},
                               {b.ints("shape", positions)});
  return b.op<TakeOp>({table, flat}, {b.i64("axis", 0)});
}

Value scatterAdd(Emitter &b, Operation *op) {
  return b.op<ScatterElementsOp>(
      {op->getOperand(0), op->getOperand(1), op->getOperand(2)},
      {b.i64("axis", intAttr(op, "axis")), b.str("reduction", "add")});
}

/// From the last axis of `shape` back: the coordinate is the remainder,
/// the rest the quotient.
Value unravelIndex(Emitter &b, Operation *op) {
  Value rest = op->getOperand(0), shape = op->getOperand(1);
  int64_t rank = shapeOf(shape)[0];
  SmallVector<Value> coordinates(rank);
  for (int64_t d = rank - 1; d >= 0; --d) {
    Value size =
        b.op<TakeOp>({shape, i64Constant(b, {}, {d})}, {b.i64("axis", 0)});
    coordinates[d] = b.op<FloorModOp>({rest, size});
    rest = b.op<FloorDivideOp>({rest, size});
  }
  return b.op<StackOp>({b.tuple(coordinates)}, {b.i64("axis", 0)});
}

/// out[data[i]] = i: 0..n-1 scattered to the positions data holds.
Value invertPermutation(Emitter &b, Operation *op) {
  Value data = op->getOperand(0);
  int64_t n = shapeOf(data)[0];
  SmallVector<int64_t> iota(n);
  for (int64_t i = 0; i < n; ++i)
    iota[i] = i;
  Value positions = castTo(b, i64Constant(b, {n}, iota), elementOf(data));
  Value zeros =
      b.op<BroadcastToOp>({b.scalar(0, data)}, {b.ints("shape", {n})});
  return b.op<ScatterElementsOp>({zeros, data, positions}, {b.i64("axis", 0)});
}

/// Counts, for each value, the elements of its row of the sorted sequence
/// below it (at most it, `right`).
Value searchSorted(Emitter &b, Operation *op) {
  Value sorted = op->getOperand(0), values = op->getOperand(1);
  ArrayRef<int64_t> s = shapeOf(sorted);
  // (A 0-d value, which only a 1-d sequence takes, as one of [1].)
  bool scalar = shapeOf(values).empty();
  SmallVector<int64_t> v =
      scalar ? SmallVector<int64_t>{1} : SmallVector<int64_t>(shapeOf(values));
  // sorted [..., 1, N] against values [..., M, 1]: [..., M, N].
  SmallVector<int64_t> sortedShape(s.drop_back()), valueShape(v);
  if (s.size() == 1)
    sortedShape.assign(v.size() - 1, 1);
  sortedShape.append({1, s.back()});
  valueShape.push_back(1);
  Value row = b.reshape(sorted, sortedShape);
  Value value = b.reshape(values, valueShape);
  Value below = boolAttr(op, "right") ? b.op<LessEqualOp>({row, value})
                                      : b.op<LessOp>({row, value});
  auto dtype = op->getAttrOfType<TypeAttr>("dtype");
  Type out =
      dtype ? dtype.getValue() : Type(b.getRewriter().getIntegerType(32));
  Value count = b.op<SumOp>({castTo(b, below, out)},
                            {b.ints("axis", {int64_t(valueShape.size()) - 1})});
  return scalar ? b.reshape(count, {}) : count;
}

/// The default everywhere, then scatter_nd of the values at the indices
/// (made TVM's [D, N]).
Value sparseToDense(Emitter &b, Operation *op) {
  Value indices = op->getOperand(0), values = op->getOperand(1);
  auto shape =
      cast<DenseI64ArrayAttr>(op->getAttr("output_shape")).asArrayRef();
  ArrayRef<int64_t> where = shapeOf(indices);
  int64_t n = where.empty() ? 1 : where[0];
  if (where.size() == 2)
    indices = b.op<TransposeOp>({indices}, {b.ints("axes", {1, 0})});
  else
    indices = b.reshape(indices, {1, n});
  if (shapeOf(values).size() != 1 || shapeOf(values)[0] != n)
    values =
        b.op<BroadcastToOp>({b.reshape(values, {})}, {b.ints("shape", {n})});
  Value dense =
      b.op<BroadcastToOp>({op->getOperand(2)}, {b.ints("shape", shape)});
  return b.op<ScatterNDOp>({dense, indices, values});
}

/// Where each element of the last two axes reads `diagonal` (as a flat
/// index into its band x length, computed here) and whether it does: a
/// take of the flattened diagonal, then where.
Value matrixSetDiag(Emitter &b, Operation *op) {
  Value data = op->getOperand(0), diagonal = op->getOperand(1);
  ArrayRef<int64_t> shape = shapeOf(data);
  int64_t rank = shape.size(), rows = shape[rank - 2], cols = shape.back();
  int64_t k1 = intAttr(op, "k1"), k2 = intAttr(op, "k2");
  bool superRight = boolAttr(op, "super_diag_right_align");
  bool subRight = boolAttr(op, "sub_diag_right_align");
  int64_t longest = shapeOf(diagonal).back();
  SmallVector<int64_t> where;
  SmallVector<bool> inBand;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      int64_t d = j - i;
      inBand.push_back(d >= k1 && d <= k2);
      if (!inBand.back()) {
        where.push_back(0);
        continue;
      }
      int64_t length = std::min(rows + std::min<int64_t>(d, 0),
                                cols - std::max<int64_t>(d, 0));
      bool right = d > 0 ? superRight : d < 0 && subRight;
      int64_t offset = right ? longest - length : 0;
      where.push_back((k2 - d) * longest + offset + std::min(i, j));
    }
  SmallVector<int64_t> flat(shape.drop_back(2));
  flat.push_back((k2 - k1 + 1) * longest);
  Value taken = b.op<TakeOp>(
      {b.reshape(diagonal, flat), i64Constant(b, {rows, cols}, where)},
      {b.i64("axis", rank - 2)});
  Value mask = b.constant(DenseElementsAttr::get(
      RankedTensorType::get({rows, cols}, b.getRewriter().getI1Type()),
      ArrayRef<bool>(inBand)));
  return b.op<WhereOp>({mask, taken, data});
}

/// strided_set: along each axis, which positions the slice selects and
/// where in `v` each comes from (numpy's slice rules on the bounds, read
/// when the program runs), then one take of v's flat index where every
/// axis selects.
Value stridedSet(Emitter &b, Operation *op) {
  Value data = op->getOperand(0), v = op->getOperand(1);
  ArrayRef<int64_t> shape = shapeOf(data), vShape = shapeOf(v);
  int64_t rank = shape.size();
  int64_t vCount = 1;
  for (int64_t size : vShape)
    vCount *= size;
  if (rank == 0)
    return v;
  if (vCount == 0)
    return data;
  Type i64 = b.getRewriter().getI64Type();
  auto c = [&](int64_t x) { return i64Constant(b, {}, {x}); };
  // Entry d of the bounds operand k (begin, end, strides), or null past
  // its end.
  auto entry = [&](unsigned k, int64_t d) -> Value {
    Value bounds = op->getOperand(k);
    if (d >= shapeOf(bounds)[0])
      return Value();
    return castTo(b, b.op<TakeOp>({bounds, c(d)}, {b.i64("axis", 0)}), i64);
  };
  Value mask, flat;
  int64_t vStride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    int64_t dim = shape[d];
    Value stride = entry(4, d);
    if (!stride)
      stride = c(1);
    Value forward = b.op<GreaterOp>({stride, c(0)});
    auto pick = [&](int64_t ifForward, int64_t ifBackward) {
      return b.op<WhereOp>({forward, c(ifForward), c(ifBackward)});
    };
    // Negative bounds count from the end; then they are clamped to
    // [0, dim] walking forward, [-1, dim - 1] walking backward. The
    // defaults (TVM's) cover the whole axis.
    auto normalize = [&](Value x) {
      x = b.op<WhereOp>({b.op<LessOp>({x, c(0)}), b.add(x, c(dim)), x});
      return b.op<MinimumOp>(
          {b.op<MaximumOp>({x, pick(0, -1)}), pick(dim, dim - 1)});
    };
    Value begin = entry(2, d), end = entry(3, d);
    begin = normalize(begin ? begin : pick(0, dim));
    end = normalize(end ? end : pick(dim + 1, -(dim + 1)));
    SmallVector<int64_t> iota;
    for (int64_t i = 0; i < dim; ++i)
      iota.push_back(i);
    Value i = i64Constant(b, {dim}, iota);
    Value diff = b.op<WhereOp>(
        {forward, b.op<SubtractOp>({i, begin}), b.op<SubtractOp>({begin, i})});
    Value step = b.op<MaximumOp>({b.op<AbsOp>({stride}), c(1)});
    Value inside = b.op<WhereOp>(
        {forward, b.op<LessOp>({i, end}), b.op<GreaterOp>({i, end})});
    Value selected = b.op<LogicalAndOp>(
        {b.op<LogicalAndOp>({inside, b.op<GreaterEqualOp>({diff, c(0)})}),
         b.op<LogicalAndOp>(
             {b.op<EqualOp>({b.op<FloorModOp>({diff, step}), c(0)}),
              b.op<NotEqualOp>({stride, c(0)})})});
    Value index = b.op<MinimumOp>(
        {b.op<MaximumOp>({b.op<FloorDivideOp>({diff, step}), c(0)}),
         c(vShape[d] - 1)});
    selected = alongAxis(b, selected, d, rank);
    index = alongAxis(b, b.mul(index, c(vStride)), d, rank);
    mask = mask ? b.op<LogicalAndOp>({mask, selected}) : selected;
    flat = flat ? b.add(flat, index) : index;
    vStride *= vShape[d];
  }
  Value taken = b.op<TakeOp>({b.reshape(v, {vCount}), flat},
                             {b.i64("axis", 0), b.str("mode", "clip")});
  return b.op<WhereOp>({mask, taken, data});
}

} // namespace

void mlir::relay::decompose::addIndexRewrites(AddRewrite add) {
  add("matrix_set_diag", matrixSetDiag);
  add("sparse_to_dense", sparseToDense);
  add("trilu", trilu);
  add("gather_nd", gatherND);
  add("adv_index", advIndex);
  add("strided_set", stridedSet);
  add("scatter_add", scatterAdd);
  add("unravel_index", unravelIndex);
  add("invert_permutation", invertPermutation);
  add("searchsorted", searchSorted);
}

//===- SortRewrites.cpp - topk, argsort, sort -------------------*- C++ -*-===//
//
// topk, argsort and sort as rounds of max (min) and first position, or
// beyond 64, as a bitonic sorting network.
//
//===----------------------------------------------------------------------===//

#include "transforms/Decompose/Rewrites.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

namespace {

/// k rounds along the axis, each taking the largest (smallest when
/// ascending) element not taken yet and the first position holding it, so
/// equal elements keep their order; taken positions are masked with the
/// type's lowest (highest) value for the next rounds' max (min). `x` is an
/// integer tensor (floats come as orderedKey's integers); `axis` is
/// non-negative and 1 <= k <= its size (topkOrSorted). The values are
/// `x`'s at the indices.
std::pair<Value, Value> topkParts(Emitter &b, Value x, int64_t axis, int64_t k,
                                  bool ascend, Type dtype) {
  ArrayRef<int64_t> shape = shapeOf(x);
  int64_t rank = shape.size(), n = shape[axis];
  Type element = elementOf(x);
  unsigned width = element.getIntOrFloatBitWidth();
  bool isUnsigned = element.isUnsignedInteger() || width == 1;
  APInt lowest = ascend ? (isUnsigned ? APInt::getMaxValue(width)
                                      : APInt::getSignedMaxValue(width))
                        : (isUnsigned ? APInt::getMinValue(width)
                                      : APInt::getSignedMinValue(width));
  Value masked = b.constant(
      DenseElementsAttr::get(RankedTensorType::get({}, element), lowest));
  Type i32 = IntegerType::get(x.getContext(), 32);
  SmallVector<int64_t> iotaShape(rank, 1), positions;
  iotaShape[axis] = n;
  for (int64_t i = 0; i < n; ++i)
    positions.push_back(i);
  Value iota = b.constant(DenseElementsAttr::get(
      RankedTensorType::get(iotaShape, i32),
      ArrayRef<int32_t>(llvm::to_vector(llvm::map_range(
          positions, [](int64_t p) { return static_cast<int32_t>(p); })))));
  SmallVector<Value> values, indices;
  Value taken; // the positions already picked
  for (int64_t r = 0; r < k; ++r) {
    Value key = taken ? b.op<WhereOp>({taken, masked, x}) : x;
    SmallVector<NamedAttribute> reduce = {b.ints("axis", {axis}),
                                          b.boolean("keepdims", true)};
    Value best =
        ascend ? b.op<MinOp>({key}, reduce) : b.op<MaxOp>({key}, reduce);
    // The first position not taken holding the best value.
    Value candidate = b.op<EqualOp>({x, best});
    if (taken)
      candidate = b.op<LogicalAndOp>({candidate, b.op<LogicalNotOp>({taken})});
    Value index =
        b.op<ArgmaxOp>({b.op<CastOp>({candidate}, {b.type("dtype", i32)})},
                       {b.ints("axis", {axis}), b.boolean("keepdims", true)});
    values.push_back(best);
    indices.push_back(index);
    if (r + 1 < k) {
      Value now = b.op<EqualOp>({iota, index});
      taken = taken ? b.op<LogicalOrOp>({taken, now}) : now;
    }
  }
  auto join = [&](ArrayRef<Value> parts) {
    if (!b.succeeded())
      return Value();
    return parts.size() == 1
               ? parts.front()
               : b.op<ConcatenateOp>({b.tuple(parts)}, {b.i64("axis", axis)});
  };
  Value vals = join(values), idx = join(indices);
  if (!dtype)
    dtype = i32;
  if (idx && elementOf(idx) != dtype)
    idx = b.op<CastOp>({idx}, {b.type("dtype", dtype)});
  return {vals, idx};
}

/// The largest k (a sort's: the axis) topk's rounds take, k passes over
/// the axis; a larger one goes through the sorting network.
constexpr int64_t kMaxRounds = 64;

/// Values and indices of `x` sorted along its last axis (of n elements) by
/// a bitonic sorting network (Batcher's), both [M, P] with P the power of
/// two at or above n: log2(P) (log2(P) + 1) / 2 compare-exchange steps,
/// each elementwise over the whole tensor (so it vectorises and splits
/// across threads), O(P log^2 P) work against the rounds' O(k n). Elements
/// are ordered by value (`ascend` or not), equal values by position, so
/// the order is the rounds' (stable); `x` is an integer tensor (floats
/// come as orderedKey's integers), and the padding beyond n sorts after
/// every element.
std::pair<Value, Value> bitonicSort(Emitter &b, Value x, int64_t n,
                                    bool ascend) {
  int64_t m = shapeOf(x)[0], p = 1;
  while (p < n)
    p *= 2;
  MLIRContext *ctx = x.getContext();
  Type i32 = IntegerType::get(ctx, 32);
  if (p > n)
    x = b.op<ConcatenateOp>(
        {b.tuple({x, b.op<BroadcastToOp>({b.scalar(0, x)},
                                         {b.ints("shape", {m, p - n})})})},
        {b.i64("axis", 1)});
  SmallVector<int32_t> positions;
  for (int64_t i = 0; i < p; ++i)
    positions.push_back(static_cast<int32_t>(i));
  Value idx = b.op<BroadcastToOp>(
      {b.constant(DenseElementsAttr::get(RankedTensorType::get({1, p}, i32),
                                         ArrayRef(positions)))},
      {b.ints("shape", {m, p})});
  Value last = b.constant(DenseElementsAttr::get(RankedTensorType::get({}, i32),
                                                 static_cast<int32_t>(n - 1)));
  // Whether (u, ui) comes before (v, vi): by value, then position; the
  // padding (positions n and on) after every element.
  auto before = [&](Value u, Value ui, Value v, Value vi) {
    Value first = b.op<LessOp>({ui, vi});
    Value byValue = b.op<LogicalOrOp>(
        {ascend ? b.op<GreaterOp>({v, u}) : b.op<GreaterOp>({u, v}),
         b.op<LogicalAndOp>({b.op<EqualOp>({u, v}), first})});
    if (p == n)
      return byValue;
    Value padding = b.op<GreaterOp>({b.op<MaximumOp>({ui, vi}), last});
    return b.op<WhereOp>({padding, first, byValue});
  };
  for (int64_t size = 2; size <= p; size *= 2)
    for (int64_t j = size / 2; j >= 1; j /= 2) {
      // Element i meets i ^ j: as [M, blocks, 2, j], (a, 0, c) meets
      // (a, 1, c); block a's pairs end in order (first before second)
      // when bit `size` of a * 2j is clear, in reverse otherwise.
      int64_t blocks = p / (2 * j);
      SmallVector<int8_t> direction;
      for (int64_t a = 0; a < blocks; ++a)
        direction.push_back(((a * 2 * j) & size) == 0);
      Value inOrder =
          b.op<CastOp>({b.constant(DenseElementsAttr::get(
                           RankedTensorType::get({1, blocks, 1, 1},
                                                 IntegerType::get(ctx, 8)),
                           ArrayRef(direction)))},
                       {b.type("dtype", IntegerType::get(ctx, 1))});
      Value x4 = b.reshape(x, {m, blocks, 2, j});
      Value i4 = b.reshape(idx, {m, blocks, 2, j});
      auto half = [&](Value t, int64_t which) {
        return b.op<StridedSliceOp>({t},
                                    {b.ints("begin", {0, 0, which, 0}),
                                     b.ints("end", {m, blocks, which + 1, j})});
      };
      Value lo = half(x4, 0), hi = half(x4, 1);
      Value loI = half(i4, 0), hiI = half(i4, 1);
      Value swap = b.op<LogicalXorOp>({inOrder, before(lo, loI, hi, hiI)});
      auto join = [&](Value l, Value h) {
        return b.reshape(
            b.op<ConcatenateOp>({b.tuple({b.op<WhereOp>({swap, h, l}),
                                          b.op<WhereOp>({swap, l, h})})},
                                {b.i64("axis", 2)}),
            {m, p});
      };
      x = join(lo, hi);
      idx = join(loI, hiI);
    }
  return {x, idx};
}

/// topkParts for a k (or an axis, sorting) beyond kMaxRounds: the axis
/// moved last and the rest flattened, sorted by bitonicSort, the first k
/// kept, and the axis put back (`axis` and `k` as topkParts takes them).
std::pair<Value, Value> sortedParts(Emitter &b, Value x, int64_t axis,
                                    int64_t k, bool ascend, Type dtype) {
  ArrayRef<int64_t> shape = shapeOf(x);
  int64_t rank = shape.size(), n = shape[axis];
  SmallVector<int64_t> perm, rest;
  for (int64_t i = 0; i < rank; ++i)
    if (i != axis) {
      perm.push_back(i);
      rest.push_back(shape[i]);
    }
  perm.push_back(axis);
  int64_t m = 1;
  for (int64_t d : rest)
    m *= d;
  Value moved =
      axis == rank - 1 ? x : b.op<TransposeOp>({x}, {b.ints("axes", perm)});
  Type element = elementOf(x);
  bool isBool = element.isInteger(1);
  Value flat = b.reshape(moved, {m, n});
  if (isBool) // compared as 0 and 1
    flat = b.op<CastOp>({flat},
                        {b.type("dtype", IntegerType::get(x.getContext(), 8))});
  auto [values, indices] = bitonicSort(b, flat, n, ascend);
  SmallVector<int64_t> kept(rest);
  kept.push_back(k);
  SmallVector<int64_t> inverse(rank);
  for (int64_t i = 0; i < rank; ++i)
    inverse[perm[i]] = i;
  auto back = [&](Value v) {
    v = b.reshape(b.op<StridedSliceOp>(
                      {v}, {b.ints("begin", {0, 0}), b.ints("end", {m, k})}),
                  kept);
    return axis == rank - 1 ? v
                            : b.op<TransposeOp>({v}, {b.ints("axes", inverse)});
  };
  values = back(values);
  if (isBool)
    values = b.op<CastOp>({values}, {b.type("dtype", element)});
  indices = back(indices);
  if (!dtype)
    dtype = IntegerType::get(x.getContext(), 32);
  if (indices && elementOf(indices) != dtype)
    indices = b.op<CastOp>({indices}, {b.type("dtype", dtype)});
  return {values, indices};
}

/// A 0-d integer constant of `type`.
Value intScalar(Emitter &b, IntegerType type, const APInt &v) {
  return b.constant(DenseElementsAttr::get(RankedTensorType::get({}, type), v));
}

/// Integers of the float tensor `x`'s width ordered as its elements are,
/// NaN (of either sign) above every number and -0 equal to +0, so that
/// one integer compare orders them as PyTorch's sort and the interpreter
/// do: the bits as a sign and a magnitude, made two's complement, and NaN
/// the largest integer.
Value orderedKey(Emitter &b, Value x) {
  unsigned width = elementOf(x).getIntOrFloatBitWidth();
  auto type = IntegerType::get(x.getContext(), width);
  Value bits = b.op<ReinterpretOp>({x}, {b.type("dtype", type)});
  Value magnitude = b.op<BitwiseAndOp>(
      {bits, intScalar(b, type, APInt::getSignedMaxValue(width))});
  Value negative = b.op<LessOp>({bits, intScalar(b, type, APInt(width, 0))});
  Value key =
      b.op<WhereOp>({negative, b.op<NegativeOp>({magnitude}), magnitude});
  return b.op<WhereOp>({b.op<IsNanOp>({x}),
                        intScalar(b, type, APInt::getSignedMaxValue(width)),
                        key});
}

/// topk's values and indices: rounds for up to kMaxRounds, else the
/// sorting network; floats are ordered by orderedKey and their values
/// gathered at the indices.
std::pair<Value, Value> topkOrSorted(Emitter &b, Value x, int64_t axis,
                                     int64_t k, bool ascend, Type dtype) {
  ArrayRef<int64_t> shape = shapeOf(x);
  axis = positive(axis, shape.size());
  if (k < 1) // sort and argsort: the whole axis
    k = shape[axis];
  bool isFloat = isa<FloatType>(elementOf(x));
  Value key = isFloat ? orderedKey(b, x) : x;
  if (!b.succeeded())
    return {};
  auto [values, indices] = k <= kMaxRounds
                               ? topkParts(b, key, axis, k, ascend, dtype)
                               : sortedParts(b, key, axis, k, ascend, dtype);
  if (isFloat && indices)
    values = b.op<GatherOp>({x, indices}, {b.i64("axis", axis)});
  return {values, indices};
}

/// The dtype attribute of `op`, or null.
Type dtypeAttr(Operation *op) {
  auto a = op->getAttrOfType<TypeAttr>("dtype");
  return a ? a.getValue() : Type();
}

Value topk(Emitter &b, Operation *op) {
  auto [vals, idx] =
      topkOrSorted(b, op->getOperand(0), intAttr(op, "axis"), intAttr(op, "k"),
                   boolAttr(op, "is_ascend"), dtypeAttr(op));
  StringRef ret =
      cast<StringAttr>(getOperatorAttributes(op).get("ret_type")).getValue();
  if (ret == "values")
    return vals;
  if (ret == "indices")
    return idx;
  return b.succeeded() ? b.tuple({vals, idx}) : Value();
}

} // namespace

void mlir::relay::decompose::addSortRewrites(AddRewrite add) {
  add("topk", topk);
  add("argsort", [](Emitter &b, Operation *op) {
    return topkOrSorted(b, op->getOperand(0), intAttr(op, "axis"), 0,
                        boolAttr(op, "is_ascend"), dtypeAttr(op))
        .second;
  });
  add("sort", [](Emitter &b, Operation *op) {
    return topkOrSorted(b, op->getOperand(0), intAttr(op, "axis"), 0,
                        boolAttr(op, "is_ascend"), Type())
        .first;
  });
}

//===- SortRewrites.cpp - topk, argsort, sort -------------------*- C++ -*-===//
//
// topk, argsort and sort as rounds of max (min) and first position.
//
//===----------------------------------------------------------------------===//

#include "transforms/Decompose/Rewrites.h"

#include <limits>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

namespace {

/// k rounds along the axis, each taking the largest (smallest when
/// ascending) element not taken yet and the first position holding it, so
/// equal elements keep their order; taken positions are masked with the
/// type's lowest (highest) value for the next rounds' max (min).
std::pair<Value, Value> topkParts(Emitter &b, Value x, int64_t axis, int64_t k,
                                  bool ascend, Type dtype) {
  ArrayRef<int64_t> shape = shapeOf(x);
  int64_t rank = shape.size();
  axis = positive(axis, rank);
  int64_t n = shape[axis];
  if (k < 1)
    k = n;
  Type element = elementOf(x);
  Value masked;
  if (isa<FloatType>(element)) {
    double inf = std::numeric_limits<double>::infinity();
    masked = b.scalar(ascend ? inf : -inf, x);
  } else {
    unsigned width = element.getIntOrFloatBitWidth();
    bool isUnsigned = element.isUnsignedInteger() || width == 1;
    APInt v = ascend ? (isUnsigned ? APInt::getMaxValue(width)
                                   : APInt::getSignedMaxValue(width))
                     : (isUnsigned ? APInt::getMinValue(width)
                                   : APInt::getSignedMinValue(width));
    masked = b.constant(
        DenseElementsAttr::get(RankedTensorType::get({}, element), v));
  }
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

/// The dtype attribute of `op`, or null.
Type dtypeAttr(Operation *op) {
  auto a = op->getAttrOfType<TypeAttr>("dtype");
  return a ? a.getValue() : Type();
}

Value topk(Emitter &b, Operation *op) {
  auto [vals, idx] =
      topkParts(b, op->getOperand(0), intAttr(op, "axis"), intAttr(op, "k"),
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
    return topkParts(b, op->getOperand(0), intAttr(op, "axis"), 0,
                     boolAttr(op, "is_ascend"), dtypeAttr(op))
        .second;
  });
  add("sort", [](Emitter &b, Operation *op) {
    return topkParts(b, op->getOperand(0), intAttr(op, "axis"), 0,
                     boolAttr(op, "is_ascend"), Type())
        .first;
  });
}

//===- Decompose.cpp - Composite operators into primitive ones ------------===//
//
// --relay-decompose: the composite operators (the last section of
// RelayOperators.td) become the primitive operators lowering and the
// interpreter implement, as TVM's SimplifyInference and Legalize passes
// do. Each rewrite needs static operand shapes (after --relay-infer-types
// and, for polymorphic functions, --relay-specialize); ops without them
// are left as they are.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mlir::relay {
#define GEN_PASS_DEF_DECOMPOSE
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// Builds typed relay operators at one location; a relation that fails
/// (which the composite's own relation should have excluded) makes every
/// later op null and the rewrite is abandoned.
class Emitter {
public:
  Emitter(PatternRewriter &rewriter, Location loc)
      : rewriter(rewriter), loc(loc) {}

  Value op(StringRef name, ValueRange args,
           ArrayRef<NamedAttribute> attrs = {}) {
    if (!ok || llvm::any_of(args, [](Value v) { return !v; }))
      return ok = false, Value();
    std::string fullName = ("relay." + name).str();
    DictionaryAttr dict = rewriter.getDictionaryAttr(attrs);
    Type type = inferOperatorResultType(fullName, args.getTypes(), dict);
    if (!type)
      return ok = false, Value();
    OperationState state(loc, fullName);
    state.addOperands(args);
    state.addAttributes(attrs);
    state.addTypes(type);
    return rewriter.create(state)->getResult(0);
  }
  Value add(Value a, Value b) { return op("add", {a, b}); }
  Value mul(Value a, Value b) { return op("multiply", {a, b}); }
  Value reshape(Value v, ArrayRef<int64_t> shape) {
    return op("reshape", {v}, {ints("newshape", shape)});
  }
  Value constant(ElementsAttr value) {
    return ConstantOp::create(rewriter, loc, value);
  }
  Value tuple(ArrayRef<Value> fields) {
    return TupleOp::create(rewriter, loc, fields);
  }
  /// A 0-d constant of `like`'s element type.
  Value scalar(double v, Value like) {
    Type e = cast<RankedTensorType>(like.getType()).getElementType();
    auto type = RankedTensorType::get({}, e);
    if (isa<FloatType>(e))
      return constant(DenseElementsAttr::get(
          type, cast<Attribute>(rewriter.getFloatAttr(e, v))));
    return constant(DenseElementsAttr::get(
        type, cast<Attribute>(rewriter.getIntegerAttr(e, (int64_t)v))));
  }

  NamedAttribute i64(StringRef n, int64_t v) {
    return rewriter.getNamedAttr(n, rewriter.getI64IntegerAttr(v));
  }
  NamedAttribute ints(StringRef n, ArrayRef<int64_t> v) {
    return rewriter.getNamedAttr(n, rewriter.getDenseI64ArrayAttr(v));
  }
  NamedAttribute boolean(StringRef n, bool v) {
    return rewriter.getNamedAttr(n, rewriter.getBoolAttr(v));
  }
  NamedAttribute str(StringRef n, StringRef v) {
    return rewriter.getNamedAttr(n, rewriter.getStringAttr(v));
  }
  NamedAttribute type(StringRef n, Type t) {
    return rewriter.getNamedAttr(n, TypeAttr::get(t));
  }
  bool succeeded() const { return ok; }

private:
  PatternRewriter &rewriter;
  Location loc;
  bool ok = true;
};

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}
Type elementOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

/// Reads an attribute of the op with its ODS default.
int64_t intAttr(Operation *op, StringRef name) {
  return cast<IntegerAttr>(getOperatorAttributes(op).get(name)).getInt();
}
double floatAttr(Operation *op, StringRef name) {
  return cast<FloatAttr>(getOperatorAttributes(op).get(name))
      .getValueAsDouble();
}
bool boolAttr(Operation *op, StringRef name) {
  return cast<BoolAttr>(getOperatorAttributes(op).get(name)).getValue();
}
int64_t positive(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

/// `v` reshaped so that it broadcasts along `axis` of a rank-`rank` tensor
/// (a per-channel vector).
Value alongAxis(Emitter &b, Value v, int64_t axis, int64_t rank) {
  SmallVector<int64_t> shape(rank, 1);
  shape[axis] = shapeOf(v)[0];
  return b.reshape(v, shape);
}

/// (x - mean) / sqrt(var + eps) over `axes` (kept).
Value normalize(Emitter &b, Value x, ArrayRef<int64_t> axes, double eps) {
  SmallVector<NamedAttribute> reduce = {b.ints("axis", axes),
                                        b.boolean("keepdims", true)};
  Value centred = b.op("subtract", {x, b.op("mean", {x}, reduce)});
  Value var = b.op("mean", {b.mul(centred, centred)}, reduce);
  return b.op("divide",
              {centred, b.op("sqrt", {b.add(var, b.scalar(eps, x))})});
}

/// gamma and beta applied per channel along `axis`, as `scale`/`center`
/// ask.
Value scaleAndShift(Emitter &b, Operation *op, Value y, int64_t axis) {
  int64_t rank = shapeOf(y).size();
  if (boolAttr(op, "scale"))
    y = b.mul(y, alongAxis(b, op->getOperand(1), axis, rank));
  if (boolAttr(op, "center"))
    y = b.add(y, alongAxis(b, op->getOperand(2), axis, rank));
  return y;
}

using Rewrite = Value (*)(Emitter &, Operation *);

Value renamed(Emitter &b, Operation *op, StringRef to) {
  SmallVector<NamedAttribute> attrs(op->getAttrs());
  return b.op(to, op->getOperands(), attrs);
}

Value truncDivide(Emitter &b, Operation *op) {
  Value q = b.op("divide", op->getOperands());
  return isa<FloatType>(elementOf(q)) ? b.op("trunc", {q}) : q;
}

Value isInf(Emitter &b, Value x) {
  return b.op("equal", {b.op("abs", {x}),
                        b.scalar(std::numeric_limits<double>::infinity(), x)});
}

Value collapseSumLike(Emitter &b, Operation *op) {
  Value data = op->getOperand(0);
  ArrayRef<int64_t> from = shapeOf(data), to = shapeOf(op->getOperand(1));
  int64_t extra = from.size() - to.size();
  SmallVector<int64_t> axes;
  for (int64_t i = 0; i < (int64_t)from.size(); ++i)
    if (i < extra || (to[i - extra] == 1 && from[i] != 1))
      axes.push_back(i);
  if (!axes.empty())
    data = b.op("sum", {data},
                {b.ints("axis", axes), b.boolean("keepdims", true)});
  return b.reshape(data, to);
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
  return b.op("take", {data, idx}, {b.i64("axis", axis)});
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
  Value spread = b.op("broadcast_to", {b.reshape(data, interleaved)},
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
  Value spread = b.op("broadcast_to", {b.reshape(data, expanded)},
                      {b.ints("shape", broadcast)});
  return b.reshape(spread, result);
}

/// x / sqrt(max(sum(x^2) over the axes, eps)); every axis when none given.
Value l2Normalize(Emitter &b, Operation *op) {
  Value x = op->getOperand(0);
  int64_t rank = shapeOf(x).size();
  SmallVector<int64_t> axes;
  if (auto a = op->getAttrOfType<DenseI64ArrayAttr>("axis"))
    for (int64_t v : a.asArrayRef())
      axes.push_back(positive(v, rank));
  else
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  Value sum = b.op("sum", {b.mul(x, x)},
                   {b.ints("axis", axes), b.boolean("keepdims", true)});
  Value clamped = b.op("maximum", {sum, b.scalar(floatAttr(op, "eps"), x)});
  return b.op("divide", {x, b.op("sqrt", {clamped})});
}

/// The squares padded along the axis, summed over `size` shifted slices.
Value lrn(Emitter &b, Operation *op) {
  Value x = op->getOperand(0);
  ArrayRef<int64_t> shape = shapeOf(x);
  int64_t rank = shape.size();
  int64_t axis = positive(intAttr(op, "axis"), rank);
  int64_t size = intAttr(op, "size");
  SmallVector<int64_t> width(2 * rank, 0);
  width[2 * axis] = (size - 1) / 2;
  width[2 * axis + 1] = size - 1 - width[2 * axis];
  Value padded = b.op("nn.pad", {b.mul(x, x), b.scalar(0, x)},
                      {b.ints("pad_width", width)});
  Value sum;
  SmallVector<int64_t> begin(rank, 0), end(shape);
  for (int64_t i = 0; i < size; ++i) {
    begin[axis] = i;
    end[axis] = i + shape[axis];
    Value slice = b.op("strided_slice", {padded},
                       {b.ints("begin", begin), b.ints("end", end)});
    sum = sum ? b.add(sum, slice) : slice;
  }
  Value base = b.add(b.mul(sum, b.scalar(floatAttr(op, "alpha") / size, x)),
                     b.scalar(floatAttr(op, "bias"), x));
  return b.op("divide",
              {x, b.op("power", {base, b.scalar(floatAttr(op, "beta"), x)})});
}

/// Normalised over every axis but the batch (0) and channel axes.
Value instanceNorm(Emitter &b, Operation *op) {
  Value x = op->getOperand(0);
  int64_t rank = shapeOf(x).size();
  int64_t axis = positive(intAttr(op, "axis"), rank);
  SmallVector<int64_t> axes;
  for (int64_t d = 1; d < rank; ++d)
    if (d != axis)
      axes.push_back(d);
  return scaleAndShift(b, op, normalize(b, x, axes, floatAttr(op, "epsilon")),
                       axis);
}

/// Channels split into [groups, channels / groups], each group normalised
/// with the axes after it.
Value groupNorm(Emitter &b, Operation *op) {
  Value x = op->getOperand(0);
  SmallVector<int64_t> shape(shapeOf(x));
  int64_t rank = shape.size();
  int64_t axis = positive(intAttr(op, "axis"), rank);
  int64_t groups = intAttr(op, "num_groups");
  SmallVector<int64_t> grouped(shape.begin(), shape.begin() + axis);
  grouped.append({groups, shape[axis] / groups});
  grouped.append(shape.begin() + axis + 1, shape.end());
  SmallVector<int64_t> axes;
  for (int64_t d = axis + 1; d < rank + 1; ++d)
    axes.push_back(d);
  Value y = normalize(b, b.reshape(x, grouped), axes, floatAttr(op, "epsilon"));
  return scaleAndShift(b, op, b.reshape(y, shape), axis);
}

/// A 1-d window attribute as the 2-d op's (height 1 first).
SmallVector<int64_t> lifted(Operation *op, StringRef name, int64_t fill) {
  SmallVector<int64_t> v = {fill};
  if (auto a = op->getAttrOfType<DenseI64ArrayAttr>(name))
    v.push_back(a.asArrayRef().front());
  else
    v.push_back(1);
  return v;
}

/// [l, r] padding of a 1-d window as 2-d [top, left, bottom, right].
SmallVector<int64_t> liftedPadding(Operation *op) {
  int64_t l = 0, r = 0;
  if (auto a = op->getAttrOfType<DenseI64ArrayAttr>("padding");
      a && !a.empty()) {
    l = a.asArrayRef().front();
    r = a.asArrayRef().back();
  }
  return {0, l, 0, r};
}

/// [N, C, W] as [N, C, 1, W] and back.
Value addHeight(Emitter &b, Value v) {
  SmallVector<int64_t> shape(shapeOf(v));
  shape.insert(shape.begin() + 2, 1);
  return b.reshape(v, shape);
}
Value dropHeight(Emitter &b, Value v, Operation *op) {
  return b.reshape(v, shapeOf(op->getResult(0)));
}

Value conv1d(Emitter &b, Operation *op) {
  Value weight = op->getOperand(1);
  SmallVector<NamedAttribute> attrs = {
      b.ints("strides", lifted(op, "strides", 1)),
      b.ints("dilation", lifted(op, "dilation", 1)),
      b.ints("padding", liftedPadding(op)),
      b.i64("groups", intAttr(op, "groups")),
      b.i64("channels", shapeOf(weight)[0]),
      b.ints("kernel_size", {1, shapeOf(weight)[2]})};
  if (auto dtype = op->getAttrOfType<TypeAttr>("out_dtype"))
    attrs.push_back(b.type("out_dtype", dtype.getValue()));
  Value conv =
      b.op("nn.conv2d", {addHeight(b, op->getOperand(0)), addHeight(b, weight)},
           attrs);
  return dropHeight(b, conv, op);
}

Value pool1d(Emitter &b, Operation *op, StringRef to) {
  SmallVector<NamedAttribute> attrs = {
      b.ints("pool_size", lifted(op, "pool_size", 1)),
      b.ints("strides", lifted(op, "strides", 1)),
      b.ints("dilation", lifted(op, "dilation", 1)),
      b.ints("padding", liftedPadding(op)),
      b.boolean("ceil_mode", boolAttr(op, "ceil_mode"))};
  if (to == "nn.avg_pool2d")
    attrs.push_back(
        b.boolean("count_include_pad", boolAttr(op, "count_include_pad")));
  return dropHeight(b, b.op(to, {addHeight(b, op->getOperand(0))}, attrs), op);
}

/// where(expand_dims(indices, axis) == iota, on, off) in `dtype`.
Value oneHot(Emitter &b, Operation *op) {
  Type i64 = IntegerType::get(op->getContext(), 64);
  Value indices = op->getOperand(0);
  if (elementOf(indices) != i64)
    indices = b.op("cast", {indices}, {b.type("dtype", i64)});
  int64_t rank = shapeOf(indices).size() + 1;
  int64_t axis = positive(intAttr(op, "axis"), rank);
  int64_t depth = intAttr(op, "depth");
  SmallVector<int64_t> iotaShape(rank, 1), positions;
  iotaShape[axis] = depth;
  for (int64_t i = 0; i < depth; ++i)
    positions.push_back(i);
  Value iota = b.constant(DenseElementsAttr::get(
      RankedTensorType::get(iotaShape, i64), ArrayRef(positions)));
  Value same = b.op(
      "equal", {b.op("expand_dims", {indices}, {b.i64("axis", axis)}), iota});
  Type dtype = cast<TypeAttr>(op->getAttr("dtype")).getValue();
  auto as = [&](Value v) {
    return elementOf(v) == dtype ? v
                                 : b.op("cast", {v}, {b.type("dtype", dtype)});
  };
  return b.op("where", {same, as(op->getOperand(1)), as(op->getOperand(2))});
}

/// log2(n) steps of adding the sums shifted by 1, 2, 4, ... positions
/// (Hillis-Steele); `exclusive` shifts by one more.
Value cumsum(Emitter &b, Operation *op) {
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
    y = b.op("cast", {y}, {b.type("dtype", dtype)});
  SmallVector<int64_t> shape(shapeOf(y));
  int64_t rank = shape.size(), axis = positive(*axisAttr, rank);
  Value zero = b.scalar(0, y);
  auto shift = [&](Value v, int64_t by) {
    SmallVector<int64_t> width(2 * rank, 0), begin(rank, 0);
    width[2 * axis] = by;
    Value padded = b.op("nn.pad", {v, zero}, {b.ints("pad_width", width)});
    return b.op("strided_slice", {padded},
                {b.ints("begin", begin), b.ints("end", shape)});
  };
  for (int64_t by = 1; by < shape[axis]; by *= 2)
    y = b.add(y, shift(y, by));
  if (boolAttr(op, "exclusive"))
    y = shift(y, 1);
  return y;
}

/// reshape, transpose, reshape.
Value moveBlocks(Emitter &b, Value x, ArrayRef<int64_t> split,
                 ArrayRef<int64_t> perm, ArrayRef<int64_t> merged) {
  Value t = b.op("transpose", {b.reshape(x, split)}, {b.ints("axes", perm)});
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
    Value key = taken ? b.op("where", {taken, masked, x}) : x;
    Value best = b.op(ascend ? "min" : "max", {key},
                      {b.ints("axis", {axis}), b.boolean("keepdims", true)});
    // The first position not taken holding the best value.
    Value candidate = b.op("equal", {x, best});
    if (taken)
      candidate =
          b.op("logical_and", {candidate, b.op("logical_not", {taken})});
    Value index =
        b.op("argmax", {b.op("cast", {candidate}, {b.type("dtype", i32)})},
             {b.ints("axis", {axis}), b.boolean("keepdims", true)});
    values.push_back(best);
    indices.push_back(index);
    if (r + 1 < k) {
      Value now = b.op("equal", {iota, index});
      taken = taken ? b.op("logical_or", {taken, now}) : now;
    }
  }
  auto join = [&](ArrayRef<Value> parts) {
    if (!b.succeeded())
      return Value();
    return parts.size() == 1
               ? parts.front()
               : b.op("concatenate", {b.tuple(parts)}, {b.i64("axis", axis)});
  };
  Value vals = join(values), idx = join(indices);
  if (!dtype)
    dtype = i32;
  if (idx && elementOf(idx) != dtype)
    idx = b.op("cast", {idx}, {b.type("dtype", dtype)});
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
    return b.op("nn.pad", {x, b.scalar(0, x)},
                {b.ints("pad_width", width), b.str("pad_mode", "reflect")});
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
      Value slice = b.op("strided_slice", {x},
                         {b.ints("begin", begin), b.ints("end", end)});
      return b.op("reverse", {slice}, {b.i64("axis", axis)});
    };
    SmallVector<Value> parts;
    if (before)
      parts.push_back(edge(0, before));
    parts.push_back(x);
    if (after)
      parts.push_back(edge(shape[axis] - after, shape[axis]));
    if (!b.succeeded())
      return Value();
    x = b.op("concatenate", {b.tuple(parts)}, {b.i64("axis", axis)});
  }
  return x;
}

/// sum((data - mean)^2) over the axes / (N - unbiased).
Value variance(Emitter &b, Operation *op) {
  Value data = op->getOperand(0);
  ArrayRef<int64_t> shape = shapeOf(data);
  int64_t rank = shape.size();
  SmallVector<bool> reduced(rank, true);
  if (auto axes = op->getAttrOfType<DenseI64ArrayAttr>("axis")) {
    reduced.assign(rank, false);
    for (int64_t a : axes.asArrayRef())
      reduced[positive(a, rank)] = true;
    if (boolAttr(op, "exclude"))
      for (int64_t i = 0; i < rank; ++i)
        reduced[i] = !reduced[i];
  }
  SmallVector<int64_t> axes;
  int64_t count = 1;
  for (int64_t i = 0; i < rank; ++i)
    if (reduced[i]) {
      axes.push_back(i);
      count *= shape[i];
    }
  Value d = b.op("subtract", {data, op->getOperand(1)});
  Value sum = b.op(
      "sum", {b.mul(d, d)},
      {b.ints("axis", axes), b.boolean("keepdims", boolAttr(op, "keepdims"))});
  int64_t divisor = count - (boolAttr(op, "unbiased") ? 1 : 0);
  return b.op("divide", {sum, b.scalar(std::max<int64_t>(divisor, 1), data)});
}

/// One axis of image.resize2d: out[i] = sum over taps t of
/// weight[t][i] * in[index[t][i]], the indices (clamped to the edge) and
/// weights computed here from the sampling position of each output.
Value resizeAxis(Emitter &b, Value x, int64_t axis, int64_t outSize,
                 StringRef method, StringRef coords, StringRef rounding,
                 double alpha, bool exclude) {
  int64_t in = shapeOf(x)[axis];
  if (in == outSize && method != "cubic" && coords != "tf_half_pixel_for_nn")
    return x;
  double scale = double(outSize) / double(in);
  auto source = [&](int64_t i) -> double {
    if (coords == "align_corners")
      return outSize == 1 ? 0.0 : double(i) * (in - 1) / (outSize - 1);
    if (coords == "asymmetric")
      return i / scale;
    if (coords == "tf_half_pixel_for_nn")
      return (i + 0.5) / scale;
    if (coords == "pytorch_half_pixel" && outSize == 1)
      return 0.0;
    return (i + 0.5) / scale - 0.5;
  };
  auto clamp = [&](int64_t i) { return std::clamp<int64_t>(i, 0, in - 1); };
  // taps[t] = (indices, weights) over the outputs.
  SmallVector<std::pair<SmallVector<int64_t>, SmallVector<double>>> taps;
  int numTaps = method == "nearest_neighbor" ? 1 : method == "linear" ? 2 : 4;
  taps.resize(numTaps);
  for (int64_t i = 0; i < outSize; ++i) {
    double pos = source(i);
    if (method == "nearest_neighbor") {
      double r;
      if (rounding == "floor")
        r = std::floor(pos);
      else if (rounding == "ceil")
        r = std::ceil(pos);
      else if (rounding == "round_prefer_ceil")
        r = std::floor(pos + 0.5);
      else if (rounding == "round_prefer_floor")
        r = std::ceil(pos - 0.5);
      else
        r = std::round(pos);
      taps[0].first.push_back(clamp(int64_t(r)));
      taps[0].second.push_back(1.0);
      continue;
    }
    double base = std::floor(pos), t = pos - base;
    if (method == "linear") {
      taps[0].first.push_back(clamp(int64_t(base)));
      taps[0].second.push_back(1.0 - t);
      taps[1].first.push_back(clamp(int64_t(base) + 1));
      taps[1].second.push_back(t);
      continue;
    }
    double a = alpha;
    double w[4] = {((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a,
                   ((a + 2) * t - (a + 3)) * t * t + 1,
                   ((a + 2) * (1 - t) - (a + 3)) * (1 - t) * (1 - t) + 1,
                   ((a * (2 - t) - 5 * a) * (2 - t) + 8 * a) * (2 - t) - 4 * a};
    double total = 0;
    for (int j = 0; j < 4; ++j) {
      int64_t idx = int64_t(base) - 1 + j;
      if (exclude && (idx < 0 || idx >= in))
        w[j] = 0;
      total += w[j];
    }
    for (int j = 0; j < 4; ++j) {
      taps[j].first.push_back(clamp(int64_t(base) - 1 + j));
      taps[j].second.push_back(exclude && total != 0 ? w[j] / total : w[j]);
    }
  }
  Type i64 = IntegerType::get(x.getContext(), 64);
  Type element = elementOf(x);
  SmallVector<int64_t> weightShape(shapeOf(x).size(), 1);
  weightShape[axis] = outSize;
  Value sum;
  for (auto &[indices, weights] : taps) {
    Value gathered = b.op(
        "take",
        {x, b.constant(DenseElementsAttr::get(
                RankedTensorType::get({outSize}, i64), ArrayRef(indices)))},
        {b.i64("axis", axis)});
    if (numTaps > 1) {
      SmallVector<Attribute> values;
      for (double w : weights)
        values.push_back(FloatAttr::get(element, w));
      Value weight = b.constant(DenseElementsAttr::get(
          RankedTensorType::get(weightShape, element), values));
      gathered = b.mul(gathered, weight);
    }
    sum = sum ? b.add(sum, gathered) : gathered;
  }
  return sum;
}

Value resize2d(Emitter &b, Operation *op) {
  DictionaryAttr attrs = getOperatorAttributes(op);
  auto str = [&](StringRef name) {
    return cast<StringAttr>(attrs.get(name)).getValue();
  };
  StringRef method = str("method"),
            coords = str("coordinate_transformation_mode");
  std::string rounding = str("rounding_method").str();
  if (rounding.empty())
    rounding = coords == "align_corners" ? "round" : "floor";
  ArrayRef<int64_t> size =
      cast<DenseI64ArrayAttr>(op->getAttr("size")).asArrayRef();
  Value x = op->getOperand(0);
  for (int axis : {2, 3})
    x = resizeAxis(b, x, axis, size[axis - 2], method, coords, rounding,
                   floatAttr(op, "cubic_alpha"),
                   intAttr(op, "cubic_exclude") != 0);
  Type out = elementOf(op->getResult(0));
  if (x && elementOf(x) != out)
    x = b.op("cast", {x}, {b.type("dtype", out)});
  return x;
}

struct DecomposeOp : RewritePattern {
  DecomposeOp(StringRef name, Rewrite rewrite, MLIRContext *ctx)
      : RewritePattern(name, /*benefit=*/1, ctx), rewrite(rewrite) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    std::function<bool(Type)> isStatic = [&](Type t) {
      if (auto tuple = dyn_cast<TupleType>(t))
        return llvm::all_of(tuple.getTypes(), isStatic);
      auto ranked = dyn_cast<RankedTensorType>(t);
      return ranked && ranked.hasStaticShape();
    };
    if (!llvm::all_of(op->getOperandTypes(), isStatic) ||
        !llvm::all_of(op->getResultTypes(), isStatic))
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    Emitter b(rewriter, op->getLoc());
    Value result = rewrite(b, op);
    if (!b.succeeded() || !result ||
        result.getType() != op->getResult(0).getType()) {
      // Whatever was built is unused; the greedy driver erases it.
      return rewriter.notifyMatchFailure(op, "could not be decomposed");
    }
    rewriter.replaceOp(op, result);
    return success();
  }

  Rewrite rewrite;
};

struct DecomposePass : relay::impl::DecomposeBase<DecomposePass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    auto add = [&](StringRef name, Rewrite rewrite) {
      patterns.add<DecomposeOp>(("relay." + name).str(), rewrite, ctx);
    };
    add("fast_exp", [](Emitter &b, Operation *op) {
      return b.op("exp", op->getOperands());
    });
    add("fast_tanh", [](Emitter &b, Operation *op) {
      return b.op("tanh", op->getOperands());
    });
    add("fast_erf", [](Emitter &b, Operation *op) {
      return b.op("erf", op->getOperands());
    });
    add("nn.fast_softmax",
        [](Emitter &b, Operation *op) { return renamed(b, op, "nn.softmax"); });
    add("trunc_divide", truncDivide);
    add("trunc_mod", [](Emitter &b, Operation *op) {
      return b.op("mod", op->getOperands());
    });
    add("isnan", [](Emitter &b, Operation *op) {
      Value x = op->getOperand(0);
      return b.op("not_equal", {x, x});
    });
    add("isinf",
        [](Emitter &b, Operation *op) { return isInf(b, op->getOperand(0)); });
    add("isfinite", [](Emitter &b, Operation *op) {
      // |x| < inf is false for NaN too.
      Value x = op->getOperand(0);
      return b.op("less",
                  {b.op("abs", {x}),
                   b.scalar(std::numeric_limits<double>::infinity(), x)});
    });
    add("cast_like", [](Emitter &b, Operation *op) {
      return b.op("cast", {op->getOperand(0)},
                  {b.type("dtype", elementOf(op->getOperand(1)))});
    });
    add("broadcast_to_like", [](Emitter &b, Operation *op) {
      return b.op("broadcast_to", {op->getOperand(0)},
                  {b.ints("shape", shapeOf(op->getOperand(1)))});
    });
    add("collapse_sum_like", collapseSumLike);
    add("reverse", reverse);
    add("tile", tile);
    add("repeat", repeat);
    add("nn.l2_normalize", l2Normalize);
    add("nn.lrn", lrn);
    add("nn.instance_norm", instanceNorm);
    add("nn.group_norm", groupNorm);
    add("nn.conv1d", conv1d);
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
    add("shape_of", [](Emitter &b, Operation *op) {
      return intResult(b, op, shapeOf(op->getOperand(0)));
    });
    add("ndarray_size", [](Emitter &b, Operation *op) {
      auto type = cast<RankedTensorType>(op->getOperand(0).getType());
      return intResult(b, op, {type.getNumElements()});
    });
    add("nn.mirror_pad", mirrorPad);
    add("variance", variance);
    add("image.resize2d", resize2d);
    add("one_hot", oneHot);
    add("cumsum", cumsum);
    add("nn.depth_to_space", depthToSpace);
    add("nn.space_to_depth", spaceToDepth);
    add("nn.max_pool1d", [](Emitter &b, Operation *op) {
      return pool1d(b, op, "nn.max_pool2d");
    });
    add("nn.avg_pool1d", [](Emitter &b, Operation *op) {
      return pool1d(b, op, "nn.avg_pool2d");
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

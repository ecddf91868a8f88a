//===- ShapeConverters.cpp - ONNX shape, constant and reduce ops -*- C++
//-*-===//
//
// Relay's shape ops take their shapes as attributes, so ONNX's shape inputs
// must be known when importing. With static input shapes they are: Shape
// folds to a constant, and the integer ops exporters put between Shape and
// Reshape (Gather, Unsqueeze, Concat, Slice, Cast, arithmetic) fold too.
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/Converters.h"
#include "frontends/ONNX/Emitter.h"

#include "llvm/Support/MathExtras.h"

#include <numeric>
#include <optional>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

namespace {

/// Folded integer tensors stay small; bigger constants are not shape data.
constexpr int64_t kMaxFoldedElements = 4096;

DenseElementsAttr intConstant(NodeContext &ctx, ArrayRef<int64_t> shape,
                              ArrayRef<int64_t> values, Type element) {
  SmallVector<APInt> bits;
  unsigned width = element.getIntOrFloatBitWidth();
  for (int64_t v : values)
    bits.push_back(APInt(width, v, /*isSigned=*/width > 1,
                         /*implicitTrunc=*/true));
  return DenseElementsAttr::get(RankedTensorType::get(shape, element), bits);
}

void addFolded(NodeContext &ctx, DenseElementsAttr value) {
  ctx.addOutput(ctx.constant(value), value);
}

/// Input 0's contents as a dense attribute, when known and small.
DenseElementsAttr smallConstant(NodeContext &ctx, unsigned i) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(ctx.constantInput(i));
  if (!dense || dense.getNumElements() > kMaxFoldedElements)
    return {};
  return dense;
}

/// Reshapes input 0 to `shape` (folding a known input).
LogicalResult reshapeTo(NodeContext &ctx, ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t d : shape)
    if (d < 0 || __builtin_mul_overflow(count, d, &count))
      return ctx.fail("shape has more elements than 64 bits count");
  if (int64_t total = ctx.tensorType(0).getNumElements(); count != total)
    return ctx.fail("cannot reshape " + Twine(total) + " elements into " +
                    Twine(count));
  if (DenseElementsAttr c = smallConstant(ctx, 0)) {
    addFolded(ctx, c.reshape(RankedTensorType::get(shape, c.getElementType())));
    return success();
  }
  // The shape is resolved: a 0 in it is a dimension of size 0 (allowzero),
  // not relay.reshape's "copy the input's dimension".
  SmallVector<NamedAttribute> attrs = {ctx.ints("newshape", shape)};
  if (llvm::is_contained(shape, 0))
    attrs.push_back(ctx.boolean("allowzero", true));
  return ctx.output(ctx.op<ReshapeOp>({ctx.input(0)}, attrs));
}

/// The axes of an op given by attribute (older opsets) or by input #1.
FailureOr<SmallVector<int64_t>> axesOf(NodeContext &ctx, unsigned input,
                                       bool &given) {
  given = true;
  if (ctx.hasAttr("axes"))
    return ctx.attrInts("axes");
  if (ctx.hasInput(input))
    return ctx.constantInts(input, "axes");
  given = false;
  return SmallVector<int64_t>();
}

LogicalResult convertConstant(NodeContext &ctx) {
  MLIRContext *mctx = ctx.getContext();
  Builder b(mctx);
  if (const onnx::AttributeProto *a = ctx.attribute("value")) {
    FailureOr<ElementsAttr> attr = convertTensor(a->t(), mctx, ctx.getLoc());
    if (failed(attr))
      return failure();
    ctx.addOutput(ctx.constant(*attr), *attr);
    if (isFourBit(a->t().data_type()))
      ctx.markLastOutputFourBit();
    return success();
  }
  if (const onnx::AttributeProto *a = ctx.attribute("value_float")) {
    auto attr = DenseElementsAttr::get(
        RankedTensorType::get({}, b.getF32Type()), a->f());
    addFolded(ctx, attr);
    return success();
  }
  if (const onnx::AttributeProto *a = ctx.attribute("value_floats")) {
    SmallVector<float> v(a->floats().begin(), a->floats().end());
    addFolded(ctx,
              DenseElementsAttr::get(
                  RankedTensorType::get({(int64_t)v.size()}, b.getF32Type()),
                  ArrayRef<float>(v)));
    return success();
  }
  if (const onnx::AttributeProto *a = ctx.attribute("value_int")) {
    addFolded(ctx, intConstant(ctx, {}, {a->i()}, b.getI64Type()));
    return success();
  }
  if (const onnx::AttributeProto *a = ctx.attribute("value_ints")) {
    SmallVector<int64_t> v(a->ints().begin(), a->ints().end());
    addFolded(ctx, intConstant(ctx, {(int64_t)v.size()}, v, b.getI64Type()));
    return success();
  }
  return ctx.fail("only tensor, float(s) and int(s) values are supported");
}

LogicalResult convertShape(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  ArrayRef<int64_t> shape = ctx.shape(0);
  int64_t rank = shape.size();
  int64_t start = ctx.attrInt("start", 0), end = ctx.attrInt("end", rank);
  start = std::clamp<int64_t>(start < 0 ? start + rank : start, 0, rank);
  end = std::clamp<int64_t>(end < 0 ? end + rank : end, 0, rank);
  SmallVector<int64_t> dims(shape.begin() + start,
                            shape.begin() + std::max(start, end));
  Type i64 = IntegerType::get(ctx.getContext(), 64);
  // A size that depends on the data is read at run time.
  if (llvm::any_of(dims, ShapedType::isDynamic)) {
    Emitter b(ctx);
    Value all = b.op<ShapeOfOp>({ctx.input(0)}, {ctx.type("dtype", i64)});
    if (start == 0 && end == rank)
      return b.output(all);
    return b.output(
        b.op<StridedSliceOp>({all}, {ctx.ints("begin", {start}),
                                     ctx.ints("end", {std::max(start, end)})}));
  }
  addFolded(ctx, intConstant(ctx, {(int64_t)dims.size()}, dims, i64));
  return success();
}

LogicalResult convertSize(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  Type i64 = IntegerType::get(ctx.getContext(), 64);
  if (!ctx.hasStaticShape(0))
    return ctx.output(
        ctx.op<NdarraySizeOp>({ctx.input(0)}, {ctx.type("dtype", i64)}));
  addFolded(ctx,
            intConstant(ctx, {}, {ctx.tensorType(0).getNumElements()}, i64));
  return success();
}

LogicalResult convertConstantOfShape(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  // A shape computed at run time: dyn.full.
  if (!ctx.constantInput(0)) {
    if (ctx.rank(0) != 1 || !ctx.hasStaticShape(0) ||
        !isa<IntegerType>(ctx.elementType(0)))
      return ctx.fail("the shape must be a 1-D integer tensor");
    Value fill = ctx.scalar(0, Float32Type::get(ctx.getContext()));
    if (const onnx::AttributeProto *a = ctx.attribute("value")) {
      FailureOr<ElementsAttr> v =
          convertTensor(a->t(), ctx.getContext(), ctx.getLoc());
      if (failed(v))
        return failure();
      auto dense = dyn_cast<DenseElementsAttr>(*v);
      if (!dense || dense.getNumElements() != 1)
        return ctx.fail("the fill value must be a one-element tensor");
      fill = ctx.constant(
          dense.reshape(RankedTensorType::get({}, dense.getElementType())));
    }
    Emitter b(ctx);
    Value full = b.op<DynFullOp>({fill, ctx.input(0)}, {});
    if (std::optional<SmallVector<int64_t>> known =
            knownIntValues(ctx.input(0)))
      full = refineKnownDims(ctx, b, full, *known);
    return b.output(full);
  }
  FailureOr<SmallVector<int64_t>> shape = ctx.constantInts(0, "shape");
  if (failed(shape))
    return failure();
  ElementsAttr fill;
  if (const onnx::AttributeProto *a = ctx.attribute("value")) {
    FailureOr<ElementsAttr> v =
        convertTensor(a->t(), ctx.getContext(), ctx.getLoc());
    if (failed(v))
      return failure();
    fill = *v;
  }
  Type element =
      fill ? fill.getElementType() : Type(Float32Type::get(ctx.getContext()));
  auto type = RankedTensorType::get(*shape, element);
  DenseElementsAttr splat;
  if (!fill)
    splat = DenseElementsAttr::get(type, APFloat(0.0f));
  else if (auto dense = dyn_cast<DenseElementsAttr>(fill))
    splat = isa<FloatType>(element)
                ? DenseElementsAttr::get(type, *dense.value_begin<APFloat>())
                : DenseElementsAttr::get(type, *dense.value_begin<APInt>());
  if (!splat)
    return ctx.fail("the fill value must be a one-element tensor");
  addFolded(ctx, splat);
  return success();
}

/// j - i at each (row i, column j) of `x`'s last two axes (int64,
/// [rows, cols]), their sizes read when it runs: Trilu's and EyeLike's
/// masks over sizes known only then (a causal mask over a sequence grown in
/// a loop).
Value diagonalOffsets(NodeContext &ctx, Emitter &b, Value x) {
  Type i64 = IntegerType::get(ctx.getContext(), 64);
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  return b.op<SubtractOp>({positionsAlong(ctx, b, x, rank - 1, i64, {1, -1}),
                           positionsAlong(ctx, b, x, rank - 2, i64, {-1, 1})});
}

/// A constant of the input's shape with ones on diagonal `k` (computed
/// when it runs where the shape is known only then).
LogicalResult convertEyeLike(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  if (ctx.rank(0) != 2)
    return ctx.fail("expects a 2-d input");
  Type element = ctx.elementType(0);
  if (ctx.hasAttr("dtype")) {
    element = convertDataType(ctx.getContext(), ctx.attrInt("dtype", 0));
    if (!element)
      return ctx.fail("unsupported dtype " + Twine(ctx.attrInt("dtype", 0)));
  }
  int64_t rows = ctx.shape(0)[0], cols = ctx.shape(0)[1];
  int64_t k = ctx.attrInt("k", 0);
  if (!ctx.hasStaticShape(0)) {
    Emitter e(ctx);
    Type i64 = IntegerType::get(ctx.getContext(), 64);
    Value diagonal = e.op<EqualOp>(
        {diagonalOffsets(ctx, e, ctx.input(0)), ctx.scalar(k, i64)});
    return e.output(e.op<CastOp>({diagonal}, {ctx.type("dtype", element)}));
  }
  Builder &b = ctx.getBuilder();
  auto value = [&](bool one) -> Attribute {
    if (isa<FloatType>(element))
      return b.getFloatAttr(element, one ? 1.0 : 0.0);
    return b.getIntegerAttr(element, one ? 1 : 0);
  };
  SmallVector<Attribute> values;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      values.push_back(value(j - i == k));
  ctx.addOutput(ctx.constant(DenseElementsAttr::get(
      RankedTensorType::get({rows, cols}, element), values)));
  return success();
}

/// CumSum, and CumProd (opset 26): running sums or products along a
/// constant axis (relay's cumsum, cumprod); `reverse` runs from the end, by
/// reversing before and after.
template <typename OpT> LogicalResult convertCumulative(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 2)))
    return failure();
  FailureOr<SmallVector<int64_t>> axisValue = ctx.constantInts(1, "axis");
  if (failed(axisValue))
    return failure();
  if (axisValue->size() != 1)
    return ctx.fail("axis must hold one value");
  FailureOr<int64_t> axis = ctx.axis(axisValue->front(), ctx.rank(0));
  if (failed(axis))
    return failure();
  Emitter b(ctx);
  bool reversed = ctx.attrInt("reverse", 0) != 0;
  auto reverse = [&](Value v) {
    return reversed ? b.op<ReverseOp>({v}, {ctx.i64("axis", *axis)}) : v;
  };
  Value running =
      b.op<OpT>({reverse(ctx.input(0))},
                {ctx.i64("axis", *axis),
                 ctx.boolean("exclusive", ctx.attrInt("exclusive", 0))});
  return b.output(reverse(running));
}

LogicalResult convertReshape(NodeContext &ctx) {
  // Before opset 5 the shape is an attribute.
  bool attribute = ctx.getOpset() < 5;
  if (failed(ctx.checkInputs(attribute ? 1 : 2, attribute ? 1 : 2)))
    return failure();
  if (attribute && !ctx.hasAttr("shape"))
    return ctx.fail("attribute shape is required");
  bool allowZero = ctx.attrInt("allowzero", 0) != 0;
  // A shape computed at run time: dyn.reshape (ONNX's 0 and -1 are
  // Relay's).
  if (!attribute && !ctx.constantInput(1)) {
    if (ctx.rank(1) != 1 || !ctx.hasStaticShape(1))
      return ctx.fail("the shape must be a 1-D tensor");
    Emitter b(ctx);
    Value reshaped = b.op<DynReshapeOp>({ctx.input(0), ctx.input(1)},
                                        {ctx.boolean("allowzero", allowZero)});
    // The sizes known here: a 0 copies the input's (without allowzero), a
    // -1 is inferred when it runs.
    if (std::optional<SmallVector<int64_t>> known =
            knownIntValues(ctx.input(1))) {
      ArrayRef<int64_t> in = ctx.shape(0);
      for (size_t i = 0; i < known->size(); ++i) {
        int64_t &d = (*known)[i];
        if (d < 0 || (d == 0 && !allowZero))
          d = d == 0 && i < in.size() ? in[i] : ShapedType::kDynamic;
      }
      reshaped = refineKnownDims(ctx, b, reshaped, *known);
    }
    return b.output(reshaped);
  }
  FailureOr<SmallVector<int64_t>> requested =
      attribute ? FailureOr<SmallVector<int64_t>>(ctx.attrInts("shape"))
                : ctx.constantInts(1, "shape");
  if (failed(requested))
    return failure();
  ArrayRef<int64_t> in = ctx.shape(0);
  // An input whose sizes depend on the data: Relay's reshape resolves the
  // 0s and the -1 when it runs.
  if (!ctx.hasStaticShape(0)) {
    if (llvm::any_of(*requested, [](int64_t d) { return d < -1; }))
      return ctx.fail("shape has a negative dimension");
    return ctx.output(ctx.op<ReshapeOp>({ctx.input(0)},
                                        {ctx.ints("newshape", *requested),
                                         ctx.boolean("allowzero", allowZero)}));
  }
  SmallVector<int64_t> shape;
  int64_t known = 1, inferred = -1;
  for (auto [i, d] : llvm::enumerate(*requested)) {
    if (d == 0 && !allowZero) {
      if (i >= in.size())
        return ctx.fail("shape copies dimension " + Twine(i) +
                        " the input does not have");
      d = in[i];
    }
    if (d == -1) {
      if (inferred >= 0)
        return ctx.fail("shape has more than one -1");
      inferred = i;
      shape.push_back(1);
      continue;
    }
    if (d < 0)
      return ctx.fail("shape has a negative dimension " + Twine(d));
    if (__builtin_mul_overflow(known, d, &known))
      return ctx.fail("shape has more elements than 64 bits count");
    shape.push_back(d);
  }
  int64_t total = ctx.tensorType(0).getNumElements();
  if (inferred >= 0) {
    if (known == 0 || total % known != 0)
      return ctx.fail("cannot infer the -1 dimension");
    shape[inferred] = total / known;
  }
  return reshapeTo(ctx, shape);
}

LogicalResult convertFlatten(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  int64_t rank = ctx.rank(0);
  int64_t axis = ctx.attrInt("axis", 1);
  if (axis < -rank || axis > rank)
    return ctx.fail("axis " + Twine(axis) + " is out of range");
  if (axis < 0)
    axis += rank;
  int64_t rows = 1, cols = 1;
  bool rowsKnown = true, colsKnown = true;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = ctx.shape(0)[d];
    (d < axis ? rowsKnown : colsKnown) &= !ShapedType::isDynamic(size);
    if (!ShapedType::isDynamic(size))
      (d < axis ? rows : cols) *= size;
  }
  if (!rowsKnown || !colsKnown) {
    // Rows whose number depends on the data are Relay's -1 (axis 1: the
    // first dimension copied, `0`). Columns are not: -1 cannot be inferred
    // when there are no rows (a detector's box head when no region is
    // left: [0, 256, 7, 7]), so they are the run-time product below.
    if (colsKnown && cols > 0) {
      SmallVector<int64_t> shape = {axis == 1 ? 0 : -1, cols};
      return ctx.output(
          ctx.op<ReshapeOp>({ctx.input(0)}, {ctx.ints("newshape", shape)}));
    }
    // Both: the products of the two sides of the run-time shape.
    Emitter b(ctx);
    return b.output(flattenAtRunTime(ctx, b, ctx.input(0), axis));
  }
  return reshapeTo(ctx, {rows, cols});
}

LogicalResult convertUnsqueeze(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 2)))
    return failure();
  bool given;
  FailureOr<SmallVector<int64_t>> axes = axesOf(ctx, 1, given);
  if (failed(axes))
    return failure();
  if (!given)
    return ctx.fail("axes are required");
  int64_t outRank = ctx.rank(0) + axes->size();
  FailureOr<SmallVector<int64_t>> newAxes = ctx.distinctAxes(*axes, outRank);
  if (failed(newAxes))
    return failure();
  SmallVector<bool> isNew(outRank, false);
  for (int64_t n : *newAxes)
    isNew[n] = true;
  SmallVector<int64_t> shape;
  ArrayRef<int64_t> in = ctx.shape(0);
  // Sizes that depend on the data: one expand_dims per new axis.
  if (!ctx.hasStaticShape(0)) {
    Emitter b(ctx);
    Value x = ctx.input(0);
    for (int64_t d = 0; d < outRank; ++d)
      if (isNew[d])
        x = b.op<ExpandDimsOp>({x}, {ctx.i64("axis", d)});
    return b.output(x);
  }
  size_t next = 0;
  for (int64_t d = 0; d < outRank; ++d)
    shape.push_back(isNew[d] ? 1 : in[next++]);
  return reshapeTo(ctx, shape);
}

LogicalResult convertSqueeze(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 2)))
    return failure();
  bool given;
  FailureOr<SmallVector<int64_t>> axes = axesOf(ctx, 1, given);
  if (failed(axes))
    return failure();
  ArrayRef<int64_t> in = ctx.shape(0);
  SmallVector<bool> drop(in.size(), false);
  // Sizes that depend on the data: Relay's squeeze checks them when it
  // runs.
  if (!ctx.hasStaticShape(0)) {
    if (!given || axes->empty())
      return ctx.fail("squeezing every size-1 axis of a tensor whose sizes "
                      "depend on the data needs the axes given");
    SmallVector<int64_t> normalized;
    for (int64_t a : *axes) {
      FailureOr<int64_t> n = ctx.axis(a, in.size());
      if (failed(n))
        return failure();
      normalized.push_back(*n);
    }
    return ctx.output(
        ctx.op<SqueezeOp>({ctx.input(0)}, {ctx.ints("axis", normalized)}));
  }
  if (!given || axes->empty()) {
    for (size_t d = 0; d < in.size(); ++d)
      drop[d] = in[d] == 1;
  }
  for (int64_t a : *axes) {
    FailureOr<int64_t> n = ctx.axis(a, in.size());
    if (failed(n))
      return failure();
    if (in[*n] != 1)
      return ctx.fail("cannot squeeze axis " + Twine(a) + " of size " +
                      Twine(in[*n]));
    drop[*n] = true;
  }
  SmallVector<int64_t> shape;
  for (size_t d = 0; d < in.size(); ++d)
    if (!drop[d])
      shape.push_back(in[d]);
  return reshapeTo(ctx, shape);
}

LogicalResult convertTranspose(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  int64_t rank = ctx.rank(0);
  SmallVector<int64_t> reversed;
  for (int64_t d = rank - 1; d >= 0; --d)
    reversed.push_back(d);
  SmallVector<int64_t> perm = ctx.attrInts("perm", reversed);
  SmallVector<int64_t> sorted(perm);
  llvm::sort(sorted);
  if (!llvm::equal(sorted, llvm::seq<int64_t>(0, rank)))
    return ctx.fail("perm must be a permutation of the " + Twine(rank) +
                    " axes");
  // Known small integers (shape and padding arithmetic) are permuted here.
  DenseElementsAttr c = smallConstant(ctx, 0);
  if (c && isa<IntegerType>(c.getElementType()) &&
      static_cast<int64_t>(perm.size()) == rank) {
    ArrayRef<int64_t> in = ctx.shape(0);
    SmallVector<int64_t> shape, inStrides(rank, 1), values = readInts(c);
    for (int64_t d = rank - 2; d >= 0; --d)
      inStrides[d] = inStrides[d + 1] * in[d + 1];
    for (int64_t p : perm)
      shape.push_back(in[p]);
    SmallVector<int64_t> out;
    for (int64_t k = 0, n = c.getNumElements(); k < n; ++k) {
      // Output index k -> its coordinates -> the input element.
      int64_t rest = k, offset = 0;
      for (int64_t d = rank - 1; d >= 0; --d) {
        offset += (rest % shape[d]) * inStrides[perm[d]];
        rest /= shape[d];
      }
      out.push_back(values[offset]);
    }
    addFolded(ctx, intConstant(ctx, shape, out, c.getElementType()));
    return success();
  }
  return ctx.output(
      ctx.op<TransposeOp>({ctx.input(0)}, {ctx.ints("axes", perm)}));
}

LogicalResult convertConcat(NodeContext &ctx) {
  unsigned n = ctx.getNumInputs();
  if (n == 0)
    return ctx.fail("needs at least one input");
  if (failed(ctx.checkInputs(n, n)))
    return failure();
  // Before opset 4 the axis is optional, 1 by default.
  if (!ctx.hasAttr("axis") && ctx.getOpset() >= 4)
    return ctx.fail("attribute axis is required");
  FailureOr<int64_t> axis = ctx.axis(ctx.attrInt("axis", 1), ctx.rank(0));
  if (failed(axis))
    return failure();
  // Integer constants (shape pieces, index tuples built from ranges) fold:
  // for each position before the axis, each input's block in turn.
  bool foldable = isa<IntegerType>(ctx.elementType(0));
  SmallVector<SmallVector<int64_t>> parts;
  SmallVector<Value> fields;
  SmallVector<int64_t> shape(ctx.shape(0));
  shape[*axis] = 0;
  for (unsigned i = 0; i < n; ++i) {
    fields.push_back(ctx.input(i));
    DenseElementsAttr c = smallConstant(ctx, i);
    foldable &= c && ctx.elementType(i) == ctx.elementType(0) &&
                ctx.rank(i) == ctx.rank(0);
    if (foldable) {
      parts.push_back(readInts(c));
      shape[*axis] += ctx.shape(i)[*axis];
    }
  }
  if (foldable) {
    int64_t outer = 1;
    for (int64_t d = 0; d < *axis; ++d)
      outer *= shape[d];
    SmallVector<int64_t> folded;
    for (int64_t o = 0; o < outer; ++o)
      for (const SmallVector<int64_t> &part : parts) {
        int64_t block = outer ? part.size() / outer : 0;
        folded.append(part.begin() + o * block, part.begin() + (o + 1) * block);
      }
    addFolded(ctx, intConstant(ctx, shape, folded, ctx.elementType(0)));
    return success();
  }
  return ctx.output(
      ctx.op<ConcatenateOp>({ctx.tuple(fields)}, {ctx.i64("axis", *axis)}));
}

LogicalResult convertSplit(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 2)))
    return failure();
  int64_t rank = ctx.rank(0);
  FailureOr<int64_t> axis = ctx.axis(ctx.attrInt("axis", 0), rank);
  if (failed(axis))
    return failure();
  int64_t dim = ctx.shape(0)[*axis];
  int outputs = ctx.getNode().output_size();
  if (outputs < 1)
    return ctx.fail("a split needs at least one output");
  SmallVector<int64_t> sizes;
  if (ctx.hasAttr("split")) {
    sizes = ctx.attrInts("split");
  } else if (ctx.hasInput(1)) {
    FailureOr<SmallVector<int64_t>> s = ctx.constantInts(1, "split");
    if (failed(s))
      return failure();
    sizes = *s;
  } else if (ctx.hasAttr("num_outputs")) {
    // Opset 18: parts of ceil(dim / n), the last one smaller when n does
    // not divide dim.
    int64_t n = ctx.attrInt("num_outputs", 0);
    if (n != outputs)
      return ctx.fail("num_outputs is " + Twine(n) + " but the node has " +
                      Twine(outputs) + " outputs");
    if (ShapedType::isDynamic(dim))
      return ctx.fail("an axis whose size depends on the data is split only "
                      "by given sizes");
    int64_t part = (dim + n - 1) / n;
    if (dim > 0 && part * (n - 1) >= dim)
      return ctx.fail("dimension " + Twine(dim) + " does not split into " +
                      Twine(n) + " parts of " + Twine(part) +
                      " with a last part left");
    for (int64_t i = 0; i < n; ++i)
      sizes.push_back(std::min(part, dim - std::min(dim, part * i)));
  } else {
    if (ShapedType::isDynamic(dim))
      return ctx.fail("an axis whose size depends on the data is split only "
                      "by given sizes");
    if (dim % outputs != 0)
      return ctx.fail("dimension " + Twine(dim) + " does not split evenly " +
                      "into " + Twine(outputs) + " outputs");
    sizes.assign(outputs, dim / outputs);
  }
  if (static_cast<int>(sizes.size()) != outputs)
    return ctx.fail("split has " + Twine(sizes.size()) + " sizes for " +
                    Twine(outputs) + " outputs");
  // An axis whose size depends on the data: its sizes are checked when
  // the split runs.
  if (ShapedType::isDynamic(dim) && (ctx.hasAttr("split") || ctx.hasInput(1)))
    dim = std::accumulate(sizes.begin(), sizes.end(), int64_t(0));
  SmallVector<int64_t> indices;
  int64_t total = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] < 0)
      return ctx.fail("split sizes must not be negative, got " +
                      Twine(sizes[i]));
    if (llvm::AddOverflow(total, sizes[i], total))
      return ctx.fail("split sizes add up to more than 64 bits count");
    if (i + 1 < sizes.size())
      indices.push_back(total);
  }
  if (total != dim)
    return ctx.fail("split sizes do not add up to the dimension " + Twine(dim));
  if (outputs == 1) {
    ctx.addOutput(ctx.input(0), ctx.constantInput(0));
    return success();
  }
  FailureOr<Value> r =
      ctx.op<SplitOp>({ctx.input(0)}, {ctx.ints("indices_or_sections", indices),
                                       ctx.i64("axis", *axis)});
  if (failed(r))
    return failure();
  for (int i = 0; i < outputs; ++i)
    ctx.addOutput(ctx.tupleGet(*r, i));
  return success();
}

/// Slice whose bounds are computed at run time, or of an input whose sizes
/// depend on the data: dyn.strided_slice with a begin, end and step per
/// axis (the axes not sliced whole), each vector built from the node's
/// inputs at their axes.
LogicalResult convertDynamicSlice(NodeContext &ctx) {
  int64_t rank = ctx.rank(0);
  SmallVector<int64_t> axes;
  for (int64_t i = 0; i < ctx.tensorType(1).getNumElements(); ++i)
    axes.push_back(i);
  if (ctx.hasInput(3)) {
    FailureOr<SmallVector<int64_t>> a = ctx.constantInts(3, "axes");
    if (failed(a))
      return failure();
    axes = *a;
  }
  FailureOr<SmallVector<int64_t>> sliced = ctx.distinctAxes(axes, rank);
  if (failed(sliced))
    return failure();
  SmallVector<int64_t> position(rank, -1);
  for (auto [i, n] : llvm::enumerate(*sliced))
    position[n] = i;
  Type i64 = IntegerType::get(ctx.getContext(), 64);
  Emitter b(ctx);
  // Input `input`'s values at the sliced axes, `dflt` at the others.
  auto perAxis = [&](unsigned input, int64_t dflt) -> Value {
    if (!ctx.hasInput(input))
      return ctx.constant(
          intConstant(ctx, {rank}, SmallVector<int64_t>(rank, dflt), i64));
    if (ctx.rank(input) != 1 || !ctx.hasStaticShape(input) ||
        ctx.shape(input)[0] != static_cast<int64_t>(axes.size())) {
      (void)ctx.fail("starts, ends, axes and steps differ in length");
      return Value();
    }
    if (ElementsAttr c = ctx.constantInput(input)) {
      SmallVector<int64_t> given = readInts(c), full(rank, dflt);
      for (int64_t d = 0; d < rank; ++d)
        if (position[d] >= 0)
          full[d] = given[position[d]];
      return ctx.constant(intConstant(ctx, {rank}, full, i64));
    }
    Value values = b.op<CastOp>({ctx.input(input)}, {ctx.type("dtype", i64)});
    SmallVector<Value> pieces;
    for (int64_t d = 0; d < rank; ++d)
      pieces.push_back(
          position[d] < 0
              ? ctx.constant(intConstant(ctx, {1}, {dflt}, i64))
              : b.op<StridedSliceOp>({values},
                                     {ctx.ints("begin", {position[d]}),
                                      ctx.ints("end", {position[d] + 1})}));
    if (!b.succeeded())
      return Value();
    return b.op<ConcatenateOp>({ctx.tuple(pieces)}, {ctx.i64("axis", 0)});
  };
  Value begin = perAxis(1, 0);
  Value end = begin ? perAxis(2, std::numeric_limits<int64_t>::max()) : Value();
  Value steps = end ? perAxis(4, 1) : Value();
  if (!steps)
    return failure();
  Value slice = b.op<DynStridedSliceOp>({ctx.input(0), begin, end, steps}, {});
  // dyn.strided_slice's relation makes every size `?`; the axes not sliced
  // keep the input's (so that a GRU or a MatMul after it sees its static
  // feature size).
  SmallVector<int64_t> known(ctx.shape(0));
  for (int64_t d = 0; d < rank; ++d)
    if (position[d] >= 0)
      known[d] = ShapedType::kDynamic;
  return b.output(refineKnownDims(ctx, b, slice, known));
}

LogicalResult convertSlice(NodeContext &ctx) {
  // Before opset 10 starts, ends and axes are attributes.
  bool legacy = ctx.getOpset() < 10;
  if (failed(legacy ? ctx.checkInputs(1, 1) : ctx.checkInputs(3, 5)))
    return failure();
  if (!legacy &&
      (!ctx.hasStaticShape(0) || !ctx.constantInput(1) ||
       !ctx.constantInput(2) || (ctx.hasInput(4) && !ctx.constantInput(4))))
    return convertDynamicSlice(ctx);
  ArrayRef<int64_t> in = ctx.shape(0);
  int64_t rank = in.size();
  FailureOr<SmallVector<int64_t>> starts =
      legacy ? ctx.attrInts("starts") : ctx.constantInts(1, "starts");
  if (failed(starts))
    return failure();
  FailureOr<SmallVector<int64_t>> ends =
      legacy ? ctx.attrInts("ends") : ctx.constantInts(2, "ends");
  if (failed(ends))
    return failure();
  SmallVector<int64_t> axes, steps(starts->size(), 1);
  for (int64_t i = 0; i < static_cast<int64_t>(starts->size()); ++i)
    axes.push_back(i);
  if (legacy && ctx.hasAttr("axes"))
    axes = ctx.attrInts("axes");
  if (!legacy && ctx.hasInput(3)) {
    FailureOr<SmallVector<int64_t>> a = ctx.constantInts(3, "axes");
    if (failed(a))
      return failure();
    axes = *a;
  }
  if (!legacy && ctx.hasInput(4)) {
    FailureOr<SmallVector<int64_t>> s = ctx.constantInts(4, "steps");
    if (failed(s))
      return failure();
    steps = *s;
  }
  if (ends->size() != starts->size() || axes.size() != starts->size() ||
      steps.size() != starts->size())
    return ctx.fail("starts, ends, axes and steps differ in length");
  // Per axis: the first index and the count, with ONNX's clamping.
  SmallVector<int64_t> first(rank, 0), step(rank, 1),
      count(in.begin(), in.end());
  for (size_t i = 0; i < axes.size(); ++i) {
    FailureOr<int64_t> a = ctx.axis(axes[i], rank);
    if (failed(a))
      return failure();
    int64_t dim = in[*a], s = steps[i];
    if (s == 0)
      return ctx.fail("steps must not be 0");
    int64_t b = (*starts)[i], e = (*ends)[i];
    if (b < 0)
      b += dim;
    if (e < 0)
      e += dim;
    if (s > 0) {
      b = std::clamp<int64_t>(b, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
      count[*a] = e > b ? (e - b + s - 1) / s : 0;
    } else {
      b = std::clamp<int64_t>(b, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
      count[*a] = b > e ? (b - e - s - 1) / -s : 0;
    }
    first[*a] = b;
    step[*a] = s;
  }
  // Known integer data (shape and padding pieces) folds.
  if (DenseElementsAttr c = smallConstant(ctx, 0);
      c && rank >= 1 && isa<IntegerType>(c.getElementType())) {
    SmallVector<int64_t> all = readInts(c), picked, strides(rank, 1);
    for (int64_t d = rank - 2; d >= 0; --d)
      strides[d] = strides[d + 1] * in[d + 1];
    int64_t total = 1;
    for (int64_t n : count)
      total *= n;
    for (int64_t k = 0; k < total; ++k) {
      int64_t rest = k, offset = 0;
      for (int64_t d = rank - 1; d >= 0; --d) {
        offset += (first[d] + (rest % count[d]) * step[d]) * strides[d];
        rest /= count[d];
      }
      picked.push_back(all[offset]);
    }
    addFolded(ctx, intConstant(ctx, count, picked, c.getElementType()));
    return success();
  }
  Value x = ctx.input(0);
  // Positive steps: one strided_slice. Negative steps: a take per such
  // axis with the indices spelled out.
  SmallVector<int64_t> begin(rank), end(rank), strides(rank);
  bool negative = false;
  for (int64_t d = 0; d < rank; ++d) {
    negative |= step[d] < 0;
    begin[d] = step[d] > 0 ? first[d] : 0;
    strides[d] = step[d] > 0 ? step[d] : 1;
    end[d] = step[d] > 0
                 ? first[d] + std::max<int64_t>(count[d] - 1, 0) * step[d] +
                       (count[d] > 0 ? 1 : 0)
                 : in[d];
  }
  FailureOr<Value> r = ctx.op<StridedSliceOp>(
      {x}, {ctx.ints("begin", begin), ctx.ints("end", end),
            ctx.ints("strides", strides)});
  if (failed(r))
    return failure();
  if (negative) {
    for (int64_t d = 0; d < rank; ++d) {
      if (step[d] > 0)
        continue;
      SmallVector<int64_t> indices;
      for (int64_t j = 0; j < count[d]; ++j)
        indices.push_back(first[d] + j * step[d]);
      Value idx =
          ctx.constant(intConstant(ctx, {(int64_t)indices.size()}, indices,
                                   IntegerType::get(ctx.getContext(), 64)));
      r = ctx.op<TakeOp>({*r, idx}, {ctx.i64("axis", d)});
      if (failed(r))
        return failure();
    }
  }
  ctx.addOutput(*r);
  return success();
}

LogicalResult convertGather(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 2)))
    return failure();
  int64_t rank = ctx.rank(0);
  FailureOr<int64_t> axis = ctx.axis(ctx.attrInt("axis", 0), rank);
  if (failed(axis))
    return failure();
  int64_t dim = ctx.shape(0)[*axis];
  DenseElementsAttr data = smallConstant(ctx, 0);
  DenseElementsAttr indices = smallConstant(ctx, 1);
  if (indices && !ShapedType::isDynamic(dim)) {
    SmallVector<int64_t> idx = readInts(indices);
    for (int64_t &i : idx) {
      if (i < -dim || i >= dim)
        return ctx.fail("index " + Twine(i) + " is out of range for a " +
                        "dimension of " + Twine(dim));
      if (i < 0)
        i += dim;
    }
    // 1-d integer data with known indices (a shape's dims) folds.
    if (data && rank == 1 && isa<IntegerType>(data.getElementType())) {
      SmallVector<int64_t> all = readInts(data), picked;
      for (int64_t i : idx)
        picked.push_back(all[i]);
      addFolded(ctx, intConstant(ctx, indices.getType().getShape(), picked,
                                 data.getElementType()));
      return success();
    }
    // So do the static sizes of a shape that depends on the data in other
    // dims: torch.onnx's squeeze of a dim it cannot see tests that dim's
    // size in an If, whose branches (squeezed or not) differ in rank.
    if (std::optional<SmallVector<int64_t>> dims = knownIntValues(ctx.input(0));
        dims && rank == 1 && (int64_t)dims->size() == dim) {
      SmallVector<int64_t> picked;
      for (int64_t i : idx)
        picked.push_back((*dims)[i]);
      if (llvm::none_of(picked, ShapedType::isDynamic)) {
        addFolded(ctx, intConstant(ctx, indices.getType().getShape(), picked,
                                   ctx.elementType(0)));
        return success();
      }
    }
    Value normalised = ctx.constant(intConstant(
        ctx, indices.getType().getShape(), idx, indices.getElementType()));
    return ctx.output(
        ctx.op<TakeOp>({ctx.input(0), normalised}, {ctx.i64("axis", *axis)}));
  }
  // Indices known only at run time may be negative (counted from the end,
  // once) and must be in range: others are a run-time error, as in ONNX
  // Runtime and PyTorch (an embedding's token id past its table), not a
  // wrapped or clamped read. take's "fast" mode checks [0, dim). A size
  // that depends on the data is read at run time.
  Value idx = ctx.input(1);
  Type it = ctx.elementType(1);
  Value size = ctx.scalar(static_cast<double>(dim), it);
  if (ShapedType::isDynamic(dim)) {
    Emitter b(ctx);
    Value sizes = b.op<ShapeOfOp>({ctx.input(0)}, {ctx.type("dtype", it)});
    size = b.op<TakeOp>({sizes, ctx.scalar(static_cast<double>(*axis), it)},
                        {ctx.i64("axis", 0)});
    if (!size)
      return failure();
  }
  FailureOr<Value> negative = ctx.op<LessOp>({idx, ctx.scalar(0, it)});
  FailureOr<Value> shifted = ctx.op<AddOp>({idx, size});
  if (failed(negative) || failed(shifted))
    return failure();
  FailureOr<Value> normalised = ctx.op<WhereOp>({*negative, *shifted, idx});
  if (failed(normalised))
    return failure();
  return ctx.output(
      ctx.op<TakeOp>({ctx.input(0), *normalised},
                     {ctx.i64("axis", *axis), ctx.str("mode", "fast")}));
}

LogicalResult convertExpand(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 2)))
    return failure();
  // A shape computed at run time, or an input whose sizes depend on the
  // data: the input times ones of that shape broadcasts both ways, as
  // Expand does.
  if (!ctx.constantInput(1) || !ctx.hasStaticShape(0)) {
    if (ctx.rank(1) != 1 || !isa<IntegerType>(ctx.elementType(1)))
      return ctx.fail("the shape must be a 1-D integer tensor");
    Type element = ctx.elementType(0);
    bool boolean = element.isInteger(1);
    Emitter b(ctx);
    Value ones = b.op<DynFullOp>({ctx.scalar(1, element), ctx.input(1)}, {});
    Value expanded = boolean ? b.op<LogicalAndOp>({ctx.input(0), ones})
                             : b.mul(ctx.input(0), ones);
    // Each size of the result: the input's where it is not 1, else the
    // shape's.
    if (std::optional<SmallVector<int64_t>> known =
            knownIntValues(ctx.input(1))) {
      ArrayRef<int64_t> in = ctx.shape(0);
      size_t rank = std::max(in.size(), known->size());
      SmallVector<int64_t> sizes(rank, ShapedType::kDynamic);
      for (size_t i = 0; i < rank; ++i) {
        int64_t a = i + in.size() >= rank ? in[i + in.size() - rank] : 1;
        int64_t s =
            i + known->size() >= rank ? (*known)[i + known->size() - rank] : 1;
        if (!ShapedType::isDynamic(a) && a != 1)
          sizes[i] = a;
        else if (!ShapedType::isDynamic(s) && (a == 1 || s > 1))
          sizes[i] = s;
      }
      expanded = refineKnownDims(ctx, b, expanded, sizes);
    }
    return b.output(expanded);
  }
  FailureOr<SmallVector<int64_t>> requested = ctx.constantInts(1, "shape");
  if (failed(requested))
    return failure();
  ArrayRef<int64_t> in = ctx.shape(0);
  size_t rank = std::max(in.size(), requested->size());
  SmallVector<int64_t> shape(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t a = i + in.size() >= rank ? in[i + in.size() - rank] : 1;
    int64_t b = i + requested->size() >= rank
                    ? (*requested)[i + requested->size() - rank]
                    : 1;
    if (a != b && a != 1 && b != 1)
      return ctx.fail("shape does not broadcast with the input");
    shape[i] = a == 1 ? b : a;
  }
  // Known integers (index tuples) fold.
  DenseElementsAttr c = smallConstant(ctx, 0);
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  if (c && isa<IntegerType>(ctx.elementType(0)) &&
      count <= kMaxFoldedElements) {
    SmallVector<int64_t> values = readInts(c), folded;
    SmallVector<int64_t> padded(rank - in.size(), 1);
    padded.append(in.begin(), in.end());
    for (int64_t flat = 0; flat < count; ++flat) {
      // The source element: each coordinate modulo a size-1 input dim.
      int64_t src = 0;
      for (size_t d = 0, rem = flat, div = count; d < rank; ++d) {
        div /= shape[d];
        int64_t coord = rem / div;
        rem %= div;
        src = src * padded[d] + (padded[d] == 1 ? 0 : coord);
      }
      folded.push_back(values[src]);
    }
    addFolded(ctx, intConstant(ctx, shape, folded, ctx.elementType(0)));
    return success();
  }
  return ctx.output(
      ctx.op<BroadcastToOp>({ctx.input(0)}, {ctx.ints("shape", shape)}));
}

LogicalResult convertTile(NodeContext &ctx) {
  // Before opset 6: (input, tiles, axis), `tiles` copies along `axis`.
  bool legacy = ctx.getOpset() < 6;
  if (failed(ctx.checkInputs(legacy ? 3 : 2, legacy ? 3 : 2)))
    return failure();
  // Repeats computed at run time, or sizes that depend on the data:
  // dyn.tile.
  if (!legacy && (!ctx.constantInput(1) || !ctx.hasStaticShape(0))) {
    if (ctx.rank(1) != 1 || !isa<IntegerType>(ctx.elementType(1)))
      return ctx.fail("repeats must be a 1-D integer tensor");
    return ctx.output(ctx.op<DynTileOp>({ctx.input(0), ctx.input(1)}, {}));
  }
  FailureOr<SmallVector<int64_t>> repeats =
      ctx.constantInts(1, legacy ? "tiles" : "repeats");
  if (failed(repeats))
    return failure();
  if (legacy) {
    FailureOr<SmallVector<int64_t>> along = ctx.constantInts(2, "axis");
    if (failed(along))
      return failure();
    if (repeats->size() != 1 || along->size() != 1)
      return ctx.fail("tiles and axis must be single values");
    FailureOr<int64_t> axis = ctx.axis(along->front(), ctx.rank(0));
    if (failed(axis))
      return failure();
    SmallVector<int64_t> reps(ctx.rank(0), 1);
    reps[*axis] = repeats->front();
    repeats = reps;
  }
  if (static_cast<int64_t>(repeats->size()) != ctx.rank(0))
    return ctx.fail("repeats must have one value per dimension");
  Value x = ctx.input(0);
  for (auto [d, r] : llvm::enumerate(*repeats)) {
    if (r < 1)
      return ctx.fail("repeats must be positive");
    if (r == 1)
      continue;
    SmallVector<Value> copies(r, x);
    FailureOr<Value> c = ctx.op<ConcatenateOp>({ctx.tuple(copies)},
                                               {ctx.i64("axis", (int64_t)d)});
    if (failed(c))
      return failure();
    x = *c;
  }
  ctx.addOutput(x);
  return success();
}

/// What ReduceL2 and friends apply before and after the reduction.
enum class BeforeReduce { None, Abs, Square, Exp };
enum class AfterReduce { None, Sqrt, Log };

/// ReduceX: `axes` by attribute (or input #1 for ReduceSum from opset 13),
/// keepdims (default 1); `before` and `after` compose ReduceL2 and friends.
template <typename ReduceOp>
OpConverter reduce(BeforeReduce before = BeforeReduce::None,
                   AfterReduce after = AfterReduce::None) {
  return [=](NodeContext &ctx) -> LogicalResult {
    if (failed(ctx.checkInputs(1, 2)))
      return failure();
    bool given;
    FailureOr<SmallVector<int64_t>> axes = axesOf(ctx, 1, given);
    if (failed(axes))
      return failure();
    Value x = ctx.input(0);
    if (axes->empty() && ctx.attrInt("noop_with_empty_axes", 0)) {
      ctx.addOutput(x);
      return success();
    }
    FailureOr<Value> in = success(x);
    if (before == BeforeReduce::Square)
      in = ctx.op<MultiplyOp>({x, x});
    else if (before == BeforeReduce::Abs)
      in = ctx.op<AbsOp>({x});
    else if (before == BeforeReduce::Exp)
      in = ctx.op<ExpOp>({x});
    if (failed(in))
      return failure();
    SmallVector<NamedAttribute> attrs = {
        ctx.boolean("keepdims", ctx.attrInt("keepdims", 1) != 0)};
    if (!axes->empty())
      attrs.push_back(ctx.ints("axis", *axes));
    FailureOr<Value> r = ctx.op<ReduceOp>({*in}, attrs);
    if (succeeded(r) && after == AfterReduce::Sqrt)
      r = ctx.op<SqrtOp>({*r});
    else if (succeeded(r) && after == AfterReduce::Log)
      r = ctx.op<LogOp>({*r});
    if (failed(r))
      return failure();
    ctx.addOutput(*r);
    return success();
  };
}

/// ArgMax and ArgMin.
template <typename ArgOp> OpConverter argReduce() {
  return [](NodeContext &ctx) -> LogicalResult {
    if (failed(ctx.checkInputs(1, 1)))
      return failure();
    FailureOr<int64_t> axis = ctx.axis(ctx.attrInt("axis", 0), ctx.rank(0));
    if (failed(axis))
      return failure();
    FailureOr<Value> r =
        ctx.op<ArgOp>({ctx.input(0)},
                      {ctx.ints("axis", {*axis}),
                       ctx.boolean("keepdims", ctx.attrInt("keepdims", 1) != 0),
                       ctx.boolean("select_last_index",
                                   ctx.attrInt("select_last_index", 0) != 0)});
    if (failed(r))
      return failure();
    // Relay's indices are int32; ONNX's int64.
    FailureOr<Value> c = ctx.op<CastOp>(
        {*r}, {ctx.type("dtype", IntegerType::get(ctx.getContext(), 64))});
    if (failed(c))
      return failure();
    ctx.addOutput(*c);
    return success();
  };
}

LogicalResult convertRange(NodeContext &ctx) {
  if (failed(ctx.checkInputs(3, 3)))
    return failure();
  // Bounds computed at run time: arange, which steps in double whatever
  // the element type (so float16 bounds get opset 27's float32 stash_type
  // or better).
  if (!ctx.constantInput(0) || !ctx.constantInput(1) || !ctx.constantInput(2))
    return ctx.output(
        ctx.op<ArangeOp>({ctx.input(0), ctx.input(1), ctx.input(2)},
                         {ctx.type("dtype", ctx.elementType(0))}));
  Type e = ctx.elementType(0);
  double start = readDoubles(ctx.constantInput(0)).front();
  double limit = readDoubles(ctx.constantInput(1)).front();
  double delta = readDoubles(ctx.constantInput(2)).front();
  if (delta == 0)
    return ctx.fail("delta must not be 0");
  int64_t n = std::max<int64_t>(0, std::ceil((limit - start) / delta));
  auto type = RankedTensorType::get({n}, e);
  if (auto f = dyn_cast<FloatType>(e)) {
    SmallVector<APFloat> values;
    for (int64_t i = 0; i < n; ++i) {
      APFloat v(start + i * delta);
      bool losesInfo;
      v.convert(f.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &losesInfo);
      values.push_back(v);
    }
    addFolded(ctx, DenseElementsAttr::get(type, values));
    return success();
  }
  SmallVector<int64_t> values;
  for (int64_t i = 0; i < n; ++i)
    values.push_back(static_cast<int64_t>(start) +
                     i * static_cast<int64_t>(delta));
  addFolded(ctx, intConstant(ctx, {n}, values, e));
  return success();
}

LogicalResult convertGatherElements(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 2)))
    return failure();
  return ctx.output(ctx.op<GatherOp>(
      {ctx.input(0), ctx.input(1)}, {ctx.i64("axis", ctx.attrInt("axis", 0))}));
}

/// OneHot(indices, depth, [off, on], axis): where(expand_dims(indices) ==
/// arange(depth), on, off), the range a constant along the new axis;
/// negative indices count from `depth`, as ONNX says.
LogicalResult convertOneHot(NodeContext &ctx) {
  if (failed(ctx.checkInputs(3, 3)))
    return failure();
  Type i64 = IntegerType::get(ctx.getContext(), 64);
  // A depth computed at run time (cast to int64, as ONNX casts a float
  // one) makes a dyn.one_hot.
  ElementsAttr depthAttr = ctx.constantInput(1);
  std::optional<int64_t> depth;
  FailureOr<Value> depthValue = failure();
  if (depthAttr) {
    if (depthAttr.getNumElements() != 1)
      return ctx.fail("depth (input #1) must be one value");
    depth = static_cast<int64_t>(readDoubles(depthAttr).front());
    if (*depth <= 0)
      return ctx.fail("depth must be positive, got " + std::to_string(*depth));
    depthValue = ctx.scalar(double(*depth), i64);
  } else {
    if (!ctx.hasStaticShape(1) || ctx.tensorType(1).getNumElements() != 1)
      return ctx.fail("depth (input #1) must be one value (a scalar or a "
                      "1-element tensor)");
    depthValue = ctx.input(1);
    if (ctx.elementType(1) != i64)
      depthValue = ctx.op<CastOp>({*depthValue}, {ctx.type("dtype", i64)});
    if (succeeded(depthValue) && ctx.rank(1) != 0)
      depthValue = ctx.op<ReshapeOp>({*depthValue}, {ctx.ints("newshape", {})});
    if (failed(depthValue))
      return failure();
  }
  if (ctx.shape(2) != ArrayRef<int64_t>{2})
    return ctx.fail("values must have 2 elements [off, on]");
  int64_t rank = ctx.rank(0) + 1;
  int64_t axis = ctx.attrInt("axis", -1);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank)
    return ctx.fail("axis is out of range for rank " + std::to_string(rank));
  FailureOr<Value> index = ctx.input(0);
  if (ctx.elementType(0) != i64)
    index = ctx.op<CastOp>({ctx.input(0)}, {ctx.type("dtype", i64)});
  FailureOr<Value> negative, wrapped, off, on;
  if (succeeded(index))
    negative = ctx.op<LessOp>({*index, ctx.scalar(0, i64)});
  if (succeeded(negative))
    wrapped = ctx.op<AddOp>({*index, *depthValue});
  if (succeeded(wrapped))
    index = ctx.op<WhereOp>({*negative, *wrapped, *index});
  if (succeeded(index)) {
    off = ctx.op<TakeOp>({ctx.input(2), ctx.scalar(0, i64)});
    on = ctx.op<TakeOp>({ctx.input(2), ctx.scalar(1, i64)});
  }
  if (failed(index) || failed(off) || failed(on))
    return failure();
  if (!depth)
    return ctx.output(ctx.op<DynOneHotOp>(
        {*index, *on, *off, *depthValue},
        {ctx.i64("axis", axis), ctx.type("dtype", ctx.elementType(2))}));
  return ctx.output(ctx.op<OneHotOp>(
      {*index, *on, *off}, {ctx.i64("depth", *depth), ctx.i64("axis", axis),
                            ctx.type("dtype", ctx.elementType(2))}));
}

FailureOr<int64_t> blockSize(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  if (ctx.rank(0) != 4)
    return ctx.fail("only 4-d (NCHW) inputs are supported");
  int64_t b = ctx.attrInt("blocksize", 0);
  if (b <= 0)
    return ctx.fail("blocksize must be positive, got " + std::to_string(b));
  // Larger than every dimension, it divides none (and b * b would
  // overflow).
  if (b > std::max(ctx.shape(0)[1], std::max(ctx.shape(0)[2], ctx.shape(0)[3])))
    return ctx.fail("blocksize " + std::to_string(b) +
                    " is larger than the input's dimensions");
  return b;
}

/// DepthToSpace and SpaceToDepth: relay's nn.depth_to_space and
/// nn.space_to_depth.
LogicalResult convertDepthToSpace(NodeContext &ctx) {
  FailureOr<int64_t> block = blockSize(ctx);
  if (failed(block))
    return failure();
  int64_t b = *block;
  if (ctx.shape(0)[1] % (b * b))
    return ctx.fail("the channels (" + std::to_string(ctx.shape(0)[1]) +
                    ") must be a multiple of blocksize^2");
  std::string mode = ctx.attrString("mode", "DCR");
  if (mode != "DCR" && mode != "CRD")
    return ctx.fail("mode must be \"DCR\" or \"CRD\", got \"" + mode + "\"");
  return ctx.output(ctx.op<DepthToSpaceOp>(
      {ctx.input(0)}, {ctx.i64("block_size", b), ctx.str("mode", mode)}));
}

LogicalResult convertSpaceToDepth(NodeContext &ctx) {
  FailureOr<int64_t> block = blockSize(ctx);
  if (failed(block))
    return failure();
  int64_t b = *block;
  if (ctx.shape(0)[2] % b || ctx.shape(0)[3] % b)
    return ctx.fail("the height and width must be multiples of blocksize");
  return ctx.output(
      ctx.op<SpaceToDepthOp>({ctx.input(0)}, {ctx.i64("block_size", b)}));
}

/// Trilu: the upper (or lower) triangle from diagonal k of the last two
/// dimensions, as where(mask, x, 0) with the mask a constant.
LogicalResult convertTrilu(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 2)))
    return failure();
  if (ctx.rank(0) < 2)
    return ctx.fail("the input must have rank 2 or more");
  int64_t k = 0;
  if (ctx.hasInput(1)) {
    FailureOr<SmallVector<int64_t>> given = ctx.constantInts(1, "k");
    if (failed(given) || given->size() != 1)
      return failed(given) ? failure() : ctx.fail("k must be one integer");
    k = given->front();
  }
  bool upper = ctx.attrInt("upper", 1) != 0;
  ArrayRef<int64_t> s = ctx.shape(0);
  int64_t rows = s[s.size() - 2], cols = s.back();
  if (ShapedType::isDynamic(rows) || ShapedType::isDynamic(cols)) {
    // Sizes known when it runs: the offsets from the diagonal then.
    Emitter b(ctx);
    Type i64 = IntegerType::get(ctx.getContext(), 64);
    Value offset = diagonalOffsets(ctx, b, ctx.input(0));
    Value bound = ctx.scalar(k, i64);
    Value mask = upper ? b.op<GreaterEqualOp>({offset, bound})
                       : b.op<LessEqualOp>({offset, bound});
    return b.output(
        b.op<WhereOp>({mask, ctx.input(0), ctx.scalar(0, ctx.elementType(0))}));
  }
  SmallVector<bool> keep;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      keep.push_back(upper ? j - i >= k : j - i <= k);
  Value mask = ctx.constant(DenseElementsAttr::get(
      RankedTensorType::get({rows, cols},
                            IntegerType::get(ctx.getContext(), 1)),
      keep));
  return ctx.output(
      ctx.op<WhereOp>({mask, ctx.input(0), ctx.scalar(0, ctx.elementType(0))}));
}

} // namespace

void mlir::relay::onnx_import::addShapeConverters(ConverterTable &t) {
  t["Constant"] = convertConstant;
  t["Shape"] = convertShape;
  t["Size"] = convertSize;
  t["ConstantOfShape"] = convertConstantOfShape;
  t["EyeLike"] = convertEyeLike;
  t["CumSum"] = convertCumulative<CumsumOp>;
  t["CumProd"] = convertCumulative<CumprodOp>;
  t["Reshape"] = convertReshape;
  t["Flatten"] = convertFlatten;
  t["Unsqueeze"] = convertUnsqueeze;
  t["Squeeze"] = convertSqueeze;
  t["Transpose"] = convertTranspose;
  t["Concat"] = convertConcat;
  t["Split"] = convertSplit;
  t["Slice"] = convertSlice;
  t["Gather"] = convertGather;
  t["Expand"] = convertExpand;
  t["Tile"] = convertTile;
  t["Range"] = convertRange;
  t["DepthToSpace"] = convertDepthToSpace;
  t["SpaceToDepth"] = convertSpaceToDepth;
  t["Trilu"] = convertTrilu;
  t["GatherElements"] = convertGatherElements;
  t["OneHot"] = convertOneHot;
  t["ReduceSum"] = reduce<SumOp>();
  t["ReduceMean"] = reduce<MeanOp>();
  t["ReduceMax"] = reduce<MaxOp>();
  t["ReduceMin"] = reduce<MinOp>();
  t["ReduceProd"] = reduce<ProdOp>();
  t["ReduceL1"] = reduce<SumOp>(BeforeReduce::Abs);
  t["ReduceL2"] = reduce<SumOp>(BeforeReduce::Square, AfterReduce::Sqrt);
  t["ReduceSumSquare"] = reduce<SumOp>(BeforeReduce::Square);
  t["ReduceLogSum"] = reduce<SumOp>(BeforeReduce::None, AfterReduce::Log);
  t["ReduceLogSumExp"] = reduce<SumOp>(BeforeReduce::Exp, AfterReduce::Log);
  t["ArgMax"] = argReduce<ArgmaxOp>();
  t["ArgMin"] = argReduce<ArgminOp>();
}

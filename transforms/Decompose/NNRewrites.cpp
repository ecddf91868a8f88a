//===- NNRewrites.cpp - Neural-network composites ---------------*- C++ -*-===//
//
// Normalisations (l2, lrn, instance, group), variance, 1-d convolution
// and pooling (as 2-d of height 1), image.resize2d, image.grid_sample,
// vision.roi_align, nn.deformable_conv2d.
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "dialects/relay/ResizeSampling.h"
#include "transforms/Decompose/Decompose.h"
#include "transforms/Decompose/Rewrites.h"

#include <algorithm>
#include <array>
#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

Value mlir::relay::decompose::alongAxis(Emitter &b, Value v, int64_t axis,
                                        int64_t rank) {
  SmallVector<int64_t> shape(rank, 1);
  int64_t size = shapeOf(v)[0];
  shape[axis] = ShapedType::isDynamic(size) ? -1 : size;
  return b.reshape(v, shape);
}

Value mlir::relay::decompose::normalize(Emitter &b, Value x,
                                        ArrayRef<int64_t> axes, double eps) {
  SmallVector<NamedAttribute> reduce = {b.ints("axis", axes),
                                        b.boolean("keepdims", true)};
  Value centred = b.op<SubtractOp>({x, b.op<MeanOp>({x}, reduce)});
  Value var = b.op<MeanOp>({b.mul(centred, centred)}, reduce);
  return b.op<DivideOp>(
      {centred, b.op<SqrtOp>({b.add(var, b.scalar(eps, x))})});
}

Value mlir::relay::decompose::scaleAndShift(Emitter &b, Operation *op, Value y,
                                            int64_t axis) {
  int64_t rank = shapeOf(y).size();
  if (boolAttr(op, "scale"))
    y = b.mul(y, alongAxis(b, op->getOperand(1), axis, rank));
  if (boolAttr(op, "center"))
    y = b.add(y, alongAxis(b, op->getOperand(2), axis, rank));
  return y;
}

namespace {

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
  Value sum = b.op<SumOp>({b.mul(x, x)},
                          {b.ints("axis", axes), b.boolean("keepdims", true)});
  Value clamped = b.op<MaximumOp>({sum, b.scalar(floatAttr(op, "eps"), x)});
  return b.op<DivideOp>({x, b.op<SqrtOp>({clamped})});
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
  Value padded =
      b.op<PadOp>({b.mul(x, x), b.scalar(0, x)}, {b.ints("pad_width", width)});
  Value sum;
  SmallVector<int64_t> begin(rank, 0), end(shape);
  for (int64_t i = 0; i < size; ++i) {
    begin[axis] = i;
    end[axis] = i + shape[axis];
    Value slice = b.op<StridedSliceOp>(
        {padded}, {b.ints("begin", begin), b.ints("end", end)});
    sum = sum ? b.add(sum, slice) : slice;
  }
  Value base = b.add(b.mul(sum, b.scalar(floatAttr(op, "alpha") / size, x)),
                     b.scalar(floatAttr(op, "bias"), x));
  return b.op<DivideOp>(
      {x, b.op<PowerOp>({base, b.scalar(floatAttr(op, "beta"), x)})});
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

/// sum((data - mean)^2) over the axes / (N - unbiased), N read from the
/// data's shape when the program runs where its sizes are `?`.
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
      count = ShapedType::isDynamic(shape[i]) || ShapedType::isDynamic(count)
                  ? ShapedType::kDynamic
                  : count * shape[i];
    }
  Value d = b.op<SubtractOp>({data, op->getOperand(1)});
  Value sum = b.op<SumOp>(
      {b.mul(d, d)},
      {b.ints("axis", axes), b.boolean("keepdims", boolAttr(op, "keepdims"))});
  int64_t unbiased = boolAttr(op, "unbiased") ? 1 : 0;
  if (!ShapedType::isDynamic(count))
    return b.op<DivideOp>(
        {sum, b.scalar(std::max<int64_t>(count - unbiased, 1), data)});
  // Sizes known only at run time: the count read from the data's shape.
  Type i64 = b.getRewriter().getI64Type();
  Value sizes = b.op<TakeOp>({b.op<ShapeOfOp>({data}, {b.type("dtype", i64)}),
                              i64Constant(b, {int64_t(axes.size())}, axes)},
                             {b.i64("axis", 0)});
  Value n = castTo(b, b.op<ProdOp>({sizes}), elementOf(data));
  n = b.op<MaximumOp>(
      {b.op<SubtractOp>({n, b.scalar(unbiased, data)}), b.scalar(1, data)});
  return b.op<DivideOp>({sum, n});
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
  Value conv = b.op<Conv2DOp>(
      {addHeight(b, op->getOperand(0)), addHeight(b, weight)}, attrs);
  return dropHeight(b, conv, op);
}

/// A 1-d pooling as the 2-d pooling `Pool2D` over a height of one.
template <typename Pool2D> Value pool1d(Emitter &b, Operation *op) {
  SmallVector<NamedAttribute> attrs = {
      b.ints("pool_size", lifted(op, "pool_size", 1)),
      b.ints("strides", lifted(op, "strides", 1)),
      b.ints("dilation", lifted(op, "dilation", 1)),
      b.ints("padding", liftedPadding(op)),
      b.boolean("ceil_mode", boolAttr(op, "ceil_mode"))};
  if (std::is_same_v<Pool2D, AvgPool2DOp>)
    attrs.push_back(
        b.boolean("count_include_pad", boolAttr(op, "count_include_pad")));
  return dropHeight(b, b.op<Pool2D>({addHeight(b, op->getOperand(0))}, attrs),
                    op);
}

} // namespace

namespace {

/// One axis of image.resize2d: out[i] = sum over taps t of
/// weight[t][i] * in[index[t][i]], the indices (clamped to the edge) and
/// weights those of the axis's taps.
Value resizeAxis(Emitter &b, Value x, const ResizeAxis &axis) {
  if (axis.identity)
    return x;
  // A sample outside a crop weighs nothing (weights multiply every tap).
  bool anyOutside = llvm::is_contained(axis.outside, true);
  int64_t numTaps = axis.taps.size(), outSize = axis.outside.size();
  Type i64 = IntegerType::get(x.getContext(), 64);
  Type element = elementOf(x);
  SmallVector<int64_t> weightShape(shapeOf(x).size(), 1);
  weightShape[axis.axis] = outSize;
  Value sum;
  for (const auto &[indices, weights] : axis.taps) {
    Value gathered = b.op<TakeOp>(
        {x, b.constant(DenseElementsAttr::get(
                RankedTensorType::get({outSize}, i64), ArrayRef(indices)))},
        {b.i64("axis", axis.axis)});
    if (numTaps > 1 || anyOutside) {
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

/// image.resize1d, resize2d and resize3d: resizeAxis along each resized
/// axis (where the layout puts it), then the extrapolation value where a crop
/// sampled outside the data.
Value resize(Emitter &b, Operation *op) {
  std::optional<SmallVector<ResizeAxis>> axes = getResizeAxes(op);
  if (!axes)
    return nullptr;
  Value x = op->getOperand(0);
  for (const ResizeAxis &axis : *axes)
    x = resizeAxis(b, x, axis);
  // tf_crop_and_resize: extrapolation_value where any axis sampled
  // outside the data (those outputs are 0 so far).
  double extrapolation = floatAttr(op, "extrapolation_value");
  if (x && extrapolation != 0 && llvm::any_of(*axes, [](const ResizeAxis &a) {
        return llvm::is_contained(a.outside, true);
      })) {
    // The fill over the resized axes, 1 along the others: the outputs in
    // row-major order, the resized axes in the layout's order.
    Type element = elementOf(x);
    ArrayRef<int64_t> result = shapeOf(op->getResult(0));
    SmallVector<int64_t> shape(result.size(), 1);
    for (const ResizeAxis &a : *axes)
      shape[a.axis] = result[a.axis];
    SmallVector<Attribute> fill;
    for (int64_t n = 0; n < ShapedType::getNumElements(shape); ++n) {
      bool out = false;
      for (int64_t d = shape.size() - 1, rest = n; d >= 0;
           rest /= shape[d], --d)
        for (const ResizeAxis &a : *axes)
          if (a.axis == d)
            out |= a.outside[rest % shape[d]];
      fill.push_back(FloatAttr::get(element, out ? extrapolation : 0));
    }
    x = b.add(x, b.constant(DenseElementsAttr::get(
                     RankedTensorType::get(shape, element), fill)));
  }
  Type out = elementOf(op->getResult(0));
  if (x && elementOf(x) != out)
    x = b.op<CastOp>({x}, {b.type("dtype", out)});
  return x;
}

// image.grid_sample as PyTorch's grid_sampler_2d computes it (ONNX's
// GridSample tests come from it): coordinates in float, then each tap a
// gather from the flattened image at a clamped index, times its weight and
// zero where the tap is outside the image.

/// A normalised coordinate in [-1, 1] as a pixel position over `size`.
Value unnormalize(Emitter &b, Value g, int64_t size, bool align) {
  Value g1 = b.add(g, b.scalar(1, g));
  if (align)
    return b.mul(g1, b.scalar((size - 1) / 2.0, g));
  return b.mul(b.add(b.mul(g1, b.scalar(double(size), g)), b.scalar(-1, g)),
               b.scalar(0.5, g));
}

/// PyTorch's reflect_coordinates: `x` reflected into [low, high] (given
/// doubled), as often as it takes.
Value reflect(Emitter &b, Value x, int64_t twiceLow, int64_t twiceHigh) {
  if (twiceLow == twiceHigh)
    return b.mul(x, b.scalar(0, x));
  double min = twiceLow / 2.0, span = (twiceHigh - twiceLow) / 2.0;
  Value in = b.op<AbsOp>({b.add(x, b.scalar(-min, x))});
  Value flips = b.op<FloorOp>({b.op<DivideOp>({in, b.scalar(span, x)})});
  Value extra = b.op<SubtractOp>({in, b.mul(flips, b.scalar(span, x))});
  Value even = b.op<EqualOp>(
      {flips,
       b.mul(b.op<FloorOp>({b.mul(flips, b.scalar(0.5, x))}), b.scalar(2, x))});
  return b.op<WhereOp>(
      {even, b.add(extra, b.scalar(min, x)),
       b.add(b.op<SubtractOp>({b.scalar(span, x), extra}), b.scalar(min, x))});
}

/// PyTorch's compute_coordinates: a position as `padding` reads it.
Value padCoordinate(Emitter &b, Value x, int64_t size, StringRef padding,
                    bool align) {
  if (padding == "zeros")
    return x;
  if (padding == "reflection")
    x = align ? reflect(b, x, 0, 2 * (size - 1))
              : reflect(b, x, -1, 2 * size - 1);
  return b.clip(x, 0, double(size - 1));
}

/// Sampling an image at integer positions: `flat` is the image [N, C,
/// H * W]; a tap reads it at (x, y) (floats holding integers, [N, 1, Ho,
/// Wo]), zero outside the image, times `weight`.
struct GridTaps {
  Emitter &b;
  Value flat;
  int64_t h, w;
  SmallVector<int64_t> outShape; // [N, C, Ho, Wo]

  Value tap(Value x, Value y, Value weight) {
    Type f = elementOf(x);
    auto within = [&](Value v, int64_t size) {
      return b.op<LogicalAndOp>(
          {b.op<GreaterEqualOp>({v, b.scalar(0, v)}),
           b.op<LessEqualOp>({v, b.scalar(double(size - 1), v)})});
    };
    Value inside = b.op<LogicalAndOp>({within(x, w), within(y, h)});
    Type i64 = IntegerType::get(x.getContext(), 64);
    auto index = [&](Value v, int64_t size) {
      return b.op<CastOp>({b.clip(v, 0, double(size - 1))},
                          {b.type("dtype", i64)});
    };
    Value at = b.add(b.mul(index(y, h), b.scalar(double(w), index(y, h))),
                     index(x, w));
    int64_t n = outShape[0], c = outShape[1],
            positions = outShape[2] * outShape[3];
    at = b.op<BroadcastToOp>({b.reshape(at, {n, 1, positions})},
                             {b.ints("shape", {n, c, positions})});
    Value v =
        b.reshape(b.op<GatherOp>({flat, at}, {b.i64("axis", 2)}), outShape);
    Value mask = b.op<CastOp>({inside}, {b.type("dtype", f)});
    return b.mul(v, b.mul(weight, mask));
  }
};

/// PyTorch's cubic convolution weights (A = -0.75) of the four taps at
/// offsets -1, 0, 1, 2 from floor(x), for t = x - floor(x).
SmallVector<Value> cubicWeights(Emitter &b, Value t) {
  constexpr double a = -0.75;
  auto near = [&](Value x) { // ((A + 2) x - (A + 3)) x^2 + 1, |x| <= 1
    Value p = b.add(b.mul(x, b.scalar(a + 2, x)), b.scalar(-(a + 3), x));
    return b.add(b.mul(b.mul(p, x), x), b.scalar(1, x));
  };
  auto far = [&](Value x) { // ((A x - 5A) x + 8A) x - 4A, 1 < |x| < 2
    Value p = b.add(b.mul(x, b.scalar(a, x)), b.scalar(-5 * a, x));
    p = b.add(b.mul(p, x), b.scalar(8 * a, x));
    return b.add(b.mul(p, x), b.scalar(-4 * a, x));
  };
  Value oneMinus = b.op<SubtractOp>({b.scalar(1, t), t});
  return {far(b.add(t, b.scalar(1, t))), near(t), near(oneMinus),
          far(b.add(oneMinus, b.scalar(1, t)))};
}

Value gridSample(Emitter &b, Operation *op) {
  DictionaryAttr attrs = getOperatorAttributes(op);
  StringRef method = cast<StringAttr>(attrs.get("method")).getValue();
  StringRef padding = cast<StringAttr>(attrs.get("padding_mode")).getValue();
  bool align = boolAttr(op, "align_corners");
  Value data = op->getOperand(0), grid = op->getOperand(1);
  ArrayRef<int64_t> in = shapeOf(data), out = shapeOf(op->getResult(0));
  int64_t h = in[2], w = in[3];
  Type i64 = IntegerType::get(op->getContext(), 64);
  auto field = [&](int64_t i) {
    return b.op<TakeOp>(
        {grid, b.constant(DenseElementsAttr::get(
                   RankedTensorType::get({1}, i64), ArrayRef<int64_t>{i}))},
        {b.i64("axis", 1)});
  };
  Value ix = unnormalize(b, field(0), w, align);
  Value iy = unnormalize(b, field(1), h, align);
  GridTaps taps{b, b.reshape(data, {in[0], in[1], h * w}), h, w,
                SmallVector<int64_t>(out)};
  Value one = b.scalar(1, ix);
  if (method == "nearest") {
    Value x = b.op<RoundOp>({padCoordinate(b, ix, w, padding, align)});
    Value y = b.op<RoundOp>({padCoordinate(b, iy, h, padding, align)});
    return taps.tap(x, y, one);
  }
  if (method == "bilinear") {
    ix = padCoordinate(b, ix, w, padding, align);
    iy = padCoordinate(b, iy, h, padding, align);
    Value x0 = b.op<FloorOp>({ix}), y0 = b.op<FloorOp>({iy});
    Value x1 = b.add(x0, one), y1 = b.add(y0, one);
    Value tx = b.op<SubtractOp>({ix, x0}), ty = b.op<SubtractOp>({iy, y0});
    Value sx = b.op<SubtractOp>({one, tx}), sy = b.op<SubtractOp>({one, ty});
    Value sum = taps.tap(x0, y0, b.mul(sx, sy));
    sum = b.add(sum, taps.tap(x1, y0, b.mul(tx, sy)));
    sum = b.add(sum, taps.tap(x0, y1, b.mul(sx, ty)));
    return b.add(sum, taps.tap(x1, y1, b.mul(tx, ty)));
  }
  // Bicubic: the 4x4 taps around floor(position), each padded on its own.
  Value x0 = b.op<FloorOp>({ix}), y0 = b.op<FloorOp>({iy});
  SmallVector<Value> wx = cubicWeights(b, b.op<SubtractOp>({ix, x0}));
  SmallVector<Value> wy = cubicWeights(b, b.op<SubtractOp>({iy, y0}));
  Value sum;
  for (int j = 0; j < 4; ++j) {
    Value y =
        padCoordinate(b, b.add(y0, b.scalar(j - 1, y0)), h, padding, align);
    for (int i = 0; i < 4; ++i) {
      Value x =
          padCoordinate(b, b.add(x0, b.scalar(i - 1, x0)), w, padding, align);
      Value t = taps.tap(x, y, b.mul(wx[i], wy[j]));
      sum = sum ? b.add(sum, t) : t;
    }
  }
  return sum;
}

// image.crop_and_resize as TensorFlow's CropAndResize computes it: each
// box's sample positions (float pixels, separable), its image taken from
// the batch, sampled by image.grid_sample with align_corners (whose
// positions are these pixels, normalised), samples outside the image
// replaced by the extrapolation value.

/// One axis's sample positions [B, crop] of boxes from `lo` to `hi` ([B, 1],
/// normalised) over `size` pixels, and whether each lies in the image.
std::pair<Value, Value> cropPositions(Emitter &b, Value lo, Value hi,
                                      int64_t crop, int64_t size) {
  double last = double(size - 1);
  Value pos;
  if (crop > 1) {
    SmallVector<float> steps;
    for (int64_t i = 0; i < crop; ++i)
      steps.push_back(float(i));
    Value step = b.constant(DenseElementsAttr::get(
        RankedTensorType::get({1, crop}, elementOf(lo)), ArrayRef(steps)));
    // (In TensorFlow's order of operations, so that positions halfway
    // between pixels round as its do.)
    Value scale =
        b.op<DivideOp>({b.mul(b.op<SubtractOp>({hi, lo}), b.scalar(last, lo)),
                        b.scalar(double(crop - 1), lo)});
    pos = b.add(b.mul(lo, b.scalar(last, lo)), b.mul(step, scale));
  } else {
    pos = b.mul(b.add(lo, hi), b.scalar(0.5 * last, lo));
  }
  Value inside =
      b.op<LogicalAndOp>({b.op<GreaterEqualOp>({pos, b.scalar(0, pos)}),
                          b.op<LessEqualOp>({pos, b.scalar(last, pos)})});
  return {pos, inside};
}

Value cropAndResize(Emitter &b, Operation *op) {
  DictionaryAttr attrs = getOperatorAttributes(op);
  bool nhwc = cast<StringAttr>(attrs.get("layout")).getValue() == "NHWC";
  bool nearest =
      cast<StringAttr>(attrs.get("method")).getValue() == "nearest_neighbor";
  Value data = op->getOperand(0), boxes = op->getOperand(1);
  if (nhwc)
    data = b.op<TransposeOp>({data}, {b.ints("axes", {0, 3, 1, 2})});
  ArrayRef<int64_t> in = shapeOf(data);
  int64_t count = shapeOf(boxes)[0], h = in[2], w = in[3];
  auto size = cast<DenseI64ArrayAttr>(attrs.get("crop_size")).asArrayRef();
  int64_t ch = size[0], cw = size[1];
  Type i64 = b.getRewriter().getI64Type();
  auto column = [&](int64_t i) { // boxes[:, i] as [B, 1]
    return b.op<TakeOp>(
        {boxes, b.constant(DenseElementsAttr::get(
                    RankedTensorType::get({1}, i64), ArrayRef<int64_t>{i}))},
        {b.i64("axis", 1)});
  };
  auto [ys, insideY] = cropPositions(b, column(0), column(2), ch, h);
  auto [xs, insideX] = cropPositions(b, column(1), column(3), cw, w);
  // Grid coordinates in [-1, 1] for align_corners (a 1-pixel axis has
  // only position 0); nearest rounds half away from zero first (the
  // positions that count are not negative).
  auto normalised = [&](Value pos, int64_t pixels) {
    if (nearest)
      pos = b.op<FloorOp>({b.add(pos, b.scalar(0.5, pos))});
    return b.add(
        b.mul(pos,
              b.scalar(2.0 / double(std::max<int64_t>(pixels - 1, 1)), pos)),
        b.scalar(-1, pos));
  };
  Value gy =
      b.op<BroadcastToOp>({b.reshape(normalised(ys, h), {count, 1, ch, 1})},
                          {b.ints("shape", {count, 1, ch, cw})});
  Value gx =
      b.op<BroadcastToOp>({b.reshape(normalised(xs, w), {count, 1, 1, cw})},
                          {b.ints("shape", {count, 1, ch, cw})});
  Value grid = b.op<ConcatenateOp>({b.tuple({gx, gy})}, {b.i64("axis", 1)});
  Value images = b.op<TakeOp>({data, op->getOperand(2)}, {b.i64("axis", 0)});
  Value sampled = b.op<GridSampleOp>(
      {images, grid}, {b.str("method", nearest ? "nearest" : "bilinear"),
                       b.boolean("align_corners", true)});
  Value inside = b.op<LogicalAndOp>({b.reshape(insideY, {count, 1, ch, 1}),
                                     b.reshape(insideX, {count, 1, 1, cw})});
  Value out =
      b.op<WhereOp>({inside, sampled,
                     b.scalar(floatAttr(op, "extrapolation_value"), sampled)});
  if (nhwc)
    out = b.op<TransposeOp>({out}, {b.ints("axes", {0, 2, 3, 1})});
  if (auto dtype = dyn_cast_or_null<TypeAttr>(attrs.get("out_dtype")))
    if (dtype.getValue() != elementOf(out))
      out = b.op<CastOp>({out}, {b.type("dtype", dtype.getValue())});
  return out;
}

// vision.roi_align as ONNX's reference (ONNX Runtime's RoiAlign) and TVM
// compute it: each region split into bins, each bin sampled on a grid of
// sample_ratio^2 points, each point the bilinear interpolation of its four
// taps; the bin is the points' mean (or maximum). Coordinates are
// separable: the rows' taps depend on (region, row sample) only, the
// columns' on (region, column sample), so each tap is one gather of whole
// rows of channels from the features made NHWC ([N * H * W, C]), times the
// product of its row and column weights. (Gathering single elements from
// NCHW instead, an index per channel, took 1.35 s against 0.54 s for 1000
// regions of 256 channels, 7x7 bins of 2x2 samples, on a Zen 4; torchvision
// took 0.17 s. Each tap's [R, bins * s, bins * s, C] is still written out:
// --relay-fuse-elementwise does not fuse gathers into the sum of the taps.)

/// One axis's taps of sample coordinates `v` [R, K] over `size` pixels:
/// the low and high pixel (floats holding integers) and their weights,
/// zero where the coordinate is more than a pixel outside (below -1 or
/// beyond `size`); a coordinate within the last pixel (or below 0) reads
/// the border pixel alone.
struct AxisTaps {
  Value low, high, lowWeight, highWeight;
};

AxisTaps axisTaps(Emitter &b, Value v, int64_t size) {
  Type f = elementOf(v);
  Value valid = b.op<CastOp>(
      {b.op<LogicalAndOp>({b.op<GreaterEqualOp>({v, b.scalar(-1, v)}),
                           b.op<LessEqualOp>({v, b.scalar(double(size), v)})})},
      {b.type("dtype", f)});
  v = b.op<MaximumOp>({v, b.scalar(0, v)});
  Value floor = b.op<FloorOp>({v});
  Value atEnd = b.op<GreaterEqualOp>({floor, b.scalar(double(size - 1), v)});
  Value low = b.clip(floor, 0, double(size - 1));
  Value high = b.clip(b.add(low, b.scalar(1, v)), 0, double(size - 1));
  Value frac =
      b.op<WhereOp>({atEnd, b.scalar(0, v), b.op<SubtractOp>({v, low})});
  Value rest = b.op<SubtractOp>({b.scalar(1, v), frac});
  return {low, high, b.mul(rest, valid), b.mul(frac, valid)};
}

Value roiAlign(Emitter &b, Operation *op) {
  DictionaryAttr attrs = getOperatorAttributes(op);
  Value data = op->getOperand(0), rois = op->getOperand(1);
  ArrayRef<int64_t> in = shapeOf(data);
  int64_t n = in[0], c = in[1], h = in[2], w = in[3];
  int64_t r = shapeOf(rois)[0];
  ArrayRef<int64_t> pooled =
      cast<DenseI64ArrayAttr>(attrs.get("pooled_size")).asArrayRef();
  int64_t s = intAttr(op, "sample_ratio");
  // The adaptive grid's points differ region by region: no static sizes.
  if (s <= 0)
    return Value();
  int64_t rows = pooled[0] * s, cols = pooled[1] * s;
  double scale = floatAttr(op, "spatial_scale");
  bool aligned = boolAttr(op, "aligned");
  bool max = cast<StringAttr>(attrs.get("mode")).getValue() == "max";
  MLIRContext *ctx = op->getContext();
  Type f = elementOf(data), i64 = IntegerType::get(ctx, 64);
  auto field = [&](int64_t i) { // rois[:, i], [R, 1]
    return b.op<TakeOp>(
        {rois, b.constant(DenseElementsAttr::get(
                   RankedTensorType::get({1}, i64), ArrayRef<int64_t>{i}))},
        {b.i64("axis", 1)});
  };
  auto corner = [&](int64_t i) {
    return b.add(b.mul(field(i), b.scalar(scale, rois)),
                 b.scalar(aligned ? -0.5 : 0.0, rois));
  };
  Value x1 = corner(1), y1 = corner(2);
  Value width = b.op<SubtractOp>({corner(3), x1});
  Value height = b.op<SubtractOp>({corner(4), y1});
  if (!aligned) {
    width = b.op<MaximumOp>({width, b.scalar(1, width)});
    height = b.op<MaximumOp>({height, b.scalar(1, height)});
  }
  // Sample j of a region's `count` (bins * s) along an axis sits at
  // start + size * (j + 0.5) / count: bin j / s, point j % s within it.
  auto samples = [&](Value start, Value size, int64_t count) {
    SmallVector<Attribute> fractions;
    for (int64_t j = 0; j < count; ++j)
      fractions.push_back(FloatAttr::get(f, (j + 0.5) / double(count)));
    Value at = b.constant(DenseElementsAttr::get(
        RankedTensorType::get({1, count}, f), fractions));
    return b.add(start, b.mul(size, at));
  };
  AxisTaps ys = axisTaps(b, samples(y1, height, rows), h);
  AxisTaps xs = axisTaps(b, samples(x1, width, cols), w);
  // The features as rows of channels ([N * H * W, C]): a tap is a row,
  // ((batch * H + row) * W + column), copied whole.
  auto asIndex = [&](Value v) {
    return b.op<CastOp>({v}, {b.type("dtype", i64)});
  };
  Value batch = asIndex(b.clip(field(0), 0, double(n - 1)));
  Value image =
      b.reshape(b.mul(batch, b.scalar(double(h * w), batch)), {r, 1, 1});
  Value pixels =
      b.reshape(b.op<TransposeOp>({data}, {b.ints("axes", {0, 2, 3, 1})}),
                {n * h * w, c});
  Value bins;
  for (auto [row, rowWeight] :
       {std::pair(ys.low, ys.lowWeight), std::pair(ys.high, ys.highWeight)})
    for (auto [col, colWeight] :
         {std::pair(xs.low, xs.lowWeight), std::pair(xs.high, xs.highWeight)}) {
      Value rowAt = b.reshape(
          b.mul(asIndex(row), b.scalar(double(w), asIndex(row))), {r, rows, 1});
      Value at =
          b.add(b.add(image, rowAt), b.reshape(asIndex(col), {r, 1, cols}));
      Value tap = b.op<TakeOp>({pixels, at}, {b.i64("axis", 0)});
      Value weight = b.mul(b.reshape(rowWeight, {r, rows, 1, 1}),
                           b.reshape(colWeight, {r, 1, cols, 1}));
      Value term = b.mul(tap, weight); // [R, rows, cols, C]
      bins = bins ? b.add(bins, term) : term;
    }
  bins = b.reshape(bins, {r, pooled[0], s, pooled[1], s, c});
  // Max mode: the maximum of the interpolated points (TVM's).
  SmallVector<NamedAttribute> reduce = {b.ints("axis", {2, 4})};
  bins = max ? b.op<MaxOp>({bins}, reduce) : b.op<MeanOp>({bins}, reduce);
  return b.op<TransposeOp>({bins}, {b.ints("axes", {0, 3, 1, 2})});
}

/// A 1-d adaptive pooling as the 2-d one `Pool2D` over a height of one.
template <typename Pool2D> Value adaptivePool1d(Emitter &b, Operation *op) {
  int64_t width = shapeOf(op->getResult(0))[2];
  return dropHeight(b,
                    b.op<Pool2D>({addHeight(b, op->getOperand(0))},
                                 {b.ints("output_size", {1, width})}),
                    op);
}

Value conv1dTranspose(Emitter &b, Operation *op) {
  Value weight = op->getOperand(1);
  int64_t groups = intAttr(op, "groups");
  int64_t outputPadding = 0;
  if (auto a = op->getAttrOfType<DenseI64ArrayAttr>("output_padding");
      a && !a.empty())
    outputPadding = a.asArrayRef().front();
  SmallVector<NamedAttribute> attrs = {
      b.ints("strides", lifted(op, "strides", 1)),
      b.ints("dilation", lifted(op, "dilation", 1)),
      b.ints("padding", liftedPadding(op)),
      b.ints("output_padding", {0, outputPadding}),
      b.i64("groups", groups),
      b.i64("channels", shapeOf(weight)[1] * groups),
      b.ints("kernel_size", {1, shapeOf(weight)[2]})};
  if (auto dtype = op->getAttrOfType<TypeAttr>("out_dtype"))
    attrs.push_back(b.type("out_dtype", dtype.getValue()));
  Value conv = b.op<Conv2DTransposeOp>(
      {addHeight(b, op->getOperand(0)), addHeight(b, weight)}, attrs);
  return dropHeight(b, conv, op);
}

// nn.deformable_conv2d as topi computes it: every tap's position at every
// output pixel (a constant grid plus the offsets), the data sampled there
// by image.grid_sample (bilinear; border padding clamps the row and column
// after the last to the last, as topi's bilinear_sample_nchw does) and
// zeroed outside the image, then one batched product per image and group
// with the weights (the sampled columns channel-major, as OIHW is).

/// An attribute of 1, 2 (both axes) or 4 (padding: top, left, bottom,
/// right) values as (first axis, second axis); `dflt` when absent.
std::array<int64_t, 2> pairAttr(Operation *op, StringRef name, int64_t dflt) {
  auto values =
      dyn_cast_or_null<DenseI64ArrayAttr>(getOperatorAttributes(op).get(name));
  if (!values || values.empty())
    return {dflt, dflt};
  ArrayRef<int64_t> v = values.asArrayRef();
  return {v[0], v.size() == 1 ? v[0] : v[1]};
}

/// nn.deformable_conv2d on NCHW data and offset and OIHW weights, the
/// result (`out`: N, O, OH, OW) NCHW.
Value deformableConv2dNCHW(Emitter &b, Operation *op, Value data, Value offset,
                           Value weight, ArrayRef<int64_t> out) {
  ArrayRef<int64_t> in = shapeOf(data), wt = shapeOf(weight);
  int64_t n = in[0], c = in[1], h = in[2], w = in[3];
  int64_t o = wt[0], kh = wt[2], kw = wt[3], oh = out[2], ow = out[3];
  int64_t k = kh * kw, p = oh * ow;
  int64_t dg = intAttr(op, "deformable_groups"), groups = intAttr(op, "groups");
  auto [strideH, strideW] = pairAttr(op, "strides", 1);
  auto [dilationH, dilationW] = pairAttr(op, "dilation", 1);
  auto [padTop, padLeft] = pairAttr(op, "padding", 0);
  Type f = elementOf(data);

  // Each tap's position at each output pixel before its offset, [1, 1, K,
  // P]: row y * stride - pad_top + kh * dilation, likewise the column.
  SmallVector<float> rows, cols;
  for (int64_t i = 0; i < kh; ++i)
    for (int64_t j = 0; j < kw; ++j)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t x = 0; x < ow; ++x) {
          rows.push_back(float(y * strideH - padTop + i * dilationH));
          cols.push_back(float(x * strideW - padLeft + j * dilationW));
        }
  auto grid = [&](ArrayRef<float> v) {
    auto type =
        RankedTensorType::get({1, 1, k, p}, b.getRewriter().getF32Type());
    Value c = b.constant(DenseElementsAttr::get(type, v));
    return f.isF32() ? c : b.op<CastOp>({c}, {b.type("dtype", f)});
  };
  // offset's channels are (deformable group, tap, row then column).
  Value moved = b.reshape(offset, {n, dg, k, 2, p});
  auto field = [&](int64_t i) {
    Type i64 = b.getRewriter().getI64Type();
    Value index = b.constant(DenseElementsAttr::get(
        RankedTensorType::get({}, i64), ArrayRef<int64_t>{i}));
    return b.op<TakeOp>({moved, index}, {b.i64("axis", 3)});
  };
  Value y = b.reshape(b.add(field(0), grid(rows)), {n * dg, 1, k, p});
  Value x = b.reshape(b.add(field(1), grid(cols)), {n * dg, 1, k, p});
  auto within = [&](Value v, int64_t size) {
    return b.op<LogicalAndOp>({b.op<GreaterEqualOp>({v, b.scalar(0, v)}),
                               b.op<LessOp>({v, b.scalar(double(size), v)})});
  };
  Value inside = b.op<LogicalAndOp>({within(y, h), within(x, w)});
  // Pixel positions as grid_sample's coordinates without aligned corners
  // (pixel i at (2i + 1) / size - 1).
  auto normalised = [&](Value v, int64_t size) {
    return b.add(b.mul(v, b.scalar(2.0 / double(size), v)),
                 b.scalar(1.0 / double(size) - 1, v));
  };
  Value positions = b.op<ConcatenateOp>(
      {b.tuple({normalised(x, w), normalised(y, h)})}, {b.i64("axis", 1)});
  Value image = b.reshape(data, {n * dg, c / dg, h, w});
  Value sampled = b.op<GridSampleOp>({image, positions},
                                     {b.str("method", "bilinear"),
                                      b.str("padding_mode", "border"),
                                      b.boolean("align_corners", false)});
  sampled = b.op<WhereOp>({inside, sampled, b.scalar(0, sampled)});
  if (auto dtype = dyn_cast_or_null<TypeAttr>(
          getOperatorAttributes(op).get("out_dtype"));
      dtype && dtype.getValue() != f) {
    sampled = b.op<CastOp>({sampled}, {b.type("dtype", dtype.getValue())});
    weight = b.op<CastOp>({weight}, {b.type("dtype", dtype.getValue())});
  }

  // One product per image and group: W [groups, O/groups, C/groups * K]
  // times the sampled columns [C/groups * K, P].
  int64_t inPerGroup = c / groups * k;
  Value columns = b.reshape(sampled, {n * groups, inPerGroup, p});
  Value weights = b.reshape(weight, {1, groups, o / groups, inPerGroup});
  weights = b.op<BroadcastToOp>(
      {weights}, {b.ints("shape", {n, groups, o / groups, inPerGroup})});
  weights = b.reshape(weights, {n * groups, o / groups, inPerGroup});
  Value product = b.op<BatchMatmulOp>({weights, columns},
                                      {b.boolean("transpose_b", false)});
  return b.reshape(product, {n, o, oh, ow});
}

/// Other layouts (TVM's: the offset in the data's layout, the result in
/// out_layout or the data's) transposed to NCHW and OIHW and back.
Value deformableConv2d(Emitter &b, Operation *op) {
  auto layout = [&](StringRef name, StringRef dflt) {
    auto value =
        dyn_cast_or_null<StringAttr>(getOperatorAttributes(op).get(name));
    return value && !value.getValue().empty() ? value.getValue() : dflt;
  };
  StringRef dataLayout = layout("data_layout", "NCHW");
  StringRef kernelLayout = layout("kernel_layout", "OIHW");
  StringRef outLayout = layout("out_layout", "");
  if (outLayout.empty())
    outLayout = dataLayout;
  auto transposed = [&](Value v, StringRef from, StringRef to) {
    return from == to ? v
                      : b.op<TransposeOp>(
                            {v}, {b.ints("axes", *lowering::axesOf(from, to))});
  };
  ArrayRef<int64_t> result = shapeOf(op->getResult(0));
  SmallVector<int64_t> out;
  // (The relation took only permutations of NCHW and OIHW.)
  // (Named: a temporary optional would not outlive the loop's range.)
  auto fromNCHW = lowering::axesOf(outLayout, "NCHW");
  for (int64_t axis : *fromNCHW)
    out.push_back(result[axis]);
  Value nchw = deformableConv2dNCHW(
      b, op, transposed(op->getOperand(0), dataLayout, "NCHW"),
      transposed(op->getOperand(1), dataLayout, "NCHW"),
      transposed(op->getOperand(2), kernelLayout, "OIHW"), out);
  return transposed(nchw, "NCHW", outLayout);
}

} // namespace

void mlir::relay::decompose::addNNRewrites(AddRewrite add) {
  add("nn.deformable_conv2d", deformableConv2d);
  add("nn.adaptive_avg_pool1d", [](Emitter &b, Operation *op) {
    return adaptivePool1d<AdaptiveAvgPool2DOp>(b, op);
  });
  add("nn.adaptive_max_pool1d", [](Emitter &b, Operation *op) {
    return adaptivePool1d<AdaptiveMaxPool2DOp>(b, op);
  });
  add("nn.conv1d_transpose", conv1dTranspose);
  add("nn.l2_normalize", l2Normalize);
  add("nn.lrn", lrn);
  add("nn.instance_norm", instanceNorm);
  add("nn.group_norm", groupNorm);
  add("nn.conv1d", conv1d);
  add("image.resize1d", resize);
  add("image.resize2d", resize);
  add("image.resize3d", resize);
  add("image.grid_sample", gridSample);
  add("vision.roi_align", roiAlign);
  add("image.crop_and_resize", cropAndResize);
  add("nn.max_pool1d",
      [](Emitter &b, Operation *op) { return pool1d<MaxPool2DOp>(b, op); });
  add("nn.avg_pool1d",
      [](Emitter &b, Operation *op) { return pool1d<AvgPool2DOp>(b, op); });
}

void mlir::relay::decompose::addNNAnyShapeRewrites(AddRewrite add) {
  add("variance", variance);
}

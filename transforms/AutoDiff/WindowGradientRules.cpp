//===- WindowGradientRules.cpp - Gradients of windowed ops ------*- C++ -*-===//
//
// The gradient rules of the operators that read their input through a
// window or a stride: max and average 2-d pooling (their adjoints are
// built in transforms/Decompose/PoolAdjoints.cpp, which TVM's pool
// gradient operators share), adaptive 2-d pooling, strided_slice and
// nn.pad. Each is built from Relay operators only, so it lowers, runs in
// the interpreter and is exported like any other program.
//
//===----------------------------------------------------------------------===//

#include "transforms/AutoDiff/RuleSupport.h"

#include "dialects/relay/RelationUtils.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::autodiff;

namespace {

/// A rule from an adjoint builder (null when it does not apply).
template <typename OpT, Value (*build)(RelayBuilder &, OpT, Value)>
Grads fromAdjoint(RelayBuilder &rb, OpT op, Value g) {
  Value dx = build(rb, op, g);
  if (!dx)
    return failure();
  return SmallVector<Value>{dx};
}

/// strided_slice reads out[i] = in[first + i * step] on each axis (the
/// relation's normalisation): the gradient is g placed there, read
/// backwards along the axes it walked backwards.
/// Of data whose sizes are known only when it runs: g set into zeros at the
/// slice (strided_set, which reads begin, end and strides as numpy's slices
/// do, as strided_slice does), each axis given a begin, end and stride.
Grads dynamicStridedSliceGradient(RelayBuilder &rb, StridedSliceOp op,
                                  Value g) {
  Value x = op->getOperand(0);
  int64_t rank = shapeOf(x).size();
  ArrayRef<int64_t> begin = op.getBegin(), end = op.getEnd();
  SmallVector<int64_t> strides(begin.size(), 1);
  if (auto s = op.getStridesAttr())
    for (int64_t i = 0, e = strides.size(); i < e; ++i)
      strides[i] = s.size() == 1 ? s[0] : i < s.size() ? s[i] : 1;
  SmallVector<int64_t> axes;
  if (auto a = op.getAxesAttr())
    axes.assign(a.asArrayRef().begin(), a.asArrayRef().end());
  else
    axes = llvm::to_vector(llvm::seq<int64_t>(0, begin.size()));
  if (axes.size() != begin.size() || end.size() != begin.size())
    return failure();
  // Past any size: strided_set clamps an end to its axis.
  constexpr int64_t kWhole = int64_t(1) << 62;
  SmallVector<int64_t> first(rank, 0), last(rank, kWhole), step(rank, 1);
  bool sizes = op.getSliceMode() == "size";
  for (auto [i, axis] : llvm::enumerate(axes)) {
    int64_t d = axis < 0 ? axis + rank : axis;
    if (d < 0 || d >= rank)
      return failure();
    first[d] = begin[i];
    step[d] = sizes ? 1 : strides[i]; // "size" mode reads every element
    if (!sizes)
      last[d] = end[i];
    else if (end[i] >= 0 && begin[i] >= 0)
      last[d] = begin[i] + end[i];
    else if (end[i] >= 0)
      return failure(); // a count from a negative begin may wrap past 0
  }
  Value dx =
      rb.op<StridedSetOp>({rb.op<ZerosLikeOp>({x}), g, i64Vector(rb, first),
                           i64Vector(rb, last), i64Vector(rb, step)});
  if (!dx)
    return failure();
  return SmallVector<Value>{dx};
}

Grads stridedSliceGradient(RelayBuilder &rb, StridedSliceOp op, Value g) {
  Value x = op->getOperand(0);
  ArrayRef<int64_t> in = shapeOf(x), out = shapeOf(g);
  if (ShapedType::isDynamicShape(in))
    return dynamicStridedSliceGradient(rb, op, g);
  ArrayRef<int64_t> strides, axes;
  if (auto s = op.getStridesAttr())
    strides = s.asArrayRef();
  if (auto a = op.getAxesAttr())
    axes = a.asArrayRef();
  StridedSliceStarts starts = stridedSliceStarts(
      in, op.getBegin(), strides.empty() ? ArrayRef<int64_t>{1} : strides, axes,
      op.getSliceMode() == "size");
  if (llvm::is_contained(out, 0))
    return SmallVector<Value>{rb.op<ZerosLikeOp>({x})};
  Builder b(op->getContext());
  SmallVector<int64_t> first(starts.first), step(starts.step);
  for (size_t d = 0; d < in.size(); ++d) {
    if (step[d] > 0)
      continue;
    g = rb.op<ReverseOp>(
        {g}, {b.getNamedAttr("axis", b.getI64IntegerAttr(int64_t(d)))});
    first[d] += (out[d] - 1) * step[d];
    step[d] = -step[d];
    if (!g)
      return failure();
  }
  Value dx = placeStrided(rb, g, first, step, in);
  if (!dx)
    return failure();
  return SmallVector<Value>{dx};
}

/// nn.pad in constant mode: the data's gradient is g cut back to the data,
/// pad_value's is what fell on the padding.
Grads padGradient(RelayBuilder &rb, PadOp op, Value g) {
  if (op.getPadMode() != "constant")
    return failure();
  Value x = op->getOperand(0);
  ArrayRef<int64_t> in = shapeOf(x), width = op.getPadWidth();
  Builder b(op->getContext());
  SmallVector<int64_t> begin(in.size(), 0), end(in);
  for (size_t d = 0; d < in.size() && 2 * d < width.size(); ++d) {
    if (width[2 * d] < 0 || width[2 * d + 1] < 0)
      return failure(); // a negative pad crops: not covered
    begin[d] = width[2 * d];
    end[d] += begin[d];
  }
  Value dx = rb.op<StridedSliceOp>(
      {g}, {ints(b, "begin", begin), ints(b, "end", end)});
  Value total = rb.op<SumOp>({g});
  Value inner = dx ? rb.op<SumOp>({dx}) : Value();
  if (!dx || !total || !inner)
    return failure();
  Value dv = rb.subtract(total, inner);
  if (dv.getType() != op->getOperand(1).getType())
    dv = rb.op<ReshapeLikeOp>({dv, op->getOperand(1)});
  return SmallVector<Value>{dx, dv};
}

} // namespace

namespace {
/// Bin i of an adaptive pool from `in` to `out` along one axis:
/// [floor(i * in / out), ceil((i + 1) * in / out)), TVM's and PyTorch's.
std::pair<int64_t, int64_t> adaptiveBin(int64_t i, int64_t out, int64_t in) {
  return {(i * in) / out, ((i + 1) * in + out - 1) / out};
}

/// The [out, in] matrix of an adaptive average along one axis: row i
/// averages bin i.
/// A constant [rows, cols] matrix of `element`s holding `values`
/// (row-major).
Value constantMatrix(RelayBuilder &rb, Type element, int64_t rows, int64_t cols,
                     ArrayRef<double> values) {
  auto type = RankedTensorType::get({rows, cols}, element);
  SmallVector<Attribute> attrs;
  for (double v : values)
    attrs.push_back(FloatAttr::get(element, v));
  return rb.constant(DenseElementsAttr::get(type, attrs));
}

Value adaptiveBins(RelayBuilder &rb, Value like, int64_t out, int64_t in) {
  SmallVector<double> weights(out * in, 0.0);
  for (int64_t i = 0; i < out; ++i) {
    auto [start, end] = adaptiveBin(i, out, in);
    for (int64_t j = start; j < end; ++j)
      weights[i * in + j] = 1.0 / double(end - start);
  }
  return constantMatrix(rb, getElementTypeOrSelf(like.getType()), out, in,
                        weights);
}

/// An adaptive pool's data in NCHW, where the rules below work: NCHW as
/// it is, NHWC transposed (the result is transposed back by `restore`);
/// failure for floating-point data in no such layout.
struct AdaptiveLayout {
  static FailureOr<AdaptiveLayout> get(Operation *op) {
    StringRef layout = op->getAttrOfType<StringAttr>("layout").getValue();
    auto outAttr = op->getAttrOfType<StringAttr>("out_layout");
    StringRef out = outAttr ? outAttr.getValue() : "";
    if ((layout != "NCHW" && layout != "NHWC") ||
        (!out.empty() && out != layout) ||
        !isa<FloatType>(getElementTypeOrSelf(op->getOperand(0).getType())))
      return failure();
    return AdaptiveLayout{layout == "NHWC"};
  }
  /// `v` (laid out as the op's data) in NCHW.
  Value toNCHW(RelayBuilder &rb, Value v) const {
    return nhwc ? transpose(rb, v, {0, 3, 1, 2}) : v;
  }
  /// A shape of the op's data's layout in NCHW.
  SmallVector<int64_t> shapeNCHW(ArrayRef<int64_t> shape) const {
    if (!nhwc)
      return SmallVector<int64_t>(shape);
    return {shape[0], shape[3], shape[1], shape[2]};
  }
  /// `v` (NCHW) laid out as the op's data.
  Value restore(RelayBuilder &rb, Value v) const {
    return nhwc && v ? transpose(rb, v, {0, 2, 3, 1}) : v;
  }
  bool nhwc;

private:
  static Value transpose(RelayBuilder &rb, Value v, ArrayRef<int64_t> axes) {
    Builder b(rb.getContext());
    return v ? rb.op<TransposeOp>({v}, {ints(b, "axes", axes)}) : v;
  }
};

/// adaptive_avg_pool2d (NCHW) is y = A x B^T per image and channel, A and
/// B the bins' averaging matrices along H and W; so dx = A^T g B, two
/// products with constant matrices.
Grads adaptiveAvgPoolGradient(RelayBuilder &rb, AdaptiveAvgPool2DOp op,
                              Value g) {
  FailureOr<AdaptiveLayout> layout = AdaptiveLayout::get(op);
  if (failed(layout))
    return failure();
  Value x = layout->toNCHW(rb, op->getOperand(0));
  g = layout->toNCHW(rb, g);
  ArrayRef<int64_t> xs = shapeOf(x), gs = shapeOf(g);
  int64_t n = xs[0], c = xs[1], h = xs[2], w = xs[3], oh = gs[2], ow = gs[3];
  Builder b(op->getContext());
  auto reshape = [&](Value v, ArrayRef<int64_t> shape) {
    return rb.op<ReshapeOp>({v}, {ints(b, "newshape", shape)});
  };
  auto transpose = [&](Value v, ArrayRef<int64_t> axes) {
    return rb.op<TransposeOp>({v}, {ints(b, "axes", axes)});
  };
  // dense(a, b) = a b^T: [n c oh, ow] x [ow, w] -> [n c oh, w].
  Value rows = rb.op<DenseOp>({reshape(g, {n * c * oh, ow}),
                               transpose(adaptiveBins(rb, x, ow, w), {1, 0})});
  // [n c, w, oh] x [oh, h] -> [n c w, h], back to [n, c, h, w].
  Value cols = reshape(transpose(reshape(rows, {n * c, oh, w}), {0, 2, 1}),
                       {n * c * w, oh});
  Value dx =
      rb.op<DenseOp>({cols, transpose(adaptiveBins(rb, x, oh, h), {1, 0})});
  dx = layout->restore(rb, transpose(reshape(dx, {n, c, w, h}), {0, 1, 3, 2}));
  if (!dx)
    return failure();
  return SmallVector<Value>{dx};
}

/// An adaptive max pool (in NCHW) as windows of equal size:
/// along each axis, bin i's positions padded to the longest bin's length
/// `k` by repeating its last one (a repeat comes after the position it
/// copies, so the first maximum in row-major order is always a real one).
class AdaptiveMaxWindows {
public:
  /// The windows of `x`, the op's data in NCHW, pooled to `out` (NCHW).
  static FailureOr<AdaptiveMaxWindows> get(RelayBuilder &rb, Value x,
                                           ArrayRef<int64_t> out) {
    if (!x)
      return failure();
    AdaptiveMaxWindows windows(rb, x, out);
    // Where each output's gradient goes: one-hot over its window, at the
    // window's first maximum (argmax's first index).
    Builder b(rb.getContext());
    Type element = windows.element;
    Value first = rb.op<ArgmaxOp>({windows.gather(x)}, {ints(b, "axis", {4})});
    windows.hot = rb.op<OneHotOp>(
        {first, rb.scalarFloat(1.0, element), rb.scalarFloat(0.0, element)},
        {b.getNamedAttr("depth",
                        b.getI64IntegerAttr(windows.size[0] * windows.size[1])),
         b.getNamedAttr("dtype", TypeAttr::get(element))});
    if (!windows.hot)
      return failure();
    return windows;
  }

  /// `v` (shaped like the input) as [n, c, oh, ow, kh * kw]: each output's
  /// window.
  Value gather(Value v) {
    Builder b(rb.getContext());
    for (int i = 0; i < 2; ++i) {
      SmallVector<int32_t> positions;
      for (int64_t o = 0; o < out[2 + i]; ++o) {
        auto [start, end] = adaptiveBin(o, out[2 + i], in[2 + i]);
        for (int64_t k = 0; k < size[i]; ++k)
          positions.push_back(int32_t(std::min(start + k, end - 1)));
      }
      auto type = RankedTensorType::get({int64_t(positions.size())},
                                        b.getIntegerType(32));
      v = rb.op<TakeOp>(
          {v, rb.constant(DenseElementsAttr::get(type, ArrayRef(positions)))},
          {b.getNamedAttr("axis", b.getI64IntegerAttr(2 + i))});
    }
    v = rb.op<ReshapeOp>(
        {v}, {ints(b, "newshape",
                   {in[0], in[1], out[2], size[0], out[3], size[1]})});
    v = rb.op<TransposeOp>({v}, {ints(b, "axes", {0, 1, 2, 4, 3, 5})});
    return rb.op<ReshapeOp>(
        {v}, {ints(b, "newshape",
                   {in[0], in[1], out[2], out[3], size[0] * size[1]})});
  }

  /// The input's gradient from `parts`, [n, c, oh, ow, kh * kw]: each
  /// window's elements added where they were gathered from (repeats carry
  /// nothing), by two products with constant 0/1 matrices as for the
  /// average pool.
  Value scatter(Value parts) {
    Builder b(rb.getContext());
    int64_t n = in[0], c = in[1], h = in[2], w = in[3];
    int64_t oh = out[2], ow = out[3], kh = size[0], kw = size[1];
    auto reshape = [&](Value v, ArrayRef<int64_t> shape) {
      return rb.op<ReshapeOp>({v}, {ints(b, "newshape", shape)});
    };
    auto transpose = [&](Value v, ArrayRef<int64_t> axes) {
      return rb.op<TransposeOp>({v}, {ints(b, "axes", axes)});
    };
    Value v = reshape(parts, {n, c, oh, ow, kh, kw});
    v = reshape(transpose(v, {0, 1, 2, 4, 3, 5}), {n * c * oh * kh, ow * kw});
    // dense(a, b) = a b^T: [n c oh kh, ow kw] x [ow kw, w] -> [.., w].
    v = rb.op<DenseOp>({v, placement(1)});
    v = reshape(transpose(reshape(v, {n * c, oh * kh, w}), {0, 2, 1}),
                {n * c * w, oh * kh});
    v = rb.op<DenseOp>({v, placement(0)});
    return transpose(reshape(v, {n, c, w, h}), {0, 1, 3, 2});
  }

  /// [n, c, oh, ow, kh * kw]: 1 at each window's first maximum.
  Value hot;

private:
  AdaptiveMaxWindows(RelayBuilder &rb, Value x, ArrayRef<int64_t> outShape)
      : rb(rb), in(shapeOf(x)), out(outShape),
        element(getElementTypeOrSelf(x.getType())) {
    for (int i = 0; i < 2; ++i) {
      size[i] = 1;
      for (int64_t o = 0; o < out[2 + i]; ++o) {
        auto [start, end] = adaptiveBin(o, out[2 + i], in[2 + i]);
        size[i] = std::max(size[i], end - start);
      }
    }
  }

  /// The [in, out * k] matrix along axis `i` (0: H, 1: W) with a 1 where
  /// window position (o, k) reads input position j, repeats left out.
  Value placement(int i) {
    int64_t n = in[2 + i], o = out[2 + i], k = size[i];
    SmallVector<double> ones(n * o * k, 0.0);
    for (int64_t bin = 0; bin < o; ++bin) {
      auto [start, end] = adaptiveBin(bin, o, n);
      for (int64_t j = start; j < end; ++j)
        ones[j * o * k + bin * k + (j - start)] = 1.0;
    }
    return constantMatrix(rb, element, n, o * k, ones);
  }

  RelayBuilder &rb;
  SmallVector<int64_t> in, out;
  /// The longest bin along H and W.
  int64_t size[2];
  /// The data's element type.
  Type element;
};

/// adaptive_max_pool2d: each output's gradient goes to its bin's first
/// maximum, as PyTorch's does.
Grads adaptiveMaxPoolGradient(RelayBuilder &rb, AdaptiveMaxPool2DOp op,
                              Value g) {
  FailureOr<AdaptiveLayout> layout = AdaptiveLayout::get(op);
  if (failed(layout))
    return failure();
  g = layout->toNCHW(rb, g);
  FailureOr<AdaptiveMaxWindows> windows = AdaptiveMaxWindows::get(
      rb, layout->toNCHW(rb, op->getOperand(0)), shapeOf(g));
  if (failed(windows))
    return failure();
  Builder b(rb.getContext());
  Value spread = rb.op<ExpandDimsOp>(
      {g}, {b.getNamedAttr("axis", b.getI64IntegerAttr(4))});
  Value dx =
      layout->restore(rb, windows->scatter(rb.multiply(windows->hot, spread)));
  if (!dx)
    return failure();
  return SmallVector<Value>{dx};
}
} // namespace

FailureOr<Value> mlir::relay::autodiff::adaptiveMaxPool2DTangent(
    RelayBuilder &rb, AdaptiveMaxPool2DOp op, Value dx) {
  FailureOr<AdaptiveLayout> layout = AdaptiveLayout::get(op);
  if (failed(layout))
    return failure();
  FailureOr<AdaptiveMaxWindows> windows =
      AdaptiveMaxWindows::get(rb, layout->toNCHW(rb, op->getOperand(0)),
                              layout->shapeNCHW(shapeOf(op.getResult())));
  if (failed(windows))
    return failure();
  Builder b(rb.getContext());
  Value tangent = layout->restore(
      rb, rb.op<SumOp>({rb.multiply(windows->gather(layout->toNCHW(rb, dx)),
                                    windows->hot)},
                       {ints(b, "axis", {4})}));
  if (!tangent)
    return failure();
  return tangent;
}

void mlir::relay::autodiff::registerWindowGradientRules() {
  setRule<AdaptiveAvgPool2DOp>(adaptiveAvgPoolGradient);
  setRule<AdaptiveMaxPool2DOp>(adaptiveMaxPoolGradient);
  setRule<MaxPool2DOp>(fromAdjoint<MaxPool2DOp, adjoint::maxPool2DGradient>);
  setRule<AvgPool2DOp>(fromAdjoint<AvgPool2DOp, adjoint::avgPool2DGradient>);
  setRule<StridedSliceOp>(stridedSliceGradient);
  setRule<PadOp>(padGradient);
}

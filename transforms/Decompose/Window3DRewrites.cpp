//===- Window3DRewrites.cpp - 3-d convolution and pooling -------*- C++ -*-===//
//
// nn.conv3d, nn.max_pool3d, nn.avg_pool3d and the adaptive 3-d poolings
// (NCDHW data) in terms of their 2-d counterparts, so that they run on the
// 2-d kernels the CPU and GPU targets tune:
//
// - conv3d: the output's depth slices become the batch of one 2-d
//   convolution whose input channels are the kernel's depth taps stacked
//   (each group's taps together, as its weights are reshaped); a kernel of
//   one row and column (a temporal convolution, kx1x1) is instead a 2-d
//   convolution over depth and the flattened rows, with no copies;
// - conv3d_transpose: per depth tap of the kernel, one 2-d transposed
//   convolution over every input depth slice, its results placed `stride`
//   apart from the tap's offset and summed (no zeros inserted into the
//   input: no multiplications by them);
// - pooling: a box window is separable, so a 2-d pooling over height and
//   width (depth folded into the channels) is followed by one over depth
//   (height and width folded into one axis). Averages stay exact: the
//   window's count is the product of its depth count and its height-width
//   count, with or without the padding, and with ceil_mode.
//
//===----------------------------------------------------------------------===//

#include "transforms/Decompose/Rewrites.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

namespace {

/// A 3-d window attribute as 3 values (1 value means every axis).
SmallVector<int64_t> triple(Operation *op, StringRef name, int64_t dflt) {
  auto a = op->getAttrOfType<DenseI64ArrayAttr>(name);
  if (!a || a.empty())
    return {dflt, dflt, dflt};
  if (a.size() == 1)
    return {a[0], a[0], a[0]};
  return SmallVector<int64_t>(a.asArrayRef());
}

/// The padding of a 3-d window as (front, top, left, back, bottom, right).
SmallVector<int64_t> padding3d(Operation *op) {
  auto a = op->getAttrOfType<DenseI64ArrayAttr>("padding");
  if (!a || a.empty())
    return SmallVector<int64_t>(6, 0);
  if (a.size() == 1)
    return SmallVector<int64_t>(6, a[0]);
  if (a.size() == 3)
    return {a[0], a[1], a[2], a[0], a[1], a[2]};
  return SmallVector<int64_t>(a.asArrayRef());
}

/// [N, A, B, ...] to [N, B, A, ...]: a transpose, or a reshape where
/// either axis has size 1 (the same elements in the same order).
Value swapAxes12(Emitter &b, Value v) {
  SmallVector<int64_t> shape(shapeOf(v));
  std::swap(shape[1], shape[2]);
  if (shapeOf(v)[1] == 1 || shapeOf(v)[2] == 1)
    return b.reshape(v, shape);
  SmallVector<int64_t> perm = {0, 2, 1};
  for (int64_t d = 3, e = shape.size(); d < e; ++d)
    perm.push_back(d);
  return b.op<TransposeOp>({v}, {b.ints("axes", perm)});
}

Value conv3d(Emitter &b, Operation *op) {
  Value x = op->getOperand(0), w = op->getOperand(1);
  ArrayRef<int64_t> xs = shapeOf(x), ws = shapeOf(w);
  ArrayRef<int64_t> ys = shapeOf(op->getResult(0));
  int64_t n = xs[0], c = xs[1], h = xs[3], wd = xs[4];
  int64_t o = ws[0], cg = ws[1], kd = ws[2], kh = ws[3], kw = ws[4];
  int64_t od = ys[2];
  int64_t groups = intAttr(op, "groups");
  SmallVector<int64_t> strides = triple(op, "strides", 1);
  SmallVector<int64_t> dilation = triple(op, "dilation", 1);
  SmallVector<int64_t> pad = padding3d(op);

  SmallVector<NamedAttribute> outDtype;
  if (auto dtype = op->getAttrOfType<TypeAttr>("out_dtype"))
    outDtype.push_back(b.type("out_dtype", dtype.getValue()));
  // A kernel of one row and column without height or width padding:
  // [N, C, D, H * W] convolved by [O, Cg, KD, 1] (strided rows and columns
  // taken first).
  if (kh == 1 && kw == 1 && !pad[1] && !pad[2] && !pad[4] && !pad[5]) {
    if (strides[1] != 1 || strides[2] != 1)
      x = b.op<StridedSliceOp>({x},
                               {b.ints("begin", {0, 0}),
                                b.ints("end", {(ys[3] - 1) * strides[1] + 1,
                                               (ys[4] - 1) * strides[2] + 1}),
                                b.ints("strides", {strides[1], strides[2]}),
                                b.ints("axes", {3, 4})});
    SmallVector<NamedAttribute> attrs = {
        b.ints("strides", {strides[0], 1}),
        b.ints("dilation", {dilation[0], 1}),
        b.ints("padding", {pad[0], 0, pad[3], 0}),
        b.i64("groups", groups),
        b.i64("channels", o),
        b.ints("kernel_size", {kd, 1})};
    attrs.append(outDtype);
    Value y = b.op<Conv2DOp>({b.reshape(x, {n, c, xs[2], ys[3] * ys[4]}),
                              b.reshape(w, {o, cg, kd, 1})},
                             attrs);
    return b.reshape(y, ys);
  }
  // The depth padding is explicit; height and width are the 2-d
  // convolution's.
  if (pad[0] || pad[3]) {
    SmallVector<int64_t> width(10, 0);
    width[4] = pad[0];
    width[5] = pad[3];
    x = b.op<PadOp>({x, b.scalar(0, x)}, {b.ints("pad_width", width)});
  }
  // Tap t of the kernel's depth reads depths t*dd, t*dd + sd, ...
  auto tap = [&](int64_t t) {
    if (!x)
      return x; // the pad failed (reported by the Emitter)
    int64_t begin = t * dilation[0];
    int64_t end = begin + (od - 1) * strides[0] + 1;
    if (begin == 0 && strides[0] == 1 && end == shapeOf(x)[2])
      return x;
    return b.op<StridedSliceOp>(
        {x}, {b.ints("begin", {begin}), b.ints("end", {end}),
              b.ints("strides", {strides[0]}), b.ints("axes", {2})});
  };
  Value images, weights;
  if (kd == 1) {
    // [N, C, OD, H, W] -> [N * OD, C, H, W].
    images = b.reshape(swapAxes12(b, tap(0)), {n * od, c, h, wd});
    weights = b.reshape(w, {o, cg, kh, kw});
  } else {
    // Each tap [N, G, Cg, OD, H, W] -> [N, OD, G, Cg, H, W], stacked
    // [N, OD, G, KD, Cg, H, W] -> [N * OD, G * KD * Cg, H, W]: each group's
    // input channels are its taps, tap-major, as the weights below. (The
    // taps stacked first and the stack transposed wrote and read the
    // stacked images once more: 38 MB per layer of R3D-18's first stage.)
    SmallVector<Value> taps;
    for (int64_t t = 0; t < kd; ++t) {
      Value v = b.reshape(tap(t), {n, groups, cg, od, h, wd});
      if (od != 1)
        v = b.op<TransposeOp>({v}, {b.ints("axes", {0, 3, 1, 2, 4, 5})});
      if (!v)
        return v; // reported by the Emitter
      taps.push_back(v);
    }
    Value stacked = b.op<StackOp>({b.tuple(taps)}, {b.i64("axis", 3)});
    images = b.reshape(stacked, {n * od, c * kd, h, wd});
    // [O, Cg, KD, KH, KW] -> [O, KD * Cg, KH, KW].
    weights = b.reshape(swapAxes12(b, w), {o, kd * cg, kh, kw});
  }
  SmallVector<NamedAttribute> attrs = {
      b.ints("strides", {strides[1], strides[2]}),
      b.ints("dilation", {dilation[1], dilation[2]}),
      b.ints("padding", {pad[1], pad[2], pad[4], pad[5]}),
      b.i64("groups", groups),
      b.i64("channels", o),
      b.ints("kernel_size", {kh, kw})};
  attrs.append(outDtype);
  Value y = b.op<Conv2DOp>({images, weights}, attrs);
  // [N * OD, O, OH, OW] -> [N, O, OD, OH, OW].
  if (!y)
    return y;
  ArrayRef<int64_t> planes = shapeOf(y);
  return swapAxes12(b, b.reshape(y, {n, od, o, planes[2], planes[3]}));
}

/// [N, D, M] -> [N, (D - 1) * s + 1, M]: the depth slices `s` apart, zeros
/// between them.
Value spreadDepth(Emitter &b, Value v, int64_t s) {
  if (s == 1 || !v)
    return v;
  ArrayRef<int64_t> shape = shapeOf(v);
  int64_t n = shape[0], d = shape[1], m = shape[2];
  Value spread = b.reshape(
      b.op<PadOp>({b.reshape(v, {n, d, 1, m}), b.scalar(0, v)},
                  {b.ints("pad_width", {0, 0, 0, 0, 0, s - 1, 0, 0})}),
      {n, d * s, m});
  return b.op<StridedSliceOp>(
      {spread}, {b.ints("begin", {0}), b.ints("end", {(d - 1) * s + 1}),
                 b.ints("strides", {1}), b.ints("axes", {1})});
}

Value conv3dTranspose(Emitter &b, Operation *op) {
  Value x = op->getOperand(0), w = op->getOperand(1);
  ArrayRef<int64_t> xs = shapeOf(x), ws = shapeOf(w);
  ArrayRef<int64_t> ys = shapeOf(op->getResult(0));
  int64_t n = xs[0], c = xs[1], d = xs[2];
  int64_t kd = ws[2], kh = ws[3], kw = ws[4];
  int64_t o = ys[1], od = ys[2];
  SmallVector<int64_t> strides = triple(op, "strides", 1);
  SmallVector<int64_t> dilation = triple(op, "dilation", 1);
  SmallVector<int64_t> outputPadding = triple(op, "output_padding", 0);
  SmallVector<int64_t> pad = padding3d(op);
  SmallVector<NamedAttribute> attrs = {
      b.ints("strides", {strides[1], strides[2]}),
      b.ints("dilation", {dilation[1], dilation[2]}),
      b.ints("padding", {pad[1], pad[2], pad[4], pad[5]}),
      b.ints("output_padding", {outputPadding[1], outputPadding[2]}),
      b.i64("groups", intAttr(op, "groups")),
      b.i64("channels", o),
      b.ints("kernel_size", {kh, kw})};
  if (auto dtype = op->getAttrOfType<TypeAttr>("out_dtype"))
    attrs.push_back(b.type("out_dtype", dtype.getValue()));
  // [N, C, D, H, W] -> [N * D, C, H, W]: every input depth slice an image.
  Value images = b.reshape(swapAxes12(b, x), {n * d, c, xs[3], xs[4]});
  // Depth tap t of the kernel sends input depth i to depth i * sd + t * dd
  // of the uncropped output (`full` deep, then output_padding's zeros).
  int64_t spread = (d - 1) * strides[0] + 1;
  int64_t full = spread + dilation[0] * (kd - 1);
  Value sum;
  for (int64_t t = 0; t < kd; ++t) {
    Value tap = b.op<StridedSliceOp>(
        {w}, {b.ints("begin", {t}), b.ints("end", {t + 1}),
              b.ints("strides", {1}), b.ints("axes", {2})});
    Value planes = b.op<Conv2DTransposeOp>(
        {images, b.reshape(tap, {ws[0], ws[1], kh, kw})}, attrs);
    if (!planes)
      return planes;
    int64_t m = o * ys[3] * ys[4];
    Value placed = spreadDepth(b, b.reshape(planes, {n, d, m}), strides[0]);
    int64_t before = t * dilation[0];
    placed = b.op<PadOp>(
        {placed, b.scalar(0, planes)},
        {b.ints(
            "pad_width",
            {0, 0, before, full - spread - before + outputPadding[0], 0, 0})});
    sum = sum ? b.add(sum, placed) : placed;
  }
  Value cropped = sum;
  if (pad[0] || od != full + outputPadding[0])
    cropped = b.op<StridedSliceOp>(
        {sum}, {b.ints("begin", {pad[0]}), b.ints("end", {pad[0] + od}),
                b.ints("strides", {1}), b.ints("axes", {1})});
  // [N, OD, O * OH * OW] -> [N, O, OD, OH, OW].
  if (!cropped)
    return cropped;
  return swapAxes12(b, b.reshape(cropped, {n, od, o, ys[3], ys[4]}));
}

/// A 3-d pooling as `Pool2D` over height and width, then over depth.
template <typename Pool2D> Value pool3d(Emitter &b, Operation *op) {
  constexpr bool isAvg = std::is_same_v<Pool2D, AvgPool2DOp>;
  Value x = op->getOperand(0);
  ArrayRef<int64_t> xs = shapeOf(x), ys = shapeOf(op->getResult(0));
  int64_t n = xs[0], c = xs[1], d = xs[2];
  SmallVector<int64_t> pool = triple(op, "pool_size", 1);
  SmallVector<int64_t> strides = triple(op, "strides", 1);
  SmallVector<int64_t> dilation = triple(op, "dilation", 1);
  SmallVector<int64_t> pad = padding3d(op);
  bool ceil = boolAttr(op, "ceil_mode");
  auto pool2d = [&](Value v, ArrayRef<int64_t> size, ArrayRef<int64_t> stride,
                    ArrayRef<int64_t> dil, ArrayRef<int64_t> padding) {
    SmallVector<NamedAttribute> attrs = {
        b.ints("pool_size", size), b.ints("strides", stride),
        b.ints("dilation", dil), b.ints("padding", padding),
        b.boolean("ceil_mode", ceil)};
    if (isAvg)
      attrs.push_back(
          b.boolean("count_include_pad", boolAttr(op, "count_include_pad")));
    return b.op<Pool2D>({v}, attrs);
  };
  // Height and width: [N, C * D, H, W] -> [N, C * D, OH, OW].
  Value planes = b.reshape(x, {n, c * d, xs[3], xs[4]});
  bool planar = pool[1] != 1 || pool[2] != 1 || strides[1] != 1 ||
                strides[2] != 1 || pad[1] || pad[2] || pad[4] || pad[5];
  if (planar)
    planes =
        pool2d(planes, {pool[1], pool[2]}, {strides[1], strides[2]},
               {dilation[1], dilation[2]}, {pad[1], pad[2], pad[4], pad[5]});
  // Depth: [N, C, D, OH * OW] -> [N, C, OD, OH * OW].
  int64_t area = ys[3] * ys[4];
  Value depths = b.reshape(planes, {n, c, d, area});
  if (pool[0] != 1 || strides[0] != 1 || pad[0] || pad[3])
    depths = pool2d(depths, {pool[0], 1}, {strides[0], 1}, {dilation[0], 1},
                    {pad[0], 0, pad[3], 0});
  return b.reshape(depths, ys);
}

/// A 3-d adaptive pooling as the 2-d one over height and width, then over
/// depth (an adaptive window whose output size is its input's is one
/// element wide).
template <typename Pool2D> Value adaptivePool3d(Emitter &b, Operation *op) {
  Value x = op->getOperand(0);
  ArrayRef<int64_t> xs = shapeOf(x), ys = shapeOf(op->getResult(0));
  int64_t n = xs[0], c = xs[1], d = xs[2];
  Value planes = b.reshape(x, {n, c * d, xs[3], xs[4]});
  if (ys[3] != xs[3] || ys[4] != xs[4])
    planes = b.op<Pool2D>({planes}, {b.ints("output_size", {ys[3], ys[4]})});
  int64_t area = ys[3] * ys[4];
  Value depths = b.reshape(planes, {n, c, d, area});
  if (ys[2] != d)
    depths = b.op<Pool2D>({depths}, {b.ints("output_size", {ys[2], area})});
  return b.reshape(depths, ys);
}

} // namespace

void mlir::relay::decompose::addWindow3DRewrites(AddRewrite add) {
  add("nn.conv3d", conv3d);
  add("nn.conv3d_transpose", conv3dTranspose);
  add("nn.max_pool3d",
      [](Emitter &b, Operation *op) { return pool3d<MaxPool2DOp>(b, op); });
  add("nn.avg_pool3d",
      [](Emitter &b, Operation *op) { return pool3d<AvgPool2DOp>(b, op); });
  add("nn.adaptive_max_pool3d", [](Emitter &b, Operation *op) {
    return adaptivePool3d<AdaptiveMaxPool2DOp>(b, op);
  });
  add("nn.adaptive_avg_pool3d", [](Emitter &b, Operation *op) {
    return adaptivePool3d<AdaptiveAvgPool2DOp>(b, op);
  });
}

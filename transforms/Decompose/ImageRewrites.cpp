//===- ImageRewrites.cpp - Image and detection composites ------*- C++ -*-===//
//
// nn.upsampling3d (as image.resize3d), image.affine_grid (one batched
// product with the target grid), image.dilation2d and nn.correlation (one
// strided slice of the padded data per kernel tap or displacement), and
// vision.multibox_prior (a constant: its boxes depend only on the shape).
// Each computes what TVM's topi kernel computes.
//
//===----------------------------------------------------------------------===//

#include "transforms/Decompose/Decompose.h"
#include "transforms/Decompose/Rewrites.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

namespace {

StringRef strAttr(Operation *op, StringRef name) {
  return cast<StringAttr>(getOperatorAttributes(op).get(name)).getValue();
}

ArrayRef<int64_t> intsAttr(Operation *op, StringRef name) {
  return cast<DenseI64ArrayAttr>(getOperatorAttributes(op).get(name))
      .asArrayRef();
}

ArrayRef<double> floatsAttr(Operation *op, StringRef name) {
  return cast<DenseF64ArrayAttr>(getOperatorAttributes(op).get(name))
      .asArrayRef();
}

/// A constant of `shape` and element type `element` holding `values`.
Value floatConstant(Emitter &b, ArrayRef<int64_t> shape, Type element,
                    ArrayRef<double> values) {
  SmallVector<Attribute> attrs;
  for (double v : values)
    attrs.push_back(FloatAttr::get(element, v));
  return b.constant(
      DenseElementsAttr::get(RankedTensorType::get(shape, element), attrs));
}

/// `x` transposed by `perm`.
Value permute(Emitter &b, Value x, ArrayRef<int64_t> perm) {
  return b.op<TransposeOp>({x}, {b.ints("axes", perm)});
}

/// nn.upsampling3d: image.resize3d to the relation's size (trilinear is
/// resize3d's linear), NDHWC through NCDHW.
Value upsampling3d(Emitter &b, Operation *op) {
  bool ndhwc = strAttr(op, "layout") == "NDHWC";
  Value x = op->getOperand(0);
  if (ndhwc)
    x = permute(b, x, {0, 4, 1, 2, 3});
  ArrayRef<int64_t> out = shapeOf(op->getResult(0));
  SmallVector<int64_t> size = ndhwc ? SmallVector<int64_t>(out.slice(1, 3))
                                    : SmallVector<int64_t>(out.slice(2, 3));
  StringRef method = strAttr(op, "method");
  x = b.op<Resize3DOp>(
      {x},
      {b.ints("size", size),
       b.str("method", method == "trilinear" ? "linear" : "nearest_neighbor"),
       b.str("coordinate_transformation_mode",
             strAttr(op, "coordinate_transformation_mode"))});
  return ndhwc ? permute(b, x, {0, 2, 3, 4, 1}) : x;
}

/// image.affine_grid: theta [N, 2, 3] times the target's (x, y, 1) columns,
/// one batched product: [N, 2, 3] x [N, H * W, 3]^T.
Value affineGrid(Emitter &b, Operation *op) {
  Value theta = op->getOperand(0);
  ArrayRef<int64_t> target = intsAttr(op, "target_shape");
  int64_t n = shapeOf(theta)[0], h = target[0], w = target[1];
  // TVM's positions: -1 + i * ((2 - 1e-7) / (size - 1)), the step a
  // constant of the data's dtype (float32 arithmetic for float32).
  bool single = elementOf(theta).isF32();
  auto position = [&](int64_t i, int64_t size) -> double {
    double step = (2.0 - 1e-7) / double(size - 1);
    if (single)
      return double(-1.0f + float(i) * float(step));
    return -1.0 + double(i) * step;
  };
  SmallVector<double> points;
  for (int64_t i = 0; i < h; ++i)
    for (int64_t j = 0; j < w; ++j)
      points.append({position(j, w), position(i, h), 1.0});
  Value grid = floatConstant(b, {1, h * w, 3}, elementOf(theta), points);
  grid = b.op<BroadcastToOp>({grid}, {b.ints("shape", {n, h * w, 3})});
  Value out = b.op<BatchMatmulOp>({theta, grid});
  return b.reshape(out, {n, 2, h, w});
}

/// image.dilation2d: the zero-padded data's window taps, each a strided
/// slice plus its weight, folded by maximum.
Value dilation2d(Emitter &b, Operation *op) {
  bool nhwc = strAttr(op, "data_layout") == "NHWC";
  Value data = op->getOperand(0), weight = op->getOperand(1);
  if (nhwc) {
    data = permute(b, data, {0, 3, 1, 2});
    weight = permute(b, weight, {2, 0, 1});
  }
  if (auto dtype = dyn_cast_or_null<TypeAttr>(
          getOperatorAttributes(op).get("out_dtype"))) {
    if (dtype.getValue() != elementOf(data)) {
      data = b.op<CastOp>({data}, {b.type("dtype", dtype.getValue())});
      weight = b.op<CastOp>({weight}, {b.type("dtype", dtype.getValue())});
    }
  }
  ArrayRef<int64_t> strides = intsAttr(op, "strides"),
                    dilations = intsAttr(op, "dilations"),
                    p = intsAttr(op, "padding");
  int64_t pad[4] = {p[0], p.size() > 1 ? p[1] : p[0],
                    p.size() == 4 ? p[2] : p[0],
                    p.size() == 4 ? p[3] : (p.size() > 1 ? p[1] : p[0])};
  if (llvm::any_of(pad, [](int64_t v) { return v != 0; }))
    data = b.op<PadOp>(
        {data, b.scalar(0, data)},
        {b.ints("pad_width", {0, 0, 0, 0, pad[0], pad[2], pad[1], pad[3]})});
  ArrayRef<int64_t> w = shapeOf(weight), out = shapeOf(op->getResult(0));
  int64_t c = w[0], oh = out[nhwc ? 1 : 2], ow = out[nhwc ? 2 : 3];
  int64_t n = shapeOf(data)[0];
  Value result;
  for (int64_t ky = 0; ky < w[1]; ++ky)
    for (int64_t kx = 0; kx < w[2]; ++kx) {
      int64_t y = ky * dilations[0], x = kx * dilations[1];
      Value tap = b.op<StridedSliceOp>(
          {data}, {b.ints("begin", {0, 0, y, x}),
                   b.ints("end", {n, c, y + (oh - 1) * strides[0] + 1,
                                  x + (ow - 1) * strides[1] + 1}),
                   b.ints("strides", {1, 1, strides[0], strides[1]})});
      Value k =
          b.op<StridedSliceOp>({weight}, {b.ints("begin", {0, ky, kx}),
                                          b.ints("end", {c, ky + 1, kx + 1})});
      Value sum = b.add(tap, b.reshape(k, {1, c, 1, 1}));
      result = result ? b.op<MaximumOp>({result, sum}) : sum;
    }
  return nhwc ? permute(b, result, {0, 2, 3, 1}) : result;
}

/// nn.correlation: for each displacement, data1's region times data2's
/// displaced region (or their absolute difference), averaged over the
/// channels, then over each window by an average pooling with stride1.
Value correlation(Emitter &b, Operation *op) {
  Value a = op->getOperand(0), c = op->getOperand(1);
  ArrayRef<int64_t> p = intsAttr(op, "padding");
  int64_t top = p[0], left = p[1], bottom = p.size() == 4 ? p[2] : p[0],
          right = p.size() == 4 ? p[3] : p[1];
  if (top || left || bottom || right) {
    SmallVector<int64_t> width = {0, 0, 0, 0, top, bottom, left, right};
    a = b.op<PadOp>({a, b.scalar(0, a)}, {b.ints("pad_width", width)});
    c = b.op<PadOp>({c, b.scalar(0, c)}, {b.ints("pad_width", width)});
  }
  int64_t k = intAttr(op, "kernel_size"),
          disp = intAttr(op, "max_displacement"), s1 = intAttr(op, "stride1"),
          s2 = intAttr(op, "stride2");
  bool multiply = boolAttr(op, "is_multiply");
  ArrayRef<int64_t> out = shapeOf(op->getResult(0));
  int64_t n = shapeOf(a)[0], channels = shapeOf(a)[1];
  // The rows and columns the windows of the output positions cover.
  int64_t rows = (out[2] - 1) * s1 + k, cols = (out[3] - 1) * s1 + k;
  auto region = [&](Value x, int64_t y0, int64_t x0) {
    return b.op<StridedSliceOp>(
        {x}, {b.ints("begin", {0, 0, y0, x0}),
              b.ints("end", {n, channels, y0 + rows, x0 + cols})});
  };
  Value first = region(a, disp, disp);
  int64_t radius = disp / s2;
  SmallVector<Value> maps;
  for (int64_t dy = -radius; dy <= radius; ++dy)
    for (int64_t dx = -radius; dx <= radius; ++dx) {
      Value second = region(c, disp + dy * s2, disp + dx * s2);
      Value v = multiply ? b.mul(first, second)
                         : b.op<AbsOp>({b.op<SubtractOp>({first, second})});
      v = b.op<MeanOp>({v}, {b.ints("axis", {1}), b.boolean("keepdims", true)});
      if (k > 1 || s1 > 1)
        v = b.op<AvgPool2DOp>(
            {v}, {b.ints("pool_size", {k, k}), b.ints("strides", {s1, s1})});
      maps.push_back(v);
    }
  if (maps.size() == 1)
    return maps.front();
  return b.op<ConcatenateOp>({b.tuple(maps)}, {b.i64("axis", 1)});
}

/// vision.multibox_prior: the boxes as TVM's kernel computes them (widths
/// scaled by H / W), a constant of the data's dtype.
Value multiboxPrior(Emitter &b, Operation *op) {
  ArrayRef<int64_t> in = shapeOf(op->getOperand(0));
  int64_t h = in[2], w = in[3];
  ArrayRef<double> sizes = floatsAttr(op, "sizes"),
                   ratios = floatsAttr(op, "ratios"),
                   steps = floatsAttr(op, "steps"),
                   offsets = floatsAttr(op, "offsets");
  bool clip = boolAttr(op, "clip");
  double stepH = steps[0] > 0 ? steps[0] : 1.0 / double(h);
  double stepW = steps[1] > 0 ? steps[1] : 1.0 / double(w);
  int64_t perPosition = sizes.size() + ratios.size() - 1;
  SmallVector<double> boxes;
  boxes.reserve(h * w * perPosition * 4);
  for (int64_t i = 0; i < h; ++i) {
    double cy = (double(i) + offsets[0]) * stepH;
    for (int64_t j = 0; j < w; ++j) {
      double cx = (double(j) + offsets[1]) * stepW;
      for (int64_t k = 0; k < perPosition; ++k) {
        double size = k < int64_t(sizes.size()) ? sizes[k] : sizes[0];
        double root = k < int64_t(sizes.size())
                          ? 1.0
                          : std::sqrt(ratios[k - sizes.size() + 1]);
        double halfW = size * double(h) / double(w) * root / 2.0;
        double halfH = size / root / 2.0;
        for (double v : {cx - halfW, cy - halfH, cx + halfW, cy + halfH})
          boxes.push_back(clip ? std::clamp(v, 0.0, 1.0) : v);
      }
    }
  }
  return floatConstant(b, {1, h * w * perPosition, 4},
                       elementOf(op->getResult(0)), boxes);
}

} // namespace

void mlir::relay::decompose::addImageRewrites(AddRewrite add) {
  add("nn.upsampling3d", upsampling3d);
  add("image.affine_grid", affineGrid);
  add("image.dilation2d", dilation2d);
  add("nn.correlation", correlation);
  add("vision.multibox_prior", multiboxPrior);
}

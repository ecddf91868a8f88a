//===- ImageRewrites.cpp - Image and detection composites ------*- C++ -*-===//
//
// nn.upsampling3d (as image.resize3d), bicubic nn.upsampling (as
// image.resize2d), image.affine_grid (one batched
// product with the target grid), image.dilation2d and nn.correlation (one
// strided slice of the padded data per kernel tap or displacement), and
// vision.multibox_prior (a constant: its boxes depend only on the shape),
// vision.yolo_reorg (a take of darknet's order),
// vision.multibox_transform_loc and vision.get_valid_counts (rows compacted
// by running counts and one scatter), vision.roi_pool (masked maxima over
// each bin's rows, then its columns).
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

ArrayRef<double> floatsAttr(Operation *op, StringRef name) {
  return cast<DenseF64ArrayAttr>(getOperatorAttributes(op).get(name))
      .asArrayRef();
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
             strAttr(op, "coordinate_transformation_mode")),
       // topi's upsampling3d leaves the rounding to resize3d's choice.
       b.str("rounding_method", "")});
  return ndhwc ? permute(b, x, {0, 2, 3, 4, 1}) : x;
}

/// nn.upsampling's bicubic method: image.resize2d's cubic to the
/// relation's size, with align_corners or asymmetric coordinates, as
/// topi's upsampling resizes; NHWC through NCHW (nearest and bilinear have
/// kernels and lowerings of their own and stay).
Value bicubicUpsampling(Emitter &b, Operation *op) {
  StringRef layout = strAttr(op, "layout");
  bool nhwc = layout == "NHWC";
  if (strAttr(op, "method") != "bicubic" || (!nhwc && layout != "NCHW"))
    return Value();
  Value x = op->getOperand(0);
  if (nhwc)
    x = permute(b, x, {0, 3, 1, 2});
  ArrayRef<int64_t> out = shapeOf(op->getResult(0));
  x = b.op<Resize2DOp>(
      {x},
      {b.ints("size", nhwc ? SmallVector<int64_t>(out.slice(1, 2))
                           : SmallVector<int64_t>(out.slice(2, 2))),
       b.str("method", "cubic"),
       b.str("coordinate_transformation_mode",
             boolAttr(op, "align_corners") ? "align_corners" : "asymmetric")});
  return nhwc ? permute(b, x, {0, 2, 3, 1}) : x;
}

/// vision.yolo_reorg: darknet's reorg order as each image's constant
/// table of flat positions (TVM's reorg_python), one take.
Value yoloReorg(Emitter &b, Operation *op) {
  Value data = op->getOperand(0);
  ArrayRef<int64_t> in = shapeOf(data);
  int64_t c = in[1], h = in[2], w = in[3], s = intAttr(op, "stride");
  int64_t outC = c / (s * s);
  SmallVector<int64_t> indices;
  for (int64_t k = 0; k < c; ++k)
    for (int64_t j = 0; j < h; ++j)
      for (int64_t i = 0; i < w; ++i) {
        int64_t o = k / outC;
        indices.push_back(i * s + o % s +
                          w * s * (j * s + o / s + h * s * (k % outC)));
      }
  return takeFlat(b, data, 1, shapeOf(op->getResult(0)).drop_front(1), indices);
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
  Value out =
      b.op<BatchMatmulOp>({theta, grid}, {b.boolean("transpose_b", true)});
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

/// Moves the rows of `rows` [B, N, K] that `valid` [B, N] (bool) marks to
/// the front, in their order, as TVM's hybrid kernels do one row at a
/// time: the rows' new positions from two running counts, one scatter,
/// -1 after the valid ones. Returns (rows, counts [B, 1] i64, positions
/// [B, N] i64, whether each new row is valid [B, N, 1]).
struct Compacted {
  Value rows, counts, positions, live;
};
Compacted compactRows(Emitter &b, Value rows, Value valid) {
  ArrayRef<int64_t> shape = shapeOf(rows);
  int64_t n = shape[1];
  Type i64 = b.getRewriter().getI64Type();
  auto runningCount = [&](Value flags) {
    return b.op<CumsumOp>({b.op<CastOp>({flags}, {b.type("dtype", i64)})},
                          {b.i64("axis", 1)});
  };
  Value before = runningCount(valid);
  Value counts = b.op<StridedSliceOp>(
      {before}, {b.ints("begin", {0, n - 1}), b.ints("end", {shape[0], n})});
  Value after = runningCount(b.op<LogicalNotOp>({valid}));
  Value one = b.scalar(1, before);
  Value positions =
      b.op<WhereOp>({valid, b.op<SubtractOp>({before, one}),
                     b.op<SubtractOp>({b.add(counts, after), one})});
  Value spread = b.op<BroadcastToOp>({b.reshape(positions, {shape[0], n, 1})},
                                     {b.ints("shape", shape)});
  Value moved =
      b.op<ScatterElementsOp>({rows, spread, rows}, {b.i64("axis", 1)});
  SmallVector<int64_t> steps;
  for (int64_t i = 0; i < n; ++i)
    steps.push_back(i);
  Value index = b.constant(DenseElementsAttr::get(
      RankedTensorType::get({1, n, 1}, i64), ArrayRef(steps)));
  Value live = b.op<LessOp>({index, b.reshape(counts, {shape[0], 1, 1})});
  moved = b.op<WhereOp>({live, moved, b.scalar(-1, moved)});
  return {moved, counts, positions, live};
}

/// Column `i` of `x` [B, N, K] as [B, N].
Value column(Emitter &b, Value x, int64_t i) {
  ArrayRef<int64_t> s = shapeOf(x);
  return b.reshape(
      b.op<StridedSliceOp>({x}, {b.ints("begin", {0, 0, i}),
                                 b.ints("end", {s[0], s[1], i + 1})}),
      {s[0], s[1]});
}

/// vision.get_valid_counts: rows scoring above the threshold (with a
/// class not below 0 when id_index names one) compacted to the front.
Value getValidCounts(Emitter &b, Operation *op) {
  Value data = op->getOperand(0);
  ArrayRef<int64_t> shape = shapeOf(data);
  int64_t id = intAttr(op, "id_index");
  Value threshold = op->getOperand(1);
  if (elementOf(threshold) != elementOf(data))
    threshold = b.op<CastOp>({threshold}, {b.type("dtype", elementOf(data))});
  Value valid =
      b.op<GreaterOp>({column(b, data, intAttr(op, "score_index")), threshold});
  if (id >= 0)
    valid = b.op<LogicalAndOp>(
        {valid,
         b.op<GreaterEqualOp>({column(b, data, id), b.scalar(0, data)})});
  Compacted c = compactRows(b, data, valid);
  Type i32 = b.getRewriter().getI32Type();
  // Each front row's original position: the positions scattered back.
  SmallVector<int32_t> original;
  for (int64_t i = 0; i < shape[0] * shape[1]; ++i)
    original.push_back(int32_t(i % shape[1]));
  Value from = b.constant(DenseElementsAttr::get(
      RankedTensorType::get({shape[0], shape[1]}, i32), ArrayRef(original)));
  Value indices =
      b.op<ScatterElementsOp>({from, c.positions, from}, {b.i64("axis", 1)});
  indices = b.op<WhereOp>({b.reshape(c.live, {shape[0], shape[1]}), indices,
                           b.scalar(-1, indices)});
  Value counts =
      b.op<CastOp>({b.reshape(c.counts, {shape[0]})}, {b.type("dtype", i32)});
  return b.tuple({counts, c.rows, indices});
}

/// vision.multibox_transform_loc as TVM's hybrid kernel: each anchor's
/// best class and score, its box decoded from the anchor and the
/// predicted offsets, the rows off the background compacted to the front.
Value multiboxTransformLoc(Emitter &b, Operation *op) {
  Value prob = op->getOperand(0), loc = op->getOperand(1),
        anchor = op->getOperand(2);
  ArrayRef<int64_t> shape = shapeOf(prob);
  int64_t batch = shape[0], classes = shape[1], n = shape[2];
  bool keepBackground = boolAttr(op, "keep_background");
  int64_t first = keepBackground ? 0 : 1;
  Type element = elementOf(prob);
  // The best class from `first` on; TVM starts from score -1, class 0.
  Value best, id;
  if (classes > first) {
    Value candidates =
        b.op<StridedSliceOp>({prob}, {b.ints("begin", {0, first, 0}),
                                      b.ints("end", {batch, classes, n})});
    Value top = b.op<MaxOp>({candidates}, {b.ints("axis", {1})});
    Value arg =
        b.op<CastOp>({b.op<ArgmaxOp>({candidates}, {b.ints("axis", {1})})},
                     {b.type("dtype", element)});
    Value above = b.op<GreaterOp>({top, b.scalar(-1, top)});
    best = b.op<MaximumOp>({top, b.scalar(-1, top)});
    id = b.op<WhereOp>(
        {above, b.add(arg, b.scalar(double(first), arg)), b.scalar(0, arg)});
  } else {
    best = floatConstant(b, {batch, n}, element,
                         SmallVector<double>(batch * n, -1.0));
    id = floatConstant(b, {batch, n}, element,
                       SmallVector<double>(batch * n, 0.0));
  }
  Value positive = b.op<GreaterOp>({id, b.scalar(0, id)});
  Value weak = b.op<LogicalAndOp>(
      {positive,
       b.op<LessOp>({best, b.scalar(floatAttr(op, "threshold"), best)})});
  id = b.op<WhereOp>({weak, b.scalar(0, id), id});
  Value valid = keepBackground ? b.op<GreaterEqualOp>({id, b.scalar(0, id)})
                               : b.op<GreaterOp>({id, b.scalar(0, id)});
  // The box: the anchor's centre and size moved by the offsets.
  ArrayRef<double> var = floatsAttr(op, "variances");
  Value a = b.reshape(anchor, {1, n, 4}), p = b.reshape(loc, {batch, n, 4});
  Value al = column(b, a, 0), at = column(b, a, 1), ar = column(b, a, 2),
        ab = column(b, a, 3);
  Value aw = b.op<SubtractOp>({ar, al}), ah = b.op<SubtractOp>({ab, at});
  Value half = b.scalar(0.5, aw);
  Value ax = b.mul(b.add(al, ar), half), ay = b.mul(b.add(at, ab), half);
  auto offset = [&](int64_t i) {
    return b.mul(column(b, p, i), b.scalar(var[i], aw));
  };
  Value ox = b.add(b.mul(offset(0), aw), ax);
  Value oy = b.add(b.mul(offset(1), ah), ay);
  Value ow = b.mul(b.mul(b.op<ExpOp>({offset(2)}), aw), half);
  Value oh = b.mul(b.mul(b.op<ExpOp>({offset(3)}), ah), half);
  SmallVector<Value> fields = {
      b.op<SubtractOp>({id, b.scalar(double(first), id)}),
      best,
      b.op<SubtractOp>({ox, ow}),
      b.op<SubtractOp>({oy, oh}),
      b.add(ox, ow),
      b.add(oy, oh)};
  if (boolAttr(op, "clip"))
    for (Value &f : llvm::MutableArrayRef(fields).drop_front(2))
      f = b.clip(f, 0, 1);
  for (Value &f : fields)
    f = b.op<BroadcastToOp>({f}, {b.ints("shape", {batch, n})});
  Value rows = b.op<StackOp>({b.tuple(fields)}, {b.i64("axis", 2)});
  Compacted c = compactRows(b, rows, valid);
  Value counts = b.op<CastOp>({b.reshape(c.counts, {batch})},
                              {b.type("dtype", b.getRewriter().getI32Type())});
  return b.tuple({c.rows, counts});
}

/// One axis of vision.roi_pool's bins as TVM's kernel computes them: the
/// region from `lo` to `hi` ([R, 1], in input coordinates) rounded to
/// pixels, at least one, split into `bins`; the mask [R, bins, size] of
/// the pixels each bin covers, and whether it covers any ([R, bins]).
std::pair<Value, Value> roiPoolBins(Emitter &b, Value lo, Value hi,
                                    double scale, int64_t bins, int64_t size) {
  // round() of TVM's kernel: half away from zero.
  auto round = [&](Value v) {
    v = b.mul(v, b.scalar(scale, v));
    return b.mul(b.op<SignOp>({v}),
                 b.op<FloorOp>({b.add(b.op<AbsOp>({v}), b.scalar(0.5, v))}));
  };
  Value start = round(lo);
  Value extent = b.op<MaximumOp>(
      {b.add(b.op<SubtractOp>({round(hi), start}), b.scalar(1, start)),
       b.scalar(1, start)});
  Value bin = b.op<DivideOp>({extent, b.scalar(double(bins), extent)});
  Type f = elementOf(lo);
  SmallVector<double> firsts, nexts, pixels;
  for (int64_t i = 0; i < bins; ++i) {
    firsts.push_back(double(i));
    nexts.push_back(double(i + 1));
  }
  for (int64_t i = 0; i < size; ++i)
    pixels.push_back(double(i));
  Value eps = b.scalar(1e-5, bin);
  auto edge = [&](ArrayRef<double> at, bool first) {
    Value v = b.mul(floatConstant(b, {1, bins}, f, at), bin);
    v = first ? b.op<FloorOp>({b.add(v, eps)})
              : b.op<CeilOp>({b.op<SubtractOp>({v, eps})});
    v = b.add(v, start);
    return b.clip(v, 0, double(size));
  };
  Value from = edge(firsts, true), to = edge(nexts, false); // [R, bins]
  int64_t r = shapeOf(lo)[0];
  Value pixel = floatConstant(b, {1, 1, size}, f, pixels);
  Value mask = b.op<LogicalAndOp>(
      {b.op<GreaterEqualOp>({pixel, b.reshape(from, {r, bins, 1})}),
       b.op<LessOp>({pixel, b.reshape(to, {r, bins, 1})})});
  return {mask, b.op<LessOp>({from, to})};
}

/// vision.roi_pool: each region's image, the maximum over each bin's rows
/// (masked), then over its columns; 0 in empty bins.
Value roiPool(Emitter &b, Operation *op) {
  Value data = op->getOperand(0), rois = op->getOperand(1);
  ArrayRef<int64_t> in = shapeOf(data);
  int64_t n = in[0], c = in[1], h = in[2], w = in[3];
  int64_t r = shapeOf(rois)[0];
  ArrayRef<int64_t> out = shapeOf(op->getResult(0));
  int64_t ph = out[2], pw = out[3];
  double scale = floatAttr(op, "spatial_scale");
  auto field = [&](int64_t i) { // rois[:, i], [R, 1]
    return b.op<StridedSliceOp>(
        {rois}, {b.ints("begin", {0, i}), b.ints("end", {r, i + 1})});
  };
  Type i64 = b.getRewriter().getI64Type();
  Value batch = b.op<CastOp>({b.clip(b.reshape(field(0), {r}), 0, n - 1)},
                             {b.type("dtype", i64)});
  Value images = b.op<TakeOp>({data, batch}, {b.i64("axis", 0)}); // [R,C,H,W]
  auto [rowMask, rowsAny] = roiPoolBins(b, field(2), field(4), scale, ph, h);
  auto [colMask, colsAny] = roiPoolBins(b, field(1), field(3), scale, pw, w);
  // TVM's reduction starts from the dtype's lowest value.
  Value lowest =
      b.scalar(-double(APFloat::getLargest(
                           cast<FloatType>(elementOf(data)).getFloatSemantics())
                           .convertToDouble()),
               data);
  Value byRows = b.op<WhereOp>({b.reshape(rowMask, {r, 1, ph, h, 1}),
                                b.reshape(images, {r, c, 1, h, w}), lowest});
  byRows = b.op<MaxOp>({byRows}, {b.ints("axis", {3})}); // [R, C, PH, W]
  Value byCols = b.op<WhereOp>({b.reshape(colMask, {r, 1, 1, pw, w}),
                                b.reshape(byRows, {r, c, ph, 1, w}), lowest});
  byCols = b.op<MaxOp>({byCols}, {b.ints("axis", {4})}); // [R, C, PH, PW]
  Value any = b.op<LogicalAndOp>(
      {b.reshape(rowsAny, {r, 1, ph, 1}), b.reshape(colsAny, {r, 1, 1, pw})});
  return b.op<WhereOp>({any, byCols, b.scalar(0, byCols)});
}

} // namespace

void mlir::relay::decompose::addImageRewrites(AddRewrite add) {
  add("nn.upsampling3d", upsampling3d);
  add("nn.upsampling", bicubicUpsampling);
  add("vision.yolo_reorg", yoloReorg);
  add("image.affine_grid", affineGrid);
  add("image.dilation2d", dilation2d);
  add("nn.correlation", correlation);
  add("vision.multibox_prior", multiboxPrior);
  add("vision.multibox_transform_loc", multiboxTransformLoc);
  add("vision.get_valid_counts", getValidCounts);
  add("vision.roi_pool", roiPool);
}

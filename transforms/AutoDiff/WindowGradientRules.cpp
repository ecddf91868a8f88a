//===- WindowGradientRules.cpp - Gradients of windowed ops ------*- C++ -*-===//
//
// The gradient rules of the operators that read their input through a
// window or a stride: max and average 2-d pooling (adaptive too),
// strided_slice and nn.pad.
// Each is built from Relay operators only, so it lowers, runs in the
// interpreter and is exported like any other program:
//
//  * a strided read out[i] = in[first + i * step] has the gradient "g
//    dilated by `step`, placed at `first`" (reshape + pad + reshape);
//  * a 2-d pool is the sum over the kh x kw window offsets of such strided
//    reads of the padded input, so its gradient is the sum of each offset's
//    share placed where the offset reads: 1 / count of the result's
//    gradient for the average; for the max, all of it at the first offset
//    in the window (row-major, as PyTorch picks) whose element equals the
//    maximum. The shares are placed by residue class of the stride
//    (placeWindowParts), never one canvas-sized tensor per offset.
//
//===----------------------------------------------------------------------===//

#include "transforms/AutoDiff/RuleSupport.h"

#include "dialects/relay/RelationUtils.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::autodiff;

namespace {

/// `v` padded with zeros by `width` (before/after per axis); `v` itself when
/// nothing is added.
Value padZeros(RelayBuilder &rb, Value v, ArrayRef<int64_t> width) {
  if (!v || llvm::all_of(width, [](int64_t w) { return w == 0; }))
    return v;
  Builder b(v.getContext());
  return rb.op<PadOp>({v, scalar(rb, 0.0, v)}, {ints(b, "pad_width", width)});
}

/// A zero tensor of shape `canvas` with v[i] at first + i * step (steps
/// positive; every such position inside the canvas). Built as: a unit axis
/// after each stepped axis, padded to the step and merged back (the
/// dilation), then padded to the canvas.
Value placeStrided(RelayBuilder &rb, Value v, ArrayRef<int64_t> first,
                   ArrayRef<int64_t> step, ArrayRef<int64_t> canvas) {
  Builder b(v.getContext());
  SmallVector<int64_t> shape(shapeOf(v));
  if (llvm::any_of(step, [](int64_t s) { return s > 1; })) {
    SmallVector<int64_t> split, width, merged;
    for (size_t d = 0; d < shape.size(); ++d) {
      split.push_back(shape[d]);
      width.append({0, 0});
      merged.push_back(shape[d] * step[d]);
      if (step[d] > 1) {
        split.push_back(1);
        width.append({0, step[d] - 1});
      }
    }
    v = rb.op<ReshapeOp>({v}, {ints(b, "newshape", split)});
    v = padZeros(rb, v, width);
    if (!v)
      return v;
    v = rb.op<ReshapeOp>({v}, {ints(b, "newshape", merged)});
    shape = merged;
  }
  // The dilation's trailing zeros may reach past the canvas: cut them.
  SmallVector<int64_t> begin(shape.size(), 0), end(shape), width;
  bool cut = false;
  for (size_t d = 0; d < shape.size(); ++d) {
    end[d] = std::min(shape[d], canvas[d] - first[d]);
    cut |= end[d] != shape[d];
    width.append({first[d], canvas[d] - first[d] - end[d]});
  }
  if (cut && v)
    v = rb.op<StridedSliceOp>({v},
                              {ints(b, "begin", begin), ints(b, "end", end)});
  return padZeros(rb, v, width);
}

/// The geometry of a 2-d pool in the plain NCHW or NHWC layouts: where H
/// and W are, and each attribute in its long form.
struct PoolGeometry {
  int64_t h, w;
  int64_t kernel[2], stride[2], dilation[2];
  int64_t padBefore[2], padAfter[2];

  static FailureOr<PoolGeometry> get(Operation *op) {
    auto layout = op->getAttrOfType<StringAttr>("layout");
    auto outLayout = op->getAttrOfType<StringAttr>("out_layout");
    PoolGeometry g;
    StringRef l = layout ? layout.getValue() : "NCHW";
    if (l == "NCHW")
      g.h = 2, g.w = 3;
    else if (l == "NHWC")
      g.h = 1, g.w = 2;
    else
      return failure();
    if (outLayout && !outLayout.getValue().empty() && outLayout.getValue() != l)
      return failure();
    auto pair = [&](StringRef name, int64_t *out) {
      SmallVector<int64_t, 2> v = windowPair(op, name);
      out[0] = v[0], out[1] = v[1];
    };
    pair("pool_size", g.kernel);
    pair("strides", g.stride);
    pair("dilation", g.dilation);
    SmallVector<int64_t, 4> pad = windowPadding(op);
    g.padBefore[0] = pad[0], g.padBefore[1] = pad[1];
    g.padAfter[0] = pad[2], g.padAfter[1] = pad[3];
    return g;
  }
};

/// What a pool's gradient is built on: the input padded to a canvas every
/// window fits in (ceil_mode's last windows may reach past the padding), and
/// the strided read of each window offset.
struct PoolWindows {
  PoolGeometry geo;
  SmallVector<int64_t> canvas;
  /// Pads (before/after per axis) from the input to the canvas: the op's
  /// padding, and apart from it what ceil_mode adds after.
  SmallVector<int64_t> opPad, ceilPad;
  SmallVector<int64_t> step;

  PoolWindows(const PoolGeometry &geo, ArrayRef<int64_t> in,
              ArrayRef<int64_t> out)
      : geo(geo), canvas(in), opPad(2 * in.size(), 0),
        ceilPad(2 * in.size(), 0), step(in.size(), 1) {
    int64_t axis[2] = {geo.h, geo.w};
    for (int i = 0; i < 2; ++i) {
      int64_t d = axis[i];
      int64_t padded = in[d] + geo.padBefore[i] + geo.padAfter[i];
      int64_t reach = (out[d] - 1) * geo.stride[i] +
                      (geo.kernel[i] - 1) * geo.dilation[i] + 1;
      opPad[2 * d] = geo.padBefore[i];
      opPad[2 * d + 1] = geo.padAfter[i];
      ceilPad[2 * d + 1] = std::max<int64_t>(0, reach - padded);
      canvas[d] = padded + ceilPad[2 * d + 1];
      step[d] = geo.stride[i];
    }
  }

  /// Pads (before/after per axis) from the input to the canvas.
  SmallVector<int64_t> canvasPad() const {
    SmallVector<int64_t> width(opPad);
    for (size_t i = 0; i < width.size(); ++i)
      width[i] += ceilPad[i];
    return width;
  }

  /// Where offset (a, b) of every window starts on the canvas.
  SmallVector<int64_t> first(int64_t a, int64_t b) const {
    SmallVector<int64_t> f(canvas.size(), 0);
    f[geo.h] = a * geo.dilation[0];
    f[geo.w] = b * geo.dilation[1];
    return f;
  }

  /// The elements of `padded` (a canvas) that offset (a, b) reads, one per
  /// output element.
  Value read(RelayBuilder &rb, Value padded, int64_t a, int64_t b,
             ArrayRef<int64_t> out) const {
    Builder builder(padded.getContext());
    SmallVector<int64_t> begin = first(a, b), end(begin);
    for (size_t d = 0; d < end.size(); ++d)
      end[d] += (out[d] - 1) * step[d] + 1;
    return rb.op<StridedSliceOp>({padded}, {ints(builder, "begin", begin),
                                            ints(builder, "end", end),
                                            ints(builder, "strides", step)});
  }

  /// The canvas-shaped gradient `acc` cut back to the input.
  Value crop(RelayBuilder &rb, Value acc, ArrayRef<int64_t> in) const {
    Builder builder(acc.getContext());
    SmallVector<int64_t> begin(in.size(), 0), end(in);
    for (size_t d = 0; d < in.size(); ++d) {
      begin[d] = opPad[2 * d];
      end[d] += begin[d];
    }
    return rb.op<StridedSliceOp>(
        {acc}, {ints(builder, "begin", begin), ints(builder, "end", end)});
  }
};

/// Sums `v` into `acc` (null at first).
Value accumulate(RelayBuilder &rb, Value acc, Value v) {
  if (!acc || !v)
    return acc ? acc : v;
  return rb.add(acc, v);
}

/// Calls `visit` on each window offset (a, c) of a max pool, row-major,
/// with `take`: 1 where that offset holds the window's maximum and no
/// earlier one did (the element PyTorch's max pool picks), else 0.
///
/// Each offset's hit (1 where it equals the maximum) is weighted by a score
/// that falls in row-major order, kh * kw for the first offset down to 1
/// for the last; the largest score of a window names its first maximum (0:
/// none, a NaN maximum), and `take` is where an offset's score is it. The
/// scores' maximum is one elementwise chain, so it fuses into one loop over
/// the result; each `take` is one more (a chain of `claimed` masks, one per
/// offset, made four loops per offset).
LogicalResult visitMaxPoolWindows(
    RelayBuilder &rb, MaxPool2DOp op, const PoolWindows &windows,
    function_ref<LogicalResult(int64_t, int64_t, Value)> visit) {
  Value x = op->getOperand(0), y = op.getResult();
  Type element = getElementTypeOrSelf(x.getType());
  ArrayRef<int64_t> out = shapeOf(y);
  const PoolGeometry *geo = &windows.geo;
  Builder b(op->getContext());
  SmallVector<int64_t> width = windows.canvasPad();
  Value padded = x;
  if (llvm::any_of(width, [](int64_t w) { return w != 0; }))
    padded = rb.op<PadOp>({x, scalar(rb, -INFINITY, x)},
                          {ints(b, "pad_width", width)});
  if (!padded)
    return failure();
  // Scores are whole numbers up to kh * kw: in float32 (exact to 2^24)
  // when the data's type is narrower (bfloat16 is exact only to 256).
  int64_t count = geo->kernel[0] * geo->kernel[1];
  if (count > (int64_t(1) << 24))
    return failure();
  Type scoreType =
      element.getIntOrFloatBitWidth() < 32 ? Type(b.getF32Type()) : element;
  auto as = [&](Value mask, Type type) {
    return mask ? rb.op<CastOp>({mask},
                                {b.getNamedAttr("dtype", TypeAttr::get(type))})
                : mask;
  };
  auto scoreOf = [&](int64_t k) {
    return ConstantOp::create(
        rb.getBuilder(), rb.getLoc(),
        DenseElementsAttr::get(RankedTensorType::get({}, scoreType),
                               b.getFloatAttr(scoreType, double(count - k))));
  };
  Value best;
  for (int64_t k = 0; k < count; ++k) {
    Value window =
        windows.read(rb, padded, k / geo->kernel[1], k % geo->kernel[1], out);
    Value hit = window ? as(rb.equal(window, y), scoreType) : window;
    if (!hit)
      return failure();
    Value score = rb.multiply(hit, scoreOf(k));
    best = best ? rb.op<MaximumOp>({best, score}) : score;
    if (!best)
      return failure();
  }
  for (int64_t k = 0; k < count; ++k) {
    Value take = as(rb.equal(best, scoreOf(k)), element);
    if (!take || failed(visit(k / geo->kernel[1], k % geo->kernel[1], take)))
      return failure();
  }
  return success();
}

/// The windows of a max pool on floating-point data in a plain layout.
FailureOr<PoolWindows> maxPoolWindows(MaxPool2DOp op) {
  FailureOr<PoolGeometry> geo = PoolGeometry::get(op);
  Value x = op->getOperand(0);
  if (failed(geo) || !isa<FloatType>(getElementTypeOrSelf(x.getType())))
    return failure();
  return PoolWindows(*geo, shapeOf(x), shapeOf(op.getResult()));
}

/// The canvas holding parts[a][b] (each shaped like the pool's result) at
/// the positions window offset (a, b) reads, summed where they meet.
///
/// Along an axis of stride s, offset a reads positions a * d + i * s: the
/// residue r = a * d mod s and the grid position i + q, q = a * d div s.
/// The parts of each residue class are summed on a small grid (each padded
/// by its q), and the s x s grids interleave into the canvas by a stack and
/// a reshape. Windows that tile the input (stride = window) are one part
/// per class with q = 0; a 3x3 window of stride 2 sums two parts in one
/// class per axis. Nothing the size of the canvas is made per offset.
Value placeWindowParts(RelayBuilder &rb, const PoolWindows &windows,
                       ArrayRef<SmallVector<Value>> parts) {
  Builder b(rb.getContext());
  const PoolGeometry &geo = windows.geo;
  int64_t axes[2] = {geo.h, geo.w};
  ArrayRef<int64_t> out = shapeOf(parts[0][0]);
  // Per axis: each offset's residue and shift, and the grid's length.
  SmallVector<int64_t> residue[2], shift[2];
  int64_t length[2];
  for (int i = 0; i < 2; ++i) {
    int64_t most = 0;
    for (int64_t a = 0; a < geo.kernel[i]; ++a) {
      int64_t at = a * geo.dilation[i];
      residue[i].push_back(at % geo.stride[i]);
      shift[i].push_back(at / geo.stride[i]);
      most = std::max(most, shift[i].back());
    }
    length[i] = out[axes[i]] + most;
  }
  // grids[r][t]: the sum of the parts of residues (r, t).
  SmallVector<SmallVector<Value>> grids(
      geo.stride[0], SmallVector<Value>(geo.stride[1], Value()));
  for (int64_t a = 0; a < geo.kernel[0]; ++a)
    for (int64_t c = 0; c < geo.kernel[1]; ++c) {
      SmallVector<int64_t> width(2 * out.size(), 0);
      int64_t q[2] = {shift[0][a], shift[1][c]};
      for (int i = 0; i < 2; ++i) {
        width[2 * axes[i]] = q[i];
        width[2 * axes[i] + 1] = length[i] - out[axes[i]] - q[i];
      }
      Value &grid = grids[residue[0][a]][residue[1][c]];
      grid = accumulate(rb, grid, padZeros(rb, parts[a][c], width));
      if (!grid)
        return grid;
    }
  Value zeros;
  for (auto &row : grids)
    for (Value &grid : row)
      if (!grid) // a residue no offset reaches (a window narrower than s)
        grid = zeros ? zeros
                     : (zeros = rb.op<ZerosLikeOp>(
                            {grids[residue[0][0]][residue[1][0]]}));
  // [.., L, L', ..] -> rows [.., L, L', s', ..] -> [.., L, s, L', s', ..]
  auto axis = [&](int64_t a) {
    return b.getNamedAttr("axis", b.getI64IntegerAttr(a));
  };
  SmallVector<Value> rows;
  for (ArrayRef<Value> row : grids)
    rows.push_back(row.size() == 1
                       ? rb.op<ExpandDimsOp>({row[0]}, {axis(geo.w + 1)})
                       : rb.op<StackOp>({rb.tuple(row)}, {axis(geo.w + 1)}));
  Value all = rows.size() == 1
                  ? rb.op<ExpandDimsOp>({rows[0]}, {axis(geo.h + 1)})
                  : rb.op<StackOp>({rb.tuple(rows)}, {axis(geo.h + 1)});
  if (!all)
    return all;
  SmallVector<int64_t> shape(shapeOf(all));
  shape[geo.h] *= shape[geo.h + 1];
  shape[geo.w + 1] *= shape[geo.w + 2];
  shape.erase(shape.begin() + geo.w + 2);
  shape.erase(shape.begin() + geo.h + 1);
  Value canvas = rb.op<ReshapeOp>({all}, {ints(b, "newshape", shape)});
  SmallVector<int64_t> first(shape.size(), 0), step(shape.size(), 1);
  return canvas ? placeStrided(rb, canvas, first, step, windows.canvas)
                : canvas;
}

Grads maxPoolGradient(RelayBuilder &rb, MaxPool2DOp op, Value g) {
  FailureOr<PoolWindows> windows = maxPoolWindows(op);
  if (failed(windows))
    return failure();
  SmallVector<SmallVector<Value>> parts(windows->geo.kernel[0]);
  if (failed(visitMaxPoolWindows(rb, op, *windows,
                                 [&](int64_t a, int64_t c, Value take) {
                                   parts[a].push_back(rb.multiply(g, take));
                                   return success(parts[a].back() != nullptr);
                                 })))
    return failure();
  Value acc = placeWindowParts(rb, *windows, parts);
  Value dx = acc ? windows->crop(rb, acc, shapeOf(op->getOperand(0))) : acc;
  if (!dx)
    return failure();
  return SmallVector<Value>{dx};
}

Grads avgPoolGradient(RelayBuilder &rb, AvgPool2DOp op, Value g) {
  FailureOr<PoolGeometry> geo = PoolGeometry::get(op);
  Value x = op->getOperand(0), y = op.getResult();
  if (failed(geo) || !isa<FloatType>(getElementTypeOrSelf(x.getType())))
    return failure();
  ArrayRef<int64_t> in = shapeOf(x), out = shapeOf(y);
  PoolWindows windows(*geo, in, out);
  Builder b(op->getContext());
  // The divisor of each output element, as the forward counts it: the
  // window's elements inside the input, or inside the op's padding with
  // count_include_pad (never ceil_mode's extra rows).
  Value counted = rb.op<OnesLikeOp>({x});
  counted = rb.op<PadOp>(
      {counted, scalar(rb, op.getCountIncludePad() ? 1.0 : 0.0, x)},
      {ints(b, "pad_width", windows.opPad)});
  counted = padZeros(rb, counted, windows.ceilPad);
  if (!counted)
    return failure();
  Value count;
  for (int64_t a = 0; a < geo->kernel[0]; ++a)
    for (int64_t c = 0; c < geo->kernel[1]; ++c)
      count = accumulate(rb, count, windows.read(rb, counted, a, c, out));
  if (!count)
    return failure();
  // An empty window's output is 0 and has no gradient to give.
  Value share = rb.divide(g, rb.op<MaximumOp>({count, scalar(rb, 1.0, g)}));
  if (!share)
    return failure();
  SmallVector<SmallVector<Value>> parts(
      geo->kernel[0], SmallVector<Value>(geo->kernel[1], share));
  Value acc = placeWindowParts(rb, windows, parts);
  if (!acc)
    return failure();
  Value dx = windows.crop(rb, acc, in);
  if (!dx)
    return failure();
  return SmallVector<Value>{dx};
}

/// strided_slice reads out[i] = in[first + i * step] on each axis (the
/// relation's normalisation): the gradient is g placed there, read
/// backwards along the axes it walked backwards.
Grads stridedSliceGradient(RelayBuilder &rb, StridedSliceOp op, Value g) {
  Value x = op->getOperand(0);
  ArrayRef<int64_t> in = shapeOf(x), out = shapeOf(g);
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

FailureOr<Value> mlir::relay::autodiff::maxPool2DTangent(RelayBuilder &rb,
                                                         MaxPool2DOp op,
                                                         Value dx) {
  FailureOr<PoolWindows> windows = maxPoolWindows(op);
  if (failed(windows))
    return failure();
  Value acc;
  Value padded = padZeros(rb, dx, windows->canvasPad());
  if (failed(visitMaxPoolWindows(
          rb, op, *windows, [&](int64_t a, int64_t c, Value take) {
            Value window = padded
                               ? windows->read(rb, padded, a, c, shapeOf(take))
                               : Value();
            if (!window)
              return failure();
            acc = accumulate(rb, acc, rb.multiply(window, take));
            return success();
          })))
    return failure();
  return acc;
}

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
  setRule<MaxPool2DOp>(maxPoolGradient);
  setRule<AvgPool2DOp>(avgPoolGradient);
  setRule<StridedSliceOp>(stridedSliceGradient);
  setRule<PadOp>(padGradient);
}

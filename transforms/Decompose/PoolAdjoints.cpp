//===- PoolAdjoints.cpp - Gradients of 2-d pools ----------------*- C++ -*-===//
//
// The gradients of max and average 2-d pooling (and the max pool's
// tangent), built from Relay operators only, so they lower, run in the
// interpreter and are exported like any other program:
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

#include "transforms/Decompose/Adjoints.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::adjoint;

Value mlir::relay::adjoint::padZeros(RelayBuilder &rb, Value v,
                                     ArrayRef<int64_t> width) {
  if (!v || llvm::all_of(width, [](int64_t w) { return w == 0; }))
    return v;
  Builder b(v.getContext());
  return rb.op<PadOp>({v, scalar(rb, 0.0, v)}, {ints(b, "pad_width", width)});
}

/// Built as: a unit axis
/// after each stepped axis, padded to the step and merged back (the
/// dilation), then padded to the canvas.
Value mlir::relay::adjoint::placeStrided(RelayBuilder &rb, Value v,
                                         ArrayRef<int64_t> first,
                                         ArrayRef<int64_t> step,
                                         ArrayRef<int64_t> canvas) {
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

Value mlir::relay::adjoint::accumulate(RelayBuilder &rb, Value acc, Value v) {
  if (!acc || !v)
    return acc ? acc : v;
  return rb.add(acc, v);
}

namespace {

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

} // namespace

Value mlir::relay::adjoint::maxPool2DGradient(RelayBuilder &rb, MaxPool2DOp op,
                                              Value g) {
  FailureOr<PoolWindows> windows = maxPoolWindows(op);
  if (failed(windows))
    return Value();
  SmallVector<SmallVector<Value>> parts(windows->geo.kernel[0]);
  if (failed(visitMaxPoolWindows(rb, op, *windows,
                                 [&](int64_t a, int64_t c, Value take) {
                                   parts[a].push_back(rb.multiply(g, take));
                                   return success(parts[a].back() != nullptr);
                                 })))
    return Value();
  Value acc = placeWindowParts(rb, *windows, parts);
  return acc ? windows->crop(rb, acc, shapeOf(op->getOperand(0))) : acc;
}

Value mlir::relay::adjoint::avgPool2DGradient(RelayBuilder &rb, AvgPool2DOp op,
                                              Value g) {
  FailureOr<PoolGeometry> geo = PoolGeometry::get(op);
  Value x = op->getOperand(0), y = op.getResult();
  if (failed(geo) || !isa<FloatType>(getElementTypeOrSelf(x.getType())))
    return Value();
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
    return Value();
  Value count;
  for (int64_t a = 0; a < geo->kernel[0]; ++a)
    for (int64_t c = 0; c < geo->kernel[1]; ++c)
      count = accumulate(rb, count, windows.read(rb, counted, a, c, out));
  if (!count)
    return Value();
  // An empty window's output is 0 and has no gradient to give.
  Value share = rb.divide(g, rb.op<MaximumOp>({count, scalar(rb, 1.0, g)}));
  if (!share)
    return Value();
  SmallVector<SmallVector<Value>> parts(
      geo->kernel[0], SmallVector<Value>(geo->kernel[1], share));
  Value acc = placeWindowParts(rb, windows, parts);
  if (!acc)
    return Value();
  return windows.crop(rb, acc, in);
}

FailureOr<Value> mlir::relay::adjoint::maxPool2DTangent(RelayBuilder &rb,
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

//===- SamplingGradientRules.cpp - Gradients of resampling ------*- C++ -*-===//
//
// The gradient rules of image.resize1d/2d/3d and nn.upsampling. Each output
// along a resized axis is a fixed weighted sum of inputs along it (the taps
// of ResizeSampling.h, nn.upsampling's source positions), so a resize is a
// constant linear map per axis; the gradient applies each axis's
// transposed map to the output's gradient, a product with a constant
// matrix (TVM registers no gradient for these: a network with an FPN's or
// a U-Net's upsampling could not be trained through them).
//
//===----------------------------------------------------------------------===//

#include "transforms/AutoDiff/RuleSupport.h"

#include "dialects/relay/ResizeSampling.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::autodiff;

namespace {

/// The transpose of an axis's sampling map: [in, out] row-major, entry
/// (h, i) the weight with which output i reads input h.
struct AxisAdjoint {
  int64_t axis, in, out;
  SmallVector<double> weights;
};

/// `g` with `adjoint` applied along its axis: the axis moved last, the rest
/// flattened, a product with the constant [in, out] matrix (nn.dense takes
/// its weight as [units, k]), and the axis moved back.
Value applyAdjoint(RelayBuilder &rb, Value g, const AxisAdjoint &adjoint) {
  Builder b(g.getContext());
  SmallVector<int64_t> shape(shapeOf(g));
  int64_t rank = shape.size(), axis = adjoint.axis;
  SmallVector<int64_t> order, inverse(rank);
  for (int64_t i = 0; i < rank; ++i)
    if (i != axis)
      order.push_back(i);
  order.push_back(axis);
  for (int64_t i = 0; i < rank; ++i)
    inverse[order[i]] = i;
  Value v = g;
  if (axis != rank - 1)
    v = rb.op<TransposeOp>({v}, {ints(b, "axes", order)});
  int64_t rest = 1;
  for (int64_t i = 0; i < rank; ++i)
    if (i != axis)
      rest *= shape[i];
  v = rb.op<ReshapeOp>({v}, {ints(b, "newshape", {rest, adjoint.out})});
  auto f64 = RankedTensorType::get({adjoint.in, adjoint.out}, b.getF64Type());
  Value matrix =
      rb.constant(DenseElementsAttr::get(f64, ArrayRef(adjoint.weights)));
  Type dtype = getElementTypeOrSelf(g.getType());
  if (dtype != b.getF64Type())
    matrix = rb.op<CastOp>({matrix},
                           {b.getNamedAttr("dtype", TypeAttr::get(dtype))});
  v = rb.op<DenseOp>({v, matrix});
  SmallVector<int64_t> moved;
  for (int64_t i : order)
    moved.push_back(i == axis ? adjoint.in : shape[i]);
  v = rb.op<ReshapeOp>({v}, {ints(b, "newshape", moved)});
  if (axis != rank - 1)
    v = rb.op<TransposeOp>({v}, {ints(b, "axes", inverse)});
  return v;
}

/// The gradient of a resampling whose axes' adjoints are `adjoints`.
Grads resampleGradient(RelayBuilder &rb, Value g,
                       ArrayRef<AxisAdjoint> adjoints) {
  if (!isa<FloatType>(getElementTypeOrSelf(g.getType())))
    return failure();
  for (const AxisAdjoint &adjoint : adjoints) {
    g = applyAdjoint(rb, g, adjoint);
    if (!g)
      return failure();
  }
  return SmallVector<Value>{g};
}

/// The adjoint of the axis `axis` (of `in` inputs) sampled by `taps`;
/// outputs marked in `outside` (a crop's) read none.
AxisAdjoint tapsAdjoint(int64_t axis, int64_t in, ArrayRef<ResizeTap> taps,
                        ArrayRef<bool> outside) {
  AxisAdjoint adjoint;
  adjoint.axis = axis;
  adjoint.in = in;
  adjoint.out = taps.empty() ? 0 : taps.front().indices.size();
  adjoint.weights.assign(adjoint.in * adjoint.out, 0.0);
  for (const ResizeTap &tap : taps)
    for (int64_t i = 0; i < adjoint.out; ++i) {
      if (!outside.empty() && outside[i])
        continue;
      int64_t h = std::clamp<int64_t>(tap.indices[i], 0, adjoint.in - 1);
      adjoint.weights[h * adjoint.out + i] += tap.weights[i];
    }
  return adjoint;
}

/// image.resize1d/2d/3d (any layout, static shapes): the taps of each
/// resized axis; outputs a crop samples outside have no taps (their value
/// is the extrapolation constant).
Grads resizeGradient(RelayBuilder &rb, Operation *op, Value g) {
  std::optional<SmallVector<ResizeAxis>> axes = getResizeAxes(op);
  if (!axes)
    return failure();
  ArrayRef<int64_t> inShape = shapeOf(op->getOperand(0));
  SmallVector<AxisAdjoint> adjoints;
  for (const ResizeAxis &axis : *axes)
    if (!axis.identity)
      adjoints.push_back(
          tapsAdjoint(axis.axis, inShape[axis.axis], axis.taps, axis.outside));
  return resampleGradient(rb, g, adjoints);
}

/// nn.upsampling, NCHW or NHWC: the source rows and columns of each output
/// (nearest, bilinear), or for bicubic the taps of image.resize2d's cubic
/// (default alpha) with aligned corners or asymmetric coordinates, which
/// its decomposition computes.
Grads upsamplingGradient(RelayBuilder &rb, UpSamplingOp op, Value g) {
  StringRef method = op.getMethod();
  bool bicubic = method == "bicubic";
  if (method != "nearest_neighbor" && method != "bilinear" && !bicubic)
    return failure();
  bool nhwc = op.getLayout() == "NHWC";
  if (!nhwc && op.getLayout() != "NCHW")
    return failure();
  ArrayRef<int64_t> in = shapeOf(op.getData()), out = shapeOf(g);
  SmallVector<AxisAdjoint> adjoints;
  for (int64_t axis : {nhwc ? 1 : 2, nhwc ? 2 : 3}) {
    if (bicubic) {
      StringRef coords = op.getAlignCorners() ? "align_corners" : "asymmetric";
      adjoints.push_back(tapsAdjoint(
          axis, in[axis],
          resizeTaps(in[axis], out[axis], "cubic", coords, "round",
                     /*alpha=*/-0.5, /*exclude=*/false, std::nullopt),
          {}));
      continue;
    }
    AxisAdjoint &adjoint = adjoints.emplace_back();
    adjoint.axis = axis;
    adjoint.in = in[axis];
    adjoint.out = out[axis];
    adjoint.weights.assign(adjoint.in * adjoint.out, 0.0);
    UpSamplingOp::SourcePositions at = UpSamplingOp::getSourcePositions(
        adjoint.in, adjoint.out, method == "nearest_neighbor",
        op.getAlignCorners());
    for (int64_t i = 0; i < adjoint.out; ++i) {
      adjoint.weights[at.low[i] * adjoint.out + i] += 1.0 - at.fraction[i];
      adjoint.weights[at.high[i] * adjoint.out + i] += at.fraction[i];
    }
  }
  return resampleGradient(rb, g, adjoints);
}

} // namespace

void mlir::relay::autodiff::registerSamplingGradientRules() {
  setRule<Resize1DOp>([](RelayBuilder &rb, Resize1DOp op, Value g) {
    return resizeGradient(rb, op, g);
  });
  setRule<Resize2DOp>([](RelayBuilder &rb, Resize2DOp op, Value g) {
    return resizeGradient(rb, op, g);
  });
  setRule<Resize3DOp>([](RelayBuilder &rb, Resize3DOp op, Value g) {
    return resizeGradient(rb, op, g);
  });
  setRule<UpSamplingOp>(upsamplingGradient);
}

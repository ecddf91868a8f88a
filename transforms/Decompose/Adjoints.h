//===- Adjoints.h - Operators' adjoints built from Relay ops ----*- C++ -*-===//
//
// The gradients of the windowed operators with respect to an operand (2-d
// max and average pooling, a 2-d convolution's weight), built from Relay
// operators only. Two users share them: the gradient rules of
// --relay-gradient (transforms/AutoDiff) and the decompositions of TVM's
// gradient operators (nn.max_pool2d_grad, nn.avg_pool2d_grad,
// nn.conv2d_backward_weight; GradientRewrites.cpp), so a program TVM's
// gradient pass printed computes what ours builds.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_DECOMPOSE_ADJOINTS_H
#define RELAY_MLIR_TRANSFORMS_DECOMPOSE_ADJOINTS_H

#include "dialects/relay/RelayBuilder.h"
#include "dialects/relay/RelayOps.h"

namespace mlir::relay::adjoint {

inline ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

/// A 2-d window attribute of `op` (strides, dilation, pool_size) in its
/// long form (h, w): TVM's one value for both axes, 1 when absent.
inline SmallVector<int64_t, 2> windowPair(Operation *op, StringRef name) {
  auto a = op->getAttrOfType<DenseI64ArrayAttr>(name);
  if (a && a.size() == 1)
    return {a[0], a[0]};
  if (a && a.size() >= 2)
    return {a[0], a[1]};
  return {1, 1};
}

/// `op`'s padding as (top, left, bottom, right) from TVM's 1, 2 or 4
/// values; zeros when absent.
inline SmallVector<int64_t, 4> windowPadding(Operation *op) {
  auto p = op->getAttrOfType<DenseI64ArrayAttr>("padding");
  if (p && p.size() == 1)
    return {p[0], p[0], p[0], p[0]};
  if (p && p.size() == 2)
    return {p[0], p[1], p[0], p[1]};
  if (p && p.size() == 4)
    return {p[0], p[1], p[2], p[3]};
  return {0, 0, 0, 0};
}

/// A 0-d constant `v` of `like`'s element type.
inline Value scalar(RelayBuilder &rb, double v, Value like) {
  Type e = cast<RankedTensorType>(like.getType()).getElementType();
  auto type = RankedTensorType::get({}, e);
  Builder b(like.getContext());
  return ConstantOp::create(
      rb.getBuilder(), rb.getLoc(),
      DenseElementsAttr::get(type, cast<Attribute>(b.getFloatAttr(e, v))));
}

/// An I64 array attribute `name` = `v`.
inline NamedAttribute ints(Builder &b, StringRef name, ArrayRef<int64_t> v) {
  return b.getNamedAttr(name, b.getDenseI64ArrayAttr(v));
}

/// Sums `v` into `acc` (null at first).
Value accumulate(RelayBuilder &rb, Value acc, Value v);

/// `v` padded with zeros by `width` (before/after per axis); `v` itself when
/// nothing is added.
Value padZeros(RelayBuilder &rb, Value v, ArrayRef<int64_t> width);

/// A zero tensor of shape `canvas` with v[i] at first + i * step (steps
/// positive; every such position inside the canvas).
Value placeStrided(RelayBuilder &rb, Value v, ArrayRef<int64_t> first,
                   ArrayRef<int64_t> step, ArrayRef<int64_t> canvas);

/// The gradient of a max pool's data given its result's, `g`: each
/// window's gradient goes to the first element (row-major, as PyTorch
/// picks) that equals its maximum. Null for data that is not floating
/// point or in a layout other than NCHW and NHWC.
Value maxPool2DGradient(RelayBuilder &rb, MaxPool2DOp op, Value g);
/// The same for an average pool: each window's gradient shared out over
/// the elements it counted.
Value avgPool2DGradient(RelayBuilder &rb, AvgPool2DOp op, Value g);
/// The tangent of a max pool given its input's, `dx`: at each output, the
/// tangent of the element its gradient goes to.
FailureOr<Value> maxPool2DTangent(RelayBuilder &rb, MaxPool2DOp op, Value dx);

/// A 2-d convolution's window in long form.
struct ConvWindow {
  SmallVector<int64_t> stride, dilation, pad; // pad: top, left, bottom, right
  int64_t groups;

  /// Read from `op`'s strides, dilation, padding and groups attributes.
  explicit ConvWindow(Operation *op)
      : stride(windowPair(op, "strides")), dilation(windowPair(op, "dilation")),
        pad(windowPadding(op)) {
    auto g = op->getAttrOfType<IntegerAttr>("groups");
    groups = g ? g.getInt() : 1;
  }
};

/// The gradient of an NCHW convolution's OIHW weights (of shape `ws`) given
/// its data x and the gradient g of its result, or null.
Value conv2dWeightGradientNCHW(RelayBuilder &rb, Value x, Value g,
                               ArrayRef<int64_t> ws, const ConvWindow &conv);

} // namespace mlir::relay::adjoint

#endif // RELAY_MLIR_TRANSFORMS_DECOMPOSE_ADJOINTS_H

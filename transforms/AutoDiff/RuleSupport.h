//===- RuleSupport.h - Helpers of the built-in AD rules ---------*- C++ -*-===//
//
// What the files of gradient rules share: the registration of a rule for an
// op class and small builders (a scalar constant, a gradient summed back to
// a broadcast operand's shape).
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_AUTODIFF_RULESUPPORT_H
#define RELAY_MLIR_TRANSFORMS_AUTODIFF_RULESUPPORT_H

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayBuilder.h"
#include "dialects/relay/RelayOps.h"

#include <functional>

namespace mlir::relay::autodiff {

using Grads = FailureOr<SmallVector<Value>>;

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

/// `grad` summed over the axes broadcasting added, to `like`'s shape.
inline Value collapseTo(RelayBuilder &rb, Value grad, Value like) {
  if (grad.getType() == like.getType())
    return grad;
  return rb.op<CollapseSumLikeOp>({grad, like});
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

/// `v` summed over every axis but `axis` (the gradient of a per-channel
/// operand).
inline Value sumOverOthers(RelayBuilder &rb, Value v, int64_t axis) {
  Builder b(v.getContext());
  return rb.op<SumOp>({v}, {ints(b, "axis", {axis}),
                            b.getNamedAttr("exclude", b.getBoolAttr(true))});
}

/// The vector `v` reshaped to broadcast along axis `axis` of `like` (the
/// per-channel operands of bias_add, prelu, batch_norm).
inline Value alongAxis(RelayBuilder &rb, Value v, Value like, int64_t axis) {
  ArrayRef<int64_t> shape = shapeOf(like);
  if (axis < 0)
    axis += shape.size();
  SmallVector<int64_t> along(shape.size(), 1);
  along[axis] = shape[axis];
  Builder b(like.getContext());
  return rb.op<ReshapeOp>(
      {v}, {b.getNamedAttr("newshape", b.getDenseI64ArrayAttr(along))});
}

template <typename OpT>
inline void setRule(std::function<Grads(RelayBuilder &, OpT, Value)> rule) {
  (void)updateOperator(OpT::getOperationName(), [&](OperatorInfo &info) {
    if (info.gradient)
      return; // a rule set before (a user's) wins
    info.gradient = [rule](OpBuilder &b, Operation *op, Value grad) -> Grads {
      RelayBuilder rb(b, op->getLoc());
      return rule(rb, cast<OpT>(op), grad);
    };
  });
}

template <typename OpT>
inline void
setUnaryRule(std::function<Value(RelayBuilder &, OpT, Value)> rule) {
  setRule<OpT>([rule](RelayBuilder &rb, OpT op, Value g) -> Grads {
    return SmallVector<Value>{rule(rb, op, g)};
  });
}

/// The gradient rules of operators that copy or rearrange their data;
/// MovementGradientRules.cpp.
void registerMovementGradientRules();

/// The gradient rules of gather and the scatters; ScatterGradientRules.cpp.
void registerScatterGradientRules();

/// The gradient rules of 2-d convolutions; ConvGradientRules.cpp.
void registerConvGradientRules();

/// The gradient rules of windowed operators (pools, strided slices);
/// WindowGradientRules.cpp.
void registerWindowGradientRules();

/// The tangent of a max pool given its input's, `dx`: at each output, the
/// tangent of the element its gradient goes to.
FailureOr<Value> maxPool2DTangent(RelayBuilder &rb, MaxPool2DOp op, Value dx);
/// The same for an adaptive max pool (NCHW).
FailureOr<Value> adaptiveMaxPool2DTangent(RelayBuilder &rb,
                                          AdaptiveMaxPool2DOp op, Value dx);

} // namespace mlir::relay::autodiff

#endif // RELAY_MLIR_TRANSFORMS_AUTODIFF_RULESUPPORT_H

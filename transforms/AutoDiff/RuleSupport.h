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
#include "transforms/AutoDiff/Gradient.h"
#include "transforms/Decompose/Adjoints.h"

#include <functional>

namespace mlir::relay::autodiff {

using Grads = FailureOr<SmallVector<Value>>;

// The builders the rules share with the gradient operators'
// decompositions.
using adjoint::ints;
using adjoint::maxPool2DTangent;
using adjoint::placeStrided;
using adjoint::scalar;
using adjoint::shapeOf;

/// A 1-d int64 constant of `values` (a shape, begin or end read by a dyn
/// operator).
inline Value i64Vector(RelayBuilder &rb, ArrayRef<int64_t> values) {
  Type i64 = IntegerType::get(rb.getContext(), 64);
  return rb.constant(DenseElementsAttr::get(
      RankedTensorType::get({int64_t(values.size())}, i64), values));
}

/// `v`'s sizes when the program runs, as a 1-d int64 tensor.
inline Value runTimeSizes(RelayBuilder &rb, Value v) {
  Builder b(v.getContext());
  return rb.op<ShapeOfOp>(
      {v}, {b.getNamedAttr("dtype", TypeAttr::get(b.getI64Type()))});
}

/// `grad` in `like`'s shape (the gradient of an operator that only
/// reshapes): a reshape to it where it is known, else reshape_like, which
/// takes the sizes `like` has when the program runs (an argwhere's rows).
inline Value reshapedLike(RelayBuilder &rb, Value grad, Value like) {
  ArrayRef<int64_t> shape = shapeOf(like);
  if (ShapedType::isDynamicShape(shape))
    return rb.op<ReshapeLikeOp>({grad, like});
  Builder b(like.getContext());
  return rb.op<ReshapeOp>({grad}, {ints(b, "newshape", shape)});
}

/// `grad` summed over the axes broadcasting added, to `like`'s shape.
inline Value collapseTo(RelayBuilder &rb, Value grad, Value like) {
  if (grad.getType() == like.getType())
    return grad;
  return rb.op<CollapseSumLikeOp>({grad, like});
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
    Value grad = rule(rb, op, g);
    // A step the rule could not build (a shape no relation types) is a
    // failure the pass reports, not a zero gradient.
    if (!grad && holdsGradient(op->getOperand(0).getType()))
      return failure();
    return SmallVector<Value>{grad};
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

/// The gradient rules of the resizes and nn.upsampling;
/// SamplingGradientRules.cpp.
void registerSamplingGradientRules();

/// The tangent of an adaptive max pool (NCHW) given its input's, `dx`: at
/// each output, the tangent of the element its gradient goes to.
FailureOr<Value> adaptiveMaxPool2DTangent(RelayBuilder &rb,
                                          AdaptiveMaxPool2DOp op, Value dx);

} // namespace mlir::relay::autodiff

#endif // RELAY_MLIR_TRANSFORMS_AUTODIFF_RULESUPPORT_H

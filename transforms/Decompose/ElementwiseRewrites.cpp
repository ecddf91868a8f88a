//===- ElementwiseRewrites.cpp - Elementwise composites ---------*- C++ -*-===//
//
// fast_*, trunc_divide, trunc_mod, isnan, isinf, isfinite, cast_like,
// broadcast_to_like, nn.fast_softmax, fixed_point_multiply.
//
//===----------------------------------------------------------------------===//

#include "transforms/Decompose/Rewrites.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

namespace {

/// `op` as the operator `OpT` with the same operands and attributes.
template <typename OpT> Value renamed(Emitter &b, Operation *op) {
  SmallVector<NamedAttribute> attrs(op->getAttrs());
  return b.op<OpT>(op->getOperands(), attrs);
}

Value truncDivide(Emitter &b, Operation *op) {
  Value q = b.op<DivideOp>(op->getOperands());
  return isa<FloatType>(elementOf(q)) ? b.op<TruncOp>({q}) : q;
}

Value isInf(Emitter &b, Value x) {
  return b.op<EqualOp>(
      {b.op<AbsOp>({x}), b.scalar(std::numeric_limits<double>::infinity(), x)});
}

/// fixed_point_multiply as TVM's q_multiply_shift computes it: in 64 bits,
/// (x << max(shift, 0)) * multiplier + 2^(s - 1), shifted right by s = 31
/// + max(-shift, 0), back to int32.
Value fixedPointMultiply(Emitter &b, Operation *op) {
  int64_t shift = intAttr(op, "shift");
  int64_t left = std::max<int64_t>(shift, 0),
          right = 31 - std::min<int64_t>(shift, 0);
  Type i64 = IntegerType::get(op->getContext(), 64);
  Value x = b.op<CastOp>({op->getOperand(0)}, {b.type("dtype", i64)});
  if (left)
    x = b.op<LeftShiftOp>({x, b.scalar(double(left), x)});
  x = b.mul(x, b.scalar(double(intAttr(op, "multiplier")), x));
  x = b.add(x, b.scalar(std::ldexp(1.0, int(right - 1)), x));
  x = b.op<RightShiftOp>({x, b.scalar(double(right), x)});
  return b.op<CastOp>({x}, {b.type("dtype", elementOf(op->getOperand(0)))});
}

/// fixed_point_multiply_per_axis as topi's q_multiply_shift_per_axis: the
/// same arithmetic with each channel's multiplier and shifts, reshaped to
/// broadcast along the axes.
Value fixedPointMultiplyPerAxis(Emitter &b, Operation *op) {
  Value data = op->getOperand(0);
  ArrayRef<int64_t> shape = shapeOf(data);
  int64_t rank = shape.size();
  SmallVector<int64_t> along(rank, 1);
  for (int64_t axis : intsAttr(op, "axes"))
    along[positive(axis, rank)] = shape[positive(axis, rank)];
  Type i64 = IntegerType::get(op->getContext(), 64);
  auto wide = [&](Value v) {
    return b.op<CastOp>({v}, {b.type("dtype", i64)});
  };
  auto param = [&](unsigned i) {
    return b.reshape(wide(op->getOperand(i)), along);
  };
  Value x = wide(data), right = param(3);
  if (boolAttr(op, "is_lshift_required"))
    x = b.op<LeftShiftOp>({x, param(2)});
  x = b.mul(x, param(1));
  x = b.add(x, b.op<LeftShiftOp>(
                   {b.scalar(1, x), b.add(right, b.scalar(30, right))}));
  x = b.op<RightShiftOp>({x, b.add(right, b.scalar(31, right))});
  return b.op<CastOp>({x}, {b.type("dtype", elementOf(data))});
}

} // namespace

void mlir::relay::decompose::addElementwiseRewrites(AddRewrite add) {
  add("fixed_point_multiply", fixedPointMultiply);
  add("fixed_point_multiply_per_axis", fixedPointMultiplyPerAxis);
  add("fast_exp",
      [](Emitter &b, Operation *op) { return b.op<ExpOp>(op->getOperands()); });
  add("fast_tanh", [](Emitter &b, Operation *op) {
    return b.op<TanhOp>(op->getOperands());
  });
  add("fast_erf",
      [](Emitter &b, Operation *op) { return b.op<ErfOp>(op->getOperands()); });
  add("nn.fast_softmax",
      [](Emitter &b, Operation *op) { return renamed<SoftmaxOp>(b, op); });
  add("trunc_divide", truncDivide);
  add("trunc_mod",
      [](Emitter &b, Operation *op) { return b.op<ModOp>(op->getOperands()); });
  add("isnan", [](Emitter &b, Operation *op) {
    Value x = op->getOperand(0);
    return b.op<NotEqualOp>({x, x});
  });
  add("isinf",
      [](Emitter &b, Operation *op) { return isInf(b, op->getOperand(0)); });
  add("isfinite", [](Emitter &b, Operation *op) {
    // |x| < inf is false for NaN too.
    Value x = op->getOperand(0);
    return b.op<LessOp>({b.op<AbsOp>({x}),
                         b.scalar(std::numeric_limits<double>::infinity(), x)});
  });
  add("cast_like", [](Emitter &b, Operation *op) {
    return b.op<CastOp>({op->getOperand(0)},
                        {b.type("dtype", elementOf(op->getOperand(1)))});
  });
  add("broadcast_to_like", [](Emitter &b, Operation *op) {
    return b.op<BroadcastToOp>({op->getOperand(0)},
                               {b.ints("shape", shapeOf(op->getOperand(1)))});
  });
}

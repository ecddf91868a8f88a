//===- ElementwiseRewrites.cpp - Elementwise composites ---------*- C++ -*-===//
//
// fast_*, trunc_divide, trunc_mod, isnan, isinf, isfinite, cast_like,
// broadcast_to_like, nn.fast_softmax.
//
//===----------------------------------------------------------------------===//

#include "transforms/Decompose/Rewrites.h"

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

} // namespace

void mlir::relay::decompose::addElementwiseRewrites(AddRewrite add) {
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

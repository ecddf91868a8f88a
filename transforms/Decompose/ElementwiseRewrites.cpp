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

Value renamed(Emitter &b, Operation *op, StringRef to) {
  SmallVector<NamedAttribute> attrs(op->getAttrs());
  return b.op(to, op->getOperands(), attrs);
}

Value truncDivide(Emitter &b, Operation *op) {
  Value q = b.op("divide", op->getOperands());
  return isa<FloatType>(elementOf(q)) ? b.op("trunc", {q}) : q;
}

Value isInf(Emitter &b, Value x) {
  return b.op("equal", {b.op("abs", {x}),
                        b.scalar(std::numeric_limits<double>::infinity(), x)});
}

} // namespace

void mlir::relay::decompose::addElementwiseRewrites(AddRewrite add) {
  add("fast_exp",
      [](Emitter &b, Operation *op) { return b.op("exp", op->getOperands()); });
  add("fast_tanh", [](Emitter &b, Operation *op) {
    return b.op("tanh", op->getOperands());
  });
  add("fast_erf",
      [](Emitter &b, Operation *op) { return b.op("erf", op->getOperands()); });
  add("nn.fast_softmax",
      [](Emitter &b, Operation *op) { return renamed(b, op, "nn.softmax"); });
  add("trunc_divide", truncDivide);
  add("trunc_mod",
      [](Emitter &b, Operation *op) { return b.op("mod", op->getOperands()); });
  add("isnan", [](Emitter &b, Operation *op) {
    Value x = op->getOperand(0);
    return b.op("not_equal", {x, x});
  });
  add("isinf",
      [](Emitter &b, Operation *op) { return isInf(b, op->getOperand(0)); });
  add("isfinite", [](Emitter &b, Operation *op) {
    // |x| < inf is false for NaN too.
    Value x = op->getOperand(0);
    return b.op("less", {b.op("abs", {x}),
                         b.scalar(std::numeric_limits<double>::infinity(), x)});
  });
  add("cast_like", [](Emitter &b, Operation *op) {
    return b.op("cast", {op->getOperand(0)},
                {b.type("dtype", elementOf(op->getOperand(1)))});
  });
  add("broadcast_to_like", [](Emitter &b, Operation *op) {
    return b.op("broadcast_to", {op->getOperand(0)},
                {b.ints("shape", shapeOf(op->getOperand(1)))});
  });
}

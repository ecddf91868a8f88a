//===- GradientRewrites.cpp - TVM's gradient operators ----------*- C++ -*-===//
//
// nn.max_pool2d_grad and nn.avg_pool2d_grad: the pool of the data (with the
// same attributes) and its adjoint; nn.conv2d_backward_weight: the weight
// gradient in NCHW/OIHW, between transposes for the other layouts. The
// adjoints are the ones --relay-gradient's rules build (PoolAdjoints.cpp,
// ConvAdjoints.cpp).
//
//===----------------------------------------------------------------------===//

#include "transforms/Decompose/Adjoints.h"
#include "transforms/Decompose/Rewrites.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

namespace {

template <typename PoolOp, Value (*adjointOf)(RelayBuilder &, PoolOp, Value)>
Value poolGradient(Emitter &b, Operation *op) {
  Value g = op->getOperand(0), x = op->getOperand(1);
  // The gradient operator has exactly its pool's attributes.
  SmallVector<NamedAttribute> attrs(getOperatorAttributes(op).getValue());
  Value pooled = b.op<PoolOp>({x}, attrs);
  if (!pooled || pooled.getType() != g.getType())
    return Value();
  RelayBuilder rb(b.getRewriter(), op->getLoc());
  return adjointOf(rb, cast<PoolOp>(pooled.getDefiningOp()), g);
}

Value conv2dBackwardWeight(Emitter &b, Operation *op) {
  Value g = op->getOperand(0), x = op->getOperand(1);
  DictionaryAttr attrs = getOperatorAttributes(op);
  auto layout = [&](StringRef name) {
    return cast<StringAttr>(attrs.get(name)).getValue();
  };
  // TVM's reuse of nn.conv2d's attributes: data_layout is the gradient's,
  // kernel_layout the data's, out_layout the weight's.
  auto toNCHW = [&](Value v, StringRef from) {
    return from == "NHWC"
               ? b.op<TransposeOp>({v}, {b.ints("axes", {0, 3, 1, 2})})
               : v;
  };
  g = toNCHW(g, layout("data_layout"));
  x = toNCHW(x, layout("kernel_layout"));
  bool hwio = layout("out_layout") == "HWIO";
  ArrayRef<int64_t> result = shapeOf(op->getResult(0));
  SmallVector<int64_t> oihw(result);
  if (hwio)
    oihw = {result[3], result[2], result[0], result[1]};
  if (!b.succeeded())
    return Value();
  RelayBuilder rb(b.getRewriter(), op->getLoc());
  Value dw = adjoint::conv2dWeightGradientNCHW(rb, x, g, oihw,
                                               adjoint::ConvWindow(op));
  if (!dw)
    return Value();
  if (hwio)
    dw = b.op<TransposeOp>({dw}, {b.ints("axes", {2, 3, 1, 0})});
  Type dtype = elementOf(op->getResult(0));
  if (dw && elementOf(dw) != dtype)
    dw = b.op<CastOp>({dw}, {b.type("dtype", dtype)});
  return dw;
}

} // namespace

void mlir::relay::decompose::addGradientRewrites(AddRewrite add) {
  add("nn.max_pool2d_grad",
      poolGradient<MaxPool2DOp, adjoint::maxPool2DGradient>);
  add("nn.avg_pool2d_grad",
      poolGradient<AvgPool2DOp, adjoint::avgPool2DGradient>);
  add("nn.conv2d_backward_weight", conv2dBackwardWeight);
}

//===- ConvGradientRules.cpp - Gradients of 2-d convolutions ----*- C++ -*-===//
//
// nn.conv2d's gradient rule (TVM's conv2d_grad), for NCHW/OIHW and
// NHWC/HWIO (by transposes to the first), any groups, and
// nn.conv2d_transpose's:
//
//  * the data's gradient is the transposed convolution of the result's with
//    the same weight (groups kept), the rows and columns the strided windows
//    never reach given back through output_padding;
//  * the weight's is built by transforms/Decompose/ConvAdjoints.cpp (which
//    TVM's nn.conv2d_backward_weight shares).
//
//===----------------------------------------------------------------------===//

#include "transforms/AutoDiff/RuleSupport.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::autodiff;

namespace {

/// The gradients of x (NCHW) and w (OIHW) given g (NCHW), or nulls.
std::pair<Value, Value> gradientsNCHW(RelayBuilder &rb, Value x, Value w,
                                      Value g,
                                      const adjoint::ConvWindow &conv) {
  Builder b(x.getContext());
  ArrayRef<int64_t> xs = shapeOf(x), ws = shapeOf(w), gs = shapeOf(g);
  ArrayRef<int64_t> stride = conv.stride, dilation = conv.dilation,
                    pad = conv.pad;
  SmallVector<int64_t> outputPadding(2);
  for (int i = 0; i < 2; ++i)
    outputPadding[i] =
        xs[2 + i] - ((gs[2 + i] - 1) * stride[i] - pad[i] - pad[i + 2] +
                     dilation[i] * (ws[2 + i] - 1) + 1);
  Value dx = rb.op<Conv2DTransposeOp>(
      {g, w},
      {ints(b, "strides", stride), ints(b, "padding", pad),
       ints(b, "dilation", dilation), ints(b, "output_padding", outputPadding),
       b.getNamedAttr("groups", b.getI64IntegerAttr(conv.groups)),
       b.getNamedAttr("kernel_layout", b.getStringAttr("IOHW"))});
  return {dx, adjoint::conv2dWeightGradientNCHW(rb, x, g, ws, conv)};
}

Grads conv2dGradient(RelayBuilder &rb, Conv2DOp op, Value g) {
  StringRef data = op.getDataLayout(), kernel = op.getKernelLayout(),
            out = op.getOutLayout();
  bool nchw = data == "NCHW" && kernel == "OIHW";
  bool nhwc = data == "NHWC" && kernel == "HWIO";
  if ((!nchw && !nhwc) || (!out.empty() && out != data))
    return failure();
  if (!isa<FloatType>(getElementTypeOrSelf(g.getType())))
    return failure();
  adjoint::ConvWindow conv(op);
  Value x = op->getOperand(0), w = op->getOperand(1);
  Builder b(op->getContext());
  auto permute = [&](Value v, ArrayRef<int64_t> axes) {
    return rb.op<TransposeOp>(
        {v}, {b.getNamedAttr("axes", b.getDenseI64ArrayAttr(axes))});
  };
  if (nhwc) {
    x = permute(x, {0, 3, 1, 2});
    g = permute(g, {0, 3, 1, 2});
    w = permute(w, {3, 2, 0, 1});
  }
  auto [dx, dw] = gradientsNCHW(rb, x, w, g, conv);
  if (nhwc && dx && dw) {
    dx = permute(dx, {0, 2, 3, 1});
    dw = permute(dw, {2, 3, 1, 0});
  }
  if (!dx || !dw)
    return failure();
  return SmallVector<Value>{dx, dw};
}

/// A transposed convolution y = T(x, w) is the adjoint in its first
/// operand of the convolution C(z, w) with the same weights (IOHW read as
/// OIHW), strides, padding, dilation and groups: <g, T(x, w)> =
/// <C(g, w), x>. So dx = C(g, w), and dw is C's weight gradient for the
/// data g and the result's gradient x.
Grads conv2dTransposeGradient(RelayBuilder &rb, Conv2DTransposeOp op, Value g) {
  StringRef out = op.getOutLayout();
  if (op.getDataLayout() != "NCHW" || op.getKernelLayout() != "IOHW" ||
      (!out.empty() && out != "NCHW") ||
      !isa<FloatType>(getElementTypeOrSelf(g.getType())))
    return failure();
  adjoint::ConvWindow conv(op);
  Value x = op->getOperand(0), w = op->getOperand(1);
  Builder b(op->getContext());
  Value dx = rb.op<Conv2DOp>(
      {g, w}, {ints(b, "strides", conv.stride), ints(b, "padding", conv.pad),
               ints(b, "dilation", conv.dilation),
               b.getNamedAttr("groups", b.getI64IntegerAttr(conv.groups))});
  Value dw = adjoint::conv2dWeightGradientNCHW(rb, g, x, shapeOf(w), conv);
  if (!dx || !dw || shapeOf(dx) != shapeOf(x))
    return failure();
  return SmallVector<Value>{dx, dw};
}

} // namespace

void mlir::relay::autodiff::registerConvGradientRules() {
  setRule<Conv2DOp>(conv2dGradient);
  setRule<Conv2DTransposeOp>(conv2dTransposeGradient);
}

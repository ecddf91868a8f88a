//===- ConvGradientRules.cpp - Gradients of 2-d convolutions ----*- C++ -*-===//
//
// nn.conv2d's gradient rule (TVM's conv2d_grad), for NCHW/OIHW and any
// other order of their axes (NHWC/HWIO, by transposes to the first), any
// groups, and nn.conv2d_transpose's (the same way):
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

/// Whether `layout` names `plain`'s axes in some order (NHWC of NCHW).
bool isOrderOf(StringRef layout, StringRef plain) {
  return layout.size() == plain.size() &&
         llvm::all_of(plain, [&](char c) { return layout.count(c) == 1; });
}

/// `v` moved from layout `from` to `to` (orders of the same axes): itself,
/// or a transpose.
Value moveAxes(RelayBuilder &rb, Value v, StringRef from, StringRef to) {
  if (from == to)
    return v;
  SmallVector<int64_t> axes;
  for (char c : to)
    axes.push_back(from.find(c));
  Builder b(v.getContext());
  return rb.op<TransposeOp>(
      {v}, {b.getNamedAttr("axes", b.getDenseI64ArrayAttr(axes))});
}

/// nn.conv2d with its data in any order of NCHW's axes and its kernel in
/// any order of OIHW's (NHWC/HWIO, a depthwise HWOI): the NCHW/OIHW
/// gradients between transposes.
Grads conv2dGradient(RelayBuilder &rb, Conv2DOp op, Value g) {
  StringRef data = op.getDataLayout(), kernel = op.getKernelLayout(),
            out = op.getOutLayout();
  if (!isOrderOf(data, "NCHW") || !isOrderOf(kernel, "OIHW") ||
      (!out.empty() && out != data) ||
      !isa<FloatType>(getElementTypeOrSelf(g.getType())))
    return failure();
  adjoint::ConvWindow conv(op);
  Value x = moveAxes(rb, op->getOperand(0), data, "NCHW");
  Value w = moveAxes(rb, op->getOperand(1), kernel, "OIHW");
  auto [dx, dw] = gradientsNCHW(rb, x, w, moveAxes(rb, g, data, "NCHW"), conv);
  if (!dx || !dw)
    return failure();
  return SmallVector<Value>{moveAxes(rb, dx, "NCHW", data),
                            moveAxes(rb, dw, "OIHW", kernel)};
}

/// A transposed convolution y = T(x, w) is the adjoint in its first
/// operand of the convolution C(z, w) with the same weights (IOHW read as
/// OIHW), strides, padding, dilation and groups: <g, T(x, w)> =
/// <C(g, w), x>. So dx = C(g, w), and dw is C's weight gradient for the
/// data g and the result's gradient x. Other orders of the axes (NHWC/HWIO)
/// between transposes.
Grads conv2dTransposeGradient(RelayBuilder &rb, Conv2DTransposeOp op, Value g) {
  StringRef data = op.getDataLayout(), kernel = op.getKernelLayout(),
            out = op.getOutLayout();
  if (!isOrderOf(data, "NCHW") || !isOrderOf(kernel, "IOHW") ||
      (!out.empty() && out != data) ||
      !isa<FloatType>(getElementTypeOrSelf(g.getType())))
    return failure();
  adjoint::ConvWindow conv(op);
  Value x = moveAxes(rb, op->getOperand(0), data, "NCHW");
  Value w = moveAxes(rb, op->getOperand(1), kernel, "IOHW");
  g = moveAxes(rb, g, data, "NCHW");
  Builder b(op->getContext());
  Value dx = rb.op<Conv2DOp>(
      {g, w}, {ints(b, "strides", conv.stride), ints(b, "padding", conv.pad),
               ints(b, "dilation", conv.dilation),
               b.getNamedAttr("groups", b.getI64IntegerAttr(conv.groups))});
  Value dw = adjoint::conv2dWeightGradientNCHW(rb, g, x, shapeOf(w), conv);
  if (!dx || !dw || shapeOf(dx) != shapeOf(x))
    return failure();
  return SmallVector<Value>{moveAxes(rb, dx, "NCHW", data),
                            moveAxes(rb, dw, "IOHW", kernel)};
}

} // namespace

void mlir::relay::autodiff::registerConvGradientRules() {
  setRule<Conv2DOp>(conv2dGradient);
  setRule<Conv2DTransposeOp>(conv2dTransposeGradient);
}

//===- ConvGradientRules.cpp - Gradients of 2-d convolutions ----*- C++ -*-===//
//
// nn.conv2d's gradient rule (TVM's conv2d_grad), for NCHW/OIHW and
// NHWC/HWIO (by transposes to the first), any groups:
//
//  * the data's gradient is the transposed convolution of the result's with
//    the same weight (groups kept), the rows and columns the strided windows
//    never reach given back through output_padding;
//  * the weight's is, without groups, one product of the data's im2col
//    matrix (the kernel offsets' reads stacked) and the result's gradient;
//    with groups, for each kernel offset one batched product per group of
//    the result's gradient with the data the offset reads (both as
//    [groups, channels, batch * pixels]), the offsets stacked innermost.
//    (TVM's convolution with the result's gradient as its kernel ran at
//    half the forward's speed or less on the CPU kernels.)
//
//===----------------------------------------------------------------------===//

#include "transforms/AutoDiff/RuleSupport.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::autodiff;

namespace {

/// A convolution's attributes in their long forms.
struct ConvGeometry {
  SmallVector<int64_t> stride, dilation, pad; // pad: top, left, bottom, right
  int64_t groups;

  explicit ConvGeometry(Conv2DOp op)
      : stride(windowPair(op, "strides")), dilation(windowPair(op, "dilation")),
        pad(windowPadding(op)), groups(op.getGroups()) {}
  /// A transposed convolution's: those of the convolution it transposes.
  explicit ConvGeometry(Conv2DTransposeOp op)
      : stride(windowPair(op, "strides")), dilation(windowPair(op, "dilation")),
        pad(windowPadding(op)), groups(op.getGroups()) {}
};

/// The data each kernel offset (kh, kw) reads of `padded` ([.., .., H, W]),
/// for an output of gs's pixels: one strided slice per offset, in kernel
/// order.
SmallVector<Value> offsetReads(RelayBuilder &rb, Value padded,
                               ArrayRef<int64_t> ws, ArrayRef<int64_t> gs,
                               const ConvGeometry &conv) {
  Builder b(padded.getContext());
  ArrayRef<int64_t> ps = shapeOf(padded);
  SmallVector<Value> reads;
  for (int64_t a = 0; a < ws[2]; ++a)
    for (int64_t c = 0; c < ws[3]; ++c) {
      SmallVector<int64_t> begin = {0, 0, a * conv.dilation[0],
                                    c * conv.dilation[1]};
      SmallVector<int64_t> end = {ps[0], ps[1],
                                  begin[2] + (gs[2] - 1) * conv.stride[0] + 1,
                                  begin[3] + (gs[3] - 1) * conv.stride[1] + 1};
      reads.push_back(rb.op<StridedSliceOp>(
          {padded},
          {ints(b, "begin", begin), ints(b, "end", end),
           ints(b, "strides", {1, 1, conv.stride[0], conv.stride[1]})}));
    }
  return reads;
}

/// An ungrouped convolution's weight gradient as one product:
/// dw^T [I * KH * KW, O] = im2col(x) [I * KH * KW, N * pixels] times
/// g^T [N * pixels, O], the im2col matrix built by stacking the offsets'
/// reads of the data with its channels first. A product this shape runs
/// at the forward convolution's speed; one product per offset, each with
/// a long k and only O x I results, ran at half of it or less (ResNet-18's
/// first stage at batch 8: 42 -> 18 ms per 64-channel convolution).
Value weightGradientAsProduct(RelayBuilder &rb, Value padded, Value g,
                              ArrayRef<int64_t> ws, const ConvGeometry &conv) {
  Builder b(padded.getContext());
  ArrayRef<int64_t> gs = shapeOf(g);
  int64_t n = gs[0], o = ws[0], i = ws[1], taps = ws[2] * ws[3],
          pixels = gs[2] * gs[3];
  Value channelsFirst =
      rb.op<TransposeOp>({padded}, {ints(b, "axes", {1, 0, 2, 3})});
  Value cols =
      rb.op<StackOp>({rb.tuple(offsetReads(rb, channelsFirst, ws, gs, conv))},
                     {b.getNamedAttr("axis", b.getI64IntegerAttr(1))});
  cols =
      rb.op<ReshapeOp>({cols}, {ints(b, "newshape", {i * taps, n * pixels})});
  Value gt = rb.op<TransposeOp>({g}, {ints(b, "axes", {0, 2, 3, 1})});
  gt = rb.op<ReshapeOp>({gt}, {ints(b, "newshape", {n * pixels, o})});
  Value dwt = rb.op<MatmulOp>({cols, gt});
  Value dw = rb.op<TransposeOp>({dwt}, {ints(b, "axes", {1, 0})});
  return rb.op<ReshapeOp>({dw}, {ints(b, "newshape", ws)});
}

/// A grouped convolution's weight gradient: per kernel offset, one product
/// per group of g and the data the offset reads, each as [groups, channels
/// of a group, batch * pixels], the offsets stacked innermost.
Value weightGradientPerOffset(RelayBuilder &rb, Value padded, Value g,
                              ArrayRef<int64_t> ws, const ConvGeometry &conv) {
  Builder b(padded.getContext());
  ArrayRef<int64_t> gs = shapeOf(g);
  int64_t groups = conv.groups, n = gs[0], cig = ws[1], cog = gs[1] / groups,
          pixels = gs[2] * gs[3];
  auto byGroup = [&](Value v, int64_t perGroup) {
    v = rb.op<ReshapeOp>({v},
                         {ints(b, "newshape", {n, groups, perGroup, pixels})});
    v = rb.op<TransposeOp>({v}, {ints(b, "axes", {1, 2, 0, 3})});
    return rb.op<ReshapeOp>(
        {v}, {ints(b, "newshape", {groups, perGroup, n * pixels})});
  };
  Value grows = byGroup(g, cog);
  SmallVector<Value> perOffset;
  for (Value read : offsetReads(rb, padded, ws, gs, conv)) {
    // [groups, cog, cig]: the batched product with the second transposed.
    perOffset.push_back(rb.op<BatchMatmulOp>(
        {grows, byGroup(read, cig)},
        {b.getNamedAttr("transpose_b", b.getBoolAttr(true))}));
    if (!perOffset.back())
      return Value();
  }
  Value dw = rb.op<StackOp>({rb.tuple(perOffset)},
                            {b.getNamedAttr("axis", b.getI64IntegerAttr(3))});
  return rb.op<ReshapeOp>({dw}, {ints(b, "newshape", ws)});
}

/// The gradient of an NCHW convolution's OIHW weights (shape `ws`) given
/// its data x and the gradient g of its result, or null.
Value weightGradientNCHW(RelayBuilder &rb, Value x, Value g,
                         ArrayRef<int64_t> ws, const ConvGeometry &conv) {
  Builder b(x.getContext());
  ArrayRef<int64_t> pad = conv.pad;
  // dw[o, i, kh, kw] = sum over n, h, w of g[n, o, h, w] *
  // x_padded[n, i, h * stride + kh * dilation, w * stride + kw * dilation].
  Value padded = rb.op<PadOp>(
      {x, scalar(rb, 0.0, x)},
      {ints(b, "pad_width", {0, 0, 0, 0, pad[0], pad[2], pad[1], pad[3]})});
  if (!padded)
    return Value();
  return conv.groups == 1 ? weightGradientAsProduct(rb, padded, g, ws, conv)
                          : weightGradientPerOffset(rb, padded, g, ws, conv);
}

/// The gradients of x (NCHW) and w (OIHW) given g (NCHW), or nulls.
std::pair<Value, Value> gradientsNCHW(RelayBuilder &rb, Value x, Value w,
                                      Value g, const ConvGeometry &conv) {
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
  return {dx, weightGradientNCHW(rb, x, g, ws, conv)};
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
  ConvGeometry conv(op);
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
  ConvGeometry conv(op);
  Value x = op->getOperand(0), w = op->getOperand(1);
  Builder b(op->getContext());
  Value dx = rb.op<Conv2DOp>(
      {g, w}, {ints(b, "strides", conv.stride), ints(b, "padding", conv.pad),
               ints(b, "dilation", conv.dilation),
               b.getNamedAttr("groups", b.getI64IntegerAttr(conv.groups))});
  Value dw = weightGradientNCHW(rb, g, x, shapeOf(w), conv);
  if (!dx || !dw || shapeOf(dx) != shapeOf(x))
    return failure();
  return SmallVector<Value>{dx, dw};
}

} // namespace

void mlir::relay::autodiff::registerConvGradientRules() {
  setRule<Conv2DOp>(conv2dGradient);
  setRule<Conv2DTransposeOp>(conv2dTransposeGradient);
}

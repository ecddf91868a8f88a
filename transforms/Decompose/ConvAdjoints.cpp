//===- ConvAdjoints.cpp - A 2-d convolution's weight gradient ---*- C++ -*-===//
//
// The gradient of a 2-d convolution's weights, built from Relay operators:
// without groups, one product of the data's im2col matrix (the kernel
// offsets' reads stacked) and the result's gradient; with groups, for each
// kernel offset one batched product per group of the result's gradient
// with the data the offset reads (both as [groups, channels, batch *
// pixels]), the offsets stacked innermost. (TVM's convolution with the
// result's gradient as its kernel ran at half the forward's speed or less
// on the CPU kernels.)
//
//===----------------------------------------------------------------------===//

#include "transforms/Decompose/Adjoints.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::adjoint;

namespace {

/// The data each kernel offset (kh, kw) reads of `padded` ([.., .., H, W]),
/// for an output of gs's pixels: one strided slice per offset, in kernel
/// order.
SmallVector<Value> offsetReads(RelayBuilder &rb, Value padded,
                               ArrayRef<int64_t> ws, ArrayRef<int64_t> gs,
                               const ConvWindow &conv) {
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
                              ArrayRef<int64_t> ws, const ConvWindow &conv) {
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
                              ArrayRef<int64_t> ws, const ConvWindow &conv) {
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

} // namespace

Value mlir::relay::adjoint::conv2dWeightGradientNCHW(RelayBuilder &rb, Value x,
                                                     Value g,
                                                     ArrayRef<int64_t> ws,
                                                     const ConvWindow &conv) {
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

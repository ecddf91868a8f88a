//===- PackedRewrites.cpp - Packed-layout operators unpacked ---*- C++ -*-===//
//
// nn.contrib_conv2d_NCHWc, nn.contrib_depthwise_conv2d_NCHWc and
// nn.contrib_dense_pack as layout_transforms around nn.conv2d and
// nn.dense: this project's code generation packs operands itself, for the
// CPU it compiles for.
//
//===----------------------------------------------------------------------===//

#include "transforms/Decompose/Rewrites.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

namespace {

/// `v` moved from layout `src` to `dst` (itself when they are the same).
Value transformLayout(Emitter &b, Value v, StringRef src, StringRef dst) {
  if (src == dst)
    return v;
  return b.op<LayoutTransformOp>(
      {v}, {b.str("src_layout", src), b.str("dst_layout", dst)});
}

/// The op's attributes (with their defaults) but `replaced`'s.
SmallVector<NamedAttribute> attrsBut(Operation *op,
                                     ArrayRef<NamedAttribute> replaced) {
  NamedAttrList attrs(getOperatorAttributes(op));
  for (NamedAttribute attr : replaced)
    attrs.set(attr.getName(), attr.getValue());
  return SmallVector<NamedAttribute>(attrs.begin(), attrs.end());
}

Value conv2dNCHWc(Emitter &b, Operation *op) {
  StringRef dataLayout = strAttr(op, "data_layout");
  StringRef outLayout = strAttr(op, "out_layout");
  if (outLayout.empty())
    outLayout = dataLayout;
  Value data = transformLayout(b, op->getOperand(0), dataLayout, "NCHW");
  Value weight = transformLayout(b, op->getOperand(1),
                                 strAttr(op, "kernel_layout"), "OIHW");
  Value conv = b.op<Conv2DOp>(
      {data, weight},
      attrsBut(op, {b.str("data_layout", "NCHW"),
                    b.str("kernel_layout", "OIHW"), b.str("out_layout", "")}));
  return transformLayout(b, conv, "NCHW", outLayout);
}

Value densePack(Emitter &b, Operation *op) {
  Value weight =
      transformLayout(b, op->getOperand(1), strAttr(op, "weight_layout"), "NC");
  NamedAttrList attrs(getOperatorAttributes(op));
  attrs.erase("weight_layout");
  return b.op<DenseOp>({op->getOperand(0), weight},
                       SmallVector<NamedAttribute>(attrs.begin(), attrs.end()));
}

} // namespace

void mlir::relay::decompose::addPackedRewrites(AddRewrite add) {
  add("nn.contrib_conv2d_NCHWc", conv2dNCHWc);
  add("nn.contrib_depthwise_conv2d_NCHWc", conv2dNCHWc);
  add("nn.contrib_dense_pack", densePack);
}

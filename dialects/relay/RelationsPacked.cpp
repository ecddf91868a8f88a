//===- RelationsPacked.cpp - Relations of packed-layout operators -*- C++
//-*-===//
//
// nn.contrib_conv2d_NCHWc, nn.contrib_depthwise_conv2d_NCHWc and
// nn.contrib_dense_pack: the operands are unpacked by layout_transform's
// relation, the plain operator's relation types the product, and the
// result is packed again.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelationUtils.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::relay;

/// `type` moved from layout `src` to `dst` by layout_transform's relation
/// into `out`; `what` notes its errors.
static RelationStatus transformLayout(RelationArgs &args, Type type,
                                      StringRef src, StringRef dst, Type &out,
                                      const Twine &what) {
  MLIRContext *ctx = args.getContext();
  Builder b(ctx);
  NamedAttrList attrs;
  attrs.set("src_layout", b.getStringAttr(src));
  attrs.set("dst_layout", b.getStringAttr(dst));
  std::string context = what.str();
  RelationStatus s = runNestedRelation(args, "LayoutTransform", {type}, out,
                                       attrs.getDictionary(ctx), {}, context);
  if (s == RelationStatus::Solved && !out)
    return RelationStatus::Pending;
  return s;
}

/// The NCHWc convolutions: nn.conv2d's relation on the unpacked data
/// (data_layout to NCHW) and kernel (kernel_layout to OIHW), its result
/// packed to out_layout (data_layout when empty).
static RelationStatus conv2dNCHWcRelation(RelationArgs &args) {
  TensorInfo data, weight;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, weight);
  StringRef dataLayout = args.getString("data_layout", "NCHW");
  StringRef kernelLayout = args.getString("kernel_layout", "OIHW");
  StringRef outLayout = args.getString("out_layout", "");
  if (outLayout.empty())
    outLayout = dataLayout;
  Type plainData, plainWeight, plainResult, result;
  if (RelationStatus s = transformLayout(
          args, args.getInput(0), dataLayout, "NCHW", plainData,
          "unpacking the data from data_layout \"" + dataLayout + "\" to NCHW");
      s != RelationStatus::Solved)
    return s;
  if (RelationStatus s = transformLayout(
          args, args.getInput(1), kernelLayout, "OIHW", plainWeight,
          "unpacking the weight from kernel_layout \"" + kernelLayout +
              "\" to OIHW");
      s != RelationStatus::Solved)
    return s;
  MLIRContext *ctx = args.getContext();
  Builder b(ctx);
  NamedAttrList attrs(args.getAttrs());
  attrs.set("data_layout", b.getStringAttr("NCHW"));
  attrs.set("kernel_layout", b.getStringAttr("OIHW"));
  attrs.set("out_layout", b.getStringAttr(""));
  if (RelationStatus s =
          runNestedRelation(args, "Conv2D", {plainData, plainWeight},
                            plainResult, attrs.getDictionary(ctx), {},
                            "the convolution of the unpacked data and weight");
      s != RelationStatus::Solved)
    return s;
  if (RelationStatus s = transformLayout(
          args, plainResult, "NCHW", outLayout, result,
          "packing the result from NCHW to out_layout \"" + outLayout + "\"");
      s != RelationStatus::Solved)
    return s;
  return args.solve(result);
}

/// nn.contrib_dense_pack: nn.dense's relation on the weight unpacked from
/// weight_layout to NC.
static RelationStatus densePackRelation(RelationArgs &args) {
  TensorInfo data, weight;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, weight);
  if (data.getRank() != 2)
    return args.fail("expected 2-d data, got " + typeStr(args.getInput(0)));
  StringRef layout = args.getString("weight_layout", "NC");
  Type plainWeight, result;
  if (RelationStatus s = transformLayout(
          args, args.getInput(1), layout, "NC", plainWeight,
          "unpacking the weight from weight_layout \"" + layout + "\" to NC");
      s != RelationStatus::Solved)
    return s;
  if (RelationStatus s = runNestedRelation(
          args, "Dense", {args.getInput(0), plainWeight}, result, {}, {},
          "the product with the unpacked weight");
      s != RelationStatus::Solved)
    return s;
  return args.solve(result);
}

void mlir::relay::registerPackedRelations() {
  registerTypeRelation("Conv2DNCHWc", conv2dNCHWcRelation);
  registerTypeRelation("DensePack", densePackRelation);
}

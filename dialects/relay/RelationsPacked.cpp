//===- RelationsPacked.cpp - Relations of packed-layout operators -------===//
//
// nn.contrib_conv2d_NCHWc, nn.contrib_depthwise_conv2d_NCHWc and
// nn.contrib_dense_pack: the operands are unpacked by layout_transform's
// relation, the plain operator's relation types the product, and the
// result is packed again; so are nn.conv2d, nn.conv2d_transpose, the 2-d
// poolings and nn.upsampling when their layout attributes are packed
// (solveUnpacked). The GEMM convolution pair: the weight's tiles are
// checked to hold the convolution's matrix, which nn.conv2d types.
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

bool mlir::relay::isPackedLayout(StringRef layout) {
  return llvm::any_of(
      layout, [](char c) { return llvm::isDigit(c) || llvm::isLower(c); });
}

/// solveUnpacked on `inputs` (the op's, or with a weight just typed).
static RelationStatus solveUnpackedInputs(RelationArgs &args,
                                          StringRef relation, StringRef what,
                                          ArrayRef<LayoutOperand> operands,
                                          StringRef outAttr,
                                          SmallVector<Type> inputs) {
  MLIRContext *ctx = args.getContext();
  Builder b(ctx);
  NamedAttrList attrs(args.getAttrs());
  for (const LayoutOperand &operand : operands) {
    StringRef layout = args.getString(operand.attr, operand.dflt);
    Type plain;
    if (RelationStatus s = transformLayout(
            args, inputs[operand.input], layout, operand.plain, plain,
            "unpacking the " + operand.what + " from " + operand.attr + " \"" +
                layout + "\" to " + operand.plain);
        s != RelationStatus::Solved)
      return s;
    inputs[operand.input] = plain;
    attrs.set(operand.attr, b.getStringAttr(operand.plain));
  }
  const LayoutOperand &data = operands.front();
  StringRef outName = outAttr, outLayout;
  if (!outAttr.empty()) {
    outLayout = args.getString(outAttr, "");
    attrs.set(outAttr, b.getStringAttr(""));
  }
  if (outLayout.empty()) {
    outName = data.attr;
    outLayout = args.getString(data.attr, data.dflt);
  }
  std::string unpacked;
  for (const LayoutOperand &operand : operands)
    unpacked += (unpacked.empty() ? "" : " and ") + operand.what.str();
  Type plainResult, result;
  if (RelationStatus s = runNestedRelation(
          args, relation, inputs, plainResult, attrs.getDictionary(ctx), {},
          ("the " + what + " of the unpacked " + unpacked).str());
      s != RelationStatus::Solved)
    return s;
  if (!plainResult)
    return RelationStatus::Pending;
  if (RelationStatus s =
          transformLayout(args, plainResult, data.plain, outLayout, result,
                          "packing the result from " + data.plain + " to " +
                              outName + " \"" + outLayout + "\"");
      s != RelationStatus::Solved)
    return s;
  return args.solve(result);
}

RelationStatus mlir::relay::solveUnpacked(RelationArgs &args,
                                          StringRef relation, StringRef what,
                                          ArrayRef<LayoutOperand> operands,
                                          StringRef outAttr) {
  return solveUnpackedInputs(args, relation, what, operands, outAttr,
                             SmallVector<Type>(args.getInputs()));
}

RelationStatus mlir::relay::solveUnpackedConv2D(RelationArgs &args,
                                                bool transposed) {
  StringRef plainKernel = transposed ? "IOHW" : "OIHW";
  LayoutOperand operands[] = {
      {0, "data_layout", "NCHW", "NCHW", "data"},
      {1, "kernel_layout", plainKernel, plainKernel, "weight"}};
  TensorInfo data, weight;
  READ_TENSOR_OR_RETURN(args, 0, data);
  SmallVector<Type> inputs(args.getInputs());
  TensorState ws = readInputTensor(args, 1, weight);
  if (ws == TensorState::NotATensor)
    return RelationStatus::Failed;
  if (ws == TensorState::Unknown) {
    // The weight from channels and kernel_size, as nn.conv2d's relation
    // types it, in plain layout, then packed.
    std::optional<int64_t> channels = args.getOptionalInt("channels");
    std::optional<SmallVector<int64_t>> kernel =
        args.getOptionalInts("kernel_size");
    if (!channels || !kernel || kernel->size() != 2)
      return RelationStatus::Pending;
    StringRef dataLayout = args.getString("data_layout", "NCHW");
    Type plainData;
    if (RelationStatus s =
            transformLayout(args, inputs[0], dataLayout, "NCHW", plainData,
                            "unpacking the data from data_layout \"" +
                                dataLayout + "\" to NCHW");
        s != RelationStatus::Solved)
      return s;
    TensorInfo plain;
    if (readTensor(plainData, plain) != TensorState::Tensor)
      return RelationStatus::Pending;
    int64_t groups = std::max<int64_t>(args.getInt("groups", 1), 1);
    auto perGroup = [&](Dim d) {
      return d.isStatic() && d.size % groups == 0 ? Dim::of(d.size / groups)
                                                  : Dim::any();
    };
    Dim in = plain.dims[1], out = Dim::of(*channels);
    SmallVector<Dim> dims = {transposed ? in : out,
                             transposed ? perGroup(out) : perGroup(in),
                             Dim::of((*kernel)[0]), Dim::of((*kernel)[1])};
    StringRef kernelLayout = args.getString("kernel_layout", plainKernel);
    Type packed;
    if (RelationStatus s = transformLayout(
            args, makeTensor(args.getContext(), dims, plain.dtype), plainKernel,
            kernelLayout, packed,
            "packing the weight from " + plainKernel + " to kernel_layout \"" +
                kernelLayout + "\"");
        s != RelationStatus::Solved)
      return s;
    if (failed(args.assignInput(1, packed)))
      return RelationStatus::Failed;
    inputs[1] = packed;
  }
  return solveUnpackedInputs(args, transposed ? "Conv2DTranspose" : "Conv2D",
                             "convolution", operands, "out_layout", inputs);
}

/// The NCHWc convolutions: nn.conv2d's relation on the unpacked data
/// (data_layout to NCHW) and kernel (kernel_layout to OIHW), its result
/// packed to out_layout (data_layout when empty).
static RelationStatus conv2dNCHWcRelation(RelationArgs &args) {
  return solveUnpackedConv2D(args, /*transposed=*/false);
}

/// nn.contrib_dense_pack and qnn.contrib_dense_pack: the relation
/// `product` (Dense, QnnDense) on the weight unpacked from weight_layout to
/// NC, the other operands (qnn's zero points and scales) as they are;
/// `what` names the product in a note on its errors.
static RelationStatus densePackRelation(RelationArgs &args, StringRef product,
                                        StringRef what) {
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
  SmallVector<Type> inputs(args.getInputs());
  inputs[1] = plainWeight;
  NamedAttrList attrs(args.getAttrs());
  attrs.erase("weight_layout");
  if (RelationStatus s =
          runNestedRelation(args, product, inputs, result,
                            attrs.getDictionary(args.getContext()), {}, what);
      s != RelationStatus::Solved)
    return s;
  return result ? args.solve(result) : RelationStatus::Pending;
}

/// nn.contrib_conv2d_gemm_weight_transform: HWIO [KH, KW, I, O] as the
/// [K, N] matrix padded to whole tiles: [N' / rows, K' / cols, rows, cols].
static RelationStatus gemmWeightTransformRelation(RelationArgs &args) {
  TensorInfo weight;
  READ_TENSOR_OR_RETURN(args, 0, weight);
  if (weight.getRank() != 4)
    return args.fail("expected a 4-d HWIO weight, got " +
                     typeStr(args.getInput(0)));
  int64_t rows = args.getInt("tile_rows", 0),
          cols = args.getInt("tile_cols", 0);
  if (rows < 1 || cols < 1)
    return args.fail("expected positive tile_rows and tile_cols, got " +
                     Twine(rows) + " and " + Twine(cols));
  auto tiles = [](Dim size, int64_t tile) {
    return size.isStatic() ? Dim::of((size.size + tile - 1) / tile)
                           : Dim::any();
  };
  Dim k = weight.product(0, 3), n = weight.dims[3];
  return args.solve(
      makeTensor(args.getContext(),
                 {tiles(n, rows), tiles(k, cols), Dim::of(rows), Dim::of(cols)},
                 weight.dtype));
}

/// nn.contrib_conv2d_gemm_without_weight_transform: nn.conv2d's relation
/// on NHWC data and the HWIO weight [KH, KW, I, channels] whose matrix the
/// interleaved weight must hold.
static RelationStatus gemmConv2dRelation(RelationArgs &args) {
  TensorInfo data, weight;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, weight);
  if (data.getRank() != 4 || args.getString("data_layout", "NCHW") != "NHWC")
    return args.fail("expected 4-d NHWC data (data_layout \"NHWC\") for "
                     "GEMM convolution, got " +
                     typeStr(args.getInput(0)) + " in \"" +
                     args.getString("data_layout", "NCHW") + "\"");
  if (args.getInt("groups", 1) != 1)
    return args.fail("expected one group for GEMM convolution, got " +
                     Twine(args.getInt("groups", 1)));
  std::optional<int64_t> channels = args.getOptionalInt("channels");
  std::optional<SmallVector<int64_t>> kernel =
      args.getOptionalInts("kernel_size");
  if (!channels || !kernel || kernel->size() != 2)
    return args.fail("expected channels and a 2-d kernel_size: GEMM "
                     "convolution cannot infer them from its weight");
  if (weight.getRank() != 4)
    return args.fail("expected the interleaved 4-d weight [N / tile_rows, "
                     "K / tile_cols, tile_rows, tile_cols], got " +
                     typeStr(args.getInput(1)));
  Dim in = data.dims[3];
  // The matrix the tiles hold must cover [KH * KW * I, channels].
  Dim heldK = mulDims(weight.dims[1], weight.dims[3]),
      heldN = mulDims(weight.dims[0], weight.dims[2]);
  if (in.isStatic() && heldK.isStatic() && heldN.isStatic() &&
      (heldK.size < (*kernel)[0] * (*kernel)[1] * in.size ||
       heldN.size < *channels))
    return args.fail("the interleaved weight " + typeStr(args.getInput(1)) +
                     " holds a " + Twine(heldK.size) + "x" + Twine(heldN.size) +
                     " matrix, smaller than the " +
                     Twine((*kernel)[0] * (*kernel)[1] * in.size) + "x" +
                     Twine(*channels) + " of a " + Twine((*kernel)[0]) + "x" +
                     Twine((*kernel)[1]) + " kernel from " + Twine(in.size) +
                     " to " + Twine(*channels) + " channels");
  Type hwio = makeTensor(
      args.getContext(),
      {Dim::of((*kernel)[0]), Dim::of((*kernel)[1]), in, Dim::of(*channels)},
      data.dtype);
  return solveAsConvolution(args, "Conv2D", hwio, "HWIO");
}

void mlir::relay::registerPackedRelations() {
  registerTypeRelation("Conv2DGemmWeightTransform",
                       gemmWeightTransformRelation);
  registerTypeRelation("Conv2DGemm", gemmConv2dRelation);
  registerTypeRelation("Conv2DNCHWc", conv2dNCHWcRelation);
  registerTypeRelation("DensePack", [](RelationArgs &args) {
    return densePackRelation(args, "Dense",
                             "the product with the unpacked weight");
  });
  registerTypeRelation("QnnDensePack", [](RelationArgs &args) {
    return densePackRelation(args, "QnnDense",
                             "the quantized product with the unpacked weight");
  });
}

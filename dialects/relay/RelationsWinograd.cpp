//===- RelationsWinograd.cpp - Relations of Winograd convolution -*- C++
//-*-===//
//
// nn.contrib_conv2d_winograd_weight_transform and
// nn.contrib_conv2d_winograd_without_weight_transform. TVM's relations
// accept any weight and leave topi to assert on tile sizes, strides and
// layouts when it compiles; here those limits are type errors, and the
// transformed weight's shape is checked against the data's channels, the
// kernel size and the tile size.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelationUtils.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::relay;

/// The sizes topi's Cook-Toom matrices exist for.
static LogicalResult checkWinogradSizes(RelationArgs &args, int64_t tile,
                                        Dim kernel) {
  if (tile < 2 || tile > 8) {
    args.fail("expected tile_size between 2 and 8 (topi's Winograd "
              "matrices), got " +
              Twine(tile));
    return failure();
  }
  if (kernel.isStatic() && (kernel.size < 3 || kernel.size > 7)) {
    args.fail("expected a kernel size between 3 and 7 for Winograd "
              "convolution, got " +
              Twine(kernel.size));
    return failure();
  }
  return success();
}

/// [O, I, K, K] to [t + K - 1, t + K - 1, O, I].
static RelationStatus winogradWeightTransformRelation(RelationArgs &args) {
  TensorInfo weight;
  READ_TENSOR_OR_RETURN(args, 0, weight);
  if (weight.getRank() != 4)
    return args.fail("expected a 4-d OIHW weight, got " +
                     typeStr(args.getInput(0)));
  if (!isFloatLike(weight.dtype))
    return args.fail("expected a float weight, got " +
                     typeStr(args.getInput(0)));
  Dim kh = weight.dims[2], kw = weight.dims[3];
  if (kh.isStatic() && kw.isStatic() && kh != kw)
    return args.fail("expected a square kernel for Winograd convolution, "
                     "got " +
                     toString(kh) + "x" + toString(kw));
  int64_t tile = args.getInt("tile_size", 0);
  if (failed(checkWinogradSizes(args, tile, kh)))
    return RelationStatus::Failed;
  Dim alpha = kh.isStatic() ? Dim::of(tile + kh.size - 1) : Dim::any();
  return args.solve(makeTensor(args.getContext(),
                               {alpha, alpha, weight.dims[0], weight.dims[1]},
                               weight.dtype));
}

/// Requires the 2-element attribute `name` (absent: [1, 1]) to be ones.
static LogicalResult expectOnes(RelationArgs &args, StringRef name) {
  std::optional<SmallVector<int64_t>> values = args.getOptionalInts(name);
  if (!values || llvm::all_of(*values, [](int64_t v) { return v == 1; }))
    return success();
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(*values, os);
  args.fail("expected " + name + " [1, 1] for Winograd convolution, got [" +
            text + "]");
  return failure();
}

/// The convolution nn.conv2d's relation types for an OIHW weight of
/// `channels` x I x K x K; the transformed weight must be [a, a, I, O]
/// (NCHW) or [a, a, O, I] (NHWC), a = tile_size + K - 1.
static RelationStatus winogradConv2dRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  if (data.getRank() != 4)
    return args.fail("expected 4-d data, got " + typeStr(args.getInput(0)));
  StringRef layout = args.getString("data_layout", "NCHW");
  if (layout != "NCHW" && layout != "NHWC")
    return args.fail("expected data_layout NCHW or NHWC for Winograd "
                     "convolution, got \"" +
                     layout + "\"");
  StringRef outLayout = args.getString("out_layout", "");
  if (!outLayout.empty() && outLayout != layout)
    return args.fail("expected out_layout to be data_layout \"" + layout +
                     "\" (or empty), got \"" + outLayout + "\"");
  if (args.getInt("groups", 1) != 1)
    return args.fail("expected one group for Winograd convolution, got " +
                     Twine(args.getInt("groups", 1)));
  if (failed(expectOnes(args, "strides")) ||
      failed(expectOnes(args, "dilation")))
    return RelationStatus::Failed;
  std::optional<int64_t> channels = args.getOptionalInt("channels");
  std::optional<SmallVector<int64_t>> kernel =
      args.getOptionalInts("kernel_size");
  if (!channels || !kernel)
    return args.fail("expected channels and kernel_size: Winograd "
                     "convolution cannot infer them from its weight");
  if (kernel->size() != 2 || (*kernel)[0] != (*kernel)[1])
    return args.fail("expected a square 2-d kernel_size for Winograd "
                     "convolution");
  int64_t k = (*kernel)[0], tile = args.getInt("tile_size", 0);
  if (failed(checkWinogradSizes(args, tile, Dim::of(k))))
    return RelationStatus::Failed;

  Dim inChannels = data.dims[layout == "NCHW" ? 1 : 3];
  Dim out = Dim::of(*channels), alpha = Dim::of(tile + k - 1);
  SmallVector<Dim> weightDims{alpha, alpha, inChannels, out};
  if (layout == "NHWC")
    std::swap(weightDims[2], weightDims[3]);
  MLIRContext *ctx = args.getContext();
  if (failed(expectInputType(args, 1, makeTensor(ctx, weightDims, data.dtype),
                             layout == "NCHW"
                                 ? "the transformed weight ([a, a, I, O] "
                                   "for NCHW data, a = tile_size + K - 1)"
                                 : "the transformed weight ([a, a, O, I] "
                                   "for NHWC data, a = tile_size + K - 1)")))
    return RelationStatus::Failed;

  Builder b(ctx);
  NamedAttrList attrs(args.getAttrs());
  attrs.erase("tile_size");
  attrs.set("kernel_layout", b.getStringAttr("OIHW"));
  Type weight = makeTensor(ctx, {out, inChannels, Dim::of(k), Dim::of(k)},
                           data.dtype),
       result;
  if (RelationStatus s =
          runNestedRelation(args, "Conv2D", {args.getInput(0), weight}, result,
                            attrs.getDictionary(ctx));
      s != RelationStatus::Solved)
    return s;
  if (!result)
    return RelationStatus::Pending;
  return args.solve(result);
}

void mlir::relay::registerWinogradRelations() {
  registerTypeRelation("Conv2DWinogradWeightTransform",
                       winogradWeightTransformRelation);
  registerTypeRelation("Conv2DWinograd", winogradConv2dRelation);
}

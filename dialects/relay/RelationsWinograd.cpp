//===- RelationsWinograd.cpp - Relations of Winograd convolutions -------===//
//
// nn.contrib_conv2d_winograd_weight_transform,
// nn.contrib_conv2d_winograd_without_weight_transform and their 3-d forms.
// TVM's relations accept any weight and leave topi to assert on tile
// sizes, strides and layouts when it compiles; here those limits are type
// errors, and the transformed weight's shape is checked against the data's
// channels, the kernel size and the tile size.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelationUtils.h"

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

/// Reads the weight (input 0) of a weight transform: a float tensor of
/// `rank` axes ([O, I, .., K, K]: `layout`) square in its last two, whose
/// kernel size and tile_size topi has matrices for. `alpha` gets
/// tile_size + K - 1 (`?` while K is).
static RelationStatus readWinogradKernel(RelationArgs &args, int64_t rank,
                                         StringRef layout, TensorInfo &weight,
                                         Dim &alpha) {
  READ_TENSOR_OR_RETURN(args, 0, weight);
  if (weight.getRank() != rank || !isFloatLike(weight.dtype))
    return args.fail("expected a " + Twine(rank) + "-d float " + layout +
                     " weight, got " + typeStr(args.getInput(0)));
  Dim kh = weight.dims[rank - 2], kw = weight.dims[rank - 1];
  if (kh.isStatic() && kw.isStatic() && kh != kw)
    return args.fail("expected a kernel square in height and width for "
                     "Winograd convolution, got " +
                     toString(kh) + "x" + toString(kw));
  int64_t tile = args.getInt("tile_size", 0);
  if (failed(checkWinogradSizes(args, tile, kh)))
    return RelationStatus::Failed;
  alpha = kh.isStatic() ? Dim::of(tile + kh.size - 1) : Dim::any();
  return RelationStatus::Solved;
}

/// [O, I, K, K] to [t + K - 1, t + K - 1, O, I].
static RelationStatus winogradWeightTransformRelation(RelationArgs &args) {
  TensorInfo weight;
  Dim alpha;
  if (RelationStatus s = readWinogradKernel(args, 4, "OIHW", weight, alpha);
      s != RelationStatus::Solved)
    return s;
  return args.solve(makeTensor(args.getContext(),
                               {alpha, alpha, weight.dims[0], weight.dims[1]},
                               weight.dtype));
}

/// Requires the attribute `name` (absent: ones) to be ones from axis
/// `from` on.
static LogicalResult expectOnes(RelationArgs &args, StringRef name,
                                size_t from = 0) {
  std::optional<SmallVector<int64_t>> values = args.getOptionalInts(name);
  if (!values || llvm::all_of(ArrayRef<int64_t>(*values).drop_front(
                                  std::min(from, values->size())),
                              [](int64_t v) { return v == 1; }))
    return success();
  std::string text, ones;
  llvm::raw_string_ostream os(text), onesOs(ones);
  llvm::interleaveComma(*values, os);
  for (size_t i = 0; i < values->size(); ++i)
    onesOs << (i ? ", " : "") << (i < from ? "*" : "1");
  args.fail("expected " + name + " [" + ones +
            "] for Winograd convolution, got [" + text + "]");
  return failure();
}

/// channels and the kernel_size of `rank` values, square in its last two:
/// Winograd convolution cannot infer them from its weight.
static FailureOr<std::pair<int64_t, SmallVector<int64_t>>>
readChannelsAndKernel(RelationArgs &args, size_t rank) {
  std::optional<int64_t> channels = args.getOptionalInt("channels");
  std::optional<SmallVector<int64_t>> kernel =
      args.getOptionalInts("kernel_size");
  if (!channels || !kernel) {
    args.fail("expected channels and kernel_size: Winograd convolution "
              "cannot infer them from its weight");
    return failure();
  }
  if (kernel->size() != rank || (*kernel)[rank - 2] != (*kernel)[rank - 1]) {
    args.fail("expected a kernel_size of " + Twine(rank) +
              " values, square in height and width, for Winograd "
              "convolution");
    return failure();
  }
  return std::make_pair(*channels, *kernel);
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
  FailureOr<std::pair<int64_t, SmallVector<int64_t>>> sizes =
      readChannelsAndKernel(args, 2);
  if (failed(sizes))
    return RelationStatus::Failed;
  auto [channels, kernel] = *sizes;
  int64_t k = kernel[0], tile = args.getInt("tile_size", 0);
  if (failed(checkWinogradSizes(args, tile, Dim::of(k))))
    return RelationStatus::Failed;

  Dim inChannels = data.dims[layout == "NCHW" ? 1 : 3];
  Dim out = Dim::of(channels), alpha = Dim::of(tile + k - 1);
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

  Type weight =
      makeTensor(ctx, {out, inChannels, Dim::of(k), Dim::of(k)}, data.dtype);
  return solveAsConvolution(args, "Conv2D", weight, "OIHW", {"tile_size"});
}

/// topi's rule for a 3-d kernel: its depth is transformed too when it is
/// a size Winograd matrices exist for and the kernel's height.
static bool depthTransformed(Dim kd, Dim kh) {
  return kd.isStatic() && kd.size >= 3 && kd.size <= 7 && kd == kh;
}

/// [O, I, KD, K, K] to [a, a, a, O, I] (depth transformed) or
/// [a, a, KD, O, I].
static RelationStatus winograd3dWeightTransformRelation(RelationArgs &args) {
  TensorInfo weight;
  Dim alpha;
  if (RelationStatus s = readWinogradKernel(args, 5, "OIDHW", weight, alpha);
      s != RelationStatus::Solved)
    return s;
  Dim kd = weight.dims[2], kh = weight.dims[3];
  Dim depth = depthTransformed(kd, kh) ? alpha : kd;
  if (!kd.isStatic() || !kh.isStatic())
    depth = Dim::any();
  return args.solve(makeTensor(
      args.getContext(), {alpha, alpha, depth, weight.dims[0], weight.dims[1]},
      weight.dtype));
}

/// nn.conv3d's relation for an OIDHW weight of `channels` x I x KD x K x
/// K; the transformed weight must be [a, a, a, O, I] or, depth not
/// transformed, [a, a, KD, O, I].
static RelationStatus winogradConv3dRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  if (data.getRank() != 5 || args.getString("data_layout", "NCDHW") != "NCDHW")
    return args.fail("expected 5-d NCDHW data for Winograd convolution, "
                     "got " +
                     typeStr(args.getInput(0)));
  StringRef outLayout = args.getString("out_layout", "");
  if (!outLayout.empty() && outLayout != "NCDHW")
    return args.fail("expected out_layout NCDHW (or empty), got \"" +
                     outLayout + "\"");
  if (args.getInt("groups", 1) != 1)
    return args.fail("expected one group for Winograd convolution, got " +
                     Twine(args.getInt("groups", 1)));
  FailureOr<std::pair<int64_t, SmallVector<int64_t>>> sizes =
      readChannelsAndKernel(args, 3);
  if (failed(sizes))
    return RelationStatus::Failed;
  auto [channels, kernel] = *sizes;
  int64_t kd = kernel[0], k = kernel[1], tile = args.getInt("tile_size", 0);
  if (failed(checkWinogradSizes(args, tile, Dim::of(k))))
    return RelationStatus::Failed;
  bool depth = depthTransformed(Dim::of(kd), Dim::of(k));
  if (failed(expectOnes(args, "strides", depth ? 0 : 1)) ||
      failed(expectOnes(args, "dilation")))
    return RelationStatus::Failed;
  MLIRContext *ctx = args.getContext();
  Dim in = data.dims[1], out = Dim::of(channels), alpha = Dim::of(tile + k - 1);
  if (failed(expectInputType(
          args, 1,
          makeTensor(ctx, {alpha, alpha, depth ? alpha : Dim::of(kd), out, in},
                     data.dtype),
          depth ? "the transformed weight ([a, a, a, O, I], a = tile_size + "
                  "K - 1)"
                : "the transformed weight ([a, a, KD, O, I] for a depth "
                  "outside 3 to 7 or unlike the height, a = tile_size + K - "
                  "1)")))
    return RelationStatus::Failed;
  Type weight = makeTensor(ctx, {out, in, Dim::of(kd), Dim::of(k), Dim::of(k)},
                           data.dtype);
  return solveAsConvolution(args, "Conv3D", weight, "OIDHW", {"tile_size"});
}

void mlir::relay::registerWinogradRelations() {
  registerTypeRelation("Conv3DWinogradWeightTransform",
                       winograd3dWeightTransformRelation);
  registerTypeRelation("Conv3DWinograd", winogradConv3dRelation);
  registerTypeRelation("Conv2DWinogradWeightTransform",
                       winogradWeightTransformRelation);
  registerTypeRelation("Conv2DWinograd", winogradConv2dRelation);
}

//===- ImageConverters.cpp - ONNX image sampling ops ------------*- C++ -*-===//
//
// Resize and Upsample, GridSample, AffineGrid, RoiAlign and MaxRoiPool:
// ops that sample images (NCHW; Resize also NCW and NCDHW data) at
// computed coordinates.
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/Converters.h"
#include "frontends/ONNX/Emitter.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

namespace {

/// Resize to `sizes` (input #3) computed when the model runs, or of images
/// whose sizes depend on the data: dyn.image.resize2d, its result's sizes
/// what is known of `sizes` at import.
LogicalResult resizeTo(NodeContext &ctx, Emitter &b, Value size,
                       ArrayRef<int64_t> sizes, StringRef mode,
                       StringRef coordinates, StringRef rounding);

LogicalResult convertDynamicResize(NodeContext &ctx, StringRef mode,
                                   StringRef coordinates, StringRef rounding) {
  if (ctx.rank(3) != 1 || !ctx.hasStaticShape(3) || ctx.shape(3)[0] != 4 ||
      !isa<IntegerType>(ctx.elementType(3)))
    return ctx.fail("sizes must be 4 integers (N, C, H, W)");
  if (ctx.attrInt("antialias", 0))
    return ctx.fail("antialias is not supported");
  if (ctx.hasAttr("axes"))
    return ctx.fail("the axes attribute is not supported with sizes "
                    "computed when the model runs");
  if (coordinates == "tf_crop_and_resize")
    return ctx.fail("tf_crop_and_resize's sizes (input #3) must be known when "
                    "importing, and its images' height and width");
  if (mode != "nearest" && mode != "linear" && mode != "bilinear" &&
      mode != "cubic")
    return ctx.fail("resize mode \"" + mode + "\" is not supported");
  ArrayRef<int64_t> in = ctx.shape(0);
  SmallVector<int64_t> known =
      knownIntValues(ctx.input(3))
          .value_or(SmallVector<int64_t>(4, ShapedType::kDynamic));
  for (unsigned d = 0; d < 2; ++d)
    if (!ShapedType::isDynamic(known[d]) && !ShapedType::isDynamic(in[d]) &&
        known[d] != in[d])
      return ctx.fail("only the H and W axes can be resized");
  Emitter b(ctx);
  Value size = b.op<StridedSliceOp>(
      {ctx.input(3)}, {ctx.ints("begin", {2}), ctx.ints("end", {4})});
  return resizeTo(ctx, b, size, {in[0], in[1], known[2], known[3]}, mode,
                  coordinates, rounding);
}

/// dyn.image.resize2d of input 0 (NCHW) to `size` (H and W, computed when
/// the model runs); `sizes` what is known of the result's.
LogicalResult resizeTo(NodeContext &ctx, Emitter &b, Value size,
                       ArrayRef<int64_t> sizes, StringRef mode,
                       StringRef coordinates, StringRef rounding) {
  SmallVector<NamedAttribute> attrs = {
      ctx.str("method", mode == "nearest" ? "nearest_neighbor"
                        : mode == "cubic" ? "cubic"
                                          : "linear"),
      ctx.str("coordinate_transformation_mode", coordinates),
      ctx.f64("cubic_alpha", ctx.attrFloat("cubic_coeff_a", -0.75)),
      ctx.i64("cubic_exclude", ctx.attrInt("exclude_outside", 0) != 0)};
  if (mode == "nearest")
    attrs.push_back(ctx.str("rounding_method", rounding));
  Value resized = b.op<DynResize2DOp>({ctx.input(0), size}, attrs);
  return b.output(refineKnownDims(ctx, b, resized, sizes));
}

/// Resize (opsets 11+) and Upsample (7-9) of NCW, NCHW or NCDHW data: for
/// NCHW images nn.upsampling for `nearest` with asymmetric coordinates
/// rounded down (what PyTorch's nearest interpolation exports) and `linear`
/// with half_pixel, pytorch_half_pixel or align_corners coordinates
/// (bilinear); image.resize1d/2d/3d for the other modes, coordinates,
/// roundings and ranks. Scales come from `scales` or, given `sizes`, from
/// output / input.
LogicalResult convertResize(NodeContext &ctx, bool upsample) {
  if (failed(ctx.checkInputs(1, upsample ? 2 : 4)))
    return failure();
  int64_t rank = ctx.rank(0);
  if (rank < 3 || rank > 5)
    return ctx.fail("only 3-d (NCW), 4-d (NCHW) and 5-d (NCDHW) data can be "
                    "resized, got " +
                    Twine(rank) + "-d");
  std::string mode = ctx.attrString("mode", "nearest");
  std::string coordinates = ctx.attrString(
      "coordinate_transformation_mode", upsample ? "asymmetric" : "half_pixel");
  std::string rounding =
      ctx.attrString("nearest_mode", upsample ? "floor" : "round_prefer_floor");
  ArrayRef<int64_t> in = ctx.shape(0);
  // Sizes computed when the model runs, or images whose height or width
  // depend on the data: dyn.image.resize2d. (A count or channels that
  // depend on the data are carried through: only H and W are resized.)
  bool staticImage = llvm::none_of(in.drop_front(2), ShapedType::isDynamic);
  bool axesGiven = ctx.hasAttr("axes");
  std::string policy = ctx.attrString("keep_aspect_ratio_policy", "stretch");
  if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller")
    return ctx.fail("unknown keep_aspect_ratio_policy '" + policy + "'");
  if (!upsample && ctx.hasInput(3) && (!ctx.constantInput(3) || !staticImage)) {
    if (axesGiven || policy != "stretch")
      return ctx.fail("axes and keep_aspect_ratio_policy need the sizes "
                      "known when importing");
    if (rank != 4)
      return ctx.fail("sizes computed when the model runs (or data whose "
                      "resized sizes depend on it) are supported for 4-d "
                      "(NCHW) images only");
    return convertDynamicResize(ctx, mode, coordinates, rounding);
  }
  // The scale of every axis: from `scales` or from `sizes`.
  SmallVector<double> scales;
  SmallVector<int64_t> sizes;
  unsigned scalesInput = upsample ? 1 : 2;
  if (upsample && ctx.hasAttr("scales")) {
    scales = ctx.attrFloats("scales");
  } else if (upsample && ctx.getOpset() < 7) {
    // The experimental Upsample of opset 1: height_scale and width_scale,
    // modes nearest and bilinear.
    if (!ctx.hasAttr("height_scale") || !ctx.hasAttr("width_scale"))
      return ctx.fail("attributes height_scale and width_scale are required");
    scales = {1.0, 1.0, ctx.attrFloat("height_scale", 1),
              ctx.attrFloat("width_scale", 1)};
    if (mode == "bilinear")
      mode = "linear";
  } else if (ElementsAttr known = ctx.constantInput(scalesInput);
             known && known.getNumElements() > 0) {
    scales = readDoubles(known);
  } else if (!upsample && ctx.hasInput(3)) {
    FailureOr<SmallVector<int64_t>> s = ctx.constantInts(3, "sizes");
    if (failed(s))
      return failure();
    sizes = *s;
  } else {
    return ctx.fail("the scales (or sizes) must be known when importing");
  }
  if (!staticImage) {
    // Whole scales of H and W (PyTorch's scale_factor=2): the output sizes
    // are the input's times them, whose ratio is the scale itself, so
    // dyn.image.resize2d computes what the scales ask for. A fractional
    // scale's coordinates differ from the sizes' ratio.
    auto whole = [](double v) { return v >= 1 && v == std::floor(v); };
    if (rank != 4 || !sizes.empty() || axesGiven || policy != "stretch" ||
        scales.size() != 4 || scales[0] != 1 || scales[1] != 1 ||
        !whole(scales[2]) || !whole(scales[3]) || ctx.attrInt("antialias", 0) ||
        coordinates == "tf_crop_and_resize" ||
        (mode != "nearest" && mode != "linear" && mode != "cubic"))
      return ctx.fail("resizing images whose height or width depend on the "
                      "data needs the output sizes (input #3) or whole "
                      "scales of H and W");
    Emitter b(ctx);
    Type i64 = IntegerType::get(ctx.getContext(), 64);
    Value hw = b.op<StridedSliceOp>(
        {b.op<ShapeOfOp>({ctx.input(0)}, {ctx.type("dtype", i64)})},
        {ctx.ints("begin", {2}), ctx.ints("end", {4})});
    Value factors = ctx.constant(DenseElementsAttr::get(
        RankedTensorType::get({2}, i64),
        ArrayRef<int64_t>{int64_t(scales[2]), int64_t(scales[3])}));
    auto scaled = [](int64_t d, double scale) {
      return ShapedType::isDynamic(d) ? d : int64_t(d * scale);
    };
    return resizeTo(
        ctx, b, b.mul(hw, factors),
        {in[0], in[1], scaled(in[2], scales[2]), scaled(in[3], scales[3])},
        mode, coordinates, rounding);
  }
  // Opset 18: the scales or sizes of the axes `axes` names (the others
  // keep their size), and sizes that keep the aspect ratio of those axes
  // (one scale, the smallest or the largest, for all of them).
  if (axesGiven || policy != "stretch") {
    SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    if (axesGiven) {
      FailureOr<SmallVector<int64_t>> given =
          ctx.distinctAxes(ctx.attrInts("axes"), rank);
      if (failed(given))
        return failure();
      axes = *given;
    }
    if (!sizes.empty()) {
      if (sizes.size() != axes.size())
        return ctx.fail("sizes has " + Twine(sizes.size()) + " values for " +
                        Twine(axes.size()) + " axes");
      if (policy != "stretch") {
        double scale = policy == "not_larger" ? INFINITY : 0.0;
        for (auto [i, d] : llvm::enumerate(axes)) {
          if (ShapedType::isDynamic(in[d]) || in[d] == 0)
            return ctx.fail("keep_aspect_ratio_policy needs the resized "
                            "axes' sizes known and not 0");
          double r = double(sizes[i]) / double(in[d]);
          scale =
              policy == "not_larger" ? std::min(scale, r) : std::max(scale, r);
        }
        for (auto [i, d] : llvm::enumerate(axes))
          sizes[i] = int64_t(std::round(scale * double(in[d])));
      }
      SmallVector<int64_t> all(in.begin(), in.end());
      for (auto [i, d] : llvm::enumerate(axes))
        all[d] = sizes[i];
      sizes = all;
    } else {
      if (scales.size() != axes.size())
        return ctx.fail("scales has " + Twine(scales.size()) + " values for " +
                        Twine(axes.size()) + " axes");
      SmallVector<double> all(rank, 1.0);
      for (auto [i, d] : llvm::enumerate(axes))
        all[d] = scales[i];
      scales = all;
    }
  }
  // tf_crop_and_resize: the crop of H and W that roi (input #1: the four
  // axes' starts, then their ends, as fractions) gives; the output's sizes
  // given, or the crop's times the scales.
  SmallVector<double> roi;
  bool crop = coordinates == "tf_crop_and_resize";
  if (crop) {
    ElementsAttr known = ctx.hasInput(1) ? ctx.constantInput(1) : nullptr;
    if (!known)
      return ctx.fail("tf_crop_and_resize needs the roi (input #1) known "
                      "when importing");
    roi = readDoubles(known);
    if ((int64_t)roi.size() != 2 * rank)
      return ctx.fail("roi must have " + Twine(2 * rank) +
                      " values (the starts, then the ends, of the " +
                      Twine(rank) + " axes)");
    if (roi[0] != 0 || roi[1] != 0 || roi[rank] != 1 || roi[rank + 1] != 1)
      return ctx.fail("the count and channel axes cannot be cropped");
    if (sizes.empty() && (int64_t)scales.size() == rank)
      for (int64_t d = 0; d < rank; ++d)
        sizes.push_back(
            d < 2 ? in[d]
                  : int64_t(std::floor(in[d] * (roi[d + rank] - roi[d]) *
                                       scales[d])));
  }
  if (!sizes.empty()) {
    if ((int64_t)sizes.size() != rank)
      return ctx.fail("sizes must have " + Twine(rank) + " values");
    for (int64_t d = 0; d < rank; ++d)
      scales.push_back(ShapedType::isDynamic(in[d])
                           ? 1.0
                           : double(sizes[d]) / double(in[d]));
  } else {
    if ((int64_t)scales.size() != rank)
      return ctx.fail("scales must have " + Twine(rank) + " values");
    // The product in float32, as ONNX Runtime computes it (and as PyTorch
    // means its scales): 5 x 1.4f is 7 there, 6.9999998 in double.
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(
          ShapedType::isDynamic(in[d])
              ? (scales[d] == 1.0 ? in[d] : -1)
              : int64_t(std::floor(float(in[d]) * float(scales[d]))));
  }
  for (unsigned d = 0; d < 2; ++d)
    if (sizes[d] != in[d] && !ShapedType::isDynamic(in[d]))
      return ctx.fail("the count and channel axes cannot be resized");
  if (sizes[0] == -1 || sizes[1] == -1)
    return ctx.fail("the count and channel axes cannot be resized (a scale "
                    "of one of them is not 1)");
  // ONNX's output is floor(in * scale): nudge a scale computed from sizes
  // up until it gives that size.
  for (int64_t d = 2; d < rank; ++d)
    while (int64_t(std::floor(in[d] * scales[d])) < sizes[d])
      scales[d] = std::nextafter(scales[d], INFINITY);
  if (ctx.attrInt("antialias", 0))
    return ctx.fail("antialias is not supported");
  bool exclude = ctx.attrInt("exclude_outside", 0) != 0;
  ArrayRef<int64_t> resized = ArrayRef(sizes).drop_front(2);
  if (crop && llvm::any_of(resized, [](int64_t d) { return d < 1; }))
    return ctx.fail("the crop's size must be positive");
  // nn.upsampling (TVM's) samples at steps of in / out, or (in - 1) /
  // (out - 1) with aligned corners, and sizes its result round(in * scale)
  // in float32; ONNX's coordinates follow the scale and its sizes floor.
  // The two agree where out = in * scale exactly (for a size known only at
  // run time, where the scale is whole): nearest with asymmetric floor
  // coordinates (PyTorch's nearest export) and linear with asymmetric or
  // aligned corners; half-pixel coordinates are image.resize2d's.
  auto exactAt = [&](int64_t d) {
    return std::abs(in[d] * scales[d] - double(sizes[d])) <= 1e-6;
  };
  bool exactScales = true;
  bool upsamplingAgrees = rank == 4;
  for (int64_t d = 2; d < rank; ++d) {
    exactScales &= exactAt(d);
    upsamplingAgrees &=
        ShapedType::isDynamic(in[d])
            ? scales[d] == std::floor(scales[d])
            : exactAt(d) &&
                  int64_t(std::nearbyint(float(in[d]) * float(scales[d]))) ==
                      sizes[d];
  }
  bool aligned = coordinates == "align_corners";
  if (upsamplingAgrees && mode == "nearest" && coordinates == "asymmetric" &&
      rounding == "floor")
    return ctx.output(ctx.op<UpSamplingOp>(
        {ctx.input(0)},
        {ctx.f64("scale_h", scales[2]), ctx.f64("scale_w", scales[3]),
         ctx.str("method", "nearest_neighbor")}));
  if (upsamplingAgrees && (mode == "linear" || mode == "bilinear") &&
      (aligned || coordinates == "asymmetric"))
    return ctx.output(ctx.op<UpSamplingOp>(
        {ctx.input(0)},
        {ctx.f64("scale_h", scales[2]), ctx.f64("scale_w", scales[3]),
         ctx.str("method", "bilinear"),
         ctx.boolean("align_corners", aligned)}));
  // Other modes and ranks: image.resize1d/2d/3d, whose coordinates follow
  // the output size unless it is given the scales (ONNX's follow the scale:
  // even aligned corners' divide by in * scale - 1, not by out - 1).
  if (mode != "nearest" && mode != "linear" && mode != "bilinear" &&
      mode != "cubic")
    return ctx.fail("resize mode \"" + mode + "\" is not supported");
  SmallVector<NamedAttribute> attrs = {
      ctx.ints("size", resized),
      ctx.str("method", mode == "nearest" ? "nearest_neighbor"
                        : mode == "cubic" ? "cubic"
                                          : "linear"),
      ctx.str("coordinate_transformation_mode", coordinates),
      ctx.f64("cubic_alpha", ctx.attrFloat("cubic_coeff_a", -0.75)),
      ctx.i64("cubic_exclude", exclude ? 1 : 0)};
  if (mode == "nearest")
    attrs.push_back(ctx.str("rounding_method", rounding));
  if (crop) {
    SmallVector<double> crops(roi.begin() + 2, roi.begin() + rank);
    crops.append(roi.begin() + rank + 2, roi.end());
    attrs.push_back(ctx.getBuilder().getNamedAttr(
        "roi", ctx.getBuilder().getDenseF64ArrayAttr(crops)));
    attrs.push_back(ctx.f64("extrapolation_value",
                            ctx.attrFloat("extrapolation_value", 0)));
  } else if (!exactScales) {
    static const char *const names[] = {"scale_d", "scale_h", "scale_w"};
    for (int64_t d = 2; d < rank; ++d)
      attrs.push_back(ctx.f64(names[3 - rank + d], scales[d]));
  }
  if (rank == 3)
    return ctx.output(ctx.op<Resize1DOp>({ctx.input(0)}, attrs));
  if (rank == 5)
    return ctx.output(ctx.op<Resize3DOp>({ctx.input(0)}, attrs));
  return ctx.output(ctx.op<Resize2DOp>({ctx.input(0)}, attrs));
}

/// GridSample: image.grid_sample with the grid's (x, y) axis moved to
/// axis 1 ([N, H_out, W_out, 2] to TVM's [N, 2, H_out, W_out]). Opset 20's
/// modes `linear` and `cubic` are opset 16's `bilinear` and `bicubic`.
LogicalResult convertGridSample(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 2)))
    return failure();
  if (ctx.rank(0) != 4 || ctx.rank(1) != 4 || ctx.shape(1)[3] != 2)
    return ctx.fail("only 2-d sampling is supported: an NCHW image and a "
                    "grid [N, H_out, W_out, 2]");
  std::string mode = ctx.attrString("mode", "bilinear");
  if (mode == "linear")
    mode = "bilinear";
  else if (mode == "cubic")
    mode = "bicubic";
  if (mode != "bilinear" && mode != "nearest" && mode != "bicubic")
    return ctx.fail("mode \"" + mode + "\" is not supported");
  std::string padding = ctx.attrString("padding_mode", "zeros");
  if (padding != "zeros" && padding != "border" && padding != "reflection")
    return ctx.fail("padding_mode \"" + padding + "\" is not supported");
  FailureOr<Value> grid =
      ctx.op<TransposeOp>({ctx.input(1)}, {ctx.ints("axes", {0, 3, 1, 2})});
  if (failed(grid))
    return failure();
  return ctx.output(ctx.op<GridSampleOp>(
      {ctx.input(0), *grid},
      {ctx.str("method", mode), ctx.str("padding_mode", padding),
       ctx.boolean("align_corners", ctx.attrInt("align_corners", 0) != 0)}));
}

/// RoiAlign (opsets 10, 16): vision.roi_align over rois [R, 4] with the
/// batch indices [R] as their first column (TVM's rois [R, 5]). Opset 16's
/// default half_pixel coordinates are the operator's `aligned`; opset 10
/// has output_half_pixel's alone. Mode max is ONNX Runtime's maximum over
/// each sample's four weighted taps, not the maximum of interpolated
/// samples that vision.roi_align's max takes: not supported; nor is the
/// adaptive sampling grid (sampling_ratio 0, the default).
LogicalResult convertRoiAlign(NodeContext &ctx) {
  if (failed(ctx.checkInputs(3, 3)))
    return failure();
  if (ctx.rank(0) != 4 || ctx.rank(1) != 2 || ctx.shape(1)[1] != 4 ||
      ctx.rank(2) != 1)
    return ctx.fail("expected X [N, C, H, W], rois [R, 4] and batch_indices "
                    "[R]");
  std::string mode = ctx.attrString("mode", "avg");
  if (mode == "max")
    return ctx.fail("mode \"max\" (ONNX Runtime's maximum of each sample's "
                    "weighted taps) is not supported, only \"avg\"");
  if (mode != "avg")
    return ctx.fail("mode \"" + mode + "\" is not supported");
  std::string coords =
      ctx.attrString("coordinate_transformation_mode",
                     ctx.getOpset() >= 16 ? "half_pixel" : "output_half_pixel");
  if (coords != "half_pixel" && coords != "output_half_pixel")
    return ctx.fail("coordinate_transformation_mode \"" + coords +
                    "\" is not supported");
  // 0: the adaptive grid, ceil(region size / output size) points per bin
  // side (interpreted: native code takes a fixed sampling_ratio).
  int64_t ratio = std::max<int64_t>(ctx.attrInt("sampling_ratio", 0), 0);
  Emitter b(ctx);
  Value index =
      b.op<CastOp>({ctx.input(2)}, {ctx.type("dtype", ctx.elementType(1))});
  // -1: as many regions as there are (a detector's depend on the data).
  Value column = b.op<ReshapeOp>({index}, {ctx.ints("newshape", {-1, 1})});
  Value rois = b.op<ConcatenateOp>({ctx.tuple({column, ctx.input(1)})},
                                   {ctx.i64("axis", 1)});
  if (!b.succeeded())
    return failure();
  return ctx.output(ctx.op<RoiAlignOp>(
      {ctx.input(0), rois},
      {ctx.ints("pooled_size", {ctx.attrInt("output_height", 1),
                                ctx.attrInt("output_width", 1)}),
       ctx.f64("spatial_scale", ctx.attrFloat("spatial_scale", 1.0)),
       ctx.i64("sample_ratio", ratio),
       ctx.boolean("aligned", coords == "half_pixel")}));
}

/// MaxRoiPool (opset 1): vision.roi_pool (rois [R, 5] as TVM's; ONNX
/// Runtime's bins are TVM's without the 1e-5 that guards their floor and
/// ceil against rounding error).
LogicalResult convertMaxRoiPool(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 2)))
    return failure();
  SmallVector<int64_t> pooled = ctx.attrInts("pooled_shape");
  if (pooled.size() != 2)
    return ctx.fail("the pooled_shape attribute (height, width) is required");
  return ctx.output(ctx.op<RoiPoolOp>(
      {ctx.input(0), ctx.input(1)},
      {ctx.ints("pooled_size", pooled),
       ctx.f64("spatial_scale", ctx.attrFloat("spatial_scale", 1.0))}));
}

/// AffineGrid (opset 20): the sampling grid [N, H, W, 2] (or [N, D, H, W,
/// 3]) that GridSample takes, each output pixel's normalised coordinates
/// (x, y[, z], 1) times theta [N, 2, 3] (or [N, 3, 4]): a batched product
/// with a constant of the pixels' coordinates.
LogicalResult convertAffineGrid(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 2)))
    return failure();
  FailureOr<SmallVector<int64_t>> size = ctx.constantInts(1, "size");
  if (failed(size))
    return failure();
  if (size->size() != 4 && size->size() != 5)
    return ctx.fail("size must be [N, C, H, W] or [N, C, D, H, W], got " +
                    Twine(size->size()) + " values");
  int64_t dims = size->size() - 2, n = size->front();
  Type e = ctx.elementType(0);
  if (!isa<FloatType>(e))
    return ctx.fail("theta must be floating-point");
  if (ctx.rank(0) != 3 || ctx.shape(0)[0] != n || ctx.shape(0)[1] != dims ||
      ctx.shape(0)[2] != dims + 1)
    return ctx.fail("theta must be [" + Twine(n) + ", " + Twine(dims) + ", " +
                    Twine(dims + 1) + "] for this size");
  SmallVector<int64_t> spatial(size->begin() + 2, size->end());
  int64_t pixels = 1;
  for (int64_t s : spatial) {
    if (s < 1)
      return ctx.fail("size must be positive");
    pixels *= s;
  }
  if (pixels > (int64_t(1) << 24))
    return ctx.fail("a grid of " + Twine(pixels) + " pixels is too large");
  bool aligned = ctx.attrInt("align_corners", 0) != 0;
  // Pixel i of an axis of s at -1 + (2i + 1) / s, or at -1 + 2i / (s - 1)
  // with aligned corners (0 where s is 1).
  auto coordinate = [&](int64_t i, int64_t s) {
    if (aligned)
      return s == 1 ? 0.0 : -1.0 + 2.0 * i / double(s - 1);
    return -1.0 + (2.0 * i + 1) / double(s);
  };
  // Row p: (x, y[, z], 1) for pixel p in row-major order of (D,) H, W; x
  // runs along W, the last axis.
  SmallVector<Attribute> base;
  SmallVector<int64_t> index(dims, 0);
  for (int64_t p = 0; p < pixels; ++p) {
    for (int64_t d = dims - 1; d >= 0; --d)
      base.push_back(FloatAttr::get(e, coordinate(index[d], spatial[d])));
    base.push_back(FloatAttr::get(e, 1.0));
    for (int64_t d = dims - 1; d >= 0 && ++index[d] == spatial[d]; --d)
      index[d] = 0;
  }
  Value coords = ctx.constant(DenseElementsAttr::get(
      RankedTensorType::get({1, pixels, dims + 1}, e), base));
  Emitter b(ctx);
  coords =
      b.op<BroadcastToOp>({coords}, {ctx.ints("shape", {n, pixels, dims + 1})});
  // [N, pixels, dims + 1] times theta [N, dims, dims + 1] transposed.
  Value grid = b.op<BatchMatmulOp>({coords, ctx.input(0)},
                                   {ctx.boolean("transpose_b", true)});
  SmallVector<int64_t> shape = {n};
  shape.append(spatial);
  shape.push_back(dims);
  return b.output(b.op<ReshapeOp>({grid}, {ctx.ints("newshape", shape)}));
}
} // namespace

void mlir::relay::onnx_import::addImageConverters(ConverterTable &t) {
  t["Resize"] = [](NodeContext &ctx) { return convertResize(ctx, false); };
  t["Upsample"] = [](NodeContext &ctx) { return convertResize(ctx, true); };
  t["GridSample"] = convertGridSample;
  t["AffineGrid"] = convertAffineGrid;
  t["RoiAlign"] = convertRoiAlign;
  t["MaxRoiPool"] = convertMaxRoiPool;
}

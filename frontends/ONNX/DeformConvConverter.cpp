//===- DeformConvConverter.cpp - ONNX's DeformConv ------------------------===//
//
// DeformConv (opset 19): a 2-d convolution whose taps read the input at
// positions moved by learned offsets (and, with a mask, scaled: DCNv2), as
// torchvision's deform_conv2d computes it. Composed from relay operators:
// each tap's position for every output pixel, the bilinear interpolation
// of the input there (image.grid_sample with zeros outside the image), the
// mask, then one batched product per group with the weights.
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/Emitter.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

namespace {

/// The geometry of a DeformConv node, checked against its inputs.
struct Geometry {
  int64_t n, c, h, w; // input
  int64_t o, kh, kw;  // weights
  int64_t oh, ow;     // output
  int64_t groups, offsetGroups;
  SmallVector<int64_t> strides, dilations, pads; // pads: top, left, ...

  int64_t taps() const { return kh * kw; }
  int64_t pixels() const { return oh * ow; }
};

FailureOr<Geometry> readGeometry(NodeContext &ctx) {
  if (ctx.rank(0) != 4 || ctx.rank(1) != 4 || ctx.rank(2) != 4)
    return ctx.fail("only 2-d deformable convolutions are supported: X, W "
                    "and offset must be 4-d");
  Geometry g;
  ArrayRef<int64_t> x = ctx.shape(0), wt = ctx.shape(1);
  g.n = x[0], g.c = x[1], g.h = x[2], g.w = x[3];
  g.o = wt[0], g.kh = wt[2], g.kw = wt[3];
  SmallVector<int64_t> kernel = ctx.attrInts("kernel_shape", {g.kh, g.kw});
  if (kernel != SmallVector<int64_t>{g.kh, g.kw})
    return ctx.fail("kernel_shape must be W's spatial shape [" + Twine(g.kh) +
                    ", " + Twine(g.kw) + "]");
  g.strides = ctx.attrInts("strides", {1, 1});
  g.dilations = ctx.attrInts("dilations", {1, 1});
  g.pads = ctx.attrInts("pads", {0, 0, 0, 0});
  if (g.strides.size() != 2 || g.dilations.size() != 2 || g.pads.size() != 4)
    return ctx.fail("strides and dilations need 2 values, pads 4");
  if (llvm::any_of(g.strides, [](int64_t v) { return v < 1; }) ||
      llvm::any_of(g.dilations, [](int64_t v) { return v < 1; }) ||
      llvm::any_of(g.pads, [](int64_t v) { return v < 0; }))
    return ctx.fail("strides and dilations must be positive, pads not "
                    "negative");
  g.groups = ctx.attrInt("group", 1);
  g.offsetGroups = ctx.attrInt("offset_group", 1);
  if (g.groups < 1 || g.c % g.groups || g.o % g.groups ||
      wt[1] * g.groups != g.c)
    return ctx.fail("group " + Twine(g.groups) + " must divide X's " +
                    Twine(g.c) + " and W's " + Twine(g.o) +
                    " channels, W's second axis being X's channels per group");
  if (g.offsetGroups < 1 || g.c % g.offsetGroups)
    return ctx.fail("offset_group " + Twine(g.offsetGroups) +
                    " must divide X's " + Twine(g.c) + " channels");
  auto outSize = [](int64_t in, int64_t lo, int64_t hi, int64_t k,
                    int64_t dilation, int64_t stride) {
    return (in + lo + hi - dilation * (k - 1) - 1) / stride + 1;
  };
  g.oh = outSize(g.h, g.pads[0], g.pads[2], g.kh, g.dilations[0], g.strides[0]);
  g.ow = outSize(g.w, g.pads[1], g.pads[3], g.kw, g.dilations[1], g.strides[1]);
  if (g.oh < 1 || g.ow < 1)
    return ctx.fail("the kernel is larger than the padded input");
  auto expect = [&](unsigned i, StringRef what,
                    ArrayRef<int64_t> shape) -> LogicalResult {
    if (ctx.shape(i) == shape)
      return success();
    return ctx.fail(what + " must have shape " + shapeString(shape) + ", got " +
                    shapeString(ctx.shape(i)));
  };
  int64_t k = g.taps();
  if (failed(expect(2, "offset", {g.n, g.offsetGroups * k * 2, g.oh, g.ow})) ||
      (ctx.hasInput(3) && failed(expect(3, "B", {g.o}))) ||
      (ctx.hasInput(4) &&
       failed(expect(4, "mask", {g.n, g.offsetGroups * k, g.oh, g.ow}))))
    return failure();
  return g;
}

LogicalResult convertDeformConv(NodeContext &ctx) {
  if (failed(ctx.checkInputs(3, 5)))
    return failure();
  Type f = ctx.elementType(0);
  if (!isa<FloatType>(f))
    return ctx.fail("X must hold floating-point values");
  FailureOr<Geometry> geo = readGeometry(ctx);
  if (failed(geo))
    return failure();
  const Geometry &g = *geo;
  Emitter b(ctx);
  auto reshape = [&](Value v, ArrayRef<int64_t> shape) {
    return b.op<ReshapeOp>({v}, {ctx.ints("newshape", shape)});
  };
  int64_t k = g.taps(), p = g.pixels(), dg = g.offsetGroups;
  int64_t batches = g.n * dg, perGroup = g.c / dg;

  // Each tap's position at each output pixel before its offset, [K, P]:
  // row oh * stride - pad + kh * dilation, likewise the column.
  SmallVector<float> rows, cols;
  for (int64_t i = 0; i < g.kh; ++i)
    for (int64_t j = 0; j < g.kw; ++j)
      for (int64_t y = 0; y < g.oh; ++y)
        for (int64_t x = 0; x < g.ow; ++x) {
          rows.push_back(
              float(y * g.strides[0] - g.pads[0] + i * g.dilations[0]));
          cols.push_back(
              float(x * g.strides[1] - g.pads[1] + j * g.dilations[1]));
        }
  // A position as image.grid_sample's normalised coordinate (without
  // aligned corners: pixel x at (2x + 1) / size - 1).
  auto grid = [&](ArrayRef<float> v, int64_t size) {
    SmallVector<float> normalised;
    for (float x : v)
      normalised.push_back(float((2.0 * x + 1) / size - 1));
    auto type =
        RankedTensorType::get({1, 1, k, p}, Float32Type::get(ctx.getContext()));
    return b.castTo(
        ctx.constant(DenseElementsAttr::get(type, ArrayRef(normalised))), f);
  };
  // offset's channels are (offset group, tap, y then x).
  Value offset = reshape(ctx.input(2), {g.n, dg, k, 2, p});
  auto coordinate = [&](int64_t field, ArrayRef<float> base, int64_t size) {
    Value moved =
        b.mul(b.take(offset, field, 3), b.scalar(2.0 / double(size), offset));
    return reshape(b.add(moved, grid(base, size)), {batches, 1, k, p});
  };
  Value positions = b.op<ConcatenateOp>(
      {ctx.tuple({coordinate(1, cols, g.w), coordinate(0, rows, g.h)})},
      {ctx.i64("axis", 1)}); // [N * dg, 2 (x, y), K, P]

  // Bilinear interpolation, zero outside the image (torchvision's).
  Value image = reshape(ctx.input(0), {batches, perGroup, g.h, g.w});
  Value sampled = b.op<GridSampleOp>(
      {image, positions},
      {ctx.boolean("align_corners", false), ctx.str("padding_mode", "zeros")});
  sampled = reshape(sampled, {batches, perGroup, k * p});
  if (ctx.hasInput(4))
    sampled = b.mul(sampled, reshape(ctx.input(4), {batches, 1, k * p}));

  // One product per image and group: W [G, O/G, C/G * K] times the
  // sampled columns [C/G * K, P] (channel-major, as W is laid out).
  int64_t groups = g.groups, inPerGroup = g.c / groups * k;
  Value columns = reshape(sampled, {g.n * groups, inPerGroup, p});
  Value weights = reshape(ctx.input(1), {1, groups, g.o / groups, inPerGroup});
  weights = b.op<BroadcastToOp>(
      {weights}, {ctx.ints("shape", {g.n, groups, g.o / groups, inPerGroup})});
  weights = reshape(weights, {g.n * groups, g.o / groups, inPerGroup});
  Value y = b.op<BatchMatmulOp>({weights, columns},
                                {ctx.boolean("transpose_b", false)});
  y = reshape(y, {g.n, g.o, g.oh, g.ow});
  if (ctx.hasInput(3))
    y = b.add(y, reshape(ctx.input(3), {g.o, 1, 1}));
  return b.output(y);
}

} // namespace

void mlir::relay::onnx_import::addDeformConvConverter(ConverterTable &t) {
  t["DeformConv"] = convertDeformConv;
}

//===- PoolIndexConverters.cpp - MaxPool's indices, MaxUnpool ---*- C++ -*-===//
//
// MaxPool's second output holds, for each window, the flat index of its
// maximum in the input (N x C x H x W, row-major, or with storage_order 1
// each image column-major). Every window's taps are gathered through a
// constant map (out-of-image taps read an appended lowest value), argmax
// picks the tap, and a constant table turns (window, tap) into the index.
// MaxUnpool scatters its values to such indices in a zero tensor
// (scatter_elements), the indices read in the shape the pooling had and
// placed at the same coordinates of a larger output_shape.
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/Converters.h"
#include "frontends/ONNX/Emitter.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

namespace {

Type i64Type(NodeContext &ctx) {
  return IntegerType::get(ctx.getContext(), 64);
}

Value i64Constant(NodeContext &ctx, ArrayRef<int64_t> shape,
                  ArrayRef<int64_t> values) {
  return ctx.constant(i64Elements(ctx.getContext(), shape, values));
}

/// The lowest value of `element`: what an out-of-image tap reads.
Attribute lowestValue(Type element) {
  if (auto f = dyn_cast<FloatType>(element))
    return FloatAttr::get(
        f, APFloat::getInf(f.getFloatSemantics(), /*Negative=*/true));
  unsigned width = element.getIntOrFloatBitWidth();
  return IntegerAttr::get(element, element.isUnsignedInteger()
                                       ? APInt::getMinValue(width)
                                       : APInt::getSignedMinValue(width));
}

} // namespace

Value mlir::relay::onnx_import::maxPoolIndices(
    NodeContext &ctx, Emitter &b, Value input, Value pooled,
    ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
    ArrayRef<int64_t> dilations, ArrayRef<int64_t> pads, bool columnMajor) {
  if (!input || !pooled)
    return b.abandon();
  auto inType = cast<RankedTensorType>(input.getType());
  auto outType = cast<RankedTensorType>(pooled.getType());
  if (!inType.hasStaticShape() || !outType.hasStaticShape()) {
    (void)ctx.fail("the indices (output #1) need static shapes");
    return b.abandon();
  }
  ArrayRef<int64_t> in = inType.getShape(), out = outType.getShape();
  int64_t n = in[0], c = in[1], h = in[2], w = in[3];
  int64_t windows = out[2] * out[3], taps = kernel[0] * kernel[1];
  int64_t pixels = h * w;
  // Per (window, tap): the pixel it reads (`pixels`: the appended lowest
  // value) and that pixel's index in the storage order.
  SmallVector<int64_t> reads, stored;
  for (int64_t oy = 0; oy < out[2]; ++oy)
    for (int64_t ox = 0; ox < out[3]; ++ox)
      for (int64_t i = 0; i < kernel[0]; ++i)
        for (int64_t j = 0; j < kernel[1]; ++j) {
          int64_t y = oy * strides[0] - pads[0] + i * dilations[0];
          int64_t x = ox * strides[1] - pads[1] + j * dilations[1];
          bool inside = y >= 0 && y < h && x >= 0 && x < w;
          reads.push_back(inside ? y * w + x : pixels);
          stored.push_back(!inside ? 0 : columnMajor ? x * h + y : y * w + x);
        }
  Type element = inType.getElementType();
  Value lowest = ctx.constant(DenseElementsAttr::get(
      RankedTensorType::get({n, c, 1}, element), lowestValue(element)));
  Value flat = b.op<ReshapeOp>({input}, {ctx.ints("newshape", {n, c, pixels})});
  Value padded =
      b.op<ConcatenateOp>({ctx.tuple({flat, lowest})}, {ctx.i64("axis", 2)});
  if (!padded)
    return padded;
  Value gathered = b.op<TakeOp>(
      {padded, i64Constant(ctx, {windows, taps}, reads)}, {ctx.i64("axis", 2)});
  Value tap = b.op<ArgmaxOp>({gathered}, {ctx.ints("axis", {3})});
  tap = b.op<CastOp>({tap}, {ctx.type("dtype", i64Type(ctx))});
  // (window, tap) -> window * taps + tap in the flattened table.
  SmallVector<int64_t> rows;
  for (int64_t o = 0; o < windows; ++o)
    rows.push_back(o * taps);
  Value at = b.add(tap, i64Constant(ctx, {windows}, rows));
  Value index = b.op<TakeOp>({i64Constant(ctx, {windows * taps}, stored), at});
  // Each image's indices follow the previous images'.
  SmallVector<int64_t> offsets;
  for (int64_t k = 0; k < n * c; ++k)
    offsets.push_back(k * pixels);
  index = b.add(index, i64Constant(ctx, {n, c, 1}, offsets));
  return b.op<ReshapeOp>({index}, {ctx.ints("newshape", out)});
}

namespace {

LogicalResult convertMaxUnpool(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 3)))
    return failure();
  FailureOr<int64_t> spatialRank = ctx.spatialRank(0);
  if (failed(spatialRank))
    return failure();
  int64_t rank = *spatialRank;
  if (!ctx.hasStaticShape(0) || ctx.shape(1) != ctx.shape(0))
    return ctx.fail("the values and indices must have one static shape");
  if (!isa<IntegerType>(ctx.elementType(1)))
    return ctx.fail("the indices must be integers");
  ArrayRef<int64_t> in = ctx.shape(0);
  size_t spatial = rank - 2;
  SmallVector<int64_t> kernel = ctx.attrInts("kernel_shape");
  SmallVector<int64_t> strides = ctx.hasAttr("strides")
                                     ? ctx.attrInts("strides")
                                     : SmallVector<int64_t>(spatial, 1);
  SmallVector<int64_t> pads = ctx.hasAttr("pads")
                                  ? ctx.attrInts("pads")
                                  : SmallVector<int64_t>(2 * spatial, 0);
  if (kernel.size() != spatial || strides.size() != spatial ||
      pads.size() != 2 * spatial)
    return ctx.fail("kernel_shape and strides need " + Twine(spatial) +
                    " values, pads " + Twine(2 * spatial));
  for (size_t d = 0; d < spatial; ++d)
    if (kernel[d] < 1 || strides[d] < 1 || pads[d] < 0 || pads[d + spatial] < 0)
      return ctx.fail("kernel_shape and strides must be positive, pads not "
                      "negative");
  // The shape the pooling had, which the indices count in.
  SmallVector<int64_t> pooledFrom(in.take_front(2));
  for (size_t d = 0; d < spatial; ++d) {
    pooledFrom.push_back((in[d + 2] - 1) * strides[d] + kernel[d] - pads[d] -
                         pads[d + spatial]);
    if (pooledFrom.back() < 1)
      return ctx.fail("the pads leave no pooled-from size along axis " +
                      Twine(d + 2));
  }
  SmallVector<int64_t> shape = pooledFrom;
  if (ctx.hasInput(2)) {
    FailureOr<SmallVector<int64_t>> given = ctx.constantInts(2, "output_shape");
    if (failed(given))
      return failure();
    if (given->size() != size_t(rank) || (*given)[0] != in[0] ||
        (*given)[1] != in[1])
      return ctx.fail("output_shape must have the data's rank, batch and "
                      "channels");
    for (size_t d = 0; d < spatial; ++d)
      if ((*given)[d + 2] < pooledFrom[d + 2])
        return ctx.fail("output_shape is smaller than the pooled shape");
    shape = *given;
  }
  Emitter b(ctx);
  Value index = b.op<CastOp>({ctx.input(1)}, {ctx.type("dtype", i64Type(ctx))});
  if (shape != pooledFrom) {
    // Each index's coordinates in the pooled-from shape, at the same
    // coordinates of the output.
    auto scalar = [&](int64_t v) { return ctx.scalar(v, i64Type(ctx)); };
    int64_t pixels =
        ShapedType::getNumElements(ArrayRef<int64_t>(pooledFrom).drop_front(2));
    int64_t outPixels =
        ShapedType::getNumElements(ArrayRef<int64_t>(shape).drop_front(2));
    Value rest = b.op<FloorModOp>({index, scalar(pixels)});
    Value moved =
        b.mul(b.op<FloorDivideOp>({index, scalar(pixels)}), scalar(outPixels));
    for (int64_t d = rank - 1, stride = 1; d >= 2; --d) {
      Value coordinate = b.op<FloorModOp>({rest, scalar(pooledFrom[d])});
      rest = b.op<FloorDivideOp>({rest, scalar(pooledFrom[d])});
      moved = b.add(moved, b.mul(coordinate, scalar(stride)));
      stride *= shape[d];
    }
    index = moved;
  }
  int64_t count = ShapedType::getNumElements(in), total = 1;
  for (int64_t d : shape) {
    if (d > (int64_t(1) << 40) / total)
      return ctx.fail("output_shape holds too many elements");
    total *= d;
  }
  Type element = ctx.elementType(0);
  Value zeros = ctx.constant(DenseElementsAttr::get(
      RankedTensorType::get({total}, element),
      isa<FloatType>(element) ? Attribute(FloatAttr::get(element, 0.0))
                              : Attribute(IntegerAttr::get(element, 0))));
  Value y = b.op<ScatterElementsOp>(
      {zeros, b.op<ReshapeOp>({index}, {ctx.ints("newshape", {count})}),
       b.op<ReshapeOp>({ctx.input(0)}, {ctx.ints("newshape", {count})})});
  return b.output(b.op<ReshapeOp>({y}, {ctx.ints("newshape", shape)}));
}

} // namespace

void mlir::relay::onnx_import::addPoolIndexConverters(ConverterTable &t) {
  t["MaxUnpool"] = convertMaxUnpool;
}

//===- NNConverters.cpp - ONNX neural-network ops ---------------*- C++ -*-===//
//
// Conv, pooling, normalisation, Gemm/MatMul and softmax. Relay's 2-d ops
// take NCHW data and OIHW weights (3-d ones NCDHW and OIDHW), which is
// ONNX's layout, so only padding conventions (auto_pad) and optional inputs
// (bias) need translating.
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/Converters.h"
#include "frontends/ONNX/Emitter.h"

#include "llvm/ADT/Sequence.h"

#include <cmath>
#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

namespace {

/// Explicit pads for a window op, ONNX's order (every axis's start, then
/// every axis's end: [top, left, bottom, right] in 2-d): `pads`, or what
/// auto_pad SAME_UPPER/SAME_LOWER/VALID implies. A 1-d op (`oneD`, lifted
/// to 2-d with a height of 1) has pads [left, right].
FailureOr<SmallVector<int64_t>>
windowPadding(NodeContext &ctx, ArrayRef<int64_t> in, ArrayRef<int64_t> kernel,
              ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
              bool oneD = false, bool padded = false) {
  size_t rank = kernel.size(), written = oneD ? 1 : rank;
  // SAME padding divides by the strides: check them (and the dilations)
  // here, before the relation would.
  for (auto [what, values] :
       {std::pair("strides", strides), std::pair("dilations", dilations)})
    for (int64_t v : values)
      if (v <= 0)
        return ctx.fail(Twine(what) + " must be positive, got " + Twine(v));
  std::string autoPad = ctx.attrString("auto_pad", "NOTSET");
  if (autoPad == "NOTSET") {
    SmallVector<int64_t> pads =
        ctx.attrInts("pads", SmallVector<int64_t>(2 * written, 0));
    if (pads.size() != 2 * written)
      return ctx.fail("pads must have " + Twine(2 * written) +
                      " values for a " + Twine(written) + "-d window");
    if (oneD)
      return SmallVector<int64_t>{0, pads[0], 0, pads[1]};
    return pads;
  }
  // (`padded`: padSameAtRunTime padded the input.)
  if (autoPad == "VALID" || padded)
    return SmallVector<int64_t>(2 * rank, 0);
  if (autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER")
    return ctx.fail("unknown auto_pad '" + autoPad + "'");
  SmallVector<int64_t> begin, end;
  for (size_t d = 0; d < rank; ++d) {
    // A size known only when it runs: SAME pads it by (k - 1) * dilation
    // at stride 1; at larger strides the padding depends on it.
    int64_t total = (kernel[d] - 1) * dilations[d];
    if (ShapedType::isDynamic(in[d])) {
      if (strides[d] != 1)
        return ctx.fail(
            "auto_pad " + autoPad +
            " with a stride above 1 on a size known only at run time pads "
            "by that size, which an average pool that leaves the padding "
            "out (count_include_pad 0) or max pooling's indices cannot take "
            "(give explicit pads)");
    } else {
      int64_t out = (in[d] + strides[d] - 1) / strides[d];
      total = std::max<int64_t>(0, (out - 1) * strides[d] + total + 1 - in[d]);
    }
    int64_t small = total / 2, large = total - small;
    begin.push_back(autoPad == "SAME_UPPER" ? small : large);
    end.push_back(autoPad == "SAME_UPPER" ? large : small);
  }
  begin.append(end);
  return begin;
}

/// A window attribute of a 2-d op, or of a 1-d op lifted to 2-d (`fill`
/// for the height); `dflt` is the 2-d default.
SmallVector<int64_t> windowAttr(NodeContext &ctx, StringRef name,
                                ArrayRef<int64_t> dflt, bool oneD,
                                int64_t fill) {
  if (!ctx.hasAttr(name))
    return SmallVector<int64_t>(dflt);
  SmallVector<int64_t> v = ctx.attrInts(name);
  if (oneD)
    v.insert(v.begin(), fill);
  return v;
}

/// SAME padding of a 2-d image (NCHW, a 1-d one lifted) whose height or
/// width is known only when it runs, at a stride above 1, where the
/// padding depends on that size: the image padded by `value` when it runs,
/// as SAME pads it, after which the window op pads nothing. Null where
/// the padding is known at import (then windowPadding gives it).
Value padSameAtRunTime(NodeContext &ctx, Emitter &b, Value input,
                       ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                       ArrayRef<int64_t> dilations, double value) {
  std::string autoPad = ctx.attrString("auto_pad", "NOTSET");
  auto type = cast<RankedTensorType>(input.getType());
  if ((autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER") ||
      type.getRank() != 4 || kernel.size() != 2 || strides.size() != 2 ||
      dilations.size() != 2 ||
      !llvm::any_of(llvm::seq<size_t>(0, 2), [&](size_t d) {
        return ShapedType::isDynamic(type.getDimSize(d + 2)) && strides[d] != 1;
      }))
    return {};
  Type i64 = IntegerType::get(ctx.getContext(), 64);
  auto scalar = [&](int64_t v) { return ctx.scalar(v, i64); };
  Value shape = b.op<ShapeOfOp>({input}, {ctx.type("dtype", i64)});
  SmallVector<Value> rows = {ctx.constant(DenseElementsAttr::get(
      RankedTensorType::get({2, 2}, i64), ArrayRef<int64_t>{0, 0, 0, 0}))};
  for (size_t d = 0; d < 2; ++d) {
    // out = ceil(in / s); total = max(0, (out - 1) s + (k - 1) dil + 1 -
    // in); SAME_UPPER puts the smaller half first.
    Value in = b.take(shape, d + 2, 0);
    Value out =
        b.op<DivideOp>({b.add(in, scalar(strides[d] - 1)), scalar(strides[d])});
    Value total = b.op<MaximumOp>(
        {scalar(0),
         b.op<SubtractOp>({b.add(b.mul(b.op<SubtractOp>({out, scalar(1)}),
                                       scalar(strides[d])),
                                 scalar((kernel[d] - 1) * dilations[d] + 1)),
                           in})});
    Value small = b.op<DivideOp>({total, scalar(2)});
    Value large = b.op<SubtractOp>({total, small});
    Value first = autoPad == "SAME_UPPER" ? small : large;
    Value second = autoPad == "SAME_UPPER" ? large : small;
    rows.push_back(b.op<ReshapeOp>({b.stack({first, second}, 0)},
                                   {ctx.ints("newshape", {1, 2})}));
  }
  Value widths = b.op<ConcatenateOp>({ctx.tuple(rows)}, {ctx.i64("axis", 0)});
  Value padded = b.op<DynPadOp>(
      {input, widths, ctx.scalar(value, type.getElementType())}, {});
  // dyn.nn.pad makes every size `?`: the count and channels stay.
  return refineKnownDims(ctx, b, padded,
                         {type.getDimSize(0), type.getDimSize(1),
                          ShapedType::kDynamic, ShapedType::kDynamic});
}

/// `v` with a height of 1 inserted after N and C ([N, C, W] to
/// [N, C, 1, W]).
Value liftTo2d(NodeContext &ctx, Emitter &b, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  // (A length known only when it runs: the same as a new axis.)
  if (!type.hasStaticShape())
    return b.op<ExpandDimsOp>({v}, {ctx.i64("axis", 2)});
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(shape.begin() + 2, 1);
  return b.op<ReshapeOp>({v}, {ctx.ints("newshape", shape)});
}

/// `v` [N, C, 1, W] back to [N, C, W].
Value dropHeight(NodeContext &ctx, Emitter &b, Value v) {
  if (!v)
    return Value(); // already reported
  auto type = cast<RankedTensorType>(v.getType());
  if (!type.hasStaticShape())
    return b.op<SqueezeOp>({v}, {ctx.ints("axis", {2})});
  SmallVector<int64_t> shape(type.getShape());
  shape.erase(shape.begin() + 2);
  return b.op<ReshapeOp>({v}, {ctx.ints("newshape", shape)});
}

/// Checks that input `input` is 2-d (NCHW) data, or 1-d (NCW) or 3-d
/// (NCDHW) where the op has those.
LogicalResult requireWindowRank(NodeContext &ctx, unsigned input, bool allow1d,
                                bool allow3d) {
  int64_t rank = ctx.rank(input);
  if (rank == 4 || (allow1d && rank == 3) || (allow3d && rank == 5))
    return success();
  std::string kinds = allow1d && allow3d ? "1-d (NCW), 2-d (NCHW) and "
                                           "3-d (NCDHW)"
                      : allow1d          ? "1-d (NCW) and 2-d (NCHW)"
                      : allow3d          ? "2-d (NCHW) and 3-d (NCDHW)"
                                         : "2-d (NCHW)";
  return ctx.fail("only " + kinds + " data are supported, got rank " +
                  Twine(rank));
}

/// Reads `name`, an attribute of one value per spatial axis of a 3-d
/// window op (`dflt` when absent).
FailureOr<SmallVector<int64_t>> window3dAttr(NodeContext &ctx, StringRef name,
                                             ArrayRef<int64_t> dflt) {
  SmallVector<int64_t> v = ctx.attrInts(name, SmallVector<int64_t>(dflt));
  if (v.size() != 3)
    return ctx.fail(name + " needs 3 values for a 3-d window, got " +
                    Twine(v.size()));
  return v;
}

/// The window of a 3-d op over input #0 (kernel_shape defaulting to
/// `kernel`) as relay attributes: `kernelName` (kernel_size or pool_size),
/// strides, dilation and padding in ONNX's (and Relay's) order.
FailureOr<SmallVector<NamedAttribute>>
window3dAttributes(NodeContext &ctx, ArrayRef<int64_t> kernelDefault,
                   StringRef kernelName) {
  FailureOr<SmallVector<int64_t>> kernel =
      window3dAttr(ctx, "kernel_shape", kernelDefault);
  FailureOr<SmallVector<int64_t>> strides =
      window3dAttr(ctx, "strides", {1, 1, 1});
  FailureOr<SmallVector<int64_t>> dilations =
      window3dAttr(ctx, "dilations", {1, 1, 1});
  if (failed(kernel) || failed(strides) || failed(dilations))
    return failure();
  FailureOr<SmallVector<int64_t>> pads = windowPadding(
      ctx, ctx.shape(0).drop_front(2), *kernel, *strides, *dilations);
  if (failed(pads))
    return failure();
  return SmallVector<NamedAttribute>{
      ctx.ints(kernelName, *kernel), ctx.ints("strides", *strides),
      ctx.ints("dilation", *dilations), ctx.ints("padding", *pads)};
}

/// Conv of 3-d (NCDHW) data: nn.conv3d, with the bias added.
LogicalResult convertConv3d(NodeContext &ctx) {
  ArrayRef<int64_t> w = ctx.shape(1);
  FailureOr<SmallVector<NamedAttribute>> attrs =
      window3dAttributes(ctx, w.drop_front(2), "kernel_size");
  if (failed(attrs))
    return failure();
  attrs->push_back(ctx.i64("groups", ctx.attrInt("group", 1)));
  attrs->push_back(ctx.i64("channels", w[0]));
  Emitter b(ctx);
  Value result = b.op<Conv3DOp>({ctx.input(0), ctx.input(1)}, *attrs);
  if (ctx.hasInput(2))
    result = b.op<BiasAddOp>({result, ctx.input(2)}, {ctx.i64("axis", 1)});
  return b.output(result);
}

/// MaxPool and AveragePool of 3-d (NCDHW) data.
template <typename Pool3D> LogicalResult convertPool3d(NodeContext &ctx) {
  FailureOr<SmallVector<NamedAttribute>> attrs =
      window3dAttributes(ctx, {}, "pool_size");
  if (failed(attrs))
    return failure();
  attrs->push_back(ctx.boolean("ceil_mode", ctx.attrInt("ceil_mode", 0) != 0));
  if (std::is_same_v<Pool3D, AvgPool3DOp>)
    attrs->push_back(ctx.boolean("count_include_pad",
                                 ctx.attrInt("count_include_pad", 0) != 0));
  return ctx.output(ctx.op<Pool3D>({ctx.input(0)}, *attrs));
}

} // namespace

FailureOr<SmallVector<NamedAttribute>>
mlir::relay::onnx_import::convAttributes(NodeContext &ctx, ArrayRef<int64_t> x,
                                         ArrayRef<int64_t> w, bool oneD,
                                         bool padded) {
  SmallVector<int64_t> kernel =
      windowAttr(ctx, "kernel_shape", {w[2], w[3]}, oneD, 1);
  SmallVector<int64_t> strides = windowAttr(ctx, "strides", {1, 1}, oneD, 1);
  SmallVector<int64_t> dilations =
      windowAttr(ctx, "dilations", {1, 1}, oneD, 1);
  if (kernel.size() != 2 || strides.size() != 2 || dilations.size() != 2)
    return ctx.fail(Twine("kernel_shape, strides and dilations need ") +
                    (oneD ? "1 value" : "2 values"));
  FailureOr<SmallVector<int64_t>> pads = windowPadding(
      ctx, x.drop_front(2), kernel, strides, dilations, oneD, padded);
  if (failed(pads))
    return failure();
  return SmallVector<NamedAttribute>{ctx.ints("strides", strides),
                                     ctx.ints("dilation", dilations),
                                     ctx.i64("groups", ctx.attrInt("group", 1)),
                                     ctx.ints("kernel_size", kernel),
                                     ctx.ints("padding", *pads),
                                     ctx.i64("channels", w[0])};
}

namespace {

/// Conv and ConvTranspose, 2-d, 3-d or 1-d (lifted to 2-d with a height
/// of 1).
LogicalResult convertConv(NodeContext &ctx, bool transpose) {
  if (failed(ctx.checkInputs(2, 3)) ||
      failed(requireWindowRank(ctx, 0, true, true)) ||
      failed(requireWindowRank(ctx, 1, true, true)))
    return failure();
  bool oneD = ctx.rank(0) == 3;
  if (ctx.rank(1) != ctx.rank(0))
    return ctx.fail("the weights must have the data's rank");
  if (ctx.rank(0) == 5 && !transpose)
    return convertConv3d(ctx);
  Emitter b(ctx);
  Value input = ctx.input(0), weights = ctx.input(1);
  if (oneD) {
    input = liftTo2d(ctx, b, input);
    weights = liftTo2d(ctx, b, weights);
    if (!b.succeeded())
      return failure();
  }
  ArrayRef<int64_t> w = cast<RankedTensorType>(weights.getType()).getShape();
  bool padded = false;
  if (!transpose) {
    SmallVector<int64_t> ones = {1, 1};
    if (Value p = padSameAtRunTime(
            ctx, b, input,
            windowAttr(ctx, "kernel_shape", {w[2], w[3]}, oneD, 1),
            windowAttr(ctx, "strides", ones, oneD, 1),
            windowAttr(ctx, "dilations", ones, oneD, 1), 0.0)) {
      input = p;
      padded = true;
    }
    if (!b.succeeded())
      return failure();
  }
  ArrayRef<int64_t> x = cast<RankedTensorType>(input.getType()).getShape();
  SmallVector<NamedAttribute> attrs;
  if (!transpose) {
    FailureOr<SmallVector<NamedAttribute>> conv =
        convAttributes(ctx, x, w, oneD, padded);
    if (failed(conv))
      return failure();
    attrs = *conv;
  } else {
    // Two spatial axes (1-d lifted) or three.
    size_t spatial = x.size() - 2;
    SmallVector<int64_t> ones(spatial, 1);
    SmallVector<int64_t> kernel = windowAttr(
        ctx, "kernel_shape", SmallVector<int64_t>(w.drop_front(2)), oneD, 1);
    SmallVector<int64_t> strides = windowAttr(ctx, "strides", ones, oneD, 1);
    SmallVector<int64_t> dilations =
        windowAttr(ctx, "dilations", ones, oneD, 1);
    int64_t groups = ctx.attrInt("group", 1);
    if (kernel.size() != spatial || strides.size() != spatial ||
        dilations.size() != spatial)
      return ctx.fail(Twine("kernel_shape, strides and dilations need ") +
                      (oneD ? "1 value" : Twine(spatial) + " values"));
    attrs = {ctx.ints("strides", strides), ctx.ints("dilation", dilations),
             ctx.i64("groups", groups), ctx.ints("kernel_size", kernel)};
    {
      // Output size = stride * (in - 1) + output_padding + (k - 1) * d + 1
      // - pads; auto_pad SAME asks for out = in * stride, output_shape for
      // the size given (the padding split as SAME_UPPER splits it).
      SmallVector<int64_t> outputPadding = windowAttr(
          ctx, "output_padding", SmallVector<int64_t>(spatial, 0), oneD, 0);
      if (outputPadding.size() != spatial)
        return ctx.fail("output_padding needs one value per spatial dimension");
      std::string autoPad = ctx.attrString("auto_pad", "NOTSET");
      FailureOr<SmallVector<int64_t>> explicitPads =
          windowPadding(ctx, x.drop_front(2), kernel, strides, dilations, oneD);
      if (autoPad == "NOTSET" && failed(explicitPads))
        return failure();
      SmallVector<int64_t> pads = autoPad == "NOTSET"
                                      ? *explicitPads
                                      : SmallVector<int64_t>(2 * spatial, 0);
      SmallVector<int64_t> target;
      if ((ctx.hasAttr("output_shape") || autoPad == "SAME_UPPER" ||
           autoPad == "SAME_LOWER") &&
          ShapedType::isDynamicShape(x.drop_front(2)))
        return ctx.fail("output_shape and auto_pad SAME need the spatial "
                        "sizes known when importing (give explicit pads)");
      if (ctx.hasAttr("output_shape")) {
        target = windowAttr(ctx, "output_shape", {}, oneD, 1);
        if (target.size() != spatial)
          return ctx.fail("output_shape needs one value per spatial dimension");
      } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
        for (size_t d = 0; d < spatial; ++d)
          target.push_back(x[d + 2] * strides[d]);
      }
      if (!target.empty()) {
        // ONNX puts the larger half of the padding first except for
        // SAME_UPPER; padding short of zero at the end is output padding.
        bool upper = autoPad == "SAME_UPPER";
        for (size_t d = 0; d < spatial; ++d) {
          int64_t total = strides[d] * (x[d + 2] - 1) + outputPadding[d] +
                          (kernel[d] - 1) * dilations[d] + 1 - target[d];
          int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
          int64_t begin = upper ? half : total - half;
          int64_t end = total - begin;
          if (begin < 0)
            return ctx.fail("output_shape " + Twine(target[d]) +
                            " is too large for this convolution");
          pads[d] = begin;
          pads[d + spatial] = std::max<int64_t>(end, 0);
          outputPadding[d] += std::max<int64_t>(-end, 0);
        }
      }
      attrs.push_back(ctx.ints("padding", pads));
      attrs.push_back(ctx.ints("output_padding", outputPadding));
      attrs.push_back(ctx.i64("channels", w[1] * groups));
    }
  }
  Value result = !transpose ? b.op<Conv2DOp>({input, weights}, attrs)
                 : x.size() == 5
                     ? b.op<Conv3DTransposeOp>({input, weights}, attrs)
                     : b.op<Conv2DTransposeOp>({input, weights}, attrs);
  if (ctx.hasInput(2))
    result = b.op<BiasAddOp>({result, ctx.input(2)}, {ctx.i64("axis", 1)});
  if (oneD)
    result = dropHeight(ctx, b, result);
  return b.output(result);
}

/// Col2Im (opset 18): columns [N, C * prod(block_shape), L], as im2col
/// makes them, summed back into an image [N, C, image_shape...]. That sum
/// is a transposed convolution with C groups and a one-hot kernel: row j of
/// channel c's block goes to tap j of output channel c. 1-d, 2-d and 3-d.
LogicalResult convertCol2Im(NodeContext &ctx) {
  if (failed(ctx.checkInputs(3, 3)))
    return failure();
  FailureOr<SmallVector<int64_t>> image = ctx.constantInts(1, "image_shape");
  if (failed(image))
    return failure();
  FailureOr<SmallVector<int64_t>> block = ctx.constantInts(2, "block_shape");
  if (failed(block))
    return failure();
  size_t spatial = image->size();
  if (spatial < 1 || spatial > 3 || block->size() != spatial)
    return ctx.fail("image_shape and block_shape need 1, 2 or 3 values, as "
                    "many in both; got " +
                    Twine(spatial) + " and " + Twine(block->size()));
  if (ctx.rank(0) != 3 || !ctx.hasStaticShape(0))
    return ctx.fail("the input must be [N, C * block size, L] with sizes "
                    "known when importing");
  Type e = ctx.elementType(0);
  if (!isa<FloatType>(e))
    return ctx.fail("only floating-point columns are supported");
  auto ints = [&](StringRef name, int64_t count, int64_t dflt) {
    return ctx.hasAttr(name) ? ctx.attrInts(name)
                             : SmallVector<int64_t>(count, dflt);
  };
  SmallVector<int64_t> strides = ints("strides", spatial, 1);
  SmallVector<int64_t> dilations = ints("dilations", spatial, 1);
  SmallVector<int64_t> pads = ints("pads", 2 * spatial, 0);
  if (strides.size() != spatial || dilations.size() != spatial ||
      pads.size() != 2 * spatial)
    return ctx.fail("strides and dilations need " + Twine(spatial) +
                    " values, pads " + Twine(2 * spatial));
  ArrayRef<int64_t> in = ctx.shape(0);
  int64_t blockSize = 1, positions = 1;
  SmallVector<int64_t> counts;
  for (size_t d = 0; d < spatial; ++d) {
    if ((*image)[d] < 1 || (*block)[d] < 1 || strides[d] < 1 ||
        dilations[d] < 1 || pads[d] < 0 || pads[d + spatial] < 0)
      return ctx.fail("image_shape, block_shape, strides and dilations must "
                      "be positive, pads not negative");
    blockSize *= (*block)[d];
    int64_t span = (*image)[d] + pads[d] + pads[d + spatial] -
                   dilations[d] * ((*block)[d] - 1) - 1;
    if (span < 0)
      return ctx.fail("the block (dilated) is larger than the padded image "
                      "along axis " +
                      Twine(d));
    counts.push_back(span / strides[d] + 1);
    positions *= counts.back();
  }
  if (in[1] % blockSize != 0)
    return ctx.fail("the input's " + Twine(in[1]) +
                    " rows are not a multiple of the block's " +
                    Twine(blockSize) + " positions");
  if (positions != in[2])
    return ctx.fail("the input has " + Twine(in[2]) +
                    " block positions; image_shape, block_shape, strides, "
                    "dilations and pads make " +
                    Twine(positions));
  int64_t channels = in[1] / blockSize;
  // 1-d as 2-d of height 1.
  if (spatial == 1) {
    for (SmallVector<int64_t> *v :
         {&*image, &*block, &strides, &dilations, &counts})
      v->insert(v->begin(), 1);
    pads = {0, pads[0], 0, pads[1]};
  }
  size_t dims = image->size();
  Emitter b(ctx);
  SmallVector<int64_t> colShape = {in[0], in[1]};
  colShape.append(counts);
  Value cols =
      b.op<ReshapeOp>({ctx.input(0)}, {ctx.ints("newshape", colShape)});
  SmallVector<int64_t> kernelShape = {in[1], 1};
  kernelShape.append(*block);
  Attribute one = FloatAttr::get(e, 1.0), zero = FloatAttr::get(e, 0.0);
  SmallVector<Attribute> taps;
  for (int64_t r = 0; r < in[1]; ++r)
    for (int64_t j = 0; j < blockSize; ++j)
      taps.push_back(j == r % blockSize ? one : zero);
  Value kernel = ctx.constant(
      DenseElementsAttr::get(RankedTensorType::get(kernelShape, e), taps));
  // What the positions cover short of the image's end is output padding
  // (less than a stride).
  SmallVector<int64_t> outputPadding;
  for (size_t d = 0; d < dims; ++d)
    outputPadding.push_back(
        (*image)[d] + pads[d] + pads[d + dims] -
        ((counts[d] - 1) * strides[d] + dilations[d] * ((*block)[d] - 1) + 1));
  SmallVector<NamedAttribute> attrs = {
      ctx.ints("strides", strides), ctx.ints("dilation", dilations),
      ctx.i64("groups", channels),  ctx.ints("kernel_size", *block),
      ctx.ints("padding", pads),    ctx.ints("output_padding", outputPadding),
      ctx.i64("channels", channels)};
  Value result = dims == 3 ? b.op<Conv3DTransposeOp>({cols, kernel}, attrs)
                           : b.op<Conv2DTransposeOp>({cols, kernel}, attrs);
  if (spatial == 1)
    result = dropHeight(ctx, b, result);
  return b.output(result);
}

/// LpPool's and GlobalLpPool's exponent, the attribute `p` (2 by default);
/// fails (reported) below 1.
FailureOr<double> lpExponent(NodeContext &ctx) {
  int64_t p = ctx.attrInt("p", 2);
  if (p < 1)
    return ctx.fail("p must be 1 or more, got " + Twine(p));
  return double(p);
}

/// The spatial axes of N x C x D1 ... data of `rank`: 2 to rank - 1.
SmallVector<int64_t> spatialAxes(int64_t rank) {
  return llvm::to_vector(llvm::seq<int64_t>(2, rank));
}

/// MaxPool and AveragePool, 2-d, 1-d or 3-d; with `isLp`, LpPool (2-d or
/// 1-d): (sum of |x|^p over the window)^(1/p), the sum an average counting
/// the padding (zeros, which add nothing) times the window's size.
template <typename Pool2D, typename Pool3D, bool isLp = false>
LogicalResult convertPool(NodeContext &ctx) {
  constexpr bool isMax = std::is_same_v<Pool2D, MaxPool2DOp>;
  if (failed(ctx.checkInputs(1, 1)) ||
      failed(requireWindowRank(ctx, 0, true, true)))
    return failure();
  FailureOr<double> p = isLp ? lpExponent(ctx) : FailureOr<double>(0.0);
  if (failed(p))
    return failure();
  if (isLp && ctx.rank(0) == 5)
    return ctx.fail("3-d LpPool is not supported");
  bool oneD = ctx.rank(0) == 3;
  if (!ctx.hasAttr("kernel_shape"))
    return ctx.fail("the kernel_shape attribute is required");
  // The second output of MaxPool: the flat index of each window's maximum,
  // whose layout storage_order (0 row-major, 1 column-major) gives.
  bool withIndices = isMax && ctx.getNode().output_size() > 1 &&
                     !ctx.getNode().output(1).empty();
  int64_t storageOrder = ctx.attrInt("storage_order", 0);
  if (storageOrder != 0 && storageOrder != 1)
    return ctx.fail("storage_order must be 0 or 1, got " + Twine(storageOrder));
  if (ctx.rank(0) == 5) {
    if (withIndices)
      return ctx.fail("the indices (output #1) of 3-d max pooling are not "
                      "supported");
    return convertPool3d<Pool3D>(ctx);
  }
  SmallVector<int64_t> kernel = windowAttr(ctx, "kernel_shape", {}, oneD, 1);
  SmallVector<int64_t> strides = windowAttr(ctx, "strides", {1, 1}, oneD, 1);
  SmallVector<int64_t> dilations =
      windowAttr(ctx, "dilations", {1, 1}, oneD, 1);
  if (kernel.size() != 2 || strides.size() != 2 || dilations.size() != 2)
    return ctx.fail(Twine("kernel_shape, strides and dilations need ") +
                    (oneD ? "1 value" : "2 values"));
  Emitter b(ctx);
  Value input = oneD ? liftTo2d(ctx, b, ctx.input(0)) : ctx.input(0);
  if (isLp)
    input = b.op<PowerOp>({b.op<AbsOp>({input}), b.scalar(*p, input)});
  if (!b.succeeded())
    return failure();
  // SAME padding that depends on sizes known only when it runs: padded
  // then, by what the window ignores (the lowest value for a maximum,
  // zeros for an Lp norm and for an average that counts the padding); an
  // average that does not count it, or max pooling's indices, would see
  // the padding as data.
  bool countsPad = isLp || ctx.attrInt("count_include_pad", 0) != 0;
  bool padded = false;
  if (isMax ? !withIndices : countsPad) {
    if (Value p = padSameAtRunTime(
            ctx, b, input, kernel, strides, dilations,
            isMax ? -std::numeric_limits<double>::infinity() : 0.0)) {
      input = p;
      padded = true;
    }
  }
  if (!b.succeeded())
    return failure();
  FailureOr<SmallVector<int64_t>> pads = windowPadding(
      ctx, cast<RankedTensorType>(input.getType()).getShape().drop_front(2),
      kernel, strides, dilations, oneD, padded);
  if (failed(pads))
    return failure();
  SmallVector<NamedAttribute> attrs = {
      ctx.ints("pool_size", kernel), ctx.ints("strides", strides),
      ctx.ints("dilation", dilations), ctx.ints("padding", *pads),
      ctx.boolean("ceil_mode", ctx.attrInt("ceil_mode", 0) != 0)};
  if (!isMax)
    attrs.push_back(ctx.boolean(
        "count_include_pad", isLp || ctx.attrInt("count_include_pad", 0) != 0));
  Value result = b.op<Pool2D>({input}, attrs);
  if (isLp) {
    double size = double(kernel[0] * kernel[1]);
    result = b.op<PowerOp>({b.op<MultiplyOp>({result, b.scalar(size, result)}),
                            b.scalar(1 / *p, result)});
  }
  Value indices;
  if (withIndices)
    indices = maxPoolIndices(ctx, b, input, result, kernel, strides, dilations,
                             *pads, storageOrder == 1);
  if (oneD) {
    result = dropHeight(ctx, b, result);
    if (withIndices)
      indices = dropHeight(ctx, b, indices);
  }
  if (failed(b.output(result)))
    return failure();
  return withIndices ? b.output(indices) : success();
}

/// Global pooling: relay's 2-d op on NCHW data, a reduction over the
/// spatial axes (kept) for 1-d, 3-d and higher.
template <typename GlobalPool2D, typename Reduction>
LogicalResult convertGlobalPool(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  FailureOr<int64_t> rank = ctx.spatialRank(0);
  if (failed(rank))
    return failure();
  if (*rank == 4)
    return ctx.output(ctx.op<GlobalPool2D>({ctx.input(0)}));
  return ctx.output(
      ctx.op<Reduction>({ctx.input(0)}, {ctx.ints("axis", spatialAxes(*rank)),
                                         ctx.boolean("keepdims", true)}));
}

/// GlobalLpPool: (sum of |x|^p over the spatial axes, kept)^(1/p).
LogicalResult convertGlobalLpPool(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  FailureOr<int64_t> rank = ctx.spatialRank(0);
  if (failed(rank))
    return failure();
  FailureOr<double> p = lpExponent(ctx);
  if (failed(p))
    return failure();
  Emitter b(ctx);
  Value x = ctx.input(0);
  Value powered = b.op<PowerOp>({b.op<AbsOp>({x}), b.scalar(*p, x)});
  Value sum = b.op<SumOp>({powered}, {ctx.ints("axis", spatialAxes(*rank)),
                                      ctx.boolean("keepdims", true)});
  return b.output(b.op<PowerOp>({sum, b.scalar(1 / *p, sum)}));
}

/// BatchNormalization in training mode: Y normalised by the batch's own
/// statistics (the mean and population variance over every axis but the
/// channels'), and the running statistics moved towards them by
/// `momentum`: running = input * momentum + current * (1 - momentum).
LogicalResult convertTrainingBatchNorm(NodeContext &ctx) {
  int64_t outputs = ctx.getNode().output_size();
  if (outputs > 3)
    return ctx.fail("the saved mean and variance (outputs #3 and #4 of "
                    "opsets before 14) are not supported");
  int64_t rank = ctx.rank(0);
  if (rank < 2)
    return ctx.fail("expects data of rank 2 or more");
  SmallVector<int64_t> axes = {0}, perChannel(rank, 1);
  for (int64_t d = 2; d < rank; ++d)
    axes.push_back(d);
  perChannel[1] = ctx.shape(0)[1];
  Emitter b(ctx);
  Value x = ctx.input(0);
  auto channels = [&](Value v) {
    return b.op<ReshapeOp>({v}, {ctx.ints("newshape", perChannel)});
  };
  SmallVector<NamedAttribute> reduce = {ctx.ints("axis", axes),
                                        ctx.boolean("keepdims", true)};
  Value mean = b.op<MeanOp>({x}, reduce);
  Value centred = b.op<SubtractOp>({x, mean});
  Value var = b.op<MeanOp>({b.mul(centred, centred)}, reduce);
  Value inv =
      b.op<RsqrtOp>({b.add(var, b.scalar(ctx.attrFloat("epsilon", 1e-5), x))});
  Value y = b.add(b.mul(b.mul(centred, inv), channels(ctx.input(1))),
                  channels(ctx.input(2)));
  if (failed(b.output(y)))
    return failure();
  double momentum = ctx.attrFloat("momentum", 0.9);
  auto running = [&](Value input, Value current) {
    Value flat =
        b.op<ReshapeOp>({current}, {ctx.ints("newshape", {perChannel[1]})});
    return b.add(b.mul(input, b.scalar(momentum, x)),
                 b.mul(flat, b.scalar(1 - momentum, x)));
  };
  if (outputs > 1 && failed(b.output(running(ctx.input(3), mean))))
    return failure();
  if (outputs > 2 && failed(b.output(running(ctx.input(4), var))))
    return failure();
  return success();
}

LogicalResult convertBatchNorm(NodeContext &ctx) {
  if (failed(ctx.checkInputs(5, 5)))
    return failure();
  // Before opset 7: `spatial = 0` normalises each element with statistics
  // of its own (not supported); `is_test` is read as inference, as ONNX
  // Runtime reads it, since one output has no statistics to update.
  if (ctx.getOpset() < 7 && ctx.attrInt("spatial", 1) != 1)
    return ctx.fail("spatial = 0 (statistics per element, not per channel) "
                    "is not supported");
  // From opset 14 training_mode says; before it, more than one output
  // (the updated running statistics) does.
  if (ctx.attrInt("training_mode", 0) != 0 || ctx.getNode().output_size() > 1)
    return convertTrainingBatchNorm(ctx);
  FailureOr<Value> bn = ctx.op<BatchNormOp>(
      {ctx.input(0), ctx.input(1), ctx.input(2), ctx.input(3), ctx.input(4)},
      {ctx.i64("axis", 1), ctx.f64("epsilon", ctx.attrFloat("epsilon", 1e-5))});
  if (failed(bn))
    return failure();
  ctx.addOutput(ctx.tupleGet(*bn, 0));
  return success();
}

/// Mean and variance over `axes` (kept), then (x - mean) / sqrt(var + eps);
/// `stats` gets the mean and 1 / sqrt(var + eps).
FailureOr<Value> normalize(NodeContext &ctx, Value x, ArrayRef<int64_t> axes,
                           double epsilon,
                           SmallVectorImpl<Value> *stats = nullptr) {
  SmallVector<NamedAttribute> reduce = {ctx.ints("axis", axes),
                                        ctx.boolean("keepdims", true)};
  FailureOr<Value> mean = ctx.op<MeanOp>({x}, reduce);
  if (failed(mean))
    return failure();
  FailureOr<Value> centred = ctx.op<SubtractOp>({x, *mean});
  if (failed(centred))
    return failure();
  FailureOr<Value> squared = ctx.op<MultiplyOp>({*centred, *centred});
  if (failed(squared))
    return failure();
  FailureOr<Value> var = ctx.op<MeanOp>({*squared}, reduce);
  if (failed(var))
    return failure();
  Type e = cast<RankedTensorType>(x.getType()).getElementType();
  FailureOr<Value> shifted = ctx.op<AddOp>({*var, ctx.scalar(epsilon, e)});
  if (failed(shifted))
    return failure();
  FailureOr<Value> inv = ctx.op<RsqrtOp>({*shifted});
  if (failed(inv))
    return failure();
  if (stats)
    stats->append({*mean, *inv});
  return ctx.op<MultiplyOp>({*centred, *inv});
}

LogicalResult convertInstanceNorm(NodeContext &ctx) {
  if (failed(ctx.checkInputs(3, 3)))
    return failure();
  FailureOr<int64_t> rank = ctx.spatialRank(0);
  if (failed(rank))
    return failure();
  FailureOr<Value> n = normalize(ctx, ctx.input(0), spatialAxes(*rank),
                                 ctx.attrFloat("epsilon", 1e-5));
  if (failed(n))
    return failure();
  // Scale and bias are per channel (axis 1).
  SmallVector<int64_t> perChannel(*rank, 1);
  perChannel[1] = ctx.shape(1)[0];
  FailureOr<Value> scale =
      ctx.op<ReshapeOp>({ctx.input(1)}, {ctx.ints("newshape", perChannel)});
  FailureOr<Value> bias =
      ctx.op<ReshapeOp>({ctx.input(2)}, {ctx.ints("newshape", perChannel)});
  if (failed(scale) || failed(bias))
    return failure();
  FailureOr<Value> y = ctx.op<MultiplyOp>({*n, *scale});
  if (failed(y))
    return failure();
  return ctx.output(ctx.op<AddOp>({*y, *bias}));
}

/// The type LayerNormalization (and GroupNormalization from opset 21)
/// computes its statistics in: `stash_type` (float32 by default) where it
/// is wider than the input's (float16, bfloat16), else the input's own, as
/// onnxruntime keeps double in double; null (reported) for a stash type
/// or input that is not floating-point.
Type stashType(NodeContext &ctx) {
  int64_t code = ctx.attrInt("stash_type", 1);
  Type stash = convertDataType(ctx.getContext(), code);
  if (!stash || !isa<FloatType>(stash)) {
    (void)ctx.fail("stash_type " + dataTypeName(code) +
                   " is not a floating-point type");
    return Type();
  }
  Type e = ctx.elementType(0);
  if (!isa<FloatType>(e)) {
    (void)ctx.fail("expects a floating-point input");
    return Type();
  }
  return stash.getIntOrFloatBitWidth() > e.getIntOrFloatBitWidth() ? stash : e;
}

/// Opset 18's GroupNormalization: nn.group_norm, the scale and bias given
/// per group (opset 18) repeated for each group's channels; given per
/// channel (as opset 21 has them) they are taken as they are.
LogicalResult convertGroupNorm(NodeContext &ctx) {
  if (failed(ctx.checkInputs(3, 3)))
    return failure();
  if (failed(ctx.spatialRank(0)))
    return failure();
  if (!ctx.hasAttr("num_groups"))
    return ctx.fail("attribute num_groups is required");
  int64_t groups = ctx.attrInt("num_groups", 0);
  int64_t channels = ctx.shape(0)[1];
  if (ShapedType::isDynamic(channels))
    return ctx.fail("the channels (axis 1) must be known when importing");
  if (groups < 1 || channels % groups != 0)
    return ctx.fail("num_groups " + Twine(groups) + " does not divide the " +
                    Twine(channels) + " channels");
  SmallVector<Value> params;
  for (unsigned i : {1u, 2u}) {
    if (ctx.rank(i) != 1)
      return ctx.fail("scale and bias must be 1-d");
    int64_t n = ctx.shape(i)[0];
    if (n == channels) {
      params.push_back(ctx.input(i));
      continue;
    }
    // Opset 21 takes them per channel only.
    if (ctx.getOpset() >= 21)
      return ctx.fail("scale and bias need " + Twine(channels) +
                      " values (one per channel), got " + Twine(n));
    if (n != groups)
      return ctx.fail("scale and bias need " + Twine(groups) +
                      " values (one per group), got " + Twine(n));
    FailureOr<Value> repeated =
        ctx.op<RepeatOp>({ctx.input(i)}, {ctx.i64("repeats", channels / groups),
                                          ctx.i64("axis", 0)});
    if (failed(repeated))
      return failure();
    params.push_back(*repeated);
  }
  // Opset 21's stash_type: normalised in that type (float32 by default),
  // the result cast back.
  Type e = ctx.elementType(0);
  Type stash = e;
  if (ctx.getOpset() >= 21 && !(stash = stashType(ctx)))
    return failure();
  Emitter b(ctx);
  Value y = b.op<GroupNormOp>(
      {b.castTo(ctx.input(0), stash), b.castTo(params[0], stash),
       b.castTo(params[1], stash)},
      {ctx.i64("num_groups", groups), ctx.i64("axis", 1),
       ctx.f64("epsilon", ctx.attrFloat("epsilon", 1e-5))});
  return b.output(b.castTo(y, e));
}

LogicalResult convertLayerNorm(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 3)))
    return failure();
  int64_t rank = ctx.rank(0);
  FailureOr<int64_t> axis = ctx.axis(ctx.attrInt("axis", -1), rank);
  if (failed(axis))
    return failure();
  Type stash = stashType(ctx);
  if (!stash)
    return failure();
  auto axes = llvm::to_vector(llvm::seq<int64_t>(*axis, rank));
  // As ONNX's function body: the statistics (outputs 1 and 2 too) in the
  // stash type, the normalised input back in the input's type before the
  // scale and bias.
  Emitter b(ctx);
  Value x = b.castTo(ctx.input(0), stash);
  if (!b.succeeded())
    return failure();
  SmallVector<Value> stats;
  FailureOr<Value> n =
      normalize(ctx, x, axes, ctx.attrFloat("epsilon", 1e-5), &stats);
  if (failed(n))
    return failure();
  Value normalized = b.castTo(*n, ctx.elementType(0));
  if (!b.succeeded())
    return failure();
  FailureOr<Value> y = ctx.op<MultiplyOp>({normalized, ctx.input(1)});
  if (failed(y))
    return failure();
  Value result = *y;
  if (ctx.hasInput(2)) {
    FailureOr<Value> b = ctx.op<AddOp>({result, ctx.input(2)});
    if (failed(b))
      return failure();
    result = *b;
  }
  // Outputs 2 and 3: the mean and the inverse standard deviation.
  ctx.addOutput(result);
  ctx.addOutput(stats[0]);
  ctx.addOutput(stats[1]);
  return success();
}

LogicalResult convertGemm(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 3)))
    return failure();
  if (ctx.rank(0) != 2 || ctx.rank(1) != 2)
    return ctx.fail("A and B must be matrices");
  Value a = ctx.input(0), b = ctx.input(1);
  bool transA = ctx.attrInt("transA", 0) != 0;
  bool transB = ctx.attrInt("transB", 0) != 0;
  FailureOr<Value> product =
      ctx.op<MatmulOp>({a, b}, {ctx.boolean("transpose_a", transA),
                                ctx.boolean("transpose_b", transB)});
  if (failed(product))
    return failure();
  Value result = *product;
  double alpha = ctx.attrFloat("alpha", 1.0), beta = ctx.attrFloat("beta", 1.0);
  Type e = ctx.elementType(0);
  if (alpha != 1.0) {
    FailureOr<Value> r = ctx.op<MultiplyOp>({result, ctx.scalar(alpha, e)});
    if (failed(r))
      return failure();
    result = *r;
  }
  if (ctx.hasInput(2) && beta != 0.0) {
    Value c = ctx.input(2);
    if (beta != 1.0) {
      FailureOr<Value> r = ctx.op<MultiplyOp>({c, ctx.scalar(beta, e)});
      if (failed(r))
        return failure();
      c = *r;
    }
    FailureOr<Value> r = ctx.op<AddOp>({result, c});
    if (failed(r))
      return failure();
    result = *r;
  }
  ctx.addOutput(result);
  return success();
}

/// The most rows a Det's matrices may have: its elimination is unrolled,
/// about 20 operators per row.
constexpr int64_t kMaxDetRows = 256;

/// Det: the determinant of each [M, M] matrix of the input (static M), by
/// LU decomposition with partial pivoting as LAPACK's getrf (numpy's
/// det) does it, unrolled over the M columns: at column k the row with the
/// largest magnitude at or below k is swapped up (a gather of the rows;
/// the sign flips when it moves), its pivot multiplies the determinant,
/// and the rows below subtract their multiple of it. A zero pivot (a
/// singular matrix) leaves the determinant zero.
LogicalResult convertDet(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  ArrayRef<int64_t> shape = ctx.shape(0);
  int64_t rank = shape.size();
  Type e = ctx.elementType(0);
  if (!isa<FloatType>(e))
    return ctx.fail("expects floating-point matrices");
  if (rank < 2 || shape[rank - 1] != shape[rank - 2])
    return ctx.fail("expects square matrices in the last two dims");
  int64_t m = shape[rank - 1];
  if (m > kMaxDetRows)
    return ctx.fail("matrices of " + Twine(m) + " rows: at most " +
                    Twine(kMaxDetRows) + " are supported");
  SmallVector<int64_t> batch(shape.drop_back(2));
  int64_t count = 1;
  for (int64_t d : batch)
    count *= d;
  Emitter b(ctx);
  MLIRContext *mc = ctx.getContext();
  Type i64 = IntegerType::get(mc, 64);
  auto ints = [&](ArrayRef<int64_t> dims, ArrayRef<int64_t> values) {
    return ctx.constant(i64Elements(mc, dims, values));
  };
  Value one = ctx.scalar(1, e), zero = ctx.scalar(0, e);
  Value det = b.op<BroadcastToOp>({one}, {ctx.ints("shape", {count})});
  if (m == 0)
    return b.output(b.op<ReshapeOp>({det}, {ctx.ints("newshape", batch)}));
  Value a =
      b.op<ReshapeOp>({ctx.input(0)}, {ctx.ints("newshape", {count, m, m})});
  SmallVector<int64_t> positions(m);
  std::iota(positions.begin(), positions.end(), 0);
  Value rows = ints({1, m}, positions);     // [1, M]
  Value rows3 = ints({1, m, 1}, positions); // [1, M, 1]
  for (int64_t k = 0; k < m; ++k) {
    Value at = ints({1}, {k});
    Value kk = ctx.scalar(double(k), i64);
    // Column k, its largest magnitude at or below row k.
    Value column =
        b.op<ReshapeOp>({b.op<TakeOp>({a, at}, {ctx.i64("axis", 2)})},
                        {ctx.ints("newshape", {count, m})});
    Value below = b.op<GreaterEqualOp>({rows, kk});
    Value magnitude =
        b.op<WhereOp>({below, b.op<AbsOp>({column}), ctx.scalar(-1, e)});
    Value pivotRow = b.op<CastOp>(
        {b.op<ArgmaxOp>({magnitude}, {ctx.ints("axis", {1}),
                                      ctx.boolean("keepdims", true)})},
        {ctx.type("dtype", i64)}); // [count, 1]
    // Rows k and pivotRow swapped.
    Value perm = b.op<WhereOp>(
        {b.op<EqualOp>({rows, kk}), pivotRow,
         b.op<WhereOp>({b.op<EqualOp>({rows, pivotRow}), kk, rows})});
    Value index = b.op<BroadcastToOp>(
        {b.op<ReshapeOp>({perm}, {ctx.ints("newshape", {count, m, 1})})},
        {ctx.ints("shape", {count, m, m})});
    a = b.op<GatherOp>({a, index}, {ctx.i64("axis", 1)});
    Value moved = b.op<ReshapeOp>({b.op<NotEqualOp>({pivotRow, kk})},
                                  {ctx.ints("newshape", {count})});
    det = b.op<WhereOp>({moved, b.op<NegativeOp>({det}), det});
    Value pivotRowValues = b.op<TakeOp>({a, at}, {ctx.i64("axis", 1)});
    Value pivot = b.op<TakeOp>({pivotRowValues, at}, {ctx.i64("axis", 2)});
    det = b.mul(det, b.op<ReshapeOp>({pivot}, {ctx.ints("newshape", {count})}));
    if (k + 1 == m)
      break;
    Value safe = b.op<WhereOp>({b.op<EqualOp>({pivot, zero}), one, pivot});
    Value factor = b.op<WhereOp>(
        {b.op<GreaterOp>({rows3, kk}),
         b.op<DivideOp>({b.op<TakeOp>({a, at}, {ctx.i64("axis", 2)}), safe}),
         zero}); // [count, M, 1]
    a = b.op<SubtractOp>({a, b.mul(factor, pivotRowValues)});
  }
  return b.output(b.op<ReshapeOp>({det}, {ctx.ints("newshape", batch)}));
}

/// MatMul of operands with sizes known only at run time (rows selected by
/// a mask, a sequence grown in a loop), `sa` and `sb` their shapes with
/// vectors promoted to matrices. Matrices multiply as they are; a stack of
/// matrices times one matrix as one product over all rows; stacks of one
/// rank whose batch sizes are known and equal as a batch_matmul; other
/// stacks (of different ranks, batch sizes known only at run time, which
/// may be 1) broadcast to their common batch sizes first, computed when it
/// runs (sizes that do not broadcast are an error there). The result takes
/// its sizes from the operands' shapes when it runs.
static LogicalResult convertDynamicMatMul(NodeContext &ctx,
                                          ArrayRef<int64_t> sa,
                                          ArrayRef<int64_t> sb, bool vecA,
                                          bool vecB) {
  int64_t ka = sa.back(), kb = sb[sb.size() - 2];
  if (!ShapedType::isDynamic(ka) && !ShapedType::isDynamic(kb) && ka != kb)
    return ctx.fail(Twine("inner dimensions differ: ") + Twine(ka) + " and " +
                    Twine(kb));
  int64_t k = ShapedType::isDynamic(ka) ? kb : ka;
  Emitter b(ctx);
  MLIRContext *mc = ctx.getContext();
  Value x = ctx.input(0), y = ctx.input(1);
  if (vecA)
    x = b.op<ReshapeOp>({x}, {ctx.ints("newshape", {1, -1})});
  if (vecB)
    y = b.op<ReshapeOp>({y}, {ctx.ints("newshape", {-1, 1})});
  auto sizes = [&](Value v, int64_t begin, int64_t end) {
    return runTimeSizes(ctx, b, v, begin, end);
  };
  // `v` with its leading axes in one, the last `kept` as they are.
  auto collapsed = [&](Value v, int64_t rank, int64_t kept) {
    Value shape = b.op<ConcatenateOp>(
        {ctx.tuple({ctx.constant(i64Elements(mc, {1}, {-1})),
                    sizes(v, rank - kept, rank)})},
        {ctx.i64("axis", 0)});
    return b.op<DynReshapeOp>({v, shape}, {});
  };
  int64_t ra = sa.size(), rb = sb.size();
  Value product;
  if (ra == 2 && rb == 2) {
    product = b.op<MatmulOp>({x, y});
    if (!vecA && !vecB)
      return b.output(product);
  } else if (rb == 2) {
    // [..., m, k] x [k, n]: the rows of every matrix in one product.
    Value rows = ShapedType::isDynamic(k)
                     ? collapsed(x, ra, 1)
                     : b.op<ReshapeOp>({x}, {ctx.ints("newshape", {-1, k})});
    product = b.op<MatmulOp>({rows, y});
  } else {
    // Batch sizes, aligned at the end: only those known to be equal need
    // no broadcasting (a `?` may be 1 when it runs).
    int64_t batchRank = std::max(ra, rb) - 2;
    bool broadcasts = ra != rb;
    for (int64_t d = 0; d < batchRank && ra == rb; ++d) {
      int64_t da = sa[d], db = sb[d];
      if (ShapedType::isDynamic(da) || ShapedType::isDynamic(db)) {
        broadcasts = true;
      } else if (da != db) {
        if (da != 1 && db != 1)
          return ctx.fail("batch dimensions do not broadcast: " + Twine(da) +
                          " and " + Twine(db));
        broadcasts = true;
      }
    }
    if (!broadcasts) {
      product = b.op<BatchMatmulOp>({collapsed(x, ra, 2), collapsed(y, rb, 2)},
                                    {ctx.boolean("transpose_b", false)});
    } else {
      // Each operand's batch sizes, 1 where it has fewer axes.
      auto batchOf = [&](Value v, int64_t rank) {
        SmallVector<Value> parts;
        if (rank < batchRank + 2)
          parts.push_back(ctx.constant(
              i64Elements(mc, {batchRank + 2 - rank},
                          SmallVector<int64_t>(batchRank + 2 - rank, 1))));
        if (rank > 2)
          parts.push_back(sizes(v, 0, rank - 2));
        return parts.size() == 1 ? parts.front()
                                 : b.op<ConcatenateOp>({ctx.tuple(parts)},
                                                       {ctx.i64("axis", 0)});
      };
      Value batch = b.op<MaximumOp>({batchOf(x, ra), batchOf(y, rb)});
      auto broadcast = [&](Value v, int64_t rank) {
        Value shape =
            b.op<ConcatenateOp>({ctx.tuple({batch, sizes(v, rank - 2, rank)})},
                                {ctx.i64("axis", 0)});
        return collapsed(b.op<DynBroadcastToOp>({v, shape}, {}), batchRank + 2,
                         2);
      };
      product = b.op<BatchMatmulOp>({broadcast(x, ra), broadcast(y, rb)},
                                    {ctx.boolean("transpose_b", false)});
      SmallVector<Value> parts = {batch};
      if (!vecA)
        parts.push_back(sizes(x, ra - 2, ra - 1));
      if (!vecB)
        parts.push_back(sizes(y, rb - 1, rb));
      return b.output(b.op<DynReshapeOp>(
          {product,
           b.op<ConcatenateOp>({ctx.tuple(parts)}, {ctx.i64("axis", 0)})},
          {}));
    }
  }
  // The result: a's leading sizes, then b's columns, less the vectors'.
  SmallVector<Value> parts;
  if (ra > 2 || !vecA)
    parts.push_back(sizes(x, 0, vecA ? ra - 2 : ra - 1));
  if (!vecB)
    parts.push_back(sizes(y, rb - 1, rb));
  if (parts.empty())
    return b.output(b.op<ReshapeOp>({product}, {ctx.ints("newshape", {})}));
  Value outShape =
      parts.size() == 1
          ? parts.front()
          : b.op<ConcatenateOp>({ctx.tuple(parts)}, {ctx.i64("axis", 0)});
  return b.output(b.op<DynReshapeOp>({product, outShape}, {}));
}

/// numpy.matmul: vectors are promoted and their dim dropped again, batch
/// dimensions broadcast.
LogicalResult convertMatMul(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 2)))
    return failure();
  Value a = ctx.input(0), b = ctx.input(1);
  SmallVector<int64_t> sa(ctx.shape(0)), sb(ctx.shape(1));
  if (sa.empty() || sb.empty())
    return ctx.fail("MatMul does not take scalars");
  bool vecA = sa.size() == 1, vecB = sb.size() == 1;
  if (vecA)
    sa.insert(sa.begin(), 1);
  if (vecB)
    sb.push_back(1);
  int64_t m = sa[sa.size() - 2], k = sa.back(), n = sb.back();
  if (ShapedType::isDynamicShape(sa) || ShapedType::isDynamicShape(sb))
    return convertDynamicMatMul(ctx, sa, sb, vecA, vecB);
  if (sb[sb.size() - 2] != k)
    return ctx.fail(Twine("inner dimensions differ: ") + Twine(k) + " and " +
                    Twine(sb[sb.size() - 2]));
  // Broadcast the batch dimensions.
  ArrayRef<int64_t> ba = ArrayRef(sa).drop_back(2),
                    bb = ArrayRef(sb).drop_back(2);
  size_t batchRank = std::max(ba.size(), bb.size());
  SmallVector<int64_t> batch(batchRank, 1);
  for (size_t i = 0; i < batchRank; ++i) {
    int64_t da = i + ba.size() >= batchRank ? ba[i + ba.size() - batchRank] : 1;
    int64_t db = i + bb.size() >= batchRank ? bb[i + bb.size() - batchRank] : 1;
    if (da != db && da != 1 && db != 1)
      return ctx.fail("batch dimensions do not broadcast");
    batch[i] = std::max(da, db);
  }
  SmallVector<int64_t> outShape(batch);
  if (!vecA)
    outShape.push_back(m);
  if (!vecB)
    outShape.push_back(n);
  FailureOr<Value> result;
  if (batchRank == 0) {
    FailureOr<Value> a2 =
        ctx.op<ReshapeOp>({a}, {ctx.ints("newshape", {m, k})});
    FailureOr<Value> b2 =
        ctx.op<ReshapeOp>({b}, {ctx.ints("newshape", {k, n})});
    if (failed(a2) || failed(b2))
      return failure();
    result = ctx.op<MatmulOp>({*a2, *b2});
  } else if (bb.empty() && !vecB) {
    // [..., m, k] x [k, n]: one product over all rows.
    int64_t rows = m;
    for (int64_t d : ba)
      rows *= d;
    FailureOr<Value> a2 =
        ctx.op<ReshapeOp>({a}, {ctx.ints("newshape", {rows, k})});
    if (failed(a2))
      return failure();
    result = ctx.op<MatmulOp>({*a2, b});
  } else {
    int64_t count = 1;
    for (int64_t d : batch)
      count *= d;
    auto to3d = [&](Value v, SmallVector<int64_t> shape, int64_t rows,
                    int64_t cols) -> FailureOr<Value> {
      SmallVector<int64_t> full(batch);
      full.push_back(rows);
      full.push_back(cols);
      FailureOr<Value> r =
          ctx.op<ReshapeOp>({v}, {ctx.ints("newshape", shape)});
      if (failed(r))
        return failure();
      if (ArrayRef(shape) != ArrayRef(full)) {
        r = ctx.op<BroadcastToOp>({*r}, {ctx.ints("shape", full)});
        if (failed(r))
          return failure();
      }
      return ctx.op<ReshapeOp>({*r},
                               {ctx.ints("newshape", {count, rows, cols})});
    };
    SmallVector<int64_t> fullA(batchRank - ba.size(), 1),
        fullB(batchRank - bb.size(), 1);
    fullA.append(sa.begin(), sa.end());
    fullB.append(sb.begin(), sb.end());
    FailureOr<Value> a3 = to3d(a, fullA, m, k);
    FailureOr<Value> b3 = to3d(b, fullB, k, n);
    if (failed(a3) || failed(b3))
      return failure();
    result =
        ctx.op<BatchMatmulOp>({*a3, *b3}, {ctx.boolean("transpose_b", false)});
  }
  if (failed(result))
    return failure();
  FailureOr<Value> shaped =
      ctx.op<ReshapeOp>({*result}, {ctx.ints("newshape", outShape)});
  if (failed(shaped))
    return failure();
  ctx.addOutput(*shaped);
  return success();
}

/// The axis of Softmax, LogSoftmax and Hardmax: default -1, or 1 before
/// opset 13 (`legacy`), where the input is coerced to 2-d at the axis.
FailureOr<int64_t> softmaxAxis(NodeContext &ctx, bool &legacy) {
  legacy = ctx.getOpset() < 13;
  return ctx.axis(ctx.attrInt("axis", legacy ? 1 : -1), ctx.rank(0));
}

/// The [rows, cols] a pre-opset-13 softmax-family op coerces its input to:
/// the dimensions before `axis` and from it on, each multiplied out.
SmallVector<int64_t, 2> coerced2d(ArrayRef<int64_t> shape, int64_t axis) {
  SmallVector<int64_t, 2> rowsCols = {1, 1};
  for (int64_t d = 0, e = shape.size(); d < e; ++d)
    rowsCols[d < axis ? 0 : 1] *= shape[d];
  return rowsCols;
}

/// Softmax and LogSoftmax. Before opset 13 the input is coerced to 2-d at
/// `axis` (default 1) and normalised over the second dimension.
template <typename SoftmaxT> LogicalResult convertSoftmax(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  int64_t rank = ctx.rank(0);
  bool legacy;
  FailureOr<int64_t> axis = softmaxAxis(ctx, legacy);
  if (failed(axis))
    return failure();
  Value x = ctx.input(0);
  if (!legacy || *axis == rank - 1) {
    return ctx.output(ctx.op<SoftmaxT>({x}, {ctx.i64("axis", *axis)}));
  }
  if (!ctx.hasStaticShape(0)) {
    // Sizes known when it runs: flattened by them and back to them; the
    // static sizes stay in the type.
    Emitter b(ctx);
    Value r = b.op<SoftmaxT>({flattenAtRunTime(ctx, b, x, *axis)},
                             {ctx.i64("axis", 1)});
    Value back = b.op<DynReshapeOp>({r, runTimeSizes(ctx, b, x, 0, rank)}, {});
    return b.output(refineKnownDims(ctx, b, back, ctx.shape(0)));
  }
  FailureOr<Value> flat = ctx.op<ReshapeOp>(
      {x}, {ctx.ints("newshape", coerced2d(ctx.shape(0), *axis))});
  if (failed(flat))
    return failure();
  FailureOr<Value> r = ctx.op<SoftmaxT>({*flat}, {ctx.i64("axis", 1)});
  if (failed(r))
    return failure();
  FailureOr<Value> back =
      ctx.op<ReshapeOp>({*r}, {ctx.ints("newshape", ctx.shape(0))});
  if (failed(back))
    return failure();
  ctx.addOutput(*back);
  return success();
}

/// (x - mean) / (sqrt(variance) + 1e-9) over `axes` (default 0, 2, 3), as
/// ONNX's function body defines it.
LogicalResult convertMeanVarianceNorm(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  SmallVector<int64_t> axes;
  for (int64_t a : ctx.attrInts("axes", {0, 2, 3})) {
    FailureOr<int64_t> axis = ctx.axis(a, ctx.rank(0));
    if (failed(axis))
      return failure();
    axes.push_back(*axis);
  }
  Emitter b(ctx);
  Value x = ctx.input(0);
  SmallVector<NamedAttribute> reduce = {ctx.ints("axis", axes),
                                        ctx.boolean("keepdims", true)};
  Value centred = b.op<SubtractOp>({x, b.op<MeanOp>({x}, reduce)});
  Value variance = b.op<MeanOp>({b.mul(centred, centred)}, reduce);
  Value deviation = b.add(b.op<SqrtOp>({variance}), b.scalar(1e-9, x));
  return b.output(b.op<DivideOp>({centred, deviation}));
}

/// Local response normalisation across channels: relay's nn.lrn.
LogicalResult convertLRN(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  if (failed(ctx.spatialRank(0)))
    return failure();
  if (!ctx.hasAttr("size"))
    return ctx.fail("the size attribute is required");
  int64_t size = ctx.attrInt("size", 1);
  if (size <= 0)
    return ctx.fail("size must be positive, got " + Twine(size));
  return ctx.output(ctx.op<LRNOp>(
      {ctx.input(0)}, {ctx.i64("size", size), ctx.i64("axis", 1),
                       ctx.f64("alpha", ctx.attrFloat("alpha", 1e-4)),
                       ctx.f64("beta", ctx.attrFloat("beta", 0.75)),
                       ctx.f64("bias", ctx.attrFloat("bias", 1.0))}));
}

/// One at the first maximum along `axis`, zero elsewhere. Before opset 13
/// the input is coerced to 2-d at `axis` (default 1), as for Softmax.
LogicalResult convertHardmax(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  bool legacy;
  FailureOr<int64_t> axis = softmaxAxis(ctx, legacy);
  if (failed(axis))
    return failure();
  Emitter b(ctx);
  Value x = ctx.input(0);
  ArrayRef<int64_t> shape = ctx.shape(0);
  int64_t along = *axis;
  if (legacy && !ctx.hasStaticShape(0))
    return ctx.fail("hardmax over the flattened axes of an input whose sizes "
                    "depend on the data is not supported");
  if (legacy) {
    x = b.op<ReshapeOp>({x}, {ctx.ints("newshape", coerced2d(shape, *axis))});
    along = 1;
  }
  auto type = cast<RankedTensorType>(x.getType());
  // argmax (kept dims) compared with the positions along the axis.
  Value index = b.op<ArgmaxOp>(
      {x}, {ctx.ints("axis", {along}), ctx.boolean("keepdims", true)});
  int64_t n = type.getDimSize(along);
  SmallVector<int64_t> iotaShape(type.getRank(), 1);
  iotaShape[along] = n;
  Type i32 = IntegerType::get(ctx.getContext(), 32);
  Value iota;
  if (ShapedType::isDynamic(n)) {
    // The positions along an axis whose size is known when it runs.
    iotaShape[along] = -1;
    iota = positionsAlong(ctx, b, x, along, i32, iotaShape);
  } else {
    SmallVector<APInt> positions;
    for (int64_t i = 0; i < n; ++i)
      positions.push_back(APInt(32, i));
    iota = ctx.constant(DenseElementsAttr::get(
        RankedTensorType::get(iotaShape, i32), positions));
  }
  Value oneHot = b.op<CastOp>({b.op<EqualOp>({index, iota})},
                              {ctx.type("dtype", type.getElementType())});
  if (legacy)
    oneHot = b.op<ReshapeOp>({oneHot}, {ctx.ints("newshape", shape)});
  return b.output(oneHot);
}

} // namespace

void mlir::relay::onnx_import::addNNConverters(ConverterTable &t) {
  t["Conv"] = [](NodeContext &ctx) { return convertConv(ctx, false); };
  t["ConvTranspose"] = [](NodeContext &ctx) { return convertConv(ctx, true); };
  t["Col2Im"] = convertCol2Im;
  t["MaxPool"] = convertPool<MaxPool2DOp, MaxPool3DOp>;
  t["AveragePool"] = convertPool<AvgPool2DOp, AvgPool3DOp>;
  t["LpPool"] = convertPool<AvgPool2DOp, AvgPool3DOp, /*isLp=*/true>;
  t["GlobalLpPool"] = convertGlobalLpPool;
  t["GlobalAveragePool"] = convertGlobalPool<GlobalAvgPool2DOp, MeanOp>;
  t["GlobalMaxPool"] = convertGlobalPool<GlobalMaxPool2DOp, MaxOp>;
  t["BatchNormalization"] = convertBatchNorm;
  t["InstanceNormalization"] = convertInstanceNorm;
  t["LayerNormalization"] = convertLayerNorm;
  t["GroupNormalization"] = convertGroupNorm;
  t["Gemm"] = convertGemm;
  t["Det"] = convertDet;
  t["MatMul"] = convertMatMul;
  t["Softmax"] = convertSoftmax<SoftmaxOp>;
  t["LogSoftmax"] = convertSoftmax<LogSoftmaxOp>;
  t["MeanVarianceNormalization"] = convertMeanVarianceNorm;
  t["LRN"] = convertLRN;
  t["Hardmax"] = convertHardmax;
}

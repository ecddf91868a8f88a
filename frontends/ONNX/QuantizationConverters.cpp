//===- QuantizationConverters.cpp - ONNX's quantized operators ------------===//
//
// QuantizeLinear and DequantizeLinear as qnn.quantize/qnn.dequantize
// (DynamicQuantizeLinear with the scale and zero point of the data's range);
// QLinearConv and QLinearMatMul as qnn.conv2d/qnn.dense/qnn.batch_matmul
// into int32 and a qnn.requantize to the output's scale, computed as ONNX's
// reference does (the int32 result times the float32 ratio
// x_scale * w_scale / y_scale, in float64, rounded half to even);
// ConvInteger and MatMulInteger as the int32 products alone. Zero points
// default to 0 (and QuantizeLinear's output type to uint8).
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/Emitter.h"

#include "dialects/relay/QuantizedArithmetic.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

namespace {

Type f32(NodeContext &ctx) { return Float32Type::get(ctx.getContext()); }
Type i32(NodeContext &ctx) { return IntegerType::get(ctx.getContext(), 32); }

/// Input `i`, a scale, as float32.
Value scale(NodeContext &ctx, Emitter &b, unsigned i) {
  return b.castTo(ctx.input(i), f32(ctx));
}

/// Input `i`, a zero point, as int32 (0 when absent).
Value zeroPoint(NodeContext &ctx, Emitter &b, unsigned i) {
  if (!ctx.hasInput(i))
    return ctx.scalar(0, i32(ctx));
  return b.castTo(ctx.input(i), i32(ctx));
}

/// The element type of input `i` (a zero point), or `dflt` when absent.
Type zeroPointType(NodeContext &ctx, unsigned i, Type dflt) {
  return ctx.hasInput(i) ? ctx.elementType(i) : dflt;
}

/// The per-axis `axis` attribute normalised for input 0's rank; ignored
/// (-1) when the scale (input 1) is one value.
FailureOr<int64_t> quantizedAxis(NodeContext &ctx) {
  if (ctx.rank(0) == 0 || ctx.tensorType(1).getNumElements() == 1)
    return int64_t(-1);
  return ctx.axis(ctx.attrInt("axis", 1), ctx.rank(0));
}

/// Opset 21's blocked quantization: the scale (input 1) and zero point
/// (input 2) have x's rank and shape but along `axis`, where each of their
/// ceil(D / block_size) entries covers block_size elements of x (the last
/// block may be shorter). Holds that axis once checked.
struct Blocks {
  int64_t axis = 0, size = 0;

  /// Whether the node quantizes in blocks (block_size set); fails on a
  /// block size or parameter shape the specification does not allow.
  static FailureOr<std::optional<Blocks>> get(NodeContext &ctx) {
    int64_t size = ctx.attrInt("block_size", 0);
    if (size == 0)
      return std::optional<Blocks>();
    if (size < 0)
      return ctx.fail("block_size must be positive, got " + Twine(size));
    int64_t rank = ctx.rank(0);
    if (rank == 0)
      return ctx.fail("blocked quantization (block_size) needs a tensor x, "
                      "got a scalar");
    FailureOr<int64_t> axis = ctx.axis(ctx.attrInt("axis", 1), rank);
    if (failed(axis))
      return failure();
    ArrayRef<int64_t> x = ctx.shape(0);
    if (ShapedType::isDynamic(x[*axis]))
      return ctx.fail("blocked quantization needs x's length along axis " +
                      Twine(*axis) + " known at import");
    int64_t blocks = llvm::divideCeil(x[*axis], size);
    for (unsigned i = 1; i <= 2 && ctx.hasInput(i); ++i) {
      ArrayRef<int64_t> p = ctx.shape(i);
      bool fits = p.size() == x.size();
      for (int64_t d = 0; fits && d < rank; ++d)
        fits = d == *axis ? p[d] == blocks
                          : ShapedType::isDynamic(x[d]) || p[d] == x[d];
      if (!fits) {
        SmallVector<int64_t> want(x);
        want[*axis] = blocks;
        return ctx.fail(Twine(i == 1 ? "the scale" : "the zero point") +
                        " must have shape " + shapeString(want) + " for x " +
                        shapeString(x) + " in blocks of " + Twine(size) +
                        " along axis " + Twine(*axis) + ", got " +
                        shapeString(p));
      }
    }
    return std::optional<Blocks>(Blocks{*axis, size});
  }

  /// Input `i` (a scale or zero point) as `dtype`, each entry repeated over
  /// its block: x's shape.
  Value expand(NodeContext &ctx, Emitter &b, unsigned i, Type dtype) const {
    Value v = b.castTo(ctx.input(i), dtype);
    v = b.op<RepeatOp>({v}, {ctx.i64("repeats", size), ctx.i64("axis", axis)});
    int64_t length = ctx.shape(0)[axis];
    if (ctx.shape(i)[axis] * size == length)
      return v;
    return b.op<StridedSliceOp>({v}, {ctx.ints("begin", {0}),
                                      ctx.ints("end", {length}),
                                      ctx.ints("axes", {axis})});
  }
};

/// Input `i` (a scale or zero point) as float32 that broadcasts to x (input
/// 0): expanded over its blocks, or along the quantized `axis` (-1: one
/// value).
Value parameter(NodeContext &ctx, Emitter &b, unsigned i,
                const std::optional<Blocks> &blocks, int64_t axis) {
  if (blocks)
    return blocks->expand(ctx, b, i, f32(ctx));
  Value v = b.castTo(ctx.input(i), f32(ctx));
  if (axis < 0 || ctx.rank(i) != 1)
    return v;
  SmallVector<int64_t> along(ctx.rank(0), 1);
  along[axis] = ctx.shape(i)[0];
  return b.op<ReshapeOp>({v}, {ctx.ints("newshape", along)});
}

LogicalResult convertQuantizeLinear(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 3)))
    return failure();
  FailureOr<std::optional<Blocks>> blocks = Blocks::get(ctx);
  if (failed(blocks))
    return failure();
  FailureOr<int64_t> axis = *blocks ? int64_t(-1) : quantizedAxis(ctx);
  if (failed(axis))
    return failure();
  Type out = zeroPointType(
      ctx, 2, IntegerType::get(ctx.getContext(), 8, IntegerType::Unsigned));
  // UINT4 and INT4 (opset 21) are held in 8 bits but saturate at 4.
  bool fourBit = ctx.isFourBit(2);
  // Opset 21's output_dtype, which a zero point must match.
  if (int64_t code = ctx.attrInt("output_dtype", 0)) {
    Type named = convertDataType(ctx.getContext(), code);
    if (!named)
      return ctx.fail("output_dtype " + Twine(code) +
                      " is not a supported data type");
    if (ctx.hasInput(2) && (named != out || isFourBit(code) != fourBit))
      return ctx.fail("output_dtype differs from the zero point's type");
    out = named;
    fourBit = isFourBit(code);
  }
  if (!isa<IntegerType>(out))
    return ctx.fail("only integer outputs are supported (the zero point is " +
                    std::string(isa<FloatType>(out) ? "a float"
                                                    : "not an "
                                                      "integer") +
                    ")");
  // Opset 23's precision of x / y_scale: float32 is what qnn.quantize
  // divides in.
  if (int64_t code = ctx.attrInt("precision", 0);
      code && convertDataType(ctx.getContext(), code) != f32(ctx))
    return ctx.fail("precision " + dataTypeName(code) +
                    " is not supported (only FLOAT)");
  Emitter b(ctx);
  Value x = b.castTo(ctx.input(0), f32(ctx));
  if (*blocks || fourBit) {
    // qnn.quantize's arithmetic, with parameters of x's shape (blocks) or
    // saturating at 4 bits.
    auto [lo, hi] = quant::integerRange(cast<IntegerType>(out));
    if (fourBit)
      std::tie(lo, hi) =
          out.isUnsignedInteger() ? std::pair(0, 15) : std::pair(-8, 7);
    Value y = b.op<RoundOp>(
        {b.op<DivideOp>({x, parameter(ctx, b, 1, *blocks, *axis)})});
    if (ctx.hasInput(2))
      y = b.add(y, parameter(ctx, b, 2, *blocks, *axis));
    y = b.op<ClipOp>({y}, {ctx.f64("a_min", lo), ctx.f64("a_max", hi)});
    if (failed(b.output(b.castTo(y, out))))
      return failure();
    if (fourBit)
      ctx.markLastOutputFourBit();
    return success();
  }
  return b.output(b.op<QnnQuantizeOp>(
      {x, scale(ctx, b, 1), zeroPoint(ctx, b, 2)},
      {ctx.i64("axis", *axis), ctx.type("out_dtype", out)}));
}

LogicalResult convertDequantizeLinear(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 3)))
    return failure();
  FailureOr<std::optional<Blocks>> blocks = Blocks::get(ctx);
  if (failed(blocks))
    return failure();
  FailureOr<int64_t> axis = *blocks ? int64_t(-1) : quantizedAxis(ctx);
  if (failed(axis))
    return failure();
  if (!isa<IntegerType>(ctx.elementType(0)))
    return ctx.fail("only integer inputs are supported");
  Emitter b(ctx);
  Value y;
  if (*blocks) {
    // qnn.dequantize's arithmetic with parameters of x's shape.
    y = b.castTo(ctx.input(0), f32(ctx));
    if (ctx.hasInput(2))
      y = b.op<SubtractOp>({y, parameter(ctx, b, 2, *blocks, *axis)});
    y = b.mul(y, parameter(ctx, b, 1, *blocks, *axis));
  } else {
    y = b.op<QnnDequantizeOp>(
        {ctx.input(0), scale(ctx, b, 1), zeroPoint(ctx, b, 2)},
        {ctx.i64("axis", *axis)});
  }
  // The output has the scale's type, or opset 23's output_dtype.
  Type out = ctx.elementType(1);
  if (int64_t code = ctx.attrInt("output_dtype", 0)) {
    out = convertDataType(ctx.getContext(), code);
    if (!out || !isa<FloatType>(out))
      return ctx.fail("output_dtype " + dataTypeName(code) +
                      " is not a floating-point type");
  }
  return b.output(b.castTo(y, out));
}

/// uint8 quantization with the scale and zero point that map
/// [min(0, min x), max(0, max x)] onto [0, 255]: (y, y_scale, y_zero_point).
LogicalResult convertDynamicQuantizeLinear(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  if (!isa<Float32Type>(ctx.elementType(0)))
    return ctx.fail("only float32 inputs are supported");
  Emitter b(ctx);
  Value x = ctx.input(0), zero = ctx.scalar(0.0, f32(ctx));
  Value lo = b.op<MinimumOp>({zero, b.op<MinOp>({x})});
  Value hi = b.op<MaximumOp>({zero, b.op<MaxOp>({x})});
  Value scale =
      b.op<DivideOp>({b.op<SubtractOp>({hi, lo}), ctx.scalar(255.0, f32(ctx))});
  Value zp = b.op<RoundOp>({b.op<NegativeOp>({b.op<DivideOp>({lo, scale})})});
  zp = b.op<ClipOp>({zp}, {ctx.f64("a_min", 0), ctx.f64("a_max", 255)});
  Type u8 = IntegerType::get(ctx.getContext(), 8, IntegerType::Unsigned);
  Value y = b.op<QnnQuantizeOp>({x, scale, b.castTo(zp, i32(ctx))},
                                {ctx.type("out_dtype", u8)});
  Value zpOut = b.castTo(zp, u8);
  if (!b.succeeded())
    return failure();
  ctx.addOutput(y);
  ctx.addOutput(scale);
  ctx.addOutput(zpOut);
  return success();
}

/// x_scale * w_scale / y_scale in float32, as ONNX's reference computes
/// it: a constant where the scales are, else operators.
Value outputRatio(NodeContext &ctx, Emitter &b, unsigned xScale,
                  unsigned wScale, unsigned yScale) {
  ElementsAttr xs = ctx.constantInput(xScale), ws = ctx.constantInput(wScale),
               ys = ctx.constantInput(yScale);
  if (xs && ws && ys && ys.getNumElements() == 1 && xs.getNumElements() == 1) {
    SmallVector<double> w = readDoubles(ws);
    auto x = static_cast<float>(readDoubles(xs)[0]);
    auto y = static_cast<float>(readDoubles(ys)[0]);
    SmallVector<float> ratio;
    for (double v : w)
      ratio.push_back(x * static_cast<float>(v) / y);
    auto type = RankedTensorType::get(cast<ShapedType>(ws.getType()).getShape(),
                                      f32(ctx));
    return ctx.constant(DenseElementsAttr::get(type, ArrayRef<float>(ratio)));
  }
  return b.op<DivideOp>({b.mul(scale(ctx, b, xScale), scale(ctx, b, wScale)),
                         scale(ctx, b, yScale)});
}

/// The int32 `acc` at the output's scale: round(acc * ratio) + y_zero_point
/// in float64, clipped to y_zero_point's type; `axis` is the channels'.
Value requantized(NodeContext &ctx, Emitter &b, Value acc, Value ratio,
                  unsigned yZeroPoint, int64_t axis) {
  Type out = zeroPointType(
      ctx, yZeroPoint,
      IntegerType::get(ctx.getContext(), 8, IntegerType::Unsigned));
  return b.op<QnnRequantizeOp>(
      {acc, ratio, ctx.scalar(0, i32(ctx)), ctx.scalar(1.0, f32(ctx)),
       zeroPoint(ctx, b, yZeroPoint)},
      {ctx.i64("axis", axis), ctx.str("compute_dtype", "float64"),
       ctx.type("out_dtype", out)});
}

/// qnn.conv2d of inputs `x`, `w` with zero points `xZp`, `wZp` (absent:
/// 0) and scales `xScale`, `wScale` (absent: 1).
Value quantizedConv(NodeContext &ctx, Emitter &b, unsigned x, unsigned w,
                    unsigned xZp, unsigned wZp, std::optional<unsigned> xScale,
                    std::optional<unsigned> wScale) {
  if (ctx.rank(x) != 4 || ctx.rank(w) != 4) {
    (void)ctx.fail("only 2-d (NCHW) quantized convolutions are supported");
    return {};
  }
  FailureOr<SmallVector<NamedAttribute>> attrs =
      convAttributes(ctx, ctx.shape(x), ctx.shape(w), /*oneD=*/false);
  if (failed(attrs))
    return {};
  attrs->push_back(ctx.type("out_dtype", i32(ctx)));
  Value one = ctx.scalar(1.0, f32(ctx));
  return b.op<QnnConv2DOp>({ctx.input(x), ctx.input(w), zeroPoint(ctx, b, xZp),
                            zeroPoint(ctx, b, wZp),
                            xScale ? scale(ctx, b, *xScale) : one,
                            wScale ? scale(ctx, b, *wScale) : one},
                           *attrs);
}

LogicalResult convertQLinearConv(NodeContext &ctx) {
  if (failed(ctx.checkInputs(8, 9)))
    return failure();
  Emitter b(ctx);
  Value acc = quantizedConv(ctx, b, 0, 3, 2, 5, 1, 4);
  if (!acc)
    return failure();
  if (ctx.hasInput(8))
    acc = b.op<BiasAddOp>({acc, ctx.input(8)}, {ctx.i64("axis", 1)});
  return b.output(
      requantized(ctx, b, acc, outputRatio(ctx, b, 1, 4, 6), 7, /*axis=*/1));
}

LogicalResult convertConvInteger(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 4)))
    return failure();
  Emitter b(ctx);
  Value acc = quantizedConv(ctx, b, 0, 1, 2, 3, std::nullopt, std::nullopt);
  return acc ? b.output(acc) : failure();
}

/// a [..., M, K] times b [K, N] (or batches of both): qnn.dense on b
/// transposed (a's leading dimensions folded into rows), or
/// qnn.batch_matmul for two 3-d operands; zero points at `aZp`, `bZp`,
/// scales at `aScale`, `bScale` (absent: 1).
Value quantizedMatMul(NodeContext &ctx, Emitter &b, unsigned a, unsigned bIn,
                      unsigned aZp, unsigned bZp,
                      std::optional<unsigned> aScale,
                      std::optional<unsigned> bScale) {
  ArrayRef<int64_t> as = ctx.shape(a), bs = ctx.shape(bIn);
  if (ctx.hasInput(aZp) && ctx.tensorType(aZp).getNumElements() != 1) {
    (void)ctx.fail("a per-row zero point of A is not supported");
    return {};
  }
  Value one = ctx.scalar(1.0, f32(ctx));
  SmallVector<Value> params = {zeroPoint(ctx, b, aZp), zeroPoint(ctx, b, bZp),
                               aScale ? scale(ctx, b, *aScale) : one,
                               bScale ? scale(ctx, b, *bScale) : one};
  NamedAttribute out = ctx.type("out_dtype", i32(ctx));
  if (as.size() == 3 && bs.size() == 3) {
    SmallVector<Value> operands = {ctx.input(a), ctx.input(bIn)};
    operands.append(params);
    return b.op<QnnBatchMatmulOp>(operands,
                                  {out, ctx.boolean("transpose_b", false)});
  }
  if (as.size() < 1 || bs.size() != 2) {
    (void)ctx.fail("only A of rank >= 1 times a 2-d B, or two 3-d batches, "
                   "are supported");
    return {};
  }
  Value bt = b.op<TransposeOp>({ctx.input(bIn)}, {ctx.ints("axes", {1, 0})});
  SmallVector<Value> operands = {ctx.input(a), bt};
  operands.append(params);
  return b.op<QnnDenseOp>(operands, {out, ctx.i64("units", bs[1])});
}

LogicalResult convertQLinearMatMul(NodeContext &ctx) {
  if (failed(ctx.checkInputs(8, 8)))
    return failure();
  Emitter b(ctx);
  Value acc = quantizedMatMul(ctx, b, 0, 3, 2, 5, 1, 4);
  if (!acc)
    return failure();
  return b.output(
      requantized(ctx, b, acc, outputRatio(ctx, b, 1, 4, 6), 7, /*axis=*/-1));
}

LogicalResult convertMatMulInteger(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 4)))
    return failure();
  Emitter b(ctx);
  Value acc = quantizedMatMul(ctx, b, 0, 1, 2, 3, std::nullopt, std::nullopt);
  return acc ? b.output(acc) : failure();
}

} // namespace

void mlir::relay::onnx_import::addQuantizationConverters(ConverterTable &t) {
  t["QuantizeLinear"] = convertQuantizeLinear;
  t["DequantizeLinear"] = convertDequantizeLinear;
  t["DynamicQuantizeLinear"] = convertDynamicQuantizeLinear;
  t["QLinearConv"] = convertQLinearConv;
  t["QLinearMatMul"] = convertQLinearMatMul;
  t["ConvInteger"] = convertConvInteger;
  t["MatMulInteger"] = convertMatMulInteger;
}

//===- QnnRewrites.cpp - TVM's composite quantized operators ---*- C++ -*-===//
//
// qnn.abs, qnn.erf, ..., qnn.tanh, qnn.leaky_relu, qnn.softmax and
// qnn.avg_pool2d in TVM's canonical forms (their FTVMQnnCanonicalize), and
// qnn.conv2d_transpose as TVM legalizes it, and
// qnn.simulated_quantize / simulated_dequantize as topi computes them:
// qnn.quantize, qnn.dequantize and qnn.requantize with Relay's primitive
// operators, which --relay-qnn-canonicalize then turns into integer
// arithmetic (it applies these rewrites too).
//
//===----------------------------------------------------------------------===//

#include "transforms/Decompose/Rewrites.h"

#include "dialects/relay/QuantizedArithmetic.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

namespace {

Type i32Type(Operation *op) { return IntegerType::get(op->getContext(), 32); }

/// The data (operand 0) requantized from its parameters (operands 1, 2) to
/// the output's (3, 4) in int32 (TVM's RequantizeOrUpcast).
Value requantizeToOutput(Emitter &b, Operation *op) {
  return b.op<QnnRequantizeOp>(op->getOperands().take_front(5),
                               {b.type("out_dtype", i32Type(op))});
}

/// quantize(f(dequantize(data))) in the data's dtype.
Value dequantizeApplyQuantize(Emitter &b, Operation *op,
                              function_ref<Value(Value)> f) {
  Value data = op->getOperand(0);
  Value x = b.op<QnnDequantizeOp>({data, op->getOperand(1), op->getOperand(2)});
  Value y = x ? f(x) : Value();
  return b.op<QnnQuantizeOp>({y, op->getOperand(3), op->getOperand(4)},
                             {b.type("out_dtype", elementOf(data))});
}

template <typename FloatOp> Value unary(Emitter &b, Operation *op) {
  return dequantizeApplyQuantize(b, op,
                                 [&](Value x) { return b.op<FloatOp>({x}); });
}

/// x * clip(x + 3, 0, 6) / 6, TVM's Hardswish.
Value hardswish(Emitter &b, Operation *op) {
  return dequantizeApplyQuantize(b, op, [&](Value x) {
    Value y = b.clip(b.add(x, b.scalar(3, x)), 0, 6);
    return b.op<DivideOp>({b.mul(x, y), b.scalar(6, x)});
  });
}

/// fixed_point_multiply of `v` by `multiplier`.
Value fixedPointMultiply(Emitter &b, Value v, double multiplier) {
  quant::FixedPointMultiplier m = quant::getFixedPointMultiplier(multiplier);
  return b.op<FixedPointMultiplyOp>(
      {v}, {b.i64("multiplier", m.significand), b.i64("shift", m.shift)});
}

/// qnn.leaky_relu: q, the data requantized to the output's parameters;
/// alpha * q + (1 - alpha) * output_zero_point (in fixed point) where the
/// data is below its zero point.
Value leakyRelu(Emitter &b, Operation *op) {
  Value data = op->getOperand(0);
  double alpha = floatAttr(op, "alpha");
  Value q = requantizeToOutput(b, op);
  Value below =
      b.op<LessOp>({b.op<CastOp>({data}, {b.type("dtype", i32Type(op))}),
                    op->getOperand(2)});
  Value leaked = b.add(fixedPointMultiply(b, q, alpha),
                       fixedPointMultiply(b, op->getOperand(4), 1 - alpha));
  return clipAndCast(b, b.op<WhereOp>({below, leaked, q}), elementOf(data));
}

/// qnn.avg_pool2d: nn.avg_pool2d of the data requantized to the output's
/// parameters in int32, clipped to the data's dtype.
Value avgPool2d(Emitter &b, Operation *op) {
  SmallVector<NamedAttribute> attrs(op->getAttrs());
  Value pooled = b.op<AvgPool2DOp>({requantizeToOutput(b, op)}, attrs);
  return clipAndCast(b, pooled, elementOf(op->getOperand(0)));
}

/// qnn.conv2d_transpose: nn.conv2d_transpose of the zero-point-shifted
/// operands in int32 (TVM's legalization shifts them in int16; int32 holds
/// the same values for every storage type), the kernel's zero point per
/// output channel along its layout's O axis.
Value conv2dTranspose(Emitter &b, Operation *op) {
  Type i32 = i32Type(op);
  auto shifted = [&](Value v, Value zeroPoint, int64_t axis) {
    ArrayRef<int64_t> shape = shapeOf(zeroPoint);
    if (!shape.empty())
      zeroPoint = shape[0] == 1 ? b.reshape(zeroPoint, {})
                                : alongAxis(b, zeroPoint, axis, 4);
    return b.op<SubtractOp>(
        {b.op<CastOp>({v}, {b.type("dtype", i32)}), zeroPoint});
  };
  StringRef layout =
      cast<StringAttr>(getOperatorAttributes(op).get("kernel_layout"))
          .getValue();
  Value data = shifted(op->getOperand(0), op->getOperand(2), 0);
  Value kernel =
      shifted(op->getOperand(1), op->getOperand(3), layout.find('O'));
  SmallVector<NamedAttribute> attrs(op->getAttrs());
  if (!op->hasAttr("out_dtype"))
    attrs.push_back(b.type("out_dtype", i32));
  return b.op<Conv2DTransposeOp>({data, kernel}, attrs);
}

/// The float value of a constant scalar, if `v` is one.
std::optional<float> constantScalar(Value v) {
  auto c = v.getDefiningOp<ConstantOp>();
  auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : nullptr;
  if (!dense || dense.getNumElements() != 1 ||
      !isa<FloatType>(dense.getElementType()))
    return std::nullopt;
  return (*dense.getValues<APFloat>().begin()).convertToFloat();
}

/// The reduction `ReduceOp` of `v` along `axis`, kept.
template <typename ReduceOp>
Value reduceKept(Emitter &b, Value v, int64_t axis) {
  return b.op<ReduceOp>({v},
                        {b.ints("axis", {axis}), b.boolean("keepdims", true)});
}

/// qnn.softmax, TVM's Shiftmax (Algorithm 1 of arXiv:2207.01405) on int32;
/// it needs the input scale as a constant in (0, 1].
Value softmax(Emitter &b, Operation *op) {
  std::optional<float> scale = constantScalar(op->getOperand(1));
  if (!scale || !(*scale > 0 && *scale <= 1))
    return {};
  Value data = op->getOperand(0);
  int64_t axis = positive(intAttr(op, "axis"), shapeOf(data).size());
  Type i32 = i32Type(op);
  auto c = [&](int64_t v, Value like) { return b.scalar(double(v), like); };
  auto shr = [&](Value v, int64_t n) {
    return b.op<RightShiftOp>({v, c(n, v)});
  };
  int64_t x0 = quant::shiftmaxUnit(*scale);
  Value d = b.op<SubtractOp>(
      {b.op<CastOp>({data}, {b.type("dtype", i32)}), op->getOperand(2)});
  if (!d)
    return {};
  Value x = b.op<SubtractOp>({d, reduceKept<MaxOp>(b, d, axis)});
  Value xp = b.op<SubtractOp>({b.add(x, shr(x, 1)), shr(x, 4)});
  Value q =
      b.clip(b.op<DivideOp>({xp, c(-x0, d)}), 0, quant::kShiftmaxMaxShift);
  Value r = b.op<SubtractOp>({xp, b.mul(q, c(-x0, d))});
  Value xb = b.add(shr(r, 1), c(x0, d));
  Value exps = b.op<LeftShiftOp>(
      {xb, b.op<SubtractOp>({reduceKept<MaxOp>(b, q, axis), q})});
  Value sums = reduceKept<SumOp>(b, exps, axis);
  Value out = shr(
      b.mul(b.op<DivideOp>({c(int64_t(1) << quant::kShiftmaxBits, d), sums}),
            exps),
      quant::kShiftmaxBits - (quant::kShiftmaxOutputBits - 1));
  if (!out)
    return {};
  OpBuilder &rewriter = b.getRewriter();
  auto f32 = RankedTensorType::get({}, rewriter.getF32Type());
  Value unit = b.constant(DenseElementsAttr::get(
      f32,
      rewriter.getF32FloatAttr(1.f / (1 << (quant::kShiftmaxOutputBits - 1)))));
  Value zero = b.constant(DenseElementsAttr::get(
      RankedTensorType::get({}, i32), rewriter.getI32IntegerAttr(0)));
  return b.op<QnnRequantizeOp>(
      {out, unit, zero, op->getOperand(3), op->getOperand(4)},
      {b.type("out_dtype", elementOf(data))});
}

/// A scale or zero point of qnn.simulated_(de)quantize shaped to broadcast
/// along `axis` of a rank-`rank` tensor, in float32.
Value perChannel(Emitter &b, Value param, int64_t axis, int64_t rank) {
  ArrayRef<int64_t> shape = shapeOf(param);
  if (!shape.empty())
    param = shape[0] == 1 || rank == 0 ? b.reshape(param, {})
                                       : alongAxis(b, param, axis, rank);
  if (!isa<Float32Type>(elementOf(param)))
    param = b.op<CastOp>(
        {param}, {b.type("dtype", Float32Type::get(param.getContext()))});
  return param;
}

/// The simulated result for each integer type code (1 int8, 2 uint8, 3
/// int32; `integer` gives it for a type, null for no clipping) chosen by
/// the dtype operand; 0 leaves the data.
Value byDtypeCode(Emitter &b, Operation *op,
                  function_ref<Value(IntegerType)> integer) {
  MLIRContext *ctx = op->getContext();
  Value code = op->getOperand(1), out = op->getOperand(0);
  std::pair<int64_t, IntegerType> types[] = {
      {1, IntegerType::get(ctx, 8)},
      {2, IntegerType::get(ctx, 8, IntegerType::Unsigned)},
      {3, IntegerType::get(ctx, 32)}};
  for (auto [c, type] : types) {
    Value chosen = b.op<EqualOp>({code, b.scalar(double(c), code)});
    out = b.op<WhereOp>({chosen, integer(type), out});
  }
  return out;
}

/// qnn.simulated_quantize: clip(round(data / scale) + zero_point) to the
/// chosen type's range, in float32.
Value simulatedQuantize(Emitter &b, Operation *op) {
  Value x = op->getOperand(0);
  int64_t rank = shapeOf(x).size();
  int64_t axis = rank ? positive(intAttr(op, "axis"), rank) : 0;
  Value q = b.add(b.op<RoundOp>({b.op<DivideOp>(
                      {x, perChannel(b, op->getOperand(2), axis, rank)})}),
                  perChannel(b, op->getOperand(3), axis, rank));
  return byDtypeCode(b, op, [&](IntegerType type) {
    auto [lo, hi] = quant::integerRange(type);
    return b.clip(q, lo, hi);
  });
}

/// qnn.simulated_dequantize: (data - zero_point) * scale for every integer
/// type.
Value simulatedDequantize(Emitter &b, Operation *op) {
  Value x = op->getOperand(0);
  int64_t rank = shapeOf(x).size();
  int64_t axis = rank ? positive(intAttr(op, "axis"), rank) : 0;
  Value v =
      b.mul(b.op<SubtractOp>({x, perChannel(b, op->getOperand(3), axis, rank)}),
            perChannel(b, op->getOperand(2), axis, rank));
  return byDtypeCode(b, op, [&](IntegerType) { return v; });
}

} // namespace

Value mlir::relay::decompose::clipAndCast(Emitter &b, Value v, Type dtype) {
  auto [lo, hi] = quant::integerRange(cast<IntegerType>(dtype));
  v = b.clip(v, lo, hi);
  if (!v || elementOf(v) == dtype)
    return v;
  return b.op<CastOp>({v}, {b.type("dtype", dtype)});
}

void mlir::relay::decompose::addQnnRewrites(AddRewrite add) {
  add("qnn.abs", unary<AbsOp>);
  add("qnn.erf", unary<ErfOp>);
  add("qnn.exp", unary<ExpOp>);
  add("qnn.hardswish", hardswish);
  add("qnn.log", unary<LogOp>);
  add("qnn.rsqrt", unary<RsqrtOp>);
  add("qnn.sigmoid", unary<SigmoidOp>);
  add("qnn.sqrt", unary<SqrtOp>);
  add("qnn.tanh", unary<TanhOp>);
  add("qnn.leaky_relu", leakyRelu);
  add("qnn.avg_pool2d", avgPool2d);
  add("qnn.conv2d_transpose", conv2dTranspose);
  add("qnn.softmax", softmax);
  add("qnn.simulated_quantize", simulatedQuantize);
  add("qnn.simulated_dequantize", simulatedDequantize);
}

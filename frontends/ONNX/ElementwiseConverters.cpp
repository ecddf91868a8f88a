//===- ElementwiseConverters.cpp - ONNX elementwise ops ---------*- C++ -*-===//
//
// ONNX's elementwise ops map to relay's one to one where relay has the op
// (both broadcast numpy-style); activations relay lacks are composed from
// elementwise relay ops. Integer arithmetic on import-time constants (shape
// computations) is folded.
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/Converters.h"
#include "frontends/ONNX/Emitter.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

namespace {

/// A scalar of `x`'s element type.
Value scalarLike(NodeContext &ctx, Value x, double v) {
  return ctx.scalar(v, cast<RankedTensorType>(x.getType()).getElementType());
}

/// The relay operator `OpT` of the node's input.
template <typename OpT> OpConverter unary() {
  return [](NodeContext &ctx) -> LogicalResult {
    if (failed(ctx.checkInputs(1, 1)))
      return failure();
    return ctx.output(ctx.op<OpT>({ctx.input(0)}));
  };
}

/// `OpT`'s name without the dialect prefix (`add`).
template <typename OpT> StringRef operatorName() {
  return StringRef(OpT::getOperationName()).drop_front(strlen("relay."));
}

/// Folds integer arithmetic (+ - * /, mod, comparisons) on small constants
/// (shape computations):
/// same shapes, or one side a single element.
ElementsAttr foldIntegerBinary(NodeContext &ctx, StringRef name) {
  ElementsAttr a = ctx.constantInput(0), b = ctx.constantInput(1);
  if (!a || !b || !isa<IntegerType>(a.getElementType()) ||
      a.getElementType() != b.getElementType() || a.getNumElements() > 1024 ||
      b.getNumElements() > 1024)
    return {};
  SmallVector<int64_t> x = readInts(a), y = readInts(b);
  auto ta = cast<RankedTensorType>(a.getType());
  auto tb = cast<RankedTensorType>(b.getType());
  RankedTensorType out = ta;
  if (ta.getShape() != tb.getShape()) {
    if (y.size() == 1 && tb.getRank() <= ta.getRank())
      y.assign(x.size(), y.front());
    else if (x.size() == 1 && ta.getRank() <= tb.getRank()) {
      x.assign(y.size(), x.front());
      out = tb;
    } else {
      return {};
    }
  }
  bool compare = name == "equal" || name == "less" || name == "greater";
  SmallVector<APInt> values;
  unsigned width = compare ? 1 : out.getElementType().getIntOrFloatBitWidth();
  for (size_t i = 0; i < x.size(); ++i) {
    int64_t r;
    if (name == "add")
      r = x[i] + y[i];
    else if (name == "subtract")
      r = x[i] - y[i];
    else if (name == "multiply")
      r = x[i] * y[i];
    else if (name == "divide") {
      if (y[i] == 0)
        return {};
      r = x[i] / y[i];
    } else if (name == "mod" || name == "floor_mod") {
      if (y[i] == 0)
        return {};
      r = x[i] % y[i];
      // floor_mod takes the divisor's sign.
      if (name == "floor_mod" && r != 0 && ((r < 0) != (y[i] < 0)))
        r += y[i];
    } else if (name == "equal")
      r = x[i] == y[i];
    else if (name == "less")
      r = x[i] < y[i];
    else if (name == "greater")
      r = x[i] > y[i];
    else
      return {};
    values.push_back(APInt(width, r, /*isSigned=*/width > 1,
                           /*implicitTrunc=*/true));
  }
  Type element = compare ? Type(IntegerType::get(ctx.getContext(), 1))
                         : out.getElementType();
  return DenseElementsAttr::get(RankedTensorType::get(out.getShape(), element),
                                values);
}

/// The second operand of a binary op as numpy broadcasting sees it. Before
/// opset 7, `broadcast = 1` with an `axis` matches B's dimensions to A's
/// from that axis on (B [3] against A [2, 3, 4] at axis 1 is [3, 1]);
/// without `axis` B matches A's trailing dimensions, as in numpy. Without
/// `broadcast` the shapes are equal.
FailureOr<Value> legacyBroadcastOperand(NodeContext &ctx) {
  Value b = ctx.input(1);
  if (ctx.getOpset() >= 7 || ctx.attrInt("broadcast", 0) == 0 ||
      !ctx.hasAttr("axis"))
    return b;
  int64_t rankA = ctx.rank(0), rankB = ctx.rank(1);
  int64_t axis = ctx.attrInt("axis", 0);
  if (axis < 0)
    axis += rankA;
  if (axis < 0 || axis + rankB > rankA)
    return ctx.fail("axis " + Twine(ctx.attrInt("axis", 0)) +
                    " does not place B's " + Twine(rankB) +
                    " dimensions within A's " + Twine(rankA));
  if (axis + rankB == rankA)
    return b;
  SmallVector<int64_t> shape(ctx.shape(1));
  shape.append(rankA - axis - rankB, 1);
  return ctx.op<ReshapeOp>({b}, {ctx.ints("newshape", shape)});
}

/// The relay operator `OpT` of the node's two inputs (folded when both
/// are small integer constants).
template <typename OpT> OpConverter binary() {
  return [](NodeContext &ctx) -> LogicalResult {
    if (failed(ctx.checkInputs(2, 2)))
      return failure();
    if (ElementsAttr folded = foldIntegerBinary(ctx, operatorName<OpT>())) {
      ctx.addOutput(ctx.constant(folded), folded);
      return success();
    }
    FailureOr<Value> b = legacyBroadcastOperand(ctx);
    if (failed(b))
      return failure();
    return ctx.output(ctx.op<OpT>({ctx.input(0), *b}));
  };
}

/// Sum, Max, Min, Mean: a left fold over any number of inputs.
template <typename OpT> OpConverter variadic(bool mean = false) {
  return [mean](NodeContext &ctx) -> LogicalResult {
    unsigned n = ctx.getNumInputs();
    if (n == 0)
      return ctx.fail("needs at least one input");
    if (failed(ctx.checkInputs(n, n)))
      return failure();
    Value acc = ctx.input(0);
    for (unsigned i = 1; i < n; ++i) {
      FailureOr<Value> r = ctx.op<OpT>({acc, ctx.input(i)});
      if (failed(r))
        return failure();
      acc = *r;
    }
    if (mean) {
      FailureOr<Value> r =
          ctx.op<DivideOp>({acc, scalarLike(ctx, acc, static_cast<double>(n))});
      if (failed(r))
        return failure();
      acc = *r;
    }
    ctx.addOutput(acc);
    return success();
  };
}

/// Builds a composite activation of input 0 with `body`.
using Body = std::function<FailureOr<Value>(NodeContext &, Value)>;
OpConverter composite(Body body) {
  return [body](NodeContext &ctx) -> LogicalResult {
    if (failed(ctx.checkInputs(1, 1)))
      return failure();
    if (!isa<FloatType>(ctx.elementType(0)))
      return ctx.fail("expects a floating-point input");
    return ctx.output(body(ctx, ctx.input(0)));
  };
}

/// where(x > 0, x, alpha * (exp(x) - 1)), scaled by gamma (Elu, Selu).
FailureOr<Value> elu(NodeContext &ctx, Value x, double alpha, double gamma) {
  FailureOr<Value> e = ctx.op<ExpOp>({x});
  if (failed(e))
    return failure();
  FailureOr<Value> em1 = ctx.op<SubtractOp>({*e, scalarLike(ctx, x, 1)});
  if (failed(em1))
    return failure();
  FailureOr<Value> neg = ctx.op<MultiplyOp>({*em1, scalarLike(ctx, x, alpha)});
  FailureOr<Value> pos = ctx.op<GreaterOp>({x, scalarLike(ctx, x, 0)});
  if (failed(neg) || failed(pos))
    return failure();
  FailureOr<Value> r = ctx.op<WhereOp>({*pos, x, *neg});
  if (failed(r) || gamma == 1.0)
    return r;
  return ctx.op<MultiplyOp>({*r, scalarLike(ctx, x, gamma)});
}

/// clip(alpha * x + beta, 0, 1).
FailureOr<Value> hardSigmoid(NodeContext &ctx, Value x, double alpha,
                             double beta) {
  FailureOr<Value> ax = ctx.op<MultiplyOp>({x, scalarLike(ctx, x, alpha)});
  if (failed(ax))
    return failure();
  FailureOr<Value> axb = ctx.op<AddOp>({*ax, scalarLike(ctx, x, beta)});
  if (failed(axb))
    return failure();
  return ctx.op<ClipOp>({*axb}, {ctx.f64("a_min", 0), ctx.f64("a_max", 1)});
}

LogicalResult convertClip(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 3)))
    return failure();
  Value x = ctx.input(0);
  bool isFloat = isa<FloatType>(ctx.elementType(0));
  double lo = ctx.attrFloat("min", -std::numeric_limits<double>::infinity());
  double hi = ctx.attrFloat("max", std::numeric_limits<double>::infinity());
  // Opset 11+: min and max are optional inputs; constants become clip's
  // attributes, other values maximum/minimum.
  Value result = x;
  for (unsigned i : {1u, 2u}) {
    if (!ctx.hasInput(i))
      continue;
    if (ElementsAttr c = ctx.constantInput(i)) {
      (i == 1 ? lo : hi) = readDoubles(c).front();
      continue;
    }
    FailureOr<Value> r = i == 1 ? ctx.op<MaximumOp>({result, ctx.input(i)})
                                : ctx.op<MinimumOp>({result, ctx.input(i)});
    if (failed(r))
      return failure();
    result = *r;
  }
  if (!isFloat) {
    // clip's bounds are doubles; integer bounds go through maximum/minimum
    // to stay exact.
    if (!std::isinf(lo)) {
      FailureOr<Value> r = ctx.op<MaximumOp>({result, scalarLike(ctx, x, lo)});
      if (failed(r))
        return failure();
      result = *r;
    }
    if (!std::isinf(hi)) {
      FailureOr<Value> r = ctx.op<MinimumOp>({result, scalarLike(ctx, x, hi)});
      if (failed(r))
        return failure();
      result = *r;
    }
    ctx.addOutput(result);
    return success();
  }
  if (!std::isinf(lo) || !std::isinf(hi)) {
    double big = std::numeric_limits<double>::max();
    FailureOr<Value> r =
        ctx.op<ClipOp>({result}, {ctx.f64("a_min", std::isinf(lo) ? -big : lo),
                                  ctx.f64("a_max", std::isinf(hi) ? big : hi)});
    if (failed(r))
      return failure();
    result = *r;
  }
  ctx.addOutput(result);
  return success();
}

/// Input 0 cast to ONNX's UINT4 or INT4 (held in uint8 or int8) as ONNX's
/// reference casts: clipped to [0, 15] or [-8, 7], floats then rounded to
/// nearest even.
LogicalResult castToFourBit(NodeContext &ctx, bool isSigned) {
  Emitter b(ctx);
  Value v = ctx.input(0);
  if (ctx.elementType(0).isInteger(1))
    v = b.castTo(v, IntegerType::get(ctx.getContext(), 8));
  v = b.op<ClipOp>({v}, {ctx.f64("a_min", isSigned ? -8 : 0),
                         ctx.f64("a_max", isSigned ? 7 : 15)});
  if (isa<FloatType>(ctx.elementType(0)))
    v = b.op<RoundOp>({v});
  Type to = IntegerType::get(ctx.getContext(), 8,
                             isSigned ? IntegerType::Signless
                                      : IntegerType::Unsigned);
  if (failed(b.output(b.castTo(v, to))))
    return failure();
  ctx.markLastOutputFourBit();
  return success();
}

LogicalResult convertCast(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  // Before opset 6 `to` is the type's name ("FLOAT").
  int64_t code = ctx.attrInt("to", 0);
  if (const onnx::AttributeProto *a = ctx.attribute("to");
      a && a->type() == onnx::AttributeProto::STRING) {
    onnx::TensorProto::DataType named;
    if (!onnx::TensorProto::DataType_Parse(a->s(), &named))
      return ctx.fail("unknown data type '" + a->s() + "'");
    code = named;
  }
  if (isFourBit(code))
    return castToFourBit(ctx, code == kInt4);
  Type to = convertDataType(ctx.getContext(), code);
  if (!to)
    return ctx.fail("casts to an unsupported data type (" + dataTypeName(code) +
                    ")");
  ElementsAttr c = ctx.constantInput(0);
  if (c && isa<IntegerType>(to) && isa<IntegerType>(c.getElementType()) &&
      c.getNumElements() <= 1024 && !to.isInteger(1)) {
    SmallVector<APInt> values;
    for (int64_t v : readInts(c))
      values.push_back(APInt(to.getIntOrFloatBitWidth(), v,
                             !to.isUnsignedInteger(), /*implicitTrunc=*/true));
    auto folded =
        DenseElementsAttr::get(RankedTensorType::get(ctx.shape(0), to), values);
    ctx.addOutput(ctx.constant(folded), folded);
    return success();
  }
  return ctx.output(ctx.op<CastOp>({ctx.input(0)}, {ctx.type("dtype", to)}));
}

/// BitCast (opset 26): each element's bits read as `to`, of the same width.
LogicalResult convertBitCast(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  if (!ctx.hasAttr("to"))
    return ctx.fail("attribute to is required");
  int64_t code = ctx.attrInt("to", 0);
  Type to = convertDataType(ctx.getContext(), code);
  if (!to || isFourBit(code))
    return ctx.fail("reinterprets as an unsupported data type (" +
                    dataTypeName(code) + ")");
  Type from = ctx.elementType(0);
  if (from.isInteger(1) || to.isInteger(1))
    return ctx.fail("bool tensors cannot be reinterpreted");
  if (!from.isIntOrFloat() || !to.isIntOrFloat())
    return ctx.fail("only integer and floating-point tensors can be "
                    "reinterpreted");
  if (from.getIntOrFloatBitWidth() != to.getIntOrFloatBitWidth()) {
    ctx.emitError() << "cannot reinterpret " << from << " ("
                    << from.getIntOrFloatBitWidth() << " bits) as " << to
                    << " (" << to.getIntOrFloatBitWidth()
                    << " bits): BitCast keeps the width";
    return failure();
  }
  return ctx.output(
      ctx.op<ReinterpretOp>({ctx.input(0)}, {ctx.type("dtype", to)}));
}

LogicalResult convertCastLike(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 2)))
    return failure();
  if (ctx.isFourBit(1))
    return castToFourBit(ctx, !ctx.elementType(1).isUnsignedInteger());
  return ctx.output(
      ctx.op<CastOp>({ctx.input(0)}, {ctx.type("dtype", ctx.elementType(1))}));
}

LogicalResult convertPow(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 2)))
    return failure();
  FailureOr<Value> legacy = legacyBroadcastOperand(ctx);
  if (failed(legacy))
    return failure();
  Value exponent = *legacy;
  // ONNX lets the exponent's type differ; relay's power takes one type.
  if (ctx.elementType(1) != ctx.elementType(0)) {
    FailureOr<Value> c =
        ctx.op<CastOp>({exponent}, {ctx.type("dtype", ctx.elementType(0))});
    if (failed(c))
      return failure();
    exponent = *c;
  }
  return ctx.output(ctx.op<PowerOp>({ctx.input(0), exponent}));
}

LogicalResult convertMod(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 2)))
    return failure();
  // fmod = 1: C's fmod (sign of the dividend); otherwise Python's (sign of
  // the divisor), integers only.
  bool fmod = ctx.attrInt("fmod", 0) != 0;
  if (!fmod && isa<FloatType>(ctx.elementType(0)))
    return ctx.fail("fmod = 0 is defined for integers only");
  StringRef name = fmod ? "mod" : "floor_mod";
  if (ElementsAttr folded = foldIntegerBinary(ctx, name)) {
    ctx.addOutput(ctx.constant(folded), folded);
    return success();
  }
  return ctx.output(fmod ? ctx.op<ModOp>({ctx.input(0), ctx.input(1)})
                         : ctx.op<FloorModOp>({ctx.input(0), ctx.input(1)}));
}

LogicalResult convertBitShift(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 2)))
    return failure();
  std::string direction = ctx.attrString("direction", "");
  if (direction != "LEFT" && direction != "RIGHT")
    return ctx.fail("direction must be LEFT or RIGHT");
  Value inputs[] = {ctx.input(0), ctx.input(1)};
  return ctx.output(direction == "LEFT" ? ctx.op<LeftShiftOp>(inputs)
                                        : ctx.op<RightShiftOp>(inputs));
}

/// Where on small known integers (shape computations: torch.expand's
/// `where(shape == -1, ones, shape)`), elementwise or with single-element
/// operands broadcast.
ElementsAttr foldIntegerWhere(NodeContext &ctx) {
  ElementsAttr c = ctx.constantInput(0), a = ctx.constantInput(1),
               b = ctx.constantInput(2);
  if (!c || !a || !b || !isa<IntegerType>(a.getElementType()) ||
      a.getElementType() != b.getElementType())
    return {};
  auto type = dyn_cast<RankedTensorType>(c.getType());
  int64_t n = c.getNumElements();
  if (!type || n > 1024)
    return {};
  SmallVector<int64_t> cond = readInts(c), x = readInts(a), y = readInts(b);
  for (auto *v : {&x, &y})
    if (v->size() == 1)
      v->assign(n, v->front());
  if (static_cast<int64_t>(x.size()) != n ||
      static_cast<int64_t>(y.size()) != n)
    return {};
  unsigned width = a.getElementType().getIntOrFloatBitWidth();
  SmallVector<APInt> values;
  for (int64_t i = 0; i < n; ++i)
    values.push_back(APInt(width, cond[i] ? x[i] : y[i], /*isSigned=*/true,
                           /*implicitTrunc=*/true));
  return DenseElementsAttr::get(
      RankedTensorType::get(type.getShape(), a.getElementType()), values);
}

LogicalResult convertWhere(NodeContext &ctx) {
  if (failed(ctx.checkInputs(3, 3)))
    return failure();
  if (ElementsAttr folded = foldIntegerWhere(ctx)) {
    ctx.addOutput(ctx.constant(folded), folded);
    return success();
  }
  return ctx.output(
      ctx.op<WhereOp>({ctx.input(0), ctx.input(1), ctx.input(2)}));
}

LogicalResult convertPRelu(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 2)))
    return failure();
  Value x = ctx.input(0), slope = ctx.input(1);
  // Before opset 7 a slope of one value per channel ([C]) applies along
  // axis 1, not along the last axis as numpy broadcasting would.
  int64_t rank = ctx.rank(0);
  if (ctx.getOpset() < 7 && ctx.rank(1) == 1 && rank > 2 &&
      ctx.shape(1)[0] != 1) {
    SmallVector<int64_t> shape(rank - 1, 1);
    shape[0] = ctx.shape(1)[0];
    FailureOr<Value> v =
        ctx.op<ReshapeOp>({slope}, {ctx.ints("newshape", shape)});
    if (failed(v))
      return failure();
    slope = *v;
  }
  FailureOr<Value> scaled = ctx.op<MultiplyOp>({x, slope});
  FailureOr<Value> neg = ctx.op<LessOp>({x, scalarLike(ctx, x, 0)});
  if (failed(scaled) || failed(neg))
    return failure();
  return ctx.output(ctx.op<WhereOp>({*neg, *scaled, x}));
}

LogicalResult convertIdentity(NodeContext &ctx) {
  // A sequence or an optional passes through with what is known of it.
  if (ctx.getNumInputs() == 1 && ctx.hasInput(0) && !ctx.tensorType(0)) {
    ctx.addOutput(ctx.input(0), ctx.knownElements(0));
    return success();
  }
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  ctx.addOutput(ctx.input(0), ctx.constantInput(0));
  return success();
}

/// x + bias below -lambd, x - bias above lambd, 0 between.
LogicalResult convertShrink(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  Emitter b(ctx);
  Value x = ctx.input(0);
  double lambd = ctx.attrFloat("lambd", 0.5), bias = ctx.attrFloat("bias", 0);
  Value below = b.op<LessOp>({x, b.scalar(-lambd, x)});
  Value above = b.op<GreaterOp>({x, b.scalar(lambd, x)});
  Value inner = b.op<WhereOp>(
      {above, b.op<SubtractOp>({x, b.scalar(bias, x)}), b.scalar(0, x)});
  return b.output(b.op<WhereOp>({below, b.add(x, b.scalar(bias, x)), inner}));
}

/// IsNaN: relay's isnan. IsInf: x == +inf and/or x == -inf.
LogicalResult convertIsNaNOrInf(NodeContext &ctx, bool nan) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  if (!isa<FloatType>(ctx.elementType(0)))
    return ctx.fail("expects a floating-point input");
  Emitter b(ctx);
  Value x = ctx.input(0);
  if (nan)
    return b.output(b.op<IsNanOp>({x}));
  double inf = std::numeric_limits<double>::infinity();
  bool positive = ctx.attrInt("detect_positive", 1) != 0;
  bool negative = ctx.attrInt("detect_negative", 1) != 0;
  if (!positive && !negative)
    return b.output(ctx.constant(DenseElementsAttr::get(
        RankedTensorType::get(ctx.shape(0),
                              IntegerType::get(ctx.getContext(), 1)),
        false)));
  Value r;
  if (positive)
    r = b.op<EqualOp>({x, b.scalar(inf, x)});
  if (negative) {
    Value n = b.op<EqualOp>({x, b.scalar(-inf, x)});
    r = r ? b.op<LogicalOrOp>({r, n}) : n;
  }
  return b.output(r);
}

} // namespace

FailureOr<Value> mlir::relay::onnx_import::activation(NodeContext &ctx,
                                                      StringRef name, Value x,
                                                      double alpha,
                                                      double beta) {
  if (name == "Relu")
    return ctx.op<ReluOp>({x});
  if (name == "Tanh")
    return ctx.op<TanhOp>({x});
  if (name == "Sigmoid")
    return ctx.op<SigmoidOp>({x});
  if (name == "LeakyRelu")
    return ctx.op<LeakyReluOp>({x}, {ctx.f64("alpha", alpha)});
  if (name == "HardSigmoid")
    return hardSigmoid(ctx, x, alpha, beta);
  if (name == "Elu")
    return elu(ctx, x, alpha, 1.0);
  if (name == "Affine" || name == "ScaledTanh") {
    // alpha * x + beta; alpha * tanh(beta * x).
    Value inner = x;
    if (name == "ScaledTanh") {
      FailureOr<Value> bx = ctx.op<MultiplyOp>({x, scalarLike(ctx, x, beta)});
      if (failed(bx))
        return failure();
      FailureOr<Value> t = ctx.op<TanhOp>({*bx});
      if (failed(t))
        return failure();
      inner = *t;
    }
    FailureOr<Value> ax =
        ctx.op<MultiplyOp>({inner, scalarLike(ctx, x, alpha)});
    if (failed(ax) || name == "ScaledTanh")
      return ax;
    return ctx.op<AddOp>({*ax, scalarLike(ctx, x, beta)});
  }
  if (name == "Softplus") {
    FailureOr<Value> e = ctx.op<ExpOp>({x});
    if (failed(e))
      return failure();
    FailureOr<Value> e1 = ctx.op<AddOp>({*e, scalarLike(ctx, x, 1)});
    if (failed(e1))
      return failure();
    return ctx.op<LogOp>({*e1});
  }
  if (name == "Softsign") {
    FailureOr<Value> a = ctx.op<AbsOp>({x});
    if (failed(a))
      return failure();
    FailureOr<Value> a1 = ctx.op<AddOp>({*a, scalarLike(ctx, x, 1)});
    if (failed(a1))
      return failure();
    return ctx.op<DivideOp>({x, *a1});
  }
  if (name == "ThresholdedRelu") {
    FailureOr<Value> above = ctx.op<GreaterOp>({x, scalarLike(ctx, x, alpha)});
    if (failed(above))
      return failure();
    return ctx.op<WhereOp>({*above, x, scalarLike(ctx, x, 0)});
  }
  return ctx.fail("unknown activation function '" + name + "'");
}

void mlir::relay::onnx_import::addElementwiseConverters(ConverterTable &t) {
  t["Abs"] = unary<AbsOp>();
  t["Neg"] = unary<NegativeOp>();
  t["Exp"] = unary<ExpOp>();
  t["Log"] = unary<LogOp>();
  t["Sqrt"] = unary<SqrtOp>();
  t["Relu"] = unary<ReluOp>();
  t["Sigmoid"] = unary<SigmoidOp>();
  t["Tanh"] = unary<TanhOp>();
  t["Erf"] = unary<ErfOp>();
  t["Floor"] = unary<FloorOp>();
  t["Ceil"] = unary<CeilOp>();
  t["Round"] = unary<RoundOp>();
  t["Sin"] = unary<SinOp>();
  t["Cos"] = unary<CosOp>();
  t["Tan"] = unary<TanOp>();
  t["Asin"] = unary<AsinOp>();
  t["Acos"] = unary<AcosOp>();
  t["Atan"] = unary<AtanOp>();
  t["Sinh"] = unary<SinhOp>();
  t["Cosh"] = unary<CoshOp>();
  t["Asinh"] = unary<AsinhOp>();
  t["Acosh"] = unary<AcoshOp>();
  t["Atanh"] = unary<AtanhOp>();
  t["Sign"] = unary<SignOp>();
  t["Not"] = unary<LogicalNotOp>();
  // Opset 18.
  t["BitwiseNot"] = unary<BitwiseNotOp>();
  t["Add"] = binary<AddOp>();
  t["Sub"] = binary<SubtractOp>();
  t["Mul"] = binary<MultiplyOp>();
  t["Div"] = binary<DivideOp>();
  t["Equal"] = binary<EqualOp>();
  t["Less"] = binary<LessOp>();
  t["LessOrEqual"] = binary<LessEqualOp>();
  t["Greater"] = binary<GreaterOp>();
  t["GreaterOrEqual"] = binary<GreaterEqualOp>();
  t["And"] = binary<LogicalAndOp>();
  t["Or"] = binary<LogicalOrOp>();
  t["Xor"] = binary<LogicalXorOp>();
  t["BitwiseAnd"] = binary<BitwiseAndOp>();
  t["BitwiseOr"] = binary<BitwiseOrOp>();
  t["BitwiseXor"] = binary<BitwiseXorOp>();
  t["Sum"] = variadic<AddOp>();
  t["Max"] = variadic<MaximumOp>();
  t["Min"] = variadic<MinimumOp>();
  t["Mean"] = variadic<AddOp>(/*mean=*/true);
  t["Pow"] = convertPow;
  t["Mod"] = convertMod;
  t["BitShift"] = convertBitShift;
  t["Where"] = convertWhere;
  t["Clip"] = convertClip;
  t["Cast"] = convertCast;
  t["BitCast"] = convertBitCast;
  t["CastLike"] = convertCastLike;
  t["PRelu"] = convertPRelu;
  t["Identity"] = convertIdentity;
  t["LeakyRelu"] = [](NodeContext &ctx) -> LogicalResult {
    if (failed(ctx.checkInputs(1, 1)))
      return failure();
    return ctx.output(ctx.op<LeakyReluOp>(
        {ctx.input(0)}, {ctx.f64("alpha", ctx.attrFloat("alpha", 0.01))}));
  };
  t["Reciprocal"] = composite([](NodeContext &ctx, Value x) {
    return ctx.op<DivideOp>({scalarLike(ctx, x, 1), x});
  });
  t["Elu"] = composite([](NodeContext &ctx, Value x) {
    return activation(ctx, "Elu", x, ctx.attrFloat("alpha", 1.0), 0.0);
  });
  // alpha * elu(x / alpha): where(x > 0, x, alpha * (exp(x / alpha) - 1)).
  t["Celu"] = composite([](NodeContext &ctx, Value x) -> FailureOr<Value> {
    double alpha = ctx.attrFloat("alpha", 1.0);
    if (!(alpha != 0) || !std::isfinite(alpha))
      return ctx.fail("its alpha must be finite and not zero");
    FailureOr<Value> scaled = ctx.op<DivideOp>({x, scalarLike(ctx, x, alpha)});
    if (failed(scaled))
      return failure();
    FailureOr<Value> e = elu(ctx, *scaled, 1.0, 1.0);
    if (failed(e))
      return failure();
    return ctx.op<MultiplyOp>({*e, scalarLike(ctx, x, alpha)});
  });
  t["Selu"] = composite([](NodeContext &ctx, Value x) {
    return elu(ctx, x, ctx.attrFloat("alpha", 1.67326319217681884765625),
               ctx.attrFloat("gamma", 1.05070102214813232421875));
  });
  t["HardSigmoid"] = composite([](NodeContext &ctx, Value x) {
    return activation(ctx, "HardSigmoid", x, ctx.attrFloat("alpha", 0.2),
                      ctx.attrFloat("beta", 0.5));
  });
  t["HardSwish"] = composite([](NodeContext &ctx, Value x) -> FailureOr<Value> {
    FailureOr<Value> h = hardSigmoid(ctx, x, 1.0 / 6, 0.5);
    if (failed(h))
      return failure();
    return ctx.op<MultiplyOp>({x, *h});
  });
  for (StringRef name : {"Softplus", "Softsign"})
    t[name] = composite([name](NodeContext &ctx, Value x) {
      return activation(ctx, name, x, 0.0, 0.0);
    });
  // Opset 18's Mish: x * tanh(softplus(x)).
  t["Mish"] = composite([](NodeContext &ctx, Value x) -> FailureOr<Value> {
    FailureOr<Value> sp = activation(ctx, "Softplus", x, 0.0, 0.0);
    if (failed(sp))
      return failure();
    FailureOr<Value> t = ctx.op<TanhOp>({*sp});
    if (failed(t))
      return failure();
    return ctx.op<MultiplyOp>({x, *t});
  });
  // Opset 20's Gelu: x * (1 + erf(x / sqrt 2)) / 2, or with approximate
  // = "tanh", x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3))) / 2.
  t["Gelu"] = composite([](NodeContext &ctx, Value x) -> FailureOr<Value> {
    std::string approximate = ctx.attrString("approximate", "none");
    if (approximate != "none" && approximate != "tanh")
      return ctx.fail("approximate must be none or tanh, got '" + approximate +
                      "'");
    Emitter b(ctx);
    Value inner;
    if (approximate == "none") {
      inner = b.op<ErfOp>({b.mul(x, b.scalar(M_SQRT1_2, x))});
    } else {
      Value cube = b.mul(b.mul(x, x), x);
      Value arg = b.add(x, b.mul(cube, b.scalar(0.044715, x)));
      inner = b.op<TanhOp>({b.mul(arg, b.scalar(std::sqrt(2 / M_PI), x))});
    }
    Value y = b.mul(b.mul(x, b.scalar(0.5, x)), b.add(inner, b.scalar(1.0, x)));
    if (!b.succeeded())
      return failure();
    return y;
  });
  // Opset 24: x * sigmoid(alpha * x).
  t["Swish"] = composite([](NodeContext &ctx, Value x) -> FailureOr<Value> {
    Emitter b(ctx);
    Value gate =
        b.op<SigmoidOp>({b.mul(x, b.scalar(ctx.attrFloat("alpha", 1.0), x))});
    Value y = b.mul(x, gate);
    if (!b.succeeded())
      return failure();
    return y;
  });
  t["Shrink"] = convertShrink;
  t["IsNaN"] = [](NodeContext &ctx) { return convertIsNaNOrInf(ctx, true); };
  t["IsInf"] = [](NodeContext &ctx) { return convertIsNaNOrInf(ctx, false); };
  t["ThresholdedRelu"] = composite([](NodeContext &ctx, Value x) {
    return activation(ctx, "ThresholdedRelu", x, ctx.attrFloat("alpha", 1.0),
                      0.0);
  });
}

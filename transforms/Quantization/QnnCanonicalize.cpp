//===- QnnCanonicalize.cpp - Quantized operators as integer arithmetic ----===//
//
// --relay-qnn-canonicalize (TVM's relay.qnn.transform.CanonicalizeOps): the
// qnn.* operators become Relay's primitive operators on integers, which
// lowering compiles like any other: requantize is TVM's fixed-point
// multiply in int64 (QuantizedArithmetic.h, the interpreter's arithmetic);
// qnn.conv2d/dense/batch_matmul are nn.conv2d/dense/batch_matmul with
// out_dtype int32 on the operands minus their zero points (directly on
// the int8 operands where both zero points are 0, the case Relay's own
// quantization produces; a uint8 image with a zero point convolved with
// int8 weights without one, ONNX's and PyTorch's case, on the image
// shifted into int8 with the shift taken back per output channel); add,
// subtract, mul and concatenate requantize their operands to the output's
// parameters first. simulated_quantize becomes its float arithmetic. TVM's
// composite qnn operators (qnn.tanh and the other unary ones, leaky_relu,
// softmax, avg_pool2d) take their canonical forms of
// transforms/Decompose/QnnRewrites.cpp first; the unary ones and leaky_relu
// of constant parameters on 8-bit data become a 256-entry table of that
// form's results instead, as TVM's QnnLegalize makes them.
//
// Scales and zero points known only at run time are read as operands where
// the arithmetic is float (quantize, dequantize, a float requantize) and in
// the products' zero points; the int64 fixed-point requantize (whose
// multiplier is computed here), add, subtract, mul and concatenate need
// constants. An operator that cannot be rewritten, or whose shapes are not
// static, is left as it is (the interpreter still runs it).
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "dialects/relay/QuantizedArithmetic.h"
#include "runtime/Interpreter/Interpreter.h"
#include "transforms/Decompose/Decompose.h"
#include "transforms/Decompose/Rewrites.h"
#include "transforms/Quantization/QuantizeConfig.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir::relay {
#define GEN_PASS_DEF_QNNCANONICALIZE
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;
using namespace mlir::relay::quant;

namespace {

/// A constant of `dtype` holding `values`: a scalar, or the values along
/// `axis` of a rank-`rank` tensor (size 1 elsewhere) to broadcast against
/// it.
Value paramConstant(Emitter &b, ArrayRef<double> values, Type dtype,
                    int64_t axis, int64_t rank) {
  SmallVector<int64_t> shape;
  if (values.size() > 1) {
    shape.assign(rank, 1);
    shape[axis < 0 ? axis + rank : axis] = values.size();
  }
  auto type = RankedTensorType::get(shape, dtype);
  SmallVector<Attribute> attrs;
  for (double v : values)
    attrs.push_back(
        isa<FloatType>(dtype)
            ? Attribute(FloatAttr::get(dtype, v))
            : Attribute(IntegerAttr::get(dtype, static_cast<int64_t>(v))));
  return b.constant(DenseElementsAttr::get(type, attrs));
}

bool allZero(ArrayRef<double> values) {
  return llvm::all_of(values, [](double v) { return v == 0; });
}

Type intType(Emitter &b, unsigned width) {
  return b.getRewriter().getIntegerType(width);
}

/// The quantization parameters of one operand: scale and zero point
/// values, per channel along `axis` of a rank-`rank` tensor.
struct QParams {
  SmallVector<double> scale, zeroPoint;
  int64_t axis = -1;
  int64_t rank = 0;

  static std::optional<QParams> get(Value scale, Value zeroPoint, int64_t axis,
                                    int64_t rank) {
    std::optional<SmallVector<double>> s = constantValues(scale),
                                       z = constantValues(zeroPoint);
    if (!s || !z)
      return std::nullopt;
    return QParams{*s, *z, axis, rank};
  }
  bool isScalar() const { return scale.size() == 1 && zeroPoint.size() == 1; }
  bool sameAs(const QParams &o) const {
    return isScalar() && o.isScalar() && scale == o.scale &&
           zeroPoint == o.zeroPoint;
  }
  Value zeroPointConstant(Emitter &b, Type dtype) const {
    return paramConstant(b, zeroPoint, dtype, axis, rank);
  }
};

/// A scale or zero point operand, constant or not: its values when it is
/// a constant.
struct Param {
  Value operand;
  std::optional<SmallVector<double>> values;

  explicit Param(Value v) : operand(v), values(constantValues(v)) {}
  bool isZero() const { return values && allZero(*values); }
  /// As a tensor of `dtype` that broadcasts along `axis` of a rank-`rank`
  /// value: a constant, or the operand reshaped and cast.
  Value at(Emitter &b, Type dtype, int64_t axis, int64_t rank) const {
    if (values)
      return paramConstant(b, *values, dtype, axis, rank);
    Value v = operand;
    ArrayRef<int64_t> shape = shapeOf(v);
    if (shape.size() == 1 && shape[0] > 1 && rank > 0) {
      SmallVector<int64_t> along(rank, 1);
      along[axis < 0 ? axis + rank : axis] = shape[0];
      v = b.reshape(v, along);
    }
    return castTo(b, v, dtype);
  }
};

/// Per-channel values, one entry repeated to `n`.
double channel(ArrayRef<double> values, size_t c) {
  return values.size() == 1 ? values[0] : values[c];
}

/// The fixed-point requantization of requantizeValues in 32-bit lanes,
/// where that is exact; null elsewhere. With no left shift, upward
/// rounding and a total right shift n of 33 to 63 in every channel (a
/// ratio under 1/4: a requantized product's case), the int64
///   (t * m + 2^(n-1)) >> n
/// of a t that fits 32 bits and a 31-bit significand m equals
///   ((t * m >> 32) + 2^(q-1)) >> q,  q = n - 32,
/// in int32: the low 32 bits of the product only ever carry into the bits
/// the shift drops (floor((h * 2^32 + l) / 2^(32+q)) = floor(h / 2^q) for
/// 0 <= l < 2^32), and |t * m| < 2^62 keeps the sum in range. The
/// product's high half is what a CPU multiplies eight lanes at a time (two
/// `vpmuldq` on AVX2), where the int64 shifts, additions and clamps it
/// replaces take four lanes each and several instructions per lane group.
Value requantizeIn32Bits(Emitter &b, Value x, const QParams &in,
                         const QParams &out, ArrayRef<double> significand,
                         ArrayRef<double> leftShift,
                         ArrayRef<double> rightShift, RequantizeMode mode) {
  auto xType = dyn_cast<IntegerType>(elementOf(x));
  // Zero points far outside any 8- or 16-bit range would leave 32 bits
  // when subtracted or added.
  auto small = [](ArrayRef<double> zeroPoints) {
    return llvm::all_of(zeroPoints,
                        [](double z) { return std::abs(z) <= (1 << 24); });
  };
  if (!mode.upward || !allZero(leftShift) || !xType || xType.getWidth() > 32 ||
      (xType.getWidth() == 32 &&
       (xType.isUnsigned() || !allZero(in.zeroPoint))) ||
      !small(in.zeroPoint) || !small(out.zeroPoint) ||
      llvm::any_of(rightShift, [](double n) { return n < 33 || n > 63; }))
    return {};
  Type i32 = intType(b, 32), i64 = intType(b, 64);
  int64_t axis = in.axis, rank = in.rank;
  Value t = castTo(b, x, i32);
  if (!allZero(in.zeroPoint))
    t = b.op<SubtractOp>({t, in.zeroPointConstant(b, i32)});
  Value product =
      b.mul(castTo(b, t, i64), paramConstant(b, significand, i64, axis, rank));
  Value high =
      castTo(b, b.op<RightShiftOp>({product, b.scalar(32, product)}), i32);
  SmallVector<double> q, half;
  for (double n : rightShift) {
    q.push_back(n - 32);
    half.push_back(static_cast<double>(int64_t(1) << (int64_t(n) - 33)));
  }
  Value y =
      b.op<RightShiftOp>({b.add(high, paramConstant(b, half, i32, axis, rank)),
                          paramConstant(b, q, i32, axis, rank)});
  if (!allZero(out.zeroPoint))
    y = b.add(y, out.zeroPointConstant(b, i32));
  return y;
}

/// `x` requantized from `in` to `out` (before clipping) in int64 fixed
/// point, as quant::requantize computes it (in int32 where that is exact:
/// requantizeIn32Bits).
Value requantizeValues(Emitter &b, Value x, const QParams &in,
                       const QParams &out, RequantizeMode mode) {
  int64_t axis = in.axis, rank = in.rank;
  size_t n = std::max({in.scale.size(), in.zeroPoint.size(), out.scale.size(),
                       out.zeroPoint.size()});
  QParams outAtIn = out;
  outAtIn.axis = axis;
  outAtIn.rank = rank;
  Type i64 = intType(b, 64);
  SmallVector<double> significand, leftShift, rightShift, up, down;
  for (size_t c = 0; c < n; ++c) {
    FixedPointMultiplier m = getFixedPointMultiplier(
        static_cast<double>(static_cast<float>(channel(in.scale, c))) /
        static_cast<double>(static_cast<float>(channel(out.scale, c))));
    int64_t right = (m.shift > 0 ? 0 : -m.shift) + 31;
    significand.push_back(m.significand);
    leftShift.push_back(m.shift > 0 ? m.shift : 0);
    rightShift.push_back(right);
    up.push_back(roundingTerm(right, true, false));
    down.push_back(roundingTerm(right, mode.upward, true));
  }
  auto constant = [&](ArrayRef<double> v) {
    return paramConstant(b, v, i64, axis, rank);
  };
  if (Value v = requantizeIn32Bits(b, x, in, outAtIn, significand, leftShift,
                                   rightShift, mode))
    return v;
  Value t = castTo(b, x, i64);
  if (!allZero(in.zeroPoint))
    t = b.op<SubtractOp>({t, in.zeroPointConstant(b, i64)});
  if (!allZero(leftShift))
    t = b.op<LeftShiftOp>({t, constant(leftShift)});
  t = b.mul(t, constant(significand));
  Value rounding = constant(up);
  if (!mode.upward)
    rounding = b.op<WhereOp>({b.op<GreaterEqualOp>({t, b.scalar(0, t)}),
                              constant(up), constant(down)});
  t = b.op<RightShiftOp>({b.add(t, rounding), constant(rightShift)});
  if (!allZero(out.zeroPoint))
    t = b.add(t, outAtIn.zeroPointConstant(b, i64));
  return t;
}

int64_t rankOf(Value v) { return shapeOf(v).size(); }

Value quantize(Emitter &b, Operation *op) {
  Value x = op->getOperand(0);
  int64_t axis = intAttr(op, "axis"), rank = rankOf(x);
  Param s(op->getOperand(1)), z(op->getOperand(2));
  Type f32 = elementOf(x);
  Value v = b.op<RoundOp>({b.op<DivideOp>({x, s.at(b, f32, axis, rank)})});
  if (!z.isZero())
    v = b.add(v, z.at(b, f32, axis, rank));
  return clipAndCast(b, v, elementOf(op->getResult(0)));
}

Value dequantize(Emitter &b, Operation *op) {
  Value x = op->getOperand(0);
  int64_t axis = intAttr(op, "axis"), rank = rankOf(x);
  Param s(op->getOperand(1)), z(op->getOperand(2));
  Type f32 = b.getRewriter().getF32Type();
  Value v = castTo(b, x, f32);
  if (!z.isZero())
    v = b.op<SubtractOp>({v, z.at(b, f32, axis, rank)});
  v = b.mul(v, s.at(b, f32, axis, rank));
  return castTo(b, v, elementOf(op->getResult(0)));
}

RequantizeMode modeOf(Operation *op) {
  return RequantizeMode::get(
      cast<StringAttr>(getOperatorAttributes(op).get("rounding")).getValue(),
      cast<StringAttr>(getOperatorAttributes(op).get("compute_dtype"))
          .getValue());
}

Value requantize(Emitter &b, Operation *op) {
  Value x = op->getOperand(0);
  int64_t axis = intAttr(op, "axis"), rank = rankOf(x);
  RequantizeMode mode = modeOf(op);
  if (mode.floatBits) {
    // round((x - zp_in) * (s_in / s_out)) + zp_out in float32 or float64
    // (the ratio in that type: float32 scales divided there, or widened).
    OpBuilder &r = b.getRewriter();
    Type f = mode.floatBits == 32 ? Type(r.getF32Type()) : r.getF64Type();
    Param sIn(op->getOperand(1)), zIn(op->getOperand(2)),
        sOut(op->getOperand(3)), zOut(op->getOperand(4));
    Value t = castTo(b, x, f);
    if (!zIn.isZero())
      t = b.op<SubtractOp>({t, zIn.at(b, f, axis, rank)});
    Value ratio =
        b.op<DivideOp>({sIn.at(b, f, axis, rank), sOut.at(b, f, axis, rank)});
    t = b.op<RoundOp>({b.mul(t, ratio)});
    if (!zOut.isZero())
      t = b.add(t, zOut.at(b, f, axis, rank));
    return clipAndCast(b, t, elementOf(op->getResult(0)));
  }
  auto in = QParams::get(op->getOperand(1), op->getOperand(2), axis, rank);
  auto out = QParams::get(op->getOperand(3), op->getOperand(4), axis, rank);
  if (!in || !out)
    return {};
  return clipAndCast(b, requantizeValues(b, x, *in, *out, mode),
                     elementOf(op->getResult(0)));
}

/// qnn.conv2d, qnn.dense, qnn.batch_matmul as their float operator `OpT`
/// with out_dtype int32: on the operands themselves where both zero
/// points are 0 and their dtypes agree, else on the operands minus their
/// zero points in int32. `weightAxis` is the weight's output-channel axis.
template <typename OpT>
Value product(Emitter &b, Operation *op, int64_t weightAxis) {
  Value x = op->getOperand(0), w = op->getOperand(1);
  Param zx(op->getOperand(2)), zw(op->getOperand(3));
  Type outType = elementOf(op->getResult(0));
  if (!zx.isZero() || !zw.isZero() || elementOf(x) != elementOf(w)) {
    Type i32 = intType(b, 32);
    x = castTo(b, x, i32);
    if (!zx.isZero())
      x = b.op<SubtractOp>({x, zx.at(b, i32, 0, 0)});
    w = castTo(b, w, i32);
    if (!zw.isZero())
      w = b.op<SubtractOp>({w, zw.at(b, i32, weightAxis, rankOf(w))});
  }
  // The float operator's attributes: the quantized one's, out_dtype set.
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute a : op->getAttrs())
    if (a.getName() != "out_dtype")
      attrs.push_back(a);
  attrs.push_back(b.type("out_dtype", outType));
  return b.op<OpT>({x, w}, attrs);
}

/// uint8 `x` shifted into int8: x - 128.
Value shiftedToSigned(Emitter &b, Value x) {
  Value xi = castTo(b, x, intType(b, 32));
  return castTo(b, b.op<SubtractOp>({xi, b.scalar(128, xi)}), intType(b, 8));
}

/// (128 - z) * the sums of the int8 weights `w` over `axes`: what a product
/// of x - 128 lacks of the product of x - z.
Value shiftCorrection(Emitter &b, Value w, ArrayRef<int64_t> axes, int64_t z) {
  Type i32 = intType(b, 32);
  Value sums = b.op<SumOp>({castTo(b, w, i32)}, {b.ints("axis", axes)});
  return b.mul(
      sums, b.constant(DenseElementsAttr::get(RankedTensorType::get({}, i32),
                                              static_cast<int32_t>(128 - z))));
}

/// A uint8 image with a constant scalar zero point z times int8 weights
/// without one (what ONNX's QLinearConv and PyTorch's quantized
/// convolutions give): the image shifted into int8 and convolved on int8
/// operands (the CPU's VNNI kernels), the shift taken back per output
/// channel:
///   conv(x - z, w) = conv(x - 128, w) + (128 - z) * sum(w[o])
/// with the padding made explicit (by z) first, so that every tap of the
/// sum is a real one. Null where it does not apply.
Value unsignedTimesSigned(Emitter &b, Operation *op, size_t weightAxis) {
  Value x = op->getOperand(0), w = op->getOperand(1);
  Param zx(op->getOperand(2)), zw(op->getOperand(3));
  auto isByte = [](Type t, bool isUnsigned) {
    return t.isInteger(8) &&
           (isUnsigned ? t.isUnsignedInteger() : !t.isUnsignedInteger());
  };
  if (!zw.isZero() || !zx.values || zx.values->size() != 1 ||
      !isByte(elementOf(x), true) || !isByte(elementOf(w), false) ||
      !cast<RankedTensorType>(x.getType()).hasStaticShape())
    return {};
  DictionaryAttr attrs = getOperatorAttributes(op);
  auto dataLayout = dyn_cast_or_null<StringAttr>(attrs.get("data_layout"));
  StringRef layout = dataLayout ? dataLayout.getValue() : "NCHW";
  size_t hAxis = layout.find('H'), wAxis = layout.find('W');
  if (hAxis == StringRef::npos || wAxis == StringRef::npos)
    return {};
  auto z = static_cast<int64_t>(zx.values->front());
  // Shifted first, so that the shift fuses into what makes the image (a
  // requantization writes int8, not int32), then padded by z - 128.
  Value shifted = shiftedToSigned(b, x);
  // The padding, (top, left, bottom, right), made explicit with z.
  SmallVector<int64_t> padding(4, 0);
  if (auto p = dyn_cast_or_null<DenseI64ArrayAttr>(attrs.get("padding"))) {
    ArrayRef<int64_t> v = p.asArrayRef();
    if (v.size() == 1)
      padding.assign(4, v[0]);
    else if (v.size() == 2)
      padding = {v[0], v[1], v[0], v[1]};
    else if (v.size() == 4)
      padding.assign(v.begin(), v.end());
  }
  if (llvm::any_of(padding, [](int64_t p) { return p != 0; })) {
    SmallVector<int64_t> width(2 * 4, 0);
    width[2 * hAxis] = padding[0];
    width[2 * hAxis + 1] = padding[2];
    width[2 * wAxis] = padding[1];
    width[2 * wAxis + 1] = padding[3];
    shifted = b.op<PadOp>({shifted, b.scalar(z - 128, shifted)},
                          {b.ints("pad_width", width)});
  }
  SmallVector<NamedAttribute> convAttrs;
  for (NamedAttribute a : op->getAttrs())
    if (a.getName() != "out_dtype" && a.getName() != "padding")
      convAttrs.push_back(a);
  convAttrs.push_back(b.type("out_dtype", elementOf(op->getResult(0))));
  convAttrs.push_back(b.ints("padding", {0, 0, 0, 0}));
  Value conv = b.op<Conv2DOp>({shifted, w}, convAttrs);
  // (128 - z) * sum(w[o]), broadcast along the result's channel axis.
  SmallVector<int64_t> reduced;
  for (int64_t a = 0; a < 4; ++a)
    if (a != static_cast<int64_t>(weightAxis))
      reduced.push_back(a);
  Value correction = shiftCorrection(b, w, reduced, z);
  size_t cAxis = layout.find('C');
  if (!b.succeeded() || cAxis == StringRef::npos)
    return {};
  SmallVector<int64_t> shape(4 - cAxis, 1);
  shape[0] = shapeOf(correction)[0];
  return b.add(conv, b.reshape(correction, shape));
}

Value conv2d(Emitter &b, Operation *op) {
  auto layout = dyn_cast_or_null<StringAttr>(
      getOperatorAttributes(op).get("kernel_layout"));
  size_t o = layout ? layout.getValue().find('O') : 0;
  o = o == StringRef::npos ? 0 : o;
  if (Value v = unsignedTimesSigned(b, op, o))
    return v;
  return product<Conv2DOp>(b, op, o);
}
/// qnn.dense of a uint8 input with a constant scalar zero point z and int8
/// weights [O, K] without one (PyTorch's quantized linear layers, ONNX's
/// QLinearMatMul of uint8): as unsignedTimesSigned does for convolutions,
/// the input shifted into int8 and the product taken on int8 operands
/// (constant weights stay int8, a quarter of their int32 bytes; the CPU
/// takes such a dense on its int8 convolution kernels), the shift taken
/// back per output:
///   dense(x - z, w) = dense(x - 128, w) + (128 - z) * sum_k(w[o, k])
/// Null where it does not apply.
Value unsignedTimesSignedDense(Emitter &b, Operation *op) {
  Value x = op->getOperand(0), w = op->getOperand(1);
  Param zx(op->getOperand(2)), zw(op->getOperand(3));
  Type ex = elementOf(x), ew = elementOf(w);
  if (!zw.isZero() || !zx.values || zx.values->size() != 1 ||
      !ex.isInteger(8) || !ex.isUnsignedInteger() || !ew.isInteger(8) ||
      ew.isUnsignedInteger() || rankOf(w) != 2)
    return {};
  auto z = static_cast<int64_t>(zx.values->front());
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute a : op->getAttrs())
    if (a.getName() != "out_dtype")
      attrs.push_back(a);
  attrs.push_back(b.type("out_dtype", elementOf(op->getResult(0))));
  Value product = b.op<DenseOp>({shiftedToSigned(b, x), w}, attrs);
  Value correction = shiftCorrection(b, w, {1}, z);
  if (!b.succeeded())
    return {};
  return b.add(product, correction);
}

Value dense(Emitter &b, Operation *op) {
  if (Value v = unsignedTimesSignedDense(b, op))
    return v;
  return product<DenseOp>(b, op, 0);
}
Value batchMatmul(Emitter &b, Operation *op) {
  return product<BatchMatmulOp>(b, op, boolAttr(op, "transpose_b") ? 1 : 2);
}

/// An operand in int32 at the output's parameters: upcast where its own
/// are the output's, else requantized.
Value atOutput(Emitter &b, Value v, const QParams &in, const QParams &out) {
  if (in.sameAs(out))
    return castTo(b, v, intType(b, 32));
  return clipAndCast(b, requantizeValues(b, v, in, out, RequantizeMode()),
                     intType(b, 32));
}

enum class BinaryKind { Add, Subtract, Mul };
template <BinaryKind kind> Value binary(Emitter &b, Operation *op) {
  Value l = op->getOperand(0), r = op->getOperand(1);
  auto lp = QParams::get(op->getOperand(2), op->getOperand(3),
                         intAttr(op, "lhs_axis"), rankOf(l));
  auto rp = QParams::get(op->getOperand(4), op->getOperand(5),
                         intAttr(op, "rhs_axis"), rankOf(r));
  auto out = QParams::get(op->getOperand(6), op->getOperand(7), -1, 0);
  if (!lp || !rp || !out)
    return {};
  Type dtype = elementOf(op->getResult(0));
  Type i32 = intType(b, 32);
  if constexpr (kind == BinaryKind::Mul) {
    if (lp->scale.size() != 1 || rp->scale.size() != 1)
      return {};
    auto shiftedBy = [&](Value v, const QParams &p) {
      v = castTo(b, v, i32);
      if (!allZero(p.zeroPoint))
        v = b.op<SubtractOp>({v, p.zeroPointConstant(b, i32)});
      return v;
    };
    Value product = b.mul(shiftedBy(l, *lp), shiftedBy(r, *rp));
    QParams in{{double(static_cast<float>(lp->scale[0]) *
                       static_cast<float>(rp->scale[0]))},
               {0},
               -1,
               0};
    return clipAndCast(
        b, requantizeValues(b, product, in, *out, RequantizeMode()), dtype);
  } else {
    Value a = atOutput(b, l, *lp, *out), c = atOutput(b, r, *rp, *out);
    Value zp = out->zeroPointConstant(b, i32);
    Value v = kind == BinaryKind::Add ? b.op<SubtractOp>({b.add(a, c), zp})
                                      : b.add(b.op<SubtractOp>({a, c}), zp);
    return clipAndCast(b, v, dtype);
  }
}

/// The fields of a tuple value: a relay.tuple's operands, else projections.
SmallVector<Value> fieldsOf(Emitter &b, Value tuple) {
  if (auto t = tuple.getDefiningOp<TupleOp>())
    return SmallVector<Value>(t.getFields());
  SmallVector<Value> fields;
  auto type = cast<TupleType>(tuple.getType());
  for (size_t i = 0; i < type.size(); ++i)
    fields.push_back(TupleGetOp::create(b.getRewriter(), tuple.getLoc(),
                                        type.getType(i), tuple, i));
  return fields;
}

Value concatenate(Emitter &b, Operation *op) {
  auto scales = op->getOperand(1).getDefiningOp<TupleOp>();
  auto zeroPoints = op->getOperand(2).getDefiningOp<TupleOp>();
  auto out = QParams::get(op->getOperand(3), op->getOperand(4), -1, 0);
  if (!scales || !zeroPoints || !out)
    return {};
  SmallVector<Value> data = fieldsOf(b, op->getOperand(0));
  Type dtype = elementOf(op->getResult(0));
  SmallVector<Value> joined;
  for (auto [i, v] : llvm::enumerate(data)) {
    auto p =
        QParams::get(scales.getFields()[i], zeroPoints.getFields()[i], -1, 0);
    if (!p)
      return {};
    joined.push_back(
        p->sameAs(*out)
            ? v
            : clipAndCast(b, requantizeValues(b, v, *p, *out, RequantizeMode()),
                          dtype));
  }
  return b.op<ConcatenateOp>({b.tuple(joined)},
                             {b.i64("axis", intAttr(op, "axis"))});
}

/// round(clip(x / s, lo, hi)) * s; x itself for kind 0 (identity).
Value simulatedQuantize(Emitter &b, Operation *op) {
  Value x = op->getOperand(0);
  if (intAttr(op, "kind") == 0)
    return x;
  Value s = op->getOperand(1);
  Value v = b.op<DivideOp>({x, s});
  v = b.op<MaximumOp>(
      {b.op<MinimumOp>({v, op->getOperand(3)}), op->getOperand(2)});
  return b.mul(b.op<RoundOp>({v}), s);
}

/// TVM's QnnLegalize of the quantized unary operators (and leaky_relu) on
/// 8-bit data with constant parameters: a 256-entry table of the results,
/// the operator's canonical form evaluated on every value by the
/// interpreter (so exactly what the form computes), read by `take`.
struct UnaryLookupTable : RewritePattern {
  UnaryLookupTable(StringRef name, MLIRContext *ctx)
      : RewritePattern(name, /*benefit=*/2, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    auto data = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    auto dtype =
        data ? dyn_cast<IntegerType>(data.getElementType()) : IntegerType();
    if (!dtype || dtype.getWidth() != 8 ||
        !isa<RankedTensorType>(op->getResult(0).getType()))
      return rewriter.notifyMatchFailure(op, "not 8-bit tensor data");
    auto [lo, hi] = integerRange(dtype);
    interp::Tensor all(dtype, {hi - lo + 1});
    for (int64_t v = lo; v <= hi; ++v)
      all.setI(v - lo, v);
    std::vector<interp::ValuePtr> operands = {
        interp::RuntimeValue::tensor(std::move(all))};
    for (Value param : op->getOperands().drop_front()) {
      auto c = param.getDefiningOp<ConstantOp>();
      auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : nullptr;
      if (!dense)
        return rewriter.notifyMatchFailure(op, "parameters not constant");
      operands.push_back(
          interp::RuntimeValue::tensor(interp::Tensor::fromAttr(dense)));
    }
    FailureOr<interp::ValuePtr> table;
    {
      // A parameter the canonical form rejects leaves the op to it.
      ScopedDiagnosticHandler silence(op->getContext(),
                                      [](Diagnostic &) { return success(); });
      table = interp::evaluateOperator(op, operands);
    }
    if (failed(table) || !(*table)->isTensor())
      return rewriter.notifyMatchFailure(op, "table not computed");
    Location loc = op->getLoc();
    Emitter b(rewriter, loc);
    Type i32 = rewriter.getI32Type();
    Value index = b.op<CastOp>({op->getOperand(0)}, {b.type("dtype", i32)});
    if (lo != 0)
      index = b.op<SubtractOp>({index, b.scalar(double(lo), index)});
    Value result = b.op<TakeOp>(
        {ConstantOp::create(rewriter, loc, (*table)->getTensor().toAttr()),
         index},
        {b.i64("axis", 0)});
    if (!b.succeeded())
      return rewriter.notifyMatchFailure(op, "take not typed");
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct QnnCanonicalizePass
    : relay::impl::QnnCanonicalizeBase<QnnCanonicalizePass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    auto add = [&](StringRef name, Rewrite rewrite) {
      patterns.add<RuleRewrite>(("relay." + name).str(), rewrite, ctx);
    };
    add("qnn.quantize", quantize);
    add("qnn.dequantize", dequantize);
    add("qnn.requantize", requantize);
    add("qnn.conv2d", conv2d);
    add("qnn.dense", dense);
    add("qnn.batch_matmul", batchMatmul);
    add("qnn.add", binary<BinaryKind::Add>);
    add("qnn.subtract", binary<BinaryKind::Subtract>);
    add("qnn.mul", binary<BinaryKind::Mul>);
    add("qnn.concatenate", concatenate);
    add("annotation.simulated_quantize", simulatedQuantize);
    for (StringRef name :
         {"qnn.abs", "qnn.erf", "qnn.exp", "qnn.hardswish", "qnn.log",
          "qnn.rsqrt", "qnn.sigmoid", "qnn.sqrt", "qnn.tanh", "qnn.leaky_relu"})
      patterns.add<UnaryLookupTable>(("relay." + name).str(), ctx);
    // TVM's composite qnn operators (qnn.tanh, qnn.leaky_relu, ...) in
    // their canonical forms, whose quantize/requantize the rules above
    // then rewrite.
    populateDecompositionPatterns(patterns, [](StringRef name) {
      return name.starts_with("relay.qnn.");
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

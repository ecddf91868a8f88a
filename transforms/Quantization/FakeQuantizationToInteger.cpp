//===- FakeQuantizationToInteger.cpp - QDQ graphs as integer operators ----===//
//
// --relay-fake-quantization-to-integer (TVM's FakeQuantizationToInteger):
// a model quantized elsewhere and exported with quantize/dequantize pairs
// around float operators (ONNX's QuantizeLinear/DequantizeLinear, as
// PyTorch and ONNX Runtime write them) computes every operator in float.
// For each qnn.quantize, the float operators between it and the
// qnn.dequantize ops its input comes from (its subgraph) are rewritten to
// compute on the integers, each value an integer tensor with a scale and a
// zero point (an affine type), and the quantize becomes a qnn.requantize
// (or nothing, where the parameters agree):
//
//   conv2d, dense, matmul  qnn.conv2d / qnn.dense into int32, the scale the
//                          product of the operands' (per output channel
//                          where the weight's is)
//   batch_matmul           qnn.batch_matmul into int32 (per tensor: two
//                          activations, attention's products)
//   bias_add, add of a     on the int32 accumulator, the bias a dequantized
//   float constant         int32 (requantized if its scale differs) or a
//                          float constant quantized at the accumulator's scale
//   add, subtract,         qnn.add / qnn.subtract / qnn.mul at the
//   multiply               quantize's parameters when the quantize reads
//                          it, else in int32 (a sum at the smaller of the
//                          operands' scales, a product at their product);
//                          multiply by a positive constant scalar scales
//                          the scale
//   concatenate            the same parameters: concatenate; else, read by
//                          the quantize, qnn.concatenate at its parameters
//   relu, clip             clip at the zero point / the quantized bounds
//   max pooling, reshapes, on the integers, parameters unchanged
//   transposes, slicing,
//   padding, dropout,
//   broadcast_to
//   average pooling        in int32 on the values times the window's size
//                          (a global average: the sum, exact), the scale
//                          divided by that size
//
// A quantize whose whole subgraph is elementwise operators (sigmoid,
// hardswish as x * clip(x / 6 + 0.5, 0, 1), tanh, exp, ...) of one 8-bit
// dequantized tensor and scalar constants becomes a 256-entry table of its
// results, indexed by the integers (`take`; TVM's lookup tables for its
// QNN unary operators): exactly the float graph's values, one load per
// element. The table is computed by the interpreter's kernels on the
// subgraph itself.
//
// Scales and zero points must be constants (or computed from them). A
// subgraph with any other operator, or whose parameters are not constant,
// stays in float; with hard-fail it is an error naming the operator.
// Float operators that lose their last use are erased.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/QuantizedArithmetic.h"
#include "dialects/relay/RelayBuilder.h"
#include "mlir/IR/IRMapping.h"
#include "transforms/Decompose/Decompose.h"
#include "transforms/Quantization/QuantizeConfig.h"
#include "transforms/Simplify/FoldConstant.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>

namespace mlir::relay {
#define GEN_PASS_DEF_FAKEQUANTIZATIONTOINTEGER
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::quant;

namespace {

Type elementOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

int64_t rankOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getRank();
}

/// The values of a small tensor computed from constants (a scale, a zero
/// point, a bias), as doubles.
std::optional<SmallVector<double>> constantOperand(Value v,
                                                   int64_t maxElements) {
  if (std::optional<SmallVector<double>> direct = constantValues(v))
    return direct;
  if (DenseElementsAttr attr = evaluateConstantTensor(v, maxElements))
    return elementValues(attr);
  return std::nullopt;
}

/// An integer tensor's quantization: real = (data - zeroPoint) * scale,
/// per tensor or per channel along `axis` (vectors of the channels'
/// size; a vector of one value is per tensor).
struct Affine {
  SmallVector<double> scales, zeroPoints;
  Type dtype;
  int64_t axis = -1;

  bool perTensor() const {
    return scales.size() == 1 && zeroPoints.size() == 1;
  }
  bool zeroPointsZero() const {
    return llvm::all_of(zeroPoints, [](double z) { return z == 0; });
  }
  /// The same parameters (scales equal to float32's precision, as two
  /// exporters computing `s_x * s_w` in float32 may round them apart).
  bool sameParamsAs(const Affine &o) const {
    if (scales.size() != o.scales.size() || zeroPoints != o.zeroPoints ||
        (scales.size() > 1 && axis != o.axis))
      return false;
    for (auto [a, b] : llvm::zip(scales, o.scales))
      if (std::abs(a - b) > 1e-6 * std::max(std::abs(a), std::abs(b)))
        return false;
    return true;
  }
};

/// An integer value of the rewritten subgraph.
struct QValue {
  Value data;
  Affine type;
};

/// Quantization parameters from a qnn.(de)quantize's scale and zero point
/// operands, for a tensor of `rank`; none when they are not constant.
std::optional<Affine> affineOf(Value scale, Value zeroPoint, int64_t axis,
                               Type dtype, int64_t rank) {
  constexpr int64_t kMaxChannels = 1 << 16;
  std::optional<SmallVector<double>> s = constantOperand(scale, kMaxChannels),
                                     z = constantOperand(zeroPoint,
                                                         kMaxChannels);
  if (!s || !z || s->empty() || z->empty() ||
      llvm::any_of(*s, [](double v) { return !(v > 0) || !std::isfinite(v); }))
    return std::nullopt;
  Affine a{*s, *z, dtype, -1};
  if (a.scales.size() > 1 || a.zeroPoints.size() > 1) {
    a.axis = axis < 0 ? axis + rank : axis;
    if (a.axis < 0 || a.axis >= rank)
      return std::nullopt;
    // A scalar next to a vector applies to every channel.
    size_t n = std::max(a.scales.size(), a.zeroPoints.size());
    if (a.scales.size() == 1)
      a.scales.assign(n, a.scales.front());
    if (a.zeroPoints.size() == 1)
      a.zeroPoints.assign(n, a.zeroPoints.front());
    if (a.scales.size() != a.zeroPoints.size())
      return std::nullopt;
  }
  return a;
}

class Rewriter {
public:
  Rewriter(Operation *quantize, bool hardFail)
      : quantize(cast<QnnQuantizeOp>(quantize)), hardFail(hardFail) {}

  /// Whether a dequantize reaches the quantize (through any operators of
  /// its block): a quantize of float values alone is not fake.
  bool isFake();
  bool wasFake() const { return fake; }

  /// Rewrites the quantize's subgraph; failure leaves the program as it
  /// was (and, with hard-fail, has reported why).
  LogicalResult run(SmallVectorImpl<Operation *> &floatOps);

private:
  /// The subgraph as a lookup table (see the file comment); nullopt where
  /// it is not elementwise over one 8-bit value, or where the integer rules
  /// do as well (only clips, relus and multiplications).
  std::optional<QValue> lookupTable(const Affine &out);

  /// Whether `v` is computed from constants alone (a float constant).
  bool isConstant(Value v) {
    return !v.getDefiningOp<QnnDequantizeOp>() &&
           evaluateConstantTensor(v, int64_t(1) << 20);
  }
  /// The parameters of the quantize, when `result` is what it reads and
  /// both it and `operands` are per tensor with its dtype: the output of
  /// a qnn.add / qnn.mul / qnn.concatenate at the root.
  std::optional<Affine> rootParams(Value result, ArrayRef<QValue> operands);

  FailureOr<QValue> rewrite(Value v, unsigned depth);
  FailureOr<QValue> rewriteOp(Operation *op, unsigned depth);

  FailureOr<QValue> product(Operation *op, unsigned depth);
  FailureOr<QValue> biasAdd(Operation *op, unsigned depth);
  FailureOr<QValue> addOrSubtract(Operation *op, unsigned depth);
  FailureOr<QValue> multiply(Operation *op, unsigned depth);
  FailureOr<QValue> concatenate(Operation *op, unsigned depth);
  FailureOr<QValue> clipAt(Operation *op, unsigned depth);
  FailureOr<QValue> avgPool(Operation *op, unsigned depth);
  FailureOr<QValue> same(Operation *op, unsigned depth);

  /// Fails the rewrite at `op`, saying why.
  FailureOr<QValue> reject(Operation *op, const Twine &why) {
    if (hardFail && fake && !reported) {
      InFlightDiagnostic d = op->emitError()
                             << "cannot rewrite '" << op->getName()
                             << "' in integers: " << why;
      d.attachNote(quantize->getLoc())
          << "in the subgraph of this qnn.quantize";
      reported = true;
    }
    return failure();
  }

  OpBuilder builderAt(Operation *op) {
    OpBuilder b(op);
    b.setListener(&created);
    return b;
  }

  /// `OpT` on `operands` with `attrs` at `at`, typed by its relation.
  template <typename OpT>
  Value build(Operation *at, ValueRange operands,
              ArrayRef<NamedAttribute> attrs = {}) {
    OpBuilder b = builderAt(at);
    return RelayBuilder(b, at->getLoc()).op<OpT>(operands, attrs);
  }
  /// `op` itself on `operands`, its attributes with `attrs` set over them.
  Value forward(Operation *op, ValueRange operands,
                ArrayRef<NamedAttribute> attrs = {}) {
    OpBuilder b = builderAt(op);
    return RelayBuilder(b, op->getLoc()).like(op, operands, attrs);
  }

  Value castTo(Operation *at, Value v, Type dtype);
  Value scaleConstant(Operation *at, const Affine &a);
  Value zeroPointConstant(Operation *at, const Affine &a);
  Value constant(Operation *at, ArrayRef<double> values,
                 ArrayRef<int64_t> shape, Type dtype);
  /// `q` requantized to `to` (which has `to.dtype`).
  Value requantize(Operation *at, const QValue &q, const Affine &to);
  /// `q` in int32 at the one scale `scale`, zero point 0.
  QValue toInt32(Operation *at, const QValue &q, double scale);
  /// The qnn binary operator `OpT` (qnn.add, qnn.subtract, qnn.mul) of `l`
  /// and `r` at `out`, in place of `op`.
  template <typename OpT>
  QValue qnnBinary(Operation *op, const QValue &l, const QValue &r,
                   const Affine &out) {
    Value v = build<OpT>(
        op, {l.data, r.data, scaleConstant(op, l.type),
             zeroPointConstant(op, l.type), scaleConstant(op, r.type),
             zeroPointConstant(op, r.type), scaleConstant(op, out),
             zeroPointConstant(op, out)});
    return QValue{v, out};
  }

  /// Records the ops this rewrite creates (erased if it fails).
  struct Created : OpBuilder::Listener {
    void notifyOperationInserted(Operation *op,
                                 OpBuilder::InsertPoint) override {
      ops.push_back(op);
    }
    SmallVector<Operation *> ops;
  } created;

  QnnQuantizeOp quantize;
  bool hardFail;
  bool reported = false;
  bool fake = true;
  DenseMap<Value, QValue> done;
  llvm::SetVector<Operation *> rewritten;
};

Value Rewriter::castTo(Operation *at, Value v, Type dtype) {
  if (elementOf(v) == dtype)
    return v;
  OpBuilder b(at);
  return build<CastOp>(at, {v},
                       {b.getNamedAttr("dtype", TypeAttr::get(dtype))});
}

Value Rewriter::constant(Operation *at, ArrayRef<double> values,
                         ArrayRef<int64_t> shape, Type dtype) {
  OpBuilder b = builderAt(at);
  SmallVector<Attribute> attrs;
  for (double v : values)
    attrs.push_back(
        isa<FloatType>(dtype)
            ? Attribute(b.getFloatAttr(dtype, v))
            : Attribute(b.getIntegerAttr(dtype, static_cast<int64_t>(v))));
  return ConstantOp::create(
      b, at->getLoc(),
      DenseElementsAttr::get(RankedTensorType::get(shape, dtype), attrs));
}

Value Rewriter::scaleConstant(Operation *at, const Affine &a) {
  OpBuilder b(at);
  if (a.perTensor())
    return constant(at, a.scales, {}, b.getF32Type());
  return constant(at, a.scales, {int64_t(a.scales.size())}, b.getF32Type());
}

Value Rewriter::zeroPointConstant(Operation *at, const Affine &a) {
  OpBuilder b(at);
  if (a.zeroPoints.size() == 1 || llvm::all_equal(a.zeroPoints))
    return constant(at, a.zeroPoints.front(), {}, b.getI32Type());
  return constant(at, a.zeroPoints, {int64_t(a.zeroPoints.size())},
                  b.getI32Type());
}

Value Rewriter::requantize(Operation *at, const QValue &q, const Affine &to) {
  OpBuilder b(at);
  // One axis for both sides' vectors.
  int64_t axis = q.type.perTensor() ? to.axis : q.type.axis;
  return build<QnnRequantizeOp>(
      at,
      {q.data, scaleConstant(at, q.type), zeroPointConstant(at, q.type),
       scaleConstant(at, to), zeroPointConstant(at, to)},
      {b.getNamedAttr("axis", b.getI64IntegerAttr(axis)),
       b.getNamedAttr("out_dtype", TypeAttr::get(to.dtype))});
}

QValue Rewriter::toInt32(Operation *at, const QValue &q, double scale) {
  OpBuilder b(at);
  Affine to{{scale}, {0}, b.getI32Type(), -1};
  if (q.type.dtype == to.dtype && q.type.sameParamsAs(to))
    return q;
  return {requantize(at, q, to), to};
}

FailureOr<QValue> Rewriter::rewrite(Value v, unsigned depth) {
  auto it = done.find(v);
  if (it != done.end())
    return it->second;
  Operation *def = v.getDefiningOp();
  if (auto dq = dyn_cast_or_null<QnnDequantizeOp>(def)) {
    std::optional<Affine> a =
        affineOf(dq.getInputScale(), dq.getInputZeroPoint(),
                 static_cast<int64_t>(dq.getAxis()), elementOf(dq.getData()),
                 rankOf(dq.getData()));
    if (!a)
      return reject(def, "its scale and zero point are not constants");
    QValue q{dq.getData(), *a};
    done[v] = q;
    rewritten.insert(def);
    return q;
  }
  if (!def)
    return reject(quantize, "the subgraph reads a block argument in float");
  // The subgraph's operators are in the quantize's block (its leaves, the
  // dequantizes, may be outside).
  if (def->getBlock() != quantize->getBlock())
    return reject(def, "it is outside the qnn.quantize's block");
  // Very long chains stay in float rather than recursing without bound.
  if (depth > 256)
    return reject(def, "the subgraph is more than 256 operators deep");
  FailureOr<QValue> q = rewriteOp(def, depth + 1);
  if (failed(q))
    return failure();
  if (!q->data)
    return reject(def, "its integer form does not type");
  done[v] = *q;
  rewritten.insert(def);
  return q;
}

FailureOr<QValue> Rewriter::rewriteOp(Operation *op, unsigned depth) {
  StringRef name = op->getName().getStringRef();
  if (op->getNumResults() != 1)
    return reject(op, "it has several results");
  if (name == "relay.nn.conv2d" || name == "relay.nn.dense" ||
      name == "relay.nn.matmul" || name == "relay.nn.batch_matmul")
    return product(op, depth);
  if (name == "relay.nn.bias_add")
    return biasAdd(op, depth);
  if (name == "relay.add" || name == "relay.subtract")
    return addOrSubtract(op, depth);
  if (name == "relay.multiply")
    return multiply(op, depth);
  if (name == "relay.concatenate")
    return concatenate(op, depth);
  if (name == "relay.nn.relu" || name == "relay.clip")
    return clipAt(op, depth);
  if (name == "relay.nn.avg_pool2d" || name == "relay.nn.global_avg_pool2d" ||
      name == "relay.nn.adaptive_avg_pool2d")
    return avgPool(op, depth);
  static constexpr StringLiteral kSameParameters[] = {
      "relay.nn.max_pool2d",
      "relay.nn.global_max_pool2d",
      "relay.nn.adaptive_max_pool2d",
      "relay.reshape",
      "relay.transpose",
      "relay.squeeze",
      "relay.expand_dims",
      "relay.nn.batch_flatten",
      "relay.strided_slice",
      "relay.nn.pad",
      "relay.nn.dropout",
      "relay.broadcast_to"};
  if (llvm::is_contained(kSameParameters, name))
    return same(op, depth);
  return reject(op, "there is no integer rule for it (rules: conv2d, dense, "
                    "matmul, batch_matmul, bias_add, add, subtract, "
                    "multiply, concatenate, relu, clip, pooling, reshape, "
                    "transpose, squeeze, expand_dims, batch_flatten, "
                    "strided_slice, pad, dropout, broadcast_to; and lookup "
                    "tables for elementwise functions of one 8-bit tensor)");
}

FailureOr<QValue> Rewriter::product(Operation *op, unsigned depth) {
  FailureOr<QValue> x = rewrite(op->getOperand(0), depth);
  if (failed(x))
    return failure();
  FailureOr<QValue> w = rewrite(op->getOperand(1), depth);
  if (failed(w))
    return failure();
  if (!x->type.perTensor())
    return reject(op, "its data is quantized per channel");
  // nn.matmul (ONNX's Gemm and MatMul of a 2-d weight) as nn.dense: the
  // weight [K, N] transposed to dense's [N, K].
  if (isa<MatmulOp>(op)) {
    auto ta = op->getAttrOfType<BoolAttr>("transpose_a");
    auto tb = op->getAttrOfType<BoolAttr>("transpose_b");
    if ((ta && ta.getValue()) || rankOf(x->data) != 2 || rankOf(w->data) != 2)
      return reject(op, "only a 2-d matmul of an untransposed left operand "
                        "is a dense layer");
    if (!tb || !tb.getValue()) {
      OpBuilder b(op);
      w->data = build<TransposeOp>(
          op, {w->data},
          {b.getNamedAttr("axes", b.getDenseI64ArrayAttr({1, 0}))});
      if (!w->type.perTensor())
        w->type.axis = 1 - w->type.axis;
    }
  }
  // nn.batch_matmul (ONNX's MatMul of two activations, attention's
  // products): qnn.batch_matmul with the same transposes, per tensor.
  bool isBatch = isa<BatchMatmulOp>(op);
  if (isBatch && !w->type.perTensor())
    return reject(op, "its second operand is quantized per channel");
  for (Type t : {x->type.dtype, w->type.dtype})
    if (!t.isInteger(8))
      return reject(op, "its operands are not 8-bit integers");
  bool isConv = isa<Conv2DOp>(op);
  if (isConv && hasPackedLayouts(op))
    return reject(op, "its layouts pack an axis (qnn.conv2d takes plain "
                      "layouts)");
  // The weight's output channels: the kernel layout's O, dense's rows.
  int64_t outAxis = 0;
  if (isConv) {
    auto layout = op->getAttrOfType<StringAttr>("kernel_layout");
    size_t o = (layout ? layout.getValue() : StringRef("OIHW")).find('O');
    if (o == StringRef::npos)
      return reject(op, "its kernel layout has no O");
    outAxis = static_cast<int64_t>(o);
  }
  if (!w->type.perTensor() && w->type.axis != outAxis)
    return reject(op, "its weight is quantized along another axis than the "
                      "output channels");
  OpBuilder b(op);
  Value v;
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute a : op->getAttrs())
    if (a.getName() != "out_dtype" &&
        (isBatch || !a.getName().strref().starts_with("transpose_")))
      attrs.push_back(a);
  attrs.push_back(b.getNamedAttr("out_dtype", TypeAttr::get(b.getI32Type())));
  SmallVector<Value> operands = {x->data,
                                 w->data,
                                 zeroPointConstant(op, x->type),
                                 zeroPointConstant(op, w->type),
                                 scaleConstant(op, x->type),
                                 scaleConstant(op, w->type)};
  v = isConv    ? build<QnnConv2DOp>(op, operands, attrs)
      : isBatch ? build<QnnBatchMatmulOp>(op, operands, attrs)
                : build<QnnDenseOp>(op, operands, attrs);
  if (!v)
    return QValue{};
  Affine out{{}, {0}, b.getI32Type(), -1};
  for (double s : w->type.scales)
    out.scales.push_back(x->type.scales.front() * s);
  if (!w->type.perTensor()) {
    out.zeroPoints.assign(out.scales.size(), 0);
    if (isConv) {
      auto layout = op->getAttrOfType<StringAttr>("out_layout");
      auto data = op->getAttrOfType<StringAttr>("data_layout");
      StringRef l = layout && !layout.getValue().empty()
                        ? layout.getValue()
                        : (data ? data.getValue() : StringRef("NCHW"));
      size_t c = l.find('C');
      if (c == StringRef::npos)
        return reject(op, "its output layout has no C");
      out.axis = static_cast<int64_t>(c);
    } else {
      out.axis = rankOf(v) - 1;
    }
  }
  return QValue{v, out};
}

/// A float constant `c` added to the int32 accumulator `acc` (zero point
/// 0): its values at the accumulator's scale, per channel where that is.
static std::optional<SmallVector<double>>
quantizeAddend(Value c, const QValue &acc, int64_t resultRank) {
  auto type = dyn_cast<RankedTensorType>(c.getType());
  if (!type || !type.hasStaticShape() || !isa<FloatType>(type.getElementType()))
    return std::nullopt;
  std::optional<SmallVector<double>> values =
      constantOperand(c, int64_t(1) << 20);
  if (!values)
    return std::nullopt;
  // The channel of each element: its index along the accumulator's axis
  // (the constant's shape aligned to the result's from the right).
  int64_t axis = acc.type.axis - (resultRank - type.getRank());
  bool perChannel = !acc.type.perTensor();
  if (perChannel &&
      (axis < 0 || type.getDimSize(axis) != int64_t(acc.type.scales.size())))
    return std::nullopt;
  int64_t inner = 1;
  for (int64_t d = axis + 1; perChannel && d < type.getRank(); ++d)
    inner *= type.getDimSize(d);
  auto [lo, hi] = integerRange(IntegerType::get(c.getContext(), 32));
  for (size_t i = 0; i < values->size(); ++i) {
    int64_t ch = perChannel ? (int64_t(i) / inner) % type.getDimSize(axis) : 0;
    double &v = (*values)[i];
    v = std::clamp(std::nearbyint(v / acc.type.scales[ch]), double(lo),
                   double(hi));
  }
  return values;
}

FailureOr<QValue> Rewriter::biasAdd(Operation *op, unsigned depth) {
  FailureOr<QValue> x = rewrite(op->getOperand(0), depth);
  if (failed(x))
    return failure();
  if (!x->type.dtype.isInteger(32) || !x->type.zeroPointsZero())
    return reject(op, "it does not add to a product's int32 accumulator");
  auto axisAttr = op->getAttrOfType<IntegerAttr>("axis");
  int64_t axis = axisAttr ? axisAttr.getInt() : 1;
  axis = axis < 0 ? axis + rankOf(x->data) : axis;
  if (!x->type.perTensor() && axis != x->type.axis)
    return reject(op, "its axis is not the accumulator's channels");
  Value bias = op->getOperand(1);
  Value data;
  if (bias.getDefiningOp<QnnDequantizeOp>()) {
    FailureOr<QValue> q = rewrite(bias, depth);
    if (failed(q))
      return failure();
    // A bias along the axis: its per-channel parameters run along its 0.
    Affine want = x->type;
    if (!want.perTensor())
      want.axis = 0;
    data = q->type.dtype == want.dtype && q->type.sameParamsAs(want)
               ? q->data
               : requantize(op, *q, want);
  } else {
    // Per channel: the bias is a vector along the accumulator's axis.
    QValue along = *x;
    along.type.axis = 0;
    std::optional<SmallVector<double>> values =
        quantizeAddend(bias, along, rankOf(bias));
    if (!values)
      return reject(op, "its bias is neither dequantized nor a float "
                        "constant");
    data =
        constant(op, *values, cast<RankedTensorType>(bias.getType()).getShape(),
                 x->type.dtype);
  }
  return QValue{forward(op, {x->data, data}), x->type};
}

std::optional<Affine> Rewriter::rootParams(Value result,
                                           ArrayRef<QValue> operands) {
  if (result != quantize.getData())
    return std::nullopt;
  OpBuilder b(quantize);
  std::optional<Affine> out = affineOf(
      quantize.getOutputScale(), quantize.getOutputZeroPoint(),
      static_cast<int64_t>(quantize.getAxis()),
      quantize.getOutDtype().value_or(b.getIntegerType(8)), rankOf(result));
  if (!out || !out->perTensor() || llvm::any_of(operands, [&](const QValue &q) {
        return !q.type.perTensor() || q.type.dtype != out->dtype;
      }))
    return std::nullopt;
  return out;
}

FailureOr<QValue> Rewriter::addOrSubtract(Operation *op, unsigned depth) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  // An accumulator and a float constant (a dense layer's bias).
  if (isConstant(lhs) != isConstant(rhs)) {
    bool lhsQuantized = !isConstant(lhs);
    FailureOr<QValue> q = rewrite(lhsQuantized ? lhs : rhs, depth);
    if (failed(q))
      return failure();
    if (!q->type.dtype.isInteger(32) || !q->type.zeroPointsZero())
      return reject(op, "it adds a float constant to something else than a "
                        "product's int32 accumulator");
    Value c = lhsQuantized ? rhs : lhs;
    std::optional<SmallVector<double>> values =
        quantizeAddend(c, *q, rankOf(op->getResult(0)));
    if (!values)
      return reject(op, "its constant operand cannot be quantized at the "
                        "accumulator's scale");
    Value ci =
        constant(op, *values, cast<RankedTensorType>(c.getType()).getShape(),
                 q->type.dtype);
    Value v = forward(op, lhsQuantized ? ValueRange{q->data, ci}
                                       : ValueRange{ci, q->data});
    return QValue{v, q->type};
  }
  FailureOr<QValue> l = rewrite(lhs, depth);
  if (failed(l))
    return failure();
  FailureOr<QValue> r = rewrite(rhs, depth);
  if (failed(r))
    return failure();
  // Where the quantize reads it: qnn.add/qnn.subtract at its parameters.
  if (std::optional<Affine> out = rootParams(op->getResult(0), {*l, *r}))
    return isa<AddOp>(op) ? qnnBinary<QnnAddOp>(op, *l, *r, *out)
                          : qnnBinary<QnnSubtractOp>(op, *l, *r, *out);
  // Elsewhere in int32 at the smaller scale (nothing lost, no clipping).
  double s = std::min(*llvm::min_element(l->type.scales),
                      *llvm::min_element(r->type.scales));
  QValue li = toInt32(op, *l, s), ri = toInt32(op, *r, s);
  return QValue{forward(op, {li.data, ri.data}), li.type};
}

FailureOr<QValue> Rewriter::multiply(Operation *op, unsigned depth) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  if (isConstant(lhs) != isConstant(rhs)) {
    bool lhsQuantized = !isConstant(lhs);
    Value x = lhsQuantized ? lhs : rhs, c = lhsQuantized ? rhs : lhs;
    FailureOr<QValue> q = rewrite(x, depth);
    if (failed(q))
      return failure();
    // x * c for a positive scalar c: the same integers, the scale times c.
    std::optional<SmallVector<double>> values = constantOperand(c, 1);
    if (!values || values->size() != 1 || !(values->front() > 0) ||
        !std::isfinite(values->front()) ||
        q->data.getType() !=
            RankedTensorType::get(resultType.getShape(), q->type.dtype))
      return reject(op, "it multiplies by a constant that is not one "
                        "positive scalar");
    QValue scaled = *q;
    for (double &scale : scaled.type.scales)
      scale *= values->front();
    return scaled;
  }
  FailureOr<QValue> l = rewrite(lhs, depth);
  if (failed(l))
    return failure();
  FailureOr<QValue> r = rewrite(rhs, depth);
  if (failed(r))
    return failure();
  if (!l->type.perTensor() || !r->type.perTensor())
    return reject(op, "an operand is quantized per channel");
  if (std::optional<Affine> out = rootParams(op->getResult(0), {*l, *r}))
    return qnnBinary<QnnMulOp>(op, *l, *r, *out);
  // Elsewhere (x - zx) * (y - zy) in int32 at the product of the scales:
  // 8-bit operands' products fit.
  if (l->type.dtype.getIntOrFloatBitWidth() > 8 ||
      r->type.dtype.getIntOrFloatBitWidth() > 8)
    return reject(op, "its operands are wider than 8 bits and it does not "
                      "feed the qnn.quantize");
  OpBuilder b(op);
  Type i32 = b.getI32Type();
  auto centred = [&](const QValue &q) {
    Value v = castTo(op, q.data, i32);
    if (q.type.zeroPoints.front() == 0)
      return v;
    return build<SubtractOp>(
        op, {v, constant(op, q.type.zeroPoints.front(), {}, i32)});
  };
  Value v = forward(op, {centred(*l), centred(*r)});
  return QValue{
      v,
      Affine{{l->type.scales.front() * r->type.scales.front()}, {0}, i32, -1}};
}

FailureOr<QValue> Rewriter::concatenate(Operation *op, unsigned depth) {
  auto tuple = op->getOperand(0).getDefiningOp<TupleOp>();
  if (!tuple || tuple->getBlock() != quantize->getBlock())
    return reject(op, "its operand is not a tuple built beside it");
  SmallVector<QValue> fields;
  for (Value field : tuple.getFields()) {
    FailureOr<QValue> q = rewrite(field, depth);
    if (failed(q))
      return failure();
    fields.push_back(*q);
  }
  // Per-channel parameters would have to be joined along the axis too.
  if (llvm::any_of(fields, [](const QValue &q) { return !q.type.perTensor(); }))
    return reject(op, "an operand is quantized per channel");
  rewritten.insert(tuple);
  OpBuilder b(op);
  auto joined = [&](ArrayRef<Value> values) {
    OpBuilder tb = builderAt(op);
    return RelayBuilder(tb, op->getLoc()).tuple(values);
  };
  SmallVector<Value> data;
  for (const QValue &q : fields)
    data.push_back(q.data);
  if (llvm::all_of(fields, [&](const QValue &q) {
        return q.type.dtype == fields.front().type.dtype &&
               q.type.sameParamsAs(fields.front().type);
      }))
    return QValue{forward(op, {joined(data)}), fields.front().type};
  std::optional<Affine> out = rootParams(op->getResult(0), fields);
  if (!out)
    return reject(op, "its operands' parameters differ and it does not feed "
                      "the qnn.quantize");
  SmallVector<Value> scales, zeroPoints;
  for (const QValue &q : fields) {
    scales.push_back(scaleConstant(op, q.type));
    zeroPoints.push_back(zeroPointConstant(op, q.type));
  }
  Value v = build<QnnConcatenateOp>(
      op,
      {joined(data), joined(scales), joined(zeroPoints),
       scaleConstant(op, *out), zeroPointConstant(op, *out)},
      {b.getNamedAttr("axis", op->getAttr("axis")
                                  ? op->getAttr("axis")
                                  : Attribute(b.getI64IntegerAttr(0)))});
  return QValue{v, *out};
}

FailureOr<QValue> Rewriter::clipAt(Operation *op, unsigned depth) {
  FailureOr<QValue> x = rewrite(op->getOperand(0), depth);
  if (failed(x))
    return failure();
  const Affine &t = x->type;
  std::pair<int64_t, int64_t> range = integerRange(cast<IntegerType>(t.dtype));
  int64_t lo = range.first, hi = range.second;
  bool isRelu = isa<ReluOp>(op);
  if (isRelu && t.zeroPointsZero())
    return QValue{forward(op, {x->data}), t};
  if (!t.perTensor())
    return reject(op, "its operand is quantized per channel");
  double s = t.scales.front(), z = t.zeroPoints.front();
  double a =
      isRelu ? 0.0 : op->getAttrOfType<FloatAttr>("a_min").getValueAsDouble();
  double bnd = isRelu
                   ? INFINITY
                   : op->getAttrOfType<FloatAttr>("a_max").getValueAsDouble();
  auto quantized = [&](double v) {
    if (std::isinf(v))
      return v < 0 ? double(lo) : double(hi);
    return std::clamp(std::nearbyint(v / s) + z, double(lo), double(hi));
  };
  OpBuilder b(op);
  Value v = build<ClipOp>(
      op, {x->data},
      {b.getNamedAttr("a_min", b.getF64FloatAttr(quantized(a))),
       b.getNamedAttr("a_max", b.getF64FloatAttr(quantized(bnd)))});
  return QValue{v, t};
}

FailureOr<QValue> Rewriter::avgPool(Operation *op, unsigned depth) {
  FailureOr<QValue> x = rewrite(op->getOperand(0), depth);
  if (failed(x))
    return failure();
  if (!x->type.perTensor())
    return reject(op, "its operand is quantized per channel");
  // The window's size k: the pool_size, or the whole image for a global
  // (or one-output adaptive) pooling.
  auto in = cast<RankedTensorType>(x->data.getType());
  auto out = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t k = 1;
  if (auto size = op->getAttrOfType<DenseI64ArrayAttr>("pool_size")) {
    for (int64_t d : size.asArrayRef())
      k *= d;
  } else if (in.hasStaticShape() && out.hasStaticShape()) {
    k = in.getNumElements() / std::max<int64_t>(out.getNumElements(), 1);
  }
  // k * 2^16 keeps the sums in int32 for 16-bit inputs too.
  if (k < 1 || k > (int64_t(1) << 14))
    k = 1;
  OpBuilder b(op);
  Type i32 = b.getI32Type();
  Value v = castTo(op, x->data, i32);
  Affine t{{x->type.scales.front() / double(k)},
           {x->type.zeroPoints.front() * double(k)},
           i32,
           -1};
  // A pooling to one value per channel is the sum over the image.
  auto layout = op->getAttrOfType<StringAttr>("layout");
  StringRef l = layout ? layout.getValue() : StringRef("NCHW");
  size_t h = l.find('H'), w = l.find('W');
  if (out.hasStaticShape() && h != StringRef::npos && w != StringRef::npos &&
      out.getRank() == int64_t(l.size()) && out.getDimSize(h) == 1 &&
      out.getDimSize(w) == 1 && k > 1) {
    Value sum = build<SumOp>(
        op, {v},
        {b.getNamedAttr("axis",
                        b.getDenseI64ArrayAttr({int64_t(std::min(h, w)),
                                                int64_t(std::max(h, w))})),
         b.getNamedAttr("keepdims", b.getBoolAttr(true))});
    return QValue{sum, t};
  }
  if (k > 1)
    v = build<MultiplyOp>(op, {v, constant(op, {double(k)}, {}, i32)});
  return QValue{forward(op, {v}), t};
}

FailureOr<QValue> Rewriter::same(Operation *op, unsigned depth) {
  FailureOr<QValue> x = rewrite(op->getOperand(0), depth);
  if (failed(x))
    return failure();
  bool isMaxPool =
      op->getName().getStringRef().contains("max_pool") && rankOf(x->data) > 1;
  // Pooling keeps every axis in place; the others may move them.
  if (!x->type.perTensor() && !isMaxPool)
    return reject(op, "its operand is quantized per channel");
  SmallVector<Value> operands = {x->data};
  if (auto pad = dyn_cast<PadOp>(op)) {
    std::optional<SmallVector<double>> value =
        constantOperand(pad.getPadValue(), 1);
    if (!value)
      return reject(op, "its pad value is not a constant");
    auto [lo, hi] = integerRange(cast<IntegerType>(x->type.dtype));
    double q =
        std::clamp(std::nearbyint(value->front() / x->type.scales.front()) +
                       x->type.zeroPoints.front(),
                   double(lo), double(hi));
    operands.push_back(constant(op, {q}, {}, x->type.dtype));
  } else {
    llvm::append_range(operands, op->getOperands().drop_front());
  }
  return QValue{forward(op, operands), x->type};
}

std::optional<QValue> Rewriter::lookupTable(const Affine &out) {
  if (!out.perTensor() || out.dtype.getIntOrFloatBitWidth() > 16)
    return std::nullopt;
  // The subgraph in operand-before-user order, its one dequantize and its
  // constants (each one value, however broadcast).
  Block *block = quantize->getBlock();
  SmallVector<Operation *> ops;
  DenseMap<Value, double> constants;
  DenseSet<Value> visited;
  QnnDequantizeOp leaf;
  auto shape = cast<RankedTensorType>(quantize.getData().getType()).getShape();
  std::function<bool(Value)> visit = [&](Value v) {
    if (!visited.insert(v).second)
      return true;
    Operation *def = v.getDefiningOp();
    if (auto dq = dyn_cast_or_null<QnnDequantizeOp>(def)) {
      if (leaf && leaf != dq)
        return false;
      leaf = dq;
      return true;
    }
    if (!def || def->getBlock() != block || ops.size() > 64)
      return false;
    if (DenseElementsAttr c = evaluateConstantTensor(v, int64_t(1) << 16)) {
      SmallVector<double> values = elementValues(c);
      if (values.empty() || !llvm::all_equal(values))
        return false;
      constants[v] = values.front();
      return true;
    }
    const OperatorInfo *info = lookupOperator(def->getName().getStringRef());
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!info || def->getNumResults() != 1 || !type ||
        type.getShape() != shape ||
        (info->pattern != OpPatternKind::ElemWise &&
         info->pattern != OpPatternKind::Broadcast))
      return false;
    for (Value operand : def->getOperands())
      if (!visit(operand))
        return false;
    ops.push_back(def);
    return true;
  };
  if (!visit(quantize.getData()) || !leaf || ops.empty())
    return std::nullopt;
  auto in = dyn_cast<IntegerType>(elementOf(leaf.getData()));
  std::optional<Affine> inParams =
      affineOf(leaf.getInputScale(), leaf.getInputZeroPoint(), -1,
               elementOf(leaf.getData()), rankOf(leaf.getData()));
  if (!in || in.getWidth() != 8 || !inParams || !inParams->perTensor() ||
      cast<RankedTensorType>(leaf.getResult().getType()).getShape() != shape)
    return std::nullopt;
  // Clips, relus and products the integer rules do exactly in place.
  if (llvm::all_of(ops, [](Operation *op) {
        return isa<ClipOp, ReluOp, MultiplyOp, DropoutOp>(op);
      }))
    return std::nullopt;

  // The subgraph again on the 256 integers, evaluated and erased.
  OpBuilder b(quantize);
  Location loc = quantize.getLoc();
  RelayBuilder rb(b, loc);
  auto [lo, hi] = integerRange(in);
  SmallVector<double> inputs;
  for (int64_t i = lo; i <= hi; ++i)
    inputs.push_back(double(i));
  SmallVector<Operation *> scratch;
  auto track = [&](Value v) {
    if (v)
      scratch.push_back(v.getDefiningOp());
    return v;
  };
  auto scalarConstantOf = [&](double value, Type dtype) {
    return track(ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(
            RankedTensorType::get({}, dtype),
            isa<FloatType>(dtype)
                ? Attribute(b.getFloatAttr(dtype, value))
                : Attribute(b.getIntegerAttr(dtype, int64_t(value))))));
  };
  IRMapping mapping;
  Value integers = track(ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(
          RankedTensorType::get({int64_t(inputs.size())}, in),
          llvm::map_to_vector(inputs, [&](double v) -> Attribute {
            return b.getIntegerAttr(in, int64_t(v));
          }))));
  Value dequantized = track(rb.like(
      leaf, {integers, leaf.getInputScale(), leaf.getInputZeroPoint()}));
  bool built = static_cast<bool>(dequantized);
  if (built)
    mapping.map(leaf.getResult(), dequantized);
  for (Operation *op : ops) {
    if (!built)
      break;
    SmallVector<Value> operands;
    for (Value v : op->getOperands()) {
      auto c = constants.find(v);
      operands.push_back(c != constants.end()
                             ? scalarConstantOf(c->second, elementOf(v))
                             : mapping.lookupOrNull(v));
    }
    Value v = track(rb.like(op, operands));
    built = v && llvm::all_of(operands, [](Value o) { return bool(o); });
    if (built)
      mapping.map(op->getResult(0), v);
  }
  DenseElementsAttr values;
  if (built) {
    Value q = track(rb.like(quantize, {mapping.lookup(quantize.getData()),
                                       quantize.getOutputScale(),
                                       quantize.getOutputZeroPoint()}));
    if (q)
      values = evaluateConstantTensor(q, int64_t(inputs.size()),
                                      unsigned(ops.size()) + 16);
  }
  for (Operation *op : llvm::reverse(scratch))
    op->erase();
  if (!values || elementOf(quantize.getResult()) != out.dtype)
    return std::nullopt;

  // table[x - lo] for the integers x: every index is in range, so take's
  // default mode ("clip"), without the run-time check "fast" makes.
  Value indices = castTo(quantize, leaf.getData(), b.getI32Type());
  if (lo != 0)
    indices = build<SubtractOp>(
        quantize,
        {indices, constant(quantize, double(lo), {}, b.getI32Type())});
  Value tableConstant = constant(quantize, elementValues(values),
                                 {int64_t(inputs.size())}, out.dtype);
  Value table = build<TakeOp>(quantize, {tableConstant, indices}, {});
  if (!table)
    return std::nullopt;
  rewritten.insert(leaf);
  rewritten.insert(ops.begin(), ops.end());
  return QValue{table, out};
}

bool Rewriter::isFake() {
  SmallVector<Value> work = {quantize.getData()};
  DenseSet<Value> seen;
  // Bounded: a search through more operators than this calls it fake (the
  // rewrite then decides).
  for (unsigned visited = 0; !work.empty() && visited < 4096; ++visited) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != quantize->getBlock())
      continue;
    if (isa<QnnDequantizeOp>(def))
      return true;
    for (Value v : def->getOperands())
      if (seen.insert(v).second)
        work.push_back(v);
    if (work.size() + visited >= 4096)
      return true;
  }
  return false;
}

LogicalResult Rewriter::run(SmallVectorImpl<Operation *> &floatOps) {
  fake = isFake();
  OpBuilder b(quantize);
  Value data = quantize.getData();
  int64_t rank = rankOf(data);
  Type outDtype = quantize.getOutDtype().value_or(b.getIntegerType(8));
  std::optional<Affine> out =
      affineOf(quantize.getOutputScale(), quantize.getOutputZeroPoint(),
               static_cast<int64_t>(quantize.getAxis()), outDtype, rank);
  FailureOr<QValue> root = failure();
  if (!out) {
    (void)reject(quantize, "its scale and zero point are not constants");
  } else if (std::optional<QValue> table = lookupTable(*out)) {
    root = *table;
  } else {
    root = rewrite(data, 0);
  }
  if (failed(root)) {
    for (Operation *op : llvm::reverse(created.ops))
      op->erase();
    return failure();
  }
  Value result = root->type.dtype == out->dtype && root->type.sameParamsAs(*out)
                     ? root->data
                     : requantize(quantize, *root, *out);
  if (!result) {
    (void)reject(quantize, "the requantization to its parameters does not "
                           "type");
    for (Operation *op : llvm::reverse(created.ops))
      op->erase();
    return failure();
  }
  quantize.getResult().replaceAllUsesWith(result);
  floatOps.push_back(quantize);
  llvm::append_range(floatOps, rewritten);
  return success();
}

struct FakeQuantizationToIntegerPass
    : relay::impl::FakeQuantizationToIntegerBase<
          FakeQuantizationToIntegerPass> {
  using FakeQuantizationToIntegerBase::FakeQuantizationToIntegerBase;

  void runOnOperation() override {
    SmallVector<Operation *> quantizes;
    getOperation()->walk([&](QnnQuantizeOp q) { quantizes.push_back(q); });
    SmallVector<Operation *> floatOps;
    bool failedHard = false;
    for (Operation *q : quantizes) {
      Rewriter rewriter(q, hardFail);
      if (succeeded(rewriter.run(floatOps))) {
        ++numRewritten;
        continue;
      }
      // A quantize of float values alone is a real one.
      if (!rewriter.wasFake())
        continue;
      ++numLeftInFloat;
      failedHard |= hardFail;
    }
    if (failedHard)
      return signalPassFailure();
    // The float operators (and the constants and casts only they read)
    // that nothing reads any more; an op is erased only when popped, so
    // nothing on the worklist dangles.
    DenseSet<Operation *> floatSet(floatOps.begin(), floatOps.end());
    llvm::SetVector<Operation *> worklist(floatOps.begin(), floatOps.end());
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      if (!op->use_empty())
        continue;
      SmallVector<Value> operands(op->getOperands());
      floatSet.erase(op);
      op->erase();
      for (Value v : operands)
        if (Operation *def = v.getDefiningOp())
          if (def->use_empty() &&
              (floatSet.contains(def) || isa<ConstantOp, CastOp>(def)))
            worklist.insert(def);
    }
  }
};

} // namespace

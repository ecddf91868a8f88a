//===- Realize.cpp - Simulated quantization into integer arithmetic -------===//
//
// --relay-quantize-realize (TVM's QRealize): walks each function's dataflow
// in program order and computes every value that calibrated
// simulated_quantize ops made integral as an integer tensor with a scale
// (value = integer * scale), by each operator's rule (QuantizeRules.h):
//
//   simulated_quantize   from float: clip(round(x / s)); from integers of
//                        another scale: requantized to s (TVM's fixed-point
//                        multiply, qnn.requantize), clipped
//   product              on dtype-input data and dtype-weight weights into
//                        dtype-activation (out_dtype); scale the product
//   multiply             in dtype-activation; scale the product
//   add                  both in dtype-activation at the smaller scale
//   identity, pool, clip on the integers (pool on dtype-input; clip with
//                        its bounds divided by the scale)
//   concatenate          the fields at the smallest scale in
//                        dtype-activation
//
// Every other use of such a value (and the function's result) reads it
// dequantized: cast to float32 times its scale.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "dialects/relay/RelayBuilder.h"
#include "transforms/Quantization/QuantizeConfig.h"
#include "transforms/Quantization/QuantizeRules.h"

#include "llvm/ADT/SetVector.h"

#include <cmath>

namespace mlir::relay {
#define GEN_PASS_DEF_QUANTIZEREALIZE
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::quant;

namespace {

/// A real tensor held as `data * scale`, or, with per-channel weight
/// scales, as `data * channelScales[c]` for c its index along `axis`
/// (`scale` is then the smallest of them).
struct IntValue {
  Value data;
  float scale;
  Type dtype;
  SmallVector<float> channelScales = {};
  int64_t axis = -1;

  bool isPerChannel() const { return !channelScales.empty(); }
};

Type elementOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

class Realizer {
public:
  Realizer(const QuantizeRules &rules, Type input, Type weight, Type activation)
      : rules(rules), dtypeInput(input), dtypeWeight(weight),
        dtypeActivation(activation) {}

  LogicalResult run(FuncOp func) {
    for (Operation &op :
         llvm::make_early_inc_range(func.getBody().front().getOperations()))
      if (failed(visit(&op)))
        return failure();
    // Uses the walk did not see (inside nested regions) read the values
    // dequantized; then the float ops are gone.
    llvm::SmallPtrSet<Operation *, 32> gone(replaced.begin(), replaced.end());
    gone.insert(deadTuples.begin(), deadTuples.end());
    auto kept = [&](OpOperand &use) { return !gone.count(use.getOwner()); };
    for (Operation *op : replaced) {
      Value r = op->getResult(0);
      if (llvm::any_of(r.getUses(), kept))
        r.replaceUsesWithIf(dequantize(r), kept);
    }
    llvm::SetVector<Operation *> constants;
    // The tuples of quantized concatenations first: they read replaced ops.
    for (Operation *t : deadTuples)
      if (t->use_empty())
        t->erase();
    for (Operation *op : llvm::reverse(replaced)) {
      if (!op->use_empty())
        continue;
      for (Value v : op->getOperands())
        if (auto c = v.getDefiningOp<ConstantOp>())
          constants.insert(c);
      op->erase();
    }
    // The scales and bounds of the simulated quantizations go too.
    for (Operation *c : constants)
      if (c->use_empty())
        c->erase();
    return success();
  }

private:
  LogicalResult visit(Operation *op);

  /// A weight quantized per output channel (`scales` along the one axis
  /// the scale tensor is not 1): clip(round(w / s[c])), kept in float
  /// like other constant weights until the product casts it.
  LogicalResult realizeChannelScales(SimulatedQuantizeOp sq,
                                     ArrayRef<double> scales, double lo,
                                     double hi) {
    Operation *op = sq;
    if (intOf(sq.getData()))
      return op->emitError("per-channel scales quantize a float weight, not "
                           "a quantized value");
    auto scaleType = cast<RankedTensorType>(sq.getDomScale().getType());
    int64_t axis = -1;
    for (auto [i, d] : llvm::enumerate(scaleType.getShape()))
      if (d != 1)
        axis = axis < 0 ? static_cast<int64_t>(i) : -2;
    int64_t rank = rankOf(sq.getData());
    if (axis < 0)
      return op->emitError("per-channel scales vary along one axis");
    axis += rank - scaleType.getRank();
    SmallVector<float> channel, reciprocal;
    for (double x : scales) {
      channel.push_back(static_cast<float>(x));
      reciprocal.push_back(1.0f / static_cast<float>(x));
    }
    OpBuilder b(op);
    Value inverse = ConstantOp::create(
        b, op->getLoc(),
        DenseElementsAttr::get(
            RankedTensorType::get(scaleType.getShape(), b.getF32Type()),
            ArrayRef<float>(reciprocal)));
    Value x = build<MultiplyOp>(op, {sq.getData(), inverse});
    Value data = clip(op, build<RoundOp>(op, {x}), lo, hi);
    IntValue value{data, *llvm::min_element(channel), {}, channel, axis};
    define(op, std::move(value));
    return success();
  }

  /// Builds `OpT` on `operands` at `at`, typed by its relation.
  template <typename OpT>
  Value build(Operation *at, ValueRange operands,
              ArrayRef<NamedAttribute> attrs = {}) {
    OpBuilder b(at);
    return RelayBuilder(b, at->getLoc()).op<OpT>(operands, attrs);
  }

  Value castTo(Operation *at, Value v, Type dtype) {
    if (elementOf(v) == dtype)
      return v;
    OpBuilder b(at);
    return build<CastOp>(at, {v},
                         {b.getNamedAttr("dtype", TypeAttr::get(dtype))});
  }

  Value clip(Operation *at, Value v, double lo, double hi) {
    OpBuilder b(at);
    return build<ClipOp>(at, {v},
                         {b.getNamedAttr("a_min", b.getF64FloatAttr(lo)),
                          b.getNamedAttr("a_max", b.getF64FloatAttr(hi))});
  }

  /// Integers `v` of scale `from` at scale `to`, in `dtype`: shifts where
  /// the ratio is a power of two (right shifts rounding half up, as TVM's
  /// round_for_shift), else qnn.requantize (TVM's fixed-point multiply,
  /// which rounds the same way).
  Value rescale(Operation *at, Value v, float from, float to, Type dtype) {
    OpBuilder b(at);
    Location loc = at->getLoc();
    int exponent = 0;
    double ratio = double(from) / double(to);
    if (std::frexp(ratio, &exponent) == 0.5) {
      int64_t k = exponent - 1;
      auto scalar = [&](int64_t value) {
        return ConstantOp::create(
            b, loc,
            DenseElementsAttr::get(
                RankedTensorType::get({}, dtype),
                cast<Attribute>(b.getIntegerAttr(dtype, value))));
      };
      v = castTo(at, v, dtype);
      if (k > 0)
        return build<LeftShiftOp>(at, {v, scalar(k)});
      Value half = scalar(int64_t(1) << (-k - 1));
      return build<RightShiftOp>(at, {build<AddOp>(at, {v, half}), scalar(-k)});
    }
    auto zero = ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(RankedTensorType::get({}, b.getI32Type()),
                               cast<Attribute>(b.getI32IntegerAttr(0))));
    return build<QnnRequantizeOp>(
        at, {v, f32Constant(b, loc, from), zero, f32Constant(b, loc, to), zero},
        {b.getNamedAttr("out_dtype", TypeAttr::get(dtype)),
         b.getNamedAttr("rounding", b.getStringAttr("UPWARD"))});
  }

  /// The float value `orig` computes, from its integers.
  Value dequantize(Value orig) {
    Value &d = dequantized[orig];
    if (d)
      return d;
    const IntValue &iv = ints.find(orig)->second;
    Operation *def = iv.data.getDefiningOp();
    OpBuilder b(def->getBlock(), std::next(def->getIterator()));
    Location loc = def->getLoc();
    RelayBuilder rb(b, loc);
    Value f =
        elementOf(iv.data) == b.getF32Type()
            ? iv.data
            : rb.op<CastOp>(
                  {iv.data},
                  {b.getNamedAttr("dtype", TypeAttr::get(b.getF32Type()))});
    Value scale = iv.isPerChannel()
                      ? channelScaleTensor(b, loc, iv.channelScales, iv.axis,
                                           rankOf(iv.data))
                      : f32Constant(b, loc, iv.scale);
    d = rb.op<MultiplyOp>({f, scale});
    return d;
  }

  static int64_t rankOf(Value v) {
    return cast<RankedTensorType>(v.getType()).getRank();
  }

  /// `scales` as an f32 constant that broadcasts along `axis` of a tensor
  /// of rank `rank`: [n] followed by ones.
  static Value channelScaleTensor(OpBuilder &b, Location loc,
                                  ArrayRef<float> scales, int64_t axis,
                                  int64_t rank) {
    SmallVector<int64_t> shape(rank - axis, 1);
    shape[0] = static_cast<int64_t>(scales.size());
    return ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(RankedTensorType::get(shape, b.getF32Type()),
                               scales));
  }

  /// Integers `v` of per-channel scales `from` along `axis` at the scale
  /// `to`, in `dtype`: qnn.requantize with one input scale per channel.
  Value rescaleChannels(Operation *at, Value v, ArrayRef<float> from,
                        int64_t axis, float to, Type dtype) {
    OpBuilder b(at);
    Location loc = at->getLoc();
    auto zero = ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(RankedTensorType::get({}, b.getI32Type()),
                               cast<Attribute>(b.getI32IntegerAttr(0))));
    Value scales = ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(
            RankedTensorType::get({static_cast<int64_t>(from.size())},
                                  b.getF32Type()),
            from));
    return build<QnnRequantizeOp>(
        at, {v, scales, zero, f32Constant(b, loc, to), zero},
        {b.getNamedAttr("out_dtype", TypeAttr::get(dtype)),
         b.getNamedAttr("axis", b.getI64IntegerAttr(axis)),
         b.getNamedAttr("rounding", b.getStringAttr("UPWARD"))});
  }

  /// A per-channel value `v` (a product's result, or a weight read by
  /// something else than a convolution or dense layer) read by anything
  /// but the quantization after it: first brought to one scale (the
  /// smallest of its channels', which loses nothing) in dtype-activation.
  void toOneScale(Operation *at, Value v) {
    auto it = ints.find(v);
    if (it == ints.end() || !it->second.isPerChannel())
      return;
    IntValue iv = it->second;
    Value data =
        rescaleChannels(at, castTo(at, iv.data, dtypeActivation),
                        iv.channelScales, iv.axis, iv.scale, dtypeActivation);
    it->second = {data, iv.scale, dtypeActivation};
  }

  /// Every operand held as integers is read dequantized.
  void dequantizeOperands(Operation *op) {
    for (OpOperand &use : op->getOpOperands())
      if (ints.count(use.get()))
        use.set(dequantize(use.get()));
  }

  /// `op` on `operands` (its attributes, `attrs` set over them), typed by
  /// its relation; null when the relation does not type it.
  Value forward(Operation *op, ValueRange operands,
                ArrayRef<NamedAttribute> attrs = {}) {
    if (llvm::any_of(operands, [](Value v) { return !v; }))
      return {};
    OpBuilder b(op);
    return RelayBuilder(b, op->getLoc()).like(op, operands, attrs);
  }

  void define(Operation *op, Value data, float scale) {
    define(op, IntValue{data, scale, elementOf(data)});
  }
  void define(Operation *op, IntValue value) {
    value.dtype = elementOf(value.data);
    ints[op->getResult(0)] = std::move(value);
    replaced.push_back(op);
  }

  const IntValue *intOf(Value v) const {
    auto it = ints.find(v);
    return it == ints.end() ? nullptr : &it->second;
  }

  const QuantizeRules &rules;
  Type dtypeInput, dtypeWeight, dtypeActivation;
  DenseMap<Value, IntValue> ints;
  DenseMap<Value, Value> dequantized;
  SmallVector<Operation *> replaced, deadTuples;
};

LogicalResult Realizer::visit(Operation *op) {
  auto fail = [&](Value v) -> LogicalResult {
    if (!v)
      return op->emitError("cannot realize this operator in integers");
    return success();
  };
  if (auto sq = dyn_cast<SimulatedQuantizeOp>(op)) {
    const IntValue *in = intOf(sq.getData());
    if (static_cast<QKind>(sq.getKind()) == QKind::Identity) {
      if (in)
        return define(op, *in), success();
      sq.getResult().replaceAllUsesWith(sq.getData());
      op->erase();
      return success();
    }
    std::optional<SmallVector<double>> scales =
        constantValues(sq.getDomScale());
    std::optional<double> lo = scalarConstant(sq.getClipMin()),
                          hi = scalarConstant(sq.getClipMax());
    if (!scales || scales->empty() || !lo || !hi ||
        llvm::any_of(*scales, [](double x) { return !(x > 0); }))
      return op->emitError("realizing needs a positive constant scale and "
                           "constant clip bounds (run "
                           "--relay-quantize-calibrate first)");
    if (scales->size() > 1)
      return realizeChannelScales(sq, *scales, *lo, *hi);
    auto scale = static_cast<float>(scales->front());
    Value data;
    if (in && !in->isPerChannel() && in->scale == scale) {
      data = clip(op, in->data, *lo, *hi);
    } else if (in) {
      Value v = in->data;
      if (isa<FloatType>(in->dtype) || in->isPerChannel())
        v = castTo(op, v, dtypeActivation);
      v = in->isPerChannel()
              ? rescaleChannels(op, v, in->channelScales, in->axis, scale,
                                dtypeActivation)
              : rescale(op, v, in->scale, scale, dtypeActivation);
      data = castTo(op, clip(op, v, *lo, *hi),
                    in->isPerChannel() ? dtypeActivation : in->dtype);
    } else {
      OpBuilder b(op);
      Value x = build<MultiplyOp>(
          op, {sq.getData(), f32Constant(b, op->getLoc(), 1.0f / scale)});
      data = clip(op, build<RoundOp>(op, {x}), *lo, *hi);
    }
    if (failed(fail(data)))
      return failure();
    define(op, data, scale);
    return success();
  }

  // Per-channel values are brought to one scale for every reader but the
  // quantization after them and the weight operand of a product whose
  // output channels are known (a convolution, a dense layer).
  bool perChannelProduct =
      rules.lookup(op->getName().getStringRef()) == QRule::Product &&
      quant::productOutputAxis(op);
  for (OpOperand &use : op->getOpOperands())
    if (!(perChannelProduct && use.getOperandNumber() == 1))
      toOneScale(op, use.get());

  // The tuple of a quantized concatenate is built there.
  if (auto tuple = dyn_cast<TupleOp>(op))
    if (tuple->hasOneUse() &&
        rules.lookup(
            tuple->use_begin()->getOwner()->getName().getStringRef()) ==
            QRule::Concatenate)
      return success();
  QRule rule = rules.lookup(op->getName().getStringRef());
  switch (rule) {
  case QRule::Product:
  case QRule::Multiply: {
    const IntValue *l = intOf(op->getOperand(0)), *r = intOf(op->getOperand(1));
    if (!l || !r)
      return dequantizeOperands(op), success();
    bool isProduct = rule == QRule::Product;
    Value ld = castTo(op, l->data, isProduct ? dtypeInput : dtypeActivation);
    Value rd = castTo(op, r->data, isProduct ? dtypeWeight : dtypeActivation);
    OpBuilder b(op);
    SmallVector<NamedAttribute> attrs;
    if (isProduct)
      attrs.push_back(
          b.getNamedAttr("out_dtype", TypeAttr::get(dtypeActivation)));
    Value v = forward(op, {ld, rd}, attrs);
    if (failed(fail(v)))
      return failure();
    if (r->isPerChannel()) {
      // Each output channel at the input's scale times its weight's.
      IntValue out{v, 0, {}, {}, *quant::productOutputAxis(op)};
      for (float c : r->channelScales)
        out.channelScales.push_back(l->scale * c);
      out.scale = *llvm::min_element(out.channelScales);
      define(op, std::move(out));
      return success();
    }
    define(op, v, l->scale * r->scale);
    return success();
  }
  case QRule::Add: {
    const IntValue *l = intOf(op->getOperand(0)), *r = intOf(op->getOperand(1));
    if (!l || !r)
      return dequantizeOperands(op), success();
    // x * s1 + y * s2 = (x * s1 / s + y * s2 / s) * s, s the smaller scale.
    float s = std::min(l->scale, r->scale);
    auto at = [&](const IntValue *iv) {
      Value v = castTo(op, iv->data, dtypeActivation);
      return iv->scale == s ? v : rescale(op, v, iv->scale, s, dtypeActivation);
    };
    Value v = forward(op, {at(l), at(r)});
    if (failed(fail(v)))
      return failure();
    define(op, v, s);
    return success();
  }
  case QRule::Identity:
  case QRule::Pool:
  case QRule::Clip: {
    const IntValue *in =
        op->getNumOperands() ? intOf(op->getOperand(0)) : nullptr;
    if (!in)
      return dequantizeOperands(op), success();
    OpBuilder b(op);
    Value data =
        rule == QRule::Pool ? castTo(op, in->data, dtypeInput) : in->data;
    SmallVector<NamedAttribute> attrs;
    if (rule == QRule::Clip) {
      for (StringRef bound : {"a_min", "a_max"}) {
        auto value = dyn_cast_or_null<FloatAttr>(op->getAttr(bound));
        if (!value)
          return op->emitError("a clip rule needs a_min and a_max");
        attrs.push_back(b.getNamedAttr(
            bound, b.getF64FloatAttr(value.getValueAsDouble() / in->scale)));
      }
    }
    SmallVector<Value> operands(op->getOperands());
    operands[0] = data;
    Value v = forward(op, operands, attrs);
    if (failed(fail(v)))
      return failure();
    define(op, v, in->scale);
    return success();
  }
  case QRule::Concatenate: {
    auto tuple = op->getOperand(0).getDefiningOp<TupleOp>();
    if (!tuple)
      return dequantizeOperands(op), success();
    SmallVector<const IntValue *> fields;
    for (Value f : tuple.getFields()) {
      toOneScale(op, f);
      fields.push_back(intOf(f));
    }
    if (llvm::is_contained(fields, nullptr)) {
      dequantizeOperands(tuple);
      return success();
    }
    // Every field at the smallest scale, in dtype-activation.
    float s = fields.front()->scale;
    for (const IntValue *f : fields)
      s = std::min(s, f->scale);
    SmallVector<Value> joined;
    for (const IntValue *f : fields) {
      Value v = castTo(op, f->data, dtypeActivation);
      joined.push_back(
          f->scale == s ? v : rescale(op, v, f->scale, s, dtypeActivation));
    }
    OpBuilder b(op);
    Value v = forward(op, {TupleOp::create(b, op->getLoc(), joined)});
    if (failed(fail(v)))
      return failure();
    define(op, v, s);
    deadTuples.push_back(tuple);
    return success();
  }
  case QRule::Stop:
  case QRule::Float:
    dequantizeOperands(op);
    return success();
  }
  llvm_unreachable("unknown rule");
}

struct QuantizeRealizePass
    : relay::impl::QuantizeRealizeBase<QuantizeRealizePass> {
  using QuantizeRealizeBase::QuantizeRealizeBase;

  void runOnOperation() override {
    QuantizeConfig config;
    config.dtypeInput = dtypeInput;
    config.dtypeWeight = dtypeWeight;
    config.dtypeActivation = dtypeActivation;
    // Realize takes the bit widths the calibrated clip bounds say; only
    // the dtypes are checked here.
    auto widthOf = [&](StringRef dtype, int64_t dflt) -> int64_t {
      Type t = parseIntegerDtype(&getContext(), dtype);
      return t ? std::min<int64_t>(t.getIntOrFloatBitWidth(), 32) : dflt;
    };
    config.nbitInput = widthOf(dtypeInput, 8);
    config.nbitWeight = widthOf(dtypeWeight, 8);
    config.nbitActivation = widthOf(dtypeActivation, 32);
    auto emitError = [&] {
      return mlir::emitError(getOperation().getLoc(),
                             "--relay-quantize-realize: ");
    };
    MLIRContext *ctx = &getContext();
    QuantizeRules table;
    if (failed(verifyConfig(config, emitError)) ||
        (!rules.empty() && failed(table.load(rules, ctx))))
      return signalPassFailure();
    for (auto func : getOperation().getOps<FuncOp>())
      if (!func.isExternal() &&
          failed(Realizer(table, parseIntegerDtype(ctx, config.dtypeInput),
                          parseIntegerDtype(ctx, config.dtypeWeight),
                          parseIntegerDtype(ctx, config.dtypeActivation))
                     .run(func)))
        return signalPassFailure();
  }
};

} // namespace

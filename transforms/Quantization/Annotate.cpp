//===- Annotate.cpp - Where quantization happens --------------------------===//
//
// --relay-quantize-annotate (TVM's QAnnotate): walks each function's
// dataflow in program order and inserts
// `relay.op.annotation.simulated_quantize` where values enter and leave
// integer arithmetic, by each operator's rule (QuantizeRules.h: TVM's
// annotate rules, or a rules file's):
//
//   product    (nn.conv2d, nn.dense) data -> INPUT, weight -> WEIGHT;
//              result ACTIVATION (the convolutions of skip-conv-layers
//              and, with skip-dense-layer, every nn.dense stay in float)
//   add, multiply  an unannotated constant operand -> WEIGHT, an
//              unannotated other or an ACTIVATION -> INPUT
//   identity, clip  (nn.relu, reshapes, slicing) keep their operand's kind
//   pool       (nn.max_pool2d) ACTIVATION -> INPUT; result INPUT
//   concatenate  the tuple's fields -> INPUT (when one is quantized)
//   stop       (nn.global_avg_pool2d) the operand leaves integers; nothing
//              after is quantized (TVM's stop_quantize)
//
// Any other consumer of an annotated value gets it through an INPUT
// simulated_quantize (TVM stores low-bit outputs), as does the function's
// result. The scales are placeholders (1.0) and the clip bounds those of
// the kind's bit width; --relay-quantize-calibrate sets the scales.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayBuilder.h"
#include "transforms/Quantization/QuantizeConfig.h"
#include "transforms/Quantization/QuantizeRules.h"

namespace mlir::relay {
#define GEN_PASS_DEF_QUANTIZEANNOTATE
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::quant;

namespace {

class Annotator {
public:
  Annotator(const QuantizeConfig &config, const QuantizeRules &rules)
      : config(config), rules(rules) {}

  LogicalResult run(FuncOp func) {
    for (Operation &op :
         llvm::make_early_inc_range(func.getBody().front().getOperations()))
      if (failed(visit(&op)))
        return failure();
    return success();
  }

private:
  /// `v` through a simulated_quantize of `kind`, built before `user`.
  Value attach(Operation *user, Value v, QKind kind) {
    OpBuilder b(user);
    Location loc = user->getLoc();
    double bound = config.clipBound(kind);
    RelayBuilder rb(b, loc);
    return rb.op<SimulatedQuantizeOp>(
        {v, f32Constant(b, loc, 1.0), f32Constant(b, loc, -bound),
         f32Constant(b, loc, bound)},
        {b.getNamedAttr("kind",
                        b.getI64IntegerAttr(static_cast<int64_t>(kind)))});
  }

  std::optional<QKind> kindOf(Value v) const {
    auto it = kinds.find(v);
    if (it == kinds.end())
      return std::nullopt;
    return it->second;
  }

  /// Operand `i` of `op` attached as `kind`.
  LogicalResult annotateOperand(Operation *op, unsigned i, QKind kind) {
    Value q = attach(op, op->getOperand(i), kind);
    if (!q)
      return op->emitError("cannot annotate the operand #")
             << i << " of this operator for quantization";
    op->setOperand(i, q);
    return success();
  }

  /// Every annotated operand of `op` leaves integer arithmetic: through
  /// one INPUT simulated_quantize per value.
  LogicalResult realizeOperands(Operation *op) {
    for (OpOperand &use : op->getOpOperands()) {
      if (!kindOf(use.get()))
        continue;
      Value &out = realized[use.get()];
      if (!out) {
        Operation *at = use.get().getDefiningOp()
                            ? use.get().getDefiningOp()->getNextNode()
                            : op;
        out = attach(at, use.get(), QKind::Input);
        if (!out)
          return op->emitError("cannot annotate an operand for quantization");
        kinds[out] = QKind::Input;
      }
      use.set(out);
    }
    return success();
  }

  bool isConstant(Value v) const {
    return static_cast<bool>(v.getDefiningOp<ConstantOp>());
  }

  LogicalResult visit(Operation *op);

  const QuantizeConfig &config;
  const QuantizeRules &rules;
  DenseMap<Value, QKind> kinds;
  DenseMap<Value, Value> realized;
  int64_t convCounter = 0;
  bool stopped = false;

public:
  /// Operators quantized, and operators quantized values reach that stay
  /// in float for want of a rule.
  int64_t numQuantized = 0, numFloat = 0;
};

LogicalResult Annotator::visit(Operation *op) {
  StringRef name = op->getName().getStringRef();
  QRule rule = rules.lookup(name);
  auto done = [&](std::optional<QKind> kind) {
    if (kind) {
      kinds[op->getResult(0)] = *kind;
      ++numQuantized;
    }
    return success();
  };
  // skip-conv-layers counts the convolutions in program order.
  if (name == "relay.nn.conv2d" && !stopped) {
    int64_t index = convCounter++;
    if (llvm::is_contained(config.skipConvLayers, index))
      return realizeOperands(op);
  }
  if (stopped || (name == "relay.nn.dense" && config.skipDenseLayer))
    return realizeOperands(op);

  switch (rule) {
  case QRule::Product: {
    std::optional<QKind> lhs = kindOf(op->getOperand(0));
    if (!lhs || *lhs == QKind::Activation)
      if (failed(annotateOperand(op, 0, QKind::Input)))
        return failure();
    if (!kindOf(op->getOperand(1)))
      if (failed(annotateOperand(op, 1, QKind::Weight)))
        return failure();
    return done(QKind::Activation);
  }
  case QRule::Add:
  case QRule::Multiply: {
    std::optional<QKind> lhs = kindOf(op->getOperand(0)),
                         rhs = kindOf(op->getOperand(1));
    if (!lhs && !rhs)
      return success();
    bool isAdd = rule == QRule::Add;
    if (isAdd && !lhs) {
      // A plain value added to an annotated one: INPUT.
      if (failed(annotateOperand(op, 0, QKind::Input)))
        return failure();
      return done(QKind::Input);
    }
    if (!isAdd && (!lhs || *lhs == QKind::Activation) &&
        failed(annotateOperand(op, 0, QKind::Input)))
      return failure();
    if (!rhs) {
      QKind kind = isConstant(op->getOperand(1)) ? QKind::Weight : QKind::Input;
      if (failed(annotateOperand(op, 1, kind)))
        return failure();
      return done(QKind::Activation);
    }
    if (isAdd && *lhs == QKind::Input && *rhs == QKind::Input)
      return done(QKind::Input);
    if (*rhs == QKind::Activation && (!isAdd || *lhs == QKind::Activation) &&
        failed(annotateOperand(op, 1, QKind::Input)))
      return failure();
    return done(QKind::Activation);
  }
  case QRule::Identity:
  case QRule::Clip:
    return done(kindOf(op->getOperand(0)));
  case QRule::Pool: {
    std::optional<QKind> kind = kindOf(op->getOperand(0));
    if (!kind)
      return success();
    if (*kind == QKind::Activation &&
        failed(annotateOperand(op, 0, QKind::Input)))
      return failure();
    return done(QKind::Input);
  }
  case QRule::Concatenate: {
    // The fields of its tuple (built for it alone) become inputs where
    // one of them is quantized.
    auto tuple = op->getOperand(0).getDefiningOp<TupleOp>();
    if (!tuple || !tuple->hasOneUse())
      return realizeOperands(op);
    if (llvm::none_of(tuple.getFields(),
                      [&](Value v) { return kindOf(v).has_value(); }))
      return success();
    for (OpOperand &field : tuple->getOpOperands()) {
      std::optional<QKind> kind = kindOf(field.get());
      if (kind && *kind != QKind::Activation)
        continue;
      Value q = attach(tuple, field.get(), QKind::Input);
      if (!q)
        return op->emitError("cannot annotate a field for quantization");
      kinds[q] = QKind::Input;
      field.set(q);
    }
    return done(QKind::Input);
  }
  case QRule::Stop:
    if (kindOf(op->getOperand(0)))
      stopped = true;
    return realizeOperands(op);
  case QRule::Float:
    // An operator a quantized value reaches without a rule: it stays in
    // float, and the user is told.
    if (lookupOperator(name) && llvm::any_of(op->getOperands(), [&](Value v) {
          return kindOf(v).has_value();
        })) {
      ++numFloat;
      if (rules.hasRule(name))
        op->emitRemark("stays in float: ") << name << "'s rule is float";
      else
        op->emitRemark("stays in float: ")
            << name << " has no quantization rule (a rules file can give it "
            << "one)";
    }
    return realizeOperands(op);
  }
  llvm_unreachable("unknown rule");
}

struct QuantizeAnnotatePass
    : relay::impl::QuantizeAnnotateBase<QuantizeAnnotatePass> {
  using QuantizeAnnotateBase::QuantizeAnnotateBase;

  void runOnOperation() override {
    QuantizeConfig config;
    config.nbitInput = nbitInput;
    config.nbitWeight = nbitWeight;
    config.nbitActivation = nbitActivation;
    config.skipDenseLayer = skipDenseLayer;
    auto emitError = [&] {
      return mlir::emitError(getOperation().getLoc(),
                             "--relay-quantize-annotate: ");
    };
    QuantizeRules table;
    if (failed(parseSkipConvLayers(skipConvLayers, config, emitError)) ||
        failed(verifyConfig(config, emitError, /*dtypes=*/false)) ||
        (!rules.empty() && failed(table.load(rules, &getContext()))))
      return signalPassFailure();
    for (auto func : getOperation().getOps<FuncOp>()) {
      if (func.isExternal())
        continue;
      Annotator annotator(config, table);
      if (failed(annotator.run(func)))
        return signalPassFailure();
      quantizedOperators += annotator.numQuantized;
      floatOperators += annotator.numFloat;
    }
  }
};

} // namespace

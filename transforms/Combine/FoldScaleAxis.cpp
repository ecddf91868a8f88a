//===- FoldScaleAxis.cpp - --relay-fold-scale-axis ------------------------===//
//
// TVM's FoldScaleAxis: a constant scale along the channel axis folds into the
// weights of the convolution or dense product beside it, backward (a scale
// of the product's output, through bias_add, add, subtract and relu) and
// forward (a scale of its input, through relu and an added shift); the
// scaled weights are then folded by --relay-fold-constant.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "dialects/relay/RelayOps.h"
#include "runtime/Interpreter/Value.h"
#include "transforms/Decompose/Decompose.h"
#include "transforms/Decompose/Rewrites.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_FOLDSCALEAXIS
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

namespace {

/// A constant that, broadcast against a tensor of the target type, varies
/// only along one of its axes.
struct AxisScale {
  Value scale;
  int64_t axis;
  int64_t channels;
  /// Every element is > 0 (it commutes with relu), or != 0 (it can divide).
  bool positive;
  bool nonzero;
};

std::optional<AxisScale> axisScale(Value scale, Type targetType) {
  auto constant = scale.getDefiningOp<ConstantOp>();
  auto type = dyn_cast<RankedTensorType>(scale.getType());
  auto target = dyn_cast<RankedTensorType>(targetType);
  if (!constant || !type || !target || !target.hasStaticShape() ||
      type.getRank() > target.getRank() ||
      type.getElementType() != target.getElementType() ||
      !isa<FloatType>(type.getElementType()))
    return std::nullopt;
  int64_t offset = target.getRank() - type.getRank();
  std::optional<int64_t> axis;
  for (auto [i, size] : llvm::enumerate(type.getShape())) {
    if (size == 1)
      continue;
    if (axis || size != target.getDimSize(i + offset))
      return std::nullopt;
    axis = i + offset;
  }
  // A scalar scale has no axis to fold along (TVM leaves it too).
  if (!axis)
    return std::nullopt;
  interp::Tensor values;
  if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue())) {
    values = interp::Tensor::fromAttr(dense);
  } else if (auto blob =
                 dyn_cast<DenseResourceElementsAttr>(constant.getValue())) {
    FailureOr<interp::Tensor> t = interp::Tensor::fromResource(blob);
    if (failed(t))
      return std::nullopt;
    values = std::move(*t);
  } else {
    return std::nullopt;
  }
  AxisScale s{scale, *axis, target.getDimSize(*axis), true, true};
  for (int64_t i = 0, e = values.getNumElements(); i < e; ++i) {
    double v = values.getF(i);
    s.positive &= v > 0;
    s.nonzero &= v != 0;
  }
  return s;
}

/// The scale as a vector along `axis` of a rank-`rank` tensor.
Value scaleAlong(Emitter &b, const AxisScale &s, int64_t axis, int64_t rank) {
  return alongAxis(b, b.reshape(s.scale, {s.channels}), axis, rank);
}

/// The scale as a tensor of the rank of the value it applies to, so that it
/// broadcasts against any operand of that value.
Value scaleAtRank(Emitter &b, const AxisScale &s, int64_t rank) {
  return scaleAlong(b, s, s.axis, rank);
}

int64_t rankOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getRank();
}

/// Where `letter` is in a layout string; -1 when it is not.
int64_t axisOf(StringRef layout, char letter) {
  size_t i = layout.find(letter);
  return i == StringRef::npos ? -1 : int64_t(i);
}

int64_t outputChannelAxis(Conv2DOp conv) {
  StringRef out = conv.getOutLayout();
  return axisOf(out.empty() ? conv.getDataLayout() : out, 'C');
}

//===----------------------------------------------------------------------===//
// Backward: a scale of a product's output
//===----------------------------------------------------------------------===//

/// Whether `v`, used once, can take the scale `s` into the weights that
/// compute it (with `apply`, which makes the scaled value).
bool canScaleBackward(Value v, const AxisScale &s) {
  Operation *op = v.getDefiningOp();
  if (!op || !v.hasOneUse())
    return false;
  int64_t rank = rankOf(v);
  // The weights are scaled in their own type.
  auto weightTakesScale = [&] {
    return elementOf(op->getOperand(1)) == elementOf(s.scale);
  };
  if (auto conv = dyn_cast<Conv2DOp>(op))
    // Packed layouts (NCHW16c): a scale along one axis is not one per
    // channel.
    return !hasPackedLayouts(conv) && outputChannelAxis(conv) == s.axis &&
           axisOf(conv.getKernelLayout(), 'O') >= 0 && weightTakesScale();
  if (isa<DenseOp, MatmulOp>(op))
    return s.axis == rank - 1 && weightTakesScale();
  if (auto biasAdd = dyn_cast<BiasAddOp>(op))
    return positive(biasAdd.getAxis(), rank) == s.axis &&
           canScaleBackward(biasAdd.getOperand(0), s);
  if (isa<AddOp, SubtractOp>(op))
    return llvm::any_of(op->getOperands(), [&](Value operand) {
      return operand.getType() == v.getType() && canScaleBackward(operand, s);
    });
  if (isa<ReluOp>(op))
    return s.positive && canScaleBackward(op->getOperand(0), s);
  return false;
}

/// `v` computed with the scale folded in (canScaleBackward holds).
Value scaleBackward(Emitter &b, Value v, const AxisScale &s) {
  Operation *op = v.getDefiningOp();
  int64_t rank = rankOf(v);
  auto withOperands = [&](ArrayRef<Value> operands) {
    OperationState state(op->getLoc(), op->getName(), operands,
                         op->getResultTypes(), op->getAttrs());
    return b.getRewriter().create(state)->getResult(0);
  };
  if (auto conv = dyn_cast<Conv2DOp>(op)) {
    int64_t o = axisOf(conv.getKernelLayout(), 'O');
    Value w = b.mul(conv.getWeight(), scaleAlong(b, s, o, 4));
    return w ? withOperands({conv.getData(), w}) : Value();
  }
  if (isa<DenseOp>(op)) {
    Value w = b.mul(op->getOperand(1), scaleAlong(b, s, 0, 2));
    return w ? withOperands({op->getOperand(0), w}) : Value();
  }
  if (auto matmul = dyn_cast<MatmulOp>(op)) {
    Value w = b.mul(matmul.getOperand(1),
                    scaleAlong(b, s, matmul.getTransposeB() ? 0 : 1, 2));
    return w ? withOperands({op->getOperand(0), w}) : Value();
  }
  if (isa<BiasAddOp>(op)) {
    Value x = scaleBackward(b, op->getOperand(0), s);
    Value bias = b.mul(op->getOperand(1), b.reshape(s.scale, {s.channels}));
    return x && bias ? withOperands({x, bias}) : Value();
  }
  if (isa<AddOp, SubtractOp>(op)) {
    // Each side that can take the scale takes it; the other is multiplied.
    SmallVector<Value> operands;
    for (Value operand : op->getOperands())
      operands.push_back(operand.getType() == v.getType() &&
                                 canScaleBackward(operand, s)
                             ? scaleBackward(b, operand, s)
                             : b.mul(operand, scaleAtRank(b, s, rank)));
    if (llvm::any_of(operands, [](Value x) { return !x; }))
      return Value();
    // The multiplied side may have grown to the scale's rank.
    return isa<AddOp>(op) ? b.add(operands[0], operands[1])
                          : b.op<SubtractOp>({operands[0], operands[1]});
  }
  if (isa<ReluOp>(op)) {
    Value x = scaleBackward(b, op->getOperand(0), s);
    return x ? withOperands({x}) : Value();
  }
  return Value();
}

/// multiply(v, scale) (either order), v a product with a per-channel scale
/// of its output: the product with scaled weights.
struct FoldBackward : OpRewritePattern<MultiplyOp> {
  FoldBackward(MLIRContext *context, unsigned &folded)
      : OpRewritePattern(context), folded(folded) {}

  LogicalResult matchAndRewrite(MultiplyOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getResult().getType();
    for (unsigned i = 0; i < 2; ++i) {
      Value v = op->getOperand(i), scale = op->getOperand(1 - i);
      std::optional<AxisScale> s = axisScale(scale, type);
      if (!s || v.getType() != type || !canScaleBackward(v, *s))
        continue;
      Emitter b(rewriter, op.getLoc());
      Value folded = scaleBackward(b, v, *s);
      if (!folded || !b.succeeded() || folded.getType() != type)
        return rewriter.notifyMatchFailure(op, "the scaled ops do not type");
      rewriter.replaceOp(op, folded);
      ++this->folded;
      return success();
    }
    return rewriter.notifyMatchFailure(op, "not a foldable channel scale");
  }

  unsigned &folded;
};

//===----------------------------------------------------------------------===//
// Forward: a scale of a product's input
//===----------------------------------------------------------------------===//

/// The chain relu?(add?(multiply(x, scale), shift)) that makes a product's
/// input, each link used once.
struct ForwardChain {
  Value x;
  AxisScale scale;
  Operation *relu = nullptr;
  Operation *shift = nullptr;
};

std::optional<ForwardChain> forwardChain(Value input, int64_t axis) {
  ForwardChain chain;
  Value v = input;
  auto single = [](Value x) { return x.hasOneUse() && x.getDefiningOp(); };
  if (!single(v))
    return std::nullopt;
  if (isa<ReluOp>(v.getDefiningOp())) {
    chain.relu = v.getDefiningOp();
    v = chain.relu->getOperand(0);
    if (!single(v))
      return std::nullopt;
  }
  if (isa<AddOp>(v.getDefiningOp())) {
    chain.shift = v.getDefiningOp();
    // The scaled side is the one of the sum's type.
    Value lhs = chain.shift->getOperand(0), rhs = chain.shift->getOperand(1);
    v = lhs.getType() == input.getType() && lhs.getDefiningOp<MultiplyOp>()
            ? lhs
            : rhs;
    if (!single(v) || v.getType() != input.getType())
      return std::nullopt;
  }
  auto mul = v.getDefiningOp<MultiplyOp>();
  if (!mul)
    return std::nullopt;
  for (unsigned i = 0; i < 2; ++i) {
    Value x = mul->getOperand(i);
    std::optional<AxisScale> s = axisScale(mul->getOperand(1 - i), v.getType());
    if (!s || x.getType() != v.getType() || s->axis != axis)
      continue;
    if ((chain.relu && !s->positive) || (chain.shift && !s->nonzero))
      return std::nullopt;
    chain.x = x;
    chain.scale = *s;
    return chain;
  }
  return std::nullopt;
}

/// The input without its scale: relu?(add?(x, shift / scale)).
Value unscaledInput(Emitter &b, const ForwardChain &chain) {
  Value v = chain.x;
  if (chain.shift) {
    Value shift =
        chain.shift->getOperand(0).getDefiningOp<MultiplyOp>() &&
                chain.shift->getOperand(0).getType() == chain.x.getType()
            ? chain.shift->getOperand(1)
            : chain.shift->getOperand(0);
    v = b.add(v, b.op<DivideOp>(
                     {shift, scaleAtRank(b, chain.scale, rankOf(chain.x))}));
  }
  if (chain.relu)
    v = b.op<ReluOp>({v});
  return v;
}

/// conv2d(relu?(add?(x * scale, shift)), w), the scale along the input's
/// channels: conv2d(relu?(add?(x, shift / scale)), w scaled along I).
struct FoldForwardConv : OpRewritePattern<Conv2DOp> {
  FoldForwardConv(MLIRContext *context, unsigned &folded)
      : OpRewritePattern(context), folded(folded) {}

  LogicalResult matchAndRewrite(Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    if (hasPackedLayouts(op))
      return rewriter.notifyMatchFailure(op, "a packed layout");
    int64_t c = axisOf(op.getDataLayout(), 'C');
    std::optional<ForwardChain> chain = forwardChain(op.getData(), c);
    if (!chain)
      return rewriter.notifyMatchFailure(op, "no scale of the input");
    auto data = cast<RankedTensorType>(op.getData().getType());
    int64_t channels = data.getDimSize(c);
    // The weight axis each input channel meets: I for a plain convolution,
    // O for a depthwise one (one output channel per input channel).
    int64_t weightAxis;
    auto weight = dyn_cast<RankedTensorType>(op.getWeight().getType());
    int64_t o = axisOf(op.getKernelLayout(), 'O');
    if (op.getGroups() == 1)
      weightAxis = axisOf(op.getKernelLayout(), 'I');
    else if (int64_t(op.getGroups()) == channels && weight && o >= 0 &&
             weight.getDimSize(o) == channels)
      weightAxis = o;
    else
      return rewriter.notifyMatchFailure(op, "grouped convolution");
    if (weightAxis < 0 || !weight ||
        weight.getElementType() != elementOf(chain->scale.scale))
      return rewriter.notifyMatchFailure(op, "the kernel cannot take it");
    Emitter b(rewriter, op.getLoc());
    Value input = unscaledInput(b, *chain);
    Value w = b.mul(op.getWeight(), scaleAlong(b, chain->scale, weightAxis, 4));
    if (!b.succeeded() || !input || !w)
      return rewriter.notifyMatchFailure(op, "the unscaled ops do not type");
    rewriter.modifyOpInPlace(op, [&] {
      op.getDataMutable().assign(input);
      op.getWeightMutable().assign(w);
    });
    ++folded;
    return success();
  }

  unsigned &folded;
};

/// dense(relu?(add?(x * scale, shift)), w), the scale along the features:
/// dense(relu?(add?(x, shift / scale)), w scaled along its columns).
struct FoldForwardDense : OpRewritePattern<DenseOp> {
  FoldForwardDense(MLIRContext *context, unsigned &folded)
      : OpRewritePattern(context), folded(folded) {}

  LogicalResult matchAndRewrite(DenseOp op,
                                PatternRewriter &rewriter) const override {
    Value data = op->getOperand(0);
    std::optional<ForwardChain> chain = forwardChain(data, rankOf(data) - 1);
    if (!chain || elementOf(op->getOperand(1)) != elementOf(chain->scale.scale))
      return rewriter.notifyMatchFailure(op, "no scale of the input");
    Emitter b(rewriter, op.getLoc());
    Value input = unscaledInput(b, *chain);
    Value w = b.mul(op->getOperand(1), scaleAlong(b, chain->scale, 1, 2));
    if (!b.succeeded() || !input || !w)
      return rewriter.notifyMatchFailure(op, "the unscaled ops do not type");
    rewriter.modifyOpInPlace(op, [&] { op->setOperands({input, w}); });
    ++folded;
    return success();
  }

  unsigned &folded;
};

struct FoldScaleAxisPass
    : public relay::impl::FoldScaleAxisBase<FoldScaleAxisPass> {
  void runOnOperation() override {
    // Scales built from constants (a batch norm's) are constants first, and
    // the scaled weights are folded after.
    OpPassManager fold(ModuleOp::getOperationName());
    fold.addPass(createFoldConstant());
    if (failed(runPipeline(fold, getOperation())))
      return signalPassFailure();
    MLIRContext *context = &getContext();
    unsigned folded = 0;
    RewritePatternSet patterns(context);
    patterns.add<FoldBackward, FoldForwardConv, FoldForwardDense>(context,
                                                                  folded);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
    numFolded += folded;
    if (folded && failed(runPipeline(fold, getOperation())))
      return signalPassFailure();
  }
};

} // namespace

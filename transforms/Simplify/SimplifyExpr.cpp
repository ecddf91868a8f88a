//===- SimplifyExpr.cpp - --relay-simplify-expr ---------------------------===//
//
// Rewrites that leave less to compute: chains of reshapes and transposes
// collapse, identities of arithmetic and casts disappear (TVM's
// SimplifyReshape, SimplifyTranspose, EliminateIdentity, SimplifySameCast
// and SimplifyConsecutiveCast).
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayOps.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_SIMPLIFYEXPR
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

/// Whether `op` only reshapes its first operand (its result type says to
/// what).
static bool isReshapeLike(Operation *op) {
  return isa<ReshapeOp, SqueezeOp, ExpandDimsOp, BatchFlattenOp, ReshapeLikeOp>(
      op);
}

/// Whether `v` is a constant all of whose elements are `value`.
static bool isSplat(Value v, double value) {
  auto c = v.getDefiningOp<ConstantOp>();
  auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : nullptr;
  if (!dense || !dense.isSplat())
    return false;
  Type e = dense.getElementType();
  if (isa<FloatType>(e))
    return dense.getSplatValue<APFloat>().convertToDouble() == value;
  if (e.isInteger(1))
    return false;
  return isa<IntegerType>(e) &&
         dense.getSplatValue<APInt>().getSExtValue() == int64_t(value);
}

namespace {

/// A reshape-like op of a reshape-like op: one reshape of the original
/// value; a reshape to the operand's own type: the operand.
struct CollapseReshapes : RewritePattern {
  CollapseReshapes(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isReshapeLike(op))
      return failure();
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic result");
    Value source = op->getOperand(0);
    while (Operation *def = source.getDefiningOp()) {
      if (!isReshapeLike(def))
        break;
      source = def->getOperand(0);
    }
    if (source.getType() == type) {
      rewriter.replaceOp(op, source);
      return success();
    }
    if (source == op->getOperand(0))
      return rewriter.notifyMatchFailure(op, "nothing to collapse");
    rewriter.replaceOpWithNewOp<ReshapeOp>(
        op, TypeRange{type}, ValueRange{source},
        ArrayRef<NamedAttribute>{rewriter.getNamedAttr(
            "newshape", rewriter.getDenseI64ArrayAttr(type.getShape()))});
    return success();
  }
};

/// The permutation of `transpose` (the reversal when not given).
SmallVector<int64_t> permutationOf(TransposeOp transpose) {
  return transpose.getPermutation(
      cast<RankedTensorType>(transpose.getOperand().getType()).getRank());
}

/// transpose(transpose(x, p), q): transpose(x, p o q); the identity
/// permutation: x.
struct ComposeTransposes : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<RankedTensorType>(op.getOperand().getType()))
      return rewriter.notifyMatchFailure(op, "unranked");
    SmallVector<int64_t> perm = permutationOf(op);
    Value source = op.getOperand();
    if (auto inner = source.getDefiningOp<TransposeOp>()) {
      SmallVector<int64_t> first = permutationOf(inner);
      for (int64_t &p : perm)
        p = first[p];
      source = inner.getOperand();
    }
    bool identity = llvm::all_of(llvm::enumerate(perm), [](auto e) {
      return int64_t(e.index()) == e.value();
    });
    if (identity && source.getType() == op.getType()) {
      rewriter.replaceOp(op, source);
      return success();
    }
    if (source == op.getOperand())
      return rewriter.notifyMatchFailure(op, "nothing to compose");
    rewriter.replaceOpWithNewOp<TransposeOp>(
        op, TypeRange{op.getType()}, ValueRange{source},
        ArrayRef<NamedAttribute>{rewriter.getNamedAttr(
            "axes", rewriter.getDenseI64ArrayAttr(perm))});
    return success();
  }
};

/// x * 1, 1 * x, x / 1, x + 0, 0 + x, x - 0: x, where the constant does not
/// broadcast x to another shape.
struct EliminateIdentity : RewritePattern {
  EliminateIdentity(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<MultiplyOp, DivideOp, AddOp, SubtractOp>(op))
      return failure();
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    Type type = op->getResult(0).getType();
    double unit = isa<MultiplyOp, DivideOp>(op) ? 1 : 0;
    bool commutes = isa<MultiplyOp, AddOp>(op);
    Value kept;
    if (isSplat(rhs, unit) && lhs.getType() == type)
      kept = lhs;
    else if (commutes && isSplat(lhs, unit) && rhs.getType() == type)
      kept = rhs;
    if (!kept)
      return rewriter.notifyMatchFailure(op, "no identity operand");
    rewriter.replaceOp(op, kept);
    return success();
  }
};

/// Whether a value of element type `from` converts to `to` without loss:
/// a wider type of the same kind (float, signed or unsigned integer).
bool isWidening(Type from, Type to) {
  if (auto f = dyn_cast<FloatType>(from)) {
    auto t = dyn_cast<FloatType>(to);
    return t && t.getWidth() > f.getWidth() && (f.isF16() || f.isF32()) &&
           (t.isF32() || t.isF64());
  }
  auto fi = dyn_cast<IntegerType>(from), ti = dyn_cast<IntegerType>(to);
  return fi && ti && !fi.isInteger(1) && ti.getWidth() > fi.getWidth() &&
         fi.isUnsigned() == ti.isUnsigned();
}

Type elementOf(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t ? t.getElementType() : Type();
}

/// cast(x) to x's own type: x; cast(cast(x, wider), t): cast(x, t).
struct SimplifyCast : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getOperand();
    if (x.getType() == op.getType()) {
      rewriter.replaceOp(op, x);
      return success();
    }
    auto inner = x.getDefiningOp<CastOp>();
    if (!inner || !elementOf(inner.getOperand()) ||
        !isWidening(elementOf(inner.getOperand()), elementOf(x)))
      return rewriter.notifyMatchFailure(op, "no widening cast under it");
    rewriter.modifyOpInPlace(op,
                             [&] { op->setOperand(0, inner.getOperand()); });
    return success();
  }
};

struct SimplifyExprPass
    : public relay::impl::SimplifyExprBase<SimplifyExprPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<CollapseReshapes, ComposeTransposes, EliminateIdentity,
                 SimplifyCast>(context);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
  }
};

} // namespace

//===- NarrowConstantInputs.cpp - Narrow int64 constants of generics ------===//
//
// --relay-narrow-constant-inputs: the int64 constants a linalg.generic reads
// (a requantization's significands) as the narrowest integer type that
// holds their values, sign-extended in the body (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_NARROWCONSTANTINPUTS
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

/// The narrowest of 8, 16 and 32 bits that holds every value of `values`
/// as a signed integer; 0 when some value needs 64.
unsigned narrowestWidth(DenseIntElementsAttr values) {
  unsigned width = 8;
  for (const APInt &v : values) {
    int64_t x = v.getSExtValue();
    while (width < 64 && (x < -(int64_t(1) << (width - 1)) ||
                          x >= (int64_t(1) << (width - 1))))
      width *= 2;
    if (width == 64)
      return 0;
  }
  return width;
}

/// One generic input at a time: the constant replaced by its narrow copy,
/// the block argument retyped and extended where the body reads it.
struct NarrowConstantInput : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  NarrowConstantInput(MLIRContext *context, llvm::Statistic &narrowed)
      : OpRewritePattern(context), narrowed(narrowed) {}

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    for (OpOperand *input : op.getDpsInputOperands()) {
      BlockArgument arg = op.getMatchingBlockArgument(input);
      if (!arg.getType().isSignlessInteger(64) || arg.use_empty())
        continue;
      DenseIntElementsAttr values;
      if (!matchPattern(input->get(), m_Constant(&values)))
        continue;
      unsigned width = narrowestWidth(values);
      if (width == 0)
        continue;
      auto narrowType = rewriter.getIntegerType(width);
      auto tensorType = cast<ShapedType>(values.getType());
      DenseElementsAttr narrow = values.mapValues(
          narrowType, [&](const APInt &v) { return v.trunc(width); });
      rewriter.setInsertionPoint(op);
      Value constant =
          arith::ConstantOp::create(rewriter, input->get().getLoc(),
                                    tensorType.clone(narrowType), narrow);
      rewriter.modifyOpInPlace(op, [&] {
        input->set(constant);
        arg.setType(narrowType);
      });
      rewriter.setInsertionPointToStart(op.getBody());
      Value wide = arith::ExtSIOp::create(rewriter, op.getLoc(),
                                          rewriter.getI64Type(), arg);
      rewriter.replaceAllUsesExcept(arg, wide, wide.getDefiningOp());
      ++narrowed;
      return success();
    }
    return rewriter.notifyMatchFailure(op, "no 64-bit constant input to "
                                           "narrow");
  }

  llvm::Statistic &narrowed;
};

struct NarrowConstantInputs
    : relay::impl::NarrowConstantInputsBase<NarrowConstantInputs> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<NarrowConstantInput>(context, numNarrowed);
    // The constants the generics no longer read are erased as dead.
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

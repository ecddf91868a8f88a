//===- FuseElementwise.cpp - Fuse elementwise linalg chains --------------===//
//
// --relay-fuse-elementwise: upstream's elementwise fusion of linalg generics
// on tensors, limited to what never repeats work (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

bool isAllParallel(linalg::GenericOp op) {
  return op.getNumReductionLoops() == 0;
}

/// Whether fusing the producer of `operand` into its user repeats no work:
/// both are all-parallel, the producer's result is used once, and the
/// consumer reads it through a permutation (no broadcast).
bool fusesWithoutRecomputing(OpOperand *operand) {
  auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
  auto consumer = dyn_cast<linalg::GenericOp>(operand->getOwner());
  if (!producer || !consumer || !isAllParallel(producer) ||
      !isAllParallel(consumer) || !operand->get().hasOneUse())
    return false;
  return consumer.getMatchingIndexingMap(operand).isPermutation();
}

struct FuseElementwise : relay::impl::FuseElementwiseBase<FuseElementwise> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(patterns,
                                                 fusesWithoutRecomputing);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

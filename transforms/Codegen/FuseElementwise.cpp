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
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
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

/// The band loop (an scf.for of independent iterations, each inserting its
/// band into the loop's tensor) whose result `consumer` reads element for
/// element as its only user; null when there is none.
scf::ForOp bandLoopFeeding(linalg::GenericOp consumer) {
  if (!isAllParallel(consumer))
    return nullptr;
  for (OpOperand *operand : consumer.getDpsInputOperands()) {
    auto loop = operand->get().getDefiningOp<scf::ForOp>();
    if (!loop || !loop->hasAttr(relay::kIndependentIterationsAttr) ||
        loop->getNumResults() != 1 || !operand->get().hasOneUse() ||
        loop->getBlock() != consumer->getBlock() ||
        !consumer.getMatchingIndexingMap(operand).isIdentity())
      continue;
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    if (yield.getOperand(0).getDefiningOp<tensor::InsertSliceOp>())
      return loop;
  }
  return nullptr;
}

/// Moves an elementwise op that reads a band loop's result into the loop,
/// band by band (upstream's consumer fusion), so that it reads each band
/// while it is in the cache: a convolution's bias and activation no longer
/// write and re-read the whole image. The loop's own result, now unused,
/// goes (its bands are no longer inserted anywhere).
void fuseIntoBandLoops(func::FuncOp func) {
  SmallVector<std::pair<linalg::GenericOp, scf::ForOp>> candidates;
  func.walk([&](linalg::GenericOp op) {
    if (scf::ForOp loop = bandLoopFeeding(op))
      candidates.emplace_back(op, loop);
  });
  IRRewriter rewriter(func.getContext());
  for (auto [consumer, loop] : candidates) {
    SmallVector<LoopLikeOpInterface> loops{
        cast<LoopLikeOpInterface>(loop.getOperation())};
    FailureOr<scf::SCFFuseConsumerOfSliceResult> fused =
        scf::tileAndFuseConsumer(rewriter, consumer, loops);
    if (failed(fused))
      continue;
    // The consumer's uses now read the loop's new result.
    if (consumer->use_empty())
      rewriter.eraseOp(consumer);
    // The loop with the consumer's results added is a new op: its bands
    // are still independent.
    auto newLoop = cast<scf::ForOp>(loops.front().getOperation());
    newLoop->setAttr(relay::kIndependentIterationsAttr, rewriter.getUnitAttr());
    // The band loop's first result had its one use in the consumer: yield
    // the loop's tensor unchanged so the canonicalizer drops it and the
    // insertion of each band.
    if (newLoop.getResult(0).use_empty()) {
      auto yield = cast<scf::YieldOp>(newLoop.getBody()->getTerminator());
      rewriter.modifyOpInPlace(
          yield, [&] { yield->setOperand(0, newLoop.getRegionIterArgs()[0]); });
    }
  }
}

struct FuseElementwise : relay::impl::FuseElementwiseBase<FuseElementwise> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(patterns,
                                                 fusesWithoutRecomputing);
    scf::ForOp::getCanonicalizationPatterns(patterns, &getContext());
    tensor::InsertSliceOp::getCanonicalizationPatterns(patterns, &getContext());
    FrozenRewritePatternSet frozen(std::move(patterns));
    if (failed(applyPatternsGreedily(getOperation(), frozen)))
      return signalPassFailure();
    fuseIntoBandLoops(getOperation());
    if (failed(applyPatternsGreedily(getOperation(), frozen)))
      signalPassFailure();
  }
};

} // namespace

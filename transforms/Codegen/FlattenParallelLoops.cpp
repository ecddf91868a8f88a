//===- FlattenParallelLoops.cpp - One-dimensional scf.parallel ------------===//
//
// --relay-flatten-parallel-loops: each scf.parallel of several dimensions
// becomes one over their product, before --async-parallel-for splits it
// into blocks (see Passes.td for the bug this avoids); with blocks=N each
// then runs as N blocks of consecutive iterations (a task per thread).
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <numeric>

namespace mlir::relay {
#define GEN_PASS_DEF_FLATTENPARALLELLOOPS
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

struct FlattenParallelLoops
    : relay::impl::FlattenParallelLoopsBase<FlattenParallelLoops> {
  using FlattenParallelLoopsBase::FlattenParallelLoopsBase;

  void runOnOperation() override {
    if (blocks < 0) {
      getOperation().emitError(
          "--relay-flatten-parallel-loops: blocks must be at least 0, got ")
          << static_cast<int64_t>(blocks);
      return signalPassFailure();
    }
    SmallVector<scf::ParallelOp> loops;
    // (A loop with reductions is left as it is: the async lowering does
    // not take those, and the CPU pipeline makes none.)
    getOperation().walk([&](scf::ParallelOp loop) {
      if (loop.getNumLoops() > 1 && loop.getNumResults() == 0)
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp loop : loops) {
      std::vector<unsigned> all(loop.getNumLoops());
      std::iota(all.begin(), all.end(), 0u);
      rewriter.setInsertionPoint(loop);
      collapseParallelLoops(rewriter, loop, {all});
    }
    // The product of the bounds is built from constants: folded, the
    // async lowering sees a static trip count.
    if (!loops.empty())
      (void)applyPatternsGreedily(getOperation(),
                                  RewritePatternSet(&getContext()));
    if (blocks == 0)
      return;
    SmallVector<scf::ParallelOp> all;
    getOperation().walk([&](scf::ParallelOp loop) { all.push_back(loop); });
    for (scf::ParallelOp loop : all)
      chunk(rewriter, loop);
  }

  /// A one-dimensional loop of more static iterations than `blocks` as
  /// `blocks` loops of consecutive iterations, run in parallel.
  void chunk(RewriterBase &rewriter, scf::ParallelOp loop) {
    if (loop.getNumLoops() != 1 || loop.getNumResults() != 0)
      return;
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()[0]);
    std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound()[0]);
    std::optional<int64_t> step = getConstantIntValue(loop.getStep()[0]);
    if (!lb || !ub || !step || *step <= 0)
      return;
    int64_t trips = (*ub - *lb + *step - 1) / *step;
    if (trips <= blocks)
      return;
    int64_t per = (trips + blocks - 1) / blocks;
    int64_t count = (trips + per - 1) / per;
    Location loc = loop.getLoc();
    rewriter.setInsertionPoint(loop);
    auto cst = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    Value zero = cst(0), one = cst(1), blockCount = cst(count),
          blockSpan = cst(per * *step);
    auto outer =
        scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                ValueRange{blockCount}, ValueRange{one});
    // Block b runs iterations lb + b*span .. min(lb + (b+1)*span, ub).
    rewriter.setInsertionPointToStart(outer.getBody());
    Value offset = arith::MulIOp::create(
        rewriter, loc, outer.getInductionVars()[0], blockSpan);
    Value begin =
        arith::AddIOp::create(rewriter, loc, offset, loop.getLowerBound()[0]);
    Value end = arith::MinSIOp::create(
        rewriter, loc, arith::AddIOp::create(rewriter, loc, begin, blockSpan),
        loop.getUpperBound()[0]);
    auto inner =
        scf::ForOp::create(rewriter, loc, begin, end, loop.getStep()[0]);
    rewriter.eraseOp(inner.getBody()->getTerminator());
    Block *body = loop.getBody();
    rewriter.eraseOp(body->getTerminator());
    rewriter.inlineBlockBefore(body, inner.getBody(), inner.getBody()->end(),
                               inner.getInductionVar());
    rewriter.setInsertionPointToEnd(inner.getBody());
    scf::YieldOp::create(rewriter, loc);
    rewriter.eraseOp(loop);
  }
};

} // namespace

//===- FlattenParallelLoops.cpp - One-dimensional scf.parallel ------------===//
//
// --relay-flatten-parallel-loops: each scf.parallel of several dimensions
// becomes one over their product, before --async-parallel-for splits it
// into blocks (see Passes.td for the bug this avoids).
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
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
  void runOnOperation() override {
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
  }
};

} // namespace

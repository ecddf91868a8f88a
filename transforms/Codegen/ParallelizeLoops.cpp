//===- ParallelizeLoops.cpp - Loops with independent iterations ----------===//
//
// --relay-parallelize-loops: scf.for loops marked relay.independent_iterations
// become scf.forall (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::relay {
#define GEN_PASS_DEF_PARALLELIZELOOPS
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

struct ParallelizeLoops : relay::impl::ParallelizeLoopsBase<ParallelizeLoops> {
  void runOnOperation() override {
    // Only the outermost: the threads are busy with a parallel loop around
    // (a convolution's bands), and a task per inner iteration would only
    // add dispatches.
    SmallVector<scf::ForOp> loops;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<scf::ForallOp, scf::ParallelOp>(op))
        return WalkResult::skip();
      auto loop = dyn_cast<scf::ForOp>(op);
      if (!loop ||
          !relay::hasCodegenMark(loop,
                                 relay::CodegenMark::IndependentIterations) ||
          loop.getNumResults() != 0)
        return WalkResult::advance();
      loops.push_back(loop);
      return WalkResult::skip();
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForOp loop : loops) {
      rewriter.setInsertionPoint(loop);
      auto forall = scf::ForallOp::create(
          rewriter, loop.getLoc(),
          ArrayRef<OpFoldResult>{getAsOpFoldResult(loop.getLowerBound())},
          ArrayRef<OpFoldResult>{getAsOpFoldResult(loop.getUpperBound())},
          ArrayRef<OpFoldResult>{getAsOpFoldResult(loop.getStep())},
          ValueRange{}, std::nullopt);
      Block *body = forall.getBody();
      // Everything but the (empty) scf.yield moves before the in_parallel
      // terminator.
      rewriter.eraseOp(loop.getBody()->getTerminator());
      rewriter.inlineBlockBefore(loop.getBody(), body->getTerminator(),
                                 body->getArguments());
      rewriter.eraseOp(loop);
      ++numParallelized;
    }
  }
};

} // namespace

//===- HoistAccumulators.cpp - Keep register tiles in registers -*- C++ -*-===//

#include "transforms/Codegen/CPU/HoistAccumulators.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

using namespace mlir;

/// The buffer `v` is a view of (through view-like ops).
static Value rootBuffer(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

/// Whether some op in `loop` other than `read` and `write` may access a
/// view of `root` (or has effects it cannot say).
static bool othersAccess(scf::ForOp loop, Value root, Operation *read,
                         Operation *write) {
  WalkResult result = loop.getBody()->walk([&](Operation *op) {
    if (op == read || op == write)
      return WalkResult::advance();
    if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance(); // its nested ops are visited
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return WalkResult::interrupt();
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (MemoryEffects::EffectInstance &effect : list) {
      Value value = effect.getValue();
      if (!value || rootBuffer(value) == root)
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// Hoists one pair out of `loop`; returns whether it did.
static bool hoistOne(RewriterBase &rewriter, scf::ForOp loop) {
  for (auto read : loop.getBody()->getOps<vector::TransferReadOp>()) {
    Value base = read.getBase();
    Value root = rootBuffer(base);
    if (!root.getDefiningOp<memref::AllocOp>() || read.getMask() ||
        !loop.isDefinedOutsideOfLoop(base) ||
        !llvm::all_of(read.getIndices(), [&](Value index) {
          return loop.isDefinedOutsideOfLoop(index);
        }))
      continue;
    vector::TransferWriteOp write;
    for (auto candidate : loop.getBody()->getOps<vector::TransferWriteOp>())
      if (candidate.getBase() == base &&
          candidate.getIndices() == read.getIndices() &&
          candidate.getVectorType() == read.getVectorType() &&
          candidate.getPermutationMap() == read.getPermutationMap() &&
          candidate.getInBounds() == read.getInBounds() &&
          !candidate.getMask() && read->isBeforeInBlock(candidate))
        write = candidate;
    if (!write || othersAccess(loop, root, read, write))
      continue;
    // The read moves before the loop, its value is carried by the loop, and
    // the write stores the final value after it.
    rewriter.setInsertionPoint(loop);
    Operation *hoisted = rewriter.clone(*read);
    Value written = write.getVector();
    FailureOr<LoopLikeOpInterface> grown = loop.replaceWithAdditionalYields(
        rewriter, hoisted->getResult(0), /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
          return SmallVector<Value>{written};
        });
    if (failed(grown))
      return false;
    auto newLoop = cast<scf::ForOp>(grown->getOperation());
    rewriter.replaceAllUsesWith(read.getResult(),
                                newLoop.getRegionIterArgs().back());
    rewriter.eraseOp(read);
    rewriter.moveOpAfter(write, newLoop);
    rewriter.modifyOpInPlace(write, [&] {
      write.getValueToStoreMutable().assign(newLoop.getResults().back());
    });
    return true;
  }
  return false;
}

unsigned mlir::relay::hoistAccumulatorTransfers(Operation *root) {
  IRRewriter rewriter(root->getContext());
  // Index computations first leave the loops they do not depend on.
  root->walk([](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
  unsigned hoisted = 0;
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<scf::ForOp> loops;
    root->walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      if (hoistOne(rewriter, loop)) {
        ++hoisted;
        changed = true;
        break; // the loop was replaced: collect the loops again
      }
    }
  }
  return hoisted;
}

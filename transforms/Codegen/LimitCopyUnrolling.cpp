//===- LimitCopyUnrolling.cpp - No giant blocks from unrolled copies ------===//
//
// --relay-limit-copy-unrolling: loops without loop-carried values whose
// complete unrolling would be large are annotated so that LLVM keeps them
// as loops (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir::relay {
#define GEN_PASS_DEF_LIMITCOPYUNROLLING
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

/// The most operations a complete unrolling may give.
constexpr int64_t kMaxUnrolledOps = 512;

/// The most iterations of a loop this pass annotates. LLVM unrolls a loop
/// with more only when its body is a few instructions (within its own size
/// threshold); annotating such loops would also stop their partial
/// unrolling.
constexpr int64_t kMaxAnnotatedTrips = 64;

/// The attribute scf-to-cf copies from an scf.for onto its back edge, and
/// --relay-convert-cf-to-llvm makes that branch's loop annotation.
constexpr llvm::StringLiteral kLoopAnnotation = "llvm.loop_annotation";

struct LimitCopyUnrolling
    : relay::impl::LimitCopyUnrollingBase<LimitCopyUnrolling> {
  LLVM::LoopAnnotationAttr disable;
  /// Each loop's body size (blockSize), for loops kept after the fact.
  llvm::DenseMap<Operation *, int64_t> bodySizes;

  /// The operations of `block` once LLVM has unrolled what it may: each
  /// loop's unrolled size, or its body's where this pass keeps the loop.
  /// Loops that each unroll within the bound but follow one another (an
  /// im2col copy's 49 taps for a 7x7 kernel) would still make one
  /// straight run of code; a loop that would lengthen the run past the
  /// bound is kept, which ends the run.
  int64_t blockSize(Block &block) {
    int64_t size = 0, run = 0;
    for (Operation &op : block) {
      auto loop = dyn_cast<scf::ForOp>(op);
      if (!loop) {
        int64_t opSize = 1;
        for (Region &region : op.getRegions())
          for (Block &b : region)
            opSize += blockSize(b);
        size += opSize;
        run += opSize;
        continue;
      }
      auto [unrolled, kept] = loopSize(loop);
      if (!kept && run + unrolled > kMaxUnrolledOps) {
        if (std::optional<int64_t> body = keep(loop)) {
          unrolled = *body;
          kept = true;
        }
      }
      size += unrolled;
      run = kept ? 0 : run + unrolled;
    }
    return size;
  }

  /// Annotates `loop` so that LLVM keeps it; its size then, or nothing
  /// where the pass leaves the loop to LLVM (more than
  /// kMaxAnnotatedTrips iterations).
  std::optional<int64_t> keep(scf::ForOp loop) {
    std::optional<APInt> trips = loop.getStaticTripCount();
    if (!trips || trips->getSExtValue() > kMaxAnnotatedTrips ||
        !loop.getInitArgs().empty())
      return std::nullopt;
    if (!loop->hasAttr(kLoopAnnotation)) {
      loop->setAttr(kLoopAnnotation, disable);
      ++numLimited;
    }
    return bodySizes.lookup(loop) + 1;
  }

  /// `loop`'s size as LLVM will see it, and whether it stays a loop
  /// (unknown trip count, loop-carried values, or annotated here because
  /// its complete unrolling would exceed the bound).
  std::pair<int64_t, bool> loopSize(scf::ForOp loop) {
    int64_t body = blockSize(*loop.getBody());
    bodySizes[loop] = body;
    std::optional<APInt> trips = loop.getStaticTripCount();
    // Unknown trip counts are not unrolled completely; loops carrying
    // values (reductions, the products' k loops) are left to LLVM.
    if (!trips || !loop.getInitArgs().empty())
      return {body + 1, true};
    int64_t unrolled = trips->getSExtValue() * body;
    if (unrolled <= kMaxUnrolledOps)
      return {unrolled, false};
    if (std::optional<int64_t> kept = keep(loop))
      return {*kept, true};
    // Longer loops LLVM unrolls completely only when their body is a
    // few instructions; counted as a loop.
    return {body + 1, true};
  }

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    auto unroll = LLVM::LoopUnrollAttr::get(ctx, BoolAttr::get(ctx, true), {},
                                            {}, {}, {}, {}, {});
    disable = LLVM::LoopAnnotationAttr::get(ctx, {}, {}, {}, unroll, {}, {}, {},
                                            {}, {}, {}, {}, {}, {}, {}, {});
    bodySizes.clear();
    for (Block &block : getOperation().getBody())
      (void)blockSize(block);
  }
};

} // namespace

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

  /// The operations of `block` once LLVM has unrolled what it may: each
  /// loop's unrolled size, or its body's where this pass keeps the loop.
  int64_t blockSize(Block &block) {
    int64_t size = 0;
    for (Operation &op : block) {
      auto loop = dyn_cast<scf::ForOp>(op);
      if (!loop) {
        size += 1;
        for (Region &region : op.getRegions())
          for (Block &b : region)
            size += blockSize(b);
        continue;
      }
      size += loopSize(loop);
    }
    return size;
  }

  /// `loop`'s size as LLVM will see it, annotating it where its complete
  /// unrolling would exceed the bound.
  int64_t loopSize(scf::ForOp loop) {
    int64_t body = blockSize(*loop.getBody());
    std::optional<APInt> trips = loop.getStaticTripCount();
    // Unknown trip counts are not unrolled completely; loops carrying
    // values (reductions, the products' k loops) are left to LLVM.
    if (!trips || !loop.getInitArgs().empty())
      return body + 1;
    int64_t unrolled = trips->getSExtValue() * body;
    if (unrolled <= kMaxUnrolledOps)
      return unrolled;
    if (trips->getSExtValue() > kMaxAnnotatedTrips)
      return body + 1;
    loop->setAttr(kLoopAnnotation, disable);
    ++numLimited;
    return body + 1;
  }

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    auto unroll = LLVM::LoopUnrollAttr::get(ctx, BoolAttr::get(ctx, true), {},
                                            {}, {}, {}, {}, {});
    disable = LLVM::LoopAnnotationAttr::get(ctx, {}, {}, {}, unroll, {}, {}, {},
                                            {}, {}, {}, {}, {}, {}, {}, {});
    for (Block &block : getOperation().getBody())
      (void)blockSize(block);
  }
};

} // namespace

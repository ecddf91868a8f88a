//===- HoistDeallocs.cpp - Free buffers after their last use -------------===//
//
// --relay-hoist-deallocs: moves each memref.dealloc of a buffer allocated in
// the same block to just after the buffer's last use (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::relay {
#define GEN_PASS_DEF_HOISTDEALLOCS
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

/// The last op of `block` that uses `buffer` or a view of it (an op whose
/// region uses it counts as the use), or the alloc when nothing does; null
/// when a view may escape: it is a terminator's operand (returned,
/// yielded, branched on), its address is taken, or an op other than a view
/// or cast derives a buffer from it.
Operation *lastUseInBlock(memref::AllocOp alloc, memref::DeallocOp dealloc) {
  Block *block = alloc->getBlock();
  Operation *last = alloc;
  SmallVector<Value> worklist{alloc.getResult()};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (user == dealloc.getOperation())
        continue;
      // The buffer's address as a number or pointer (boxing a tensor into
      // an ADT or closure) is used by later ops this walk does not follow.
      if (user->hasTrait<OpTrait::IsTerminator>() ||
          isa<memref::ExtractAlignedPointerAsIndexOp,
              memref::ExtractStridedMetadataOp>(user) ||
          llvm::any_of(user->getResultTypes(),
                       [](Type t) { return isa<LLVM::LLVMPointerType>(t); }))
        return nullptr;
      bool derivesBuffer = llvm::any_of(user->getResultTypes(), [](Type t) {
        return isa<BaseMemRefType>(t);
      });
      if (derivesBuffer) {
        if (!isa<ViewLikeOpInterface, CastOpInterface>(user))
          return nullptr;
        llvm::append_range(worklist, user->getResults());
      }
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor)
        return nullptr;
      if (last->isBeforeInBlock(ancestor))
        last = ancestor;
    }
  }
  return last;
}

struct HoistDeallocs : relay::impl::HoistDeallocsBase<HoistDeallocs> {
  void runOnOperation() override {
    SmallVector<memref::DeallocOp> deallocs;
    getOperation().walk([&](memref::DeallocOp op) { deallocs.push_back(op); });
    for (memref::DeallocOp dealloc : deallocs) {
      auto alloc = dealloc.getMemref().getDefiningOp<memref::AllocOp>();
      if (!alloc || alloc->getBlock() != dealloc->getBlock())
        continue;
      Operation *last = lastUseInBlock(alloc, dealloc);
      if (!last || !last->isBeforeInBlock(dealloc) ||
          last->getNextNode() == dealloc.getOperation())
        continue;
      dealloc->moveAfter(last);
      ++numHoisted;
    }
  }
};

} // namespace

//===- AsyncLaunches.cpp - Kernels launched without waiting for each ------===//
//
// --relay-gpu-async-launches: consecutive kernel launches of the host code
// join one chain of async operations, waited for only where the host next
// touches memory (see Passes.td). Not upstream's --gpu-async-region: it
// makes every gpu.alloc async, which `host_shared` (managed) allocations
// cannot be, and waits before any host op with side effects.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::relay {
#define GEN_PASS_DEF_GPUASYNCLAUNCHES
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

/// Whether the host may run `op` while kernels before it still run: it
/// touches no memory (index arithmetic, views of buffers) or only
/// allocates (a new buffer is not in a kernel's hands).
bool mayOverlapKernels(Operation *op) {
  if (op->getNumRegions() != 0 || op->hasTrait<OpTrait::IsTerminator>())
    return false;
  if (auto alloc = dyn_cast<gpu::AllocOp>(op))
    return !alloc.getAsyncToken();
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return isMemoryEffectFree(op);
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::all_of(instances, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Allocate>(e.getEffect());
  });
}

/// `%t = gpu.wait async; %d = gpu.dealloc async [%t] %buffer;
/// gpu.wait [%d]` (a free on a stream of its own, waited for at once, as
/// --relay-gpu-managed-memory writes it): the dealloc, or null.
gpu::DeallocOp waitedDealloc(gpu::WaitOp start) {
  if (!start.getAsyncToken() || !start.getAsyncDependencies().empty() ||
      !start.getAsyncToken().hasOneUse())
    return nullptr;
  auto dealloc = dyn_cast_or_null<gpu::DeallocOp>(start->getNextNode());
  if (!dealloc || dealloc.getAsyncDependencies().size() != 1 ||
      dealloc.getAsyncDependencies()[0] != start.getAsyncToken() ||
      !dealloc.getAsyncToken() || !dealloc.getAsyncToken().hasOneUse())
    return nullptr;
  auto end = dyn_cast_or_null<gpu::WaitOp>(dealloc->getNextNode());
  if (!end || end.getAsyncToken() || end.getAsyncDependencies().size() != 1 ||
      end.getAsyncDependencies()[0] != dealloc.getAsyncToken())
    return nullptr;
  return dealloc;
}

struct GpuAsyncLaunchesPass
    : public relay::impl::GpuAsyncLaunchesBase<GpuAsyncLaunchesPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<Block *> blocks;
    getOperation().walk([&](Block *block) {
      if (!block->getParentOp()->getParentOfType<gpu::GPUModuleOp>() &&
          !isa<gpu::GPUModuleOp>(block->getParentOp()))
        blocks.push_back(block);
    });
    for (Block *block : blocks)
      chainLaunches(rewriter, *block);
  }

  /// Launches in `block` that follow each other with only operations that
  /// may overlap them in between join one chain (the first starts it), and
  /// so do frees of buffers between them; the chain is waited for before
  /// the next operation that may not overlap (a copy, a host read, a call,
  /// control flow, the block's end).
  void chainLaunches(RewriterBase &rewriter, Block &block) {
    Type tokenType = rewriter.getType<gpu::AsyncTokenType>();
    Value chain;
    Operation *joined = nullptr;
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
        if (launch.getAsyncToken())
          continue;
        rewriter.setInsertionPoint(launch);
        if (!chain)
          chain = gpu::WaitOp::create(rewriter, launch.getLoc(), tokenType,
                                      ValueRange())
                      .getAsyncToken();
        auto async = gpu::LaunchFuncOp::create(
            rewriter, launch.getLoc(), launch.getKernelAttr(),
            launch.getGridSizeOperandValues(),
            launch.getBlockSizeOperandValues(),
            launch.getDynamicSharedMemorySize(), launch.getKernelOperands(),
            tokenType, ValueRange{chain},
            launch.hasClusterSize()
                ? std::optional(launch.getClusterSizeOperandValues())
                : std::nullopt);
        rewriter.eraseOp(launch);
        chain = async.getAsyncToken();
        continue;
      }
      if (auto start = dyn_cast<gpu::WaitOp>(op); start && chain) {
        if (gpu::DeallocOp dealloc = waitedDealloc(start)) {
          // The free joins the chain: the buffer goes back to the runtime
          // (for a later kernel of the same stream) without a wait.
          auto end = cast<gpu::WaitOp>(dealloc->getNextNode());
          rewriter.replaceAllUsesWith(start.getAsyncToken(), chain);
          rewriter.eraseOp(start);
          chain = dealloc.getAsyncToken();
          joined = dealloc;
          rewriter.eraseOp(end);
          continue;
        }
      }
      if (&op == joined)
        continue;
      if (!chain || mayOverlapKernels(&op))
        continue;
      rewriter.setInsertionPoint(&op);
      gpu::WaitOp::create(rewriter, op.getLoc(), Type(), ValueRange{chain});
      chain = nullptr;
    }
  }
};

} // namespace

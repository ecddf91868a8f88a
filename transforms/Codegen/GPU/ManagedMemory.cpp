//===- ManagedMemory.cpp - Buffers both the host and the GPU can read ----===//
//
// --relay-gpu-managed-memory: host allocations become CUDA managed memory;
// entry arguments and constants are copied in, entry results copied out
// (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::relay {
#define GEN_PASS_DEF_GPUMANAGEDMEMORY
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

bool isInKernel(Operation *op) {
  return op->getParentOfType<gpu::LaunchOp>() ||
         op->getParentOfType<gpu::GPUModuleOp>();
}

/// A managed buffer of `like`'s shape (its dynamic sizes read from it).
Value allocManaged(OpBuilder &b, Location loc, Value like) {
  auto type = cast<MemRefType>(like.getType());
  SmallVector<Value> sizes;
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    if (type.isDynamicDim(dim))
      sizes.push_back(memref::DimOp::create(b, loc, like, dim));
  return gpu::AllocOp::create(b, loc, type, /*asyncToken=*/Type(),
                              /*asyncDependencies=*/ValueRange(), sizes,
                              /*symbolOperands=*/ValueRange(),
                              /*hostShared=*/true)
      .getMemref();
}

/// The upstream lowering of gpu.memcpy and gpu.dealloc takes the async
/// form only: each runs on a stream of its own, waited for at once.
void runOnStream(OpBuilder &b, Location loc,
                 function_ref<Value(Value token)> buildAsync) {
  Type tokenType = b.getType<gpu::AsyncTokenType>();
  Value start =
      gpu::WaitOp::create(b, loc, tokenType, ValueRange()).getAsyncToken();
  Value done = buildAsync(start);
  gpu::WaitOp::create(b, loc, Type(), ValueRange{done});
}

void copyBuffer(OpBuilder &b, Location loc, Value target, Value source) {
  runOnStream(b, loc, [&](Value token) {
    return gpu::MemcpyOp::create(b, loc, b.getType<gpu::AsyncTokenType>(),
                                 ValueRange{token}, target, source)
        .getAsyncToken();
  });
}

void freeBuffer(OpBuilder &b, Location loc, Value buffer) {
  runOnStream(b, loc, [&](Value token) {
    return gpu::DeallocOp::create(b, loc, b.getType<gpu::AsyncTokenType>(),
                                  ValueRange{token}, buffer)
        .getAsyncToken();
  });
}

/// The first view of an alloca (or the alloca) a kernel uses, if any.
Operation *kernelUseOfStack(memref::AllocaOp alloca) {
  SmallVector<Value> worklist{alloca.getResult()};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (isInKernel(user))
        return user;
      if (isa<ViewLikeOpInterface>(user))
        llvm::append_range(worklist, user->getResults());
    }
  }
  return nullptr;
}

struct GpuManagedMemoryPass
    : public relay::impl::GpuManagedMemoryBase<GpuManagedMemoryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool failed = false;
    module.walk([&](memref::AllocaOp alloca) {
      if (Operation *use = kernelUseOfStack(alloca)) {
        InFlightDiagnostic diag = use->emitError(
            "a GPU kernel reads a buffer on the host's stack (memref.alloca)");
        diag.attachNote(alloca.getLoc()) << "allocated here";
        failed = true;
      }
    });
    if (failed)
      return signalPassFailure();
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal())
        convertFunction(func);
  }

  void convertFunction(func::FuncOp func) {
    IRRewriter rewriter(&getContext());
    SmallVector<memref::AllocOp> allocs;
    SmallVector<memref::DeallocOp> deallocs;
    SmallVector<memref::GetGlobalOp> globals;
    func.walk([&](Operation *op) {
      if (isInKernel(op))
        return;
      if (auto alloc = dyn_cast<memref::AllocOp>(op))
        allocs.push_back(alloc);
      else if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
        deallocs.push_back(dealloc);
      else if (auto global = dyn_cast<memref::GetGlobalOp>(op))
        globals.push_back(global);
    });
    for (memref::AllocOp alloc : allocs) {
      rewriter.setInsertionPoint(alloc);
      auto managed = gpu::AllocOp::create(
          rewriter, alloc.getLoc(), alloc.getType(), Type(), ValueRange(),
          alloc.getDynamicSizes(), alloc.getSymbolOperands(),
          /*hostShared=*/true);
      rewriter.replaceOp(alloc, managed.getMemref());
    }
    // Any buffer a function frees is managed, or a host buffer an entry
    // function returned (the runtime tells them apart).
    for (memref::DeallocOp dealloc : deallocs) {
      rewriter.setInsertionPoint(dealloc);
      freeBuffer(rewriter, dealloc.getLoc(), dealloc.getMemref());
      rewriter.eraseOp(dealloc);
    }

    // Buffers that live for the whole call: copies of the arguments (entry
    // functions) and of the constants.
    Block &entry = func.getBody().front();
    SmallVector<Value> scoped;
    rewriter.setInsertionPointToStart(&entry);
    llvm::StringMap<Value> constantCopies;
    for (memref::GetGlobalOp global : globals) {
      Value &copy = constantCopies[global.getName()];
      if (!copy) {
        rewriter.moveOpBefore(global, &entry, entry.begin());
        rewriter.setInsertionPointAfter(global);
        copy = allocManaged(rewriter, global.getLoc(), global);
        copyBuffer(rewriter, global.getLoc(), copy, global);
        global.getResult().replaceUsesWithIf(copy, [&](OpOperand &use) {
          return !isa<gpu::MemcpyOp>(use.getOwner());
        });
        scoped.push_back(copy);
        continue;
      }
      rewriter.replaceOp(global, copy);
    }
    bool isEntry = !func.isPrivate();
    if (isEntry) {
      rewriter.setInsertionPointToStart(&entry);
      for (BlockArgument arg : entry.getArguments()) {
        if (!isa<MemRefType>(arg.getType()) || arg.use_empty())
          continue;
        Value copy = allocManaged(rewriter, func.getLoc(), arg);
        copyBuffer(rewriter, func.getLoc(), copy, arg);
        // The copy reads the argument, and so may the dynamic sizes of the
        // allocation.
        arg.replaceUsesWithIf(copy, [&](OpOperand &use) {
          return !isa<gpu::MemcpyOp, memref::DimOp>(use.getOwner());
        });
        scoped.push_back(copy);
      }
    }

    func.walk([&](func::ReturnOp ret) {
      rewriter.setInsertionPoint(ret);
      if (isEntry) {
        // The caller frees results with the host's allocator.
        llvm::SmallDenseMap<Value, Value> hostCopies;
        for (OpOperand &operand : ret->getOpOperands()) {
          Value value = operand.get();
          if (!isa<MemRefType>(value.getType()))
            continue;
          Value &host = hostCopies[value];
          if (!host) {
            auto type = cast<MemRefType>(value.getType());
            SmallVector<Value> sizes;
            for (int64_t dim = 0; dim < type.getRank(); ++dim)
              if (type.isDynamicDim(dim))
                sizes.push_back(
                    memref::DimOp::create(rewriter, ret.getLoc(), value, dim));
            host = memref::AllocOp::create(rewriter, ret.getLoc(), type, sizes);
            copyBuffer(rewriter, ret.getLoc(), host, value);
            if (!llvm::is_contained(scoped, value))
              freeBuffer(rewriter, ret.getLoc(), value);
          }
          operand.set(host);
        }
      }
      for (Value buffer : scoped)
        freeBuffer(rewriter, ret.getLoc(), buffer);
    });
  }
};
} // namespace

//===- ManagedMemory.cpp - Buffers both the host and the GPU can read ----===//
//
// --relay-gpu-managed-memory: host allocations become CUDA managed memory;
// entry arguments are copied in and entry results out (public functions the
// module also calls split into that entry and a private body), constants
// uploaded once per loaded module (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "transforms/Codegen/GPU/InKernel.h"
#include "transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::relay {
#define GEN_PASS_DEF_GPUMANAGEDMEMORY
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using mlir::relay::isInKernel;

namespace {

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

/// The runtime function that uploads a constant once:
/// `void *relay_cuda_constant(void **slot, const void *host, int64_t bytes)`.
constexpr StringLiteral kUploadConstant = "relay_cuda_constant";
/// ... and frees it: `void relay_cuda_constant_release(void **slot)`.
constexpr StringLiteral kReleaseConstant = "relay_cuda_constant_release";
/// The module's destructor that releases its constants.
constexpr StringLiteral kReleaseConstants = "__relay_cuda_release_constants";

/// `name`'s declaration in `symbols`' module, added at its end if missing.
LLVM::LLVMFuncOp declare(SymbolTable &symbols, StringRef name,
                         LLVM::LLVMFunctionType type) {
  if (auto existing = symbols.lookup<LLVM::LLVMFuncOp>(name))
    return existing;
  auto module = cast<ModuleOp>(symbols.getOp());
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto declaration = LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
  symbols.insert(declaration);
  return declaration;
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
    // (One table and one walk for the symbols: looking each up or
    // collecting each one's uses walks the module, quadratic in the
    // functions and constants of a large program.)
    SymbolTable table(module);
    symbols = &table;
    llvm::DenseSet<StringAttr> used;
    if (auto uses = SymbolTable::getSymbolUses(&module.getBodyRegion()))
      for (const SymbolTable::SymbolUse &use : *uses)
        used.insert(use.getSymbolRef().getRootReference());
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (!func.isExternal() && !func.isPrivate() &&
          used.contains(func.getNameAttr()))
        splitCalledEntry(func);
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (!func.isExternal())
        convertFunction(func);
    releaseConstantsAtExit();
  }

  /// A public function the module also calls (a Relay global function
  /// called by another, recursion, a closure's code): its body moves into a
  /// private function that takes and returns managed buffers, which the
  /// module's calls and references now name, and `func` becomes the entry
  /// that copies its arguments in and its results out around a call of it.
  /// (Copying at every internal call would hand kernels the host buffers
  /// entry results are copied into.)
  void splitCalledEntry(func::FuncOp func) {
    ModuleOp module = getOperation();
    func::FuncOp body = func.clone();
    // (PTX names take letters, digits, `_` and `$`: no dot.)
    body.setName((func.getName() + "_device").str());
    body.setPrivate();
    body->removeAttr("llvm.emit_c_interface");
    // (Renamed again if the name is taken.)
    symbols->insert(body, std::next(func->getIterator()));
    if (failed(SymbolTable::replaceAllSymbolUses(func, body.getNameAttr(),
                                                 module)))
      return signalPassFailure();
    func.getBody().getBlocks().clear();
    Block *entry = func.addEntryBlock();
    OpBuilder b = OpBuilder::atBlockBegin(entry);
    auto call =
        func::CallOp::create(b, func.getLoc(), body, entry->getArguments());
    func::ReturnOp::create(b, func.getLoc(), call.getResults());
  }

  /// The device copy of the constant `global` reads: a module-level slot
  /// (an LLVM global, null until the first call) holds the pointer the
  /// runtime's relay_cuda_constant returns, which uploads the constant into
  /// managed memory on the first call only; the module's destructor frees
  /// it. The memref is the pointer's descriptor (an LLVM struct cast to the
  /// memref type, which the lowering to LLVM cancels).
  Value residentConstant(OpBuilder &b, memref::GetGlobalOp global) {
    MLIRContext *ctx = &getContext();
    ModuleOp module = getOperation();
    Location loc = global.getLoc();
    auto type = cast<MemRefType>(global.getType());
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto i64 = IntegerType::get(ctx, 64);
    declare(*symbols, kUploadConstant,
            LLVM::LLVMFunctionType::get(ptr, {ptr, ptr, i64}));

    // The slot, one per constant.
    std::string slotName = (global.getName() + "__cuda").str();
    if (!symbols->lookup(slotName)) {
      OpBuilder top = OpBuilder::atBlockBegin(module.getBody());
      auto slot = LLVM::GlobalOp::create(top, loc, ptr, /*isConstant=*/false,
                                         LLVM::Linkage::Internal, slotName,
                                         Attribute());
      symbols->insert(slot, module.getBody()->begin());
      Block *init = top.createBlock(&slot.getInitializerRegion());
      top.setInsertionPointToStart(init);
      Value null = LLVM::ZeroOp::create(top, loc, ptr);
      LLVM::ReturnOp::create(top, loc, null);
      slots.push_back(slotName);
    }

    int64_t elementBytes = (type.getElementTypeBitWidth() + 7) / 8;
    Value pointer =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, global);
    Value address = arith::IndexCastOp::create(b, loc, i64, pointer);
    Value host = LLVM::IntToPtrOp::create(b, loc, ptr, address);
    Value slot = LLVM::AddressOfOp::create(b, loc, ptr, slotName);
    Value bytes = LLVM::ConstantOp::create(
        b, loc, i64, b.getI64IntegerAttr(type.getNumElements() * elementBytes));
    Value device = LLVM::CallOp::create(b, loc, TypeRange{ptr}, kUploadConstant,
                                        ValueRange{slot, host, bytes})
                       .getResult();

    // The descriptor: (allocated, aligned, offset, sizes..., strides...).
    SmallVector<Type> fields{ptr, ptr, i64};
    if (type.getRank() > 0) {
      fields.push_back(LLVM::LLVMArrayType::get(i64, type.getRank()));
      fields.push_back(LLVM::LLVMArrayType::get(i64, type.getRank()));
    }
    auto structType = LLVM::LLVMStructType::getLiteral(ctx, fields);
    Value descriptor = LLVM::UndefOp::create(b, loc, structType);
    auto set = [&](int64_t value, ArrayRef<int64_t> position) {
      Value field =
          LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(value));
      descriptor =
          LLVM::InsertValueOp::create(b, loc, descriptor, field, position);
    };
    descriptor = LLVM::InsertValueOp::create(b, loc, descriptor, device,
                                             ArrayRef<int64_t>{0});
    descriptor = LLVM::InsertValueOp::create(b, loc, descriptor, device,
                                             ArrayRef<int64_t>{1});
    set(0, {2});
    SmallVector<int64_t> strides = type.getStridesAndOffset().first;
    for (int64_t dim = 0; dim < type.getRank(); ++dim) {
      set(type.getDimSize(dim), {3, dim});
      set(strides[dim], {4, dim});
    }
    return UnrealizedConversionCastOp::create(b, loc, type, descriptor)
        .getResult(0);
  }

  /// The module destructor that gives the constants' device memory back.
  void releaseConstantsAtExit() {
    if (slots.empty())
      return;
    MLIRContext *ctx = &getContext();
    ModuleOp module = getOperation();
    Location loc = module.getLoc();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto voidType = LLVM::LLVMVoidType::get(ctx);
    declare(*symbols, kReleaseConstant,
            LLVM::LLVMFunctionType::get(voidType, {ptr}));
    LLVM::LLVMFuncOp release = declare(
        *symbols, kReleaseConstants, LLVM::LLVMFunctionType::get(voidType, {}));
    release.setLinkage(LLVM::Linkage::Internal);
    OpBuilder b(ctx);
    b.setInsertionPointToStart(release.addEntryBlock(b));
    for (StringRef slot : slots) {
      Value address = LLVM::AddressOfOp::create(b, loc, ptr, slot);
      LLVM::CallOp::create(b, loc, TypeRange(), kReleaseConstant,
                           ValueRange{address});
    }
    LLVM::ReturnOp::create(b, loc, ValueRange());
    b.setInsertionPointToEnd(module.getBody());
    LLVM::GlobalDtorsOp::create(
        b, loc,
        b.getArrayAttr({FlatSymbolRefAttr::get(ctx, kReleaseConstants)}),
        b.getI32ArrayAttr({0}), b.getArrayAttr({LLVM::ZeroAttr::get(ctx)}));
  }

  /// The slots of the constants made resident.
  SmallVector<std::string> slots;
  /// The module's symbol table, kept up to date.
  SymbolTable *symbols = nullptr;

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
        auto definition = symbols->lookup<memref::GlobalOp>(global.getName());
        if (definition && definition.getConstant()) {
          // Uploaded once per loaded module, kept on the device.
          copy = residentConstant(rewriter, global);
        } else {
          // A mutable global: copied for the call.
          copy = allocManaged(rewriter, global.getLoc(), global);
          copyBuffer(rewriter, global.getLoc(), copy, global);
          scoped.push_back(copy);
        }
        // (The upload reads the host constant's address, the copy the
        // constant; a host op that takes its address still may.)
        global.getResult().replaceUsesWithIf(copy, [&](OpOperand &use) {
          return !isa<memref::ExtractAlignedPointerAsIndexOp, gpu::MemcpyOp>(
              use.getOwner());
        });
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

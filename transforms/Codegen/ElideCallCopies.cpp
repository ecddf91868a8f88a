//===- ElideCallCopies.cpp - No copies for arguments only read ------------===//
//
// --relay-elide-call-copies: buffers passed to functions that only read them
// are passed themselves rather than copied first (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::relay {
#define GEN_PASS_DEF_ELIDECALLCOPIES
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

/// The runtime function that copies the bytes a pointer points to (boxing
/// a tensor into an ADT field or a closure environment).
constexpr llvm::StringLiteral kBoxFunction = "relay_rt_box";

/// Which buffer arguments of each function are only read.
using ReadOnlyArgs = llvm::DenseMap<Operation *, llvm::SmallVector<bool>>;

struct ElideCallCopies : relay::impl::ElideCallCopiesBase<ElideCallCopies> {
  SymbolTable *symbols = nullptr;
  ReadOnlyArgs readOnly;

  /// The function a call calls, if it has a body.
  func::FuncOp calleeOf(func::CallOp call) {
    auto callee = symbols->lookup<func::FuncOp>(call.getCallee());
    return callee && !callee.isExternal() ? callee : nullptr;
  }

  /// Whether an address taken from a buffer only reaches relay_rt_box's
  /// source operand (through casts).
  bool onlyBoxed(Value address) {
    for (OpOperand &use : address.getUses()) {
      Operation *user = use.getOwner();
      if (isa<arith::IndexCastOp, arith::IndexCastUIOp, LLVM::IntToPtrOp>(
              user)) {
        if (!onlyBoxed(user->getResult(0)))
          return false;
        continue;
      }
      auto call = dyn_cast<func::CallOp>(user);
      if (!call || call.getCallee() != kBoxFunction ||
          use.getOperandNumber() != 0)
        return false;
    }
    return true;
  }

  /// Whether `buffer` (and every view of it) is only read.
  bool onlyRead(Value buffer) {
    for (OpOperand &use : buffer.getUses()) {
      Operation *user = use.getOwner();
      if (isa<memref::LoadOp, memref::DimOp, vector::TransferReadOp,
              vector::LoadOp>(user))
        continue;
      if (auto copy = dyn_cast<memref::CopyOp>(user)) {
        if (copy.getTarget() == buffer)
          return false;
        continue;
      }
      if (auto meta = dyn_cast<memref::ExtractStridedMetadataOp>(user)) {
        if (!onlyRead(meta.getBaseBuffer()))
          return false;
        continue;
      }
      if (isa<memref::ExtractAlignedPointerAsIndexOp>(user)) {
        if (!onlyBoxed(user->getResult(0)))
          return false;
        continue;
      }
      if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
        if (view.getViewSource() != buffer ||
            !llvm::all_of(user->getResults(),
                          [&](Value v) { return onlyRead(v); }))
          return false;
        continue;
      }
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(user)) {
        if (!linalgOp.isDpsInput(&use))
          return false;
        continue;
      }
      if (auto call = dyn_cast<func::CallOp>(user)) {
        func::FuncOp callee = calleeOf(call);
        if (!callee || !readOnly[callee][use.getOperandNumber()])
          return false;
        continue;
      }
      // Returned, yielded, stored, written, freed or unknown.
      return false;
    }
    return true;
  }

  /// Replaces `call`'s operand `index` with the source of the copy that
  /// filled it, if that operand is a fresh buffer made only for the call.
  bool elide(func::CallOp call, unsigned index) {
    Value operand = call.getOperand(index);
    auto alloc = operand.getDefiningOp<memref::AllocOp>();
    if (!alloc || alloc->getBlock() != call->getBlock() || !operand.hasNUses(2))
      return false;
    memref::CopyOp copy;
    for (Operation *user : operand.getUsers())
      if (auto c = dyn_cast<memref::CopyOp>(user))
        copy = c;
    if (!copy || copy.getTarget() != operand ||
        copy->getBlock() != call->getBlock() || !copy->isBeforeInBlock(call) ||
        copy.getSource().getType() != operand.getType())
      return false;
    // The callee may write its other buffer arguments: each must be a
    // fresh buffer of its own, or it might be (a view of) the source,
    // whose old value the copy kept.
    func::FuncOp callee = calleeOf(call);
    for (auto [k, other] : llvm::enumerate(call.getOperands()))
      if (k != index && isa<BaseMemRefType>(other.getType()) &&
          !readOnly[callee][k] && !other.getDefiningOp<memref::AllocOp>())
        return false;
    // Nothing between the copy and the call may write the source.
    for (Operation *op = copy->getNextNode(); op != call;
         op = op->getNextNode()) {
      if (isa<memref::AllocOp>(op) || isMemoryEffectFree(op))
        continue;
      auto other = dyn_cast<memref::CopyOp>(op);
      if (!other || !other.getTarget().getDefiningOp<memref::AllocOp>())
        return false;
    }
    call->setOperand(index, copy.getSource());
    copy->erase();
    alloc->erase();
    return true;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable table(module);
    symbols = &table;
    SmallVector<func::FuncOp> funcs;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      funcs.push_back(func);
      readOnly[func] = SmallVector<bool>(func.getNumArguments(), true);
    }
    // Only read until shown otherwise; what a callee writes, its callers'
    // arguments passed to it may be written.
    for (bool changed = true; changed;) {
      changed = false;
      for (func::FuncOp func : funcs)
        for (BlockArgument arg : func.getArguments()) {
          SmallVector<bool> &flags = readOnly[func];
          if (!flags[arg.getArgNumber()])
            continue;
          if (isa<BaseMemRefType>(arg.getType()) && onlyRead(arg))
            continue;
          flags[arg.getArgNumber()] = false;
          changed = true;
        }
    }
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) { calls.push_back(call); });
    for (func::CallOp call : calls) {
      func::FuncOp callee = calleeOf(call);
      if (!callee)
        continue;
      for (unsigned i = 0, e = call.getNumOperands(); i < e; ++i)
        if (readOnly[callee][i] && elide(call, i))
          ++numElided;
    }
  }
};

} // namespace

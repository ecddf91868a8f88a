//===- SplitForThreads.cpp - Split a module for parallel codegen ----------===//

#include "runtime/Executor/SplitForThreads.h"

#include "transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

#include <algorithm>
#include <cmath>

using namespace mlir;

namespace {

/// Whether `op` (an llvm.func or llvm.mlir.global definition) may be copied
/// into another module: a private function, or a constant.
bool isCopyable(Operation *op) {
  if (auto global = dyn_cast<LLVM::GlobalOp>(op))
    return global.getConstant();
  auto func = cast<LLVM::LLVMFuncOp>(op);
  return !relay::hasCodegenMark(func, relay::CodegenMark::LoopNest) &&
         (SymbolTable::getSymbolVisibility(func) ==
              SymbolTable::Visibility::Private ||
          func.getLinkage() == LLVM::Linkage::Private ||
          func.getLinkage() == LLVM::Linkage::Internal);
}

bool isDeclaration(Operation *op);

/// What `root` uses, transitively: the functions and globals it refers to,
/// declarations or copyable definitions; failure when it refers to anything
/// else (the program's own functions, another loop nest, mutable state).
FailureOr<SmallVector<Operation *>> dependencies(Operation *root,
                                                 SymbolTable &symbols) {
  llvm::SetVector<Operation *> found;
  SmallVector<Operation *> worklist{root};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(op);
    if (!uses)
      return failure();
    for (const SymbolTable::SymbolUse &use : *uses) {
      Operation *target = symbols.lookup(use.getSymbolRef().getRootReference());
      if (!target || !isa<LLVM::LLVMFuncOp, LLVM::GlobalOp>(target))
        return failure();
      if (target == root || found.contains(target))
        continue;
      bool declaration = isDeclaration(target);
      if (!declaration && !isCopyable(target))
        return failure();
      found.insert(target);
      if (!declaration)
        worklist.push_back(target);
    }
  }
  return SmallVector<Operation *>(found.begin(), found.end());
}

/// Whether `op` (an llvm.func or llvm.mlir.global) declares what another
/// module defines.
bool isDeclaration(Operation *op) {
  if (auto func = dyn_cast<LLVM::LLVMFuncOp>(op))
    return func.isExternal();
  auto global = cast<LLVM::GlobalOp>(op);
  return !global.getValueOrNull() && global.getInitializerRegion().empty();
}

int64_t countOps(Operation *op) {
  int64_t count = 0;
  op->walk([&](Operation *) { ++count; });
  return count;
}

/// Makes the program call moved nest `decl` (now a declaration) through a
/// pointer in a global of its own (nestSlotName), which the caller fills
/// with the nest's address once its part is compiled; erases `decl`. False
/// (and nothing changed) where the nest is used otherwise than called or
/// its address taken. `users` are the ops that refer to `decl` (from one
/// SymbolUserMap for all nests: a walk of the module per nest was quadratic,
/// 16 s of DenseNet-121's compilation).
bool callThroughSlot(ModuleOp module, LLVM::LLVMFuncOp decl,
                     ArrayRef<Operation *> users) {
  for (Operation *user : users) {
    auto call = dyn_cast<LLVM::CallOp>(user);
    auto address = dyn_cast<LLVM::AddressOfOp>(user);
    if (!(call && call.getCallee() == decl.getName() &&
          call.getNumResults() <= 1) &&
        !(address && address.getGlobalName() == decl.getName()))
      return false;
  }
  MLIRContext *context = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(context);
  Location loc = decl.getLoc();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto slot = LLVM::GlobalOp::create(
      b, loc, ptr, /*isConstant=*/false, LLVM::Linkage::External,
      relay::nestSlotName(decl.getName()), Attribute());
  b.setInsertionPointToStart(b.createBlock(&slot.getInitializerRegion()));
  LLVM::ReturnOp::create(b, loc, LLVM::ZeroOp::create(b, loc, ptr));
  for (Operation *user : users) {
    b.setInsertionPoint(user);
    Value address = LLVM::LoadOp::create(
        b, user->getLoc(), ptr, LLVM::AddressOfOp::create(b, loc, slot));
    if (isa<LLVM::AddressOfOp>(user)) {
      user->getResult(0).replaceAllUsesWith(address);
      user->erase();
      continue;
    }
    auto call = cast<LLVM::CallOp>(user);
    SmallVector<Value> operands{address};
    llvm::append_range(operands, call.getArgOperands());
    auto indirect = LLVM::CallOp::create(b, call.getLoc(),
                                         decl.getFunctionType(), operands);
    call->replaceAllUsesWith(indirect->getResults());
    call.erase();
  }
  decl.erase();
  return true;
}

} // namespace

std::string mlir::relay::nestSlotName(StringRef nest) {
  return (nest + "__relay_slot").str();
}

relay::LoopNestParts
mlir::relay::splitLoopNests(ModuleOp module, unsigned parts, int64_t minOps) {
  relay::LoopNestParts result;
  if (parts < 1)
    return result;
  SymbolTable symbols(module);
  struct Nest {
    LLVM::LLVMFuncOp func;
    SmallVector<Operation *> uses;
    /// The estimated cost of compiling it: LLVM's time grows faster than
    /// the size of a function (scheduling and register allocation on
    /// large unrolled blocks), so size^1.5; by ops alone ResNet-18's stem
    /// made one part take twice as long as the other.
    double cost;
  };
  SmallVector<Nest> nests;
  int64_t total = 0;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    if (func.isExternal() ||
        !relay::hasCodegenMark(func, relay::CodegenMark::LoopNest))
      continue;
    FailureOr<SmallVector<Operation *>> uses = dependencies(func, symbols);
    if (failed(uses))
      continue;
    int64_t size = countOps(func);
    nests.push_back({func, std::move(*uses), size * std::sqrt(double(size))});
    total += size;
  }
  if (total < minOps || nests.empty())
    return result;

  // Largest first, each to the least loaded part.
  llvm::stable_sort(
      nests, [](const Nest &a, const Nest &b) { return a.cost > b.cost; });
  parts = std::min<unsigned>(parts, nests.size());
  SmallVector<double> load(parts, 0);
  SmallVector<SmallVector<Nest *>> assigned(parts);
  for (Nest &nest : nests) {
    unsigned part = std::min_element(load.begin(), load.end()) - load.begin();
    load[part] += nest.cost;
    assigned[part].push_back(&nest);
  }

  SmallVector<LLVM::LLVMFuncOp> moved;
  for (ArrayRef<Nest *> group : assigned) {
    OwningOpRef<ModuleOp> part = ModuleOp::create(module.getLoc());
    (*part)->setAttrs(module->getAttrDictionary());
    OpBuilder builder = OpBuilder::atBlockEnd(part->getBody());
    llvm::SetVector<Operation *> uses;
    for (Nest *nest : group)
      uses.insert(nest->uses.begin(), nest->uses.end());
    // Copies are the part's own: internal, so LLVM may inline and drop them.
    for (Operation *use : uses) {
      Operation *copy = builder.clone(*use);
      if (isDeclaration(copy))
        continue;
      if (auto func = dyn_cast<LLVM::LLVMFuncOp>(copy))
        func.setLinkage(LLVM::Linkage::Internal);
      else
        cast<LLVM::GlobalOp>(copy).setLinkage(LLVM::Linkage::Internal);
    }
    for (Nest *nest : group) {
      auto copy = cast<LLVM::LLVMFuncOp>(builder.clone(*nest->func));
      SymbolTable::setSymbolVisibility(copy, SymbolTable::Visibility::Public);
      copy.setLinkage(LLVM::Linkage::External);
      // The program keeps a declaration.
      LLVM::LLVMFuncOp func = nest->func;
      func.getBody().dropAllReferences();
      func.getBody().getBlocks().clear();
      SymbolTable::setSymbolVisibility(func, SymbolTable::Visibility::Public);
      func.setLinkage(LLVM::Linkage::External);
      moved.push_back(func);
    }
    result.modules.push_back(std::move(part));
  }
  SymbolTableCollection tables;
  SymbolUserMap userMap(tables, module);
  for (LLVM::LLVMFuncOp func : moved)
    result.throughSlots &=
        callThroughSlot(module, func, userMap.getUsers(func));
  return result;
}

//===- ReachableFunctions.cpp - Functions the entries reach -----*- C++ -*-===//

#include "dialects/relay/ReachableFunctions.h"

#include "dialects/relay/RelayOps.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::relay;

int64_t mlir::relay::eraseUnreachableFunctions(ModuleOp module,
                                               ArrayRef<std::string> entries) {
  SymbolTable symbols(module);
  SmallVector<Operation *> worklist;
  SmallVector<std::string> names(entries.begin(), entries.end());
  if (names.empty())
    names.push_back("main");
  for (const std::string &name : names)
    if (Operation *entry = symbols.lookup(name))
      worklist.push_back(entry);
  // No entry function here: every public function is one.
  if (worklist.empty())
    for (Operation &op : module.getBody()->getOperations())
      if (auto symbol = dyn_cast<SymbolOpInterface>(op);
          symbol && symbol.isPublic())
        worklist.push_back(&op);
  DenseSet<Operation *> reached(worklist.begin(), worklist.end());
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(op);
    if (!uses)
      continue;
    for (const SymbolTable::SymbolUse &use : *uses) {
      Operation *target = symbols.lookup(use.getSymbolRef().getRootReference());
      if (target && reached.insert(target).second)
        worklist.push_back(target);
    }
  }
  int64_t erased = 0;
  for (FuncOp func : llvm::make_early_inc_range(module.getOps<FuncOp>()))
    if (!reached.contains(func)) {
      func->erase();
      ++erased;
    }
  return erased;
}

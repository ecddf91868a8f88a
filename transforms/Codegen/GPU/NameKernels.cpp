//===- NameKernels.cpp - Outlined kernels named after their modules -------===//
//
// --relay-gpu-name-kernels: each outlined kernel takes its gpu.module's
// name, unique in the program, so that profiles tell kernels apart (see
// Passes.td).
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::relay {
#define GEN_PASS_DEF_GPUNAMEKERNELS
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

struct GpuNameKernels : public relay::impl::GpuNameKernelsBase<GpuNameKernels> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Every renaming first, then one walk that updates the references
    // (renaming each kernel's uses alone walks the module once per kernel).
    DenseMap<Attribute, Attribute> renamed;
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
      auto kernels = llvm::filter_to_vector(
          gpuModule.getOps<gpu::GPUFuncOp>(),
          [](gpu::GPUFuncOp func) { return func.isKernel(); });
      StringAttr name = gpuModule.getSymNameAttr();
      if (kernels.size() != 1 || kernels.front().getName() == name ||
          SymbolTable::lookupSymbolIn(gpuModule, name))
        continue;
      // Kernels are launched from outside their module, never named
      // within it.
      if (!SymbolTable::symbolKnownUseEmpty(kernels.front(), gpuModule)) {
        kernels.front().emitError("cannot rename a kernel its module uses");
        return signalPassFailure();
      }
      auto leaf = [&](StringAttr kernel) {
        return SymbolRefAttr::get(name, {FlatSymbolRefAttr::get(kernel)});
      };
      renamed[leaf(kernels.front().getNameAttr())] = leaf(name);
      SymbolTable::setSymbolName(kernels.front(), name);
    }
    if (renamed.empty())
      return;
    AttrTypeReplacer replacer;
    replacer.addReplacement([&](SymbolRefAttr ref) -> std::optional<Attribute> {
      auto it = renamed.find(ref);
      if (it == renamed.end())
        return std::nullopt;
      return it->second;
    });
    module.walk([&](Operation *op) {
      if (!isa<gpu::GPUModuleOp>(op))
        replacer.replaceElementsIn(op);
      return isa<gpu::GPUModuleOp>(op) ? WalkResult::skip()
                                       : WalkResult::advance();
    });
  }
};

} // namespace

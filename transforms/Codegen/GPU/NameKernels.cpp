//===- NameKernels.cpp - Outlined kernels named after their modules -------===//
//
// --relay-gpu-name-kernels: each outlined kernel takes its gpu.module's
// name, unique in the program, so that profiles tell kernels apart (see
// Passes.td).
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
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
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
      auto kernels = llvm::filter_to_vector(
          gpuModule.getOps<gpu::GPUFuncOp>(),
          [](gpu::GPUFuncOp func) { return func.isKernel(); });
      StringAttr name = gpuModule.getSymNameAttr();
      if (kernels.size() != 1 || kernels.front().getName() == name ||
          SymbolTable::lookupSymbolIn(gpuModule, name))
        continue;
      if (failed(SymbolTable::replaceAllSymbolUses(kernels.front(), name,
                                                   module))) {
        kernels.front().emitError("cannot rename the launches of this kernel");
        return signalPassFailure();
      }
      SymbolTable::setSymbolName(kernels.front(), name);
    }
  }
};

} // namespace

//===- CheckToolkit.cpp - The kernels' libdevice is there -------*- C++ -*-===//
//
// --relay-gpu-check-toolkit: a kernel calling libdevice needs the toolkit's
// nvvm/libdevice/libdevice.10.bc (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVM/NVVM/Utils.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace mlir::relay {
#define GEN_PASS_DEF_GPUCHECKTOOLKIT
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {
struct GpuCheckToolkitPass
    : public relay::impl::GpuCheckToolkitBase<GpuCheckToolkitPass> {
  using GpuCheckToolkitBase::GpuCheckToolkitBase;

  void runOnOperation() override {
    std::string root =
        toolkit.empty() ? NVVM::getCUDAToolkitPath().str() : toolkit;
    SmallString<256> libdevice(root);
    llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::is_regular_file(libdevice))
      return;
    getOperation().walk([&](gpu::GPUModuleOp kernels) {
      for (auto callee : kernels.getOps<LLVM::LLVMFuncOp>()) {
        if (!callee.isExternal() || !callee.getName().starts_with("__nv_"))
          continue;
        kernels.emitError("a kernel calls libdevice's ")
            << callee.getName() << " but there is no " << libdevice
            << " (the CUDA toolkit: --relay-to-nvvm's toolkit=, else "
               "$CUDA_HOME)";
        signalPassFailure();
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
  }
};
} // namespace

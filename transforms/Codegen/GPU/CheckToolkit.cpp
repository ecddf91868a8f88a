//===- CheckToolkit.cpp - The kernels' libdevice is there -------*- C++ -*-===//
//
// --relay-gpu-check-toolkit: a kernel calling libdevice needs the toolkit's
// nvvm/libdevice/libdevice.10.bc, a cubin its ptxas, and the format must be
// one gpu-module-to-binary makes (see Passes.td).
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
    if (format != "isa" && format != "bin" && format != "fatbin") {
      getOperation().emitError("--relay-to-nvvm: unknown format '")
          << format << "' (expected isa, bin or fatbin)";
      return signalPassFailure();
    }
    bool hasKernels = !getOperation().getOps<gpu::GPUModuleOp>().empty();
    SmallString<256> ptxas(root);
    llvm::sys::path::append(ptxas, "bin", "ptxas");
    if (format != "isa" && hasKernels && !llvm::sys::fs::can_execute(ptxas)) {
      getOperation().emitError("--relay-to-nvvm: format=")
          << format << " needs the CUDA toolkit's ptxas, but there is no "
          << ptxas << " (toolkit=, else $CUDA_HOME; format=isa needs none)";
      return signalPassFailure();
    }
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

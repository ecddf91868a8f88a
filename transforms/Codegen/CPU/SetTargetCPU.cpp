//===- SetTargetCPU.cpp - Record the CPU code is compiled for ---*- C++ -*-===//
//
// --relay-set-target-cpu: the module's DLTI target system spec says which
// x86 CPU its code is for (CPUDescription.h).
//
//===----------------------------------------------------------------------===//

#include "transforms/Codegen/CPU/CPUDescription.h"
#include "transforms/Passes.h"

#include "mlir/Dialect/DLTI/DLTI.h" // the pass's dependent dialect

namespace mlir::relay {
#define GEN_PASS_DEF_SETTARGETCPU
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {
struct SetTargetCPUPass
    : public relay::impl::SetTargetCPUBase<SetTargetCPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string error;
    FailureOr<cpu::CPUDescription> described = cpu::lookupCPU(cpu, error);
    if (failed(described)) {
      module.emitError("--relay-set-target-cpu: ") << error;
      return signalPassFailure();
    }
    // A spec the module brings (a CPU described by hand) is kept, if the
    // CPU it names is one LLVM knows.
    FailureOr<bool> byModule = cpu::moduleDescribesCPU(module, error);
    if (failed(byModule)) {
      module.emitError("the module's target spec: ") << error;
      return signalPassFailure();
    }
    if (!*byModule)
      cpu::setModuleCPU(module, *described);
    if (threads < 0) {
      module.emitError("--relay-set-target-cpu: threads must be at least 0, "
                       "got ")
          << static_cast<int64_t>(threads);
      return signalPassFailure();
    }
    if (threads > 0)
      cpu::setModuleThreads(module, threads);
  }
};
} // namespace

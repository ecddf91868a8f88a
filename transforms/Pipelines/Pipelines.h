//===- Pipelines.h - Relay lowering pipelines, one per target ---*- C++ -*-===//
//
// The pass pipelines that take a Relay module to the LLVM dialect, one
// builder per target: --relay-to-llvm for x86 CPUs. Each builds its passes
// directly (no pass registry needed); registerRelayPipelines registers the
// pipelines and the upstream passes they run, so that a tool can run them,
// or their steps one at a time.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_PIPELINES_PIPELINES_H
#define RELAY_MLIR_TRANSFORMS_PIPELINES_PIPELINES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::relay {

/// Options of --relay-to-llvm.
struct RelayToLLVMOptions : public PassPipelineOptions<RelayToLLVMOptions> {
  Option<int64_t> threads{
      *this, "threads",
      llvm::cl::desc("Threads large contractions run on (above 1: calls to "
                     "MLIR's async runtime API, which libRelayMLIRCRuntime "
                     "implements)"),
      llvm::cl::init(1)};
  Option<std::string> target{
      *this, "target",
      llvm::cl::desc("The lowering target that builds products and "
                     "convolutions (--relay-to-linalg's): cpu (the x86 "
                     "kernels) or generic (linalg's named ops; slower, for "
                     "comparison and other targets)"),
      llvm::cl::init("cpu")};
};

/// The CPU pipeline: type inference, specialisation, decomposition, Relay
/// to linalg (the `cpu` lowering target), fusion, one-shot bufferization,
/// tiling and vectorisation, buffer deallocation, loops, the LLVM dialect.
void buildRelayToLLVMPipeline(OpPassManager &pm,
                              const RelayToLLVMOptions &options);
void buildRelayToLLVMPipeline(OpPassManager &pm);

/// A copy of `module` lowered by --relay-to-llvm (the module is unchanged)
/// with `threads` and the lowering `target`; null after the pipeline
/// reported an error.
OwningOpRef<ModuleOp> lowerCopyToLLVM(ModuleOp module, int64_t threads = 1,
                                      StringRef target = "cpu");

/// Registers --relay-to-llvm and each upstream pass it runs.
void registerRelayPipelines();

} // namespace mlir::relay

#endif // RELAY_MLIR_TRANSFORMS_PIPELINES_PIPELINES_H

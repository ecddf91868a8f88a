//===- RelayToLinalg.h - Relay to linalg on tensors -------------*- C++ -*-===//
//
// Lowers first-order Relay tensor programs to func/linalg/tensor/arith/
// math/scf on tensors: relay.func becomes func.func (with a C interface),
// calls func.call, `if` scf.if, constants arith.constant, and every operator
// its registered lowering rule (OperatorLowerings.cpp). Closures, ADTs,
// references, tuples and dynamic shapes are not lowered yet: they are
// reported at the op.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_CONVERSION_RELAYTOLINALG_RELAYTOLINALG_H
#define RELAY_MLIR_CONVERSION_RELAYTOLINALG_RELAYTOLINALG_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::relay {

/// The signature a relay.func lowers to: tuples flattened into their
/// tensors, in order. Fails, setting `offending`, on a type native code
/// does not handle (closures, ADTs, references, dynamic shapes).
FailureOr<FunctionType> getLoweredFunctionType(FunctionType type,
                                               Type &offending);

/// Fills the operator registry's lowering column (idempotent).
void registerOperatorLowerings();

/// Options of --relay-to-llvm.
struct RelayToLLVMOptions : public PassPipelineOptions<RelayToLLVMOptions> {
  Option<int64_t> threads{
      *this, "threads",
      llvm::cl::desc("Threads large contractions run on (above 1: calls to "
                     "MLIR's async runtime API, which libRelayMLIRCRuntime "
                     "implements)"),
      llvm::cl::init(1)};
};

/// Adds the passes of --relay-to-llvm: type inference, Relay to linalg,
/// one-shot bufferization, buffer deallocation, loops and the LLVM dialect.
void buildRelayToLLVMPipeline(OpPassManager &pm,
                              const RelayToLLVMOptions &options);
void buildRelayToLLVMPipeline(OpPassManager &pm);

/// A copy of `module` lowered by that pipeline (the module is unchanged);
/// null after the pipeline reported an error.
OwningOpRef<ModuleOp> lowerCopyToLLVM(ModuleOp module, int64_t threads = 1);

/// Registers every upstream pass once (the pipeline names them).
void registerUpstreamPasses();

/// Registers the --relay-to-llvm pipeline.
void registerRelayToLLVMPipeline();

/// Registers the dialects and interfaces the lowering needs.
void registerLoweringDialects(DialectRegistry &registry);

} // namespace mlir::relay

#endif // RELAY_MLIR_CONVERSION_RELAYTOLINALG_RELAYTOLINALG_H

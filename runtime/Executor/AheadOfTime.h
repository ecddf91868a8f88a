//===- AheadOfTime.h - Compile a Relay module to an object file -*- C++ -*-===//
//
// Ahead-of-time compilation: the --relay-to-llvm pipeline, LLVM's -O2 and
// code generation for the CPU --relay-to-llvm{cpu=} names (the host by
// default) into a relocatable object file, plus a C
// header declaring the entry point. The object exports one symbol,
// `relay_<entry>`, with MLIR's C interface (memref descriptors); every other
// function and constant is internal, so the object links into any C or C++
// program (whose own `main` does not clash with a Relay @main). Compiled
// code calls only libc (malloc, free, memcpy) and libm, plus `memrefCopy`
// for strided copies, which runtime/C provides.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_RUNTIME_EXECUTOR_AHEADOFTIME_H
#define RELAY_MLIR_RUNTIME_EXECUTOR_AHEADOFTIME_H

#include "transforms/Codegen/CPU/CPUDescription.h"
#include "transforms/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/Target/TargetMachine.h"

namespace mlir::relay {

/// Compiles `entry` of `module` (a copy: the module is not changed) into the
/// object file `objectPath` and writes its C header to `headerPath`, with
/// `options`. With threads above 1 its parallel loops run on the worker
/// threads of libRelayMLIRCRuntime's async runtime. Fails after reporting,
/// at the op or the module, what went wrong.
LogicalResult emitObjectAndHeader(ModuleOp module, StringRef entry,
                                  StringRef objectPath, StringRef headerPath,
                                  const CompileOptions &options = {});

/// An LLVM target machine for the x86 CPU `cpu` (its name and features;
/// position-independent code), or null with `error` set.
std::unique_ptr<llvm::TargetMachine>
createCPUTargetMachine(const cpu::CPUDescription &cpu, std::string &error);

/// The C header for calling `relay_<entry>` with the flattened signature
/// `type` (tensors only).
std::string makeCHeader(StringRef entry, FunctionType type, StringRef source);

} // namespace mlir::relay

#endif // RELAY_MLIR_RUNTIME_EXECUTOR_AHEADOFTIME_H

//===- SharedWeights.h - Compiled code reads weights in place ---*- C++ -*-===//
//
// A network's weights are constant globals backed by resource blobs (ONNX
// initializers, `dense_resource` in text). Copying them into the JIT's code
// translated tens of megabytes into LLVM constants, wrote them into an
// object file and copied them again into the JIT's memory: a third of
// ResNet-18's compile time and twice its weights in memory. Instead the
// globals become external declarations that the JIT resolves to the blobs'
// bytes, which the MLIRContext owns for as long as the Executor lives.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_RUNTIME_EXECUTOR_SHAREDWEIGHTS_H
#define RELAY_MLIR_RUNTIME_EXECUTOR_SHAREDWEIGHTS_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::relay {

/// Turns each constant `llvm.mlir.global` of `module` (LLVM dialect) whose
/// value is a resource blob of exactly the global's size into an external
/// declaration, its alignment lowered to what the blob's address has, and
/// returns the blobs' addresses by global name.
llvm::StringMap<const void *> externalizeResourceGlobals(ModuleOp module);

} // namespace mlir::relay

#endif // RELAY_MLIR_RUNTIME_EXECUTOR_SHAREDWEIGHTS_H

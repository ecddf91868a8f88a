//===- CompileOptions.h - C API: compile options in C++ ---------*- C++ -*-===//
//
// The C API's compile options as the compiler's, shared by the executor's
// and the interpreter's entry points (not installed: the C API's headers
// are C).
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_CAPI_INTERNAL_COMPILEOPTIONS_H
#define RELAY_MLIR_CAPI_INTERNAL_COMPILEOPTIONS_H

#include "capi/Executor.h"
#include "transforms/Pipelines/Pipelines.h"

#include "mlir/IR/Location.h"

namespace mlir::relay {

/// `options` as the compiler's for `entry`, or failure after reporting at
/// `loc` which option is wrong and what it may be.
FailureOr<CompileOptions>
convertCompileOptions(const MlirRelayCompileOptions &options, StringRef entry,
                      Location loc);

} // namespace mlir::relay

#endif // RELAY_MLIR_CAPI_INTERNAL_COMPILEOPTIONS_H

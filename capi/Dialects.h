/*===- Dialects.h - C API: the relay dialect and its passes -------*- C -*-===*\
|*                                                                            *|
|* The MLIR C API of relay-mlir, after upstream's mlir-c conventions: the     *|
|* relay dialect's handle, the registration of every dialect relay-mlir's    *|
|* pipelines use, and of every relay pass and pipeline, so that              *|
|* mlirParsePassPipeline and mlirOpPassManagerAddPipeline accept their       *|
|* flags (`relay-fold-constant`, `relay-to-llvm{opt-level=3}`, ...).         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef RELAY_MLIR_CAPI_DIALECTS_H
#define RELAY_MLIR_CAPI_DIALECTS_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// mlirGetDialectHandle__relay__(): the relay dialect, to insert into a
/// registry or load into a context.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Relay, relay);

/// Inserts the relay dialect and the upstream dialects Relay programs are
/// mixed with and lowered to (func, arith, tensor, linalg, memref, scf,
/// llvm, gpu, ...) into `registry`.
MLIR_CAPI_EXPORTED void
mlirRelayRegisterAllDialects(MlirDialectRegistry registry);

/// A context with every dialect of mlirRelayRegisterAllDialects loaded and
/// diagnostics that point at the user's source without the generic form of
/// the op (as relay-mlir's tools print them). Destroy with
/// mlirContextDestroy.
MLIR_CAPI_EXPORTED MlirContext mlirRelayContextCreate(void);

/// Registers every relay pass and pipeline and the upstream passes the
/// pipelines run in MLIR's global pass registry. Idempotent.
MLIR_CAPI_EXPORTED void mlirRelayRegisterAllPasses(void);

#ifdef __cplusplus
}
#endif

#endif // RELAY_MLIR_CAPI_DIALECTS_H

/*===- Interpreter.h - C API: run a Relay module on the interpreter -*- C
-*-===*\
|*                                                                            *|
|* The reference interpreter, for what native code does not cover: shapes   *|
|* that depend on the data (NonZero, NMS, the dyn operators), or a program   *|
|* the lowering rejects. relay-run falls back to it, saying why; an         *|
|* embedder calls it here. Inputs are dense row-major buffers, flattened    *|
|* as the Executor flattens them (tuples field by field); the results are   *|
|* tensors whose types are those of this run (static even where the         *|
|* program says `?`), read from a results handle.                           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef RELAY_MLIR_CAPI_INTERPRETER_H
#define RELAY_MLIR_CAPI_INTERPRETER_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The tensors one interpreted call returned, flattened.
typedef struct MlirRelayResults {
  void *ptr;
} MlirRelayResults;

static inline bool mlirRelayResultsIsNull(MlirRelayResults results) {
  return !results.ptr;
}

/// Runs `entry` of `module` (checked by mlirRelayInferTypes; not changed)
/// on the reference interpreter. `inputs[i]` is the dense row-major buffer
/// of a tensor of type `inputTypes[i]`, the entry's tensor parameters in
/// order, tuples flattened (a `?` size in a parameter's type takes the
/// size given here). Returns a null handle after reporting, at the op, what
/// failed: inputs that do not fit the parameters, a kernel's error (a shape
/// computed negative, more than memory), a non-tensor result.
MLIR_CAPI_EXPORTED MlirRelayResults
mlirRelayInterpret(MlirModule module, MlirStringRef entry, intptr_t numInputs,
                   const MlirType *inputTypes, const void *const *inputs);

/// The number of result tensors (a tuple result flattened).
MLIR_CAPI_EXPORTED intptr_t
mlirRelayResultsGetNumTensors(MlirRelayResults results);
/// Result tensor `pos`'s type (static: this run's sizes).
MLIR_CAPI_EXPORTED MlirType mlirRelayResultsGetType(MlirRelayResults results,
                                                    intptr_t pos);
/// Result tensor `pos`'s dense row-major buffer (mlirRelayGetBufferBytes
/// of its type long), owned by the handle.
MLIR_CAPI_EXPORTED const void *mlirRelayResultsGetData(MlirRelayResults results,
                                                       intptr_t pos);

MLIR_CAPI_EXPORTED void mlirRelayResultsDestroy(MlirRelayResults results);

#ifdef __cplusplus
}
#endif

#endif // RELAY_MLIR_CAPI_INTERPRETER_H

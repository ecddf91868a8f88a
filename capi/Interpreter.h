/*===- Interpreter.h - C API: run a Relay module on the interpreter -*- C
-*-===*\
|*                                                                            *|
|* The reference interpreter, for what native code does not cover: shapes   *|
|* that depend on the data (NonZero, NMS, the dyn operators), or a program   *|
|* the lowering rejects. relay-run falls back to it, saying why; an         *|
|* embedder calls it here. Inputs are dense row-major buffers, flattened    *|
|* as the Executor flattens them (tuples field by field; a List or Option   *|
|* of the prelude as a 0-d int64 tensor holding its count, then its         *|
|* elements); the results are tensors flattened the same way, whose types  *|
|* are those of this run (static even where the program says `?`), read     *|
|* from a results handle.                                                   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef RELAY_MLIR_CAPI_INTERPRETER_H
#define RELAY_MLIR_CAPI_INTERPRETER_H

#include "capi/Executor.h"
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

/// An entry run as relay-run runs what native code does not cover as a
/// whole: the interpreter, calling compiled code for the regions native
/// code covers (--relay-outline-native-regions; each compiled for the
/// sizes it is called with where the estimated time of interpreting it
/// over the calls expected exceeds that of compiling it).
typedef struct MlirRelayHybrid {
  void *ptr;
} MlirRelayHybrid;

static inline bool mlirRelayHybridIsNull(MlirRelayHybrid hybrid) {
  return !hybrid.ptr;
}

/// Optimises a copy of `module` (typed by mlirRelayInferTypes; not
/// changed) at `options`' level, outlines its native regions and returns
/// the handle calls go through; the regions compile with `options`.
/// `expectedCalls` weighs interpreting a region against compiling it; 0
/// interprets every region, -1 compiles every one. Null after reporting a
/// bad option (at the module) or a pass's error.
MLIR_CAPI_EXPORTED MlirRelayHybrid
mlirRelayHybridCreate(MlirModule module, MlirStringRef entry,
                      MlirRelayCompileOptions options, int64_t expectedCalls);

/// Calls the entry as mlirRelayInterpret does (the same inputs and
/// results); the regions' compiled code is kept for later calls.
MLIR_CAPI_EXPORTED MlirRelayResults
mlirRelayHybridCall(MlirRelayHybrid hybrid, intptr_t numInputs,
                    const MlirType *inputTypes, const void *const *inputs);

/// How many region instances calls have compiled so far.
MLIR_CAPI_EXPORTED intptr_t
mlirRelayHybridGetNumCompiled(MlirRelayHybrid hybrid);

/// Starts (`enable`) or stops timing the calls: each operator the
/// interpreter runs and each native region it calls, from now on (starting
/// clears what was timed before).
MLIR_CAPI_EXPORTED void mlirRelayHybridSetProfiling(MlirRelayHybrid hybrid,
                                                    bool enable);

/// The calls timed so far as relay-run --profile prints them (time and calls
/// per call, most time first), passed to `callback` in pieces.
MLIR_CAPI_EXPORTED void mlirRelayHybridPrintProfile(MlirRelayHybrid hybrid,
                                                    MlirStringCallback callback,
                                                    void *userData);

MLIR_CAPI_EXPORTED void mlirRelayHybridDestroy(MlirRelayHybrid hybrid);

#ifdef __cplusplus
}
#endif

#endif // RELAY_MLIR_CAPI_INTERPRETER_H

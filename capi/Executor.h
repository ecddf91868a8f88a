/*===- Executor.h - C API: compile a Relay module and call it -----*- C -*-===*\
|*                                                                            *|
|* Compile once, call many times: a function of a typed module compiled by   *|
|* relay-mlir's pipeline (the -O level's optimisations, the CPU's kernels,   *|
|* MLIR's JIT), called on dense row-major buffers. Parameters and results    *|
|* that are tuples of tensors are flattened, field by field in order;        *|
|* programs that pass closures, ADT values or references in or out are not  *|
|* callable through this API (relay-run and the C++ Executor run them).     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef RELAY_MLIR_CAPI_EXECUTOR_H
#define RELAY_MLIR_CAPI_EXECUTOR_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// How the module is compiled (relay-run's flags of the same names).
typedef struct MlirRelayCompileOptions {
  /// Relay's optimisation level, 0 to 3.
  int64_t optLevel;
  /// Threads compiled code runs its parallel loops on (at least 1).
  int64_t threads;
  /// The code generation target: "cpu" or "generic" (or "cuda" where
  /// relay-mlir was built with the CUDA toolkit and a GPU is present).
  MlirStringRef target;
  /// The x86 CPU the code is for: "host" or an LLVM CPU name.
  MlirStringRef cpu;
  /// The operands of convolutions and products: "fp32"; "bf16" on the CPU
  /// targets (rounded to bfloat16, summed in float32); "tf32" on "cuda"
  /// (float32 products on tensor cores, operands read as TF32).
  MlirStringRef precision;
} MlirRelayCompileOptions;

/// -O3, one thread, the host CPU's kernels, fp32.
MLIR_CAPI_EXPORTED MlirRelayCompileOptions
mlirRelayCompileOptionsGetDefault(void);

/// Checks `options` (a known target, CPU and precision, a level from 0 to
/// 3, at least one thread) without compiling; reports what is wrong at
/// `loc`. A program that then fails to compile fails for what it holds
/// (the interpreter, Interpreter.h, runs what native code does not cover).
MLIR_CAPI_EXPORTED MlirLogicalResult mlirRelayCompileOptionsVerify(
    MlirRelayCompileOptions options, MlirLocation loc);

/// A compiled entry function.
typedef struct MlirRelayExecutor {
  void *ptr;
} MlirRelayExecutor;

static inline bool mlirRelayExecutorIsNull(MlirRelayExecutor executor) {
  return !executor.ptr;
}

/// Compiles `entry` of `module` (typed by mlirRelayInferTypes; it is not
/// changed and must outlive the executor). Returns a null executor after
/// reporting, at the op, what cannot be compiled, or at the module a bad
/// option.
MLIR_CAPI_EXPORTED MlirRelayExecutor mlirRelayExecutorCreate(
    MlirModule module, MlirStringRef entry, MlirRelayCompileOptions options);

MLIR_CAPI_EXPORTED void mlirRelayExecutorDestroy(MlirRelayExecutor executor);

/// The entry's type (a builtin function type over tensors and tuples).
MLIR_CAPI_EXPORTED MlirType
mlirRelayExecutorGetFunctionType(MlirRelayExecutor executor);

/// The tensor types of the flattened parameters and results (static
/// shapes: ranked tensors).
MLIR_CAPI_EXPORTED intptr_t
mlirRelayExecutorGetNumInputs(MlirRelayExecutor executor);
MLIR_CAPI_EXPORTED MlirType
mlirRelayExecutorGetInputType(MlirRelayExecutor executor, intptr_t pos);
MLIR_CAPI_EXPORTED intptr_t
mlirRelayExecutorGetNumResults(MlirRelayExecutor executor);
MLIR_CAPI_EXPORTED MlirType
mlirRelayExecutorGetResultType(MlirRelayExecutor executor, intptr_t pos);

/// The bytes of a dense row-major buffer holding a value of the static
/// tensor type `type` as compiled code stores it (elements of 1, 2, 4 or 8
/// bytes; booleans as one byte each); -1 for other types or sizes that
/// overflow.
MLIR_CAPI_EXPORTED int64_t mlirRelayGetBufferBytes(MlirType type);

/// Calls the entry: `inputs[i]` holds the i-th flattened parameter, each
/// result is copied into `results[i]` (mlirRelayGetBufferBytes of its
/// type). Fails after reporting a run-time error (an allocation too large,
/// a failed assertion of the program) at the entry.
MLIR_CAPI_EXPORTED MlirLogicalResult
mlirRelayExecutorCall(MlirRelayExecutor executor, const void *const *inputs,
                      void *const *results);

#ifdef __cplusplus
}
#endif

#endif // RELAY_MLIR_CAPI_EXECUTOR_H

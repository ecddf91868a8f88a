/* A C program built against the installed package's C API
 * (RelayMLIR::RelayMLIRCAPI): Relay text in, compiled, called on a
 * buffer. */

#include "capi/Dialects.h"
#include "capi/Executor.h"
#include "capi/Translation.h"

#include <stdio.h>

int main(void) {
  MlirContext ctx = mlirRelayContextCreate();
  MlirModule module = mlirRelayImportText(
      ctx,
      mlirStringRefCreateFromCString(
          "def @main(%x: Tensor[(4), float32]) { multiply(%x, %x) }"),
      mlirStringRefCreateFromCString("embedded.rly"));
  if (mlirModuleIsNull(module) ||
      mlirLogicalResultIsFailure(mlirRelayInferTypes(module)))
    return 1;
  MlirRelayExecutor exec =
      mlirRelayExecutorCreate(module, mlirStringRefCreateFromCString("main"),
                              mlirRelayCompileOptionsGetDefault());
  if (mlirRelayExecutorIsNull(exec))
    return 1;
  float x[4] = {1, 2, 3, 4}, y[4];
  const void *inputs[1] = {x};
  void *results[1] = {y};
  if (mlirLogicalResultIsFailure(mlirRelayExecutorCall(exec, inputs, results)))
    return 1;
  printf("C API: %g %g %g %g\n", y[0], y[1], y[2], y[3]);
  mlirRelayExecutorDestroy(exec);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}

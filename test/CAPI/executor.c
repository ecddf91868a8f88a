// RUN: relay-capi-executor 2>&1 | FileCheck %s
//
// Tests that the C API imports Relay text and ONNX, type-checks, exports
// Relay text, adds gradients, compiles and calls entry functions on
// buffers, and reports every kind of bad input at its location.

#include "capi/Executor.h"
#include "capi/Dialects.h"
#include "capi/Interpreter.h"
#include "capi/Translation.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#include <stdio.h>
#include <stdlib.h>

static void printToStderr(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stderr);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  fprintf(stderr, "diagnostic: ");
  mlirLocationPrint(mlirDiagnosticGetLocation(diagnostic), printToStderr, NULL);
  fprintf(stderr, ": ");
  mlirDiagnosticPrint(diagnostic, printToStderr, NULL);
  fprintf(stderr, "\n");
  return mlirLogicalResultSuccess();
}

static MlirStringRef str(const char *s) {
  return mlirStringRefCreateFromCString(s);
}

static MlirModule importText(MlirContext ctx, const char *text,
                             const char *name) {
  return mlirRelayImportText(ctx, str(text), str(name));
}

static void testCompileAndCall(MlirContext ctx) {
  // CHECK-LABEL: @compile_and_call
  fprintf(stderr, "@compile_and_call\n");
  MlirModule module = importText(
      ctx,
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(2, 3), float32], %y: Tensor[(3), float32]) {\n"
      "  (add(%x, %y), sum(%x))\n"
      "}\n",
      "prog.rly");
  // CHECK: typed: 1
  fprintf(stderr, "typed: %d\n",
          mlirLogicalResultIsSuccess(mlirRelayInferTypes(module)));
  // CHECK: def @main(%x: Tensor[(2, 3), float32], %y: Tensor[(3), float32]) ->
  // (Tensor[(2, 3), float32], float32) {
  mlirRelayExportText(module, printToStderr, NULL);

  MlirRelayCompileOptions options = mlirRelayCompileOptionsGetDefault();
  options.threads = 2;
  MlirRelayExecutor exec =
      mlirRelayExecutorCreate(module, str("main"), options);
  // CHECK: compiled: 1 inputs 2 results 2
  fprintf(stderr, "compiled: %d inputs %d results %d\n",
          !mlirRelayExecutorIsNull(exec),
          (int)mlirRelayExecutorGetNumInputs(exec),
          (int)mlirRelayExecutorGetNumResults(exec));
  // CHECK: result 0: tensor<2x3xf32> 24 bytes
  // CHECK: result 1: tensor<f32> 4 bytes
  for (int i = 0; i < 2; ++i) {
    MlirType type = mlirRelayExecutorGetResultType(exec, i);
    fprintf(stderr, "result %d: ", i);
    mlirTypePrint(type, printToStderr, NULL);
    fprintf(stderr, " %lld bytes\n", (long long)mlirRelayGetBufferBytes(type));
  }
  // CHECK: type: (tensor<2x3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>,
  // tensor<f32>>
  fprintf(stderr, "type: ");
  mlirTypePrint(mlirRelayExecutorGetFunctionType(exec), printToStderr, NULL);
  fprintf(stderr, "\n");

  float x[6] = {0, 1, 2, 3, 4, 5}, y[3] = {10, 20, 30};
  float sum[6], total;
  const void *inputs[2] = {x, y};
  void *results[2] = {sum, &total};
  // Called twice: the executor is reusable.
  for (int call = 0; call < 2; ++call) {
    MlirLogicalResult ok = mlirRelayExecutorCall(exec, inputs, results);
    // CHECK: call 1: 10 21 32 13 24 35 total 15
    // CHECK: call 1: 11 22 33 14 25 36 total 21
    fprintf(stderr, "call %d: %g %g %g %g %g %g total %g\n",
            mlirLogicalResultIsSuccess(ok), sum[0], sum[1], sum[2], sum[3],
            sum[4], sum[5], total);
    for (int i = 0; i < 6; ++i)
      x[i] += 1;
  }
  mlirRelayExecutorDestroy(exec);

  // The same at -O0 on the target-neutral kernels.
  options.optLevel = 0;
  options.target = str("generic");
  exec = mlirRelayExecutorCreate(module, str("main"), options);
  mlirRelayExecutorCall(exec, inputs, results);
  // CHECK: generic -O0: 12 23 34 15 26 37 total 27
  fprintf(stderr, "generic -O0: %g %g %g %g %g %g total %g\n", sum[0], sum[1],
          sum[2], sum[3], sum[4], sum[5], total);
  mlirRelayExecutorDestroy(exec);
  mlirModuleDestroy(module);
}

static void testBindInputShapes(MlirContext ctx) {
  // CHECK-LABEL: @bind_input_shapes
  fprintf(stderr, "@bind_input_shapes\n");
  MlirModule module =
      importText(ctx,
                 "#[version = \"0.0.5\"]\n"
                 "def @main(%x: Tensor[(?, 2), float32]) { @twice(%x) }\n"
                 "def @twice(%y: Tensor[(?, ?), float32]) { add(%y, %y) }\n",
                 "any.rly");
  mlirRelayInferTypes(module);
  // Native code is for static shapes: bound to 3 rows, @main and a copy of
  // @twice are typed for them.
  intptr_t ranks[1] = {2};
  int64_t dims[2] = {3, 2};
  MlirModule bound =
      mlirRelayBindInputShapes(module, str("main"), 1, ranks, dims);
  // CHECK: bound: 1
  // CHECK: def @main(%x: Tensor[(3, 2), float32]) -> Tensor[(3, 2), float32]
  fprintf(stderr, "bound: %d\n", !mlirModuleIsNull(bound));
  mlirRelayExportText(bound, printToStderr, NULL);
  MlirRelayExecutor exec = mlirRelayExecutorCreate(
      bound, str("main"), mlirRelayCompileOptionsGetDefault());
  float x[6] = {0, 1, 2, 3, 4, 5}, y[6];
  const void *inputs[1] = {x};
  void *results[1] = {y};
  mlirRelayExecutorCall(exec, inputs, results);
  // CHECK: twice: 0 2 4 6 8 10
  fprintf(stderr, "twice: %g %g %g %g %g %g\n", y[0], y[1], y[2], y[3], y[4],
          y[5]);
  mlirRelayExecutorDestroy(exec);
  mlirModuleDestroy(bound);
  // A size the fixed dimension does not allow binds nothing.
  int64_t wrong[2] = {3, 4};
  // CHECK: wrong size bound: 0
  fprintf(stderr, "wrong size bound: %d\n",
          !mlirModuleIsNull(
              mlirRelayBindInputShapes(module, str("main"), 1, ranks, wrong)));
  mlirModuleDestroy(module);
}

static void testInstantiateEntry(MlirContext ctx) {
  // CHECK-LABEL: @instantiate_entry
  fprintf(stderr, "@instantiate_entry\n");
  MlirModule module = importText(
      ctx,
      "#[version = \"0.0.5\"]\n"
      "def @main[n : ShapeVar](%x: Tensor[(n, 2), float32], %y: Tensor[(n, "
      "2), float32]) { add(%x, %y) }\n",
      "poly.rly");
  mlirRelayInferTypes(module);
  // CHECK: polymorphic: 1
  fprintf(stderr, "polymorphic: %d\n",
          mlirRelayEntryIsPolymorphic(module, str("main")));
  // Code is for one type of each input: the polymorphic entry itself is
  // an error at it.
  // CHECK: diagnostic: loc("poly.rly":2:1): @main is polymorphic
  // CHECK: polymorphic compiled: 0
  fprintf(stderr, "polymorphic compiled: %d\n",
          !mlirRelayExecutorIsNull(mlirRelayExecutorCreate(
              module, str("main"), mlirRelayCompileOptionsGetDefault())));
  int64_t shape[2] = {3, 2};
  MlirType f32 = mlirF32TypeGet(ctx);
  MlirType t = mlirRankedTensorTypeGet(2, shape, f32, mlirAttributeGetNull());
  MlirType types[2] = {t, t};
  MlirModule instance =
      mlirRelayInstantiateEntry(module, str("main"), 2, types);
  // CHECK: def @main_poly_spec(%x: Tensor[(3, 2), float32], %y: Tensor[(3, 2),
  // CHECK: def @main(%x: Tensor[(3, 2), float32], %y: Tensor[(3, 2), float32])
  // CHECK-SAME: -> Tensor[(3, 2), float32]
  // CHECK-NEXT: @main_poly_spec(%x, %y)
  mlirRelayExportText(instance, printToStderr, NULL);
  MlirRelayExecutor exec = mlirRelayExecutorCreate(
      instance, str("main"), mlirRelayCompileOptionsGetDefault());
  float x[6] = {0, 1, 2, 3, 4, 5}, y[6] = {1, 1, 1, 1, 1, 1}, z[6];
  const void *inputs[2] = {x, y};
  void *results[1] = {z};
  mlirRelayExecutorCall(exec, inputs, results);
  // CHECK: instance: 1 2 3 4 5 6
  fprintf(stderr, "instance: %g %g %g %g %g %g\n", z[0], z[1], z[2], z[3], z[4],
          z[5]);
  mlirRelayExecutorDestroy(exec);
  mlirModuleDestroy(instance);
  // Two sizes for one `n` are an error at the call.
  int64_t other[2] = {4, 2};
  types[1] = mlirRankedTensorTypeGet(2, other, f32, mlirAttributeGetNull());
  // CHECK: diagnostic: loc("poly.rly":2:1): relay.call @main_poly: argument
  // CHECK-SAME: #1 has type 'tensor<4x2xf32>', expected 'tensor<3x2xf32>'
  // CHECK: two sizes instantiated: 0
  fprintf(stderr, "two sizes instantiated: %d\n",
          !mlirModuleIsNull(
              mlirRelayInstantiateEntry(module, str("main"), 2, types)));
  // CHECK: diagnostic: loc("poly.rly":2:1): @main takes 2 inputs, got 1
  mlirRelayInstantiateEntry(module, str("main"), 1, types);
  mlirModuleDestroy(module);
}

static void testInterpret(MlirContext ctx) {
  // CHECK-LABEL: @interpret
  fprintf(stderr, "@interpret\n");
  // argwhere's length depends on the data: native code does not cover it.
  MlirModule module = importText(
      ctx,
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(?, 3), float32], %p: (float32, float32)) {\n"
      "  (argwhere(greater(%x, %p.0)), add(%p.0, %p.1))\n"
      "}\n",
      "nonzero.rly");
  mlirRelayInferTypes(module);
  int64_t shape[2] = {2, 3};
  MlirType f32 = mlirF32TypeGet(ctx);
  MlirType scalar =
      mlirRankedTensorTypeGet(0, NULL, f32, mlirAttributeGetNull());
  MlirType types[3] = {
      mlirRankedTensorTypeGet(2, shape, f32, mlirAttributeGetNull()), scalar,
      scalar};
  float x[6] = {1, -2, 3, 0, 5, -6}, zero = 0, one = 1;
  const void *inputs[3] = {x, &zero, &one};
  MlirRelayResults results =
      mlirRelayInterpret(module, str("main"), 3, types, inputs);
  // CHECK: results: 2
  fprintf(stderr, "results: %d\n", (int)mlirRelayResultsGetNumTensors(results));
  // CHECK: tensor<3x2xi32>: 0 0 0 2 1 1
  MlirType type = mlirRelayResultsGetType(results, 0);
  mlirTypePrint(type, printToStderr, NULL);
  const int32_t *rows = mlirRelayResultsGetData(results, 0);
  fprintf(stderr, ": %d %d %d %d %d %d\n", rows[0], rows[1], rows[2], rows[3],
          rows[4], rows[5]);
  // CHECK: sum 1
  fprintf(stderr, "sum %g\n",
          *(const float *)mlirRelayResultsGetData(results, 1));
  mlirRelayResultsDestroy(results);
  // Inputs that do not fit the parameters are an error at the function.
  // CHECK: diagnostic: loc("nonzero.rly":2:1): @main takes 3 tensors (tuples
  // CHECK-SAME: flattened), got 2
  // CHECK: too few: 1
  fprintf(stderr, "too few: %d\n",
          mlirRelayResultsIsNull(
              mlirRelayInterpret(module, str("main"), 2, types, inputs)));
  // CHECK: diagnostic: {{.*}}: argument #0 has type 'tensor<f32>', expected
  // CHECK-SAME: 'tensor<?x3xf32>'
  // CHECK: wrong type: 1
  types[0] = scalar;
  fprintf(stderr, "wrong type: %d\n",
          mlirRelayResultsIsNull(
              mlirRelayInterpret(module, str("main"), 3, types, inputs)));
  // Bad options are reported without compiling anything.
  MlirRelayCompileOptions options = mlirRelayCompileOptionsGetDefault();
  options.threads = 0;
  // CHECK: diagnostic: {{.*}}: threads 0: at least one thread runs the code
  // CHECK: options: 0
  fprintf(
      stderr, "options: %d\n",
      mlirLogicalResultIsSuccess(mlirRelayCompileOptionsVerify(
          options, mlirOperationGetLocation(mlirModuleGetOperation(module)))));
  mlirModuleDestroy(module);
}

static void testInterpretLists(MlirContext ctx) {
  // CHECK-LABEL: @interpret_lists
  fprintf(stderr, "@interpret_lists\n");
  // A List and an Option cross as a 0-d int64 count, then their elements.
  MlirModule module = importText(
      ctx,
      "#[version = \"0.0.5\"]\n"
      "def @main(%xs: List[Tensor[(?), float32]], %o: Option[float32]) {\n"
      "  let %n = @length(%xs);\n"
      "  (Cons(ones(shape=[3], dtype=\"float32\"), %xs), %o, %n)\n"
      "}\n",
      "lists.rly");
  mlirRelayInferTypes(module);
  MlirType f32 = mlirF32TypeGet(ctx), i64 = mlirIntegerTypeGet(ctx, 64);
  MlirType count =
      mlirRankedTensorTypeGet(0, NULL, i64, mlirAttributeGetNull());
  int64_t two = 2, one = 1, zero = 0, twoShape[1] = {2}, oneShape[1] = {1};
  MlirType types[5] = {
      count, mlirRankedTensorTypeGet(1, twoShape, f32, mlirAttributeGetNull()),
      mlirRankedTensorTypeGet(1, oneShape, f32, mlirAttributeGetNull()), count,
      count};
  float a[2] = {1, 2}, b[1] = {3};
  const void *inputs[5] = {&two, a, b, &zero, NULL};
  MlirRelayResults results =
      mlirRelayInterpret(module, str("main"), 4, types, inputs);
  // Three elements (3, 2 and 1 long), an empty option, the length 2.
  // CHECK: list results: 6: count 3, option 0, length 2
  intptr_t n = mlirRelayResultsGetNumTensors(results);
  fprintf(stderr, "list results: %d: count %d, option %d, length %d\n", (int)n,
          (int)*(const int64_t *)mlirRelayResultsGetData(results, 0),
          (int)*(const int64_t *)mlirRelayResultsGetData(results, n - 2),
          (int)*(const int32_t *)mlirRelayResultsGetData(results, n - 1));
  // The second element, the list's first:
  // CHECK: tensor<2xf32>: 1 2
  mlirTypePrint(mlirRelayResultsGetType(results, 2), printToStderr, NULL);
  const float *second = mlirRelayResultsGetData(results, 2);
  fprintf(stderr, ": %g %g\n", second[0], second[1]);
  mlirRelayResultsDestroy(results);
  // A count larger than the inputs that follow it is an error.
  // CHECK: diagnostic: loc("lists.rly":2:1): parameter #0
  // CHECK-SAME: a count of 2 elements does not fit the inputs given
  // CHECK: too many elements: 1
  inputs[0] = &two;
  types[1] = count;
  inputs[1] = &one;
  fprintf(stderr, "too many elements: %d\n",
          mlirRelayResultsIsNull(
              mlirRelayInterpret(module, str("main"), 2, types, inputs)));
  mlirModuleDestroy(module);
}

static void testHybrid(MlirContext ctx) {
  // CHECK-LABEL: @hybrid
  fprintf(stderr, "@hybrid\n");
  // The product after argwhere runs compiled, for the rows it gave.
  MlirModule module = importText(
      ctx,
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(2, 3), float32], %w: Tensor[(4, 2), float32]) {\n"
      "  nn.dense(cast(argwhere(greater(%x, 0f)), dtype=\"float32\"), %w)\n"
      "}\n",
      "hybrid.rly");
  mlirRelayInferTypes(module);
  MlirRelayHybrid hybrid = mlirRelayHybridCreate(
      module, str("main"), mlirRelayCompileOptionsGetDefault(), -1);
  int64_t xShape[2] = {2, 3}, wShape[2] = {4, 2};
  MlirType f32 = mlirF32TypeGet(ctx);
  MlirType types[2] = {
      mlirRankedTensorTypeGet(2, xShape, f32, mlirAttributeGetNull()),
      mlirRankedTensorTypeGet(2, wShape, f32, mlirAttributeGetNull())};
  float x[6] = {1, -2, 3, 0, 5, -6}, w[8] = {1, 0, 0, 1, 1, 1, 10, 100};
  const void *inputs[2] = {x, w};
  MlirRelayResults results = mlirRelayHybridCall(hybrid, 2, types, inputs);
  // Rows (0, 0), (0, 2), (1, 1) of x are positive: each row (i, j) gives
  // (i, j, i + j, 10 i + 100 j).
  // CHECK: tensor<3x4xf32>: 0 0 0 0 / 0 2 2 200 / 1 1 2 110
  mlirTypePrint(mlirRelayResultsGetType(results, 0), printToStderr, NULL);
  const float *y = mlirRelayResultsGetData(results, 0);
  fprintf(stderr, ": %g %g %g %g / %g %g %g %g / %g %g %g %g\n", y[0], y[1],
          y[2], y[3], y[4], y[5], y[6], y[7], y[8], y[9], y[10], y[11]);
  mlirRelayResultsDestroy(results);
  // CHECK: compiled: 2
  fprintf(stderr, "compiled: %d\n", (int)mlirRelayHybridGetNumCompiled(hybrid));
  // A second call with the same sizes reuses the code; profiled, it gives
  // the time of each operator and region per call (two calls).
  mlirRelayHybridSetProfiling(hybrid, true);
  mlirRelayResultsDestroy(mlirRelayHybridCall(hybrid, 2, types, inputs));
  mlirRelayResultsDestroy(mlirRelayHybridCall(hybrid, 2, types, inputs));
  // CHECK: compiled again: 2
  fprintf(stderr, "compiled again: %d\n",
          (int)mlirRelayHybridGetNumCompiled(hybrid));
  // CHECK: ms per run {{.*}} calls/run  operator or native region
  // CHECK-DAG: {{[0-9.]+ +[0-9.]+ +1.0}}  argwhere
  // CHECK-DAG: {{[0-9.]+ +[0-9.]+ +1.0}}  native region @main_native
  // CHECK: {{[0-9.]+ +100.00 +}}total
  mlirRelayHybridPrintProfile(hybrid, printToStderr, NULL);
  mlirRelayHybridSetProfiling(hybrid, false);
  // Inputs that do not fit are an error at the function, as interpreted.
  // CHECK: diagnostic: loc("hybrid.rly":2:1): @main takes 2 tensors (tuples
  // CHECK-SAME: flattened), got 1
  // CHECK: too few: 1
  fprintf(
      stderr, "too few: %d\n",
      mlirRelayResultsIsNull(mlirRelayHybridCall(hybrid, 1, types, inputs)));
  mlirRelayHybridDestroy(hybrid);
  // Bad options and a missing entry are reported, with a null handle.
  MlirRelayCompileOptions options = mlirRelayCompileOptionsGetDefault();
  options.optLevel = 7;
  // CHECK: diagnostic: {{.*}}: optLevel 7: the levels are 0 to 3
  // CHECK: bad level: 1
  fprintf(stderr, "bad level: %d\n",
          mlirRelayHybridIsNull(
              mlirRelayHybridCreate(module, str("main"), options, 1)));
  // CHECK: diagnostic: {{.*}}: the module has no relay.func @nothing
  // CHECK: no entry: 1
  fprintf(stderr, "no entry: %d\n",
          mlirRelayHybridIsNull(mlirRelayHybridCreate(
              module, str("nothing"), mlirRelayCompileOptionsGetDefault(), 1)));
  mlirModuleDestroy(module);
}

static void testGradient(MlirContext ctx) {
  // CHECK-LABEL: @gradient
  fprintf(stderr, "@gradient\n");
  MlirModule module = importText(
      ctx,
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(3), float32]) { sum(multiply(%x, %x)) }\n",
      "square.rly");
  mlirRelayInferTypes(module);
  // CHECK: differentiated: 1
  fprintf(
      stderr, "differentiated: %d\n",
      mlirLogicalResultIsSuccess(mlirRelayDifferentiate(module, str("main"))));
  MlirRelayExecutor exec = mlirRelayExecutorCreate(
      module, str("main_grad"), mlirRelayCompileOptionsGetDefault());
  float x[3] = {1, 2, 3}, value, grad[3];
  const void *inputs[1] = {x};
  void *results[2] = {&value, grad};
  mlirRelayExecutorCall(exec, inputs, results);
  // CHECK: value 14 grad 2 4 6
  fprintf(stderr, "value %g grad %g %g %g\n", value, grad[0], grad[1], grad[2]);
  mlirRelayExecutorDestroy(exec);

  // CHECK: diagnostic: {{.*}}: the program has no function @nope to
  // differentiate CHECK: no entry: 1
  fprintf(
      stderr, "no entry: %d\n",
      mlirLogicalResultIsFailure(mlirRelayDifferentiate(module, str("nope"))));
  mlirModuleDestroy(module);
}

static void testErrors(MlirContext ctx) {
  // CHECK-LABEL: @errors
  fprintf(stderr, "@errors\n");
  // CHECK: diagnostic: loc("bad.rly":2:15): expected a type, found ')'
  // CHECK: parse error: 1
  MlirModule module = importText(
      ctx, "#[version = \"0.0.5\"]\ndef @main(%x: ) { %x }\n", "bad.rly");
  fprintf(stderr, "parse error: %d\n", mlirModuleIsNull(module));

  // CHECK: diagnostic: loc("illtyped.rly":2:68): add: cannot broadcast
  // 'tensor<2x3xf32>' with 'tensor<4xf32>' CHECK: type error: 1
  module = importText(ctx,
                      "#[version = \"0.0.5\"]\n"
                      "def @main(%x: Tensor[(2, 3), float32], %y: "
                      "Tensor[(4), float32]) { add(%x, %y) }\n",
                      "illtyped.rly");
  // (The importer infers types as it builds the module.)
  fprintf(stderr, "type error: %d\n", mlirModuleIsNull(module));

  // A module parsed as MLIR is type-checked by mlirRelayInferTypes.
  // CHECK: diagnostic: loc("typed.mlir":2:8): add: cannot broadcast
  // 'tensor<2xf32>' with 'tensor<3xf32>' CHECK: infer error: 1
  module = mlirModuleCreateParse(
      ctx,
      str("relay.func @main(%x: tensor<2xf32>, %y: tensor<3xf32>) -> "
          "!relay.incomplete {\n"
          "  %r = relay.nn.relu %y : (tensor<3xf32>) -> !relay.incomplete\n"
          "  %z = relay.add %x, %r : (tensor<2xf32>, !relay.incomplete) "
          "-> !relay.incomplete loc(\"typed.mlir\":2:8)\n"
          "  relay.return %z : !relay.incomplete\n"
          "}\n"));
  fprintf(stderr, "infer error: %d\n",
          !mlirModuleIsNull(module) &&
              mlirLogicalResultIsFailure(mlirRelayInferTypes(module)));
  mlirModuleDestroy(module);

  // CHECK: diagnostic: {{.*}}model.onnx{{.*}}
  // CHECK: corrupt onnx: 1
  module = mlirRelayImportOnnx(ctx, str("not a model"), str("model.onnx"));
  fprintf(stderr, "corrupt onnx: %d\n", mlirModuleIsNull(module));

  module = importText(ctx,
                      "#[version = \"0.0.5\"]\n"
                      "def @main(%x: Tensor[(2), float32]) {\n"
                      "  fn (%y: Tensor[(2), float32]) { add(%x, %y) }\n"
                      "}\n"
                      "def @id(%x: Tensor[(2), float32]) { %x }\n",
                      "closure.rly");
  mlirRelayInferTypes(module);
  MlirRelayCompileOptions options = mlirRelayCompileOptionsGetDefault();
  // CHECK: diagnostic: loc("closure.rly":2:1): @main takes or returns {{.*}}:
  // closures, ADT values and references cannot be passed through the C API
  // CHECK: closure result: 1
  fprintf(stderr, "closure result: %d\n",
          mlirRelayExecutorIsNull(
              mlirRelayExecutorCreate(module, str("main"), options)));
  // CHECK: diagnostic: {{.*}}: the module has no relay.func @nope
  // CHECK: unknown entry: 1
  fprintf(stderr, "unknown entry: %d\n",
          mlirRelayExecutorIsNull(
              mlirRelayExecutorCreate(module, str("nope"), options)));
  // CHECK: diagnostic: {{.*}}: optLevel 7: the levels are 0 to 3
  options.optLevel = 7;
  mlirRelayExecutorCreate(module, str("id"), options);
  // CHECK: diagnostic: {{.*}}: threads 0: at least one thread runs the code
  options = mlirRelayCompileOptionsGetDefault();
  options.threads = 0;
  mlirRelayExecutorCreate(module, str("id"), options);
  // CHECK: diagnostic: {{.*}}: unknown target 'tpu' (
  options = mlirRelayCompileOptionsGetDefault();
  options.target = str("tpu");
  mlirRelayExecutorCreate(module, str("id"), options);
  // CHECK: diagnostic: {{.*}}: precision 'fp8': fp32, bf16 (the CPU targets) or
  // tf32 (cuda)
  options = mlirRelayCompileOptionsGetDefault();
  options.precision = str("fp8");
  mlirRelayExecutorCreate(module, str("id"), options);
  // CHECK: diagnostic: {{.*}}: cpu: {{.*}}not-a-cpu
  options = mlirRelayCompileOptionsGetDefault();
  options.cpu = str("not-a-cpu");
  mlirRelayExecutorCreate(module, str("id"), options);
  mlirModuleDestroy(module);

  // A value larger than memory is an error at compile time.
  module =
      importText(ctx,
                 "#[version = \"0.0.5\"]\n"
                 "def @main(%x: Tensor[(2), float32]) {\n"
                 "  zeros(shape=[1000000000, 1000000000], dtype=\"float32\")\n"
                 "}\n",
                 "huge.rly");
  mlirRelayInferTypes(module);
  // CHECK: diagnostic: loc("huge.rly":3:3): a value of type
  // 'tensor<1000000000x1000000000xf32>' needs more than this machine's memory
  // CHECK: too large: 1
  fprintf(stderr, "too large: %d\n",
          mlirRelayExecutorIsNull(mlirRelayExecutorCreate(
              module, str("main"), mlirRelayCompileOptionsGetDefault())));
  mlirModuleDestroy(module);
}

int main(void) {
  MlirContext ctx = mlirRelayContextCreate();
  mlirRelayRegisterAllPasses();
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
  testCompileAndCall(ctx);
  testBindInputShapes(ctx);
  testInstantiateEntry(ctx);
  testInterpret(ctx);
  testInterpretLists(ctx);
  testHybrid(ctx);
  testGradient(ctx);
  testErrors(ctx);
  mlirContextDestroy(ctx);
  return 0;
}

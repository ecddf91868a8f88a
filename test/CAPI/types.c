// RUN: relay-capi-types 2>&1 | FileCheck %s
//
// Tests that the C API registers the relay dialect (its handle), builds and
// queries every Relay type, reports invalid types at their location, and
// registers the relay passes so that MLIR's C pass manager runs them.

#include "capi/Types.h"
#include "capi/Dialects.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <string.h>

static void printToStderr(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stderr);
}

/// Prints "what: type" (the caller ends the line).
static void printType(const char *what, MlirType type) {
  fprintf(stderr, "%s: ", what);
  mlirTypePrint(type, printToStderr, NULL);
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

static void testDialectHandle(void) {
  // CHECK-LABEL: @dialect_handle
  fprintf(stderr, "@dialect_handle\n");
  MlirContext ctx = mlirContextCreate();
  MlirDialectHandle relay = mlirGetDialectHandle__relay__();
  MlirStringRef ns = mlirDialectHandleGetNamespace(relay);
  // CHECK: namespace: relay
  fprintf(stderr, "namespace: %.*s\n", (int)ns.length, ns.data);
  mlirDialectHandleRegisterDialect(relay, ctx);
  MlirDialect dialect = mlirContextGetOrLoadDialect(ctx, ns);
  // CHECK: loaded: 1
  fprintf(stderr, "loaded: %d\n", !mlirDialectIsNull(dialect));
  mlirContextDestroy(ctx);

  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRelayRegisterAllDialects(registry);
  ctx = mlirContextCreate();
  mlirContextAppendDialectRegistry(ctx, registry);
  // CHECK: linalg registered: 1
  fprintf(stderr, "linalg registered: %d\n",
          !mlirDialectIsNull(mlirContextGetOrLoadDialect(ctx, str("linalg"))));
  mlirContextDestroy(ctx);
  mlirDialectRegistryDestroy(registry);
}

static void testTypes(MlirContext ctx) {
  // CHECK-LABEL: @types
  fprintf(stderr, "@types\n");
  MlirType f32 = mlirF32TypeGet(ctx);
  MlirLocation loc = mlirLocationFileLineColGet(ctx, str("types.c"), 7, 3);

  MlirType a = mlirRelayTypeVarTypeGet(ctx, str("a"), MlirRelayTypeKindType);
  MlirType s = mlirRelayTypeVarTypeGet(ctx, str("s"), MlirRelayTypeKindShape);
  // CHECK: tvar: !relay.tvar<a>
  printType("tvar", a);
  fprintf(stderr, "\n");
  // CHECK: shape var: !relay.tvar<s : Shape> kind 1 is 1
  printType("shape var", s);
  fprintf(stderr, " kind %d is %d\n", mlirRelayTypeVarTypeGetKind(s),
          mlirTypeIsARelayTypeVarType(s));

  MlirRelayDim dims[3] = {
      {0, str("n")}, {mlirShapedTypeGetDynamicSize(), str("")}, {3, str("")}};
  MlirType poly = mlirRelayPolyTensorTypeGetChecked(loc, 3, dims, f32);
  // CHECK: symbolic: !relay.tensor<[n, ?, 3], f32>
  printType("symbolic", poly);
  fprintf(stderr, "\n");
  MlirRelayDim d0 = mlirRelayPolyTensorTypeGetDim(poly, 0);
  MlirRelayDim d2 = mlirRelayPolyTensorTypeGetDim(poly, 2);
  // CHECK: rank 3 dim0 n dim2 3 any 1
  fprintf(stderr, "rank %d dim0 %.*s dim2 %d any %d\n",
          (int)mlirRelayPolyTensorTypeGetRank(poly), (int)d0.name.length,
          d0.name.data, (int)d2.size,
          mlirRelayPolyTensorTypeGetDim(poly, 1).size ==
              mlirShapedTypeGetDynamicSize());
  MlirType whole = mlirRelayPolyTensorTypeGetWithShapeVar(loc, str("s"), f32);
  // CHECK: shape variable: !relay.tensor<s, f32> rank -1
  printType("shape variable", whole);
  fprintf(stderr, " rank %d\n", (int)mlirRelayPolyTensorTypeGetRank(whole));
  MlirType d =
      mlirRelayTypeVarTypeGet(ctx, str("d"), MlirRelayTypeKindBaseType);
  MlirType anyDtype = mlirRelayPolyTensorTypeGetChecked(loc, 1, dims + 2, d);
  // CHECK: dtype variable: !relay.tensor<[3], d>
  printType("dtype variable", anyDtype);
  fprintf(stderr, "\n");
  // A concrete shape and dtype is the builtin tensor.
  MlirType concrete = mlirRelayPolyTensorTypeGetChecked(loc, 2, dims + 1, f32);
  // CHECK: concrete: tensor<?x3xf32> builtin 1
  printType("concrete", concrete);
  fprintf(stderr, " builtin %d\n",
          mlirTypeIsARankedTensor(concrete) &&
              !mlirTypeIsARelayPolyTensorType(concrete));

  MlirType params[1] = {a};
  MlirType inputs[2] = {a, poly};
  MlirType fn = mlirRelayFuncTypeGet(ctx, 1, params, 2, inputs, a);
  // CHECK: fn: !relay.fn<[a](!relay.tvar<a>, !relay.tensor<[n, ?, 3], f32>) ->
  // !relay.tvar<a>>
  printType("fn", fn);
  fprintf(stderr, "\n");
  // CHECK: params 1 inputs 2 relations 0
  fprintf(stderr, "params %d inputs %d relations %d\n",
          (int)mlirRelayFuncTypeGetNumTypeParams(fn),
          (int)mlirRelayFuncTypeGetNumInputs(fn),
          (int)mlirRelayFuncTypeGetNumRelations(fn));

  MlirType ref = mlirRelayRefTypeGet(poly);
  // CHECK: ref: !relay.ref<!relay.tensor<[n, ?, 3], f32>> element equal 1
  printType("ref", ref);
  fprintf(stderr, " element equal %d\n",
          mlirTypeEqual(mlirRelayRefTypeGetElementType(ref), poly));

  MlirType i32 = mlirRankedTensorTypeGet(0, NULL, mlirIntegerTypeGet(ctx, 32),
                                         mlirAttributeGetNull());
  MlirType list = mlirRelayAdtTypeGet(ctx, str("List"), 1, &i32);
  MlirStringRef listName = mlirRelayAdtTypeGetName(list);
  // CHECK: adt: !relay.adt<@List, tensor<i32>> name List args 1
  printType("adt", list);
  fprintf(stderr, " name %.*s args %d\n", (int)listName.length, listName.data,
          (int)mlirRelayAdtTypeGetNumArgs(list));
  // CHECK: incomplete: !relay.incomplete 1
  printType("incomplete", mlirRelayIncompleteTypeGet(ctx));
  fprintf(stderr, " %d\n",
          mlirTypeIsARelayIncompleteType(mlirRelayIncompleteTypeGet(ctx)));

  // Joins: sizes that differ become `?`, field by field through tuples and
  // ADT arguments, an incomplete argument (an empty list's) taking the
  // other's; a dtype that differs has no join.
  int64_t shape23[] = {2, 3}, shape25[] = {2, 5};
  MlirType t23 =
      mlirRankedTensorTypeGet(2, shape23, f32, mlirAttributeGetNull());
  MlirType t25 =
      mlirRankedTensorTypeGet(2, shape25, f32, mlirAttributeGetNull());
  // CHECK: join: tensor<2x?xf32>
  printType("join", mlirRelayTypeJoin(t23, t25));
  fprintf(stderr, "\n");
  MlirType pairA[] = {t23, list}, pairB[] = {t25, list};
  // CHECK: tuple join: tuple<tensor<2x?xf32>, !relay.adt<@List, tensor<i32>>>
  printType("tuple join", mlirRelayTypeJoin(mlirTupleTypeGet(ctx, 2, pairA),
                                            mlirTupleTypeGet(ctx, 2, pairB)));
  fprintf(stderr, "\n");
  MlirType unknown = mlirRelayIncompleteTypeGet(ctx);
  MlirType emptyList = mlirRelayAdtTypeGet(ctx, str("List"), 1, &unknown);
  MlirType list23 = mlirRelayAdtTypeGet(ctx, str("List"), 1, &t23);
  // CHECK: list join: !relay.adt<@List, tensor<2x3xf32>>
  printType("list join", mlirRelayTypeJoin(emptyList, list23));
  fprintf(stderr, "\n");
  // CHECK: no join: 1 1
  fprintf(stderr, "no join: %d %d\n",
          mlirTypeIsNull(mlirRelayTypeJoin(t23, i32)),
          mlirTypeIsNull(mlirRelayTypeJoin(t23, list)));
  // CHECK: kinds: 0 0 0 0
  fprintf(stderr, "kinds: %d %d %d %d\n", mlirTypeIsARelayFuncType(ref),
          mlirTypeIsARelayRefType(list), mlirTypeIsARelayAdtType(fn),
          mlirTypeIsARelayPolyTensorType(f32));

  // Invalid types are null, reported at the location given.
  // CHECK: diagnostic: loc("types.c":7:3): tensor dimension must be
  // non-negative, got -4 CHECK: null: 1
  MlirRelayDim negative = {-4, str("")};
  fprintf(stderr, "null: %d\n",
          mlirTypeIsNull(
              mlirRelayPolyTensorTypeGetChecked(loc, 1, &negative, f32)));
  // CHECK: diagnostic: loc("types.c":7:3): tensor dtype variable 's' must have
  // kind BaseType, not Shape CHECK: null: 1
  fprintf(stderr, "null: %d\n",
          mlirTypeIsNull(mlirRelayPolyTensorTypeGetChecked(loc, 1, dims, s)));
}

static void testPasses(MlirContext ctx) {
  // CHECK-LABEL: @passes
  fprintf(stderr, "@passes\n");
  mlirRelayRegisterAllPasses();
  mlirRelayRegisterAllPasses(); // Idempotent.
  MlirModule module = mlirModuleCreateParse(
      ctx, str("relay.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
               "  %c = relay.constant dense<1.0> : tensor<2xf32>\n"
               "  %y = relay.add %c, %c : (tensor<2xf32>, tensor<2xf32>) -> "
               "tensor<2xf32>\n"
               "  %z = relay.multiply %x, %y : (tensor<2xf32>, "
               "tensor<2xf32>) -> tensor<2xf32>\n"
               "  relay.return %z : tensor<2xf32>\n"
               "}\n"));
  // CHECK: parsed: 1
  fprintf(stderr, "parsed: %d\n", !mlirModuleIsNull(module));
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      opm, str("builtin.module(relay-infer-types,relay-fold-constant)"),
      printToStderr, NULL);
  // CHECK: pipeline: 1
  fprintf(stderr, "pipeline: %d\n", mlirLogicalResultIsSuccess(parsed));
  MlirLogicalResult ran =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  // CHECK: ran: 1
  fprintf(stderr, "ran: %d\n", mlirLogicalResultIsSuccess(ran));
  // CHECK: relay.func @main
  // CHECK: relay.constant dense<2.000000e+00>
  // CHECK-NOT: relay.add
  mlirOperationPrint(mlirModuleGetOperation(module), printToStderr, NULL);
  fprintf(stderr, "\n");
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);

  // An unknown pass is an error naming it.
  pm = mlirPassManagerCreate(ctx);
  // CHECK: 'relay-no-such-pass' does not refer to a registered pass
  // CHECK: unknown pass: 1
  parsed = mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),
                                 str("builtin.module(relay-no-such-pass)"),
                                 printToStderr, NULL);
  fprintf(stderr, "\nunknown pass: %d\n", mlirLogicalResultIsFailure(parsed));
  mlirPassManagerDestroy(pm);
}

int main(void) {
  testDialectHandle();
  MlirContext ctx = mlirRelayContextCreate();
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
  testTypes(ctx);
  testPasses(ctx);
  mlirContextDestroy(ctx);
  return 0;
}

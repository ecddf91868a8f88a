/*===- Translation.h - C API: Relay text, ONNX, gradients ---------*- C -*-===*\
|*                                                                            *|
|* Modules in and out of relay-mlir: Relay text (TVM's format) and ONNX      *|
|* models imported into the relay dialect, modules exported as Relay text,   *|
|* and the two steps every program takes before it runs: type inference     *|
|* with the decomposition of composite operators, and (for training) the     *|
|* entry's gradient. Errors go to the context's diagnostic handlers          *|
|* (mlirContextAttachDiagnosticHandler) with file:line:col locations.       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef RELAY_MLIR_CAPI_TRANSLATION_H
#define RELAY_MLIR_CAPI_TRANSLATION_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Parses Relay text (`#[version = "0.0.5"] def @main(...) {...}`); the
/// prelude's ADTs and functions (List, Option, map, ...) are available.
/// `fileName` names the text in locations. Returns a null module (check
/// with mlirModuleIsNull) after reporting the error.
MLIR_CAPI_EXPORTED MlirModule mlirRelayImportText(MlirContext ctx,
                                                  MlirStringRef text,
                                                  MlirStringRef fileName);

/// Parses the MLIR file at `path`, text or bytecode (relay-mlir-translate
/// --emit-bytecode), read with the alignment bytecode's weights need
/// (upstream mlirModuleCreateParseFromFile does not align, and bytecode
/// holding resources then fails to load). Null after reporting why.
MLIR_CAPI_EXPORTED MlirModule mlirRelayParseMLIRFile(MlirContext ctx,
                                                     MlirStringRef path);

/// Imports a serialized ONNX ModelProto (the bytes of a .onnx file);
/// `fileName` names it in locations. Returns a null module after reporting
/// the error (a truncated or corrupt model, an unsupported operator).
MLIR_CAPI_EXPORTED MlirModule mlirRelayImportOnnx(MlirContext ctx,
                                                  MlirStringRef bytes,
                                                  MlirStringRef fileName);

/// mlirRelayImportOnnx for a model whose inputs leave dimensions symbolic
/// (a batch size): graph input `names[i]` gets the shape of `ranks[i]`
/// dimensions taken in turn from `dims` (the shapes one after another). A
/// shape must keep the model's fixed dimensions; a name must be an
/// input's. Returns a null module after reporting the error.
MLIR_CAPI_EXPORTED MlirModule mlirRelayImportOnnxWithInputShapes(
    MlirContext ctx, MlirStringRef bytes, MlirStringRef fileName,
    intptr_t numInputs, const MlirStringRef *names, const intptr_t *ranks,
    const int64_t *dims);

/// Writes `module` as Relay text through `callback` (in pieces). Fails
/// after reporting what Relay text cannot express.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirRelayExportText(
    MlirModule module, MlirStringCallback callback, void *userData);

/// Type-checks `module` in place (--relay-infer-types: fills in omitted
/// types, instantiates polymorphic calls) and decomposes composite
/// operators into the primitive ones the compiler and the interpreter
/// implement (--relay-decompose). Fails after reporting an ill-typed
/// program at the offending expression.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirRelayInferTypes(MlirModule module);

/// A copy of `module` (checked by mlirRelayInferTypes) compiled for inputs
/// of given sizes: parameter `i` of `entry` whose type leaves dimensions
/// `?` takes the shape of `ranks[i]` dimensions taken in turn from `dims`
/// (a rank of -1 leaves the parameter as it is), and what was typed from
/// them is typed again, each global function called with the sizes gets a
/// copy typed for them (relay-run does this with its --input files; native
/// code is for static shapes). Returns a null module where nothing was
/// bound or the program does not type for these sizes (a closure applied
/// at two shapes): `module` then runs as written, on the interpreter.
MLIR_CAPI_EXPORTED MlirModule mlirRelayBindInputShapes(MlirModule module,
                                                       MlirStringRef entry,
                                                       intptr_t numInputs,
                                                       const intptr_t *ranks,
                                                       const int64_t *dims);

/// Whether `entry` is a polymorphic function of `module` (`def
/// @main[n : ShapeVar](%x: Tensor[(n, 4), float32])`, `def @id[A](%x: A)`):
/// such an entry is compiled for the types of the inputs it is called with
/// (mlirRelayInstantiateEntry).
MLIR_CAPI_EXPORTED bool mlirRelayEntryIsPolymorphic(MlirModule module,
                                                    MlirStringRef entry);

/// A copy of `module` (checked by mlirRelayInferTypes) in which the
/// polymorphic `entry` is renamed `<entry>_poly` and a monomorphic
/// `@<entry>` taking `inputTypes` (one per parameter) calls it, its type
/// arguments inferred from them: what relay-run runs for inputs of those
/// types. Returns a null module where `entry` is not polymorphic, and after
/// reporting, at the call, inputs its signature does not take (two sizes
/// for one `n`, a float64 tensor where it says float32).
MLIR_CAPI_EXPORTED MlirModule
mlirRelayInstantiateEntry(MlirModule module, MlirStringRef entry,
                          intptr_t numInputs, const MlirType *inputTypes);

/// Adds `@<entry>_grad` to a module mlirRelayInferTypes has checked: it
/// takes the entry's parameters and returns `(entry(x...), (d/dx1, ...))`,
/// the result seeded by ones (relay-run --gradient: first-order mode where
/// the inlined entry allows it, else higher-order then the partial
/// evaluator). Fails after reporting what cannot be differentiated.
MLIR_CAPI_EXPORTED MlirLogicalResult
mlirRelayDifferentiate(MlirModule module, MlirStringRef entry);

#ifdef __cplusplus
}
#endif

#endif // RELAY_MLIR_CAPI_TRANSLATION_H

/*===- Types.h - C API: Relay's types ----------------------------*- C -*-===*\
|*                                                                            *|
|* Constructors and queries of the types Relay adds to MLIR's: type          *|
|* variables (`!relay.tvar<a : Shape>`), tensors with symbolic shapes or     *|
|* dtypes (`!relay.tensor<[n, ?, 3], f32>`), function and closure types      *|
|* (`!relay.fn<(...) -> ...>`), references (`!relay.ref<T>`), ADT type calls *|
|* (`!relay.adt<@List, T>`) and incomplete types (`!relay.incomplete`).      *|
|* Tensors of concrete shape (`?` allowed) and dtype are MLIR's builtin      *|
|* ranked tensors (mlirRankedTensorTypeGet).                                 *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef RELAY_MLIR_CAPI_TYPES_H
#define RELAY_MLIR_CAPI_TYPES_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Where a type variable may stand.
typedef enum MlirRelayTypeKind {
  MlirRelayTypeKindType = 0,     ///< A whole type.
  MlirRelayTypeKindShape = 1,    ///< The shape of a tensor.
  MlirRelayTypeKindBaseType = 2, ///< The dtype of a tensor.
  MlirRelayTypeKindShapeVar = 3, ///< One dimension of a tensor.
} MlirRelayTypeKind;

//===----------------------------------------------------------------------===//
// Type variables
//===----------------------------------------------------------------------===//

MLIR_CAPI_EXPORTED bool mlirTypeIsARelayTypeVarType(MlirType type);
/// `!relay.tvar<name : kind>`.
MLIR_CAPI_EXPORTED MlirType mlirRelayTypeVarTypeGet(MlirContext ctx,
                                                    MlirStringRef name,
                                                    MlirRelayTypeKind kind);
MLIR_CAPI_EXPORTED MlirStringRef mlirRelayTypeVarTypeGetName(MlirType type);
MLIR_CAPI_EXPORTED MlirRelayTypeKind mlirRelayTypeVarTypeGetKind(MlirType type);

//===----------------------------------------------------------------------===//
// Tensors with a symbolic shape or dtype
//===----------------------------------------------------------------------===//

/// One dimension of a symbolic tensor: a size, Any (`?`), or a ShapeVar
/// variable's name.
typedef struct MlirRelayDim {
  /// The size when `name` is empty; mlirShapedTypeGetDynamicSize() for Any.
  int64_t size;
  /// A ShapeVar variable's name, or an empty string.
  MlirStringRef name;
} MlirRelayDim;

MLIR_CAPI_EXPORTED bool mlirTypeIsARelayPolyTensorType(MlirType type);
/// `!relay.tensor<[dims], dtype>`: `dtype` is a builtin integer or float
/// type or a BaseType variable. Returns a null type and emits a diagnostic
/// at `loc` when the type is invalid; where every dimension is a size or
/// Any and the dtype is concrete, returns the builtin ranked tensor.
MLIR_CAPI_EXPORTED MlirType mlirRelayPolyTensorTypeGetChecked(
    MlirLocation loc, intptr_t rank, const MlirRelayDim *dims, MlirType dtype);
/// `!relay.tensor<shapeVar, dtype>`: the shape is a Shape variable.
MLIR_CAPI_EXPORTED MlirType mlirRelayPolyTensorTypeGetWithShapeVar(
    MlirLocation loc, MlirStringRef shapeVar, MlirType dtype);
/// Whether the shape is a Shape variable (then its rank is unknown).
MLIR_CAPI_EXPORTED bool mlirRelayPolyTensorTypeHasShapeVar(MlirType type);
MLIR_CAPI_EXPORTED MlirStringRef
mlirRelayPolyTensorTypeGetShapeVar(MlirType type);
/// The number of dimensions; -1 when the shape is a Shape variable.
MLIR_CAPI_EXPORTED intptr_t mlirRelayPolyTensorTypeGetRank(MlirType type);
MLIR_CAPI_EXPORTED MlirRelayDim mlirRelayPolyTensorTypeGetDim(MlirType type,
                                                              intptr_t pos);
/// The dtype: a builtin type or a BaseType variable.
MLIR_CAPI_EXPORTED MlirType mlirRelayPolyTensorTypeGetDtype(MlirType type);

//===----------------------------------------------------------------------===//
// Function and closure types
//===----------------------------------------------------------------------===//

MLIR_CAPI_EXPORTED bool mlirTypeIsARelayFuncType(MlirType type);
/// `!relay.fn<[typeParams](inputs) -> result>` (no type relations); the
/// type parameters are type variables.
MLIR_CAPI_EXPORTED MlirType mlirRelayFuncTypeGet(
    MlirContext ctx, intptr_t numTypeParams, const MlirType *typeParams,
    intptr_t numInputs, const MlirType *inputs, MlirType result);
MLIR_CAPI_EXPORTED intptr_t mlirRelayFuncTypeGetNumTypeParams(MlirType type);
MLIR_CAPI_EXPORTED MlirType mlirRelayFuncTypeGetTypeParam(MlirType type,
                                                          intptr_t pos);
MLIR_CAPI_EXPORTED intptr_t mlirRelayFuncTypeGetNumInputs(MlirType type);
MLIR_CAPI_EXPORTED MlirType mlirRelayFuncTypeGetInput(MlirType type,
                                                      intptr_t pos);
MLIR_CAPI_EXPORTED MlirType mlirRelayFuncTypeGetResult(MlirType type);
/// The type relations (`where Broadcast(...)`) the type carries.
MLIR_CAPI_EXPORTED intptr_t mlirRelayFuncTypeGetNumRelations(MlirType type);

//===----------------------------------------------------------------------===//
// References, ADTs, incomplete types
//===----------------------------------------------------------------------===//

MLIR_CAPI_EXPORTED bool mlirTypeIsARelayRefType(MlirType type);
/// `!relay.ref<elementType>`.
MLIR_CAPI_EXPORTED MlirType mlirRelayRefTypeGet(MlirType elementType);
MLIR_CAPI_EXPORTED MlirType mlirRelayRefTypeGetElementType(MlirType type);

MLIR_CAPI_EXPORTED bool mlirTypeIsARelayAdtType(MlirType type);
/// `!relay.adt<@name, args...>`: the ADT the `relay.data` op `name`
/// declares, applied to type arguments.
MLIR_CAPI_EXPORTED MlirType mlirRelayAdtTypeGet(MlirContext ctx,
                                                MlirStringRef name,
                                                intptr_t numArgs,
                                                const MlirType *args);
MLIR_CAPI_EXPORTED MlirStringRef mlirRelayAdtTypeGetName(MlirType type);
MLIR_CAPI_EXPORTED intptr_t mlirRelayAdtTypeGetNumArgs(MlirType type);
MLIR_CAPI_EXPORTED MlirType mlirRelayAdtTypeGetArg(MlirType type, intptr_t pos);

MLIR_CAPI_EXPORTED bool mlirTypeIsARelayIncompleteType(MlirType type);
/// `!relay.incomplete`: an omitted annotation, for type inference to fill.
MLIR_CAPI_EXPORTED MlirType mlirRelayIncompleteTypeGet(MlirContext ctx);

/// The type of a value that is either of `a` or of `b`, by sizes: tensors of
/// one rank and dtype with `?` where their sizes differ, tuples and ADT types
/// field by field (an `!relay.incomplete` ADT argument takes the other's);
/// a null type where they differ otherwise. What relay-run and the Python
/// package make of a list's elements or of the values given for a
/// polymorphic entry's parameter.
MLIR_CAPI_EXPORTED MlirType mlirRelayTypeJoin(MlirType a, MlirType b);

#ifdef __cplusplus
}
#endif

#endif // RELAY_MLIR_CAPI_TYPES_H

//===- Types.cpp - C API: Relay's types -------------------------*- C++ -*-===//

#include "capi/Types.h"

#include "dialects/relay/RelayTypes.h"
#include "dialects/relay/TypeUtils.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::relay;

static MlirStringRef wrapOrEmpty(StringAttr attr) {
  return attr ? wrap(attr.getValue()) : mlirStringRefCreate(nullptr, 0);
}

//===----------------------------------------------------------------------===//
// Type variables
//===----------------------------------------------------------------------===//

bool mlirTypeIsARelayTypeVarType(MlirType type) {
  return isa<TypeVarType>(unwrap(type));
}

MlirType mlirRelayTypeVarTypeGet(MlirContext ctx, MlirStringRef name,
                                 MlirRelayTypeKind kind) {
  return wrap(
      TypeVarType::get(unwrap(ctx), unwrap(name), static_cast<TypeKind>(kind)));
}

MlirStringRef mlirRelayTypeVarTypeGetName(MlirType type) {
  return wrap(cast<TypeVarType>(unwrap(type)).getName());
}

MlirRelayTypeKind mlirRelayTypeVarTypeGetKind(MlirType type) {
  return static_cast<MlirRelayTypeKind>(
      cast<TypeVarType>(unwrap(type)).getKind());
}

//===----------------------------------------------------------------------===//
// Tensors with a symbolic shape or dtype
//===----------------------------------------------------------------------===//

bool mlirTypeIsARelayPolyTensorType(MlirType type) {
  return isa<PolyTensorType>(unwrap(type));
}

/// A concrete shape and dtype are the builtin tensor; the rest is checked
/// by the type's verifier, reported at `loc`.
static MlirType getPolyTensor(MlirLocation loc, StringAttr shapeVar,
                              ArrayRef<Attribute> dims, MlirType dtype) {
  Location location = unwrap(loc);
  Type elementType = unwrap(dtype);
  bool concrete = !shapeVar && !isa<TypeVarType>(elementType) &&
                  llvm::all_of(dims, llvm::IsaPred<IntegerAttr>);
  if (concrete && elementType.isIntOrIndexOrFloat()) {
    SmallVector<int64_t> shape;
    for (Attribute dim : dims) {
      int64_t size = cast<IntegerAttr>(dim).getInt();
      if (size < 0 && !ShapedType::isDynamic(size)) {
        emitError(location)
            << "tensor dimension must be non-negative, got " << size;
        return {nullptr};
      }
      shape.push_back(size);
    }
    return wrap(RankedTensorType::get(shape, elementType));
  }
  return wrap(PolyTensorType::getChecked([&] { return emitError(location); },
                                         location.getContext(), shapeVar, dims,
                                         elementType));
}

MlirType mlirRelayPolyTensorTypeGetChecked(MlirLocation loc, intptr_t rank,
                                           const MlirRelayDim *dims,
                                           MlirType dtype) {
  MLIRContext *ctx = unwrap(loc)->getContext();
  SmallVector<Attribute> dimAttrs;
  for (intptr_t i = 0; i < rank; ++i) {
    if (dims[i].name.length)
      dimAttrs.push_back(StringAttr::get(ctx, unwrap(dims[i].name)));
    else
      dimAttrs.push_back(
          IntegerAttr::get(IntegerType::get(ctx, 64), dims[i].size));
  }
  return getPolyTensor(loc, nullptr, dimAttrs, dtype);
}

MlirType mlirRelayPolyTensorTypeGetWithShapeVar(MlirLocation loc,
                                                MlirStringRef shapeVar,
                                                MlirType dtype) {
  MLIRContext *ctx = unwrap(loc)->getContext();
  return getPolyTensor(loc, StringAttr::get(ctx, unwrap(shapeVar)), {}, dtype);
}

bool mlirRelayPolyTensorTypeHasShapeVar(MlirType type) {
  return cast<PolyTensorType>(unwrap(type)).hasShapeVar();
}

MlirStringRef mlirRelayPolyTensorTypeGetShapeVar(MlirType type) {
  return wrapOrEmpty(cast<PolyTensorType>(unwrap(type)).getShapeVar());
}

intptr_t mlirRelayPolyTensorTypeGetRank(MlirType type) {
  auto tensor = cast<PolyTensorType>(unwrap(type));
  return tensor.hasShapeVar() ? -1 : intptr_t(tensor.getDims().size());
}

MlirRelayDim mlirRelayPolyTensorTypeGetDim(MlirType type, intptr_t pos) {
  Attribute dim = cast<PolyTensorType>(unwrap(type)).getDims()[pos];
  if (auto size = dyn_cast<IntegerAttr>(dim))
    return {size.getInt(), mlirStringRefCreate(nullptr, 0)};
  return {0, wrap(cast<StringAttr>(dim).getValue())};
}

MlirType mlirRelayPolyTensorTypeGetDtype(MlirType type) {
  return wrap(cast<PolyTensorType>(unwrap(type)).getDtype());
}

//===----------------------------------------------------------------------===//
// Function and closure types
//===----------------------------------------------------------------------===//

bool mlirTypeIsARelayFuncType(MlirType type) {
  return isa<FuncType>(unwrap(type));
}

MlirType mlirRelayFuncTypeGet(MlirContext ctx, intptr_t numTypeParams,
                              const MlirType *typeParams, intptr_t numInputs,
                              const MlirType *inputs, MlirType result) {
  SmallVector<TypeVarType> params;
  for (intptr_t i = 0; i < numTypeParams; ++i)
    params.push_back(cast<TypeVarType>(unwrap(typeParams[i])));
  SmallVector<Type> inputTypes;
  for (intptr_t i = 0; i < numInputs; ++i)
    inputTypes.push_back(unwrap(inputs[i]));
  return wrap(FuncType::get(unwrap(ctx), params, inputTypes, unwrap(result),
                            ArrayRef<TypeRelationAttr>()));
}

intptr_t mlirRelayFuncTypeGetNumTypeParams(MlirType type) {
  return cast<FuncType>(unwrap(type)).getTypeParams().size();
}

MlirType mlirRelayFuncTypeGetTypeParam(MlirType type, intptr_t pos) {
  return wrap(cast<FuncType>(unwrap(type)).getTypeParams()[pos]);
}

intptr_t mlirRelayFuncTypeGetNumInputs(MlirType type) {
  return cast<FuncType>(unwrap(type)).getNumInputs();
}

MlirType mlirRelayFuncTypeGetInput(MlirType type, intptr_t pos) {
  return wrap(cast<FuncType>(unwrap(type)).getInputs()[pos]);
}

MlirType mlirRelayFuncTypeGetResult(MlirType type) {
  return wrap(cast<FuncType>(unwrap(type)).getResult());
}

intptr_t mlirRelayFuncTypeGetNumRelations(MlirType type) {
  return cast<FuncType>(unwrap(type)).getRelations().size();
}

//===----------------------------------------------------------------------===//
// References, ADTs, incomplete types
//===----------------------------------------------------------------------===//

bool mlirTypeIsARelayRefType(MlirType type) {
  return isa<RefType>(unwrap(type));
}

MlirType mlirRelayRefTypeGet(MlirType elementType) {
  Type element = unwrap(elementType);
  return wrap(RefType::get(element.getContext(), element));
}

MlirType mlirRelayRefTypeGetElementType(MlirType type) {
  return wrap(cast<RefType>(unwrap(type)).getElementType());
}

bool mlirTypeIsARelayAdtType(MlirType type) {
  return isa<AdtType>(unwrap(type));
}

MlirType mlirRelayAdtTypeGet(MlirContext ctx, MlirStringRef name,
                             intptr_t numArgs, const MlirType *args) {
  SmallVector<Type> argTypes;
  for (intptr_t i = 0; i < numArgs; ++i)
    argTypes.push_back(unwrap(args[i]));
  MLIRContext *context = unwrap(ctx);
  return wrap(
      AdtType::get(context, StringAttr::get(context, unwrap(name)), argTypes));
}

MlirStringRef mlirRelayAdtTypeGetName(MlirType type) {
  return wrap(cast<AdtType>(unwrap(type)).getName().getValue());
}

intptr_t mlirRelayAdtTypeGetNumArgs(MlirType type) {
  return cast<AdtType>(unwrap(type)).getArgs().size();
}

MlirType mlirRelayAdtTypeGetArg(MlirType type, intptr_t pos) {
  return wrap(cast<AdtType>(unwrap(type)).getArgs()[pos]);
}

bool mlirTypeIsARelayIncompleteType(MlirType type) {
  return isa<IncompleteType>(unwrap(type));
}

MlirType mlirRelayIncompleteTypeGet(MlirContext ctx) {
  return wrap(IncompleteType::get(unwrap(ctx)));
}

MlirType mlirRelayTypeJoin(MlirType a, MlirType b) {
  if (mlirTypeIsNull(a) || mlirTypeIsNull(b))
    return {nullptr};
  return wrap(relay::joinTypes(unwrap(a), unwrap(b)));
}

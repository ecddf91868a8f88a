//===- RelayScopes.cpp - Scoping of Relay type variables --------*- C++ -*-===//

#include "dialects/relay/RelayScopes.h"
#include "dialects/relay/RelayOps.h"
#include "dialects/relay/TypeUtils.h"

#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::relay;

SmallVector<TypeVarType> mlir::relay::getTypeParamsInScope(Operation *op) {
  SmallVector<TypeVarType> params;
  for (Operation *cur = op; cur; cur = cur->getParentOp()) {
    if (auto func = dyn_cast<FuncOp>(cur))
      llvm::append_range(params, func.getTypeParamList());
    else if (auto fn = dyn_cast<FnOp>(cur))
      llvm::append_range(params, fn.getFuncType().getTypeParams());
    else if (auto data = dyn_cast<DataOp>(cur))
      llvm::append_range(params, data.getTypeParamList());
  }
  return params;
}

namespace {
/// Walks a type with the variables bound so far (innermost binding wins).
struct ScopeChecker {
  Operation *op;
  llvm::StringMap<TypeKind> bound;

  LogicalResult use(StringRef name, TypeKind kind) {
    auto it = bound.find(name);
    if (it == bound.end())
      return op->emitOpError("uses type variable '")
             << name << "', which no enclosing type parameter list binds";
    if (it->second != kind)
      return op->emitOpError("uses type variable '")
             << name << "' as a " << stringifyTypeKind(kind)
             << ", but it is declared with kind "
             << stringifyTypeKind(it->second);
    return success();
  }

  LogicalResult check(Type type) {
    if (auto fn = dyn_cast<FuncType>(type)) {
      ScopeChecker inner{op, bound};
      for (TypeVarType param : fn.getTypeParams())
        inner.bound[param.getName()] = param.getKind();
      for (Type input : fn.getInputs())
        if (failed(inner.check(input)))
          return failure();
      for (TypeRelationAttr rel : fn.getRelations())
        for (Type arg : rel.getArgs())
          if (failed(inner.check(arg)))
            return failure();
      return inner.check(fn.getResult());
    }
    if (auto var = dyn_cast<TypeVarType>(type))
      return use(var.getName(), var.getKind());
    if (auto poly = dyn_cast<PolyTensorType>(type)) {
      LogicalResult result = success();
      walkTypeVars(poly, [&](StringRef name, TypeKind kind) {
        if (succeeded(result))
          result = use(name, kind);
      });
      return result;
    }
    if (auto tuple = dyn_cast<TupleType>(type)) {
      for (Type t : tuple.getTypes())
        if (failed(check(t)))
          return failure();
      return success();
    }
    if (auto ref = dyn_cast<RefType>(type))
      return check(ref.getElementType());
    if (auto adt = dyn_cast<AdtType>(type)) {
      for (Type t : adt.getArgs())
        if (failed(check(t)))
          return failure();
      return success();
    }
    return success();
  }
};
} // namespace

LogicalResult mlir::relay::verifyTypeParamsAttr(Operation *op,
                                                ArrayAttr params) {
  if (!params)
    return success();
  for (Attribute param : params)
    if (!isa<TypeVarType>(cast<TypeAttr>(param).getValue()))
      return op->emitOpError("type parameters must be !relay.tvar types, got ")
             << param;
  return success();
}

LogicalResult mlir::relay::verifyTypeVarsInScope(Operation *op,
                                                 ArrayRef<Type> types) {
  ScopeChecker checker{op, {}};
  // Outer bindings first, so inner ones shadow them.
  SmallVector<TypeVarType> params = getTypeParamsInScope(op);
  for (TypeVarType param : llvm::reverse(params))
    checker.bound[param.getName()] = param.getKind();
  for (Type type : types)
    if (failed(checker.check(type)))
      return failure();
  return success();
}

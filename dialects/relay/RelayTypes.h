//===- RelayTypes.h - Relay types -------------------------------*- C++ -*-===//
//
// The Relay types builtin MLIR lacks: functions and closures, references,
// ADT type calls, type variables, symbolic tensors and incomplete types.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_DIALECTS_RELAY_RELAYTYPES_H
#define RELAY_MLIR_DIALECTS_RELAY_RELAYTYPES_H

#include "dialects/relay/RelayAttrs.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#include <optional>

namespace mlir::relay {

/// The kind of a type variable: where it may stand.
enum class TypeKind : uint32_t {
  Type,     ///< A whole type.
  Shape,    ///< The shape of a tensor.
  BaseType, ///< The dtype of a tensor.
  ShapeVar, ///< One dimension of a tensor.
};

llvm::StringRef stringifyTypeKind(TypeKind kind);
std::optional<TypeKind> symbolizeTypeKind(llvm::StringRef name);

inline llvm::hash_code hash_value(TypeKind kind) {
  return llvm::hash_value(static_cast<uint32_t>(kind));
}

} // namespace mlir::relay

#define GET_TYPEDEF_CLASSES
#include "dialects/relay/RelayTypes.h.inc"

namespace mlir::relay {

/// Parses `[a, s : Shape, ...]` (the brackets included) if present.
ParseResult parseOptionalTypeParams(AsmParser &parser,
                                    SmallVectorImpl<TypeVarType> &params);
/// Prints `[a, s : Shape]`, or nothing for an empty list.
void printTypeParams(AsmPrinter &printer, ArrayRef<TypeVarType> params);

/// Parses ` where Rel(T, ...), Rel2(...)` if present.
ParseResult parseOptionalRelations(AsmParser &parser,
                                   SmallVectorImpl<TypeRelationAttr> &rels);
void printRelations(AsmPrinter &printer, ArrayRef<TypeRelationAttr> rels);

/// Converts a TypeArrayAttr of type variables (as stored on ops) to a list.
SmallVector<TypeVarType> getTypeVarList(ArrayAttr attr);
/// The reverse; returns null for an empty list, so the attribute is elided.
ArrayAttr getTypeVarArrayAttr(MLIRContext *ctx, ArrayRef<TypeVarType> params);

} // namespace mlir::relay

#endif // RELAY_MLIR_DIALECTS_RELAY_RELAYTYPES_H

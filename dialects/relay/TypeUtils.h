//===- TypeUtils.h - Relay type utilities -----------------------*- C++ -*-===//
//
// Structural questions on Relay types shared by verifiers, the builder API
// and later passes: compatibility, substitution of type variables, and the
// canonical construction of tensor types.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_DIALECTS_RELAY_TYPEUTILS_H
#define RELAY_MLIR_DIALECTS_RELAY_TYPEUTILS_H

#include "dialects/relay/RelayTypes.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::relay {

/// Returns true if `a` and `b` may describe the same values: equal, or equal
/// up to the parts still unknown (`!relay.incomplete`, type variables, `?`
/// dimensions). Verifiers use it before type inference has run; inference
/// makes the types exact.
bool areCompatible(Type a, Type b);

/// Returns true if `type` is a 0-d bool tensor (Relay's `bool`), or may
/// become one (it is incomplete or a type variable).
bool mayBeBoolScalar(Type type);

/// Returns true if `type` contains no incomplete type and no type variable.
bool isConcrete(Type type);

/// Returns true if `type` is a tensor of static shape or a tuple (nested or
/// not) of them: what compiled code takes and returns.
bool isStaticTensorData(Type type);

/// Returns true if `type` has a tensor with a `?` dimension anywhere in it
/// (tuple fields, function, ADT and reference type arguments).
bool hasDynamicTensor(Type type);

/// The type of a value that is either of `a` or of `b`, by sizes: tensors
/// of one rank and dtype with `?` where their sizes differ, tuples and ADT
/// types (a List, an Option) field by field, an ADT argument not known yet
/// (`!relay.incomplete`: an empty list's element) taking the other's. Null
/// where they differ otherwise. Where two branches, the elements of a list
/// or the values given for one parameter meet.
Type joinTypes(Type a, Type b);

/// A substitution of type variables by name. The value's form follows the
/// variable's kind: TypeAttr (Type, BaseType), DenseI64ArrayAttr of sizes
/// (Shape; ShapedType::kDynamic for `?`), IntegerAttr (ShapeVar), or a
/// StringAttr renaming the variable.
using TypeSubstitution = llvm::DenseMap<StringRef, Attribute>;

/// Replaces the variables of `type` that `subst` maps. Variables bound by a
/// nested polymorphic function type are left alone.
Type substitute(Type type, const TypeSubstitution &subst);

/// Finds the values of `pattern`'s type variables that make it `concrete`
/// (a one-way match: `concrete` has no variables of its own), adding them to
/// `subst`. Fails when the structures differ or a variable would take two
/// values. Variables bound by a nested polymorphic function type in
/// `pattern` are not matched.
LogicalResult matchTypeVars(Type pattern, Type concrete,
                            TypeSubstitution &subst);

/// Checks that `arg` is a well-formed type argument for `param`'s kind.
LogicalResult verifyTypeArgument(TypeVarType param, Attribute arg,
                                 function_ref<InFlightDiagnostic()> emitError);

/// A tensor type from a possibly symbolic shape and dtype: the builtin
/// `tensor<...>` when everything is concrete, else `!relay.tensor`. Dims are
/// IntegerAttr (size or kDynamic) or StringAttr (ShapeVar name).
Type makeTensorType(MLIRContext *ctx, StringAttr shapeVar,
                    ArrayRef<Attribute> dims, Type dtype);

/// Calls `fn` on every type variable that occurs in `type`, with its kind as
/// it is used there (so a tensor's shape variable is reported as Shape).
void walkTypeVars(Type type, function_ref<void(StringRef, TypeKind)> fn);

/// The bytes a value of the static tensor type `type` holds (at least one
/// per element); nullopt when that count does not fit in 63 bits (no
/// machine could hold it, and size arithmetic on it would overflow) or is
/// the largest int64, where the relations' dimension arithmetic saturates.
std::optional<int64_t> staticTensorBytes(RankedTensorType type);

/// The first static tensor type within `type` (itself, a tuple's field, a
/// function's parameter or result, ...) for which `pred` holds; null when
/// there is none.
RankedTensorType findTensorType(Type type,
                                function_ref<bool(RankedTensorType)> pred);

/// The first value defined within `root` (in pre-order: an op's region
/// arguments before the ops of the region, then its results) whose type
/// holds a static tensor type for which `pred` holds (findTensorType): that
/// tensor type and the value's location; nullopt when there is none.
std::optional<std::pair<RankedTensorType, Location>>
findTensorValue(Operation *root, function_ref<bool(RankedTensorType)> pred);

} // namespace mlir::relay

#endif // RELAY_MLIR_DIALECTS_RELAY_TYPEUTILS_H

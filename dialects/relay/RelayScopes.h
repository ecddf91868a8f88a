//===- RelayScopes.h - Scoping of Relay type variables ----------*- C++ -*-===//
//
// Type variables are bound by the type parameter lists of relay.func,
// relay.fn (in its !relay.fn type), relay.data and nested !relay.fn types.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_DIALECTS_RELAY_RELAYSCOPES_H
#define RELAY_MLIR_DIALECTS_RELAY_RELAYSCOPES_H

#include "dialects/relay/RelayTypes.h"
#include "mlir/IR/Operation.h"

namespace mlir::relay {

/// The type parameters bound at `op`: its own and those of every enclosing
/// relay.func, relay.fn and relay.data.
SmallVector<TypeVarType> getTypeParamsInScope(Operation *op);

/// Checks that a `type_params` attribute holds only `!relay.tvar` types.
LogicalResult verifyTypeParamsAttr(Operation *op, ArrayAttr params);

/// Checks that every type variable in `types` is bound at `op` (or by a
/// function type inside the type) and is used at its declared kind. Reports
/// on `op`.
LogicalResult verifyTypeVarsInScope(Operation *op, ArrayRef<Type> types);

} // namespace mlir::relay

#endif // RELAY_MLIR_DIALECTS_RELAY_RELAYSCOPES_H

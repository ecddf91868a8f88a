//===- TypeRelations.h - Relay type relations -------------------*- C++ -*-===//
//
// Type relations: the pure functions that type Relay's operators. Each takes
// the operand types (some maybe still unknown) and returns the result type
// they imply, a null type when too little is known yet, or failure after
// reporting why with emitOptionalError. Op verifiers and type inference call
// the same functions.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_DIALECTS_RELAY_TYPERELATIONS_H
#define RELAY_MLIR_DIALECTS_RELAY_TYPERELATIONS_H

#include "mlir/IR/Location.h"
#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir::relay {

/// Broadcast (and BroadcastToBool when `toBool`): both operands are tensors
/// of one dtype whose shapes broadcast by numpy's rules; the result has the
/// broadcast shape and that dtype (or `i1`). `opName` names the operator in
/// diagnostics.
FailureOr<Type> inferBroadcastType(std::optional<Location> loc,
                                   StringRef opName, Type lhs, Type rhs,
                                   bool toBool);

/// Broadcasts two shapes by numpy's rules (`ShapedType::kDynamic` is `?`);
/// fails when a pair of dimensions is incompatible.
FailureOr<SmallVector<int64_t>> broadcastShapes(ArrayRef<int64_t> a,
                                                ArrayRef<int64_t> b);

} // namespace mlir::relay

#endif // RELAY_MLIR_DIALECTS_RELAY_TYPERELATIONS_H

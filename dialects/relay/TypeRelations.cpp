//===- TypeRelations.cpp - Relay type relations -----------------*- C++ -*-===//

#include "dialects/relay/TypeRelations.h"

#include "dialects/relay/RelayTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::relay;

FailureOr<SmallVector<int64_t>>
mlir::relay::broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Align from the right; a missing dimension acts as 1.
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da == db)
      result[i] = da;
    else if (da == 1)
      result[i] = db;
    else if (db == 1)
      result[i] = da;
    else if (ShapedType::isDynamic(da))
      result[i] = db; // `?` must equal the static size to broadcast
    else if (ShapedType::isDynamic(db))
      result[i] = da;
    else
      return failure();
  }
  return result;
}

FailureOr<Type> mlir::relay::inferBroadcastType(std::optional<Location> loc,
                                                StringRef opName, Type lhs,
                                                Type rhs, bool toBool) {
  auto lhsTensor = dyn_cast<RankedTensorType>(lhs);
  auto rhsTensor = dyn_cast<RankedTensorType>(rhs);
  // Anything that cannot be a tensor is an error now; symbolic or unknown
  // operands are left to type inference.
  for (Type t : {lhs, rhs})
    if (!isa<TensorType, PolyTensorType, IncompleteType, TypeVarType>(t))
      return emitOptionalError(loc, opName, ": expected a tensor, got ", t);
  if (!lhsTensor || !rhsTensor)
    return Type();
  if (lhsTensor.getElementType() != rhsTensor.getElementType())
    return emitOptionalError(loc, opName, ": dtype mismatch between ", lhs,
                             " and ", rhs);
  FailureOr<SmallVector<int64_t>> shape =
      broadcastShapes(lhsTensor.getShape(), rhsTensor.getShape());
  if (failed(shape))
    return emitOptionalError(loc, opName, ": cannot broadcast ", lhs, " with ",
                             rhs);
  Type dtype = toBool ? IntegerType::get(lhs.getContext(), 1)
                      : lhsTensor.getElementType();
  return Type(RankedTensorType::get(*shape, dtype));
}

//===- RelayOperators.cpp - Relay operators ---------------------*- C++ -*-===//
//
// Operator ops and their verifiers: each checks its type relation on the
// operand types and that the result type agrees with the relation's.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelayOps.h"
#include "dialects/relay/TypeRelations.h"
#include "dialects/relay/TypeUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::relay;

/// Verifies an operator typed by Broadcast (or BroadcastToBool).
static LogicalResult verifyBroadcastOperator(Operation *op, bool toBool) {
  StringRef name = op->getName().stripDialect();
  FailureOr<Type> inferred =
      inferBroadcastType(op->getLoc(), name, op->getOperand(0).getType(),
                         op->getOperand(1).getType(), toBool);
  if (failed(inferred))
    return failure();
  Type result = op->getResult(0).getType();
  if (*inferred && !areCompatible(result, *inferred))
    return op->emitOpError("result type ")
           << result << " does not match the broadcast type " << *inferred;
  return success();
}

#define GET_OP_CLASSES
#include "dialects/relay/RelayOperators.cpp.inc"

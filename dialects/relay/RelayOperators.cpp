//===- RelayOperators.cpp - Relay operators ---------------------*- C++ -*-===//
//
// The ODS-generated operator ops. Each verifies through its type relation
// (verifyOperator in OperatorRegistry.cpp).
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelayOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::relay;

#define GET_OP_CLASSES
#include "dialects/relay/RelayOperators.cpp.inc"

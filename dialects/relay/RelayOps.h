//===- RelayOps.h - Relay ops -----------------------------------*- C++ -*-===//
//
// The relay dialect's ops: the language core (RelayOps.td) and the operators
// (RelayOperators.td). Include this header to use the dialect.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_DIALECTS_RELAY_RELAYOPS_H
#define RELAY_MLIR_DIALECTS_RELAY_RELAYOPS_H

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayDialect.h"
#include "dialects/relay/RelayTypes.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::relay {
/// The store of reference cells, read, written and allocated by ref ops.
struct RefResource : public SideEffects::Resource::Base<RefResource> {
  StringRef getName() final { return "relay.ref"; }
};
} // namespace mlir::relay

#define GET_OP_CLASSES
#include "dialects/relay/RelayOps.h.inc"

#define GET_OP_CLASSES
#include "dialects/relay/RelayOperators.h.inc"

#endif // RELAY_MLIR_DIALECTS_RELAY_RELAYOPS_H

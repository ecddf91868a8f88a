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

/// Relay's variable names live in the NameLoc locations of the values they
/// name (the importers record the source names). Without debug info in the
/// printed IR those would be lost, so functions, closures and match cases
/// print a named parameter with its name as the SSA name, `%data`, and their
/// parsers turn such an SSA name back into a NameLoc (as CIRCT's hw.module
/// keeps port names): the names survive `relay-mlir-opt` and
/// `--export-relay` prints them. MLIR's own names (`%arg0`, `%0`) and
/// explicit `loc(...)` specifiers are left as they are.
void setBlockArgumentNamesFromLocations(Region &region,
                                        OpAsmSetValueNameFn setNameFn);
void setArgumentLocationsFromNames(
    OpAsmParser &parser, MutableArrayRef<OpAsmParser::Argument> arguments);
} // namespace mlir::relay

#define GET_OP_CLASSES
#include "dialects/relay/RelayOps.h.inc"

#define GET_OP_CLASSES
#include "dialects/relay/RelayOperators.h.inc"

#endif // RELAY_MLIR_DIALECTS_RELAY_RELAYOPS_H

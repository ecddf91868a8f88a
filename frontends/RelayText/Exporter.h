//===- Exporter.h - The relay dialect to Relay text -------------*- C++ -*-===//
//
// Prints a module of relay ops as Relay text that TVM's parser (and
// importRelayText) accepts: `type` and `def` definitions with every type the
// IR knows, operator calls with TVM's attribute syntax, pure values as graph
// bindings (`%0 = ...;`), the rest as `let`s, and tensor constants as
// `meta[relay.Constant][n]` with a `#[metadata]` section. Names come from
// the values' NameLoc locations (the importer records the source names).
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_FRONTENDS_RELAYTEXT_EXPORTER_H
#define RELAY_MLIR_FRONTENDS_RELAYTEXT_EXPORTER_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir::relay::text {

/// Prints `module` as Relay text; fails (reporting at the op) on what Relay
/// text cannot express.
LogicalResult exportRelayText(ModuleOp module, raw_ostream &os);

/// Registers --import-relay and --export-relay with mlir-translate.
void registerRelayTextTranslations();

} // namespace mlir::relay::text

#endif // RELAY_MLIR_FRONTENDS_RELAYTEXT_EXPORTER_H

//===- Importer.h - Relay text to the relay dialect -------------*- C++ -*-===//
//
// Imports Relay programs in TVM's text format (version 0.0.5) into relay
// dialect MLIR, and exports them back (Exporter.h). A file is a module
// (`#[version = "0.0.5"]`, `def`s, `type`s, an optional `#[metadata]`
// section) or a single expression (with `free_var` declarations), which
// becomes `@main`. Every op carries its file:line:col location. Types the
// text leaves out are `!relay.incomplete`, for --relay-infer-types.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_FRONTENDS_RELAYTEXT_IMPORTER_H
#define RELAY_MLIR_FRONTENDS_RELAYTEXT_IMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir::relay::text {

struct ImportOptions {
  /// Makes the prelude's ADTs and functions (List, Option, Tree, Nat, map,
  /// foldl, ...) available: those the program uses are copied into it.
  bool prelude = true;
};

/// Imports the main buffer of `sourceMgr`. Errors are reported through the
/// context's diagnostics with file:line:col locations; returns null then.
OwningOpRef<ModuleOp> importRelayText(llvm::SourceMgr &sourceMgr,
                                      MLIRContext *ctx,
                                      const ImportOptions &options = {});

/// The prelude, in Relay text.
StringRef getPreludeText();

} // namespace mlir::relay::text

#endif // RELAY_MLIR_FRONTENDS_RELAYTEXT_IMPORTER_H

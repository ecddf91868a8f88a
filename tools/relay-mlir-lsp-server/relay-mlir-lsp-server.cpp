//===- relay-mlir-lsp-server.cpp - LSP server for relay .mlir files -------===//
//
// MLIR's language server (MlirLspServerMain) with the relay dialect and the
// upstream dialects relay-mlir-opt knows: an editor gets diagnostics (the
// verifiers' and the parser's, at their locations), hovers, go-to-definition
// and references, document symbols and completion in `.mlir` files that
// hold Relay programs.
//
//===----------------------------------------------------------------------===//

#include "tools/init/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::relay::registerAllDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}

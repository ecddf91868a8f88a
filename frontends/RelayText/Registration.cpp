//===- Registration.cpp - Relay text translations ---------------*- C++ -*-===//

#include "frontends/RelayText/Exporter.h"
#include "frontends/RelayText/Importer.h"
#include "support/ImportTranslation.h"

#include "dialects/relay/RelayDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"

using namespace mlir;
using namespace mlir::relay;

void mlir::relay::text::registerRelayTextTranslations() {
  registerImportTranslation(
      "import-relay", "Relay text (TVM format 0.0.5) to relay dialect MLIR",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *ctx) -> OwningOpRef<Operation *> {
        return importRelayText(sourceMgr, ctx);
      },
      [](DialectRegistry &registry) { registry.insert<RelayDialect>(); });
  static TranslateFromMLIRRegistration exportRelay(
      "export-relay", "relay dialect MLIR to Relay text",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError("expected a builtin.module to export");
        return exportRelayText(module, os);
      },
      [](DialectRegistry &registry) {
        // Other dialects parse, so that their ops are reported as not
        // exportable rather than as unknown.
        registry.insert<RelayDialect, func::FuncDialect, arith::ArithDialect>();
      });
}

//===- RelayTextFuzzer.cpp - libFuzzer target for the Relay text parser ---===//
//
// Feeds arbitrary bytes to the Relay text importer and, when they import,
// exports the module again. Any crash, sanitizer report or hang is a bug:
// bad input must only produce diagnostics.
//
//===----------------------------------------------------------------------===//

#include "frontends/RelayText/Exporter.h"
#include "frontends/RelayText/Importer.h"

#include "dialects/relay/RelayDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::MLIRContext context;
  context.loadDialect<mlir::relay::RelayDialect>();
  mlir::ScopedDiagnosticHandler quiet(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.rly"),
      llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::relay::text::importRelayText(sourceMgr, &context);
  if (module) {
    std::string text;
    llvm::raw_string_ostream os(text);
    (void)mlir::relay::text::exportRelayText(*module, os);
  }
  return 0;
}

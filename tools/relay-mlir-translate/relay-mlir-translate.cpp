//===- relay-mlir-translate.cpp - Relay text and MLIR -----------*- C++ -*-===//
//
// mlir-translate with --import-relay (Relay text to relay dialect MLIR),
// --export-relay (back) and --import-onnx (an ONNX model to relay dialect
// MLIR). An import prints the locations of the ops
// (`loc(...)`) unless asked not to, so that a later relay-mlir-opt reports
// errors at the .rly file's lines.
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/OnnxImporter.h"
#include "frontends/RelayText/Exporter.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/ADT/StringRef.h"

#include <vector>

int main(int argc, char **argv) {
  mlir::relay::text::registerRelayTextTranslations();
  mlir::relay::onnx_import::registerOnnxTranslation();
  // Imports keep their source locations in the printed MLIR.
  std::vector<char *> args(argv, argv + argc);
  bool importing = false, debugInfoChosen = false;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    importing |= arg == "--import-relay" || arg == "-import-relay" ||
                 arg == "--import-onnx" || arg == "-import-onnx";
    debugInfoChosen |= arg.contains("mlir-print-debuginfo");
  }
  static char debugInfo[] = "--mlir-print-debuginfo";
  if (importing && !debugInfoChosen)
    args.push_back(debugInfo);
  return mlir::failed(mlir::mlirTranslateMain(
      static_cast<int>(args.size()), args.data(),
      "relay-mlir-translate: Relay text and ONNX <-> relay dialect MLIR\n"));
}

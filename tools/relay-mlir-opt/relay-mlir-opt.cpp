//===- relay-mlir-opt.cpp - relay-mlir optimizer driver ---------*- C++ -*-===//
//
// MlirOptMain with the relay dialect, every relay pass and pipeline, and the
// upstream dialects and passes they use. The input is read 64-byte aligned
// (support/AlignedInput.h): upstream's driver reads a small file or
// standard input unaligned, and MLIR bytecode holding weights then fails to
// load.
//
//===----------------------------------------------------------------------===//

#include "support/AlignedInput.h"
#include "tools/init/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::DialectRegistry registry;
  mlir::relay::registerAllDialects(registry);
  mlir::relay::registerAllPasses();
  auto [inputFile, outputFile] = mlir::registerAndParseCLIOptions(
      argc, argv, "relay-mlir optimizer driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFile, outputFile, registry));
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::relay::openAlignedInputFile(inputFile, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->keep();
  return 0;
}

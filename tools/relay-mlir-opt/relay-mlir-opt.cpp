//===- relay-mlir-opt.cpp - relay-mlir optimizer driver ---------*- C++ -*-===//
//
// MlirOptMain with the relay dialect, every relay pass and pipeline, and the
// upstream dialects and passes they use.
//
//===----------------------------------------------------------------------===//

#include "tools/init/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::relay::registerAllDialects(registry);
  mlir::relay::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "relay-mlir optimizer driver\n", registry));
}

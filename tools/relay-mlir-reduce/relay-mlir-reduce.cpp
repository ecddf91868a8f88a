//===- relay-mlir-reduce.cpp - shrink relay test cases --------------------===//
//
// MLIR's test-case reducer (mlirReduceMain) with the relay dialect and
// every relay pass: given a program and an "interestingness" script (exit 1
// while the program still shows the bug, e.g. a crash of relay-mlir-opt
// with some pass), it removes operations and applies the reducer's
// passes until the program is as small as it can make it:
//
//   relay-mlir-reduce crash.mlir --test=still-crashes.sh \
//       --reduction-tree='traversal-mode=0 test=still-crashes.sh'
//
//===----------------------------------------------------------------------===//

#include "tools/init/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Tools/mlir-reduce/MlirReduceMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::relay::registerAllDialects(registry);
  mlir::relay::registerAllPasses();
  mlir::MLIRContext context(registry);
  return mlir::failed(mlir::mlirReduceMain(argc, argv, context));
}

//===- InitAll.cpp - Register everything relay-mlir provides ----*- C++ -*-===//

#include "tools/init/InitAll.h"
#include "dialects/relay/RelayDialect.h"
#include "transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

void mlir::relay::registerAllDialects(DialectRegistry &registry) {
  registry.insert<RelayDialect, arith::ArithDialect, func::FuncDialect>();
  func::registerInlinerExtension(registry);
}

void mlir::relay::registerAllPasses() {
  // Upstream passes that work on Relay code through its interfaces:
  // --inline, --cse, --canonicalize, --symbol-dce, --sccp, ...
  registerTransformsPasses();
  // relay-mlir's own passes: --relay-*.
  registerRelayPasses();
}

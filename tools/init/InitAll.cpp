//===- InitAll.cpp - Register everything relay-mlir provides ----*- C++ -*-===//

#include "tools/init/InitAll.h"
#include "conversion/Passes.h"
#include "conversion/RelayToLinalg/RelayToLinalg.h"
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
  // What --relay-to-llvm lowers to, with the bufferization models.
  registerLoweringDialects(registry);
}

void mlir::relay::registerAllPasses() {
  // Upstream passes: --inline, --cse, --canonicalize, --symbol-dce,
  // --sccp, ... (which work on Relay code through its interfaces) and those
  // --relay-to-llvm runs.
  registerUpstreamPasses();
  // relay-mlir's own passes and pipelines: --relay-*.
  registerRelayPasses();
  registerRelayConversionPasses();
  registerRelayToLLVMPipeline();
}

//===- InitAll.cpp - Register everything relay-mlir provides ----*- C++ -*-===//

#include "tools/init/InitAll.h"
#include "conversion/Passes.h"
#include "conversion/RelayToLinalg/RelayToLinalg.h"
#include "dialects/relay/RelayDialect.h"
#include "runtime/Executor/NativeCalibration.h"
#include "transforms/Codegen/CPU/CPUTarget.h"
#include "transforms/Passes.h"
#include "transforms/Pipelines/Pipelines.h"

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
  // What --relay-to-nvvm lowers to.
  registerGPULoweringDialects(registry);
}

void mlir::relay::registerAllPasses() {
  // Upstream's general passes (--inline, --cse, --canonicalize,
  // --symbol-dce, --sccp, ...), which work on Relay code through its
  // interfaces.
  registerTransformsPasses();
  // relay-mlir's own passes, its lowering targets and its pipelines with
  // the upstream passes they run.
  registerRelayPasses();
  registerRelayConversionPasses();
  registerCPULoweringTarget();
  registerRelayPipelines();
  // Calibration over data runs compiled code.
  registerNativeCalibration();
}

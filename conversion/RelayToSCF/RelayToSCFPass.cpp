//===- RelayToSCFPass.cpp - The --relay-to-scf pass -------------*- C++ -*-===//

#include "conversion/Passes.h"
#include "conversion/RelayCommon/RelayTypeConverter.h"
#include "conversion/RelayToSCF/RelayToSCF.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYTOSCF
#include "conversion/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {
struct RelayToSCFPass : public relay::impl::RelayToSCFBase<RelayToSCFPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    LoweringFailures failures;
    RelayTypeConverter converter(context, &failures);
    RewritePatternSet patterns(context);
    populateRelayToSCFConversionPatterns(converter, patterns);
    // What the patterns make is legal; relay ops they do not convert
    // (operators, closures, ADTs) stay, and keep the module valid through
    // the converter's materializations.
    ConversionTarget target(*context);
    target.addLegalDialect<arith::ArithDialect, func::FuncDialect,
                           scf::SCFDialect, tensor::TensorDialect>();
    target.addLegalOp<UnrealizedConversionCastOp>();
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    if (failed(reportUnconvertedOps(
            module, "relay-to-scf", failures,
            [&](Operation *op) { return !failures.lookup(op).empty(); },
            [](Operation *) { return std::string(); })))
      return signalPassFailure();
    convertTailRecursionToLoops(module);
  }
};
} // namespace

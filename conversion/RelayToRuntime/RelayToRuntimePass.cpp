//===- RelayToRuntimePass.cpp - The --relay-to-runtime pass -----*- C++ -*-===//

#include "conversion/Passes.h"
#include "conversion/RelayCommon/RelayTypeConverter.h"
#include "conversion/RelayToRuntime/RelayToRuntime.h"
#include "conversion/RelayToSCF/RelayToSCF.h"

#include "dialects/relay/RelayOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYTORUNTIME
#include "conversion/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {
struct RelayToRuntimePass
    : public relay::impl::RelayToRuntimeBase<RelayToRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    if (failed(checkFirstOrder(module, "relay-to-runtime")))
      return signalPassFailure();
    LoweringFailures failures;
    RelayTypeConverter converter(context, &failures);
    RewritePatternSet patterns(context);
    populateRelayToRuntimeConversionPatterns(converter, patterns);
    // A match case is an scf.if: its relay.yield becomes scf.yield.
    populateRelayTerminatorConversionPatterns(converter, patterns);
    ConversionTarget target(*context);
    target.addLegalDialect<
        arith::ArithDialect, bufferization::BufferizationDialect,
        func::FuncDialect, LLVM::LLVMDialect, memref::MemRefDialect,
        scf::SCFDialect, tensor::TensorDialect>();
    target.addLegalOp<UnrealizedConversionCastOp>();
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    if (failed(reportUnconvertedOps(
            module, "relay-to-runtime", failures,
            [&](Operation *op) { return !failures.lookup(op).empty(); },
            [](Operation *) { return std::string(); })))
      return signalPassFailure();
    // The ADT declarations go once no constructor or match refers to them.
    if (!module
             .walk([](Operation *op) {
               return isa<ConstructOp, MatchOp>(op) ? WalkResult::interrupt()
                                                    : WalkResult::advance();
             })
             .wasInterrupted())
      eraseDataDeclarations(module);
  }
};
} // namespace

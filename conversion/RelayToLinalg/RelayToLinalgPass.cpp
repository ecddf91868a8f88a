//===- RelayToLinalgPass.cpp - The --relay-to-linalg pass -------*- C++ -*-===//
//
// A whole Relay program in one partial conversion: RelayToSCF's,
// RelayToRuntime's and the operator families' patterns over one
// RelayTypeConverter, then the tail-recursive functions as loops.
//
//===----------------------------------------------------------------------===//

#include "conversion/Passes.h"
#include "conversion/RelayCommon/RelayTypeConverter.h"
#include "conversion/RelayToLinalg/RelayToLinalg.h"
#include "conversion/RelayToRuntime/RelayToRuntime.h"
#include "conversion/RelayToSCF/RelayToSCF.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayOps.h"

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Affine/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Linalg/Transforms/AllInterfaces.h"
#include "mlir/Dialect/MemRef/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/ADT/StringExtras.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYTOLINALG
#include "conversion/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {
struct RelayToLinalgPass
    : public relay::impl::RelayToLinalgBase<RelayToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    const LoweringTarget *loweringTarget = lookupLoweringTarget(target);
    if (!loweringTarget) {
      module.emitError() << "relay-to-linalg: unknown target '" << target
                         << "' (registered: "
                         << llvm::join(getLoweringTargetNames(), ", ") << ")";
      return signalPassFailure();
    }
    if (failed(checkFirstOrder(module, "relay-to-linalg")))
      return signalPassFailure();

    LoweringFailures failures;
    RelayTypeConverter converter(context, &failures);
    RewritePatternSet patterns(context);
    populateRelayToSCFConversionPatterns(converter, patterns);
    populateRelayToRuntimeConversionPatterns(converter, patterns);
    populateRelayToLinalgConversionPatterns(converter, patterns,
                                            *loweringTarget);
    ConversionTarget conversionTarget(*context);
    conversionTarget.addLegalDialect<
        affine::AffineDialect, arith::ArithDialect,
        bufferization::BufferizationDialect, func::FuncDialect,
        linalg::LinalgDialect, LLVM::LLVMDialect, math::MathDialect,
        memref::MemRefDialect, scf::SCFDialect, tensor::TensorDialect,
        vector::VectorDialect>();
    // ADT declarations stay until nothing refers to them.
    conversionTarget.addLegalOp<DataOp, CtorOp>();
    // Where a captured value is read back into a Relay-typed use.
    conversionTarget.addLegalOp<UnrealizedConversionCastOp>();
    if (failed(applyPartialConversion(module, conversionTarget,
                                      std::move(patterns))))
      return signalPassFailure();
    if (failed(reportUnconvertedOps(
            module, "relay-to-linalg", failures,
            [](Operation *op) {
              return isa<RelayDialect>(op->getDialect()) &&
                     !isa<DataOp, CtorOp>(op);
            },
            [](Operation *op) {
              return ("cannot lower '" + op->getName().getStringRef() +
                      "' yet: " +
                      (lookupOperator(op->getName().getStringRef())
                           ? "the operator has no lowering rule"
                           : "native code covers tensor programs with "
                             "functions, ADTs and references"))
                  .str();
            })))
      return signalPassFailure();
    eraseDataDeclarations(module);
    // Casts the patterns made between Relay and lowered types (a captured
    // ADT read back as one) meet their inverses now.
    SmallVector<UnrealizedConversionCastOp> casts;
    module.walk(
        [&](UnrealizedConversionCastOp cast) { casts.push_back(cast); });
    reconcileUnrealizedCasts(casts);
    convertTailRecursionToLoops(module);
    // The compile pipelines run without the verifier between passes (it
    // cost a quarter of a network's compile time): IR a lowering rule
    // built wrongly is reported here, at the op, not left to crash
    // vectorisation (a pad value of another dtype ran it out of memory).
    if (failed(verify(module)))
      return signalPassFailure();
  }
};
} // namespace

void mlir::relay::registerLoweringDialects(DialectRegistry &registry) {
  registry.insert<affine::AffineDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, cf::ControlFlowDialect,
                  func::FuncDialect, linalg::LinalgDialect, LLVM::LLVMDialect,
                  math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect, vector::VectorDialect>();
  // The target description (--relay-set-target-cpu's spec), and AMX tiles
  // (--relay-lower-amx-products).
  registry.insert<DLTIDialect, amx::AMXDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  // Bufferization, tiling and value bounds of linalg ops, and the value
  // bounds tiling and vectorisation query on the ops around them.
  linalg::registerAllDialectInterfaceImplementations(registry);
  affine::registerValueBoundsOpInterfaceExternalModels(registry);
  arith::registerValueBoundsOpInterfaceExternalModels(registry);
  memref::registerValueBoundsOpInterfaceExternalModels(registry);
  scf::registerValueBoundsOpInterfaceExternalModels(registry);
  tensor::registerValueBoundsOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  vector::registerBufferizableOpInterfaceExternalModels(registry);
  registerIntrinsicEffectsModel(registry);
}

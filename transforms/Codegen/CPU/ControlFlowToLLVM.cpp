//===- ControlFlowToLLVM.cpp - cf to LLVM, AMX tiles included -------------===//
//
// --relay-convert-cf-to-llvm: upstream's cf lowering with a type converter
// that also knows AMX tiles, and loop annotations on back edges (see
// Passes.td).
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/AMX/Transforms.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::relay {
#define GEN_PASS_DEF_CONVERTCONTROLFLOWTOLLVM
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

struct ConvertControlFlowToLLVM
    : relay::impl::ConvertControlFlowToLLVMBase<ConvertControlFlowToLLVM> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    LLVMConversionTarget target(*ctx);
    LLVMTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    cf::populateAssertToLLVMConversionPattern(converter, patterns);
    // Maps !amx.tile to x86_amx (and lowers any amx op left).
    populateAMXLegalizeForLLVMExportPatterns(converter, patterns);
    configureAMXLegalizeForExportTarget(target);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    // A loop annotation scf-to-cf copied from an scf.for onto its back
    // edge (--relay-limit-copy-unrolling's) becomes the branch's own, which
    // the translation to LLVM IR writes as llvm.loop metadata.
    getOperation()->walk([](Operation *op) {
      auto annotation =
          op->getAttrOfType<LLVM::LoopAnnotationAttr>("llvm.loop_annotation");
      if (!annotation)
        return;
      if (auto br = dyn_cast<LLVM::BrOp>(op))
        br.setLoopAnnotationAttr(annotation);
      else if (auto condBr = dyn_cast<LLVM::CondBrOp>(op))
        condBr.setLoopAnnotationAttr(annotation);
      else
        return;
      op->removeAttr("llvm.loop_annotation");
    });
  }
};

} // namespace

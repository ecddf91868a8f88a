//===- OptimizePipelineTest.cpp - --relay-optimize built by an embedder ---===//
//
// An embedding compiler builds Relay's -O levels into its own pass manager
// with buildOptimizePipeline alone, registering nothing else first. Found
// by relay-pipeline-fuzzer: at -O3 AlterOpLayout asked the `cpu` target's
// layout rules, which only the lowering pipelines registered, and the
// pipeline failed on any NHWC convolution.
//
//===----------------------------------------------------------------------===//

#include "transforms/Pipelines/Pipelines.h"

#include "dialects/relay/RelayDialect.h"
#include "dialects/relay/RelayOps.h"
#include "frontends/RelayText/Importer.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::relay;

namespace {

constexpr const char *kNHWCConvolution = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 4, 4, 3), float32], %w: Tensor[(1, 1, 3, 2), float32]) {
  nn.conv2d(%x, %w, channels=2, kernel_size=[1, 1], data_layout="NHWC", kernel_layout="HWIO")
}
)";

TEST(OptimizePipelineTest, EveryLevelRunsWithoutRegistration) {
  for (int64_t level = 0; level <= 3; ++level) {
    MLIRContext context;
    context.loadDialect<RelayDialect>();
    std::string diagnostics;
    ScopedDiagnosticHandler collect(&context, [&](Diagnostic &d) {
      diagnostics += d.str() + "\n";
      return success();
    });
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(kNHWCConvolution, "nhwc.rly"),
        llvm::SMLoc());
    OwningOpRef<ModuleOp> module = text::importRelayText(sourceMgr, &context);
    ASSERT_TRUE(module) << diagnostics;

    OptimizeOptions options;
    options.optLevel = level;
    PassManager pm(&context);
    buildOptimizePipeline(pm, options);
    ASSERT_TRUE(succeeded(pm.run(*module)))
        << "-O" << level << ": " << diagnostics;
    if (level < 3)
      continue;
    // AlterOpLayout ran: the CPU's convolution is NCHW.
    bool nchw = false;
    module->walk([&](Operation *op) {
      if (op->getName().getStringRef() == "relay.nn.conv2d")
        if (auto layout = op->getAttrOfType<StringAttr>("data_layout"))
          nchw |= layout.getValue() == "NCHW";
    });
    EXPECT_TRUE(nchw) << "AlterOpLayout left the convolution NHWC";
  }
}

} // namespace

//===- Quantize.cpp - Relay's quantization flow ---------------------------===//
//
// --relay-quantize (TVM's relay.quantize.quantize): the prerequisite
// optimisations (SimplifyInference, FoldConstant, FoldScaleAxis,
// CanonicalizeOps, FoldConstant), then annotate, calibrate and realize
// with one qconfig, and FoldConstant over the weights realize quantized.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "transforms/Quantization/QuantizeConfig.h"
#include "transforms/Quantization/QuantizeRules.h"

#include "mlir/Pass/PassManager.h"

namespace mlir::relay {
#define GEN_PASS_DEF_QUANTIZE
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::quant;

namespace {

struct QuantizePass : relay::impl::QuantizeBase<QuantizePass> {
  using QuantizeBase::QuantizeBase;

  void runOnOperation() override {
    // Every option is checked here, before any pass runs.
    QuantizeConfig config;
    config.nbitInput = nbitInput;
    config.nbitWeight = nbitWeight;
    config.nbitActivation = nbitActivation;
    config.dtypeInput = dtypeInput;
    config.dtypeWeight = dtypeWeight;
    config.dtypeActivation = dtypeActivation;
    config.calibrateMode = calibrateMode;
    config.globalScale = globalScale;
    config.weightScale = weightScale;
    config.perChannel = perChannel;
    config.skipDenseLayer = skipDenseLayer;
    auto emitError = [&] {
      return mlir::emitError(getOperation().getLoc(), "--relay-quantize: ");
    };
    if (partitionConversions != "disabled" &&
        partitionConversions != "enabled" &&
        partitionConversions != "fully-integral") {
      emitError() << "partition-conversions=" << partitionConversions
                  << " is not disabled, enabled or fully-integral";
      return signalPassFailure();
    }
    QuantizeRules table;
    if (failed(parseSkipConvLayers(skipConvLayers, config, emitError)) ||
        failed(verifyConfig(config, emitError)) ||
        (!rules.empty() && failed(table.load(rules, &getContext()))))
      return signalPassFailure();

    OpPassManager pm(ModuleOp::getOperationName());
    pm.addPass(createReinferTypes());
    pm.addPass(createSimplifyInference());
    pm.addPass(createFoldConstant());
    pm.addPass(createFoldScaleAxis());
    pm.addPass(createCanonicalizeOps());
    pm.addPass(createFoldConstant());
    QuantizeAnnotateOptions annotate;
    annotate.nbitInput = nbitInput;
    annotate.nbitWeight = nbitWeight;
    annotate.nbitActivation = nbitActivation;
    annotate.skipConvLayers.assign(skipConvLayers.begin(),
                                   skipConvLayers.end());
    annotate.skipDenseLayer = skipDenseLayer;
    annotate.rules = rules;
    pm.addPass(createQuantizeAnnotate(annotate));
    QuantizeCalibrateOptions calibrate;
    calibrate.nbitInput = nbitInput;
    calibrate.nbitWeight = nbitWeight;
    calibrate.nbitActivation = nbitActivation;
    calibrate.calibrateMode = calibrateMode;
    calibrate.globalScale = globalScale;
    calibrate.weightScale = weightScale;
    calibrate.perChannel = perChannel;
    calibrate.calibrationData = calibrationData;
    pm.addPass(createQuantizeCalibrate(calibrate));
    QuantizeRealizeOptions realize;
    realize.dtypeInput = dtypeInput;
    realize.dtypeWeight = dtypeWeight;
    realize.dtypeActivation = dtypeActivation;
    realize.rules = rules;
    pm.addPass(createQuantizeRealize(realize));
    pm.addPass(createFoldConstant());
    if (partitionConversions != "disabled") {
      QuantizePartitionOptions partition;
      partition.fullyIntegral = partitionConversions == "fully-integral";
      partition.dtypeInput = dtypeInput;
      partition.dtypeWeight = dtypeWeight;
      partition.dtypeActivation = dtypeActivation;
      pm.addPass(createQuantizePartition(partition));
    }
    if (failed(runPipeline(pm, getOperation())))
      signalPassFailure();
  }
};

} // namespace

//===- Calibrate.cpp - The scales of the simulated quantizations ----------===//
//
// --relay-quantize-calibrate (TVM's calibrate): sets every
// simulated_quantize's domain scale and clip bounds. A value quantized to
// `nbit` signed bits with the real range [-r, r] has the scale
// r / 2^(nbit-1) and the bounds +-(2^(nbit-1) - 1). The range r of a weight
// (which must be a constant) is its largest magnitude, rounded up to a
// power of two with weight-scale=power2; that of an input or activation is
// global-scale (calibrate-mode=global-scale, TVM's default).
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "transforms/Quantization/QuantizeConfig.h"

#include <cmath>

namespace mlir::relay {
#define GEN_PASS_DEF_QUANTIZECALIBRATE
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::quant;

namespace {

/// The largest magnitude of a constant float tensor; none when `v` is not
/// one.
std::optional<double> maxMagnitude(Value v) {
  auto c = v.getDefiningOp<ConstantOp>();
  DenseElementsAttr dense = c ? c.getDenseValue() : nullptr;
  if (!dense || !isa<FloatType>(dense.getElementType()))
    return std::nullopt;
  double m = 0;
  for (APFloat f : dense.getValues<APFloat>()) {
    bool lost;
    f.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
    m = std::max(m, std::fabs(f.convertToDouble()));
  }
  return m;
}

LogicalResult calibrate(SimulatedQuantizeOp op, const QuantizeConfig &config) {
  auto kind = static_cast<QKind>(op.getKind());
  if (kind == QKind::Identity)
    return success();
  double range;
  if (kind == QKind::Weight) {
    std::optional<double> m = maxMagnitude(op.getData());
    if (!m)
      return op.emitError("calibration needs the quantized weight to be a "
                          "constant (bind the parameters first, or skip "
                          "this layer)");
    range = *m;
    if (config.weightScale == "power2")
      range = *m > 0 ? std::exp2(std::ceil(std::log2(*m))) : 1.0;
    else if (*m == 0)
      range = 1.0;
  } else {
    range = config.globalScale;
  }
  int64_t validBits = config.nbit(kind) - (op.getSign() ? 1 : 0);
  double steps = std::exp2(static_cast<double>(validBits));
  OpBuilder b(op);
  Location loc = op.getLoc();
  double values[] = {range / steps, -(steps - 1), steps - 1};
  for (auto [i, v] : llvm::enumerate(values)) {
    Operation *old = op->getOperand(i + 1).getDefiningOp();
    op->setOperand(i + 1, f32Constant(b, loc, v));
    // The placeholders annotate made go.
    if (old && isa<ConstantOp>(old) && old->use_empty())
      old->erase();
  }
  return success();
}

struct QuantizeCalibratePass
    : relay::impl::QuantizeCalibrateBase<QuantizeCalibratePass> {
  using QuantizeCalibrateBase::QuantizeCalibrateBase;

  void runOnOperation() override {
    QuantizeConfig config;
    config.nbitInput = nbitInput;
    config.nbitWeight = nbitWeight;
    config.nbitActivation = nbitActivation;
    config.calibrateMode = calibrateMode;
    config.globalScale = globalScale;
    config.weightScale = weightScale;
    auto emitError = [&] {
      return mlir::emitError(getOperation().getLoc(),
                             "--relay-quantize-calibrate: ");
    };
    if (failed(verifyConfig(config, emitError)))
      return signalPassFailure();
    if (config.calibrateMode != "global-scale") {
      emitError() << "calibrate-mode=" << config.calibrateMode
                  << " (scales from calibration data) is not implemented "
                     "yet; use calibrate-mode=global-scale";
      return signalPassFailure();
    }
    WalkResult result = getOperation().walk([&](SimulatedQuantizeOp op) {
      return failed(calibrate(op, config)) ? WalkResult::interrupt()
                                           : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

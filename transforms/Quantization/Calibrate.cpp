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

#include "transforms/Quantization/Calibration.h"
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

/// The largest magnitude of a constant tensor; none when `v` is not one.
std::optional<double> maxMagnitude(Value v) {
  std::optional<SmallVector<double>> values = constantValues(v);
  if (!values)
    return std::nullopt;
  double m = 0;
  for (double x : *values)
    m = std::max(m, std::fabs(x));
  return m;
}

LogicalResult calibrate(SimulatedQuantizeOp op, const QuantizeConfig &config,
                        const DenseMap<Operation *, double> &ranges) {
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
    auto it = ranges.find(op);
    range = it != ranges.end() ? it->second : config.globalScale;
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

  /// The range of every input and activation quantization of the entry
  /// (@main, or the only public function) over the calibration data.
  LogicalResult rangesFromData(const QuantizeConfig &config,
                               DenseMap<Operation *, double> &ranges) {
    ModuleOp module = getOperation();
    auto emitError = [&] {
      return mlir::emitError(module.getLoc(), "--relay-quantize-calibrate: ");
    };
    if (calibrationData.empty())
      return emitError() << "calibrate-mode=" << config.calibrateMode
                         << " needs calibration-data=DIR";
    auto func = module.lookupSymbol<FuncOp>("main");
    if (!func) {
      SmallVector<FuncOp> public_;
      for (auto f : module.getOps<FuncOp>())
        if (f.isPublic() && !f.isExternal())
          public_.push_back(f);
      if (public_.size() != 1)
        return emitError() << "calibration runs @main, which the module "
                              "does not define";
      func = public_.front();
    }
    SmallVector<SimulatedQuantizeOp> points;
    func.walk([&](SimulatedQuantizeOp op) {
      auto kind = static_cast<QKind>(op.getKind());
      if (kind == QKind::Input || kind == QKind::Activation)
        points.push_back(op);
    });
    if (points.empty())
      return success();
    FailureOr<std::vector<std::vector<interp::ValuePtr>>> samples =
        readCalibrationData(calibrationData, func);
    if (failed(samples))
      return failure();
    FailureOr<std::vector<std::vector<float>>> values =
        collectCalibrationValues(module, func, points, *samples);
    if (failed(values))
      return failure();
    for (auto [op, v] : llvm::zip(points, *values))
      ranges[op] = config.calibrateMode == "kl-divergence"
                       ? klDivergenceRange(v)
                       : percentileRange(v, 99.99);
    return success();
  }

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
    if (failed(verifyConfig(config, emitError, /*dtypes=*/false)))
      return signalPassFailure();
    DenseMap<Operation *, double> ranges;
    if (config.calibrateMode != "global-scale" &&
        failed(rangesFromData(config, ranges)))
      return signalPassFailure();
    WalkResult result = getOperation().walk([&](SimulatedQuantizeOp op) {
      return failed(calibrate(op, config, ranges)) ? WalkResult::interrupt()
                                                   : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

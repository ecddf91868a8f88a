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

/// The largest magnitude of each slice of a constant tensor along `axis`.
std::optional<SmallVector<double>> maxMagnitudes(Value v, int64_t axis) {
  std::optional<SmallVector<double>> values = constantValues(v);
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!values || !type || !type.hasStaticShape())
    return std::nullopt;
  int64_t n = type.getDimSize(axis), inner = 1;
  for (int64_t d = axis + 1; d < type.getRank(); ++d)
    inner *= type.getDimSize(d);
  SmallVector<double> m(n, 0.0);
  for (auto [i, x] : llvm::enumerate(*values))
    m[(i / inner) % n] = std::max(m[(i / inner) % n], std::fabs(x));
  return m;
}

/// A weight's range r from its largest magnitude m: m, or m rounded up to
/// a power of two (weight-scale=power2); 1 for an all-zero weight.
double weightRange(double m, const QuantizeConfig &config) {
  if (m == 0)
    return 1.0;
  return config.weightScale == "power2" ? std::exp2(std::ceil(std::log2(m)))
                                        : m;
}

LogicalResult calibrate(SimulatedQuantizeOp op, const QuantizeConfig &config,
                        const DenseMap<Operation *, double> &ranges) {
  auto kind = static_cast<QKind>(op.getKind());
  if (kind == QKind::Identity)
    return success();
  int64_t validBits = config.nbit(kind) - (op.getSign() ? 1 : 0);
  double steps = std::exp2(static_cast<double>(validBits));
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value scale;
  if (kind == QKind::Weight) {
    std::optional<int64_t> axis =
        config.perChannel ? productWeightAxis(op) : std::nullopt;
    if (axis) {
      // One scale per output channel: a tensor that broadcasts along the
      // weight's output-channel axis ([O, 1, 1, 1] for OIHW).
      std::optional<SmallVector<double>> m = maxMagnitudes(op.getData(), *axis);
      if (!m)
        return op.emitError("calibration needs the quantized weight to be a "
                            "constant (bind the parameters first, or skip "
                            "this layer)");
      auto type = cast<RankedTensorType>(op.getData().getType());
      SmallVector<int64_t> shape(type.getRank(), 1);
      shape[*axis] = type.getDimSize(*axis);
      SmallVector<float> scales;
      for (double x : *m)
        scales.push_back(static_cast<float>(weightRange(x, config) / steps));
      scale = ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(RankedTensorType::get(shape, b.getF32Type()),
                                 ArrayRef<float>(scales)));
    } else {
      std::optional<double> m = maxMagnitude(op.getData());
      if (!m)
        return op.emitError("calibration needs the quantized weight to be a "
                            "constant (bind the parameters first, or skip "
                            "this layer)");
      scale = f32Constant(b, loc, weightRange(*m, config) / steps);
    }
  } else {
    auto it = ranges.find(op);
    double range = it != ranges.end() ? it->second : config.globalScale;
    scale = f32Constant(b, loc, range / steps);
  }
  Value values[] = {scale, f32Constant(b, loc, -(steps - 1)),
                    f32Constant(b, loc, steps - 1)};
  for (auto [i, v] : llvm::enumerate(values)) {
    Operation *old = op->getOperand(i + 1).getDefiningOp();
    op->setOperand(i + 1, v);
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
    config.perChannel = perChannel;
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

//===- Calibration.h - Ranges of values from calibration data ---*- C++ -*-===//
//
// What --relay-quantize-calibrate needs beyond the IR for calibrate-mode
// kl-divergence and percentile: the calibration samples read from a
// directory, the float program run over them with every quantized point
// (each input or activation simulated_quantize's operand) as an output,
// and the range each point's values get (TVM's KL-divergence threshold,
// or a percentile of the magnitudes).
//
// The program runs natively through a runner a tool registers (the JIT:
// the executor library builds on these passes, so it cannot be their
// dependency); without one, on the reference interpreter.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_QUANTIZATION_CALIBRATION_H
#define RELAY_MLIR_TRANSFORMS_QUANTIZATION_CALIBRATION_H

#include "dialects/relay/RelayOps.h"
#include "runtime/Interpreter/Value.h"

#include "mlir/IR/BuiltinOps.h"

#include <functional>
#include <vector>

namespace mlir::relay::quant {

/// Runs `entry` of `module` once per sample (its arguments); returns each
/// call's result, or fails after reporting.
using CalibrationRunner =
    std::function<FailureOr<std::vector<interp::ValuePtr>>(
        ModuleOp module, StringRef entry,
        ArrayRef<std::vector<interp::ValuePtr>> samples)>;

/// Sets the runner calibration uses (a null function restores the
/// interpreter).
void setCalibrationRunner(CalibrationRunner runner);

/// The samples of `dir` for `func` (interp::readSampleDirectory's format),
/// each the arguments of one call.
FailureOr<std::vector<std::vector<interp::ValuePtr>>>
readCalibrationData(StringRef dir, FuncOp func);

/// The values of every input and activation simulated_quantize's operand
/// in `func` (a function of `module`) over the samples, one list per op
/// (in the order of `ops`).
FailureOr<std::vector<std::vector<float>>>
collectCalibrationValues(ModuleOp module, FuncOp func,
                         ArrayRef<SimulatedQuantizeOp> ops,
                         ArrayRef<std::vector<interp::ValuePtr>> samples);

/// The threshold whose 255-level quantization of `values`' histogram
/// (8001 bins over [-max|v|, max|v|]) loses the least information (KL
/// divergence), TVM's kl_divergence calibration.
double klDivergenceRange(ArrayRef<float> values);

/// The `percent` percentile of the magnitudes of `values` (linear
/// interpolation, as numpy's).
double percentileRange(ArrayRef<float> values, double percent);

} // namespace mlir::relay::quant

#endif // RELAY_MLIR_TRANSFORMS_QUANTIZATION_CALIBRATION_H

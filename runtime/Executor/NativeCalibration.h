//===- NativeCalibration.h - Calibration runs on the JIT --------*- C++ -*-===//
//
// --relay-quantize-calibrate runs the float program over calibration data
// through a runner a tool sets (transforms/Quantization/Calibration.h);
// this one compiles it with the executor, so calibration runs natively.
// registerAllPasses (tools/init) calls it.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_RUNTIME_EXECUTOR_NATIVECALIBRATION_H
#define RELAY_MLIR_RUNTIME_EXECUTOR_NATIVECALIBRATION_H

namespace mlir::relay {

/// Makes calibration run compiled code (idempotent).
void registerNativeCalibration();

} // namespace mlir::relay

#endif // RELAY_MLIR_RUNTIME_EXECUTOR_NATIVECALIBRATION_H

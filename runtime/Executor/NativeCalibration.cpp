//===- NativeCalibration.cpp - Calibration runs on the JIT ----------------===//

#include "runtime/Executor/NativeCalibration.h"

#include "runtime/Executor/Executor.h"
#include "transforms/Quantization/Calibration.h"

using namespace mlir;
using namespace mlir::relay;

void mlir::relay::registerNativeCalibration() {
  quant::setCalibrationRunner(
      [](ModuleOp module, StringRef entry,
         ArrayRef<std::vector<interp::ValuePtr>> samples)
          -> FailureOr<std::vector<interp::ValuePtr>> {
        FailureOr<std::unique_ptr<Executor>> executor =
            Executor::compile(module, entry);
        if (failed(executor))
          return failure();
        std::vector<interp::ValuePtr> results;
        for (const std::vector<interp::ValuePtr> &args : samples) {
          FailureOr<interp::ValuePtr> r = (*executor)->call(args);
          if (failed(r))
            return failure();
          results.push_back(*r);
        }
        return results;
      });
}

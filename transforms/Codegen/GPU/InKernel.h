//===- InKernel.h - Whether an op runs on the GPU ---------------*- C++ -*-===//
//
// What the passes of --relay-to-nvvm ask of an op before they move it: does
// it run on the device already (inside a gpu.launch or a gpu.module)?
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_CODEGEN_GPU_INKERNEL_H
#define RELAY_MLIR_TRANSFORMS_CODEGEN_GPU_INKERNEL_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::relay {

/// Whether `op` runs on the device already.
inline bool isInKernel(Operation *op) {
  return op->getParentOfType<gpu::LaunchOp>() ||
         op->getParentOfType<gpu::GPUModuleOp>();
}

} // namespace mlir::relay

#endif // RELAY_MLIR_TRANSFORMS_CODEGEN_GPU_INKERNEL_H

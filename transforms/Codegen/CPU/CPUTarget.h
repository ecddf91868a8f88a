//===- CPUTarget.h - The x86 CPU as a lowering target -----------*- C++ -*-===//
//
// The `cpu` LoweringTarget: products as register-tile-shaped contractions
// (one-row products as split reductions), convolutions by Winograd's
// minimal filtering, depthwise row kernels, or im2col products in
// cache-sized bands with packed weights (CPUKernels.h).
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_CODEGEN_CPU_CPUTARGET_H
#define RELAY_MLIR_TRANSFORMS_CODEGEN_CPU_CPUTARGET_H

namespace mlir::relay {

/// Registers the `cpu` lowering target (idempotent).
void registerCPULoweringTarget();

} // namespace mlir::relay

#endif // RELAY_MLIR_TRANSFORMS_CODEGEN_CPU_CPUTARGET_H

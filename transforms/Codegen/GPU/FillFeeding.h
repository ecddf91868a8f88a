//===- FillFeeding.h - The fill that sets a reduction's accumulator -*- C++
//-*-===//
//
// Shared by the GPU passes that fold a reduction's zeroing into its kernel.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_CODEGEN_GPU_FILLFEEDING_H
#define RELAY_MLIR_TRANSFORMS_CODEGEN_GPU_FILLFEEDING_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::relay {

/// The fill that sets `op`'s accumulator just before it, when `op` reduces
/// into one buffer that it writes whole (its output map is its parallel
/// dimensions, in some order) and does not read otherwise: the fill can
/// become the reduction's initial value (one kernel less: a product's or
/// convolution's zeros). Null otherwise.
linalg::FillOp fillFeeding(linalg::LinalgOp op);

} // namespace mlir::relay

#endif // RELAY_MLIR_TRANSFORMS_CODEGEN_GPU_FILLFEEDING_H

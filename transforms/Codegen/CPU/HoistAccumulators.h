//===- HoistAccumulators.h - Keep register tiles in registers --*- C++ -*-===//
//
// After vectorisation a contraction's k loop reads its accumulator tile
// (vector.transfer_read), updates it and writes it back every iteration.
// Upstream's linalg::hoistRedundantVectorTransfers moves such pairs out of
// the loop only when the buffer has no view-like users anywhere, which a
// result that is reshaped afterwards (a convolution's [f, p] product
// expanded to NCHW) always has. This hoisting instead proves that nothing
// else in the loop touches the same allocation.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_CODEGEN_CPU_HOISTACCUMULATORS_H
#define RELAY_MLIR_TRANSFORMS_CODEGEN_CPU_HOISTACCUMULATORS_H

namespace mlir {
class Operation;
namespace relay {

/// Hoists loop-invariant transfer_read/transfer_write pairs on a
/// memref.alloc'd buffer out of the scf.for loops under `root`, carrying
/// the vector through the loop, when no other op in the loop may access
/// that allocation. Returns the number of pairs hoisted.
unsigned hoistAccumulatorTransfers(Operation *root);

} // namespace relay
} // namespace mlir

#endif // RELAY_MLIR_TRANSFORMS_CODEGEN_CPU_HOISTACCUMULATORS_H

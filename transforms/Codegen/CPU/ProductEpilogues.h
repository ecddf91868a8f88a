//===- ProductEpilogues.h - Elementwise ops in a product's tiles -*- C++
//-*-===//
//
// A product (a 1x1 convolution's band of output channels, a dense layer)
// is followed by the elementwise op that reads its result (bias,
// activation, residual): --relay-tile-and-vectorize applies that op to
// each register tile the product stores, in registers, and stores the op's
// result instead, as oneDNN's post-ops do; the product's buffer goes.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_CODEGEN_CPU_PRODUCTEPILOGUES_H
#define RELAY_MLIR_TRANSFORMS_CODEGEN_CPU_PRODUCTEPILOGUES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::relay::cpu {

/// The elementwise op that reads the result of contraction `product` next:
/// an all-parallel linalg.generic after it (only ops without memory effects
/// between) whose body vectorises, reading the product's buffer (a fresh
/// allocation, or one reshape of it) element for element and writing
/// another buffer, which the product does not read. Null when there is
/// none.
linalg::GenericOp findProductEpilogue(linalg::LinalgOp product);

/// Applies `epilogue` (findProductEpilogue) to every register tile the
/// vectorised product stores into `buffer`, the product's buffer, storing
/// the epilogue's rows into its output, then erases the epilogue, the
/// stores and the buffer. Fails, changing nothing but the position of pure
/// ops, when the tiles stored are not the product's final values (the
/// buffer is read, by a later k tile or anything but the epilogue), or the
/// epilogue's operands cannot be viewed in the product's index space.
LogicalResult fuseEpilogueIntoTiles(RewriterBase &rewriter,
                                    linalg::GenericOp epilogue, Value buffer);

} // namespace mlir::relay::cpu

#endif // RELAY_MLIR_TRANSFORMS_CODEGEN_CPU_PRODUCTEPILOGUES_H

//===- ElementwiseRows.h - Elementwise generics on row vectors --*- C++ -*-===//
//
// An all-parallel linalg.generic of elementwise ops applied to row vectors
// that a kernel has in registers, before it stores them, instead of as an op
// of its own that re-reads them from memory: --relay-fuse-elementwise does so
// on the rows of the depthwise kernels (on tensors), and
// --relay-tile-and-vectorize on the register tiles of products (a
// convolution's bias and activation, on buffers).
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_CODEGEN_ELEMENTWISEROWS_H
#define RELAY_MLIR_TRANSFORMS_CODEGEN_ELEMENTWISEROWS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

namespace mlir::relay {

/// Whether `op`'s body is elementwise-mappable ops on its inputs and on
/// scalar constants (so that it can be cloned on vectors), not reading its
/// output's current value.
bool hasVectorizableBody(linalg::GenericOp op);

/// Whether an input read through indexing map `map` can be read along rows:
/// its results are loop indices or constants, the innermost loop (the one
/// along the rows) only as the last.
bool readableAlongRows(AffineMap map);

/// The row of `lanes` elements of `source` (a tensor or a buffer) that an op
/// reads through `map` (readableAlongRows) when its loop indices are `at`
/// and the innermost one moves along the row: a read of the row under
/// `mask` (if any), or one element broadcast when the map does not use the
/// innermost loop; a scalar `source` (an op's scalar input) broadcast.
Value readOperandRow(OpBuilder &b, Location loc, Value source, AffineMap map,
                     ArrayRef<Value> at, int64_t lanes, Value mask);

/// `op`'s body (hasVectorizableBody) cloned on rows of `lanes` elements,
/// `inputs` holding the row of each of its inputs; returns its result's row.
Value applyBodyToRows(OpBuilder &b, Location loc, linalg::GenericOp op,
                      ArrayRef<Value> inputs, int64_t lanes);

/// Makes `value` available before `op` (in the same block): moves the pure
/// ops that compute it there, when they sit between `op` and their user
/// (a bias reshaped after a convolution). False when it cannot.
bool makeAvailableBefore(Value value, Operation *op);

} // namespace mlir::relay

#endif // RELAY_MLIR_TRANSFORMS_CODEGEN_ELEMENTWISEROWS_H

//===- ProposalAnchors.h - vision.proposal's anchor boxes -------*- C++ -*-===//
//
// The anchors of vision.proposal as topi's generate_anchor computes them,
// shared by the interpreter's kernel and the lowering to loops.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_DIALECTS_RELAY_PROPOSALANCHORS_H
#define RELAY_MLIR_DIALECTS_RELAY_PROPOSALANCHORS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <array>

namespace mlir::relay {

/// Anchor k of each cell (ratio ratios[k / |scales|], scale
/// scales[k % |scales|]) as (x1, y1, x2, y2) around the first cell of a
/// `base` x `base` square, in double as Python computes it.
SmallVector<std::array<double, 4>>
proposalAnchors(ArrayRef<double> scales, ArrayRef<double> ratios, double base);

} // namespace mlir::relay

#endif // RELAY_MLIR_DIALECTS_RELAY_PROPOSALANCHORS_H

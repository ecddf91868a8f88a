//===- Decompose.h - Composite operators as primitive ones ------*- C++ -*-===//
//
// The rewrites of --relay-decompose as patterns, for passes that decompose
// some operators only (--relay-gradient and --relay-forward-ad: those
// without a gradient or tangent rule of their own).
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_DECOMPOSE_DECOMPOSE_H
#define RELAY_MLIR_TRANSFORMS_DECOMPOSE_DECOMPOSE_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::relay {

/// Adds the rewrite of each composite operator that `include` accepts (by
/// its name, "relay.variance"; every one when `include` is null) to
/// `patterns`. Each needs static shapes and leaves other ops alone.
void populateDecompositionPatterns(
    RewritePatternSet &patterns,
    function_ref<bool(StringRef name)> include = nullptr);

} // namespace mlir::relay

#endif // RELAY_MLIR_TRANSFORMS_DECOMPOSE_DECOMPOSE_H

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

#include <functional>
#include <string>

namespace mlir::relay {

/// Adds the rewrite of each composite operator that `include` accepts (by
/// its name, "relay.variance"; every one when `include` is null) to
/// `patterns`. Each needs static shapes and leaves other ops alone, and
/// the ops `keepWhole` (when given) keeps.
void populateDecompositionPatterns(
    RewritePatternSet &patterns,
    function_ref<bool(StringRef name)> include = nullptr,
    std::function<bool(Operation *)> keepWhole = nullptr);

/// Whether the operator named `opName` ("relay.roi_align") has a rewrite
/// into primitive ones (at static shapes).
bool hasDecomposition(StringRef opName);

/// Adds only the rewrites of operators on packed layouts (hasPackedLayouts)
/// into the operators on plain layouts between layout_transforms, at any
/// shapes: for passes whose rules take plain layouts (the gradient's).
void populateUnpackLayoutPatterns(RewritePatternSet &patterns);

/// layout_transform(layout_transform(x, A -> B), B -> C) as
/// layout_transform(x, A -> C), and as x when C is A; and elementwise
/// operators of operands moved from A to B as the operator in A, moved to
/// B after it (so that the next change can cancel it): what unpacking
/// operators on packed layouts in a row leaves (--relay-decompose), and
/// what converting layouts leaves (--relay-convert-layout).
void populateComposeLayoutTransformsPatterns(RewritePatternSet &patterns);

/// Whether a layout attribute of `op` (nn.conv2d's, a 2-d pooling's, ...)
/// packs an axis (TVM's NCHW16c, OIHW16i16o): the interpreter's kernels and
/// the lowering take plain layouts, and --relay-decompose unpacks these
/// (at any shapes).
bool hasPackedLayouts(Operation *op);

/// The operators whose decomposition is a sorting network (relay.topk,
/// relay.argsort, relay.sort): thousands of operators on a long axis,
/// which the interpreter's kernels sort directly. relay-run keeps them
/// whole (--relay-decompose's keep-ops), native regions leave them to the
/// interpreter, and native compilation decomposes them in its pipeline.
ArrayRef<std::string> getSortingOperators();

} // namespace mlir::relay

#endif // RELAY_MLIR_TRANSFORMS_DECOMPOSE_DECOMPOSE_H

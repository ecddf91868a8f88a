//===- Decompose.h - Composite operators as primitive ones ------*- C++ -*-===//
//
// The rewrites of --relay-decompose as patterns, for passes that decompose
// some operators only (--relay-gradient and --relay-forward-ad: those
// without a gradient or tangent rule of their own); image.resize2d's
// sampling taps, which the interpreter's dyn.image.resize2d shares.
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

/// The operators whose decomposition is a sorting network (relay.topk,
/// relay.argsort, relay.sort): thousands of operators on a long axis,
/// which the interpreter's kernels sort directly. relay-run keeps them
/// whole (--relay-decompose's keep-ops), native regions leave them to the
/// interpreter, and native compilation decomposes them in its pipeline.
ArrayRef<std::string> getSortingOperators();

/// The taps of one axis of image.resize2d (and dyn.image.resize2d, whose
/// interpreter kernel samples with them): output i is the sum over taps t
/// of weights[i] * input[indices[i]] of taps[t], the indices clamped to the
/// edge. `in` and `outSize` are the axis's lengths; `method`,
/// `coords`, `rounding`, `alpha` and `exclude` the operator's attributes
/// (`rounding` resolved from its default); `scale` the one the coordinates
/// divide by where given, else outSize / in. tf_crop_and_resize samples
/// the fractions `crop` (start, end) of the axis; an output sampled
/// outside it gets no taps' weight and is marked in `outside`.
struct ResizeTap {
  SmallVector<int64_t> indices;
  SmallVector<double> weights;
};
SmallVector<ResizeTap>
resizeTaps(int64_t in, int64_t outSize, StringRef method, StringRef coords,
           StringRef rounding, double alpha, bool exclude,
           std::optional<double> scale,
           std::optional<std::pair<double, double>> crop = std::nullopt,
           SmallVectorImpl<bool> *outside = nullptr);

} // namespace mlir::relay

#endif // RELAY_MLIR_TRANSFORMS_DECOMPOSE_DECOMPOSE_H

//===- ResizeSampling.h - Where image.resize* samples ------------*- C++
//-*-===//
//
// The input positions and weights each output of image.resize1d/2d/3d (and
// dyn.image.resize2d) reads, computed once from the operator's attributes
// for the decomposition, the interpreter's dyn.image.resize2d kernel and
// the lowering of the resizes native code computes whole.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_DIALECTS_RELAY_RESIZESAMPLING_H
#define RELAY_MLIR_DIALECTS_RELAY_RESIZESAMPLING_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <utility>

namespace mlir::relay {

/// The taps of one resized axis: output i is the sum over taps t of
/// weights[i] * input[indices[i]] of taps[t], the indices clamped to the
/// edge.
struct ResizeTap {
  SmallVector<int64_t> indices;
  SmallVector<double> weights;
};

/// The taps of an axis of `in` elements resized to `outSize`. `method`,
/// `coords`, `rounding`, `alpha` and `exclude` are the operator's
/// attributes (`rounding` resolved from its default); `scale` the one the
/// coordinates divide by where given, else outSize / in. tf_crop_and_resize
/// samples the fractions `crop` (start, end) of the axis; an output sampled
/// outside it gets no taps' weight and is marked in `outside`.
SmallVector<ResizeTap>
resizeTaps(int64_t in, int64_t outSize, StringRef method, StringRef coords,
           StringRef rounding, double alpha, bool exclude,
           std::optional<double> scale,
           std::optional<std::pair<double, double>> crop = std::nullopt,
           SmallVectorImpl<bool> *outside = nullptr);

/// The axes of the `spatial` resized dimensions (D, H, W: the last
/// `spatial` of them) in an image.resize*'s `layout`: channels first
/// (NCHW, also when `layout` is empty) or any other order of the same
/// axes (NHWC), as TVM's relations take any layout bijective to NCHW;
/// std::nullopt for anything else (NCHW16c, NCH).
std::optional<SmallVector<int64_t>> getResizedAxes(StringRef layout,
                                                   int64_t spatial);

/// One resized axis of an image.resize1d/2d/3d.
struct ResizeAxis {
  /// The axis of the data (getResizedAxes of the op's layout).
  int64_t axis;
  /// Whether the axis keeps its values (same length, unit scale, and a
  /// method and coordinates that then sample each input where it is).
  bool identity;
  SmallVector<ResizeTap> taps;
  /// The outputs a tf_crop_and_resize sampled outside its crop.
  SmallVector<bool> outside;
};

/// The resized axes of the image.resize1d, resize2d or resize3d `op`
/// (outermost first), from its attributes and its data's static shape;
/// std::nullopt where the shape is not static.
std::optional<SmallVector<ResizeAxis>> getResizeAxes(Operation *op);

} // namespace mlir::relay

#endif // RELAY_MLIR_DIALECTS_RELAY_RESIZESAMPLING_H

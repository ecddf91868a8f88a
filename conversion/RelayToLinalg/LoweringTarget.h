//===- LoweringTarget.h - What the tensor lowering asks a target ----------===//
//
// The Relay-to-linalg conversion is target-neutral except for the kernels
// whose best form depends on the machine: matrix products and
// convolutions. It asks a LoweringTarget for those. The base class gives
// target-neutral linalg (a filled linalg.generic contraction; padding and
// linalg's named convolutions), which any later tiling and mapping (CPU
// loops, GPU blocks and threads) accepts; a target overrides what it does
// better (transforms/Codegen/CPU/ for x86 CPUs: Winograd, depthwise row
// kernels, packed and banded products).
//
// Targets are registered by name (`--relay-to-linalg{target=NAME}`);
// "generic" is the base class and always there.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_CONVERSION_RELAYTOLINALG_LOWERINGTARGET_H
#define RELAY_MLIR_CONVERSION_RELAYTOLINALG_LOWERINGTARGET_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::relay {

/// One 2-d convolution, as relay.nn.conv2d (or the convolution a transposed
/// convolution is rewritten into) describes it.
struct Conv2dProblem {
  explicit Conv2dProblem(Location loc) : loc(loc) {}

  /// The relay op the convolution lowers, for targets that look at its
  /// neighbours (what consumes the result); null when the convolution is
  /// part of another operator's lowering.
  Operation *op = nullptr;
  Location loc;
  /// The result type (NCHW or NHWC, signless).
  RankedTensorType type;
  /// The image, not padded yet, and the weights (OIHW or HWIO).
  Value data, weight;
  /// NCHW/OIHW when true, NHWC/HWIO otherwise.
  bool nchw = true;
  int64_t groups = 1;
  /// (h, w) strides and dilations; padding (top, left, bottom, right).
  SmallVector<int64_t, 2> strides, dilations;
  SmallVector<int64_t, 4> padding;

  /// Whether data, weights and result are one float type.
  bool isSameFloat() const;
  /// One input and one output channel per group.
  bool isDepthwise() const;
};

class LoweringTarget {
public:
  virtual ~LoweringTarget();

  /// The name the target is registered under.
  virtual StringRef getName() const { return "generic"; }

  /// out = sum over the last of `numDims` loops of operands[0] *
  /// operands[1], read through `maps` (the two inputs', then the
  /// result's), into a zero-filled float tensor of `type`. Dense, matmul,
  /// batch_matmul and the target-neutral convolutions of a transposed
  /// convolution come here.
  virtual Value buildContraction(OpBuilder &b, Location loc,
                                 RankedTensorType type, ValueRange operands,
                                 unsigned numDims,
                                 ArrayRef<AffineMap> maps) const;

  /// out[m, n] = sum_k x[m, k] * w[n, k] of signed 8-bit integers into
  /// int32 (`type`, [m, n]) for a constant `w`, in the target's own
  /// kernels; null when it has none, and the conversion then lowers a
  /// generic integer product.
  virtual Value buildInt8Dense(OpBuilder &b, Location loc,
                               RankedTensorType type, Value x, Value w) const;

  /// A convolution in the target's own kernels; null when it has none for
  /// `conv`, and the conversion then pads the image and uses linalg's
  /// named convolutions.
  virtual Value buildConv2d(OpBuilder &b, const Conv2dProblem &conv) const;

  /// Whether the target computes the composite operator `op` itself, so
  /// that --relay-decompose{target=NAME} leaves it whole: by default the
  /// resizes the target-neutral conversion computes as one kernel
  /// (lowersResizeWhole).
  virtual bool lowersWhole(Operation *op) const;

  /// The relay.nn.conv3d `op` (NCDHW data, OIDHW weights) of the lowered
  /// `data` and `weight` into `type`, in the target's kernels, for the 3-d
  /// convolutions it keeps whole (lowersWhole); null for the others, which
  /// reach the lowering as --relay-decompose's 2-d convolutions.
  virtual Value buildConv3d(OpBuilder &b, Operation *op, RankedTensorType type,
                            Value data, Value weight) const;
};

/// Whether the target-neutral conversion computes the image.resize1d,
/// resize2d or resize3d `op` whole, as one kernel over its output: float
/// data of static shape resized by nearest or linear sampling into its own
/// type, without a tf_crop_and_resize crop. The others are decomposed.
bool lowersResizeWhole(Operation *op);

/// Registers `target` under its name, unless a target of that name is
/// registered already (passes may be using it).
void registerLoweringTarget(std::unique_ptr<LoweringTarget> target);

/// The target registered as `name`; null when there is none.
const LoweringTarget *lookupLoweringTarget(StringRef name);

/// The names of the registered targets, sorted.
std::vector<std::string> getLoweringTargetNames();

} // namespace mlir::relay

#endif // RELAY_MLIR_CONVERSION_RELAYTOLINALG_LOWERINGTARGET_H

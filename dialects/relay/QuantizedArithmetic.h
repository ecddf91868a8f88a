//===- QuantizedArithmetic.h - TVM's integer quantization math --*- C++ -*-===//
//
// The arithmetic the quantized operators are defined by, in one place for
// the interpreter's kernels (the reference) and --relay-qnn-canonicalize
// (which builds the same computation from Relay operators): TVM's
// fixed-point multiplier of a requantization, its rounding modes, and the
// ranges of the integer dtypes.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_DIALECTS_RELAY_QUANTIZEDARITHMETIC_H
#define RELAY_MLIR_DIALECTS_RELAY_QUANTIZEDARITHMETIC_H

#include "mlir/IR/BuiltinTypes.h"

#include <cstdint>
#include <utility>

namespace mlir::relay::quant {

/// A positive real multiplier as significand * 2^(shift - 31), the
/// significand a 31-bit fixed-point number in [2^30, 2^31) (TVM's
/// GetFixedPointMultiplierShift); zero as (0, 0).
struct FixedPointMultiplier {
  int64_t significand = 0;
  int64_t shift = 0;
};
FixedPointMultiplier getFixedPointMultiplier(double multiplier);

/// How requantize computes: TVM's `rounding` and `compute_dtype`.
struct RequantizeMode {
  /// Ties of the fixed-point product round toward +infinity ("UPWARD", the
  /// default) or away from zero ("TONEAREST").
  bool upward = true;
  /// 0 for int64 fixed point (the default), else the float width (32, 64)
  /// the product is computed in, rounded to nearest even.
  unsigned floatBits = 0;

  static RequantizeMode get(StringRef rounding, StringRef computeDtype);
};

/// `x * m` rounded as TVM's FixedPointMultiply does it in int64: shifted
/// left by a positive shift, multiplied by the significand, the rounding
/// constant added and shifted right by 31 minus a negative shift.
int64_t fixedPointMultiply(int64_t x, FixedPointMultiplier m, bool upward);

/// The rounding constant of a fixed-point product shifted right by
/// `totalRightShift` for a product of sign `negative`.
inline int64_t roundingTerm(int64_t totalRightShift, bool upward,
                            bool negative) {
  int64_t half = int64_t(1) << (totalRightShift - 1);
  return upward || !negative ? half : half - 1;
}

/// `outZp + (x - inZp) * inScale / outScale` as requantize computes it,
/// before clipping.
int64_t requantize(int64_t x, float inScale, int64_t inZp, float outScale,
                   int64_t outZp, RequantizeMode mode);

/// The smallest and largest values of the integer type `t` (by its
/// signedness; signless is signed).
std::pair<int64_t, int64_t> integerRange(IntegerType t);

/// qnn.softmax (TVM's integer softmax, Shiftmax): x0 = round(1 / scale) in
/// float32, the quantized value of 1, clipped to int32's range; the
/// exponentials' 2^30 / sum normalisation (kShiftmaxBits) and their
/// result's scale 2^-7 (kShiftmaxOutputBits - 1).
int64_t shiftmaxUnit(float scale);
constexpr int kShiftmaxBits = 30;
constexpr int kShiftmaxOutputBits = 8;
/// The largest power of two a quotient of shiftmax is taken to (the clip
/// of d / -x0).
constexpr int kShiftmaxMaxShift = 20;

} // namespace mlir::relay::quant

#endif // RELAY_MLIR_DIALECTS_RELAY_QUANTIZEDARITHMETIC_H

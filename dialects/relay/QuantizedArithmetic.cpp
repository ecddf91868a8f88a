//===- QuantizedArithmetic.cpp - TVM's integer quantization math ----------===//

#include "dialects/relay/QuantizedArithmetic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::quant;

FixedPointMultiplier quant::getFixedPointMultiplier(double multiplier) {
  if (multiplier == 0.0)
    return {};
  int exponent = 0;
  double significand = std::frexp(multiplier, &exponent);
  auto fixed = static_cast<int64_t>(std::round(significand * (1LL << 31)));
  // Rounding up to 2^31 leaves the 31-bit range: halve it.
  if (fixed == (1LL << 31)) {
    fixed /= 2;
    ++exponent;
  }
  return {fixed, exponent};
}

RequantizeMode RequantizeMode::get(StringRef rounding, StringRef computeDtype) {
  RequantizeMode mode;
  mode.upward = rounding != "TONEAREST";
  if (computeDtype == "float32")
    mode.floatBits = 32;
  else if (computeDtype == "float64")
    mode.floatBits = 64;
  return mode;
}

int64_t quant::fixedPointMultiply(int64_t x, FixedPointMultiplier m,
                                  bool upward) {
  int64_t leftShift = m.shift > 0 ? m.shift : 0;
  int64_t rightShift = (m.shift > 0 ? 0 : -m.shift) + 31;
  // Two's complement wrap-around as the compiled int64 code has it.
  auto product = static_cast<int64_t>(static_cast<uint64_t>(x) << leftShift) *
                 m.significand;
  return (product + roundingTerm(rightShift, upward, product < 0)) >>
         rightShift;
}

int64_t quant::requantize(int64_t x, float inScale, int64_t inZp,
                          float outScale, int64_t outZp, RequantizeMode mode) {
  if (mode.floatBits == 32) {
    float ratio = inScale / outScale;
    float v = static_cast<float>(x - inZp) * ratio;
    return static_cast<int64_t>(std::nearbyint(v)) + outZp;
  }
  double ratio = static_cast<double>(inScale) / static_cast<double>(outScale);
  if (mode.floatBits == 64)
    return static_cast<int64_t>(
               std::nearbyint(static_cast<double>(x - inZp) * ratio)) +
           outZp;
  return fixedPointMultiply(x - inZp, getFixedPointMultiplier(ratio),
                            mode.upward) +
         outZp;
}

std::pair<int64_t, int64_t> quant::integerRange(IntegerType t) {
  unsigned w = t.getWidth();
  if (t.isUnsigned())
    return {0, static_cast<int64_t>((uint64_t(1) << w) - 1)};
  return {-(int64_t(1) << (w - 1)), (int64_t(1) << (w - 1)) - 1};
}

int64_t quant::shiftmaxUnit(float scale) {
  float x0 = std::round(1.f / scale);
  if (!(x0 < 2147483648.f))
    return INT32_MAX;
  return static_cast<int64_t>(x0);
}

//===- RelayOperators.cpp - Relay operators ---------------------*- C++ -*-===//
//
// The ODS-generated operator ops. Each verifies through its type relation
// (verifyOperator in OperatorRegistry.cpp).
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelayOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::relay;

#define GET_OP_CLASSES
#include "dialects/relay/RelayOperators.cpp.inc"

SmallVector<int64_t> TransposeOp::getPermutation(int64_t rank) {
  SmallVector<int64_t> axes;
  if (DenseI64ArrayAttr given = getAxesAttr())
    axes.assign(given.asArrayRef().begin(), given.asArrayRef().end());
  if (axes.empty())
    for (int64_t i = rank - 1; i >= 0; --i)
      axes.push_back(i);
  for (int64_t &a : axes)
    if (a < 0)
      a += rank;
  return axes;
}

UpSamplingOp::SourcePositions
UpSamplingOp::getSourcePositions(int64_t in, int64_t out, bool nearest,
                                 bool alignCorners) {
  // topi's resize in float32: the step is in / out (asymmetric) or
  // (in - 1) / (out - 1) (aligned corners; one output samples row 0).
  float step = alignCorners ? (out > 1 ? float(in - 1) / float(out - 1) : 0.f)
                            : float(in) / float(out);
  auto clamp = [&](float v) {
    return std::clamp<int64_t>(int64_t(v), 0, in - 1);
  };
  SourcePositions p;
  for (int64_t i = 0; i < out; ++i) {
    float y = step * float(i);
    if (nearest) {
      // Aligned corners round (tvm::round is nearbyint, half to even);
      // otherwise floor with topi's 1e-5 guard against y just under a row.
      float row = alignCorners ? std::nearbyint(y) : std::floor(y + 1e-5f);
      p.low.push_back(clamp(row));
      p.high.push_back(p.low.back());
      p.fraction.push_back(0.0);
      continue;
    }
    float row = std::floor(y);
    p.low.push_back(clamp(row));
    p.high.push_back(clamp(row + 1));
    p.fraction.push_back(double(y - row));
  }
  return p;
}

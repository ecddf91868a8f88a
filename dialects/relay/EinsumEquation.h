//===- EinsumEquation.h - einsum's subscripts --------------------*- C++
//-*-===//
//
// The equation of relay.einsum (numpy's subscripts), parsed once for the
// relation, the decomposition and the ONNX importer's diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_DIALECTS_RELAY_EINSUMEQUATION_H
#define RELAY_MLIR_DIALECTS_RELAY_EINSUMEQUATION_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::relay {

/// One subscript: a letter (its character code), or one of the dimensions
/// an ellipsis stands for, `kEinsumEllipsis + k` for the k-th counted from
/// the right (so that operands of different ranks align at the right, as
/// numpy broadcasts them).
using EinsumLabel = int;
constexpr EinsumLabel kEinsumEllipsis = 1000;

struct EinsumEquation {
  /// One label per dimension of each operand, and of the result.
  SmallVector<SmallVector<EinsumLabel>> inputs;
  SmallVector<EinsumLabel> output;

  /// Parses `equation` ("ij,jk->ik", spaces ignored; without "->" the
  /// result is the ellipsis then the letters used once, alphabetically)
  /// for operands of ranks `ranks`. On malformed subscripts returns
  /// nothing and sets `error` to what is wrong.
  static std::optional<EinsumEquation>
  parse(StringRef equation, ArrayRef<int64_t> ranks, std::string &error);

  /// A label as the equation writes it: its letter, or "...".
  static std::string describe(EinsumLabel label);
};

} // namespace mlir::relay

#endif // RELAY_MLIR_DIALECTS_RELAY_EINSUMEQUATION_H

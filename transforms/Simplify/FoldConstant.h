//===- FoldConstant.h - Values computed from constants ----------*- C++ -*-===//
//
// What --relay-fold-constant computes, for a pass that needs the value of
// one small operand (a scale, a zero point) without folding the program.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_SIMPLIFY_FOLDCONSTANT_H
#define RELAY_MLIR_TRANSFORMS_SIMPLIFY_FOLDCONSTANT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Value.h"

namespace mlir::relay {

/// The value of the tensor `v` when it is computed from constants by at
/// most `maxDepth` operators (evaluated by the interpreter's kernels, as
/// --relay-fold-constant does) and has at most `maxElements` elements;
/// null otherwise. The program is not changed.
DenseElementsAttr evaluateConstantTensor(Value v, int64_t maxElements,
                                         unsigned maxDepth = 8);

} // namespace mlir::relay

#endif // RELAY_MLIR_TRANSFORMS_SIMPLIFY_FOLDCONSTANT_H

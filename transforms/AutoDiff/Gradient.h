//===- Gradient.h - The two modes of --relay-gradient -----------*- C++ -*-===//
//
// Builders of `@<f>_grad` for --relay-gradient, one per mode, for tools
// (relay-run) that pick the mode themselves. Each expects `f` typed,
// monomorphic, with a result of floating-point tensors, and reports what it
// cannot differentiate at its location.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_AUTODIFF_GRADIENT_H
#define RELAY_MLIR_TRANSFORMS_AUTODIFF_GRADIENT_H

#include "dialects/relay/RelayOps.h"

namespace mlir::relay {

/// TVM's first-order gradient: `f` takes tensors and is built from
/// operators, constants, tuples and projections.
LogicalResult buildFirstOrderGradient(FuncOp f, StringRef gradName);

/// Whether the first-order mode applies to `f` (no diagnostics).
bool isFirstOrderDifferentiable(FuncOp f);

/// Seed 000's higher-order gradient (Fig. 4) over the whole language: every
/// function `f` reaches gets a copy over values paired with gradient
/// references, threading the backpropagator reference.
LogicalResult buildHigherOrderGradient(FuncOp f, StringRef gradName);

/// Whether values of `type` have a gradient: floating-point tensors and
/// tuples holding one.
bool holdsGradient(Type type);

/// Whether operator `op` computes from constants alone, through operators
/// (no parameter, call, reference or control flow reaches it): a value of
/// zero derivative, which needs no rule. `known` caches the answers.
bool computedFromConstants(Operation *op, DenseMap<Operation *, bool> &known);

/// Checks what both modes ask of `f` (typed, monomorphic, a result of
/// tensors with a floating-point one among them); reports otherwise.
LogicalResult checkDifferentiable(FuncOp f);

/// Decomposes, in `f` and the functions it calls, the composite operators
/// that have no gradient rule (`tangent`: no tangent rule) of their own but
/// a decomposition (--relay-decompose's: variance, instance and group norm,
/// 1-d convolutions and pools, ...), so that they are differentiated
/// through it, as TVM's users run SimplifyInference first; and the
/// operators on packed layouts (NCHW16c), which the rules take unpacked.
void decomposeWithoutRules(FuncOp f, bool tangent);

} // namespace mlir::relay

#endif // RELAY_MLIR_TRANSFORMS_AUTODIFF_GRADIENT_H

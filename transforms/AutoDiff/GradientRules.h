//===- GradientRules.h - The registry's gradient column ---------*- C++ -*-===//
//
// The built-in gradient rules (TVM's FPrimalGradient) of the operator
// registry: given an operator and the gradient of its result, each builds
// the gradients of its operands. A user registers one for their own
// operator the same way:
//
//   updateOperator("relay.my_op", [](OperatorInfo &info) {
//     info.gradient = [](OpBuilder &b, Operation *op, Value grad) { ... };
//   });
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_AUTODIFF_GRADIENTRULES_H
#define RELAY_MLIR_TRANSFORMS_AUTODIFF_GRADIENTRULES_H

namespace mlir::relay {

/// Fills the registry's gradient column for the built-in operators that
/// have a rule (idempotent; a rule a user set first is kept).
void registerGradientRules();

/// Fills the registry's tangent column (forward mode) for the built-in
/// operators that have a rule (idempotent; a rule a user set first is
/// kept).
void registerTangentRules();

} // namespace mlir::relay

#endif // RELAY_MLIR_TRANSFORMS_AUTODIFF_GRADIENTRULES_H

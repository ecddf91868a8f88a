//===- DynamicToStatic.h - Operators sized by values ------*- C++ -*-===//
//-*-===//
//
// Which operators take a shape, size or scale from an operand's value
// (RelayDynamicOperators.td): the ones --relay-dynamic-to-static makes
// static when that operand is a constant.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_SIMPLIFY_DYNAMICTOSTATIC_H
#define RELAY_MLIR_TRANSFORMS_SIMPLIFY_DYNAMICTOSTATIC_H

#include "mlir/IR/Operation.h"

namespace mlir::relay {

/// Whether `op` is a `dyn.*` operator or `arange`: its result's sizes come
/// from an operand's value, and --relay-dynamic-to-static gives it its
/// static form when that operand is a constant.
bool isShapeFromValueOperator(Operation *op);

} // namespace mlir::relay

#endif // RELAY_MLIR_TRANSFORMS_SIMPLIFY_DYNAMICTOSTATIC_H

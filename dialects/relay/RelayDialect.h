//===- RelayDialect.h - Relay dialect ---------------------------*- C++ -*-===//
//
// The relay dialect class.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_DIALECTS_RELAY_RELAYDIALECT_H
#define RELAY_MLIR_DIALECTS_RELAY_RELAYDIALECT_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/ExtensibleDialect.h"

#include "dialects/relay/RelayDialect.h.inc"

namespace mlir::relay {

/// The loop and function marks of RelayDialect.td's discardable attributes
/// (what the CPU kernels tell the code generation passes after them).
enum class CodegenMark {
  IndependentIterations,
  RowKernel,
  ImageWindows,
  LoopNest,
  AmxTiles
};

/// The attribute name of `mark` (`relay.independent_iterations`, ...).
inline llvm::StringLiteral getCodegenMarkName(CodegenMark mark) {
  switch (mark) {
  case CodegenMark::IndependentIterations:
    return RelayDialect::IndependentIterationsAttrHelper::getNameStr();
  case CodegenMark::RowKernel:
    return RelayDialect::RowKernelAttrHelper::getNameStr();
  case CodegenMark::ImageWindows:
    return RelayDialect::ImageWindowsAttrHelper::getNameStr();
  case CodegenMark::LoopNest:
    return RelayDialect::LoopNestAttrHelper::getNameStr();
  case CodegenMark::AmxTiles:
    return RelayDialect::AmxTilesAttrHelper::getNameStr();
  }
  llvm_unreachable("unknown codegen mark");
}

/// Whether `op` carries `mark`.
inline bool hasCodegenMark(Operation *op, CodegenMark mark) {
  return op->hasAttrOfType<UnitAttr>(getCodegenMarkName(mark));
}

/// Puts `mark` on `op`.
inline void setCodegenMark(Operation *op, CodegenMark mark) {
  op->setAttr(getCodegenMarkName(mark), UnitAttr::get(op->getContext()));
}

/// Whether `op` (a relay.func) is a primitive function of --relay-fuse-ops.
inline bool isPrimitiveFunction(Operation *op) {
  return op->hasAttrOfType<UnitAttr>(
      RelayDialect::PrimitiveAttrHelper::getNameStr());
}

/// Marks `op` (a relay.func) as a primitive function.
inline void setPrimitiveFunction(Operation *op) {
  op->setAttr(RelayDialect::PrimitiveAttrHelper::getNameStr(),
              UnitAttr::get(op->getContext()));
}

/// Whether `op` (a relay.func) is a region --relay-outline-native-regions
/// outlined.
inline bool isNativeRegion(Operation *op) {
  return op->hasAttrOfType<UnitAttr>(
      RelayDialect::NativeRegionAttrHelper::getNameStr());
}

/// Marks `op` (a relay.func) as a native region.
inline void setNativeRegion(Operation *op) {
  op->setAttr(RelayDialect::NativeRegionAttrHelper::getNameStr(),
              UnitAttr::get(op->getContext()));
}

/// Whether `op` (a relay.func) returns a closure --relay-lambda-lift lifted.
inline bool isClosureFunction(Operation *op) {
  return op->hasAttrOfType<UnitAttr>(
      RelayDialect::ClosureAttrHelper::getNameStr());
}

/// Marks `op` (a relay.func) as returning a lifted closure.
inline void setClosureFunction(Operation *op) {
  op->setAttr(RelayDialect::ClosureAttrHelper::getNameStr(),
              UnitAttr::get(op->getContext()));
}

} // namespace mlir::relay

#endif // RELAY_MLIR_DIALECTS_RELAY_RELAYDIALECT_H

//===- RelayAttrs.h - Relay attributes --------------------------*- C++ -*-===//
//
// Type relations and the patterns of relay.match.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_DIALECTS_RELAY_RELAYATTRS_H
#define RELAY_MLIR_DIALECTS_RELAY_RELAYATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#define GET_ATTRDEF_CLASSES
#include "dialects/relay/RelayAttrs.h.inc"

namespace mlir::relay {
/// Returns true if `attr` is one of the pattern attributes of relay.match.
inline bool isPattern(Attribute attr) {
  return isa<PatternWildcardAttr, PatternVarAttr, PatternCtorAttr,
             PatternTupleAttr>(attr);
}
} // namespace mlir::relay

#endif // RELAY_MLIR_DIALECTS_RELAY_RELAYATTRS_H

//===- DecomposedFrom.h - The composite operator an op came from -*- C++
//-*-===//
//
// --relay-decompose rewrites a composite operator (nn.nll_loss, gather_nd,
// ...) into primitive ones at its location, marked with its name. A
// run-time error of one of those (take's index out of range) then says
// which operator the user wrote, as errors of imported ops name their ONNX
// node (OnnxNodeName.h).
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_SUPPORT_DECOMPOSEDFROM_H
#define RELAY_MLIR_SUPPORT_DECOMPOSEDFROM_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"

#include <string>

namespace mlir::relay {

inline constexpr llvm::StringLiteral kDecomposedFromPrefix =
    "relay.decomposed_from:";

/// The operator (without "relay.") whose decomposition made an op at
/// `loc`, or "": the outermost, where a decomposition's ops were
/// decomposed again.
inline std::string decomposedFrom(Location loc) {
  std::string found;
  loc->walk([&](Location inner) {
    auto fused = dyn_cast<FusedLoc>(inner);
    auto tag = fused ? dyn_cast_or_null<StringAttr>(fused.getMetadata())
                     : StringAttr();
    if (!tag || !tag.getValue().starts_with(kDecomposedFromPrefix))
      return WalkResult::advance();
    found = tag.getValue().drop_front(kDecomposedFromPrefix.size()).str();
    return WalkResult::interrupt();
  });
  return found;
}

/// `loc` without the mark decomposedLocation puts around it (where the
/// location's own kind matters: a let-bound value's NameLoc).
inline Location withoutDecomposedMark(Location loc) {
  auto fused = dyn_cast<FusedLoc>(loc);
  auto tag =
      fused ? dyn_cast_or_null<StringAttr>(fused.getMetadata()) : StringAttr();
  if (tag && tag.getValue().starts_with(kDecomposedFromPrefix) &&
      fused.getLocations().size() == 1)
    return fused.getLocations().front();
  return loc;
}

/// The location of the ops that decompose `op`: its own, marked with its
/// name unless it already carries the operator it came from.
inline Location decomposedLocation(Operation *op) {
  Location loc = op->getLoc();
  if (!decomposedFrom(loc).empty())
    return loc;
  StringRef name = op->getName().getStringRef();
  name.consume_front("relay.");
  MLIRContext *ctx = op->getContext();
  return FusedLoc::get(
      ctx, {loc}, StringAttr::get(ctx, (kDecomposedFromPrefix + name).str()));
}

} // namespace mlir::relay

#endif // RELAY_MLIR_SUPPORT_DECOMPOSEDFROM_H

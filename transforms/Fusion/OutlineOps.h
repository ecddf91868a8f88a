//===- OutlineOps.h - Ops moved into a function of their own ----*- C++ -*-===//
//
// What --relay-fuse-ops does with a group (a primitive function) and
// --relay-outline-native-regions with a run of ops (a native region):
// the ops become the body of a new global function, and a call of it takes
// their place.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_FUSION_OUTLINEOPS_H
#define RELAY_MLIR_TRANSFORMS_FUSION_OUTLINEOPS_H

#include "dialects/relay/RelayOps.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir::relay {

/// Replaces `ops` (of one block, in program order) by a call of a new
/// private relay.func named `name` (made unique in `symbols`), put after
/// `insertAfter`, at `loc`. The function takes the values the ops use from
/// outside, in the order of their first use (the constants they use are
/// copied in instead, and erased where nothing else uses them), and
/// returns `outputs` (results of `ops`; a tuple of them when several, taken
/// apart after the call). The call takes the place of the last op: values
/// of `ops` other than `outputs` must be used by `ops` alone, and the ops'
/// inputs must be defined before it. Returns null, changing nothing, where
/// an input or output type is not concrete (typed with variables, or not
/// typed yet): a function has concrete types.
FuncOp outlineOps(ArrayRef<Operation *> ops, ArrayRef<Value> outputs,
                  StringRef name, Location loc, SymbolTable &symbols,
                  Operation *insertAfter);

} // namespace mlir::relay

#endif // RELAY_MLIR_TRANSFORMS_FUSION_OUTLINEOPS_H

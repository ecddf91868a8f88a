//===- LayoutRules.h - How operators follow a change of layout -*- C++ -*-===//
//
// The registry columns --relay-convert-layout and --relay-alter-op-layout
// read (TVM's FInferCorrectLayout and FTVMAlterOpLayout):
//
//  - "infer_layout": given the layouts an operator's operands are in now
//    (some changed by the ops before it) and, for an op that chooses its
//    own layout (conv2d), the layouts it is asked for, what layouts the op
//    wants its operands in, the attributes it then takes and the layout of
//    its result. Elementwise and broadcast operators without a rule follow
//    their operands.
//  - "alter_layout:<target>": the layouts a target wants an operator in.
//
// A user adds either for their own operator with the register functions.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_LAYOUT_LAYOUTRULES_H
#define RELAY_MLIR_TRANSFORMS_LAYOUT_LAYOUTRULES_H

#include "mlir/IR/Operation.h"

#include <functional>
#include <optional>
#include <string>

namespace mlir::relay::layout {

/// How a value is laid out relative to the program's original: `orig`
/// names its axes as the program had them (`NCHW`), `cur` as they are now
/// (`NHWC`). Equal (or both empty): unchanged.
struct LayoutState {
  std::string orig, cur;
  bool isIdentity() const { return orig == cur; }
  bool operator==(const LayoutState &o) const {
    return orig == o.orig && cur == o.cur;
  }
};

/// What a rule can ask about the values an op reads.
class LayoutQuery {
public:
  virtual ~LayoutQuery() = default;
  /// The layout `v` is in now.
  virtual LayoutState stateOf(Value v) const = 0;
  /// The fields of a tuple `v` built by relay.tuple in the same block
  /// (concatenate reads such a tuple); empty otherwise.
  virtual ValueRange tupleFields(Value v) const = 0;
};

/// A rule's answer: the layout each operand (or, for a tuple operand made
/// by relay.tuple, each field) must be in (a value not listed: its
/// original layout), the attributes to set, and the result's layout.
struct LayoutDecision {
  SmallVector<std::pair<Value, LayoutState>> required;
  SmallVector<NamedAttribute> attrs;
  LayoutState result;
};

/// The "infer_layout" column. `desired` holds the layouts `op` is asked to
/// take (data, then kernel), empty when it is not asked. No decision: the
/// op reads its operands in their original layouts.
using InferLayoutFn = std::function<std::optional<LayoutDecision>(
    Operation *op, const LayoutQuery &query, ArrayRef<std::string> desired)>;

/// The "alter_layout:<target>" column: the layouts `op` should take on the
/// target (as `desired` above), or none to leave it.
using AlterLayoutFn =
    std::function<std::optional<SmallVector<std::string>>(Operation *op)>;

/// Sets the rules of the operator `opName` (`relay.nn.conv2d`); fails when
/// the operator is not registered.
LogicalResult registerInferLayoutRule(StringRef opName, InferLayoutFn rule);
LogicalResult registerAlterLayoutRule(StringRef opName, StringRef target,
                                      AlterLayoutFn rule);

/// The rules of `op` (the built-in ones registered first); null when none.
/// An elementwise or broadcast operator without its own rule gets the rule
/// that follows its operands.
const InferLayoutFn *lookupInferLayoutRule(Operation *op);
const AlterLayoutFn *lookupAlterLayoutRule(Operation *op, StringRef target);

/// Whether `layout` names the axes of `of` in another order (`NHWC` of
/// `NCHW`); both must be upper-case letters, each once.
bool isPermutationOf(StringRef layout, StringRef of);

} // namespace mlir::relay::layout

#endif // RELAY_MLIR_TRANSFORMS_LAYOUT_LAYOUTRULES_H

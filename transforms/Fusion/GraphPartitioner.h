//===- GraphPartitioner.h - TVM's fusion over a post-dominator tree -*- C++
//-*-//
//
// Internal to --relay-fuse-ops: the dataflow graph of one block, its
// post-dominator tree, and TVM's GraphPartitioner, which groups the graph's
// nodes by their pattern kinds (relay/OperatorRegistry.h) and the kinds of
// the paths between them.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_FUSION_GRAPHPARTITIONER_H
#define RELAY_MLIR_TRANSFORMS_FUSION_GRAPHPARTITIONER_H

#include "dialects/relay/OperatorRegistry.h"

#include "mlir/IR/Block.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <vector>

namespace mlir::relay::fusion {

/// The more restrictive of two pattern kinds (TVM's CombinePattern).
OpPatternKind combine(OpPatternKind a, OpPatternKind b);

/// One op of the block (the terminator excluded), in program order, which
/// is a topological order.
struct GraphNode {
  Operation *op;
  unsigned index;
  OpPatternKind pattern;
  /// Its result is used outside the graph (the terminator, another block):
  /// nothing post-dominates it.
  bool externRef = false;
  /// The users in the graph, each with the edge's pattern kind.
  SmallVector<std::pair<GraphNode *, OpPatternKind>> outputs;
};

/// The dataflow graph of `block`'s ops (constants excluded: they are
/// copied into the groups that use them).
class DataflowGraph {
public:
  explicit DataflowGraph(Block &block);

  ArrayRef<std::unique_ptr<GraphNode>> getNodes() const { return nodes; }

private:
  std::vector<std::unique_ptr<GraphNode>> nodes;
  DenseMap<Operation *, GraphNode *> nodeOf;
};

/// The groups of a partition: each node's group index (equal indices, one
/// group) and each group's root (the node that produces its result).
struct Partition {
  std::vector<unsigned> groupOf;
  std::vector<unsigned> rootOf;
};

/// TVM's GraphPartitioner on `graph`; `fuseOptLevel` 0 gives every node its
/// own group.
Partition partitionGraph(const DataflowGraph &graph, int64_t fuseOptLevel,
                         int64_t maxDepth);

} // namespace mlir::relay::fusion

#endif // RELAY_MLIR_TRANSFORMS_FUSION_GRAPHPARTITIONER_H

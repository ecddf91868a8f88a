//===- GraphPartitioner.cpp - TVM's fusion over a post-dominator tree -----===//
//
// Follows TVM's src/relay/transforms/fuse_ops.cc: IndexedForwardGraph,
// DominatorTree::PostDom and GraphPartitioner::RunFuse, on the ops of one
// block.
//
//===----------------------------------------------------------------------===//

#include "transforms/Fusion/GraphPartitioner.h"

#include "dialects/relay/RelayOps.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::fusion;

OpPatternKind mlir::relay::fusion::combine(OpPatternKind a, OpPatternKind b) {
  return static_cast<int>(a) > static_cast<int>(b) ? a : b;
}

static bool le(OpPatternKind a, OpPatternKind b) {
  return static_cast<int>(a) <= static_cast<int>(b);
}

/// The pattern kind of `op` as a node of the graph.
static OpPatternKind nodePattern(Operation *op) {
  if (const OperatorInfo *info = lookupOperator(op->getName().getStringRef()))
    return info->pattern;
  if (isa<TupleOp>(op))
    return OpPatternKind::Tuple;
  if (isa<TupleGetOp>(op))
    return OpPatternKind::Injective;
  return OpPatternKind::Opaque;
}

/// Whether `type` is a tuple of tensors only: a kernel can take its fields
/// apart (TVM does not fuse through projections of other tuples).
static bool onlyTensors(Type type) {
  auto tuple = dyn_cast<TupleType>(type);
  return tuple && llvm::all_of(tuple.getTypes(), llvm::IsaPred<TensorType>);
}

/// The pattern kind of the edge from `operand` into `user`.
static OpPatternKind edgePattern(Operation *user, Value operand) {
  if (const OperatorInfo *info =
          lookupOperator(user->getName().getStringRef())) {
    // A broadcast of an operand of the result's own shape is elementwise.
    auto operandType = dyn_cast<RankedTensorType>(operand.getType());
    auto resultType =
        user->getNumResults() == 1
            ? dyn_cast<RankedTensorType>(user->getResult(0).getType())
            : nullptr;
    if (info->pattern == OpPatternKind::Broadcast && operandType &&
        resultType && operandType.getShape() == resultType.getShape())
      return OpPatternKind::ElemWise;
    return info->pattern;
  }
  if (isa<TupleOp>(user))
    return isa<TensorType>(operand.getType()) ? OpPatternKind::Injective
                                              : OpPatternKind::Opaque;
  if (isa<TupleGetOp>(user))
    return onlyTensors(operand.getType()) ? OpPatternKind::Injective
                                          : OpPatternKind::Opaque;
  return OpPatternKind::Opaque;
}

DataflowGraph::DataflowGraph(Block &block) {
  for (Operation &op : block.without_terminator()) {
    if (isa<ConstantOp>(op))
      continue;
    auto node = std::make_unique<GraphNode>();
    node->op = &op;
    node->index = nodes.size();
    node->pattern = nodePattern(&op);
    nodeOf[&op] = node.get();
    nodes.push_back(std::move(node));
  }
  for (const std::unique_ptr<GraphNode> &node : nodes)
    for (Value result : node->op->getResults())
      for (OpOperand &use : result.getUses()) {
        // The user, or the op of this block a use in a region is inside.
        Operation *user = block.findAncestorOpInBlock(*use.getOwner());
        GraphNode *consumer = user ? nodeOf.lookup(user) : nullptr;
        if (!consumer) {
          node->externRef = true;
          continue;
        }
        OpPatternKind pattern = user == use.getOwner()
                                    ? edgePattern(user, result)
                                    : OpPatternKind::Opaque;
        node->outputs.push_back({consumer, pattern});
      }
}

namespace {

/// The post-dominator tree: each node's immediate post-dominator and the
/// combined pattern kind of the paths to it.
struct PostDominatorTree {
  std::vector<int> parent;
  std::vector<unsigned> depth;
  std::vector<OpPatternKind> pattern;

  explicit PostDominatorTree(const DataflowGraph &graph) {
    size_t n = graph.getNodes().size();
    parent.assign(n, -1);
    depth.assign(n, 1);
    pattern.assign(n, OpPatternKind::Opaque);
    // Users come after their operands: reverse order sees them first.
    for (size_t i = n; i-- > 0;) {
      const GraphNode &node = *graph.getNodes()[i];
      if (node.externRef || node.outputs.empty())
        continue;
      OpPatternKind combined = OpPatternKind::ElemWise;
      int lca = node.outputs.front().first->index;
      combined = combine(combined, node.outputs.front().second);
      for (auto &[user, edge] : llvm::drop_begin(node.outputs)) {
        lca = commonAncestor(lca, user->index, combined);
        combined = combine(combined, edge);
      }
      parent[i] = lca;
      depth[i] = lca < 0 ? 1 : depth[lca] + 1;
      pattern[i] = combined;
    }
  }

  /// The least common ancestor of `a` and `b` (-1: none), combining the
  /// patterns on the way into `combined`.
  int commonAncestor(int a, int b, OpPatternKind &combined) const {
    while (a != b) {
      if (a < 0 || b < 0)
        return -1;
      if (depth[a] < depth[b]) {
        combined = combine(combined, pattern[b]);
        b = parent[b];
      } else if (depth[b] < depth[a]) {
        combined = combine(combined, pattern[a]);
        a = parent[a];
      } else {
        combined = combine(combined, combine(pattern[a], pattern[b]));
        a = parent[a];
        b = parent[b];
      }
    }
    return a;
  }
};

/// TVM's GraphPartitioner: a union-find of groups over the nodes.
class Partitioner {
public:
  Partitioner(const DataflowGraph &graph, int64_t maxDepth)
      : graph(graph), maxDepth(maxDepth) {
    for (const std::unique_ptr<GraphNode> &node : graph.getNodes())
      groups.push_back(Group{-1, node->pattern, node->index, 1,
                             node->pattern == OpPatternKind::OutEWiseFusable});
  }

  Partition run() {
    PostDominatorTree post(graph);
    for (int phase = 0; phase < 3; ++phase)
      runPhase(phase, post);
    Partition partition;
    size_t n = groups.size();
    partition.groupOf.resize(n);
    partition.rootOf.resize(n);
    for (size_t i = 0; i < n; ++i) {
      unsigned root = findRoot(i);
      partition.groupOf[i] = root;
      partition.rootOf[i] = groups[root].sink;
    }
    return partition;
  }

private:
  struct Group {
    int parent;
    OpPatternKind pattern;
    /// The node whose result is the group's (TVM's root_ref).
    unsigned sink;
    unsigned numNodes;
    /// It holds an out-elemwise-fusable op (TVM's anchor_ref): only such a
    /// group changes the pattern of the group it joins.
    bool anchored;
  };

  unsigned findRoot(unsigned g) {
    while (groups[g].parent >= 0)
      g = groups[g].parent;
    return g;
  }

  const GraphNode &node(unsigned i) const { return *graph.getNodes()[i]; }

  /// Whether every node on the paths from `src` to `sink` (not `src`)
  /// passes `condition` (given its group's pattern and whether it is the
  /// sink).
  template <typename Fn>
  bool checkPath(unsigned src, unsigned sink, Fn condition) {
    visited.clear();
    for (auto &[user, edge] : node(src).outputs)
      if (!checkPathFrom(user->index, sink, condition))
        return false;
    return true;
  }
  template <typename Fn>
  bool checkPathFrom(unsigned n, unsigned sink, Fn condition) {
    if (!visited.insert(n).second)
      return true;
    if (!condition(groups[findRoot(n)].pattern, n == sink))
      return false;
    if (n == sink)
      return true;
    for (auto &[user, edge] : node(n).outputs)
      if (!checkPathFrom(user->index, sink, condition))
        return false;
    return true;
  }

  /// Merges every node on the paths from `src` to `sink` into sink's group.
  void commitFuse(unsigned src, unsigned sink) {
    visited.clear();
    commitFuseFrom(src, sink, sink);
  }
  void commitFuseFrom(unsigned n, unsigned sink, unsigned target) {
    if (n == sink || !visited.insert(n).second)
      return;
    merge(n, target);
    for (auto &[user, edge] : node(n).outputs)
      commitFuseFrom(user->index, sink, target);
  }
  void merge(unsigned child, unsigned parent) {
    child = findRoot(child);
    parent = findRoot(parent);
    if (child == parent)
      return;
    groups[parent].numNodes += groups[child].numNodes;
    groups[child].parent = parent;
    if (groups[child].anchored) {
      groups[parent].anchored = true;
      groups[parent].pattern =
          combine(groups[child].pattern, groups[parent].pattern);
    }
  }

  /// The size the group of `sink` would reach with the nodes from `src`.
  unsigned sizeWith(unsigned src, unsigned sink) {
    visited.clear();
    return groups[findRoot(sink)].numNodes + countUpToSink(src, sink);
  }
  unsigned countUpToSink(unsigned n, unsigned sink) {
    if (n == sink || !visited.insert(n).second)
      return 0;
    unsigned sum = groups[n].numNodes;
    for (auto &[user, edge] : node(n).outputs)
      sum += countUpToSink(user->index, sink);
    return sum;
  }

  void runPhase(int phase, const PostDominatorTree &post) {
    using K = OpPatternKind;
    for (size_t i = 0; i < groups.size(); ++i) {
      const Group &group = groups[i];
      int dom = post.parent[i];
      if (group.pattern == K::Opaque || dom < 0)
        continue;
      unsigned sink = dom;
      if (sizeWith(i, sink) > maxDepth)
        continue;
      K path = post.pattern[i];
      if (phase == 2) {
        // Injective ops into tuples that were fused into injective
        // consumers (TVM's intermediate tuples).
        if (!le(group.pattern, K::Injective))
          continue;
        const Group &sinkGroup = groups[sink];
        const Group &sinkRoot = groups[findRoot(sink)];
        if (sinkRoot.pattern == K::Tuple)
          continue;
        if (sinkGroup.pattern == K::Tuple &&
            le(sinkRoot.pattern, K::Injective) &&
            checkPath(i, sink,
                      [](K kind, bool) { return le(kind, K::Injective); }))
          commitFuse(i, sink);
        continue;
      }
      if (findRoot(i) == findRoot(sink))
        continue;
      // Nothing fuses into a tuple before the third phase.
      if (groups[sink].pattern == K::Tuple)
        continue;
      if (group.pattern == K::OutEWiseFusable) {
        // Its epilogue: elementwise and broadcast ops to the post-dominator.
        if (phase == 0 && path == K::ElemWise &&
            checkPath(i, sink,
                      [](K kind, bool) { return le(kind, K::Broadcast); }))
          commitFuse(i, sink);
      } else if (le(group.pattern, K::Broadcast)) {
        if (le(path, K::Injective) || path == K::CommReduce) {
          auto condition = [](K kind, bool isSink) {
            return isSink ? le(kind, K::Injective) || kind == K::CommReduce ||
                                kind == K::OutEWiseFusable
                          : le(kind, K::Injective);
          };
          if (checkPath(i, sink, condition))
            commitFuse(i, sink);
        }
      } else if (group.pattern == K::Injective || group.pattern == K::Tuple) {
        // Injective fusion waits for the second phase.
        if (phase == 1 && le(path, K::Injective) &&
            checkPath(i, sink,
                      [](K kind, bool) { return le(kind, K::Injective); }))
          commitFuse(i, sink);
      }
      // A reduction starts no fusion (its producers fuse into it).
    }
  }

  const DataflowGraph &graph;
  int64_t maxDepth;
  std::vector<Group> groups;
  llvm::DenseSet<unsigned> visited;
};

} // namespace

Partition mlir::relay::fusion::partitionGraph(const DataflowGraph &graph,
                                              int64_t fuseOptLevel,
                                              int64_t maxDepth) {
  Partitioner partitioner(graph, fuseOptLevel <= 0 ? 1 : maxDepth);
  return partitioner.run();
}

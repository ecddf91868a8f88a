//===- FuseOps.cpp - --relay-fuse-ops -------------------------------------===//
//
// Partitions each block's operators with GraphPartitioner and outlines every
// group holding an operator into a primitive relay.func (TVM's FuseMutator).
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "dialects/relay/RelayOps.h"
#include "dialects/relay/TypeUtils.h"
#include "transforms/Fusion/GraphPartitioner.h"
#include "transforms/Fusion/OutlineOps.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::relay {
#define GEN_PASS_DEF_FUSEOPS
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::fusion;

namespace {

/// The longest function name made from op names; the symbol table keeps
/// the names unique.
constexpr size_t kMaxNameLength = 80;

bool isOperator(Operation *op) {
  return lookupOperator(op->getName().getStringRef()) != nullptr;
}

/// Whether `type` is a tensor or a tuple (nested or not) of them.
bool isTensorData(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type))
    return llvm::all_of(tuple.getTypes(), isTensorData);
  return isa<TensorType>(type);
}

/// Whether `op` takes and gives tensor data only: what a kernel can. The
/// device annotations also apply to closures, references and lists, which
/// stay where they are.
bool onTensorData(Operation *op) {
  return llvm::all_of(op->getOperandTypes(), isTensorData) &&
         llvm::all_of(op->getResultTypes(), isTensorData);
}

/// `fused_` and the names of the group's operators, dots as underscores
/// (as TVM names its kernels: fused_nn_conv2d_add_nn_relu).
std::string groupName(ArrayRef<Operation *> members) {
  std::string name = "fused";
  for (Operation *op : members) {
    if (!isOperator(op))
      continue;
    std::string opName = op->getName().stripDialect().str();
    std::replace(opName.begin(), opName.end(), '.', '_');
    if (name.size() + 1 + opName.size() > kMaxNameLength)
      break;
    name += "_" + opName;
  }
  return name;
}

class Fuser {
public:
  Fuser(ModuleOp module, int64_t fuseOptLevel, int64_t maxDepth)
      : symbols(module), fuseOptLevel(fuseOptLevel), maxDepth(maxDepth) {}

  /// Fuses the blocks of `func` and the blocks nested in them.
  void fuseFunction(FuncOp func) {
    insertAfter = func;
    SmallVector<Block *> blocks;
    func->walk<WalkOrder::PreOrder>(
        [&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks)
      fuseBlock(*block);
  }

  unsigned numGroups = 0, numFused = 0;

private:
  void fuseBlock(Block &block) {
    DataflowGraph graph(block);
    ArrayRef<std::unique_ptr<GraphNode>> nodes = graph.getNodes();
    if (nodes.empty())
      return;
    Partition partition = partitionGraph(graph, fuseOptLevel, maxDepth);
    // Each group's members in program order, keyed by its root node.
    llvm::MapVector<unsigned, SmallVector<Operation *>> groups;
    for (const std::unique_ptr<GraphNode> &node : nodes)
      groups[partition.rootOf[node->index]].push_back(node->op);
    for (auto &[root, members] : groups)
      if (llvm::any_of(members, isOperator) &&
          llvm::all_of(members, onTensorData))
        outline(members, nodes[root]->op);
  }

  /// Replaces `members` by a call of a new primitive function computing
  /// them. Only `root`, the last of them, is used outside the group (its
  /// post-dominator); the call takes its place.
  void outline(ArrayRef<Operation *> members, Operation *root) {
    // Groups typed with variables (in a polymorphic closure) or before type
    // inference are left alone (outlineOps changes nothing).
    int64_t numOperators = llvm::count_if(members, isOperator);
    FuncOp func = outlineOps(members, root->getResult(0), groupName(members),
                             root->getLoc(), symbols, insertAfter);
    if (!func)
      return;
    setPrimitiveFunction(func);
    insertAfter = func;
    ++numGroups;
    numFused += numOperators;
  }

  SymbolTable symbols;
  int64_t fuseOptLevel, maxDepth;
  Operation *insertAfter = nullptr;
};

struct FuseOpsPass : public relay::impl::FuseOpsBase<FuseOpsPass> {
  using FuseOpsBase::FuseOpsBase;

  void runOnOperation() override {
    if (maxDepth < 1) {
      emitError(getOperation().getLoc(),
                "--relay-fuse-ops: max-depth must be at "
                "least 1, got ")
          << maxDepth.getValue();
      return signalPassFailure();
    }
    Fuser fuser(getOperation(), fuseOptLevel, maxDepth);
    // Primitive functions (from an earlier run, or written so) are kernels
    // already; polymorphic functions are fused once instantiated.
    for (auto func :
         llvm::to_vector(getOperation().getBody()->getOps<FuncOp>()))
      if (!isPrimitiveFunction(func) && !func.isPolymorphic())
        fuser.fuseFunction(func);
    numGroups += fuser.numGroups;
    numFused += fuser.numFused;
  }
};

} // namespace

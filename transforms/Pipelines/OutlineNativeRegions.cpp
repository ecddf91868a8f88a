//===- OutlineNativeRegions.cpp - What native code covers, outlined -------===//
//
// --relay-outline-native-regions: in each block, the ops native code can
// compute are gathered (as far as their dependences allow) into runs, and
// each run becomes a `relay.native_region` function that relay-run's
// interpreter calls compiled (runtime/Executor/NativeRegions.h). TVM's VM
// runs programs with data-dependent sizes the same way: host code calling
// compiled kernels.
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToLinalg/OperatorPattern.h"
#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayOps.h"
#include "dialects/relay/TypeUtils.h"
#include "transforms/Decompose/Decompose.h"
#include "transforms/Fusion/OutlineOps.h"
#include "transforms/Passes.h"

#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/SetVector.h"

#include <queue>

namespace mlir::relay {
#define GEN_PASS_DEF_OUTLINENATIVEREGIONS
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// A tensor (`?` sizes allowed) or a tuple of them: what compiled code
/// takes and returns.
bool isTensorData(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return isConcrete(tensor);
  if (auto tuple = dyn_cast<TupleType>(type))
    return llvm::all_of(tuple.getTypes(), isTensorData);
  return false;
}

/// Whether `op` (an operator, a tuple or a projection) is computed by
/// native code once its operands' sizes are known: it has a lowering, it
/// takes and gives tensor data, and its result sizes follow from its
/// operands' types (no dyn.* operator, nothing whose static operands give
/// a `?` result: the sizes of those depend on values).
bool isNativeOperation(Operation *op) {
  if (isa<ConstantOp>(op))
    return true;
  StringRef name = op->getName().getStringRef();
  // An operator native code lowers, or one --relay-decompose rewrites into
  // such operators at static sizes (a region is decomposed once compiled
  // for its arguments' sizes).
  if (!isa<TupleOp, TupleGetOp>(op) &&
      (!lookupOperator(name) || name.starts_with("relay.dyn.") ||
       !(hasLinalgLowering(op) || hasDecomposition(name))))
    return false;
  // A sorting network costs seconds to compile for milliseconds of work
  // (Mask R-CNN's topk of 4,096 proposals: 7,000 operators); the
  // interpreter sorts.
  if (llvm::is_contained(getSortingOperators(), name))
    return false;
  // So do RoIAlign and RoIPool: their kernels take a detector's boxes in
  // under a millisecond, where their decompositions make the region they
  // join costly to compile (Faster R-CNN's: 265 operators, a second) and
  // may make it not worth compiling for what else it holds (its box
  // head's products, 32 ms a run interpreted).
  if (name == "relay.vision.roi_align" || name == "relay.vision.roi_pool")
    return false;
  if (!llvm::all_of(op->getOperandTypes(), isTensorData) ||
      !llvm::all_of(op->getResultTypes(), isTensorData))
    return false;
  return !llvm::all_of(op->getOperandTypes(), isStaticTensorData) ||
         llvm::all_of(op->getResultTypes(), isStaticTensorData);
}

/// Whether `op` reads only a part of an operand (its shape, a row, a
/// slice).
bool isSelection(Operation *op) {
  return isa<TakeOp, StridedSliceOp, SplitOp, GatherOp, GatherNDOp, ShapeOfOp,
             NdarraySizeOp>(op);
}

/// Whether `op`, or each op of the primitive function it calls that reads
/// a value of `?` sizes, selects a part of static size from such a value.
bool selectsFromDynamic(Operation *op) {
  if (!llvm::all_of(op->getResultTypes(), isStaticTensorData) ||
      llvm::all_of(op->getOperandTypes(), isStaticTensorData))
    return false;
  if (auto call = dyn_cast<CallOp>(op)) {
    auto callee =
        SymbolTable::lookupNearestSymbolFrom<FuncOp>(op, call.getCalleeAttr());
    return callee && isPrimitiveFunction(callee) &&
           llvm::all_of(callee.getBody().front().without_terminator(),
                        [](Operation &inner) {
                          return llvm::all_of(inner.getOperandTypes(),
                                              isStaticTensorData) ||
                                 isSelection(&inner);
                        });
  }
  return isSelection(op);
}

/// The runs of one block and the ops they hold.
class RegionOutliner {
public:
  RegionOutliner(ModuleOp module) : module(module), symbols(module) {}

  void outlineFunction(FuncOp func) {
    insertAfter = func;
    SmallVector<Block *> blocks;
    func->walk<WalkOrder::PreOrder>(
        [&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks)
      outlineBlock(*block, func.getSymName());
  }

  int64_t numRegions = 0, numOutlined = 0;

private:
  /// Whether `op`, an op of a function's body, is native (a call of a
  /// primitive function whose ops all are, or a native operation), and
  /// worth calling compiled code for: not a part of static size selected
  /// from an operand whose size is known only when it runs (a step's row
  /// of a sequence of any length, or its length). Compiled code would take
  /// that operand whole at each call, converted from the interpreter's
  /// values (an LSTM's 1,000 steps each converting all 1,000 steps' input
  /// projections: 380 us a step, where the interpreter copies the row).
  bool isNative(Operation *op) {
    if (selectsFromDynamic(op))
      return false;
    if (auto call = dyn_cast<CallOp>(op)) {
      auto callee = module.lookupSymbol<FuncOp>(call.getCalleeAttr());
      if (!callee || !isPrimitiveFunction(callee) ||
          !llvm::all_of(call->getOperandTypes(), isTensorData) ||
          !isTensorData(call.getType()))
        return false;
      auto [it, inserted] = nativeCallees.try_emplace(callee, true);
      if (inserted)
        it->second = llvm::all_of(
            callee.getBody().front().without_terminator(),
            [](Operation &inner) { return isNativeOperation(&inner); });
      return it->second;
    }
    return !isa<ConstantOp>(op) && isNativeOperation(op);
  }

  /// Orders `block`'s ops so that native ones form as few runs as the
  /// dependences allow: constants first (they depend on nothing), then a
  /// list schedule that keeps taking ops of the kind it took last, the
  /// earliest first; the other ops keep their order among themselves
  /// (they may have effects).
  void reorder(Block &block, ArrayRef<Operation *> ops,
               const DenseSet<Operation *> &native) {
    DenseMap<Operation *, unsigned> index;
    for (auto [i, op] : llvm::enumerate(ops))
      index[op] = i;
    std::vector<SmallVector<unsigned>> successors(ops.size());
    std::vector<unsigned> waiting(ops.size(), 0);
    auto addEdge = [&](unsigned from, unsigned to) {
      successors[from].push_back(to);
      ++waiting[to];
    };
    int previousOther = -1;
    for (unsigned i = 0; i < ops.size(); ++i) {
      Operation *op = ops[i];
      llvm::SmallSetVector<unsigned, 8> deps;
      op->walk([&](Operation *inner) {
        for (Value v : inner->getOperands()) {
          Operation *def = v.getDefiningOp();
          if (!def)
            continue;
          Operation *inBlock = block.findAncestorOpInBlock(*def);
          if (!inBlock || inBlock == op)
            continue;
          auto it = index.find(inBlock);
          if (it != index.end())
            deps.insert(it->second);
        }
      });
      for (unsigned d : deps)
        addEdge(d, i);
      if (!native.contains(op)) {
        if (previousOther >= 0)
          addEdge(previousOther, i);
        previousOther = i;
      }
    }
    using MinHeap =
        std::priority_queue<unsigned, std::vector<unsigned>, std::greater<>>;
    MinHeap readyNative, readyOther;
    auto makeReady = [&](unsigned i) {
      (native.contains(ops[i]) ? readyNative : readyOther).push(i);
    };
    for (unsigned i = 0; i < ops.size(); ++i)
      if (waiting[i] == 0)
        makeReady(i);
    Operation *terminator = block.getTerminator();
    bool takingNative = false;
    for (unsigned scheduled = 0; scheduled < ops.size(); ++scheduled) {
      MinHeap *heap = takingNative ? &readyNative : &readyOther;
      if (heap->empty()) {
        takingNative = !takingNative;
        heap = takingNative ? &readyNative : &readyOther;
      }
      unsigned i = heap->top();
      heap->pop();
      ops[i]->moveBefore(terminator);
      for (unsigned s : successors[i])
        if (--waiting[s] == 0)
          makeReady(s);
    }
  }

  void outlineBlock(Block &block, StringRef funcName) {
    if (block.empty() || !block.mightHaveTerminator())
      return;
    SmallVector<Operation *> ops, constants;
    DenseSet<Operation *> native;
    for (Operation &op : block.without_terminator()) {
      if (isa<ConstantOp>(op)) {
        constants.push_back(&op);
        continue;
      }
      ops.push_back(&op);
      if (isNative(&op))
        native.insert(&op);
    }
    if (native.empty())
      return;
    // Constants depend on nothing: they go first, in their order.
    for (Operation *constant : llvm::reverse(constants))
      constant->moveBefore(&block, block.begin());
    reorder(block, ops, native);
    SmallVector<Operation *> run;
    auto flush = [&] {
      if (llvm::any_of(
              run, [](Operation *op) { return !isa<TupleOp, TupleGetOp>(op); }))
        outline(run, funcName);
      run.clear();
    };
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (native.contains(&op))
        run.push_back(&op);
      else if (!isa<ConstantOp>(op))
        flush();
    }
    flush();
  }

  /// Replaces `run` (consecutive ops) by a call of a new native region
  /// computing them.
  void outline(ArrayRef<Operation *> run, StringRef funcName) {
    llvm::SmallPtrSet<Operation *, 16> inRun(run.begin(), run.end());
    SmallVector<Value> outputs;
    for (Operation *op : run)
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              return !inRun.contains(user);
            }))
          outputs.push_back(result);
    FuncOp func = outlineOps(run, outputs, (funcName + "_native").str(),
                             run.front()->getLoc(), symbols, insertAfter);
    if (!func)
      return;
    setNativeRegion(func);
    insertAfter = func;
    ++numRegions;
    numOutlined += run.size();
  }

  ModuleOp module;
  SymbolTable symbols;
  Operation *insertAfter = nullptr;
  DenseMap<Operation *, bool> nativeCallees;
};

struct OutlineNativeRegionsPass
    : public relay::impl::OutlineNativeRegionsBase<OutlineNativeRegionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    RegionOutliner outliner(module);
    // Primitive functions are kernels already; polymorphic ones are
    // outlined once instantiated.
    for (auto func : llvm::to_vector(module.getBody()->getOps<FuncOp>()))
      if (!isPrimitiveFunction(func) && !isNativeRegion(func) &&
          !func.isPolymorphic())
        outliner.outlineFunction(func);
    numRegions += outliner.numRegions;
    numOutlined += outliner.numOutlined;
  }
};

} // namespace

//===- CombineParallelOps.cpp - --relay-combine-parallel-* ----------------===//
//
// TVM's CombineParallelConv2d, CombineParallelDense and
// CombineParallelBatchMatmul: ops of one kind that read the same input with
// weights differing only in their output axis become one op on the
// weights concatenated along it, each branch a slice of its result.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "dialects/relay/RelayOps.h"
#include "transforms/Decompose/Decompose.h"
#include "transforms/Decompose/Rewrites.h"

#include "mlir/IR/Dominance.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::relay {
#define GEN_PASS_DEF_COMBINEPARALLELCONV2D
#define GEN_PASS_DEF_COMBINEPARALLELDENSE
#define GEN_PASS_DEF_COMBINEPARALLELBATCHMATMUL
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

namespace {

/// Where one kind of op's branches are joined: the weight's axis that is
/// concatenated and the result's axis that is split; -1 when the op cannot
/// be combined.
struct Axes {
  int64_t weight = -1;
  int64_t result = -1;
};

int64_t axisOf(StringRef layout, char letter) {
  size_t i = layout.find(letter);
  return i == StringRef::npos ? -1 : int64_t(i);
}

Axes conv2dAxes(Operation *op) {
  auto conv = cast<Conv2DOp>(op);
  // Packed layouts (NCHW16c) are left alone: their channels are two axes.
  if (conv.getGroups() != 1 || hasPackedLayouts(conv))
    return {};
  StringRef out = conv.getOutLayout();
  return {axisOf(conv.getKernelLayout(), 'O'),
          axisOf(out.empty() ? conv.getDataLayout() : out, 'C')};
}

Axes denseAxes(Operation *op) {
  // dense(x, w[units, in]): units are the result's last axis.
  return {0, cast<RankedTensorType>(op->getResult(0).getType()).getRank() - 1};
}

Axes batchMatmulAxes(Operation *op) {
  // batch_matmul(x[b, m, k], w[b, n, k] or w[b, k, n]): n is axis 2.
  auto bmm = cast<BatchMatmulOp>(op);
  if (bmm.getTransposeA())
    return {};
  return {bmm.getTransposeB() ? 1 : 2, 2};
}

/// The attributes that may differ between branches (the output size).
bool isSizeAttr(StringRef name) {
  return name == "channels" || name == "units";
}

/// Whether `a` and `b` (same op name, same input) can be one op: the same
/// attributes but the output size, weights of the same type but along the
/// concatenated axis, static types.
bool compatible(Operation *a, Operation *b, Axes axes) {
  for (NamedAttribute attr : a->getAttrs())
    if (!isSizeAttr(attr.getName()) &&
        b->getAttr(attr.getName()) != attr.getValue())
      return false;
  for (NamedAttribute attr : b->getAttrs())
    if (!isSizeAttr(attr.getName()) && !a->getAttr(attr.getName()))
      return false;
  auto wa = dyn_cast<RankedTensorType>(a->getOperand(1).getType());
  auto wb = dyn_cast<RankedTensorType>(b->getOperand(1).getType());
  if (!wa || !wb || !wa.hasStaticShape() || !wb.hasStaticShape() ||
      wa.getElementType() != wb.getElementType() ||
      wa.getRank() != wb.getRank())
    return false;
  for (int64_t i = 0; i < wa.getRank(); ++i)
    if (i != axes.weight && wa.getDimSize(i) != wb.getDimSize(i))
      return false;
  return true;
}

/// Combines the ops named `opName` with at least `minBranches` branches on
/// one input; returns the number of ops combined.
unsigned combineParallel(Operation *root, StringRef opName,
                         function_ref<Axes(Operation *)> axesOf,
                         int64_t minBranches) {
  // The candidate ops by input, in program order.
  llvm::MapVector<Value, SmallVector<Operation *>> byInput;
  root->walk([&](Operation *op) {
    if (op->getName().getStringRef() != opName || op->getNumOperands() != 2)
      return;
    auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!result || !result.hasStaticShape())
      return;
    Axes axes = axesOf(op);
    if (axes.weight < 0 || axes.result < 0)
      return;
    byInput[op->getOperand(0)].push_back(op);
  });

  unsigned combined = 0;
  DominanceInfo dominance(root);
  for (auto &[input, ops] : byInput) {
    // Split into groups of mutually compatible ops in one block (greedily,
    // against each group's first op).
    SmallVector<SmallVector<Operation *>> groups;
    for (Operation *op : ops) {
      auto it = llvm::find_if(groups, [&](SmallVector<Operation *> &group) {
        return group.front()->getBlock() == op->getBlock() &&
               compatible(group.front(), op, axesOf(op));
      });
      if (it == groups.end())
        groups.push_back({op});
      else
        it->push_back(op);
    }
    for (SmallVector<Operation *> &group : groups) {
      // The combined op stands where the first branch did: the other
      // branches' weights must be defined there already.
      Operation *first = group.front();
      for (Operation *op : group)
        if (op->isBeforeInBlock(first))
          first = op;
      llvm::erase_if(group, [&](Operation *op) {
        return !dominance.properlyDominates(op->getOperand(1), first);
      });
      if (int64_t(group.size()) < minBranches ||
          !llvm::is_contained(group, first))
        continue;

      Axes axes = axesOf(first);
      PatternRewriter rewriter(root->getContext());
      rewriter.setInsertionPoint(first);
      Location loc = first->getLoc();
      Emitter b(rewriter, loc);
      SmallVector<Value> weights;
      int64_t total = 0;
      for (Operation *op : group) {
        weights.push_back(op->getOperand(1));
        total += cast<RankedTensorType>(op->getResult(0).getType())
                     .getDimSize(axes.result);
      }
      Value weight =
          b.op<ConcatenateOp>({b.tuple(weights)}, {b.i64("axis", axes.weight)});
      if (!weight)
        continue;
      auto resultType = cast<RankedTensorType>(first->getResult(0).getType());
      SmallVector<int64_t> shape(resultType.getShape());
      shape[axes.result] = total;
      SmallVector<NamedAttribute> attrs;
      for (NamedAttribute attr : first->getAttrs())
        attrs.push_back(
            isSizeAttr(attr.getName())
                ? rewriter.getNamedAttr(attr.getName(),
                                        rewriter.getI64IntegerAttr(total))
                : attr);
      OperationState state(
          loc, first->getName(), {input, weight},
          {RankedTensorType::get(shape, resultType.getElementType())}, attrs);
      Value whole = rewriter.create(state)->getResult(0);
      // Each branch is its slice of the result along the split axis.
      int64_t offset = 0;
      for (Operation *op : group) {
        auto type = cast<RankedTensorType>(op->getResult(0).getType());
        int64_t size = type.getDimSize(axes.result);
        SmallVector<int64_t> begin(shape.size(), 0), end(shape);
        begin[axes.result] = offset;
        end[axes.result] = offset + size;
        offset += size;
        Value slice = b.op<StridedSliceOp>(
            {whole},
            {b.ints("begin", begin), b.ints("end", end),
             b.ints("strides", SmallVector<int64_t>(shape.size(), 1))});
        rewriter.replaceOp(op, slice);
      }
      combined += group.size();
    }
  }
  return combined;
}

struct CombineParallelConv2dPass
    : public relay::impl::CombineParallelConv2dBase<CombineParallelConv2dPass> {
  using CombineParallelConv2dBase::CombineParallelConv2dBase;
  void runOnOperation() override {
    numCombined += combineParallel(getOperation(), Conv2DOp::getOperationName(),
                                   conv2dAxes, minNumBranches);
  }
};

struct CombineParallelDensePass
    : public relay::impl::CombineParallelDenseBase<CombineParallelDensePass> {
  using CombineParallelDenseBase::CombineParallelDenseBase;
  void runOnOperation() override {
    numCombined += combineParallel(getOperation(), DenseOp::getOperationName(),
                                   denseAxes, minNumBranches);
  }
};

struct CombineParallelBatchMatmulPass
    : public relay::impl::CombineParallelBatchMatmulBase<
          CombineParallelBatchMatmulPass> {
  using CombineParallelBatchMatmulBase::CombineParallelBatchMatmulBase;
  void runOnOperation() override {
    numCombined +=
        combineParallel(getOperation(), BatchMatmulOp::getOperationName(),
                        batchMatmulAxes, minNumBranches);
  }
};

} // namespace

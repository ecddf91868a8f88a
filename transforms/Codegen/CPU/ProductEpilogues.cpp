//===- ProductEpilogues.cpp - Elementwise ops in a product's tiles -------===//
//
// See ProductEpilogues.h. The epilogue runs in the product's index space:
// a band of a 1x1 convolution is a [16, 3136] product read back as
// [1, 16, 56, 56], and a register tile's row of 16 positions crosses the
// image's rows, so the epilogue's operands are viewed as the product's
// dimensions (the output's [1, 16] and [56, 56] collapsed, the bias's
// [16, 1, 1] read at [f, 0, 0]).
//
//===----------------------------------------------------------------------===//

#include "transforms/Codegen/CPU/ProductEpilogues.h"
#include "transforms/Codegen/ElementwiseRows.h"

#include "mlir/Dialect/Affine/ViewLikeInterfaceUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace {

/// The most rows of one register tile the epilogue is cloned on (the
/// tiles are 8x32 or 16x16; anything larger is not a register tile).
constexpr int64_t kMaxTileRows = 32;

/// The buffer `v` views (through view-like ops); `v` itself when it is not
/// a buffer (a scalar input).
Value rootOf(Value v) {
  auto buffer = dyn_cast<MemrefValue>(v);
  return buffer ? memref::skipViewLikeOps(buffer) : v;
}

/// The input of `epilogue` that reads `buffer`, itself or one expand_shape
/// of it, through the identity; null when there is none, or another input
/// reads the buffer too.
OpOperand *productInput(linalg::GenericOp epilogue, Value buffer) {
  OpOperand *found = nullptr;
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    Value v = input->get();
    if (rootOf(v) != buffer)
      continue;
    auto expand = v.getDefiningOp<memref::ExpandShapeOp>();
    if (found || (v != buffer && (!expand || expand.getSrc() != buffer)) ||
        !epilogue.getMatchingIndexingMap(input).isIdentity())
      return nullptr;
    found = input;
  }
  return found;
}

/// An operand of the epilogue seen in the product's index space: its
/// dimensions collapsed where several make one of the product's, and its
/// indexing map over the product's dimensions.
struct ProductSpaceOperand {
  SmallVector<ReassociationIndices> collapse;
  AffineMap map;

  bool needsCollapse() const {
    return llvm::any_of(collapse, [](const ReassociationIndices &group) {
      return group.size() > 1;
    });
  }
};

/// `map`, an epilogue's indexing map, over the product's dimensions, where
/// the epilogue's loops (of extents `ranges`) are the product's dimensions
/// expanded by `groups`. An operand reads a group's loops as one dimension
/// of its own (the run of its dimensions that gets collapsed): all of the
/// group's loops in their order, but for loops of extent 1, which it may
/// skip; or none of them. Failure otherwise, or when it reads a loop
/// through anything but the loop itself or a constant.
FailureOr<ProductSpaceOperand>
inProductSpace(AffineMap map, ArrayRef<ReassociationIndices> groups,
               ArrayRef<int64_t> ranges, MLIRContext *ctx) {
  unsigned results = map.getNumResults();
  // The group each result reads (-1: a constant).
  SmallVector<int64_t> groupOf(results, -1);
  for (auto [i, result] : llvm::enumerate(map.getResults())) {
    if (auto dim = dyn_cast<AffineDimExpr>(result)) {
      for (auto [g, group] : llvm::enumerate(groups))
        if (llvm::is_contained(group, dim.getPosition()))
          groupOf[i] = g;
    } else if (!isa<AffineConstantExpr>(result)) {
      return failure();
    }
  }
  ProductSpaceOperand out;
  SmallVector<AffineExpr> exprs;
  llvm::SmallDenseSet<int64_t> seen;
  for (unsigned i = 0; i < results;) {
    int64_t g = groupOf[i];
    if (g < 0) {
      out.collapse.push_back({i});
      exprs.push_back(map.getResult(i));
      ++i;
      continue;
    }
    if (!seen.insert(g).second)
      return failure();
    unsigned end = i;
    while (end < results && groupOf[end] == g)
      ++end;
    ArrayRef<int64_t> group = groups[g];
    size_t next = 0;
    ReassociationIndices run;
    for (unsigned r = i; r < end; ++r) {
      int64_t dim = cast<AffineDimExpr>(map.getResult(r)).getPosition();
      for (; next < group.size() && group[next] != dim; ++next)
        if (ranges[group[next]] != 1)
          return failure();
      if (next == group.size())
        return failure();
      ++next;
      run.push_back(r);
    }
    for (; next < group.size(); ++next)
      if (ranges[group[next]] != 1)
        return failure();
    out.collapse.push_back(run);
    exprs.push_back(getAffineDimExpr(g, ctx));
    i = end;
  }
  out.map = AffineMap::get(groups.size(), 0, exprs, ctx);
  return out;
}

/// Whether `write` (minor identity) stays within its buffer: marked so, or
/// at constant indices of a static shape (tiling leaves a tile's writes at
/// [0, 0] of their subview unmarked).
bool inBounds(vector::TransferWriteOp write) {
  auto type = cast<MemRefType>(write.getBase().getType());
  ArrayRef<int64_t> vector = write.getVectorType().getShape();
  int64_t skipped = type.getRank() - vector.size();
  for (auto [i, size] : llvm::enumerate(vector)) {
    if (write.isDimInBounds(i))
      continue;
    std::optional<int64_t> at =
        getConstantIntValue(write.getIndices()[skipped + i]);
    int64_t dim = type.getDimSize(skipped + i);
    if (!at || ShapedType::isDynamic(dim) || *at + size > dim)
      return false;
  }
  return true;
}

/// The indices into `buffer` of the first element `write` stores, through
/// the subviews between them.
SmallVector<Value> indicesInBuffer(RewriterBase &rewriter,
                                   vector::TransferWriteOp write,
                                   Value buffer) {
  SmallVector<Value> at(write.getIndices());
  for (Value v = write.getBase(); v != buffer;) {
    auto subview = v.getDefiningOp<memref::SubViewOp>();
    SmallVector<Value> resolved;
    affine::resolveIndicesIntoOpWithOffsetsAndStrides(
        rewriter, write.getLoc(), subview.getMixedOffsets(),
        subview.getMixedStrides(), subview.getDroppedDims(), at, resolved);
    at = std::move(resolved);
    v = subview.getSource();
  }
  return at;
}

} // namespace

linalg::GenericOp relay::cpu::findProductEpilogue(linalg::LinalgOp product) {
  if (product.getNumDpsInits() != 1)
    return nullptr;
  Value buffer = product.getDpsInits()[0];
  auto alloc = buffer.getDefiningOp<memref::AllocOp>();
  if (!alloc || !alloc.getType().hasStaticShape())
    return nullptr;
  linalg::GenericOp epilogue;
  for (Operation *next = product->getNextNode(); next;
       next = next->getNextNode()) {
    if ((epilogue = dyn_cast<linalg::GenericOp>(next)))
      break;
    if (!isMemoryEffectFree(next) || next->getNumRegions() != 0)
      return nullptr;
  }
  if (!epilogue || !epilogue.hasPureBufferSemantics() ||
      epilogue.getNumReductionLoops() != 0 || epilogue.getNumDpsInits() != 1 ||
      epilogue.hasDynamicShape() || !relay::hasVectorizableBody(epilogue) ||
      !productInput(epilogue, buffer))
    return nullptr;
  // The output is neither read by the product (it is written before the
  // product ends) nor by the epilogue other than element for element.
  Value out = rootOf(epilogue.getDpsInits()[0]);
  if (out == buffer ||
      llvm::any_of(product.getDpsInputs(),
                   [&](Value v) { return rootOf(v) == out; }) ||
      llvm::any_of(epilogue.getDpsInputs(),
                   [&](Value v) { return rootOf(v) == out; }))
    return nullptr;
  return epilogue;
}

LogicalResult relay::cpu::fuseEpilogueIntoTiles(RewriterBase &rewriter,
                                                linalg::GenericOp epilogue,
                                                Value buffer) {
  OpOperand *fromProduct = productInput(epilogue, buffer);
  if (!fromProduct)
    return failure();
  auto bufferType = cast<MemRefType>(buffer.getType());
  int64_t rank = bufferType.getRank();
  Operation *reshape = fromProduct->get() == buffer
                           ? nullptr
                           : fromProduct->get().getDefiningOp();
  if (reshape && !reshape->hasOneUse())
    return failure();
  // Every other use of the buffer stores whole rows of tiles, before the
  // epilogue, through unit-stride subviews: nothing reads a tile back (a
  // later k tile), so each holds the product's final value.
  Block *block = epilogue->getBlock();
  SmallVector<vector::TransferWriteOp> writes;
  std::function<bool(Value)> onlyStored = [&](Value v) {
    for (Operation *user : v.getUsers()) {
      if (user == epilogue || user == reshape)
        continue;
      if (auto subview = dyn_cast<memref::SubViewOp>(user)) {
        if (!subview.hasUnitStride() || subview.getType().getRank() != rank ||
            !onlyStored(subview))
          return false;
        continue;
      }
      auto write = dyn_cast<vector::TransferWriteOp>(user);
      Operation *holder = block->findAncestorOpInBlock(*user);
      if (!write || write.getBase() != v || write.getMask() ||
          !inBounds(write) || write.getVectorType().getRank() == 0 ||
          !write.getPermutationMap().isMinorIdentity() || !holder ||
          !holder->isBeforeInBlock(epilogue))
        return false;
      writes.push_back(write);
    }
    return true;
  };
  if (!onlyStored(buffer) || writes.empty())
    return failure();
  for (vector::TransferWriteOp write : writes) {
    ArrayRef<int64_t> shape = write.getVectorType().getShape();
    if (computeProduct(shape.drop_back()) > kMaxTileRows)
      return failure();
  }

  // The epilogue's loops as the product's dimensions expanded.
  SmallVector<ReassociationIndices> groups;
  if (auto expand = dyn_cast_or_null<memref::ExpandShapeOp>(reshape))
    groups = expand.getReassociationIndices();
  else
    for (int64_t d = 0; d < rank; ++d)
      groups.push_back({d});
  SmallVector<int64_t> ranges = epilogue.getStaticLoopRanges();
  MLIRContext *ctx = rewriter.getContext();
  SmallVector<std::optional<ProductSpaceOperand>> operands;
  for (OpOperand &operand : epilogue->getOpOperands()) {
    if (&operand == fromProduct) {
      operands.push_back(std::nullopt);
      continue;
    }
    FailureOr<ProductSpaceOperand> seen = inProductSpace(
        epilogue.getMatchingIndexingMap(&operand), groups, ranges, ctx);
    if (failed(seen))
      return failure();
    bool output = epilogue.isDpsInit(&operand);
    if (output ? !seen->map.isIdentity() : !readableAlongRows(seen->map))
      return failure();
    if (seen->needsCollapse() &&
        !memref::CollapseShapeOp::isGuaranteedCollapsible(
            cast<MemRefType>(operand.get().getType()), seen->collapse))
      return failure();
    operands.push_back(*seen);
  }
  // The operands' views go before the product's loops.
  Operation *first = nullptr;
  for (vector::TransferWriteOp write : writes) {
    Operation *holder = block->findAncestorOpInBlock(*write);
    if (!first || holder->isBeforeInBlock(first))
      first = holder;
  }
  for (OpOperand &operand : epilogue->getOpOperands())
    if (&operand != fromProduct && !makeAvailableBefore(operand.get(), first))
      return failure();
  rewriter.setInsertionPoint(first);
  SmallVector<Value> views;
  for (auto [operand, seen] : llvm::zip(epilogue->getOpOperands(), operands)) {
    Value view = operand.get();
    if (seen && seen->needsCollapse())
      view = memref::CollapseShapeOp::create(rewriter, epilogue.getLoc(), view,
                                             seen->collapse);
    views.push_back(view);
  }

  auto outOperand = epilogue.getDpsInitOperand(0);
  Value out = views[outOperand->getOperandNumber()];
  AffineMap rowMap = AffineMap::getMinorIdentityMap(rank, 1, ctx);
  for (vector::TransferWriteOp write : writes) {
    rewriter.setInsertionPoint(write);
    Location loc = write.getLoc();
    SmallVector<Value> at = indicesInBuffer(rewriter, write, buffer);
    VectorType type = write.getVectorType();
    int64_t vectorRank = type.getRank(), lanes = type.getShape().back();
    SmallVector<int64_t> leading(type.getShape().drop_back());
    SmallVector<int64_t> strides = computeStrides(leading);
    for (int64_t linear = 0, rows = computeProduct(leading); linear < rows;
         ++linear) {
      SmallVector<int64_t> position = leading.empty()
                                          ? SmallVector<int64_t>{}
                                          : delinearize(linear, strides);
      Value row = leading.empty()
                      ? write.getVector()
                      : vector::ExtractOp::create(rewriter, loc,
                                                  write.getVector(), position)
                            .getResult();
      SmallVector<Value> atRow(at);
      for (auto [i, offset] : llvm::enumerate(position))
        if (offset != 0) {
          Value &index = atRow[rank - vectorRank + i];
          index = arith::AddIOp::create(
              rewriter, loc, index,
              arith::ConstantIndexOp::create(rewriter, loc, offset));
        }
      SmallVector<Value> inputs;
      for (OpOperand *input : epilogue.getDpsInputOperands()) {
        unsigned n = input->getOperandNumber();
        inputs.push_back(input == fromProduct
                             ? row
                             : readOperandRow(rewriter, loc, views[n],
                                              operands[n]->map, atRow, lanes,
                                              /*mask=*/nullptr));
      }
      Value result = applyBodyToRows(rewriter, loc, epilogue, inputs, lanes);
      vector::TransferWriteOp::create(rewriter, loc, result, out, atRow, rowMap,
                                      ArrayRef<bool>{true});
    }
    rewriter.eraseOp(write);
  }
  rewriter.eraseOp(epilogue);
  if (reshape)
    rewriter.eraseOp(reshape);
  // The buffer and its subviews are unused now.
  std::function<void(Value)> eraseViews = [&](Value v) {
    for (Operation *user : llvm::make_early_inc_range(v.getUsers())) {
      eraseViews(user->getResult(0));
      rewriter.eraseOp(user);
    }
  };
  eraseViews(buffer);
  rewriter.eraseOp(buffer.getDefiningOp());
  return success();
}

//===- ElementwiseRows.cpp - Elementwise generics on row vectors ---------===//
//
// See ElementwiseRows.h.
//
//===----------------------------------------------------------------------===//

#include "transforms/Codegen/ElementwiseRows.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

bool relay::hasVectorizableBody(linalg::GenericOp op) {
  Block *body = op.getBlock();
  for (Operation &inner : body->without_terminator()) {
    if (!inner.hasTrait<OpTrait::Elementwise>() || inner.getNumResults() != 1 ||
        inner.getNumRegions() != 0)
      return false;
    for (Value v : inner.getOperands()) {
      if (v.getParentBlock() == body)
        continue;
      // A scalar constant, broadcast.
      Operation *def = v.getDefiningOp();
      if (!def || !def->hasTrait<OpTrait::ConstantLike>() ||
          !v.getType().isIntOrIndexOrFloat())
        return false;
    }
  }
  // The output's current value is not read.
  return llvm::all_of(op.getRegionOutputArgs(),
                      [](BlockArgument arg) { return arg.use_empty(); });
}

bool relay::readableAlongRows(AffineMap map) {
  unsigned inner = map.getNumDims() - 1;
  for (auto [i, result] : llvm::enumerate(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(result);
    if (!dim && !isa<AffineConstantExpr>(result))
      return false;
    if (dim && dim.getPosition() == inner && i + 1 != map.getNumResults())
      return false;
  }
  return true;
}

Value relay::readOperandRow(OpBuilder &b, Location loc, Value source,
                            AffineMap map, ArrayRef<Value> at, int64_t lanes,
                            Value mask) {
  // A scalar input, broadcast.
  if (!isa<ShapedType>(source.getType()))
    return vector::BroadcastOp::create(
        b, loc, VectorType::get({lanes}, source.getType()), source);
  unsigned inner = map.getNumDims() - 1;
  SmallVector<Value> indices;
  bool alongRow = false;
  for (AffineExpr result : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(result)) {
      alongRow |= dim.getPosition() == inner;
      indices.push_back(at[dim.getPosition()]);
    } else {
      indices.push_back(arith::ConstantIndexOp::create(
          b, loc, cast<AffineConstantExpr>(result).getValue()));
    }
  }
  Type e = cast<ShapedType>(source.getType()).getElementType();
  auto type = VectorType::get({lanes}, e);
  if (alongRow)
    return vector::TransferReadOp::create(
        b, loc, type, source, indices,
        AffineMap::getMinorIdentityMap(indices.size(), 1, b.getContext()),
        arith::ConstantOp::create(b, loc, b.getZeroAttr(e)), mask,
        b.getBoolArrayAttr({true}));
  Value scalar =
      isa<MemRefType>(source.getType())
          ? memref::LoadOp::create(b, loc, source, indices).getResult()
          : tensor::ExtractOp::create(b, loc, source, indices).getResult();
  return vector::BroadcastOp::create(b, loc, type, scalar);
}

Value relay::applyBodyToRows(OpBuilder &b, Location loc, linalg::GenericOp op,
                             ArrayRef<Value> inputs, int64_t lanes) {
  Block *body = op.getBlock();
  IRMapping mapping;
  for (auto [arg, row] : llvm::zip(op.getRegionInputArgs(), inputs))
    mapping.map(arg, row);
  for (Operation &inner : body->without_terminator()) {
    SmallVector<Value> operands;
    for (Value v : inner.getOperands()) {
      if (Value mapped = mapping.lookupOrNull(v)) {
        operands.push_back(mapped);
        continue;
      }
      // A constant from outside the body, broadcast.
      Operation *constant = b.clone(*v.getDefiningOp());
      operands.push_back(vector::BroadcastOp::create(
          b, loc, VectorType::get({lanes}, v.getType()),
          constant->getResult(0)));
    }
    OperationState state(loc, inner.getName());
    state.addOperands(operands);
    state.addAttributes(inner.getAttrs());
    state.addTypes(VectorType::get({lanes}, inner.getResult(0).getType()));
    mapping.map(inner.getResult(0), b.create(state)->getResult(0));
  }
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  return mapping.lookup(yield.getOperand(0));
}

static bool makeAvailableBefore(Value value, Operation *op, int depth) {
  Block *block = op->getBlock();
  Operation *def = value.getDefiningOp();
  if (!def)
    return value.getParentBlock() == block ||
           value.getParentRegion()->isProperAncestor(block->getParent());
  if (def->getBlock() != block) {
    // Defined in a block around `op`'s, before the op that holds it.
    Operation *holder = def->getBlock()->findAncestorOpInBlock(*op);
    return holder && def->isBeforeInBlock(holder);
  }
  if (def->isBeforeInBlock(op))
    return true;
  if (def == op || depth > 4 || !isMemoryEffectFree(def) ||
      def->getNumRegions() != 0)
    return false;
  for (Value operand : def->getOperands())
    if (!makeAvailableBefore(operand, op, depth + 1))
      return false;
  def->moveBefore(op);
  return true;
}

bool relay::makeAvailableBefore(Value value, Operation *op) {
  return ::makeAvailableBefore(value, op, 0);
}

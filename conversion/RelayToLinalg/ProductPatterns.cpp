//===- ProductPatterns.cpp - Matrix products to linalg ----------*- C++ -*-===//
//
// nn.dense, nn.matmul and nn.batch_matmul: a contraction over the reduction
// dimension (with leading dimensions folded into rows, a batch of one
// broadcast), which the lowering target builds.
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "conversion/RelayToLinalg/OperatorPattern.h"
#include "conversion/RelayToLinalg/RelayToLinalg.h"

#include "dialects/relay/RelayOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

/// Whether products of `type`'s elements lower: floats (the target's
/// kernels) and integers (int8 x int8 -> int32 and the like).
bool isProductType(RankedTensorType type) {
  if (!type || !type.hasStaticShape())
    return false;
  Type e = type.getElementType();
  return isa<FloatType>(e) ||
         (isa<IntegerType>(e) && e.getIntOrFloatBitWidth() > 1);
}

/// The contraction of `operands` into `type`: the target's for floats.
Value contraction(OpBuilder &b, Operation *op, const LoweringTarget &target,
                  RankedTensorType type, ValueRange operands, unsigned numDims,
                  ArrayRef<AffineMap> maps) {
  if (isa<FloatType>(type.getElementType()))
    return target.buildContraction(b, op->getLoc(), type, operands, numDims,
                                   maps);
  bool zeroExtend[2] = {isUnsignedValue(op->getOperand(0)),
                        isUnsignedValue(op->getOperand(1))};
  return integerContraction(b, op->getLoc(), type, operands, zeroExtend,
                            numDims, maps);
}

/// A product over a reduction dimension given the iteration-space maps.
FailureOr<SmallVector<Value>> product(OpBuilder &b, Operation *op,
                                      ValueRange operands,
                                      const LoweringTarget &target,
                                      unsigned numDims,
                                      ArrayRef<AffineMap> maps) {
  RankedTensorType type = resultType(op);
  if (!isProductType(type))
    return failure();
  return SmallVector<Value>{
      contraction(b, op, target, type, operands, numDims, maps)};
}

FailureOr<SmallVector<Value>> denseRule(OpBuilder &b, Operation *op,
                                        ValueRange operands,
                                        const LoweringTarget &target) {
  auto a = cast<RankedTensorType>(operands[0].getType());
  RankedTensorType type = resultType(op);
  if (a.getRank() < 1 || !isProductType(type))
    return failure();
  Location loc = op->getLoc();
  MLIRContext *ctx = b.getContext();
  // Data [..., k] is a matrix [m, k] with m the product of the leading
  // dimensions; the result [m, n] is reshaped back.
  Value data = operands[0];
  int64_t rank = a.getRank();
  int64_t n = type.getShape().back(), m = type.getNumElements() / n;
  auto type2d = RankedTensorType::get({m, n}, type.getElementType());
  if (rank != 2) {
    ReassociationIndices leading;
    for (int64_t d = 0; d + 1 < rank; ++d)
      leading.push_back(d);
    data = rank == 1
               ? tensor::ExpandShapeOp::create(
                     b, loc,
                     RankedTensorType::get({1, a.getDimSize(0)},
                                           a.getElementType()),
                     data, SmallVector<ReassociationIndices>{{0, 1}})
                     .getResult()
               : tensor::CollapseShapeOp::create(
                     b, loc, data,
                     SmallVector<ReassociationIndices>{leading, {rank - 1}})
                     .getResult();
  }
  // Signed bytes into int32: the target's own kernels where it has them
  // (the weights constant).
  Value out;
  if (type.getElementType().isSignlessInteger(32) &&
      a.getElementType().isSignlessInteger(8) &&
      cast<RankedTensorType>(operands[1].getType())
          .getElementType()
          .isSignlessInteger(8) &&
      !isUnsignedValue(op->getOperand(0)) &&
      !isUnsignedValue(op->getOperand(1)))
    out = target.buildInt8Dense(b, loc, type2d, data, operands[1]);
  // (m, n, k): data (m, k), weight (n, k), out (m, n).
  if (!out)
    out = contraction(
        b, op, target, type2d, ValueRange{data, operands[1]}, 3,
        {map(ctx, 3, {0, 2}), map(ctx, 3, {1, 2}), map(ctx, 3, {0, 1})});
  if (rank == 2)
    return SmallVector<Value>{out};
  SmallVector<ReassociationIndices> back;
  if (type.getRank() == 1) {
    back.push_back({0, 1});
  } else {
    ReassociationIndices leading;
    for (int64_t d = 0; d + 1 < type.getRank(); ++d)
      leading.push_back(d);
    back = {leading, {type.getRank() - 1}};
  }
  return SmallVector<Value>{
      type.getRank() == 1
          ? Value(tensor::CollapseShapeOp::create(b, loc, type, out, back))
          : Value(tensor::ExpandShapeOp::create(b, loc, type, out, back))};
}

FailureOr<SmallVector<Value>> batchMatmulRule(OpBuilder &b, Operation *op,
                                              ValueRange operands,
                                              const LoweringTarget &target) {
  auto x = cast<RankedTensorType>(operands[0].getType());
  auto y = cast<RankedTensorType>(operands[1].getType());
  bool ta = getOperatorAttributes(op).get("transpose_a") == b.getBoolAttr(true);
  bool tb = getOperatorAttributes(op).get("transpose_b") == b.getBoolAttr(true);
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> args(operands);
  int64_t batch = std::max(x.getShape()[0], y.getShape()[0]);
  if (x.getShape()[0] != y.getShape()[0]) {
    // A batch of one broadcasts: copy it to every batch entry first.
    int64_t single = x.getShape()[0] == 1 ? 0 : 1;
    auto t = cast<RankedTensorType>(args[single].getType());
    if (t.getShape()[0] != 1)
      return failure();
    SmallVector<int64_t> shape(t.getShape());
    shape[0] = batch;
    AffineExpr d0, d1, d2;
    bindDims(ctx, d0, d1, d2);
    args[single] =
        linalg::GenericOp::create(
            b, op->getLoc(), TypeRange{t.clone(shape)}, args[single],
            ValueRange{tensor::EmptyOp::create(b, op->getLoc(), shape,
                                               t.getElementType())
                           .getResult()},
            {AffineMap::get(3, 0, {getAffineConstantExpr(0, ctx), d1, d2}, ctx),
             AffineMap::getMultiDimIdentityMap(3, ctx)},
            SmallVector<utils::IteratorType>(3, utils::IteratorType::parallel),
            [](OpBuilder &nb, Location l, ValueRange a) {
              linalg::YieldOp::create(nb, l, a[0]);
            })
            .getResult(0);
  }
  // (b, m, n, k)
  return product(b, op, args, target, 4,
                 {ta ? map(ctx, 4, {0, 3, 1}) : map(ctx, 4, {0, 1, 3}),
                  tb ? map(ctx, 4, {0, 2, 3}) : map(ctx, 4, {0, 3, 2}),
                  map(ctx, 4, {0, 1, 2})});
}

FailureOr<SmallVector<Value>> matmulRule(OpBuilder &b, Operation *op,
                                         ValueRange operands,
                                         const LoweringTarget &target) {
  auto a = cast<RankedTensorType>(operands[0].getType());
  if (a.getRank() != 2)
    return failure();
  bool ta = getOperatorAttributes(op).get("transpose_a") == b.getBoolAttr(true);
  bool tb = getOperatorAttributes(op).get("transpose_b") == b.getBoolAttr(true);
  MLIRContext *ctx = b.getContext();
  return product(b, op, operands, target, 3,
                 {ta ? map(ctx, 3, {2, 0}) : map(ctx, 3, {0, 2}),
                  tb ? map(ctx, 3, {1, 2}) : map(ctx, 3, {2, 1}),
                  map(ctx, 3, {0, 1})});
}

} // namespace

void mlir::relay::populateRelayProductToLinalgPatterns(
    RelayTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringTarget &target) {
  patterns.add<TargetRuleLowering<DenseOp, denseRule>,
               TargetRuleLowering<MatmulOp, matmulRule>,
               TargetRuleLowering<BatchMatmulOp, batchMatmulRule>>(
      converter, patterns.getContext(), target);
}

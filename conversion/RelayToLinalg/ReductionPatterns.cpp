//===- ReductionPatterns.cpp - Reductions to linalg -------------*- C++ -*-===//
//
// sum, mean, max, min, prod, all, any (keepdims, exclude), argmax and
// argmin, and the global poolings (reductions over H and W): a
// linalg.generic with reduction iterators into a filled accumulator.
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

#include "llvm/ADT/SmallBitVector.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {
using Rule = LoweringRuleFn;

/// The axes a reduction reduces: `axis` (all when absent; `axes`
/// overrides), complemented with `exclude`.
llvm::SmallBitVector reducedAxes(Operation *op, int64_t rank,
                                 std::optional<SmallVector<int64_t>> axes) {
  llvm::SmallBitVector reduced(rank, false);
  if (!getOperatorAttributes(op).get("axis") && !axes)
    reduced.set();
  for (int64_t a : axes ? *axes : intsAttr(op, "axis", {}))
    reduced.set(a < 0 ? a + rank : a);
  BoolAttr exclude =
      dyn_cast_or_null<BoolAttr>(getOperatorAttributes(op).get("exclude"));
  if (!axes && exclude && exclude.getValue())
    reduced.flip();
  return reduced;
}

/// A reduction over `axis` (all axes when absent; `axes` overrides), with
/// keepdims. An integer mean sums in 64 bits (operands sign- or
/// zero-extended) and divides toward zero, as the interpreter does (TVM's
/// topi sums in the operand's type, so the two differ only where that sum
/// overflows).
Rule reduction(std::function<Value(OpBuilder &, Location, Value, Value)> f,
               double init, bool mean,
               std::optional<SmallVector<int64_t>> axes = std::nullopt) {
  return [=](OpBuilder &b, Operation *op,
             ValueRange operands) -> FailureOr<SmallVector<Value>> {
    Location loc = op->getLoc();
    auto in = cast<RankedTensorType>(operands[0].getType());
    RankedTensorType type = resultType(op);
    if (!type || !in.hasStaticShape())
      return failure();
    int64_t rank = in.getRank();
    llvm::SmallBitVector reduced = reducedAxes(op, rank, axes);
    bool keep = axes || getOperatorAttributes(op).get("keepdims") ==
                            b.getBoolAttr(true);
    MLIRContext *ctx = b.getContext();
    SmallVector<AffineExpr> outExprs;
    SmallVector<int64_t> outShape;
    int64_t count = 1;
    SmallVector<utils::IteratorType> iters;
    for (int64_t d = 0; d < rank; ++d) {
      iters.push_back(reduced[d] ? utils::IteratorType::reduction
                                 : utils::IteratorType::parallel);
      if (reduced[d]) {
        count *= in.getShape()[d];
        continue;
      }
      outExprs.push_back(getAffineDimExpr(d, ctx));
      outShape.push_back(in.getShape()[d]);
    }
    Type e = in.getElementType();
    auto flatType = RankedTensorType::get(outShape, e);
    // An integer mean's sum: 64 bits wide.
    bool integerMean = mean && isa<IntegerType>(e);
    bool unsignedMean =
        integerMean && (e.isInteger(1) || isUnsignedValue(op->getOperand(0)));
    if (mean && !integerMean && !isa<FloatType>(e))
      return failure();
    if (integerMean && count == 0)
      return failure(); // (0 / 0: left to the interpreter)
    Type accE = integerMean ? b.getI64Type() : e;
    Value empty = tensor::EmptyOp::create(b, loc, outShape, accE);
    Value initValue = constantScalar(b, loc, accE, init);
    Value filled =
        linalg::FillOp::create(b, loc, initValue, empty).getResult(0);
    SmallVector<AffineMap> maps{AffineMap::getMultiDimIdentityMap(rank, ctx),
                                AffineMap::get(rank, 0, outExprs, ctx)};
    Value acc =
        linalg::GenericOp::create(
            b, loc, TypeRange{filled.getType()}, operands[0], filled, maps,
            iters,
            [&](OpBuilder &nb, Location l, ValueRange a) {
              Value x = a[0];
              if (accE != e)
                x = unsignedMean
                        ? arith::ExtUIOp::create(nb, l, accE, x).getResult()
                        : arith::ExtSIOp::create(nb, l, accE, x).getResult();
              linalg::YieldOp::create(nb, l, f(nb, l, x, a[1]));
            })
            .getResult(0);
    if (mean) {
      Value n = constantScalar(b, loc, accE, double(count));
      SmallVector<AffineMap> idMaps(
          2, AffineMap::getMultiDimIdentityMap(outShape.size(), ctx));
      Value out = tensor::EmptyOp::create(b, loc, outShape, e);
      acc = linalg::GenericOp::create(
                b, loc, TypeRange{flatType}, ValueRange{acc}, ValueRange{out},
                idMaps,
                SmallVector<utils::IteratorType>(outShape.size(),
                                                 utils::IteratorType::parallel),
                [&](OpBuilder &nb, Location l, ValueRange a) {
                  Value q;
                  if (!integerMean)
                    q = arith::DivFOp::create(nb, l, a[0], n);
                  else if (unsignedMean)
                    q = arith::DivUIOp::create(nb, l, a[0], n);
                  else
                    q = arith::DivSIOp::create(nb, l, a[0], n);
                  if (q.getType() != e)
                    q = arith::TruncIOp::create(nb, l, e, q);
                  linalg::YieldOp::create(nb, l, q);
                })
                .getResult(0);
    }
    if (keep && flatType != type) {
      acc = reshapeStatic(b, loc, acc, type);
    }
    return SmallVector<Value>{acc};
  };
}

FailureOr<SmallVector<Value>> argRule(OpBuilder &b, Operation *op,
                                      ValueRange operands, bool isMax) {
  RankedTensorType type = resultType(op);
  auto in = cast<RankedTensorType>(operands[0].getType());
  if (!type || !isa<IntegerType>(type.getElementType()))
    return failure();
  // Ties keep the first index, or with select_last_index the last one (the
  // reduction visits the elements in order).
  bool last =
      getOperatorAttributes(op).get("select_last_index") == b.getBoolAttr(true);
  Location loc = op->getLoc();
  MLIRContext *ctx = b.getContext();
  int64_t rank = in.getRank();
  llvm::SmallBitVector reduced = reducedAxes(op, rank, std::nullopt);
  SmallVector<AffineExpr> outExprs;
  SmallVector<int64_t> outShape;
  SmallVector<utils::IteratorType> iters;
  for (int64_t d = 0; d < rank; ++d) {
    iters.push_back(reduced[d] ? utils::IteratorType::reduction
                               : utils::IteratorType::parallel);
    if (!reduced[d]) {
      outExprs.push_back(getAffineDimExpr(d, ctx));
      outShape.push_back(in.getDimSize(d));
    }
  }
  Type e = in.getElementType(), it = type.getElementType();
  Value best =
      linalg::FillOp::create(
          b, loc, constantScalar(b, loc, e, isMax ? -INFINITY : INFINITY),
          tensor::EmptyOp::create(b, loc, outShape, e).getResult())
          .getResult(0);
  Value index = linalg::FillOp::create(
                    b, loc, constantScalar(b, loc, it, 0),
                    tensor::EmptyOp::create(b, loc, outShape, it).getResult())
                    .getResult(0);
  AffineMap outMap = AffineMap::get(rank, 0, outExprs, ctx);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{best.getType(), index.getType()}, operands[0],
      ValueRange{best, index},
      {AffineMap::getMultiDimIdentityMap(rank, ctx), outMap, outMap}, iters,
      [&](OpBuilder &nb, Location l, ValueRange a) {
        // The linear index over the reduced dims.
        Value linear = arith::ConstantIndexOp::create(nb, l, 0);
        for (int64_t d = 0; d < rank; ++d) {
          if (!reduced[d])
            continue;
          linear = arith::AddIOp::create(
              nb, l,
              arith::MulIOp::create(
                  nb, l, linear,
                  arith::ConstantIndexOp::create(nb, l, in.getDimSize(d))),
              linalg::IndexOp::create(nb, l, d));
        }
        Value i = arith::IndexCastOp::create(nb, l, it, linear);
        Value better;
        if (isa<FloatType>(e)) {
          better =
              arith::CmpFOp::create(nb, l,
                                    isMax ? (last ? arith::CmpFPredicate::OGE
                                                  : arith::CmpFPredicate::OGT)
                                          : (last ? arith::CmpFPredicate::OLE
                                                  : arith::CmpFPredicate::OLT),
                                    a[0], a[1]);
          // NaN is the extreme both ways (numpy, PyTorch): a NaN replaces
          // a number, and with select_last_index a later NaN an earlier.
          auto isNan = [&](Value v) {
            return arith::CmpFOp::create(nb, l, arith::CmpFPredicate::UNO, v,
                                         v);
          };
          Value takesOver = isNan(a[0]);
          if (!last) {
            Value bestIsNumber = arith::XOrIOp::create(
                nb, l, isNan(a[1]), arith::ConstantIntOp::create(nb, l, 1, 1));
            takesOver = arith::AndIOp::create(nb, l, takesOver, bestIsNumber);
          }
          better = arith::OrIOp::create(nb, l, better, takesOver);
        } else {
          better = arith::CmpIOp::create(
              nb, l,
              unsignedFor(e, isMax ? (last ? arith::CmpIPredicate::sge
                                           : arith::CmpIPredicate::sgt)
                                   : (last ? arith::CmpIPredicate::sle
                                           : arith::CmpIPredicate::slt)),
              a[0], a[1]);
        }
        linalg::YieldOp::create(
            nb, l,
            ValueRange{arith::SelectOp::create(nb, l, better, a[0], a[1]),
                       arith::SelectOp::create(nb, l, better, i, a[2])});
      });
  Value result = generic.getResult(1);
  if (cast<RankedTensorType>(result.getType()) != type) {
    // keepdims: the same elements in the result's shape.
    result = reshapeStatic(b, loc, result, type);
  }
  return SmallVector<Value>{result};
}

/// The H and W axes of a global pooling's `layout` (NCHW, NHWC, or another
/// order of those axes), in increasing order.
std::optional<SmallVector<int64_t>> spatialAxes(Operation *op) {
  std::optional<std::array<int64_t, 4>> axes =
      axesOf(strAttr(op, "layout", "NCHW"), "NCHW");
  if (!axes)
    return std::nullopt;
  SmallVector<int64_t> hw{(*axes)[2], (*axes)[3]};
  llvm::sort(hw);
  return hw;
}

} // namespace

void mlir::relay::populateRelayReductionToLinalgPatterns(
    RelayTypeConverter &converter, RewritePatternSet &patterns) {
  auto maxf = [](OpBuilder &b, Location l, Value x, Value acc) -> Value {
    return isa<FloatType>(x.getType())
               ? arith::MaximumFOp::create(b, l, x, acc).getResult()
               : integerMax(b, l, x, acc);
  };
  auto minf = [](OpBuilder &b, Location l, Value x, Value acc) -> Value {
    return isa<FloatType>(x.getType())
               ? arith::MinimumFOp::create(b, l, x, acc).getResult()
               : integerMin(b, l, x, acc);
  };
  auto addf = [](OpBuilder &b, Location l, Value x, Value acc) -> Value {
    return isa<FloatType>(x.getType())
               ? arith::AddFOp::create(b, l, x, acc).getResult()
               : arith::AddIOp::create(b, l, x, acc).getResult();
  };
  auto mulf = [](OpBuilder &b, Location l, Value x, Value acc) -> Value {
    return isa<FloatType>(x.getType())
               ? arith::MulFOp::create(b, l, x, acc).getResult()
               : arith::MulIOp::create(b, l, x, acc).getResult();
  };
  addOperatorRule<SumOp>(converter, patterns, reduction(addf, 0, false));
  addOperatorRule<MeanOp>(converter, patterns, reduction(addf, 0, true));
  addOperatorRule<MaxOp>(converter, patterns,
                         reduction(maxf, -INFINITY, false));
  addOperatorRule<MinOp>(converter, patterns, reduction(minf, INFINITY, false));
  addOperatorRule<ProdOp>(converter, patterns, reduction(mulf, 1, false));
  addOperatorRule<AllOp>(
      converter, patterns,
      reduction([](OpBuilder &b, Location l, Value x, Value acc)
                    -> Value { return arith::AndIOp::create(b, l, x, acc); },
                1, false));
  addOperatorRule<AnyOp>(
      converter, patterns,
      reduction([](OpBuilder &b, Location l, Value x, Value acc)
                    -> Value { return arith::OrIOp::create(b, l, x, acc); },
                0, false));
  addOperatorRule<ArgmaxOp>(converter, patterns,
                            [](OpBuilder &b, Operation *op, ValueRange ops) {
                              return argRule(b, op, ops, /*isMax=*/true);
                            });
  addOperatorRule<ArgminOp>(converter, patterns,
                            [](OpBuilder &b, Operation *op, ValueRange ops) {
                              return argRule(b, op, ops, /*isMax=*/false);
                            });
  addOperatorRule<GlobalMaxPool2DOp>(
      converter, patterns,
      [maxf](OpBuilder &b, Operation *op,
             ValueRange operands) -> FailureOr<SmallVector<Value>> {
        std::optional<SmallVector<int64_t>> hw = spatialAxes(op);
        if (!hw)
          return failure();
        return reduction(maxf, -INFINITY, false, *hw)(b, op, operands);
      });
  addOperatorRule<GlobalAvgPool2DOp>(
      converter, patterns,
      [](OpBuilder &b, Operation *op,
         ValueRange operands) -> FailureOr<SmallVector<Value>> {
        std::optional<SmallVector<int64_t>> hw = spatialAxes(op);
        if (!hw)
          return failure();
        // A mean over H and W, keeping them.
        return reduction(
            [](OpBuilder &nb, Location l, Value x, Value acc) -> Value {
              return arith::AddFOp::create(nb, l, x, acc);
            },
            0, true, *hw)(b, op, operands);
      });
}

//===- ConstantPatterns.cpp - Constants and filled tensors ------*- C++ -*-===//
//
// relay.constant becomes arith.constant (dense elements and resource blobs
// alike, unsigned integers as signless ones of the same bits; they become
// read-only globals later); zeros, ones, full and their *_like forms are
// filled tensors.
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "conversion/RelayToLinalg/OperatorPattern.h"
#include "conversion/RelayToLinalg/RelayToLinalg.h"

#include "dialects/relay/RelayOps.h"

#include "conversion/RelayCommon/BoxedValues.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {
using Rule = LoweringRuleFn;

/// zeros / ones / full / *_like: a filled tensor of the result type.
Rule fillRule(std::optional<double> value) {
  return [value](OpBuilder &b, Operation *op,
                 ValueRange operands) -> FailureOr<SmallVector<Value>> {
    RankedTensorType type = resultType(op);
    if (!type || !type.hasStaticShape())
      return failure();
    Location loc = op->getLoc();
    Type e = type.getElementType();
    Value scalar;
    if (value) {
      scalar = constantScalar(b, loc, e, *value);
    } else {
      // The fill value cast to the result's dtype, as Relay's cast casts
      // (full(%s: float64, dtype="float32"), a gradient's fill).
      scalar = tensor::ExtractOp::create(b, loc, operands.back(), ValueRange{});
      if (scalar.getType() != e)
        scalar = convertScalar(b, loc, scalar, e,
                               isUnsignedValue(op->getOperands().back()),
                               isUnsignedValue(op->getResult(0)));
    }
    Value empty = tensor::EmptyOp::create(b, loc, type.getShape(), e);
    return SmallVector<Value>{
        linalg::FillOp::create(b, loc, scalar, empty).getResult(0)};
  };
}

/// relay.constant: arith.constant of the same data.
struct ConstantOpLowering : RelayOpConversionPattern<ConstantOp> {
  using RelayOpConversionPattern::RelayOpConversionPattern;

  LogicalResult
  matchAndRewrite(ConstantOp c, OneToNOpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto value = dyn_cast<TypedAttr>(c.getValue());
    if (!isa<DenseElementsAttr, DenseResourceElementsAttr>(c.getValue()) ||
        !value)
      return fail(rewriter, c,
                  "cannot lower 'relay.constant' yet: only dense and "
                  "dense_resource constants lower");
    // Unsigned integers are signless in arith: same bits, new type.
    auto signless = cast<RankedTensorType>(signlessType(value.getType()));
    if (signless != value.getType()) {
      if (auto dense = dyn_cast<DenseElementsAttr>(value))
        value = dense.bitcast(signless.getElementType());
      else
        value = DenseResourceElementsAttr::get(
            signless, cast<DenseResourceElementsAttr>(value).getRawHandle());
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(c, value);
    return success();
  }
};

} // namespace

void mlir::relay::populateRelayConstantToArithPatterns(
    RelayTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ConstantOpLowering>(converter, patterns.getContext());
  addOperatorRule<ZerosOp>(converter, patterns, fillRule(0.0));
  addOperatorRule<ZerosLikeOp>(converter, patterns, fillRule(0.0));
  addOperatorRule<OnesOp>(converter, patterns, fillRule(1.0));
  addOperatorRule<OnesLikeOp>(converter, patterns, fillRule(1.0));
  addOperatorRule<FullOp>(converter, patterns, fillRule(std::nullopt));
  addOperatorRule<FullLikeOp>(converter, patterns, fillRule(std::nullopt));
}

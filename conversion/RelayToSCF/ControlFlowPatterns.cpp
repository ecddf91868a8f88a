//===- ControlFlowPatterns.cpp - relay.if and tuples to scf -----*- C++ -*-===//

#include "conversion/RelayCommon/BoxedValues.h"
#include "conversion/RelayCommon/RelayConversionPattern.h"
#include "conversion/RelayToSCF/RelayToSCF.h"

#include "dialects/relay/RelayOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::relay;

namespace {

/// relay.if %c: scf.if on the element of the 0-d condition, its branches
/// moved over (their relay.yields become scf.yields).
struct IfOpLowering : RelayOpConversionPattern<IfOp> {
  using RelayOpConversionPattern::RelayOpConversionPattern;

  LogicalResult
  matchAndRewrite(IfOp ifOp, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> results;
    Type offending;
    if (failed(convertTypes(ifOp->getResultTypes(), results, offending)))
      return failOnType(rewriter, ifOp, offending);
    ValueRange cond = adaptor.getCond();
    if (cond.size() != 1)
      return fail(rewriter, ifOp,
                  "cannot lower 'relay.if' yet: its "
                  "condition is not a lowered tensor");
    Location loc = ifOp.getLoc();
    Value flag =
        tensor::ExtractOp::create(rewriter, loc, cond.front(), ValueRange{});
    auto lowered = scf::IfOp::create(rewriter, loc, results, flag,
                                     /*addThenBlock=*/false,
                                     /*addElseBlock=*/false);
    rewriter.inlineRegionBefore(ifOp.getThenRegion(), lowered.getThenRegion(),
                                lowered.getThenRegion().end());
    rewriter.inlineRegionBefore(ifOp.getElseRegion(), lowered.getElseRegion(),
                                lowered.getElseRegion().end());
    rewriter.replaceOpWithMultiple(ifOp, {lowered.getResults()});
    return success();
  }
};

/// relay.tuple: its fields' values, flattened.
struct TupleOpLowering : RelayOpConversionPattern<TupleOp> {
  using RelayOpConversionPattern::RelayOpConversionPattern;

  LogicalResult
  matchAndRewrite(TupleOp tuple, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    Type offending;
    if (failed(convertTypes(tuple->getResultTypes(), types, offending)))
      return failOnType(rewriter, tuple, offending);
    rewriter.replaceOpWithMultiple(tuple,
                                   {flattenOperands(adaptor.getOperands())});
    return success();
  }
};

/// relay.tuple_get %t[i]: the values of field i among %t's.
struct TupleGetOpLowering : RelayOpConversionPattern<TupleGetOp> {
  using RelayOpConversionPattern::RelayOpConversionPattern;

  LogicalResult
  matchAndRewrite(TupleGetOp get, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<TupleType>(get.getTuple().getType());
    ValueRange values = adaptor.getTuple();
    if (!type || values.size() != flatSize(type))
      return failOnType(rewriter, get, get.getTuple().getType());
    unsigned offset = 0;
    for (unsigned i = 0; i < get.getIndex(); ++i)
      offset += flatSize(type.getType(i));
    unsigned size = flatSize(type.getType(get.getIndex()));
    rewriter.replaceOpWithMultiple(
        get, {SmallVector<Value>(values.slice(offset, size))});
    return success();
  }
};

} // namespace

void mlir::relay::populateRelayIfToSCFPatterns(RelayTypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<IfOpLowering>(converter, patterns.getContext());
}

void mlir::relay::populateRelayTupleConversionPatterns(
    RelayTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<TupleOpLowering, TupleGetOpLowering>(converter,
                                                    patterns.getContext());
}

void mlir::relay::populateRelayToSCFConversionPatterns(
    RelayTypeConverter &converter, RewritePatternSet &patterns) {
  populateRelayFunctionToFuncPatterns(converter, patterns);
  populateRelayTerminatorConversionPatterns(converter, patterns);
  populateRelayIfToSCFPatterns(converter, patterns);
  populateRelayTupleConversionPatterns(converter, patterns);
}

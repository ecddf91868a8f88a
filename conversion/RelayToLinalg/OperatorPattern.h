//===- OperatorPattern.h - Patterns that lower one operator -----*- C++ -*-===//
//
// Every operator pattern works the same way: the operator's result types
// must lower, its operands arrive flattened (a tuple operand of
// concatenate/stack passes its fields), a rule builds the lowered
// computation, and the op is replaced by what the rule returns (one value
// per result, or a tuple result's fields). The rule sees the Relay op, for
// its attributes and its Relay types (unsigned integers lower to signless
// ones; UnsignedOpScope tells the rule which operations to pick).
//
// A rule is a function known where the pattern is added
// (RuleLowering<OpTy, &rule>) or a function object made there
// (OperatorLowering<OpTy>, for families such as the elementwise operators
// that differ in a scalar computation).
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_CONVERSION_RELAYTOLINALG_OPERATORPATTERN_H
#define RELAY_MLIR_CONVERSION_RELAYTOLINALG_OPERATORPATTERN_H

#include "conversion/RelayCommon/RelayConversionPattern.h"
#include "conversion/RelayToLinalg/LoweringTarget.h"
#include "dialects/relay/OperatorRegistry.h"

namespace mlir::relay {

/// A rule: the lowered values of `op` built from its lowered `operands`;
/// failure when it does not cover `op`'s attributes or types.
using LoweringRule = FailureOr<SmallVector<Value>> (*)(OpBuilder &,
                                                       Operation *op,
                                                       ValueRange operands);

/// Replaces `op` by what `rule` builds from its flattened `operands`, or
/// records why it cannot.
/// Whether --relay-to-linalg has a pattern for `op`'s kind (an operator's
/// own, or a rule in the registry's lowering column): whether native code
/// can compute it, given tensor types it handles.
bool hasLinalgLowering(Operation *op);

LogicalResult lowerWithRule(Operation *op, ArrayRef<ValueRange> operands,
                            ConversionPatternRewriter &rewriter,
                            const TypeConverter *converter,
                            const LoweringRuleFn &rule);

/// Lowers `OpTy` with the rule given when the pattern is added.
template <typename OpTy>
class OperatorLowering : public RelayOpConversionPattern<OpTy> {
public:
  using OneToNOpAdaptor =
      typename RelayOpConversionPattern<OpTy>::OneToNOpAdaptor;

  OperatorLowering(RelayTypeConverter &converter, MLIRContext *context,
                   LoweringRuleFn rule)
      : RelayOpConversionPattern<OpTy>(converter, context),
        rule(std::move(rule)) {}

  LogicalResult
  matchAndRewrite(OpTy op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return lowerWithRule(op, adaptor.getOperands(), rewriter,
                         this->getTypeConverter(), rule);
  }

private:
  LoweringRuleFn rule;
};

/// Lowers `OpTy` with the function `Rule`.
template <typename OpTy, LoweringRule Rule>
class RuleLowering : public RelayOpConversionPattern<OpTy> {
public:
  using OneToNOpAdaptor =
      typename RelayOpConversionPattern<OpTy>::OneToNOpAdaptor;
  using RelayOpConversionPattern<OpTy>::RelayOpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return lowerWithRule(op, adaptor.getOperands(), rewriter,
                         this->getTypeConverter(), LoweringRuleFn(Rule));
  }
};

/// A rule that builds through a lowering target (products, convolutions).
using TargetLoweringRule = FailureOr<SmallVector<Value>> (*)(
    OpBuilder &, Operation *op, ValueRange operands,
    const LoweringTarget &target);

/// Lowers `OpTy` with the function `Rule` and the target given when the
/// pattern is added.
template <typename OpTy, TargetLoweringRule Rule>
class TargetRuleLowering : public RelayOpConversionPattern<OpTy> {
public:
  using OneToNOpAdaptor =
      typename RelayOpConversionPattern<OpTy>::OneToNOpAdaptor;

  TargetRuleLowering(RelayTypeConverter &converter, MLIRContext *context,
                     const LoweringTarget &target)
      : RelayOpConversionPattern<OpTy>(converter, context), target(target) {}

  LogicalResult
  matchAndRewrite(OpTy op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return lowerWithRule(op, adaptor.getOperands(), rewriter,
                         this->getTypeConverter(),
                         [&](OpBuilder &b, Operation *o, ValueRange operands) {
                           return Rule(b, o, operands, target);
                         });
  }

private:
  const LoweringTarget &target;
};

/// Adds OperatorLowering<OpTy> with `rule`.
template <typename OpTy>
void addOperatorRule(RelayTypeConverter &converter, RewritePatternSet &patterns,
                     LoweringRuleFn rule) {
  patterns.add<OperatorLowering<OpTy>>(converter, patterns.getContext(),
                                       std::move(rule));
}

} // namespace mlir::relay

#endif // RELAY_MLIR_CONVERSION_RELAYTOLINALG_OPERATORPATTERN_H

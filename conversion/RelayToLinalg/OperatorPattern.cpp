//===- OperatorPattern.cpp - Patterns that lower one operator ---*- C++ -*-===//

#include "conversion/RelayToLinalg/OperatorPattern.h"
#include "conversion/RelayCommon/BoxedValues.h"
#include "conversion/RelayToLinalg/RelayToLinalg.h"

#include "llvm/ADT/StringSet.h"

#include <mutex>

using namespace mlir;
using namespace mlir::relay;

LogicalResult mlir::relay::lowerWithRule(Operation *op,
                                         ArrayRef<ValueRange> operands,
                                         ConversionPatternRewriter &rewriter,
                                         const TypeConverter *converter,
                                         const LoweringRuleFn &rule) {
  SmallVector<Type> resultTypes;
  for (Type t : op->getResultTypes())
    if (failed(converter->convertType(t, resultTypes)))
      return recordLoweringFailure(converter, rewriter, op,
                                   typeNotLoweredReason(op, t));
  for (auto [value, lowered] : llvm::zip(op->getOperands(), operands)) {
    SmallVector<Type> types;
    if (failed(converter->convertType(value.getType(), types)) ||
        TypeRange(types) != lowered.getTypes())
      return recordLoweringFailure(converter, rewriter, op,
                                   typeNotLoweredReason(op, value.getType()));
  }
  SmallVector<Value> flat = flattenOperands(operands);
  FailureOr<SmallVector<Value>> results = failure();
  {
    UnsignedOpScope unsignedScope(op);
    results = rule(rewriter, op, flat);
  }
  if (failed(results))
    return recordLoweringFailure(
        converter, rewriter, op,
        "cannot lower '" + op->getName().getStringRef() +
            "' yet: its lowering does not cover these attributes or types");
  // One value per result, or a tuple result's fields.
  if (op->getNumResults() == 1 && results->size() == resultTypes.size()) {
    rewriter.replaceOpWithMultiple(op, {*results});
    return success();
  }
  if (results->size() != op->getNumResults())
    return recordLoweringFailure(
        converter, rewriter, op,
        "cannot lower '" + op->getName().getStringRef() +
            "' yet: its lowering rule returned " + Twine(results->size()) +
            " values for " + Twine(resultTypes.size()));
  SmallVector<SmallVector<Value>> replacements;
  for (Value v : *results)
    replacements.push_back({v});
  rewriter.replaceOpWithMultiple(op, std::move(replacements));
  return success();
}

namespace {
/// Any op whose registry entry has a lowering rule.
struct RegistryLowering : ConversionPattern {
  RegistryLowering(RelayTypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/2,
                          context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<ValueRange> operands,
                  ConversionPatternRewriter &rewriter) const override {
    const OperatorInfo *info = lookupOperator(op->getName().getStringRef());
    if (!info || !info->lowering)
      return rewriter.notifyMatchFailure(op, "no lowering rule registered");
    return lowerWithRule(op, operands, rewriter, getTypeConverter(),
                         info->lowering);
  }
};
} // namespace

void mlir::relay::populateRelayRegistryLoweringPatterns(
    RelayTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<RegistryLowering>(converter, patterns.getContext());
}

void mlir::relay::populateRelayToLinalgConversionPatterns(
    RelayTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringTarget &target) {
  populateRelayConstantToArithPatterns(converter, patterns);
  populateRelayElementwiseToLinalgPatterns(converter, patterns);
  populateRelayReductionToLinalgPatterns(converter, patterns);
  populateRelayProductToLinalgPatterns(converter, patterns, target);
  populateRelayConvolutionToLinalgPatterns(converter, patterns, target);
  populateRelayPoolingToLinalgPatterns(converter, patterns);
  populateRelayTransformToLinalgPatterns(converter, patterns);
  populateRelayScatterToSCFPatterns(converter, patterns);
  populateRelayVisionToSCFPatterns(converter, patterns);
  populateRelayNNToLinalgPatterns(converter, patterns);
  populateRelayRegistryLoweringPatterns(converter, patterns);
}

bool mlir::relay::hasLinalgLowering(Operation *op) {
  // The names of the operators the patterns are rooted at, found once from
  // the generic target's pattern set (a target only changes how an
  // operator is lowered, not whether). Names, not OperationNames: those
  // belong to the context that asked first.
  static std::mutex mutex;
  static std::optional<llvm::StringSet<>> roots;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!roots) {
      MLIRContext *context = op->getContext();
      RelayTypeConverter converter(context);
      RewritePatternSet patterns(context);
      static const LoweringTarget generic;
      populateRelayToLinalgConversionPatterns(converter, patterns, generic);
      roots.emplace();
      for (const std::unique_ptr<RewritePattern> &pattern :
           patterns.getNativePatterns())
        if (std::optional<OperationName> root = pattern->getRootKind())
          roots->insert(root->getStringRef());
    }
  }
  StringRef name = op->getName().getStringRef();
  if (roots->contains(name))
    return true;
  const OperatorInfo *info = lookupOperator(name);
  return info && info->lowering;
}

//===- RelayConversionPattern.h - Base of the Relay patterns ----*- C++ -*-===//
//
// The base class of every pattern that converts a relay op: it is built
// with the RelayTypeConverter, flattens 1:N adaptor operands, and records
// why it declines an op so that the conversion pass can report it.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_CONVERSION_RELAYCOMMON_RELAYCONVERSIONPATTERN_H
#define RELAY_MLIR_CONVERSION_RELAYCOMMON_RELAYCONVERSIONPATTERN_H

#include "conversion/RelayCommon/RelayTypeConverter.h"

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::relay {

/// The values of 1:N adaptor operands, in order.
SmallVector<Value> flattenOperands(ArrayRef<ValueRange> operands);

/// Records `reason` for `op` in `converter`'s failures (when it keeps them)
/// and returns a match failure.
LogicalResult recordLoweringFailure(const TypeConverter *converter,
                                    ConversionPatternRewriter &rewriter,
                                    Operation *op, const Twine &reason);

/// "cannot lower 'op' yet: native code handles ... not 'type'".
std::string typeNotLoweredReason(Operation *op, Type type);

/// An OpConversionPattern over the RelayTypeConverter with 1:N operands.
template <typename SourceOp>
class RelayOpConversionPattern : public OpConversionPattern<SourceOp> {
public:
  using OneToNOpAdaptor =
      typename OpConversionPattern<SourceOp>::OneToNOpAdaptor;

  RelayOpConversionPattern(const RelayTypeConverter &converter,
                           MLIRContext *context, PatternBenefit benefit = 1)
      : OpConversionPattern<SourceOp>(converter, context, benefit) {}

protected:
  /// Records why `op` does not lower and fails the match.
  LogicalResult fail(ConversionPatternRewriter &rewriter, Operation *op,
                     const Twine &reason) const {
    return recordLoweringFailure(this->getTypeConverter(), rewriter, op,
                                 reason);
  }

  /// Records that `op` has a value of `type`, which has no lowering.
  LogicalResult failOnType(ConversionPatternRewriter &rewriter, Operation *op,
                           Type type) const {
    return fail(rewriter, op, typeNotLoweredReason(op, type));
  }

  /// The lowered types of `types`, flattened; fails (setting `offending`)
  /// on a type with no lowering.
  LogicalResult convertTypes(TypeRange types, SmallVectorImpl<Type> &out,
                             Type &offending) const {
    for (Type t : types)
      if (failed(this->getTypeConverter()->convertType(t, out))) {
        offending = t;
        return failure();
      }
    return success();
  }
};

} // namespace mlir::relay

#endif // RELAY_MLIR_CONVERSION_RELAYCOMMON_RELAYCONVERSIONPATTERN_H

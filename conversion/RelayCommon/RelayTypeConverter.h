//===- RelayTypeConverter.h - Relay types in native code --------*- C++ -*-===//
//
// The type converter every Relay conversion shares, and the record of why a
// pattern did not apply, which the conversion passes turn into located
// errors.
//
// Relay value          lowered values
//   tensor<2x3xf32>      tensor<2x3xf32> (static shapes only)
//   tensor<4xui8>        tensor<4xi8> (arith is signless; the patterns pick
//                        unsigned operations from the Relay types)
//   tuple<A, tuple<B>>   A', B' (flattened, 1:N)
//   !relay.adt/ref/fn    !llvm.ptr (a runtime object, BoxedValues.h)
//
// Everything else (dynamic shapes, type variables, incomplete types) has no
// lowering: the patterns that meet it fail and say why.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_CONVERSION_RELAYCOMMON_RELAYTYPECONVERTER_H
#define RELAY_MLIR_CONVERSION_RELAYCOMMON_RELAYTYPECONVERTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"

#include <string>

namespace mlir::relay {

/// Why conversion patterns declined ops: the first reason each op was given.
/// A conversion pass reports the first op it had to convert but did not,
/// with the reason its pattern gave (patterns never emit errors themselves:
/// another pattern may still apply).
class LoweringFailures {
public:
  void record(Operation *op, const Twine &reason);
  /// The reason recorded for `op`; empty when none.
  StringRef lookup(Operation *op) const;
  void clear() { reasons.clear(); }

private:
  llvm::DenseMap<Operation *, std::string> reasons;
};

/// The type converter of the Relay conversions (see the file comment), with
/// the materializations that keep a partially converted module valid: a
/// tuple is rebuilt from its fields with relay.tuple and taken apart with
/// relay.tuple_get; other types go through unrealized_conversion_cast.
class RelayTypeConverter : public TypeConverter {
public:
  explicit RelayTypeConverter(MLIRContext *context,
                              LoweringFailures *failures = nullptr);

  /// Where patterns record why they did not apply; may be null.
  LoweringFailures *getFailures() const { return failures; }

private:
  LoweringFailures *failures;
};

/// The signature a relay.func lowers to: tuples flattened into their
/// tensors, in order. Fails, setting `offending`, on a type native code
/// does not handle (dynamic shapes, type variables).
FailureOr<FunctionType> getLoweredFunctionType(FunctionType type,
                                               Type &offending);

/// The ops of `root` a conversion must convert (`mustConvert`) that are
/// still there; reports the first with the reason its pattern recorded
/// (or `fallback`), prefixed by `passName`. Fails when there was one.
LogicalResult
reportUnconvertedOps(Operation *root, StringRef passName,
                     const LoweringFailures &failures,
                     function_ref<bool(Operation *)> mustConvert,
                     function_ref<std::string(Operation *)> fallback);

} // namespace mlir::relay

#endif // RELAY_MLIR_CONVERSION_RELAYCOMMON_RELAYTYPECONVERTER_H

//===- RelayTypeConverter.cpp - Relay types in native code ------*- C++ -*-===//

#include "conversion/RelayCommon/RelayTypeConverter.h"
#include "conversion/RelayCommon/BoxedValues.h"
#include "conversion/RelayCommon/RelayConversionPattern.h"

#include "dialects/relay/RelayDialect.h"
#include "dialects/relay/RelayOps.h"
#include "dialects/relay/RelayTypes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::relay;

void LoweringFailures::record(Operation *op, const Twine &reason) {
  // The first reason stays: later ones are about the same op's retries.
  reasons.try_emplace(op, reason.str());
}

StringRef LoweringFailures::lookup(Operation *op) const {
  auto it = reasons.find(op);
  return it == reasons.end() ? StringRef() : StringRef(it->second);
}

/// A relay value of `type` rebuilt from its lowered values, which it takes
/// from the front of `inputs`: tuples field by field with relay.tuple, the
/// rest through a cast where the types differ.
static Value rebuild(OpBuilder &b, Location loc, Type type,
                     ValueRange &inputs) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    SmallVector<Value> fields;
    for (Type field : tuple.getTypes()) {
      Value v = rebuild(b, loc, field, inputs);
      if (!v)
        return Value();
      fields.push_back(v);
    }
    return TupleOp::create(b, loc, fields).getResult();
  }
  if (inputs.empty())
    return Value();
  Value v = inputs.front();
  inputs = inputs.drop_front();
  if (v.getType() == type)
    return v;
  return UnrealizedConversionCastOp::create(b, loc, type, v).getResult(0);
}

/// The lowered values (of `types`, from the front) of the relay value `v`
/// of type `type`: tuples projected field by field with relay.tuple_get.
static void takeApart(OpBuilder &b, Location loc, Value v, Type type,
                      TypeRange &types, SmallVectorImpl<Value> &out) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    for (auto [i, field] : llvm::enumerate(tuple.getTypes())) {
      Value get = TupleGetOp::create(b, loc, field, v, b.getI64IntegerAttr(i));
      takeApart(b, loc, get, field, types, out);
    }
    return;
  }
  Type target = types.front();
  types = types.drop_front();
  out.push_back(
      target == v.getType()
          ? v
          : UnrealizedConversionCastOp::create(b, loc, target, v).getResult(0));
}

RelayTypeConverter::RelayTypeConverter(MLIRContext *context,
                                       LoweringFailures *failures)
    : failures(failures) {
  // Types that are already lowered stay (index, scalars, pointers,
  // buffers, vectors): ops the patterns make carry them.
  addConversion([](Type t) -> std::optional<Type> {
    if (isa<IndexType, IntegerType, FloatType, LLVM::LLVMPointerType,
            MemRefType, VectorType>(t))
      return t;
    return std::nullopt;
  });
  // Relay values: tensors of static shape, tuples, boxed objects.
  addConversion([](Type t,
                   SmallVectorImpl<Type> &out) -> std::optional<LogicalResult> {
    if (!isa<TensorType, TupleType>(t) && !isa<RelayDialect>(t.getDialect()))
      return std::nullopt;
    return flattenType(t, out);
  });
  addSourceMaterialization(
      [](OpBuilder &b, Type type, ValueRange inputs, Location loc) -> Value {
        ValueRange rest = inputs;
        Value v = rebuild(b, loc, type, rest);
        return rest.empty() ? v : Value();
      });
  addTargetMaterialization([](OpBuilder &b, TypeRange types, ValueRange inputs,
                              Location loc,
                              Type original) -> SmallVector<Value> {
    if (inputs.size() != 1)
      return {};
    SmallVector<Value> out;
    TypeRange rest = types;
    takeApart(b, loc, inputs.front(), original ? original : types.front(), rest,
              out);
    if (!rest.empty() || out.size() != types.size())
      return {};
    return out;
  });
}

FailureOr<FunctionType> mlir::relay::getLoweredFunctionType(FunctionType type,
                                                            Type &offending) {
  SmallVector<Type> inputs, results;
  for (Type t : type.getInputs())
    if (failed(flattenType(t, inputs))) {
      offending = t;
      return failure();
    }
  for (Type t : type.getResults())
    if (failed(flattenType(t, results))) {
      offending = t;
      return failure();
    }
  return FunctionType::get(type.getContext(), inputs, results);
}

SmallVector<Value> mlir::relay::flattenOperands(ArrayRef<ValueRange> operands) {
  SmallVector<Value> out;
  for (ValueRange range : operands)
    llvm::append_range(out, range);
  return out;
}

std::string mlir::relay::typeNotLoweredReason(Operation *op, Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "cannot lower '" << op->getName() << "' yet: native code handles "
     << "tensors of static shape and tuples of them, not '" << type << "'";
  return s;
}

LogicalResult
mlir::relay::recordLoweringFailure(const TypeConverter *converter,
                                   ConversionPatternRewriter &rewriter,
                                   Operation *op, const Twine &reason) {
  // Every relay pattern is built with a RelayTypeConverter.
  if (LoweringFailures *failures =
          static_cast<const RelayTypeConverter *>(converter)->getFailures())
    failures->record(op, reason);
  return rewriter.notifyMatchFailure(op, reason);
}

LogicalResult mlir::relay::reportUnconvertedOps(
    Operation *root, StringRef passName, const LoweringFailures &failures,
    function_ref<bool(Operation *)> mustConvert,
    function_ref<std::string(Operation *)> fallback) {
  Operation *first = nullptr;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!mustConvert(op))
      return WalkResult::advance();
    first = op;
    return WalkResult::interrupt();
  });
  if (!first)
    return success();
  StringRef reason = failures.lookup(first);
  first->emitError() << passName << ": "
                     << (reason.empty() ? fallback(first) : reason.str());
  return failure();
}

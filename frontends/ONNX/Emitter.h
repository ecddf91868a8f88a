//===- Emitter.h - Chains of relay ops in a converter ----------*- C++ -*-===//
//
// Internal to the ONNX importer: converters that compose an ONNX op from
// several relay ops build them through an Emitter, which remembers the
// first failure so that the composition reads as the op's equations.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_FRONTENDS_ONNX_EMITTER_H
#define RELAY_MLIR_FRONTENDS_ONNX_EMITTER_H

#include "frontends/ONNX/Converters.h"

namespace mlir::relay::onnx_import {

/// Builds relay ops, remembering the first failure (reported at the node by
/// NodeContext::op) so that a cell's equations read as equations; every
/// op after a failure builds nothing and yields a null value.
class Emitter {
public:
  explicit Emitter(NodeContext &ctx) : ctx(ctx) {}

  template <typename OpT>
  Value op(ValueRange args, ArrayRef<NamedAttribute> attrs = {}) {
    if (!ok || llvm::any_of(args, [](Value v) { return !v; })) {
      ok = false;
      return {};
    }
    FailureOr<Value> r = ctx.op<OpT>(args, attrs);
    if (failed(r)) {
      ok = false;
      return {};
    }
    return *r;
  }
  Value add(Value a, Value b) { return op<AddOp>({a, b}); }
  Value mul(Value a, Value b) { return op<MultiplyOp>({a, b}); }
  /// `x[index]` along `axis`, dropping that axis.
  Value take(Value x, int64_t index, int64_t axis) {
    return op<TakeOp>(
        {x, ctx.scalar(index, IntegerType::get(ctx.getContext(), 64))},
        {ctx.i64("axis", axis)});
  }
  /// The tensor's fields split evenly in `parts` along `axis`.
  SmallVector<Value> split(Value x, int64_t parts, int64_t axis) {
    Value t = op<SplitOp>(
        {x}, {ctx.i64("indices_or_sections", parts), ctx.i64("axis", axis)});
    SmallVector<Value> fields;
    for (int64_t i = 0; i < parts; ++i)
      fields.push_back(tupleGet(t, i));
    return fields;
  }
  Value stack(ValueRange fields, int64_t axis) {
    if (!ok || llvm::any_of(fields, [](Value v) { return !v; })) {
      ok = false;
      return {};
    }
    return op<StackOp>({ctx.tuple(fields)}, {ctx.i64("axis", axis)});
  }
  Value activation(StringRef name, Value x, double alpha, double beta) {
    if (!ok || !x)
      return ok = false, Value();
    FailureOr<Value> r = onnx_import::activation(ctx, name, x, alpha, beta);
    if (failed(r))
      return ok = false, Value();
    return *r;
  }
  /// A 0-d constant of `like`'s element type.
  Value scalar(double v, Value like) {
    if (!like)
      return ok = false, Value();
    return ctx.scalar(v,
                      cast<RankedTensorType>(like.getType()).getElementType());
  }
  /// `v` as `dtype`: itself when it has that element type already (or is
  /// null, an absent optional input), else a cast.
  Value castTo(Value v, Type dtype) {
    if (!v || cast<RankedTensorType>(v.getType()).getElementType() == dtype)
      return v;
    return op<CastOp>({v}, {ctx.type("dtype", dtype)});
  }
  Value tupleGet(Value t, unsigned i) {
    return t ? ctx.tupleGet(t, i) : Value();
  }
  bool succeeded() const { return ok; }
  /// Records a failure the caller reported (NodeContext::fail): every op
  /// after it builds nothing.
  Value abandon() {
    ok = false;
    return {};
  }
  /// Adds `v` as the node's next output; fails when anything failed.
  LogicalResult output(Value v) {
    if (!ok || !v)
      return failure();
    ctx.addOutput(v);
    return success();
  }

private:
  NodeContext &ctx;
  bool ok = true;
};

} // namespace mlir::relay::onnx_import

#endif // RELAY_MLIR_FRONTENDS_ONNX_EMITTER_H

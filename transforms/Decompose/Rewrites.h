//===- Rewrites.h - Building blocks of --relay-decompose -------*- C++ -*-===//
//
// Internal to --relay-decompose: the Emitter that builds typed relay
// operators in a rewrite, attribute helpers, and the tables of rewrites,
// one file per family of composite operators.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_DECOMPOSE_REWRITES_H
#define RELAY_MLIR_TRANSFORMS_DECOMPOSE_REWRITES_H

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayBuilder.h"
#include "dialects/relay/RelayOps.h"
#include "mlir/IR/PatternMatch.h"
#include "transforms/Decompose/Adjoints.h"

#include <functional>

namespace mlir::relay::decompose {

/// Builds relay operators at one location (RelayBuilder::op types each by
/// its relation); a relation that fails (which the composite's own
/// relation should have excluded) makes every later op null and the
/// rewrite is abandoned.
class Emitter {
public:
  Emitter(PatternRewriter &rewriter, Location loc)
      : rewriter(rewriter), loc(loc) {}

  template <typename OpT>
  Value op(ValueRange args, ArrayRef<NamedAttribute> attrs = {}) {
    if (!ok || llvm::any_of(args, [](Value v) { return !v; }))
      return ok = false, Value();
    Value v = RelayBuilder(rewriter, loc).op<OpT>(args, attrs);
    if (!v)
      ok = false;
    return v;
  }
  /// `op`'s operator on `args`, `overrides` set over its attributes.
  Value like(Operation *op, ValueRange args,
             ArrayRef<NamedAttribute> overrides = {}) {
    if (!ok || llvm::any_of(args, [](Value v) { return !v; }))
      return ok = false, Value();
    Value v = RelayBuilder(rewriter, loc).like(op, args, overrides);
    if (!v)
      ok = false;
    return v;
  }
  Value add(Value a, Value b) { return op<AddOp>({a, b}); }
  Value mul(Value a, Value b) { return op<MultiplyOp>({a, b}); }
  /// `v` clipped to [lo, hi].
  Value clip(Value v, double lo, double hi) {
    return op<ClipOp>(
        {v}, {rewriter.getNamedAttr("a_min", rewriter.getF64FloatAttr(lo)),
              rewriter.getNamedAttr("a_max", rewriter.getF64FloatAttr(hi))});
  }
  Value reshape(Value v, ArrayRef<int64_t> shape) {
    return op<ReshapeOp>({v}, {ints("newshape", shape)});
  }
  Value constant(ElementsAttr value) {
    return ConstantOp::create(rewriter, loc, value);
  }
  Value tuple(ArrayRef<Value> fields) {
    if (!ok || llvm::any_of(fields, [](Value v) { return !v; }))
      return ok = false, Value();
    return TupleOp::create(rewriter, loc, fields);
  }
  /// Field `i` of `tuple` (the field itself when `tuple` is built here).
  Value tupleGet(Value tuple, unsigned i) {
    if (auto made = tuple.getDefiningOp<TupleOp>())
      return made->getOperand(i);
    return TupleGetOp::create(rewriter, loc, tuple, i);
  }
  /// A 0-d constant of `like`'s element type.
  Value scalar(double v, Value like) {
    Type e = cast<RankedTensorType>(like.getType()).getElementType();
    auto type = RankedTensorType::get({}, e);
    if (isa<FloatType>(e))
      return constant(DenseElementsAttr::get(
          type, cast<Attribute>(rewriter.getFloatAttr(e, v))));
    return constant(DenseElementsAttr::get(
        type, cast<Attribute>(rewriter.getIntegerAttr(e, (int64_t)v))));
  }

  NamedAttribute i64(StringRef n, int64_t v) {
    return rewriter.getNamedAttr(n, rewriter.getI64IntegerAttr(v));
  }
  NamedAttribute ints(StringRef n, ArrayRef<int64_t> v) {
    return rewriter.getNamedAttr(n, rewriter.getDenseI64ArrayAttr(v));
  }
  NamedAttribute boolean(StringRef n, bool v) {
    return rewriter.getNamedAttr(n, rewriter.getBoolAttr(v));
  }
  NamedAttribute str(StringRef n, StringRef v) {
    return rewriter.getNamedAttr(n, rewriter.getStringAttr(v));
  }
  NamedAttribute type(StringRef n, Type t) {
    return rewriter.getNamedAttr(n, TypeAttr::get(t));
  }
  bool succeeded() const { return ok; }
  PatternRewriter &getRewriter() { return rewriter; }

private:
  PatternRewriter &rewriter;
  Location loc;
  bool ok = true;
};

using adjoint::shapeOf;
inline Type elementOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

/// An int64 constant of `shape` holding `values`.
inline Value i64Constant(Emitter &b, ArrayRef<int64_t> shape,
                         ArrayRef<int64_t> values) {
  Type i64 = b.getRewriter().getI64Type();
  return b.constant(
      DenseElementsAttr::get(RankedTensorType::get(shape, i64), values));
}

/// A constant of the integer type `type` and `shape` holding `values`,
/// each wrapped to the type's width (all 64 bits of uint64 kept).
inline Value intConstant(Emitter &b, Type type, ArrayRef<int64_t> shape,
                         ArrayRef<uint64_t> values) {
  unsigned width = type.getIntOrFloatBitWidth();
  SmallVector<APInt> bits;
  for (uint64_t v : values)
    bits.push_back(APInt(64, v).trunc(width));
  return b.constant(
      DenseElementsAttr::get(RankedTensorType::get(shape, type), bits));
}

/// A constant of `shape` and element type `element` holding `values`
/// (rounded to nearest, ties to even). Built from raw values, not one
/// attribute per element: the transform matrices reach millions.
inline Value floatConstant(Emitter &b, ArrayRef<int64_t> shape, Type element,
                           ArrayRef<double> values) {
  auto type = RankedTensorType::get(shape, element);
  if (element.isF64())
    return b.constant(DenseElementsAttr::get(type, values));
  if (element.isF32()) {
    SmallVector<float> floats(values.begin(), values.end());
    return b.constant(DenseElementsAttr::get(type, ArrayRef<float>(floats)));
  }
  const llvm::fltSemantics &semantics =
      cast<FloatType>(element).getFloatSemantics();
  SmallVector<APFloat> floats;
  for (double v : values) {
    APFloat f(v);
    bool lost;
    f.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
    floats.push_back(f);
  }
  return b.constant(DenseElementsAttr::get(type, floats));
}

/// `v` cast to `dtype` (itself when it has that dtype).
inline Value castTo(Emitter &b, Value v, Type dtype) {
  if (v && elementOf(v) == dtype)
    return v;
  return b.op<CastOp>({v}, {b.type("dtype", dtype)});
}

/// Reads an attribute of the op with its ODS default.
inline int64_t intAttr(Operation *op, StringRef name) {
  return cast<IntegerAttr>(getOperatorAttributes(op).get(name)).getInt();
}
inline double floatAttr(Operation *op, StringRef name) {
  return cast<FloatAttr>(getOperatorAttributes(op).get(name))
      .getValueAsDouble();
}
inline ArrayRef<int64_t> intsAttr(Operation *op, StringRef name) {
  return cast<DenseI64ArrayAttr>(getOperatorAttributes(op).get(name))
      .asArrayRef();
}
inline StringRef strAttr(Operation *op, StringRef name) {
  return cast<StringAttr>(getOperatorAttributes(op).get(name)).getValue();
}
inline bool boolAttr(Operation *op, StringRef name) {
  return cast<BoolAttr>(getOperatorAttributes(op).get(name)).getValue();
}
inline int64_t positive(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

/// Rewrites a composite operator (with static shapes) into primitive ones;
/// returns null when it cannot.
using Rewrite = Value (*)(Emitter &, Operation *);

/// Applies `rewrite` to the ops named `name` whose operand and result types
/// are static (tuples of static tensors too), or only ranked with
/// `anyShape` (for rewrites that read ranks and attributes, never sizes),
/// and that `keepWhole` (when given) does not keep.
struct RuleRewrite : RewritePattern {
  RuleRewrite(StringRef name, Rewrite rewrite, MLIRContext *context,
              bool anyShape = false,
              std::function<bool(Operation *)> keepWhole = nullptr)
      : RewritePattern(name, /*benefit=*/1, context), rewrite(rewrite),
        anyShape(anyShape), keepWhole(std::move(keepWhole)) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override;

  Rewrite rewrite;
  bool anyShape;
  std::function<bool(Operation *)> keepWhole;
};

/// `v` (a vector) reshaped so that it broadcasts along `axis` of a
/// rank-`rank` tensor.
Value alongAxis(Emitter &b, Value v, int64_t axis, int64_t rank);

/// The elements of `data` at the flat positions `indices` (of shape
/// `indexShape`) over its axes from `axis` on: those axes flattened into
/// one, then one take along it with the indices as a constant.
Value takeFlat(Emitter &b, Value data, int64_t axis,
               ArrayRef<int64_t> indexShape, ArrayRef<int64_t> indices);
/// (x - mean) / sqrt(var + eps) over `axes` (kept).
Value normalize(Emitter &b, Value x, ArrayRef<int64_t> axes, double eps);

/// `op`'s gamma (operand 1) and beta (operand 2) applied to `y` per channel
/// along `axis`, as its `scale`/`center` attributes ask.
Value scaleAndShift(Emitter &b, Operation *op, Value y, int64_t axis);
/// `v` clipped to the range of the integer type `dtype` and cast to it
/// (TVM's ConvertDtype).
Value clipAndCast(Emitter &b, Value v, Type dtype);
/// Registers the rewrite of the operator `name` (without `relay.`).
using AddRewrite = function_ref<void(StringRef name, Rewrite rewrite)>;

void addElementwiseRewrites(AddRewrite add);
void addTransformRewrites(AddRewrite add);
void addNNRewrites(AddRewrite add);
/// Registered to apply whatever the operands' sizes.
void addNNAnyShapeRewrites(AddRewrite add);
void addWindow3DRewrites(AddRewrite add);
void addSortRewrites(AddRewrite add);
void addLossRewrites(AddRewrite add);
void addIndexRewrites(AddRewrite add);
void addEinsumRewrites(AddRewrite add);
void addImageRewrites(AddRewrite add);
void addQnnRewrites(AddRewrite add);
void addGradientRewrites(AddRewrite add);
void addSparseRewrites(AddRewrite add);
void addSignalRewrites(AddRewrite add);
void addPackedRewrites(AddRewrite add);
/// Registered to apply whatever the operands' sizes.
void addPackedLayoutRewrites(AddRewrite add);
void addWinogradRewrites(AddRewrite add);
void addRandomRewrites(AddRewrite add);
void addBitserialRewrites(AddRewrite add);
/// Registered to apply whatever the operands' sizes.
void addDynamicRewrites(AddRewrite add);

} // namespace mlir::relay::decompose

#endif // RELAY_MLIR_TRANSFORMS_DECOMPOSE_REWRITES_H

//===- GradientRules.cpp - Gradients of the built-in operators --*- C++ -*-===//
//
// TVM's gradient rules (python/tvm/relay/op/_tensor_grad.py) for the
// operators below, written with the RelayBuilder: broadcasting operands get
// their gradient summed back to their shape (collapse_sum_like), reductions
// broadcast it back over the reduced axes (broadcast_to_like).
//
//===----------------------------------------------------------------------===//

#include "transforms/AutoDiff/GradientRules.h"
#include "transforms/AutoDiff/RuleSupport.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayBuilder.h"
#include "dialects/relay/RelayOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::autodiff;

namespace {

/// The reduced axes of a reduction op (normalised, sorted).
SmallVector<int64_t> reducedAxes(Operation *op, int64_t rank) {
  auto axisAttr = op->getAttrOfType<DenseI64ArrayAttr>("axis");
  auto exclude = op->getAttrOfType<BoolAttr>("exclude");
  SmallVector<bool> reduced(rank, !axisAttr);
  if (axisAttr)
    for (int64_t a : axisAttr.asArrayRef())
      reduced[a < 0 ? a + rank : a] = true;
  if (exclude && exclude.getValue())
    for (auto &&r : reduced)
      r = !r;
  SmallVector<int64_t> axes;
  for (int64_t i = 0; i < rank; ++i)
    if (reduced[i])
      axes.push_back(i);
  return axes;
}

/// `v` in the element type of `like` (a gradient computed in another
/// dtype than its operand's), cast only where they differ.
Value inElementTypeOf(RelayBuilder &rb, Value v, Value like) {
  if (cast<RankedTensorType>(v.getType()).getElementType() ==
      cast<RankedTensorType>(like.getType()).getElementType())
    return v;
  return rb.op<CastLikeOp>({v, like});
}

/// The gradient of a reduction's result broadcast back to its operand:
/// reshaped to keep the reduced axes (as size 1) first.
Value broadcastBack(RelayBuilder &rb, Operation *op, Value grad, Value x) {
  if (!grad)
    return {};
  ArrayRef<int64_t> shape = shapeOf(x);
  SmallVector<int64_t> kept(shape);
  SmallVector<int64_t> axes = reducedAxes(op, shape.size());
  for (int64_t a : axes)
    kept[a] = 1;
  Builder b(op->getContext());
  if (shapeOf(grad) != ArrayRef<int64_t>(kept)) {
    if (!ShapedType::isDynamicShape(kept)) {
      grad = rb.op<ReshapeOp>(
          {grad}, {b.getNamedAttr("newshape", b.getDenseI64ArrayAttr(kept))});
    } else {
      // Sizes known only at run time: the reduced axes put back one by
      // one (the result of a reduction without keepdims).
      for (int64_t a : axes)
        grad = rb.op<ExpandDimsOp>(
            {grad}, {b.getNamedAttr("axis", b.getI64IntegerAttr(a))});
    }
  }
  return rb.op<BroadcastToLikeOp>({grad, x});
}

/// take's gradient where the data's sizes are known only when it runs: the
/// same scatter_elements adding g's rows at the indices, over the data
/// viewed as [pre, n, post] (the axes before the taken one, it, the axes
/// after it; all of them as n without an axis), those sizes read from its
/// shape.
Grads takeOfRunTimeSizes(RelayBuilder &rb, TakeOp op, Value g) {
  Value x = op->getOperand(0), idx = op->getOperand(1);
  int64_t rank = shapeOf(x).size();
  Builder b(op->getContext());
  Type indexType = cast<RankedTensorType>(idx.getType()).getElementType();
  Value sizes = runTimeSizes(rb, x);
  // The product of sizes[begin:end], as a 1-element vector.
  auto product = [&](int64_t begin, int64_t end) -> Value {
    if (begin >= end)
      return i64Vector(rb, {1});
    Value part = rb.op<StridedSliceOp>(
        {sizes}, {ints(b, "begin", {begin}), ints(b, "end", {end})});
    return rb.op<ProdOp>({part},
                         {ints(b, "axis", {0}),
                          b.getNamedAttr("keepdims", b.getBoolAttr(true))});
  };
  int64_t axis = -1;
  if (IntegerAttr a = op.getAxisAttr())
    axis = a.getInt() < 0 ? a.getInt() + rank : a.getInt();
  Value pre = axis < 0 ? i64Vector(rb, {1}) : product(0, axis);
  Value n = axis < 0 ? product(0, rank) : product(axis, axis + 1);
  Value post = axis < 0 ? i64Vector(rb, {1}) : product(axis + 1, rank);
  auto joined = [&](Value a, Value m, Value c) {
    return rb.op<ConcatenateOp>(
        {rb.tuple({a, m, c})},
        {b.getNamedAttr("axis", b.getI64IntegerAttr(0))});
  };
  // The element each index reads, as the forward normalises it.
  Value count =
      rb.op<CastOp>({rb.op<ReshapeOp>({n}, {ints(b, "newshape", {})})},
                    {b.getNamedAttr("dtype", TypeAttr::get(indexType))});
  if (op.getMode() == "clip")
    idx = rb.op<MinimumOp>({rb.op<MaximumOp>({idx, rb.scalar(0, indexType)}),
                            rb.subtract(count, rb.scalar(1, indexType))});
  else if (op.getMode() == "wrap")
    idx = rb.op<FloorModOp>({idx, count});
  // (allowzero: a size of 0 is 0, not a copy of the input's.)
  NamedAttribute allowZero = b.getNamedAttr("allowzero", b.getBoolAttr(true));
  Value rows = rb.op<DynReshapeOp>({g, joined(pre, i64Vector(rb, {-1}), post)},
                                   {allowZero});
  Value column = rb.op<ReshapeOp>({idx}, {ints(b, "newshape", {1, -1, 1})});
  Value zeros = rb.op<DynReshapeOp>(
      {rb.op<ZerosLikeOp>({x}), joined(pre, n, post)}, {allowZero});
  Value dx = rb.op<ScatterElementsOp>(
      {zeros, rb.op<BroadcastToLikeOp>({column, rows}), rows},
      {b.getNamedAttr("axis", b.getI64IntegerAttr(1)),
       b.getNamedAttr("reduction", b.getStringAttr("add"))});
  dx = rb.op<ReshapeLikeOp>({dx, x});
  if (!dx)
    return failure();
  return SmallVector<Value>{dx, Value()};
}

/// The gradients of z = op(x) op(y), op a transpose of the last two axes
/// where `ta`/`tb` ask: with A = op(x), B = op(y), dA = g B^T and
/// dB = A^T g, each built as one product of the same operator.
template <typename ProductOp>
Grads productGrads(RelayBuilder &rb, Operation *op, Value x, Value y, Value g,
                   bool ta, bool tb) {
  Builder b(op->getContext());
  auto product = [&](Value l, Value r, bool tl, bool tr) {
    return rb.op<ProductOp>({l, r},
                            {b.getNamedAttr("transpose_a", b.getBoolAttr(tl)),
                             b.getNamedAttr("transpose_b", b.getBoolAttr(tr))});
  };
  Value dx = ta ? product(y, g, tb, true) : product(g, y, false, !tb);
  Value dy = tb ? product(g, x, true, ta) : product(x, g, !ta, false);
  if (!dx || !dy)
    return failure();
  return SmallVector<Value>{dx, dy};
}

/// The gradients of a product whose data `x` is [..., K] (dense, matmul)
/// from those of the 2-d product of its rows: `grads2d` gets x and g
/// reshaped to [rows, K] and [rows, N] (a rank-1 x is one row), and its
/// gradient of x is reshaped back.
Grads rowProductGrads(RelayBuilder &rb, Value x, Value g,
                      function_ref<Grads(Value, Value)> grads2d) {
  if (shapeOf(x).size() == 2)
    return grads2d(x, g);
  int64_t k = shapeOf(x).back(), n = shapeOf(g).back();
  if (ShapedType::isDynamic(k) || ShapedType::isDynamic(n))
    return failure();
  Builder b(x.getContext());
  Grads grads = grads2d(rb.op<ReshapeOp>({x}, {ints(b, "newshape", {-1, k})}),
                        rb.op<ReshapeOp>({g}, {ints(b, "newshape", {-1, n})}));
  if (failed(grads) || !(*grads)[0])
    return failure();
  (*grads)[0] = reshapedLike(rb, (*grads)[0], x);
  return grads;
}

void registerRules() {
  // Broadcasting arithmetic.
  setRule<AddOp>([](RelayBuilder &rb, AddOp op, Value g) -> Grads {
    return SmallVector<Value>{collapseTo(rb, g, op.getLhs()),
                              collapseTo(rb, g, op.getRhs())};
  });
  setRule<SubtractOp>([](RelayBuilder &rb, SubtractOp op, Value g) -> Grads {
    return SmallVector<Value>{
        collapseTo(rb, g, op.getLhs()),
        collapseTo(rb, rb.op<NegativeOp>({g}), op.getRhs())};
  });
  setRule<MultiplyOp>([](RelayBuilder &rb, MultiplyOp op, Value g) -> Grads {
    return SmallVector<Value>{
        collapseTo(rb, rb.multiply(g, op.getRhs()), op.getLhs()),
        collapseTo(rb, rb.multiply(g, op.getLhs()), op.getRhs())};
  });
  setRule<DivideOp>([](RelayBuilder &rb, DivideOp op, Value g) -> Grads {
    Value x = op.getLhs(), y = op.getRhs();
    // d(x/y)/dy = -x/y^2 = -(x/y)/y
    Value dy =
        rb.op<NegativeOp>({rb.divide(rb.multiply(g, op.getResult()), y)});
    return SmallVector<Value>{collapseTo(rb, rb.divide(g, y), x),
                              collapseTo(rb, dy, y)};
  });

  setRule<PowerOp>([](RelayBuilder &rb, PowerOp op, Value g) -> Grads {
    // d(x^y)/dx = y x^(y-1) = y z / x, d(x^y)/dy = z log(x).
    Value x = op.getLhs(), y = op.getRhs(), z = op.getResult();
    Value dx = rb.multiply(g, rb.divide(rb.multiply(y, z), x));
    Value dy = rb.multiply(g, rb.multiply(z, rb.op<LogOp>({x})));
    return SmallVector<Value>{collapseTo(rb, dx, x), collapseTo(rb, dy, y)};
  });

  // Elementwise functions, from their result where it is simpler.
  setUnaryRule<NegativeOp>([](RelayBuilder &rb, NegativeOp, Value g) {
    return rb.op<NegativeOp>({g});
  });
  setUnaryRule<CopyOp>([](RelayBuilder &, CopyOp, Value g) { return g; });
  setUnaryRule<ExpOp>([](RelayBuilder &rb, ExpOp op, Value g) {
    return rb.multiply(g, op.getResult());
  });
  setUnaryRule<LogOp>([](RelayBuilder &rb, LogOp op, Value g) {
    return rb.divide(g, op->getOperand(0));
  });
  setUnaryRule<SqrtOp>([](RelayBuilder &rb, SqrtOp op, Value g) {
    Value y = op.getResult();
    return rb.divide(g, rb.add(y, y));
  });
  setUnaryRule<TanhOp>([](RelayBuilder &rb, TanhOp op, Value g) {
    Value y = op.getResult();
    return rb.multiply(g,
                       rb.subtract(rb.op<OnesLikeOp>({y}), rb.multiply(y, y)));
  });
  setUnaryRule<SigmoidOp>([](RelayBuilder &rb, SigmoidOp op, Value g) {
    Value y = op.getResult();
    return rb.multiply(g,
                       rb.multiply(y, rb.subtract(rb.op<OnesLikeOp>({y}), y)));
  });
  setUnaryRule<FastExpOp>([](RelayBuilder &rb, FastExpOp op, Value g) {
    return rb.multiply(g, op.getResult());
  });
  setUnaryRule<FastTanhOp>([](RelayBuilder &rb, FastTanhOp op, Value g) {
    Value y = op.getResult();
    return rb.multiply(g,
                       rb.subtract(rb.op<OnesLikeOp>({y}), rb.multiply(y, y)));
  });
  // d log_b(x) = 1 / (x ln b)
  setUnaryRule<Log2Op>([](RelayBuilder &rb, Log2Op op, Value g) {
    Value x = op->getOperand(0);
    return rb.divide(g, rb.multiply(x, scalar(rb, std::log(2.0), x)));
  });
  setUnaryRule<Log10Op>([](RelayBuilder &rb, Log10Op op, Value g) {
    Value x = op->getOperand(0);
    return rb.divide(g, rb.multiply(x, scalar(rb, std::log(10.0), x)));
  });
  // d x^-1/2 = -1/2 y^3
  setUnaryRule<RsqrtOp>([](RelayBuilder &rb, RsqrtOp op, Value g) {
    Value y = op.getResult();
    Value cube = rb.multiply(rb.multiply(y, y), y);
    return rb.multiply(g, rb.multiply(cube, scalar(rb, -0.5, y)));
  });
  // d erf(x) = 2/sqrt(pi) exp(-x^2)
  auto erfRule = [](RelayBuilder &rb, Operation *op, Value g) {
    Value x = op->getOperand(0);
    Value e = rb.op<ExpOp>({rb.op<NegativeOp>({rb.multiply(x, x)})});
    return rb.multiply(g, rb.multiply(e, scalar(rb, 2.0 / std::sqrt(M_PI), x)));
  };
  setUnaryRule<ErfOp>(
      [=](RelayBuilder &rb, ErfOp op, Value g) { return erfRule(rb, op, g); });
  setUnaryRule<FastErfOp>([=](RelayBuilder &rb, FastErfOp op, Value g) {
    return erfRule(rb, op, g);
  });
  // Trigonometric and hyperbolic functions and their inverses.
  setUnaryRule<SinOp>([](RelayBuilder &rb, SinOp op, Value g) {
    return rb.multiply(g, rb.op<CosOp>({op->getOperand(0)}));
  });
  setUnaryRule<CosOp>([](RelayBuilder &rb, CosOp op, Value g) {
    return rb.op<NegativeOp>(
        {rb.multiply(g, rb.op<SinOp>({op->getOperand(0)}))});
  });
  setUnaryRule<TanOp>([](RelayBuilder &rb, TanOp op, Value g) {
    Value c = rb.op<CosOp>({op->getOperand(0)});
    return rb.divide(g, rb.multiply(c, c));
  });
  setUnaryRule<SinhOp>([](RelayBuilder &rb, SinhOp op, Value g) {
    return rb.multiply(g, rb.op<CoshOp>({op->getOperand(0)}));
  });
  setUnaryRule<CoshOp>([](RelayBuilder &rb, CoshOp op, Value g) {
    return rb.multiply(g, rb.op<SinhOp>({op->getOperand(0)}));
  });
  // g / sqrt(sign * (x^2 - 1)): asin (-1), acos (-1, negated), asinh (x^2
  // + 1), acosh (+1).
  auto inverseRule = [](RelayBuilder &rb, Value x, Value g, double one,
                        double sign) {
    Value x2 = rb.multiply(x, x);
    Value inside =
        rb.add(rb.multiply(x2, scalar(rb, sign, x)), scalar(rb, one, x));
    return rb.divide(g, rb.op<SqrtOp>({inside}));
  };
  setUnaryRule<AsinOp>([=](RelayBuilder &rb, AsinOp op, Value g) {
    return inverseRule(rb, op->getOperand(0), g, 1.0, -1.0);
  });
  setUnaryRule<AcosOp>([=](RelayBuilder &rb, AcosOp op, Value g) {
    return rb.op<NegativeOp>({inverseRule(rb, op->getOperand(0), g, 1, -1)});
  });
  setUnaryRule<AsinhOp>([=](RelayBuilder &rb, AsinhOp op, Value g) {
    return inverseRule(rb, op->getOperand(0), g, 1.0, 1.0);
  });
  setUnaryRule<AcoshOp>([=](RelayBuilder &rb, AcoshOp op, Value g) {
    return inverseRule(rb, op->getOperand(0), g, -1.0, 1.0);
  });
  setUnaryRule<AtanOp>([](RelayBuilder &rb, AtanOp op, Value g) {
    Value x = op->getOperand(0);
    return rb.divide(g, rb.add(rb.multiply(x, x), scalar(rb, 1.0, x)));
  });
  setUnaryRule<AtanhOp>([](RelayBuilder &rb, AtanhOp op, Value g) {
    Value x = op->getOperand(0);
    return rb.divide(g, rb.subtract(scalar(rb, 1.0, x), rb.multiply(x, x)));
  });
  // Piecewise constant functions: zero almost everywhere (TVM's rules).
  auto zeroRule = [](RelayBuilder &rb, Operation *op, Value) {
    return rb.op<ZerosLikeOp>({op->getOperand(0)});
  };
  setUnaryRule<RoundOp>([=](RelayBuilder &rb, RoundOp op, Value g) {
    return zeroRule(rb, op, g);
  });
  setUnaryRule<FloorOp>([=](RelayBuilder &rb, FloorOp op, Value g) {
    return zeroRule(rb, op, g);
  });
  setUnaryRule<CeilOp>([=](RelayBuilder &rb, CeilOp op, Value g) {
    return zeroRule(rb, op, g);
  });
  setUnaryRule<TruncOp>([=](RelayBuilder &rb, TruncOp op, Value g) {
    return zeroRule(rb, op, g);
  });
  setUnaryRule<SignOp>([=](RelayBuilder &rb, SignOp op, Value g) {
    return zeroRule(rb, op, g);
  });
  setUnaryRule<ZerosLikeOp>([=](RelayBuilder &rb, ZerosLikeOp op, Value g) {
    return zeroRule(rb, op, g);
  });
  setUnaryRule<OnesLikeOp>([=](RelayBuilder &rb, OnesLikeOp op, Value g) {
    return zeroRule(rb, op, g);
  });
  // Where the result is positive, which is where x is (NaN included: it
  // is neither), read from the result: a training step then keeps only
  // the result, and the op before relu (a convolution's bias) fuses with it
  // instead of being written out for the backward pass too.
  setUnaryRule<ReluOp>([](RelayBuilder &rb, ReluOp op, Value g) {
    Value y = op.getResult();
    Value positive = rb.greater(y, rb.op<ZerosLikeOp>({y}));
    return rb.op<WhereOp>({positive, g, rb.op<ZerosLikeOp>({g})});
  });
  setUnaryRule<LeakyReluOp>([](RelayBuilder &rb, LeakyReluOp op, Value g) {
    Value x = op->getOperand(0);
    Value positive = rb.greater(x, rb.op<ZerosLikeOp>({x}));
    Value alpha = scalar(rb, op.getAlpha().convertToDouble(), g);
    return rb.op<WhereOp>({positive, g, rb.multiply(g, alpha)});
  });
  setRule<PReluOp>([](RelayBuilder &rb, PReluOp op, Value g) -> Grads {
    // y = x > 0 ? x : alpha[c] * x with alpha broadcast along `axis`.
    Value x = op->getOperand(0), alpha = op->getOperand(1);
    Value slope = alongAxis(rb, alpha, x, op.getAxis());
    Value positive = rb.greater(x, rb.op<ZerosLikeOp>({x}));
    Value zeros = rb.op<ZerosLikeOp>({g});
    Value dx = rb.op<WhereOp>({positive, g, rb.multiply(g, slope)});
    Value dslope = rb.op<WhereOp>({positive, zeros, rb.multiply(g, x)});
    if (!dx || !dslope)
      return failure();
    Value dalpha = rb.op<ReshapeLikeOp>(
        {rb.op<CollapseSumLikeOp>({dslope, slope}), alpha});
    if (!dalpha)
      return failure();
    return SmallVector<Value>{dx, dalpha};
  });
  setRule<BatchNormOp>([](RelayBuilder &rb, BatchNormOp op, Value g) -> Grads {
    // Relay's batch_norm normalises by the moving statistics it is given:
    // y = (x - mean) * s * gamma + beta with s = 1 / sqrt(var + eps) along
    // `axis`, and passes mean and var through as results 1 and 2.
    Value x = op->getOperand(0), gamma = op->getOperand(1),
          mean = op->getOperand(3), var = op->getOperand(4);
    ArrayRef<int64_t> xs = shapeOf(x);
    int64_t axis = op.getAxis();
    if (axis < 0)
      axis += xs.size();
    auto along = [&](Value v) { return alongAxis(rb, v, x, axis); };
    auto sumOthers = [&](Value v) { return sumOverOthers(rb, v, axis); };
    Value gy = rb.tupleGet(g, 0);
    Value s = rb.op<RsqrtOp>(
        {rb.add(var, scalar(rb, op.getEpsilon().convertToDouble(), var))});
    Value scale = op.getScale() ? rb.multiply(s, gamma) : s;
    Value centred = rb.subtract(x, along(mean));
    Value xhat = rb.multiply(centred, along(s));
    Value dx = rb.multiply(gy, along(scale));
    Value sumG = sumOthers(gy);
    Value dgamma = op.getScale() ? sumOthers(rb.multiply(gy, xhat))
                                 : rb.op<ZerosLikeOp>({gamma});
    Value dbeta = op.getCenter() ? sumG : rb.op<ZerosLikeOp>({gamma});
    // d/dmean = -sum(g) * scale; d/dvar = -1/2 sum(g (x - mean)) gamma s^3.
    Value dmean = rb.add(rb.tupleGet(g, 1),
                         rb.op<NegativeOp>({rb.multiply(sumG, scale)}));
    Value s3 = rb.multiply(scale, rb.multiply(s, s));
    Value dvar = rb.add(rb.tupleGet(g, 2),
                        rb.multiply(sumOthers(rb.multiply(gy, centred)),
                                    rb.multiply(s3, scalar(rb, -0.5, var))));
    if (!dx || !dgamma || !dbeta || !dmean || !dvar)
      return failure();
    return SmallVector<Value>{dx, dgamma, dbeta, dmean, dvar};
  });
  setRule<LayerNormOp>([](RelayBuilder &rb, LayerNormOp op, Value g) -> Grads {
    // y = xhat * gamma + beta, xhat = (x - mean) * s, s = (var + eps)^-1/2,
    // mean and (biased) var along `axis`:
    // dx = s * (d - mean(d) - xhat * mean(d * xhat)), d = g * gamma.
    Value x = op->getOperand(0), gamma = op->getOperand(1);
    ArrayRef<int64_t> xs = shapeOf(x);
    int64_t axis = op.getAxis();
    if (axis < 0)
      axis += xs.size();
    Builder b(op->getContext());
    auto meanAlong = [&](Value v) {
      return rb.op<MeanOp>(
          {v}, {b.getNamedAttr("axis", b.getDenseI64ArrayAttr({axis})),
                b.getNamedAttr("keepdims", b.getBoolAttr(true))});
    };
    auto sumOthers = [&](Value v) { return sumOverOthers(rb, v, axis); };
    Value centred = rb.subtract(x, meanAlong(x));
    Value var = meanAlong(rb.multiply(centred, centred));
    Value s = rb.op<RsqrtOp>(
        {rb.add(var, scalar(rb, op.getEpsilon().convertToDouble(), x))});
    Value xhat = rb.multiply(centred, s);
    Value d = op.getScale() ? rb.multiply(g, alongAxis(rb, gamma, x, axis)) : g;
    Value dx = rb.multiply(
        s, rb.subtract(rb.subtract(d, meanAlong(d)),
                       rb.multiply(xhat, meanAlong(rb.multiply(d, xhat)))));
    Value dgamma = op.getScale() ? sumOthers(rb.multiply(g, xhat))
                                 : rb.op<ZerosLikeOp>({gamma});
    Value dbeta =
        op.getCenter() ? sumOthers(g) : rb.op<ZerosLikeOp>({op->getOperand(2)});
    if (!dx || !dgamma || !dbeta)
      return failure();
    return SmallVector<Value>{dx, dgamma, dbeta};
  });
  setRule<TakeOp>([](RelayBuilder &rb, TakeOp op, Value g) -> Grads {
    // out[pre, i, post] = x[pre, idx[i], post] (x flattened without an
    // axis): the gradient adds each g[pre, i, post] at idx[i], a
    // scatter_elements adding along the middle axis (O(|g|), where a
    // product with one_hot(idx) would cost N times that: an embedding's
    // vocabulary).
    if (op.getBatchDims() != 0)
      return failure();
    Value x = op->getOperand(0), idx = op->getOperand(1);
    ArrayRef<int64_t> xs = shapeOf(x), is = shapeOf(idx);
    Type indexType = cast<RankedTensorType>(idx.getType()).getElementType();
    int64_t rank = xs.size(), pre = 1, post = 1;
    int64_t n = ShapedType::getNumElements(xs);
    if (IntegerAttr a = op.getAxisAttr()) {
      int64_t axis = a.getInt() < 0 ? a.getInt() + rank : a.getInt();
      n = xs[axis];
      for (int64_t d = 0; d < rank; ++d)
        (d < axis ? pre : post) *= d == axis ? 1 : xs[d];
    }
    if (ShapedType::isDynamicShape(xs))
      return takeOfRunTimeSizes(rb, op, g);
    // The indices' count may depend on the data (an argwhere's): it is then
    // found when it runs.
    bool countKnown = !ShapedType::isDynamicShape(is);
    int64_t m = countKnown ? ShapedType::getNumElements(is) : -1;
    // The element each index reads, as the forward normalises it.
    if (op.getMode() == "clip")
      idx = rb.op<MinimumOp>({rb.op<MaximumOp>({idx, rb.scalar(0, indexType)}),
                              rb.scalar(n - 1, indexType)});
    else if (op.getMode() == "wrap")
      idx = rb.op<FloorModOp>({idx, rb.scalar(n, indexType)});
    Builder b(op->getContext());
    auto shape = [&](ArrayRef<int64_t> s) {
      return b.getNamedAttr("newshape", b.getDenseI64ArrayAttr(s));
    };
    Value rows = rb.op<ReshapeOp>({g}, {shape({pre, m, post})});
    Value column = rb.op<ReshapeOp>({idx}, {shape({1, m, 1})});
    Value at = countKnown ? rb.op<BroadcastToOp>(
                                {column},
                                {b.getNamedAttr("shape", b.getDenseI64ArrayAttr(
                                                             {pre, m, post}))})
                          : rb.op<BroadcastToLikeOp>({column, rows});
    Value zeros =
        rb.op<ReshapeOp>({rb.op<ZerosLikeOp>({x})}, {shape({pre, n, post})});
    Value dx = rb.op<ScatterElementsOp>(
        {zeros, at, rows},
        {b.getNamedAttr("axis", b.getI64IntegerAttr(1)),
         b.getNamedAttr("reduction", b.getStringAttr("add"))});
    dx = rb.op<ReshapeOp>({dx}, {shape(xs)});
    if (!dx)
      return failure();
    return SmallVector<Value>{dx, Value()};
  });
  setUnaryRule<BroadcastToOp>([](RelayBuilder &rb, BroadcastToOp op, Value g) {
    return collapseTo(rb, g, op->getOperand(0));
  });

  // full and full_like broadcast their fill value (full_like's data gives
  // only the type): its gradient is g summed, in the fill value's dtype.
  auto fillGradient = [](RelayBuilder &rb, Value fill, Value g) {
    if (!isa<FloatType>(
            cast<RankedTensorType>(fill.getType()).getElementType()))
      return Value(); // an integer fill value has no gradient
    return collapseTo(rb, inElementTypeOf(rb, g, fill), fill);
  };
  setUnaryRule<FullOp>([=](RelayBuilder &rb, FullOp op, Value g) {
    return fillGradient(rb, op->getOperand(0), g);
  });
  setRule<FullLikeOp>([=](RelayBuilder &rb, FullLikeOp op, Value g) -> Grads {
    return SmallVector<Value>{Value(), fillGradient(rb, op->getOperand(1), g)};
  });
  setRule<DynFullOp>([=](RelayBuilder &rb, DynFullOp op, Value g) -> Grads {
    return SmallVector<Value>{fillGradient(rb, op->getOperand(0), g), Value()};
  });
  // cumsum's transpose is the running sum from the other end (exclusive
  // too): reversed, summed, reversed back; without an axis along the
  // flattened data, then reshaped.
  setUnaryRule<CumsumOp>([](RelayBuilder &rb, CumsumOp op, Value g) {
    Builder b(op->getContext());
    Value x = op->getOperand(0);
    int64_t axis = op.getAxisAttr() ? op.getAxisAttr().getInt() : 0;
    if (axis < 0)
      axis += shapeOf(g).size();
    NamedAttribute along = b.getNamedAttr("axis", b.getI64IntegerAttr(axis));
    Value v = rb.op<ReverseOp>({g}, {along});
    v = rb.op<CumsumOp>(
        {v}, {along, b.getNamedAttr("exclusive", op.getExclusiveAttr())});
    v = rb.op<ReverseOp>({v}, {along});
    if (!op.getAxisAttr())
      v = rb.op<ReshapeOp>({v}, {ints(b, "newshape", shapeOf(x))});
    return inElementTypeOf(rb, v, x);
  });

  // Reductions.
  setUnaryRule<SumOp>([](RelayBuilder &rb, SumOp op, Value g) {
    return broadcastBack(rb, op, g, op->getOperand(0));
  });
  setUnaryRule<MeanOp>([](RelayBuilder &rb, MeanOp op, Value g) {
    Value x = op->getOperand(0);
    ArrayRef<int64_t> shape = shapeOf(x);
    SmallVector<int64_t> axes = reducedAxes(op, shape.size());
    Value spread = broadcastBack(rb, op, g, x);
    if (llvm::any_of(
            axes, [&](int64_t a) { return ShapedType::isDynamic(shape[a]); })) {
      // A count known only at run time: the reduced elements counted.
      Builder b(op->getContext());
      Value count =
          rb.op<SumOp>({rb.op<OnesLikeOp>({x})},
                       {ints(b, "axis", axes),
                        b.getNamedAttr("keepdims", b.getBoolAttr(true))});
      return rb.divide(spread, count);
    }
    int64_t count = 1;
    for (int64_t a : axes)
      count *= shape[a];
    return rb.divide(spread, scalar(rb, double(count), x));
  });

  // max and min: the gradient goes to the elements equal to the result,
  // shared among ties (TVM's).
  auto extremumRule = [](RelayBuilder &rb, Operation *op, Value g) {
    Value x = op->getOperand(0);
    Value spread = broadcastBack(rb, op, g, x);
    Value result = broadcastBack(rb, op, op->getResult(0), x);
    Value hits = rb.op<CastLikeOp>({rb.equal(x, result), x});
    Value count = rb.op<SumOp>({hits}, op->getAttrs());
    return rb.divide(rb.multiply(spread, hits),
                     broadcastBack(rb, op, count, x));
  };
  setUnaryRule<MaxOp>([=](RelayBuilder &rb, MaxOp op, Value g) {
    return extremumRule(rb, op, g);
  });
  setUnaryRule<MinOp>([=](RelayBuilder &rb, MinOp op, Value g) {
    return extremumRule(rb, op, g);
  });

  // prod: each element's gradient is the product of the others, as the
  // running products from both ends give it (no division, so zeros are
  // right): the reduced axes moved last and flattened into one.
  setUnaryRule<ProdOp>([](RelayBuilder &rb, ProdOp op, Value g) {
    Builder b(op->getContext());
    Value x = op->getOperand(0);
    ArrayRef<int64_t> shape = shapeOf(x);
    int64_t rank = shape.size();
    SmallVector<int64_t> reduced = reducedAxes(op, rank), perm, moved;
    for (int64_t a = 0; a < rank; ++a)
      if (!llvm::is_contained(reduced, a))
        perm.push_back(a);
    llvm::append_range(perm, reduced);
    SmallVector<int64_t> inverse(rank), flat;
    for (auto [i, a] : llvm::enumerate(perm)) {
      inverse[a] = i;
      moved.push_back(shape[a]);
    }
    int64_t kept = rank - reduced.size(), count = 1;
    if (ShapedType::isDynamicShape(shape)) {
      // Sizes known only at run time: the kept axes copied (0), the
      // reduced ones joined (-1).
      flat.assign(kept, 0);
      flat.push_back(-1);
    } else {
      flat.assign(moved.begin(), moved.begin() + kept);
      for (int64_t d : ArrayRef(moved).drop_front(kept))
        count *= d;
      flat.push_back(count);
    }
    bool identity = llvm::equal(perm, llvm::seq<int64_t>(0, rank));
    Value moves =
        identity ? x : rb.op<TransposeOp>({x}, {ints(b, "axes", perm)});
    Value v = rb.op<ReshapeOp>({moves}, {ints(b, "newshape", flat)});
    NamedAttribute last = b.getNamedAttr("axis", b.getI64IntegerAttr(kept));
    NamedAttribute exclusive = b.getNamedAttr("exclusive", b.getBoolAttr(true));
    Value before = rb.op<CumprodOp>({v}, {last, exclusive});
    Value after = rb.op<ReverseOp>(
        {rb.op<CumprodOp>({rb.op<ReverseOp>({v}, {last})}, {last, exclusive})},
        {last});
    Value others = reshapedLike(rb, rb.multiply(before, after), moves);
    if (!identity)
      others = rb.op<TransposeOp>({others}, {ints(b, "axes", inverse)});
    return rb.multiply(broadcastBack(rb, op, g, x), others);
  });

  // Data movement.
  setUnaryRule<ReshapeOp>([](RelayBuilder &rb, ReshapeOp op, Value g) {
    return reshapedLike(rb, g, op->getOperand(0));
  });
  setUnaryRule<TransposeOp>([](RelayBuilder &rb, TransposeOp op, Value g) {
    int64_t rank = shapeOf(g).size();
    SmallVector<int64_t> axes = op.getPermutation(rank);
    SmallVector<int64_t> inverse(rank);
    for (int64_t i = 0; i < rank; ++i)
      inverse[axes[i]] = i;
    Builder b(op->getContext());
    return rb.op<TransposeOp>(
        {g}, {b.getNamedAttr("axes", b.getDenseI64ArrayAttr(inverse))});
  });

  // Shape-only operators: the gradient takes the operand's shape back.
  auto reshapeBack = [](RelayBuilder &rb, Operation *op, Value g) {
    return reshapedLike(rb, g, op->getOperand(0));
  };
  setUnaryRule<ExpandDimsOp>([=](RelayBuilder &rb, ExpandDimsOp op, Value g) {
    return reshapeBack(rb, op, g);
  });
  setUnaryRule<SqueezeOp>([=](RelayBuilder &rb, SqueezeOp op, Value g) {
    return reshapeBack(rb, op, g);
  });
  setUnaryRule<BatchFlattenOp>([=](RelayBuilder &rb, BatchFlattenOp op,
                                   Value g) { return reshapeBack(rb, op, g); });
  setUnaryRule<CastOp>([](RelayBuilder &rb, CastOp op, Value g) {
    Builder b(op->getContext());
    Type e =
        cast<RankedTensorType>(op->getOperand(0).getType()).getElementType();
    return rb.op<CastOp>({g}, {b.getNamedAttr("dtype", TypeAttr::get(e))});
  });

  // split's gradient is its fields' joined; concatenate's is its result's
  // pieces, one per operand field.
  setUnaryRule<SplitOp>([](RelayBuilder &rb, SplitOp op, Value g) {
    Builder b(op->getContext());
    return rb.op<ConcatenateOp>({g},
                                {b.getNamedAttr("axis", op.getAxisAttr())});
  });
  setUnaryRule<ConcatenateOp>([](RelayBuilder &rb, ConcatenateOp op, Value g) {
    auto fields = cast<TupleType>(op->getOperand(0).getType()).getTypes();
    int64_t rank = shapeOf(g).size();
    int64_t axis = op.getAxisAttr().getInt();
    if (axis < 0)
      axis += rank;
    Builder b(op->getContext());
    SmallVector<Value> pieces;
    bool sizesKnown = llvm::none_of(fields, [&](Type field) {
      return ShapedType::isDynamic(
          cast<RankedTensorType>(field).getShape()[axis]);
    });
    if (sizesKnown) {
      // Each field's rows along the axis alone (the other axes whole,
      // whatever their sizes).
      int64_t offset = 0;
      for (Type field : fields) {
        int64_t size = cast<RankedTensorType>(field).getShape()[axis];
        pieces.push_back(rb.op<StridedSliceOp>(
            {g}, {ints(b, "begin", {offset}), ints(b, "end", {offset + size}),
                  ints(b, "axes", {axis})}));
        offset += size;
      }
      return rb.tuple(pieces);
    }
    // Sizes along the axis known only at run time: each field's offset and
    // size read from the shapes when it runs, a dyn.strided_slice of g
    // (begin and end the offsets on the axis, 0 and g's sizes elsewhere),
    // given back the field's type.
    Type i64 = b.getI64Type();
    SmallVector<int64_t> onAxis(rank, 0), offAxis(rank, 1);
    onAxis[axis] = 1;
    offAxis[axis] = 0;
    Value gSizes = runTimeSizes(rb, g);
    Value strides = i64Vector(rb, SmallVector<int64_t>(rank, 1));
    Value offset = rb.scalar(0, i64);
    for (unsigned i = 0; i < fields.size(); ++i) {
      Value field = rb.tupleGet(op->getOperand(0), i);
      Value size =
          rb.op<TakeOp>({runTimeSizes(rb, field), rb.scalar(axis, i64)},
                        {b.getNamedAttr("axis", b.getI64IntegerAttr(0))});
      Value next = rb.add(offset, size);
      Value begin = rb.multiply(i64Vector(rb, onAxis), offset);
      Value end = rb.add(rb.multiply(i64Vector(rb, onAxis), next),
                         rb.multiply(i64Vector(rb, offAxis), gSizes));
      Value piece = rb.op<DynStridedSliceOp>({g, begin, end, strides});
      pieces.push_back(rb.op<ReshapeLikeOp>({piece, field}));
      offset = next;
    }
    return rb.tuple(pieces);
  });

  // A slice with unit strides: its gradient padded back with zeros.
  // Normalisations.
  setUnaryRule<SoftmaxOp>([](RelayBuilder &rb, SoftmaxOp op, Value g) {
    // dx = y * (g - sum(g * y, axis, keepdims))
    Builder b(op->getContext());
    Value y = op.getResult();
    Value dot = rb.op<SumOp>(
        {rb.multiply(g, y)},
        {b.getNamedAttr("axis",
                        b.getDenseI64ArrayAttr({op.getAxisAttr().getInt()})),
         b.getNamedAttr("keepdims", b.getBoolAttr(true))});
    return rb.multiply(y, rb.subtract(g, dot));
  });
  setUnaryRule<LogSoftmaxOp>([](RelayBuilder &rb, LogSoftmaxOp op, Value g) {
    // dx = g - exp(y) * sum(g, axis, keepdims)
    Builder b(op->getContext());
    Value total = rb.op<SumOp>(
        {g}, {b.getNamedAttr(
                  "axis", b.getDenseI64ArrayAttr({op.getAxisAttr().getInt()})),
              b.getNamedAttr("keepdims", b.getBoolAttr(true))});
    return rb.subtract(g, rb.multiply(rb.op<ExpOp>({op.getResult()}), total));
  });

  // Piecewise functions: the gradient where each piece is taken.
  setUnaryRule<AbsOp>([](RelayBuilder &rb, AbsOp op, Value g) {
    return rb.multiply(g, rb.op<SignOp>({op->getOperand(0)}));
  });
  setUnaryRule<ClipOp>([](RelayBuilder &rb, ClipOp op, Value g) {
    Value x = op->getOperand(0);
    // Inside [a_min, a_max] the clip is the identity: there its result
    // equals its operand.
    Value inside = rb.equal(op.getResult(), x);
    return rb.op<WhereOp>({inside, g, rb.op<ZerosLikeOp>({g})});
  });
  auto selectRule = [](bool takeLhsWhenGreater) {
    return [takeLhsWhenGreater](RelayBuilder &rb, Operation *op,
                                Value g) -> Grads {
      Value a = op->getOperand(0), c = op->getOperand(1);
      Value lhsWins = takeLhsWhenGreater ? rb.binary<GreaterEqualOp>(a, c)
                                         : rb.binary<LessEqualOp>(a, c);
      Value zeros = rb.op<ZerosLikeOp>({g});
      return SmallVector<Value>{
          collapseTo(rb, rb.op<WhereOp>({lhsWins, g, zeros}), a),
          collapseTo(rb, rb.op<WhereOp>({lhsWins, zeros, g}), c)};
    };
  };
  setRule<MaximumOp>([=](RelayBuilder &rb, MaximumOp op, Value g) {
    return selectRule(true)(rb, op, g);
  });
  setRule<MinimumOp>([=](RelayBuilder &rb, MinimumOp op, Value g) {
    return selectRule(false)(rb, op, g);
  });
  setRule<WhereOp>([](RelayBuilder &rb, WhereOp op, Value g) -> Grads {
    Value c = op.getCondition(), x = op.getX(), y = op.getY();
    Value zeros = rb.op<ZerosLikeOp>({g});
    return SmallVector<Value>{Value(),
                              collapseTo(rb, rb.op<WhereOp>({c, g, zeros}), x),
                              collapseTo(rb, rb.op<WhereOp>({c, zeros, g}), y)};
  });

  // Global pooling (any layout: the result keeps the operand's rank, its
  // spatial axes of size 1, so it broadcasts back): the average spreads
  // the gradient evenly, the maximum gives it to the elements equal to it.
  setUnaryRule<GlobalAvgPool2DOp>(
      [](RelayBuilder &rb, GlobalAvgPool2DOp op, Value g) {
        Value x = op->getOperand(0);
        int64_t count = 1;
        for (auto [a, r] : llvm::zip(shapeOf(x), shapeOf(g)))
          count *= r == 1 ? a : 1;
        return rb.divide(rb.op<BroadcastToLikeOp>({g, x}),
                         scalar(rb, double(count), x));
      });
  // Ties share it, as max's do and as the tangent rule has it: a maximum
  // copied (a broadcast, take of one index twice) gets it once in all.
  setUnaryRule<GlobalMaxPool2DOp>([](RelayBuilder &rb, GlobalMaxPool2DOp op,
                                     Value g) {
    Value x = op->getOperand(0);
    Value hits = rb.op<CastLikeOp>(
        {rb.equal(x, rb.op<BroadcastToLikeOp>({op.getResult(), x})), x});
    SmallVector<int64_t> spatial;
    for (auto [i, dims] : llvm::enumerate(llvm::zip(shapeOf(x), shapeOf(g))))
      if (std::get<1>(dims) == 1 && std::get<0>(dims) != 1)
        spatial.push_back(i);
    Value count = hits;
    if (!spatial.empty()) {
      Builder b(op->getContext());
      count = rb.op<SumOp>({hits},
                           {ints(b, "axis", spatial),
                            b.getNamedAttr("keepdims", b.getBoolAttr(true))});
    }
    return rb.divide(rb.multiply(rb.op<BroadcastToLikeOp>({g, x}), hits),
                     rb.op<BroadcastToLikeOp>({count, x}));
  });

  // Products and biases.
  setRule<DenseOp>([](RelayBuilder &rb, DenseOp op, Value g) -> Grads {
    Value w = op->getOperand(1);
    return rowProductGrads(
        rb, op->getOperand(0), g, [&](Value x, Value g) -> Grads {
          // y = x w^T: dx = g w, dw = g^T x.
          Value dx = rb.op<DenseOp>({g, rb.op<TransposeOp>({w})});
          Value dw = rb.op<DenseOp>(
              {rb.op<TransposeOp>({g}), rb.op<TransposeOp>({x})});
          return SmallVector<Value>{dx, dw};
        });
  });
  setRule<BatchMatmulOp>(
      [](RelayBuilder &rb, BatchMatmulOp op, Value g) -> Grads {
        // A batch of 1 broadcasts against the other's: its gradient is the
        // sum over the batch.
        Grads grads =
            productGrads<BatchMatmulOp>(rb, op, op.getX(), op.getY(), g,
                                        op.getTransposeA(), op.getTransposeB());
        if (failed(grads))
          return failure();
        return SmallVector<Value>{collapseTo(rb, (*grads)[0], op.getX()),
                                  collapseTo(rb, (*grads)[1], op.getY())};
      });
  setRule<MatmulOp>([](RelayBuilder &rb, MatmulOp op, Value g) -> Grads {
    // tensor_a is [..., K] unless transposed (then 2-d); tensor_b is 2-d.
    return rowProductGrads(
        rb, op.getTensorA(), g, [&](Value a, Value g) -> Grads {
          return productGrads<MatmulOp>(rb, op, a, op.getTensorB(), g,
                                        op.getTransposeA(), op.getTransposeB());
        });
  });
  setRule<BiasAddOp>([](RelayBuilder &rb, BiasAddOp op, Value g) -> Grads {
    int64_t rank = shapeOf(g).size();
    int64_t axis = op.getAxisAttr().getInt();
    if (axis < 0)
      axis += rank;
    Builder b(op->getContext());
    Value db = rb.op<SumOp>(
        {g}, {b.getNamedAttr("axis", b.getDenseI64ArrayAttr({axis})),
              b.getNamedAttr("exclude", b.getBoolAttr(true))});
    return SmallVector<Value>{g, db};
  });
}

} // namespace

void mlir::relay::registerGradientRules() {
  static bool registered = [] {
    registerRules();
    registerWindowGradientRules();
    registerConvGradientRules();
    registerMovementGradientRules();
    registerScatterGradientRules();
    registerSamplingGradientRules();
    return true;
  }();
  (void)registered;
}

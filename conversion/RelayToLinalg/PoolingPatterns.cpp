//===- PoolingPatterns.cpp - Pooling to linalg ------------------*- C++ -*-===//
//
// max_pool2d and avg_pool2d (NCHW, with padding, dilation, ceil_mode and
// count_include_pad): one elementwise generic over strided views of the
// padded image, one per window tap, or linalg's pooling ops for large
// windows; NHWC max pooling and uniform average pooling the same way along
// the channels, other layouts through transposes; adaptive pooling: a
// reduction over the widest window with the positions past each window's
// end masked out.
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "conversion/RelayToLinalg/OperatorPattern.h"
#include "conversion/RelayToLinalg/RelayToLinalg.h"

#include "dialects/relay/RelayOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

/// The most window taps pooling reads as separate views (larger windows use
/// the pooling named ops).
constexpr int64_t kMaxPoolTaps = 64;

/// out = combine over `taps` (views of `type`'s shape, one per window tap):
/// one elementwise generic, which vectorises along the innermost dimension.
Value combineTaps(
    OpBuilder &b, Location loc, RankedTensorType type, ValueRange taps,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  MLIRContext *ctx = b.getContext();
  unsigned rank = type.getRank();
  Value out =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  SmallVector<AffineMap> maps(taps.size() + 1,
                              AffineMap::getMultiDimIdentityMap(rank, ctx));
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, taps, ValueRange{out}, maps,
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange a) {
               Value acc = a[0];
               for (Value v : a.drop_front().drop_back())
                 acc = combine(nb, l, acc, v);
               linalg::YieldOp::create(nb, l, acc);
             })
      .getResult(0);
}

/// out[n, c, oh, ow] = combine over the window taps (i, j) of
/// data[n, c, oh*s0 + i*d0, ow*s1 + j*d1]: one elementwise generic over
/// strided views of the padded `data` (one per tap), which vectorises along
/// the output row; the pooling named ops do not vectorise.
Value poolTaps(
    OpBuilder &b, Location loc, RankedTensorType type, Value data,
    ArrayRef<int64_t> k, ArrayRef<int64_t> s, ArrayRef<int64_t> d,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  SmallVector<Value> taps;
  StridePhases phases(b, loc, data, s, d, k[0], k[1]);
  for (int64_t i = 0; i < k[0]; ++i)
    for (int64_t j = 0; j < k[1]; ++j)
      taps.push_back(phases.tapView(b, loc, i, j, type));
  return combineTaps(b, loc, type, taps, combine);
}

/// A pooling window over the (h, w) dimensions of an input of `in`'s shape
/// into `type`'s: its size, strides, dilations, padding (top, left, bottom,
/// right), the rows and columns ceil_mode's last window hangs over, and
/// whether average pooling divides every window by its size.
struct PoolWindow {
  SmallVector<int64_t> k, s, d, p;
  int64_t extraH, extraW;
  bool countPad, uniform;

  PoolWindow(Operation *op, RankedTensorType in, RankedTensorType type,
             unsigned h, unsigned w) {
    k = intsAttr(op, "pool_size", {1, 1});
    s = intsAttr(op, "strides", {1, 1});
    d = intsAttr(op, "dilation", {1, 1});
    for (auto *v : {&k, &s, &d})
      if (v->size() == 1)
        v->push_back(v->front());
    p = padding4(op);
    // With ceil_mode the last window may hang over: pad for it.
    int64_t needH = (type.getShape()[h] - 1) * s[0] + (k[0] - 1) * d[0] + 1;
    int64_t needW = (type.getShape()[w] - 1) * s[1] + (k[1] - 1) * d[1] + 1;
    extraH = std::max<int64_t>(0, needH - (in.getShape()[h] + p[0] + p[2]));
    extraW = std::max<int64_t>(0, needW - (in.getShape()[w] + p[1] + p[3]));
    countPad = getOperatorAttributes(op).get("count_include_pad") ==
               BoolAttr::get(op->getContext(), true);
    bool anyPad = llvm::any_of(p, [](int64_t v) { return v != 0; });
    // Average pooling divides by the window size when every window counts
    // the same number of elements; otherwise by a per-position count (a
    // pooling sum over ones padded like the data, the padding counted only
    // with count_include_pad and never the overhang of ceil_mode).
    uniform = !(extraH || extraW || (anyPad && !countPad));
  }
  int64_t taps() const { return k[0] * k[1]; }
  /// The padding with ceil_mode's overhang.
  SmallVector<int64_t> paddingWithOverhang() const {
    return {p[0], p[1], p[2] + extraH, p[3] + extraW};
  }
};

/// The maximum or sum of two window elements of type `e`.
Value poolCombine(OpBuilder &b, Location l, Type e, bool isMax, Value x,
                  Value y) {
  if (!isMax)
    return arith::AddFOp::create(b, l, x, y);
  if (isa<FloatType>(e))
    return arith::MaximumFOp::create(b, l, x, y);
  return integerMax(b, l, x, y);
}

/// `sum` divided by the window size `count` (a uniform average).
Value divideBy(OpBuilder &b, Location loc, Value sum, int64_t count) {
  Type e = cast<RankedTensorType>(sum.getType()).getElementType();
  Value divisor = constantScalar(b, loc, e, double(count));
  return mapElements(b, loc, sum, e, [&](OpBuilder &nb, Location l, Value x) {
    return arith::DivFOp::create(nb, l, x, divisor).getResult();
  });
}

/// Whether pooling of `type` can be lowered: float, or integer max (which
/// compares as the signedness says; linalg's NCHW max for large windows is
/// signed only).
bool poolable(Operation *op, RankedTensorType type, bool isMax,
              int64_t numTaps) {
  if (!type)
    return false;
  if (isa<FloatType>(type.getElementType()))
    return true;
  return isMax && isa<IntegerType>(type.getElementType()) &&
         (numTaps <= kMaxPoolTaps || !isUnsignedValue(op->getResult(0)));
}

/// max_pool2d, and avg_pool2d with windows of one size, of an NHWC input
/// (an int8 network's, whose convolutions the CPU takes in NHWC): one
/// strided view per tap, channels innermost; failure for other windows.
FailureOr<SmallVector<Value>> poolNhwc(OpBuilder &b, Operation *op,
                                       ValueRange operands,
                                       RankedTensorType type, bool isMax) {
  auto in = cast<RankedTensorType>(operands[0].getType());
  if (!type || !type.hasStaticShape() || !in.hasStaticShape())
    return failure();
  PoolWindow win(op, in, type, 1, 2);
  if (!poolable(op, type, isMax, win.taps()) || win.taps() > kMaxPoolTaps ||
      (!isMax && !win.uniform))
    return failure();
  Location loc = op->getLoc();
  Type e = type.getElementType();
  Value data = padImage(b, loc, operands[0], win.paddingWithOverhang(), 1, 2,
                        constantScalar(b, loc, e, isMax ? -INFINITY : 0.0));
  SmallVector<Value> taps;
  for (int64_t i = 0; i < win.k[0]; ++i)
    for (int64_t j = 0; j < win.k[1]; ++j)
      taps.push_back(tensor::ExtractSliceOp::create(
          b, loc, type, data, ValueRange{}, ValueRange{}, ValueRange{},
          b.getDenseI64ArrayAttr({0, i * win.d[0], j * win.d[1], 0}),
          b.getDenseI64ArrayAttr(type.getShape()),
          b.getDenseI64ArrayAttr({1, win.s[0], win.s[1], 1})));
  Value pooled = combineTaps(b, loc, type, taps,
                             [&](OpBuilder &nb, Location l, Value x, Value y) {
                               return poolCombine(nb, l, e, isMax, x, y);
                             });
  if (isMax)
    return SmallVector<Value>{pooled};
  return SmallVector<Value>{divideBy(b, loc, pooled, win.taps())};
}

/// max_pool2d and avg_pool2d of an NCHW input to `type` over a padded
/// input: window taps, or the pooling named ops for large windows.
FailureOr<SmallVector<Value>> poolNchw(OpBuilder &b, Operation *op,
                                       ValueRange operands,
                                       RankedTensorType type, bool isMax) {
  if (!type)
    return failure();
  auto in = cast<RankedTensorType>(operands[0].getType());
  PoolWindow win(op, in, type, 2, 3);
  if (!poolable(op, type, isMax, win.taps()))
    return failure();
  ArrayRef<int64_t> k = win.k, s = win.s, d = win.d, p = win.p;
  int64_t extraH = win.extraH, extraW = win.extraW;
  bool countPad = win.countPad, uniform = win.uniform;
  Location loc = op->getLoc();
  Type e = type.getElementType();
  Value padValue = constantScalar(b, loc, e, isMax ? -INFINITY : 0.0);
  Value data =
      padImage(b, loc, operands[0], win.paddingWithOverhang(), 2, 3, padValue);
  Value window = tensor::EmptyOp::create(b, loc, k, e);
  auto strides = b.getI64TensorAttr(s);
  auto dilations = b.getI64TensorAttr(d);
  // The window max or sum: taps, or a named op for large windows.
  Value pooled;
  if (win.taps() <= kMaxPoolTaps) {
    pooled = poolTaps(b, loc, type, data, k, s, d,
                      [&](OpBuilder &nb, Location l, Value x, Value y) {
                        return poolCombine(nb, l, e, isMax, x, y);
                      });
  } else {
    Value init = filledTensor(b, loc, type.getShape(), padValue);
    pooled = isMax ? linalg::PoolingNchwMaxOp::create(
                         b, loc, TypeRange{type}, ValueRange{data, window},
                         ValueRange{init}, strides, dilations)
                         .getResult(0)
                   : linalg::PoolingNchwSumOp::create(
                         b, loc, TypeRange{type}, ValueRange{data, window},
                         ValueRange{init}, strides, dilations)
                         .getResult(0);
  }
  if (isMax)
    return SmallVector<Value>{pooled};
  Value sum = pooled;
  if (uniform)
    return SmallVector<Value>{divideBy(b, loc, sum, win.taps())};
  SmallVector<utils::IteratorType> par(4, utils::IteratorType::parallel);
  MLIRContext *ctx = b.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(4, ctx);
  Value out = tensor::EmptyOp::create(b, loc, type.getShape(), e);
  Value one = constantScalar(b, loc, e, 1.0),
        zero = constantScalar(b, loc, e, 0.0);
  SmallVector<int64_t> onesShape{1, 1, in.getShape()[2], in.getShape()[3]};
  Value ones = linalg::FillOp::create(
                   b, loc, one,
                   tensor::EmptyOp::create(b, loc, onesShape, e).getResult())
                   .getResult(0);
  if (countPad)
    ones = padImage(b, loc, ones, p, 2, 3, one);
  ones = padImage(
      b, loc, ones,
      countPad ? SmallVector<int64_t>{0, 0, extraH, extraW}
               : SmallVector<int64_t>{p[0], p[1], p[2] + extraH, p[3] + extraW},
      2, 3, zero);
  auto countType =
      RankedTensorType::get({1, 1, type.getShape()[2], type.getShape()[3]}, e);
  Value countInit = filledTensor(b, loc, countType.getShape(), zero);
  Value counts = linalg::PoolingNchwSumOp::create(
                     b, loc, TypeRange{countType}, ValueRange{ones, window},
                     ValueRange{countInit}, strides, dilations)
                     .getResult(0);
  AffineExpr dn, dc, dh, dw;
  bindDims(ctx, dn, dc, dh, dw);
  AffineMap perPosition = AffineMap::get(
      4, 0,
      {getAffineConstantExpr(0, ctx), getAffineConstantExpr(0, ctx), dh, dw},
      ctx);
  return SmallVector<Value>{
      linalg::GenericOp::create(
          b, loc, TypeRange{type}, ValueRange{sum, counts}, ValueRange{out},
          {id, perPosition, id}, par,
          [&](OpBuilder &nb, Location l, ValueRange a) {
            linalg::YieldOp::create(
                nb, l, arith::DivFOp::create(nb, l, a[0], a[1]).getResult());
          })
          .getResult(0)};
}

/// An average pooling of integers as the interpreter computes it: the
/// window's sum and its division in float64 (exact for int32 values),
/// truncated toward zero. `pool` pools the widened operand to a float64
/// result of the same shape. (FakeQuantizationToInteger's average pooling
/// of a quantized network is an int32 one.)
FailureOr<SmallVector<Value>> integerAverage(
    OpBuilder &b, Operation *op, ValueRange operands, RankedTensorType type,
    function_ref<FailureOr<SmallVector<Value>>(ValueRange, RankedTensorType)>
        pool) {
  auto in = dyn_cast<RankedTensorType>(operands[0].getType());
  if (!type || !in || !in.hasStaticShape())
    return failure();
  Location loc = op->getLoc();
  bool isUnsigned = isUnsignedValue(op->getResult(0));
  Type f64 = b.getF64Type();
  Value wide = convertTensor(b, loc, operands[0], f64, isUnsigned, false);
  FailureOr<SmallVector<Value>> pooled =
      pool({wide}, RankedTensorType::get(type.getShape(), f64));
  if (failed(pooled))
    return failure();
  return SmallVector<Value>{convertTensor(
      b, loc, pooled->front(), type.getElementType(), false, isUnsigned)};
}

/// max_pool2d and avg_pool2d in NCHW, or in another order of its axes (an
/// NHWC network's, after --relay-convert-layout) through transposes to
/// NCHW and back.
FailureOr<SmallVector<Value>> poolRuleOf(OpBuilder &b, Operation *op,
                                         ValueRange operands,
                                         RankedTensorType type, bool isMax) {
  StringRef layout = strAttr(op, "layout", "NCHW");
  if (layout == "NCHW")
    return poolNchw(b, op, operands, type, isMax);
  if (layout == "NHWC") {
    FailureOr<SmallVector<Value>> pooled =
        poolNhwc(b, op, operands, type, isMax);
    if (succeeded(pooled))
      return pooled;
  }
  std::optional<std::array<int64_t, 4>> axes = axesOf(layout, "NCHW");
  if (!type || !axes)
    return failure();
  Location loc = op->getLoc();
  Value in = permuteAxes(b, loc, operands[0], *axes);
  SmallVector<int64_t> nchwShape;
  for (int64_t a : *axes)
    nchwShape.push_back(type.getDimSize(a));
  FailureOr<SmallVector<Value>> pooled =
      poolNchw(b, op, {in},
               RankedTensorType::get(nchwShape, type.getElementType()), isMax);
  if (failed(pooled))
    return failure();
  SmallVector<int64_t> back;
  for (char c : layout)
    back.push_back(StringRef("NCHW").find(c));
  return SmallVector<Value>{permuteAxes(b, loc, pooled->front(), back)};
}

FailureOr<SmallVector<Value>> poolRule(OpBuilder &b, Operation *op,
                                       ValueRange operands, bool isMax) {
  RankedTensorType type = resultType(op);
  if (type && !isMax && isa<IntegerType>(type.getElementType()))
    return integerAverage(
        b, op, operands, type, [&](ValueRange wide, RankedTensorType f64) {
          return poolRuleOf(b, op, wide, f64, /*isMax=*/false);
        });
  return poolRuleOf(b, op, operands, type, isMax);
}

// Adaptive pooling
//===----------------------------------------------------------------------===//

/// Window [start, end) of output position o of `out` over an input of
/// `in`: PyTorch's floor(o * in / out) to ceil((o + 1) * in / out).
int64_t windowStart(int64_t o, int64_t in, int64_t out) { return o * in / out; }
int64_t windowEnd(int64_t o, int64_t in, int64_t out) {
  return ((o + 1) * in + out - 1) / out;
}

/// A reduction over the widest window with the positions past each
/// window's end masked out; average pooling then divides by the window's
/// size.
FailureOr<SmallVector<Value>> adaptivePoolOf(OpBuilder &b, Operation *op,
                                             ValueRange operands,
                                             RankedTensorType type,
                                             bool isMax) {
  std::optional<std::array<int64_t, 4>> axes =
      axesOf(strAttr(op, "layout", "NCHW"), "NCHW");
  auto in = cast<RankedTensorType>(operands[0].getType());
  if (!type || !axes || !in.hasStaticShape())
    return failure();
  Type e = type.getElementType();
  // Integer max pooling compares as the operand's signedness says
  // (integerMax under the lowering's UnsignedOpScope).
  if (!isa<FloatType>(e) && !isMax)
    return failure();
  int64_t ah = (*axes)[H], aw = (*axes)[W];
  int64_t inH = in.getDimSize(ah), inW = in.getDimSize(aw);
  int64_t outH = type.getDimSize(ah), outW = type.getDimSize(aw);
  int64_t widestH = 0, widestW = 0;
  for (int64_t o = 0; o < outH; ++o)
    widestH =
        std::max(widestH, windowEnd(o, inH, outH) - windowStart(o, inH, outH));
  for (int64_t o = 0; o < outW; ++o)
    widestW =
        std::max(widestW, windowEnd(o, inW, outW) - windowStart(o, inW, outW));
  Location loc = op->getLoc();
  MLIRContext *ctx = b.getContext();
  Value data = operands[0];

  // The window [start, end) along one axis, from the output index.
  auto window = [](IndexMath &m, Value o, int64_t inSize, int64_t outSize) {
    Value start = m.div(m.mul(o, m.c(inSize)), m.c(outSize));
    Value end =
        m.div(m.add(m.mul(m.add(o, m.c(1)), m.c(inSize)), m.c(outSize - 1)),
              m.c(outSize));
    return std::make_pair(start, end);
  };

  Value identity = constantScalar(b, loc, e, isMax ? -INFINITY : 0.0);
  Value init = filledTensor(b, loc, type.getShape(), identity);
  Value windowShape = tensor::EmptyOp::create(
      b, loc, SmallVector<int64_t>{widestH, widestW}, e);
  SmallVector<utils::IteratorType> iters(4, utils::IteratorType::parallel);
  iters.append(2, utils::IteratorType::reduction);
  SmallVector<AffineMap> maps{
      AffineMap::get(6, 0, {getAffineDimExpr(4, ctx), getAffineDimExpr(5, ctx)},
                     ctx),
      AffineMap::getMultiDimIdentityMap(6, ctx).getMajorSubMap(4)};
  Value pooled = linalg::GenericOp::create(
                     b, loc, TypeRange{type}, ValueRange{windowShape},
                     ValueRange{init}, maps, iters,
                     [&](OpBuilder &nb, Location l, ValueRange args) {
                       IndexMath m{nb, l};
                       SmallVector<Value> at;
                       for (int64_t dim = 0; dim < 4; ++dim)
                         at.push_back(linalg::IndexOp::create(nb, l, dim));
                       auto [h0, h1] = window(m, at[ah], inH, outH);
                       auto [w0, w1] = window(m, at[aw], inW, outW);
                       Value y = m.add(h0, linalg::IndexOp::create(nb, l, 4));
                       Value x = m.add(w0, linalg::IndexOp::create(nb, l, 5));
                       Value inside = m.both(m.lt(y, h1), m.lt(x, w1));
                       at[ah] = m.min(y, m.c(inH - 1));
                       at[aw] = m.min(x, m.c(inW - 1));
                       Value v = tensor::ExtractOp::create(nb, l, data, at);
                       Value acc = args[1], combined;
                       if (!isMax)
                         combined = arith::AddFOp::create(nb, l, acc, v);
                       else if (isa<FloatType>(e))
                         combined = arith::MaximumFOp::create(nb, l, acc, v);
                       else
                         combined = integerMax(nb, l, acc, v);
                       linalg::YieldOp::create(
                           nb, l,
                           arith::SelectOp::create(nb, l, inside, combined, acc)
                               .getResult());
                     })
                     .getResult(0);
  if (isMax)
    return SmallVector<Value>{pooled};
  AffineMap id = AffineMap::getMultiDimIdentityMap(4, ctx);
  Value out = tensor::EmptyOp::create(b, loc, type.getShape(), e);
  return SmallVector<Value>{
      linalg::GenericOp::create(
          b, loc, TypeRange{type}, ValueRange{pooled}, ValueRange{out},
          {id, id}, SmallVector<utils::IteratorType>(4, iters.front()),
          [&](OpBuilder &nb, Location l, ValueRange args) {
            IndexMath m{nb, l};
            auto [h0, h1] =
                window(m, linalg::IndexOp::create(nb, l, ah), inH, outH);
            auto [w0, w1] =
                window(m, linalg::IndexOp::create(nb, l, aw), inW, outW);
            Value count = m.toF64(m.mul(m.sub(h1, h0), m.sub(w1, w0)));
            Value mean =
                arith::DivFOp::create(nb, l, widen(nb, l, args[0]), count);
            linalg::YieldOp::create(nb, l, narrow(nb, l, mean, e));
          })
          .getResult(0)};
}

FailureOr<SmallVector<Value>>
adaptivePoolRule(OpBuilder &b, Operation *op, ValueRange operands, bool isMax) {
  RankedTensorType type = resultType(op);
  if (type && !isMax && isa<IntegerType>(type.getElementType()))
    return integerAverage(
        b, op, operands, type, [&](ValueRange wide, RankedTensorType f64) {
          return adaptivePoolOf(b, op, wide, f64, /*isMax=*/false);
        });
  return adaptivePoolOf(b, op, operands, type, isMax);
}

} // namespace

void mlir::relay::populateRelayPoolingToLinalgPatterns(
    RelayTypeConverter &converter, RewritePatternSet &patterns) {
  addOperatorRule<MaxPool2DOp>(converter, patterns,
                               [](OpBuilder &b, Operation *op, ValueRange ops) {
                                 return poolRule(b, op, ops, /*isMax=*/true);
                               });
  addOperatorRule<AvgPool2DOp>(converter, patterns,
                               [](OpBuilder &b, Operation *op, ValueRange ops) {
                                 return poolRule(b, op, ops, /*isMax=*/false);
                               });
  addOperatorRule<AdaptiveMaxPool2DOp>(
      converter, patterns,
      [](OpBuilder &b, Operation *op, ValueRange operands) {
        return adaptivePoolRule(b, op, operands, /*isMax=*/true);
      });
  addOperatorRule<AdaptiveAvgPool2DOp>(
      converter, patterns,
      [](OpBuilder &b, Operation *op, ValueRange operands) {
        return adaptivePoolRule(b, op, operands, /*isMax=*/false);
      });
}

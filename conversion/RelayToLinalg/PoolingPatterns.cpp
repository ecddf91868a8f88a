//===- PoolingPatterns.cpp - Pooling to linalg ------------------*- C++ -*-===//
//
// max_pool2d and avg_pool2d (NCHW, with padding, dilation, ceil_mode and
// count_include_pad): one elementwise generic over strided views of the
// padded image, one per window tap, or linalg's pooling ops for large
// windows; adaptive pooling: a reduction over the widest window with the
// positions past each window's end masked out.
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

/// out[n, c, oh, ow] = combine over the window taps (i, j) of
/// data[n, c, oh*s0 + i*d0, ow*s1 + j*d1]: one elementwise generic over
/// strided views of the padded `data` (one per tap), which vectorises along
/// the output row; the pooling named ops do not vectorise.
Value poolTaps(
    OpBuilder &b, Location loc, RankedTensorType type, Value data,
    ArrayRef<int64_t> k, ArrayRef<int64_t> s, ArrayRef<int64_t> d,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  MLIRContext *ctx = b.getContext();
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<Value> taps;
  StridePhases phases(b, loc, data, s, d, k[0], k[1]);
  for (int64_t i = 0; i < k[0]; ++i)
    for (int64_t j = 0; j < k[1]; ++j)
      taps.push_back(phases.tapView(b, loc, i, j, type));
  Value out = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  SmallVector<AffineMap> maps(taps.size() + 1,
                              AffineMap::getMultiDimIdentityMap(4, ctx));
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, taps, ValueRange{out}, maps,
             SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange a) {
               Value acc = a[0];
               for (Value v : a.drop_front().drop_back())
                 acc = combine(nb, l, acc, v);
               linalg::YieldOp::create(nb, l, acc);
             })
      .getResult(0);
}

/// max_pool2d and avg_pool2d of an NCHW input to `type` over a padded
/// input: window taps, or the pooling named ops for large windows.
FailureOr<SmallVector<Value>> poolNchw(OpBuilder &b, Operation *op,
                                       ValueRange operands,
                                       RankedTensorType type, bool isMax) {
  // Integers: max pooling (the taps compare as the signedness says;
  // linalg's NCHW max for large windows is signed only).
  SmallVector<int64_t> size = intsAttr(op, "pool_size", {1, 1});
  int64_t numTaps = size[0] * (size.size() > 1 ? size[1] : size[0]);
  bool integerMaxOk =
      type && isMax && isa<IntegerType>(type.getElementType()) &&
      (numTaps <= kMaxPoolTaps || !isUnsignedValue(op->getResult(0)));
  if (!type || (!isa<FloatType>(type.getElementType()) && !integerMaxOk))
    return failure();
  SmallVector<int64_t> k = intsAttr(op, "pool_size", {1, 1});
  SmallVector<int64_t> s = intsAttr(op, "strides", {1, 1});
  SmallVector<int64_t> d = intsAttr(op, "dilation", {1, 1});
  for (auto *v : {&k, &s, &d})
    if (v->size() == 1)
      v->push_back(v->front());
  SmallVector<int64_t> p = padding4(op);
  auto in = cast<RankedTensorType>(operands[0].getType());
  // With ceil_mode the last window may hang over: pad for it.
  int64_t needH = (type.getShape()[2] - 1) * s[0] + (k[0] - 1) * d[0] + 1;
  int64_t needW = (type.getShape()[3] - 1) * s[1] + (k[1] - 1) * d[1] + 1;
  int64_t extraH =
      std::max<int64_t>(0, needH - (in.getShape()[2] + p[0] + p[2]));
  int64_t extraW =
      std::max<int64_t>(0, needW - (in.getShape()[3] + p[1] + p[3]));
  bool countPad =
      getOperatorAttributes(op).get("count_include_pad") == b.getBoolAttr(true);
  bool anyPad = llvm::any_of(p, [](int64_t v) { return v != 0; });
  // Average pooling divides by the window size when every window counts
  // the same number of elements; otherwise by a per-position count (a
  // pooling sum over ones padded like the data, the padding counted only
  // with count_include_pad and never the overhang of ceil_mode).
  bool uniform = !(extraH || extraW || (anyPad && !countPad));
  Location loc = op->getLoc();
  Type e = type.getElementType();
  Value padValue = constantScalar(b, loc, e, isMax ? -INFINITY : 0.0);
  Value data =
      padImage(b, loc, operands[0], {p[0], p[1], p[2] + extraH, p[3] + extraW},
               2, 3, padValue);
  Value window = tensor::EmptyOp::create(b, loc, k, e);
  auto strides = b.getI64TensorAttr(s);
  auto dilations = b.getI64TensorAttr(d);
  // The window max or sum: taps, or a named op for large windows.
  Value pooled;
  if (k[0] * k[1] <= kMaxPoolTaps) {
    pooled =
        poolTaps(b, loc, type, data, k, s, d,
                 [&](OpBuilder &nb, Location l, Value x, Value y) -> Value {
                   if (!isMax)
                     return arith::AddFOp::create(nb, l, x, y);
                   if (isa<FloatType>(e))
                     return arith::MaximumFOp::create(nb, l, x, y);
                   return integerMax(nb, l, x, y);
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
  SmallVector<utils::IteratorType> par(4, utils::IteratorType::parallel);
  MLIRContext *ctx = b.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(4, ctx);
  Value out = tensor::EmptyOp::create(b, loc, type.getShape(), e);
  if (uniform) {
    Value count = constantScalar(b, loc, e, double(k[0] * k[1]));
    return SmallVector<Value>{
        linalg::GenericOp::create(
            b, loc, TypeRange{type}, ValueRange{sum}, ValueRange{out}, {id, id},
            par,
            [&](OpBuilder &nb, Location l, ValueRange a) {
              linalg::YieldOp::create(
                  nb, l, arith::DivFOp::create(nb, l, a[0], count).getResult());
            })
            .getResult(0)};
  }
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

/// max_pool2d and avg_pool2d in NCHW, or in another order of its axes (an
/// NHWC network's, after --relay-convert-layout) through transposes to
/// NCHW and back.
FailureOr<SmallVector<Value>> poolRule(OpBuilder &b, Operation *op,
                                       ValueRange operands, bool isMax) {
  RankedTensorType type = resultType(op);
  StringRef layout = strAttr(op, "layout", "NCHW");
  if (layout == "NCHW")
    return poolNchw(b, op, operands, type, isMax);
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
FailureOr<SmallVector<Value>>
adaptivePoolRule(OpBuilder &b, Operation *op, ValueRange operands, bool isMax) {
  RankedTensorType type = resultType(op);
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

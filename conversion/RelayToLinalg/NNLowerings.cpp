//===- NNLowerings.cpp - Resampling and normalisation rules -----*- C++ -*-===//
//
// Lowering rules for the network operators that are not plain products or
// windows: nn.conv2d_transpose (a direct convolution over the input spread
// by the strides, with the kernel flipped), adaptive pooling (windows whose
// bounds depend on the output position), upsampling (nearest and bilinear)
// and layer normalisation. Each follows the interpreter's kernel
// (runtime/Interpreter/KernelsNN.cpp) index for index.
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToLinalg/LoweringHelpers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <array>
#include <cmath>
#include <optional>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {
/// Positions of the letters of `axes` in `layout`, which must be a
/// permutation of them ("NCHW", "NHWC"; "OIHW", "IOHW", "HWIO", ...).
std::optional<std::array<int64_t, 4>> axesOf(StringRef layout, StringRef axes) {
  if (layout.size() != 4)
    return std::nullopt;
  std::array<int64_t, 4> pos;
  for (auto [i, letter] : llvm::enumerate(axes)) {
    size_t p = layout.find(letter);
    if (p == StringRef::npos)
      return std::nullopt;
    pos[i] = static_cast<int64_t>(p);
  }
  return pos;
}

enum Axis { N = 0, C = 1, H = 2, W = 3 };

/// Index arithmetic in the body of a generic.
struct IndexMath {
  OpBuilder &b;
  Location l;
  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, l, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, l, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, l, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, l, x, y); }
  Value div(Value x, Value y) { return arith::DivUIOp::create(b, l, x, y); }
  Value rem(Value x, Value y) { return arith::RemUIOp::create(b, l, x, y); }
  Value min(Value x, Value y) { return arith::MinSIOp::create(b, l, x, y); }
  Value max(Value x, Value y) { return arith::MaxSIOp::create(b, l, x, y); }
  Value lt(Value x, Value y) {
    return arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, x, y);
  }
  Value eq(Value x, Value y) {
    return arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, x, y);
  }
  Value both(Value x, Value y) { return arith::AndIOp::create(b, l, x, y); }
  /// An index as an f64.
  Value toF64(Value x) {
    Value i = arith::IndexCastOp::create(b, l, b.getI64Type(), x);
    return arith::SIToFPOp::create(b, l, b.getF64Type(), i);
  }
  /// An f64 truncated to an index.
  Value fromF64(Value x) {
    Value i = arith::FPToSIOp::create(b, l, b.getI64Type(), x);
    return arith::IndexCastOp::create(b, l, b.getIndexType(), i);
  }
};

/// f64 arithmetic on scalars of a float type `e` (widened, then narrowed).
Value widen(OpBuilder &b, Location l, Value v) {
  if (v.getType().isF64())
    return v;
  return arith::ExtFOp::create(b, l, b.getF64Type(), v);
}
Value narrow(OpBuilder &b, Location l, Value v, Type e) {
  if (e.isF64())
    return v;
  return arith::TruncFOp::create(b, l, e, v);
}

//===----------------------------------------------------------------------===//
// nn.conv2d_transpose
//===----------------------------------------------------------------------===//

/// out[oh] = sum x[ih] w[kh] over ih*s - p + kh*d = oh is the direct
/// convolution (stride 1, dilation d) of x spread by s (zeros between
/// pixels) and offset by (K-1)*d - p, with the kernel flipped and its I and
/// O exchanged (per group).
FailureOr<SmallVector<Value>> conv2dTransposeRule(OpBuilder &b, Operation *op,
                                                  ValueRange operands) {
  RankedTensorType type = resultType(op);
  StringRef outLayout = strAttr(op, "out_layout", "");
  std::optional<std::array<int64_t, 4>> kl =
      axesOf(strAttr(op, "kernel_layout", "IOHW"), "OIHW");
  if (!type || !type.hasStaticShape() ||
      strAttr(op, "data_layout", "NCHW") != "NCHW" ||
      (!outLayout.empty() && outLayout != "NCHW") || !kl)
    return failure();
  auto in = cast<RankedTensorType>(operands[0].getType());
  auto wt = cast<RankedTensorType>(operands[1].getType());
  Type e = type.getElementType();
  if (!isa<FloatType>(e) || in.getElementType() != e ||
      wt.getElementType() != e)
    return failure();
  SmallVector<int64_t> s = intsAttr(op, "strides", {1, 1});
  SmallVector<int64_t> d = intsAttr(op, "dilation", {1, 1});
  for (auto *v : {&s, &d})
    if (v->size() == 1)
      v->push_back(v->front());
  SmallVector<int64_t> p = padding4(op);
  int64_t groups = intAttr(op, "groups", 1);
  int64_t n = in.getDimSize(N), c = in.getDimSize(C), h = in.getDimSize(H),
          w = in.getDimSize(W);
  int64_t kh = wt.getDimSize((*kl)[H]), kw = wt.getDimSize((*kl)[W]);
  int64_t oc = type.getDimSize(C), oh = type.getDimSize(H),
          ow = type.getDimSize(W);
  int64_t cg = c / groups, ocg = oc / groups;
  int64_t offH = (kh - 1) * d[0] - p[0], offW = (kw - 1) * d[1] - p[1];
  Location loc = op->getLoc();
  Value data = operands[0], weight = operands[1];

  auto spreadType = RankedTensorType::get(
      {n, c, oh + (kh - 1) * d[0], ow + (kw - 1) * d[1]}, e);
  Value spread = generateTensor(
      b, loc, spreadType, [&](OpBuilder &nb, Location l, ValueRange i) {
        IndexMath m{nb, l};
        // The source pixel of padded position q: (q - off) / s when that
        // divides and lies inside the input.
        auto source = [&](Value q, int64_t off, int64_t stride, int64_t size,
                          Value &inside) {
          Value shifted = m.sub(q, m.c(off));
          Value nonNegative = m.max(shifted, m.c(0));
          Value at = m.div(nonNegative, m.c(stride));
          inside = m.both(m.both(m.lt(m.c(-1), shifted),
                                 m.eq(m.rem(nonNegative, m.c(stride)), m.c(0))),
                          m.lt(at, m.c(size)));
          return m.min(at, m.c(size - 1));
        };
        Value insideH, insideW;
        Value y = source(i[H], offH, s[0], h, insideH);
        Value x = source(i[W], offW, s[1], w, insideW);
        Value v = tensor::ExtractOp::create(nb, l, data,
                                            ValueRange{i[N], i[C], y, x});
        return arith::SelectOp::create(nb, l, m.both(insideH, insideW), v,
                                       constantScalar(nb, l, e, 0))
            .getResult();
      });

  auto flippedType = RankedTensorType::get({oc, cg, kh, kw}, e);
  Value flipped = generateTensor(
      b, loc, flippedType, [&](OpBuilder &nb, Location l, ValueRange i) {
        IndexMath m{nb, l};
        Value group = m.div(i[0], m.c(ocg));
        SmallVector<Value> at(4);
        at[(*kl)[0]] = m.rem(i[0], m.c(ocg));
        at[(*kl)[1]] = m.add(m.mul(group, m.c(cg)), i[1]);
        at[(*kl)[2]] = m.sub(m.c(kh - 1), i[2]);
        at[(*kl)[3]] = m.sub(m.c(kw - 1), i[3]);
        return tensor::ExtractOp::create(nb, l, weight, at).getResult();
      });
  return SmallVector<Value>{
      conv2dNchwAsProduct(b, loc, type, spread, flipped, groups, {1, 1}, d)};
}

//===----------------------------------------------------------------------===//
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

//===----------------------------------------------------------------------===//
// nn.upsampling
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<Value>> upsamplingRule(OpBuilder &b, Operation *op,
                                             ValueRange operands) {
  RankedTensorType type = resultType(op);
  std::optional<std::array<int64_t, 4>> axes =
      axesOf(strAttr(op, "layout", "NCHW"), "NCHW");
  auto in = cast<RankedTensorType>(operands[0].getType());
  StringRef method = strAttr(op, "method", "nearest_neighbor");
  if (!type || !type.hasStaticShape() || !axes || !in.hasStaticShape())
    return failure();
  Type e = type.getElementType();
  bool nearest = method == "nearest_neighbor";
  if (!nearest && (method != "bilinear" || !isa<FloatType>(e)))
    return failure();
  bool alignCorners =
      getOperatorAttributes(op).get("align_corners") == b.getBoolAttr(true);
  double scaleH = floatAttr(op, "scale_h", 1),
         scaleW = floatAttr(op, "scale_w", 1);
  int64_t ah = (*axes)[H], aw = (*axes)[W];
  int64_t inH = in.getDimSize(ah), inW = in.getDimSize(aw);
  int64_t outH = type.getDimSize(ah), outW = type.getDimSize(aw);
  Value data = operands[0];
  return SmallVector<Value>{generateTensor(
      b, op->getLoc(), type, [&](OpBuilder &nb, Location l, ValueRange i) {
        IndexMath m{nb, l};
        auto f64 = [&](double v) {
          return constantScalar(nb, l, nb.getF64Type(), v);
        };
        SmallVector<Value> at(i);
        if (nearest) {
          // min(floor(o / scale), size - 1)
          auto source = [&](Value o, double scale, int64_t size) {
            Value s = arith::DivFOp::create(nb, l, m.toF64(o), f64(scale));
            return m.min(m.fromF64(s), m.c(size - 1));
          };
          at[ah] = source(i[ah], scaleH, inH);
          at[aw] = source(i[aw], scaleW, inW);
          return tensor::ExtractOp::create(nb, l, data, at).getResult();
        }
        // The source coordinate in f64, as the interpreter computes it.
        auto source = [&](Value o, int64_t inSize, int64_t outSize,
                          double scale) -> Value {
          Value of = m.toF64(o);
          if (alignCorners)
            return outSize > 1 ? arith::MulFOp::create(nb, l, of,
                                                       f64(double(inSize - 1) /
                                                           double(outSize - 1)))
                                     .getResult()
                               : f64(0);
          Value centre = arith::SubFOp::create(
              nb, l,
              arith::DivFOp::create(nb, l,
                                    arith::AddFOp::create(nb, l, of, f64(0.5)),
                                    f64(scale)),
              f64(0.5));
          return arith::MaximumFOp::create(nb, l, centre, f64(0));
        };
        Value sy = source(i[ah], inH, outH, scaleH);
        Value sx = source(i[aw], inW, outW, scaleW);
        Value y0 = m.min(m.fromF64(sy), m.c(inH - 1));
        Value x0 = m.min(m.fromF64(sx), m.c(inW - 1));
        Value y1 = m.min(m.add(y0, m.c(1)), m.c(inH - 1));
        Value x1 = m.min(m.add(x0, m.c(1)), m.c(inW - 1));
        Value fy = arith::SubFOp::create(nb, l, sy, m.toF64(y0));
        Value fx = arith::SubFOp::create(nb, l, sx, m.toF64(x0));
        auto read = [&](Value y, Value x) {
          at[ah] = y;
          at[aw] = x;
          return widen(nb, l, tensor::ExtractOp::create(nb, l, data, at));
        };
        // a + f * (b - a) in the interpreter's form (1 - f) a + f b.
        auto lerp = [&](Value a, Value c, Value f) -> Value {
          Value rest = arith::SubFOp::create(nb, l, f64(1), f);
          return arith::AddFOp::create(nb, l,
                                       arith::MulFOp::create(nb, l, rest, a),
                                       arith::MulFOp::create(nb, l, f, c));
        };
        Value top = lerp(read(y0, x0), read(y0, x1), fx);
        Value bottom = lerp(read(y1, x0), read(y1, x1), fx);
        return narrow(nb, l, lerp(top, bottom, fy), e);
      })};
}

//===----------------------------------------------------------------------===//
// nn.layer_norm
//===----------------------------------------------------------------------===//

/// (x - mean) / sqrt(var + eps) * gamma + beta along `axis`: one generic
/// sums each line, one sums its squared deviations, one normalises.
FailureOr<SmallVector<Value>> layerNormRule(OpBuilder &b, Operation *op,
                                            ValueRange operands) {
  RankedTensorType type = resultType(op);
  if (!type || !type.hasStaticShape() || !isa<FloatType>(type.getElementType()))
    return failure();
  int64_t rank = type.getRank();
  int64_t axis = intAttr(op, "axis", -1);
  if (axis < 0)
    axis += rank;
  double eps = floatAttr(op, "epsilon", 1e-5);
  Attribute no = b.getBoolAttr(false);
  bool center = getOperatorAttributes(op).get("center") != no;
  bool scale = getOperatorAttributes(op).get("scale") != no;
  Type e = type.getElementType();
  Location loc = op->getLoc();
  MLIRContext *ctx = b.getContext();
  int64_t count = type.getDimSize(axis);

  SmallVector<int64_t> lineShape;
  SmallVector<AffineExpr> lineExprs;
  for (int64_t dim = 0; dim < rank; ++dim)
    if (dim != axis) {
      lineShape.push_back(type.getDimSize(dim));
      lineExprs.push_back(getAffineDimExpr(dim, ctx));
    }
  auto lineType = RankedTensorType::get(lineShape, e);
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap line = AffineMap::get(rank, 0, lineExprs, ctx);
  AffineMap along = AffineMap::get(rank, 0, getAffineDimExpr(axis, ctx), ctx);
  SmallVector<utils::IteratorType> reduce(rank, utils::IteratorType::parallel);
  reduce[axis] = utils::IteratorType::reduction;
  Value zero = constantScalar(b, loc, e, 0);
  Value n = constantScalar(b, loc, e, double(count));
  auto zeros = [&] { return filledTensor(b, loc, lineShape, zero); };
  Value x = operands[0];
  Value sums =
      linalg::GenericOp::create(
          b, loc, TypeRange{lineType}, ValueRange{x}, ValueRange{zeros()},
          {id, line}, reduce,
          [&](OpBuilder &nb, Location l, ValueRange a) {
            linalg::YieldOp::create(
                nb, l, arith::AddFOp::create(nb, l, a[1], a[0]).getResult());
          })
          .getResult(0);
  auto deviation = [&](OpBuilder &nb, Location l, Value v, Value sum) {
    return arith::SubFOp::create(nb, l, v,
                                 arith::DivFOp::create(nb, l, sum, n));
  };
  Value squares =
      linalg::GenericOp::create(
          b, loc, TypeRange{lineType}, ValueRange{x, sums}, ValueRange{zeros()},
          {id, line, line}, reduce,
          [&](OpBuilder &nb, Location l, ValueRange a) {
            Value dev = deviation(nb, l, a[0], a[1]);
            Value sq = arith::MulFOp::create(nb, l, dev, dev);
            linalg::YieldOp::create(
                nb, l, arith::AddFOp::create(nb, l, a[2], sq).getResult());
          })
          .getResult(0);
  Value epsilon = constantScalar(b, loc, e, eps);
  Value out = tensor::EmptyOp::create(b, loc, type.getShape(), e);
  return SmallVector<Value>{
      linalg::GenericOp::create(
          b, loc, TypeRange{type},
          ValueRange{x, sums, squares, operands[1], operands[2]},
          ValueRange{out}, {id, line, line, along, along, id},
          SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
          [&](OpBuilder &nb, Location l, ValueRange a) {
            Value variance = arith::DivFOp::create(nb, l, a[2], n);
            Value inv = math::RsqrtOp::create(
                nb, l, arith::AddFOp::create(nb, l, variance, epsilon));
            Value v =
                arith::MulFOp::create(nb, l, deviation(nb, l, a[0], a[1]), inv);
            if (scale)
              v = arith::MulFOp::create(nb, l, v, a[3]);
            if (center)
              v = arith::AddFOp::create(nb, l, v, a[4]);
            linalg::YieldOp::create(nb, l, v);
          })
          .getResult(0)};
}
} // namespace

void mlir::relay::lowering::addNNLowerings(
    llvm::StringMap<LoweringRuleFn> &rules) {
  rules["nn.conv2d_transpose"] = conv2dTransposeRule;
  rules["nn.adaptive_max_pool2d"] = [](OpBuilder &b, Operation *op,
                                       ValueRange operands) {
    return adaptivePoolRule(b, op, operands, /*isMax=*/true);
  };
  rules["nn.adaptive_avg_pool2d"] = [](OpBuilder &b, Operation *op,
                                       ValueRange operands) {
    return adaptivePoolRule(b, op, operands, /*isMax=*/false);
  };
  rules["nn.upsampling"] = upsamplingRule;
  rules["nn.layer_norm"] = layerNormRule;
}

//===- NNPatterns.cpp - Normalisation and resampling to linalg --*- C++ -*-===//
//
// softmax and log_softmax (max, shifted exponentials, sum), batch_norm in
// inference (one generic), layer_norm (sums, squared deviations,
// normalisation), dropout (the identity and a mask of ones), upsampling
// (nearest and bilinear). Each follows the interpreter's kernel
// (runtime/Interpreter/KernelsNN.cpp) index for index.
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

FailureOr<SmallVector<Value>> softmaxRule(OpBuilder &b, Operation *op,
                                          ValueRange operands, bool log) {
  RankedTensorType type = resultType(op);
  int64_t rank = type.getRank();
  int64_t axis = intAttr(op, "axis", -1);
  if (axis < 0)
    axis += rank;
  Location loc = op->getLoc();
  MLIRContext *ctx = b.getContext();
  Type e = type.getElementType();
  SmallVector<int64_t> redShape;
  SmallVector<AffineExpr> redExprs;
  for (int64_t i = 0; i < rank; ++i)
    if (i != axis) {
      redShape.push_back(type.getShape()[i]);
      redExprs.push_back(getAffineDimExpr(i, ctx));
    }
  auto redType = RankedTensorType::get(redShape, e);
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap red = AffineMap::get(rank, 0, redExprs, ctx);
  SmallVector<utils::IteratorType> redIters(rank,
                                            utils::IteratorType::parallel);
  redIters[axis] = utils::IteratorType::reduction;
  SmallVector<utils::IteratorType> par(rank, utils::IteratorType::parallel);
  auto reduce =
      [&](Value in, double init,
          std::function<Value(OpBuilder &, Location, Value, Value)> f) {
        Value empty = tensor::EmptyOp::create(b, loc, redShape, e);
        Value filled = linalg::FillOp::create(
                           b, loc, constantScalar(b, loc, e, init), empty)
                           .getResult(0);
        return linalg::GenericOp::create(
                   b, loc, TypeRange{redType}, in, filled, {id, red}, redIters,
                   [&](OpBuilder &nb, Location l, ValueRange a) {
                     linalg::YieldOp::create(nb, l, f(nb, l, a[0], a[1]));
                   })
            .getResult(0);
      };
  Value mx = reduce(operands[0], -INFINITY,
                    [](OpBuilder &nb, Location l, Value x, Value acc) {
                      return arith::MaximumFOp::create(nb, l, x, acc);
                    });
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(), e);
  Value shifted =
      linalg::GenericOp::create(
          b, loc, TypeRange{type}, ValueRange{operands[0], mx}, empty,
          {id, red, id}, par,
          [&](OpBuilder &nb, Location l, ValueRange a) {
            Value d = arith::SubFOp::create(nb, l, a[0], a[1]);
            linalg::YieldOp::create(
                nb, l, log ? d : math::ExpOp::create(nb, l, d).getResult());
          })
          .getResult(0);
  Value sum = reduce(
      shifted, 0.0, [log](OpBuilder &nb, Location l, Value x, Value acc) {
        Value v = log ? math::ExpOp::create(nb, l, x).getResult() : x;
        return arith::AddFOp::create(nb, l, v, acc);
      });
  Value empty2 = tensor::EmptyOp::create(b, loc, type.getShape(), e);
  return SmallVector<Value>{
      linalg::GenericOp::create(
          b, loc, TypeRange{type}, ValueRange{shifted, sum}, empty2,
          {id, red, id}, par,
          [&](OpBuilder &nb, Location l, ValueRange a) {
            Value r =
                log ? arith::SubFOp::create(nb, l, a[0],
                                            math::LogOp::create(nb, l, a[1]))
                          .getResult()
                    : arith::DivFOp::create(nb, l, a[0], a[1]).getResult();
            linalg::YieldOp::create(nb, l, r);
          })
          .getResult(0)};
}

/// nn.batch_norm (inference): (x - mean) / sqrt(var + eps) * gamma + beta
/// along `axis`, with the moving mean and variance passed through.
FailureOr<SmallVector<Value>> batchNormRule(OpBuilder &b, Operation *op,
                                            ValueRange operands) {
  auto type = cast<RankedTensorType>(operands[0].getType());
  if (!isa<FloatType>(type.getElementType()))
    return failure();
  int64_t rank = type.getRank();
  int64_t axis = intAttr(op, "axis", 1);
  if (axis < 0)
    axis += rank;
  double eps = floatAttr(op, "epsilon", 1e-5);
  DictionaryAttr attrs = getOperatorAttributes(op);
  bool center = attrs.get("center") != b.getBoolAttr(false);
  bool scale = attrs.get("scale") != b.getBoolAttr(false);
  MLIRContext *ctx = b.getContext();
  Location loc = op->getLoc();
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap channel = AffineMap::get(rank, 0, getAffineDimExpr(axis, ctx));
  // Operands: data, gamma, beta, moving_mean, moving_var.
  SmallVector<AffineMap> maps{id, channel, channel, channel, channel, id};
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  Type e = type.getElementType();
  Value y =
      linalg::GenericOp::create(
          b, loc, TypeRange{type}, operands, init, maps,
          SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
          [&](OpBuilder &nb, Location l, ValueRange a) {
            Value epsV = constantScalar(nb, l, e, eps);
            Value inv = math::RsqrtOp::create(
                nb, l, arith::AddFOp::create(nb, l, a[4], epsV));
            Value v = arith::MulFOp::create(
                nb, l, arith::SubFOp::create(nb, l, a[0], a[3]), inv);
            if (scale)
              v = arith::MulFOp::create(nb, l, v, a[1]);
            if (center)
              v = arith::AddFOp::create(nb, l, v, a[2]);
            linalg::YieldOp::create(nb, l, v);
          })
          .getResult(0);
  return SmallVector<Value>{y, operands[3], operands[4]};
}

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
  Location loc = op->getLoc();
  if (nearest)
    return SmallVector<Value>{generateTensor(
        b, loc, type, [&](OpBuilder &nb, Location l, ValueRange i) {
          IndexMath m{nb, l};
          auto f64 = [&](double v) {
            return constantScalar(nb, l, nb.getF64Type(), v);
          };
          // min(floor(o / scale), size - 1)
          auto source = [&](Value o, double scale, int64_t size) {
            Value s = arith::DivFOp::create(nb, l, m.toF64(o), f64(scale));
            return m.min(m.fromF64(s), m.c(size - 1));
          };
          SmallVector<Value> at(i);
          at[ah] = source(i[ah], scaleH, inH);
          at[aw] = source(i[aw], scaleW, inW);
          return tensor::ExtractOp::create(nb, l, data, at).getResult();
        })};
  // Bilinear: the two source rows and columns of each output row and
  // column and their fractions are tables computed here (in f64, as the
  // interpreter computes them at run time: the same values), read along
  // the output's rows and columns; the interpolation itself is the
  // interpreter's, in f64. (Computing the coordinates per element took
  // two f64 divisions each: the 21 x 224 x 224 output of DeepLabV3's last
  // upsampling 5.4 ms.)
  struct Axis {
    SmallVector<int32_t> first, second;
    SmallVector<double> fraction;
  };
  auto axisTables = [&](int64_t inSize, int64_t outSize, double scale) {
    Axis t;
    for (int64_t o = 0; o < outSize; ++o) {
      double src;
      if (alignCorners)
        src = outSize > 1
                  ? double(o) * (double(inSize - 1) / double(outSize - 1))
                  : 0.0;
      else
        src = std::max((double(o) + 0.5) / scale - 0.5, 0.0);
      int64_t i0 = std::min<int64_t>(int64_t(src), inSize - 1);
      t.first.push_back(int32_t(i0));
      t.second.push_back(int32_t(std::min<int64_t>(i0 + 1, inSize - 1)));
      t.fraction.push_back(src - double(i0));
    }
    return t;
  };
  Axis rows = axisTables(inH, outH, scaleH),
       cols = axisTables(inW, outW, scaleW);
  auto table = [&](auto values) -> Value {
    using T = typename decltype(values)::value_type;
    Type element =
        std::is_same_v<T, double> ? Type(b.getF64Type()) : Type(b.getI32Type());
    auto t = RankedTensorType::get({int64_t(values.size())}, element);
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(t, ArrayRef<T>(values)));
  };
  MLIRContext *ctx = b.getContext();
  int64_t rank = type.getRank();
  AffineMap alongH = AffineMap::get(rank, 0, getAffineDimExpr(ah, ctx));
  AffineMap alongW = AffineMap::get(rank, 0, getAffineDimExpr(aw, ctx));
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), e);
  return SmallVector<Value>{
      linalg::GenericOp::create(
          b, loc, TypeRange{type},
          ValueRange{table(rows.first), table(rows.second),
                     table(rows.fraction), table(cols.first),
                     table(cols.second), table(cols.fraction)},
          ValueRange{init},
          {alongH, alongH, alongH, alongW, alongW, alongW,
           AffineMap::getMultiDimIdentityMap(rank, ctx)},
          SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
          [&](OpBuilder &nb, Location l, ValueRange args) {
            SmallVector<Value> at;
            for (int64_t d = 0; d < rank; ++d)
              at.push_back(linalg::IndexOp::create(nb, l, d));
            auto index = [&](Value v) -> Value {
              return arith::IndexCastOp::create(nb, l, nb.getIndexType(), v);
            };
            Value y0 = index(args[0]), y1 = index(args[1]), fy = args[2];
            Value x0 = index(args[3]), x1 = index(args[4]), fx = args[5];
            auto read = [&](Value y, Value x) {
              at[ah] = y;
              at[aw] = x;
              return widen(nb, l, tensor::ExtractOp::create(nb, l, data, at));
            };
            // The interpreter's form (1 - f) a + f b.
            auto lerp = [&](Value a, Value c, Value f) -> Value {
              Value rest = arith::SubFOp::create(
                  nb, l, constantScalar(nb, l, nb.getF64Type(), 1.0), f);
              return arith::AddFOp::create(
                  nb, l, arith::MulFOp::create(nb, l, rest, a),
                  arith::MulFOp::create(nb, l, f, c));
            };
            Value top = lerp(read(y0, x0), read(y0, x1), fx);
            Value bottom = lerp(read(y1, x0), read(y1, x1), fx);
            linalg::YieldOp::create(nb, l,
                                    narrow(nb, l, lerp(top, bottom, fy), e));
          })
          .getResult(0)};
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

void mlir::relay::populateRelayNNToLinalgPatterns(RelayTypeConverter &converter,
                                                  RewritePatternSet &patterns) {
  addOperatorRule<DropoutOp>(
      converter, patterns,
      [](OpBuilder &b, Operation *op,
         ValueRange operands) -> FailureOr<SmallVector<Value>> {
        // Inference: the identity and a mask of ones (as the interpreter).
        auto type = cast<RankedTensorType>(operands[0].getType());
        Location loc = op->getLoc();
        Value one = constantScalar(b, loc, type.getElementType(), 1);
        Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                              type.getElementType());
        return SmallVector<Value>{
            operands[0],
            linalg::FillOp::create(b, loc, one, empty).getResult(0)};
      });
  addOperatorRule<SoftmaxOp>(converter, patterns,
                             [](OpBuilder &b, Operation *op, ValueRange ops) {
                               return softmaxRule(b, op, ops, false);
                             });
  addOperatorRule<LogSoftmaxOp>(
      converter, patterns, [](OpBuilder &b, Operation *op, ValueRange ops) {
        return softmaxRule(b, op, ops, true);
      });
  patterns.add<RuleLowering<BatchNormOp, batchNormRule>,
               RuleLowering<LayerNormOp, layerNormRule>,
               RuleLowering<UpSamplingOp, upsamplingRule>>(
      converter, patterns.getContext());
}

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
#include "dialects/relay/ResizeSampling.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cmath>
#include <functional>

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
  int64_t ah = (*axes)[H], aw = (*axes)[W];
  // The rows and columns each output row and column samples (and
  // bilinear's fractions) are tables computed here, the interpreter's
  // (UpSamplingOp::getSourcePositions), read along the output's rows and
  // columns; bilinear interpolates in f64 as the interpreter does.
  // (Computing the coordinates per element took two f64 divisions each:
  // the 21 x 224 x 224 output of DeepLabV3's last upsampling 5.4 ms.)
  UpSamplingOp::SourcePositions rows = UpSamplingOp::getSourcePositions(
      in.getDimSize(ah), type.getDimSize(ah), nearest, alignCorners);
  UpSamplingOp::SourcePositions cols = UpSamplingOp::getSourcePositions(
      in.getDimSize(aw), type.getDimSize(aw), nearest, alignCorners);
  Location loc = op->getLoc();
  auto indexTable = [&](ArrayRef<int64_t> values) -> Value {
    SmallVector<int32_t> narrowed(values.begin(), values.end());
    auto t = RankedTensorType::get({int64_t(values.size())}, b.getI32Type());
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(t, ArrayRef(narrowed)));
  };
  auto fractionTable = [&](ArrayRef<double> values) -> Value {
    auto t = RankedTensorType::get({int64_t(values.size())}, b.getF64Type());
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(t, values));
  };
  MLIRContext *ctx = b.getContext();
  int64_t rank = type.getRank();
  AffineMap alongH = AffineMap::get(rank, 0, getAffineDimExpr(ah, ctx));
  AffineMap alongW = AffineMap::get(rank, 0, getAffineDimExpr(aw, ctx));
  SmallVector<Value> tables = {indexTable(rows.low), indexTable(cols.low)};
  SmallVector<AffineMap> maps = {alongH, alongW};
  if (!nearest) {
    tables.append({indexTable(rows.high), fractionTable(rows.fraction),
                   indexTable(cols.high), fractionTable(cols.fraction)});
    maps.append({alongH, alongH, alongW, alongW});
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  Value data = operands[0];
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), e);
  return SmallVector<Value>{
      linalg::GenericOp::create(
          b, loc, TypeRange{type}, tables, ValueRange{init}, maps,
          SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
          [&](OpBuilder &nb, Location l, ValueRange args) {
            SmallVector<Value> at;
            for (int64_t d = 0; d < rank; ++d)
              at.push_back(linalg::IndexOp::create(nb, l, d));
            auto index = [&](Value v) -> Value {
              return arith::IndexCastOp::create(nb, l, nb.getIndexType(), v);
            };
            auto read = [&](Value y, Value x) -> Value {
              at[ah] = index(y);
              at[aw] = index(x);
              return tensor::ExtractOp::create(nb, l, data, at);
            };
            if (nearest) {
              linalg::YieldOp::create(nb, l, read(args[0], args[1]));
              return;
            }
            Value y0 = args[0], x0 = args[1], y1 = args[2], fy = args[3];
            Value x1 = args[4], fx = args[5];
            auto wide = [&](Value y, Value x) {
              return widen(nb, l, read(y, x));
            };
            // The interpreter's form (1 - f) a + f b.
            auto lerp = [&](Value a, Value c, Value f) -> Value {
              Value rest = arith::SubFOp::create(
                  nb, l, constantScalar(nb, l, nb.getF64Type(), 1.0), f);
              return arith::AddFOp::create(
                  nb, l, arith::MulFOp::create(nb, l, rest, a),
                  arith::MulFOp::create(nb, l, f, c));
            };
            Value top = lerp(wide(y0, x0), wide(y0, x1), fx);
            Value bottom = lerp(wide(y1, x0), wide(y1, x1), fx);
            linalg::YieldOp::create(nb, l,
                                    narrow(nb, l, lerp(top, bottom, fy), e));
          })
          .getResult(0)};
}

//===----------------------------------------------------------------------===//
// image.resize1d, resize2d, resize3d (nearest and linear)
//===----------------------------------------------------------------------===//

/// The resize as one kernel over its output: each resized axis's taps
/// (getResizeAxes: the decomposition's and the interpreter's) are tables
/// along that axis, and an output sums its taps' inputs in the order and
/// precision of the decomposition it replaces (the first resized axis
/// innermost; weights in the element type), which would materialise each
/// axis's result and, for a linear resize, two gathers and a weighting
/// per axis (DeepLabV3's last upsampling, bilinear with half-pixel
/// centres as PyTorch exports it: 2.78 ms decomposed against 2.19 ms by
/// nn.upsampling's kernel).
FailureOr<SmallVector<Value>> resizeRule(OpBuilder &b, Operation *op,
                                         ValueRange operands) {
  RankedTensorType type = resultType(op);
  std::optional<SmallVector<ResizeAxis>> axes = getResizeAxes(op);
  if (!lowersResizeWhole(op) || !type || !axes)
    return failure();
  MLIRContext *ctx = b.getContext();
  Location loc = op->getLoc();
  Type e = type.getElementType();
  int64_t rank = type.getRank();
  SmallVector<Value> tables;
  SmallVector<AffineMap> maps;
  for (const ResizeAxis &axis : *axes) {
    AffineMap along = AffineMap::get(rank, 0, getAffineDimExpr(axis.axis, ctx));
    for (const ResizeTap &tap : axis.taps) {
      SmallVector<int32_t> indices(tap.indices.begin(), tap.indices.end());
      auto indexType =
          RankedTensorType::get({int64_t(indices.size())}, b.getI32Type());
      tables.push_back(arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(indexType, ArrayRef(indices))));
      maps.push_back(along);
      if (axis.taps.size() == 1)
        continue;
      SmallVector<Attribute> weights;
      for (double w : tap.weights)
        weights.push_back(FloatAttr::get(e, w));
      auto weightType = RankedTensorType::get({int64_t(weights.size())}, e);
      tables.push_back(arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(weightType, weights)));
      maps.push_back(along);
    }
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  Value data = operands[0];
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), e);
  auto body = [&](OpBuilder &nb, Location l, ValueRange args) {
    SmallVector<Value> at;
    for (int64_t d = 0; d < rank; ++d)
      at.push_back(linalg::IndexOp::create(nb, l, d));
    // Each axis's tables among the block's arguments.
    SmallVector<size_t> firstTable;
    size_t next = 0;
    for (const ResizeAxis &axis : *axes) {
      firstTable.push_back(next);
      next += axis.taps.size() * (axis.taps.size() > 1 ? 2 : 1);
    }
    // The sum over axis k's taps of the sums over the axes before it.
    std::function<Value(int64_t)> level = [&](int64_t k) -> Value {
      if (k < 0)
        return tensor::ExtractOp::create(nb, l, data, at);
      const ResizeAxis &axis = (*axes)[k];
      if (axis.identity)
        return level(k - 1);
      bool weighted = axis.taps.size() > 1;
      Value sum;
      for (size_t t = 0; t < axis.taps.size(); ++t) {
        size_t arg = firstTable[k] + t * (weighted ? 2 : 1);
        at[axis.axis] =
            arith::IndexCastOp::create(nb, l, nb.getIndexType(), args[arg]);
        Value v = level(k - 1);
        if (weighted)
          v = arith::MulFOp::create(nb, l, v, args[arg + 1]);
        sum = sum ? arith::AddFOp::create(nb, l, sum, v).getResult() : v;
      }
      return sum;
    };
    linalg::YieldOp::create(nb, l, level(int64_t(axes->size()) - 1));
  };
  return SmallVector<Value>{
      linalg::GenericOp::create(
          b, loc, TypeRange{type}, tables, ValueRange{init}, maps,
          SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
          body)
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
               RuleLowering<UpSamplingOp, upsamplingRule>,
               RuleLowering<Resize1DOp, resizeRule>,
               RuleLowering<Resize2DOp, resizeRule>,
               RuleLowering<Resize3DOp, resizeRule>>(converter,
                                                     patterns.getContext());
}

bool mlir::relay::lowersResizeWhole(Operation *op) {
  if (!isa<Resize1DOp, Resize2DOp, Resize3DOp>(op))
    return false;
  auto in = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!in || !out || !in.hasStaticShape() || !out.hasStaticShape() ||
      !isa<FloatType>(in.getElementType()) ||
      in.getElementType() != out.getElementType())
    return false;
  DictionaryAttr attrs = getOperatorAttributes(op);
  auto method = dyn_cast_or_null<StringAttr>(attrs.get("method"));
  auto coords =
      dyn_cast_or_null<StringAttr>(attrs.get("coordinate_transformation_mode"));
  return method && coords &&
         (method.getValue() == "nearest_neighbor" ||
          method.getValue() == "linear") &&
         coords.getValue() != "tf_crop_and_resize";
}

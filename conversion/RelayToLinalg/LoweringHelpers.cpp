//===- LoweringHelpers.cpp - Shared pieces of the operator lowering ------===//

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "conversion/RelayCommon/BoxedValues.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;

namespace mlir::relay::lowering {

/// Integer attribute of `op` with a default.
int64_t intAttr(Operation *op, StringRef name, int64_t dflt) {
  if (auto a =
          dyn_cast_or_null<IntegerAttr>(getOperatorAttributes(op).get(name)))
    return a.getValue().getSExtValue();
  return dflt;
}
double floatAttr(Operation *op, StringRef name, double dflt) {
  Attribute a = getOperatorAttributes(op).get(name);
  if (auto f = dyn_cast_or_null<FloatAttr>(a))
    return f.getValueAsDouble();
  return dflt;
}
SmallVector<int64_t> intsAttr(Operation *op, StringRef name,
                              ArrayRef<int64_t> dflt) {
  Attribute a = getOperatorAttributes(op).get(name);
  if (auto arr = dyn_cast_or_null<DenseI64ArrayAttr>(a))
    return SmallVector<int64_t>(arr.asArrayRef());
  return SmallVector<int64_t>(dflt);
}
StringRef strAttr(Operation *op, StringRef name, StringRef dflt) {
  if (auto s =
          dyn_cast_or_null<StringAttr>(getOperatorAttributes(op).get(name)))
    return s.getValue();
  return dflt;
}

/// The lowered type of `op`'s (single) result: unsigned integers signless.
RankedTensorType resultType(Operation *op) {
  return dyn_cast<RankedTensorType>(signlessType(op->getResult(0).getType()));
}

/// `v` reshaped to the static `type` (same number of elements). Where one
/// shape groups the other's dimensions (ONNX's MatMul of [1, 56, 56, 96]
/// reshaped to [3136, 96] and back), a collapse_shape or expand_shape:
/// these bufferize to views of strided buffers too, where tensor.reshape's
/// memref.reshape needs an identity layout and so a copy (the rows of a
/// product padded to whole register tiles, sliced back, were copied out
/// before every reshape).
Value reshapeStatic(OpBuilder &b, Location loc, Value v,
                    RankedTensorType type) {
  auto source = cast<RankedTensorType>(v.getType());
  if (source.getShape() == type.getShape())
    return v;
  if (source.hasStaticShape() && source.getRank() > 0 && type.getRank() > 0)
    if (std::optional<SmallVector<ReassociationIndices>> groups =
            getReassociationIndicesForReshape(source, type)) {
      if (source.getRank() > type.getRank())
        return tensor::CollapseShapeOp::create(b, loc, type, v, *groups);
      return tensor::ExpandShapeOp::create(b, loc, type, v, *groups);
    }
  Value shape = arith::ConstantOp::create(
      b, loc,
      DenseIntElementsAttr::get(
          RankedTensorType::get({type.getRank()}, b.getI64Type()),
          type.getShape()));
  return tensor::ReshapeOp::create(b, loc, type, v, shape);
}

/// Whether the Relay value `v` holds unsigned integers (or booleans).
bool isUnsignedValue(Value v) {
  auto t = dyn_cast<ShapedType>(v.getType());
  return t && (t.getElementType().isUnsignedInteger() ||
               t.getElementType().isInteger(1));
}

Value constantScalar(OpBuilder &b, Location loc, Type t, double v) {
  if (isa<FloatType>(t))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, v));
  // Integers: +-infinity (reduction identities) are the type's extremes.
  unsigned width = t.getIntOrFloatBitWidth();
  bool isUnsigned = isUnsignedLike(t);
  if (std::isinf(v)) {
    APInt bound = v > 0 ? (isUnsigned ? APInt::getMaxValue(width)
                                      : APInt::getSignedMaxValue(width))
                        : (isUnsigned ? APInt::getMinValue(width)
                                      : APInt::getSignedMinValue(width));
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, bound));
  }
  return arith::ConstantOp::create(
      b, loc,
      b.getIntegerAttr(t, APInt(width, int64_t(v), !isUnsigned,
                                /*implicitTrunc=*/true)));
}
Value filledTensor(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                   Value value) {
  Value empty = tensor::EmptyOp::create(b, loc, shape, value.getType());
  return linalg::FillOp::create(b, loc, value, empty).getResult(0);
}

/// The map from an output of shape `out` to an operand of `shape`
/// broadcast into it (numpy rules: right-aligned, size-1 dims read 0). A
/// size-1 dim of the output itself keeps its loop variable, so an operand
/// of the output's shape is read through the identity, which elementwise
/// fusion requires.
AffineMap broadcastMap(MLIRContext *ctx, ArrayRef<int64_t> out,
                       ArrayRef<int64_t> shape) {
  SmallVector<AffineExpr> exprs;
  int64_t shift = int64_t(out.size()) - int64_t(shape.size());
  for (auto [i, d] : llvm::enumerate(shape))
    exprs.push_back(d == 1 && out[i + shift] != 1
                        ? getAffineConstantExpr(0, ctx)
                        : getAffineDimExpr(i + shift, ctx));
  return AffineMap::get(out.size(), 0, exprs, ctx);
}

/// A linalg.generic over the result shape, broadcasting every operand,
/// computing `fn` on scalars.
FailureOr<SmallVector<Value>> elementwise(OpBuilder &b, Operation *op,
                                          ValueRange operands, ScalarFn fn) {
  RankedTensorType type = resultType(op);
  if (!type || !type.hasStaticShape())
    return failure();
  Location loc = op->getLoc();
  MLIRContext *ctx = b.getContext();
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps;
  for (Value v : operands)
    maps.push_back(broadcastMap(
        ctx, type.getShape(), cast<RankedTensorType>(v.getType()).getShape()));
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, operands, ValueRange{init}, maps, iters,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value r = fn(nb, nloc, args.drop_back());
        linalg::YieldOp::create(nb, nloc, r);
      });
  return SmallVector<Value>{generic.getResult(0)};
}

Value generateTensor(
    OpBuilder &b, Location loc, RankedTensorType type,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  int64_t rank = type.getRank();
  MLIRContext *ctx = b.getContext();
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
             {AffineMap::getMultiDimIdentityMap(rank, ctx)},
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange) {
               SmallVector<Value> index;
               for (int64_t d = 0; d < rank; ++d)
                 index.push_back(linalg::IndexOp::create(nb, l, d));
               linalg::YieldOp::create(nb, l, body(nb, l, index));
             })
      .getResult(0);
}

/// Booleans (i1) order False < True, so they compare, min and max as
/// unsigned; in two's complement i1 True would be -1.
bool isUnsignedLike(Type t) {
  return t.isUnsignedInteger() || t.isInteger(1) ||
         (isa<IntegerType>(t) && UnsignedOpScope::isUnsignedOp());
}

arith::CmpIPredicate unsignedFor(Type t, arith::CmpIPredicate p) {
  if (!isUnsignedLike(t))
    return p;
  switch (p) {
  case arith::CmpIPredicate::slt:
    return arith::CmpIPredicate::ult;
  case arith::CmpIPredicate::sle:
    return arith::CmpIPredicate::ule;
  case arith::CmpIPredicate::sgt:
    return arith::CmpIPredicate::ugt;
  case arith::CmpIPredicate::sge:
    return arith::CmpIPredicate::uge;
  default:
    return p;
  }
}

Value integerMax(OpBuilder &b, Location l, Value x, Value y) {
  if (isUnsignedLike(x.getType()))
    return arith::MaxUIOp::create(b, l, x, y);
  return arith::MaxSIOp::create(b, l, x, y);
}

Value integerMin(OpBuilder &b, Location l, Value x, Value y) {
  if (isUnsignedLike(x.getType()))
    return arith::MinUIOp::create(b, l, x, y);
  return arith::MinSIOp::create(b, l, x, y);
}

Value filledContraction(OpBuilder &b, Location loc, RankedTensorType type,
                        ValueRange operands, unsigned numDims,
                        ArrayRef<AffineMap> maps) {
  Value zero = constantScalar(b, loc, type.getElementType(), 0);
  Value init = filledTensor(b, loc, type.getShape(), zero);
  SmallVector<utils::IteratorType> iterators(numDims,
                                             utils::IteratorType::parallel);
  iterators.back() = utils::IteratorType::reduction;
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, operands, init, maps, iterators,
             [&](OpBuilder &nb, Location l, ValueRange a) {
               // Operands of another float type (float16 into float32: an
               // out_dtype) are converted to the result's first.
               Type e = type.getElementType();
               auto convert = [&](Value v) -> Value {
                 unsigned from = v.getType().getIntOrFloatBitWidth();
                 unsigned to = e.getIntOrFloatBitWidth();
                 if (v.getType() == e)
                   return v;
                 if (from < to)
                   return arith::ExtFOp::create(nb, l, e, v);
                 return arith::TruncFOp::create(nb, l, e, v);
               };
               Value lhs = convert(a[0]);
               Value rhs = convert(a[1]);
               Value m = arith::MulFOp::create(nb, l, lhs, rhs);
               linalg::YieldOp::create(
                   nb, l, arith::AddFOp::create(nb, l, a[2], m).getResult());
             })
      .getResult(0);
}

Value integerContraction(OpBuilder &b, Location loc, RankedTensorType type,
                         ValueRange operands, ArrayRef<bool> zeroExtend,
                         unsigned numDims, ArrayRef<AffineMap> maps) {
  Type e = type.getElementType();
  Value init =
      filledTensor(b, loc, type.getShape(), constantScalar(b, loc, e, 0));
  SmallVector<utils::IteratorType> iterators(numDims,
                                             utils::IteratorType::parallel);
  iterators.back() = utils::IteratorType::reduction;
  SmallVector<bool, 2> extend(zeroExtend);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, operands, init, maps, iterators,
             [&](OpBuilder &nb, Location l, ValueRange a) {
               auto widen = [&](Value v, bool zero) -> Value {
                 unsigned from = v.getType().getIntOrFloatBitWidth();
                 unsigned to = e.getIntOrFloatBitWidth();
                 if (from == to)
                   return v;
                 if (from > to)
                   return arith::TruncIOp::create(nb, l, e, v);
                 if (zero)
                   return arith::ExtUIOp::create(nb, l, e, v);
                 return arith::ExtSIOp::create(nb, l, e, v);
               };
               Value m = arith::MulIOp::create(nb, l, widen(a[0], extend[0]),
                                               widen(a[1], extend[1]));
               linalg::YieldOp::create(
                   nb, l, arith::AddIOp::create(nb, l, a[2], m).getResult());
             })
      .getResult(0);
}

AffineMap map(MLIRContext *ctx, unsigned numDims, ArrayRef<unsigned> dims) {
  SmallVector<AffineExpr> exprs;
  for (unsigned d : dims)
    exprs.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(numDims, 0, exprs, ctx);
}

/// Pads H (`h`) and W (`w`) of a 4-d image by (top, left, bottom, right)
/// with `value`; returns `data` when there is nothing to pad. Only the
/// border is filled (four strips written in place) and the image copied
/// into the interior: tensor.pad bufferizes to a fill of the whole buffer
/// first, a second pass over it (a fifth of MobileNet-V2's time went to
/// such fills).
Value padHighTo(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> shape,
                Value value) {
  auto t = cast<RankedTensorType>(v.getType());
  if (t.getShape() == shape)
    return v;
  SmallVector<int64_t> high;
  for (auto [want, have] : llvm::zip_equal(shape, t.getShape()))
    high.push_back(want - have);
  MLIRContext *ctx = b.getContext();
  if (!value)
    value = constantScalar(b, loc, t.getElementType(), 0);
  return tensor::PadOp::create(
      b, loc, RankedTensorType::get(shape, t.getElementType()), v,
      getAsIndexOpFoldResult(ctx, SmallVector<int64_t>(shape.size(), 0)),
      getAsIndexOpFoldResult(ctx, high), value);
}

Value padHighInPlace(OpBuilder &b, Location loc, Value v,
                     ArrayRef<int64_t> shape) {
  auto t = cast<RankedTensorType>(v.getType());
  if (t.getShape() == shape)
    return v;
  MLIRContext *ctx = b.getContext();
  Value out = tensor::EmptyOp::create(b, loc, shape, t.getElementType());
  Value zero = constantScalar(b, loc, t.getElementType(), 0);
  SmallVector<int64_t> origin(shape.size(), 0);
  // Along each padded dimension, the strip past `v` across the others.
  for (auto [d, size] : llvm::enumerate(t.getShape())) {
    if (size == shape[d])
      continue;
    SmallVector<int64_t> offsets(origin), sizes(shape);
    offsets[d] = size;
    sizes[d] = shape[d] - size;
    Value strip = tensor::ExtractSliceOp::create(
        b, loc, out, getAsIndexOpFoldResult(ctx, offsets),
        getAsIndexOpFoldResult(ctx, sizes),
        getAsIndexOpFoldResult(ctx, SmallVector<int64_t>(shape.size(), 1)));
    Value filled = linalg::FillOp::create(b, loc, zero, strip).getResult(0);
    out = insertAt(b, loc, filled, out, getAsIndexOpFoldResult(ctx, offsets),
                   sizes);
  }
  return insertAt(b, loc, v, out, getAsIndexOpFoldResult(ctx, origin),
                  t.getShape());
}

/// Whether `a` and `b` are the same constant scalar.
static bool sameConstant(Value a, Value b) {
  if (a == b)
    return true;
  Attribute x, y;
  return matchPattern(a, m_Constant(&x)) && matchPattern(b, m_Constant(&y)) &&
         x == y;
}

/// The image `v` pads (and its padding, top, left, bottom, right) when `v`
/// is what padImage made of it with `value` along `h` and `w` (or a slice
/// of all of that): an insert of the image into strips filled with
/// `value` that cover the rest of a tensor.empty. Null otherwise.
static Value paddedImageOf(Value v, int64_t h, int64_t w, Value value,
                           int64_t (&p)[4]) {
  if (auto whole = v.getDefiningOp<tensor::ExtractSliceOp>())
    if (whole.getSourceType() == whole.getResultType() &&
        whole.hasUnitStride() && whole.hasZeroOffset())
      v = whole.getSource();
  auto insert = v.getDefiningOp<tensor::InsertSliceOp>();
  if (!insert || !insert.hasUnitStride() ||
      insert.getSourceType().getRank() != insert.getType().getRank() ||
      ShapedType::isDynamicShape(insert.getStaticOffsets()) ||
      !insert.getType().hasStaticShape() ||
      !insert.getSourceType().hasStaticShape())
    return nullptr;
  ArrayRef<int64_t> outer = insert.getType().getShape();
  ArrayRef<int64_t> inner = insert.getSourceType().getShape();
  ArrayRef<int64_t> at = insert.getStaticOffsets();
  for (int64_t d = 0, e = outer.size(); d < e; ++d)
    if (d != h && d != w && (at[d] != 0 || inner[d] != outer[d]))
      return nullptr;
  // The strips: fills of `value` inserted one after another into an empty
  // tensor, disjoint from the image, and as many elements as it leaves.
  int64_t filled = 0, total = insert.getType().getNumElements();
  for (Value dest = insert.getDest();;) {
    if (dest.getDefiningOp<tensor::EmptyOp>())
      break;
    auto strip = dest.getDefiningOp<tensor::InsertSliceOp>();
    auto fill = strip ? strip.getSource().getDefiningOp<linalg::FillOp>()
                      : linalg::FillOp();
    if (!fill || !sameConstant(fill.getInputs()[0], value) ||
        !strip.hasUnitStride() ||
        ShapedType::isDynamicShape(strip.getStaticOffsets()) ||
        !strip.getSourceType().hasStaticShape())
      return nullptr;
    ArrayRef<int64_t> o = strip.getStaticOffsets();
    ArrayRef<int64_t> sz = strip.getSourceType().getShape();
    bool apart = false;
    for (int64_t d : {h, w})
      apart |= o[d] + sz[d] <= at[d] || at[d] + inner[d] <= o[d];
    if (!apart)
      return nullptr;
    filled += strip.getSourceType().getNumElements();
    dest = strip.getDest();
  }
  if (filled + insert.getSourceType().getNumElements() != total)
    return nullptr;
  p[0] = at[h];
  p[1] = at[w];
  p[2] = outer[h] - inner[h] - at[h];
  p[3] = outer[w] - inner[w] - at[w];
  return insert.getSource();
}

Value padImage(OpBuilder &b, Location loc, Value data, ArrayRef<int64_t> p,
               int64_t h, int64_t w, Value value) {
  if (llvm::all_of(p, [](int64_t v) { return v == 0; }))
    return data;
  // An image padded with the same value already (a transposed
  // convolution's input, padded again to whole Winograd tiles) is padded
  // once, by both: the first padding's buffer is not written and copied.
  int64_t before[4];
  if (Value image = paddedImageOf(data, h, w, value, before)) {
    SmallVector<int64_t> both(p);
    for (int i = 0; i < 4; ++i)
      both[i] += before[i];
    return padImage(b, loc, image, both, h, w, value);
  }
  auto in = cast<RankedTensorType>(data.getType());
  SmallVector<int64_t> shape(in.getShape());
  shape[h] += p[0] + p[2];
  shape[w] += p[1] + p[3];
  Value out = tensor::EmptyOp::create(b, loc, shape, in.getElementType());
  MLIRContext *ctx = b.getContext();
  SmallVector<OpFoldResult> ones = getAsIndexOpFoldResult(ctx, {1, 1, 1, 1});
  // Fills the box at `offsets` of `sizes` with `value`, in place.
  auto fillBox = [&](ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes) {
    if (llvm::is_contained(sizes, 0))
      return;
    SmallVector<OpFoldResult> at = getAsIndexOpFoldResult(ctx, offsets);
    SmallVector<OpFoldResult> extent = getAsIndexOpFoldResult(ctx, sizes);
    Value box = tensor::ExtractSliceOp::create(b, loc, out, at, extent, ones);
    Value filled = linalg::FillOp::create(b, loc, value, box).getResult(0);
    out = tensor::InsertSliceOp::create(b, loc, filled, out, at, extent, ones);
  };
  int64_t height = in.getDimSize(h), width = in.getDimSize(w);
  // (row, rows, column, columns) of the top, bottom, left and right strips.
  int64_t strips[4][4] = {{0, p[0], 0, shape[w]},
                          {p[0] + height, p[2], 0, shape[w]},
                          {p[0], height, 0, p[1]},
                          {p[0], height, p[1] + width, p[3]}};
  SmallVector<int64_t> offsets(4, 0), sizes(shape);
  for (auto &[row, rows, column, columns] : strips) {
    offsets[h] = row;
    sizes[h] = rows;
    offsets[w] = column;
    sizes[w] = columns;
    fillBox(offsets, sizes);
  }
  offsets[h] = p[0];
  offsets[w] = p[1];
  return tensor::InsertSliceOp::create(
      b, loc, data, out, getAsIndexOpFoldResult(ctx, offsets),
      getAsIndexOpFoldResult(ctx, in.getShape()), ones);
}

Value eachImage(OpBuilder &b, Location loc, RankedTensorType type, Value images,
                function_ref<Value(OpBuilder &, Value)> convolve) {
  auto in = cast<RankedTensorType>(images.getType());
  auto imageShape = llvm::to_vector(in.getShape());
  imageShape[0] = 1;
  auto resultShape = llvm::to_vector(type.getShape());
  resultShape[0] = 1;
  MLIRContext *ctx = b.getContext();
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return loop(
      b, loc, type.getDimSize(0), 1, init,
      [&](OpBuilder &lb, Value img, Value acc) {
        OpFoldResult zero = lb.getIndexAttr(0);
        SmallVector<OpFoldResult> at(imageShape.size(), zero);
        at[0] = img;
        SmallVector<OpFoldResult> unit(imageShape.size(), lb.getIndexAttr(1));
        Value image = tensor::ExtractSliceOp::create(
            lb, loc, RankedTensorType::get(imageShape, in.getElementType()),
            images, at, getAsIndexOpFoldResult(ctx, imageShape), unit);
        return tensor::InsertSliceOp::create(
                   lb, loc, convolve(lb, image), acc, at,
                   getAsIndexOpFoldResult(ctx, resultShape), unit)
            .getResult();
      });
}

/// (top, left, bottom, right) from TVM's 1, 2 or 4 padding values.
SmallVector<int64_t> padding4(Operation *op) {
  SmallVector<int64_t> p = intsAttr(op, "padding", {0, 0});
  if (p.size() == 1)
    return {p[0], p[0], p[0], p[0]};
  if (p.size() == 2)
    return {p[0], p[1], p[0], p[1]};
  return p;
}

Value select(OpBuilder &b, Location l, Value c, Value x, Value y) {
  return arith::SelectOp::create(b, l, c, x, y);
}

StridePhases::StridePhases(OpBuilder &b, Location loc, Value data,
                           ArrayRef<int64_t> s, ArrayRef<int64_t> d, int64_t kh,
                           int64_t kw)
    : data(data), s(s), d(d) {
  // Up to stride 4, --relay-tile-and-vectorize reads a strided row as
  // one vector of its span and picks every s-th lane, which is cheaper
  // than copying the phases out (MobileNet-V2 3% faster).
  if (s[0] <= kMaxShuffledStride && s[1] <= kMaxShuffledStride)
    return;
  // The phases used, in order (so that the IR is deterministic).
  SmallVector<std::pair<int64_t, int64_t>> used;
  for (int64_t i = 0; i < kh; ++i)
    for (int64_t j = 0; j < kw; ++j)
      used.push_back({i * d[0] % s[0], j * d[1] % s[1]});
  llvm::sort(used);
  used.erase(llvm::unique(used), used.end());
  if (static_cast<int64_t>(used.size()) >= kh * kw)
    return;
  auto in = cast<RankedTensorType>(data.getType());
  int64_t h = in.getDimSize(2), w = in.getDimSize(3);
  for (auto [a, c] : used) {
    SmallVector<int64_t> shape{in.getDimSize(0), in.getDimSize(1),
                               (h - a + s[0] - 1) / s[0],
                               (w - c + s[1] - 1) / s[1]};
    auto type = RankedTensorType::get(shape, in.getElementType());
    Value view = tensor::ExtractSliceOp::create(
        b, loc, type, data, ValueRange{}, ValueRange{}, ValueRange{},
        b.getDenseI64ArrayAttr({0, 0, a, c}), b.getDenseI64ArrayAttr(shape),
        b.getDenseI64ArrayAttr({1, 1, s[0], s[1]}));
    Value empty = tensor::EmptyOp::create(b, loc, shape, in.getElementType());
    phase[{a, c}] = linalg::CopyOp::create(b, loc, view, empty).getResult(0);
  }
}

Value StridePhases::tapView(OpBuilder &b, Location loc, int64_t i, int64_t j,
                            RankedTensorType viewType) {
  int64_t y = i * d[0], x = j * d[1];
  auto it = phase.find({y % s[0], x % s[1]});
  bool phased = it != phase.end();
  ArrayRef<int64_t> shape = viewType.getShape();
  return tensor::ExtractSliceOp::create(
      b, loc, viewType, phased ? it->second : data, ValueRange{}, ValueRange{},
      ValueRange{},
      b.getDenseI64ArrayAttr(
          phased ? SmallVector<int64_t>{0, 0, y / s[0], x / s[1]}
                 : SmallVector<int64_t>{0, 0, y, x}),
      b.getDenseI64ArrayAttr(shape),
      b.getDenseI64ArrayAttr(phased ? SmallVector<int64_t>{1, 1, 1, 1}
                                    : SmallVector<int64_t>{1, 1, s[0], s[1]}));
}

/// A new tensor of `shape` whose element at each index i is data[read(i)]:
/// one all-parallel generic copy (the im2col matrices of large kernels).
Value copyThroughMap(OpBuilder &b, Location loc, Value data,
                     ArrayRef<int64_t> shape, AffineMap read) {
  Type e = cast<RankedTensorType>(data.getType()).getElementType();
  Value empty = tensor::EmptyOp::create(b, loc, shape, e);
  return linalg::GenericOp::create(
             b, loc, TypeRange{empty.getType()}, data, empty,
             {read,
              AffineMap::getMultiDimIdentityMap(shape.size(), b.getContext())},
             SmallVector<utils::IteratorType>(shape.size(),
                                              utils::IteratorType::parallel),
             [](OpBuilder &nb, Location l, ValueRange a) {
               linalg::YieldOp::create(nb, l, a[0]);
             })
      .getResult(0);
}

Value IndexMath::c(int64_t v) {
  return arith::ConstantIndexOp::create(b, l, v);
}
Value IndexMath::add(Value x, Value y) {
  return arith::AddIOp::create(b, l, x, y);
}
Value IndexMath::sub(Value x, Value y) {
  return arith::SubIOp::create(b, l, x, y);
}
Value IndexMath::mul(Value x, Value y) {
  return arith::MulIOp::create(b, l, x, y);
}
Value IndexMath::div(Value x, Value y) {
  return arith::DivUIOp::create(b, l, x, y);
}
Value IndexMath::rem(Value x, Value y) {
  return arith::RemUIOp::create(b, l, x, y);
}
Value IndexMath::min(Value x, Value y) {
  return arith::MinSIOp::create(b, l, x, y);
}
Value IndexMath::max(Value x, Value y) {
  return arith::MaxSIOp::create(b, l, x, y);
}
Value IndexMath::lt(Value x, Value y) {
  return arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, x, y);
}
Value IndexMath::eq(Value x, Value y) {
  return arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, x, y);
}
Value IndexMath::both(Value x, Value y) {
  return arith::AndIOp::create(b, l, x, y);
}
Value IndexMath::toF64(Value x) {
  Value i = arith::IndexCastOp::create(b, l, b.getI64Type(), x);
  return arith::SIToFPOp::create(b, l, b.getF64Type(), i);
}
Value IndexMath::fromF64(Value x) {
  Value i = arith::FPToSIOp::create(b, l, b.getI64Type(), x);
  return arith::IndexCastOp::create(b, l, b.getIndexType(), i);
}

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

Value permuteAxes(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  return linalg::TransposeOp::create(b, loc, v, init, perm).getResult()[0];
}

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

Value convertScalar(OpBuilder &b, Location l, Value x, Type to,
                    bool fromUnsigned, bool toUnsigned) {
  Type from = x.getType();
  if (from == to)
    return x;
  auto fi = dyn_cast<IntegerType>(from);
  auto ti = dyn_cast<IntegerType>(to);
  if (isa<FloatType>(from) && isa<FloatType>(to))
    return from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth()
               ? arith::ExtFOp::create(b, l, to, x).getResult()
               : arith::TruncFOp::create(b, l, to, x).getResult();
  if (fi && isa<FloatType>(to))
    return fromUnsigned ? arith::UIToFPOp::create(b, l, to, x).getResult()
                        : arith::SIToFPOp::create(b, l, to, x).getResult();
  if (isa<FloatType>(from) && ti)
    return toUnsigned ? arith::FPToUIOp::create(b, l, to, x).getResult()
                      : arith::FPToSIOp::create(b, l, to, x).getResult();
  if (fi && ti)
    return fi.getWidth() < ti.getWidth()
               ? (fromUnsigned
                      ? arith::ExtUIOp::create(b, l, to, x).getResult()
                      : arith::ExtSIOp::create(b, l, to, x).getResult())
               : arith::TruncIOp::create(b, l, to, x).getResult();
  return x;
}

Value mapElements(OpBuilder &b, Location loc, Value source, Type to,
                  function_ref<Value(OpBuilder &, Location, Value)> fn) {
  auto type = cast<RankedTensorType>(source.getType());
  unsigned rank = type.getRank();
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, b.getContext());
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), to);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, source, init, {id, id},
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange a) {
               linalg::YieldOp::create(nb, l, fn(nb, l, a[0]));
             })
      .getResult(0);
}

Value convertTensor(OpBuilder &b, Location loc, Value v, Type to,
                    bool fromUnsigned, bool toUnsigned) {
  return mapElements(b, loc, v, to, [&](OpBuilder &nb, Location l, Value x) {
    return convertScalar(nb, l, x, to, fromUnsigned, toUnsigned);
  });
}

} // namespace mlir::relay::lowering

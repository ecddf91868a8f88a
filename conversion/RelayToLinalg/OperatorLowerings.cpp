//===- OperatorLowerings.cpp - Relay operators to linalg --------*- C++ -*-===//
//
// The lowering column of the operator registry: each rule builds the
// tensor-level computation of one operator from linalg (generic for
// elementwise, broadcasting, reductions and products; named ops for
// convolutions and pooling), tensor, arith and math ops, for static shapes.
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToLinalg/BoxedValues.h"
#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "conversion/RelayToLinalg/RelayToLinalg.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayOps.h"
#include "transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "llvm/ADT/SmallBitVector.h"

#include <algorithm>
#include <cmath>

#include <mutex>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {
using ScalarFn = std::function<Value(OpBuilder &, Location, ValueRange)>;

} // namespace

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

bool isUnsignedLike(Type t);

/// The lowered type of `op`'s (single) result: unsigned integers signless.
RankedTensorType resultType(Operation *op) {
  return dyn_cast<RankedTensorType>(signlessType(op->getResult(0).getType()));
}

/// `v` reshaped to the static `type` (same number of elements).
Value reshapeStatic(OpBuilder &b, Location loc, Value v,
                    RankedTensorType type) {
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

} // namespace mlir::relay::lowering

namespace {

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

} // namespace

Value mlir::relay::lowering::generateTensor(
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

namespace {
/// A float-or-integer scalar rule.
ScalarFn arith2(std::function<Value(OpBuilder &, Location, Value, Value)> f,
                std::function<Value(OpBuilder &, Location, Value, Value)> i) {
  return [f, i](OpBuilder &b, Location loc, ValueRange a) -> Value {
    if (isa<FloatType>(a[0].getType()))
      return f ? f(b, loc, a[0], a[1]) : Value();
    return i ? i(b, loc, a[0], a[1]) : Value();
  };
}

template <typename FOp, typename IOp> ScalarFn binop() {
  return arith2([](OpBuilder &b, Location l, Value x,
                   Value y) -> Value { return FOp::create(b, l, x, y); },
                [](OpBuilder &b, Location l, Value x, Value y) -> Value {
                  return IOp::create(b, l, x, y);
                });
}

} // namespace

namespace mlir::relay::lowering {
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
} // namespace mlir::relay::lowering

namespace {

/// x ** y on integers. A negative exponent gives 1 for x = 1, +-1 for
/// x = -1 and 0 otherwise (as the interpreter), never reaching math.ipowi
/// (which divides by zero for 0 ** -1).
Value integerPower(OpBuilder &b, Location l, Value x, Value y) {
  Type t = x.getType();
  if (t.isInteger(1))
    return Value();
  Value zero = constantScalar(b, l, t, 0), one = constantScalar(b, l, t, 1);
  Value minusOne = constantScalar(b, l, t, -1);
  if (isUnsignedLike(t))
    return math::IPowIOp::create(b, l, x, y);
  Value negative =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, y, zero);
  Value power = math::IPowIOp::create(
      b, l, x, arith::SelectOp::create(b, l, negative, zero, y));
  Value odd = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne,
                                    arith::AndIOp::create(b, l, y, one), zero);
  Value ofMinusOne = arith::SelectOp::create(b, l, odd, minusOne, one);
  Value isOne = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, x, one);
  Value isMinusOne =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, x, minusOne);
  Value reciprocal = arith::SelectOp::create(
      b, l, isOne, one,
      arith::SelectOp::create(b, l, isMinusOne, ofMinusOne, zero));
  return arith::SelectOp::create(b, l, negative, reciprocal, power);
}

ScalarFn compare(arith::CmpFPredicate fp, arith::CmpIPredicate ip) {
  return arith2(
      [fp](OpBuilder &b, Location l, Value x, Value y) -> Value {
        return arith::CmpFOp::create(b, l, fp, x, y);
      },
      [ip](OpBuilder &b, Location l, Value x, Value y) -> Value {
        return arith::CmpIOp::create(b, l, unsignedFor(x.getType(), ip), x, y);
      });
}

template <typename MathOp> ScalarFn floatUnary() {
  return [](OpBuilder &b, Location l, ValueRange a) -> Value {
    if (!isa<FloatType>(a[0].getType()))
      return Value();
    return MathOp::create(b, l, a[0]);
  };
}

using Rule = LoweringRuleFn;

/// Wraps a scalar rule; a null scalar means "unsupported dtype".
Rule pointwise(ScalarFn fn) {
  return [fn](OpBuilder &b, Operation *op,
              ValueRange operands) -> FailureOr<SmallVector<Value>> {
    bool ok = true;
    auto result = elementwise(b, op, operands,
                              [&](OpBuilder &nb, Location l, ValueRange a) {
                                Value v = fn(nb, l, a);
                                if (!v) {
                                  ok = false;
                                  return a[0];
                                }
                                return v;
                              });
    if (!ok || failed(result))
      return failure();
    return result;
  };
}

/// The axes a reduction reduces: `axis` (all when absent; `axes`
/// overrides), complemented with `exclude`.
llvm::SmallBitVector reducedAxes(Operation *op, int64_t rank,
                                 std::optional<SmallVector<int64_t>> axes) {
  llvm::SmallBitVector reduced(rank, false);
  if (!getOperatorAttributes(op).get("axis") && !axes)
    reduced.set();
  for (int64_t a : axes ? *axes : intsAttr(op, "axis", {}))
    reduced.set(a < 0 ? a + rank : a);
  BoolAttr exclude =
      dyn_cast_or_null<BoolAttr>(getOperatorAttributes(op).get("exclude"));
  if (!axes && exclude && exclude.getValue())
    reduced.flip();
  return reduced;
}

/// A reduction over `axis` (all axes when absent; `axes` overrides), with
/// keepdims.
Rule reduction(std::function<Value(OpBuilder &, Location, Value, Value)> f,
               double init, bool mean,
               std::optional<SmallVector<int64_t>> axes = std::nullopt) {
  return [=](OpBuilder &b, Operation *op,
             ValueRange operands) -> FailureOr<SmallVector<Value>> {
    Location loc = op->getLoc();
    auto in = cast<RankedTensorType>(operands[0].getType());
    RankedTensorType type = resultType(op);
    if (!type || !in.hasStaticShape())
      return failure();
    int64_t rank = in.getRank();
    llvm::SmallBitVector reduced = reducedAxes(op, rank, axes);
    bool keep = axes || getOperatorAttributes(op).get("keepdims") ==
                            b.getBoolAttr(true);
    MLIRContext *ctx = b.getContext();
    SmallVector<AffineExpr> outExprs;
    SmallVector<int64_t> outShape;
    int64_t count = 1;
    SmallVector<utils::IteratorType> iters;
    for (int64_t d = 0; d < rank; ++d) {
      iters.push_back(reduced[d] ? utils::IteratorType::reduction
                                 : utils::IteratorType::parallel);
      if (reduced[d]) {
        count *= in.getShape()[d];
        continue;
      }
      outExprs.push_back(getAffineDimExpr(d, ctx));
      outShape.push_back(in.getShape()[d]);
    }
    Type e = in.getElementType();
    auto flatType = RankedTensorType::get(outShape, e);
    Value empty = tensor::EmptyOp::create(b, loc, outShape, e);
    Value initValue = constantScalar(b, loc, e, init);
    Value filled =
        linalg::FillOp::create(b, loc, initValue, empty).getResult(0);
    SmallVector<AffineMap> maps{AffineMap::getMultiDimIdentityMap(rank, ctx),
                                AffineMap::get(rank, 0, outExprs, ctx)};
    Value acc =
        linalg::GenericOp::create(
            b, loc, TypeRange{flatType}, operands[0], filled, maps, iters,
            [&](OpBuilder &nb, Location l, ValueRange a) {
              linalg::YieldOp::create(nb, l, f(nb, l, a[0], a[1]));
            })
            .getResult(0);
    if (mean) {
      if (!isa<FloatType>(e))
        return failure();
      Value n = constantScalar(b, loc, e, double(count));
      SmallVector<AffineMap> idMaps(
          2, AffineMap::getMultiDimIdentityMap(outShape.size(), ctx));
      acc = linalg::GenericOp::create(
                b, loc, TypeRange{flatType}, ValueRange{}, ValueRange{acc},
                idMaps.front(),
                SmallVector<utils::IteratorType>(outShape.size(),
                                                 utils::IteratorType::parallel),
                [&](OpBuilder &nb, Location l, ValueRange a) {
                  linalg::YieldOp::create(
                      nb, l, arith::DivFOp::create(nb, l, a[0], n).getResult());
                })
                .getResult(0);
    }
    if (keep && flatType != type) {
      acc = reshapeStatic(b, loc, acc, type);
    }
    return SmallVector<Value>{acc};
  };
}

/// reshape and friends: the relation gave the result shape.
FailureOr<SmallVector<Value>> reshapeRule(OpBuilder &b, Operation *op,
                                          ValueRange operands) {
  RankedTensorType type = resultType(op);
  if (!type || !type.hasStaticShape())
    return failure();
  Location loc = op->getLoc();
  return SmallVector<Value>{reshapeStatic(b, loc, operands[0], type)};
}

/// sum(a * b) over the last loop of a `numDims`-loop nest with the given
/// maps (a, b, result), into a zero-filled float tensor of `type`.
Value contract(OpBuilder &b, Location loc, RankedTensorType type,
               ValueRange operands, unsigned numDims, ArrayRef<AffineMap> maps);

/// The size an m (`isN` false) or n loop of a product is padded to so that
/// its register tiles are whole: m to a multiple of 8 rows unless it has
/// such a divisor, n to whole 16-float vectors; small sizes stay.
int64_t paddedExtent(int64_t size, bool isN) {
  if (isN)
    return size > 16 && size % 16 ? (size + 15) / 16 * 16 : size;
  if (size <= 8)
    return size;
  for (int64_t t = std::min<int64_t>(size, 64) / 8 * 8; t >= 8; t -= 8)
    if (size % t == 0)
      return size;
  return (size + 7) / 8 * 8;
}

/// contract() with the innermost two parallel loops of the result (m and n)
/// padded with zero rows/columns where paddedExtent says (a 197-row
/// product would otherwise get one-row register tiles), and the result
/// sliced back.
Value paddedContract(OpBuilder &b, Location loc, RankedTensorType type,
                     ValueRange operands, unsigned numDims,
                     ArrayRef<AffineMap> maps) {
  AffineMap result = maps.back();
  SmallVector<int64_t> padded(numDims, 0), size(numDims, 0);
  unsigned rank = result.getNumResults();
  for (unsigned j = 0; j < rank; ++j) {
    unsigned d = result.getDimPosition(j);
    size[d] = type.getDimSize(j);
    padded[d] = size[d];
  }
  if (rank >= 1)
    padded[result.getDimPosition(rank - 1)] =
        paddedExtent(type.getDimSize(rank - 1), /*isN=*/true);
  if (rank >= 2)
    padded[result.getDimPosition(rank - 2)] =
        paddedExtent(type.getDimSize(rank - 2), /*isN=*/false);
  if (llvm::all_of(llvm::seq<unsigned>(0, rank), [&](unsigned j) {
        unsigned d = result.getDimPosition(j);
        return padded[d] == size[d];
      }))
    return contract(b, loc, type, operands, numDims, maps);
  Type e = type.getElementType();
  Value zero = constantScalar(b, loc, e, 0);
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> args;
  for (auto [v, m] : llvm::zip(operands, maps)) {
    auto t = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> high(t.getRank(), 0), shape(t.getShape());
    for (unsigned j = 0; j < m.getNumResults(); ++j) {
      unsigned d = m.getDimPosition(j);
      if (padded[d] && padded[d] != size[d]) {
        high[j] = padded[d] - size[d];
        shape[j] = padded[d];
      }
    }
    args.push_back(
        llvm::all_of(high, [](int64_t h) { return h == 0; })
            ? v
            : tensor::PadOp::create(
                  b, loc, RankedTensorType::get(shape, t.getElementType()), v,
                  getAsIndexOpFoldResult(ctx,
                                         SmallVector<int64_t>(t.getRank(), 0)),
                  getAsIndexOpFoldResult(ctx, high), zero)
                  .getResult());
  }
  SmallVector<int64_t> shape;
  for (unsigned j = 0; j < rank; ++j)
    shape.push_back(padded[result.getDimPosition(j)]);
  Value out =
      contract(b, loc, RankedTensorType::get(shape, e), args, numDims, maps);
  return tensor::ExtractSliceOp::create(
      b, loc, type, out, ValueRange{}, ValueRange{}, ValueRange{},
      b.getDenseI64ArrayAttr(SmallVector<int64_t>(rank, 0)),
      b.getDenseI64ArrayAttr(type.getShape()),
      b.getDenseI64ArrayAttr(SmallVector<int64_t>(rank, 1)));
}

/// `operand` (read through `map` in a product of `numDims` loops, k last)
/// with its dimension along the result's innermost loop n moved innermost,
/// when it had k there: the product's vectors run along n, and reading
/// them across k-major rows (dense's weight [n, k], batch_matmul's
/// transposed B) would load one element per lane. Copying costs n * k
/// moves against 2 * m * n * k flops, so only products of 4 or more rows
/// get it. `map` is updated to read the copy.
Value nInnermost(OpBuilder &b, Location loc, Value operand, AffineMap &map,
                 unsigned numDims, RankedTensorType type, AffineMap result) {
  unsigned rank = result.getNumResults();
  if (rank < 2 || type.getDimSize(rank - 2) < 4)
    return operand;
  unsigned n = result.getDimPosition(rank - 1), last = map.getNumResults() - 1;
  std::optional<unsigned> at =
      map.getResultPosition(getAffineDimExpr(n, b.getContext()));
  if (!map.isProjectedPermutation() || !at || *at == last ||
      map.getDimPosition(last) != numDims - 1)
    return operand;
  SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, last + 1));
  std::swap(perm[*at], perm[last]);
  auto t = cast<RankedTensorType>(operand.getType());
  SmallVector<int64_t> shape(t.getShape());
  std::swap(shape[*at], shape[last]);
  SmallVector<AffineExpr> exprs(map.getResults());
  std::swap(exprs[*at], exprs[last]);
  map = AffineMap::get(numDims, 0, exprs, b.getContext());
  Value init = tensor::EmptyOp::create(b, loc, shape, t.getElementType());
  return linalg::TransposeOp::create(b, loc, operand, init, perm)
      .getResult()[0];
}

Value contract(OpBuilder &b, Location loc, RankedTensorType type,
               ValueRange inputs, unsigned numDims,
               ArrayRef<AffineMap> inputMaps) {
  SmallVector<AffineMap> maps(inputMaps);
  SmallVector<Value> operands(inputs);
  for (unsigned i = 0; i + 1 < maps.size(); ++i)
    operands[i] =
        nInnermost(b, loc, operands[i], maps[i], numDims, type, maps.back());
  Value zero = constantScalar(b, loc, type.getElementType(), 0);
  Value empty =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  Value init = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  SmallVector<utils::IteratorType> iters(numDims,
                                         utils::IteratorType::parallel);
  iters.back() = utils::IteratorType::reduction;
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, operands, init, maps, iters,
             [&](OpBuilder &nb, Location l, ValueRange a) {
               Value m = arith::MulFOp::create(nb, l, a[0], a[1]);
               linalg::YieldOp::create(
                   nb, l, arith::AddFOp::create(nb, l, a[2], m).getResult());
             })
      .getResult(0);
}

/// A product over a reduction dimension given the iteration-space maps:
/// dense, matmul, batch_matmul.
FailureOr<SmallVector<Value>> product(OpBuilder &b, Operation *op,
                                      ValueRange operands, unsigned numDims,
                                      ArrayRef<AffineMap> maps) {
  RankedTensorType type = resultType(op);
  if (!type || !type.hasStaticShape() || !isa<FloatType>(type.getElementType()))
    return failure();
  return SmallVector<Value>{
      paddedContract(b, op->getLoc(), type, operands, numDims, maps)};
}

AffineMap map(MLIRContext *ctx, unsigned numDims, ArrayRef<unsigned> dims) {
  SmallVector<AffineExpr> exprs;
  for (unsigned d : dims)
    exprs.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(numDims, 0, exprs, ctx);
}

/// The vector width (f32 lanes) of one-row products.
constexpr int64_t kRowLanes = 16;

/// Whether x [1, K] times w^T (w [N, K]) is a one-row product of floats
/// that rowTimesTransposed takes.
bool isOneRowProduct(RankedTensorType type, Value x, Value w) {
  auto xt = cast<RankedTensorType>(x.getType());
  auto wt = cast<RankedTensorType>(w.getType());
  Type e = type.getElementType();
  return isa<FloatType>(e) && xt.getElementType() == e &&
         wt.getElementType() == e && xt.getRank() == 2 && wt.getRank() == 2 &&
         xt.getDimSize(0) == 1 && xt.getDimSize(1) % kRowLanes == 0;
}

/// out[0, n] = sum_k x[0, k] * w[n, k] for one row x (an RNN cell's dense
/// layers, a classifier at batch 1). As a matrix product its vectors would
/// run along n, reading w with a stride; instead a split reduction
///   partial[n, j] = sum_kk x[kk * 16 + j] * w[n, kk * 16 + j]
/// reads w's rows as vectors (loops n, kk, j with j the vector and the
/// partial sums in registers across kk), then sums over j.
Value rowTimesTransposed(OpBuilder &b, Location loc, RankedTensorType type,
                         Value x, Value w) {
  MLIRContext *ctx = b.getContext();
  Type e = type.getElementType();
  auto wt = cast<RankedTensorType>(w.getType());
  int64_t n = wt.getDimSize(0), k = wt.getDimSize(1), kk = k / kRowLanes;
  Value x2 = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({1, kk, kRowLanes}, e), x,
      SmallVector<ReassociationIndices>{{0}, {1, 2}});
  x2 = tensor::CollapseShapeOp::create(
      b, loc, x2, SmallVector<ReassociationIndices>{{0, 1}, {2}});
  Value w3 = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({n, kk, kRowLanes}, e), w,
      SmallVector<ReassociationIndices>{{0}, {1, 2}});
  Value zero = constantScalar(b, loc, e, 0);
  auto filled = [&](ArrayRef<int64_t> shape) {
    return linalg::FillOp::create(
               b, loc, zero,
               tensor::EmptyOp::create(b, loc, shape, e).getResult())
        .getResult(0);
  };
  using utils::IteratorType;
  Value partial =
      linalg::GenericOp::create(
          b, loc, TypeRange{RankedTensorType::get({n, kRowLanes}, e)},
          ValueRange{x2, w3}, filled({n, kRowLanes}),
          {map(ctx, 3, {1, 2}), map(ctx, 3, {0, 1, 2}), map(ctx, 3, {0, 2})},
          {IteratorType::parallel, IteratorType::reduction,
           IteratorType::parallel},
          [](OpBuilder &nb, Location l, ValueRange a) {
            Value product = arith::MulFOp::create(nb, l, a[0], a[1]);
            linalg::YieldOp::create(
                nb, l, Value(arith::AddFOp::create(nb, l, a[2], product)));
          })
          .getResult(0);
  Value sums =
      linalg::GenericOp::create(
          b, loc, TypeRange{RankedTensorType::get({n}, e)}, partial,
          filled({n}), {map(ctx, 2, {0, 1}), map(ctx, 2, {0})},
          {IteratorType::parallel, IteratorType::reduction},
          [](OpBuilder &nb, Location l, ValueRange a) {
            linalg::YieldOp::create(
                nb, l, Value(arith::AddFOp::create(nb, l, a[1], a[0])));
          })
          .getResult(0);
  return tensor::ExpandShapeOp::create(
      b, loc, type, sums, SmallVector<ReassociationIndices>{{0, 1}});
}

FailureOr<SmallVector<Value>> denseRule(OpBuilder &b, Operation *op,
                                        ValueRange operands) {
  auto a = cast<RankedTensorType>(operands[0].getType());
  RankedTensorType type = resultType(op);
  if (a.getRank() < 1 || !type || !type.hasStaticShape() ||
      !isa<FloatType>(type.getElementType()))
    return failure();
  Location loc = op->getLoc();
  MLIRContext *ctx = b.getContext();
  // Data [..., k] is a matrix [m, k] with m the product of the leading
  // dimensions; the result [m, n] is reshaped back.
  Value data = operands[0];
  int64_t rank = a.getRank();
  int64_t n = type.getShape().back(), m = type.getNumElements() / n;
  auto type2d = RankedTensorType::get({m, n}, type.getElementType());
  if (rank != 2) {
    ReassociationIndices leading;
    for (int64_t d = 0; d + 1 < rank; ++d)
      leading.push_back(d);
    data = rank == 1
               ? tensor::ExpandShapeOp::create(
                     b, loc,
                     RankedTensorType::get({1, a.getDimSize(0)},
                                           a.getElementType()),
                     data, SmallVector<ReassociationIndices>{{0, 1}})
                     .getResult()
               : tensor::CollapseShapeOp::create(
                     b, loc, data,
                     SmallVector<ReassociationIndices>{leading, {rank - 1}})
                     .getResult();
  }
  Value out;
  if (isOneRowProduct(type2d, data, operands[1]))
    out = rowTimesTransposed(b, loc, type2d, data, operands[1]);
  else
    // (m, n, k): data (m, k), weight (n, k), out (m, n).
    out = paddedContract(
        b, loc, type2d, ValueRange{data, operands[1]}, 3,
        {map(ctx, 3, {0, 2}), map(ctx, 3, {1, 2}), map(ctx, 3, {0, 1})});
  if (rank == 2)
    return SmallVector<Value>{out};
  SmallVector<ReassociationIndices> back;
  if (type.getRank() == 1) {
    back.push_back({0, 1});
  } else {
    ReassociationIndices leading;
    for (int64_t d = 0; d + 1 < type.getRank(); ++d)
      leading.push_back(d);
    back = {leading, {type.getRank() - 1}};
  }
  return SmallVector<Value>{
      type.getRank() == 1
          ? Value(tensor::CollapseShapeOp::create(b, loc, type, out, back))
          : Value(tensor::ExpandShapeOp::create(b, loc, type, out, back))};
}

FailureOr<SmallVector<Value>> batchMatmulRule(OpBuilder &b, Operation *op,
                                              ValueRange operands) {
  auto x = cast<RankedTensorType>(operands[0].getType());
  auto y = cast<RankedTensorType>(operands[1].getType());
  bool ta = getOperatorAttributes(op).get("transpose_a") == b.getBoolAttr(true);
  bool tb =
      getOperatorAttributes(op).get("transpose_b") != b.getBoolAttr(false);
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> args(operands);
  int64_t batch = std::max(x.getShape()[0], y.getShape()[0]);
  if (x.getShape()[0] != y.getShape()[0]) {
    // A batch of one broadcasts: copy it to every batch entry first.
    int64_t single = x.getShape()[0] == 1 ? 0 : 1;
    auto t = cast<RankedTensorType>(args[single].getType());
    if (t.getShape()[0] != 1)
      return failure();
    SmallVector<int64_t> shape(t.getShape());
    shape[0] = batch;
    AffineExpr d0, d1, d2;
    bindDims(ctx, d0, d1, d2);
    args[single] =
        linalg::GenericOp::create(
            b, op->getLoc(), TypeRange{t.clone(shape)}, args[single],
            ValueRange{tensor::EmptyOp::create(b, op->getLoc(), shape,
                                               t.getElementType())
                           .getResult()},
            {AffineMap::get(3, 0, {getAffineConstantExpr(0, ctx), d1, d2}, ctx),
             AffineMap::getMultiDimIdentityMap(3, ctx)},
            SmallVector<utils::IteratorType>(3, utils::IteratorType::parallel),
            [](OpBuilder &nb, Location l, ValueRange a) {
              linalg::YieldOp::create(nb, l, a[0]);
            })
            .getResult(0);
  }
  // (b, m, n, k)
  return product(b, op, args, 4,
                 {ta ? map(ctx, 4, {0, 3, 1}) : map(ctx, 4, {0, 1, 3}),
                  tb ? map(ctx, 4, {0, 2, 3}) : map(ctx, 4, {0, 3, 2}),
                  map(ctx, 4, {0, 1, 2})});
}

FailureOr<SmallVector<Value>> matmulRule(OpBuilder &b, Operation *op,
                                         ValueRange operands) {
  auto a = cast<RankedTensorType>(operands[0].getType());
  if (a.getRank() != 2)
    return failure();
  bool ta = getOperatorAttributes(op).get("transpose_a") == b.getBoolAttr(true);
  bool tb = getOperatorAttributes(op).get("transpose_b") == b.getBoolAttr(true);
  RankedTensorType type = resultType(op);
  if (type && !ta && tb && isOneRowProduct(type, operands[0], operands[1]))
    return SmallVector<Value>{
        rowTimesTransposed(b, op->getLoc(), type, operands[0], operands[1])};
  MLIRContext *ctx = b.getContext();
  return product(b, op, operands, 3,
                 {ta ? map(ctx, 3, {2, 0}) : map(ctx, 3, {0, 2}),
                  tb ? map(ctx, 3, {1, 2}) : map(ctx, 3, {2, 1}),
                  map(ctx, 3, {0, 1})});
}

FailureOr<SmallVector<Value>> transposeRule(OpBuilder &b, Operation *op,
                                            ValueRange operands) {
  RankedTensorType type = resultType(op);
  auto in = cast<RankedTensorType>(operands[0].getType());
  int64_t rank = in.getRank();
  SmallVector<int64_t> axes = intsAttr(op, "axes", {});
  if (axes.empty())
    for (int64_t i = rank - 1; i >= 0; --i)
      axes.push_back(i);
  for (int64_t &a : axes)
    if (a < 0)
      a += rank;
  Location loc = op->getLoc();
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return SmallVector<Value>{
      linalg::TransposeOp::create(b, loc, operands[0], init, axes)
          .getResult()[0]};
}

} // namespace

namespace mlir::relay::lowering {
/// Pads H (`h`) and W (`w`) of a 4-d image by (top, left, bottom, right)
/// with `value`; returns `data` when there is nothing to pad. Only the
/// border is filled (four strips written in place) and the image copied
/// into the interior: tensor.pad bufferizes to a fill of the whole buffer
/// first, a second pass over it (a fifth of MobileNet-V2's time went to
/// such fills).
Value padImage(OpBuilder &b, Location loc, Value data, ArrayRef<int64_t> p,
               int64_t h, int64_t w, Value value) {
  if (llvm::all_of(p, [](int64_t v) { return v == 0; }))
    return data;
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

/// (top, left, bottom, right) from TVM's 1, 2 or 4 padding values.
Value eachImage(OpBuilder &b, Location loc, RankedTensorType type, Value images,
                function_ref<Value(OpBuilder &, Value)> convolve) {
  auto in = cast<RankedTensorType>(images.getType());
  auto imageShape = llvm::to_vector(in.getShape());
  imageShape[0] = 1;
  auto resultShape = llvm::to_vector(type.getShape());
  resultShape[0] = 1;
  MLIRContext *ctx = b.getContext();
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return scf::ForOp::create(
             b, loc, index(0), index(type.getDimSize(0)), index(1),
             ValueRange{init},
             [&](OpBuilder &lb, Location l, Value img, ValueRange acc) {
               OpFoldResult zero = lb.getIndexAttr(0);
               SmallVector<OpFoldResult> at(imageShape.size(), zero);
               at[0] = img;
               SmallVector<OpFoldResult> unit(imageShape.size(),
                                              lb.getIndexAttr(1));
               Value image = tensor::ExtractSliceOp::create(
                   lb, l,
                   RankedTensorType::get(imageShape, in.getElementType()),
                   images, at, getAsIndexOpFoldResult(ctx, imageShape), unit);
               Value next = tensor::InsertSliceOp::create(
                   lb, l, convolve(lb, image), acc[0], at,
                   getAsIndexOpFoldResult(ctx, resultShape), unit);
               scf::YieldOp::create(lb, l, next);
             })
      .getResult(0);
}

SmallVector<int64_t> padding4(Operation *op) {
  SmallVector<int64_t> p = intsAttr(op, "padding", {0, 0});
  if (p.size() == 1)
    return {p[0], p[0], p[0], p[0]};
  if (p.size() == 2)
    return {p[0], p[1], p[0], p[1]};
  return p;
}
} // namespace mlir::relay::lowering

namespace {

/// The largest stride whose strided rows --relay-tile-and-vectorize reads
/// as vectors (one read of the span, then a shuffle).
constexpr int64_t kMaxShuffledStride = 4;

/// The windows of a strided convolution's or pooling's kernel taps. A tap's
/// window is a view of the image with the convolution's strides; with
/// strides above kMaxShuffledStride copying it reads one element at a time,
/// so when there are more taps than stride phases (positions modulo the
/// strides), each phase used is copied out once (the only strided reads)
/// and every tap's window is a unit-stride view of its phase, whose rows
/// copy as vectors.
class StridePhases {
public:
  StridePhases(OpBuilder &b, Location loc, Value data, ArrayRef<int64_t> s,
               ArrayRef<int64_t> d, int64_t kh, int64_t kw)
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

  /// The window of tap (i, j): out position (y, x) reads the image at
  /// (y * sh + i * dh, x * sw + j * dw).
  Value tapView(OpBuilder &b, Location loc, int64_t i, int64_t j,
                RankedTensorType viewType) {
    int64_t y = i * d[0], x = j * d[1];
    auto it = phase.find({y % s[0], x % s[1]});
    bool phased = it != phase.end();
    ArrayRef<int64_t> shape = viewType.getShape();
    return tensor::ExtractSliceOp::create(
        b, loc, viewType, phased ? it->second : data, ValueRange{},
        ValueRange{}, ValueRange{},
        b.getDenseI64ArrayAttr(
            phased ? SmallVector<int64_t>{0, 0, y / s[0], x / s[1]}
                   : SmallVector<int64_t>{0, 0, y, x}),
        b.getDenseI64ArrayAttr(shape),
        b.getDenseI64ArrayAttr(phased
                                   ? SmallVector<int64_t>{1, 1, 1, 1}
                                   : SmallVector<int64_t>{1, 1, s[0], s[1]}));
  }

private:
  Value data;
  ArrayRef<int64_t> s, d;
  llvm::SmallDenseMap<std::pair<int64_t, int64_t>, Value> phase;
};

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

/// max_pool2d and avg_pool2d (NCHW) over a padded input: window taps, or
/// the pooling named ops for large windows.
FailureOr<SmallVector<Value>> poolRule(OpBuilder &b, Operation *op,
                                       ValueRange operands, bool isMax) {
  RankedTensorType type = resultType(op);
  // Integers: max pooling (the taps compare as the signedness says;
  // linalg's NCHW max for large windows is signed only).
  SmallVector<int64_t> size = intsAttr(op, "pool_size", {1, 1});
  int64_t numTaps = size[0] * (size.size() > 1 ? size[1] : size[0]);
  bool integerMaxOk =
      type && isMax && isa<IntegerType>(type.getElementType()) &&
      (numTaps <= kMaxPoolTaps || !isUnsignedValue(op->getResult(0)));
  if (!type || strAttr(op, "layout", "NCHW") != "NCHW" ||
      (!isa<FloatType>(type.getElementType()) && !integerMaxOk))
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

/// cast between numeric dtypes.
FailureOr<SmallVector<Value>> castRule(OpBuilder &b, Operation *op,
                                       ValueRange operands) {
  RankedTensorType type = resultType(op);
  Type to = type.getElementType();
  // Signedness comes from the Relay types (lowered integers are signless).
  bool fromUnsigned = isUnsignedValue(op->getOperand(0));
  bool toUnsigned = isUnsignedValue(op->getResult(0));
  return elementwise(
      b, op, operands,
      [to, fromUnsigned, toUnsigned](OpBuilder &nb, Location l,
                                     ValueRange a) -> Value {
        Value x = a[0];
        Type from = x.getType();
        if (from == to)
          return x;
        auto fi = dyn_cast<IntegerType>(from);
        auto ti = dyn_cast<IntegerType>(to);
        if (isa<FloatType>(from) && isa<FloatType>(to))
          return from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth()
                     ? arith::ExtFOp::create(nb, l, to, x).getResult()
                     : arith::TruncFOp::create(nb, l, to, x).getResult();
        if (fi && isa<FloatType>(to))
          return fromUnsigned
                     ? arith::UIToFPOp::create(nb, l, to, x).getResult()
                     : arith::SIToFPOp::create(nb, l, to, x).getResult();
        if (isa<FloatType>(from) && ti)
          return toUnsigned ? arith::FPToUIOp::create(nb, l, to, x).getResult()
                            : arith::FPToSIOp::create(nb, l, to, x).getResult();
        if (fi && ti)
          return fi.getWidth() < ti.getWidth()
                     ? (fromUnsigned
                            ? arith::ExtUIOp::create(nb, l, to, x).getResult()
                            : arith::ExtSIOp::create(nb, l, to, x).getResult())
                     : arith::TruncIOp::create(nb, l, to, x).getResult();
        return x;
      });
}

/// nn.pad: constant (tensor.pad), edge and reflect (a generic reading the
/// source index).
FailureOr<SmallVector<Value>> padRule(OpBuilder &b, Operation *op,
                                      ValueRange operands) {
  RankedTensorType type = resultType(op);
  StringRef mode = strAttr(op, "pad_mode", "constant");
  SmallVector<int64_t> w = intsAttr(op, "pad_width", {});
  SmallVector<int64_t> low, high;
  for (size_t i = 0; i + 1 < w.size(); i += 2) {
    low.push_back(w[i]);
    high.push_back(w[i + 1]);
  }
  Location loc = op->getLoc();
  if (mode == "edge" || mode == "reflect") {
    // out[i] = data[source(i - low)]: edge clamps into [0, n); reflect
    // mirrors without repeating the edge (numpy's "reflect").
    auto in = cast<RankedTensorType>(operands[0].getType());
    int64_t rank = type.getRank();
    Value data = operands[0];
    bool reflect = mode == "reflect";
    return SmallVector<Value>{
        linalg::GenericOp::create(
            b, loc, TypeRange{type}, ValueRange{},
            ValueRange{tensor::EmptyOp::create(b, loc, type.getShape(),
                                               type.getElementType())
                           .getResult()},
            {AffineMap::getMultiDimIdentityMap(rank, b.getContext())},
            SmallVector<utils::IteratorType>(rank,
                                             utils::IteratorType::parallel),
            [&](OpBuilder &nb, Location l, ValueRange) {
              SmallVector<Value> indices;
              for (int64_t d = 0; d < rank; ++d) {
                int64_t n = in.getDimSize(d);
                Value j = arith::SubIOp::create(
                    nb, l, linalg::IndexOp::create(nb, l, d),
                    arith::ConstantIndexOp::create(nb, l, low[d]));
                Value zero = arith::ConstantIndexOp::create(nb, l, 0);
                Value last = arith::ConstantIndexOp::create(nb, l, n - 1);
                Value below = arith::CmpIOp::create(
                    nb, l, arith::CmpIPredicate::slt, j, zero);
                Value above = arith::CmpIOp::create(
                    nb, l, arith::CmpIPredicate::sgt, j, last);
                Value lowSource =
                    reflect ? Value(arith::SubIOp::create(nb, l, zero, j))
                            : zero;
                Value highSource = reflect ? Value(arith::SubIOp::create(
                                                 nb, l,
                                                 arith::ConstantIndexOp::create(
                                                     nb, l, 2 * (n - 1)),
                                                 j))
                                           : last;
                Value k = arith::SelectOp::create(nb, l, below, lowSource, j);
                indices.push_back(
                    arith::SelectOp::create(nb, l, above, highSource, k));
              }
              linalg::YieldOp::create(
                  nb, l,
                  Value(tensor::ExtractOp::create(nb, l, data, indices)));
            })
            .getResult(0)};
  }
  if (mode != "constant")
    return failure();
  Value value = tensor::ExtractOp::create(b, loc, operands[1], ValueRange{});
  return SmallVector<Value>{tensor::PadOp::create(
      b, loc, type, operands[0], getAsIndexOpFoldResult(b.getContext(), low),
      getAsIndexOpFoldResult(b.getContext(), high), value)};
}

/// A convolution with constant weights multiplies transposed where padding
/// its spatial size would add this share of work (in percent) or more, or
/// any padding when each output sums this many products or more (enough
/// to pay for transposing the result back).
constexpr int64_t kMinPaddingToTranspose = 15;
constexpr int64_t kMinKToTranspose = 1024;

/// out[f, p] = sum_k w[f, k] * col[k, p] for one image and one group, a
/// 2-d product whose result buffer is fresh (so register tiles stay in
/// registers along k), expanded to the NCHW result. A spatial size that is
/// not a multiple of the vector width is padded with zero columns so that
/// every vector is whole; the padding is sliced off. Where that would waste
/// much (7x7: 49 -> 64 columns) or k is long (ResNet-18's and VGG-16's
/// 14x14 layers and 7-row bands of 28x28 ones: 196 -> 208 columns, which
/// also made the register tiles 8x16) and the weights are constant, the
/// product is transposed instead,
///   outT[p, fo, fi] = sum_k col[k, p] * packed[fo, k, fi]
/// with the weights packed at compile time into panels of 32 (or 16)
/// channels, each contiguous along k: the channels are the vectors, the
/// positions rows of 7-row register tiles (no padding), each register tile
/// streams its weight panel sequentially, and the PxF result is transposed
/// back (a small copy). ResNet-18 22.6 -> 20.5 ms, VGG-16 175 -> 167 ms,
/// MobileNet-V2 6.7 -> 6.2 ms at one thread.
Value conv2dSingleImageProduct(OpBuilder &b, Location loc,
                               RankedTensorType type, Value col, Value w) {
  MLIRContext *ctx = b.getContext();
  Type e = type.getElementType();
  w = tensor::CollapseShapeOp::create(
      b, loc, w, SmallVector<ReassociationIndices>{{0, 1}, {2}});
  col = tensor::CollapseShapeOp::create(
      b, loc, col, SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
  int64_t f = cast<RankedTensorType>(w.getType()).getDimSize(0);
  auto ct = cast<RankedTensorType>(col.getType());
  int64_t k = ct.getDimSize(0), p = ct.getDimSize(1);
  constexpr int64_t kLanes = 16;
  int64_t padded = (p + kLanes - 1) / kLanes * kLanes;
  bool transpose = (padded - p) * 100 >= p * kMinPaddingToTranspose ||
                   (padded != p && k >= kMinKToTranspose);
  int64_t lanes = f % 32 == 0 ? 32 : kLanes;
  if (transpose && f % kLanes == 0)
    if (Value packed = packedConstantMatrix(b, loc, w, lanes)) {
      // Loops (p, fo, fi, k): outT[p, fo, fi] = sum_k col[k, p] *
      // packed[fo, k, fi].
      Value outT =
          contract(b, loc, RankedTensorType::get({p, f / lanes, lanes}, e),
                   ValueRange{col, packed}, 4,
                   {map(ctx, 4, {3, 0}), map(ctx, 4, {1, 3, 2}),
                    map(ctx, 4, {0, 1, 2})});
      outT = tensor::CollapseShapeOp::create(
          b, loc, outT, SmallVector<ReassociationIndices>{{0}, {1, 2}});
      Value init = tensor::EmptyOp::create(b, loc, {f, p}, e);
      Value out =
          linalg::TransposeOp::create(b, loc, outT, init, {1, 0})->getResult(0);
      return tensor::ExpandShapeOp::create(
          b, loc, type, out, SmallVector<ReassociationIndices>{{0, 1}, {2, 3}});
    }
  if (padded != p)
    col = tensor::PadOp::create(b, loc, RankedTensorType::get({k, padded}, e),
                                col, getAsIndexOpFoldResult(ctx, {0, 0}),
                                getAsIndexOpFoldResult(ctx, {0, padded - p}),
                                constantScalar(b, loc, e, 0));
  // Loops (f, p, k).
  Value out = contract(
      b, loc, RankedTensorType::get({f, padded}, e), ValueRange{w, col}, 3,
      {map(ctx, 3, {0, 2}), map(ctx, 3, {2, 1}), map(ctx, 3, {0, 1})});
  if (padded != p)
    out = tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get({f, p}, e), out, ValueRange{},
        ValueRange{}, ValueRange{}, b.getDenseI64ArrayAttr({0, 0}),
        b.getDenseI64ArrayAttr({f, p}), b.getDenseI64ArrayAttr({1, 1}));
  return tensor::ExpandShapeOp::create(
      b, loc, type, out, SmallVector<ReassociationIndices>{{0, 1}, {2, 3}});
}
} // namespace

namespace mlir::relay::lowering {

/// The most kernel taps an im2col matrix is copied in tap by tap.
constexpr int64_t kMaxIm2colTaps = 64;

/// The most bytes of im2col matrix built at once: a larger one is built
/// and multiplied a band of output rows at a time, so that each band's
/// columns are still in cache when the product reads them (VGG-16's first
/// layers would otherwise write and re-read 115 MB per convolution).
constexpr int64_t kIm2colBandBytes = 1 << 20;

/// The output rows per band of a convolution with `k` = C*KH*KW taps per
/// output position: the most that divide `oh` and keep the band's im2col
/// matrix (f32) within kIm2colBandBytes; `oh` when the whole matrix is
/// within twice that.
int64_t im2colBandRows(int64_t k, int64_t oh, int64_t ow) {
  int64_t rowBytes = k * ow * 4;
  if (rowBytes * oh <= 2 * kIm2colBandBytes)
    return oh;
  for (int64_t rows = std::min(oh, kIm2colBandBytes / rowBytes); rows > 1;
       --rows)
    if (oh % rows == 0)
      return rows;
  return 1;
}

/// The most bytes of a band's product (f32) in productBandRows: the band
/// stays in the L2 cache for the op that reads it next.
constexpr int64_t kProductBandBytes = 128 << 10;

/// The output rows per band of a convolution of one image with `f` output
/// channels: the most rows that divide `oh` whose product
/// is whole vectors (a multiple of 32 columns, else of 16) and within
/// kProductBandBytes; 0 (no bands) when the whole product is within that
/// or no band fits. --relay-fuse-elementwise moves the elementwise op after
/// the convolution (bias, activation) into the band loop: it then reads
/// each band from the cache, not the whole result from memory.
int64_t productBandRows(int64_t f, int64_t oh, int64_t ow) {
  if (f * oh * ow * 4 <= kProductBandBytes)
    return 0;
  for (int64_t quantum : {32, 16})
    for (int64_t rows = oh - 1; rows >= 1; --rows)
      if (oh % rows == 0 && rows * ow % quantum == 0 &&
          f * rows * ow * 4 <= kProductBandBytes)
        return rows;
  return 0;
}

/// The most bytes of the image read by every channel band of a 1x1
/// convolution (conv2dInChannelBands): it stays in the L2 cache.
constexpr int64_t kChannelBandInputBytes = 512 << 10;

/// conv2dNchwAsProduct (1x1, stride 1) of one image as an scf.for over
/// bands of `channels` output channels, each multiplying its rows of the
/// weights by the whole image and inserted into the result. The bands
/// match the channel blocks of a depthwise convolution of the same planes
/// (channelBlock), whose loop --relay-fuse-elementwise then merges with
/// this one: each block of the expanded image is convolved while it is in
/// the cache (MobileNet's inverted residual blocks).
Value conv2dInChannelBands(OpBuilder &b, Location loc, RankedTensorType type,
                           Value data, Value weight, int64_t channels) {
  auto wt = cast<RankedTensorType>(weight.getType());
  int64_t f = type.getDimSize(1);
  auto bandType = RankedTensorType::get(
      {1, channels, type.getDimSize(2), type.getDimSize(3)},
      type.getElementType());
  SmallVector<int64_t> wSizes(wt.getShape());
  wSizes[0] = channels;
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  scf::ForOp loop = loopOp(
      b, loc, f, channels, init, [&](OpBuilder &lb, Value f0, Value acc) {
        OpFoldResult zero = lb.getIndexAttr(0);
        Value w = sliceAt(lb, loc, weight, {f0, zero, zero, zero}, wSizes);
        Value band = conv2dNchwAsProduct(lb, loc, bandType, data, w,
                                         /*groups=*/1, {1, 1}, {1, 1});
        return insertAt(lb, loc, band, acc, {zero, f0, zero, zero},
                        bandType.getShape());
      });
  // The bands are independent: with threads they run in parallel.
  loop->setAttr(kIndependentIterationsAttr, b.getUnitAttr());
  return loop.getResult(0);
}

/// conv2dNchwAsProduct of one image, one group, as an scf.for over bands
/// of `rows` output rows: each band convolves the slice of input rows it
/// reads and is inserted into the result.
Value conv2dInRowBands(OpBuilder &b, Location loc, RankedTensorType type,
                       Value data, Value weight, ArrayRef<int64_t> s,
                       ArrayRef<int64_t> d, int64_t rows) {
  auto in = cast<RankedTensorType>(data.getType());
  int64_t kh = cast<RankedTensorType>(weight.getType()).getDimSize(2);
  int64_t inRows = (rows - 1) * s[0] + (kh - 1) * d[0] + 1;
  auto sliceType = RankedTensorType::get(
      {in.getDimSize(0), in.getDimSize(1), inRows, in.getDimSize(3)},
      in.getElementType());
  auto bandType = RankedTensorType::get(
      {type.getDimSize(0), type.getDimSize(1), rows, type.getDimSize(3)},
      type.getElementType());
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  auto loop = scf::ForOp::create(
      b, loc, index(0), index(type.getDimSize(2)), index(rows),
      ValueRange{init},
      [&](OpBuilder &lb, Location l, Value row, ValueRange acc) {
        Value inRow =
            s[0] == 1
                ? row
                : arith::MulIOp::create(
                      lb, l, row, arith::ConstantIndexOp::create(lb, l, s[0]))
                      .getResult();
        OpFoldResult zero = lb.getIndexAttr(0), one = lb.getIndexAttr(1);
        SmallVector<OpFoldResult> unit(4, one);
        Value slice = tensor::ExtractSliceOp::create(
            lb, l, sliceType, data,
            SmallVector<OpFoldResult>{zero, zero, inRow, zero},
            getAsIndexOpFoldResult(lb.getContext(), sliceType.getShape()),
            unit);
        Value band = conv2dNchwAsProduct(lb, l, bandType, slice, weight,
                                         /*groups=*/1, s, d);
        Value out = tensor::InsertSliceOp::create(
            lb, l, band, acc[0],
            SmallVector<OpFoldResult>{zero, zero, row, zero},
            getAsIndexOpFoldResult(lb.getContext(), bandType.getShape()), unit);
        scf::YieldOp::create(lb, l, out);
      });
  // The bands are independent: with threads, --relay-to-llvm runs them in
  // parallel (--relay-parallelize-loops).
  loop->setAttr(kIndependentIterationsAttr, b.getUnitAttr());
  return loop.getResult(0);
}

/// Grouped NCHW/OIHW convolution of float tensors as a matrix product
/// (im2col), so it is tiled and vectorised like a matmul:
///   col[n, g, c, kh, kw, oh, ow] = data[n, g*Cg + c, oh*sh + kh*dh,
///                                       ow*sw + kw*dw]
///   out[n, g, f, p] = sum_k weight[g, f, k] * col[n, g, k, p]
/// with k = (c, kh, kw) and p = (oh, ow) collapsed. A 1x1 stride-1
/// convolution reads the data directly (no copy).
Value conv2dNchwAsProduct(OpBuilder &b, Location loc, RankedTensorType type,
                          Value data, Value weight, int64_t groups,
                          ArrayRef<int64_t> s, ArrayRef<int64_t> d,
                          bool bands) {
  MLIRContext *ctx = b.getContext();
  auto in = cast<RankedTensorType>(data.getType());
  auto wt = cast<RankedTensorType>(weight.getType());
  Type e = type.getElementType();
  int64_t n = in.getDimSize(0), c = in.getDimSize(1);
  int64_t f = wt.getDimSize(0), kh = wt.getDimSize(2), kw = wt.getDimSize(3);
  int64_t oh = type.getDimSize(2), ow = type.getDimSize(3);
  int64_t g = groups, cg = c / g, fg = f / g, p = oh * ow;
  bool direct = kh == 1 && kw == 1 && s[0] == 1 && s[1] == 1 &&
                in.getDimSize(2) == oh && in.getDimSize(3) == ow;
  // A 1x1 convolution whose image stays in the L2 cache goes in bands of
  // output channels (whole vectors along the positions).
  if (bands && direct && n == 1 && g == 1 && p % 16 == 0 &&
      c * p * 4 <= kChannelBandInputBytes && f * p * 4 > kProductBandBytes)
    if (int64_t channels = channelBlock(f, p * 4); channels < f)
      return conv2dInChannelBands(b, loc, type, data, weight, channels);
  // Bands of rows: an im2col matrix built band by band within 1 MB, and
  // products within 128 KB, whichever bands are smaller.
  if (bands && n == 1 && g == 1) {
    int64_t rows = direct ? oh : im2colBandRows(c * kh * kw, oh, ow);
    if (int64_t productRows = productBandRows(f, oh, ow))
      rows = std::min(rows, productRows);
    if (rows < oh)
      return conv2dInRowBands(b, loc, type, data, weight, s, d, rows);
  }
  Value col;
  if (direct) {
    col = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get({n, g, cg, oh, ow}, e), data,
        SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
    col = tensor::CollapseShapeOp::create(
        b, loc, col, SmallVector<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
  } else if (kh * kw > kMaxIm2colTaps) {
    // Large kernels (a ViT's 16x16 patches): one generic copy.
    AffineExpr dn, dg, dc, dkh, dkw, doh, dow;
    bindDims(ctx, dn, dg, dc, dkh, dkw, doh, dow);
    AffineMap read = AffineMap::get(
        7, 0,
        {dn, dg * cg + dc, doh * s[0] + dkh * d[0], dow * s[1] + dkw * d[1]},
        ctx);
    col = copyThroughMap(b, loc, data, {n, g, cg, kh, kw, oh, ow}, read);
    col = tensor::CollapseShapeOp::create(
        b, loc, col,
        SmallVector<ReassociationIndices>{{0}, {1}, {2, 3, 4}, {5, 6}});
  } else {
    // One copy per kernel tap of the image's strided view into the tap's
    // plane of col: rows of the view are contiguous (unit column stride)
    // and the copies vectorise; a generic reading data at oh*s + kh*d would
    // not. (A chain of many insertions is slow to bufferize: large kernels
    // take the generic above.)
    SmallVector<int64_t> colShape{n, g, cg, kh, kw, oh, ow};
    col = tensor::EmptyOp::create(b, loc, colShape, e);
    auto viewType = RankedTensorType::get({n, c, oh, ow}, e);
    auto tapType = RankedTensorType::get({n, g, cg, oh, ow}, e);
    StridePhases phases(b, loc, data, s, d, kh, kw);
    for (int64_t i = 0; i < kh; ++i)
      for (int64_t j = 0; j < kw; ++j) {
        Value view = phases.tapView(b, loc, i, j, viewType);
        Value tap = tensor::ExpandShapeOp::create(
            b, loc, tapType, view,
            SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
        col = tensor::InsertSliceOp::create(
            b, loc, tap, col, ValueRange{}, ValueRange{}, ValueRange{},
            b.getDenseI64ArrayAttr({0, 0, 0, i, j, 0, 0}),
            b.getDenseI64ArrayAttr({n, g, cg, 1, 1, oh, ow}),
            b.getDenseI64ArrayAttr({1, 1, 1, 1, 1, 1, 1}));
      }
    col = tensor::CollapseShapeOp::create(
        b, loc, col,
        SmallVector<ReassociationIndices>{{0}, {1}, {2, 3, 4}, {5, 6}});
  }
  Value w = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({g, fg, cg, kh, kw}, e), weight,
      SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
  w = tensor::CollapseShapeOp::create(
      b, loc, w, SmallVector<ReassociationIndices>{{0}, {1}, {2, 3, 4}});
  if (n == 1 && g == 1)
    return conv2dSingleImageProduct(b, loc, type, col, w);
  // Loops (n, g, f, p, k).
  Value out = contract(b, loc, RankedTensorType::get({n, g, fg, p}, e),
                       ValueRange{w, col}, 5,
                       {map(ctx, 5, {1, 2, 4}), map(ctx, 5, {0, 1, 4, 3}),
                        map(ctx, 5, {0, 1, 2, 3})});
  out = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({n, g, fg, oh, ow}, e), out,
      SmallVector<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
  return tensor::CollapseShapeOp::create(
      b, loc, type, out,
      SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
}
} // namespace mlir::relay::lowering

namespace {

/// Depthwise NCHW convolution (one input and one output channel per group)
/// of a padded float image, directly: one elementwise generic over the
/// output sums, for each kernel tap, a strided view of the image (no copy)
/// times the tap's weight per channel, so it vectorises along the output
/// row like any elementwise op (im2col would copy the image KH*KW times for
/// products with k = KH*KW).
Value depthwiseConv2dNchw(OpBuilder &b, Location loc, RankedTensorType type,
                          Value data, Value weight, ArrayRef<int64_t> s,
                          ArrayRef<int64_t> d) {
  MLIRContext *ctx = b.getContext();
  auto wt = cast<RankedTensorType>(weight.getType());
  Type e = type.getElementType();
  int64_t n = type.getDimSize(0), c = type.getDimSize(1);
  int64_t oh = type.getDimSize(2), ow = type.getDimSize(3);
  int64_t kh = wt.getDimSize(2), kw = wt.getDimSize(3);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  AffineMap id = AffineMap::getMultiDimIdentityMap(4, ctx);
  AffineMap channel = map(ctx, 4, {1});
  auto viewType = RankedTensorType::get({n, c, oh, ow}, e);
  auto tapType = RankedTensorType::get({c}, e);
  StridePhases phases(b, loc, data, s, d, kh, kw);
  for (int64_t i = 0; i < kh; ++i)
    for (int64_t j = 0; j < kw; ++j) {
      inputs.push_back(phases.tapView(b, loc, i, j, viewType));
      maps.push_back(id);
      inputs.push_back(tensor::ExtractSliceOp::create(
          b, loc, tapType, weight, ValueRange{}, ValueRange{}, ValueRange{},
          b.getDenseI64ArrayAttr({0, 0, i, j}),
          b.getDenseI64ArrayAttr({c, 1, 1, 1}),
          b.getDenseI64ArrayAttr({1, 1, 1, 1})));
      maps.push_back(channel);
    }
  maps.push_back(id);
  Value out = tensor::EmptyOp::create(b, loc, type.getShape(), e);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, inputs, ValueRange{out}, maps,
             SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange a) {
               // Fused multiply-adds: LLVM does not contract a separate
               // multiply and add (no fast-math flags).
               Value acc = arith::MulFOp::create(nb, l, a[0], a[1]);
               for (size_t t = 2; t + 1 < a.size(); t += 2)
                 acc = math::FmaOp::create(nb, l, a[t], a[t + 1], acc);
               linalg::YieldOp::create(nb, l, acc);
             })
      .getResult(0);
}

/// NHWC/HWIO convolution of float tensors as one matrix product:
///   col[n, oh, ow, kh, kw, c] = data[n, oh*sh + kh*dh, ow*sw + kw*dw, c]
///   out[(n, oh, ow), f] = sum_(kh, kw, c) col[.., (kh, kw, c)] w[(kh,kw,c), f]
Value conv2dNhwcAsProduct(OpBuilder &b, Location loc, RankedTensorType type,
                          Value data, Value weight, ArrayRef<int64_t> s,
                          ArrayRef<int64_t> d) {
  MLIRContext *ctx = b.getContext();
  auto in = cast<RankedTensorType>(data.getType());
  auto wt = cast<RankedTensorType>(weight.getType());
  Type e = type.getElementType();
  int64_t n = in.getDimSize(0), c = in.getDimSize(3);
  int64_t kh = wt.getDimSize(0), kw = wt.getDimSize(1), f = wt.getDimSize(3);
  int64_t oh = type.getDimSize(1), ow = type.getDimSize(2);
  AffineExpr dn, doh, dow, dkh, dkw, dc;
  bindDims(ctx, dn, doh, dow, dkh, dkw, dc);
  AffineMap read = AffineMap::get(
      6, 0, {dn, doh * s[0] + dkh * d[0], dow * s[1] + dkw * d[1], dc}, ctx);
  Value col = copyThroughMap(b, loc, data, {n, oh, ow, kh, kw, c}, read);
  col = tensor::CollapseShapeOp::create(
      b, loc, col, SmallVector<ReassociationIndices>{{0, 1, 2}, {3, 4, 5}});
  Value w = tensor::CollapseShapeOp::create(
      b, loc, weight, SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
  // Loops (m, f, k).
  Value out = contract(
      b, loc, RankedTensorType::get({n * oh * ow, f}, e), ValueRange{col, w}, 3,
      {map(ctx, 3, {0, 2}), map(ctx, 3, {2, 1}), map(ctx, 3, {0, 1})});
  return tensor::ExpandShapeOp::create(
      b, loc, type, out, SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
}

/// A batch of NCHW images (already padded) convolved one after another as
/// single images, which get the single-image product (fresh result buffer,
/// transposed products, row bands); the batched product over (n, f, p, k)
/// was 4x slower.
Value convImageByImage(OpBuilder &b, Location loc, RankedTensorType type,
                       Value data, Value weight, ArrayRef<int64_t> s,
                       ArrayRef<int64_t> d) {
  auto resultType = RankedTensorType::get(
      {1, type.getDimSize(1), type.getDimSize(2), type.getDimSize(3)},
      type.getElementType());
  return eachImage(b, loc, type, data, [&](OpBuilder &ib, Value image) {
    return conv2dNchwAsProduct(ib, loc, resultType, image, weight,
                               /*groups=*/1, s, d);
  });
}

/// Whether the result of the 1x1 convolution `conv` goes, through
/// elementwise ops of its type (bias, activation; these may read it more
/// than once, as a SiLU does), only into the image of a depthwise
/// convolution that depthwiseConvInRows convolves in row bands:
/// --relay-fuse-elementwise computes the image window by window in those
/// bands, so the convolution is not banded itself.
bool feedsDepthwiseRowBands(Operation *conv) {
  // Only a 1x1 stride-1 convolution is one plain product whose windows
  // upstream's fusion can compute (an im2col one builds its matrix by
  // insertions).
  auto weight = dyn_cast<RankedTensorType>(conv->getOperand(1).getType());
  if (!weight || weight.getRank() != 4 || weight.getDimSize(2) != 1 ||
      weight.getDimSize(3) != 1 || intAttr(conv, "groups", 1) != 1 ||
      llvm::any_of(intsAttr(conv, "strides", {1, 1}),
                   [](int64_t s) { return s != 1; }) ||
      llvm::any_of(padding4(conv), [](int64_t p) { return p != 0; }))
    return false;
  static constexpr llvm::StringLiteral kElementwise[] = {
      "relay.nn.bias_add", "relay.add",     "relay.multiply",
      "relay.subtract",    "relay.clip",    "relay.nn.relu",
      "relay.maximum",     "relay.minimum", "relay.sigmoid"};
  // The elementwise ops after the convolution form a small graph of values
  // of its type (a SiLU reads the biased product twice) with one way out.
  auto image = dyn_cast<RankedTensorType>(conv->getResult(0).getType());
  llvm::SetVector<Value> chain;
  chain.insert(conv->getResult(0));
  auto joins = [&](Operation *user) {
    return llvm::is_contained(kElementwise, user->getName().getStringRef()) &&
           user->getNumResults() == 1 &&
           user->getResult(0).getType() == image &&
           // Its operands of the image's type come from the chain.
           llvm::all_of(user->getOperands(), [&](Value operand) {
             return operand.getType() != image || chain.contains(operand);
           });
  };
  for (bool grew = true; grew && chain.size() <= 8;) {
    grew = false;
    for (size_t i = 0; i < chain.size(); ++i)
      for (Operation *user : chain[i].getUsers())
        if (joins(user) && !chain.contains(user->getResult(0)))
          grew |= chain.insert(user->getResult(0));
  }
  // Exactly one use leaves the chain.
  OpOperand *exitUse = nullptr;
  for (Value v : chain)
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (user->getNumResults() == 1 && chain.contains(user->getResult(0)))
        continue;
      if (exitUse)
        return false;
      exitUse = &use;
    }
  if (!exitUse)
    return false;
  Operation *exit = exitUse->getOwner();
  // The way out: the image of a depthwise convolution in row bands.
  if (exit->getName().getStringRef() != "relay.nn.conv2d" ||
      exitUse->getOperandNumber() != 0)
    return false;
  SmallVector<int64_t> s = intsAttr(exit, "strides", {1, 1});
  auto kernel = dyn_cast<RankedTensorType>(exit->getOperand(1).getType());
  return image && kernel && s.size() == 2 && s[0] == s[1] &&
         intAttr(exit, "groups", 1) == image.getDimSize(1) &&
         kernel.getShape() == ArrayRef<int64_t>{image.getDimSize(1), 1, 3, 3} &&
         llvm::all_of(padding4(exit), [](int64_t p) { return p == 1; }) &&
         llvm::all_of(intsAttr(exit, "dilation", {1, 1}),
                      [](int64_t d) { return d == 1; }) &&
         strAttr(exit, "data_layout", "NCHW") == "NCHW" &&
         depthwiseRowBandRows(image, s[0]) > 0;
}

FailureOr<SmallVector<Value>> conv2dRule(OpBuilder &b, Operation *op,
                                         ValueRange operands) {
  RankedTensorType type = resultType(op);
  int64_t groups = intAttr(op, "groups", 1);
  if (!type || !strAttr(op, "out_layout", "").empty())
    return failure();
  StringRef dl = strAttr(op, "data_layout", "NCHW");
  StringRef kl = strAttr(op, "kernel_layout", "OIHW");
  bool nchw = dl == "NCHW" && kl == "OIHW";
  bool nhwc = dl == "NHWC" && kl == "HWIO";
  if ((!nchw && !nhwc) || (nhwc && groups != 1))
    return failure();
  SmallVector<int64_t> s = intsAttr(op, "strides", {1, 1});
  SmallVector<int64_t> d = intsAttr(op, "dilation", {1, 1});
  SmallVector<int64_t> p = padding4(op);
  if (s.size() == 1)
    s.push_back(s[0]);
  if (d.size() == 1)
    d.push_back(d[0]);
  Location loc = op->getLoc();
  Value data = operands[0];
  Type e = type.getElementType();
  if (nchw && groups == 1 && s[0] == 1 && s[1] == 1 && d[0] == 1 && d[1] == 1)
    if (Value out = winogradConv2d(b, loc, type, data, operands[1], p))
      return SmallVector<Value>{out};
  auto unpadded = cast<RankedTensorType>(data.getType());
  if (nchw && groups > 1 && groups == unpadded.getDimSize(1) &&
      groups == type.getDimSize(1))
    if (Value out =
            depthwiseConvInRows(b, loc, type, data, operands[1], s, d, p))
      return SmallVector<Value>{out};
  data = padImage(b, loc, data, p, nchw ? 2 : 1, nchw ? 3 : 2,
                  constantScalar(b, loc, e, 0));
  // Float convolutions become matrix products; mixed-type ones (int8 data
  // into int32) use the named ops.
  auto in = cast<RankedTensorType>(data.getType());
  bool sameFloat =
      isa<FloatType>(e) && in.getElementType() == e &&
      cast<RankedTensorType>(operands[1].getType()).getElementType() == e;
  bool depthwise =
      groups > 1 && groups == in.getDimSize(1) && groups == type.getDimSize(1);
  if (sameFloat && nchw && depthwise)
    return SmallVector<Value>{
        depthwiseConv2dNchw(b, loc, type, data, operands[1], s, d)};
  if (sameFloat && nchw && type.getDimSize(0) > 1 && groups == 1)
    return SmallVector<Value>{
        convImageByImage(b, loc, type, data, operands[1], s, d)};
  if (sameFloat && nchw)
    return SmallVector<Value>{
        conv2dNchwAsProduct(b, loc, type, data, operands[1], groups, s, d,
                            /*bands=*/!feedsDepthwiseRowBands(op))};
  if (sameFloat)
    return SmallVector<Value>{
        conv2dNhwcAsProduct(b, loc, type, data, operands[1], s, d)};
  if (groups != 1)
    return failure();
  Value zero = constantScalar(b, loc, e, 0);
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(), e);
  Value init = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  auto strides = b.getI64TensorAttr(s);
  auto dilations = b.getI64TensorAttr(d);
  if (nchw)
    return SmallVector<Value>{
        linalg::Conv2DNchwFchwOp::create(b, loc, TypeRange{type},
                                         ValueRange{data, operands[1]},
                                         ValueRange{init}, strides, dilations)
            .getResult(0)};
  return SmallVector<Value>{
      linalg::Conv2DNhwcHwcfOp::create(b, loc, TypeRange{type},
                                       ValueRange{data, operands[1]},
                                       ValueRange{init}, strides, dilations)
          .getResult(0)};
}

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

/// zeros / ones / full / *_like: a filled tensor of the result type.
Rule fillRule(std::optional<double> value) {
  return [value](OpBuilder &b, Operation *op,
                 ValueRange operands) -> FailureOr<SmallVector<Value>> {
    RankedTensorType type = resultType(op);
    if (!type || !type.hasStaticShape())
      return failure();
    Location loc = op->getLoc();
    Type e = type.getElementType();
    Value scalar;
    if (value) {
      scalar = constantScalar(b, loc, e, *value);
    } else {
      Value fill = operands.back();
      if (cast<RankedTensorType>(fill.getType()).getElementType() != e)
        return failure();
      scalar = tensor::ExtractOp::create(b, loc, fill, ValueRange{});
    }
    Value empty = tensor::EmptyOp::create(b, loc, type.getShape(), e);
    return SmallVector<Value>{
        linalg::FillOp::create(b, loc, scalar, empty).getResult(0)};
  };
}

Value select(OpBuilder &b, Location l, Value c, Value x, Value y) {
  return arith::SelectOp::create(b, l, c, x, y);
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

/// split: one static slice per piece of the tuple result.
FailureOr<SmallVector<Value>> splitRule(OpBuilder &b, Operation *op,
                                        ValueRange operands) {
  auto tuple = dyn_cast<TupleType>(op->getResult(0).getType());
  auto in = cast<RankedTensorType>(operands[0].getType());
  if (!tuple)
    return failure();
  int64_t axis = intAttr(op, "axis", 0);
  if (axis < 0)
    axis += in.getRank();
  SmallVector<Value> pieces;
  int64_t offset = 0;
  for (Type t : tuple.getTypes()) {
    auto piece = cast<RankedTensorType>(t);
    SmallVector<int64_t> offsets(in.getRank(), 0), strides(in.getRank(), 1);
    offsets[axis] = offset;
    // An empty piece reads nothing (its offset may be past the end).
    pieces.push_back(
        piece.getNumElements() == 0
            ? Value(tensor::EmptyOp::create(b, op->getLoc(), piece.getShape(),
                                            in.getElementType()))
            : Value(tensor::ExtractSliceOp::create(
                  b, op->getLoc(), piece, operands[0], ValueRange{},
                  ValueRange{}, ValueRange{}, offsets, piece.getShape(),
                  strides)));
    offset += piece.getDimSize(axis);
  }
  return pieces;
}

/// concatenate and stack (the tuple's fields are the operands): each input
/// inserted at its offset along `axis`.
FailureOr<SmallVector<Value>> concatenateRule(OpBuilder &b, Operation *op,
                                              ValueRange operands) {
  RankedTensorType type = resultType(op);
  if (!type)
    return failure();
  int64_t axis = intAttr(op, "axis", 0);
  if (axis < 0)
    axis += type.getRank();
  Location loc = op->getLoc();
  Value out =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  bool stack = isa<StackOp>(op);
  int64_t offset = 0;
  for (Value v : operands) {
    auto in = cast<RankedTensorType>(v.getType());
    // stack inserts each input as a slice of size 1 along the new axis.
    SmallVector<int64_t> sizes(in.getShape());
    if (stack)
      sizes.insert(sizes.begin() + axis, 1);
    SmallVector<int64_t> offsets(type.getRank(), 0), strides(type.getRank(), 1);
    offsets[axis] = offset;
    out = tensor::InsertSliceOp::create(b, loc, v, out, ValueRange{},
                                        ValueRange{}, ValueRange{}, offsets,
                                        sizes, strides);
    offset += sizes[axis];
  }
  return SmallVector<Value>{out};
}

/// take (batch_dims = 0): a gather. Each output element reads its index
/// from `indices` and then the element of `data`; indices are clamped
/// ("clip", and "fast", whose out-of-range behaviour TVM leaves undefined:
/// compiled code never reads outside `data`) or wrapped ("wrap").
FailureOr<SmallVector<Value>> takeRule(OpBuilder &b, Operation *op,
                                       ValueRange operands) {
  RankedTensorType type = resultType(op);
  if (!type || intAttr(op, "batch_dims", 0) != 0)
    return failure();
  Location loc = op->getLoc();
  MLIRContext *ctx = b.getContext();
  Value data = operands[0];
  auto dataType = cast<RankedTensorType>(data.getType());
  auto idxType = cast<RankedTensorType>(operands[1].getType());
  if (dataType.getRank() == 0)
    return failure();
  bool flat = !getOperatorAttributes(op).get("axis");
  if (flat && dataType.getRank() != 1) {
    SmallVector<ReassociationIndices> all(1);
    for (int64_t d = 0; d < dataType.getRank(); ++d)
      all[0].push_back(d);
    data = tensor::CollapseShapeOp::create(b, loc, data, all);
    dataType = cast<RankedTensorType>(data.getType());
  }
  int64_t axis = flat ? 0 : intAttr(op, "axis", 0);
  if (axis < 0)
    axis += dataType.getRank();
  int64_t extent = dataType.getDimSize(axis);
  int64_t ri = idxType.getRank(), rank = type.getRank();
  bool wrap = strAttr(op, "mode", "clip") == "wrap";
  // out = data[:axis] + indices + data[axis+1:]
  SmallVector<AffineExpr> idxExprs;
  for (int64_t d = 0; d < ri; ++d)
    idxExprs.push_back(getAffineDimExpr(axis + d, ctx));
  AffineMap idxMap = AffineMap::get(rank, 0, idxExprs, ctx);
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return SmallVector<Value>{
      linalg::GenericOp::create(
          b, loc, TypeRange{type}, operands[1], init,
          {idxMap, AffineMap::getMultiDimIdentityMap(rank, ctx)},
          SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
          [&](OpBuilder &nb, Location l, ValueRange a) {
            Value i =
                arith::IndexCastOp::create(nb, l, nb.getIndexType(), a[0]);
            Value n = arith::ConstantIndexOp::create(nb, l, extent);
            Value zero = arith::ConstantIndexOp::create(nb, l, 0);
            if (wrap) {
              Value r = arith::RemSIOp::create(nb, l, i, n);
              Value neg = arith::CmpIOp::create(
                  nb, l, arith::CmpIPredicate::slt, r, zero);
              i = arith::SelectOp::create(
                  nb, l, neg, arith::AddIOp::create(nb, l, r, n), r);
            } else {
              Value last = arith::ConstantIndexOp::create(nb, l, extent - 1);
              i = arith::MaxSIOp::create(
                  nb, l, arith::MinSIOp::create(nb, l, i, last), zero);
            }
            SmallVector<Value> index;
            for (int64_t d = 0; d < axis; ++d)
              index.push_back(linalg::IndexOp::create(nb, l, d));
            index.push_back(i);
            for (int64_t d = axis + ri; d < rank; ++d)
              index.push_back(linalg::IndexOp::create(nb, l, d));
            linalg::YieldOp::create(
                nb, l,
                tensor::ExtractOp::create(nb, l, data, index).getResult());
          })
          .getResult(0)};
}

/// argmax/argmin: the index (int32 by default) of the first extreme along
/// the reduced axes (their linear index when several).
/// gather: each output element reads data at its own index with the axis
/// coordinate from `indices` (negative counts from the end). An index out
/// of range is a located run-time error, as in the interpreter: a
/// reduction over the indices checks them first.
FailureOr<SmallVector<Value>> gatherRule(OpBuilder &b, Operation *op,
                                         ValueRange operands) {
  RankedTensorType type = resultType(op);
  auto in = cast<RankedTensorType>(operands[0].getType());
  if (!type || !type.hasStaticShape() || !in.hasStaticShape())
    return failure();
  int64_t axis = intAttr(op, "axis", 0);
  if (axis < 0)
    axis += in.getRank();
  int64_t extent = in.getDimSize(axis);
  Value data = operands[0], indices = operands[1];
  bool isUnsigned = isUnsignedValue(op->getOperand(1));
  Location loc = op->getLoc();
  MLIRContext *ctx = b.getContext();
  auto indexType = cast<RankedTensorType>(indices.getType());
  int64_t rank = indexType.getRank();
  Type it = indexType.getElementType();
  Value flagInit = filledTensor(
      b, loc, {}, arith::ConstantOp::create(b, loc, b.getBoolAttr(false)));
  Value anyOut =
      linalg::GenericOp::create(
          b, loc, TypeRange{flagInit.getType()}, ValueRange{indices},
          ValueRange{flagInit},
          {AffineMap::getMultiDimIdentityMap(rank, ctx),
           AffineMap::get(rank, 0, {}, ctx)},
          SmallVector<utils::IteratorType>(rank,
                                           utils::IteratorType::reduction),
          [&](OpBuilder &nb, Location l, ValueRange a) {
            Value high = arith::CmpIOp::create(
                nb, l,
                isUnsigned ? arith::CmpIPredicate::uge
                           : arith::CmpIPredicate::sge,
                a[0], constantScalar(nb, l, it, double(extent)));
            Value bad = high;
            if (!isUnsigned)
              bad = arith::OrIOp::create(
                  nb, l, high,
                  arith::CmpIOp::create(
                      nb, l, arith::CmpIPredicate::slt, a[0],
                      constantScalar(nb, l, it, -double(extent))));
            linalg::YieldOp::create(
                nb, l, arith::OrIOp::create(nb, l, a[1], bad).getResult());
          })
          .getResult(0);
  Value outOfRange = tensor::ExtractOp::create(b, loc, anyOut, ValueRange{});
  auto check = scf::IfOp::create(b, loc, outOfRange, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(check.thenBlock());
    RuntimeCalls rt(op->getParentOfType<ModuleOp>());
    rt.fail(b, loc,
            describeLocation(loc) + "\tgather: an index is out of range [-" +
                std::to_string(extent) + ", " + std::to_string(extent) + ")");
  }
  return SmallVector<Value>{generateTensor(
      b, op->getLoc(), type, [&](OpBuilder &nb, Location l, ValueRange i) {
        Value raw = tensor::ExtractOp::create(nb, l, indices, i);
        Type it = raw.getType();
        Value zero = constantScalar(nb, l, it, 0);
        Value size = constantScalar(nb, l, it, double(extent));
        if (!isUnsigned) {
          Value negative = arith::CmpIOp::create(
              nb, l, arith::CmpIPredicate::slt, raw, zero);
          raw = arith::SelectOp::create(
              nb, l, negative, arith::AddIOp::create(nb, l, raw, size), raw);
          raw = arith::MaxSIOp::create(nb, l, raw, zero);
        }
        Value index =
            arith::IndexCastUIOp::create(nb, l, nb.getIndexType(), raw);
        index = arith::MinUIOp::create(
            nb, l, index, arith::ConstantIndexOp::create(nb, l, extent - 1));
        SmallVector<Value> at(i);
        at[axis] = index;
        return tensor::ExtractOp::create(nb, l, data, at).getResult();
      })};
}

FailureOr<SmallVector<Value>> argRule(OpBuilder &b, Operation *op,
                                      ValueRange operands, bool isMax) {
  RankedTensorType type = resultType(op);
  auto in = cast<RankedTensorType>(operands[0].getType());
  if (!type || !isa<IntegerType>(type.getElementType()))
    return failure();
  // Ties keep the first index, or with select_last_index the last one (the
  // reduction visits the elements in order).
  bool last =
      getOperatorAttributes(op).get("select_last_index") == b.getBoolAttr(true);
  Location loc = op->getLoc();
  MLIRContext *ctx = b.getContext();
  int64_t rank = in.getRank();
  llvm::SmallBitVector reduced = reducedAxes(op, rank, std::nullopt);
  SmallVector<AffineExpr> outExprs;
  SmallVector<int64_t> outShape;
  SmallVector<utils::IteratorType> iters;
  for (int64_t d = 0; d < rank; ++d) {
    iters.push_back(reduced[d] ? utils::IteratorType::reduction
                               : utils::IteratorType::parallel);
    if (!reduced[d]) {
      outExprs.push_back(getAffineDimExpr(d, ctx));
      outShape.push_back(in.getDimSize(d));
    }
  }
  Type e = in.getElementType(), it = type.getElementType();
  Value best =
      linalg::FillOp::create(
          b, loc, constantScalar(b, loc, e, isMax ? -INFINITY : INFINITY),
          tensor::EmptyOp::create(b, loc, outShape, e).getResult())
          .getResult(0);
  Value index = linalg::FillOp::create(
                    b, loc, constantScalar(b, loc, it, 0),
                    tensor::EmptyOp::create(b, loc, outShape, it).getResult())
                    .getResult(0);
  AffineMap outMap = AffineMap::get(rank, 0, outExprs, ctx);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{best.getType(), index.getType()}, operands[0],
      ValueRange{best, index},
      {AffineMap::getMultiDimIdentityMap(rank, ctx), outMap, outMap}, iters,
      [&](OpBuilder &nb, Location l, ValueRange a) {
        // The linear index over the reduced dims.
        Value linear = arith::ConstantIndexOp::create(nb, l, 0);
        for (int64_t d = 0; d < rank; ++d) {
          if (!reduced[d])
            continue;
          linear = arith::AddIOp::create(
              nb, l,
              arith::MulIOp::create(
                  nb, l, linear,
                  arith::ConstantIndexOp::create(nb, l, in.getDimSize(d))),
              linalg::IndexOp::create(nb, l, d));
        }
        Value i = arith::IndexCastOp::create(nb, l, it, linear);
        Value better;
        if (isa<FloatType>(e))
          better =
              arith::CmpFOp::create(nb, l,
                                    isMax ? (last ? arith::CmpFPredicate::OGE
                                                  : arith::CmpFPredicate::OGT)
                                          : (last ? arith::CmpFPredicate::OLE
                                                  : arith::CmpFPredicate::OLT),
                                    a[0], a[1]);
        else
          better = arith::CmpIOp::create(
              nb, l,
              unsignedFor(e, isMax ? (last ? arith::CmpIPredicate::sge
                                           : arith::CmpIPredicate::sgt)
                                   : (last ? arith::CmpIPredicate::sle
                                           : arith::CmpIPredicate::slt)),
              a[0], a[1]);
        linalg::YieldOp::create(
            nb, l,
            ValueRange{arith::SelectOp::create(nb, l, better, a[0], a[1]),
                       arith::SelectOp::create(nb, l, better, i, a[2])});
      });
  Value result = generic.getResult(1);
  if (cast<RankedTensorType>(result.getType()) != type) {
    // keepdims: the same elements in the result's shape.
    result = reshapeStatic(b, loc, result, type);
  }
  return SmallVector<Value>{result};
}

/// strided_slice (static): out[i] = in[first + i * step] per axis, any
/// step sign, as an affine read.
FailureOr<SmallVector<Value>> stridedSliceRule(OpBuilder &b, Operation *op,
                                               ValueRange operands) {
  RankedTensorType type = resultType(op);
  auto in = cast<RankedTensorType>(operands[0].getType());
  if (!type)
    return failure();
  int64_t rank = in.getRank();
  SmallVector<int64_t> begin = intsAttr(op, "begin", {});
  SmallVector<int64_t> strides = intsAttr(op, "strides", {1});
  SmallVector<int64_t> axes = intsAttr(op, "axes", {});
  if (axes.empty())
    for (int64_t i = 0; i < static_cast<int64_t>(begin.size()); ++i)
      axes.push_back(i);
  SmallVector<int64_t> first(rank, 0), step(rank, 1);
  for (auto [i, a] : llvm::enumerate(axes)) {
    int64_t axis = a < 0 ? a + rank : a;
    int64_t s = strides.size() == 1  ? strides[0]
                : i < strides.size() ? strides[i]
                                     : 1;
    int64_t n = in.getDimSize(axis);
    int64_t f = i < begin.size() ? begin[i] : (s > 0 ? 0 : n - 1);
    if (f < 0)
      f += n;
    // Clamp like the relation does.
    f = s > 0 ? std::clamp<int64_t>(f, 0, n)
              : std::clamp<int64_t>(f, -1, n - 1);
    first[axis] = f;
    step[axis] = s;
  }
  // Forward steps are a strided view (tensor.extract_slice); dimensions
  // walked backwards are then read reversed by a generic over the view.
  Location loc = op->getLoc();
  SmallVector<int64_t> offsets(rank, 0), sizes(in.getShape()),
      viewStrides(rank, 1);
  bool backwards = false;
  for (int64_t d = 0; d < rank; ++d) {
    if (step[d] < 0) {
      backwards = true;
      continue;
    }
    offsets[d] = first[d];
    sizes[d] = type.getDimSize(d);
    viewStrides[d] = step[d];
  }
  // An empty result reads nothing (its offsets may be past the end).
  if (type.getNumElements() == 0)
    return SmallVector<Value>{tensor::EmptyOp::create(b, loc, type.getShape(),
                                                      type.getElementType())};
  Value view = tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get(sizes, type.getElementType()), operands[0],
      ValueRange{}, ValueRange{}, ValueRange{}, b.getDenseI64ArrayAttr(offsets),
      b.getDenseI64ArrayAttr(sizes), b.getDenseI64ArrayAttr(viewStrides));
  if (!backwards)
    return SmallVector<Value>{view};
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    exprs.push_back(step[d] < 0 ? getAffineDimExpr(d, ctx) * step[d] + first[d]
                                : getAffineDimExpr(d, ctx));
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return SmallVector<Value>{
      linalg::GenericOp::create(
          b, loc, TypeRange{type}, view, init,
          {AffineMap::get(rank, 0, exprs, ctx),
           AffineMap::getMultiDimIdentityMap(rank, ctx)},
          SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
          [](OpBuilder &nb, Location l, ValueRange a) {
            linalg::YieldOp::create(nb, l, a[0]);
          })
          .getResult(0)};
}

/// The vector `v` (bias_add's bias, prelu's slopes) reshaped to [C, 1, ...]
/// so that it broadcasts along `op`'s `axis` (default 1).
Value alongAxis(OpBuilder &b, Operation *op, Value v) {
  RankedTensorType type = resultType(op);
  int64_t axis = intAttr(op, "axis", 1);
  if (axis < 0)
    axis += type.getRank();
  SmallVector<int64_t> shape(type.getRank() - axis, 1);
  shape[0] = type.getShape()[axis];
  Location loc = op->getLoc();
  return reshapeStatic(b, loc, v,
                       RankedTensorType::get(shape, type.getElementType()));
}

void registerLowerings() {
  llvm::StringMap<Rule> rules;
  rules["add"] = pointwise(binop<arith::AddFOp, arith::AddIOp>());
  rules["subtract"] = pointwise(binop<arith::SubFOp, arith::SubIOp>());
  rules["multiply"] = pointwise(binop<arith::MulFOp, arith::MulIOp>());
  rules["divide"] = pointwise(
      arith2([](OpBuilder &b, Location l, Value x,
                Value y) -> Value { return arith::DivFOp::create(b, l, x, y); },
             [](OpBuilder &b, Location l, Value x, Value y) -> Value {
               if (isUnsignedLike(x.getType()))
                 return arith::DivUIOp::create(b, l, x, y);
               return arith::DivSIOp::create(b, l, x, y);
             }));
  rules["maximum"] = pointwise(arith2(
      [](OpBuilder &b, Location l, Value x, Value y) -> Value {
        return arith::MaximumFOp::create(b, l, x, y);
      },
      integerMax));
  rules["minimum"] = pointwise(arith2(
      [](OpBuilder &b, Location l, Value x, Value y) -> Value {
        return arith::MinimumFOp::create(b, l, x, y);
      },
      integerMin));
  rules["power"] = pointwise(
      arith2([](OpBuilder &b, Location l, Value x,
                Value y) -> Value { return math::PowFOp::create(b, l, x, y); },
             integerPower));
  rules["equal"] =
      pointwise(compare(arith::CmpFPredicate::OEQ, arith::CmpIPredicate::eq));
  rules["not_equal"] =
      pointwise(compare(arith::CmpFPredicate::UNE, arith::CmpIPredicate::ne));
  rules["less"] =
      pointwise(compare(arith::CmpFPredicate::OLT, arith::CmpIPredicate::slt));
  rules["less_equal"] =
      pointwise(compare(arith::CmpFPredicate::OLE, arith::CmpIPredicate::sle));
  rules["greater"] =
      pointwise(compare(arith::CmpFPredicate::OGT, arith::CmpIPredicate::sgt));
  rules["greater_equal"] =
      pointwise(compare(arith::CmpFPredicate::OGE, arith::CmpIPredicate::sge));
  rules["logical_and"] = pointwise(binop<arith::AndIOp, arith::AndIOp>());
  rules["logical_or"] = pointwise(binop<arith::OrIOp, arith::OrIOp>());
  rules["logical_xor"] = pointwise(binop<arith::XOrIOp, arith::XOrIOp>());
  rules["bitwise_and"] =
      pointwise(arith2(nullptr, [](OpBuilder &b, Location l, Value x, Value y) {
        return arith::AndIOp::create(b, l, x, y).getResult();
      }));
  rules["bitwise_or"] =
      pointwise(arith2(nullptr, [](OpBuilder &b, Location l, Value x, Value y) {
        return arith::OrIOp::create(b, l, x, y).getResult();
      }));
  rules["bitwise_xor"] =
      pointwise(arith2(nullptr, [](OpBuilder &b, Location l, Value x, Value y) {
        return arith::XOrIOp::create(b, l, x, y).getResult();
      }));
  rules["left_shift"] =
      pointwise(arith2(nullptr, [](OpBuilder &b, Location l, Value x, Value y) {
        return arith::ShLIOp::create(b, l, x, y).getResult();
      }));
  rules["right_shift"] =
      pointwise(arith2(nullptr, [](OpBuilder &b, Location l, Value x, Value y) {
        if (isUnsignedLike(x.getType()))
          return arith::ShRUIOp::create(b, l, x, y).getResult();
        return arith::ShRSIOp::create(b, l, x, y).getResult();
      }));
  rules["logical_not"] =
      pointwise([](OpBuilder &b, Location l, ValueRange a) -> Value {
        Value one = arith::ConstantOp::create(b, l, b.getBoolAttr(true));
        return arith::XOrIOp::create(b, l, a[0], one);
      });
  rules["bitwise_not"] =
      pointwise([](OpBuilder &b, Location l, ValueRange a) -> Value {
        if (!isa<IntegerType>(a[0].getType()))
          return Value();
        Value ones = arith::ConstantOp::create(
            b, l, b.getIntegerAttr(a[0].getType(), -1));
        return arith::XOrIOp::create(b, l, a[0], ones);
      });
  rules["log2"] = pointwise(floatUnary<math::Log2Op>());
  rules["log10"] = pointwise(floatUnary<math::Log10Op>());
  rules["trunc"] = pointwise(floatUnary<math::TruncOp>());
  rules["sign"] = pointwise([](OpBuilder &b, Location l,
                               ValueRange a) -> Value {
    Type t = a[0].getType();
    Value zero = constantScalar(b, l, t, 0);
    Value one = constantScalar(b, l, t, 1), minus = constantScalar(b, l, t, -1);
    Value pos, neg;
    if (isa<FloatType>(t)) {
      pos = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, a[0], zero);
      neg = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, a[0], zero);
    } else {
      pos = arith::CmpIOp::create(
          b, l, unsignedFor(t, arith::CmpIPredicate::sgt), a[0], zero);
      neg = arith::CmpIOp::create(
          b, l, unsignedFor(t, arith::CmpIPredicate::slt), a[0], zero);
    }
    return arith::SelectOp::create(
        b, l, pos, one, arith::SelectOp::create(b, l, neg, minus, zero));
  });
  auto remainder = [](OpBuilder &b, Location l, Value x, Value y) -> Value {
    if (isUnsignedLike(x.getType()))
      return arith::RemUIOp::create(b, l, x, y);
    return arith::RemSIOp::create(b, l, x, y);
  };
  rules["mod"] = pointwise(
      arith2([](OpBuilder &b, Location l, Value x,
                Value y) -> Value { return arith::RemFOp::create(b, l, x, y); },
             remainder));
  rules["floor_mod"] = pointwise(arith2(
      [](OpBuilder &b, Location l, Value x, Value y) -> Value {
        // x - floor(x / y) * y
        Value q =
            math::FloorOp::create(b, l, arith::DivFOp::create(b, l, x, y));
        return arith::SubFOp::create(b, l, x,
                                     arith::MulFOp::create(b, l, q, y));
      },
      [remainder](OpBuilder &b, Location l, Value x, Value y) -> Value {
        // The remainder takes the divisor's sign (unsigned: plain).
        if (isUnsignedLike(x.getType()))
          return remainder(b, l, x, y);
        Value r = arith::RemSIOp::create(b, l, x, y);
        Value zero =
            arith::ConstantOp::create(b, l, b.getZeroAttr(x.getType()));
        Value nonzero =
            arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, r, zero);
        Value differ = arith::XOrIOp::create(
            b, l,
            arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, r, zero),
            arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, y, zero));
        Value fix = arith::AndIOp::create(b, l, nonzero, differ);
        return arith::SelectOp::create(b, l, fix,
                                       arith::AddIOp::create(b, l, r, y), r);
      }));
  rules["floor_divide"] = pointwise(arith2(
      [](OpBuilder &b, Location l, Value x, Value y) -> Value {
        return math::FloorOp::create(b, l, arith::DivFOp::create(b, l, x, y));
      },
      [](OpBuilder &b, Location l, Value x, Value y) -> Value {
        if (isUnsignedLike(x.getType()))
          return arith::DivUIOp::create(b, l, x, y);
        return arith::FloorDivSIOp::create(b, l, x, y);
      }));
  rules["exp"] = pointwise(floatUnary<math::ExpOp>());
  rules["log"] = pointwise(floatUnary<math::LogOp>());
  rules["sqrt"] = pointwise(floatUnary<math::SqrtOp>());
  rules["rsqrt"] = pointwise(floatUnary<math::RsqrtOp>());
  rules["tanh"] = pointwise(floatUnary<math::TanhOp>());
  rules["erf"] = pointwise(floatUnary<math::ErfOp>());
  rules["sin"] = pointwise(floatUnary<math::SinOp>());
  rules["cos"] = pointwise(floatUnary<math::CosOp>());
  rules["tan"] = pointwise(floatUnary<math::TanOp>());
  rules["asin"] = pointwise(floatUnary<math::AsinOp>());
  rules["acos"] = pointwise(floatUnary<math::AcosOp>());
  rules["atan"] = pointwise(floatUnary<math::AtanOp>());
  rules["sinh"] = pointwise(floatUnary<math::SinhOp>());
  rules["cosh"] = pointwise(floatUnary<math::CoshOp>());
  rules["asinh"] = pointwise(floatUnary<math::AsinhOp>());
  rules["acosh"] = pointwise(floatUnary<math::AcoshOp>());
  rules["atanh"] = pointwise(floatUnary<math::AtanhOp>());
  rules["floor"] = pointwise(floatUnary<math::FloorOp>());
  rules["ceil"] = pointwise(floatUnary<math::CeilOp>());
  rules["round"] = pointwise(floatUnary<math::RoundEvenOp>());
  rules["abs"] = pointwise(floatUnary<math::AbsFOp>());
  rules["negative"] = pointwise(floatUnary<arith::NegFOp>());
  rules["copy"] =
      pointwise([](OpBuilder &, Location, ValueRange a) { return a[0]; });
  rules["sigmoid"] = pointwise([](OpBuilder &b, Location l, ValueRange a) {
    if (!isa<FloatType>(a[0].getType()))
      return Value();
    Value one = constantScalar(b, l, a[0].getType(), 1.0);
    Value e = math::ExpOp::create(b, l, arith::NegFOp::create(b, l, a[0]));
    return arith::DivFOp::create(b, l, one, arith::AddFOp::create(b, l, one, e))
        .getResult();
  });
  rules["nn.relu"] = pointwise([](OpBuilder &b, Location l, ValueRange a) {
    if (!isa<FloatType>(a[0].getType()))
      return Value();
    Value zero = constantScalar(b, l, a[0].getType(), 0.0);
    return arith::MaximumFOp::create(b, l, a[0], zero).getResult();
  });
  rules["where"] = pointwise([](OpBuilder &b, Location l, ValueRange a) {
    return select(b, l, a[0], a[1], a[2]);
  });
  rules["nn.bias_add"] =
      [](OpBuilder &b, Operation *op,
         ValueRange operands) -> FailureOr<SmallVector<Value>> {
    Value bias = alongAxis(b, op, operands[1]);
    return elementwise(b, op, {operands[0], bias},
                       [](OpBuilder &nb, Location l, ValueRange a) -> Value {
                         if (isa<FloatType>(a[0].getType()))
                           return arith::AddFOp::create(nb, l, a[0], a[1]);
                         return arith::AddIOp::create(nb, l, a[0], a[1]);
                       });
  };
  rules["nn.prelu"] = [](OpBuilder &b, Operation *op,
                         ValueRange operands) -> FailureOr<SmallVector<Value>> {
    // x where positive, else alpha (one slope per channel of `axis`) * x.
    Value alpha = alongAxis(b, op, operands[1]);
    return elementwise(
        b, op, {operands[0], alpha},
        [](OpBuilder &nb, Location l, ValueRange a) -> Value {
          if (!isa<FloatType>(a[0].getType()))
            return Value();
          Value zero = constantScalar(nb, l, a[0].getType(), 0);
          Value pos = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OGT,
                                            a[0], zero);
          return select(nb, l, pos, a[0],
                        arith::MulFOp::create(nb, l, a[0], a[1]));
        });
  };
  rules["clip"] = [](OpBuilder &b, Operation *op,
                     ValueRange operands) -> FailureOr<SmallVector<Value>> {
    double lo = floatAttr(op, "a_min", 0), hi = floatAttr(op, "a_max", 0);
    return pointwise([lo, hi](OpBuilder &nb, Location l, ValueRange a) {
      if (!isa<FloatType>(a[0].getType()))
        return Value();
      Value x = arith::MaximumFOp::create(
          nb, l, a[0], constantScalar(nb, l, a[0].getType(), lo));
      return arith::MinimumFOp::create(
                 nb, l, x, constantScalar(nb, l, a[0].getType(), hi))
          .getResult();
    })(b, op, operands);
  };
  rules["nn.leaky_relu"] =
      [](OpBuilder &b, Operation *op,
         ValueRange operands) -> FailureOr<SmallVector<Value>> {
    double alpha = floatAttr(op, "alpha", 0.25);
    return pointwise([alpha](OpBuilder &nb, Location l, ValueRange a) {
      if (!isa<FloatType>(a[0].getType()))
        return Value();
      Value zero = constantScalar(nb, l, a[0].getType(), 0);
      Value scaled = arith::MulFOp::create(
          nb, l, a[0], constantScalar(nb, l, a[0].getType(), alpha));
      Value pos =
          arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OGT, a[0], zero);
      return select(nb, l, pos, a[0], scaled);
    })(b, op, operands);
  };
  auto maxf = [](OpBuilder &b, Location l, Value x, Value acc) -> Value {
    return isa<FloatType>(x.getType())
               ? arith::MaximumFOp::create(b, l, x, acc).getResult()
               : integerMax(b, l, x, acc);
  };
  auto minf = [](OpBuilder &b, Location l, Value x, Value acc) -> Value {
    return isa<FloatType>(x.getType())
               ? arith::MinimumFOp::create(b, l, x, acc).getResult()
               : integerMin(b, l, x, acc);
  };
  auto addf = [](OpBuilder &b, Location l, Value x, Value acc) -> Value {
    return isa<FloatType>(x.getType())
               ? arith::AddFOp::create(b, l, x, acc).getResult()
               : arith::AddIOp::create(b, l, x, acc).getResult();
  };
  auto mulf = [](OpBuilder &b, Location l, Value x, Value acc) -> Value {
    return isa<FloatType>(x.getType())
               ? arith::MulFOp::create(b, l, x, acc).getResult()
               : arith::MulIOp::create(b, l, x, acc).getResult();
  };
  rules["sum"] = reduction(addf, 0, false);
  rules["mean"] = reduction(addf, 0, true);
  rules["max"] = reduction(maxf, -INFINITY, false);
  rules["min"] = reduction(minf, INFINITY, false);
  rules["prod"] = reduction(mulf, 1, false);
  rules["all"] = reduction(
      [](OpBuilder &b, Location l, Value x, Value acc) -> Value {
        return arith::AndIOp::create(b, l, x, acc);
      },
      1, false);
  rules["any"] = reduction(
      [](OpBuilder &b, Location l, Value x, Value acc) -> Value {
        return arith::OrIOp::create(b, l, x, acc);
      },
      0, false);
  rules["argmax"] = [](OpBuilder &b, Operation *op, ValueRange ops) {
    return argRule(b, op, ops, /*isMax=*/true);
  };
  rules["argmin"] = [](OpBuilder &b, Operation *op, ValueRange ops) {
    return argRule(b, op, ops, /*isMax=*/false);
  };
  rules["strided_slice"] = stridedSliceRule;
  rules["broadcast_to"] = pointwise(
      [](OpBuilder &, Location, ValueRange a) -> Value { return a[0]; });
  rules["nn.global_max_pool2d"] =
      [maxf](OpBuilder &b, Operation *op,
             ValueRange operands) -> FailureOr<SmallVector<Value>> {
    if (strAttr(op, "layout", "NCHW") != "NCHW")
      return failure();
    return reduction(maxf, -INFINITY, false,
                     SmallVector<int64_t>{2, 3})(b, op, operands);
  };
  for (StringRef name : {"reshape", "reshape_like", "squeeze", "expand_dims",
                         "nn.batch_flatten"})
    rules[name] = reshapeRule;
  rules["transpose"] = transposeRule;
  rules["cast"] = castRule;
  rules["nn.pad"] = padRule;
  rules["nn.max_pool2d"] = [](OpBuilder &b, Operation *op, ValueRange ops) {
    return poolRule(b, op, ops, /*isMax=*/true);
  };
  rules["nn.avg_pool2d"] = [](OpBuilder &b, Operation *op, ValueRange ops) {
    return poolRule(b, op, ops, /*isMax=*/false);
  };
  rules["nn.dense"] = denseRule;
  rules["nn.matmul"] = matmulRule;
  rules["nn.batch_matmul"] = batchMatmulRule;
  rules["nn.conv2d"] = conv2dRule;
  rules["nn.batch_norm"] = batchNormRule;
  rules["split"] = splitRule;
  rules["take"] = takeRule;
  rules["gather"] = gatherRule;
  rules["concatenate"] = concatenateRule;
  rules["stack"] = concatenateRule;
  rules["nn.dropout"] =
      [](OpBuilder &b, Operation *op,
         ValueRange operands) -> FailureOr<SmallVector<Value>> {
    // Inference: the identity and a mask of ones (as the interpreter).
    auto type = cast<RankedTensorType>(operands[0].getType());
    Location loc = op->getLoc();
    Value one = constantScalar(b, loc, type.getElementType(), 1);
    Value empty =
        tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
    return SmallVector<Value>{
        operands[0], linalg::FillOp::create(b, loc, one, empty).getResult(0)};
  };
  rules["nn.softmax"] = [](OpBuilder &b, Operation *op, ValueRange ops) {
    return softmaxRule(b, op, ops, false);
  };
  rules["nn.log_softmax"] = [](OpBuilder &b, Operation *op, ValueRange ops) {
    return softmaxRule(b, op, ops, true);
  };
  rules["zeros"] = rules["zeros_like"] = fillRule(0.0);
  rules["ones"] = rules["ones_like"] = fillRule(1.0);
  rules["full"] = rules["full_like"] = fillRule(std::nullopt);
  rules["nn.global_avg_pool2d"] =
      [](OpBuilder &b, Operation *op,
         ValueRange operands) -> FailureOr<SmallVector<Value>> {
    if (strAttr(op, "layout", "NCHW") != "NCHW")
      return failure();
    // A mean over H and W, keeping them.
    return reduction(
        [](OpBuilder &nb, Location l, Value x, Value acc) -> Value {
          return arith::AddFOp::create(nb, l, x, acc);
        },
        0, true, SmallVector<int64_t>{2, 3})(b, op, operands);
  };
  addNNLowerings(rules);
  addLayoutTransformLowering(rules);
  for (auto &entry : rules) {
    Rule rule = entry.getValue();
    (void)updateOperator(("relay." + entry.getKey()).str(),
                         [&](OperatorInfo &info) { info.lowering = rule; });
  }
}
} // namespace

void mlir::relay::registerOperatorLowerings() {
  static std::once_flag once;
  std::call_once(once, registerLowerings);
}

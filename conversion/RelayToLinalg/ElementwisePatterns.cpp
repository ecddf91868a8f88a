//===- ElementwisePatterns.cpp - Elementwise operators to linalg ----------===//
//
// Arithmetic, comparisons, logic, math functions, activations, bias_add,
// prelu, where, cast, copy and broadcast_to: one linalg.generic over the
// result shape with numpy broadcasting, its body the scalar computation
// (integers signed or unsigned as the Relay types say).
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
using Rule = LoweringRuleFn;

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

/// cast between numeric dtypes.
FailureOr<SmallVector<Value>> castRule(OpBuilder &b, Operation *op,
                                       ValueRange operands) {
  RankedTensorType type = resultType(op);
  Type to = type.getElementType();
  // Signedness comes from the Relay types (lowered integers are signless).
  bool fromUnsigned = isUnsignedValue(op->getOperand(0));
  bool toUnsigned = isUnsignedValue(op->getResult(0));
  return elementwise(b, op, operands,
                     [to, fromUnsigned, toUnsigned](OpBuilder &nb, Location l,
                                                    ValueRange a) -> Value {
                       return convertScalar(nb, l, a[0], to, fromUnsigned,
                                            toUnsigned);
                     });
}

/// reinterpret: each element's bits as the result's (same-width) type.
FailureOr<SmallVector<Value>> reinterpretRule(OpBuilder &b, Operation *op,
                                              ValueRange operands) {
  Type to = resultType(op).getElementType();
  return elementwise(b, op, operands,
                     [to](OpBuilder &nb, Location l, ValueRange a) -> Value {
                       return arith::BitcastOp::create(nb, l, to, a[0]);
                     });
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

} // namespace

void mlir::relay::populateRelayElementwiseToLinalgPatterns(
    RelayTypeConverter &converter, RewritePatternSet &patterns) {
  addOperatorRule<AddOp>(converter, patterns,
                         pointwise(binop<arith::AddFOp, arith::AddIOp>()));
  addOperatorRule<SubtractOp>(converter, patterns,
                              pointwise(binop<arith::SubFOp, arith::SubIOp>()));
  addOperatorRule<MultiplyOp>(converter, patterns,
                              pointwise(binop<arith::MulFOp, arith::MulIOp>()));
  addOperatorRule<DivideOp>(
      converter, patterns,
      pointwise(arith2(
          [](OpBuilder &b, Location l, Value x, Value y) -> Value {
            return arith::DivFOp::create(b, l, x, y);
          },
          [](OpBuilder &b, Location l, Value x, Value y) -> Value {
            if (isUnsignedLike(x.getType()))
              return arith::DivUIOp::create(b, l, x, y);
            return arith::DivSIOp::create(b, l, x, y);
          })));
  addOperatorRule<MaximumOp>(
      converter, patterns,
      pointwise(arith2(
          [](OpBuilder &b, Location l, Value x, Value y) -> Value {
            return arith::MaximumFOp::create(b, l, x, y);
          },
          integerMax)));
  addOperatorRule<MinimumOp>(
      converter, patterns,
      pointwise(arith2(
          [](OpBuilder &b, Location l, Value x, Value y) -> Value {
            return arith::MinimumFOp::create(b, l, x, y);
          },
          integerMin)));
  addOperatorRule<PowerOp>(
      converter, patterns,
      pointwise(arith2(
          [](OpBuilder &b, Location l, Value x, Value y) -> Value {
            return math::PowFOp::create(b, l, x, y);
          },
          integerPower)));
  addOperatorRule<EqualOp>(
      converter, patterns,
      pointwise(compare(arith::CmpFPredicate::OEQ, arith::CmpIPredicate::eq)));
  addOperatorRule<NotEqualOp>(
      converter, patterns,
      pointwise(compare(arith::CmpFPredicate::UNE, arith::CmpIPredicate::ne)));
  addOperatorRule<LessOp>(
      converter, patterns,
      pointwise(compare(arith::CmpFPredicate::OLT, arith::CmpIPredicate::slt)));
  addOperatorRule<LessEqualOp>(
      converter, patterns,
      pointwise(compare(arith::CmpFPredicate::OLE, arith::CmpIPredicate::sle)));
  addOperatorRule<GreaterOp>(
      converter, patterns,
      pointwise(compare(arith::CmpFPredicate::OGT, arith::CmpIPredicate::sgt)));
  addOperatorRule<GreaterEqualOp>(
      converter, patterns,
      pointwise(compare(arith::CmpFPredicate::OGE, arith::CmpIPredicate::sge)));
  addOperatorRule<LogicalAndOp>(
      converter, patterns, pointwise(binop<arith::AndIOp, arith::AndIOp>()));
  addOperatorRule<LogicalOrOp>(converter, patterns,
                               pointwise(binop<arith::OrIOp, arith::OrIOp>()));
  addOperatorRule<LogicalXorOp>(
      converter, patterns, pointwise(binop<arith::XOrIOp, arith::XOrIOp>()));
  addOperatorRule<BitwiseAndOp>(
      converter, patterns,
      pointwise(arith2(nullptr, [](OpBuilder &b, Location l, Value x, Value y) {
        return arith::AndIOp::create(b, l, x, y).getResult();
      })));
  addOperatorRule<BitwiseOrOp>(
      converter, patterns,
      pointwise(arith2(nullptr, [](OpBuilder &b, Location l, Value x, Value y) {
        return arith::OrIOp::create(b, l, x, y).getResult();
      })));
  addOperatorRule<BitwiseXorOp>(
      converter, patterns,
      pointwise(arith2(nullptr, [](OpBuilder &b, Location l, Value x, Value y) {
        return arith::XOrIOp::create(b, l, x, y).getResult();
      })));
  addOperatorRule<LeftShiftOp>(
      converter, patterns,
      pointwise(arith2(nullptr, [](OpBuilder &b, Location l, Value x, Value y) {
        return arith::ShLIOp::create(b, l, x, y).getResult();
      })));
  addOperatorRule<RightShiftOp>(
      converter, patterns,
      pointwise(arith2(nullptr, [](OpBuilder &b, Location l, Value x, Value y) {
        if (isUnsignedLike(x.getType()))
          return arith::ShRUIOp::create(b, l, x, y).getResult();
        return arith::ShRSIOp::create(b, l, x, y).getResult();
      })));
  addOperatorRule<LogicalNotOp>(
      converter, patterns,
      pointwise([](OpBuilder &b, Location l, ValueRange a) -> Value {
        Value one = arith::ConstantOp::create(b, l, b.getBoolAttr(true));
        return arith::XOrIOp::create(b, l, a[0], one);
      }));
  addOperatorRule<BitwiseNotOp>(
      converter, patterns,
      pointwise([](OpBuilder &b, Location l, ValueRange a) -> Value {
        if (!isa<IntegerType>(a[0].getType()))
          return Value();
        Value ones = arith::ConstantOp::create(
            b, l, b.getIntegerAttr(a[0].getType(), -1));
        return arith::XOrIOp::create(b, l, a[0], ones);
      }));
  addOperatorRule<Log2Op>(converter, patterns,
                          pointwise(floatUnary<math::Log2Op>()));
  addOperatorRule<Log10Op>(converter, patterns,
                           pointwise(floatUnary<math::Log10Op>()));
  addOperatorRule<TruncOp>(converter, patterns,
                           pointwise(floatUnary<math::TruncOp>()));
  addOperatorRule<SignOp>(
      converter, patterns,
      pointwise([](OpBuilder &b, Location l, ValueRange a) -> Value {
        Type t = a[0].getType();
        Value zero = constantScalar(b, l, t, 0);
        Value one = constantScalar(b, l, t, 1),
              minus = constantScalar(b, l, t, -1);
        Value pos, neg;
        if (isa<FloatType>(t)) {
          pos = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, a[0],
                                      zero);
          neg = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, a[0],
                                      zero);
        } else {
          pos = arith::CmpIOp::create(
              b, l, unsignedFor(t, arith::CmpIPredicate::sgt), a[0], zero);
          neg = arith::CmpIOp::create(
              b, l, unsignedFor(t, arith::CmpIPredicate::slt), a[0], zero);
        }
        return arith::SelectOp::create(
            b, l, pos, one, arith::SelectOp::create(b, l, neg, minus, zero));
      }));
  auto remainder = [](OpBuilder &b, Location l, Value x, Value y) -> Value {
    if (isUnsignedLike(x.getType()))
      return arith::RemUIOp::create(b, l, x, y);
    return arith::RemSIOp::create(b, l, x, y);
  };
  addOperatorRule<ModOp>(
      converter, patterns,
      pointwise(arith2(
          [](OpBuilder &b, Location l, Value x, Value y) -> Value {
            return arith::RemFOp::create(b, l, x, y);
          },
          remainder)));
  addOperatorRule<FloorModOp>(
      converter, patterns,
      pointwise(arith2(
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
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, y,
                                      zero));
            Value fix = arith::AndIOp::create(b, l, nonzero, differ);
            return arith::SelectOp::create(
                b, l, fix, arith::AddIOp::create(b, l, r, y), r);
          })));
  addOperatorRule<FloorDivideOp>(
      converter, patterns,
      pointwise(arith2(
          [](OpBuilder &b, Location l, Value x, Value y) -> Value {
            return math::FloorOp::create(b, l,
                                         arith::DivFOp::create(b, l, x, y));
          },
          [](OpBuilder &b, Location l, Value x, Value y) -> Value {
            if (isUnsignedLike(x.getType()))
              return arith::DivUIOp::create(b, l, x, y);
            return arith::FloorDivSIOp::create(b, l, x, y);
          })));
  addOperatorRule<ExpOp>(converter, patterns,
                         pointwise(floatUnary<math::ExpOp>()));
  addOperatorRule<LogOp>(converter, patterns,
                         pointwise(floatUnary<math::LogOp>()));
  addOperatorRule<SqrtOp>(converter, patterns,
                          pointwise(floatUnary<math::SqrtOp>()));
  addOperatorRule<RsqrtOp>(converter, patterns,
                           pointwise(floatUnary<math::RsqrtOp>()));
  addOperatorRule<TanhOp>(converter, patterns,
                          pointwise(floatUnary<math::TanhOp>()));
  addOperatorRule<ErfOp>(converter, patterns,
                         pointwise(floatUnary<math::ErfOp>()));
  addOperatorRule<SinOp>(converter, patterns,
                         pointwise(floatUnary<math::SinOp>()));
  addOperatorRule<CosOp>(converter, patterns,
                         pointwise(floatUnary<math::CosOp>()));
  addOperatorRule<TanOp>(converter, patterns,
                         pointwise(floatUnary<math::TanOp>()));
  addOperatorRule<AsinOp>(converter, patterns,
                          pointwise(floatUnary<math::AsinOp>()));
  addOperatorRule<AcosOp>(converter, patterns,
                          pointwise(floatUnary<math::AcosOp>()));
  addOperatorRule<AtanOp>(converter, patterns,
                          pointwise(floatUnary<math::AtanOp>()));
  addOperatorRule<SinhOp>(converter, patterns,
                          pointwise(floatUnary<math::SinhOp>()));
  addOperatorRule<CoshOp>(converter, patterns,
                          pointwise(floatUnary<math::CoshOp>()));
  addOperatorRule<AsinhOp>(converter, patterns,
                           pointwise(floatUnary<math::AsinhOp>()));
  addOperatorRule<AcoshOp>(converter, patterns,
                           pointwise(floatUnary<math::AcoshOp>()));
  addOperatorRule<AtanhOp>(converter, patterns,
                           pointwise(floatUnary<math::AtanhOp>()));
  addOperatorRule<FloorOp>(converter, patterns,
                           pointwise(floatUnary<math::FloorOp>()));
  addOperatorRule<CeilOp>(converter, patterns,
                          pointwise(floatUnary<math::CeilOp>()));
  addOperatorRule<RoundOp>(converter, patterns,
                           pointwise(floatUnary<math::RoundEvenOp>()));
  // Integers wrap as the interpreter's do: abs(INT_MIN) and -INT_MIN are
  // INT_MIN; an unsigned value is its own absolute value.
  addOperatorRule<AbsOp>(
      converter, patterns,
      pointwise([](OpBuilder &b, Location l, ValueRange a) -> Value {
        Type t = a[0].getType();
        if (isa<FloatType>(t))
          return math::AbsFOp::create(b, l, a[0]);
        if (!isa<IntegerType>(t))
          return Value();
        if (isUnsignedLike(t))
          return a[0];
        Value zero = constantScalar(b, l, t, 0);
        Value negative =
            arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, a[0], zero);
        return select(b, l, negative, arith::SubIOp::create(b, l, zero, a[0]),
                      a[0]);
      }));
  addOperatorRule<NegativeOp>(
      converter, patterns,
      pointwise([](OpBuilder &b, Location l, ValueRange a) -> Value {
        Type t = a[0].getType();
        if (isa<FloatType>(t))
          return arith::NegFOp::create(b, l, a[0]);
        if (!isa<IntegerType>(t))
          return Value();
        return arith::SubIOp::create(b, l, constantScalar(b, l, t, 0), a[0]);
      }));
  addOperatorRule<CopyOp>(
      converter, patterns,
      pointwise([](OpBuilder &, Location, ValueRange a) { return a[0]; }));
  addOperatorRule<SigmoidOp>(
      converter, patterns,
      pointwise([](OpBuilder &b, Location l, ValueRange a) {
        if (!isa<FloatType>(a[0].getType()))
          return Value();
        Value one = constantScalar(b, l, a[0].getType(), 1.0);
        Value e = math::ExpOp::create(b, l, arith::NegFOp::create(b, l, a[0]));
        return arith::DivFOp::create(b, l, one,
                                     arith::AddFOp::create(b, l, one, e))
            .getResult();
      }));
  addOperatorRule<ReluOp>(
      converter, patterns,
      pointwise([](OpBuilder &b, Location l, ValueRange a) {
        Value zero = constantScalar(b, l, a[0].getType(), 0.0);
        // Integers (quantized activations): max with 0, by signedness.
        if (isa<IntegerType>(a[0].getType()))
          return integerMax(b, l, a[0], zero);
        if (!isa<FloatType>(a[0].getType()))
          return Value();
        return arith::MaximumFOp::create(b, l, a[0], zero).getResult();
      }));
  addOperatorRule<WhereOp>(
      converter, patterns,
      pointwise([](OpBuilder &b, Location l, ValueRange a) {
        return select(b, l, a[0], a[1], a[2]);
      }));
  addOperatorRule<BiasAddOp>(
      converter, patterns,
      [](OpBuilder &b, Operation *op,
         ValueRange operands) -> FailureOr<SmallVector<Value>> {
        Value bias = alongAxis(b, op, operands[1]);
        return elementwise(
            b, op, {operands[0], bias},
            [](OpBuilder &nb, Location l, ValueRange a) -> Value {
              if (isa<FloatType>(a[0].getType()))
                return arith::AddFOp::create(nb, l, a[0], a[1]);
              return arith::AddIOp::create(nb, l, a[0], a[1]);
            });
      });
  addOperatorRule<PReluOp>(
      converter, patterns,
      [](OpBuilder &b, Operation *op,
         ValueRange operands) -> FailureOr<SmallVector<Value>> {
        // x where positive, else alpha (one slope per channel of `axis`) * x.
        Value alpha = alongAxis(b, op, operands[1]);
        return elementwise(
            b, op, {operands[0], alpha},
            [](OpBuilder &nb, Location l, ValueRange a) -> Value {
              if (!isa<FloatType>(a[0].getType()))
                return Value();
              Value zero = constantScalar(nb, l, a[0].getType(), 0);
              Value pos = arith::CmpFOp::create(
                  nb, l, arith::CmpFPredicate::OGT, a[0], zero);
              return select(nb, l, pos, a[0],
                            arith::MulFOp::create(nb, l, a[0], a[1]));
            });
      });
  addOperatorRule<ClipOp>(
      converter, patterns,
      [](OpBuilder &b, Operation *op,
         ValueRange operands) -> FailureOr<SmallVector<Value>> {
        double lo = floatAttr(op, "a_min", 0), hi = floatAttr(op, "a_max", 0);
        return pointwise([lo, hi](OpBuilder &nb, Location l, ValueRange a) {
          Type t = a[0].getType();
          if (isa<IntegerType>(t) && t.getIntOrFloatBitWidth() > 1) {
            // The bounds truncated (as TVM casts them to the dtype) and
            // saturated to the type's range.
            unsigned w = t.getIntOrFloatBitWidth();
            double typeLo = isUnsignedLike(t) ? 0 : -std::ldexp(1.0, w - 1);
            // (The largest double below 2^63 for 64 bits, which a double
            // cannot hold exactly.)
            double typeHi = w >= 64 ? std::nextafter(std::ldexp(1.0, 63), 0.0)
                            : isUnsignedLike(t) ? std::ldexp(1.0, w) - 1
                                                : std::ldexp(1.0, w - 1) - 1;
            auto bound = [&](double v) {
              return constantScalar(
                  nb, l, t, std::min(std::max(std::trunc(v), typeLo), typeHi));
            };
            return integerMin(nb, l, integerMax(nb, l, a[0], bound(lo)),
                              bound(hi));
          }
          if (!isa<FloatType>(a[0].getType()))
            return Value();
          Value x = arith::MaximumFOp::create(
              nb, l, a[0], constantScalar(nb, l, a[0].getType(), lo));
          return arith::MinimumFOp::create(
                     nb, l, x, constantScalar(nb, l, a[0].getType(), hi))
              .getResult();
        })(b, op, operands);
      });
  addOperatorRule<LeakyReluOp>(
      converter, patterns,
      [](OpBuilder &b, Operation *op,
         ValueRange operands) -> FailureOr<SmallVector<Value>> {
        double alpha = floatAttr(op, "alpha", 0.25);
        return pointwise([alpha](OpBuilder &nb, Location l, ValueRange a) {
          if (!isa<FloatType>(a[0].getType()))
            return Value();
          Value zero = constantScalar(nb, l, a[0].getType(), 0);
          Value scaled = arith::MulFOp::create(
              nb, l, a[0], constantScalar(nb, l, a[0].getType(), alpha));
          Value pos = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OGT,
                                            a[0], zero);
          return select(nb, l, pos, a[0], scaled);
        })(b, op, operands);
      });
  addOperatorRule<BroadcastToOp>(
      converter, patterns,
      pointwise(
          [](OpBuilder &, Location, ValueRange a) -> Value { return a[0]; }));
  patterns.add<RuleLowering<CastOp, castRule>>(converter,
                                               patterns.getContext());
  patterns.add<RuleLowering<ReinterpretOp, reinterpretRule>>(
      converter, patterns.getContext());
}

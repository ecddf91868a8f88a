//===- KernelsElementwise.cpp - Elementwise reference kernels ---*- C++ -*-===//
//
// Unary and broadcasting binary operators, comparisons, casts, the
// initialisers, where, and the per-channel and softmax operators. Floats
// are computed in double and rounded to their dtype; integers in int64 and
// wrapped to their width (C semantics: `divide` truncates, `floor_divide`
// floors).
//
//===----------------------------------------------------------------------===//

#include "runtime/Interpreter/Kernels.h"
#include "runtime/Interpreter/TensorBytes.h"

#include <cmath>
#include <type_traits>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

/// An elementwise unary kernel: `f` on floats, `i` (or `f` where none is
/// given) on integers. (Templates, not std::function: they are called per
/// element.)
template <typename FloatUnFn, typename IntUnFn = std::nullptr_t>
static KernelFn unary(FloatUnFn f, IntUnFn i = nullptr) {
  return [f, i](const KernelContext &ctx) -> FailureOr<ValuePtr> {
    (void)i; // Read only when IntUnFn is a function.
    const Tensor &in = ctx.input(0);
    auto type = ctx.resultTensorType();
    Tensor out(type.getElementType(), type.getShape());
    int64_t n = in.getNumElements();
    if constexpr (!std::is_same_v<IntUnFn, std::nullptr_t>) {
      if (!in.isFloat()) {
        for (int64_t k = 0; k < n; ++k)
          out.setI(k, i(in.getI(k)));
        return RuntimeValue::tensor(std::move(out));
      }
    }
    for (int64_t k = 0; k < n; ++k)
      out.setF(k, f(in.getF(k)));
    return RuntimeValue::tensor(std::move(out));
  };
}

/// `kernel`, or `unsigned64` where the first operand is a uint64 tensor
/// (whose elements past INT64_MAX are held as negative int64s).
static KernelFn onUnsigned64(KernelFn kernel, KernelFn unsigned64) {
  return [kernel, unsigned64](const KernelContext &ctx) {
    return ctx.input(0).isUnsigned64() ? unsigned64(ctx) : kernel(ctx);
  };
}

/// A broadcasting binary kernel: `f` (double, double) -> double on floats,
/// `i` (int64_t, int64_t) -> FailureOr<int64_t> on integers, which may fail
/// (division by zero), and `u` (uint64_t, uint64_t) on uint64 where its
/// result depends on signedness (for narrower unsigned dtypes the int64
/// values are the unsigned ones). Comparisons compute on the operands'
/// dtype and store into the bool result. (Templates, not std::function:
/// they are called per element.)
template <typename FloatBinFn, typename IntBinFn,
          typename UIntBinFn = std::nullptr_t>
static KernelFn binary(FloatBinFn f, IntBinFn i, UIntBinFn u = nullptr) {
  return [f, i, u](const KernelContext &ctx) -> FailureOr<ValuePtr> {
    (void)u; // Read only when UIntBinFn is a function.
    const Tensor &a = ctx.input(0), &b = ctx.input(1);
    auto type = ctx.resultTensorType();
    Tensor out(type.getElementType(), type.getShape());
    OffsetWalk walk(out.getShape());
    unsigned wa = walk.addBroadcast(a.getShape()),
             wb = walk.addBroadcast(b.getShape());
    bool floating = a.isFloat();
    bool unsigned64 = false;
    if constexpr (!std::is_same_v<UIntBinFn, std::nullptr_t>)
      unsigned64 = a.isUnsigned64();
    for (int64_t k = 0; k < out.getNumElements(); ++k, walk.next()) {
      int64_t oa = walk.offset(wa), ob = walk.offset(wb);
      if (floating) {
        out.setF(k, f(a.getF(oa), b.getF(ob)));
        continue;
      }
      FailureOr<int64_t> r;
      if constexpr (!std::is_same_v<UIntBinFn, std::nullptr_t>) {
        if (unsigned64)
          r = u(uint64_t(a.getI(oa)), uint64_t(b.getI(ob)));
        else
          r = i(a.getI(oa), b.getI(ob));
      } else {
        r = i(a.getI(oa), b.getI(ob));
      }
      if (failed(r)) {
        ctx.emitError() << "integer division by zero";
        return failure();
      }
      out.setI(k, *r);
    }
    return RuntimeValue::tensor(std::move(out));
  };
}

/// An integer function that cannot fail, as binary's `i`.
template <typename Fn> static auto intOf(Fn fn) {
  return [fn](int64_t a, int64_t b) -> FailureOr<int64_t> { return fn(a, b); };
}
/// An unsigned 64-bit function that cannot fail, as binary's `u`.
template <typename Fn> static auto unsignedOf(Fn fn) {
  return [fn](uint64_t a, uint64_t b) -> FailureOr<int64_t> {
    return int64_t(fn(a, b));
  };
}
/// Unsigned division and remainder (floor and truncation agree), failing on
/// a zero divisor.
static FailureOr<int64_t> unsignedDivide(uint64_t a, uint64_t b) {
  if (b == 0)
    return failure();
  return int64_t(a / b);
}
static FailureOr<int64_t> unsignedRemainder(uint64_t a, uint64_t b) {
  if (b == 0)
    return failure();
  return int64_t(a % b);
}

static double floorMod(double a, double b) {
  double r = std::fmod(a, b);
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

static int64_t ipow(int64_t base, int64_t exp) {
  if (exp < 0)
    return base == 1 ? 1 : (base == -1 ? (exp % 2 ? -1 : 1) : 0);
  int64_t result = 1;
  while (exp) {
    if (exp & 1)
      result *= base;
    base *= base;
    exp >>= 1;
  }
  return result;
}

/// Initialisers: zeros, ones, full (fill value operand).
static KernelFn fill(std::optional<double> value) {
  return [value](const KernelContext &ctx) -> FailureOr<ValuePtr> {
    auto type = ctx.resultTensorType();
    Tensor out(type.getElementType(), type.getShape());
    double v = value ? *value : 0;
    bool fromOperand = !value;
    const Tensor *fillTensor = nullptr;
    if (fromOperand) {
      // full(fill_value) or full_like(data, fill_value)
      fillTensor = &ctx.operands.back()->getTensor();
    }
    for (int64_t k = 0; k < out.getNumElements(); ++k) {
      if (fillTensor) {
        if (fillTensor->isFloat() || out.isFloat())
          out.setF(k, fillTensor->getF(0));
        else
          out.setI(k, fillTensor->getI(0));
      } else {
        out.setF(k, v);
      }
    }
    return RuntimeValue::tensor(std::move(out));
  };
}

static FailureOr<ValuePtr> castKernel(const KernelContext &ctx) {
  const Tensor &in = ctx.input(0);
  auto type = ctx.resultTensorType();
  Tensor out(type.getElementType(), type.getShape());
  for (int64_t k = 0; k < in.getNumElements(); ++k) {
    if (in.isFloat()) {
      double v = in.getF(k);
      if (!out.isFloat())
        v = std::trunc(v); // float to integer truncates toward zero
      out.setF(k, v);
    } else if (out.isFloat()) {
      out.setF(k, in.getF(k)); // (read as unsigned from uint64)
    } else {
      out.setI(k, in.getI(k));
    }
  }
  return RuntimeValue::tensor(std::move(out));
}

/// Each element's bits, packed as compiled code holds them, read as the
/// result's dtype.
static FailureOr<ValuePtr> reinterpretKernel(const KernelContext &ctx) {
  std::vector<char> bytes = tensorBytes(ctx.input(0));
  return RuntimeValue::tensor(
      tensorFromBytes(ctx.resultTensorType(), bytes.data()));
}

static FailureOr<ValuePtr> whereKernel(const KernelContext &ctx) {
  const Tensor &c = ctx.input(0), &x = ctx.input(1), &y = ctx.input(2);
  auto type = ctx.resultTensorType();
  Tensor out(type.getElementType(), type.getShape());
  OffsetWalk walk(out.getShape());
  unsigned wc = walk.addBroadcast(c.getShape()),
           wx = walk.addBroadcast(x.getShape()),
           wy = walk.addBroadcast(y.getShape());
  for (int64_t k = 0; k < out.getNumElements(); ++k, walk.next()) {
    bool cond = c.getB(walk.offset(wc));
    const Tensor &src = cond ? x : y;
    int64_t o = walk.offset(cond ? wx : wy);
    if (src.isFloat())
      out.setF(k, src.getF(o));
    else
      out.setI(k, src.getI(o));
  }
  return RuntimeValue::tensor(std::move(out));
}

/// bias_add / prelu: a vector along `axis` of the data.
static KernelFn channelKernel(bool prelu) {
  return [prelu](const KernelContext &ctx) -> FailureOr<ValuePtr> {
    const Tensor &data = ctx.input(0), &vec = ctx.input(1);
    int64_t rank = data.getRank();
    int64_t axis = ctx.getInt("axis", 1);
    if (axis < 0)
      axis += rank;
    Tensor out(data.getElementType(), data.getShape());
    SmallVector<int64_t> strides = data.strides();
    for (int64_t k = 0; k < data.getNumElements(); ++k) {
      int64_t c = (k / strides[axis]) % data.getShape()[axis];
      if (!data.isFloat()) {
        int64_t x = data.getI(k), v = vec.getI(c);
        out.setI(k, prelu ? (x < 0 ? x * v : x) : x + v);
        continue;
      }
      double x = data.getF(k), v = vec.getF(c);
      out.setF(k, prelu ? (x < 0 ? x * v : x) : x + v);
    }
    return RuntimeValue::tensor(std::move(out));
  };
}

/// softmax / log_softmax along `axis`.
static KernelFn softmaxKernel(bool log) {
  return [log](const KernelContext &ctx) -> FailureOr<ValuePtr> {
    const Tensor &in = ctx.input(0);
    int64_t rank = in.getRank();
    int64_t axis = ctx.getInt("axis", -1);
    if (axis < 0)
      axis += rank;
    Tensor out(in.getElementType(), in.getShape());
    int64_t n = in.getShape()[axis];
    int64_t stride = in.strides()[axis];
    for (int64_t k = 0; k < in.getNumElements(); ++k) {
      if ((k / stride) % n != 0)
        continue; // visit each line once, from its first element
      double maxV = -INFINITY;
      for (int64_t j = 0; j < n; ++j)
        maxV = std::max(maxV, in.getF(k + j * stride));
      double sum = 0;
      for (int64_t j = 0; j < n; ++j)
        sum += std::exp(in.getF(k + j * stride) - maxV);
      for (int64_t j = 0; j < n; ++j) {
        double x = in.getF(k + j * stride) - maxV;
        out.setF(k + j * stride, log ? x - std::log(sum) : std::exp(x) / sum);
      }
    }
    return RuntimeValue::tensor(std::move(out));
  };
}

void mlir::relay::interp::registerElementwiseKernels(
    llvm::StringMap<KernelFn> &k) {
  // Unary.
  k["negative"] =
      unary([](double x) { return -x; }, [](int64_t x) { return -x; });
  k["abs"] = onUnsigned64(
      unary([](double x) { return std::fabs(x); },
            [](int64_t x) { return x < 0 ? -x : x; }),
      unary([](double x) { return x; }, [](int64_t x) { return x; }));
  k["exp"] = unary([](double x) { return std::exp(x); });
  k["log"] = unary([](double x) { return std::log(x); });
  k["log2"] = unary([](double x) { return std::log2(x); });
  k["log10"] = unary([](double x) { return std::log10(x); });
  k["sqrt"] = unary([](double x) { return std::sqrt(x); });
  k["rsqrt"] = unary([](double x) { return 1.0 / std::sqrt(x); });
  k["tanh"] = unary([](double x) { return std::tanh(x); });
  k["sigmoid"] = unary([](double x) { return 1.0 / (1.0 + std::exp(-x)); });
  k["erf"] = unary([](double x) { return std::erf(x); });
  k["sin"] = unary([](double x) { return std::sin(x); });
  k["cos"] = unary([](double x) { return std::cos(x); });
  k["tan"] = unary([](double x) { return std::tan(x); });
  k["asin"] = unary([](double x) { return std::asin(x); });
  k["acos"] = unary([](double x) { return std::acos(x); });
  k["atan"] = unary([](double x) { return std::atan(x); });
  k["sinh"] = unary([](double x) { return std::sinh(x); });
  k["cosh"] = unary([](double x) { return std::cosh(x); });
  k["asinh"] = unary([](double x) { return std::asinh(x); });
  k["acosh"] = unary([](double x) { return std::acosh(x); });
  k["atanh"] = unary([](double x) { return std::atanh(x); });
  // Halves round to even, as numpy and ONNX do.
  k["round"] = unary([](double x) { return std::nearbyint(x); },
                     [](int64_t x) { return x; });
  k["floor"] = unary([](double x) { return std::floor(x); },
                     [](int64_t x) { return x; });
  k["ceil"] =
      unary([](double x) { return std::ceil(x); }, [](int64_t x) { return x; });
  k["trunc"] = unary([](double x) { return std::trunc(x); },
                     [](int64_t x) { return x; });
  k["sign"] =
      onUnsigned64(unary([](double x) { return double((x > 0) - (x < 0)); },
                         [](int64_t x) { return int64_t((x > 0) - (x < 0)); }),
                   unary([](double x) { return double(x != 0); },
                         [](int64_t x) { return int64_t(x != 0); }));
  k["logical_not"] = unary([](double x) { return double(x == 0); },
                           [](int64_t x) { return int64_t(x == 0); });
  k["bitwise_not"] =
      unary([](double x) { return x; }, [](int64_t x) { return ~x; });
  k["copy"] = unary([](double x) { return x; }, [](int64_t x) { return x; });
  // NaN stays NaN, as compiled code's maximum, PyTorch and ONNX give it.
  k["nn.relu"] =
      unary([](double x) { return x > 0 || std::isnan(x) ? x : 0.0; },
            [](int64_t x) { return x > 0 ? x : 0; });
  k["nn.leaky_relu"] = [](const KernelContext &ctx) {
    double alpha = ctx.getFloat("alpha", 0.25);
    return unary([alpha](double x) { return x > 0 ? x : alpha * x; })(ctx);
  };
  k["clip"] = [](const KernelContext &ctx) {
    double lo = ctx.getFloat("a_min", -INFINITY);
    double hi = ctx.getFloat("a_max", INFINITY);
    return unary([lo, hi](double x) { return std::min(std::max(x, lo), hi); },
                 [lo, hi](int64_t x) {
                   return int64_t(std::min(std::max(double(x), lo), hi));
                 })(ctx);
  };
  k["cast"] = castKernel;
  k["reinterpret"] = reinterpretKernel;

  // Binary.
  // Integers wrap, as compiled code's do (in unsigned arithmetic: signed
  // overflow is undefined in C++).
  k["add"] = binary([](double a, double b) { return a + b; },
                    intOf([](int64_t a, int64_t b) {
                      return int64_t(uint64_t(a) + uint64_t(b));
                    }));
  k["subtract"] = binary([](double a, double b) { return a - b; },
                         intOf([](int64_t a, int64_t b) {
                           return int64_t(uint64_t(a) - uint64_t(b));
                         }));
  k["multiply"] = binary([](double a, double b) { return a * b; },
                         intOf([](int64_t a, int64_t b) {
                           return int64_t(uint64_t(a) * uint64_t(b));
                         }));
  k["divide"] = binary([](double a, double b) { return a / b; },
                       [](int64_t a, int64_t b) -> FailureOr<int64_t> {
                         if (b == 0)
                           return failure();
                         return a / b;
                       },
                       unsignedDivide);
  k["floor_divide"] =
      binary([](double a, double b) { return std::floor(a / b); },
             [](int64_t a, int64_t b) -> FailureOr<int64_t> {
               if (b == 0)
                 return failure();
               int64_t q = a / b;
               return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
             },
             unsignedDivide);
  k["mod"] = binary([](double a, double b) { return std::fmod(a, b); },
                    [](int64_t a, int64_t b) -> FailureOr<int64_t> {
                      if (b == 0)
                        return failure();
                      return a % b;
                    },
                    unsignedRemainder);
  k["floor_mod"] = binary(
      floorMod,
      [](int64_t a, int64_t b) -> FailureOr<int64_t> {
        if (b == 0)
          return failure();
        int64_t r = a % b;
        return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
      },
      unsignedRemainder);
  k["power"] =
      binary([](double a, double b) { return std::pow(a, b); }, intOf(ipow));
  // NaN from either side (numpy, PyTorch, arith.maximumf): std::max and
  // std::min return their first argument when the other is NaN.
  k["maximum"] = binary(
      [](double a, double b) {
        return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
      },
      intOf([](int64_t a, int64_t b) { return std::max(a, b); }),
      unsignedOf([](uint64_t a, uint64_t b) { return std::max(a, b); }));
  k["minimum"] = binary(
      [](double a, double b) {
        return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
      },
      intOf([](int64_t a, int64_t b) { return std::min(a, b); }),
      unsignedOf([](uint64_t a, uint64_t b) { return std::min(a, b); }));
  auto logical = [](auto f) {
    return binary([f](double a, double b) { return double(f(a != 0, b != 0)); },
                  intOf([f](int64_t a, int64_t b) {
                    return int64_t(f(a != 0, b != 0));
                  }));
  };
  k["logical_and"] = logical([](bool a, bool b) { return a && b; });
  k["logical_or"] = logical([](bool a, bool b) { return a || b; });
  k["logical_xor"] = logical([](bool a, bool b) { return a != b; });
  auto bitwise = [](auto f) {
    return binary([f](double a, double b) { return double(f(a, b)); },
                  intOf(f));
  };
  k["bitwise_and"] = bitwise([](int64_t a, int64_t b) { return a & b; });
  k["bitwise_or"] = bitwise([](int64_t a, int64_t b) { return a | b; });
  k["bitwise_xor"] = bitwise([](int64_t a, int64_t b) { return a ^ b; });
  k["left_shift"] = bitwise([](int64_t a, int64_t b) {
    return b >= 0 && b < 64 ? int64_t(uint64_t(a) << b) : 0;
  });
  // Arithmetic on signed dtypes, logical on unsigned ones (as compiled
  // code's arith.shrsi / shrui).
  k["right_shift"] = binary(
      [](double a, double b) { return double(int64_t(a) >> int64_t(b)); },
      intOf([](int64_t a, int64_t b) {
        return b >= 0 && b < 64 ? a >> b : (a < 0 ? -1 : 0);
      }),
      unsignedOf([](uint64_t a, uint64_t b) { return b < 64 ? a >> b : 0; }));
  auto compare = [](auto f, auto i, auto u) {
    return binary(
        [f](double a, double b) { return double(f(a, b)); },
        intOf([i](int64_t a, int64_t b) { return int64_t(i(a, b)); }),
        unsignedOf([u](uint64_t a, uint64_t b) { return uint64_t(u(a, b)); }));
  };
  k["equal"] = compare(std::equal_to<double>(), std::equal_to<int64_t>(),
                       std::equal_to<uint64_t>());
  k["not_equal"] =
      compare(std::not_equal_to<double>(), std::not_equal_to<int64_t>(),
              std::not_equal_to<uint64_t>());
  k["less"] =
      compare(std::less<double>(), std::less<int64_t>(), std::less<uint64_t>());
  k["less_equal"] =
      compare(std::less_equal<double>(), std::less_equal<int64_t>(),
              std::less_equal<uint64_t>());
  k["greater"] = compare(std::greater<double>(), std::greater<int64_t>(),
                         std::greater<uint64_t>());
  k["greater_equal"] =
      compare(std::greater_equal<double>(), std::greater_equal<int64_t>(),
              std::greater_equal<uint64_t>());

  // Initialisers and selection.
  k["zeros"] = fill(0.0);
  k["ones"] = fill(1.0);
  k["zeros_like"] = fill(0.0);
  k["ones_like"] = fill(1.0);
  k["full"] = fill(std::nullopt);
  k["full_like"] = fill(std::nullopt);
  k["where"] = whereKernel;
  k["nn.bias_add"] = channelKernel(/*prelu=*/false);
  k["nn.prelu"] = channelKernel(/*prelu=*/true);
  k["nn.softmax"] = softmaxKernel(/*log=*/false);
  k["nn.log_softmax"] = softmaxKernel(/*log=*/true);
}

//===- KernelsQnn.cpp - Quantized operators' reference kernels --*- C++ -*-===//
//
// The qnn.* operators and simulated_quantize as TVM defines them (its QNN
// canonicalization): float steps in float32, requantization by TVM's
// fixed-point multiplier (QuantizedArithmetic.h), products and convolutions
// by the float kernels on the zero-point-shifted integers (exact: their
// accumulation in double holds any int32 sum of int16 products).
//
//===----------------------------------------------------------------------===//

#include "runtime/Interpreter/Kernels.h"

#include "dialects/relay/QuantizedArithmetic.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;
using namespace mlir::relay::quant;

namespace {
/// A scale or zero point: one value, or one per channel.
struct Param {
  const Tensor &t;
  double at(int64_t channel) const {
    return t.getNumElements() == 1 ? t.getF(0) : t.getF(channel);
  }
  int64_t intAt(int64_t channel) const {
    return t.getNumElements() == 1 ? t.getI(0) : t.getI(channel);
  }
  float scaleAt(int64_t channel) const {
    return static_cast<float>(at(channel));
  }
};

/// The channel (position along `axis`) of each element of a tensor.
struct Channels {
  int64_t stride = 1, size = 1;
  Channels(const Tensor &t, int64_t axis) {
    if (t.getRank() == 0)
      return;
    if (axis < 0)
      axis += t.getRank();
    size = t.getShape()[axis];
    stride = t.strides()[axis];
  }
  int64_t of(int64_t element) const { return (element / stride) % size; }
};

int64_t clipTo(Type t, int64_t v) {
  auto [lo, hi] = integerRange(cast<IntegerType>(t));
  return std::min(std::max(v, lo), hi);
}

/// `t` requantized elementwise from (inScale, inZp) to (outScale, outZp)
/// along `axis`, clipped to `dtype`.
Tensor requantized(const Tensor &t, int64_t axis, Param inScale, Param inZp,
                   Param outScale, Param outZp, RequantizeMode mode,
                   Type dtype) {
  Tensor out(dtype, t.getShape());
  Channels ch(t, axis);
  for (int64_t k = 0; k < t.getNumElements(); ++k) {
    int64_t c = ch.of(k);
    out.setI(k, clipTo(dtype,
                       requantize(t.getI(k), inScale.scaleAt(c), inZp.intAt(c),
                                  outScale.scaleAt(c), outZp.intAt(c), mode)));
  }
  return out;
}

/// Whether two parameters hold the same single value.
bool sameScalar(Param a, Param b) {
  return a.t.getNumElements() == 1 && b.t.getNumElements() == 1 &&
         a.at(0) == b.at(0);
}
} // namespace

static FailureOr<ValuePtr> quantizeKernel(const KernelContext &ctx) {
  const Tensor &x = ctx.input(0);
  Param scale{ctx.input(1)}, zp{ctx.input(2)};
  auto type = ctx.resultTensorType();
  Tensor out(type.getElementType(), type.getShape());
  Channels ch(x, ctx.getInt("axis", -1));
  for (int64_t k = 0; k < x.getNumElements(); ++k) {
    int64_t c = ch.of(k);
    float q = static_cast<float>(x.getF(k)) / scale.scaleAt(c);
    double v = std::nearbyint(q) + static_cast<double>(zp.intAt(c));
    auto [lo, hi] = integerRange(cast<IntegerType>(type.getElementType()));
    v = std::min(std::max(v, static_cast<double>(lo)), static_cast<double>(hi));
    out.setI(k, static_cast<int64_t>(v));
  }
  return RuntimeValue::tensor(std::move(out));
}

static FailureOr<ValuePtr> dequantizeKernel(const KernelContext &ctx) {
  const Tensor &x = ctx.input(0);
  Param scale{ctx.input(1)}, zp{ctx.input(2)};
  auto type = ctx.resultTensorType();
  Tensor out(type.getElementType(), type.getShape());
  Channels ch(x, ctx.getInt("axis", -1));
  for (int64_t k = 0; k < x.getNumElements(); ++k) {
    int64_t c = ch.of(k);
    float v =
        (static_cast<float>(x.getI(k)) - static_cast<float>(zp.intAt(c))) *
        scale.scaleAt(c);
    out.setF(k, v);
  }
  return RuntimeValue::tensor(std::move(out));
}

static FailureOr<ValuePtr> requantizeKernel(const KernelContext &ctx) {
  RequantizeMode mode =
      RequantizeMode::get(ctx.getString("rounding", "None"),
                          ctx.getString("compute_dtype", "None"));
  return RuntimeValue::tensor(
      requantized(ctx.input(0), ctx.getInt("axis", -1), Param{ctx.input(1)},
                  Param{ctx.input(2)}, Param{ctx.input(3)}, Param{ctx.input(4)},
                  mode, ctx.resultTensorType().getElementType()));
}

/// `t - zp` as int32, the zero point per slice along `axis` (or one).
static ValuePtr shifted(const Tensor &t, Param zp, int64_t axis) {
  Tensor out(IntegerType::get(t.getElementType().getContext(), 32),
             t.getShape());
  Channels ch(t, axis);
  for (int64_t k = 0; k < t.getNumElements(); ++k)
    out.setI(k, t.getI(k) - zp.intAt(ch.of(k)));
  return RuntimeValue::tensor(std::move(out));
}

/// qnn.conv2d, qnn.dense, qnn.batch_matmul: the float kernel `name` on the
/// operands minus their zero points (the weight's per output channel:
/// axis `weightAxis` of the weight).
static KernelFn productKernel(StringRef name,
                              int64_t (*weightAxis)(const KernelContext &)) {
  return [name, weightAxis](const KernelContext &ctx) -> FailureOr<ValuePtr> {
    ValuePtr x = shifted(ctx.input(0), Param{ctx.input(2)}, 0);
    ValuePtr w = shifted(ctx.input(1), Param{ctx.input(3)}, weightAxis(ctx));
    return callKernel(name, ctx, {x, w});
  };
}

static int64_t convOutputAxis(const KernelContext &ctx) {
  StringRef layout = ctx.getString("kernel_layout", "OIHW");
  size_t o = layout.find('O');
  return o == StringRef::npos ? 0 : static_cast<int64_t>(o);
}

/// The weight's output-channel axis of dense (units x K) and
/// batch_matmul (y is B x N x K transposed, else B x K x N).
static int64_t denseOutputAxis(const KernelContext &) { return 0; }
static int64_t batchMatmulOutputAxis(const KernelContext &ctx) {
  return ctx.getBool("transpose_b", false) ? 1 : 2;
}

/// qnn.add and qnn.subtract: both operands requantized to the output's
/// parameters in int32 (upcast only where theirs are the output's), then
/// `sign` combines them: l + r - zp or l - r + zp, clipped.
/// qnn.mul: (l - zl) * (r - zr) requantized from scale sl * sr.
enum class BinaryKind { Add, Subtract, Mul };
static KernelFn binaryKernel(BinaryKind kind) {
  return [kind](const KernelContext &ctx) -> FailureOr<ValuePtr> {
    const Tensor &lhs = ctx.input(0), &rhs = ctx.input(1);
    Param ls{ctx.input(2)}, lz{ctx.input(3)}, rs{ctx.input(4)},
        rz{ctx.input(5)}, os{ctx.input(6)}, oz{ctx.input(7)};
    int64_t lAxis = ctx.getInt("lhs_axis", -1),
            rAxis = ctx.getInt("rhs_axis", -1);
    auto type = ctx.resultTensorType();
    Type i32 = IntegerType::get(type.getContext(), 32);
    Tensor out(type.getElementType(), type.getShape());
    SmallVector<int64_t> lStrides = lhs.strides(), rStrides = rhs.strides();
    RequantizeMode mode;
    if (kind == BinaryKind::Mul) {
      // (Its relation makes both scales scalars.)
      Channels lc(lhs, lAxis), rc(rhs, rAxis);
      float scale = ls.scaleAt(0) * rs.scaleAt(0);
      for (int64_t k = 0; k < out.getNumElements(); ++k) {
        SmallVector<int64_t> idx = unravel(k, out.getShape());
        int64_t li = broadcastOffset(idx, lhs.getShape(), lStrides);
        int64_t ri = broadcastOffset(idx, rhs.getShape(), rStrides);
        int64_t p = (lhs.getI(li) - lz.intAt(lc.of(li))) *
                    (rhs.getI(ri) - rz.intAt(rc.of(ri)));
        out.setI(k, clipTo(type.getElementType(),
                           requantize(wrapToInt(i32, p), scale, 0,
                                      os.scaleAt(0), oz.intAt(0), mode)));
      }
      return RuntimeValue::tensor(std::move(out));
    }
    auto toOutput = [&](const Tensor &t, int64_t axis, Param s, Param z) {
      if (sameScalar(s, os) && z.t.getNumElements() == 1 &&
          z.intAt(0) == oz.intAt(0)) {
        Tensor copy(i32, t.getShape());
        for (int64_t k = 0; k < t.getNumElements(); ++k)
          copy.setI(k, t.getI(k));
        return copy;
      }
      return requantized(t, axis, s, z, os, oz, mode, i32);
    };
    Tensor l = toOutput(lhs, lAxis, ls, lz), r = toOutput(rhs, rAxis, rs, rz);
    for (int64_t k = 0; k < out.getNumElements(); ++k) {
      SmallVector<int64_t> idx = unravel(k, out.getShape());
      int64_t a = l.getI(broadcastOffset(idx, l.getShape(), lStrides));
      int64_t b = r.getI(broadcastOffset(idx, r.getShape(), rStrides));
      int64_t v =
          kind == BinaryKind::Add ? a + b - oz.intAt(0) : a - b + oz.intAt(0);
      out.setI(k, clipTo(type.getElementType(), v));
    }
    return RuntimeValue::tensor(std::move(out));
  };
}

/// Each input requantized to the output's parameters (unless they are its
/// own), then concatenate.
static FailureOr<ValuePtr> concatenateKernel(const KernelContext &ctx) {
  const std::vector<ValuePtr> &data = ctx.operands[0]->getFields();
  const std::vector<ValuePtr> &scales = ctx.operands[1]->getFields();
  const std::vector<ValuePtr> &zps = ctx.operands[2]->getFields();
  Param os{ctx.input(3)}, oz{ctx.input(4)};
  Type dtype = ctx.resultTensorType().getElementType();
  std::vector<ValuePtr> fields;
  for (size_t i = 0; i < data.size(); ++i) {
    Param s{scales[i]->getTensor()}, z{zps[i]->getTensor()};
    const Tensor &t = data[i]->getTensor();
    if (sameScalar(s, os) && z.intAt(0) == oz.intAt(0))
      fields.push_back(data[i]);
    else
      fields.push_back(RuntimeValue::tensor(
          requantized(t, -1, s, z, os, oz, RequantizeMode(), dtype)));
  }
  return callKernel("concatenate", ctx, {RuntimeValue::tuple(fields)});
}

/// round(clip(x / s, lo, hi)) * s in float32, s a scalar or broadcast to
/// x (per-channel weight scales); the identity for kind 0.
static FailureOr<ValuePtr> simulatedQuantizeKernel(const KernelContext &ctx) {
  if (ctx.getInt("kind", 0) == 0)
    return ctx.operands[0];
  const Tensor &x = ctx.input(0);
  const Tensor &scale = ctx.input(1);
  auto lo = static_cast<float>(ctx.input(2).getF(0));
  auto hi = static_cast<float>(ctx.input(3).getF(0));
  bool perElement = scale.getNumElements() != 1;
  SmallVector<int64_t> strides = scale.strides();
  Tensor out(x.getElementType(), x.getShape());
  for (int64_t k = 0; k < x.getNumElements(); ++k) {
    int64_t at = perElement ? broadcastOffset(unravel(k, x.getShape()),
                                              scale.getShape(), strides)
                            : 0;
    auto s = static_cast<float>(scale.getF(at));
    float v = static_cast<float>(x.getF(k)) / s;
    v = std::max(std::min(v, hi), lo);
    out.setF(k, std::nearbyint(v) * s);
  }
  return RuntimeValue::tensor(std::move(out));
}

/// An int64 value as int32 arithmetic leaves it (two's complement).
static int64_t wrap32(int64_t v) {
  return static_cast<int32_t>(static_cast<uint32_t>(v));
}

/// qnn.softmax: TVM's canonical form (Shiftmax) evaluated in int32
/// arithmetic as its operators compute it (wrapping; divisions truncate,
/// right shifts are arithmetic), then requantized from the scale 2^-7.
static FailureOr<ValuePtr> qnnSoftmaxKernel(const KernelContext &ctx) {
  const Tensor &x = ctx.input(0);
  float scale = static_cast<float>(ctx.input(1).getF(0));
  int64_t zp = ctx.input(2).getI(0);
  float outScale = static_cast<float>(ctx.input(3).getF(0));
  int64_t outZp = ctx.input(4).getI(0);
  if (!(scale > 0 && scale <= 1))
    return ctx.emitError()
           << "the input scale must be in (0, 1] (TVM's integer softmax), got "
           << scale;
  int64_t x0 = shiftmaxUnit(scale);
  int64_t axis = ctx.getInt("axis", -1);
  if (axis < 0)
    axis += x.getRank();
  int64_t n = x.getShape()[axis], stride = x.strides()[axis];
  Type dtype = x.getElementType();
  Tensor out(dtype, x.getShape());
  SmallVector<int64_t> xp(n), q(n), exps(n);
  for (int64_t k = 0; k < x.getNumElements(); ++k) {
    // One row per element whose position along the axis is 0.
    if ((k / stride) % n != 0)
      continue;
    auto at = [&](int64_t i) { return k + i * stride; };
    int64_t max = INT64_MIN;
    for (int64_t i = 0; i < n; ++i)
      max = std::max(max, wrap32(x.getI(at(i)) - zp));
    int64_t maxQ = 0;
    for (int64_t i = 0; i < n; ++i) {
      int64_t d = wrap32(wrap32(x.getI(at(i)) - zp) - max);
      xp[i] = wrap32(wrap32(d + (d >> 1)) - (d >> 4));
      q[i] = std::clamp<int64_t>(wrap32(xp[i] / wrap32(-x0)), 0,
                                 kShiftmaxMaxShift);
      maxQ = std::max(maxQ, q[i]);
    }
    int64_t sum = 0;
    for (int64_t i = 0; i < n; ++i) {
      int64_t r = wrap32(xp[i] - wrap32(q[i] * wrap32(-x0)));
      int64_t xb = wrap32((r >> 1) + x0);
      exps[i] = wrap32(
          static_cast<int64_t>(static_cast<uint32_t>(xb) << (maxQ - q[i])));
      sum = wrap32(sum + exps[i]);
    }
    if (sum == 0)
      return ctx.emitError()
             << "the sum of the exponentials wraps to 0 in int32";
    int64_t factor = wrap32((int64_t(1) << kShiftmaxBits) / sum);
    for (int64_t i = 0; i < n; ++i) {
      int64_t v = wrap32(factor * exps[i]) >>
                  (kShiftmaxBits - (kShiftmaxOutputBits - 1));
      out.setI(
          at(i),
          clipTo(dtype, requantize(v, 1.f / (1 << (kShiftmaxOutputBits - 1)), 0,
                                   outScale, outZp, RequantizeMode())));
    }
  }
  return RuntimeValue::tensor(std::move(out));
}

void mlir::relay::interp::registerQnnKernels(llvm::StringMap<KernelFn> &k) {
  k["qnn.quantize"] = quantizeKernel;
  k["qnn.dequantize"] = dequantizeKernel;
  k["qnn.requantize"] = requantizeKernel;
  k["qnn.conv2d"] = productKernel("nn.conv2d", convOutputAxis);
  k["qnn.dense"] = productKernel("nn.dense", denseOutputAxis);
  k["qnn.batch_matmul"] =
      productKernel("nn.batch_matmul", batchMatmulOutputAxis);
  k["qnn.add"] = binaryKernel(BinaryKind::Add);
  k["qnn.subtract"] = binaryKernel(BinaryKind::Subtract);
  k["qnn.mul"] = binaryKernel(BinaryKind::Mul);
  k["qnn.concatenate"] = concatenateKernel;
  k["annotation.simulated_quantize"] = simulatedQuantizeKernel;
  k["qnn.softmax"] = qnnSoftmaxKernel;
}

"""numpy references of the quantized operators (qnn.*), as TVM defines
them, computed independently, for operator_cases_qnn.py."""
import math

import numpy as np

from operator_references import conv2d_ref, fixed_point_multiply_ref, pool_ref



def int_range(dtype):
    info = np.iinfo(dtype)
    return info.min, info.max


def along(values, axis, ndim):
    """A per-channel parameter shaped to broadcast along `axis`."""
    values = np.atleast_1d(np.asarray(values))
    if values.size == 1:
        return values.reshape(())
    shape = [1] * ndim
    shape[axis] = values.size
    return values.reshape(shape)


def fixed_point(m):
    """TVM's GetFixedPointMultiplierShift: m = q * 2^(shift - 31)."""
    if m == 0:
        return 0, 0
    sig, exp = math.frexp(m)
    q = int(math.floor(sig * (1 << 31) + 0.5))
    if q == 1 << 31:
        q, exp = q // 2, exp + 1
    return q, exp


def requantize_ref(x, s_in, z_in, s_out, z_out, dtype, axis=-1, rounding="UPWARD"):
    s_in = np.atleast_1d(np.float32(s_in)).astype(np.float64)
    s_out = np.atleast_1d(np.float32(s_out)).astype(np.float64)
    n = max(s_in.size, s_out.size)
    pairs = [fixed_point(s_in[c % s_in.size] / s_out[c % s_out.size]) for c in range(n)]
    q = along([p[0] for p in pairs], axis, x.ndim).astype(np.int64)
    shift = along([p[1] for p in pairs], axis, x.ndim).astype(np.int64)
    v = x.astype(np.int64) - along(z_in, axis, x.ndim)
    v = (v << np.maximum(shift, 0)) * q
    right = np.maximum(-shift, 0) + 31
    half = np.left_shift(np.int64(1), right - 1)
    v = (v + (half if rounding == "UPWARD" else np.where(v >= 0, half, half - 1))) >> right
    v = v + along(z_out, axis, x.ndim)
    return np.clip(v, *int_range(dtype)).astype(dtype)


def quantize_ref(x, s, z, dtype, axis=-1):
    q = np.round(x / along(np.float32(s), axis, x.ndim).astype(np.float32))
    return np.clip(q + along(z, axis, x.ndim), *int_range(dtype)).astype(dtype)


def dequantize_ref(x, s, z, axis=-1):
    return ((x.astype(np.float32) - along(z, axis, x.ndim).astype(np.float32))
            * along(np.float32(s), axis, x.ndim).astype(np.float32))


def qnn_add_ref(a, b, sa, za, sb, zb, so, zo, subtract=False):
    def at_output(x, s, z):
        if np.float32(s) == np.float32(so) and z == zo:
            return x.astype(np.int64)
        return requantize_ref(x, s, z, so, zo, np.int32).astype(np.int64)
    l, r = at_output(a, sa, za), at_output(b, sb, zb)
    v = l - r + zo if subtract else l + r - zo
    return np.clip(v, *int_range(a.dtype)).astype(a.dtype)


def qnn_mul_ref(a, b, sa, za, sb, zb, so, zo):
    p = (a.astype(np.int64) - za) * (b.astype(np.int64) - zb)
    return requantize_ref(p, np.float32(sa) * np.float32(sb), 0, so, zo, a.dtype)


def qnn_conv2d_ref(x, w, zx, zw, **kw):
    """Exact: these small integer sums fit float32's 24 bits."""
    xs = x.astype(np.float64) - zx
    ws = w.astype(np.float64) - along(zw, 0, 4)
    return np.rint(conv2d_ref(xs, ws, **kw).astype(np.float64)).astype(np.int32)


def simulated_quantize_ref(x, s, lo, hi):
    s = np.asarray(s, dtype=np.float32)
    v = np.clip(x / s, np.float32(lo), np.float32(hi))
    return (np.round(v) * s).astype(np.float32)


def qnn_unary_ref(f, x, s, z, so, zo):
    """TVM's canonical form: dequantize, the float function, quantize."""
    y = f(dequantize_ref(x, s, z)).astype(np.float32)
    return quantize_ref(y, so, zo, x.dtype)


def hardswish_ref(x):
    return (x * np.clip(x + np.float32(3), 0, 6) / np.float32(6)).astype(np.float32)


def qnn_leaky_relu_ref(x, alpha, s, z, so, zo):
    """TVM's canonical form: requantized to the output's parameters, then
    alpha * q + (1 - alpha) * zo in fixed point below the zero point."""
    q = requantize_ref(x, s, z, so, zo, np.int32).astype(np.int64)
    leaked = (fixed_point_multiply_ref(q, *fixed_point(alpha)).astype(np.int64)
              + int(fixed_point_multiply_ref(np.array([zo]), *fixed_point(1 - alpha))[0]))
    v = np.where(x.astype(np.int64) < z, leaked, q)
    return np.clip(v, *int_range(x.dtype)).astype(x.dtype)


def qnn_avg_pool2d_ref(x, s, z, so, zo, k, st, p, count_include_pad=False):
    """nn.avg_pool2d of the requantized int32 values, truncated."""
    q = requantize_ref(x, s, z, so, zo, np.int32).astype(np.float64)
    pooled = np.trunc(pool_ref(q, k, st, p, "avg", count_include_pad))
    return np.clip(pooled, *int_range(x.dtype)).astype(x.dtype)


def qnn_softmax_ref(x, s, z, so, zo, axis=-1):
    """TVM's Shiftmax (its qnn.softmax canonical form) in int32 arithmetic:
    wrapping, truncating division, arithmetic shifts."""
    def wrap(v):
        return np.asarray(v, np.int64).astype(np.int32).astype(np.int64)

    def tdiv(a, b):
        a, b = np.asarray(a, np.int64), np.asarray(b, np.int64)
        return np.sign(a) * np.sign(b) * (np.abs(a) // np.abs(b))
    x0 = int(math.floor(float(np.float32(1) / np.float32(s)) + 0.5))
    d = x.astype(np.int64) - z
    d = d - d.max(axis=axis, keepdims=True)
    xp = d + (d >> 1) - (d >> 4)
    q = np.clip(tdiv(xp, -x0), 0, 20)
    xb = ((xp - q * -x0) >> 1) + x0
    exps = wrap(xb << (q.max(axis=axis, keepdims=True) - q))
    sums = wrap(exps.sum(axis=axis, keepdims=True))
    v = wrap(wrap(tdiv(1 << 30, sums)) * exps) >> 23
    return requantize_ref(v, 1 / 128, 0, so, zo, x.dtype)


def qnn_simulated_ref(x, code, s, z, axis=-1, dequantize=False):
    """qnn.simulated_quantize / simulated_dequantize as topi computes them:
    code 0 passes the data, 1-3 simulate int8, uint8, int32."""
    code = int(code)
    if code == 0:
        return x
    s = along(np.float32(s), axis, x.ndim).astype(np.float32)
    z = along(z, axis, x.ndim).astype(np.float32)
    if dequantize:
        return ((x - z) * s).astype(np.float32)
    dtype = {1: np.int8, 2: np.uint8, 3: np.int32}[code]
    return np.clip(np.round(x / s) + z, *int_range(dtype)).astype(np.float32)


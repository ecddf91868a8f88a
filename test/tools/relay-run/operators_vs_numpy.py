#!/usr/bin/env python3
"""Checks every operator's kernels against a numpy reference.

usage: operators_vs_numpy.py TOOLS_DIR WORK_DIR
         [compiled|dynamic|lower-gpu|lower-cpu]

For each case: random inputs are saved as .npy, a one-operator Relay
program runs on `relay-run --interp` (or, with `compiled`, natively
compiled and, in the same process, on the interpreter (`--interp-output`),
reporting the cases that fell back to the interpreter; with `dynamic`,
interpreted with every dimension of the parameters' types `?`, so that
relations and composite operators see only run-time shapes), and its
--output is compared with the numpy reference (float32: 1e-5 relative for elementwise operators, 1e-4 for
reductions, matrix products and convolutions). Prints one line per
operator and a summary; exits 1 on any mismatch. With `lower-gpu`, each
case's program is only lowered by `relay-mlir-opt --relay-to-nvvm` (no GPU
needed): every operator must have a GPU lowering; `lower-cpu` lowers them
by `--relay-to-llvm`, verifying the IR after every pass.
"""
import math
import os
import subprocess
import sys

import numpy as np

from operator_references import *  # noqa: F401,F403 (the references)

RNG = np.random.default_rng(0)
DTYPES = {np.dtype("float32"): "float32", np.dtype("float64"): "float64",
          np.dtype("float16"): "float16", np.dtype("int32"): "int32",
          np.dtype("int64"): "int64", np.dtype("int8"): "int8",
          np.dtype("int16"): "int16",
          np.dtype("uint8"): "uint8", np.dtype("uint16"): "uint16",
          np.dtype("uint32"): "uint32",
          np.dtype("uint64"): "uint64", np.dtype("bool"): "bool"}


def f32(*shape, low=-2.0, high=2.0):
    return RNG.uniform(low, high, size=shape).astype(np.float32)


def i32(*shape, low=-9, high=10):
    return RNG.integers(low, high, size=shape).astype(np.int32)


def boolean(*shape):
    return RNG.integers(0, 2, size=shape).astype(bool)


def relay_type(a, dynamic=False):
    """`a`'s Relay type; with `dynamic`, every dimension `?`."""
    dims = ", ".join("?" if dynamic else str(d)
                     for i, d in enumerate(a.shape))
    return f"Tensor[({dims}), {DTYPES[a.dtype]}]"


# --- small constants (the references are in operator_references.py) -------

def i64(*values):
    return np.array(values, np.int64)


def scalar(value, dtype):
    return np.array(value, dtype)


# --- quantized operators (TVM's definitions, computed independently) --------

def int8(*shape):
    return RNG.integers(-128, 128, size=shape).astype(np.int8)


def uint8(*shape):
    return RNG.integers(0, 256, size=shape).astype(np.uint8)


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


# --- the cases ----------------------------------------------------------------
# (operator, call text with %a %b %c for the inputs, inputs, reference,
#  tolerance)
E, R = 1e-5, 1e-4
x, y = f32(2, 3, 4), f32(3, 4)
pos = f32(2, 3, 4, low=0.1, high=3.0)
ia, ib = i32(2, 3), i32(2, 3, low=1, high=7) * RNG.choice([-1, 1], size=(2, 3)).astype(np.int32)
ba, bb = boolean(2, 3), boolean(2, 3)
img = f32(2, 4, 7, 7)
unit = f32(2, 3, 4, low=-0.95, high=0.95)
seq = f32(2, 4, 11)
vol = f32(2, 4, 6, 9, 8)
special = np.array([[0, np.nan, np.inf], [-np.inf, 1.5, -2]], dtype=np.float32)


def with_specials(a, count):
    """`a` (float) with `count` of its elements made NaN (either sign),
    +-inf, or -0 and 0 (which sort as equal), at random positions."""
    a = a.copy()
    values = [np.nan, -np.nan, np.inf, -np.inf, -0.0, 0.0]
    flat = a.reshape(-1)
    for i, p in enumerate(RNG.choice(flat.size, count, replace=False)):
        flat[p] = values[i % len(values)]
    return a


nan_rows = with_specials(f32(3, 9), 14)
nan_wide = with_specials(f32(2, 130), 60)
nan_other = with_specials(f32(3, 9), 8)
# Sparse matrices for TVM's sparse operators: CSR 5 x 6 with an empty row,
# a square CSR 5 x 5, BSR 4 x 6 in 2 x 3 blocks.
csr_5x6 = (f32(9), np.array([0, 3, 5, 1, 2, 4, 0, 1, 5], np.int32),
           np.array([0, 3, 3, 6, 8, 9], np.int32))
csr_5x5 = (f32(8), np.array([1, 4, 0, 2, 3, 0, 4, 1], np.int64),
           np.array([0, 2, 2, 5, 7, 8], np.int64))
bsr_4x6 = (f32(3, 2, 3), np.array([1, 0, 1], np.int32),
           np.array([0, 1, 3], np.int32))
# uint64 values on both sides of 2^63.
U64_A = np.array([2**64 - 1, 2**63 + 5, 7, 2**63, 0, 12345678901234567890],
                 np.uint64)
U64_B = np.array([2, 2**63 + 6, 2**63, 3, 9, 2**62 + 1], np.uint64)
U64_SHIFTS = np.array([60, 1, 0, 63, 5, 17], np.uint64)

# Threefry keys (Tensor[(10), uint64]): key words, path, counter, the
# path's next bit. TVM's threefry_key(0), threefry_key(12345), one whose
# counter is full, one whose path is full too, and two mid-path.
THREEFRY_KEY_0 = np.array([0] * 8 + [1 << 63, 0], np.uint64)
THREEFRY_KEY_SEED = np.array([12345] + [0] * 7 + [1 << 63, 0], np.uint64)
THREEFRY_KEY_NO_ROOM = np.array([5, 6, 7, 8, 0, 0, 0, 2**64 - 2, 1 << 63, 0],
                                np.uint64)
THREEFRY_KEY_PATH_FULL = np.array([5, 6, 7, 8, 9, 10, 11, 2**64 - 2, 0, 0],
                                  np.uint64)
THREEFRY_KEY_WORD_9 = np.array([1, 2, 3, 4, (1 << 63) | 5, 0, 0, 3, 0, 1 << 60],
                               np.uint64)
THREEFRY_KEY_LAST_BIT = np.array([1, 2, 3, 4, 2**63 - 2, 0, 0, 3, 1, 0],
                                 np.uint64)

CASES = [
    ("add", "add(%a, %b)", [x, y], lambda a, b: a + b, E),
    ("subtract", "subtract(%a, %b)", [x, y], lambda a, b: a - b, E),
    ("multiply", "multiply(%a, %b)", [x, y], lambda a, b: a * b, E),
    ("divide", "divide(%a, %b)", [x, pos[0]], lambda a, b: a / b, E),
    ("divide (int)", "divide(%a, %b)", [ia, ib], lambda a, b: np.trunc(a / b).astype(np.int32), 0),
    ("floor_divide", "floor_divide(%a, %b)", [ia, ib], np.floor_divide, 0),
    ("mod (int)", "mod(%a, %b)", [ia, ib], np.fmod, 0),
    ("floor_mod (int)", "floor_mod(%a, %b)", [ia, ib], np.mod, 0),
    ("floor_mod", "floor_mod(%a, %b)", [x, pos[0]], np.mod, E),
    ("power", "power(%a, %b)", [pos, y], np.power, E),
    ("maximum", "maximum(%a, %b)", [x, y], np.maximum, E),
    ("minimum", "minimum(%a, %b)", [x, y], np.minimum, E),
    # NaN from either operand (numpy, PyTorch).
    ("maximum (NaN either side)", "maximum(%a, %b)", [nan_rows, nan_other],
     np.maximum, 0),
    ("minimum (NaN either side)", "minimum(%a, %b)", [nan_other, nan_rows],
     np.minimum, 0),
    ("logical_and", "logical_and(%a, %b)", [ba, bb], np.logical_and, 0),
    ("logical_or", "logical_or(%a, %b)", [ba, bb], np.logical_or, 0),
    ("logical_xor", "logical_xor(%a, %b)", [ba, bb], np.logical_xor, 0),
    ("bitwise_and", "bitwise_and(%a, %b)", [ia, ib], np.bitwise_and, 0),
    ("bitwise_or", "bitwise_or(%a, %b)", [ia, ib], np.bitwise_or, 0),
    ("bitwise_xor", "bitwise_xor(%a, %b)", [ia, ib], np.bitwise_xor, 0),
    ("left_shift", "left_shift(%a, %b)", [ia, np.abs(ib)], np.left_shift, 0),
    ("right_shift", "right_shift(%a, %b)", [ia, np.abs(ib)], np.right_shift, 0),
    ("equal", "equal(%a, %b)", [ia, ib], np.equal, 0),
    ("not_equal", "not_equal(%a, %b)", [x, y], np.not_equal, 0),
    ("less", "less(%a, %b)", [x, y], np.less, 0),
    ("less_equal", "less_equal(%a, %b)", [ia, ib], np.less_equal, 0),
    ("greater", "greater(%a, %b)", [x, y], np.greater, 0),
    ("greater_equal", "greater_equal(%a, %b)", [ia, ib], np.greater_equal, 0),
    ("negative", "negative(%a)", [x], np.negative, E),
    ("abs", "abs(%a)", [x], np.abs, E),
    ("negative (int)", "negative(%a)", [ib], np.negative, 0),
    ("abs (int)", "abs(%a)", [ib], np.abs, 0),
    ("exp", "exp(%a)", [x], np.exp, E),
    ("log", "log(%a)", [pos], np.log, E),
    ("log2", "log2(%a)", [pos], np.log2, E),
    ("log10", "log10(%a)", [pos], np.log10, E),
    ("sqrt", "sqrt(%a)", [pos], np.sqrt, E),
    ("rsqrt", "rsqrt(%a)", [pos], lambda a: 1 / np.sqrt(a), E),
    ("tanh", "tanh(%a)", [x], np.tanh, E),
    ("sigmoid", "sigmoid(%a)", [x], lambda a: 1 / (1 + np.exp(-a)), E),
    ("erf", "erf(%a)", [x], lambda a: ERF(a).astype(np.float32), E),
    ("sin", "sin(%a)", [x], np.sin, E),
    ("cos", "cos(%a)", [x], np.cos, E),
    ("tan", "tan(%a)", [x], np.tan, E),
    ("asin", "asin(%a)", [unit], np.arcsin, E),
    ("acos", "acos(%a)", [unit], np.arccos, E),
    ("atan", "atan(%a)", [x * 3], np.arctan, E),
    ("sinh", "sinh(%a)", [x], np.sinh, E),
    ("cosh", "cosh(%a)", [x], np.cosh, E),
    ("asinh", "asinh(%a)", [x * 3], np.arcsinh, E),
    ("acosh", "acosh(%a)", [pos + 1], np.arccosh, E),
    ("atanh", "atanh(%a)", [unit], np.arctanh, E),
    ("round", "round(%a)", [x * 2], np.round, E),
    ("floor", "floor(%a)", [x], np.floor, E),
    ("ceil", "ceil(%a)", [x], np.ceil, E),
    ("trunc", "trunc(%a)", [x], np.trunc, E),
    ("sign", "sign(%a)", [ia], np.sign, 0),
    ("logical_not", "logical_not(%a)", [ba], np.logical_not, 0),
    ("bitwise_not", "bitwise_not(%a)", [ia], np.invert, 0),
    ("copy", "copy(%a)", [x], np.copy, 0),
    ("zeros_like", "zeros_like(%a)", [x], np.zeros_like, 0),
    ("ones_like", "ones_like(%a)", [ia], np.ones_like, 0),
    ("nn.relu", "nn.relu(%a)", [x], lambda a: np.maximum(a, 0), 0),
    ("nn.leaky_relu", "nn.leaky_relu(%a, alpha=0.1f)", [x], lambda a: np.where(a > 0, a, np.float32(0.1) * a), E),
    ("clip", "clip(%a, a_min=-0.5f, a_max=0.75f)", [x], lambda a: np.clip(a, -0.5, 0.75), 0),
    ("cast", "cast(%a, dtype=\"int32\")", [x * 3], lambda a: a.astype(np.int32), 0),
    ("cast (to float16)", "cast(%a, dtype=\"float16\")", [x], lambda a: a.astype(np.float16), 1e-3),
    ("zeros", "zeros(shape=[2, 3], dtype=\"int64\")", [], lambda: np.zeros((2, 3), np.int64), 0),
    ("ones", "ones(shape=[4])", [], lambda: np.ones(4, np.float32), 0),
    ("full", "full(%a, shape=[2, 2])", [np.array(2.5, np.float32)], lambda a: np.full((2, 2), a), 0),
    ("full_like", "full_like(%a, %b)", [ia, np.array(7, np.int32)], lambda a, b: np.full_like(a, b), 0),
    ("where", "where(%a, %b, %c)", [boolean(3, 4), x, y], np.where, 0),
    ("sum", "sum(%a, axis=[1])", [x], lambda a: a.sum(axis=1), R),
    ("sum (all)", "sum(%a)", [x], lambda a: a.sum(), R),
    ("mean", "mean(%a, axis=[0, 2], keepdims=True)", [x], lambda a: a.mean(axis=(0, 2), keepdims=True), R),
    ("max", "max(%a, axis=[1], exclude=True)", [x], lambda a: a.max(axis=(0, 2)), 0),
    ("min", "min(%a, axis=[-1])", [x], lambda a: a.min(axis=-1), 0),
    # Over nothing: the identity (-inf for max, the type's highest for min;
    # numpy raises, TVM and PyTorch's amax give these).
    ("max (empty)", "max(%a, axis=[0])", [np.zeros((0, 3), np.float32)],
     lambda a: np.full(3, -np.inf, np.float32), 0),
    ("min (empty, int8)", "min(%a, axis=[1])", [np.zeros((2, 0), np.int8)],
     lambda a: np.full(2, 127, np.int8), 0),
    ("max (empty, uint8)", "max(%a)", [np.zeros((0,), np.uint8)],
     lambda a: np.uint8(0), 0),
    ("prod", "prod(%a, axis=[2])", [x], lambda a: a.prod(axis=2), R),
    ("all", "all(%a, axis=[1])", [ba], lambda a: a.all(axis=1), 0),
    ("any", "any(%a)", [ba], lambda a: a.any(), 0),
    ("argmax", "argmax(%a, axis=[1])", [x], lambda a: a.argmax(axis=1).astype(np.int32), 0),
    ("argmin", "argmin(%a, axis=[2], keepdims=True)", [x], lambda a: a.argmin(axis=2)[:, :, None].astype(np.int32), 0),
    # NaN is the maximum and the minimum (numpy, PyTorch): max and min
    # give it, argmax and argmin its first position (its last with
    # select_last_index).
    ("max (NaN)", "max(%a, axis=[1])", [nan_rows], lambda a: a.max(axis=1), 0),
    ("min (NaN, axis 0)", "min(%a, axis=[0])", [nan_rows], lambda a: a.min(axis=0), 0),
    ("argmax (NaN)", "argmax(%a, axis=[1])", [nan_rows],
     lambda a: arg_ref(a, 1, True, False), 0),
    ("argmin (NaN, last index)", "argmin(%a, axis=[0], select_last_index=True)",
     [nan_rows], lambda a: arg_ref(a, 0, False, True), 0),
    ("reshape", "reshape(%a, newshape=[0, -1])", [x], lambda a: a.reshape(2, 12), 0),
    ("reshape (-3, -4)", "reshape(%a, newshape=[-3, -4, 2, -1])", [x], lambda a: a.reshape(6, 2, 2), 0),
    ("reshape_like", "reshape_like(%a, %b)", [x, f32(4, 6)], lambda a, b: a.reshape(4, 6), 0),
    ("transpose", "transpose(%a, axes=[2, 0, 1])", [x], lambda a: a.transpose(2, 0, 1), 0),
    ("squeeze", "squeeze(%a, axis=[1])", [f32(3, 1, 2)], lambda a: a.squeeze(1), 0),
    ("expand_dims", "expand_dims(%a, axis=1, num_newaxis=2)", [y], lambda a: a[:, None, None], 0),
    ("concatenate", "concatenate((%a, %b), axis=1)", [f32(2, 3), f32(2, 2)], lambda a, b: np.concatenate([a, b], 1), 0),
    ("concatenate (20 inputs: tensor.concat)",
     "concatenate((" + ", ".join(["%a", "%b"] * 10) + "), axis=0)",
     [f32(2, 3), f32(1, 3)], lambda a, b: np.concatenate([a, b] * 10, 0), 0),
    ("stack", "stack((%a, %b), axis=1)", [y, y * 2], lambda a, b: np.stack([a, b], 1), 0),
    ("split", "split(%a, indices_or_sections=[1, 3], axis=2)", [x], lambda a: tuple(np.split(a, [1, 3], axis=2)), 0),
    ("take", "take(%a, %b, axis=1)", [x, np.array([[2, 0], [1, 1]], np.int32)], lambda a, b: np.take(a, b, axis=1), 0),
    ("take (wrap)", "take(%a, %b, mode=\"wrap\")", [x, np.array([30, -1], np.int32)], lambda a, b: np.take(a, b, mode="wrap"), 0),
    ("take (batch_dims=1)", "take(%a, %b, axis=2, batch_dims=1)", [x, np.array([[3, 0, 1], [2, 2, 9]], np.int64)],
     lambda a, b: np.stack([np.take(a[i], np.clip(b[i], 0, 3), axis=1) for i in range(2)]), 0),
    ("strided_slice", "strided_slice(%a, begin=[0, 2, 3], end=[2, 0, 0], strides=[1, -1, -2])", [x], lambda a: a[0:2, 2:0:-1, 3:0:-2], 0),
    ("strided_slice (views)", "strided_slice(%a, begin=[1, 0, 1], end=[2, 2, 4], strides=[1, 1, 2])", [x],
     lambda a: a[1:2, 0:2, 1:4:2], 0),
    ("gather", "gather(%a, %b, axis=1)", [x, np.array([[[0, 2, -1, 1], [-3, 0, 0, 2]],
                                                       [[1, 1, 2, -2], [2, 0, 1, 0]]], np.int64)],
     lambda a, b: np.take_along_axis(a, np.where(b < 0, b + 3, b), axis=1), 0),
    ("scatter_elements", "scatter_elements(%a, %b, %c, axis=1)",
     [x, np.array([[[0, 2, -1, 1], [2, 0, 2, 2]]], np.int64), f32(1, 2, 4)],
     lambda a, b, c: scatter_elements_ref(a, b, c, 1), 0),
    ("scatter_elements (add)", "scatter_elements(%a, %b, %c, axis=-1, reduction=\"add\")",
     [i32(3, 4), np.array([[1, 1, -1], [0, 3, 3]], np.int32), i32(2, 3)],
     lambda a, b, c: scatter_elements_ref(a, b, c, 1, "add"), 0),
    ("scatter_elements (max, uint8)", "scatter_elements(%a, %b, %c, reduction=\"max\")",
     [uint8(3, 2), np.array([[2, 0], [2, 0]], np.int64), uint8(2, 2)],
     lambda a, b, c: scatter_elements_ref(a, b, c, 0, "max"), 0),
    ("scatter_elements (mul)", "scatter_elements(%a, %b, %c, axis=0, reduction=\"mul\")",
     [y, np.array([[0, 1, 0, 1], [0, 1, 0, 1]], np.int32), f32(2, 4)],
     lambda a, b, c: scatter_elements_ref(a, b, c, 0, "mul"), E),
    ("scatter_nd", "scatter_nd(%a, %b, %c)",
     [x, np.array([[1, 0, -1], [2, 0, 1]], np.int64), f32(3, 4)],
     lambda a, b, c: scatter_nd_ref(a, b, c), 0),
    ("scatter_nd (add)", "scatter_nd(%a, %b, %c, mode=\"add\")",
     [x, np.array([[[1, 1], [0, 1]]], np.int32), f32(2, 2, 3, 4)],
     lambda a, b, c: scatter_nd_ref(a, b, c, "add"), E),
    ("scatter_nd (min, scalars)", "scatter_nd(%a, %b, %c, mode=\"min\")",
     [x, np.array([[0, 1], [2, 2], [3, 3]], np.int64), f32(2)],
     lambda a, b, c: scatter_nd_ref(a, b, c, "min"), 0),
    ("broadcast_to", "broadcast_to(%a, shape=[2, 3, 4])", [y], lambda a: np.broadcast_to(a, (2, 3, 4)), 0),
    ("layout_transform", "layout_transform(%a, src_layout=\"NCHW\", dst_layout=\"NCHW2c\")", [img],
     lambda a: a.reshape(2, 2, 2, 7, 7).transpose(0, 1, 3, 4, 2), 0),
    ("nn.batch_flatten", "nn.batch_flatten(%a)", [x], lambda a: a.reshape(2, -1), 0),
    ("nn.pad", "nn.pad(%a, %b, pad_width=[[0, 0], [1, 2], [2, 0]])", [x, np.array(9, np.float32)],
     lambda a, b: np.pad(a, ((0, 0), (1, 2), (2, 0)), constant_values=b), 0),
    ("nn.pad (reflect)", "nn.pad(%a, 0f, pad_width=[[0, 0], [2, 1], [1, 3]], pad_mode=\"reflect\")", [x],
     lambda a: np.pad(a, ((0, 0), (2, 1), (1, 3)), mode="reflect"), 0),
    ("nn.pad (edge)", "nn.pad(%a, 0f, pad_width=[[1, 0], [0, 0], [1, 2]], pad_mode=\"edge\")", [x],
     lambda a: np.pad(a, ((1, 0), (0, 0), (1, 2)), mode="edge"), 0),
    ("nn.bias_add", "nn.bias_add(%a, %b)", [img, f32(4)], lambda a, b: a + b[:, None, None], E),
    ("nn.prelu", "nn.prelu(%a, %b)", [img, f32(4)], lambda a, b: np.where(a > 0, a, a * b[:, None, None]), E),
    ("nn.softmax", "nn.softmax(%a, axis=1)", [x], lambda a: softmax(a.astype(np.float64), 1), E),
    ("nn.log_softmax", "nn.log_softmax(%a)", [x], lambda a: np.log(softmax(a.astype(np.float64), -1)), E),
    ("nn.conv2d", "nn.conv2d(%a, %b, strides=[2, 1], padding=[1, 0, 2, 1], dilation=[1, 2])",
     [img, f32(5, 4, 3, 2)], lambda a, b: conv2d_ref(a, b, (2, 1), (1, 0, 2, 1), (1, 2)), R),
    ("nn.conv2d (groups)", "nn.conv2d(%a, %b, padding=[1, 1], groups=2)", [img, f32(6, 2, 3, 3)],
     lambda a, b: conv2d_ref(a, b, padding=(1, 1, 1, 1), groups=2), R),
    ("nn.conv2d (NHWC, HWIO)", "nn.conv2d(%a, %b, data_layout=\"NHWC\", kernel_layout=\"HWIO\")",
     [img.transpose(0, 2, 3, 1).copy(), f32(3, 3, 4, 5)],
     lambda a, b: conv2d_ref(a.transpose(0, 3, 1, 2), b.transpose(3, 2, 0, 1)).transpose(0, 2, 3, 1), R),
    ("nn.conv2d_transpose", "nn.conv2d_transpose(%a, %b, strides=[2, 2], padding=[1, 1], output_padding=[1, 1])",
     [f32(1, 3, 4, 4), f32(3, 2, 3, 3)], lambda a, b: conv2d_transpose_ref(a, b, (2, 2), (1, 1, 1, 1), (1, 1)), R),
    # Output phases no kernel tap reaches (a 1x1 kernel at stride 3), a
    # unit stride cropping more than the kernel reaches, unequal strides and
    # kernel sides with uneven padding.
    ("nn.conv2d_transpose", "nn.conv2d_transpose(%a, %b, strides=[3, 3], output_padding=[2, 1])",
     [f32(2, 3, 4, 5), f32(3, 2, 1, 1)], lambda a, b: conv2d_transpose_ref(a, b, (3, 3), (0, 0, 0, 0), (2, 1)), R),
    ("nn.conv2d_transpose", "nn.conv2d_transpose(%a, %b, padding=[2, 2])",
     [f32(1, 3, 6, 5), f32(3, 4, 3, 3)], lambda a, b: conv2d_transpose_ref(a, b, (1, 1), (2, 2, 2, 2), (0, 0)), R),
    ("nn.conv2d_transpose", "nn.conv2d_transpose(%a, %b, strides=[2, 3], padding=[1, 0, 0, 1], output_padding=[1, 2])",
     [f32(1, 3, 4, 5), f32(3, 2, 3, 2)], lambda a, b: conv2d_transpose_ref(a, b, (2, 3), (1, 0, 0, 1), (1, 2)), R),
    ("nn.dense", "nn.dense(%a, %b)", [f32(2, 3, 8), f32(5, 8)], lambda a, b: a @ b.T, R),
    # Integer products widen each operand (by its signedness) to out_dtype.
    ("nn.dense (int8 to int32)", "nn.dense(%a, %b, out_dtype=\"int32\")", [int8(3, 9), int8(4, 9)],
     lambda a, b: (a.astype(np.int64) @ b.astype(np.int64).T).astype(np.int32), 0),
    ("nn.batch_matmul (uint8 to int32)",
     "nn.batch_matmul(%a, %b, out_dtype=\"int32\", transpose_b=True)",
     [uint8(2, 3, 9), uint8(2, 4, 9)],
     lambda a, b: np.einsum("bmk,bnk->bmn", a.astype(np.int64), b.astype(np.int64)).astype(np.int32), 0),
    ("nn.matmul", "nn.matmul(%a, %b, transpose_a=True)", [f32(8, 3), f32(8, 5)], lambda a, b: a.T @ b, R),
    # TVM's default: neither operand transposed.
    ("nn.batch_matmul", "nn.batch_matmul(%a, %b)", [f32(1, 3, 8), f32(4, 8, 5)],
     lambda a, b: np.einsum("bmk,bkn->bmn", np.broadcast_to(a, (4, 3, 8)), b), R),
    ("nn.max_pool2d", "nn.max_pool2d(%a, pool_size=[3, 3], strides=[2, 2], padding=[1, 1])", [img],
     lambda a: pool_ref(a, (3, 3), (2, 2), (1, 1, 1, 1), "max"), 0),
    ("nn.avg_pool2d", "nn.avg_pool2d(%a, pool_size=[3, 2], strides=[2, 2], padding=[1, 0], ceil_mode=True)", [img],
     lambda a: pool_ref(a, (3, 2), (2, 2), (1, 0, 1, 0), "avg", ceil_mode=True), R),
    ("nn.avg_pool2d (count pad)", "nn.avg_pool2d(%a, pool_size=[3, 3], padding=[1, 1], count_include_pad=True)", [img],
     lambda a: pool_ref(a, (3, 3), (1, 1), (1, 1, 1, 1), "avg", count_include_pad=True), R),
    # TVM's gradient operators: (out_grad, data).
    ("nn.max_pool2d_grad",
     "nn.max_pool2d_grad(%a, %b, pool_size=[3, 3], strides=[2, 2], padding=[1, 1])",
     [f32(2, 4, 4, 4), img],
     lambda g, a: pool_grad_ref(g, a, (3, 3), (2, 2), (1, 1, 1, 1), "max"), R),
    ("nn.max_pool2d_grad (NHWC)",
     "nn.max_pool2d_grad(%a, %b, pool_size=[2, 2], strides=[2, 2], layout=\"NHWC\")",
     [f32(2, 3, 3, 4), f32(2, 7, 7, 4)],
     lambda g, a: pool_grad_ref(g.transpose(0, 3, 1, 2), a.transpose(0, 3, 1, 2), (2, 2), (2, 2),
                                (0, 0, 0, 0), "max").transpose(0, 2, 3, 1), R),
    ("nn.avg_pool2d_grad",
     "nn.avg_pool2d_grad(%a, %b, pool_size=[3, 2], strides=[2, 2], padding=[1, 0], ceil_mode=True)",
     [f32(2, 4, 4, 4), img],
     lambda g, a: pool_grad_ref(g, a, (3, 2), (2, 2), (1, 0, 1, 0), "avg"), R),
    ("nn.avg_pool2d_grad (count pad)",
     "nn.avg_pool2d_grad(%a, %b, pool_size=[3, 3], padding=[1, 1], count_include_pad=True)",
     [f32(2, 4, 7, 7), img],
     lambda g, a: pool_grad_ref(g, a, (3, 3), (1, 1), (1, 1, 1, 1), "avg", count_include_pad=True), R),
    ("nn.conv2d_backward_weight",
     "nn.conv2d_backward_weight(%a, %b, strides=[2, 2], padding=[1, 1], dilation=[1, 2], "
     "channels=6, kernel_size=[3, 2], kernel_layout=\"NCHW\", out_layout=\"OIHW\")",
     [f32(2, 6, 4, 4), img],
     lambda g, a: conv2d_backward_weight_ref(g, a, (3, 2), (2, 2), (1, 1, 1, 1), (1, 2)), R),
    ("nn.conv2d_backward_weight (groups)",
     "nn.conv2d_backward_weight(%a, %b, padding=[1, 1], groups=2, channels=6, "
     "kernel_size=[3, 3], kernel_layout=\"NCHW\", out_layout=\"OIHW\")",
     [f32(2, 6, 7, 7), img],
     lambda g, a: conv2d_backward_weight_ref(g, a, (3, 3), (1, 1), (1, 1, 1, 1), groups=2), R),
    ("nn.conv2d_backward_weight (NHWC, HWIO)",
     "nn.conv2d_backward_weight(%a, %b, kernel_size=[2, 2], data_layout=\"NHWC\", "
     "kernel_layout=\"NHWC\", out_layout=\"HWIO\")",
     [f32(2, 6, 6, 5), f32(2, 7, 7, 4)],
     lambda g, a: conv2d_backward_weight_ref(g.transpose(0, 3, 1, 2), a.transpose(0, 3, 1, 2),
                                             (2, 2)).transpose(2, 3, 1, 0), R),
    ("nn.global_avg_pool2d", "nn.global_avg_pool2d(%a)", [img], lambda a: a.mean(axis=(2, 3), keepdims=True), R),
    ("nn.global_max_pool2d", "nn.global_max_pool2d(%a)", [img], lambda a: a.max(axis=(2, 3), keepdims=True), 0),
    ("nn.adaptive_avg_pool2d", "nn.adaptive_avg_pool2d(%a, output_size=[3, 2])", [img],
     lambda a: adaptive_ref(a, (3, 2), "avg"), R),
    ("nn.adaptive_max_pool2d", "nn.adaptive_max_pool2d(%a, output_size=[4])", [img],
     lambda a: adaptive_ref(a, (4, 4), "max"), 0),
    # Integer averages (a quantized network's): the sum over the count,
    # truncated toward zero.
    ("nn.avg_pool2d (int32, NHWC)",
     "nn.avg_pool2d(%a, pool_size=[3, 3], padding=[1, 1], layout=\"NHWC\")",
     [i32(2, 7, 7, 4, low=-1000, high=1000)],
     lambda a: np.trunc(pool_ref(a.transpose(0, 3, 1, 2).astype(np.float64), (3, 3), (1, 1),
                                 (1, 1, 1, 1), "avg").astype(np.float64))
     .transpose(0, 2, 3, 1).astype(np.int32), 0),
    ("nn.avg_pool2d (uint8, count pad)",
     "nn.avg_pool2d(%a, pool_size=[3, 3], strides=[2, 2], padding=[1, 1], count_include_pad=True)",
     [uint8(2, 3, 7, 7)],
     lambda a: np.trunc(pool_ref(a, (3, 3), (2, 2), (1, 1, 1, 1), "avg",
                                 count_include_pad=True).astype(np.float64)).astype(np.uint8), 0),
    ("nn.adaptive_avg_pool2d (int32)", "nn.adaptive_avg_pool2d(%a, output_size=[3, 2])",
     [i32(2, 3, 7, 7, low=-1000, high=1000)],
     lambda a: np.trunc(adaptive_ref(a, (3, 2), "avg").astype(np.float64)).astype(np.int32), 0),
    ("nn.batch_norm", "nn.batch_norm(%a, %b, %c, %d, %e, epsilon=0.001f)",
     [img, f32(4), f32(4), f32(4), f32(4, low=0.5, high=2)],
     lambda a, g, b, m, v: ((a - m[:, None, None]) / np.sqrt(v[:, None, None] + 0.001) * g[:, None, None]
                            + b[:, None, None], m, v), R),
    ("nn.layer_norm", "nn.layer_norm(%a, %b, %c)", [x, f32(4), f32(4)],
     lambda a, g, b: (a - a.mean(-1, keepdims=True)) / np.sqrt(a.var(-1, keepdims=True) + 1e-5) * g + b, R),
    ("nn.dropout", "nn.dropout(%a)", [x], lambda a: (a, np.ones_like(a)), 0),
    ("nn.upsampling", "nn.upsampling(%a, scale_h=2f, scale_w=1.5f)", [img],
     lambda a: upsample_ref(a, 2, 1.5, "nearest_neighbor"), 0),
    ("nn.upsampling (bilinear)", "nn.upsampling(%a, scale_h=2f, scale_w=2f, method=\"bilinear\")", [img],
     lambda a: upsample_ref(a, 2, 2, "bilinear"), E),
    # 7 rows at 1.3 are 9 (9.1 rounded): rows sample at 7/9 steps, not 1/1.3.
    ("nn.upsampling (bilinear, 1.3)",
     "nn.upsampling(%a, scale_h=1.3f, scale_w=0.6f, method=\"bilinear\")", [img],
     lambda a: upsample_ref(a, 1.3, 0.6, "bilinear"), E),
    ("nn.upsampling (align_corners)",
     "nn.upsampling(%a, scale_h=1.5f, scale_w=2f, align_corners=True)", [img],
     lambda a: upsample_ref(a, 1.5, 2, "nearest_neighbor", True), 0),
    ("nn.upsampling (bilinear, align_corners)",
     "nn.upsampling(%a, scale_h=1.5f, scale_w=2f, method=\"bilinear\", align_corners=True)",
     [img], lambda a: upsample_ref(a, 1.5, 2, "bilinear", True), E),
    # Composite operators (rewritten by --relay-decompose).
    ("fast_exp", "fast_exp(%a)", [x], np.exp, E),
    ("fast_tanh", "fast_tanh(%a)", [x], np.tanh, E),
    ("fast_erf", "fast_erf(%a)", [x], lambda a: ERF(a).astype(np.float32), E),
    ("trunc_divide", "trunc_divide(%a, %b)", [x * 3, pos[0]], lambda a, b: np.trunc(a / b), E),
    ("trunc_divide (int)", "trunc_divide(%a, %b)", [ia, ib], lambda a, b: np.trunc(a / b).astype(np.int32), 0),
    ("trunc_mod", "trunc_mod(%a, %b)", [x * 3, pos[0]], np.fmod, E),
    ("trunc_mod (int)", "trunc_mod(%a, %b)", [ia, ib], np.fmod, 0),
    ("isnan", "isnan(%a)", [special], np.isnan, 0),
    ("reinterpret", 'reinterpret(%a, dtype="int32")', [special],
     lambda a: a.view(np.int32), 0),
    ("reinterpret (int to float)", 'reinterpret(%a, dtype="float32")',
     [i32(2, 3, low=0, high=2**30) + (1 << 30)], lambda a: a.view(np.float32), 0),
    ("reinterpret (float64 to uint64)", 'reinterpret(%a, dtype="uint64")',
     [special.astype(np.float64)], lambda a: a.view(np.uint64), 0),
    ("isinf", "isinf(%a)", [special], np.isinf, 0),
    ("isfinite", "isfinite(%a)", [special], np.isfinite, 0),
    ("cast_like", "cast_like(%a, %b)", [x * 4, ia], lambda a, b: a.astype(np.int32), 0),
    ("broadcast_to_like", "broadcast_to_like(%a, %b)", [y, x], lambda a, b: np.broadcast_to(a, b.shape), 0),
    ("collapse_sum_like", "collapse_sum_like(%a, %b)", [x, f32(3, 1)],
     lambda a, b: a.sum(axis=(0, 2)).reshape(3, 1), R),
    # numpy's advanced indexing; negative indices count from the end.
    ("adv_index", "adv_index((%a, %b))", [f32(5, 3, 4), i32(2, 3, low=-5, high=5).astype(np.int64)],
     lambda a, b: a[b], 0),
    ("adv_index (two, broadcast)", "adv_index((%a, %b, %c))",
     [f32(5, 3, 4), i32(2, 1, low=-5, high=5), i32(3, low=-3, high=3).astype(np.int64)],
     lambda a, b, c: a[b, c], 0),
    ("adv_index (every axis)", "adv_index((%a, %b, %c, %d))",
     [f32(4, 3, 2), i32(5, low=0, high=4), i32(5, low=-3, high=3), i32(5, low=0, high=2)],
     lambda a, b, c, d: a[b, c, d], 0),
    ("collapse_sum_to", "collapse_sum_to(%a, %b, shape=[3, 1])", [x, i64(3, 1)],
     lambda a, b: a.sum(axis=(0, 2)).reshape(3, 1), R),
    # Without the attribute the result's sizes are the operand's values,
    # known at run time only.
    ("collapse_sum_to (run-time shape)", "collapse_sum_to(%a, %b)", [x, i64(1, 4)],
     lambda a, b: a.sum(axis=(0, 1)).reshape(1, 4), R),
    # MXNet's reverse reshape: special values read from the right.
    ("contrib_reverse_reshape", "contrib_reverse_reshape(%a, newshape=[-1, 0])",
     [f32(10, 5, 4)], lambda a: a.reshape(50, 4), 0),
    ("contrib_reverse_reshape (0 copies from the right)",
     "contrib_reverse_reshape(%a, newshape=[0, -1])", [f32(6, 5, 4)],
     lambda a: a.reshape(5, 24), 0),
    ("nn.fifo_buffer", "nn.fifo_buffer(%a, %b, axis=1)", [f32(2, 2, 3), f32(2, 5, 3)],
     lambda a, b: np.concatenate([b, a], 1)[:, 2:], 0),
    ("nn.fifo_buffer (last axis)", "nn.fifo_buffer(%a, %b, axis=-1)", [f32(3, 1), f32(3, 4)],
     lambda a, b: np.concatenate([b, a], 1)[:, 1:], 0),
    # numpy's slice assignment with bounds known at run time.
    ("strided_set", "strided_set(%a, %b, %c, %d, %e)",
     [f32(4, 6), f32(2, 2), np.array([1, 1], np.int32), np.array([4, 5], np.int32),
      np.array([2, 3], np.int32)], strided_set_ref, 0),
    ("strided_set (backwards, bounds for the first axis only)",
     "strided_set(%a, %b, %c, %d, %e)",
     [f32(5, 4), f32(3, 4), np.array([-1], np.int32), np.array([-7], np.int32),
      np.array([-2], np.int32)], strided_set_ref, 0),
    ("strided_set (int32, negative begin, int64 bounds)",
     "strided_set(%a, %b, %c, %d, %e)",
     [i32(2, 4, 5), i32(2, 2, 2), np.array([0, -2, 1]), np.array([2, 4, 3]),
      np.array([1, 1, 1])], strided_set_ref, 0),
    # TVM's sparse operators against scipy's sparse matrices.
    ("nn.sparse_dense", "nn.sparse_dense(%a, %b, %c, %d)", [f32(3, 6), *csr_5x6],
     sparse_dense_ref, 1e-5),
    ("nn.sparse_dense (BSR)", "nn.sparse_dense(%a, %b, %c, %d)", [f32(3, 6), *bsr_4x6],
     sparse_dense_ref, 1e-5),
    ("nn.sparse_dense (sparse_lhs)", "nn.sparse_dense(%a, %b, %c, %d, sparse_lhs=True)",
     [f32(4, 6), *csr_5x6], lambda *a: sparse_dense_ref(*a, sparse_lhs=True), 1e-5),
    ("nn.sparse_dense (BSR, sparse_lhs)",
     "nn.sparse_dense(%a, %b, %c, %d, sparse_lhs=True)",
     [f32(2, 6), *bsr_4x6], lambda *a: sparse_dense_ref(*a, sparse_lhs=True), 1e-5),
    ("nn.sparse_add", "nn.sparse_add(%a, %b, %c, %d)", [f32(5, 6), *csr_5x6],
     lambda a, *m: a + sparse_matrix(*m, (5, 6)), 1e-6),
    ("nn.sparse_transpose", "nn.sparse_transpose(%a, %b, %c)", [*csr_5x5],
     sparse_transpose_ref, 0),
    ("sparse_reshape", "sparse_reshape(%a, %b, %c)",
     [np.array([[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 2, 5]], np.int64),
      np.array([2, 3, 6], np.int64), np.array([9, -1], np.int64)], sparse_reshape_ref, 0),
    ("sparse_reshape (int32, to more axes)", "sparse_reshape(%a, %b, %c)",
     [np.array([[0, 3], [2, 1], [3, 5]], np.int32), np.array([4, 6], np.int32),
      np.array([2, -1, 3], np.int32)], sparse_reshape_ref, 0),
    ("sparse_fill_empty_rows", "sparse_fill_empty_rows(%a, %b, %c, %d)",
     [np.array([[0, 1], [0, 3], [2, 0], [5, 2]], np.int64), np.array([1, 2, 3, 4], np.int64),
      np.array([7, 6], np.int64), np.array([9], np.int64)], sparse_fill_empty_rows_ref, 0),
    ("sparse_fill_empty_rows (float, 3-d, rows out of order, 0-d default)",
     "sparse_fill_empty_rows(%a, %b, %c, %d)",
     [np.array([[3, 1, 1], [1, 0, 2], [3, 0, 0]], np.int32), f32(3),
      np.array([5, 2, 3], np.int32), np.array(-1.5, np.float32)],
     sparse_fill_empty_rows_ref, 0),
    # TVM's Fourier transforms: numpy's fft, and topi's stft sum.
    ("dft", "dft(%a, %b)", [f32(2, 3, 8), f32(2, 3, 8)], dft_ref, 1e-4),
    ("dft (inverse)", "dft(%a, %b, inverse=True)", [f32(4, 5), f32(4, 5)],
     lambda a, b: dft_ref(a, b, inverse=True), 1e-5),
    ("stft", "stft(%a, %b, n_fft=8, hop_length=4, win_length=8)",
     [f32(2, 32), np.hanning(8).astype(np.float32)],
     lambda a, w: stft_ref(a, w, 8, 4, 8), 1e-4),
    ("stft (one signal, win_length below n_fft, both sides, normalized)",
     "stft(%a, %b, n_fft=8, hop_length=3, win_length=6, normalized=True, onesided=False)",
     [f32(20), f32(7)], lambda a, w: stft_ref(a, w, 8, 3, 6, True, False), 1e-4),
    # TVM's x86 packed layouts (what its AlterOpLayout emits): the plain
    # operators' references on the unpacked tensors.
    ("nn.contrib_conv2d_NCHWc",
     "nn.contrib_conv2d_NCHWc(%a, %b, padding=[1, 1, 1, 1], channels=16, kernel_size=[3, 3], "
     "data_layout=\"NCHW8c\", kernel_layout=\"OIHW8i8o\", out_layout=\"NCHW4c\")",
     [pack_nchwc(f32(1, 16, 6, 6), 8), pack_oihwio(f32(16, 16, 3, 3), 8, 8)],
     lambda x, w: pack_nchwc(conv2d_ref(unpack_nchwc(x), unpack_oihwio(w), padding=(1, 1, 1, 1)), 4),
     1e-4),
    ("nn.contrib_depthwise_conv2d_NCHWc",
     "nn.contrib_depthwise_conv2d_NCHWc(%a, %b, strides=[2, 2], padding=[1, 1, 1, 1], groups=16, "
     "channels=16, kernel_size=[3, 3], data_layout=\"NCHW8c\", kernel_layout=\"OIHW1i8o\")",
     [pack_nchwc(f32(1, 16, 7, 7), 8), pack_oihwio(f32(16, 1, 3, 3), 1, 8)],
     lambda x, w: pack_nchwc(conv2d_ref(unpack_nchwc(x), unpack_oihwio(w), strides=(2, 2),
                                        padding=(1, 1, 1, 1), groups=16), 8), 1e-4),
    ("nn.contrib_dense_pack", "nn.contrib_dense_pack(%a, %b, units=12, weight_layout=\"NC4n\")",
     [f32(3, 8), f32(12, 8).reshape(3, 4, 8).transpose(0, 2, 1).copy()],
     lambda x, w: x @ w.transpose(0, 2, 1).reshape(12, 8).T, 1e-5),
    ("nn.contrib_dense_pack (int8, NC4n2c)",
     "nn.contrib_dense_pack(%a, %b, weight_layout=\"NC4n2c\", out_dtype=\"int32\")",
     [int8(3, 8), int8(12, 8).reshape(3, 4, 4, 2).transpose(0, 2, 1, 3).copy()],
     lambda x, w: x.astype(np.int32) @ w.transpose(0, 2, 1, 3).reshape(12, 8).astype(np.int32).T, 0),
    # TVM's GEMM convolution (its AlterOpLayout's for Arm): the interleaved
    # weight against topi's index map, the convolution against the direct one.
    ("nn.contrib_conv2d_gemm_weight_transform",
     "nn.contrib_conv2d_gemm_weight_transform(%a, tile_rows=4, tile_cols=16)",
     [f32(3, 3, 5, 7)], lambda w: gemm_weight_transform_ref(w, 4, 16), 0),
    ("nn.contrib_conv2d_gemm_without_weight_transform",
     "nn.contrib_conv2d_gemm_without_weight_transform(%a, "
     "nn.contrib_conv2d_gemm_weight_transform(%b, tile_rows=4, tile_cols=16), strides=[2, 2], "
     "padding=[1, 1, 1, 1], channels=7, kernel_size=[3, 3], data_layout=\"NHWC\", "
     "kernel_layout=\"HWIO\")",
     [f32(1, 7, 6, 5), f32(3, 3, 5, 7)],
     lambda x, w: conv2d_nhwc_hwio_ref(x, w, strides=(2, 2), padding=(1, 1, 1, 1)), 1e-4),
    (lambda w: ("nn.contrib_conv2d_gemm_without_weight_transform (int8, a weight TVM "
                "interleaved, tiles padded further)",
                "nn.contrib_conv2d_gemm_without_weight_transform(%a, %b, channels=6, "
                "kernel_size=[2, 2], dilation=[2, 2], data_layout=\"NHWC\", "
                "kernel_layout=\"HWIO\", out_dtype=\"int32\")",
                [int8(2, 5, 5, 3), np.pad(gemm_weight_transform_ref(w, 4, 4),
                                          ((0, 1), (0, 2), (0, 0), (0, 0)))],
                lambda x, u: conv2d_nhwc_hwio_ref(x, w, dilation=(2, 2)).astype(np.int32), 0))(
        int8(2, 2, 3, 6)),
    # TVM's Winograd convolution (its AlterOpLayout's for CUDA and NHWC):
    # the transform against topi's matrices, the convolution on a weight
    # transformed here or by the reference against the direct one.
    ("nn.contrib_conv2d_winograd_weight_transform",
     "nn.contrib_conv2d_winograd_weight_transform(%a, tile_size=4)", [f32(8, 3, 3, 3)],
     lambda w: winograd_weight_transform_ref(w, 4), 1e-5),
    ("nn.contrib_conv2d_winograd_weight_transform (F(2, 5))",
     "nn.contrib_conv2d_winograd_weight_transform(%a, tile_size=2)", [f32(2, 3, 5, 5)],
     lambda w: winograd_weight_transform_ref(w, 2), 1e-5),
    ("nn.contrib_conv2d_winograd_weight_transform (float16 matrices)",
     "nn.contrib_conv2d_winograd_weight_transform(%a, tile_size=4)",
     [f32(4, 2, 3, 3).astype(np.float16)],
     lambda w: winograd_weight_transform_ref(w.astype(np.float32), 4), 1e-2),
    ("nn.contrib_conv2d_winograd_without_weight_transform",
     "nn.contrib_conv2d_winograd_without_weight_transform(%a, transpose("
     "nn.contrib_conv2d_winograd_weight_transform(%b, tile_size=2), axes=[0, 1, 3, 2]), "
     "tile_size=2, padding=[1, 1, 1, 1], channels=8, kernel_size=[3, 3])",
     [f32(2, 4, 7, 7), f32(8, 4, 3, 3)],
     lambda x, w: conv2d_ref(x, w, padding=(1, 1, 1, 1)), 1e-4),
    (lambda w: ("nn.contrib_conv2d_winograd_without_weight_transform (a weight TVM transformed, "
                "F(4, 3), partial tiles)",
                "nn.contrib_conv2d_winograd_without_weight_transform(%a, %b, tile_size=4, "
                "channels=6, kernel_size=[3, 3])",
                [f32(1, 3, 7, 9), winograd_weight_transform_ref(w, 4).transpose(0, 1, 3, 2).copy()],
                lambda x, u: conv2d_ref(x, w), 1e-4))(f32(6, 3, 3, 3)),
    ("nn.contrib_conv2d_winograd_without_weight_transform (NHWC, F(4, 5), uneven padding)",
     "nn.contrib_conv2d_winograd_without_weight_transform(%a, "
     "nn.contrib_conv2d_winograd_weight_transform(%b, tile_size=4), tile_size=4, "
     "padding=[2, 1, 2, 3], channels=4, kernel_size=[5, 5], data_layout=\"NHWC\")",
     [f32(1, 9, 8, 3), f32(4, 3, 5, 5)],
     lambda x, w: conv2d_ref(x.transpose(0, 3, 1, 2), w, padding=(2, 1, 2, 3)).transpose(0, 2, 3, 1),
     1e-3),
    ("nn.contrib_conv2d_winograd_without_weight_transform (F(6, 3))",
     "nn.contrib_conv2d_winograd_without_weight_transform(%a, transpose("
     "nn.contrib_conv2d_winograd_weight_transform(%b, tile_size=6), axes=[0, 1, 3, 2]), "
     "tile_size=6, padding=[1, 1], channels=5, kernel_size=[3, 3])",
     [f32(1, 6, 12, 12), f32(5, 6, 3, 3)],
     lambda x, w: conv2d_ref(x, w, padding=(1, 1, 1, 1)), 1e-3),
    ("nn.contrib_conv3d_winograd_weight_transform",
     "nn.contrib_conv3d_winograd_weight_transform(%a, tile_size=2)", [f32(2, 3, 3, 3, 3)],
     lambda w: winograd3d_weight_transform_ref(w, 2), 1e-5),
    ("nn.contrib_conv3d_winograd_weight_transform (depth 1)",
     "nn.contrib_conv3d_winograd_weight_transform(%a, tile_size=4)", [f32(2, 3, 1, 3, 3)],
     lambda w: winograd3d_weight_transform_ref(w, 4), 1e-5),
    ("nn.contrib_conv3d_winograd_without_weight_transform",
     "nn.contrib_conv3d_winograd_without_weight_transform(%a, "
     "nn.contrib_conv3d_winograd_weight_transform(%b, tile_size=2), tile_size=2, "
     "padding=[1, 1, 1, 1, 1, 1], channels=4, kernel_size=[3, 3, 3])",
     [f32(1, 3, 5, 6, 7), f32(4, 3, 3, 3, 3)],
     lambda x, w: conv3d_ref(x, w, (1, 1, 1), (1, 1, 1, 1, 1, 1), (1, 1, 1), 1), 1e-4),
    (lambda w: ("nn.contrib_conv3d_winograd_without_weight_transform (a weight TVM transformed, "
                "depth 2 apart, depth stride 2)",
                "nn.contrib_conv3d_winograd_without_weight_transform(%a, %b, tile_size=4, "
                "strides=[2, 1, 1], padding=[1, 1, 0, 0, 1, 2], channels=5, kernel_size=[2, 3, 3])",
                [f32(2, 3, 6, 7, 6), winograd3d_weight_transform_ref(w, 4)],
                lambda x, u: conv3d_ref(x, w, (2, 1, 1), (1, 1, 0, 0, 1, 2), (1, 1, 1), 1),
                1e-4))(f32(5, 3, 2, 3, 3)),
    # TVM's annotations: the identity (checkpoint also on a tuple).
    ("annotation.stop_fusion", "annotation.stop_fusion(%a)", [x], lambda a: a, 0),
    ("annotation.checkpoint", "annotation.checkpoint((%a, %b)).1", [x, y], lambda a, b: b, 0),
    ("annotation.cast_hint", "annotation.cast_hint(%a, dtype=\"int8\")", [x], lambda a: a, 0),
    ("annotation.compiler_begin", "annotation.compiler_begin(%a, compiler=\"ccompiler\")", [x],
     lambda a: a, 0),
    ("annotation.compiler_end", "annotation.compiler_end(%a, compiler=\"ccompiler\")", [x],
     lambda a: a, 0),
    ("annotation.bitpack_start", "annotation.bitpack_start(%a)", [x], lambda a: a, 0),
    ("annotation.bitpack_end", "annotation.bitpack_end(%a)", [x], lambda a: a, 0),
    # TVM's per-channel requantization arithmetic.
    ("fixed_point_multiply_per_axis",
     "fixed_point_multiply_per_axis(%a, %b, %c, %d, is_lshift_required=True, axes=[1])",
     [i32(2, 3, 4, 4, low=-1000, high=1000), i32(3, low=1 << 30, high=(1 << 31) - 1),
      i32(3, low=0, high=4), i32(3, low=0, high=8)],
     lambda a, b, c, d: fixed_point_multiply_per_axis_ref(a, b, c, d, True, [1]), 0),
    ("fixed_point_multiply_per_axis (last axis, no left shift)",
     "fixed_point_multiply_per_axis(%a, %b, %c, %d, axes=[3])",
     [i32(2, 2, 2, 5, low=-100000, high=100000), i32(5, low=1 << 29, high=(1 << 31) - 1),
      i32(5, low=0, high=4), i32(5, low=0, high=12)],
     lambda a, b, c, d: fixed_point_multiply_per_axis_ref(a, b, c, d, False, [3]), 0),
    ("reverse", "reverse(%a, axis=1)", [x], lambda a: a[:, ::-1], 0),
    ("tile", "tile(%a, reps=[2, 1, 3])", [y], lambda a: np.tile(a, (2, 1, 3)), 0),
    ("repeat", "repeat(%a, repeats=2, axis=1)", [x], lambda a: np.repeat(a, 2, axis=1), 0),
    ("nn.fast_softmax", "nn.fast_softmax(%a, axis=1)", [x], lambda a: softmax(a.astype(np.float64), 1), E),
    ("nn.l2_normalize", "nn.l2_normalize(%a, eps=0.001f, axis=[1])", [x],
     lambda a: a / np.sqrt(np.maximum((a.astype(np.float64) ** 2).sum(1, keepdims=True), 1e-3)), E),
    ("nn.lrn", "nn.lrn(%a, size=3, bias=1f, alpha=0.5f, beta=0.75f)", [img],
     lambda a: lrn_ref(a, 3, 1.0, 0.5, 0.75), E),
    # TVM's attribute defaults: size 5, bias 2, alpha 0.0001 (not Python's
    # 0.00001), beta 0.75.
    ("nn.lrn (defaults)", "nn.lrn(%a)", [f32(2, 4, 7, 7, low=-20, high=20)],
     lambda a: lrn_ref(a, 5, 2.0, 0.0001, 0.75), E),
    ("nn.instance_norm", "nn.instance_norm(%a, %b, %c)", [img, f32(4), f32(4)],
     lambda a, g, b: (a - a.mean((2, 3), keepdims=True)) / np.sqrt(a.var((2, 3), keepdims=True) + 1e-5)
     * g[:, None, None] + b[:, None, None], R),
    ("nn.group_norm", "nn.group_norm(%a, %b, %c, num_groups=2)", [img, f32(4), f32(4)],
     lambda a, g, b: group_norm_ref(a, 2, 1e-5) * g[:, None, None] + b[:, None, None], R),
    ("nn.conv1d", "nn.conv1d(%a, %b, strides=[2], padding=[1, 2], dilation=[2], groups=2)",
     [seq, f32(6, 2, 3)],
     lambda a, w: conv2d_ref(a[:, :, None], w[:, :, None], (1, 2), (0, 1, 0, 2), (1, 2), 2)[:, :, 0], R),
    ("nn.max_pool1d", "nn.max_pool1d(%a, pool_size=[3], strides=[2], padding=[1])", [seq],
     lambda a: pool_ref(a[:, :, None], (1, 3), (1, 2), (0, 1, 0, 1), "max")[:, :, 0], 0),
    ("nn.avg_pool1d", "nn.avg_pool1d(%a, pool_size=[2], count_include_pad=True, padding=[1])", [seq],
     lambda a: pool_ref(a[:, :, None], (1, 2), (1, 1), (0, 1, 0, 1), "avg", True)[:, :, 0], E),
    ("nn.cross_entropy", "nn.cross_entropy(%a, %b)",
     [softmax(f32(4, 6), 1).astype(np.float32), softmax(f32(4, 6), 1).astype(np.float32)],
     lambda p, t: np.float32(-(np.log(p.astype(np.float64)) * t).sum() / 4), E),
    ("nn.cross_entropy_with_logits", "nn.cross_entropy_with_logits(%a, %b)",
     [f32(4, 6), f32(4, 6)], lambda p, t: np.float32(-(p.astype(np.float64) * t).sum() / 4), E),
    ("nn.nll_loss (mean)", "nn.nll_loss(%a, %b, %c)",
     [f32(4, 6), np.array([5, 0, 2, 5], np.int32), f32(6, low=0.5, high=2.0)],
     lambda p, t, w: nll_ref(p, t, w, "mean", -100), E),
    ("nn.nll_loss (sum, ignored)", "nn.nll_loss(%a, %b, %c, reduction=\"sum\", ignore_index=2)",
     [f32(4, 6), np.array([5, 0, 2, 5], np.int32), f32(6, low=0.5, high=2.0)],
     lambda p, t, w: nll_ref(p, t, w, "sum", 2), E),
    ("nn.nll_loss (none, spatial)", "nn.nll_loss(%a, %b, %c, reduction=\"none\", ignore_index=1)",
     [f32(2, 6, 3), np.array([[5, 1, 0], [2, 3, 4]], np.int32), f32(6, low=0.5, high=2.0)],
     lambda p, t, w: nll_ref(p, t, w, "none", 1), E),
    ("one_hot", "one_hot(%a, %b, %c, depth=5, axis=1, dtype=\"float32\")",
     [i32(2, 3, low=0, high=6), np.float32(2.5), np.float32(-1)],
     lambda a, on, off: np.where(np.arange(5)[None, :, None] == a[:, None, :], on, off).astype(np.float32), 0),
    ("cumsum", "cumsum(%a, axis=1)", [x], lambda a: np.cumsum(a.astype(np.float64), 1), E),
    ("cumsum (flat, exclusive, int64)", "cumsum(%a, dtype=\"int64\", exclusive=True)", [ia],
     lambda a: np.concatenate([[0], np.cumsum(a.astype(np.int64))[:-1]]), 0),
    ("cumprod", "cumprod(%a, axis=1)", [f32(3, 7, low=0.5, high=1.5)],
     lambda a: np.cumprod(a.astype(np.float64), 1), E),
    ("cumprod (flat, exclusive, int64)", "cumprod(%a, dtype=\"int64\", exclusive=True)",
     [i32(2, 3, low=-3, high=4)],
     lambda a: np.concatenate([[1], np.cumprod(a.astype(np.int64))[:-1]]), 0),
    ("trilu", "trilu(%a, %b)", [f32(2, 3, 5), scalar(1, np.int64)],
     lambda a, k: np.triu(a, int(k)), 0),
    ("trilu (lower, k -1, int32 k)", "trilu(%a, %b, upper=False)",
     [f32(4, 6), scalar(-1, np.int32)], lambda a, k: np.tril(a, int(k)), 0),
    ("gather_nd", "gather_nd(%a, %b)",
     [f32(3, 4, 5), np.array([[0, 2, 1, 2, 0, 1], [3, 0, 1, 3, 2, 0]], np.int32)],
     lambda a, i: a[tuple(i)], 0),
    ("gather_nd (batch_dims 1, int64)", "gather_nd(%a, %b, batch_dims=1)",
     [f32(2, 3, 4), RNG.integers(0, 3, (1, 2, 5)).astype(np.int64)],
     lambda a, i: np.stack([a[n][i[0, n]] for n in range(2)]), 0),
    ("scatter_add", "scatter_add(%a, %b, %c, axis=1)",
     [f32(3, 5), np.array([[0, 4, 0, 2], [1, 1, 1, 1], [3, 2, 4, 3]], np.int64),
      f32(3, 4)],
     lambda a, i, u: (lambda r: (np.add.at(r, (np.arange(3)[:, None], i), u), r)[1])(
         a.astype(np.float64).copy()), E),
    ("unravel_index", "unravel_index(%a, %b)",
     [np.array([0, 5, 23, 17, 9], np.int32), np.array([2, 3, 4], np.int32)],
     lambda a, s: np.stack(np.unravel_index(a, tuple(s))), 0),
    ("unravel_index (0-d, int64)", "unravel_index(%a, %b)",
     [scalar(22, np.int64), np.array([2, 3, 4], np.int64)],
     lambda a, s: np.array(np.unravel_index(int(a), tuple(s))), 0),
    ("invert_permutation", "invert_permutation(%a)",
     [RNG.permutation(7).astype(np.int32)], np.argsort, 0),
    ("searchsorted", "searchsorted(%a, %b)",
     [np.sort(f32(2, 6), axis=1),
      np.concatenate([f32(2, 3), np.array([[-3.0], [3.0]], np.float32)], 1)],
     lambda a, v: np.stack([np.searchsorted(a[i], v[i]) for i in range(2)]).astype(np.int32), 0),
    ("searchsorted (1-d, right, int64)",
     "searchsorted(%a, %b, right=True, dtype=\"int64\")",
     [np.array([-1, 0, 0, 0.5, 2], np.float32),
      np.array([[0, -2, 0.5], [3, 0.25, -1]], np.float32)],
     lambda a, v: np.searchsorted(a, v, side="right").astype(np.int64), 0),
    ("searchsorted (0-d value)", "searchsorted(%a, %b)",
     [np.array([-1, 0, 0, 0.5, 2], np.float32), scalar(0.25, np.float32)],
     lambda a, v: np.array(np.searchsorted(a, v), np.int32), 0),
    ("sparse_to_dense", "sparse_to_dense(%a, %b, %c, output_shape=[3, 4])",
     [np.array([[0, 1], [2, 3], [1, 0]], np.int32), f32(3), scalar(-1.0, np.float32)],
     lambda i, v, d: (lambda r: (r.__setitem__(tuple(i.T), v), r)[1])(
         np.full((3, 4), d, np.float32)), 0),
    ("sparse_to_dense (1-d, one value, int32)",
     "sparse_to_dense(%a, %b, %c, output_shape=[6])",
     [np.array([0, 2, 5], np.int64), scalar(7, np.int32), scalar(1, np.int32)],
     lambda i, v, d: (lambda r: (r.__setitem__(i, v), r)[1])(
         np.full(6, d, np.int32)), 0),
    ("einsum", "einsum((%a, %b), equation=\"ij,jk->ik\")", [f32(3, 4), f32(4, 5)],
     lambda a, b: np.einsum("ij,jk->ik", a, b), 1e-5),
    ("einsum (three operands, a sum first)",
     "einsum((%a, %b, %c), equation=\"ij,jkz,kl->il\")",
     [f32(2, 3), f32(3, 4, 2), f32(4, 5)],
     lambda a, b, c: np.einsum("ij,jkz,kl->il", a, b, c), 1e-5),
    ("einsum (diagonal, ellipsis, implicit)",
     "einsum((%a, %b), equation=\"...ii,ki\")", [f32(2, 1, 3, 3), f32(4, 3)],
     lambda a, b: np.einsum("...ii,ki", a, b), 1e-5),
    ("einsum (size-1 labels broadcast)",
     "einsum((%a, %b), equation=\"bij,bjk->bki\")", [f32(1, 3, 4), f32(2, 4, 5)],
     lambda a, b: np.einsum("bij,bjk->bki", a, b), 1e-5),
    ("einsum (one operand: trace)", "einsum((%a,), equation=\"ii->\")", [f32(4, 4)],
     lambda a: np.einsum("ii->", a), 1e-5),
    ("meshgrid", "meshgrid((%a, %b, %c))", [f32(3), i32(4).astype(np.float32), f32(2)],
     lambda a, b, c: tuple(np.meshgrid(a, b, c, indexing="ij")), 0),
    ("meshgrid (xy, int32)", "meshgrid((%a, %b), indexing=\"xy\")", [i32(3), i32(5)],
     lambda a, b: tuple(np.meshgrid(a, b, indexing="xy")), 0),
    # TensorFlow's documented example of MatrixSetDiagV3 (k = (-1, 2),
    # RIGHT_LEFT alignment), its input and result as the documentation
    # prints them.
    ("matrix_set_diag (TensorFlow's example)",
     "matrix_set_diag(%a, %b, k1=-1, k2=2)",
     [np.full((2, 3, 4), 7, np.int32),
      np.array([[[0, 9, 1], [6, 5, 8], [1, 2, 3], [4, 5, 0]],
                [[0, 1, 2], [5, 6, 4], [6, 1, 2], [3, 4, 0]]], np.int32)],
     lambda a, b: np.array([[[1, 6, 9, 7], [4, 2, 5, 1], [7, 5, 3, 8]],
                            [[6, 5, 1, 7], [3, 1, 6, 2], [7, 4, 2, 4]]],
                           np.int32), 0),
    ("matrix_set_diag", "matrix_set_diag(%a, %b)", [f32(2, 3, 4), f32(2, 3)],
     lambda a, b: matrix_set_diag_ref(a, b, 0, 0, True, False), 0),
    ("matrix_set_diag (subdiagonals, LEFT_RIGHT)",
     "matrix_set_diag(%a, %b, k1=-3, k2=-1, super_diag_right_align=False, "
     "sub_diag_right_align=True)", [f32(5, 4), f32(3, 4)],
     lambda a, b: matrix_set_diag_ref(a, b, -3, -1, False, True), 0),
    ("image.crop_and_resize",
     "image.crop_and_resize(%a, %b, %c, crop_size=[3, 4], extrapolation_value=-1f)",
     [f32(2, 3, 5, 6),
      np.array([[0.1, 0.2, 0.7, 0.9], [0.8, 0.1, 0.2, 0.5], [-0.2, 0.3, 0.6, 1.3]],
               np.float32), np.array([1, 0, 1], np.int32)],
     lambda a, b, c: crop_and_resize_ref(a, b, c, (3, 4), "bilinear", -1.0), 1e-5),
    ("image.crop_and_resize (nearest, NHWC, one row)",
     "image.crop_and_resize(%a, %b, %c, crop_size=[1, 5], layout=\"NHWC\", "
     "method=\"nearest_neighbor\")",
     [f32(2, 4, 6, 3),
      np.array([[0.0, 0.0, 1.0, 1.0], [0.25, 0.9, 0.75, 0.1]], np.float32),
      np.array([0, 1], np.int64)],
     lambda a, b, c: crop_and_resize_ref(a, b, c, (1, 5), "nearest_neighbor", 0.0,
                                         "NHWC"), 0),
    ("image.resize1d", "image.resize1d(%a, size=[11])", [f32(2, 3, 7)],
     lambda a: resize_ref(a, (11,), 'linear', 'half_pixel'), 1e-5),
    ("image.resize1d (nearest, asymmetric)",
     'image.resize1d(%a, size=[4], method="nearest_neighbor", '
     'coordinate_transformation_mode="asymmetric", rounding_method="floor")',
     [f32(1, 2, 9)],
     lambda a: resize_ref(a, (4,), 'nearest_neighbor', 'asymmetric'), 0),
    # Without rounding_method, TVM's default: round (position 1.73 is 2).
    ("image.resize1d (nearest, default rounding)",
     'image.resize1d(%a, size=[11], method="nearest_neighbor")', [f32(2, 3, 7)],
     lambda a: resize_ref(a, (11,), 'nearest_neighbor', 'half_pixel', 'round'), 0),
    ("image.resize3d", "image.resize3d(%a, size=[3, 5, 4])", [f32(1, 2, 4, 3, 6)],
     lambda a: resize_ref(a, (3, 5, 4), 'linear', 'half_pixel'), 1e-5),
    ("image.resize3d (align_corners)",
     'image.resize3d(%a, size=[5, 2, 7], '
     'coordinate_transformation_mode="align_corners")', [f32(2, 1, 3, 4, 3)],
     lambda a: resize_ref(a, (5, 2, 7), 'linear', 'align_corners'), 1e-5),
    ("reverse_sequence", "reverse_sequence(%a, %b)",
     [f32(4, 6, 3), np.array([3, 1, 9, 0], np.int32)],
     lambda a, b: reverse_sequence_ref(a, b, 1, 0), 0),
    ("reverse_sequence (seq_axis 0, batch_axis 2)",
     "reverse_sequence(%a, %b, seq_axis=0, batch_axis=2)",
     [f32(5, 2, 3), i64(5, 2, 4)],
     lambda a, b: reverse_sequence_ref(a, b, 0, 2), 0),
    ("slice_like", "slice_like(%a, %b)", [f32(4, 5, 6), f32(3, 2)],
     lambda a, b: a[:3, :2], 0),
    ("slice_like (axes)", "slice_like(%a, %b, axes=[-1, 1])",
     [f32(2, 5, 6), f32(1, 4, 3)], lambda a, b: a[:, :4, :3], 0),
    ("nn.upsampling3d", "nn.upsampling3d(%a, scale_d=2f, scale_h=1.5f, scale_w=0.5f)",
     [f32(1, 2, 3, 5, 6)],
     lambda a: resize_ref(a, (6, 8, 3), "nearest_neighbor", "half_pixel"), 0),
    ("nn.upsampling3d (trilinear, NDHWC, align_corners)",
     'nn.upsampling3d(%a, scale_d=2f, scale_h=2f, scale_w=3f, layout="NDHWC", '
     'method="trilinear", coordinate_transformation_mode="align_corners")',
     [f32(2, 3, 2, 4, 3)],
     lambda a: resize_ref(a.transpose(0, 4, 1, 2, 3), (6, 4, 12), "linear",
                          "align_corners").transpose(0, 2, 3, 4, 1), 1e-5),
    ("sliding_window", "sliding_window(%a, axis=1, window_shape=[3, 4, 5], "
     "strides=[1, 2, 3])", [f32(2, 3, 6, 7)],
     lambda a: sliding_window_ref(a, 1, [3, 4, 5], [1, 2, 3]), 0),
    ("sliding_window (one axis, int32)",
     "sliding_window(%a, axis=0, window_shape=[3], strides=[2])", [i32(8)],
     lambda a: sliding_window_ref(a, 0, [3], [2]), 0),
    ("vision.yolo_reorg", "vision.yolo_reorg(%a, stride=2)",
     [f32(2, 8, 4, 6)], lambda a: yolo_reorg_ref(a, 2), 0),
    ("vision.yolo_reorg (stride 1)", "vision.yolo_reorg(%a)",
     [f32(1, 3, 2, 5)], lambda a: yolo_reorg_ref(a, 1), 0),
    # Offsets up to 2.5 pixels: taps outside the image, and between the
    # last row or column and the edge.
    ("nn.deformable_conv2d",
     "nn.deformable_conv2d(%a, %b, %c, padding=[1, 1], kernel_size=[3, 3], "
     "channels=3)",
     [f32(1, 4, 5, 6), f32(1, 18, 5, 6, low=-2.5, high=2.5), f32(3, 4, 3, 3)],
     lambda a, b, c: deformable_conv2d_ref(a, b, c, pad=(1, 1)), R),
    ("nn.deformable_conv2d (strided, dilated, groups, deformable groups)",
     "nn.deformable_conv2d(%a, %b, %c, strides=[2, 1], padding=[1, 0, 2, 1], "
     "dilation=[1, 2], deformable_groups=2, groups=2)",
     [f32(2, 4, 7, 8), f32(2, 24, 4, 7, low=-2.5, high=2.5), f32(6, 2, 3, 2)],
     lambda a, b, c: deformable_conv2d_ref(a, b, c, (2, 1), (1, 0), (1, 2), 2,
                                           2), R),
    ("image.affine_grid", "image.affine_grid(%a, target_shape=[5, 7])",
     [f32(3, 2, 3)], lambda a: affine_grid_ref(a, 5, 7), 1e-5),
    ("image.dilation2d", "image.dilation2d(%a, %b)", [f32(2, 3, 6, 7), f32(3, 2, 3)],
     lambda a, b: dilation2d_ref(a, b, (1, 1), (0, 0, 0, 0), (1, 1)), 0),
    ("image.dilation2d (NHWC, strides, padding, dilations)",
     'image.dilation2d(%a, %b, strides=[2, 1], padding=[1, 2, 0, 1], '
     'dilations=[1, 2], data_layout="NHWC", kernel_layout="HWI")',
     [f32(1, 7, 8, 2), f32(3, 2, 2)],
     lambda a, b: dilation2d_ref(a.transpose(0, 3, 1, 2), b.transpose(2, 0, 1),
                                 (2, 1), (1, 2, 0, 1), (1, 2)).transpose(0, 2, 3, 1), 0),
    ("nn.correlation", "nn.correlation(%a, %b, kernel_size=1, max_displacement=2, "
     "stride1=1, stride2=1, padding=[2, 2])", [f32(2, 3, 5, 6), f32(2, 3, 5, 6)],
     lambda a, b: correlation_ref(a, b, 1, 2, 1, 1, (2, 2), True), 1e-5),
    ("nn.correlation (kernel 3, strides, subtraction)",
     "nn.correlation(%a, %b, kernel_size=3, max_displacement=4, stride1=2, "
     "stride2=2, padding=[4, 3], is_multiply=False)",
     [f32(1, 4, 9, 8), f32(1, 4, 9, 8)],
     lambda a, b: correlation_ref(a, b, 3, 4, 2, 2, (4, 3), False), 1e-5),
    ("vision.multibox_prior", "vision.multibox_prior(%a, sizes=[0.3f, 0.5f], "
     "ratios=[1f, 2f, 0.5f])", [f32(1, 2, 3, 4)],
     lambda a: multibox_prior_ref(3, 4, [0.3, 0.5], [1, 2, 0.5], [-1, -1],
                                  [0.5, 0.5], False), 1e-6),
    ("vision.multibox_prior (steps, offsets, clip)",
     "vision.multibox_prior(%a, sizes=[0.9f], ratios=[1f, 3f], steps=[0.2f, 0.25f], "
     "offsets=[0.4f, 0.6f], clip=True)", [f32(2, 1, 5, 4)],
     lambda a: multibox_prior_ref(5, 4, [0.9], [1, 3], [0.2, 0.25], [0.4, 0.6],
                                  True), 1e-6),
    ("fixed_point_multiply", "fixed_point_multiply(%a, multiplier=1395864371, shift=-3)",
     [i32(4, 5, low=-100000, high=100000)],
     lambda a: fixed_point_multiply_ref(a, 1395864371, -3), 0),
    ("fixed_point_multiply (left shift)",
     "fixed_point_multiply(%a, multiplier=1073741824, shift=2)",
     [np.array([-7, -6, -5, -3, -2, -1, 0, 1, 3, 5, 1000, -1000], np.int32)],
     lambda a: fixed_point_multiply_ref(a, 1073741824, 2), 0),
    ("vision.get_valid_counts", "vision.get_valid_counts(%a, 0.3f)",
     [np.concatenate([RNG.integers(-1, 3, (2, 9, 1)).astype(np.float32),
                      f32(2, 9, 1, low=0, high=1), f32(2, 9, 4)], axis=2)],
     lambda a: get_valid_counts_ref(a, np.float32(0.3), 0, 1), 0),
    ("vision.get_valid_counts (no class, score last)",
     "vision.get_valid_counts(%a, %b, id_index=-1, score_index=4)",
     [f32(3, 7, 5, low=-1, high=1), scalar(0.1, np.float32)],
     lambda a, b: get_valid_counts_ref(a, b, -1, 4), 0),
    ("vision.non_max_suppression", "vision.non_max_suppression(%a, %b, %c, -1, 0.5f)",
     [detection_rows(2, 24, 1), np.array([20, 24], np.int32),
      np.stack([RNG.permutation(24), RNG.permutation(24)]).astype(np.int32)],
     lambda a, b, c: classic_nms_ref(a, b, c, -1, 0.5), 0),
    ("vision.non_max_suppression (rows, force, top_k, max, to the bottom)",
     "vision.non_max_suppression(%a, %b, %c, 5, 0.3f, force_suppress=True, top_k=15, "
     "return_indices=False, invalid_to_bottom=True)",
     [detection_rows(2, 24, 2), np.array([24, 17], np.int32),
      np.tile(np.arange(24, dtype=np.int32), (2, 1))],
     lambda a, b, c: classic_nms_ref(a, b, c, 5, 0.3, force_suppress=True, top_k=15,
                                     return_indices=False, invalid_to_bottom=True), 0),
    ("vision.non_max_suppression (no class, score last, coordinates first)",
     "vision.non_max_suppression(%a, %b, %c, 4i64, 0.4f, id_index=-1, score_index=4, "
     "coord_start=0, return_indices=False)",
     [detection_rows(1, 16, 3)[..., [2, 3, 4, 5, 1]].copy(), np.array([16], np.int32),
      np.arange(16, dtype=np.int32)[None]],
     lambda a, b, c: classic_nms_ref(a, b, c, 4, 0.4, score_index=4, id_index=-1,
                                     coord_start=0, return_indices=False), 0),
    ("vision.non_max_suppression (threshold 0: rows as they are)",
     "vision.non_max_suppression(%a, %b, %c, -1, 0f)",
     [detection_rows(2, 10, 4), np.array([7, 0], np.int32),
      np.tile(np.arange(9, -1, -1, dtype=np.int32), (2, 1))],
     lambda a, b, c: classic_nms_ref(a, b, c, -1, 0.0), 0),
    ("vision.non_max_suppression (after get_valid_counts)",
     "%0 = vision.get_valid_counts(%a, 0.1f);\n  "
     "vision.non_max_suppression(%0.1, %0.0, %0.2, 8, 0.45f)",
     [detection_rows(2, 30, 5, width=7)],
     lambda a: classic_nms_ref(*(lambda c, o, i: (o, c, i))(
         *get_valid_counts_ref(a, np.float32(0.1), 0, 1)), 8, 0.45), 0),
    ("vision.multibox_transform_loc",
     "vision.multibox_transform_loc(%a, %b, %c, threshold=0.4f)",
     [softmax(f32(2, 4, 10, low=-3, high=3), 1), f32(2, 40, low=-1, high=1),
      np.sort(f32(1, 10, 4, low=0, high=1).reshape(1, 10, 2, 2), axis=2).reshape(1, 10, 4)],
     lambda a, b, c: multibox_transform_loc_ref(a, b, c, True, 0.4,
                                                (0.1, 0.1, 0.2, 0.2), False), 1e-5),
    ("vision.multibox_transform_loc (background kept, no clip)",
     "vision.multibox_transform_loc(%a, %b, %c, clip=False, variances=[0.2f, 0.1f, 0.3f, 0.25f], "
     "keep_background=True)",
     [softmax(f32(1, 3, 6, low=-3, high=3), 1), f32(1, 24, low=-2, high=2),
      f32(1, 6, 4, low=-0.2, high=1.2)],
     lambda a, b, c: multibox_transform_loc_ref(a, b, c, False, 0.01,
                                                (0.2, 0.1, 0.3, 0.25), True), 1e-5),
    ("vision.roi_pool", "vision.roi_pool(%a, %b, pooled_size=[3, 2], spatial_scale=0.5f)",
     [f32(2, 3, 9, 11),
      np.array([[0, 1, 2, 14, 12], [1, 0, 0, 21, 17], [1, 8, 3, 9, 4],
                [0, 5, 9, 40, 30], [1, -6, -3, 3, 2]], np.float32)],
     lambda a, b: roi_pool_ref(a, b, 3, 2, 0.5), 0),
    ("nn.space_to_batch_nd", "nn.space_to_batch_nd(%a, block_shape=[2, 3], "
     "paddings=[[1, 0], [2, 1]], pad_value=0.5)", [f32(2, 5, 3, 4)],
     lambda a: space_to_batch_ref(a, [2, 3], [1, 0, 2, 1], 0.5), 0),
    ("nn.space_to_batch_nd (1 block axis, int32)",
     "nn.space_to_batch_nd(%a, block_shape=[2], paddings=[[0, 1]])",
     [i32(3, 5)], lambda a: space_to_batch_ref(a, [2], [0, 1]), 0),
    ("nn.batch_to_space_nd", "nn.batch_to_space_nd(%a, block_shape=[2, 3], "
     "crops=[[1, 0], [2, 1]])", [f32(12, 3, 3, 4)],
     lambda a: batch_to_space_ref(a, [2, 3], [1, 0, 2, 1]), 0),
    ("nn.dilate", "nn.dilate(%a, strides=[1, 2, 3], dilation_value=-1.0)",
     [f32(2, 3, 4)], lambda a: dilate_ref(a, [1, 2, 3], -1.0), 0),
    ("nn.depth_to_space", "nn.depth_to_space(%a, block_size=2)", [img],
     lambda a: a.reshape(2, 2, 2, 1, 7, 7).transpose(0, 3, 4, 1, 5, 2).reshape(2, 1, 14, 14), 0),
    ("nn.depth_to_space (CRD)", "nn.depth_to_space(%a, block_size=2, mode=\"CRD\")", [img],
     lambda a: a.reshape(2, 1, 2, 2, 7, 7).transpose(0, 1, 4, 2, 5, 3).reshape(2, 1, 14, 14), 0),
    ("nn.space_to_depth", "nn.space_to_depth(%a, block_size=2)", [f32(1, 2, 4, 6)],
     lambda a: a.reshape(1, 2, 2, 2, 3, 2).transpose(0, 3, 5, 1, 2, 4).reshape(1, 8, 2, 3), 0),
    # TVM's defaults for attributes it prints only when they differ
    # (block sizes and strides 1, depth 1, space_to_depth's unused mode).
    ("nn.space_to_depth (TVM's defaults, its unused mode)",
     "%0 = nn.space_to_depth(%a, block_size=2, mode=\"CRD\");\n  nn.space_to_depth(%0)",
     [f32(1, 2, 4, 6)],
     lambda a: a.reshape(1, 2, 2, 2, 3, 2).transpose(0, 3, 5, 1, 2, 4).reshape(1, 8, 2, 3), 0),
    ("nn.depth_to_space (TVM's defaults)", "nn.depth_to_space(%a)", [img], lambda a: a, 0),
    ("nn.space_to_batch_nd (TVM's defaults)",
     "%0 = nn.space_to_batch_nd(%a, paddings=[[0, 0], [0, 0]]);\n  "
     "nn.batch_to_space_nd(%0, crops=[[1, 0], [0, 1]])", [f32(2, 5, 3, 4)],
     lambda a: a[:, 1:, :-1], 0),
    ("nn.dilate (TVM's defaults)", "nn.dilate(%a)", [f32(3, 4)], lambda a: a, 0),
    ("one_hot (TVM's defaults)", "one_hot(%a, 1f, 0f, dtype=\"float32\")",
     [np.array([[0, 1], [-1, 0]], np.int32)],
     lambda a: (a[..., None] == 0).astype(np.float32), 0),
    ("topk", "topk(%a, k=3, axis=1)", [x], lambda a: topk_ref(a, 3, 1, False), 0),
    ("topk (int, ties, ascending, indices)",
     "topk(%a, k=4, is_ascend=True, ret_type=\"indices\", dtype=\"int64\")",
     [i32(2, 6, low=0, high=3)], lambda a: topk_ref(a, 4, -1, True)[1].astype(np.int64), 0),
    ("topk (values)", "topk(%a, k=2, ret_type=\"values\")", [x], lambda a: topk_ref(a, 2, -1, False)[0], 0),
    ("argsort", "argsort(%a, axis=1)", [x], lambda a: np.argsort(a, axis=1, kind="stable").astype(np.int32), 0),
    ("argsort (descending, ties)", "argsort(%a, is_ascend=False, dtype=\"int64\")",
     [i32(3, 7, low=0, high=3)], lambda a: topk_ref(a, 7, -1, False)[1].astype(np.int64), 0),
    ("sort", "sort(%a, axis=0)", [x], lambda a: np.sort(a, axis=0), 0),
    # k or axes beyond 64: the bitonic sorting network (--relay-decompose).
    ("topk (sorting network: 100 of 300, ties)", "topk(%a, k=100, axis=1)",
     [i32(3, 300, low=0, high=40)], lambda a: topk_ref(a, 100, 1, False), 0),
    ("topk (sorting network, ascending, floats)",
     "topk(%a, k=70, is_ascend=True, dtype=\"int64\")", [f32(2, 129)],
     lambda a: (topk_ref(a, 70, -1, True)[0],
                topk_ref(a, 70, -1, True)[1].astype(np.int64)), 0),
    ("argsort (sorting network, axis 0)", "argsort(%a, axis=0)", [f32(150, 3)],
     lambda a: np.argsort(a, axis=0, kind="stable").astype(np.int32), 0),
    ("sort (sorting network, descending, ints)",
     "sort(%a, is_ascend=False)", [i32(2, 257, low=-50, high=50)],
     lambda a: -np.sort(-a, axis=-1), 0),
    # NaN above every number (PyTorch's order), -0 equal to 0, in the
    # rounds (k up to 64) and in the sorting network.
    ("topk (NaN, inf, -0)", "topk(%a, k=5, axis=1)", [nan_rows],
     lambda a: topk_ref(a, 5, 1, False), 0),
    ("topk (NaN, inf, -0, ascending)", "topk(%a, k=9, is_ascend=True)",
     [nan_rows], lambda a: topk_ref(a, 9, 1, True), 0),
    ("argsort (NaN, inf, -0, axis 0)", "argsort(%a, axis=0, is_ascend=False)",
     [nan_rows], lambda a: sort_order(a, 0, False).astype(np.int32), 0),
    ("sort (NaN, inf, -0)", "sort(%a)", [nan_rows],
     lambda a: np.take_along_axis(a, sort_order(a, 1, True), 1), 0),
    ("topk (sorting network, NaN, inf, -0)", "topk(%a, k=100)", [nan_wide],
     lambda a: topk_ref(a, 100, 1, False), 0),
    ("argsort (sorting network, NaN, inf, -0)", "argsort(%a)", [nan_wide],
     lambda a: sort_order(a, 1, True).astype(np.int32), 0),
    ("shape_of", "shape_of(%a)", [x], lambda a: np.array(a.shape, dtype=np.int32), 0),
    ("ndarray_size", "ndarray_size(%a, dtype=\"int64\")", [x], lambda a: np.int64(a.size), 0),
    ("nn.mirror_pad", "nn.mirror_pad(%a, pad_width=[0, 0, 2, 1, 1, 3])", [x],
     lambda a: np.pad(a, ((0, 0), (2, 1), (1, 3)), mode="symmetric"), 0),
    ("nn.mirror_pad (reflect)", "nn.mirror_pad(%a, pad_width=[1, 0, 2, 1, 0, 3], mode=\"REFLECT\")", [x],
     lambda a: np.pad(a, ((1, 0), (2, 1), (0, 3)), mode="reflect"), 0),
    ("variance", "variance(%a, %b, axis=[1, 2], unbiased=True)", [x, x.mean((1, 2), keepdims=True)],
     lambda a, m: ((a.astype(np.float64) - m) ** 2).sum((1, 2)) / 11, R),
    ("nn.adaptive_avg_pool1d", "nn.adaptive_avg_pool1d(%a, output_size=[4])", [seq],
     lambda a: adaptive_ref(a[:, :, None], (1, 4), "avg")[:, :, 0], R),
    ("nn.adaptive_max_pool1d", "nn.adaptive_max_pool1d(%a, output_size=[3])", [seq],
     lambda a: adaptive_ref(a[:, :, None], (1, 3), "max")[:, :, 0], 0),
    ("nn.conv1d_transpose",
     "nn.conv1d_transpose(%a, %b, strides=[2], padding=[1, 0], output_padding=[1])",
     [seq, f32(4, 3, 3)],
     lambda a, w: conv2d_transpose_ref(a[:, :, None], w[:, :, None], (1, 2), (0, 1, 0, 0), (0, 1))[:, :, 0], R),
    ("nn.conv3d", "nn.conv3d(%a, %b, strides=[2, 1, 2], padding=[1, 0, 1, 0, 1, 1], "
     "dilation=[1, 2, 1], groups=2)", [vol, f32(6, 2, 3, 3, 2)],
     lambda a, w: conv3d_ref(a, w, (2, 1, 2), (1, 0, 1, 0, 1, 1), (1, 2, 1), 2), R),
    ("nn.conv3d (1xkxk, then kx1x1)", "nn.conv3d(nn.conv3d(%a, %b, padding=[0, 1, 1]), %c, "
     "padding=[1, 0, 0], strides=[2, 1, 1])", [vol, f32(5, 4, 1, 3, 3), f32(3, 5, 3, 1, 1)],
     lambda a, w, v: conv3d_ref(conv3d_ref(a, w, (1, 1, 1), (0, 1, 1, 0, 1, 1), (1, 1, 1), 1),
                                v, (2, 1, 1), (1, 0, 0, 1, 0, 0), (1, 1, 1), 1), R),
    ("nn.conv3d (1x1x1, strided, grouped)", "nn.conv3d(%a, %b, strides=[2, 2, 3], groups=2)",
     [vol, f32(6, 2, 1, 1, 1)],
     lambda a, w: conv3d_ref(a, w, (2, 2, 3), (0,) * 6, (1, 1, 1), 2), R),
    ("nn.conv3d_transpose", "nn.conv3d_transpose(%a, %b, strides=[2], kernel_size=[2, 2, 2])",
     [f32(1, 4, 3, 4, 5), f32(4, 3, 2, 2, 2)],
     lambda a, w: conv3d_transpose_ref(a, w, (2, 2, 2), (0,) * 6, (0, 0, 0), (1, 1, 1), 1), R),
    ("nn.conv3d_transpose (padded, output_padding, dilated, grouped)",
     "nn.conv3d_transpose(%a, %b, strides=[2, 1, 3], padding=[1, 0, 1, 2, 1, 0], "
     "output_padding=[1, 0, 2], dilation=[1, 2, 1], groups=2)",
     [vol, f32(4, 3, 3, 2, 3)],
     lambda a, w: conv3d_transpose_ref(a, w, (2, 1, 3), (1, 0, 1, 2, 1, 0), (1, 0, 2), (1, 2, 1), 2), R),
    ("nn.max_pool3d", "nn.max_pool3d(%a, pool_size=[3, 2, 3], strides=[2, 2, 1], "
     "padding=[1, 0, 1], ceil_mode=True)", [vol],
     lambda a: pool3d_ref(a, (3, 2, 3), (2, 2, 1), (1, 0, 1, 1, 0, 1), "max", ceil_mode=True), 0),
    ("nn.avg_pool3d", "nn.avg_pool3d(%a, pool_size=[2, 3, 2], strides=[2], "
     "padding=[1, 1, 0, 0, 1, 1])", [vol],
     lambda a: pool3d_ref(a, (2, 3, 2), (2, 2, 2), (1, 1, 0, 0, 1, 1), "avg"), E),
    ("nn.avg_pool3d (count_include_pad, ceil_mode)", "nn.avg_pool3d(%a, pool_size=[3], "
     "strides=[2], padding=[1], count_include_pad=True, ceil_mode=True)", [vol],
     lambda a: pool3d_ref(a, (3, 3, 3), (2, 2, 2), (1,) * 6, "avg", True, True), E),
    ("nn.adaptive_avg_pool3d", "nn.adaptive_avg_pool3d(%a, output_size=[4, 3, 5])", [vol],
     lambda a: adaptive3d_ref(a, (4, 3, 5), "avg"), R),
    ("nn.adaptive_max_pool3d", "nn.adaptive_max_pool3d(%a, output_size=[1])", [vol],
     lambda a: adaptive3d_ref(a, (1, 1, 1), "max"), 0),
    ("sequence_mask", "sequence_mask(%a, %b, mask_value=-1f, axis=1)",
     [x, np.array([1, 3], dtype=np.int32)],
     lambda a, n: np.where(np.arange(3)[None, :, None] < n[:, None, None], a, -1).astype(np.float32), 0),
    # Quantized operators: scales and zero points are constants in the
    # program (a per-channel one by stack, which FoldConstant folds); exact.
    ("qnn.quantize", "qnn.quantize(%a, 0.05f, 3, out_dtype=\"uint8\")", [f32(2, 3, 4, low=-3, high=8)],
     lambda a: quantize_ref(a, 0.05, 3, np.uint8), 0),
    ("qnn.quantize (per channel)",
     "%s = stack((0.02f, 0.05f, 0.1f)); %z = stack((1, -2, 0)); qnn.quantize(%a, %s, %z, axis=1)",
     [f32(2, 3, 4)], lambda a: quantize_ref(a, [0.02, 0.05, 0.1], [1, -2, 0], np.int8, axis=1), 0),
    ("qnn.dequantize", "qnn.dequantize(%a, 0.25f, 7)", [uint8(2, 5)],
     lambda a: dequantize_ref(a, 0.25, 7), 0),
    ("qnn.dequantize (per channel)", "%s = stack((0.5f, 0.125f)); qnn.dequantize(%a, %s, 0, axis=0)",
     [int8(2, 5)], lambda a: dequantize_ref(a, [0.5, 0.125], 0, axis=0), 0),
    ("qnn.requantize", "qnn.requantize(%a, 0.0037f, 0, 0.11f, -3)", [i32(3, 8, low=-50000, high=50000)],
     lambda a: requantize_ref(a, 0.0037, 0, 0.11, -3, np.int8), 0),
    # A ratio of 0.5 makes every odd input a tie: UPWARD and TONEAREST differ
    # on the negative ones; a ratio above 1 shifts left.
    ("qnn.requantize (ties upward)", "qnn.requantize(%a, 0.5f, 1, 1f, 0, out_dtype=\"int32\")",
     [i32(20, low=-9, high=10)], lambda a: requantize_ref(a, 0.5, 1, 1.0, 0, np.int32), 0),
    ("qnn.requantize (ties to nearest)",
     "qnn.requantize(%a, 0.5f, 1, 1f, 0, rounding=\"TONEAREST\", out_dtype=\"int32\")",
     [i32(20, low=-9, high=10)],
     lambda a: requantize_ref(a, 0.5, 1, 1.0, 0, np.int32, rounding="TONEAREST"), 0),
    ("qnn.requantize (per channel, left shift)",
     "%s = stack((0.3f, 0.02f)); qnn.requantize(%a, %s, 2, 0.1f, 5, axis=0, out_dtype=\"uint8\")",
     [int8(2, 6)], lambda a: requantize_ref(a, [0.3, 0.02], 2, 0.1, 5, np.uint8, axis=0), 0),
    # Ratios under 1/4 take 32-bit lanes when compiled (the high half of
    # the product, then a shift of n - 32): over the whole int32 range, at
    # total shifts 33, 38 and 60 in one tensor, out_dtype int32 so that no
    # clip hides a wrong low bit.
    ("qnn.requantize (32-bit lanes, whole int32 range)",
     "%s = stack((0.2f, 0.0037f, 1e-9f)); qnn.requantize(%a, %s, 0, 0.9f, 3, axis=1, out_dtype=\"int32\")",
     [i32(64, 3, low=-2**31, high=2**31)],
     lambda a: requantize_ref(a, [0.2, 0.0037, 1e-9], 0, 0.9, 3, np.int32, axis=1), 0),
    # A power-of-two ratio (1/8: significand 2^30, shift 33) makes every
    # fourth input a tie, negative ones included; a uint8 input with a
    # zero point is shifted in 32 bits first.
    ("qnn.requantize (32-bit lanes, ties)",
     "qnn.requantize(%a, 0.125f, 0, 1f, 0, out_dtype=\"int32\")", [np.arange(-20, 21, dtype=np.int32)],
     lambda a: requantize_ref(a, 0.125, 0, 1.0, 0, np.int32), 0),
    ("qnn.requantize (32-bit lanes, uint8 with a zero point)",
     "qnn.requantize(%a, 0.01f, 131, 0.5f, -7)", [uint8(4, 16)],
     lambda a: requantize_ref(a, 0.01, 131, 0.5, -7, np.int8), 0),
    ("qnn.requantize (float32)",
     "qnn.requantize(%a, 0.0037f, 4, 0.11f, -3, compute_dtype=\"float32\")",
     [i32(3, 8, low=-50000, high=50000)],
     lambda a: np.clip(np.round((a - 4).astype(np.float32) * (np.float32(0.0037) / np.float32(0.11))) - 3,
                       -128, 127).astype(np.int8), 0),
    ("qnn.conv2d", "qnn.conv2d(%a, %b, 0, 0, 0.1f, 0.05f, padding=[1, 1], channels=3, kernel_size=[3, 3])",
     [int8(1, 2, 5, 5), int8(3, 2, 3, 3)], lambda a, b: qnn_conv2d_ref(a, b, 0, 0, padding=(1, 1, 1, 1)), 0),
    ("qnn.conv2d (zero points, strides)",
     "%z = stack((3, -1, 0)); qnn.conv2d(%a, %b, 128, %z, 0.1f, 0.05f, strides=[2, 2], padding=[1, 0, 0, 1])",
     [uint8(2, 2, 6, 5), int8(3, 2, 3, 2)],
     lambda a, b: qnn_conv2d_ref(a, b, 128, [3, -1, 0], strides=(2, 2), padding=(1, 0, 0, 1)), 0),
    # uint8 data with a zero point, int8 weights without one: computed on
    # the data shifted into int8, the padding made explicit.
    ("qnn.conv2d (uint8 x int8)",
     "qnn.conv2d(%a, %b, 3, 0, 0.1f, 0.05f, strides=[2, 1], padding=[1, 2, 0, 1], channels=4, kernel_size=[3, 3])",
     [uint8(1, 3, 7, 6), int8(4, 3, 3, 3)],
     lambda a, b: qnn_conv2d_ref(a, b, 3, 0, strides=(2, 1), padding=(1, 2, 0, 1)), 0),
    ("qnn.conv2d (uint8 x int8, depthwise)",
     "qnn.conv2d(%a, %b, 200, 0, 0.1f, 0.05f, padding=[1, 1], groups=3, channels=3, kernel_size=[3, 3])",
     [uint8(1, 3, 5, 5), int8(3, 1, 3, 3)],
     lambda a, b: qnn_conv2d_ref(a, b, 200, 0, padding=(1, 1, 1, 1), groups=3), 0),
    ("qnn.conv2d_transpose",
     "qnn.conv2d_transpose(%a, %b, 3, 0, 0.1f, 0.05f, strides=[2, 2], padding=[1, 1], output_padding=[1, 1])",
     [int8(1, 2, 4, 4), int8(2, 3, 3, 3)],
     lambda a, b: np.rint(conv2d_transpose_ref(a.astype(np.float64) - 3, b.astype(np.float64), (2, 2),
                                               (1, 1, 1, 1), (1, 1))).astype(np.int32), 0),
    ("qnn.conv2d_transpose (uint8, per-channel kernel zero points)",
     "%z = stack((1, -2, 0)); qnn.conv2d_transpose(%a, %b, 128, %z, 0.1f, 0.05f, strides=[2, 1])",
     [uint8(1, 2, 3, 4), int8(2, 3, 2, 2)],
     lambda a, b: np.rint(conv2d_transpose_ref(a.astype(np.float64) - 128,
                                               b.astype(np.float64) - along([1, -2, 0], 1, 4), (2, 1),
                                               (0, 0, 0, 0), (0, 0))).astype(np.int32), 0),
    ("qnn.dense", "qnn.dense(%a, %b, 5, -2, 0.1f, 0.2f, units=4)", [uint8(3, 7), int8(4, 7)],
     lambda a, b: ((a.astype(np.int64) - 5) @ (b.astype(np.int64) + 2).T).astype(np.int32), 0),
    ("qnn.batch_matmul", "qnn.batch_matmul(%a, %b, 0, 0, 0.1f, 0.2f, transpose_b=True)", [int8(2, 3, 5), int8(2, 4, 5)],
     lambda a, b: np.einsum("bmk,bnk->bmn", a.astype(np.int64), b.astype(np.int64)).astype(np.int32), 0),
    ("qnn.add", "qnn.add(%a, %b, 0.1f, 3, 0.2f, -5, 0.25f, 2)", [int8(2, 6), int8(6)],
     lambda a, b: qnn_add_ref(a, b, 0.1, 3, 0.2, -5, 0.25, 2), 0),
    ("qnn.add (same parameters)", "qnn.add(%a, %b, 0.1f, 3, 0.1f, 3, 0.1f, 3)", [uint8(2, 6), uint8(2, 6)],
     lambda a, b: qnn_add_ref(a, b, 0.1, 3, 0.1, 3, 0.1, 3), 0),
    ("qnn.subtract", "qnn.subtract(%a, %b, 0.1f, 3, 0.2f, -5, 0.25f, 2)", [int8(2, 6), int8(2, 6)],
     lambda a, b: qnn_add_ref(a, b, 0.1, 3, 0.2, -5, 0.25, 2, subtract=True), 0),
    ("qnn.mul", "qnn.mul(%a, %b, 0.1f, 3, 0.2f, -5, 0.25f, 2)", [int8(2, 6), int8(2, 6)],
     lambda a, b: qnn_mul_ref(a, b, 0.1, 3, 0.2, -5, 0.25, 2), 0),
    ("qnn.concatenate", "qnn.concatenate((%a, %b), (0.1f, 0.3f), (0, 4), 0.1f, 0, axis=1)",
     [int8(2, 3), int8(2, 2)],
     lambda a, b: np.concatenate([a, requantize_ref(b, 0.3, 4, 0.1, 0, np.int8)], axis=1), 0),
    # TVM's composite qnn operators, in their canonical forms.
    ("qnn.tanh", "qnn.tanh(%a, 0.05f, 3, 0.008f, 0)", [int8(2, 7)],
     lambda a: qnn_unary_ref(np.tanh, a, 0.05, 3, 0.008, 0), 0),
    ("qnn.sigmoid (uint8)", "qnn.sigmoid(%a, 0.1f, 128, 0.004f, 0)", [uint8(2, 7)],
     lambda a: qnn_unary_ref(lambda v: 1 / (1 + np.exp(-v)), a, 0.1, 128, 0.004, 0), 0),
    ("qnn.exp", "qnn.exp(%a, 0.02f, 0, 0.05f, -100)", [int8(3, 5)],
     lambda a: qnn_unary_ref(np.exp, a, 0.02, 0, 0.05, -100), 0),
    ("qnn.log", "qnn.log(%a, 0.05f, -129, 0.03f, 20)", [int8(3, 5)],
     lambda a: qnn_unary_ref(np.log, a, 0.05, -129, 0.03, 20), 0),
    ("qnn.sqrt (uint8)", "qnn.sqrt(%a, 0.1f, 0, 0.02f, 0)", [uint8(2, 8)],
     lambda a: qnn_unary_ref(np.sqrt, a, 0.1, 0, 0.02, 0), 0),
    ("qnn.rsqrt (uint8)", "qnn.rsqrt(%a, 0.1f, -1, 0.02f, 0)", [uint8(2, 8)],
     lambda a: qnn_unary_ref(lambda v: 1 / np.sqrt(v), a, 0.1, -1, 0.02, 0), 0),
    ("qnn.abs", "qnn.abs(%a, 0.1f, 5, 0.1f, -128)", [int8(2, 8)],
     lambda a: qnn_unary_ref(np.abs, a, 0.1, 5, 0.1, -128), 0),
    ("qnn.erf", "qnn.erf(%a, 0.02f, 0, 0.008f, 0)", [int8(2, 8)],
     lambda a: qnn_unary_ref(np.vectorize(math.erf), a, 0.02, 0, 0.008, 0), 0),
    ("qnn.hardswish", "qnn.hardswish(%a, 0.05f, 0, 0.05f, -20)", [int8(2, 8)],
     lambda a: qnn_unary_ref(hardswish_ref, a, 0.05, 0, 0.05, -20), 0),
    ("qnn.leaky_relu", "qnn.leaky_relu(%a, 0.1f, 3, 0.08f, -2, alpha=0.1f)", [int8(3, 8)],
     lambda a: qnn_leaky_relu_ref(a, 0.1, 0.1, 3, 0.08, -2), 0),
    ("qnn.leaky_relu (uint8, same parameters)",
     "qnn.leaky_relu(%a, 0.1f, 128, 0.1f, 128, alpha=0.25f)", [uint8(2, 9)],
     lambda a: qnn_leaky_relu_ref(a, 0.25, 0.1, 128, 0.1, 128), 0),
    ("qnn.softmax", "qnn.softmax(%a, 0.08f, 2, 0.00390625f, -128)", [int8(3, 10)],
     lambda a: qnn_softmax_ref(a, 0.08, 2, 0.00390625, -128), 0),
    ("qnn.softmax (uint8, axis 0)", "qnn.softmax(%a, 0.05f, 128, 0.004f, 0, axis=0)", [uint8(6, 4)],
     lambda a: qnn_softmax_ref(a, 0.05, 128, 0.004, 0, axis=0), 0),
    ("qnn.simulated_quantize (int8)", "qnn.simulated_quantize(%a, 1, 0.05f, 3)",
     [f32(2, 6, low=-8, high=8)], lambda a: qnn_simulated_ref(a, 1, 0.05, 3), 0),
    ("qnn.simulated_quantize (uint8, per channel)",
     "%s = stack((0.05f, 0.1f, 0.2f)); %z = stack((0, 10, 128)); qnn.simulated_quantize(%a, 2, %s, %z, axis=1)",
     [f32(2, 3, 4, low=-8, high=30)], lambda a: qnn_simulated_ref(a, 2, [0.05, 0.1, 0.2], [0, 10, 128], axis=1), 0),
    ("qnn.simulated_quantize (int32, code operand)", "qnn.simulated_quantize(%a, %b, 0.001f, -7)",
     [f32(3, 4), scalar(3, np.int32)], lambda a, b: qnn_simulated_ref(a, b, 0.001, -7), 0),
    ("qnn.simulated_quantize (disabled)", "qnn.simulated_quantize(%a, %b, 0.05f, 3)",
     [f32(3, 4), scalar(0, np.int32)], lambda a, b: qnn_simulated_ref(a, b, 0.05, 3), 0),
    ("qnn.simulated_dequantize (per channel)",
     "%s = stack((0.5f, 0.25f)); %z = stack((3, -1)); qnn.simulated_dequantize(%a, 2, %s, %z, axis=0)",
     [np.round(f32(2, 5, low=0, high=255))],
     lambda a: qnn_simulated_ref(a, 2, [0.5, 0.25], [3, -1], axis=0, dequantize=True), 0),
    ("qnn.avg_pool2d", "qnn.avg_pool2d(%a, 0.1f, 3, 0.2f, -4, pool_size=[2, 2], strides=[2, 2])",
     [int8(1, 2, 6, 6)],
     lambda a: qnn_avg_pool2d_ref(a, 0.1, 3, 0.2, -4, (2, 2), (2, 2), (0, 0, 0, 0)), 0),
    ("qnn.avg_pool2d (uint8, padding counted)",
     "qnn.avg_pool2d(%a, 0.1f, 128, 0.1f, 128, pool_size=[3, 3], strides=[2, 2], padding=[1, 1], "
     "count_include_pad=True)", [uint8(1, 3, 5, 5)],
     lambda a: qnn_avg_pool2d_ref(a, 0.1, 128, 0.1, 128, (3, 3), (2, 2), (1, 1, 1, 1), True), 0),
    # Quantized activations: relu, clip and max pooling on integers.
    ("nn.relu (int32)", "nn.relu(%a)", [i32(3, 5)], lambda a: np.maximum(a, 0), 0),
    ("clip (int32)", "clip(%a, a_min=-3.5f, a_max=4.5f)", [i32(3, 5)], lambda a: np.clip(a, -3, 4), 0),
    ("nn.max_pool2d (int8)", "nn.max_pool2d(%a, pool_size=[2, 2], strides=[2, 2])", [int8(1, 2, 4, 6)],
     lambda a: pool_ref(a.astype(np.float32), (2, 2), (2, 2), (0, 0, 0, 0), "max").astype(np.int8), 0),
    ("relay.op.annotation.simulated_quantize",
     "relay.op.annotation.simulated_quantize(%a, 0.05f, -127f, 127f, kind=2)", [f32(3, 4, low=-8, high=8)],
     lambda a: simulated_quantize_ref(a, 0.05, -127, 127), 0),
    ("relay.op.annotation.simulated_quantize (per channel)",
     "relay.op.annotation.simulated_quantize(%a, %b, -127f, 127f, kind=2)",
     [f32(3, 4, low=-8, high=8), f32(3, 1, low=0.02, high=0.1)],
     lambda a, b: simulated_quantize_ref(a, b, -127, 127), 0),
    ("argwhere", "argwhere(%a)", [f32(3, 4, low=-1, high=1).round()],
     lambda a: np.argwhere(a).astype(np.int32), 0),
    ("argwhere (bool, none)", "argwhere(%a)", [np.zeros((2, 3), bool)],
     lambda a: np.argwhere(a).astype(np.int32), 0),
    # Shapes, k, repetitions and bounds from operand values (TVM's dyn.*).
    ("dyn.reshape", "dyn.reshape(%a, %b)", [f32(2, 6), i64(4, -1)],
     lambda a, b: a.reshape(4, 3), 0),
    ("dyn.reshape (0 copies)", "dyn.reshape(%a, %b)", [f32(2, 3, 4), i64(0, -1)],
     lambda a, b: a.reshape(2, 12), 0),
    ("dyn.full", "dyn.full(%a, %b)", [scalar(1.5, np.float32), i64(2, 3)],
     lambda a, b: np.full((2, 3), 1.5, np.float32), 0),
    ("dyn.full (int32)", 'dyn.full(%a, %b, dtype="int32")',
     [scalar(7, np.int64), i64(3)], lambda a, b: np.full(3, 7, np.int32), 0),
    ("dyn.zeros", "dyn.zeros(%a)", [i64(2, 3)],
     lambda a: np.zeros((2, 3), np.float32), 0),
    ("dyn.ones", 'dyn.ones(%a, dtype="int32")', [i64(4)],
     lambda a: np.ones(4, np.int32), 0),
    ("dyn.broadcast_to", "dyn.broadcast_to(%a, %b)", [f32(3, 1), i64(2, 3, 4)],
     lambda a, b: np.broadcast_to(a, (2, 3, 4)), 0),
    ("dyn.broadcast_to (bool)", "dyn.broadcast_to(%a, %b)",
     [boolean(1, 5), i64(3, 5)], lambda a, b: np.broadcast_to(a, (3, 5)), 0),
    ("dyn.topk", "dyn.topk(%a, 2i64, axis=1)", [f32(3, 5)],
     lambda a: (-np.sort(-a, axis=1)[:, :2],
                np.argsort(-a, axis=1, kind="stable")[:, :2].astype(np.int32)), 0),
    ("dyn.topk (ascending, k operand)",
     'dyn.topk(%a, %b, axis=0, ret_type="indices", is_ascend=True, dtype="int64")',
     [f32(6, 2), scalar(3, np.int64)],
     lambda a, b: np.argsort(a, axis=0, kind="stable")[:3], 0),
    ("dyn.tile", "dyn.tile(%a, %b)", [f32(2, 3), i64(2, 1, 2)],
     lambda a, b: np.tile(a, (2, 1, 2)), 0),
    ("dyn.strided_slice", "dyn.strided_slice(%a, %b, %c, %d)",
     [f32(4, 5), i64(1, -1), i64(4, 0), i64(2, -2)],
     lambda a, b, c, d: a[1:4:2, -1:0:-2], 0),
    ("dyn.strided_slice (size, one axis)",
     'dyn.strided_slice(%a, %b, %c, %d, slice_mode="size")',
     [f32(4, 5), i64(1), i64(2), i64(1)], lambda a, b, c, d: a[1:3], 0),
    ("dyn.image.resize2d", "dyn.image.resize2d(%a, %b)",
     [f32(1, 2, 5, 6), i64(3, 8)],
     lambda a, b: resize_ref(a, (3, 8), 'linear', 'half_pixel'), 1e-5),
    ("dyn.image.resize2d (nearest, asymmetric)",
     'dyn.image.resize2d(%a, %b, method="nearest_neighbor", '
     'coordinate_transformation_mode="asymmetric", rounding_method="floor")',
     [f32(2, 1, 4, 3), i64(7, 2)],
     lambda a, b: resize_ref(a, (7, 2), 'nearest_neighbor', 'asymmetric'), 0),
    ("unique", "unique(%a)",
     [np.array([3, 1, 3, 0, 1, 7, 3], np.float32)],
     lambda a: unique_ref(a, True, False), 0),
    ("unique (first occurrence, counts)",
     "unique(%a, sorted=False, return_counts=True)",
     [np.array([5, -2, 5, 5, 9, -2], np.int64)],
     lambda a: unique_ref(a, False, True), 0),
    ("arange", 'arange(%a, %b, %c, dtype="float32")',
     [scalar(1, np.float32), scalar(4, np.float32), scalar(0.5, np.float32)],
     lambda a, b, c: np.arange(1, 4, 0.5, dtype=np.float32), 0),
    ("arange (int64, descending)", 'arange(%a, %b, %c, dtype="int64")',
     [scalar(10, np.int64), scalar(1, np.int64), scalar(-3, np.int64)],
     lambda a, b, c: np.arange(10, 1, -3), 0),
    ("dyn.nn.pad", "dyn.nn.pad(%a, %b, %c)",
     [f32(2, 3), np.array([[1, 0], [2, 3]], np.int64), scalar(9, np.float32)],
     lambda a, b, c: np.pad(a, b, constant_values=9), 0),
    ("dyn.nn.pad (reflect, int32 widths)",
     'dyn.nn.pad(%a, %b, 0f, pad_mode="reflect")',
     [f32(3, 4), np.array([[2, 1], [0, 3]], np.int32)],
     lambda a, b: np.pad(a, b, mode="reflect"), 0),
    ("dyn.nn.pad (edge)", 'dyn.nn.pad(%a, %b, 0f, pad_mode="edge")',
     [f32(2, 1, 3), np.array([[0, 1], [2, 2], [1, 0]], np.int64)],
     lambda a, b: np.pad(a, b, mode="edge"), 0),
    ("dyn.squeeze", "dyn.squeeze(%a, %b)", [f32(1, 3, 1, 2), i64(-2, 0)],
     lambda a, b: a.reshape(3, 2), 0),
    ("dyn.expand_dims", "dyn.expand_dims(%a, %b, num_newaxis=2)",
     [f32(3, 2), scalar(-2, np.int64)], lambda a, b: a.reshape(3, 1, 1, 2), 0),
    ("dyn.one_hot", 'dyn.one_hot(%a, %b, %c, %d, axis=1, dtype="float32")',
     [i32(2, 3, low=-1, high=6), scalar(2.5, np.float32),
      scalar(-1, np.float32), scalar(5, np.int64)],
     lambda a, on, off, d: np.where(
         np.arange(5)[None, :, None] == a[:, None, :], on, off).astype(
             np.float32), 0),
    ("dyn.one_hot (last axis, int32)",
     'dyn.one_hot(%a, 1, 0, %b, dtype="int32")',
     [i32(4, low=0, high=3), scalar(3, np.int32)],
     lambda a, d: (np.arange(3)[None, :] == a[:, None]).astype(np.int32), 0),
    ("dyn.sparse_to_dense", "dyn.sparse_to_dense(%a, %b, %c, %d)",
     [np.array([[0, 1], [2, 3], [1, 0]], np.int32), f32(3),
      scalar(-1.0, np.float32), i64(3, 4)],
     lambda i, v, d, s: (lambda r: (r.__setitem__(tuple(i.T), v), r)[1])(
         np.full((3, 4), d, np.float32)), 0),
    ("dyn.sparse_to_dense (1-d, one value)",
     "dyn.sparse_to_dense(%a, %b, %c, %d)",
     [np.array([0, 2, 5], np.int64), scalar(7, np.int32), scalar(1, np.int32),
      i64(6)],
     lambda i, v, d, s: (lambda r: (r.__setitem__(i, v), r)[1])(
         np.full(6, d, np.int32)), 0),
    ("dyn.nn.upsampling", "dyn.nn.upsampling(%a, %b, %c)",
     [f32(1, 2, 4, 3), scalar(2, np.float32), scalar(1.5, np.float64)],
     lambda a, b, c: upsample_ref(a, 2, 1.5, "nearest_neighbor"), 0),
    ("dyn.nn.upsampling (bilinear, NHWC)",
     'dyn.nn.upsampling(%a, %b, %c, layout="NHWC", method="bilinear")',
     [f32(1, 7, 5, 2), scalar(1.3, np.float32), scalar(0.6, np.float32)],
     lambda a, b, c: upsample_ref(a.transpose(0, 3, 1, 2), 1.3, 0.6,
                                  "bilinear").transpose(0, 2, 3, 1), E),
    ("dyn.nn.upsampling3d", "dyn.nn.upsampling3d(%a, %b, %c, %d)",
     [f32(1, 2, 3, 5, 6), scalar(2, np.float32), scalar(1.5, np.float32),
      scalar(0.5, np.float32)],
     lambda a, b, c, d: resize_ref(a, (6, 8, 3), "nearest_neighbor",
                                   "half_pixel"), 0),
    ("dyn.nn.upsampling3d (trilinear, NDHWC, align_corners)",
     'dyn.nn.upsampling3d(%a, %b, %b, %c, layout="NDHWC", '
     'method="trilinear", coordinate_transformation_mode="align_corners")',
     [f32(2, 3, 2, 4, 3), scalar(2, np.float32), scalar(3, np.float32)],
     lambda a, b, c: resize_ref(a.transpose(0, 4, 1, 2, 3), (6, 4, 12),
                                "linear", "align_corners").transpose(
                                    0, 2, 3, 4, 1), 1e-5),
    ("vision.all_class_non_max_suppression",
     "vision.all_class_non_max_suppression(%a, %b, 2i64, 0.4f, 0.2f)",
     [np.array([[[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3], [1, 1, 0, 0],
                 [5, 5, 6, 6]]], np.float32), f32(1, 2, 5, low=0, high=1)],
     lambda a, b: nms_ref(a, b, 2, 0.4, 0.2), 0),
    ("vision.all_class_non_max_suppression (400 clustered boxes)",
     "vision.all_class_non_max_suppression(%a, %b, 1000i64, 0.3f, 0.05f)",
     [clustered_boxes(400, 3), f32(1, 2, 400, low=0, high=1)],
     lambda a, b: nms_ref(a, b, 1000, 0.3, 0.05), 0),
    # A box at 3e38 (no width there in float32) is too far out for the
    # interpreter's buckets by left edge: from it on, its class compares
    # each candidate with every kept box.
    ("vision.all_class_non_max_suppression (a box at 3e38)",
     "vision.all_class_non_max_suppression(%a, %b, 1000i64, 0.3f, 0.05f)",
     [far_box(clustered_boxes(200, 5)), f32(1, 2, 200, low=0, high=1)],
     lambda a, b: nms_ref(a, b, 1000, 0.3, 0.05), 0),
    # TVM's own test of vision.proposal (tests/python/relay/
    # test_op_level5.py): its inputs and the outputs TVM's kernel gave.
    ("vision.proposal (TVM's test)",
     "vision.proposal(%a, %b, %c, scales=[0.5f], ratios=[0.5f], threshold=0.7f, "
     "rpn_pre_nms_top_n=200, rpn_post_nms_top_n=4)",
     TVM_PROPOSAL_INPUTS, lambda a, b, c: TVM_PROPOSAL_OUTPUT, 1e-5),
    ("vision.proposal (TVM's test, iou_loss)",
     "vision.proposal(%a, %b, %c, scales=[0.5f], ratios=[0.5f], threshold=0.7f, "
     "rpn_pre_nms_top_n=200, rpn_post_nms_top_n=4, iou_loss=True)",
     TVM_PROPOSAL_INPUTS, lambda a, b, c: TVM_PROPOSAL_IOU_LOSS_OUTPUT, 1e-5),
    # Two images, six anchors a cell, cells past the first image's height
    # (37 / 8 rows of 5), boxes under the minimum size, survivors cycled.
    ("vision.proposal",
     "vision.proposal(%a, %b, %c, scales=[2f, 4f], ratios=[0.5f, 1f, 2f], "
     "feature_stride=8, threshold=0.5f, rpn_pre_nms_top_n=100, "
     "rpn_post_nms_top_n=40, rpn_min_size=6)",
     [f32(2, 12, 5, 6, low=0, high=1), f32(2, 24, 5, 6, low=-0.6, high=0.6),
      np.array([[37, 45, 1.0], [40, 30, 0.8]], np.float32)],
     lambda a, b, c: proposal_ref(a, b, c, (2, 4), (0.5, 1, 2), 8, 0.5, 100, 40, 6),
     1e-5),
    ("vision.proposal (float64, all boxes, iou_loss, defaults)",
     "vision.proposal(%a, %b, %c, rpn_pre_nms_top_n=-1, iou_loss=True)",
     [RNG.uniform(0, 1, (1, 24, 3, 4)), RNG.uniform(-20, 20, (1, 48, 3, 4)),
      np.array([[50, 60, 1.5]])],
     lambda a, b, c: proposal_ref(a, b, c, rpn_pre_nms_top_n=-1, iou_loss=True),
     1e-9),
    ("vision.proposal (float16)",
     "vision.proposal(%a, %b, %c, scales=[1f], ratios=[1f, 2f], "
     "threshold=0.6f, rpn_post_nms_top_n=5, rpn_min_size=4)",
     [f32(1, 4, 2, 3, low=0, high=1).astype(np.float16),
      f32(1, 8, 2, 3, low=-0.5, high=0.5).astype(np.float16),
      np.array([[32, 48, 1]], np.float16)],
     lambda a, b, c: proposal_ref(a, b, c, (1,), (1, 2), 16, 0.6, 6000, 5, 4),
     1e-3),
    # uint64 past INT64_MAX (the interpreter holds it as a negative int64):
    # orders, shifts, quotients and conversions are the unsigned ones.
    ("less (uint64 past 2^63)", "less(%a, %b)", [U64_A, U64_B], np.less, 0),
    ("greater_equal (uint64 past 2^63)", "greater_equal(%a, %b)",
     [U64_A, U64_B], np.greater_equal, 0),
    ("right_shift (uint64 past 2^63)", "right_shift(%a, %b)",
     [U64_A, U64_SHIFTS], np.right_shift, 0),
    ("maximum (uint64 past 2^63)", "maximum(%a, %b)", [U64_A, U64_B],
     np.maximum, 0),
    ("floor_divide (uint64 past 2^63)", "floor_divide(%a, %b)",
     [U64_A, U64_B], np.floor_divide, 0),
    ("floor_mod (uint64 past 2^63)", "floor_mod(%a, %b)", [U64_A, U64_B],
     np.mod, 0),
    ("max and argmin (uint64 past 2^63)", "(max(%a), argmin(%a))", [U64_A],
     lambda a: (a.max(), np.int32(a.argmin())), 0),
    ("cast (uint64 past 2^63 to float64)", 'cast(%a, dtype="float64")',
     [U64_A], lambda a: a.astype(np.float64), 0),
    # TVM's random.* operators against a reference written from topi's
    # kernels (threefry_*_ref). TVM's own test of threefry_split gives the
    # keys split from threefry_key(0).
    ("random.threefry_split (TVM's test: threefry_key(0))",
     "random.threefry_split(%a)", [THREEFRY_KEY_0],
     lambda k: (np.array([0] * 8 + [1 << 62, 0], np.uint64),
                np.array([0] * 4 + [1 << 63, 0, 0, 0, 1 << 62, 0], np.uint64)),
     0),
    ("random.threefry_split (the path full: a new key)",
     "random.threefry_split(%a)", [THREEFRY_KEY_PATH_FULL], threefry_split_ref,
     0),
    ("random.threefry_split (the path's next bit in word 9)",
     "random.threefry_split(%a)", [THREEFRY_KEY_WORD_9], threefry_split_ref, 0),
    ("random.threefry_split (the path's next bit word 8's last)",
     "random.threefry_split(%a)", [THREEFRY_KEY_LAST_BIT], threefry_split_ref,
     0),
    ("random.threefry_generate (threefry_key(0), 7 numbers)",
     "random.threefry_generate(%a, out_shape=[7])", [THREEFRY_KEY_0],
     lambda k: threefry_generate_ref(k, [7]), 0),
    ("random.threefry_generate (2x3x4)",
     "random.threefry_generate(%a, out_shape=[2, 3, 4])", [THREEFRY_KEY_SEED],
     lambda k: threefry_generate_ref(k, [2, 3, 4]), 0),
    ("random.threefry_generate (1000 numbers)",
     "random.threefry_generate(%a, out_shape=[10, 100])", [THREEFRY_KEY_SEED],
     lambda k: threefry_generate_ref(k, [10, 100]), 0),
    ("random.threefry_generate (the counter full: the path grows)",
     "random.threefry_generate(%a, out_shape=[5])", [THREEFRY_KEY_NO_ROOM],
     lambda k: threefry_generate_ref(k, [5]), 0),
    ("random.threefry_generate (the counter and path full: a new key)",
     "random.threefry_generate(%a, out_shape=[9])", [THREEFRY_KEY_PATH_FULL],
     lambda k: threefry_generate_ref(k, [9]), 0),
    ("random.threefry_generate (none)",
     "random.threefry_generate(%a, out_shape=[0, 3])", [THREEFRY_KEY_SEED],
     lambda k: threefry_generate_ref(k, [0, 3]), 0),
    ("random.uniform", "random.uniform(%a, %b, %c, out_shape=[3, 5])",
     [THREEFRY_KEY_SEED, scalar(5, np.float32), scalar(10, np.float32)],
     lambda k, lo, hi: uniform_ref(k, lo, hi, [3, 5], np.float32), 1e-6),
    ("random.uniform (float64)",
     'random.uniform(%a, %b, %c, out_shape=[7], out_dtype="float64")',
     [THREEFRY_KEY_0, scalar(-1, np.float64), scalar(3, np.float64)],
     lambda k, lo, hi: uniform_ref(k, lo, hi, [7], np.float64), 1e-12),
    ("random.normal", "random.normal(%a, %b, %c, out_shape=[4, 3])",
     [THREEFRY_KEY_SEED, scalar(-1, np.float32), scalar(2, np.float32)],
     lambda k, m, s: normal_ref(k, m, s, [4, 3], np.float32), 1e-5),
    ("random.normal (float64)",
     'random.normal(%a, %b, %c, out_shape=[5], out_dtype="float64")',
     [THREEFRY_KEY_NO_ROOM, scalar(0.5, np.float64), scalar(0.1, np.float64)],
     lambda k, m, s: normal_ref(k, m, s, [5], np.float64), 1e-12),
    ("random.multinomial", "random.multinomial(%a, %b, num_samples=6)",
     [THREEFRY_KEY_SEED, np.array([[0.1, -2, 0.5, 0.3, 0.1],
                                   [1, 1, 1, 1, 0]], np.float32)],
     lambda k, p: multinomial_ref(k, p, 6), 0),
    ("random.multinomial (int32 weights, 3-d, one sample)",
     "random.multinomial(%a, %b)",
     [THREEFRY_KEY_0, np.array([[[3, 0, 1], [0, 0, 5]], [[1, 1, 1], [9, -4, 1]]],
                               np.int32)],
     lambda k, p: multinomial_ref(k, p, 1), 0),
    # TVM's bit-serial operators against references written from topi's
    # kernels (popcounts of nn.bitpack's planes).
    ("nn.bitpack",
     'nn.bitpack(%a, bits=2, pack_axis=1, bit_axis=2, pack_type="uint8")',
     [i32(2, 16, 3, 4, low=0, high=4)],
     lambda a: bitpack_ref(a, 2, 1, 2, np.uint8), 0),
    ("nn.bitpack (defaults: one bit, uint32 words, planes last)",
     "nn.bitpack(%a)", [i32(3, 64, low=-128, high=128).astype(np.int8)],
     lambda a: bitpack_ref(a, 1, 1, -1, np.uint32), 0),
    ("nn.bitpack (uint64 words along axis 0, planes first)",
     'nn.bitpack(%a, bits=3, pack_axis=0, bit_axis=0, pack_type="uint64")',
     [i32(64, 3, low=0, high=256).astype(np.uint8)],
     lambda a: bitpack_ref(a, 3, 0, 0, np.uint64), 0),
    ("nn.bitserial_dense",
     'nn.bitserial_dense(%a, %b, units=5, data_bits=2, pack_dtype="uint32", '
     'out_dtype="int16")',
     [i32(3, 64, low=0, high=4), i32(5, 64, low=0, high=2)],
     lambda a, b: bitserial_dense_ref(a, b, 2, 1, np.uint32, np.int16, True),
     0),
    ("nn.bitserial_dense (not unipolar, signed bits, uint8 words)",
     'nn.bitserial_dense(%a, %b, data_bits=3, weight_bits=2, '
     'pack_dtype="uint8", out_dtype="int8", unipolar=False)',
     [i32(2, 16, low=-8, high=8).astype(np.int8),
      i32(4, 16, low=-4, high=4).astype(np.int8)],
     lambda a, b: bitserial_dense_ref(a, b, 3, 2, np.uint8, np.int8, False),
     0),
    ("nn.bitserial_dense (packed weight)",
     'nn.bitserial_dense(%a, %b, weight_bits=2, out_dtype="int32")',
     [i32(2, 32, low=0, high=2).astype(np.int16),
      bitpack_ref(i32(4, 32, low=0, high=4), 2, 1, 1, np.uint32)],
     lambda a, b: bitserial_dense_ref(a, b, 1, 2, np.uint32, np.int32, True),
     0),
    ("nn.bitserial_conv2d",
     'nn.bitserial_conv2d(%a, %b, padding=[1, 1], channels=4, '
     'kernel_size=[3, 3], activation_bits=2, pack_dtype="uint8", '
     'out_dtype="int16")',
     [i32(1, 8, 5, 5, low=0, high=4), i32(4, 8, 3, 3, low=0, high=2)],
     lambda a, b: bitserial_conv2d_ref(a, b, (1, 1), (1, 1), 2, 1, np.uint8,
                                       np.int16, True), 0),
    ("nn.bitserial_conv2d (NHWC, strides 2, four paddings, not unipolar)",
     'nn.bitserial_conv2d(%a, %b, strides=[2, 2], padding=[1, 0, 0, 1], '
     'channels=5, kernel_size=[3, 3], activation_bits=2, weight_bits=2, '
     'data_layout="NHWC", kernel_layout="HWIO", out_dtype="int32", '
     'unipolar=False)',
     [i32(1, 6, 7, 32, low=0, high=4).astype(np.int8),
      i32(3, 3, 32, 5, low=0, high=4).astype(np.int8)],
     lambda a, b: bitserial_conv2d_ref(a, b, (2, 2), (1, 0, 0, 1), 2, 2,
                                       np.uint32, np.int32, False, "NHWC"), 0),
    ("nn.bitserial_conv2d (packed OIHW weight, uint16 words)",
     'nn.bitserial_conv2d(%a, %b, channels=3, kernel_size=[2, 2], '
     'pack_dtype="uint16", out_dtype="int16")',
     [i32(2, 16, 4, 4, low=0, high=2),
      bitpack_ref(i32(3, 16, 2, 2, low=0, high=2), 1, 1, 4, np.uint16)],
     lambda a, b: bitserial_conv2d_ref(a, b, (1, 1), (0, 0), 1, 1, np.uint16,
                                       np.int16, True), 0),
    ("nn.bitserial_conv2d (packed HWIO weight, NHWC)",
     'nn.bitserial_conv2d(%a, %b, channels=2, kernel_size=[1, 3], '
     'activation_bits=1, weight_bits=2, data_layout="NHWC", '
     'pack_dtype="uint8", out_dtype="int16")',
     [i32(1, 3, 5, 16, low=0, high=2),
      bitpack_ref(i32(1, 3, 16, 2, low=0, high=4), 2, 2, 4, np.uint8)],
     lambda a, b: bitserial_conv2d_ref(a, b, (1, 1), (0, 0), 1, 2, np.uint8,
                                       np.int16, True, "NHWC"), 0),
    # qnn.contrib_dense_pack: qnn.dense of the weight unpacked from its
    # packing of NC (Hexagon's NC32n4c: [N/32, K/4, 32, 4]).
    ("qnn.contrib_dense_pack (NC32n4c)",
     'qnn.contrib_dense_pack(%a, %b, 3, -1, 0.1f, 0.2f, weight_layout="NC32n4c")',
     [uint8(2, 8), int8(32, 8).reshape(1, 32, 2, 4).transpose(0, 2, 1, 3).copy()],
     lambda a, b: ((a.astype(np.int64) - 3) @ (
         b.transpose(0, 2, 1, 3).reshape(32, 8).astype(np.int64) + 1).T
                   ).astype(np.int32), 0),
    ("qnn.contrib_dense_pack (NC4n, units)",
     'qnn.contrib_dense_pack(%a, %b, 0, 2, 0.5f, 0.25f, units=8, '
     'weight_layout="NC4n")',
     [int8(3, 5), int8(8, 5).reshape(2, 4, 5).transpose(0, 2, 1).copy()],
     lambda a, b: (a.astype(np.int64) @ (
         b.transpose(0, 2, 1).reshape(8, 5).astype(np.int64) - 2).T
                   ).astype(np.int32), 0),
    # nn.sparse_conv2d against topi's BSR kernels (sparse_conv2d_ref).
    ("nn.sparse_conv2d",
     "nn.sparse_conv2d(%a, %b, %c, %d)",
     [f32(2, 3, 4, 8), f32(3, 2, 4), np.array([0, 1, 1], np.int32),
      np.array([0, 2, 2, 3], np.int32)],
     lambda a, b, c, d: sparse_conv2d_ref(a, b, c, d, "NHWC"), 1e-5),
    ("nn.sparse_conv2d (NCHW, one-column blocks)",
     'nn.sparse_conv2d(%a, %b, %c, %d, layout="NCHW")',
     [f32(1, 6, 3, 5), f32(4, 3), np.array([5, 0, 2, 2], np.int64),
      np.array([0, 1, 4], np.int64)],
     lambda a, b, c, d: sparse_conv2d_ref(a, b, c, d, "NCHW"), 1e-5),
    ("nn.sparse_conv2d (3x3, NHWC)",
     'nn.sparse_conv2d(%a, %b, %c, %d, kernel_size=[3, 3])',
     [f32(1, 5, 4, 4), f32(5, 2, 4), np.array([0, 3, 8, 1, 4], np.int32),
      np.array([0, 3, 3, 5], np.int32)],
     lambda a, b, c, d: sparse_conv2d_ref(a, b, c, d, "NHWC", 3), 1e-5),
    ("nn.sparse_conv2d (3x3, NCHW, float64)",
     'nn.sparse_conv2d(%a, %b, %c, %d, layout="NCHW", kernel_size=[3, 3])',
     [RNG.uniform(-1, 1, (2, 3, 4, 3)), RNG.uniform(-1, 1, (6, 2, 1)),
      np.array([0, 26, 13, 7, 9, 20], np.int32),
      np.array([0, 2, 4, 6], np.int32)],
     lambda a, b, c, d: sparse_conv2d_ref(a, b, c, d, "NCHW", 3), 1e-12),
]


def check_result(work, stem, want, tol):
    """Compares the result relay-run wrote to `stem`.npy (a tuple's to
    `stem`.0.npy, ...) with numpy's `want`; returns None or the problem."""
    if not isinstance(want, tuple):
        return compare(np.load(os.path.join(work, stem + ".npy")), want, tol)
    for i, w in enumerate(want):
        problem = compare(np.load(os.path.join(work, f"{stem}.{i}.npy")), w, tol)
        if problem:
            return problem
    return None


def compare(got, want, tol):
    want = np.asarray(want)
    if got.shape != want.shape:
        return f"shape {got.shape}, expected {want.shape}"
    if tol == 0:
        floats = got.dtype.kind == "f"
        if not np.array_equal(got, want.astype(got.dtype), equal_nan=floats):
            return f"values differ: {got.ravel()[:6]} vs {want.ravel()[:6]}"
        return None
    g, w = got.astype(np.float64), want.astype(np.float64)
    err = np.abs(g - w) / np.maximum(np.abs(w), 1.0)
    if err.max() > tol:
        return f"relative error {err.max():.3g} > {tol}"
    return None


# Operators whose result's shape depends on the data: native code (static
# shapes) does not cover them; relay-run runs them on the interpreter.
DATA_DEPENDENT = {"argwhere", "dyn.reshape", "dyn.full", "dyn.zeros",
                  "dyn.ones", "dyn.broadcast_to", "dyn.topk",
                  "dyn.tile", "dyn.strided_slice", "dyn.image.resize2d",
                  "dyn.nn.pad", "dyn.squeeze", "dyn.expand_dims",
                  "dyn.one_hot", "dyn.sparse_to_dense", "dyn.nn.upsampling",
                  "dyn.nn.upsampling3d", "unique", "arange",
                  "vision.all_class_non_max_suppression", "sparse_fill_empty_rows"}
# Cases whose result's sizes are known only at run time, of operators that
# otherwise have static ones.
DATA_DEPENDENT_CASES = {"collapse_sum_to (run-time shape)"}
# Operators whose cases all decompose into the same arithmetic (the random
# ones: Threefry's rounds), of which the GPU lowering checks one case each:
# each lowers to ~200 kernels, most of the check's time otherwise.
ONE_GPU_CASE = ("random.",)

# Their operands that give the result's rank (a shape, bounds): `dynamic`
# keeps their lengths (a `?` length leaves the rank unknown, an error).
RANK_OPERANDS = {"dyn.reshape": {1}, "dyn.full": {1}, "dyn.tile": {1},
                 "dyn.zeros": {0}, "dyn.ones": {0}, "dyn.broadcast_to": {1},
                 "dyn.strided_slice": {1, 2, 3}, "dyn.nn.pad": {1},
                 "dyn.squeeze": {1}, "dyn.sparse_to_dense": {0, 3},
                 "gather_nd": {1},
                 "unravel_index": {1}, "collapse_sum_to": {1}}


def lower_program(tools, work, functions, pipeline):
    """Lowers a module of `functions` ((name, params, call) triples) by
    `relay-mlir-opt --PIPELINE` (the IR verified after every pass, which
    relay-run's pipelines skip for speed); returns None or the first
    error."""
    program = os.path.join(work, "lower.rly")
    with open(program, "w") as f:
        f.write('#[version = "0.0.5"]\n')
        for name, params, call in functions:
            f.write(f"def @{name}({params}) {{\n  {call}\n}}\n")
    imported = subprocess.run(
        [os.path.join(tools, "relay-mlir-translate"), "--import-relay",
         program], capture_output=True, text=True)
    lowered = imported.returncode == 0 and subprocess.run(
        [os.path.join(tools, "relay-mlir-opt"), "-", "--" + pipeline,
         "-o", os.devnull], input=imported.stdout, capture_output=True,
        text=True)
    if lowered and lowered.returncode == 0:
        return None
    error = (lowered or imported).stderr.strip().splitlines()
    return error[0] if error else "no message"


def lower_all(tools, work, target):
    """Lowers every case's program (but those of DATA_DEPENDENT operators
    and DATA_DEPENDENT_CASES) for the GPU (`target` "gpu") or the CPU
    ("cpu"); returns the failures.
    The cases go as one module of one function each (two processes instead
    of two per case); only when that fails is each lowered alone, to name
    the failing ones."""
    pipeline = "relay-to-nvvm" if target == "gpu" else "relay-to-llvm"
    cases = [c for c in CASES if c[0].split(" ")[0] not in DATA_DEPENDENT
             and c[0] not in DATA_DEPENDENT_CASES]
    if target == "gpu":
        seen = set()
        kept = []
        for c in cases:
            op = c[0].split(" ")[0]
            if op.startswith(ONE_GPU_CASE):
                if op in seen:
                    continue
                seen.add(op)
            kept.append(c)
        cases = kept
    functions = []
    for i, (name, call, inputs, _, _) in enumerate(cases):
        names = "abcde"[:len(inputs)]
        params = ", ".join(f"%{n}: {relay_type(a)}" for n, a in zip(names, inputs))
        functions.append((f"case{i}", params, call))
    failures = 0
    if lower_program(tools, work, functions, pipeline):
        for (name, *_), function in zip(cases, functions):
            error = lower_program(tools, work, [function], pipeline)
            if error:
                failures += 1
                print(f"FAILED {name}: {error}")
        if not failures:
            print("FAILED: the cases lower one by one but not together")
            return 1
    print(f"lowered {len(cases) - failures} of {len(cases)} cases for the {target.upper()}")
    return 1 if failures else 0


def main():
    tools, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    if len(sys.argv) > 3 and sys.argv[3] in ("lower-gpu", "lower-cpu"):
        return lower_all(tools, work, sys.argv[3][len("lower-"):])
    compiled = len(sys.argv) > 3 and sys.argv[3] == "compiled"
    dynamic = len(sys.argv) > 3 and sys.argv[3] == "dynamic"
    fallbacks = []
    os.makedirs(work, exist_ok=True)
    run = os.path.join(tools, "relay-run")
    failures = 0
    operators = set()
    for name, call, inputs, ref, tol in CASES:
        tag = name.replace(" ", "_").replace("(", "").replace(")", "").replace(",", "")
        names = "abcde"[:len(inputs)]
        keep = RANK_OPERANDS.get(name.split(" ")[0], set())
        params = ", ".join(
            f"%{n}: {relay_type(a, dynamic and i not in keep)}"
            for i, (n, a) in enumerate(zip(names, inputs)))
        program = os.path.join(work, tag + ".rly")
        with open(program, "w") as f:
            f.write(f'#[version = "0.0.5"]\ndef @main({params}) {{\n  {call}\n}}\n')
        args = [run, program, "--output", os.path.join(work, tag + ".npy")]
        if not compiled:
            args.insert(1, "--interp")
        for n, a in zip(names, inputs):
            path = os.path.join(work, f"{tag}.{n}.in.npy")
            np.save(path, a)
            args += ["--input", path]
        # Compiled runs check the interpreter too, in the same process.
        stems = [tag] + ([tag + "_interp"] if compiled else [])
        if compiled:
            args += ["--interp-output", os.path.join(work, stems[1] + ".npy")]
        p = subprocess.run(args, capture_output=True, text=True)
        want = ref(*inputs)
        if compiled and "reference interpreter" in p.stderr:
            fallbacks.append(name)
        if p.returncode != 0:
            problem = "relay-run failed: " + p.stderr.strip()[:300]
        else:
            problem = check_result(work, stems[0], want, tol)
            if not problem and compiled:
                problem = check_result(work, stems[1], want, tol)
                problem = problem and "interpreter: " + problem
        operators.add(name.split(" ")[0])
        if problem:
            failures += 1
            print(f"MISMATCH {name}: {problem}")
        else:
            print(f"ok {name}")
    if compiled:
        print(f"compiled {len(CASES) - len(fallbacks)} of {len(CASES)} cases; "
              f"on the interpreter: {', '.join(fallbacks) or 'none'}")
    print(f"checked {len(operators)} operators in {len(CASES)} cases against numpy: "
          f"{failures} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

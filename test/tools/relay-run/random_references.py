"""numpy references of TVM's random.* operators (Threefry's generator and
the distributions drawn from it), for operators_vs_numpy.py, written from
topi's kernels, never from relay-mlir's code."""
import math

import numpy as np

# TVM's random.* operators, written from topi's kernels
# (python/tvm/topi/random/kernel.py, v0.13) on Python integers.
_M64 = (1 << 64) - 1
_THREEFRY_ROTATIONS = [[14, 16], [52, 57], [23, 40], [5, 37], [25, 33],
                       [46, 12], [58, 22], [32, 32]]


def threefry_block(key, counter):
    """topi's `_threefry` for one block of 4 words: the key schedule added
    before each of the 5 groups of 4 rounds (none after the last)."""
    full_key = list(key) + [0x1BD11BDAA9FC1A22 ^ key[0] ^ key[1] ^ key[2] ^ key[3]]
    x = list(counter)
    for i in range(5):
        for j in range(4):
            k = full_key[(i + j) % 5] + (i if j == 3 else 0)
            x[j] = (x[j] + k) & _M64
        for k in range(4):
            for j in range(2):
                r = _THREEFRY_ROTATIONS[(i * 4 + k) % 8][j]
                a, b = x[2 * j], x[2 * j + 1]
                a = (a + b) & _M64
                b = a ^ (((b << r) | (b >> (64 - r))) & _M64)
                x[2 * j], x[2 * j + 1] = a, b
            x = [x[0], x[3], x[2], x[1]]
    return x


def _shift_position(a, b):
    if a == 1:
        return 0, 1 << 63
    if a == 0:
        return 0, b >> 1
    return a >> 1, 0


def threefry_generate_ref(gen, shape):
    """(next key, uint64 bits of `shape`). The path counts as full when word
    8 is zero (topi's `gen[8] == 0 and gen[9] == 0` is a Python `and` of
    deferred comparisons, which keeps only the first); the new key's
    counter is four all-ones words."""
    g = [int(v) for v in gen]
    n = int(np.prod(shape, dtype=np.int64))
    if g[7] < _M64 - n:
        t = list(g)
    elif g[8] == 0:
        t = threefry_block(g[0:4], [_M64] * 4) + [0, 0, 0, 0, 1 << 63, 0]
    else:
        t = g[0:4] + [g[4] | g[8], g[5] | g[9], 0, 0] + list(
            _shift_position(g[8], g[9]))
    out = []
    for i in range(n // 4):
        out += threefry_block(t[0:4], [(t[4 + j] + i) & _M64 for j in range(4)])
    if n % 4:
        t[7] = (t[7] + n // 4 * 4) & _M64
        out += threefry_block(t[0:4], t[4:8])[: n % 4]
        counter = (t[7] + 4) & _M64
    else:
        counter = (t[7] + n) & _M64
    key = t[0:6] + [0, counter] + t[8:10]
    return (np.array(key, np.uint64),
            np.array(out, np.uint64).reshape(shape))


def threefry_split_ref(gen):
    g = [int(v) for v in gen]
    if g[8] == 0:
        k = threefry_block(g[0:4], g[4:8])
        left = k + [0, 0, 0, 0, 1 << 62, 0]
        right = k + [1 << 63, 0, 0, 0, 1 << 62, 0]
    else:
        pos = list(_shift_position(g[8], g[9]))
        left = g[0:8] + pos
        right = g[0:4] + [g[4] | g[8], g[5] | g[9]] + g[6:8] + pos
    return np.array(left, np.uint64), np.array(right, np.uint64)


def uniform_ref(gen, low, high, shape, dtype):
    """The bits' top fraction bits (of their low 32 for float32) as a float
    in [1, 2), minus 1, scaled into [low, high)."""
    key, bits = threefry_generate_ref(gen, shape)
    if np.dtype(dtype) == np.float32:
        mantissa = (bits.astype(np.uint32) >> np.uint32(9)) | np.uint32(127 << 23)
        unit = mantissa.view(np.float32) - np.float32(1)
    else:
        mantissa = (bits >> np.uint64(12)) | np.uint64(1023 << 52)
        unit = mantissa.view(np.float64) - np.float64(1)
    return key, unit * (high - low) + low


def normal_ref(gen, mean, scale, shape, dtype):
    """Box-Muller on uniform values [2, shape]."""
    key, u = uniform_ref(gen, np.array(0, dtype), np.array(1, dtype),
                         [2] + list(shape), dtype)
    one, two = np.array(1, dtype), np.array(2, dtype)
    radius = np.sqrt(-two * np.log(one - u[0]))
    angle = np.sin(np.array(2 * math.pi, dtype) * u[1])
    return key, radius * angle * scale + mean


def multinomial_ref(gen, probs, num_samples):
    probs = np.maximum(probs.astype(np.float32), np.float32(0))
    probs = probs / probs.sum(axis=-1, keepdims=True)
    cumulative = np.cumsum(probs, axis=-1, dtype=np.float32)
    key, u = uniform_ref(gen, np.float32(0), np.float32(1),
                         list(probs.shape[:-1]) + [num_samples], np.float32)
    distance = cumulative[..., :, None] - u[..., None, :]
    positive = np.where(distance > 0, distance, np.float32(1))
    return key, np.argmin(positive, axis=-2).astype(np.int32)

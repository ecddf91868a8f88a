"""The operator cases' inputs (operators_vs_numpy.py): random tensors drawn
from one seeded generator, in the order the case modules are imported
(operator_cases_tensor, _nn, _qnn, _vision), and the inputs several cases
share."""
import numpy as np

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



# --- small constants (the references are in operator_references.py) -------

def i64(*values):
    return np.array(values, np.int64)


def scalar(value, dtype):
    return np.array(value, dtype)



def int8(*shape):
    return RNG.integers(-128, 128, size=shape).astype(np.int8)


def uint8(*shape):
    return RNG.integers(0, 256, size=shape).astype(np.uint8)



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

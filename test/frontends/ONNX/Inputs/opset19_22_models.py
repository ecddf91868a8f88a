#!/usr/bin/python3
"""Writes models of what ONNX opsets 19 to 22 changed, for the importer's
tests (onnx 1.12 predates them: the models are built by hand, their
expected outputs computed with numpy from the specification).

  opset19_22_models.py NAME... DIR

writes DIR/NAME.onnx, DIR/NAME.in0.npy and DIR/NAME.expected.npy. NAME:
pad_wrap, resize_half_pixel_symmetric, dft_axis_input, dft_default_axis,
gelu, gelu_tanh, affine_grid_2d, affine_grid_3d, group_norm_per_channel,
quantize_output_dtype, layer_norm_f16, group_norm_f16, quantize_blocked,
dequantize_blocked, dequantize_blocked_matmul, int4_input,
int4_weights_matmul, quantize_uint4, quantize_int4_per_axis, cast_int4,
cast_uint4_from_int32; or a bad node: pad_wrap_opset18,
group_norm_per_group_21, gelu_bad_approximate, cast_float8,
quantize_output_dtype_mismatch, affine_grid_bad_theta,
layer_norm_int_stash, quantize_blocked_bad_scale,
dequantize_blocked_negative, int4_short_data.
"""
import math
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from opset18_models import X, io, model, write_case  # noqa: E402

F = TensorProto.FLOAT
RNG = np.random.default_rng(3)


def const(name, value):
    return numpy_helper.from_array(np.asarray(value), name)


def pad_wrap(opset=19):
    """Wrap padding, pads wider than the axis included: W of 5 gains 7
    before and 3 after, H of 4 gains 1 after and loses 1 before."""
    m = model([helper.make_node('Pad', ['x', 'pads'], ['y'], mode='wrap')],
              [io('x', F, [2, 3, 4, 5])], [io('y', F, [2, 3, 4, 15])],
              [const('pads', np.array([0, 0, -1, 7, 0, 0, 1, 3], np.int64))],
              opset=opset)
    # Periodic: output i of an axis of n padded by b before is input
    # (i - b) mod n. (numpy 1.24's pad(mode='wrap') is not, with pads
    # wider than the axis on both sides; numpy 1.25 fixed it.)
    x = X[:, :, 1:, :]
    rows = np.arange(0, 3 + 1) % 3
    cols = np.arange(-7, 5 + 3) % 5
    return m, [X], x[:, :, rows][:, :, :, cols]


def pad_wrap_opset18():
    return pad_wrap(opset=18)


def linear_axis(x, axis, out, scale):
    """Linear resampling of `axis` at half_pixel_symmetric coordinates."""
    n = x.shape[axis]
    adjustment = out / (n * scale)
    offset = n / 2 * (1 - adjustment)
    pos = offset + (np.arange(out) + 0.5) / scale - 0.5
    pos = np.clip(pos, 0, n - 1)
    lo = np.floor(pos).astype(np.int64)
    hi = np.minimum(lo + 1, n - 1)
    w = (pos - lo).reshape([-1 if d == axis else 1 for d in range(x.ndim)])
    return np.take(x, lo, axis) * (1 - w) + np.take(x, hi, axis) * w


def resize_half_pixel_symmetric():
    """Linear Resize by scales 1.7 (H: 4 -> 6) and 0.7 (W: 5 -> 3), where
    half_pixel_symmetric differs from half_pixel."""
    m = model([helper.make_node('Resize', ['x', '', 'scales'], ['y'],
                                mode='linear',
                                coordinate_transformation_mode=
                                'half_pixel_symmetric')],
              [io('x', F, [2, 3, 4, 5])], [io('y', F, [2, 3, 6, 3])],
              [const('scales', np.array([1, 1, 1.7, 0.7], np.float32))],
              opset=19)
    y = linear_axis(linear_axis(X.astype(np.float64), 2, 6, 1.7), 3, 3, 0.7)
    return m, [X], y


def dft(axis):
    """A real signal [2, 6, 5, 1]; DFT along `axis` (input #2), or along
    the default -2 (the 5) without it."""
    x = RNG.standard_normal((2, 6, 5, 1)).astype(np.float32)
    inputs, inits = ['x'], []
    if axis is not None:
        inputs += ['', 'axis']
        inits.append(const('axis', np.array(axis, np.int64)))
    m = model([helper.make_node('DFT', inputs, ['y'])],
              [io('x', F, [2, 6, 5, 1])], [io('y', F, None)], inits,
              opset=20)
    f = np.fft.fft(x[..., 0], axis=2 if axis is None else axis)
    return m, [x], np.stack([f.real, f.imag], axis=-1)


def dft_axis_input():
    return dft(1)


def dft_default_axis():
    return dft(None)


def gelu(approximate=None, opset=20):
    attrs = {} if approximate is None else {'approximate': approximate}
    m = model([helper.make_node('Gelu', ['x'], ['y'], **attrs)],
              [io('x', F, [2, 3, 4, 5])], [io('y', F, [2, 3, 4, 5])],
              opset=opset)
    x = X.astype(np.float64)
    if approximate == 'tanh':
        y = 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) *
                                   (x + 0.044715 * x ** 3)))
    else:
        y = 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))
    return m, [X], y


def gelu_tanh():
    """The tanh approximation, at opset 22."""
    return gelu('tanh', opset=22)


def gelu_bad_approximate():
    return gelu('sigmoid')


def affine_grid(size, align):
    n, dims = size[0], len(size) - 2
    theta = RNG.standard_normal((n, dims, dims + 1)).astype(np.float32)
    m = model([helper.make_node('AffineGrid', ['theta', 'size'], ['grid'],
                                align_corners=align)],
              [io('theta', F, list(theta.shape))], [io('grid', F, None)],
              [const('size', np.array(size, np.int64))], opset=20)

    def axis(s):
        if align:
            return np.zeros(1) if s == 1 else np.linspace(-1, 1, s)
        return (2 * np.arange(s) + 1) / s - 1
    # (x, y[, z]) with x along the last axis.
    mesh = np.meshgrid(*[axis(s) for s in size[2:]], indexing='ij')
    base = np.stack(mesh[::-1] + [np.ones_like(mesh[0])], axis=-1)
    grid = np.einsum('...k,nck->n...c', base, theta.astype(np.float64))
    return m, [theta], grid


def affine_grid_2d():
    """[2, 3, 4, 5] without aligned corners."""
    return affine_grid([2, 3, 4, 5], 0)


def affine_grid_3d():
    """[1, 2, 3, 1, 4] with aligned corners (an axis of one at 0)."""
    return affine_grid([1, 2, 3, 1, 4], 1)


def group_norm(per_group):
    """Opset 21: 6 channels in 3 groups, scale and bias per channel."""
    x = RNG.standard_normal((2, 6, 3, 2)).astype(np.float32)
    c = 3 if per_group else 6
    scale = np.linspace(0.5, 2, c).astype(np.float32)
    bias = np.linspace(-1, 1, c).astype(np.float32)
    m = model([helper.make_node('GroupNormalization', ['x', 's', 'b'], ['y'],
                                num_groups=3, epsilon=1e-3)],
              [io('x', F, [2, 6, 3, 2])], [io('y', F, [2, 6, 3, 2])],
              [const('s', scale), const('b', bias)], opset=21)
    g = x.reshape(2, 3, -1).astype(np.float64)
    n = (g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) +
                                                 1e-3)
    if per_group:  # an error: no expected output
        return m, [x], x
    y = n.reshape(x.shape) * scale[None, :, None, None] + \
        bias[None, :, None, None]
    return m, [x], y


def group_norm_per_channel():
    return group_norm(False)


def group_norm_per_group_21():
    return group_norm(True)


def quantize_output_dtype():
    """QuantizeLinear without a zero point, output_dtype int8: values
    rounded half to even and saturated at -128 and 127."""
    x = np.array([[-300, -1.25, -0.75, 0.25, 0.75, 1.25, 2.5, 300]],
                 np.float32)
    m = model([helper.make_node('QuantizeLinear', ['x', 's'], ['y'],
                                output_dtype=TensorProto.INT8)],
              [io('x', F, [1, 8])], [io('y', TensorProto.INT8, [1, 8])],
              [const('s', np.array(0.5, np.float32))], opset=21)
    return m, [x], np.clip(np.round(x / 0.5), -128, 127).astype(np.int8)


def f16_rows():
    """float16 rows near 300 whose spread is a few units: their mean and
    variance in float16 lose the spread (float16's step at 300 is 0.25)."""
    x = 300 + RNG.standard_normal((2, 4, 64)) * 2
    return x.astype(np.float16)


def layer_norm_f16():
    """LayerNormalization (opset 17) of float16 over the last axis: the
    statistics in float32 (stash_type's default), the result in float16."""
    x = f16_rows()
    scale = np.linspace(0.5, 1.5, 64).astype(np.float16)
    bias = np.linspace(-1, 1, 64).astype(np.float16)
    m = model([helper.make_node('LayerNormalization', ['x', 's', 'b'],
                                ['y'], axis=-1, epsilon=1e-5)],
              [io('x', TensorProto.FLOAT16, [2, 4, 64])],
              [io('y', TensorProto.FLOAT16, [2, 4, 64])],
              [const('s', scale), const('b', bias)], opset=17)
    x32 = x.astype(np.float32)
    n = (x32 - x32.mean(-1, keepdims=True)) / np.sqrt(
        x32.var(-1, keepdims=True) + 1e-5)
    return m, [x], n.astype(np.float16) * scale + bias


def group_norm_f16():
    """GroupNormalization (opset 21) of float16: 4 channels in 2 groups,
    normalised in float32."""
    x = f16_rows().reshape(2, 4, 8, 8)
    scale = np.array([0.5, 1, 1.5, 2], np.float16)
    bias = np.array([-1, 0, 1, 2], np.float16)
    m = model([helper.make_node('GroupNormalization', ['x', 's', 'b'], ['y'],
                                num_groups=2, epsilon=1e-5)],
              [io('x', TensorProto.FLOAT16, [2, 4, 8, 8])],
              [io('y', TensorProto.FLOAT16, [2, 4, 8, 8])],
              [const('s', scale), const('b', bias)], opset=21)
    g = x.astype(np.float32).reshape(2, 2, -1)
    n = ((g - g.mean(-1, keepdims=True)) /
         np.sqrt(g.var(-1, keepdims=True) + 1e-5)).reshape(x.shape)
    y = n * scale.astype(np.float32)[None, :, None, None] + \
        bias.astype(np.float32)[None, :, None, None]
    return m, [x], y


def int4_input():
    """A graph input of INT4 (data type 22, newer than onnx 1.12), given
    and returned in int8."""
    x = np.array([-8, -1, 0, 7], np.int8)
    m = model([helper.make_node('Identity', ['x'], ['y'])],
              [io('x', 22, [4])], [io('y', 22, [4])], opset=21)
    return m, [x], x


def cast_float8():
    """A Cast to FLOAT8E4M3FN (17)."""
    m = model([helper.make_node('Cast', ['x'], ['y'], to=17)],
              [io('x', F, [4])], [io('y', 17, [4])], opset=19)
    return m, [np.zeros(4, np.float32)], np.zeros(4, np.float32)


def quantize_output_dtype_mismatch():
    """output_dtype int8 with a uint8 zero point."""
    x = np.zeros((1, 8), np.float32)
    m = model([helper.make_node('QuantizeLinear', ['x', 's', 'z'], ['y'],
                                output_dtype=TensorProto.INT8)],
              [io('x', F, [1, 8])], [io('y', TensorProto.INT8, [1, 8])],
              [const('s', np.array(0.5, np.float32)),
               const('z', np.array(0, np.uint8))], opset=21)
    return m, [x], x


def affine_grid_bad_theta():
    """A 2-d size with 3-d theta [1, 3, 4]."""
    theta = np.zeros((1, 3, 4), np.float32)
    m = model([helper.make_node('AffineGrid', ['theta', 'size'], ['grid'])],
              [io('theta', F, [1, 3, 4])], [io('grid', F, None)],
              [const('size', np.array([1, 1, 4, 4], np.int64))], opset=20)
    return m, [theta], theta


def layer_norm_int_stash():
    """stash_type INT32 (6)."""
    x = np.zeros((2, 4), np.float32)
    m = model([helper.make_node('LayerNormalization', ['x', 's'], ['y'],
                                stash_type=6)],
              [io('x', F, [2, 4])], [io('y', F, [2, 4])],
              [const('s', np.ones(4, np.float32))], opset=17)
    return m, [x], x


def blocks(p, axis, size, length):
    """Blocked parameters `p` repeated over their blocks of `size` along
    `axis`, cut to `length`."""
    return np.take(np.repeat(p, size, axis=axis), np.arange(length), axis=axis)


def quantize_blocked():
    """QuantizeLinear in blocks of 4 along axis 1 of length 10 (the last
    block 2 long), int8 zero points: ties rounded to even, saturated."""
    x = (RNG.standard_normal((3, 10)) * 40).astype(np.float32)
    x[0, :4] = [-2.5, 2.5, 3.5, -300]
    s = np.array([[0.5, 1, 2], [0.25, 4, 0.5], [1, 1, 8]], np.float32)
    z = np.array([[0, 1, -3], [5, -128, 7], [127, 0, -1]], np.int8)
    m = model([helper.make_node('QuantizeLinear', ['x', 's', 'z'], ['y'],
                                axis=1, block_size=4)],
              [io('x', F, [3, 10])], [io('y', TensorProto.INT8, [3, 10])],
              [const('s', s), const('z', z)], opset=21)
    y = np.round(x / blocks(s, 1, 4, 10)) + blocks(z, 1, 4, 10)
    return m, [x], np.clip(y, -128, 127).astype(np.int8)


def dequantize_blocked():
    """DequantizeLinear of int8 in blocks of 4 along axis 0 of length 6."""
    x = RNG.integers(-128, 128, (6, 5)).astype(np.int8)
    s = RNG.uniform(0.01, 2, (2, 5)).astype(np.float32)
    z = RNG.integers(-20, 20, (2, 5)).astype(np.int8)
    m = model([helper.make_node('DequantizeLinear', ['x', 's', 'z'], ['y'],
                                axis=0, block_size=4)],
              [io('x', TensorProto.INT8, [6, 5])], [io('y', F, [6, 5])],
              [const('s', s), const('z', z)], opset=21)
    y = (x.astype(np.float32) - blocks(z, 0, 4, 6).astype(np.float32)) * \
        blocks(s, 0, 4, 6)
    return m, [x], y


def dequantize_blocked_matmul():
    """Weight-only quantization as exporters write it: int8 weights
    [16, 8] with scales and zero points per block of 6 rows (3 blocks,
    the last 4 rows), dequantized and multiplied."""
    x = RNG.standard_normal((2, 16)).astype(np.float32)
    w = RNG.integers(-128, 128, (16, 8)).astype(np.int8)
    s = RNG.uniform(0.001, 0.05, (3, 8)).astype(np.float32)
    z = RNG.integers(-8, 8, (3, 8)).astype(np.int8)
    m = model([helper.make_node('DequantizeLinear', ['w', 's', 'z'], ['wf'],
                                axis=0, block_size=6),
               helper.make_node('MatMul', ['x', 'wf'], ['y'])],
              [io('x', F, [2, 16])], [io('y', F, [2, 8])],
              [const('w', w), const('s', s), const('z', z)], opset=21)
    wf = (w.astype(np.float32) - blocks(z, 0, 6, 16).astype(np.float32)) * \
        blocks(s, 0, 6, 16)
    return m, [x], x @ wf


def quantize_blocked_bad_scale():
    """Blocks of 4 along an axis of 10 need 3 scales per row, given 2."""
    m = model([helper.make_node('QuantizeLinear', ['x', 's'], ['y'],
                                axis=1, block_size=4)],
              [io('x', F, [3, 10])], [io('y', TensorProto.UINT8, [3, 10])],
              [const('s', np.ones((3, 2), np.float32))], opset=21)
    return m, [np.zeros((3, 10), np.float32)], np.zeros((3, 10), np.uint8)


def dequantize_blocked_negative():
    """block_size -2."""
    m = model([helper.make_node('DequantizeLinear', ['x', 's'], ['y'],
                                axis=0, block_size=-2)],
              [io('x', TensorProto.INT8, [4])], [io('y', F, [4])],
              [const('s', np.ones(2, np.float32))], opset=21)
    return m, [np.zeros(4, np.int8)], np.zeros(4, np.float32)


UINT4, INT4 = 21, 22  # (ONNX 1.16's data types, unnamed in onnx 1.12)


def four_bit(name, values, data_type, in_int32=False):
    """A UINT4 or INT4 TensorProto of `values`, packed two to a byte (the
    first in the low nibble) in raw_data or one byte per int32_data entry."""
    flat = np.asarray(values).ravel().astype(np.int64) & 0xf
    if flat.size % 2:
        flat = np.append(flat, 0)
    packed = (flat[0::2] | (flat[1::2] << 4)).astype(np.uint8)
    t = TensorProto()
    t.name = name
    t.data_type = data_type
    t.dims.extend(np.shape(values))
    if in_int32:
        t.int32_data.extend(int(b) for b in packed)
    else:
        t.raw_data = packed.tobytes()
    return t


def int4_weights_matmul():
    """int4 weight-only quantization: INT4 weights [15, 7] (105 values, the
    last byte half used) with INT4 zero points in int32_data, per block of
    4 rows, dequantized and multiplied."""
    x = RNG.standard_normal((2, 15)).astype(np.float32)
    w = RNG.integers(-8, 8, (15, 7))
    s = RNG.uniform(0.01, 0.1, (4, 7)).astype(np.float32)
    z = RNG.integers(-8, 8, (4, 7))
    m = model([helper.make_node('DequantizeLinear', ['w', 's', 'z'], ['wf'],
                                axis=0, block_size=4),
               helper.make_node('MatMul', ['x', 'wf'], ['y'])],
              [io('x', F, [2, 15])], [io('y', F, [2, 7])],
              [four_bit('w', w, INT4), const('s', s),
               four_bit('z', z, INT4, in_int32=True)], opset=21)
    wf = (w - blocks(z, 0, 4, 15)).astype(np.float32) * blocks(s, 0, 4, 15)
    return m, [x], x @ wf


def quantize_uint4():
    """QuantizeLinear to UINT4 by its zero point's type: [0, 15]."""
    x = np.array([[-3, -0.25, 0.25, 0.75, 1.25, 2, 3.5, 40]], np.float32)
    m = model([helper.make_node('QuantizeLinear', ['x', 's', 'z'], ['y'])],
              [io('x', F, [1, 8])], [io('y', UINT4, [1, 8])],
              [const('s', np.array(0.5, np.float32)),
               four_bit('z', np.array(3), UINT4)], opset=21)
    return m, [x], np.clip(np.round(x / 0.5) + 3, 0, 15).astype(np.uint8)


def quantize_int4_per_axis():
    """QuantizeLinear to INT4 by output_dtype, a scale per channel along
    axis 1: [-8, 7]."""
    x = (RNG.standard_normal((2, 3, 4)) * 6).astype(np.float32)
    s = np.array([0.5, 1, 2], np.float32)
    m = model([helper.make_node('QuantizeLinear', ['x', 's'], ['y'], axis=1,
                                output_dtype=INT4)],
              [io('x', F, [2, 3, 4])], [io('y', INT4, [2, 3, 4])],
              [const('s', s)], opset=21)
    y = np.round(x / s[None, :, None])
    return m, [x], np.clip(y, -8, 7).astype(np.int8)


def cast_int4():
    """Cast to INT4 as ONNX's reference casts: clipped to [-8, 7], then
    rounded to nearest even."""
    x = np.array([-9.5, -8.5, -2.5, -0.5, 0.5, 1.5, 7.4, 7.5, 100],
                 np.float32)
    m = model([helper.make_node('Cast', ['x'], ['y'], to=INT4)],
              [io('x', F, [9])], [io('y', INT4, [9])], opset=21)
    return m, [x], np.rint(np.clip(x, -8, 7)).astype(np.int8)


def cast_uint4_from_int32():
    """Cast of int32 to UINT4: clipped to [0, 15]."""
    x = np.array([-3, 0, 9, 20], np.int32)
    m = model([helper.make_node('Cast', ['x'], ['y'], to=UINT4)],
              [io('x', TensorProto.INT32, [4])], [io('y', UINT4, [4])],
              opset=21)
    return m, [x], np.clip(x, 0, 15).astype(np.uint8)


def int4_short_data():
    """INT4 weights [5] (three bytes) given two bytes."""
    t = four_bit('w', np.arange(4) - 2, INT4)
    t.dims[0] = 5
    m = model([helper.make_node('DequantizeLinear', ['w', 's'], ['y'])],
              [], [io('y', F, [5])], [t, const('s', np.array(1, np.float32))],
              opset=21)
    return m, [np.zeros(1, np.float32)], np.zeros(5, np.float32)


def main():
    write_case(globals())


if __name__ == '__main__':
    main()

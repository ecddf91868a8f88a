#!/usr/bin/python3
"""Writes models of what ONNX opsets 23 to 27 added, for the importer's
tests (onnx 1.12 predates them: the models are built by hand, their
expected outputs computed with numpy from the specification).

  opset23_27_models.py NAME... DIR

writes (for each NAME) DIR/NAME.onnx, its inputs DIR/NAME.inI.npy, DIR/NAME.args (the
relay-run flags that pass them) and its expected outputs
DIR/NAME.expected.K.npy;

  opset23_27_models.py check NAME DIR RESULT TOL

compares RESULT (one output) or RESULT.K.npy (several: relay-run's
--output RESULT) with them, to
TOL relative to the largest expected magnitude;

  opset23_27_models.py check-cases DIR TOL NAME...

checks each NAME's compiled and interpreted results, DIR/NAME.jit and
DIR/NAME.interp, so (one Python start for a test's many models).

Cases: rms_norm, rms_norm_axis1, rms_norm_f16, rotary_4d, rotary_3d_positions,
rotary_interleaved_partial, attention_4d, attention_3d_gqa,
attention_causal_past, attention_bool_mask_short, attention_float_mask_softcap,
attention_nonpad_causal, attention_window, attention_probs,
attention_softmax_precision, attention_masked_row, swish, tensor_scatter,
tensor_scatter_circular, dequantize_output_dtype, quantize_precision,
cumprod, cumprod_exclusive_reverse, bitcast, causal_conv, causal_conv_short,
linear_attention_linear, linear_attention_gated, linear_attention_delta,
linear_attention_gated_delta, linear_attention_long_gated,
linear_attention_long_gated_delta, linear_attention_long_delta, range_f16;
bad nodes: attention_3d_no_heads, attention_heads_mismatch, rotary_odd_dim,
tensor_scatter_axis0, quantize_precision_f16, bitcast_width,
linear_attention_no_decay.
"""
import math
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT
F16 = TensorProto.FLOAT16
I64 = TensorProto.INT64
BOOL = TensorProto.BOOL
RNG = np.random.default_rng(23)


def model(nodes, inputs, outputs, inits=(), opset=23):
    g = helper.make_graph(nodes, 'g', inputs, outputs, list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid('', opset)])


def io(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def randn(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


# ---------------------------------------------------------------- RMSNorm


def rms(x, scale, axis, stash=np.float32):
    xs = x.astype(stash)
    axes = tuple(range(axis % x.ndim, x.ndim))
    ms = np.mean(xs * xs, axis=axes, keepdims=True)
    return (xs / np.sqrt(ms + 1e-5)).astype(x.dtype) * scale


def rms_norm():
    x, s = randn(2, 3, 8), randn(8)
    m = model([helper.make_node('RMSNormalization', ['x', 's'], ['y'])],
              [io('x', F, [2, 3, 8]), io('s', F, [8])], [io('y', F, [2, 3, 8])])
    return m, [x, s], [rms(x, s, -1)]


def rms_norm_axis1():
    x, s = randn(2, 3, 4), randn(3, 4)
    m = model([helper.make_node('RMSNormalization', ['x', 's'], ['y'], axis=1,
                                epsilon=1e-5)],
              [io('x', F, [2, 3, 4]), io('s', F, [3, 4])],
              [io('y', F, [2, 3, 4])])
    return m, [x, s], [rms(x, s, 1)]


def rms_norm_f16():
    """Rows near 300: their squares overflow float16 (65504), so the
    statistics must be float32's (stash_type's default)."""
    x = (300 + randn(2, 16)).astype(np.float16)
    s = np.ones(16, np.float16)
    m = model([helper.make_node('RMSNormalization', ['x', 's'], ['y'])],
              [io('x', F16, [2, 16]), io('s', F16, [16])],
              [io('y', F16, [2, 16])])
    return m, [x, s], [rms(x, s, -1)]


# ---------------------------------------------------------- RotaryEmbedding


def rotate(x, cos, sin, interleaved, dim):
    """x: [batch, seq, heads, head]; cos, sin: [batch, seq, dim / 2]."""
    rot, rest = x[..., :dim], x[..., dim:]
    if interleaved:
        a, b = rot[..., 0::2], rot[..., 1::2]
    else:
        a, b = rot[..., :dim // 2], rot[..., dim // 2:]
    c, s = cos[:, :, None, :], sin[:, :, None, :]
    real, imag = c * a - s * b, s * a + c * b
    if interleaved:
        out = np.stack([real, imag], axis=-1).reshape(rot.shape)
    else:
        out = np.concatenate([real, imag], axis=-1)
    return np.concatenate([out, rest], axis=-1)


def angles(positions, half):
    theta = positions[..., None] / (10000 ** (np.arange(half) / half))
    return np.cos(theta).astype(np.float32), np.sin(theta).astype(np.float32)


def rotary_4d():
    """[batch, heads, seq, head] input, caches per batch entry and token."""
    x = randn(2, 3, 5, 8)
    cos, sin = angles(np.tile(np.arange(5.0), (2, 1)), 4)
    m = model([helper.make_node('RotaryEmbedding', ['x', 'cos', 'sin'],
                                ['y'])],
              [io('x', F, [2, 3, 5, 8]), io('cos', F, [2, 5, 4]),
               io('sin', F, [2, 5, 4])], [io('y', F, [2, 3, 5, 8])])
    y = rotate(x.transpose(0, 2, 1, 3), cos, sin, False, 8)
    return m, [x, cos, sin], [y.transpose(0, 2, 1, 3)]


def rotary_3d_positions():
    """[batch, seq, hidden] input of 2 heads, caches looked up by
    position_ids."""
    x = randn(2, 4, 12)
    cos, sin = angles(np.arange(10.0), 3)
    pos = np.array([[0, 1, 2, 3], [5, 6, 7, 9]], np.int64)
    m = model([helper.make_node('RotaryEmbedding', ['x', 'cos', 'sin', 'pos'],
                                ['y'], num_heads=2)],
              [io('x', F, [2, 4, 12]), io('pos', I64, [2, 4])],
              [io('y', F, [2, 4, 12])],
              [numpy_helper.from_array(cos, 'cos'),
               numpy_helper.from_array(sin, 'sin')])
    y = rotate(x.reshape(2, 4, 2, 6), cos[pos], sin[pos], False, 6)
    return m, [x, pos], [y.reshape(2, 4, 12)]


def rotary_interleaved_partial():
    """Neighbouring pairs, the first 4 of 8 features rotated."""
    x = randn(1, 2, 3, 8)
    cos, sin = angles(np.arange(3.0)[None], 2)
    m = model([helper.make_node('RotaryEmbedding', ['x', 'cos', 'sin'], ['y'],
                                interleaved=1, rotary_embedding_dim=4)],
              [io('x', F, [1, 2, 3, 8]), io('cos', F, [1, 3, 2]),
               io('sin', F, [1, 3, 2])], [io('y', F, [1, 2, 3, 8])])
    y = rotate(x.transpose(0, 2, 1, 3), cos, sin, True, 4)
    return m, [x, cos, sin], [y.transpose(0, 2, 1, 3)]


def rotary_odd_dim():
    m = model([helper.make_node('RotaryEmbedding', ['x', 'cos', 'sin'], ['y'],
                                rotary_embedding_dim=3)],
              [io('x', F, [1, 2, 3, 8]), io('cos', F, [1, 3, 1]),
               io('sin', F, [1, 3, 1])], [io('y', F, [1, 2, 3, 8])])
    return m, [], []


# ---------------------------------------------------------------- Attention


def attention(q, k, v, mask=None, past=None, nonpad=None, causal=False,
              scale=None, softcap=0.0, left=-1, right=-1):
    """Scaled dot-product attention by the specification, on 4-d inputs
    [batch, heads, seq, size]: returns (y, present k, present v, qk stages
    0-3)."""
    if past is not None:
        k = np.concatenate([past[0], k], axis=2)
        v = np.concatenate([past[1], v], axis=2)
    present = (k, v)
    sq, skv = q.shape[2], k.shape[2]
    groups = q.shape[1] // k.shape[1]
    k, v = np.repeat(k, groups, axis=1), np.repeat(v, groups, axis=1)
    if scale is None:
        scale = 1 / math.sqrt(q.shape[3])
    logits = (q.astype(np.float64) @ k.astype(np.float64).transpose(0, 1, 3, 2)
              ) * scale
    stages = [logits]
    if softcap > 0:
        logits = softcap * np.tanh(logits / softcap)
    stages.append(logits)
    bias = np.zeros((q.shape[0], 1, sq, skv))
    if mask is not None:
        if mask.shape[-1] < skv:
            widths = [(0, 0)] * (mask.ndim - 1) + [(0, skv - mask.shape[-1])]
            mask = np.pad(mask, widths, constant_values=(
                False if mask.dtype == bool else -np.inf))
        bias = bias + (np.where(mask, 0, -np.inf) if mask.dtype == bool
                       else mask)
    # Query i's absolute position less key j's.
    offset = 0 if past is None else past[0].shape[2]
    if nonpad is not None:
        offset = (nonpad - sq).reshape(-1, 1, 1, 1)
    diff = np.arange(sq)[:, None] - np.arange(skv)[None, :] + offset
    allowed = np.ones_like(diff, bool)
    if causal:
        allowed &= diff >= 0
    if left >= 0:
        allowed &= diff <= left
    if right >= 0:
        allowed &= -diff <= right
    bias = bias + np.where(allowed, 0, -np.inf)
    if nonpad is not None:
        keep = np.arange(skv)[None, :] < nonpad[:, None]
        bias = bias + np.where(keep, 0, -np.inf).reshape(-1, 1, 1, skv)
    logits = logits + bias
    stages.append(logits)
    top = np.max(logits, axis=-1, keepdims=True)
    dead = np.isneginf(np.max(bias, axis=-1, keepdims=True))
    e = np.exp(logits - np.where(np.isneginf(top), 0, top))
    probs = np.where(dead, 0, e / np.maximum(e.sum(-1, keepdims=True), 1e-300))
    stages.append(probs)
    y = probs @ v
    return y, present, stages


def heads(x, n):
    """[batch, seq, n * size] -> [batch, n, seq, size]."""
    b, s, h = x.shape
    return x.reshape(b, s, n, h // n).transpose(0, 2, 1, 3)


def attention_4d():
    q, k, v = randn(2, 3, 4, 8), randn(2, 3, 6, 8), randn(2, 3, 6, 5)
    m = model([helper.make_node('Attention', ['q', 'k', 'v'], ['y'])],
              [io('q', F, q.shape), io('k', F, k.shape), io('v', F, v.shape)],
              [io('y', F, [2, 3, 4, 5])])
    return m, [q, k, v], [attention(q, k, v)[0]]


def attention_3d_gqa():
    """8 query heads over 2 key/value heads, 3-d inputs, a given scale."""
    q, k, v = randn(2, 5, 32), randn(2, 7, 8), randn(2, 7, 6)
    m = model([helper.make_node('Attention', ['q', 'k', 'v'], ['y'],
                                q_num_heads=8, kv_num_heads=2, scale=0.3)],
              [io('q', F, q.shape), io('k', F, k.shape), io('v', F, v.shape)],
              [io('y', F, [2, 5, 24])])
    y = attention(heads(q, 8), heads(k, 2), heads(v, 2), scale=0.3)[0]
    return m, [q, k, v], [y.transpose(0, 2, 1, 3).reshape(2, 5, 24)]


def attention_causal_past():
    """A decoding step: 2 new tokens after 3 cached, causal (each new token
    sees the cache and the tokens up to itself); Y, present_key and
    present_value."""
    q, k, v = randn(1, 2, 2, 4), randn(1, 2, 2, 4), randn(1, 2, 2, 4)
    pk, pv = randn(1, 2, 3, 4), randn(1, 2, 3, 4)
    m = model([helper.make_node('Attention', ['q', 'k', 'v', '', 'pk', 'pv'],
                                ['y', 'present_k', 'present_v'], is_causal=1)],
              [io(n, F, x.shape) for n, x in
               [('q', q), ('k', k), ('v', v), ('pk', pk), ('pv', pv)]],
              [io('y', F, [1, 2, 2, 4]), io('present_k', F, [1, 2, 5, 4]),
               io('present_v', F, [1, 2, 5, 4])])
    y, present, _ = attention(q, k, v, past=(pk, pv), causal=True)
    return m, [q, k, v, pk, pv], [y, present[0], present[1]]


def attention_bool_mask_short():
    """A boolean mask [seq, 4] over 6 keys: the last two are masked."""
    q, k, v = randn(1, 2, 3, 4), randn(1, 2, 6, 4), randn(1, 2, 6, 4)
    mask = RNG.random((3, 4)) > 0.3
    mask[:, 0] = True
    m = model([helper.make_node('Attention', ['q', 'k', 'v', 'mask'], ['y'])],
              [io('q', F, q.shape), io('k', F, k.shape), io('v', F, v.shape),
               io('mask', BOOL, mask.shape)], [io('y', F, [1, 2, 3, 4])])
    return m, [q, k, v, mask], [attention(q, k, v, mask=mask)[0]]


def attention_float_mask_softcap():
    """A float mask per head [heads, q, kv] and a soft cap of 2; the qk
    output after the soft cap (mode 1)."""
    q, k, v = 3 * randn(2, 2, 3, 4), randn(2, 2, 3, 4), randn(2, 2, 3, 4)
    mask = randn(2, 3, 3)
    m = model([helper.make_node('Attention', ['q', 'k', 'v', 'mask'],
                                ['y', '', '', 'qk'], softcap=2.0,
                                qk_matmul_output_mode=1)],
              [io('q', F, q.shape), io('k', F, k.shape), io('v', F, v.shape),
               io('mask', F, mask.shape)],
              [io('y', F, [2, 2, 3, 4]), io('qk', F, [2, 2, 3, 3])])
    y, _, stages = attention(q, k, v, mask=mask, softcap=2.0)
    return m, [q, k, v, mask], [y, stages[1]]


def attention_nonpad_causal():
    """Opset 24: a static cache of 6 keys, 4 and 2 valid in the two batch
    entries, 2 new queries causal from there (offset 2 and 0)."""
    q, k, v = randn(2, 2, 2, 4), randn(2, 2, 6, 4), randn(2, 2, 6, 4)
    nonpad = np.array([4, 2], np.int64)
    m = model([helper.make_node('Attention', ['q', 'k', 'v', '', '', '',
                                              'nonpad'], ['y'], is_causal=1)],
              [io('q', F, q.shape), io('k', F, k.shape), io('v', F, v.shape),
               io('nonpad', I64, [2])], [io('y', F, [2, 2, 2, 4])],
              opset=24)
    return m, [q, k, v, nonpad], [attention(q, k, v, nonpad=nonpad,
                                            causal=True)[0]]


def attention_window():
    """Opset 25: a window of 2 keys left and 1 right of each query."""
    q, k, v = randn(1, 2, 4, 4), randn(1, 2, 6, 4), randn(1, 2, 6, 4)
    m = model([helper.make_node('Attention', ['q', 'k', 'v'], ['y', '', '',
                                                               'qk'],
                                left_window_size=2, right_window_size=1,
                                qk_matmul_output_mode=2)],
              [io('q', F, q.shape), io('k', F, k.shape), io('v', F, v.shape)],
              [io('y', F, [1, 2, 4, 4]), io('qk', F, [1, 2, 4, 6])], opset=25)
    y, _, stages = attention(q, k, v, left=2, right=1)
    return m, [q, k, v], [y, stages[2]]


def attention_probs():
    """The softmax's probabilities (mode 3) and the raw products (mode 0)."""
    q, k, v = randn(1, 1, 3, 4), randn(1, 1, 3, 4), randn(1, 1, 3, 4)
    m = model([helper.make_node('Attention', ['q', 'k', 'v'],
                                ['y', '', '', 'p'], qk_matmul_output_mode=3,
                                is_causal=1),
               helper.make_node('Attention', ['q', 'k', 'v'],
                                ['y2', '', '', 'raw'])],
              [io('q', F, q.shape), io('k', F, k.shape), io('v', F, v.shape)],
              [io('p', F, [1, 1, 3, 3]), io('raw', F, [1, 1, 3, 3])])
    _, _, stages = attention(q, k, v, causal=True)
    return m, [q, k, v], [stages[3], stages[0]]


def attention_softmax_precision():
    """float16 inputs with the softmax in float32."""
    q, k, v = (randn(1, 2, 3, 8).astype(np.float16) for _ in range(3))
    m = model([helper.make_node('Attention', ['q', 'k', 'v'], ['y'],
                                softmax_precision=F)],
              [io('q', F16, q.shape), io('k', F16, k.shape),
               io('v', F16, v.shape)], [io('y', F16, [1, 2, 3, 8])])
    return m, [q, k, v], [attention(q, k, v)[0].astype(np.float16)]


def attention_masked_row():
    """A boolean mask that masks query 1's every key: its row is 0."""
    q, k, v = randn(1, 1, 3, 4), randn(1, 1, 3, 4), randn(1, 1, 3, 4)
    mask = np.array([[True, False, True], [False, False, False],
                     [True, True, True]])
    m = model([helper.make_node('Attention', ['q', 'k', 'v', 'mask'], ['y'])],
              [io('q', F, q.shape), io('k', F, k.shape), io('v', F, v.shape),
               io('mask', BOOL, mask.shape)], [io('y', F, [1, 1, 3, 4])])
    y = attention(q, k, v, mask=mask)[0]
    assert not y[0, 0, 1].any()
    return m, [q, k, v, mask], [y]


def attention_3d_no_heads():
    m = model([helper.make_node('Attention', ['q', 'k', 'v'], ['y'])],
              [io(n, F, [1, 3, 8]) for n in 'qkv'], [io('y', F, [1, 3, 8])])
    return m, [], []


def attention_heads_mismatch():
    m = model([helper.make_node('Attention', ['q', 'k', 'v'], ['y'])],
              [io('q', F, [1, 3, 2, 4]), io('k', F, [1, 2, 2, 4]),
               io('v', F, [1, 2, 2, 4])], [io('y', F, [1, 3, 2, 4])])
    return m, [], []


# --------------------------------------------------------- and the others


def swish():
    x = randn(3, 7)
    m = model([helper.make_node('Swish', ['x'], ['y'], alpha=1.5)],
              [io('x', F, x.shape)], [io('y', F, x.shape)], opset=24)
    return m, [x], [x / (1 + np.exp(-1.5 * x))]


def scatter(cache, update, axis, write, circular):
    out = cache.copy()
    n, length = update.shape[axis], cache.shape[axis]
    for b in range(cache.shape[0]):
        for s in range(n):
            p = write[b] + s
            if circular:
                p %= length
            if p < length:
                idx = [b] + [slice(None)] * (cache.ndim - 1)
                src = list(idx)
                idx[axis], src[axis] = p, s
                out[tuple(idx)] = update[tuple(src)]
    return out


def tensor_scatter(circular=False):
    """Opset 24: 3 new entries written into a cache of 5 along axis 2 (the
    default -2), at 1 and 2 (linear) or 4 and 3 (circular, wrapping)."""
    cache, update = randn(2, 3, 5, 4), randn(2, 3, 3, 4)
    write = np.array([4, 3] if circular else [1, 2], np.int64)
    mode = 'circular' if circular else 'linear'
    m = model([helper.make_node('TensorScatter', ['cache', 'update', 'w'],
                                ['y'], mode=mode)],
              [io('cache', F, cache.shape), io('update', F, update.shape),
               io('w', I64, [2])], [io('y', F, cache.shape)], opset=24)
    return m, [cache, update, write], [scatter(cache, update, 2, write,
                                               circular)]


def tensor_scatter_circular():
    return tensor_scatter(circular=True)


def tensor_scatter_axis0():
    m = model([helper.make_node('TensorScatter', ['cache', 'update'], ['y'],
                                axis=0)],
              [io('cache', F, [2, 3]), io('update', F, [1, 3])],
              [io('y', F, [2, 3])], opset=24)
    return m, [], []


def dequantize_output_dtype():
    """Opset 23's output_dtype: int8 to float16 by a float32 scale."""
    x = np.arange(-6, 6, dtype=np.int8).reshape(3, 4)
    m = model([helper.make_node('DequantizeLinear', ['x', 's', 'z'], ['y'],
                                output_dtype=F16)],
              [io('x', TensorProto.INT8, x.shape)], [io('y', F16, x.shape)],
              [numpy_helper.from_array(np.array(0.25, np.float32), 's'),
               numpy_helper.from_array(np.array(2, np.int8), 'z')])
    return m, [x], [((x.astype(np.float32) - 2) * 0.25).astype(np.float16)]


def quantize_precision(code=F):
    """Opset 23's precision attribute: the division in float32."""
    x = np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4)
    m = model([helper.make_node('QuantizeLinear', ['x', 's', 'z'], ['y'],
                                precision=code)],
              [io('x', F, x.shape)], [io('y', TensorProto.INT8, x.shape)],
              [numpy_helper.from_array(np.array(0.05, np.float32), 's'),
               numpy_helper.from_array(np.array(3, np.int8), 'z')])
    y = np.clip(np.rint(x / np.float32(0.05)) + 3, -128, 127).astype(np.int8)
    return m, [x], [y]


def quantize_precision_f16():
    return quantize_precision(F16)


def cumprod():
    """Opset 26: running products along axis 1 (the axis an input)."""
    x = RNG.uniform(0.5, 1.5, (3, 6)).astype(np.float32)
    m = model([helper.make_node('CumProd', ['x', 'axis'], ['y'])],
              [io('x', F, x.shape)], [io('y', F, x.shape)],
              [numpy_helper.from_array(np.array(1, np.int64), 'axis')],
              opset=26)
    return m, [x], [np.cumprod(x.astype(np.float64), axis=1)]


def cumprod_exclusive_reverse():
    """Exclusive and reversed along axis -2 of int32 data: each element is
    the product of those after it."""
    x = RNG.integers(-3, 4, (2, 5, 3)).astype(np.int32)
    m = model([helper.make_node('CumProd', ['x', 'axis'], ['y'], exclusive=1,
                                reverse=1)],
              [io('x', TensorProto.INT32, x.shape)],
              [io('y', TensorProto.INT32, x.shape)],
              [numpy_helper.from_array(np.array(-2, np.int64), 'axis')],
              opset=26)
    after = np.cumprod(x[:, ::-1], axis=1)[:, ::-1]
    y = np.concatenate([after[:, 1:], np.ones_like(x[:, :1])], axis=1)
    return m, [x], [y]


def bitcast(to=TensorProto.INT32):
    """Opset 26: float32 bits read as int32."""
    x = np.array([[1.0, -2.5, 0.0], [np.inf, 3e-39, -0.0]], np.float32)
    m = model([helper.make_node('BitCast', ['x'], ['y'], to=to)],
              [io('x', F, x.shape)], [io('y', to, x.shape)], opset=26)
    return m, [x], [x.view(np.int32)]


def bitcast_width():
    return bitcast(TensorProto.INT16)


def causal_conv(short=False):
    """Opset 27: a depthwise causal convolution of kernel 4 after a past
    state, with a bias and SiLU (or, `short`, 2 positions after zeros,
    neither bias nor activation: the state carried out then holds a zero)."""
    length = 2 if short else 5
    x, w = randn(2, 3, length), randn(3, 1, 4)
    bias, past = randn(3), randn(2, 3, 3)
    names = ['x', 'w'] + ([] if short else ['b', 'past'])
    attrs = {} if short else {'activation': 'silu'}
    m = model([helper.make_node('CausalConvWithState', names,
                                ['y', 'state'], **attrs)],
              [io('x', F, x.shape), io('w', F, w.shape)] +
              ([] if short else [io('b', F, [3]), io('past', F, past.shape)]),
              [io('y', F, x.shape), io('state', F, [2, 3, 3])], opset=27)
    full = np.concatenate([np.zeros_like(past) if short else past, x], 2)
    y = np.stack([np.sum(full[:, :, i:i + 4] * w[:, 0], axis=-1)
                  for i in range(length)], axis=-1)
    if not short:
        y = y + bias[:, None]
        y = y / (1 + np.exp(-y))
    inputs = [x, w] if short else [x, w, bias, past]
    return m, inputs, [y, full[:, :, length:]]


def causal_conv_short():
    return causal_conv(short=True)


def linear_recurrence(q, k, v, rule, past, decay, beta, hq, hkv, scale):
    """The specification's recurrence, token by token, in float64."""
    b, t, _ = q.shape
    dk, dv = q.shape[2] // hq, v.shape[2] // hkv
    q4 = q.reshape(b, t, hq, dk).astype(np.float64)
    k4 = k.reshape(b, t, hkv, dk).astype(np.float64)
    v4 = v.reshape(b, t, hkv, dv).astype(np.float64)
    state = (np.zeros((b, hkv, dk, dv)) if past is None
             else past.astype(np.float64))
    out = np.zeros((b, t, hq, dv))
    for i in range(t):
        vi = v4[:, i]
        if decay is not None:
            g = decay[:, i].reshape(b, hkv, -1)  # per head or per key dim
            state = state * np.exp(g)[..., None]
        if beta is not None:
            got = np.einsum('bhkv,bhk->bhv', state, k4[:, i])
            vi = beta[:, i].reshape(b, -1, 1) * (vi - got)
        state = state + k4[:, i][..., None] * vi[:, :, None, :]
        for h in range(hq):
            out[:, i, h] = scale * np.einsum(
                'bk,bkv->bv', q4[:, i, h], state[:, h // (hq // hkv)])
    return out.reshape(b, t, hq * dv), state


def linear_attention(rule, t=5):
    """Opset 27: 4 query heads over 2 key/value heads, `t` tokens, d_k 3,
    d_v 2; a past state for the delta rules; decay per key dimension
    (gated) or per head (gated_delta); beta per head (delta) or one
    (gated_delta)."""
    b, hq, hkv, dk, dv = 2, 4, 2, 3, 2
    q, k, v = randn(b, t, hq * dk), randn(b, t, hkv * dk), randn(b, t, hkv * dv)
    k = k / np.linalg.norm(k.reshape(b, t, hkv, dk), axis=-1).repeat(dk, -1)
    inputs, names = [q, k, v], ['q', 'k', 'v']
    past = decay = beta = None
    if 'delta' in rule:
        past = randn(b, hkv, dk, dv)
        inputs.append(past)
        names.append('past')
    else:
        names.append('')
    if rule.startswith('gated'):
        decay = -RNG.uniform(0.05, 0.5, (b, t, hkv * dk if rule == 'gated'
                                         else hkv)).astype(np.float32)
        inputs.append(decay)
        names.append('decay')
    else:
        names.append('')
    if 'delta' in rule:
        beta = RNG.uniform(0.1, 0.9, (b, t, hkv if rule == 'delta' else 1)
                           ).astype(np.float32)
        inputs.append(beta)
        names.append('beta')
    while names[-1] == '':
        names.pop()
    m = model([helper.make_node('LinearAttention', names, ['y', 'state'],
                                q_num_heads=hq, kv_num_heads=hkv,
                                update_rule=rule, scale=0.7)],
              [io(n, F, x.shape) for n, x in zip([n for n in names if n],
                                                 inputs)],
              [io('y', F, [b, t, hq * dv]), io('state', F, [b, hkv, dk, dv])],
              opset=27)
    y, state = linear_recurrence(q, k, v, rule, past, decay, beta, hq, hkv,
                                 0.7)
    return m, inputs, [y, state]


def linear_attention_linear():
    return linear_attention('linear')


def linear_attention_gated():
    return linear_attention('gated')


def linear_attention_delta():
    return linear_attention('delta')


def linear_attention_gated_delta():
    return linear_attention('gated_delta')


def linear_attention_no_decay():
    m = model([helper.make_node('LinearAttention', ['q', 'k', 'v'], ['y'],
                                q_num_heads=1, kv_num_heads=1)],
              [io(n, F, [1, 2, 4]) for n in 'qkv'], [io('y', F, [1, 2, 4])],
              opset=27)
    return m, [], []


def linear_attention_long_gated():
    """37 tokens: more than the converter unrolls, in chunks of 16 (the
    last padded)."""
    return linear_attention('gated', t=37)


def linear_attention_long_gated_delta():
    """100 tokens with a past state, in chunks (the last padded)."""
    return linear_attention('gated_delta', t=100)


def linear_attention_long_delta():
    """48 tokens: three whole chunks."""
    return linear_attention('delta', t=48)


def range_f16():
    """Opset 27: float16 bounds given when the model runs, stepped in
    float32 (stash_type's default): -1000 + 0.7 i up to 400, where float16
    arithmetic would round i * delta to the float16 grid near 1400 (steps
    of 1) before adding the start (1071 of the 2000 values then differ, by
    up to 0.5). Exact: the one rounding is the float32 result's to float16."""
    start, limit, delta = (np.array(v, np.float16) for v in (-1000, 400, 0.7))
    m = model([helper.make_node('Range', ['s', 'l', 'd'], ['y'])],
              [io('s', F16, []), io('l', F16, []), io('d', F16, [])],
              [io('y', F16, [None])], opset=27)
    n = int(np.ceil((np.float32(limit) - np.float32(start)) /
                    np.float32(delta)))
    y = (np.float32(start) + np.arange(n, dtype=np.float32) *
         np.float32(delta)).astype(np.float16)
    return m, [start, limit, delta], [y]


def write(name, out):
    m, inputs, expected = globals()[name]()
    os.makedirs(out, exist_ok=True)
    onnx.save(m, os.path.join(out, name + '.onnx'))
    args = []
    for i, x in enumerate(inputs):
        path = os.path.join(out, '%s.in%d.npy' % (name, i))
        np.save(path, x)
        args += ['--input', path]
    with open(os.path.join(out, name + '.args'), 'w') as f:
        f.write(' '.join(args) + '\n')
    dtypes = [v.type.tensor_type.elem_type for v in m.graph.output]
    for k, y in enumerate(expected):
        dtype = helper.tensor_dtype_to_np_dtype(dtypes[k]) \
            if hasattr(helper, 'tensor_dtype_to_np_dtype') else \
            onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[dtypes[k]]
        np.save(os.path.join(out, '%s.expected.%d.npy' % (name, k)),
                np.asarray(y).astype(dtype))


def check(name, out, result, tol):
    k = 0
    paths = []
    while os.path.exists(os.path.join(out, '%s.expected.%d.npy' % (name, k))):
        paths.append(os.path.join(out, '%s.expected.%d.npy' % (name, k)))
        k += 1
    got = [result] if k == 1 else ['%s.%d.npy' % (result, i) for i in range(k)]
    for want_path, got_path in zip(paths, got):
        want, have = np.load(want_path), np.load(got_path)
        if want.shape != have.shape or want.dtype != have.dtype:
            sys.exit('%s: %s %s, expected %s %s' % (got_path, have.dtype,
                                                    have.shape, want.dtype,
                                                    want.shape))
        w, h = want.astype(np.float64), have.astype(np.float64)
        # Masked logits are -inf on both sides.
        same = w == h
        with np.errstate(invalid="ignore"):
            err = np.max(np.where(same, 0, np.abs(w - h)), initial=0)
        finite = np.abs(w[np.isfinite(w)])
        bound = float(tol) * max(1.0, np.max(finite, initial=0))
        if not err <= bound:
            sys.exit('%s: off by %g (allowed %g)' % (got_path, err, bound))


def main():
    if sys.argv[1] == 'check':
        check(*sys.argv[2:6])
    elif sys.argv[1] == 'check-cases':
        out, tol = sys.argv[2], sys.argv[3]
        for name in sys.argv[4:]:
            for mode in ('jit', 'interp'):
                check(name, out, os.path.join(out, name + '.' + mode), tol)
    else:
        *names, out = sys.argv[1:]
        for name in names:
            write(name, out)


if __name__ == '__main__':
    main()

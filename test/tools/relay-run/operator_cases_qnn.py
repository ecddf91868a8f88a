"""The operator cases of operators_vs_numpy.py for the quantized operators
(qnn.*, against TVM's definitions in qnn_references.py): (operator, call
text with %a %b %c for the inputs, inputs, numpy reference, tolerance)."""
import math

import numpy as np  # noqa: F401

from operator_inputs import *  # noqa: F401,F403
from operator_references import *  # noqa: F401,F403
from qnn_references import *  # noqa: F401,F403

CASES = [
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
]

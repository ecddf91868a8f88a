#!/usr/bin/python3
"""Nodes as opsets 1 to 9 define them (what older exporters and model zoos
wrote): each one-node model runs through relay-run (compiled) and must
match numpy, or be rejected with a located error where the old form has
no Relay equivalent. Prints one line per case and the number of
unexpected results.

  /usr/bin/python3 legacy_opsets.py TMPDIR PATH/TO/relay-run
"""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.default_rng(0)


def vi(n, shape, t=TensorProto.FLOAT):
    return helper.make_tensor_value_info(n, t, shape)


def init(n, a):
    return numpy_helper.from_array(np.asarray(a), n)


def f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def bn_ref(x, s, b, m, v, eps):
    def c(a):
        return a[:, None, None]
    return (x - c(m)) / np.sqrt(c(v) + eps) * c(s) + c(b)


def upsample_linear_ref(x, scales):
    """Upsample-9's linear mode as ONNX Runtime computes it: each output
    size floor(size x scale) in float32 (PyTorch's opset-9 export of
    interpolate(size=(7, 9)) on 5x6 writes scales 1.4 and 1.5, and 5 x 1.4f
    is 7 in float32, 6.9999998 in double), asymmetric coordinates."""
    sizes = [int(np.float32(d) * np.float32(s)) for d, s in zip(x.shape, scales)]
    n, c, h, w = x.shape
    out = np.zeros(sizes, np.float64)
    for i in range(sizes[2]):
        yi = i / np.float32(scales[2])
        y0 = int(np.floor(yi))
        y1, dy = min(y0 + 1, h - 1), yi - y0
        for j in range(sizes[3]):
            xj = j / np.float32(scales[3])
            x0 = int(np.floor(xj))
            x1, dx = min(x0 + 1, w - 1), xj - x0
            out[:, :, i, j] = (x[:, :, y0, x0] * (1 - dy) * (1 - dx) +
                               x[:, :, y1, x0] * dy * (1 - dx) +
                               x[:, :, y0, x1] * (1 - dy) * dx +
                               x[:, :, y1, x1] * dy * dx)
    return out


def max_roi_pool_ref(x, rois, ph, pw, scale):
    """Caffe's ROIPooling (ONNX Runtime's MaxRoiPool): corners rounded half
    away from zero, bins floor(i * size) to ceil((i + 1) * size) in float32,
    empty bins 0."""
    n, c, h, w = x.shape
    out = np.zeros((len(rois), c, ph, pw), np.float32)
    rnd = lambda v: int(np.sign(v) * np.floor(abs(v) + 0.5))
    for r, (b, x1, y1, x2, y2) in enumerate(rois):
        sw, sh = rnd(x1 * scale), rnd(y1 * scale)
        ew, eh = rnd(x2 * scale), rnd(y2 * scale)
        bh = np.float32(max(eh - sh + 1, 1)) / np.float32(ph)
        bw = np.float32(max(ew - sw + 1, 1)) / np.float32(pw)
        for i in range(ph):
            hs = min(max(int(np.floor(np.float32(i) * bh)) + sh, 0), h)
            he = min(max(int(np.ceil(np.float32(i + 1) * bh)) + sh, 0), h)
            for j in range(pw):
                ws = min(max(int(np.floor(np.float32(j) * bw)) + sw, 0), w)
                we = min(max(int(np.ceil(np.float32(j + 1) * bw)) + sw, 0), w)
                if hs < he and ws < we:
                    out[r, :, i, j] = x[int(b), :, hs:he, ws:we].max(axis=(1, 2))
    return out


ROIS = np.array([[0, 1, 2, 14, 12], [1, 0, 0, 21, 17], [1, 8, 3, 9, 4],
                 [0, 5, 9, 40, 30]], np.float32)
S, B, M, V = (np.array(a, np.float32) for a in ([1, 2], [0.5, -1], [0.1, 0.2], [1, 4]))
X4, X3, A3 = f32(1, 2, 3, 3), f32(2, 3, 4), f32(3)
# name: (opset, nodes, graph inputs with values, initializers, numpy
# reference, or the error expected)
CASES = {
    # Binary operators: `broadcast = 1` with `axis` matches B's dimensions
    # to A's from the axis on; without `axis`, to A's last ones.
    'add_axis': (6, [helper.make_node('Add', ['x', 'z'], ['y'], broadcast=1, axis=1)],
                 {'x': X3, 'z': A3}, [], lambda x, z: x + z[:, None]),
    'mul_suffix': (1, [helper.make_node('Mul', ['x', 'z'], ['y'], broadcast=1)],
                   {'x': X3, 'z': f32(4)}, [], lambda x, z: x * z),
    'pow_axis': (6, [helper.make_node('Pow', ['x', 'z'], ['y'], broadcast=1, axis=0)],
                 {'x': np.abs(X3) + 0.5, 'z': np.array([1, 2], np.float32)}, [],
                 lambda x, z: x ** z[:, None, None]),
    'sub_axis_outside': (6, [helper.make_node('Sub', ['x', 'z'], ['y'], broadcast=1, axis=2)],
                         {'x': X3, 'z': f32(3, 4)}, [],
                         "axis 2 does not place B's 2 dimensions within A's 3"),
    # PRelu's slope of one value per channel applies along axis 1.
    'prelu_channels': (6, [helper.make_node('PRelu', ['x', 's'], ['y'])],
                       {'x': X4}, [init('s', np.array([0.1, 0.5], np.float32))],
                       lambda x: np.where(x < 0, x * np.array([0.1, 0.5])[:, None, None], x)),
    # BatchNormalization: is_test read as inference, spatial must be 1.
    'batchnorm_is_test': (6, [helper.make_node('BatchNormalization', ['x', 's', 'b', 'm', 'v'], ['y'],
                                               is_test=1, epsilon=1e-3, consumed_inputs=[0, 0, 0, 1, 1])],
                          {'x': X4}, [init('s', S), init('b', B), init('m', M), init('v', V)],
                          lambda x: bn_ref(x, S, B, M, V, 1e-3)),
    'batchnorm_spatial0': (6, [helper.make_node('BatchNormalization', ['x', 's', 'b', 'm', 'v'], ['y'],
                                                is_test=1, spatial=0)],
                           {'x': X4}, [init(n, np.ones((2, 3, 3), np.float32)) for n in 'sbmv'],
                           'spatial = 0 (statistics per element, not per channel) is not supported'),
    'dropout_is_test': (6, [helper.make_node('Dropout', ['x'], ['y'], is_test=1, ratio=0.3)],
                        {'x': X3}, [], lambda x: x),
    'relu_consumed_inputs': (1, [helper.make_node('Relu', ['x'], ['y'], consumed_inputs=[0])],
                             {'x': X3}, [], lambda x: np.maximum(x, 0)),
    # Attributes that later opsets made inputs, or renamed.
    'reshape_attribute': (4, [helper.make_node('Reshape', ['x'], ['y'], shape=[4, -1])],
                          {'x': X3}, [], lambda x: x.reshape(4, -1)),
    'reshape_no_shape': (4, [helper.make_node('Reshape', ['x'], ['y'])],
                         {'x': X3}, [], 'attribute shape is required'),
    'cast_named_type': (5, [helper.make_node('Cast', ['x'], ['y'], to='INT32')],
                        {'x': np.array([1.5, -2.5, 3.9, 0], np.float32)}, [],
                        lambda x: x.astype(np.int32)),
    'cast_unknown_name': (5, [helper.make_node('Cast', ['x'], ['y'], to='REAL')],
                          {'x': A3}, [], "unknown data type 'REAL'"),
    'concat_default_axis': (3, [helper.make_node('Concat', ['x', 'z'], ['y'])],
                            {'x': f32(2, 3), 'z': f32(2, 2)}, [],
                            lambda x, z: np.concatenate([x, z], 1)),
    'pad_paddings': (1, [helper.make_node('Pad', ['x'], ['y'], paddings=[0, 1, 0, 2], value=3.0)],
                     {'x': f32(2, 3)}, [], lambda x: np.pad(x, ((0, 0), (1, 2)), constant_values=3)),
    'tile_axis': (5, [helper.make_node('Tile', ['x', 't', 'a'], ['y'])],
                  {'x': f32(2, 3)}, [init('t', np.array(3, np.int64)), init('a', np.array(1, np.int64))],
                  lambda x: np.tile(x, (1, 3))),
    # MaxRoiPool: Fast R-CNN's max pooling of regions (vision.roi_pool).
    'maxroipool': (1, [helper.make_node('MaxRoiPool', ['x', 'r'], ['y'], pooled_shape=[3, 2],
                                        spatial_scale=0.5)],
                   {'x': f32(2, 3, 9, 11), 'r': ROIS}, [],
                   lambda x, r: max_roi_pool_ref(x, r, 3, 2, 0.5)),
    'maxroipool_no_shape': (1, [helper.make_node('MaxRoiPool', ['x', 'r'], ['y'])],
                            {'x': f32(1, 3, 9, 11), 'r': ROIS[:1] * 0}, [],
                            'the pooled_shape attribute (height, width) is required'),
    'upsample_scales': (1, [helper.make_node('Upsample', ['x'], ['y'], height_scale=2.0, width_scale=3.0)],
                        {'x': X4}, [], lambda x: x.repeat(2, 2).repeat(3, 3)),
    'upsample9_linear': (9, [helper.make_node('Upsample', ['x', 's'], ['y'], mode='linear')],
                         {'x': f32(1, 3, 5, 6)},
                         [init('s', np.array([1, 1, 1.4, 1.5], np.float32))],
                         lambda x: upsample_linear_ref(x, [1, 1, 1.4, 1.5])),
}


def main():
    tmp, relay_run = sys.argv[1], sys.argv[2]
    os.makedirs(tmp, exist_ok=True)
    unexpected = 0
    for name, (opset, nodes, feeds, inits, want) in CASES.items():
        graph = helper.make_graph(
            nodes, 'g', [vi(k, list(v.shape)) for k, v in feeds.items()],
            [helper.make_tensor_value_info('y', 0, None)], inits)
        path = os.path.join(tmp, name + '.onnx')
        onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid('', opset)]), path)
        out = os.path.join(tmp, name + '.out.npy')
        args = [relay_run, path, '--output', out]
        for k, v in feeds.items():
            np.save(os.path.join(tmp, name + '.' + k + '.npy'), v)
            args += ['--input', os.path.join(tmp, name + '.' + k + '.npy')]
        proc = subprocess.run(args, capture_output=True, text=True)
        if isinstance(want, str):
            ok = (proc.returncode == 1 and want in proc.stderr
                  and '%s node' % nodes[0].op_type in proc.stderr)
            result = 'rejected' if ok else 'UNEXPECTED (exit %d): %s' % (
                proc.returncode, proc.stderr.strip()[:300])
        elif proc.returncode != 0 or 'reference interpreter' in proc.stderr:
            ok, result = False, 'FAILED: %s' % proc.stderr.strip()[:300]
        else:
            got, expected = np.load(out), want(*feeds.values())
            ok = got.shape == expected.shape and np.allclose(got, expected, rtol=1e-5, atol=1e-6)
            result = 'matches numpy' if ok else 'DIFFERS: %s vs %s' % (got.ravel()[:4], expected.ravel()[:4])
        unexpected += not ok
        print('opset %d %-22s %s' % (opset, name, result))
    print('%d unexpected' % unexpected)
    return 1 if unexpected else 0


if __name__ == '__main__':
    sys.exit(main())

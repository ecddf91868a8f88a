"""LpPool and GlobalLpPool models checked against numpy: builds each model,
runs it with relay-run (compiled, and with --interp), prints one line per
case and MISMATCH where a result differs from (sum |x|^p)^(1/p) over the
window (the padding adding zeros)."""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

tools, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
rng = np.random.default_rng(3)


def lp_pool_ref(x, p, kernel, strides, pads):
    """NCHW; pads = [top, left, bottom, right]."""
    padded = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    n, c, h, w = padded.shape
    oh = (h - kernel[0]) // strides[0] + 1
    ow = (w - kernel[1]) // strides[1] + 1
    out = np.zeros((n, c, oh, ow), np.float64)
    for i in range(oh):
        for j in range(ow):
            win = padded[:, :, i * strides[0]:i * strides[0] + kernel[0],
                         j * strides[1]:j * strides[1] + kernel[1]]
            out[:, :, i, j] = (np.abs(win.astype(np.float64)) ** p).sum(axis=(2, 3))
    return (out ** (1.0 / p)).astype(np.float32)


def run(name, node, x, want, out_shape):
    graph = helper.make_graph(
        [node], name, [helper.make_tensor_value_info('x', TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info('y', TensorProto.FLOAT, out_shape)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 11)])
    path = os.path.join(work, name + '.onnx')
    onnx.save(model, path)
    np.save(os.path.join(work, name + '.x.npy'), x)
    for mode in ([], ['--interp']):
        out = os.path.join(work, name + '.y.npy')
        p = subprocess.run([os.path.join(tools, 'relay-run'), *mode, path, '--input',
                            os.path.join(work, name + '.x.npy'), '--output', out],
                           capture_output=True, text=True)
        label = name + (' interpreted' if mode else ' compiled')
        if p.returncode != 0:
            print('MISMATCH', label, p.stderr.strip()[:300])
            continue
        got = np.load(out)
        if got.shape != want.shape or not np.allclose(got, want, rtol=1e-5, atol=1e-6):
            print('MISMATCH', label, got.shape, want.shape,
                  float(np.abs(got - want).max()) if got.shape == want.shape else '')
        else:
            native = 'reference interpreter' not in p.stderr
            print('ok', label, 'native' if native and not mode else '')


x = rng.standard_normal((2, 3, 7, 6)).astype(np.float32)
run('lp2', helper.make_node('LpPool', ['x'], ['y'], kernel_shape=[3, 2], strides=[2, 1],
                            pads=[1, 0, 1, 1], p=2),
    x, lp_pool_ref(x, 2, (3, 2), (2, 1), (1, 0, 1, 1)), (2, 3, 4, 6))
run('lp3', helper.make_node('LpPool', ['x'], ['y'], kernel_shape=[2, 2], strides=[2, 2], p=3),
    x, lp_pool_ref(x, 3, (2, 2), (2, 2), (0, 0, 0, 0)), (2, 3, 3, 3))
x1 = rng.standard_normal((1, 2, 9)).astype(np.float32)
run('lp1d', helper.make_node('LpPool', ['x'], ['y'], kernel_shape=[4], strides=[2], p=1),
    x1, lp_pool_ref(x1[:, :, None, :], 1, (1, 4), (1, 2), (0, 0, 0, 0))[:, :, 0, :], (1, 2, 3))
run('global', helper.make_node('GlobalLpPool', ['x'], ['y'], p=3),
    x, ((np.abs(x.astype(np.float64)) ** 3).sum(axis=(2, 3), keepdims=True) ** (1 / 3)).astype(np.float32),
    (2, 3, 1, 1))

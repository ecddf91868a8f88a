#!/usr/bin/python3
"""numpy reference for make_model.py's convnet: writes a random input and
the expected output.  reference.py MODEL.onnx INPUT.npy EXPECTED.npy [BATCH]"""
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def conv3x3_pad1(x, w, b):
    n, c, h, wd = x.shape
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    out = np.zeros((n, w.shape[0], h, wd), np.float64)
    for i in range(3):
        for j in range(3):
            patch = padded[:, :, i:i + h, j:j + wd]
            out += np.einsum('nchw,oc->nohw', patch, w[:, :, i, j])
    return out + b[None, :, None, None]


def main():
    model = onnx.load(sys.argv[1])
    p = {t.name: numpy_helper.to_array(t).astype(np.float64)
         for t in model.graph.initializer}
    batch = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    x = np.random.default_rng(11).standard_normal((batch, 3, 8, 8)).astype(np.float32)
    c = conv3x3_pad1(x.astype(np.float64), p['w'], p['b'])
    shape = (1, -1, 1, 1)
    n = (c - p['m'].reshape(shape)) / np.sqrt(p['v'].reshape(shape) + 1e-3)
    n = n * p['g'].reshape(shape) + p['beta'].reshape(shape)
    r = np.maximum(n, 0)
    pooled = r.reshape(batch, 8, 4, 2, 4, 2).max(axis=(3, 5))
    gap = pooled.mean(axis=(2, 3))
    y = gap @ p['fc'].T + p['fcb']
    np.save(sys.argv[2], x)
    np.save(sys.argv[3], y.astype(np.float32))


if __name__ == '__main__':
    main()

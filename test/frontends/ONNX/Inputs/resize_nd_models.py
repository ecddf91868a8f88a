#!/usr/bin/python3
"""Writes PyTorch's exports of F.interpolate on 1-d (NCW) and 3-d (NCDHW)
data, ONNX Resize nodes of rank 3 and 5, with an input and PyTorch's result.

  resize_nd_models.py NAME... DIR

writes DIR/NAME.onnx, DIR/NAME.in0.npy and DIR/NAME.expected.npy. NAME:
linear1d (upscaling by a size), linear1d_align (align_corners, a scale
factor), nearest1d (downscaling by a factor), trilinear, trilinear_align,
nearest3d (a size per axis); or rank6, a hand-built Resize of 6-d data
(an error).
"""
import os
import sys

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper

RNG = np.random.default_rng(11)


class Interpolate(torch.nn.Module):
    def __init__(self, **kwargs):
        super().__init__()
        self.kwargs = kwargs

    def forward(self, x):
        return F.interpolate(x, **self.kwargs)


CASES = {
    'linear1d': ((2, 3, 7), dict(size=12, mode='linear', align_corners=False)),
    # (Scale factors that give whole sizes: with align_corners PyTorch
    # divides by the output size less one, ONNX by the input's times the
    # scale less one, and its export keeps the scale.)
    'linear1d_align': ((1, 2, 5), dict(scale_factor=3, mode='linear',
                                       align_corners=True)),
    'nearest1d': ((2, 2, 9), dict(scale_factor=0.5, mode='nearest')),
    'trilinear': ((1, 2, 3, 4, 5), dict(size=(5, 6, 3), mode='trilinear',
                                        align_corners=False)),
    'trilinear_align': ((2, 1, 4, 2, 2), dict(scale_factor=(2, 2.5, 3),
                                              mode='trilinear',
                                              align_corners=True)),
    'nearest3d': ((1, 3, 2, 5, 4), dict(size=(4, 3, 8), mode='nearest')),
}


def write(name, out):
    path = os.path.join(out, name)
    if name == 'rank6':
        x = helper.make_tensor_value_info('x', TensorProto.FLOAT,
                                          [1, 1, 2, 2, 2, 2])
        y = helper.make_tensor_value_info('y', TensorProto.FLOAT, None)
        scales = helper.make_tensor('scales', TensorProto.FLOAT, [6],
                                    [1, 1, 2, 2, 2, 2])
        node = helper.make_node('Resize', ['x', '', 'scales'], ['y'],
                                mode='linear')
        graph = helper.make_graph([node], 'g', [x], [y], [scales])
        onnx.save(helper.make_model(
            graph, opset_imports=[helper.make_opsetid('', 13)]),
            path + '.onnx')
        return
    shape, kwargs = CASES[name]
    x = RNG.standard_normal(shape).astype(np.float32)
    module = Interpolate(**kwargs).eval()
    with torch.no_grad():
        expected = module(torch.from_numpy(x)).numpy()
        torch.onnx.export(module, torch.from_numpy(x), path + '.onnx',
                          opset_version=13, input_names=['x'],
                          output_names=['y'])
    np.save(path + '.in0.npy', x)
    np.save(path + '.expected.npy', expected)


def main():
    *names, out = sys.argv[1:]
    for name in names:
        write(name, out)


if __name__ == '__main__':
    main()

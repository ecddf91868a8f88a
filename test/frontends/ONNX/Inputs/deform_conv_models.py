#!/usr/bin/python3
"""Writes DeformConv models (opset 19, built by hand: onnx 1.12 predates
the operator) with their inputs and torchvision's deform_conv2d of them.

  deform_conv_models.py NAME... DIR

writes DIR/NAME.onnx, DIR/NAME.in{0,1,2}.npy (X, offset, mask where the
model takes one) and DIR/NAME.expected.npy. NAME: basic (3x3, padding 1,
bias, offsets up to 3 pixels: taps partly outside the image), strided
(asymmetric 3x2 kernel, strides (2, 1), dilations (1, 2), uneven pads,
two groups, three offset groups, a mask), outside (every tap far outside:
only the bias); or a bad node: bad_offset_shape, bad_group.
"""
import os
import sys

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper
from torchvision.ops import deform_conv2d

F = TensorProto.FLOAT
RNG = np.random.default_rng(7)


def case(n, c, h, w, o, kernel, strides=(1, 1), dilations=(1, 1),
         pads=(0, 0, 0, 0), group=1, offset_group=1, mask=False, bias=True,
         spread=2.0, shift=0.0, offset_shape=None):
    kh, kw = kernel
    oh = (h + pads[0] + pads[2] - dilations[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (w + pads[1] + pads[3] - dilations[1] * (kw - 1) - 1) // strides[1] + 1
    x = RNG.standard_normal((n, c, h, w)).astype(np.float32)
    weights = RNG.standard_normal((o, c // group, kh, kw)).astype(np.float32)
    b = RNG.standard_normal(o).astype(np.float32)
    offset = (RNG.standard_normal((n, offset_group * kh * kw * 2, oh, ow)) *
              spread + shift).astype(np.float32)
    m = RNG.uniform(0, 1, (n, offset_group * kh * kw, oh, ow)).astype(
        np.float32)
    names = ['X', 'W', 'offset', 'B' if bias else '']
    inputs = [helper.make_tensor_value_info('X', F, x.shape),
              helper.make_tensor_value_info(
                  'offset', F, offset_shape or offset.shape)]
    feeds = [x, offset]
    if mask:
        names.append('mask')
        inputs.append(helper.make_tensor_value_info('mask', F, m.shape))
        feeds.append(m)
    node = helper.make_node(
        'DeformConv', names, ['Y'], kernel_shape=[kh, kw],
        strides=list(strides), dilations=list(dilations), pads=list(pads),
        group=group, offset_group=offset_group)
    inits = [numpy_helper.from_array(weights, 'W')]
    if bias:
        inits.append(numpy_helper.from_array(b, 'B'))
    graph = helper.make_graph(
        [node], 'g', inputs,
        [helper.make_tensor_value_info('Y', F, [n, o, oh, ow])], inits)
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid('', 19)])
    # torchvision pads symmetrically: pad the input for the extra bottom
    # and right rows (zeros read as zeros either way), shifting nothing.
    xt = torch.nn.functional.pad(
        torch.from_numpy(x),
        (0, pads[3] - pads[1], 0, pads[2] - pads[0]))
    y = deform_conv2d(
        xt, torch.from_numpy(offset), torch.from_numpy(weights),
        bias=torch.from_numpy(b) if bias else None, stride=strides,
        padding=(pads[0], pads[1]), dilation=dilations,
        mask=torch.from_numpy(m) if mask else None)
    return model, feeds, y.numpy()


def basic():
    return case(2, 4, 7, 6, 6, (3, 3), pads=(1, 1, 1, 1), spread=1.5)


def strided():
    return case(1, 6, 9, 8, 4, (3, 2), strides=(2, 1), dilations=(1, 2),
                pads=(1, 0, 2, 1), group=2, offset_group=3, mask=True)


def outside():
    return case(1, 2, 5, 5, 3, (3, 3), pads=(1, 1, 1, 1), spread=0.0,
                shift=50.0)


def bad_offset_shape():
    return case(1, 2, 5, 5, 3, (3, 3), offset_shape=[1, 9, 3, 3])


def bad_group():
    m, feeds, y = case(1, 4, 5, 5, 6, (3, 3))
    for a in m.graph.node[0].attribute:
        if a.name == 'group':
            a.i = 3
    return m, feeds, y


def main():
    *names, out = sys.argv[1:]
    os.makedirs(out, exist_ok=True)
    for name in names:
        model, feeds, expected = globals()[name]()
        onnx.save(model, os.path.join(out, name + '.onnx'))
        for i, v in enumerate(feeds):
            np.save(os.path.join(out, '%s.in%d.npy' % (name, i)), v)
        np.save(os.path.join(out, name + '.expected.npy'), expected)


if __name__ == '__main__':
    main()

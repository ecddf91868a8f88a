#!/usr/bin/python3
"""Writes opset-18 models for the importer's tests (onnx 1.12 predates
opset 18: the models are built by hand, their expected outputs computed
with numpy from the specification).

  opset18_models.py NAME... DIR

writes DIR/NAME.onnx, DIR/NAME.in0.npy (and in1 where there are two
inputs) and DIR/NAME.expected.npy. NAME: split_uneven, pad_axes,
resize_axes, resize_not_larger, reduce_axes_input, mish, bitwise,
group_norm, center_crop_pad, center_crop_pad_axes, pad_negative,
pad_negative_reflect, col2im_1d, col2im_2d,
col2im_3d; or a bad node: split_count_mismatch, split_empty_part,
pad_axes_mismatch, resize_antialias, resize_bad_policy,
center_crop_pad_count, center_crop_pad_repeated_axis, pad_crop_too_much,
col2im_positions.
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper
import onnx

F = TensorProto.FLOAT
X = np.linspace(-3, 3, 2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)


def model(nodes, inputs, outputs, inits=(), opset=18):
    g = helper.make_graph(nodes, 'g', inputs, outputs, list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid('', opset)])


def io(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def split_uneven():
    """num_outputs=3 on an axis of 7: parts of 3, 3 and 1 (concatenated
    back in reverse to check each part's place)."""
    x = np.arange(2 * 7, dtype=np.float32).reshape(2, 7)
    m = model([helper.make_node('Split', ['x'], ['a', 'b', 'c'], axis=1,
                                num_outputs=3),
               helper.make_node('Concat', ['c', 'b', 'a'], ['y'], axis=1)],
              [io('x', F, [2, 7])], [io('y', F, [2, 7])])
    return m, [x], np.concatenate([x[:, 6:], x[:, 3:6], x[:, :3]], axis=1)


def pad_axes():
    """pads for the axes [3, -2] only (W: 1 before, 2 after; H: 0, 1)."""
    m = model([helper.make_node('Pad', ['x', 'pads', 'value', 'axes'], ['y'])],
              [io('x', F, [2, 3, 4, 5])], [io('y', F, [2, 3, 5, 8])],
              [numpy_helper.from_array(np.array([1, 0, 2, 1], np.int64),
                                       'pads'),
               numpy_helper.from_array(np.array(7, np.float32), 'value'),
               numpy_helper.from_array(np.array([3, -2], np.int64), 'axes')])
    return m, [X], np.pad(X, [(0, 0), (0, 0), (0, 1), (1, 2)],
                          constant_values=7)


def resize_axes():
    """Nearest, scales [2, 3] for the axes [2, 3]."""
    m = model([helper.make_node('Resize', ['x', '', 'scales'], ['y'],
                                mode='nearest', axes=[2, 3],
                                coordinate_transformation_mode='asymmetric',
                                nearest_mode='floor')],
              [io('x', F, [2, 3, 4, 5])], [io('y', F, [2, 3, 8, 15])],
              [numpy_helper.from_array(np.array([2, 3], np.float32),
                                       'scales')])
    return m, [X], X.repeat(2, axis=2).repeat(3, axis=3)


def resize_not_larger():
    """Sizes [12, 10] for H and W kept at the aspect ratio, not larger:
    one scale, min(12/4, 10/5) = 2, so 8x10."""
    m = model([helper.make_node('Resize', ['x', '', '', 'sizes'], ['y'],
                                mode='nearest', axes=[2, 3],
                                keep_aspect_ratio_policy='not_larger',
                                coordinate_transformation_mode='asymmetric',
                                nearest_mode='floor')],
              [io('x', F, [2, 3, 4, 5])], [io('y', F, [2, 3, 8, 10])],
              [numpy_helper.from_array(np.array([12, 10], np.int64),
                                       'sizes')])
    return m, [X], X.repeat(2, axis=2).repeat(2, axis=3)


def reduce_axes_input():
    """ReduceMean and ReduceMax take their axes as input #1 from opset
    18."""
    m = model([helper.make_node('ReduceMean', ['x', 'axes'], ['m'],
                                keepdims=0),
               helper.make_node('ReduceMax', ['x', 'axes'], ['n'],
                                keepdims=0),
               helper.make_node('Add', ['m', 'n'], ['y'])],
              [io('x', F, [2, 3, 4, 5])], [io('y', F, [2, 4])],
              [numpy_helper.from_array(np.array([1, -1], np.int64), 'axes')])
    return m, [X], X.mean(axis=(1, 3)) + X.max(axis=(1, 3))


def mish():
    m = model([helper.make_node('Mish', ['x'], ['y'])],
              [io('x', F, [2, 3, 4, 5])], [io('y', F, [2, 3, 4, 5])])
    return m, [X], X * np.tanh(np.log1p(np.exp(X)))


def bitwise():
    """(a & b) ^ (~a | b) on int32, broadcasting b."""
    a = np.array([[5, -3, 12, 0], [7, 255, -1, 9]], np.int32)
    b = np.array([6, 10, -8, 3], np.int32)
    m = model([helper.make_node('BitwiseAnd', ['a', 'b'], ['and']),
               helper.make_node('BitwiseNot', ['a'], ['not']),
               helper.make_node('BitwiseOr', ['not', 'b'], ['or']),
               helper.make_node('BitwiseXor', ['and', 'or'], ['y'])],
              [io('a', TensorProto.INT32, [2, 4]),
               io('b', TensorProto.INT32, [4])],
              [io('y', TensorProto.INT32, [2, 4])])
    return m, [a, b], (a & b) ^ (~a | b)


def group_norm():
    """GroupNormalization: 6 channels in 3 groups, scale and bias one per
    group."""
    x = np.linspace(-2, 5, 2 * 6 * 3 * 4, dtype=np.float32).reshape(2, 6, 3, 4)
    x[:, 2] *= 3
    scale = np.array([0.5, -1.5, 2.0], np.float32)
    bias = np.array([0.1, 0.2, -0.3], np.float32)
    m = model([helper.make_node('GroupNormalization', ['x', 's', 'b'], ['y'],
                                num_groups=3, epsilon=1e-3)],
              [io('x', F, [2, 6, 3, 4])], [io('y', F, [2, 6, 3, 4])],
              [numpy_helper.from_array(scale, 's'),
               numpy_helper.from_array(bias, 'b')])
    g = x.reshape(2, 3, -1)
    n = (g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) +
                                                 1e-3)
    y = n * scale[None, :, None] + bias[None, :, None]
    return m, [x], y.reshape(x.shape)


def split_count_mismatch():
    """num_outputs 3 on a node with 2 outputs: an error."""
    m = model([helper.make_node('Split', ['x'], ['a', 'b'], axis=1,
                                num_outputs=3),
               helper.make_node('Concat', ['b', 'a'], ['y'], axis=1)],
              [io('x', F, [2, 6])], [io('y', F, [2, 6])])
    return m, [np.zeros((2, 6), np.float32)], np.zeros((2, 6))


def split_empty_part():
    """num_outputs=4 on an axis of 5: parts of 2 leave none for the last."""
    m = model([helper.make_node('Split', ['x'], ['a', 'b', 'c', 'd'], axis=1,
                                num_outputs=4),
               helper.make_node('Concat', ['d', 'c', 'b', 'a'], ['y'], axis=1)],
              [io('x', F, [2, 5])], [io('y', F, [2, 5])])
    return m, [np.zeros((2, 5), np.float32)], np.zeros((2, 5))


def pad_axes_mismatch():
    """Three pads values for one axis (two are needed)."""
    m = model([helper.make_node('Pad', ['x', 'pads', '', 'axes'], ['y'])],
              [io('x', F, [2, 3, 4, 5])], [io('y', F, [2, 3, 4, 8])],
              [numpy_helper.from_array(np.array([1, 2, 0], np.int64), 'pads'),
               numpy_helper.from_array(np.array([3], np.int64), 'axes')])
    return m, [X], np.zeros((2, 3, 4, 8))


def resize_antialias():
    """antialias=1 (a filter widened for downscaling): not supported."""
    m = model([helper.make_node('Resize', ['x', '', 'scales'], ['y'],
                                mode='linear', antialias=1, axes=[2, 3])],
              [io('x', F, [2, 3, 4, 5])], [io('y', F, [2, 3, 2, 2])],
              [numpy_helper.from_array(np.array([0.5, 0.5], np.float32),
                                       'scales')])
    return m, [X], np.zeros((2, 3, 2, 2))


def resize_bad_policy():
    m = model([helper.make_node('Resize', ['x', '', '', 'sizes'], ['y'],
                                axes=[2, 3], keep_aspect_ratio_policy='fit')],
              [io('x', F, [2, 3, 4, 5])], [io('y', F, [2, 3, 8, 10])],
              [numpy_helper.from_array(np.array([8, 10], np.int64), 'sizes')])
    return m, [X], np.zeros((2, 3, 8, 10))


def center_crop_pad():
    """CenterCropPad to [1, 4, 3, 8] from [2, 3, 4, 5]: N cropped by 1
    (none before), C padded by 1 (after), H cropped by 1 (none before), W
    padded by 3 (1 before, 2 after)."""
    m = model([helper.make_node('CenterCropPad', ['x', 'shape'], ['y'])],
              [io('x', F, [2, 3, 4, 5])], [io('y', F, [1, 4, 3, 8])],
              [numpy_helper.from_array(np.array([1, 4, 3, 8], np.int64),
                                       'shape')])
    y = np.zeros((1, 4, 3, 8), np.float32)
    y[:, 0:3, :, 1:6] = X[0:1, :, 0:3, :]
    return m, [X], y


def center_crop_pad_axes():
    """CenterCropPad of the axes [-1, 2] only: W 5 -> 2 (crop 1 before, 2
    after), H 4 -> 7 (pad 1 before, 2 after)."""
    m = model([helper.make_node('CenterCropPad', ['x', 'shape'], ['y'],
                                axes=[-1, 2])],
              [io('x', F, [2, 3, 4, 5])], [io('y', F, [2, 3, 7, 2])],
              [numpy_helper.from_array(np.array([2, 7], np.int64), 'shape')])
    y = np.zeros((2, 3, 7, 2), np.float32)
    y[:, :, 1:5, :] = X[:, :, :, 1:3]
    return m, [X], y


def pad_inputs(pads, mode, value=None, out_shape=None):
    inits = [numpy_helper.from_array(np.array(pads, np.int64), 'pads')]
    names = ['x', 'pads']
    if value is not None:
        inits.append(numpy_helper.from_array(np.array(value, np.float32),
                                             'value'))
        names.append('value')
    return model([helper.make_node('Pad', names, ['y'], mode=mode)],
                 [io('x', F, [2, 3, 4, 5])], [io('y', F, out_shape)], inits)


def pad_negative():
    """Negative pads crop: H loses 1 at the start and gains 2 at the end,
    W gains 1 at the start and loses 2 at the end, C loses 1 at the end."""
    m = pad_inputs([0, 0, -1, 1, 0, -1, 2, -2], 'constant', 5.0,
                   out_shape=[2, 2, 5, 4])
    y = np.pad(X[:, 0:2, 1:, 0:3], [(0, 0), (0, 0), (0, 2), (1, 0)],
               constant_values=5)
    return m, [X], y


def pad_negative_reflect():
    """Reflect padding after a crop reflects the cropped data: H loses its
    last row and gains 2 reflected at the start, W loses its first column
    and gains 2 at the end."""
    m = pad_inputs([0, 0, 2, -1, 0, 0, -1, 2], 'reflect',
                   out_shape=[2, 3, 5, 6])
    y = np.pad(X[:, :, 0:3, 1:], [(0, 0), (0, 0), (2, 0), (0, 2)],
               mode='reflect')
    return m, [X], y


def col2im_reference(cols, image, block, strides, dilations, pads):
    """Col2Im by its definition: each block position's column added to the
    image at the pixels it was taken from, then the padding dropped."""
    n, ck, _ = cols.shape
    sp = len(image)
    c = ck // int(np.prod(block))
    padded = [image[d] + pads[d] + pads[d + sp] for d in range(sp)]
    counts = [(padded[d] - dilations[d] * (block[d] - 1) - 1) // strides[d]
              + 1 for d in range(sp)]
    blocks = cols.reshape([n, c] + list(block) + counts)
    out = np.zeros([n, c] + padded, cols.dtype)
    everything = (slice(None), slice(None))
    for b in np.ndindex(*block):
        for p in np.ndindex(*counts):
            at = tuple(p[d] * strides[d] + b[d] * dilations[d]
                       for d in range(sp))
            out[everything + at] += blocks[everything + b + p]
    crop = tuple(slice(pads[d], pads[d] + image[d]) for d in range(sp))
    return out[everything + crop]


def col2im(image, block, strides, dilations, pads, channels=2, batch=2):
    sp = len(image)
    counts = [(image[d] + pads[d] + pads[d + sp] -
               dilations[d] * (block[d] - 1) - 1) // strides[d] + 1
              for d in range(sp)]
    shape = [batch, channels * int(np.prod(block)), int(np.prod(counts))]
    cols = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    m = model([helper.make_node('Col2Im', ['x', 'image', 'block'], ['y'],
                                strides=strides, dilations=dilations,
                                pads=pads)],
              [io('x', F, shape)], [io('y', F, [batch, channels] + image)],
              [numpy_helper.from_array(np.array(image, np.int64), 'image'),
               numpy_helper.from_array(np.array(block, np.int64), 'block')])
    return m, [cols], col2im_reference(cols, image, block, strides, dilations,
                                       pads)


def col2im_1d():
    """Blocks of 3 at stride 2 with dilation 2 over 11 pixels padded by 1
    and 2: the last pixel is no block's."""
    return col2im([11], [3], [2], [2], [1, 2])


def col2im_2d():
    """Blocks of 2x3, strides 2 and 1, dilations 1 and 2, pads 1, 0, 2, 1
    over a 7x6 image (rows beyond the last block's left uncovered)."""
    return col2im([7, 6], [2, 3], [2, 1], [1, 2], [1, 0, 2, 1], channels=3)


def col2im_3d():
    """Blocks of 2x2x2 at stride 1 over a 3x4x5 volume: ONNX's 5-d case."""
    return col2im([3, 4, 5], [2, 2, 2], [1, 1, 1], [1, 1, 1], [0] * 6,
                  batch=1)


def center_crop_pad_count():
    """Two sizes for three axes."""
    m = model([helper.make_node('CenterCropPad', ['x', 'shape'], ['y'],
                                axes=[0, 1, 2])],
              [io('x', F, [2, 3, 4, 5])], [io('y', F, [2, 3, 4, 5])],
              [numpy_helper.from_array(np.array([2, 3], np.int64), 'shape')])
    return m, [X], X


def center_crop_pad_repeated_axis():
    """axes 1 and -3 of a rank-4 input: the same axis twice."""
    m = model([helper.make_node('CenterCropPad', ['x', 'shape'], ['y'],
                                axes=[1, -3])],
              [io('x', F, [2, 3, 4, 5])], [io('y', F, [2, 3, 4, 5])],
              [numpy_helper.from_array(np.array([3, 3], np.int64), 'shape')])
    return m, [X], X


def pad_crop_too_much():
    """Crops 3 and 3 from a W of 5: one more than it has."""
    m = pad_inputs([0, 0, 0, -3, 0, 0, 0, -3], 'constant',
                   out_shape=[2, 3, 4, 0])
    return m, [X], X


def col2im_positions():
    """Columns for 5 block positions where the image makes 9 (3 x 3)."""
    m = model([helper.make_node('Col2Im', ['x', 'image', 'block'], ['y'])],
              [io('x', F, [1, 4, 5])], [io('y', F, [1, 2, 3, 4])],
              [numpy_helper.from_array(np.array([3, 4], np.int64), 'image'),
               numpy_helper.from_array(np.array([1, 2], np.int64), 'block')])
    return m, [np.zeros((1, 4, 5), np.float32)], np.zeros((1, 2, 3, 4))


def write_case(builders):
    """The command line's cases NAME... DIR, each built by builders[NAME](),
    as DIR/NAME.onnx, DIR/NAME.inI.npy and DIR/NAME.expected.npy (in the
    first input's dtype, or int8 where the expected values are, or their
    float type where the first input is integer)."""
    *names, out = sys.argv[1:]
    os.makedirs(out, exist_ok=True)
    for name in names:
        m, inputs, expected = builders[name]()
        onnx.save(m, os.path.join(out, name + '.onnx'))
        for i, x in enumerate(inputs):
            np.save(os.path.join(out, '%s.in%d.npy' % (name, i)), x)
        expected = np.asarray(expected)
        dtype = np.int8 if expected.dtype == np.int8 else inputs[0].dtype
        if np.issubdtype(expected.dtype, np.floating) and \
                not np.issubdtype(dtype, np.floating):
            dtype = expected.dtype  # (a dequantization's)
        np.save(os.path.join(out, name + '.expected.npy'),
                expected.astype(dtype))


def main():
    write_case(globals())


if __name__ == '__main__':
    main()

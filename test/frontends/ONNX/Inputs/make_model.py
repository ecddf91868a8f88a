#!/usr/bin/python3
"""Writes small ONNX models for the importer's tests (python3-onnx).

  make_model.py NAME OUT.onnx [NAME OUT.onnx ...]

(a test's models in one Python start: each costs a quarter second).
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def model(nodes, inputs, outputs, initializers=(), opset=13):
    graph = helper.make_graph(nodes, 'test', inputs, outputs,
                              initializer=list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', opset)])


def tensor(name, shape, elem=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, elem, shape)


def weights(name, shape, seed):
    rng = np.random.default_rng(seed)
    return numpy_helper.from_array(
        rng.standard_normal(shape).astype(np.float32), name)


def convnet(batch=1):
    """Conv (bias, padding) -> BatchNormalization -> Relu -> MaxPool ->
    GlobalAveragePool -> Flatten -> Gemm: a small image classifier."""
    nodes = [
        helper.make_node('Conv', ['x', 'w', 'b'], ['c'], name='conv',
                         pads=[1, 1, 1, 1], strides=[1, 1]),
        helper.make_node('BatchNormalization', ['c', 'g', 'beta', 'm', 'v'],
                         ['n'], name='bn', epsilon=1e-3),
        helper.make_node('Relu', ['n'], ['r'], name='relu'),
        helper.make_node('MaxPool', ['r'], ['p'], name='pool',
                         kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node('GlobalAveragePool', ['p'], ['g2'], name='gap'),
        helper.make_node('Flatten', ['g2'], ['f'], name='flatten'),
        helper.make_node('Gemm', ['f', 'fc', 'fcb'], ['y'], name='fc',
                         transB=1),
    ]
    rng = np.random.default_rng(3)
    inits = [
        weights('w', (8, 3, 3, 3), 0), weights('b', (8,), 1),
        weights('g', (8,), 2), weights('beta', (8,), 4),
        numpy_helper.from_array(rng.uniform(-1, 1, 8).astype(np.float32), 'm'),
        numpy_helper.from_array(rng.uniform(0.5, 2, 8).astype(np.float32), 'v'),
        weights('fc', (10, 8), 5), weights('fcb', (10,), 6),
    ]
    return model(nodes, [tensor('x', [batch, 3, 8, 8])],
                 [tensor('y', [batch, 10])], inits)


def convnet_dynamic():
    """convnet with a symbolic batch size, as exporters write it
    (torch.onnx.export's dynamic_axes)."""
    return convnet(batch='N')


def shape_arith():
    """x.view(x.size(0), -1) as exporters write it: Shape, Gather,
    Unsqueeze, Concat, Reshape, all folded at import."""
    nodes = [
        helper.make_node('Shape', ['x'], ['s'], name='shape'),
        helper.make_node('Constant', [], ['zero'], name='zero',
                         value=numpy_helper.from_array(np.array(0, np.int64))),
        helper.make_node('Gather', ['s', 'zero'], ['n'], name='batch', axis=0),
        helper.make_node('Unsqueeze', ['n', 'axes'], ['n1'], name='unsq'),
        helper.make_node('Constant', [], ['minus1'], name='minus1',
                         value=numpy_helper.from_array(np.array([-1], np.int64))),
        helper.make_node('Concat', ['n1', 'minus1'], ['shape2'], name='cat',
                         axis=0),
        helper.make_node('Reshape', ['x', 'shape2'], ['y'], name='reshape'),
    ]
    inits = [numpy_helper.from_array(np.array([0], np.int64), 'axes')]
    return model(nodes, [tensor('x', [2, 3, 4])], [tensor('y', [2, 12])], inits)


def expand_shape():
    """torch's x.expand(2, -1, -1) as exported: the target shape is
    Where(Equal(shape, -1), ones, shape) over ConstantOfShape, folded at
    import so that Expand gets a known shape."""
    nodes = [
        helper.make_node('Constant', [], ['shape'], name='shape',
                         value=numpy_helper.from_array(np.array([2, -1, -1], np.int64))),
        helper.make_node('ConstantOfShape', ['len'], ['ones'], name='ones',
                         value=numpy_helper.from_array(np.array([1], np.int64))),
        helper.make_node('Constant', [], ['minus1'], name='minus1',
                         value=numpy_helper.from_array(np.array(-1, np.int64))),
        helper.make_node('Mul', ['ones', 'minus1'], ['neg'], name='neg'),
        helper.make_node('Equal', ['shape', 'neg'], ['keep'], name='keep'),
        helper.make_node('Where', ['keep', 'ones', 'shape'], ['target'],
                         name='target'),
        helper.make_node('Expand', ['x', 'target'], ['y'], name='expand'),
    ]
    inits = [numpy_helper.from_array(np.array([3], np.int64), 'len')]
    return model(nodes, [tensor('x', [1, 3, 4])], [tensor('y', [2, 3, 4])], inits)


def evaluated_shape():
    """Shape arithmetic no converter folds itself, as layer norm's
    expanded form writes it: Size of a Shape, Neg, ConstantOfShape on the
    result and Range on known bounds; evaluated at import (the
    interpreter's kernels), so that the Reshape's shape is known."""
    c = lambda name, v: helper.make_node(
        'Constant', [], [name], name=name, value=numpy_helper.from_array(v))
    nodes = [
        helper.make_node('Shape', ['x'], ['s'], name='shape'),
        helper.make_node('Size', ['s'], ['rank'], name='size'),
        helper.make_node('Neg', ['rank'], ['negrank'], name='neg'),
        helper.make_node('Abs', ['negrank'], ['rank2'], name='abs'),
        helper.make_node('Unsqueeze', ['rank2', 'axes'], ['rank1'], name='unsq'),
        helper.make_node('ConstantOfShape', ['rank1'], ['ones'], name='ones',
                         value=numpy_helper.from_array(np.array([1], np.int64))),
        c('start', np.array(0, np.int64)), c('delta', np.array(1, np.int64)),
        helper.make_node('Range', ['start', 'rank2', 'delta'], ['idx'], name='range'),
        helper.make_node('Mul', ['s', 'ones'], ['s2'], name='times_ones'),
        helper.make_node('Add', ['s2', 'idx'], ['s3'], name='plus_idx'),
        helper.make_node('Sub', ['s3', 'idx'], ['s4'], name='minus_idx'),
        helper.make_node('ReduceProd', ['s4'], ['n'], name='prod', keepdims=1),
        helper.make_node('Reshape', ['x', 'n'], ['y'], name='reshape'),
    ]
    inits = [numpy_helper.from_array(np.array([0], np.int64), 'axes')]
    return model(nodes, [tensor('x', [2, 3, 4])], [tensor('y', [24])], inits)


def qdq_weight():
    """A dequantized int8 initializer (a QDQ model's weight): known at
    import, but float, so it stays a dequantize."""
    nodes = [
        helper.make_node('DequantizeLinear', ['w', 's'], ['wf'], name='dq'),
        helper.make_node('Add', ['x', 'wf'], ['y'], name='add'),
    ]
    inits = [numpy_helper.from_array(np.array([1, -2, 3], np.int8), 'w'),
             numpy_helper.from_array(np.array(0.5, np.float32), 's')]
    return model(nodes, [tensor('x', [3])], [tensor('y', [3])], inits)


def resize(mode='linear', coordinates='half_pixel'):
    """F.interpolate(scale_factor=2) as exported: Resize with constant
    scales."""
    nodes = [helper.make_node('Resize', ['x', '', 'scales'], ['y'], name='up',
                              mode=mode,
                              coordinate_transformation_mode=coordinates)]
    inits = [numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), 'scales')]
    return model(nodes, [tensor('x', [1, 2, 3, 3])], [tensor('y', [1, 2, 6, 6])], inits)


def resize_cubic():
    return resize('cubic')


def resize_crop():
    """Resize with tf_crop_and_resize coordinates (a region of interest)."""
    return resize('linear', 'tf_crop_and_resize')


def depth_to_space_bad(blocksize=2):
    """DepthToSpace whose channels are not a multiple of blocksize^2."""
    nodes = [helper.make_node('DepthToSpace', ['x'], ['y'], name='d2s',
                              blocksize=blocksize)]
    return model(nodes, [tensor('x', [1, 6, 2, 2])], [tensor('y', [1, 1, 4, 4])])


def space_to_depth_zero():
    """SpaceToDepth with blocksize 0."""
    nodes = [helper.make_node('SpaceToDepth', ['x'], ['y'], name='s2d',
                              blocksize=0)]
    return model(nodes, [tensor('x', [1, 6, 2, 2])], [tensor('y', [1, 6, 2, 2])])


def pad_arith():
    """Pads computed from constants through Mod, Reshape, Transpose and a
    reversing 2-d Slice (as in Swin-T's window padding), folded at import:
    [5, 7, 9, 11] mod 4 -> [[1, 3], [1, 3]] -> transposed -> rows reversed
    -> [3, 3, 1, 1]."""
    def const(name, array):
        return helper.make_node('Constant', [], [name], name=name,
                                value=numpy_helper.from_array(array))
    nodes = [
        const('v', np.array([5, 7, 9, 11], np.int64)),
        const('four', np.array(4, np.int64)),
        helper.make_node('Mod', ['v', 'four'], ['m'], name='mod'),
        const('square', np.array([2, 2], np.int64)),
        helper.make_node('Reshape', ['m', 'square'], ['m2'], name='square'),
        helper.make_node('Transpose', ['m2'], ['t'], name='transpose', perm=[1, 0]),
        const('start', np.array([-1], np.int64)),
        const('end', np.array([-3], np.int64)),
        const('axis', np.array([0], np.int64)),
        const('step', np.array([-1], np.int64)),
        helper.make_node('Slice', ['t', 'start', 'end', 'axis', 'step'], ['r'],
                         name='reverse'),
        const('flat', np.array([4], np.int64)),
        helper.make_node('Reshape', ['r', 'flat'], ['pads'], name='flat'),
        helper.make_node('Pad', ['x', 'pads'], ['y'], name='pad'),
    ]
    return model(nodes, [tensor('x', [2, 3])], [tensor('y', [6, 7])])


def pad_stride():
    """Pads to the next multiple of 32 computed in float from the image's
    shape, as torchvision's detection models batch their images: H and W
    (30, 45) cast to float, divided by 32, rounded up, times 32, cast back,
    minus the size -> pads [0, 0, 0, 0, 0, 0, 2, 19], folded at import."""
    def const(name, array):
        return helper.make_node('Constant', [], [name], name=name,
                                value=numpy_helper.from_array(array))
    nodes = [
        helper.make_node('Shape', ['x'], ['shape'], name='shape'),
        const('hw_at', np.array([2, 3], np.int64)),
        helper.make_node('Gather', ['shape', 'hw_at'], ['hw'], name='hw'),
        helper.make_node('Cast', ['hw'], ['hwf'], name='to_float', to=TensorProto.FLOAT),
        const('stride', np.array(32.0, np.float32)),
        helper.make_node('Div', ['hwf', 'stride'], ['q'], name='div'),
        helper.make_node('Ceil', ['q'], ['qc'], name='ceil'),
        helper.make_node('Mul', ['qc', 'stride'], ['sized'], name='mul'),
        helper.make_node('Cast', ['sized'], ['sizes'], name='to_int', to=TensorProto.INT64),
        helper.make_node('Sub', ['sizes', 'hw'], ['ends'], name='sub'),
        const('zeros', np.zeros(6, np.int64)),
        helper.make_node('Concat', ['zeros', 'ends'], ['pads'], name='pads', axis=0),
        helper.make_node('Pad', ['x', 'pads'], ['y'], name='pad'),
    ]
    return model(nodes, [tensor('x', [1, 3, 30, 45])], [tensor('y', [1, 3, 32, 64])])


def two_outputs():
    """Split into two outputs, and Softmax on one: a tuple result."""
    nodes = [
        helper.make_node('Split', ['x'], ['a', 'b'], name='split', axis=1),
        helper.make_node('Softmax', ['a'], ['sa'], name='softmax', axis=-1),
    ]
    return model(nodes, [tensor('x', [2, 6])],
                 [tensor('sa', [2, 3]), tensor('b', [2, 3])])


def unsupported_op():
    nodes = [helper.make_node('StringNormalizer', ['x'], ['y'], name='normalize')]
    return model(nodes, [tensor('x', [3, 3])], [tensor('y', ['n'])])


def training_unknown():
    """An operator of the training domain the importer does not convert."""
    node = helper.make_node('Gradient', ['x'], ['y'], name='grad',
                            domain='ai.onnx.preview.training', xs=['x'],
                            y='x')
    m = model([node], [tensor('x', [2])], [tensor('y', [2])])
    m.opset_import.append(helper.make_opsetid('ai.onnx.preview.training', 1))
    return m


def det():
    """Det of a batch of 4 x 3 matrices of 7 x 7."""
    nodes = [helper.make_node('Det', ['x'], ['y'], name='determinant')]
    return model(nodes, [tensor('x', [4, 3, 7, 7])], [tensor('y', [4, 3])])


def nonzero():
    """NonZero of the ReLU of x: an output whose length depends on the
    data."""
    nodes = [
        helper.make_node('Relu', ['x'], ['r'], name='relu'),
        helper.make_node('NonZero', ['r'], ['idx'], name='nonzero'),
    ]
    return model(nodes, [tensor('x', [3, 4])],
                 [tensor('idx', [2, 'n'], TensorProto.INT64)])


def squeeze_if():
    """torch.onnx's squeeze of a dim it cannot see: rows of x picked by
    NonZero (a length that depends on the data) times a [1, 1] matrix give
    [n, 1]; an If on the size of dim 1 (static: 1) squeezes it or not, the
    branches differing in rank. The importer folds the size and takes the
    squeezing branch."""
    then_branch = helper.make_graph(
        [helper.make_node('Squeeze', ['col', 'axis1'], ['sq'], name='squeeze')],
        'then', [], [tensor('sq', ['n'])])
    else_branch = helper.make_graph(
        [helper.make_node('Identity', ['col'], ['same'], name='same')],
        'else', [], [tensor('same', ['n', 1])])
    nodes = [
        helper.make_node('NonZero', ['x'], ['idx'], name='nonzero'),
        helper.make_node('Gather', ['idx', 'zero'], ['rows'], name='rows',
                         axis=0),
        helper.make_node('Gather', ['x', 'rows'], ['picked'], name='picked',
                         axis=0),
        helper.make_node('Unsqueeze', ['picked', 'axis1'], ['col'],
                         name='col'),
        helper.make_node('Shape', ['col'], ['shape'], name='shape'),
        helper.make_node('Gather', ['shape', 'one'], ['dim'], name='dim',
                         axis=0),
        helper.make_node('Equal', ['dim', 'one'], ['is1'], name='is1'),
        helper.make_node('If', ['is1'], ['y'], name='maybe_squeeze',
                         then_branch=then_branch, else_branch=else_branch),
    ]
    inits = [numpy_helper.from_array(np.array(0, np.int64), 'zero'),
             numpy_helper.from_array(np.array(1, np.int64), 'one'),
             numpy_helper.from_array(np.array([1], np.int64), 'axis1')]
    return model(nodes, [tensor('x', [5])], [tensor('y', ['n'])], inits)


def flatten_empty():
    """Flatten (axis 1) of [n, 2, 1] zeros whose every size is known only
    at run time (a ConstantOfShape of NonZero's transposed shape, as a
    detector's MultiScaleRoIAlign makes its result): with no nonzero
    element, [0, 2]."""
    nodes = [
        helper.make_node('NonZero', ['x'], ['idx'], name='nonzero'),
        helper.make_node('Transpose', ['idx'], ['t'], name='flip'),
        helper.make_node('Shape', ['t'], ['s'], name='shape'),
        helper.make_node('ConstantOfShape', ['s'], ['c'], name='zeros'),
        helper.make_node('Unsqueeze', ['c', 'axis2'], ['u'], name='unsqueeze'),
        helper.make_node('Flatten', ['u'], ['y'], name='flatten', axis=1),
    ]
    inits = [numpy_helper.from_array(np.array([2], np.int64), 'axis2')]
    return model(nodes, [tensor('x', [2, 3])], [tensor('y', ['n', 'm'])],
                 inits)


def picked_rows():
    """The rows of x whose score s is above 0 ('picked') and how many
    ('count', a 1-element shape): NonZero's length depends on the data.
    Needs the initializers 'zero' (0.0) and 'flat' ([-1])."""
    return [
        helper.make_node('Greater', ['s', 'zero'], ['kept'], name='kept'),
        helper.make_node('NonZero', ['kept'], ['idx'], name='nonzero'),
        helper.make_node('Reshape', ['idx', 'flat'], ['rows'], name='rows'),
        helper.make_node('Gather', ['x', 'rows'], ['picked'], name='picked',
                         axis=0),
        helper.make_node('Shape', ['rows'], ['count'], name='count'),
    ]


def mask_head(scales=None):
    """Mask R-CNN's mask head as torchvision exports it, in small: the
    regions scoring above 0 (NonZero: a count that depends on the data)
    are added to ConstantOfShape(Concat(count, 2, 4, 4)) zeros, go through
    Conv, Relu and ConvTranspose, and each is resized to a size given as an
    input (Resize's sizes: Concat(Shape(x)[0:2], hw)). With `scales`
    'computed', the Resize takes scales computed from hw instead; with
    'constant', it doubles the size (Keypoint R-CNN's upsampling of its
    `?` heatmaps)."""
    nodes = picked_rows() + [
        helper.make_node('Concat', ['count', 'chw'], ['dims'], name='dims',
                         axis=0),
        helper.make_node('ConstantOfShape', ['dims'], ['zeros'], name='zeros'),
        helper.make_node('Add', ['zeros', 'picked'], ['features'],
                         name='features'),
        helper.make_node('Conv', ['features', 'w', 'b'], ['c'], name='conv',
                         pads=[1, 1, 1, 1]),
        helper.make_node('Relu', ['c'], ['r'], name='relu'),
        helper.make_node('ConvTranspose', ['r', 'wt'], ['up'], name='up',
                         strides=[2, 2]),
        helper.make_node('Shape', ['up'], ['up_shape'], name='up_shape'),
        helper.make_node('Slice', ['up_shape', 'begin', 'end'], ['nc'],
                         name='nc'),
    ]
    if scales == 'constant':
        nodes += [helper.make_node('Resize', ['up', '', 'twice'], ['y'],
                                   name='resize', mode='linear')]
    elif scales:
        nodes += [
            helper.make_node('Cast', ['hw'], ['hwf'], name='hwf', to=1),
            helper.make_node('Concat', ['ones', 'hwf'], ['factors'],
                             name='factors', axis=0),
            helper.make_node('Resize', ['up', '', 'factors'], ['y'],
                             name='resize', mode='linear'),
        ]
    else:
        nodes += [
            helper.make_node('Concat', ['nc', 'hw'], ['sizes'], name='sizes',
                             axis=0),
            helper.make_node('Resize', ['up', '', '', 'sizes'], ['y'],
                             name='resize', mode='linear'),
        ]
    inits = [numpy_helper.from_array(np.array(0, np.float32), 'zero'),
             numpy_helper.from_array(np.array([-1], np.int64), 'flat'),
             numpy_helper.from_array(np.array([2, 4, 4], np.int64), 'chw'),
             numpy_helper.from_array(np.array([0], np.int64), 'begin'),
             numpy_helper.from_array(np.array([2], np.int64), 'end'),
             numpy_helper.from_array(np.array([1, 1], np.float32), 'ones'),
             numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32),
                                     'twice'),
             weights('w', [3, 2, 3, 3], 5), weights('b', [3], 6),
             weights('wt', [3, 2, 2, 2], 7)]
    return model(nodes, [tensor('x', [5, 2, 4, 4]), tensor('s', [5]),
                         tensor('hw', [2], TensorProto.INT64)],
                 [tensor('y', ['n', 2, 'h', 'w'])], inits)


def known_shapes():
    """Reshape and Expand to shapes computed at run time, Concat(count, 2,
    4), where the count (rows of x scoring above 0: NonZero) depends on the
    data and the rest is constant: the importer puts the 2 and 4 into the
    results' types."""
    nodes = picked_rows() + [
        helper.make_node('Concat', ['count', 'tail'], ['dims'], name='dims',
                         axis=0),
        helper.make_node('Reshape', ['picked', 'dims'], ['grid'],
                         name='grid'),
        helper.make_node('Expand', ['row', 'dims'], ['rows_of_row'],
                         name='expand'),
        helper.make_node('Add', ['grid', 'rows_of_row'], ['y'], name='sum'),
    ]
    inits = [numpy_helper.from_array(np.array(0, np.float32), 'zero'),
             numpy_helper.from_array(np.array([-1], np.int64), 'flat'),
             numpy_helper.from_array(np.array([2, 4], np.int64), 'tail'),
             numpy_helper.from_array(
                 np.arange(4, dtype=np.float32).reshape(1, 4), 'row')]
    return model(nodes, [tensor('x', [5, 8]), tensor('s', [5])],
                 [tensor('y', ['n', 2, 4])], inits)


def mask_head_scales():
    return mask_head(scales='computed')


def mask_head_upsample():
    return mask_head(scales='constant')


def nonzero_consumed():
    """A node whose import needs static shapes (Det) taking NonZero's
    output, whose length depends on the data."""
    nodes = [
        helper.make_node('NonZero', ['x'], ['idx'], name='nonzero'),
        helper.make_node('Transpose', ['idx'], ['t'], name='flip'),
        helper.make_node('Cast', ['t'], ['f'], name='cast', to=1),
        helper.make_node('Det', ['f'], ['y'], name='det'),
    ]
    return model(nodes, [tensor('x', [3, 4])], [tensor('y', [])])


def einsum_diagonal():
    """Einsum taking a diagonal (a label repeated in one operand) of a
    matrix that is not square."""
    nodes = [helper.make_node('Einsum', ['x'], ['y'], name='diag',
                              equation='ii->i')]
    return model(nodes, [tensor('x', [3, 4])], [tensor('y', [3])], opset=12)


def bad_shapes():
    nodes = [helper.make_node('Add', ['x', 'z'], ['y'], name='sum')]
    return model(nodes, [tensor('x', [2, 3]), tensor('z', [4])],
                 [tensor('y', [2, 3])])


def dynamic_shape():
    nodes = [helper.make_node('Relu', ['x'], ['y'], name='relu')]
    return model(nodes, [tensor('x', ['N', 3])], [tensor('y', ['N', 3])])


def new_opset():
    nodes = [helper.make_node('Relu', ['x'], ['y'], name='relu')]
    return model(nodes, [tensor('x', [2])], [tensor('y', [2])], opset=28)


def undefined_input():
    nodes = [helper.make_node('Relu', ['nowhere'], ['y'], name='relu')]
    return model(nodes, [tensor('x', [2])], [tensor('y', [2])])


def runtime_reshape():
    """Reshape to a shape that is a graph input: not known when importing."""
    nodes = [helper.make_node('Reshape', ['x', 's'], ['y'], name='reshape')]
    return model(nodes, [tensor('x', [2, 3]),
                         tensor('s', [2], TensorProto.INT64)],
                 [tensor('y', [3, 2])])


def runtime_pad_one_hot():
    """Pad by pads and OneHot of a depth that are graph inputs (dyn.nn.pad,
    dyn.one_hot): not known when importing."""
    nodes = [helper.make_node('Pad', ['x', 'p', 'v'], ['y'], name='pad',
                              mode='constant'),
             helper.make_node('OneHot', ['i', 'd', 'onoff'], ['h'],
                              name='onehot', axis=0)]
    return model(nodes, [tensor('x', [2, 3]),
                         tensor('p', [4], TensorProto.INT64),
                         tensor('v', [], TensorProto.FLOAT),
                         tensor('i', [3], TensorProto.INT64),
                         tensor('d', [1], TensorProto.FLOAT),
                         tensor('onoff', [2])],
                 [tensor('y', [None, None]), tensor('h', [None, 3])])


def runtime_reshape_matrix():
    """Reshape to a shape given as a matrix: not a shape."""
    nodes = [helper.make_node('Reshape', ['x', 's'], ['y'], name='reshape')]
    return model(nodes, [tensor('x', [2, 3]),
                         tensor('s', [1, 2], TensorProto.INT64)],
                 [tensor('y', [3, 2])])


def lstm(w_rows=16, **attrs):
    """An LSTM of hidden size 4 on a [3, 1, 2] sequence; `w_rows` other
    than 16 gives W the wrong shape."""
    nodes = [helper.make_node('LSTM', ['x', 'w', 'r'], ['y'], name='lstm',
                              hidden_size=4, **attrs)]
    return model(nodes, [tensor('x', [3, 1, 2])], [tensor('y', [3, 1, 1, 4])],
                 [weights('w', [1, w_rows, 2], 1),
                  weights('r', [1, 16, 4], 2)], opset=14)


def lstm_bad_weights():
    return lstm(w_rows=12)


def lstm_bad_activation():
    return lstm(activations=['Sigmoid', 'Tanh', 'Swish'])


def lstm_bad_direction():
    return lstm(direction='sideways')


def scatter_runtime_indices():
    """ScatterND (multiplying) and ScatterElements (adding) whose indices
    are graph inputs: not known at import."""
    nodes = [helper.make_node('ScatterND', ['x', 'i', 'u'], ['y'],
                              name='scatter', reduction='mul'),
             helper.make_node('ScatterElements', ['x', 'j', 'v'], ['z'],
                              axis=1, reduction='add')]
    return model(nodes, [tensor('x', [4, 3]),
                         tensor('i', [2, 1], TensorProto.INT64),
                         tensor('u', [2, 3]),
                         tensor('j', [4, 2], TensorProto.INT64),
                         tensor('v', [4, 2])],
                 [tensor('y', [4, 3]), tensor('z', [4, 3])], opset=16)


def scatter_bad_reduction():
    """ScatterElements with a reduction ONNX does not define."""
    nodes = [helper.make_node('ScatterElements', ['x', 'j', 'v'], ['z'],
                              name='scatter', reduction='mean')]
    return model(nodes, [tensor('x', [4, 3]),
                         tensor('j', [4, 3], TensorProto.INT64),
                         tensor('v', [4, 3])], [tensor('z', [4, 3])], opset=16)


def gathernd_long_tuples():
    """GatherND with index tuples longer than the data's rank."""
    nodes = [helper.make_node('GatherND', ['x', 'i'], ['y'], name='gather')]
    return model(nodes, [tensor('x', [4, 3]),
                         tensor('i', [2, 3], TensorProto.INT64)],
                 [tensor('y', [2])])


def nll_bad_target():
    """NegativeLogLikelihoodLoss with a target of the wrong shape."""
    nodes = [helper.make_node('NegativeLogLikelihoodLoss', ['x', 't'], ['y'],
                              name='loss')]
    return model(nodes, [tensor('x', [3, 5]),
                         tensor('t', [5], TensorProto.INT64)],
                 [tensor('y', [])])


def if_model(cond=None, else_size=2):
    """If on a condition that is a graph input (or a constant `cond`): the
    then branch doubles x, the else branch adds ones to it (or, with
    `else_size` other than 2, gives ones of that size or shape)."""
    then_branch = helper.make_graph(
        [helper.make_node('Add', ['x', 'x'], ['t'])], 'then', [],
        [tensor('t', [2])])
    else_branch = helper.make_graph(
        [helper.make_node('Add', ['x', 'one'], ['e']) if else_size == 2 else
         helper.make_node('Identity', ['one'], ['e'])], 'else', [],
        [tensor('e', [int(d) for d in np.atleast_1d(else_size)])],
        [numpy_helper.from_array(np.ones(else_size, np.float32), 'one')])
    nodes = [helper.make_node('If', ['c'], ['y'], name='choose',
                              then_branch=then_branch,
                              else_branch=else_branch)]
    inputs = [tensor('x', [2])]
    inits = []
    if cond is None:
        inputs.append(tensor('c', [], TensorProto.BOOL))
    else:
        inits.append(numpy_helper.from_array(np.array(cond), 'c'))
    return model(nodes, inputs, [tensor('y', [2])], inits)


def if_runtime():
    return if_model()


def if_constant():
    return if_model(cond=False)


def if_mismatch():
    return if_model(else_size=(2, 1))


def if_sizes():
    return if_model(else_size=3)


def detect():
    """A detector's post-processing, as torchvision exports it: the scores
    above a threshold (NonZero, GatherND), the best k of them where k =
    min(their number, 4) (TopK of a computed k), their boxes, non-maximum
    suppression, and shape arithmetic on the survivors (Shape, Range,
    ConstantOfShape, Reshape and Expand to computed shapes, Tile, Slice
    with a computed end). Every size after NonZero depends on the data."""
    i64 = TensorProto.INT64
    c = lambda name, values: numpy_helper.from_array(
        np.array(values, dtype=np.int64 if isinstance(values[0], int)
                 else np.float32), name)
    nodes = [
        helper.make_node('Greater', ['scores', 'thr'], ['mask'], name='gt'),
        helper.make_node('NonZero', ['mask'], ['nz'], name='nonzero'),
        helper.make_node('Transpose', ['nz'], ['nzt'], name='nzt'),
        helper.make_node('GatherND', ['scores', 'nzt'], ['sel'], name='gnd'),
        helper.make_node('Squeeze', ['nz', 'axis0'], ['idx'], name='sq'),
        helper.make_node('Shape', ['sel'], ['n'], name='shape'),
        helper.make_node('Min', ['n', 'four'], ['k'], name='k'),
        helper.make_node('TopK', ['sel', 'k'], ['top', 'order'], name='topk'),
        helper.make_node('Gather', ['idx', 'order'], ['kept'], name='g1'),
        helper.make_node('Gather', ['boxes', 'kept'], ['kb'], name='g2',
                         axis=0),
        helper.make_node('Unsqueeze', ['kb', 'axis0'], ['kb3'], name='u1'),
        helper.make_node('Unsqueeze', ['top', 'axes01'], ['top3'], name='u2'),
        helper.make_node('NonMaxSuppression', ['kb3', 'top3', 'maxout', 'iou',
                                               'sthr'], ['nms'], name='nms'),
        helper.make_node('Gather', ['nms', 'two'], ['which'], name='g3',
                         axis=1),
        helper.make_node('Gather', ['kb', 'which'], ['final'], name='g4',
                         axis=0),
        helper.make_node('Shape', ['final'], ['fs'], name='fshape'),
        helper.make_node('Gather', ['fs', 'zero'], ['m'], name='g5'),
        helper.make_node('Range', ['zero', 'm', 'one'], ['ids'], name='range'),
        helper.make_node('ConstantOfShape', ['fs'], ['zeros'], name='cos',
                         value=numpy_helper.from_array(
                             np.array([0.5], np.float32))),
        helper.make_node('Add', ['final', 'zeros'], ['shifted'], name='add'),
        helper.make_node('Concat', ['minus1', 'two1'], ['rs'], name='cat',
                         axis=0),
        helper.make_node('Reshape', ['shifted', 'rs'], ['pairs'],
                         name='reshape'),
        helper.make_node('Concat', ['mv', 'three'], ['es'], name='cat2',
                         axis=0),
        helper.make_node('Expand', ['ids2', 'es'], ['grid'], name='expand'),
        helper.make_node('Unsqueeze', ['ids', 'axis1'], ['ids2'], name='u3'),
        helper.make_node('Gather', ['fs', 'zero1'], ['mv'], name='g6'),
        helper.make_node('Tile', ['top', 'reps'], ['tiled'], name='tile'),
        helper.make_node('Concat', ['two1', 'mv'], ['reps0'], name='cat4',
                         axis=0),
        helper.make_node('Slice', ['reps0', 'one1', 'two1'], ['reps'],
                         name='slice'),
    ]
    # (Topologically ordered below: ONNX requires it.)
    order = ['gt', 'nonzero', 'nzt', 'gnd', 'sq', 'shape', 'k', 'topk', 'g1',
             'g2', 'u1', 'u2', 'nms', 'g3', 'g4', 'fshape', 'g5', 'range',
             'cos', 'add', 'cat', 'reshape', 'u3', 'g6', 'cat2', 'expand',
             'cat4', 'slice', 'tile']
    by_name = {n.name: n for n in nodes}
    nodes = [by_name[n] for n in order]
    # Unsqueeze's axis1 and Squeeze's axis0 are inputs from opset 13.
    m = lambda name, shape: tensor(name, shape)
    inits = [c('thr', [0.3]), c('four', [4]), c('axis0', [0]),
             c('axes01', [0, 1]), c('maxout', [10]), c('iou', [0.5]),
             c('sthr', [0.0]), c('two', [2]), c('zero', [0]),
             c('one', [1]), c('minus1', [-1]), c('two1', [2]),
             c('three', [3]), c('axis1', [1]), c('one1', [1]),
             c('zero1', [0])]
    inits[7] = numpy_helper.from_array(np.array(2, np.int64), 'two')
    inits[8] = numpy_helper.from_array(np.array(0, np.int64), 'zero')
    inits[9] = numpy_helper.from_array(np.array(1, np.int64), 'one')
    return model(nodes, [m('boxes', [6, 4]), m('scores', [6])],
                 [tensor('final', ['m', 4]), tensor('pairs', ['p', 2]),
                  tensor('grid', ['m', 3], i64), tensor('tiled', ['t'])],
                 inits)


def windows():
    """HannWindow of a constant size (a constant), HammingWindow
    (symmetric) and BlackmanWindow of a size given as an input."""
    size = numpy_helper.from_array(np.array(5, np.int64), 'five')
    nodes = [helper.make_node('HannWindow', ['five'], ['hann']),
             helper.make_node('HammingWindow', ['n'], ['hamming'],
                              periodic=0),
             helper.make_node('BlackmanWindow', ['n'], ['blackman'])]
    return model(nodes, [tensor('n', [], TensorProto.INT32)],
                 [tensor('hann', [5]), tensor('hamming', ['n']),
                  tensor('blackman', ['n'])], [size], opset=17)


def window_bad_size():
    return model([helper.make_node('HannWindow', ['n'], ['w'])],
                 [tensor('n', [2], TensorProto.INT64)], [tensor('w', ['k'])],
                 opset=17)


def dft_bad_axis():
    """DFT over the real/imaginary axis, which is no signal dimension."""
    return model([helper.make_node('DFT', ['x'], ['y'], axis=3)],
                 [tensor('x', [1, 4, 5, 2])], [tensor('y', [1, 4, 5, 2])],
                 opset=17)


def dft_runtime_length():
    """DFT whose length is a graph input."""
    return model([helper.make_node('DFT', ['x', 'n'], ['y'])],
                 [tensor('x', [1, 8, 1]), tensor('n', [], TensorProto.INT64)],
                 [tensor('y', [1, 'n', 2])], opset=17)


def stft_long_frames():
    """STFT with frames longer than the signal."""
    step = numpy_helper.from_array(np.array(2, np.int64), 'step')
    length = numpy_helper.from_array(np.array(16, np.int64), 'length')
    return model([helper.make_node('STFT', ['x', 'step', '', 'length'],
                                   ['y'])],
                 [tensor('x', [1, 10, 1])], [tensor('y', [1, 'f', 9, 2])],
                 [step, length], opset=17)


def mel_runtime_edges():
    """MelWeightMatrix whose band edges are graph inputs."""
    ints = [numpy_helper.from_array(np.array(v, np.int32), n)
            for n, v in (('bins', 4), ('dft', 16), ('rate', 8000))]
    return model([helper.make_node('MelWeightMatrix',
                                   ['bins', 'dft', 'rate', 'lo', 'hi'],
                                   ['w'])],
                 [tensor('lo', []), tensor('hi', [])], [tensor('w', [9, 4])],
                 ints, opset=17)


def batchnorm_saved_stats():
    """Opset 9's training BatchNormalization with all five outputs."""
    stats = [numpy_helper.from_array(np.ones(3, np.float32), n)
             for n in ('s', 'b', 'm', 'v')]
    return model([helper.make_node('BatchNormalization',
                                   ['x', 's', 'b', 'm', 'v'],
                                   ['y', 'rm', 'rv', 'sm', 'sv'])],
                 [tensor('x', [2, 3, 4])],
                 [tensor(n, [2, 3, 4] if n == 'y' else [3])
                  for n in ('y', 'rm', 'rv', 'sm', 'sv')], stats, opset=9)


def maxpool3d_indices():
    """3-d MaxPool asked for its indices."""
    return model([helper.make_node('MaxPool', ['x'], ['y', 'i'],
                                   kernel_shape=[2, 2, 2])],
                 [tensor('x', [1, 1, 4, 4, 4])],
                 [tensor('y', [1, 1, 3, 3, 3]),
                  tensor('i', [1, 1, 3, 3, 3], TensorProto.INT64)])


def unpool_small_shape():
    """MaxUnpool to an output_shape smaller than the pooled-from shape."""
    shape = numpy_helper.from_array(np.array([1, 1, 3, 3], np.int64), 'shape')
    return model([helper.make_node('MaxUnpool', ['x', 'i', 'shape'], ['y'],
                                   kernel_shape=[2, 2], strides=[2, 2])],
                 [tensor('x', [1, 1, 2, 2]),
                  tensor('i', [1, 1, 2, 2], TensorProto.INT64)],
                 [tensor('y', [1, 1, 3, 3])], [shape], opset=11)


def loop_counter():
    """Loop five times (a constant trip count, no condition): x = 2x + i."""
    body = helper.make_graph(
        [helper.make_node('Identity', ['c'], ['c_out']),
         helper.make_node('Cast', ['i'], ['fi'], to=TensorProto.FLOAT),
         helper.make_node('Add', ['x_in', 'x_in'], ['twice']),
         helper.make_node('Add', ['twice', 'fi'], ['x_out'])],
        'body', [tensor('i', [], TensorProto.INT64),
                 tensor('c', [], TensorProto.BOOL), tensor('x_in', [2, 3])],
        [tensor('c_out', [], TensorProto.BOOL), tensor('x_out', [2, 3])])
    trips = numpy_helper.from_array(np.array(5, np.int64), 'trips')
    return model([helper.make_node('Loop', ['trips', '', 'x'], ['y'],
                                   body=body)],
                 [tensor('x', [2, 3])], [tensor('y', [2, 3])], [trips],
                 opset=13)


def loop_while():
    """Loop while s < 100 (a condition computed each step, no trip count):
    s = 3s, every s collected as a scan output."""
    hundred = numpy_helper.from_array(np.array(100, np.float32), 'hundred')
    three = numpy_helper.from_array(np.array(3, np.float32), 'three')
    body = helper.make_graph(
        [helper.make_node('Mul', ['s_in', 'three'], ['s_out']),
         helper.make_node('Less', ['s_out', 'hundred'], ['c_out']),
         helper.make_node('Identity', ['s_out'], ['seen'])],
        'body', [tensor('i', [], TensorProto.INT64),
                 tensor('c', [], TensorProto.BOOL), tensor('s_in', [])],
        [tensor('c_out', [], TensorProto.BOOL), tensor('s_out', []),
         tensor('seen', [])], [three])
    return model([helper.make_node('Loop', ['', 'go', 's'], ['final', 'all'],
                                   body=body)],
                 [tensor('go', [], TensorProto.BOOL), tensor('s', [])],
                 [tensor('final', []), tensor('all', ['n'])], [hundred],
                 opset=13)


def loop_growing():
    """A loop-carried value whose size changes every step."""
    body = helper.make_graph(
        [helper.make_node('Identity', ['c'], ['c_out']),
         helper.make_node('Concat', ['x_in', 'x_in'], ['x_out'], axis=0)],
        'body', [tensor('i', [], TensorProto.INT64),
                 tensor('c', [], TensorProto.BOOL), tensor('x_in', [2])],
        [tensor('c_out', [], TensorProto.BOOL), tensor('x_out', [4])])
    trips = numpy_helper.from_array(np.array(2, np.int64), 'trips')
    return model([helper.make_node('Loop', ['trips', '', 'x'], ['y'],
                                   body=body)],
                 [tensor('x', [2])], [tensor('y', ['n'])], [trips], opset=13)


def loop_fixed_scan():
    """Loop three times (a constant trip count): x = x + i, 2x collected
    each step (a scan output)."""
    two = numpy_helper.from_array(np.array(2, np.float32), 'two')
    body = helper.make_graph(
        [helper.make_node('Identity', ['c'], ['c_out']),
         helper.make_node('Cast', ['i'], ['fi'], to=TensorProto.FLOAT),
         helper.make_node('Add', ['x_in', 'fi'], ['x_out']),
         helper.make_node('Mul', ['x_out', 'two'], ['seen'])],
        'body', [tensor('i', [], TensorProto.INT64),
                 tensor('c', [], TensorProto.BOOL), tensor('x_in', [2])],
        [tensor('c_out', [], TensorProto.BOOL), tensor('x_out', [2]),
         tensor('seen', [2])], [two])
    trips = numpy_helper.from_array(np.array(3, np.int64), 'trips')
    return model([helper.make_node('Loop', ['trips', '', 'x'],
                                   ['y', 'all'], body=body)],
                 [tensor('x', [2])], [tensor('y', [2]), tensor('all', None)],
                 [trips], opset=13)


def loop_early_stop():
    """Loop of at most five steps while i < 2 (a condition known at import
    each step: the loop stops after step 2): s = s + 1, each s collected."""
    one = numpy_helper.from_array(np.array(1, np.float32), 'one')
    two = numpy_helper.from_array(np.array(2, np.int64), 'two')
    body = helper.make_graph(
        [helper.make_node('Less', ['i', 'two'], ['c_out']),
         helper.make_node('Add', ['s_in', 'one'], ['s_out']),
         helper.make_node('Identity', ['s_out'], ['seen'])],
        'body', [tensor('i', [], TensorProto.INT64),
                 tensor('c', [], TensorProto.BOOL), tensor('s_in', [1])],
        [tensor('c_out', [], TensorProto.BOOL), tensor('s_out', [1]),
         tensor('seen', [1])], [one, two])
    trips = numpy_helper.from_array(np.array(5, np.int64), 'trips')
    go = numpy_helper.from_array(np.array(True), 'go')
    return model([helper.make_node('Loop', ['trips', 'go', 's'],
                                   ['final', 'all'], body=body)],
                 [tensor('s', [1])], [tensor('final', [1]), tensor('all', None)],
                 [trips, go], opset=13)


def loop_sliced_scan():
    """Loop collecting x[i:i+1] summed so far (a slice at the iteration
    number: its size is known only at run time), trips given as an input."""
    one = numpy_helper.from_array(np.array(1, np.int64), 'one')
    zero = numpy_helper.from_array(np.array([0], np.int64), 'zero')
    body = helper.make_graph(
        [helper.make_node('Identity', ['c'], ['c_out']),
         helper.make_node('Add', ['i', 'one'], ['end']),
         helper.make_node('Unsqueeze', ['i', 'zero'], ['start1']),
         helper.make_node('Unsqueeze', ['end', 'zero'], ['end1']),
         helper.make_node('Slice', ['x', 'start1', 'end1'], ['part']),
         helper.make_node('Add', ['y_in', 'part'], ['y_out']),
         helper.make_node('Identity', ['y_out'], ['seen'])],
        'body', [tensor('i', [], TensorProto.INT64),
                 tensor('c', [], TensorProto.BOOL), tensor('y_in', [1])],
        [tensor('c_out', [], TensorProto.BOOL), tensor('y_out', [1]),
         tensor('seen', None)], [one, zero])
    return model([helper.make_node('Loop', ['trips', '', 'y'],
                                   ['final', 'all'], body=body)],
                 [tensor('trips', [], TensorProto.INT64), tensor('y', [1]),
                  tensor('x', [5])],
                 [tensor('final', [1]), tensor('all', None)], [], opset=13)


def loop_long_scan():
    """Loop of `trips` steps (an input) collecting [i, 2i] each step, the
    collected rows checked against Range: their sum and the largest
    difference from [k, 2k] at row k (0 when every row is in its place)."""
    two = numpy_helper.from_array(np.array(2, np.int64), 'two')
    zero = numpy_helper.from_array(np.array(0, np.int64), 'zero')
    step = numpy_helper.from_array(np.array(1, np.int64), 'step')
    one_two = numpy_helper.from_array(np.array([[1, 2]], np.int64), 'one_two')
    axes = numpy_helper.from_array(np.array([0], np.int64), 'axes')
    body = helper.make_graph(
        [helper.make_node('Identity', ['c'], ['c_out']),
         helper.make_node('Mul', ['i', 'two'], ['twice']),
         helper.make_node('Unsqueeze', ['i', 'axes'], ['i1']),
         helper.make_node('Unsqueeze', ['twice', 'axes'], ['twice1']),
         helper.make_node('Concat', ['i1', 'twice1'], ['row'], axis=0)],
        'body', [tensor('i', [], TensorProto.INT64),
                 tensor('c', [], TensorProto.BOOL)],
        [tensor('c_out', [], TensorProto.BOOL),
         tensor('row', [2], TensorProto.INT64)], [two, axes])
    return model(
        [helper.make_node('Loop', ['trips', ''], ['rows'], body=body),
         helper.make_node('ReduceSum', ['rows'], ['total'], keepdims=0),
         helper.make_node('Range', ['zero', 'trips', 'step'], ['ks']),
         helper.make_node('Unsqueeze', ['ks', 'step'], ['ks1']),
         helper.make_node('Mul', ['ks1', 'one_two'], ['expected']),
         helper.make_node('Sub', ['rows', 'expected'], ['diff']),
         helper.make_node('Abs', ['diff'], ['absdiff']),
         helper.make_node('ReduceMax', ['absdiff'], ['worst'], keepdims=0)],
        [tensor('trips', [], TensorProto.INT64)],
        [tensor('total', [], TensorProto.INT64),
         tensor('worst', [], TensorProto.INT64)],
        [zero, step, one_two], opset=13)


def loop_int32_trips():
    """A Loop whose constant trip count is int32 (ONNX requires int64),
    with a scan output: it is not unrolled, and the error says why."""
    body = helper.make_graph(
        [helper.make_node('Identity', ['c'], ['c_out']),
         helper.make_node('Identity', ['x_in'], ['x_out']),
         helper.make_node('Identity', ['x_in'], ['seen'])],
        'body', [tensor('i', [], TensorProto.INT64),
                 tensor('c', [], TensorProto.BOOL), tensor('x_in', [2])],
        [tensor('c_out', [], TensorProto.BOOL), tensor('x_out', [2]),
         tensor('seen', [2])])
    trips = numpy_helper.from_array(np.array(3, np.int32), 'trips')
    return model([helper.make_node('Loop', ['trips', '', 'x'],
                                   ['y', 'all'], body=body)],
                 [tensor('x', [2])], [tensor('y', [2]), tensor('all', None)],
                 [trips], opset=13)


def loop_rank_change():
    """A loop-carried value that gains an axis each step."""
    axes = numpy_helper.from_array(np.array([0], np.int64), 'axes')
    body = helper.make_graph(
        [helper.make_node('Identity', ['c'], ['c_out']),
         helper.make_node('Unsqueeze', ['x_in', 'axes'], ['x_out'])],
        'body', [tensor('i', [], TensorProto.INT64),
                 tensor('c', [], TensorProto.BOOL), tensor('x_in', [2])],
        [tensor('c_out', [], TensorProto.BOOL), tensor('x_out', [1, 2])],
        [axes])
    trips = numpy_helper.from_array(np.array(2, np.int64), 'trips')
    return model([helper.make_node('Loop', ['trips', '', 'x'], ['y'],
                                   body=body)],
                 [tensor('x', [2])], [tensor('y', [1, 2])], [trips],
                 opset=13)


def dft_too_long():
    """A DFT whose constant matrices would hold 10^8 elements."""
    n = numpy_helper.from_array(np.array(100000, np.int64), 'n')
    return model([helper.make_node('DFT', ['x', 'n'], ['y'])],
                 [tensor('x', [1, 1000, 1])], [tensor('y', [1, 100000, 2])],
                 [n], opset=17)


def unpool_bad_pads():
    """MaxUnpool whose pads leave nothing of the pooled-from shape."""
    return model([helper.make_node('MaxUnpool', ['x', 'i'], ['y'],
                                   kernel_shape=[2, 2], strides=[1, 1],
                                   pads=[2, 2, 2, 2])],
                 [tensor('x', [1, 1, 1, 1]),
                  tensor('i', [1, 1, 1, 1], TensorProto.INT64)],
                 [tensor('y', [1, 1, 1, 1])], opset=11)


def scan_empty_batch():
    """Opset 8's Scan over a batch of 0 (a mutation of ONNX's
    test_scan_sum that crashed the importer)."""
    body = helper.make_graph(
        [helper.make_node('Add', ['sum_in', 'next'], ['sum_out']),
         helper.make_node('Identity', ['sum_out'], ['scan_out'])],
        'body', [tensor('sum_in', [2]), tensor('next', [2])],
        [tensor('sum_out', [2]), tensor('scan_out', [2])])
    return model([helper.make_node('Scan', ['', 'initial', 'x'], ['y', 'z'],
                                   body=body, num_scan_inputs=1)],
                 [tensor('initial', [0, 2]), tensor('x', [0, 3, 2])],
                 [tensor('y', [0, 2]), tensor('z', [0, 3, 2])], opset=8)


def compress():
    """Compress along an axis by a condition given as an input, of the
    flattened input by a constant condition shorter than it."""
    keep = numpy_helper.from_array(np.array([True, False, True]), 'keep')
    nodes = [helper.make_node('Compress', ['x', 'c'], ['rows'], axis=0),
             helper.make_node('Compress', ['x', 'keep'], ['flat'])]
    return model(nodes, [tensor('x', [3, 2]),
                         tensor('c', [3], TensorProto.BOOL)],
                 [tensor('rows', ['k', 2]), tensor('flat', [2])], [keep])


def dropout_zero_ratio():
    """Dropout in training mode with a constant ratio of 0, as torch.onnx
    writes nn.Dropout(0.0) of a module exported in training mode."""
    train = helper.make_tensor('t', TensorProto.BOOL, [], [True])
    ratio = helper.make_tensor('r', TensorProto.FLOAT, [], [0.0])
    return model([helper.make_node('Constant', [], ['t'], value=train),
                  helper.make_node('Constant', [], ['r'], value=ratio),
                  helper.make_node('Dropout', ['x', 'r', 't'], ['y', 'm'],
                                   name='drop')],
                 [tensor('x', [2, 3])],
                 [tensor('y', [2, 3]), tensor('m', [2, 3], TensorProto.BOOL)])


def gather_runtime_indices():
    """An embedding's lookup: Gather of a table by token ids given at run
    time."""
    return model([helper.make_node('Gather', ['x', 'i'], ['y'], name='embed')],
                 [tensor('x', [4, 3]), tensor('i', [2, 2], TensorProto.INT64)],
                 [tensor('y', [2, 2, 3])])


def gather_dynamic_table():
    """Gather from a table whose row count is known only at run time."""
    return model([helper.make_node('Gather', ['x', 'i'], ['y'], name='embed')],
                 [tensor('x', ['rows', 3]),
                  tensor('i', [2, 2], TensorProto.INT64)],
                 [tensor('y', [2, 2, 3])])


def gathernd_runtime_indices():
    return model([helper.make_node('GatherND', ['x', 'i'], ['y'],
                                   name='pick')],
                 [tensor('x', [3, 4]), tensor('i', [2, 2], TensorProto.INT64)],
                 [tensor('y', [2])])


def compress_long():
    return model([helper.make_node('Compress', ['x', 'c'], ['y'], axis=1)],
                 [tensor('x', [3, 2]), tensor('c', [3], TensorProto.BOOL)],
                 [tensor('y', [3, 'k'])])


def random_no_shape():
    return model([helper.make_node('RandomUniform', [], ['y'], name='noise')],
                 [], [tensor('y', [2])])


def random_int_dtype():
    return model([helper.make_node('RandomNormal', [], ['y'], name='noise',
                                   shape=[2], dtype=TensorProto.INT32)],
                 [], [tensor('y', [2], TensorProto.INT32)])


def random_too_large():
    return model([helper.make_node('RandomNormal', [], ['y'], name='noise',
                                   shape=[65536, 65536, 2])],
                 [], [tensor('y', [65536, 65536, 2])])


def multinomial_1d():
    return model([helper.make_node('Multinomial', ['x'], ['y'], name='pick',
                                   sample_size=2)],
                 [tensor('x', [5])], [tensor('y', [2], TensorProto.INT32)])


def dropout_int_training():
    train = helper.make_tensor('t', TensorProto.BOOL, [], [True])
    return model([helper.make_node('Constant', [], ['t'], value=train),
                  helper.make_node('Dropout', ['x', '', 't'], ['y'],
                                   name='drop')],
                 [tensor('x', [4], TensorProto.INT32)],
                 [tensor('y', [4], TensorProto.INT32)])


MODELS = {f.__name__: f for f in (training_unknown, random_no_shape,
                                  random_int_dtype, random_too_large,
                                  multinomial_1d,
                                  dropout_int_training, windows, window_bad_size, dft_bad_axis,
                                  dft_runtime_length, stft_long_frames,
                                  mel_runtime_edges, batchnorm_saved_stats,
                                  maxpool3d_indices, unpool_small_shape,
                                  loop_counter, loop_while, loop_growing,
                                  loop_fixed_scan, loop_early_stop, loop_sliced_scan, loop_long_scan,
                                  loop_rank_change, loop_int32_trips, dft_too_long,
                                  unpool_bad_pads, scan_empty_batch,
                                  compress, dropout_zero_ratio,
                                  compress_long, gather_runtime_indices,
                                  gather_dynamic_table,
                                  gathernd_runtime_indices, if_runtime,
                                  if_constant, if_mismatch,
                                  if_sizes,
                                  einsum_diagonal, nll_bad_target, scatter_runtime_indices,
                                  scatter_bad_reduction,
                                  gathernd_long_tuples, lstm_bad_weights, lstm_bad_activation,
                                  lstm_bad_direction, convnet, convnet_dynamic, shape_arith, expand_shape,
                                  evaluated_shape, qdq_weight, resize,
                                  resize_cubic, resize_crop,
                                  depth_to_space_bad,
                                  space_to_depth_zero, pad_arith, pad_stride,
                                  two_outputs,
                                  unsupported_op, det, bad_shapes, dynamic_shape,
                                  new_opset, undefined_input, runtime_reshape,
                                  runtime_pad_one_hot,
                                  runtime_reshape_matrix,
                                  nonzero, nonzero_consumed, squeeze_if,
                                  flatten_empty, mask_head, mask_head_scales, known_shapes,
                                  mask_head_upsample,
                                  detect)}

if __name__ == '__main__':
    if len(sys.argv) < 3 or len(sys.argv) % 2 == 0:
        sys.exit(__doc__.strip())
    for name, out in zip(sys.argv[1::2], sys.argv[2::2]):
        onnx.save(MODELS[name](), out)

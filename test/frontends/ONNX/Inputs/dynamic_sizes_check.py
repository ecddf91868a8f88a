"""Operators on inputs whose sizes are known only when the model runs, as
NonZero's, Compress's and a loop's results are: each case's model routes
its inputs through a Compress along axis 0 by a condition given as an input
(`rows`: only the first size is `?`; `rows2`: the first two, by a Compress
along axis 1 too) or a Tile by repeats given as an input (`all`: every size
is `?`; `slice`: a Slice of the first two axes to ends given as an input,
which keeps the other sizes; `hw`: the same of an image's height and
width, or length), and is checked against the same node on static
shapes (ONNX's node tests check those) on the interpreter. Prints one line
per case and MISMATCH where a result is wrong."""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

tools, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
rng = np.random.default_rng(0)
F, I64, I32 = TensorProto.FLOAT, TensorProto.INT64, TensorProto.INT32
NUMPY = {F: np.float32, I64: np.int64, I32: np.int32,
         TensorProto.BOOL: np.bool_}


def x(shape, how='all', dtype=F, value=None):
    """An input: made dynamic `how` ('rows', 'all', or None: static), its
    value given or drawn from a normal distribution."""
    if value is None:
        value = rng.standard_normal(shape)
    return dict(how=how, dtype=dtype, value=np.asarray(value, NUMPY[dtype]))


def const(value, dtype=I64):
    return dict(how='const', dtype=dtype, value=np.asarray(value, NUMPY[dtype]))


# name: (op type, inputs, attributes)
CASES = {
    'matmul_rows': ('MatMul', [x([5, 3], 'rows'), x([3, 4], None)], {}),
    'matmul_square': ('MatMul', [x([5, 3], 'rows'), x([3, 5])], {}),
    'matmul_stack': ('MatMul', [x([2, 5, 3]), x([3, 4], None)], {}),
    'matmul_stack_k': ('MatMul', [x([2, 5, 3]), x([3, 4])], {}),
    'matmul_batched': ('MatMul', [x([2, 2, 5, 3]), x([2, 2, 3, 4])], {}),
    'matmul_vector_left': ('MatMul', [x([3]), x([3, 4])], {}),
    'matmul_vector_right': ('MatMul', [x([2, 5, 3]), x([3])], {}),
    'matmul_vectors': ('MatMul', [x([3]), x([3])], {}),
    # Batch sizes that broadcast (a 1, a missing axis), known or not.
    'matmul_ranks': ('MatMul', [x([2, 2, 5, 3]), x([2, 3, 4], None)], {}),
    'matmul_broadcast_rows': ('MatMul', [x([2, 1, 5, 3], 'rows'),
                                         x([1, 3, 3, 4], None)], {}),
    'matmul_broadcast_all': ('MatMul', [x([3, 1, 5, 3]), x([1, 2, 3, 4])],
                             {}),
    'matmul_matrix_stack': ('MatMul', [x([5, 3], 'rows'), x([2, 3, 4])], {}),
    'matmul_vector_stack': ('MatMul', [x([3]), x([2, 2, 3, 4], 'rows')], {}),
    'matmul_stack_vector': ('MatMul', [x([2, 1, 5, 3]), x([3, 3, 1])], {}),
    'einsum': ('Einsum', [x([5, 3], 'rows'), x([3, 4], None)],
               dict(equation='ij,jk->ik')),
    'trilu_upper': ('Trilu', [x([2, 4, 5]), const(1)], dict(upper=1)),
    'trilu_lower': ('Trilu', [x([4, 5]), const(-1)], dict(upper=0)),
    'trilu_rows': ('Trilu', [x([4, 4], 'rows')], {}),
    'eye_like': ('EyeLike', [x([4, 5], 'rows')], dict(k=1)),
    'eye_like_all': ('EyeLike', [x([4, 3])],
                     dict(k=-2, dtype=TensorProto.INT32)),
    'hardmax': ('Hardmax', [x([4, 3])], dict(axis=0)),
    'hardmax_rows': ('Hardmax', [x([4, 3], 'rows')], {}),
    'scatternd_rows': ('ScatterND', [
        x([4, 3], 'rows'), x([2, 1], 'rows', I64, [[3], [1]]),
        x([2, 3], 'rows')], {}),
    'scatternd_elements': ('ScatterND', [
        x([4, 3]), x([3, 2], 'rows', I64, [[3, 0], [1, 2], [0, 0]]),
        x([3], 'rows')], {}),
    'scatternd_mul': ('ScatterND', [
        x([4, 3], 'rows'), x([2, 2], 'rows', I64, [[3, 0], [3, 0]]),
        x([2], 'rows')], dict(reduction='mul')),
    'cumsum': ('CumSum', [x([4, 3], 'rows'), const(0)], {}),
    'cumsum_reverse': ('CumSum', [x([4, 3]), const(1)],
                       dict(reverse=1, exclusive=1)),
    'cumprod': ('CumProd', [x([4, 3]), const(0)], {}),
    'log_softmax': ('LogSoftmax', [x([4, 3], 'rows')], dict(axis=0)),
    'flatten': ('Flatten', [x([2, 3, 4])], dict(axis=2)),
    'flatten_rows': ('Flatten', [x([5, 3, 2], 'rows')], dict(axis=1)),
    # Before opset 13: over the input flattened to 2-d at the axis.
    'softmax_opset11': ('Softmax', [x([2, 3, 4], 'rows')],
                        dict(axis=1, _opset=11)),
    'log_softmax_opset11': ('LogSoftmax', [x([2, 3, 4])],
                            dict(axis=1, _opset=11)),
    'layer_norm': ('LayerNormalization', [
        x([5, 3], 'rows'), x([3], None), x([3], None)], {}),
    'rms_norm': ('RMSNormalization', [x([5, 3]), x([3], None)], {}),
    'mvn': ('MeanVarianceNormalization', [x([2, 3, 4, 2])], {}),
    'gather_elements': ('GatherElements', [
        x([4, 3], 'rows'), x([4, 3], 'rows', I64,
                             rng.integers(0, 4, (4, 3)))], dict(axis=0)),
    'compress': ('Compress', [x([4, 3]), x([4], 'all', TensorProto.BOOL,
                                              [1, 0, 1, 1])], dict(axis=0)),
    'one_hot': ('OneHot', [x([4], 'all', I64, [0, 2, 1, 4]), const(5),
                           const([0.0, 1.0], F)], {}),
    'reverse_sequence': ('ReverseSequence', [x([4, 3]), const([1, 4, 2])],
                         dict(batch_axis=1, time_axis=0)),
    'reduce_l2': ('ReduceL2', [x([4, 3], 'rows')], dict(axes=[0])),
    'reduce_log_sum_exp': ('ReduceLogSumExp', [x([4, 3])], dict(axes=[1])),
    'prelu': ('PRelu', [x([4, 3], 'rows'), x([3], None)], {}),
    'gelu': ('Gelu', [x([4, 3], 'rows')], {}),
    'mish': ('Mish', [x([4, 3])], {}),
    'softplus': ('Softplus', [x([4, 3])], {}),
    # Recurrent layers over a sequence of `?` steps (and batch): Y, or
    # with `_outputs` Y_h (and Y_c).
    'rnn_steps': ('RNN', [x([5, 2, 3], 'rows'), x([1, 4, 3], None),
                          x([1, 4, 4], None)], dict(hidden_size=4)),
    'gru_steps_batch': ('GRU', [
        x([5, 2, 3], 'rows2'), x([1, 12, 3], None), x([1, 12, 4], None),
        x([1, 24], None)], dict(hidden_size=4, linear_before_reset=1)),
    'gru_sliced': ('GRU', [
        x([5, 2, 3], 'slice'), x([1, 12, 3], None), x([1, 12, 4], None)],
        dict(hidden_size=4)),
    'gru_last_state': ('GRU', [
        x([5, 2, 3], 'rows'), x([1, 12, 3], None), x([1, 12, 4], None)],
        dict(hidden_size=4, _outputs=['', 'y'])),
    'lstm_bidirectional': ('LSTM', [
        x([5, 2, 3], 'rows2'), x([2, 16, 3], None), x([2, 16, 4], None),
        x([2, 32], None), x([2], None, I32, [5, 3]),
        x([2, 2, 4], None)], dict(hidden_size=4, direction='bidirectional')),
    'lstm_cell_state': ('LSTM', [
        x([5, 2, 3], 'rows'), x([1, 16, 3], None), x([1, 16, 4], None)],
        dict(hidden_size=4, direction='reverse', _outputs=['', '', 'y'])),
    # Images whose height and width are `?` (channels known).
    'conv_pads': ('Conv', [x([1, 3, 9, 7], 'hw'), x([4, 3, 3, 3], None)],
                  dict(pads=[1, 0, 1, 2], strides=[2, 1])),
    'conv_same_stride1': ('Conv', [x([2, 3, 9, 7], 'hw'),
                                   x([4, 3, 3, 2], None)],
                          dict(auto_pad='SAME_LOWER', dilations=[1, 2])),
    # SAME at stride 2 pads by the sizes, when it runs: odd and even ones.
    'conv_same_stride2': ('Conv', [x([1, 3, 9, 8], 'hw'),
                                   x([4, 3, 3, 3], None)],
                          dict(auto_pad='SAME_UPPER', strides=[2, 2])),
    'conv_same_lower_stride2': ('Conv', [x([1, 3, 8, 7], 'hw'),
                                         x([4, 3, 2, 4], None)],
                                dict(auto_pad='SAME_LOWER', strides=[2, 3],
                                     dilations=[2, 1])),
    'conv_1d_same_stride2': ('Conv', [x([1, 3, 10], 'hw'),
                                      x([4, 3, 4], None)],
                             dict(auto_pad='SAME_UPPER', strides=[2])),
    'max_pool_same_stride2': ('MaxPool', [x([1, 3, 8, 7], 'hw')],
                              dict(kernel_shape=[3, 3], strides=[2, 2],
                                   auto_pad='SAME_LOWER')),
    'average_pool_same_counted': ('AveragePool', [x([1, 3, 8, 7], 'hw')],
                                  dict(kernel_shape=[3, 2], strides=[2, 2],
                                       auto_pad='SAME_UPPER',
                                       count_include_pad=1)),
    'lp_pool_same_stride2': ('LpPool', [x([1, 3, 8, 7], 'hw')],
                             dict(kernel_shape=[2, 3], strides=[2, 2],
                                  auto_pad='SAME_UPPER')),
    'conv_transpose': ('ConvTranspose', [x([1, 3, 5, 4], 'hw'),
                                         x([3, 2, 3, 3], None)],
                       dict(strides=[2, 2], output_padding=[1, 0])),
    'max_pool_ceil': ('MaxPool', [x([1, 3, 9, 7], 'hw')],
                      dict(kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1)),
    'average_pool_pads': ('AveragePool', [x([1, 3, 9, 7], 'hw')],
                          dict(kernel_shape=[3, 3], strides=[2, 2],
                               pads=[1, 1, 1, 1], count_include_pad=1)),
    'global_average_pool': ('GlobalAveragePool', [x([1, 3, 9, 7], 'hw')],
                            {}),
    'batch_norm': ('BatchNormalization', [
        x([1, 3, 9, 7], 'hw'), x([3], None), x([3], None), x([3], None),
        x([3], None, F, [1.0, 2.0, 0.5])], {}),
    'instance_norm': ('InstanceNormalization', [
        x([2, 3, 9, 7], 'hw'), x([3], None), x([3], None)], {}),
    'lp_pool': ('LpPool', [x([1, 3, 9, 7], 'hw')], dict(kernel_shape=[2, 2])),
    'lrn': ('LRN', [x([1, 3, 9, 7], 'hw')], dict(size=3)),
    'conv_1d': ('Conv', [x([1, 3, 10], 'hw'), x([8, 3, 1], None),
                         x([8], None)], {}),
    'max_pool_1d': ('MaxPool', [x([2, 3, 10], 'hw')],
                    dict(kernel_shape=[3], strides=[2], pads=[1, 1])),
    'batch_norm_1d': ('BatchNormalization', [
        x([1, 3, 10], 'hw'), x([3], None), x([3], None), x([3], None),
        x([3], None, F, [1.0, 2.0, 0.5])], {}),
    'resize_nearest_x2': ('Resize', [
        x([1, 3, 5, 4], 'hw'), const([], F), const([1, 1, 2, 3], F)],
        dict(mode='nearest', coordinate_transformation_mode='asymmetric',
             nearest_mode='floor')),
    'resize_linear_x2': ('Resize', [
        x([1, 3, 5, 4], 'hw'), const([], F), const([1, 1, 2, 2], F)],
        dict(mode='linear')),
    'upsample_x2': ('Upsample', [x([1, 3, 5, 4], 'hw'),
                                 const([1, 1, 2, 2], F)],
                    dict(mode='nearest', _opset=10)),
    'bitwise_and': ('BitwiseAnd', [
        x([4, 3], 'rows', I32, rng.integers(0, 100, (4, 3))),
        x([3], None, I32, rng.integers(0, 100, 3))], {}),
}

# Cases the importer refuses, with a message naming what it needs, and
# (matmul_batches) sizes that turn out not to broadcast when it runs.
ERRORS = {
    'matmul_batches': ('MatMul', [x([2, 5, 3]), x([3, 3, 4], None)], {}),
    'scatternd_tuple_length': ('ScatterND', [
        x([4, 3], None), x([2, 1], 'all', I64, [[3], [1]]),
        x([2, 3], None)], {}),
    'gru_input_size': ('GRU', [x([5, 2, 3]), x([1, 12, 3], None),
                               x([1, 12, 4], None)], dict(hidden_size=4)),
    'average_pool_same_stride2': ('AveragePool', [x([1, 3, 9, 7], 'hw')],
                                  dict(kernel_shape=[3, 3], strides=[2, 2],
                                       auto_pad='SAME_UPPER')),
    'conv_transpose_output_shape': ('ConvTranspose', [
        x([1, 3, 5, 4], 'hw'), x([3, 2, 3, 3], None)],
        dict(strides=[2, 2], output_shape=[11, 9])),
    'resize_fractional_scale': ('Resize', [
        x([1, 3, 5, 4], 'hw'), const([], F), const([1, 1, 1.5, 2], F)], {}),
    'gathernd_tuple_length': ('GatherND', [
        x([4, 3], None), x([2, 1], 'all', I64, [[3], [1]])], {}),
}


def build(name, op, inputs, attributes, dynamic):
    nodes, graph_inputs, initializers, names, files = [], [], [], [], []
    for j, spec in enumerate(inputs):
        n, value = 'x%d' % j, spec['value']
        if spec['how'] == 'const':
            initializers.append(numpy_helper.from_array(value, n))
            names.append(n)
            continue
        graph_inputs.append(helper.make_tensor_value_info(
            n, spec['dtype'], list(value.shape)))
        files.append((n, value))
        how = spec['how'] if dynamic else None
        if how in ('rows', 'rows2', 'none2'):
            current = n
            for axis in range(1 if how == 'rows' else 2):
                # 'none2': as 'rows2', no row kept along the first axis.
                keep = np.full(value.shape[axis],
                               how != 'none2' or axis > 0, np.bool_)
                flag = '%skeep%d' % (n, axis)
                graph_inputs.append(helper.make_tensor_value_info(
                    flag, TensorProto.BOOL, list(keep.shape)))
                files.append((flag, keep))
                nodes.append(helper.make_node('Compress', [current, flag],
                                              [flag + 'd'], axis=axis))
                current = flag + 'd'
            names.append(current)
        elif how in ('slice', 'hw'):
            axes = [0, 1] if how == 'slice' else list(range(2, value.ndim))
            ends = np.array([value.shape[a] for a in axes], np.int64)
            graph_inputs.append(helper.make_tensor_value_info(
                n + 'ends', I64, [len(axes)]))
            files.append((n + 'ends', ends))
            initializers.append(numpy_helper.from_array(
                np.zeros(len(axes), np.int64), n + 'starts'))
            initializers.append(numpy_helper.from_array(
                np.array(axes, np.int64), n + 'axes'))
            nodes.append(helper.make_node(
                'Slice', [n, n + 'starts', n + 'ends', n + 'axes'], [n + 'd']))
            names.append(n + 'd')
        elif how == 'all':
            graph_inputs.append(helper.make_tensor_value_info(
                n + 'reps', I64, [value.ndim]))
            files.append((n + 'reps', np.ones(value.ndim, np.int64)))
            nodes.append(helper.make_node('Tile', [n, n + 'reps'], [n + 'd']))
            names.append(n + 'd')
        else:
            names.append(n)
    attributes = dict(attributes)
    outputs = attributes.pop('_outputs', ['y'])
    opset = attributes.pop('_opset', 18)
    nodes.append(helper.make_node(op, names, outputs, name=name,
                                  **attributes))
    graph = helper.make_graph(
        nodes, name, graph_inputs,
        [helper.make_tensor_value_info('y', TensorProto.UNDEFINED, None)],
        initializer=initializers)
    path = os.path.join(work, '%s.%s.onnx' % (
        name, 'dynamic' if dynamic else 'static'))
    onnx.save(helper.make_model(
        graph, opset_imports=[helper.make_opsetid('', opset)]), path)
    arguments = []
    for n, value in files:
        f = '%s.%s.npy' % (path, n)
        np.save(f, value)
        arguments += ['--input', f]
    return path, arguments


def run(path, arguments, interp):
    out = path + '.out.npy'
    done = subprocess.run([os.path.join(tools, 'relay-run'), path, '--output',
                           out] + arguments + (['--interp'] if interp else []),
                          capture_output=True, text=True)
    if done.returncode:
        lines = done.stderr.strip().splitlines()
        return ([line for line in lines if 'error:' in line] or lines)[-1]
    return np.load(out)


for name, (op, inputs, attributes) in CASES.items():
    expected = run(*build(name, op, inputs, attributes, False), True)
    got = run(*build(name, op, inputs, attributes, True), False)
    if isinstance(got, str) or isinstance(expected, str):
        print('MISMATCH %s: %s' % (name, got if isinstance(got, str)
                                   else expected))
    elif got.shape != expected.shape or not np.allclose(
            got, expected, rtol=1e-5, atol=1e-6):
        print('MISMATCH %s: %s against %s' % (name, got, expected))
    else:
        print('ok %s' % name)

# Sequences that the condition leaves empty (`none2`): no step at all, of
# a batch known only at run time. Expected: Y of shape [0, directions,
# batch, hidden]; Y_h the initial state.
EMPTY = {
    'gru_no_steps': ('GRU', [
        x([5, 2, 3], 'none2'), x([1, 12, 3], None), x([1, 12, 4], None)],
        dict(hidden_size=4, _outputs=['y']), (0, 1, 2, 4)),
    'lstm_no_steps': ('LSTM', [
        x([5, 2, 3], 'none2'), x([2, 16, 3], None), x([2, 16, 4], None)],
        dict(hidden_size=4, direction='bidirectional', _outputs=['y']),
        (0, 2, 2, 4)),
    'rnn_no_steps_state': ('RNN', [
        x([5, 2, 3], 'none2'), x([1, 4, 3], None), x([1, 4, 4], None),
        x([1, 8], None), x([2], None, I32, [0, 0]),
        x([1, 2, 4], None, F, np.arange(8).reshape(1, 2, 4))],
        dict(hidden_size=4, _outputs=['', 'y']), (1, 2, 4)),
}
for name, (op, inputs, attributes, shape) in EMPTY.items():
    got = run(*build(name, op, inputs, attributes, True), False)
    initial = inputs[-1]['value'] if len(shape) == 3 else None
    if isinstance(got, str) or got.shape != shape or (
            initial is not None and not np.array_equal(got, initial)):
        print('MISMATCH %s: %s' % (name, got))
    else:
        print('ok %s' % name)

for name, (op, inputs, attributes) in ERRORS.items():
    got = run(*build(name, op, inputs, attributes, True), False)
    print('%s %s: %s' % ('error' if isinstance(got, str) else 'MISMATCH',
                         name, got))

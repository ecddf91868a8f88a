"""GatherND on data whose sizes are known only when the model runs (a Tile
by repeats given as an input makes every size of the data `?`): batch
dimensions, index tuples shorter than the data's rank, negative indices,
the strides, batch offsets and rows read from the data's shape at run
time. Checked against ONNX's reference implementation, compiled and with
--interp; an index tuple with a component out of range is an error. Prints
one line per case and MISMATCH where a result is wrong."""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.backend.test.case.node.gathernd import gather_nd_impl

tools, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
rng = np.random.default_rng(0)

# name: (data shape, indices shape, batch_dims)
CASES = {
    'vector': ((5,), (3, 1), 0),
    'pairs': ((4, 3, 2), (2, 2), 0),
    'rows': ((4, 3, 2), (5, 1), 0),
    'batch': ((2, 3, 4), (2, 5, 1), 1),
    'batch_pairs': ((2, 3, 4, 2), (2, 3, 2), 1),
    'two_batch': ((2, 3, 4, 2), (2, 3, 1, 1), 2),
}


def run(model, inputs, interp):
    command = [os.path.join(tools, 'relay-run'), model, '--output',
               model + '.out.npy']
    for x in inputs:
        command += ['--input', x]
    if interp:
        command.append('--interp')
    return subprocess.run(command, capture_output=True, text=True)


for name, (data_shape, index_shape, batch_dims) in CASES.items():
    rank = len(data_shape)
    nodes = [helper.make_node('Tile', ['d', 'reps'], ['tiled']),
             helper.make_node('GatherND', ['tiled', 'i'], ['y'], name=name,
                              batch_dims=batch_dims)]
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info('d', TensorProto.FLOAT, data_shape),
         helper.make_tensor_value_info('reps', TensorProto.INT64, [rank]),
         helper.make_tensor_value_info('i', TensorProto.INT64, index_shape)],
        [helper.make_tensor_value_info('y', TensorProto.FLOAT, None)])
    model = os.path.join(work, name + '.onnx')
    onnx.save(helper.make_model(
        graph, opset_imports=[helper.make_opsetid('', 13)]), model)
    data = rng.standard_normal(data_shape).astype(np.float32)
    k = index_shape[-1]
    sizes = np.array(data_shape[batch_dims:batch_dims + k])
    # In range, half of them counted from the end.
    indices = (rng.integers(0, 1 << 20, index_shape) % sizes -
               rng.integers(0, 2, index_shape) * sizes)
    files = {}
    for key, value in (('d', data), ('reps', np.ones(rank, np.int64)),
                       ('i', indices), ('bad', None)):
        files[key] = os.path.join(work, '%s.%s.npy' % (name, key))
        if value is not None:
            np.save(files[key], value)
    bad = indices.copy()
    bad.flat[-1] = sizes[-1]
    np.save(files['bad'], bad)
    expected = gather_nd_impl(data, indices, batch_dims)
    for interp in (False, True):
        how = 'interpreted' if interp else 'compiled'
        done = run(model, [files['d'], files['reps'], files['i']], interp)
        if done.returncode:
            print('MISMATCH %s %s: %s' % (name, how, done.stderr))
            continue
        got = np.load(model + '.out.npy')
        same = got.shape == expected.shape and np.array_equal(got, expected)
        print('%s %s %s' % ('ok' if same else 'MISMATCH', name, how))
        done = run(model, [files['d'], files['reps'], files['bad']], interp)
        error = [line for line in done.stderr.splitlines() if 'error' in line]
        print('%s %s %s out of range: %s' % (
            'ok' if done.returncode == 1 else 'MISMATCH', name, how,
            error[0].split(': error: ')[-1] if error else done.stderr))

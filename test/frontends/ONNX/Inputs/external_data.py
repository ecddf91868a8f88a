#!/usr/bin/python3
"""Writes ONNX models whose tensors are kept in files beside the model
(external data) for the importer's tests (python3-onnx).

  external_data.py NAME DIR

writes DIR/model.onnx with its data files, DIR/x.npy (an input) and
DIR/expected.npy (the output numpy computes) where the model is valid
(for subgraphs also x_then.npy and expected_then.npy, the other branch).
NAME: saved (onnx.save_model with save_as_external_data, initializers and
a Constant's tensor attribute in one file, as users save large models),
subgraphs (an If whose branches hold an external initializer and an
external Constant, at offsets of a file in a subdirectory), or a broken
model: missing, truncated, escape, absolute, bad_offset, no_location.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def graph_io(nodes, inits, name='g'):
    return helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info('x', TensorProto.FLOAT, [2, 4])],
        [helper.make_tensor_value_info('y', TensorProto.FLOAT, [2, 3])],
        inits)


def make(graph):
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 13)])


W = np.arange(12, dtype=np.float32).reshape(4, 3) / 10 - 0.5
B = np.array([0.25, -1.0, 0.5], np.float32)
C = np.array([2.0, 3.0, -1.0], np.float32)
X = np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 4)


def external(name, array, location, offset=None, length=None):
    """A TensorProto of `array` whose data is said to be in `location`."""
    t = numpy_helper.from_array(array, name)
    t.ClearField('raw_data')
    t.data_location = TensorProto.EXTERNAL
    entries = {'location': location}
    if offset is not None:
        entries['offset'] = str(offset)
    if length is not None:
        entries['length'] = str(length)
    for k, v in entries.items():
        e = t.external_data.add()
        e.key, e.value = k, v
    return t


def saved(out):
    nodes = [
        helper.make_node('Constant', [], ['c'],
                         value=numpy_helper.from_array(C, 'c')),
        helper.make_node('MatMul', ['x', 'w'], ['xw']),
        helper.make_node('Add', ['xw', 'b'], ['h']),
        helper.make_node('Relu', ['h'], ['r']),
        helper.make_node('Mul', ['r', 'c'], ['y']),
    ]
    m = make(graph_io(nodes, [numpy_helper.from_array(W, 'w'),
                              numpy_helper.from_array(B, 'b')]))
    onnx.save_model(m, os.path.join(out, 'model.onnx'),
                    save_as_external_data=True, all_tensors_to_one_file=True,
                    location='weights.bin', size_threshold=0,
                    convert_attribute=True)
    kept = onnx.load(os.path.join(out, 'model.onnx'), load_external_data=False)
    externals = [t for t in kept.graph.initializer
                 if t.data_location == TensorProto.EXTERNAL]
    externals += [n.attribute[0].t for n in kept.graph.node
                  if n.op_type == 'Constant'
                  and n.attribute[0].t.data_location == TensorProto.EXTERNAL]
    assert len(externals) == 3, 'onnx kept %d tensors outside' % len(externals)
    return np.maximum(X @ W + B, 0) * C


def subgraphs(out):
    """y = x @ (cond ? W : C-broadcast) with each branch's tensor at an
    offset of data/sub.bin."""
    os.makedirs(os.path.join(out, 'data'))
    pad = b'\x7f' * 24  # bytes no tensor owns
    wb, cb = W.tobytes(), np.tile(C, (4, 1)).astype(np.float32).tobytes()
    with open(os.path.join(out, 'data', 'sub.bin'), 'wb') as f:
        f.write(pad + wb + pad + cb)
    then = helper.make_graph(
        [helper.make_node('MatMul', ['x', 'wt'], ['yt'])], 'then', [],
        [helper.make_tensor_value_info('yt', TensorProto.FLOAT, [2, 3])],
        [external('wt', W, 'data/sub.bin', len(pad), len(wb))])
    other = helper.make_graph(
        [helper.make_node('Constant', [], ['ce'],
                          value=external('ce', np.tile(C, (4, 1)),
                                         'data/sub.bin',
                                         2 * len(pad) + len(wb))),
         helper.make_node('MatMul', ['x', 'ce'], ['ye'])], 'else', [],
        [helper.make_tensor_value_info('ye', TensorProto.FLOAT, [2, 3])])
    g = helper.make_graph(
        [helper.make_node('ReduceSum', ['x'], ['s'], keepdims=0),
         helper.make_node('Greater', ['s', 'zero'], ['cond']),
         helper.make_node('If', ['cond'], ['y'], then_branch=then,
                          else_branch=other)],
        'g', [helper.make_tensor_value_info('x', TensorProto.FLOAT, [2, 4])],
        [helper.make_tensor_value_info('y', TensorProto.FLOAT, [2, 3])],
        [numpy_helper.from_array(np.array(0, np.float32), 'zero')])
    onnx.save_model(make(g), os.path.join(out, 'model.onnx'))
    # x sums to 0: the else branch; x + 1 takes the then branch.
    np.save(os.path.join(out, 'x_then.npy'), X + 1)
    np.save(os.path.join(out, 'expected_then.npy'), (X + 1) @ W)
    return X @ np.tile(C, (4, 1))


def broken(out, name):
    locations = {'missing': 'nowhere.bin', 'truncated': 'weights.bin',
                 'escape': '../weights.bin', 'absolute': '/tmp/weights.bin',
                 'bad_offset': 'weights.bin', 'no_location': ''}
    with open(os.path.join(out, 'weights.bin'), 'wb') as f:
        f.write(W.tobytes()[:20] if name == 'truncated' else W.tobytes())
    w = external('w', W, locations[name],
                 length=48 if name == 'truncated' else None)
    if name == 'no_location':
        del w.external_data[:]
    if name == 'bad_offset':
        e = w.external_data.add()
        e.key, e.value = 'offset', 'twelve'
    g = graph_io([helper.make_node('MatMul', ['x', 'w'], ['y'])], [w])
    onnx.save_model(make(g), os.path.join(out, 'model.onnx'))


def main():
    name, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    np.save(os.path.join(out, 'x.npy'), X)
    if name in ('saved', 'subgraphs'):
        expected = saved(out) if name == 'saved' else subgraphs(out)
        np.save(os.path.join(out, 'expected.npy'), expected.astype(np.float32))
    else:
        broken(out, name)


if __name__ == '__main__':
    main()

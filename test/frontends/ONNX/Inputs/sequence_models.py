#!/usr/bin/python3
"""Writes small ONNX models with sequences and optionals for the importer's
tests (python3-onnx).

  sequence_models.py NAME OUT.onnx
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper
import onnx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_model import model, tensor  # noqa: E402


def sequence(name, shape, elem=TensorProto.FLOAT):
    return helper.make_tensor_sequence_value_info(name, elem, shape)


def optional_tensor(name, shape, elem=TensorProto.FLOAT):
    return helper.make_value_info(
        name, helper.make_optional_type_proto(
            helper.make_tensor_type_proto(elem, shape)))


def split_concat():
    """SplitToSequence into unequal parts, SequenceAt, SequenceLength and
    ConcatFromSequence on a sequence known at import: static shapes."""
    split = numpy_helper.from_array(np.array([1, 3], np.int64), 'split')
    last = numpy_helper.from_array(np.array(-1, np.int64), 'last')
    return model([
        helper.make_node('SplitToSequence', ['x', 'split'], ['parts'], axis=1),
        helper.make_node('SequenceAt', ['parts', 'last'], ['tail']),
        helper.make_node('SequenceLength', ['parts'], ['n']),
        helper.make_node('ConcatFromSequence', ['parts'], ['again'], axis=1),
        helper.make_node('SplitToSequence', ['x'], ['rows'], axis=0,
                         keepdims=0),
        helper.make_node('ConcatFromSequence', ['rows'], ['stacked'], axis=1,
                         new_axis=1)],
        [tensor('x', [2, 4])],
        [tensor('tail', [2, 3]), tensor('n', [], TensorProto.INT64),
         tensor('again', [2, 4]), tensor('stacked', [4, 2])],
        [split, last], opset=13)


def static_map():
    """SplitToSequence into rows, an insert at the front and an erase of
    the last row, SequenceMap doubling each, ConcatFromSequence stacking
    them: every sequence known at import."""
    zero = numpy_helper.from_array(np.array(0, np.int64), 'zero')
    two = numpy_helper.from_array(np.array(2, np.float32), 'two')
    body = helper.make_graph(
        [helper.make_node('Mul', ['r', 'two'], ['d'])], 'body',
        [tensor('r', [4])], [tensor('d', [4])], [two])
    return model([
        helper.make_node('SplitToSequence', ['x'], ['rows'], axis=0,
                         keepdims=0),
        helper.make_node('SequenceInsert', ['rows', 'y', 'zero'], ['more']),
        helper.make_node('SequenceErase', ['more'], ['fewer']),
        helper.make_node('SequenceMap', ['fewer'], ['doubled'], body=body),
        helper.make_node('ConcatFromSequence', ['doubled'], ['stacked'],
                         axis=0, new_axis=1)],
        [tensor('x', [2, 4]), tensor('y', [4])], [tensor('stacked', [2, 4])],
        [zero], opset=17)


def runtime_ops():
    """A sequence input: SequenceInsert at a position given at run time,
    SequenceErase of the last element, SequenceAt, SequenceLength and
    ConcatFromSequence at run time."""
    return model([
        helper.make_node('SequenceInsert', ['seq', 'x', 'pos'], ['inserted']),
        helper.make_node('SequenceErase', ['inserted'], ['erased']),
        helper.make_node('SequenceAt', ['erased', 'pos'], ['picked']),
        helper.make_node('SequenceLength', ['erased'], ['n']),
        helper.make_node('ConcatFromSequence', ['erased'], ['joined'],
                         axis=0)],
        [sequence('seq', ['a']), tensor('x', [2]),
         tensor('pos', [], TensorProto.INT64)],
        [sequence('erased', None), tensor('picked', None),
         tensor('n', [], TensorProto.INT64), tensor('joined', None)],
        opset=13)


def sequence_map():
    """SequenceMap adding a tensor to each element of a sequence input."""
    body = helper.make_graph(
        [helper.make_node('Add', ['e', 'y'], ['s']),
         helper.make_node('Shape', ['e'], ['shape'])],
        'body', [tensor('e', ['n']), tensor('y', [1])],
        [tensor('s', ['n']), tensor('shape', [1], TensorProto.INT64)])
    return model([helper.make_node('SequenceMap', ['seq', 'y'],
                                   ['sums', 'shapes'], body=body)],
                 [sequence('seq', ['n']), tensor('y', [1])],
                 [sequence('sums', ['n']),
                  sequence('shapes', [1], TensorProto.INT64)], opset=17)


def optional_ops():
    """An optional input: OptionalHasElement, and OptionalGetElement under
    an If on it (an empty optional gives zeros)."""
    zeros = helper.make_tensor('zeros', TensorProto.FLOAT, [2], [0, 0])
    then_branch = helper.make_graph(
        [helper.make_node('OptionalGetElement', ['o'], ['v'])], 'then', [],
        [tensor('v', [2])])
    else_branch = helper.make_graph(
        [helper.make_node('Constant', [], ['z'], value=zeros)], 'else', [],
        [tensor('z', [2])])
    return model([
        helper.make_node('OptionalHasElement', ['o'], ['has']),
        helper.make_node('If', ['has'], ['value'], then_branch=then_branch,
                         else_branch=else_branch)],
        [optional_tensor('o', [2])],
        [tensor('has', [], TensorProto.BOOL), tensor('value', [2])],
        opset=16)


def bad_position():
    """SequenceAt past the end of a sequence known at import."""
    three = numpy_helper.from_array(np.array(3, np.int64), 'three')
    return model([
        helper.make_node('SequenceConstruct', ['x', 'x'], ['s']),
        helper.make_node('SequenceAt', ['s', 'three'], ['y'])],
        [tensor('x', [2])], [tensor('y', [2])], [three], opset=13)


def mixed_ranks():
    """A sequence of vectors that is given a matrix."""
    return model([
        helper.make_node('SequenceConstruct', ['x'], ['s']),
        helper.make_node('SequenceInsert', ['s', 'm'], ['t'])],
        [tensor('x', [2]), tensor('m', [2, 2])], [sequence('t', None)],
        opset=13)


def empty_at():
    """SequenceAt, at a position given at run time, on an empty sequence,
    whose element type is unknown."""
    return model([
        helper.make_node('SequenceEmpty', [], ['s']),
        helper.make_node('SequenceAt', ['s', 'pos'], ['y'])],
        [tensor('pos', [], TensorProto.INT64)], [tensor('y', None)],
        opset=13)


def sequence_of_maps():
    """A graph input that is a sequence of maps."""
    info = onnx.ValueInfoProto(name='m')
    entry = info.type.sequence_type.elem_type.map_type
    entry.key_type = TensorProto.INT64
    entry.value_type.tensor_type.elem_type = TensorProto.FLOAT
    return model([helper.make_node('SequenceLength', ['m'], ['n'])],
                 [info], [tensor('n', [], TensorProto.INT64)], opset=13)


MODELS = {f.__name__: f for f in (split_concat, static_map, runtime_ops, sequence_map,
                                  optional_ops, bad_position, mixed_ranks,
                                  empty_at, sequence_of_maps)}

if __name__ == '__main__':
    onnx.save(MODELS[sys.argv[1]](), sys.argv[2])

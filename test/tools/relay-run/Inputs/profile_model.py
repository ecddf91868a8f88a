"""Writes ARGV[1]: an ONNX model of a named Conv node followed by a named
Relu, for relay-run --profile's rows by node (profile.test)."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

weight = numpy_helper.from_array(
    (0.1 * np.arange(8 * 3 * 3 * 3)).reshape(8, 3, 3, 3).astype(np.float32),
    'w')
graph = helper.make_graph(
    [helper.make_node('Conv', ['x', 'w'], ['c'], name='stem_conv',
                      pads=[1, 1, 1, 1]),
     helper.make_node('Transpose', ['c'], ['t'], name='to_nhwc',
                      perm=[0, 2, 3, 1])],
    'profiled',
    [helper.make_tensor_value_info('x', TensorProto.FLOAT, [1, 3, 16, 16])],
    [helper.make_tensor_value_info('t', TensorProto.FLOAT, [1, 16, 16, 8])],
    [weight])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17)]),
          sys.argv[1])

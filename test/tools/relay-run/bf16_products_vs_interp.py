#!/usr/bin/python3
"""bf16 convolutions and matrix products (relay-run --precision bf16)
compiled at one and two threads against the reference interpreter's bf16
products (the same operands rounded to bfloat16, summed in float32: only
the order of the sums differs), to 1e-4 of the output's largest magnitude.
On a CPU with AMX they run on AMX tiles (AmxProducts.cpp: the im2col
matrix of a convolution, padded to tiles of 32 rows and columns), else on
AVX-512 BF16 or the f32 kernels; the shapes cover the paddings of the
tiles: rows (pixels) and columns (output channels) that are not multiples
of 32, k (channels x taps) that is not, strides, dilations, a batch, and
weights that are constants (packed at compile time) or parameters
(packed at run time).

  /usr/bin/python3 bf16_products_vs_interp.py --bin build/bin
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

# (batch, input channels, output channels, height, width, kernel, stride,
#  dilation, padding); the comment says which padding of the tiles it takes.
CONV_CASES = [
    (1, 64, 64, 56, 56, 3, 1, 1, 1),    # none: 3136 pixels, k 576
    (1, 128, 128, 7, 7, 3, 1, 1, 1),    # 49 pixels: 64 rows
    (1, 64, 128, 28, 28, 3, 2, 1, 1),   # strided, 196 pixels
    (1, 64, 128, 28, 28, 1, 2, 1, 0),   # a strided 1x1 shortcut
    (2, 20, 40, 13, 11, 3, 1, 1, 1),    # batch 2, k 180, 40 outputs
    (1, 32, 48, 17, 17, 3, 1, 2, 2),    # dilated
    (1, 32, 48, 28, 28, 3, 1, 2, 2),    # dilated, whole phases: Winograd
    (1, 16, 24, 9, 30, 5, 1, 1, 2),     # 5x5, k 400
    (1, 16, 24, 4, 4, 3, 1, 1, 1),      # one 32x32 block of the result
]

# (m, k, n, transposed B) of a Gemm with constant weights.
GEMM_CASES = [
    (16, 64, 96, True),     # one block of rows, half padded
    (50, 70, 33, True),     # every dimension padded
    (40, 64, 100, False),   # B as k x n
    (20, 40, 30, True),     # one 32x32 block: its k loop not outlined
]


def conv_model(path, n, c, o, h, w, k, s, d, p, rng):
    weights = rng.standard_normal((o, c, k, k)).astype(np.float32) * 0.1
    bias = rng.standard_normal(o).astype(np.float32)
    conv = helper.make_node('Conv', ['x', 'w', 'b'], ['c'],
                            kernel_shape=[k, k], strides=[s, s],
                            dilations=[d, d], pads=[p] * 4)
    relu = helper.make_node('Relu', ['c'], ['y'])
    ho = (h + 2 * p - d * (k - 1) - 1) // s + 1
    wo = (w + 2 * p - d * (k - 1) - 1) // s + 1
    graph = helper.make_graph(
        [conv, relu], 'conv',
        [helper.make_tensor_value_info('x', TensorProto.FLOAT, [n, c, h, w])],
        [helper.make_tensor_value_info('y', TensorProto.FLOAT,
                                       [n, o, ho, wo])],
        [numpy_helper.from_array(weights, 'w'),
         numpy_helper.from_array(bias, 'b')])
    onnx.save(helper.make_model(
        graph, opset_imports=[helper.make_opsetid('', 13)]), path)
    return rng.standard_normal((n, c, h, w)).astype(np.float32)


def gemm_model(path, m, k, n, transposed, rng):
    shape = (n, k) if transposed else (k, n)
    weights = rng.standard_normal(shape).astype(np.float32) * 0.1
    gemm = helper.make_node('Gemm', ['x', 'w'], ['y'],
                            transB=1 if transposed else 0)
    graph = helper.make_graph(
        [gemm], 'gemm',
        [helper.make_tensor_value_info('x', TensorProto.FLOAT, [m, k])],
        [helper.make_tensor_value_info('y', TensorProto.FLOAT, [m, n])],
        [numpy_helper.from_array(weights, 'w')])
    onnx.save(helper.make_model(
        graph, opset_imports=[helper.make_opsetid('', 13)]), path)
    return rng.standard_normal((m, k)).astype(np.float32)


def run(relay_run, program, inputs, out, extra):
    args = [relay_run, program, '--precision', 'bf16', '--output', out]
    for path in inputs:
        args += ['--input', path]
    return subprocess.run(args + extra, capture_output=True, text=True)


def compiled_matches(relay_run, program, inputs, what, tmp):
    """The interpreter's bf16 result against compiled code at one and two
    threads; returns how many runs failed."""
    want_path = os.path.join(tmp, 'want.npy')
    proc = run(relay_run, program, inputs, want_path, ['--interp'])
    if proc.returncode != 0:
        print('FAIL %s: the interpreter exits %d\n%s' % (
            what, proc.returncode, proc.stderr))
        return 2
    want = np.load(want_path)
    failures = 0
    for threads in ('1', '2'):
        got_path = os.path.join(tmp, 'got.npy')
        proc = run(relay_run, program, inputs, got_path,
                   ['--num-threads', threads])
        name = '%s, %s thread(s)' % (what, threads)
        if proc.returncode != 0 or 'reference interpreter' in proc.stderr:
            print('FAIL %s: exit %d\n%s' % (name, proc.returncode,
                                            proc.stderr))
            failures += 1
            continue
        got = np.load(got_path)
        scale = float(np.max(np.abs(want)))
        err = float(np.max(np.abs(got - want))) / scale \
            if got.shape == want.shape else float('inf')
        ok = err <= 1e-4
        failures += not ok
        print('%s %s: error %.2e of the largest output' % (
            'ok  ' if ok else 'FAIL', name, err))
    return failures


def runtime_weights_program(path, n, c, o, h, w, k, s, d, p):
    with open(path, 'w') as out:
        out.write('#[version = "0.0.5"]\n'
                  'def @main(%%x: Tensor[(%d, %d, %d, %d), float32], '
                  '%%w: Tensor[(%d, %d, %d, %d), float32]) {\n'
                  '  nn.conv2d(%%x, %%w, strides=[%d, %d], '
                  'dilation=[%d, %d], padding=[%d, %d, %d, %d])\n}\n'
                  % (n, c, h, w, o, c, k, k, s, s, d, d, p, p, p, p))


def runtime_matmul_program(path, m, k, n):
    with open(path, 'w') as out:
        out.write('#[version = "0.0.5"]\n'
                  'def @main(%%a: Tensor[(%d, %d), float32], '
                  '%%b: Tensor[(%d, %d), float32]) {\n'
                  '  nn.matmul(%%a, %%b)\n}\n' % (m, k, k, n))


def save_random(tmp, rng, named_shapes):
    paths = []
    for name, shape in named_shapes:
        paths.append(os.path.join(tmp, name + '.npy'))
        np.save(paths[-1], rng.standard_normal(shape).astype(np.float32))
    return paths


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', required=True)
    args = parser.parse_args()
    relay_run = os.path.join(args.bin, 'relay-run')
    rng = np.random.default_rng(7)
    failures = runs = 0
    with tempfile.TemporaryDirectory() as tmp:
        x_path = os.path.join(tmp, 'x.npy')
        for i, case in enumerate(CONV_CASES):
            path = os.path.join(tmp, 'conv%d.onnx' % i)
            np.save(x_path, conv_model(path, *case, rng))
            failures += compiled_matches(
                relay_run, path, [x_path],
                'conv N=%d C=%d O=%d %dx%d k%d s%d d%d p%d' % case, tmp)
            runs += 2
        for i, case in enumerate(GEMM_CASES):
            path = os.path.join(tmp, 'gemm%d.onnx' % i)
            np.save(x_path, gemm_model(path, *case, rng))
            failures += compiled_matches(
                relay_run, path, [x_path],
                'gemm m=%d k=%d n=%d transB=%d' % case, tmp)
            runs += 2
        # Weights and a matmul's operands that are parameters: packed at
        # run time.
        for i, case in enumerate([(2, 32, 40, 10, 12, 3, 1, 1, 1),
                                  (1, 64, 64, 14, 14, 3, 2, 1, 1)]):
            path = os.path.join(tmp, 'runtime%d.rly' % i)
            runtime_weights_program(path, *case)
            n, c, o, h, w, k = case[:6]
            inputs = save_random(tmp, rng, [('x', (n, c, h, w)),
                                            ('w', (o, c, k, k))])
            failures += compiled_matches(
                relay_run, path, inputs,
                'weights a parameter: conv N=%d C=%d O=%d %dx%d k%d s%d '
                'd%d p%d' % case, tmp)
            runs += 2
        path = os.path.join(tmp, 'matmul.rly')
        runtime_matmul_program(path, 40, 50, 70)
        inputs = save_random(tmp, rng, [('a', (40, 50)), ('b', (50, 70))])
        failures += compiled_matches(relay_run, path, inputs,
                                     'matmul of parameters 40x50x70', tmp)
        runs += 2
    print('%d of %d runs failed' % (failures, runs))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

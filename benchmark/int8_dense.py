#!/usr/bin/python3
"""int8 dense layers, relay-mlir against PyTorch's quantized linear layer.

Each shape (rows m, inner k, outputs n) is an ONNX MatMulInteger of int8
data by constant int8 weights into int32, run by `relay-run --bench`,
against torch.ao's quantized Linear (quint8 data, qint8 weights prepacked
by its engine, fbgemm or onednn, int8 output) in the same run, at one and
two threads, the two sides alternating. Printed as a Markdown table
headed by the CPU model (benchmark/RESULTS.md keeps the figures).

  /usr/bin/python3 benchmark/int8_dense.py [--bin build/bin] [--runs 50]
      [--results FILE]
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_builds import cpu_table  # noqa: E402
from conv_layers import relay_ms  # noqa: E402
from run_workloads import ROOT, peer_env  # noqa: E402

# A ResNet's classifier (one row), BERT-base's layers over 16 and 128
# tokens, and a square 512-row product.
SHAPES = [(1, 512, 1000), (16, 768, 768), (128, 768, 3072),
          (128, 3072, 768), (512, 1024, 1024)]

# Median ms of torch.ao's quantized Linear on [m, k] by [n, k] (argv: m,
# k, n, threads, runs).
TORCH_SIDE = r'''
import sys, time, numpy as np, torch
m, k, n, threads, runs = map(int, sys.argv[1:6])
torch.set_num_threads(threads)
engines = torch.backends.quantized.supported_engines
torch.backends.quantized.engine = 'fbgemm' if 'fbgemm' in engines else engines[-1]
layer = torch.ao.nn.quantized.Linear(k, n)
w = torch.quantize_per_tensor(torch.randn(n, k), 0.02, 0, torch.qint8)
layer.set_weight_bias(w, torch.zeros(n))
layer.scale, layer.zero_point = 0.5, 128
x = torch.quantize_per_tensor(torch.rand(m, k), 1 / 255, 0, torch.quint8)
times = []
with torch.no_grad():
    for _ in range(5):
        layer(x)
    for _ in range(runs):
        t = time.perf_counter()
        layer(x)
        times.append((time.perf_counter() - t) * 1e3)
print(torch.backends.quantized.engine, float(np.median(times)))
'''


def model(path, m, k, n):
    w = np.random.default_rng(0).integers(-128, 128, (k, n)).astype(np.int8)
    g = helper.make_graph(
        [helper.make_node('MatMulInteger', ['a', 'b'], ['y'])], 'g',
        [helper.make_tensor_value_info('a', TensorProto.INT8, [m, k])],
        [helper.make_tensor_value_info('y', TensorProto.INT32, [m, n])],
        [numpy_helper.from_array(w, 'b')])
    onnx.save(helper.make_model(
        g, opset_imports=[helper.make_opsetid('', 13)]), path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', default=os.path.join(ROOT, 'build', 'bin'))
    parser.add_argument('--runs', type=int, default=50)
    parser.add_argument('--results')
    args = parser.parse_args()
    relay_run = os.path.join(args.bin, 'relay-run')
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for m, k, n in SHAPES:
            path = os.path.join(work, f'dense_{m}_{k}_{n}.onnx')
            model(path, m, k, n)
            for threads in (1, 2):
                ours = relay_ms(relay_run, path, threads, args.runs)
                out = subprocess.run(
                    [sys.executable, '-c', TORCH_SIDE, str(m), str(k),
                     str(n), str(threads), str(args.runs)],
                    capture_output=True, text=True, check=True,
                    env=peer_env(threads)).stdout.split()
                engine, theirs = out[-2], float(out[-1])
                gops = 2 * m * k * n / ours / 1e6
                rows.append([f'{m}x{k}x{n}', str(threads), f'{ours:.3f}',
                             f'{gops:.0f}', f'{theirs:.3f} ({engine})',
                             f'{theirs / ours:.2f}'])
    cpu_table(['m x k x n', 'threads', 'relay-mlir ms', 'GOP/s',
               'PyTorch int8 Linear ms', 'PyTorch / relay-mlir'], rows,
              args.results)


if __name__ == '__main__':
    main()

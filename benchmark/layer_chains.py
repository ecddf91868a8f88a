#!/usr/bin/python3
"""ResNet-50's dense convolution layers as they run inside a network,
relay-mlir against PyTorch side by side: each layer is a chain of 16
copies with their own random weights (a Conv2d and a ReLU each; copies
alternate between the layer's input and output channels so that the chain
composes), so that every layer reads weights the layers before it evicted
from the caches, as in a network. A single layer timed alone keeps its
weights in the caches from call to call: on a Xeon ResNet-50's 512-channel
3x3 layer on 7x7 maps took 1.9 ms alone and 2.9 ms in such a chain.

Each chain is exported to ONNX and run by `relay-run chain.onnx --bench N`
(the median of N calls; the weights are constants, as in a model) and by
PyTorch at its best of eager, frozen TorchScript and frozen TorchScript
through torch.jit.optimize_for_inference (oneDNN's prepacked convolutions,
as run_workloads.py's TorchScript: conv_layers.py's torch_ms), at one and
two threads, the two sides alternating in each round. Printed as a Markdown
table headed by the CPU model: each side's median time per layer over the
rounds, relay-mlir's GFLOP/s (counting a direct convolution's work, which
Winograd's 3x3 layers do not all do), the ratio PyTorch / relay-mlir (above
1: relay-mlir is faster) and the range of the rounds' ratios.

  /usr/bin/python3 benchmark/layer_chains.py [--bin build/bin] [--runs 20]
      [--rounds 2] [--only r7_3x3,r14_1x1] [--results FILE]
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_builds import cpu_table  # noqa: E402
from conv_layers import parse_layer_args, relay_ms, torch_ms  # noqa: E402
from run_workloads import peer_env  # noqa: E402

# The copies in a chain.
CHAIN = 16

# name: (input channels, output channels, kernel size, map size): the
# stride-1 dense convolutions of ResNet-50 (a 1x1 chain alternates its
# expanding and reducing layers).
LAYERS = {
    'r56_3x3': (64, 64, 3, 56),
    'r56_1x1': (64, 256, 1, 56),
    'r28_3x3': (128, 128, 3, 28),
    'r28_1x1': (128, 512, 1, 28),
    'r14_3x3': (256, 256, 3, 14),
    'r14_1x1': (256, 1024, 1, 14),
    'r7_3x3': (512, 512, 3, 7),
    'r7_1x1': (512, 2048, 1, 7),
}

# Exports the chain (argv: directory, name, copies, in, out, kernel, size)
# as NAME.onnx and NAME.pt.
EXPORT = r'''
import sys, torch
out, name = sys.argv[1], sys.argv[2]
n, ci, co, k, hw = (int(v) for v in sys.argv[3:8])
torch.manual_seed(0)
layers = []
for i in range(n):
    a, b = (ci, co) if i % 2 == 0 else (co, ci)
    layers += [torch.nn.Conv2d(a, b, k, padding=k // 2), torch.nn.ReLU()]
m = torch.nn.Sequential(*layers).eval()
x = torch.randn(1, ci, hw, hw)
torch.onnx.export(m, (x,), '%s/%s.onnx' % (out, name))
torch.save(m, '%s/%s.pt' % (out, name))
'''


def main():
    args, names, relay_run = parse_layer_args(LAYERS, runs=20)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            ci, co, k, hw = LAYERS[name]
            subprocess.run([sys.executable, '-c', EXPORT, tmp, name,
                            str(CHAIN), str(ci), str(co), str(k), str(hw)],
                           check=True, capture_output=True, env=peer_env())
        for threads in (1, 2):
            for name in names:
                ci, co, k, hw = LAYERS[name]
                model = os.path.join(tmp, name + '.onnx')
                ours, theirs = [], []
                for _ in range(args.rounds):
                    ours.append(relay_ms(relay_run, model, threads,
                                         args.runs) / CHAIN)
                    theirs.append(torch_ms(os.path.join(tmp, name + '.pt'),
                                           ci, hw, threads, args.runs) / CHAIN)
                flops = 2 * k * k * ci * co * hw * hw
                mine, peer = float(np.median(ours)), float(np.median(theirs))
                ratios = [t / o for o, t in zip(ours, theirs)]
                shape = '%d <-> %d, %dx%d on %dx%d' % (ci, co, k, k, hw, hw)
                rows.append([name, shape, str(threads), '%.3f' % mine,
                             '%.0f' % (flops / mine / 1e6), '%.3f' % peer,
                             '%.2f' % (peer / mine),
                             '%.2f-%.2f' % (min(ratios), max(ratios))])
    cpu_table(['layer chain', 'shape', 'threads', 'relay-mlir ms a layer',
               'GFLOP/s (of the direct convolution)',
               'PyTorch best ms a layer', 'PyTorch / relay-mlir',
               'per-round ratios'], rows, args.results)
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
"""Single convolution layers of real networks, relay-mlir against PyTorch
side by side: the grouped 3x3 layers of ResNeXt-50 (32x4d) and
RegNet-Y-400MF, each with its bias and ReLU as the networks have them after
batch-norm folding.

Each layer is a torch.nn.Sequential(Conv2d, ReLU) with random weights,
exported to ONNX and run by `relay-run layer.onnx --bench N` (the median of
N calls of the compiled layer; the weights are constants, as in a model)
and by PyTorch at its best of eager, frozen TorchScript and frozen
TorchScript through optimize_for_inference (median of N calls), at one and two threads, the two sides alternating in each round.
Printed as a Markdown table headed by the CPU model: each side's median
over the rounds, relay-mlir's GFLOP/s, the ratio PyTorch / relay-mlir (above
1: relay-mlir is faster) and the range of the rounds' ratios.

  /usr/bin/python3 benchmark/conv_layers.py [--bin build/bin] [--runs 200]
      [--rounds 2] [--only rx3,rg2] [--results FILE]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_builds import cpu_table  # noqa: E402
from run_workloads import ROOT, peer_env, with_blas_check  # noqa: E402

# name: (network, channels, groups, input size, stride); the layers'
# output channels equal their input channels.
LAYERS = {
    'rx1': ('ResNeXt-50 stage 1', 128, 32, 56, 1),
    'rx2s': ('ResNeXt-50 stage 2, first', 256, 32, 56, 2),
    'rx2': ('ResNeXt-50 stage 2', 256, 32, 28, 1),
    'rx3s': ('ResNeXt-50 stage 3, first', 512, 32, 28, 2),
    'rx3': ('ResNeXt-50 stage 3', 512, 32, 14, 1),
    'rx4s': ('ResNeXt-50 stage 4, first', 1024, 32, 14, 2),
    'rx4': ('ResNeXt-50 stage 4', 1024, 32, 7, 1),
    'rg1': ('RegNet-Y-400MF stage 1', 48, 6, 56, 2),
    'rg2': ('RegNet-Y-400MF stage 2', 104, 13, 28, 1),
    'rg3': ('RegNet-Y-400MF stage 3', 208, 26, 14, 1),
    'rg4': ('RegNet-Y-400MF stage 4', 440, 55, 7, 1),
}

# Exports the layer (argv: directory, name, channels, groups, size,
# stride) as NAME.onnx and NAME.pt.
EXPORT = r'''
import sys, torch
out, name = sys.argv[1], sys.argv[2]
c, g, hw, s = (int(v) for v in sys.argv[3:7])
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Conv2d(c, c, 3, s, 1, groups=g),
                        torch.nn.ReLU()).eval()
x = torch.randn(1, c, hw, hw)
torch.onnx.export(m, (x,), '%s/%s.onnx' % (out, name))
torch.save(m, '%s/%s.pt' % (out, name))
'''

# Times a module at its best of eager, frozen TorchScript and frozen
# TorchScript through optimize_for_inference (oneDNN's prepacked
# convolutions, as run_workloads.py's TorchScript) (argv: the .pt file,
# channels, size, threads, runs, this folder); prints the median in ms.
TORCH_SIDE = r'''
import sys, torch
path, c, hw, threads, runs = sys.argv[1], *(int(v) for v in sys.argv[2:6])
sys.path.insert(0, sys.argv[6])
from conv_layers import best_median_ms
torch.set_num_threads(threads)
m = torch.load(path, weights_only=False).eval()
x = torch.randn(1, c, hw, hw)
with torch.no_grad():
    frozen = torch.jit.freeze(torch.jit.script(m))
    prepacked = torch.jit.optimize_for_inference(
        torch.jit.freeze(torch.jit.script(m)))
    print(best_median_ms((m, frozen, prepacked), x, runs,
                         warmup=max(5, runs // 10)))
'''
TORCH_SIDE = with_blas_check(TORCH_SIDE)


def best_median_ms(fns, x, runs, warmup):
    """The best over `fns` of the median of `runs` timed calls fn(x) after
    `warmup` untimed ones, in ms (PyTorch's side of the benchmarks)."""
    import statistics
    import time
    best = None
    for fn in fns:
        for _ in range(warmup):
            fn(x)
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            fn(x)
            times.append((time.perf_counter() - t) * 1e3)
        median = statistics.median(times)
        best = median if best is None else min(best, median)
    return best


def relay_ms(relay_run, model, threads, runs):
    out = subprocess.run([relay_run, model, '--random-inputs', '1',
                          '--num-threads', str(threads), '--bench', str(runs),
                          '--summary'], capture_output=True, text=True)
    match = re.search(r'median: ([0-9.]+) ms', out.stdout)
    if out.returncode != 0 or not match:
        raise RuntimeError('relay-run %s failed:\n%s' % (model, out.stderr))
    return float(match.group(1))


def torch_ms(path, channels, size, threads, runs):
    """PyTorch's best median ms (TORCH_SIDE) for the module saved at
    `path`, in its own process."""
    out = subprocess.run([sys.executable, '-c', TORCH_SIDE, path,
                          str(channels), str(size), str(threads), str(runs),
                          os.path.dirname(os.path.abspath(__file__))],
                         capture_output=True, text=True, env=peer_env(threads),
                         check=True)
    return float(out.stdout.strip().splitlines()[-1])


def parse_layer_args(layers, runs):
    """The command line of a layer benchmark over `layers` (--bin, --runs
    defaulting to `runs`, --rounds, --only, --results): the arguments, the
    layers' names and the relay-run to time."""
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', default=os.path.join(ROOT, 'build', 'bin'))
    parser.add_argument('--runs', type=int, default=runs)
    parser.add_argument('--rounds', type=int, default=2)
    parser.add_argument('--only', default='')
    parser.add_argument('--results')
    args = parser.parse_args()
    names = args.only.split(',') if args.only else list(layers)
    unknown = [n for n in names if n not in layers]
    if unknown:
        parser.error('unknown layers %s (known: %s)' %
                     (', '.join(unknown), ', '.join(layers)))
    relay_run = os.path.join(args.bin, 'relay-run')
    if not os.access(relay_run, os.X_OK):
        parser.error('no relay-run in %s (build first, or give --bin)' %
                     args.bin)
    return args, names, relay_run


def main():
    args, names, relay_run = parse_layer_args(LAYERS, runs=200)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            _, c, g, hw, s = LAYERS[name]
            subprocess.run([sys.executable, '-c', EXPORT, tmp, name, str(c),
                            str(g), str(hw), str(s)], check=True,
                           capture_output=True, env=peer_env())
        for threads in (1, 2):
            for name in names:
                network, c, g, hw, s = LAYERS[name]
                model = os.path.join(tmp, name + '.onnx')
                ours, theirs = [], []
                for _ in range(args.rounds):
                    ours.append(relay_ms(relay_run, model, threads, args.runs))
                    theirs.append(torch_ms(os.path.join(tmp, name + '.pt'), c,
                                           hw, threads, args.runs))
                out = (hw - 1) // s + 1
                flops = 2 * 9 * c * (c // g) * out * out
                mine, peer = float(np.median(ours)), float(np.median(theirs))
                ratios = [t / o for o, t in zip(ours, theirs)]
                rows.append([
                    '%s (%s)' % (name, network),
                    '%d groups of %d, %dx%d stride %d' % (g, c // g, hw, hw,
                                                          s),
                    str(threads), '%.3f' % mine,
                    '%.0f' % (flops / mine / 1e6), '%.3f' % peer,
                    '%.2f' % (peer / mine),
                    '%.2f-%.2f' % (min(ratios), max(ratios))])
    cpu_table(['layer', 'shape', 'threads', 'relay-mlir ms', 'GFLOP/s',
               'PyTorch best ms', 'PyTorch / relay-mlir', 'per-round ratios'],
              rows, args.results)
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
"""The papers' composability table (seed 000, Fig. 10): the speedup of each
-O level, and of each -O3 pass alone, over -O0 on the papers' workloads,
measured side by side in one run.

  /usr/bin/python3 benchmark/composability.py [--bin build/bin] [--runs N]
      [--rounds R] [--only NAME,...] [--results FILE]

Each configuration is relay-run with -O0..-O3, or -O0 with one pass of the
-O3 level required (--require-pass). The workloads are run_workloads.py's
(ResNet-18, MobileNet-V2 and VGG-16 from torchvision as ONNX, DQN and the
LSTM in Relay text) and ResNet-18 converted to NHWC with
--relay-convert-layout (the case AlterOpLayout is for: a network in a
layout the target's kernels are not built for). The configurations
alternate within each round so that a slow spell of the shared machine
falls on all of them; a cell is the median over the rounds of
latency(-O0) / latency(configuration), at one thread. Every
configuration's output is checked against -O0's.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_builds  # noqa: E402
import run_workloads as workloads  # noqa: E402

LEVELS = [('-O0', ['-O0']), ('-O1', ['-O1']), ('-O2', ['-O2']),
          ('-O3', ['-O3'])]
ALONE = ['FuseOps', 'FoldConstant', 'FoldScaleAxis', 'AlterOpLayout',
         'CanonicalizeOps', 'EliminateCommonSubexpr', 'CombineParallelConv2d',
         'SimplifyExpr']
CONFIGS = LEVELS + [(name, ['-O0', '--require-pass', name]) for name in ALONE]
WORKLOADS = ['resnet18', 'resnet18_nhwc', 'mobilenet_v2', 'vgg16', 'dqn',
             'lstm']


def program_and_inputs(name, models, tmp, bindir):
    if name != 'resnet18_nhwc':
        return compare_builds.program_and_inputs(name, models, tmp)
    onnx, inputs = compare_builds.program_and_inputs('resnet18', models, tmp)
    program = os.path.join(tmp, 'resnet18_nhwc.mlir')
    imported = subprocess.run(
        [os.path.join(bindir, 'relay-mlir-translate'), '--import-onnx', onnx],
        check=True, capture_output=True)
    subprocess.run(
        [os.path.join(bindir, 'relay-mlir-opt'), '--relay-infer-types',
         '--relay-convert-layout=desired-layouts=nn.conv2d:NHWC', '-o',
         program], input=imported.stdout, check=True, capture_output=True)
    return program, inputs


def run(binary, program, inputs, flags, runs, out=None):
    cmd = [binary, program, '--bench', str(runs)] + flags
    for path in inputs:
        cmd += ['--input', path]
    if out:
        cmd += ['--output', out]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0 or 'reference interpreter' in proc.stderr:
        raise RuntimeError('relay-run %s %s failed or fell back:\n%s' %
                           (' '.join(flags), program, proc.stderr))
    return float(re.search(r'median: ([0-9.]+) ms', proc.stdout).group(1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', default=os.path.join(workloads.ROOT, 'build',
                                                      'bin'))
    parser.add_argument('--models', default=os.path.join(workloads.ROOT,
                                                         'build', 'models'))
    parser.add_argument('--runs', type=int, default=10)
    parser.add_argument('--rounds', type=int, default=3)
    parser.add_argument('--only', default='')
    parser.add_argument('--results', help='append the table here (markdown)')
    args = parser.parse_args()
    binary = os.path.join(args.bin, 'relay-run')
    names = [n for n in WORKLOADS
             if not args.only or n in args.only.split(',')]
    os.makedirs(args.models, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            program, inputs = program_and_inputs(name, args.models, tmp,
                                                 args.bin)
            # The same values at every configuration (DQN returns a tuple:
            # its fields are written one file each).
            outputs = {}
            for label, flags in CONFIGS:
                out = os.path.join(tmp, '%s.%s.npy' % (name, label))
                run(binary, program, inputs, flags, 1, out)
                written = sorted(f for f in os.listdir(tmp)
                                 if f.startswith('%s.%s' % (name, label)))
                outputs[label] = [np.load(os.path.join(tmp, f))
                                  for f in written]
            same = all(
                len(o) == len(outputs['-O0']) and
                all(np.allclose(a, b, rtol=1e-4, atol=1e-5)
                    for a, b in zip(o, outputs['-O0']))
                for o in outputs.values())
            times = {label: [] for label, _ in CONFIGS}
            for _ in range(args.rounds):
                for label, flags in CONFIGS:
                    times[label].append(run(binary, program, inputs, flags,
                                            args.runs))
            speedups = {label: np.median([t0 / t for t0, t in zip(
                times['-O0'], times[label])]) for label, _ in CONFIGS}
            row = '| %s | %.3g | %s | %s |' % (
                name, np.median(times['-O0']),
                ' | '.join('%.2f' % speedups[label] for label, _ in CONFIGS
                           if label != '-O0'),
                'same' if same else 'DIFFER')
            print(row, flush=True)
            rows.append(row)
    header = [label for label, _ in CONFIGS if label != '-O0']
    table = ['CPU: %s; speedup over -O0 at one thread, median of %d rounds '
             'of %d runs, configurations alternating.' % (
                 compare_builds.cpu_model(), args.rounds, args.runs), '',
             '| workload | -O0 (ms) | %s | outputs |' % ' | '.join(
                 h if h.startswith('-O') else h + ' alone' for h in header),
             '|---|---|%s---|' % ('---|' * len(header))] + rows
    print('\n'.join(table))
    if args.results:
        with open(args.results, 'a') as f:
            f.write('\n'.join(table) + '\n')


if __name__ == '__main__':
    main()

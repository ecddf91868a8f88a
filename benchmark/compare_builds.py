#!/usr/bin/python3
"""Two builds of relay-mlir side by side on the papers' workloads: the
latency of each with relay-run --bench at 1 and 2 threads, alternating
between the builds in rounds so that a slow spell of the shared machine
falls on both, and whether their outputs agree.

  /usr/bin/python3 benchmark/compare_builds.py --base OLD/bin [--new build/bin]
      [--runs N] [--rounds R] [--only NAME,...] [--results FILE]

The table gives, per workload and thread count, the median over the rounds
of each build's median latency, and the range of the rounds' ratios
new/base (below 1: the new build is faster); then each build's time from
the file to the result (import, compilation, one run; best of 3). The CPU
model is printed in its heading. Inputs are run_workloads.py's (torchvision models exported to
ONNX with random weights, Relay text workloads with generated weights).
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_workloads as workloads  # noqa: E402


# The CPU as the tables' headings name it.
cpu_model = workloads.cpu_model


def cpu_table(headers, rows, results=None):
    """A Markdown table of `rows` under `headers`, headed by the CPU model;
    printed, and written to the file `results` when given."""
    lines = [f"CPU: {cpu_model()}", "",
             "| " + " | ".join(headers) + " |",
             "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    text = "\n".join(lines)
    print(text)
    if results:
        with open(results, "w") as f:
            f.write(text + "\n")

def program_and_inputs(name, models, tmp):
    """The workload's program and input files (as run_workloads.py)."""
    if name in workloads.VISION + workloads.TORCHVISION:
        model = os.path.join(models, name + '.onnx')
        if not os.path.exists(model):
            subprocess.run(['/usr/bin/python3', os.path.join(
                workloads.ROOT, 'examples', 'models', 'export_torchvision.py'),
                models, name], check=True, capture_output=True)
        return model, [os.path.join(models, name + '.input.npy')]
    program = os.path.join(workloads.ROOT, 'examples', 'dqn.rly') \
        if name == 'dqn' else os.path.join(workloads.ROOT, 'examples',
                                           'workloads', name + '.rly')
    return program, workloads.relay_inputs(name, tmp, np.random.default_rng(0))


def outputs_agree(base, new, program, inputs, tmp, name):
    """Whether both builds print the same result summary and write the same
    tensors (to float noise)."""
    results = []
    for tag, binary in (('base', base), ('new', new)):
        out = os.path.join(tmp, '%s.%s.npy' % (name, tag))
        cmd = [binary, program, '--summary']
        if name != 'charrnn':
            cmd += ['--output', out]
        for path in inputs:
            cmd += ['--input', path]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0 or 'reference interpreter' in proc.stderr:
            raise RuntimeError('%s did not compile %s:\n%s' %
                               (binary, program, proc.stderr))
        written = sorted(f for f in os.listdir(tmp)
                         if f.startswith('%s.%s' % (name, tag)))
        results.append([np.load(os.path.join(tmp, f)) for f in written])
    return all(a.shape == b.shape and np.allclose(a, b, rtol=1e-4, atol=1e-5)
               for a, b in zip(*results)) and len(results[0]) == len(results[1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--base', required=True,
                        help="the other build's bin folder")
    parser.add_argument('--new', default=os.path.join(workloads.ROOT, 'build',
                                                      'bin'))
    parser.add_argument('--models', default=os.path.join(workloads.ROOT,
                                                         'build', 'models'))
    parser.add_argument('--runs', type=int, default=20)
    parser.add_argument('--rounds', type=int, default=3)
    parser.add_argument('--only', default='')
    parser.add_argument('--results', help='append the table here (markdown)')
    args = parser.parse_args()
    base = os.path.join(args.base, 'relay-run')
    new = os.path.join(args.new, 'relay-run')
    names = workloads.selected(args.only)
    os.makedirs(args.models, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            program, inputs = program_and_inputs(name, args.models, tmp)
            agree = outputs_agree(base, new, program, inputs, tmp, name)
            times = {(build, t): [] for build in ('base', 'new')
                     for t in (1, 2)}
            for _ in range(args.rounds):
                for threads in (1, 2):
                    for build, binary in (('base', base), ('new', new)):
                        ms, _ = workloads.run_relay(binary, program, inputs,
                                                    None, args.runs, threads)
                        times[(build, threads)].append(ms)
            # Import, compilation and one run, best of 3 (alternating).
            compile_s = {'base': [], 'new': []}
            for _ in range(3):
                for build, binary in (('base', base), ('new', new)):
                    compile_s[build].append(
                        workloads.time_to_result(binary, program, inputs, 1))
            cells = []
            for threads in (1, 2):
                b = times[('base', threads)]
                n = times[('new', threads)]
                ratios = [y / x for x, y in zip(b, n)]
                cells.append('%.3g / %.3g | %.2f-%.2f' % (
                    np.median(b), np.median(n), min(ratios), max(ratios)))
            row = '| %s | %s | %s | %.2f / %.2f | %s |' % (
                name, cells[0], cells[1], min(compile_s['base']),
                min(compile_s['new']), 'same' if agree else 'DIFFER')
            print(row, flush=True)
            rows.append(row)
    table = ['CPU: %s; %d rounds of %d runs, alternating.' % (
                 cpu_model(), args.rounds, args.runs), '',
             '| workload | 1 thread: base / new (ms) | new/base per round '
             '| 2 threads: base / new (ms) | new/base per round '
             '| file to result: base / new (s) | outputs |',
             '|---|---|---|---|---|---|---|'] + rows
    print('\n'.join(table))
    if args.results:
        with open(args.results, 'a') as f:
            f.write('\n'.join(table) + '\n')


if __name__ == '__main__':
    main()

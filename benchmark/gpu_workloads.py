#!/usr/bin/python3
"""The papers' workloads on an NVIDIA GPU: relay-mlir (`relay-run --target
cuda`) and PyTorch on the same device, side by side in one run, with a
matrix product against cuBLAS (torch.matmul).

  python3 benchmark/gpu_workloads.py [--bin build/bin] [--models DIR]
      [--runs N] [--only NAME,...] [--results FILE.md]

Both sides run at batch 1 from host-resident inputs to a host-resident
result: relay-run's --bench times whole calls of the compiled entry (inputs
copied to the device, kernels, result copied back); PyTorch's times
`model(x.cuda()).cpu()` with the module's weights already on the device
(eager), the copies included likewise. Weights are uploaded once on both
sides. The table gives medians of N runs and PyTorch / relay-mlir (above 1:
relay-mlir is faster). The CPU and GPU models are printed above the table.
Needs a CUDA device, torch with CUDA, and the workloads' inputs
(benchmark/run_workloads.py's; the vision models are exported into
--models the first time).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'benchmark'))
import run_workloads  # noqa: E402  (programs, inputs)

GEMM = (1024, 2048, 4096)


def cpu_model():
    with open('/proc/cpuinfo') as f:
        for line in f:
            if line.startswith('model name'):
                return line.split(':', 1)[1].strip()
    return 'unknown'


RELAY_FLAGS = []


def relay_ms(relay_run, program, inputs, runs, extra=()):
    command = [relay_run, program, '--target', 'cuda', '--bench', str(runs)]
    command += RELAY_FLAGS + list(extra)
    for path in inputs:
        command += ['--input', path]
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-2000:])
    return float(re.search(r'median: ([0-9.]+) ms', proc.stdout).group(1))


def torch_module(name, inputs, models, torch):
    """The workload as a torch module on the GPU and its arguments on the
    host, or None where its control flow is Python's (CharRNN, TreeLSTM)."""
    load = [torch.from_numpy(np.load(p)) for p in inputs]
    if name in run_workloads.VISION:
        model = torch.load(os.path.join(models, name + '.pt'),
                           weights_only=False)
        return model.eval().cuda(), load
    if name == 'dqn':
        state, w1, b1, w2, b2 = load
        model = torch.nn.Sequential(torch.nn.Linear(4, 64), torch.nn.ReLU(),
                                    torch.nn.Linear(64, 2))
        with torch.no_grad():
            model[0].weight.copy_(w1)
            model[0].bias.copy_(b1)
            model[2].weight.copy_(w2)
            model[2].bias.copy_(b2)
        return model.eval().cuda(), [state]
    if name in run_workloads.SEQUENCE:
        kind = {'rnn': torch.nn.RNN, 'gru': torch.nn.GRU,
                'lstm': torch.nn.LSTM}[name]
        model = kind(run_workloads.I, run_workloads.H)
        xs, h0, rest = load[0], load[1][None], load[2:]
        state = h0
        if name == 'lstm':
            state, rest = (h0, rest[0][None]), rest[1:]
        with torch.no_grad():
            model.weight_ih_l0.copy_(rest[0])
            model.weight_hh_l0.copy_(rest[1])
            model.bias_ih_l0.copy_(rest[2])
            model.bias_hh_l0.copy_(rest[3])
        return model.eval().cuda(), [xs, state]
    return None, None


def torch_ms(model, args, runs, torch):
    import time

    def to_device(a):
        return tuple(to_device(x) for x in a) if isinstance(a, tuple) \
            else a.cuda()

    def to_host(r):
        return tuple(to_host(x) for x in r) if isinstance(r, tuple) \
            else r.cpu()

    with torch.no_grad():
        for _ in range(3):
            to_host(model(*[to_device(a) for a in args]))
        times = []
        for _ in range(runs):
            torch.cuda.synchronize()
            start = time.perf_counter()
            to_host(model(*[to_device(a) for a in args]))
            times.append((time.perf_counter() - start) * 1e3)
    return float(np.median(times))


def gemm_rows(relay_run, runs, tmp, torch):
    """nn.dense of n x n by n x n against torch.matmul (cuBLAS) on device
    tensors, and relay-run's whole call; TFLOP/s of each."""
    import time
    rows = []
    for n in GEMM:
        program = os.path.join(tmp, 'dense%d.rly' % n)
        with open(program, 'w') as f:
            f.write('#[version = "0.0.5"]\n'
                    'def @main(%%a: Tensor[(%d, %d), float32], '
                    '%%b: Tensor[(%d, %d), float32]) { nn.dense(%%a, %%b) }\n'
                    % (n, n, n, n))
        ms = relay_ms(relay_run, program, [], runs, ['--random-inputs', '1'])
        a = torch.randn(n, n, device='cuda')
        b = torch.randn(n, n, device='cuda')
        for _ in range(3):
            torch.matmul(a, b.t())
        torch.cuda.synchronize()
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            torch.matmul(a, b.t())
            torch.cuda.synchronize()
            times.append((time.perf_counter() - start) * 1e3)
        cublas = float(np.median(times))
        flop = 2.0 * n ** 3
        rows.append(('dense %dx%dx%d' % (n, n, n), ms, cublas,
                     '%.1f / %.1f TFLOP/s' % (flop / ms / 1e9,
                                              flop / cublas / 1e9)))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', default=os.path.join(ROOT, 'build', 'bin'))
    parser.add_argument('--models',
                        default=os.path.join(ROOT, 'build', 'models'))
    parser.add_argument('--runs', type=int, default=20)
    parser.add_argument('--only', default='')
    parser.add_argument('--no-gemm', action='store_true')
    parser.add_argument('--results', help='write the table here (markdown)')
    parser.add_argument('--relay-flag', action='append', default=[],
                        help="a flag for relay-run (repeat for more), "
                             "e.g. --relay-flag=--gpu-thread-tile=1")
    args = parser.parse_args()
    RELAY_FLAGS.extend(args.relay_flag)
    import torch
    if not torch.cuda.is_available():
        print('no CUDA device for torch: skipped')
        return 77
    relay_run = os.path.join(args.bin, 'relay-run')
    names = run_workloads.VISION + ['dqn'] + list(run_workloads.SEQUENCE) + \
        ['charrnn', 'treelstm']
    if args.only:
        names = [n for n in names if n in args.only.split(',')]
    rows, failures = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            rng = np.random.default_rng(0)
            program = run_workloads.program_path(name, args.models)
            if name in run_workloads.VISION:
                inputs = [os.path.join(args.models, name + '.input.npy')]
            else:
                inputs = run_workloads.relay_inputs(name, tmp, rng)
            try:
                ours = relay_ms(relay_run, program, inputs, args.runs)
            except RuntimeError as error:
                failures += 1
                print('%-13s FAILED: %s' % (name, error), flush=True)
                continue
            model, targs = torch_module(name, inputs, args.models, torch)
            theirs = torch_ms(model, targs, args.runs, torch) \
                if model is not None else None
            rows.append((name, ours, theirs, ''))
            print('%-13s relay-mlir %.3f ms, PyTorch %s' % (
                name, ours, '%.3f ms' % theirs if theirs else '-'),
                flush=True)
        if not args.no_gemm:
            rows += gemm_rows(relay_run, args.runs, tmp, torch)
    lines = ['CPU: %s; GPU: %s; PyTorch %s; relay-run flags: %s' % (
        cpu_model(), torch.cuda.get_device_name(0), torch.__version__,
        ' '.join(RELAY_FLAGS) or 'none'), '',
        '| workload | relay-mlir (ms) | PyTorch eager / cuBLAS (ms) '
        '| PyTorch / relay-mlir | note |',
        '| --- | --- | --- | --- | --- |']
    for name, ours, theirs, note in rows:
        lines.append('| %s | %.3f | %s | %s | %s |' % (
            name, ours, '%.3f' % theirs if theirs else '-',
            '%.2fx' % (theirs / ours) if theirs else '-', note))
    print('\n'.join(lines))
    if args.results:
        with open(args.results, 'w') as f:
            f.write('\n'.join(lines) + '\n')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

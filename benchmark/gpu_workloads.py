#!/usr/bin/python3
"""The papers' workloads on an NVIDIA GPU: relay-mlir (`relay-run --target
cuda`) and PyTorch on the same device, side by side in one run, with a
matrix product against cuBLAS (torch.matmul).

  python3 benchmark/gpu_workloads.py [--bin build/bin] [--models DIR]
      [--runs N] [--only NAME,...] [--batch64] [--no-gemm]
      [--relay-flag=--gpu-thread-tile=1 ...] [--results FILE.md]
      [--gemm-sizes 1024,4096] [--gemm-variants ';--gpu-shared-tile=4']

Both sides run at batch 1 (and ResNet-18, VGG-16 at 64 with --batch64)
from host-resident inputs to a host-resident
result: relay-run's --bench times whole calls of the compiled entry (inputs
copied to the device, kernels, result copied back); PyTorch's times
`model(x.cuda()).cpu()` with the module's weights already on the device
(eager), the copies included likewise. Weights are uploaded once on both
sides. The products (n x n by n x n, float32 and float16) compare the
kernels with cuBLAS (torch.matmul on device tensors; float32 with TF32
off, and TF32 rows: relay-run --precision tf32 against cuBLAS with TF32
on), both timed with CUDA events on the device (relay-run --profile). The table gives medians of N runs and PyTorch / relay-mlir (above 1:
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

GEMM = (1024, 2048, 4096, 8192)
GEMM_SIZES = list(GEMM)
GEMM_TYPES = ['float32', 'tf32', 'float16']
# Vision models timed at batch 64 too (--batch64).
BATCHED = ('resnet18', 'vgg16')


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


# Products in the chained program: its first reads operands the host has
# just written (managed memory migrates them to the device in the kernel),
# the others read device-resident data.
CHAIN = 5
# Products between two events on the cuBLAS side.
CUBLAS_REPEATS = 10


def relay_kernel_ms(relay_run, program, runs, extra):
    """The device time of a program's kernels per call (relay-run
    --profile's CUDA events around each launch) and the whole call's
    median."""
    command = [relay_run, program, '--target', 'cuda', '--bench', str(runs),
               '--profile'] + RELAY_FLAGS + list(extra)
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-2000:])
    kernels = re.search(r'kernels: ([0-9.]+) ms per run', proc.stderr)
    whole = re.search(r'median: ([0-9.]+) ms', proc.stdout)
    return float(kernels.group(1)), float(whole.group(1))


def gemm_rows(relay_run, runs, tmp, torch, variants):
    """nn.dense of n x n by n x n against torch.matmul (cuBLAS) on device
    tensors, both timed on the device: relay-mlir's product is the
    difference of the kernels' time between a program of CHAIN products in
    sequence and one of a single product, over CHAIN - 1 (the first
    product of each waits for its operands to migrate); cuBLAS's, CUDA
    events around CUBLAS_REPEATS products. float32 (against cuBLAS without
    and with TF32: relay-run --precision tf32), float16 (cuBLAS on tensor
    cores). Each of `variants` (relay-run flags) gets its own rows."""
    rows = []
    shapes = [(dtype, name, precision, n) for dtype, name, precision in (
        (torch.float32, 'float32', 'fp32'), (torch.float32, 'float32', 'tf32'),
        (torch.float16, 'float16', 'fp32')) for n in GEMM_SIZES
        if (precision if precision == 'tf32' else name) in GEMM_TYPES]
    for dtype, relay_type, precision, n in shapes:
        def program(chain):
            path = os.path.join(tmp, 'dense%d%s_%d.rly' % (n, relay_type,
                                                             chain))
            body = '%a'
            for _ in range(chain):
                body = 'nn.dense(%s, %%b)' % body
            with open(path, 'w') as f:
                f.write('#[version = "0.0.5"]\n'
                        'def @main(%%a: Tensor[(%d, %d), %s], '
                        '%%b: Tensor[(%d, %d), %s]) { %s }\n'
                        % (n, n, relay_type, n, n, relay_type, body))
            return path
        a = torch.randn(n, n, device='cuda', dtype=dtype)
        b = torch.randn(n, n, device='cuda', dtype=dtype)
        torch.backends.cuda.matmul.allow_tf32 = precision == 'tf32'
        for _ in range(3):
            torch.matmul(a, b.t())
        torch.cuda.synchronize()
        times = []
        for _ in range(runs):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(CUBLAS_REPEATS):
                torch.matmul(a, b.t())
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end) / CUBLAS_REPEATS)
        torch.backends.cuda.matmul.allow_tf32 = False
        cublas = float(np.median(times))
        flop = 2.0 * n ** 3
        label = 'tf32' if precision == 'tf32' else relay_type
        for variant in variants:
            flags = ['--random-inputs', '1', '--precision', precision]
            flags += variant.split()
            try:
                single, whole = relay_kernel_ms(relay_run, program(1), runs,
                                                flags)
                chained, _ = relay_kernel_ms(relay_run, program(CHAIN), runs,
                                             flags)
            except RuntimeError as error:
                print('dense %d %s %s FAILED: %s' % (n, label, variant,
                                                     error), flush=True)
                continue
            ms = max(chained - single, 1e-6) / (CHAIN - 1)
            note = ('%.1f / %.1f TFLOP/s (relay-mlir / cuBLAS), %.0f%% of '
                    'cuBLAS; kernels of a single product %.3f ms, its whole '
                    'call %.3f ms' % (flop / ms / 1e9, flop / cublas / 1e9,
                                      100 * cublas / ms, single, whole))
            rows.append(('dense %dx%dx%d %s%s' % (
                n, n, n, label, ' ' + variant if variant else ''), ms,
                cublas, note))
            print(rows[-1], flush=True)
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', default=os.path.join(ROOT, 'build', 'bin'))
    parser.add_argument('--models',
                        default=os.path.join(ROOT, 'build', 'models'))
    parser.add_argument('--runs', type=int, default=20)
    parser.add_argument('--only', default='')
    parser.add_argument('--no-gemm', action='store_true')
    parser.add_argument('--gemm-sizes', default=','.join(map(str, GEMM)),
                        help='n of the n x n x n products (comma-separated)')
    parser.add_argument('--gemm-types', default=','.join(GEMM_TYPES),
                        help='the products timed: float32, tf32, float16')
    parser.add_argument('--gemm-variants', default='',
                        help='relay-run flags timed as products of their '
                             'own (";"-separated sets; an empty set is the '
                             'default), e.g. ";--gpu-shared-tile=4"')
    parser.add_argument('--batch64', action='store_true',
                        help='ResNet-18 and VGG-16 at batch 64 too')
    parser.add_argument('--results', help='write the table here (markdown)')
    parser.add_argument('--relay-flag', action='append', default=[],
                        help="a flag for relay-run (repeat for more), "
                             "e.g. --relay-flag=--gpu-thread-tile=1")
    args = parser.parse_args()
    RELAY_FLAGS.extend(args.relay_flag)
    GEMM_SIZES[:] = [int(n) for n in args.gemm_sizes.split(',') if n]
    GEMM_TYPES[:] = args.gemm_types.split(',')
    import torch
    if not torch.cuda.is_available():
        print('no CUDA device for torch: skipped')
        return 77
    relay_run = os.path.join(args.bin, 'relay-run')
    names = run_workloads.selected(args.only)
    rows, failures = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            program, inputs = run_workloads.program_and_inputs(
                name, args.models, tmp)
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
        for name in BATCHED if args.batch64 else ():
            stem = name + '_b64'
            model = os.path.join(args.models, stem + '.onnx')
            if not os.path.exists(model):
                subprocess.run([sys.executable, os.path.join(
                    ROOT, 'examples', 'models', 'export_torchvision.py'),
                    '--batch', '64', args.models, name], check=True,
                    capture_output=True)
            inputs = [os.path.join(args.models, stem + '.input.npy')]
            try:
                ours = relay_ms(relay_run, model, inputs, max(3, args.runs // 4))
            except RuntimeError as error:
                failures += 1
                print('%-13s FAILED: %s' % (stem, error), flush=True)
                continue
            module = torch.load(os.path.join(args.models, stem + '.pt'),
                                weights_only=False).eval().cuda()
            theirs = torch_ms(module, [torch.from_numpy(np.load(inputs[0]))],
                              max(3, args.runs // 4), torch)
            rows.append((name + ' batch 64', ours, theirs, ''))
            print('%-13s relay-mlir %.3f ms, PyTorch %.3f ms' % (
                stem, ours, theirs), flush=True)
        if not args.no_gemm:
            rows += gemm_rows(relay_run, args.runs, tmp, torch,
                              args.gemm_variants.split(';'))
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

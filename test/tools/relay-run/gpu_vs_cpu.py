#!/usr/bin/env python3
"""Runs every workload with `relay-run --target cuda` and compares the result
with `--target cpu` (ctest label `gpu`; skipped, exit 77, where no CUDA
device is).

The workloads and their inputs are benchmark/run_workloads.py's (ResNet-18,
MobileNet-V2, VGG-16 through ONNX; DQN, RNN, GRU, LSTM, CharRNN, TreeLSTM in
Relay text). Tensors must agree within float32 reassociation tolerances;
results that are not tensors (CharRNN's list) must print the same.
"""

import argparse
import ctypes
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, 'benchmark'))
import run_workloads  # noqa: E402  (the workloads' programs and inputs)


def has_device():
    try:
        cuda = ctypes.CDLL('libcuda.so.1')
    except OSError:
        return False
    count = ctypes.c_int(0)
    return cuda.cuInit(0) == 0 and \
        cuda.cuDeviceGetCount(ctypes.byref(count)) == 0 and count.value > 0


def run(relay_run, program, inputs, out, target, flags=()):
    command = [relay_run, program, '--target', target] + list(flags)
    if out:
        command += ['--output', out]
    for path in inputs:
        command += ['--input', path]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError('%s: %s' % (target, result.stderr[-3000:]))
    return result.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', default=os.path.join(ROOT, 'build', 'bin'))
    parser.add_argument('--models',
                        default=os.path.join(ROOT, 'build', 'models'))
    parser.add_argument('--only', default='')
    parser.add_argument('--gpu-flag', action='append', default=[],
                        help='a relay-run flag for the GPU runs, e.g. '
                             '--gpu-flag=--precision=tf32')
    parser.add_argument('--tolerance', type=float, default=1e-4,
                        help='largest difference, relative to the largest '
                             'value (float32 reassociation: 1e-4; TF32 '
                             'products round operands to 10 bits)')
    args = parser.parse_args()
    if not has_device():
        print('no CUDA device (libcuda.so.1 and a device): skipped')
        return 77
    relay_run = os.path.join(args.bin, 'relay-run')
    names = run_workloads.selected(args.only)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            program, inputs = run_workloads.program_and_inputs(
                name, args.models, tmp)
            try:
                # CharRNN's result is a list (printed, not written).
                tensors = name != 'charrnn'
                gpu_out = tensors and os.path.join(tmp, name + '.gpu.npy')
                cpu_out = tensors and os.path.join(tmp, name + '.cpu.npy')
                gpu_text = run(relay_run, program, inputs, gpu_out, 'cuda',
                               args.gpu_flag)
                cpu_text = run(relay_run, program, inputs, cpu_out, 'cpu')
            except RuntimeError as error:
                failures += 1
                print('%-13s FAILED: %s' % (name, error), flush=True)
                continue
            outputs = sorted(f for f in os.listdir(tmp)
                             if f.startswith(name + '.cpu'))
            if not outputs:
                same = gpu_text == cpu_text
                print('%-13s %s' % (name, 'prints the same as the CPU' if same
                                    else 'PRINTS DIFFERENTLY from the CPU'))
                failures += 0 if same else 1
                continue
            worst = 0.0
            ok = True
            for cpu_file in outputs:
                gpu_file = cpu_file.replace('.cpu', '.gpu')
                want, got = np.load(os.path.join(tmp, cpu_file)), \
                    np.load(os.path.join(tmp, gpu_file))
                if want.shape != got.shape:
                    ok = False
                    continue
                scale = max(1.0, float(np.abs(want).max(initial=0.0)))
                error = float(np.abs(want - got).max(initial=0.0)) / scale
                worst = max(worst, error)
                ok = ok and error <= args.tolerance
            failures += 0 if ok else 1
            print('%-13s %s (max error %.2e relative to the largest value)' % (
                name, 'matches the CPU' if ok else 'DIFFERS from the CPU',
                worst), flush=True)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
"""Classification networks from torchvision beyond the papers' three,
exported to ONNX (random weights, examples/models/export_torchvision.py)
and run compiled by relay-run: each must compile (no interpreter fallback)
and match PyTorch's output to 1e-4 relative to its largest magnitude;
with --precision bf16 (convolutions and products on bfloat16 operands,
float32 sums), PyTorch's float32 output to 2e-2 (bf16 keeps 8 bits of
each operand; the error of sums of hundreds of products stays well
below that, and a wrong kernel is off by far more).

  /usr/bin/python3 check_torchvision.py --bin build/bin --models DIR \
      [--precision bf16] [--extra] [NAME ...]
"""
import argparse
import os
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'examples', 'models'))
import export_torchvision  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', required=True)
    parser.add_argument('--models', required=True)
    parser.add_argument('--precision', default='fp32',
                        choices=['fp32', 'bf16'])
    parser.add_argument('--extra', action='store_true',
                        help="export_torchvision.EXTRA's networks instead "
                        "(a longer check than CI's)")
    parser.add_argument('names', nargs='*')
    args = parser.parse_args()
    os.makedirs(args.models, exist_ok=True)
    failures = 0
    default = export_torchvision.EXTRA if args.extra else \
        export_torchvision.OTHERS
    for name in args.names or default:
        base = os.path.join(args.models, name)
        if not os.path.exists(base + '.onnx'):
            export_torchvision.export(name, args.models)
        out = base + '.relay.' + args.precision + '.npy'
        proc = subprocess.run(
            [os.path.join(args.bin, 'relay-run'), base + '.onnx', '--input',
             base + '.input.npy', '--output', out, '--precision',
             args.precision], capture_output=True, text=True)
        if proc.returncode != 0 or 'reference interpreter' in proc.stderr:
            failures += 1
            print('%-20s FAILED: %s' % (name, proc.stderr.strip()[:500]))
            continue
        got, want = np.load(out), np.load(base + '.torch.npy')
        error = float(np.max(np.abs(got - want)) / np.max(np.abs(want)))
        ok = error <= (1e-4 if args.precision == 'fp32' else 2e-2)
        failures += 0 if ok else 1
        print('%-20s %s (relative error %.2g)' % (
            name, 'matches PyTorch' if ok else 'DIFFERS from PyTorch', error),
            flush=True)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

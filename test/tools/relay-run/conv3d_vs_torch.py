#!/usr/bin/python3
"""3-d convolutions that the CPU target computes whole by Winograd's
minimal filtering on each depth slice (WinogradConv.cpp, winogradConv3d:
each slice transformed once for the depth taps that read it): F(4x4) and
F(2x2), tiles that overhang the output, no depth padding, a batch, five
depth taps, 48 output channels (16-lane panels), each with bias and ReLU,
exported to ONNX, compiled by relay-run at one and two threads (two runs
of output depths where the depths divide) and checked to 1e-4 of the
output's largest magnitude against PyTorch. A convolution whose weights
are a parameter (transformed at run time) is checked against the
interpreter.

  /usr/bin/python3 conv3d_vs_torch.py --bin build/bin
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

from torch_compare import compiled_program_runs_match, with_relu_match

# (module, input shape, what the case is).
CASES = [
    (lambda: torch.nn.Conv3d(16, 32, 3, padding=1),
     (1, 16, 4, 16, 16), '3x3x3 F(2x2), 4 depths'),
    (lambda: torch.nn.Conv3d(24, 16, 3, padding=1),
     (1, 24, 6, 30, 26), '3x3x3 F(4x4), tiles past the output'),
    (lambda: torch.nn.Conv3d(16, 16, (5, 3, 3), padding=(2, 1, 1)),
     (2, 16, 5, 20, 20), '5x3x3, batch 2, 5 depths'),
    (lambda: torch.nn.Conv3d(32, 48, 3, padding=(0, 1, 1)),
     (1, 32, 7, 12, 12), '3x3x3 unpadded depth, 48 channels'),
]

# Weights as a parameter: U computed at run time.
PARAMETER_WEIGHTS = '''#[version = "0.0.5"]
def @main(%x: Tensor[(1, 16, 6, 12, 12), float32],
          %w: Tensor[(32, 16, 3, 3, 3), float32]) {
  nn.conv3d(%x, %w, padding=[1, 1, 1])
}
'''


def parameter_weights_match(relay_run, tmp):
    """The program above compiled at one and two threads against the
    interpreter; returns how many runs failed."""
    prog = os.path.join(tmp, 'weights.rly')
    with open(prog, 'w') as f:
        f.write(PARAMETER_WEIGHTS)
    args = [prog, '--random-inputs', '3']
    ref = os.path.join(tmp, 'ref.npy')
    subprocess.run([relay_run] + args + ['--interp', '--output', ref],
                   check=True, capture_output=True)
    return compiled_program_runs_match(relay_run, args, np.load(ref),
                                       'weights a parameter', tmp)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', required=True)
    args = parser.parse_args()
    relay_run = os.path.join(args.bin, 'relay-run')
    with tempfile.TemporaryDirectory() as tmp:
        failures = with_relu_match(relay_run, CASES, tmp)
        failures += parameter_weights_match(relay_run, tmp)
    print('%d of %d runs failed' % (failures, 2 * len(CASES) + 2))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

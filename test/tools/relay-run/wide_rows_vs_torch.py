#!/usr/bin/python3
"""Convolutions whose one output row's im2col matrix is larger than any
x86 CPU's L2 cache, so that they are built and multiplied in bands of
columns (Im2colConvolution.cpp, im2colBandColumns): a temporal convolution
(R(2+1)D's, kernel 3x1x1) through the 3-d decomposition, a 2-d (3, 1)
convolution over 3136 flattened positions, and a strided, padded 3x3
convolution over 4800 output columns, each with bias and ReLU, exported
to ONNX, compiled by relay-run at one and two threads and checked to 1e-4
of the output's largest magnitude against PyTorch.

  /usr/bin/python3 wide_rows_vs_torch.py --bin build/bin
"""
import argparse
import os
import sys
import tempfile

import torch

from torch_compare import with_relu_match

# (module, input shape, what the case is).
CASES = [
    (lambda: torch.nn.Conv3d(144, 16, (3, 1, 1), padding=(1, 0, 0)),
     (1, 144, 3, 56, 56), 'conv3d 3x1x1, 432 taps by 3136 positions'),
    (lambda: torch.nn.Conv2d(144, 16, (3, 1)),
     (1, 144, 4, 3136), 'conv2d (3, 1), 432 taps by 3136 columns'),
    (lambda: torch.nn.Conv2d(64, 16, 3, stride=2, padding=1),
     (1, 64, 4, 9600), 'conv2d 3x3 stride 2, 576 taps by 4800 columns'),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', required=True)
    args = parser.parse_args()
    relay_run = os.path.join(args.bin, 'relay-run')
    with tempfile.TemporaryDirectory() as tmp:
        failures = with_relu_match(relay_run, CASES, tmp)
    print('%d of %d runs failed' % (failures, 2 * len(CASES)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

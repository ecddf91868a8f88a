#!/usr/bin/python3
"""MobileNet-V2's inverted residual blocks against PyTorch: a 1x1 expansion
with bias and ReLU6 (in channel bands that the depthwise convolution
joins, or, for an image over 2 MB, computed window by window in the
depthwise convolution's row bands), a depthwise 3x3 convolution at stride
1 or 2 on the unpadded image
(rows of whole 16-lane vectors, of vectors the last of which overlaps the
one before, and narrower than a vector: 112, 56, 28, 14, 7, 40, 33, 17 and
3 wide, odd heights), a 1x1 projection and, at stride 1, the residual sum.
Also a depthwise convolution, 3x3 or 5x5, whose bias, ReLU and residual
sum join its row vectors (narrow rows: under a mask), and 5x5 ones at
stride 2. Each is exported to ONNX,
compiled by relay-run at one and two threads and checked to 1e-4 of the
output's largest magnitude.

  /usr/bin/python3 blocks_vs_torch.py --bin build/bin
"""
import argparse
import os
import sys
import tempfile

import torch

from torch_compare import compiled_runs_match

# (input channels, expansion, output channels, height, width, stride)
CASES = [
    (16, 6, 24, 112, 112, 2),  # 4.8 MB image: depthwise bands of 4 rows,
                               # the expansion computed window by window
    (24, 6, 24, 56, 56, 1),    # bands of 4 rows; 48 + 8 lanes; residual
    (24, 6, 32, 56, 56, 2),    # stride-2 rows of 28: lanes 0-16, 12-28
    (32, 6, 32, 28, 28, 1),    # bands of 4 rows (112 columns)
    (64, 6, 64, 14, 14, 1),    # 196 columns: padded product, no bands
    (96, 6, 160, 14, 14, 2),   # stride-2 rows of 7 (under a mask)
    (8, 4, 8, 40, 40, 1),      # 32 + 8 lanes; bands of 20 rows (800 columns)
    (8, 2, 8, 15, 17, 2),      # odd sizes at stride 2: a zero column and row
    (8, 2, 8, 9, 33, 1),       # rows of lanes 0-16, 16-32, 17-33
    (8, 2, 8, 2, 3, 2),        # one output row, one that reads below
    (16, 6, 16, 96, 96, 1),    # windows at stride 1: the last band apart
    (8, 8, 8, 97, 91, 2),      # windows of odd sizes at stride 2
]


class Block(torch.nn.Module):
    def __init__(self, c, t, f, stride, act=torch.nn.functional.relu6):
        super().__init__()
        self.act = act
        hidden = c * t
        self.expand = torch.nn.Conv2d(c, hidden, 1)
        self.depthwise = torch.nn.Conv2d(hidden, hidden, 3, stride, 1,
                                         groups=hidden)
        self.project = torch.nn.Conv2d(hidden, f, 1)
        self.residual = stride == 1 and c == f

    def forward(self, x):
        y = self.act(self.expand(x))
        y = self.act(self.depthwise(y))
        y = self.project(y)
        return x + y if self.residual else y


class DepthwiseResidual(torch.nn.Module):
    def __init__(self, c, k, stride=1):
        super().__init__()
        self.depthwise = torch.nn.Conv2d(c, c, k, stride, k // 2, groups=c)
        self.residual = stride == 1

    def forward(self, x):
        y = torch.nn.functional.relu(self.depthwise(x))
        return x + y if self.residual else y


# (channels, height, width, kernel): 3x3, and EfficientNet's 5x5 (rows
# 17 wide keep the generic: their second chunk would start one column in)
RESIDUAL_CASES = [(16, 7, 7, 3), (8, 5, 14, 3), (8, 6, 28, 3), (4, 3, 40, 3),
                  (16, 7, 7, 5), (8, 14, 14, 5), (8, 9, 28, 5), (4, 5, 19, 5),
                  (4, 5, 17, 5), (4, 2, 15, 5)]
# 5x5 at stride 2, no residual: (channels, height, width)
STRIDE_2_5X5_CASES = [(8, 15, 15), (8, 16, 16), (16, 14, 14), (8, 28, 56),
                      (4, 9, 33), (4, 7, 70), (4, 5, 30)]


def check(relay_run, model, shape, seed, name, tmp):
    """Exports `model` on a random input of `shape`; the number of failed
    compiled runs."""
    torch.manual_seed(seed)
    model = model.eval()
    x = torch.randn(*shape)
    with torch.no_grad():
        want = model(x).numpy()
    onnx_path = os.path.join(tmp, 'model%d.onnx' % seed)
    torch.onnx.export(model, (x,), onnx_path, opset_version=13)
    return compiled_runs_match(relay_run, onnx_path, x.numpy(), want, name,
                               tmp)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', required=True)
    args = parser.parse_args()
    relay_run = os.path.join(args.bin, 'relay-run')
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, (c, t, f, h, w, stride) in enumerate(CASES):
            torch.manual_seed(i)
            failures += check(
                relay_run, Block(c, t, f, stride), (1, c, h, w), i,
                'C=%d t=%d F=%d %dx%d stride %d' % (c, t, f, h, w, stride), tmp)
        # EfficientNet's activation, SiLU, reads the expansion twice; its
        # windows are computed in the depthwise bands all the same.
        failures += check(
            relay_run, Block(16, 6, 24, 2, torch.nn.functional.silu),
            (1, 16, 112, 112), 50, 'SiLU C=16 t=6 F=24 112x112 stride 2', tmp)
        for i, (c, h, w, k) in enumerate(RESIDUAL_CASES):
            torch.manual_seed(100 + i)
            failures += check(relay_run, DepthwiseResidual(c, k),
                              (1, c, h, w), 100 + i,
                              'depthwise %dx%d + residual C=%d %dx%d' %
                              (k, k, c, h, w), tmp)
        for i, (c, h, w) in enumerate(STRIDE_2_5X5_CASES):
            failures += check(relay_run, DepthwiseResidual(c, 5, 2),
                              (1, c, h, w), 200 + i,
                              'depthwise 5x5 stride 2 C=%d %dx%d' % (c, h, w),
                              tmp)
    runs = 2 * (len(CASES) + 1 + len(RESIDUAL_CASES) + len(STRIDE_2_5X5_CASES))
    print('%d of %d runs failed' % (failures, runs))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

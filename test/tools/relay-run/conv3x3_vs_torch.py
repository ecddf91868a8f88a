#!/usr/bin/python3
"""3x3 convolutions against PyTorch: the shapes that take Winograd's minimal
filtering F(4x4, 3x3) or F(2x2, 3x3) (tile counts that are odd or do not
divide the output, asymmetric and no padding, 16-channel panels, transposes
in and out of 16x16 blocks), dilated ones whose phases take it laid side
by side, and the shapes next to them that keep the im2col product, each
exported to ONNX with bias and ReLU, compiled by relay-run at one and two
threads and checked to 1e-4 of the output's largest magnitude; then the
same with the weights a parameter (a training step's: transformed at run
time, a batch's images in parallel), from Relay text.

  /usr/bin/python3 conv3x3_vs_torch.py --bin build/bin
"""
import argparse
import os
import sys
import tempfile

import numpy as np
import torch

from torch_compare import compiled_program_runs_match, compiled_runs_match

# (input channels, output channels, height, width, ONNX pads (top, left,
#  bottom, right)[, batch]); the comment says which path the shape takes.
CASES = [
    (64, 64, 56, 56, (1, 1, 1, 1)),   # F(4x4): 14x14 tiles, two bands
    (32, 64, 28, 28, (1, 1, 1, 1)),   # F(4x4): 7 tile rows, one of zeros
    (48, 48, 30, 17, (1, 1, 1, 1)),   # F(4x4), 16-channel panels, slices
    (16, 32, 20, 26, (1, 0, 2, 1)),   # F(4x4), asymmetric padding
    (32, 32, 18, 18, (0, 0, 0, 0)),   # F(2x2) of 16x16, no padding
    (16, 16, 10, 70, (1, 1, 1, 1)),   # F(4x4): 18 tile columns, 16 + 2 lanes
    (64, 32, 90, 40, (1, 1, 1, 1)),   # F(4x4): 23 tile rows in 3 bands of 8
    (16, 16, 4, 130, (1, 1, 1, 1)),   # F(4x4): one tile row, one band
    (32, 32, 28, 28, (1, 1, 1, 1), 3),  # F(4x4), a batch of 3 images
    (8, 32, 28, 28, (1, 1, 1, 1), 2),   # im2col, a batch of 2 images
    (64, 32, 14, 14, (1, 1, 1, 1)),   # F(2x2): 7x7 tiles
    (16, 16, 10, 14, (1, 1, 1, 1)),   # F(2x2): 84-element bands
    (64, 64, 7, 7, (1, 1, 1, 1)),     # too few tiles: im2col
    (8, 32, 28, 28, (1, 1, 1, 1)),    # too few channels: im2col
    (32, 40, 28, 28, (1, 1, 1, 1)),   # 40 outputs, no whole panel: im2col
    (32, 60, 28, 28, (1, 1, 1, 1)),   # F(4x4), 60 outputs padded to 64
    (16, 230, 14, 14, (1, 1, 1, 1), 2),  # F(2x2), 230 padded to 240, batch
    (8, 58, 28, 28, (1, 1, 1, 1)),    # im2col, 58 rows padded to 64
]

# (input channels, output channels, height, width, batch) with the weights
# a parameter: padding 1.
RUNTIME_WEIGHT_CASES = [
    (64, 64, 7, 7, 8),     # F(2x2) from 16 tiles an image for a batch
    (64, 64, 7, 7, 1),     # one image: too few tiles, im2col
    (32, 64, 14, 14, 4),   # F(2x2), each image in one band, in parallel
    (64, 64, 56, 56, 2),   # F(4x4), two bands an image, images in parallel
    (32, 32, 28, 28, 1),   # F(4x4), one image in two parallel bands
    (32, 58, 14, 14, 2),   # F(2x2), 58 filters padded to 64 at run time
    (8, 58, 28, 28, 1),    # im2col, 58 rows padded to 64 at run time
]

# (input channels, output channels, height, width, dilation (rows,
# columns), batch), padded by the dilation: the image's phases side by side
# with zero gutters (an image of partial phases extended with zeros), by
# Winograd, or the im2col product.
DILATED_CASES = [
    (32, 32, 28, 28, (2, 2), 1),    # 2x2 phases of 14x14: a 30x30 mosaic
    (32, 64, 28, 28, (4, 4), 1),    # 4x4 phases of 7x7: a 32x32 mosaic
    (16, 32, 24, 30, (2, 3), 1),    # 2x3 phases of 12x10: 26x33
    (32, 32, 20, 20, (1, 2), 2),    # columns only, a batch of 2
    (32, 32, 15, 28, (2, 2), 1),    # 15 rows: extended to 16 with zeros
    (16, 32, 33, 31, (2, 2), 1),    # both partial: 34x32, a 36x34 mosaic
    (32, 32, 17, 13, (4, 4), 1),    # a 24x20 mosaic, 2.2x the outputs: im2col
    (32, 32, 8, 8, (2, 2), 1),      # a 10x10 mosaic, too few tiles: im2col
]


class Conv(torch.nn.Module):
    def __init__(self, c, f):
        super().__init__()
        self.conv = torch.nn.Conv2d(c, f, 3, padding=0)

    def forward(self, x, pads):
        top, left, bottom, right = pads
        x = torch.nn.functional.pad(x, (left, right, top, bottom))
        return torch.relu(self.conv(x))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', required=True)
    args = parser.parse_args()
    relay_run = os.path.join(args.bin, 'relay-run')
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, case in enumerate(CASES):
            c, f, h, w, pads = case[:5]
            n = case[5] if len(case) > 5 else 1
            torch.manual_seed(i)
            model = Conv(c, f).eval()
            x = torch.randn(n, c, h, w)
            with torch.no_grad():
                want = model(x, pads).numpy()
            # The padding goes into the Conv node's pads: a module whose
            # Conv pads asymmetrically.
            onnx_path = os.path.join(tmp, 'conv%d.onnx' % i)
            exported = torch.nn.Sequential(model.conv, torch.nn.ReLU())
            torch.onnx.export(exported, (x,), onnx_path, opset_version=13)
            set_pads(onnx_path, pads, n, h, w, f)
            failures += compiled_runs_match(
                relay_run, onnx_path, x.numpy(), want,
                'N=%d C=%d F=%d %dx%d pads %s' % (n, c, f, h, w, pads), tmp)
        for i, (c, f, h, w, dilation, n) in enumerate(DILATED_CASES):
            torch.manual_seed(50 + i)
            model = torch.nn.Sequential(
                torch.nn.Conv2d(c, f, 3, padding=dilation, dilation=dilation),
                torch.nn.ReLU()).eval()
            x = torch.randn(n, c, h, w)
            with torch.no_grad():
                want = model(x).numpy()
            onnx_path = os.path.join(tmp, 'dilated%d.onnx' % i)
            torch.onnx.export(model, (x,), onnx_path, opset_version=13)
            failures += compiled_runs_match(
                relay_run, onnx_path, x.numpy(), want,
                'N=%d C=%d F=%d %dx%d dilation %s' % (n, c, f, h, w, dilation),
                tmp)
        for i, (c, f, h, w, n) in enumerate(RUNTIME_WEIGHT_CASES):
            failures += runtime_weights_match(relay_run, c, f, h, w, n, i, tmp)
    runs = 2 * (len(CASES) + len(DILATED_CASES) + len(RUNTIME_WEIGHT_CASES))
    print('%d of %d runs failed' % (failures, runs))
    return 1 if failures else 0


def runtime_weights_match(relay_run, c, f, h, w, n, seed, tmp):
    """nn.conv2d of x [n, c, h, w] and w [f, c, 3, 3], both parameters,
    against torch at one and two threads; returns how many runs failed."""
    torch.manual_seed(100 + seed)
    x, k = torch.randn(n, c, h, w), torch.randn(f, c, 3, 3)
    want = torch.nn.functional.conv2d(x, k, padding=1).numpy()
    program = os.path.join(tmp, 'runtime%d.rly' % seed)
    with open(program, 'w') as out:
        out.write('#[version = "0.0.5"]\n'
                  'def @main(%%x: Tensor[(%d, %d, %d, %d), float32], '
                  '%%w: Tensor[(%d, %d, 3, 3), float32]) {\n'
                  '  nn.conv2d(%%x, %%w, padding=[1, 1, 1, 1])\n}\n'
                  % (n, c, h, w, f, c))
    inputs = []
    for name, value in (('x', x), ('w', k)):
        inputs += ['--input', os.path.join(tmp, name + '.npy')]
        np.save(inputs[-1], value.numpy())
    return compiled_program_runs_match(
        relay_run, [program] + inputs, want,
        'weights a parameter: N=%d C=%d F=%d %dx%d' % (n, c, f, h, w), tmp)


def set_pads(path, pads, n, h, w, f):
    """Writes `pads` into the model's Conv node and the output shape that
    follows from them (torch.onnx exports a Conv without padding here)."""
    import onnx
    model = onnx.load(path)
    for node in model.graph.node:
        if node.op_type == 'Conv':
            del node.attribute[:]
            node.attribute.extend([
                onnx.helper.make_attribute('kernel_shape', [3, 3]),
                onnx.helper.make_attribute(
                    'pads', [pads[0], pads[1], pads[2], pads[3]])])
    oh, ow = h + pads[0] + pads[2] - 2, w + pads[1] + pads[3] - 2
    del model.graph.value_info[:]
    for output in model.graph.output:
        dims = output.type.tensor_type.shape.dim
        for dim, size in zip(dims, (n, f, oh, ow)):
            dim.dim_value = size
    onnx.save(model, path)


if __name__ == '__main__':
    sys.exit(main())

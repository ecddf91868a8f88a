#!/usr/bin/python3
"""vision.roi_align against torchvision's roi_align: regions inside the
features, partly outside, beyond them and smaller than a pixel, over a
batch of two images, with and without aligned (half-pixel) corners, in
Relay text and as a torchvision model exported to ONNX (opset 16's
RoiAlign), run by relay-run through the interpreter and compiled; max
mode (TVM's maximum of the interpolated samples, which torchvision
does not have) against this file's own reference; and the adaptive grid
(sampling_ratio 0: ceil(region size / bins) points per bin side, region by
region), which runs on the interpreter (relay-run says so) in Relay text
and from ONNX.

  /usr/bin/python3 roi_align_vs_torch.py --bin build/bin
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torchvision

POOLED, SCALE, RATIO = (3, 4), 0.5, 2


def bilinear(image, y, x):
    """ONNX Runtime's and TVM's interpolation of one channel plane."""
    h, w = image.shape
    if y < -1 or y > h or x < -1 or x > w:
        return 0.0
    y, x = max(y, 0.0), max(x, 0.0)
    y0, x0 = int(y), int(x)
    if y0 >= h - 1:
        y0 = y1 = h - 1
        y = float(y0)
    else:
        y1 = y0 + 1
    if x0 >= w - 1:
        x0 = x1 = w - 1
        x = float(x0)
    else:
        x1 = x0 + 1
    ly, lx = y - y0, x - x0
    return ((1 - ly) * (1 - lx) * image[y0, x0] + (1 - ly) * lx * image[y0, x1]
            + ly * (1 - lx) * image[y1, x0] + ly * lx * image[y1, x1])


def reference(x, rois, aligned, mode):
    ph, pw = POOLED
    out = np.zeros((len(rois), x.shape[1], ph, pw), np.float64)
    offset = 0.5 if aligned else 0.0
    for r, (b, x1, y1, x2, y2) in enumerate(rois.astype(np.float64)):
        x1, y1 = x1 * SCALE - offset, y1 * SCALE - offset
        width, height = x2 * SCALE - offset - x1, y2 * SCALE - offset - y1
        if not aligned:
            width, height = max(width, 1.0), max(height, 1.0)
        for c in range(x.shape[1]):
            for i in range(ph):
                for j in range(pw):
                    points = [
                        bilinear(x[int(b), c],
                                 y1 + (i + (iy + 0.5) / RATIO) * height / ph,
                                 x1 + (j + (ix + 0.5) / RATIO) * width / pw)
                        for iy in range(RATIO) for ix in range(RATIO)]
                    out[r, c, i, j] = (np.mean(points) if mode == 'avg'
                                       else np.max(points))
    return out.astype(np.float32)


def write_program(path, ratio, mode, aligned):
    """A Relay program of one vision.roi_align over this file's shapes."""
    with open(path, 'w') as f:
        f.write('#[version = "0.0.5"]\n'
                'def @main(%%x: Tensor[(2, 3, 12, 10), float32], '
                '%%rois: Tensor[(5, 5), float32]) {\n'
                '  vision.roi_align(%%x, %%rois, pooled_size=[%d, %d], '
                'spatial_scale=%sf, sample_ratio=%d, mode="%s", '
                'aligned=%s)\n}\n' % (POOLED + (SCALE, ratio, mode, aligned)))


class RoiAlign(torch.nn.Module):
    def __init__(self, aligned, ratio=RATIO):
        super().__init__()
        self.aligned = aligned
        self.ratio = ratio

    def forward(self, x, rois):
        return torchvision.ops.roi_align(x, rois, POOLED, SCALE, self.ratio,
                                         self.aligned)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', required=True)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 12, 10)).astype(np.float32)
    rois = np.array([[0, 1.0, 1.0, 15.0, 19.0],    # inside
                     [1, -6.0, 3.0, 9.0, 30.0],    # partly outside
                     [1, 3.5, 2.25, 4.0, 2.5],     # under a pixel
                     [0, 26.0, 30.0, 40.0, 44.0],  # beyond the features
                     [1, 12.0, 0.0, 21.0, 23.0]], np.float32)
    failures = 0
    relay_run = os.path.join(args.bin, 'relay-run')
    with tempfile.TemporaryDirectory() as tmp:
        xs, rs = os.path.join(tmp, 'x.npy'), os.path.join(tmp, 'rois.npy')
        np.save(xs, x)
        np.save(rs, rois)
        cases = []
        for aligned in (False, True):
            want = torchvision.ops.roi_align(
                torch.from_numpy(x), torch.from_numpy(rois), POOLED, SCALE,
                RATIO, aligned).numpy()
            # The reference agrees with torchvision where both are defined.
            assert np.allclose(reference(x, rois, aligned, 'avg'), want,
                               atol=1e-5)
            for mode in ('avg', 'max'):
                program = os.path.join(tmp, 'roi_%s_%s.rly' % (aligned, mode))
                write_program(program, RATIO, mode, aligned)
                cases.append(('Relay text, aligned=%s, %s' % (aligned, mode),
                              program,
                              want if mode == 'avg'
                              else reference(x, rois, aligned, 'max')))
            model = os.path.join(tmp, 'roi_%s.onnx' % aligned)
            if aligned:
                # torchvision exports aligned corners at opset 16 only.
                torch.onnx.export(RoiAlign(aligned),
                                  (torch.from_numpy(x), torch.from_numpy(rois)),
                                  model, opset_version=16)
                cases.append(('ONNX, aligned=%s' % aligned, model, want))
            else:
                torch.onnx.export(RoiAlign(aligned),
                                  (torch.from_numpy(x), torch.from_numpy(rois)),
                                  model, opset_version=11)
                cases.append(('ONNX opset 11, aligned=%s' % aligned, model,
                              want))
        # The adaptive grid: interpreted (compiled code has fixed sizes).
        adaptive = set()
        for aligned in (False, True):
            want = torchvision.ops.roi_align(
                torch.from_numpy(x), torch.from_numpy(rois), POOLED, SCALE,
                0, aligned).numpy()
            program = os.path.join(tmp, 'roi_adaptive_%s.rly' % aligned)
            write_program(program, 0, 'avg', aligned)
            what = 'Relay text, adaptive grid, aligned=%s' % aligned
            cases.append((what, program, want))
            adaptive.add(what)
            if aligned:
                model = os.path.join(tmp, 'roi_adaptive.onnx')
                torch.onnx.export(RoiAlign(aligned, ratio=0),
                                  (torch.from_numpy(x), torch.from_numpy(rois)),
                                  model, opset_version=16)
                what = 'ONNX, adaptive grid, aligned=%s' % aligned
                cases.append((what, model, want))
                adaptive.add(what)
        for what, program, want in cases:
            for extra in ([], ['--interp']):
                out = os.path.join(tmp, 'y.npy')
                proc = subprocess.run(
                    [relay_run, program, '--input', xs, '--input', rs,
                     '--output', out] + extra, capture_output=True, text=True)
                mode = 'interpreter' if extra else 'compiled'
                interpreted = 'reference interpreter' in proc.stderr
                if proc.returncode != 0 or (
                        not extra and interpreted != (what in adaptive)):
                    failures += 1
                    print('FAIL %s (%s): %s' % (what, mode, proc.stderr))
                    continue
                got = np.load(out)
                if got.shape != want.shape or not np.allclose(got, want,
                                                              atol=1e-5):
                    failures += 1
                    print('FAIL %s (%s): max abs difference %s' % (
                        what, mode, np.max(np.abs(got - want))
                        if got.shape == want.shape else got.shape))
                else:
                    print('ok   %s (%s)' % (what, mode))
    if failures:
        sys.exit('%d case(s) differ from torchvision' % failures)


if __name__ == '__main__':
    main()

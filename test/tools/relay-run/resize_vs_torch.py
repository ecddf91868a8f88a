#!/usr/bin/python3
"""image.resize2d against PyTorch's interpolate (bilinear and bicubic with
and without aligned corners, up and down; nearest and nearest-exact), in
NCHW and NHWC; and image.resize1d/2d/3d with channels last (NWC, NHWC,
NDHWC, HWCN) against the same resize channels first, crops with an
extrapolation value included. Each run by relay-run through the
interpreter and compiled.

  /usr/bin/python3 resize_vs_torch.py --bin build/bin
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torch.nn.functional as F

# (method, coordinate mode, rounding, cubic alpha, size, torch mode,
#  align_corners)
CASES = [
    ('linear', 'half_pixel', '', -0.5, (8, 11), 'bilinear', False),
    ('linear', 'align_corners', '', -0.5, (8, 11), 'bilinear', True),
    ('linear', 'half_pixel', '', -0.5, (3, 4), 'bilinear', False),
    ('cubic', 'half_pixel', '', -0.75, (8, 11), 'bicubic', False),
    ('cubic', 'align_corners', '', -0.75, (9, 3), 'bicubic', True),
    ('nearest_neighbor', 'asymmetric', 'floor', -0.5, (8, 11), 'nearest', None),
    ('nearest_neighbor', 'tf_half_pixel_for_nn', 'floor', -0.5, (8, 3),
     'nearest-exact', None),
]

# (operator, channels-first layout, another layout, input shape channels
#  first, attributes): the other layout's result must be the first's with
# its axes moved.
LAYOUT_CASES = [
    ('image.resize1d', 'NCW', 'NWC', (2, 3, 7),
     'size=[11], method="cubic"'),
    ('image.resize1d', 'NCW', 'NWC', (1, 2, 9),
     'size=[5], coordinate_transformation_mode="tf_crop_and_resize", '
     'roi=[-0.2f, 1.1f], extrapolation_value=-3f'),
    ('image.resize2d', 'NCHW', 'NHWC', (1, 3, 5, 6),
     'size=[7, 4], coordinate_transformation_mode="tf_crop_and_resize", '
     'roi=[0.1f, -0.3f, 1.2f, 0.8f], extrapolation_value=2f'),
    ('image.resize2d', 'NCHW', 'HWCN', (2, 3, 4, 5),
     'size=[6, 3], method="nearest_neighbor"'),
    ('image.resize3d', 'NCDHW', 'NDHWC', (1, 2, 3, 4, 5),
     'size=[2, 6, 7], coordinate_transformation_mode="align_corners"'),
    ('image.resize3d', 'NCDHW', 'NDHWC', (2, 2, 3, 2, 4),
     'size=[4, 3, 5], coordinate_transformation_mode="tf_crop_and_resize", '
     'roi=[0f, 0.2f, -0.1f, 1f, 0.9f, 1.3f], extrapolation_value=0.5f'),
]


def run(bin_dir, tmp, program_text, x):
    """The program's result on x, compiled and interpreted: a list of
    (how, array or error text)."""
    program = os.path.join(tmp, 'resize.rly')
    with open(program, 'w') as f:
        f.write(program_text)
    np.save(os.path.join(tmp, 'x.npy'), x)
    results = []
    for extra in ([], ['--interp']):
        how = 'interpreter' if extra else 'compiled'
        proc = subprocess.run(
            [os.path.join(bin_dir, 'relay-run'), program, '--input',
             os.path.join(tmp, 'x.npy'), '--output',
             os.path.join(tmp, 'y.npy')] + extra,
            capture_output=True, text=True)
        if proc.returncode != 0 or (
                not extra and 'reference interpreter' in proc.stderr):
            results.append((how, proc.stderr.strip()[-300:]))
        else:
            results.append((how, np.load(os.path.join(tmp, 'y.npy'))))
    return results


def program(op, shape, attrs):
    dims = ', '.join(str(d) for d in shape)
    return ('#[version = "0.0.5"]\n'
            'def @main(%%x: Tensor[(%s), float32]) {\n'
            '  %s(%%x, %s)\n}\n' % (dims, op, attrs))


def check(what, results, want):
    failures = 0
    for how, got in results:
        if isinstance(got, str):
            print(what, how, 'FAILED:', got)
            failures += 1
            continue
        ok = got.shape == want.shape and np.allclose(
            got, want, rtol=1e-5, atol=1e-5)
        failures += not ok
        print(what, how, 'matches' if ok else 'DIFFERS')
    return failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', required=True)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 2, 5, 7)).astype(np.float32)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for method, coords, rounding, alpha, size, mode, aligned in CASES:
            kwargs = {} if aligned is None else {'align_corners': aligned}
            want = F.interpolate(torch.from_numpy(x), size=size, mode=mode,
                                 **kwargs).numpy()
            attrs = ('size=[%d, %d], method="%s", '
                     'coordinate_transformation_mode="%s", '
                     'rounding_method="%s", cubic_alpha=%ff' % (
                         size[0], size[1], method, coords, rounding, alpha))
            what = '%s %s %s' % (method, coords, size)
            failures += check(
                what + ' NCHW (PyTorch)',
                run(args.bin, tmp, program('image.resize2d', x.shape, attrs),
                    x), want)
            nhwc = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
            failures += check(
                what + ' NHWC (PyTorch)',
                run(args.bin, tmp,
                    program('image.resize2d', nhwc.shape,
                            attrs + ', layout="NHWC"'), nhwc),
                want.transpose(0, 2, 3, 1))
        for op, first, other, shape, attrs in LAYOUT_CASES:
            data = rng.standard_normal(shape).astype(np.float32)
            reference = run(args.bin, tmp, program(op, shape, attrs), data)
            what = '%s %s %s' % (op, other, attrs)
            if isinstance(reference[1][1], str):
                print(what, 'the', first, 'run FAILED:', reference[1][1])
                failures += 1
                continue
            perm = [first.index(c) for c in other]
            moved = np.ascontiguousarray(data.transpose(perm))
            failures += check(
                what + ' (as ' + first + ')',
                run(args.bin, tmp,
                    program(op, moved.shape, attrs + ', layout="%s"' % other),
                    moved),
                reference[1][1].transpose(perm))
    print('%d failures' % failures)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

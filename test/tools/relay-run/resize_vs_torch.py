#!/usr/bin/python3
"""image.resize2d against PyTorch's interpolate (bilinear and bicubic with
and without aligned corners, up and down; nearest and nearest-exact), run
by relay-run through the interpreter and compiled.

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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', required=True)
    args = parser.parse_args()
    x = np.random.default_rng(0).standard_normal((1, 2, 5, 7)).astype(
        np.float32)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        np.save(os.path.join(tmp, 'x.npy'), x)
        for method, coords, rounding, alpha, size, mode, aligned in CASES:
            kwargs = {} if aligned is None else {'align_corners': aligned}
            want = F.interpolate(torch.from_numpy(x), size=size, mode=mode,
                                 **kwargs).numpy()
            program = os.path.join(tmp, 'resize.rly')
            with open(program, 'w') as f:
                f.write('#[version = "0.0.5"]\n'
                        'def @main(%%x: Tensor[(1, 2, 5, 7), float32]) {\n'
                        '  image.resize2d(%%x, size=[%d, %d], method="%s", '
                        'coordinate_transformation_mode="%s", '
                        'rounding_method="%s", cubic_alpha=%ff)\n}\n' % (
                            size[0], size[1], method, coords, rounding, alpha))
            for extra in ([], ['--interp']):
                proc = subprocess.run(
                    [os.path.join(args.bin, 'relay-run'), program, '--input',
                     os.path.join(tmp, 'x.npy'), '--output',
                     os.path.join(tmp, 'y.npy')] + extra,
                    capture_output=True, text=True)
                what = '%s %s %s %s' % (method, coords, size,
                                        'interpreter' if extra else 'compiled')
                if proc.returncode != 0 or (
                        not extra and 'reference interpreter' in proc.stderr):
                    failures += 1
                    print(what, 'FAILED:', proc.stderr.strip()[-300:])
                    continue
                got = np.load(os.path.join(tmp, 'y.npy'))
                ok = got.shape == want.shape and np.allclose(
                    got, want, rtol=1e-5, atol=1e-5)
                failures += not ok
                print(what, 'matches PyTorch' if ok else 'DIFFERS')
    print('%d failures' % failures)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

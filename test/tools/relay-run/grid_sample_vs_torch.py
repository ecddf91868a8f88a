#!/usr/bin/python3
"""image.grid_sample against PyTorch's grid_sample: bilinear, nearest and
bicubic, each with zeros, border and reflection padding, with and without
aligned corners, on a grid reaching past the image, run by relay-run
through the interpreter and compiled.

  /usr/bin/python3 grid_sample_vs_torch.py --bin build/bin
"""
import argparse
import itertools
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torch.nn.functional as F


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', required=True)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 5, 7)).astype(np.float32)
    # [N, H_out, W_out, 2] as PyTorch takes it; TVM's operator takes
    # [N, 2, H_out, W_out].
    grid = rng.uniform(-1.4, 1.4, (2, 4, 6, 2)).astype(np.float32)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        np.save(os.path.join(tmp, 'x.npy'), x)
        np.save(os.path.join(tmp, 'g.npy'), grid.transpose(0, 3, 1, 2).copy())
        for method, padding, align in itertools.product(
                ('bilinear', 'nearest', 'bicubic'),
                ('zeros', 'border', 'reflection'), (False, True)):
            want = F.grid_sample(torch.from_numpy(x), torch.from_numpy(grid),
                                 mode=method, padding_mode=padding,
                                 align_corners=align).numpy()
            program = os.path.join(tmp, 'sample.rly')
            with open(program, 'w') as f:
                f.write('#[version = "0.0.5"]\n'
                        'def @main(%%x: Tensor[(2, 3, 5, 7), float32], '
                        '%%g: Tensor[(2, 2, 4, 6), float32]) {\n'
                        '  image.grid_sample(%%x, %%g, method="%s", '
                        'padding_mode="%s", align_corners=%s)\n}\n' % (
                            method, padding, 'True' if align else 'False'))
            for extra in ([], ['--interp']):
                proc = subprocess.run(
                    [os.path.join(args.bin, 'relay-run'), program, '--input',
                     os.path.join(tmp, 'x.npy'), '--input',
                     os.path.join(tmp, 'g.npy'), '--output',
                     os.path.join(tmp, 'y.npy')] + extra,
                    capture_output=True, text=True)
                what = '%s %s align_corners=%s %s' % (
                    method, padding, align,
                    'interpreter' if extra else 'compiled')
                if proc.returncode != 0 or (
                        not extra and 'reference interpreter' in proc.stderr):
                    failures += 1
                    print(what, 'FAILED:', proc.stderr.strip()[-300:])
                    continue
                got = np.load(os.path.join(tmp, 'y.npy'))
                ok = got.shape == want.shape and np.allclose(
                    got, want, rtol=1e-4, atol=1e-5)
                failures += not ok
                print(what, 'matches PyTorch' if ok else 'DIFFERS (%g)' % (
                    np.abs(got - want).max() if got.shape == want.shape
                    else float('nan')))
    print('%d failures' % failures)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

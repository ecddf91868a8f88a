#!/usr/bin/python3
"""Checks max pooling's gradient where windows hold several equal maxima
(plateaus of ones, zeros after a ReLU, a padded corner of negatives): each
window's gradient goes to its first maximum in row-major order, as in
PyTorch. Tiling (2x2, stride 2) and overlapping (3x3, stride 2, padding 1)
windows, and an adaptive max pool's overlapping uneven bins (6 to 4 and 6
to 5), NCHW.

  pool_ties_vs_torch.py RELAY_RUN TMPDIR
"""
import os
import subprocess
import sys

import numpy as np
import torch

PROGRAM = '''#[version = "0.0.5"]
def @main(%x: Tensor[(1, 2, 6, 6), float32]) -> float32 {
  %0 = nn.max_pool2d(%x, pool_size=[2, 2], strides=[2, 2]);
  %1 = nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1]);
  %2 = nn.adaptive_max_pool2d(%x, output_size=[4, 5]);
  add(add(sum(%0), sum(multiply(%1, %1))), sum(multiply(%2, %2)))
}
'''


def main():
    relay_run, tmp = sys.argv[1:3]
    os.makedirs(tmp, exist_ok=True)
    x = np.zeros((1, 2, 6, 6), np.float32)
    x[0, 0, :3, :3] = 1.0
    x[0, 1, 1, 1] = 2.0
    x[0, 1, 4:, 4:] = -1.0
    program = os.path.join(tmp, 'ties.rly')
    with open(program, 'w') as f:
        f.write(PROGRAM)
    np.save(os.path.join(tmp, 'x.npy'), x)
    subprocess.run([relay_run, '--gradient', program, '--input',
                    os.path.join(tmp, 'x.npy'), '--output',
                    os.path.join(tmp, 'g.npy')], check=True)
    got = np.load(os.path.join(tmp, 'g.1.0.npy'))
    t = torch.tensor(x, requires_grad=True)
    y0 = torch.nn.functional.max_pool2d(t, 2, 2)
    y1 = torch.nn.functional.max_pool2d(t, 3, 2, 1)
    y2 = torch.nn.functional.adaptive_max_pool2d(t, (4, 5))
    (y0.sum() + (y1 * y1).sum() + (y2 * y2).sum()).backward()
    ok = np.array_equal(got, t.grad.numpy())
    print('matches torch' if ok else 'DIFFERS:\n%s\n%s' % (got, t.grad))
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()

#!/usr/bin/python3
"""Checks relay-run --gradient on Inputs/gradient/mlp.rly against PyTorch's
autograd of the same loss, on the same random inputs, to 1e-4 relative.

  gradient_vs_torch.py RELAY_RUN MLP.rly TMPDIR
"""
import os
import subprocess
import sys

import numpy as np
import torch


def main():
    relay_run, program, tmp = sys.argv[1:4]
    os.makedirs(tmp, exist_ok=True)
    rng = np.random.default_rng(3)
    shapes = [(1, 8), (4, 8), (4,), (2, 4), (2,), (1, 2)]
    inputs = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    cmd = [relay_run, '--gradient', program, '--output',
           os.path.join(tmp, 'g.npy')]
    for i, x in enumerate(inputs):
        path = os.path.join(tmp, 'x%d.npy' % i)
        np.save(path, x)
        cmd += ['--input', path]
    subprocess.run(cmd, check=True, capture_output=True)
    value = np.load(os.path.join(tmp, 'g.0.npy'))
    grads = [np.load(os.path.join(tmp, 'g.1.%d.npy' % i))
             for i in range(len(inputs))]

    x, w1, b1, w2, b2, target = [torch.tensor(a, requires_grad=True)
                                 for a in inputs]
    h = torch.tanh(x @ w1.T + b1)
    y = h @ w2.T + b2
    loss = ((y - target) ** 2).mean()
    loss.backward()
    expected = [t.grad.numpy() for t in (x, w1, b1, w2, b2, target)]
    ok = np.allclose(value, loss.detach().numpy(), rtol=1e-4, atol=1e-6)
    for i, (g, e) in enumerate(zip(grads, expected)):
        if not np.allclose(g, e, rtol=1e-4, atol=1e-6):
            print('parameter %d: max difference %g' % (
                i, np.max(np.abs(g - e))))
            ok = False
    print('matches torch' if ok else 'DIFFERS')
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()

#!/usr/bin/python3
"""Checks relay-run --gradient on the programs of Inputs/gradient against
PyTorch's autograd of the same loss, on the same random inputs, to 1e-4
relative.

  gradient_vs_torch.py RELAY_RUN (mlp|cnn) PROGRAM TMPDIR

PROGRAM is the .rly program (run with --gradient) or an .mlir module holding
its gradient already (its @main_grad is run).
"""
import os
import subprocess
import sys

import numpy as np
import torch


def mlp(x, w1, b1, w2, b2, target):
    h = torch.tanh(x @ w1.T + b1)
    y = h @ w2.T + b2
    return ((y - target) ** 2).mean()


def cnn(x, w, gamma, beta, mean, var, wd, bd, target):
    c = torch.nn.functional.conv2d(x, w, padding=1)
    shape = (1, -1, 1, 1)
    n = (c - mean.reshape(shape)) / torch.sqrt(var.reshape(shape) + 1e-5)
    r = torch.relu(n * gamma.reshape(shape) + beta.reshape(shape))
    p = r.mean(dim=(2, 3))
    logp = torch.log_softmax(p @ wd.T + bd, dim=-1)
    return -(target * logp).sum()


MODELS = {
    'mlp': (mlp, [(1, 8), (4, 8), (4,), (2, 4), (2,), (1, 2)], []),
    # the variance (index 5) positive
    'cnn': (cnn, [(2, 3, 8, 8), (4, 3, 3, 3), (4,), (4,), (4,), (4,), (5, 4),
                  (5,), (2, 5)], [5]),
}


def main():
    relay_run, model, program, tmp = sys.argv[1:5]
    loss_fn, shapes, positive = MODELS[model]
    os.makedirs(tmp, exist_ok=True)
    rng = np.random.default_rng(3)
    inputs = [(rng.uniform(0.5, 2.0, s) if i in positive else
               rng.standard_normal(s)).astype(np.float32)
              for i, s in enumerate(shapes)]
    run = (['--entry', 'main_grad'] if program.endswith('.mlir') else
           ['--gradient'])
    cmd = [relay_run] + run + [program, '--output', os.path.join(tmp, 'g.npy')]
    for i, x in enumerate(inputs):
        path = os.path.join(tmp, 'x%d.npy' % i)
        np.save(path, x)
        cmd += ['--input', path]
    subprocess.run(cmd, check=True, capture_output=True)
    value = np.load(os.path.join(tmp, 'g.0.npy'))
    grads = [np.load(os.path.join(tmp, 'g.1.%d.npy' % i))
             for i in range(len(inputs))]

    tensors = [torch.tensor(a, requires_grad=True) for a in inputs]
    loss = loss_fn(*tensors)
    loss.backward()
    expected = [t.grad.numpy() for t in tensors]
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

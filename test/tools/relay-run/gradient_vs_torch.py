#!/usr/bin/python3
"""Checks relay-run --gradient on the programs of Inputs/gradient against
PyTorch's autograd of the same loss, on the same random inputs, to 1e-4
relative (elementwise for the small networks; for ResNet-18, whose float32
sums run in another order, of each gradient's norm).

  gradient_vs_torch.py RELAY_RUN (mlp|cnn|resnet18|lstm|treelstm) PROGRAM TMPDIR

PROGRAM is the .rly program (run with --gradient) or an .mlir module holding
its gradient already (its @main_grad is run). For resnet18 it is
examples/models/relay_resnet.py's program for batch 2, 64x64 images and 10
classes, checked against torchvision's resnet18 in eval mode with the same
weights (gradients of the batch norm statistics, which PyTorch does not
differentiate, are not compared). lstm and treelstm are
examples/workloads' programs, whose result (h, c) is seeded by ones: checked
against torch.nn.LSTM and the child-sum TreeLSTM written in PyTorch.
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


RESNET_CLASSES = 10


def resnet18_names():
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', '..',
                                    'examples', 'models'))
    import relay_resnet
    return relay_resnet.parameter_shapes(RESNET_CLASSES)


def resnet18(x, *rest):
    import torchvision
    model = torchvision.models.resnet18(num_classes=RESNET_CLASSES).eval()
    names = [name for name, _ in resnet18_names()]
    weights = dict(zip(names, rest[:-1]))
    from torch.nn.utils import stateless
    logits = stateless.functional_call(model, weights, (x,))
    return -(rest[-1] * torch.log_softmax(logits, dim=-1)).sum()


def resnet18_inputs(rng):
    """Weights at PyTorch's scale (fan-in), statistics near 0 and 1."""
    inputs = [rng.standard_normal((2, 3, 64, 64))]
    for name, shape in resnet18_names():
        if name.endswith('running_var'):
            inputs.append(rng.uniform(0.5, 2.0, shape))
        elif name.endswith('running_mean') or name.endswith('bias'):
            inputs.append(0.1 * rng.standard_normal(shape))
        elif len(shape) == 1:
            inputs.append(rng.uniform(0.5, 1.5, shape))
        else:
            fan_in = np.prod(shape[1:])
            inputs.append(rng.standard_normal(shape) * np.sqrt(2.0 / fan_in))
    target = np.zeros((2, RESNET_CLASSES))
    target[0, 3] = target[1, 7] = 1
    inputs.append(target)
    return [x.astype(np.float32) for x in inputs]


def lstm(xs, h0, c0, w_ih, w_hh, b_ih, b_hh):
    """torch.nn.LSTM(64, 128)'s kernel on these weights (what its forward
    calls with its flat weights; functional_call's replaced parameters do
    not reach it in every PyTorch)."""
    _, h, c = torch._VF.lstm(xs, (h0.unsqueeze(0), c0.unsqueeze(0)),
                             [w_ih, w_hh, b_ih, b_hh], True, 1, 0.0, False,
                             False, False)
    return h[0], c[0]


def lstm_inputs(rng):
    scale = 1 / np.sqrt(128)
    shapes = [(512, 64), (512, 128), (512,), (512,)]
    inputs = [rng.standard_normal((32, 1, 64)),
              0.1 * rng.standard_normal((1, 128)),
              0.1 * rng.standard_normal((1, 128))]
    inputs += [rng.uniform(-scale, scale, s) for s in shapes]
    return [x.astype(np.float32) for x in inputs]


def treelstm(words, w, u, b):
    """examples/workloads/treelstm.rly's tree and cell."""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', '..',
                                    'examples', 'workloads'))
    import treelstm_torch
    return treelstm_torch.treelstm(words, w, u, b)


def treelstm_inputs(rng):
    inputs = [rng.standard_normal((7, 1, 32)),
              rng.uniform(-0.2, 0.2, (256, 32)),
              rng.uniform(-0.2, 0.2, (256, 64)),
              rng.uniform(-0.1, 0.1, 256)]
    return [x.astype(np.float32) for x in inputs]


MODELS = {
    'mlp': (mlp, [(1, 8), (4, 8), (4,), (2, 4), (2,), (1, 2)], []),
    # the variance (index 5) positive
    'cnn': (cnn, [(2, 3, 8, 8), (4, 3, 3, 3), (4,), (4,), (4,), (4,), (5, 4),
                  (5,), (2, 5)], [5]),
}


def main():
    relay_run, model, program, tmp = sys.argv[1:5]
    os.makedirs(tmp, exist_ok=True)
    for name in os.listdir(tmp):  # an earlier model's results
        if name.startswith('g.'):
            os.remove(os.path.join(tmp, name))
    rng = np.random.default_rng(3)
    if model == 'resnet18':
        loss_fn, inputs, normwise = resnet18, resnet18_inputs(rng), True
    elif model in ('lstm', 'treelstm'):
        loss_fn, normwise = globals()[model], False
        inputs = globals()[model + '_inputs'](rng)
    else:
        loss_fn, shapes, positive = MODELS[model]
        normwise = False
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
    single = os.path.join(tmp, 'g.0.npy')
    values = ([np.load(single)] if os.path.exists(single) else
              [np.load(os.path.join(tmp, 'g.0.%d.npy' % k)) for k in range(2)])
    grads = [np.load(os.path.join(tmp, 'g.1.%d.npy' % i))
             for i in range(len(inputs))]

    frozen = set()
    if model == 'resnet18':  # the batch norm statistics
        frozen = {1 + i for i, (name, _) in enumerate(resnet18_names())
                  if 'running' in name}
    tensors = [torch.tensor(a, requires_grad=i not in frozen)
               for i, a in enumerate(inputs)]
    outputs = loss_fn(*tensors)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    sum(o.sum() for o in outputs).backward()  # every result seeded by ones
    expected = [None if t.grad is None else t.grad.numpy() for t in tensors]
    ok = len(values) == len(outputs) and all(
        np.allclose(v, o.detach().numpy(), rtol=1e-4, atol=1e-6)
        for v, o in zip(values, outputs))
    for i, (g, e) in enumerate(zip(grads, expected)):
        if e is None:
            continue
        if normwise:
            error = np.linalg.norm(g - e) / max(np.linalg.norm(e), 1e-30)
            if error > 1e-4:
                print('parameter %d: relative error %g' % (i, error))
                ok = False
        elif not np.allclose(g, e, rtol=1e-4, atol=1e-6):
            print('parameter %d: max difference %g' % (
                i, np.max(np.abs(g - e))))
            ok = False
    print('matches torch' if ok else 'DIFFERS')
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()

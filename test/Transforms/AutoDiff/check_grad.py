#!/usr/bin/python3
"""Checks `@<func>_grad` of a program against two-sided finite differences
of `@<func>`, both run on relay-run's reference interpreter (TVM's
check_grad: the gradient of sum(func(x...)), the result seeded by ones).

  check_grad.py RELAY_RUN PROGRAM [--func main] [--seed 0] [--positive]
      [--eps 1e-6] [--rtol 1e-4] [--atol 1e-6]

The inputs are float64 (so that differences of 1e-6 resolve) drawn from a
normal distribution, or a uniform one on [0.5, 2] with --positive (for log,
sqrt). Exits 1 naming the parameter and element that disagree.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np


def run(relay_run, program, entry, inputs, tmp):
    paths = []
    for i, x in enumerate(inputs):
        path = os.path.join(tmp, 'in%d.npy' % i)
        np.save(path, x)
        paths.append(path)
    out = os.path.join(tmp, 'out.npy')
    for name in os.listdir(tmp):
        if name.startswith('out.'):
            os.remove(os.path.join(tmp, name))
    cmd = [relay_run, '--interp', program, '--entry', entry, '--output', out]
    for p in paths:
        cmd += ['--input', p]
    subprocess.run(cmd, check=True, capture_output=True)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('relay_run')
    parser.add_argument('program')
    parser.add_argument('--func', default='main')
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--positive', action='store_true')
    parser.add_argument('--eps', type=float, default=1e-6)
    parser.add_argument('--rtol', type=float, default=1e-4)
    parser.add_argument('--atol', type=float, default=1e-6)
    args = parser.parse_args()
    text = open(args.program).read()
    signature = re.search(r'relay\.func @%s\((.*?)\) ->' % re.escape(args.func),
                          text).group(1)
    shapes = []
    for dims in re.findall(r'tensor<([0-9x]*)f64>', signature):
        shapes.append([int(d) for d in dims.split('x') if d] if dims else [])
    rng = np.random.default_rng(args.seed)
    inputs = [rng.uniform(0.5, 2.0, s) if args.positive else
              rng.standard_normal(s) for s in shapes]
    with tempfile.TemporaryDirectory() as tmp:
        out = run(args.relay_run, args.program, args.func + '_grad', inputs,
                  tmp)
        grads = [np.load(out.replace('.npy', '.1.%d.npy' % i))
                 for i in range(len(inputs))]

        def total(xs):
            out = run(args.relay_run, args.program, args.func, xs, tmp)
            if os.path.exists(out):
                return float(np.sum(np.load(out)))
            fields, i = 0.0, 0
            while os.path.exists(out.replace('.npy', '.%d.npy' % i)):
                fields += float(np.sum(np.load(
                    out.replace('.npy', '.%d.npy' % i))))
                i += 1
            return fields

        for p, x in enumerate(inputs):
            for index in np.ndindex(*x.shape):
                up = [y.copy() for y in inputs]
                down = [y.copy() for y in inputs]
                up[p][index] += args.eps
                down[p][index] -= args.eps
                numeric = (total(up) - total(down)) / (2 * args.eps)
                analytic = grads[p][index]
                if abs(numeric - analytic) > args.atol + args.rtol * abs(
                        numeric):
                    print('parameter %d element %s: gradient %.10g, finite '
                          'differences %.10g' % (p, index, analytic, numeric))
                    sys.exit(1)
    print('ok: %d parameters' % len(inputs))


if __name__ == '__main__':
    main()

#!/usr/bin/python3
"""Checks `@<func>_grad` of a program against two-sided finite differences
of `@<func>`, both run on relay-run's reference interpreter (TVM's
check_grad: the gradient of sum(func(x...)), the result seeded by ones).

  check_grad.py RELAY_RUN PROGRAM [--func main] [--seed 0] [--positive]
      [--eps 1e-6] [--rtol 1e-4] [--atol 1e-6] [--elements N]

The inputs are float64 (so that differences of 1e-6 resolve) drawn from a
normal distribution, or a uniform one on [0.5, 2] with --positive (for log,
sqrt). --elements N checks N elements of each parameter drawn at random
(for large programs) instead of all of them. Exits 1 naming the parameter and element that disagree.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np


def run(relay_run, program, entry, samples, tmp):
    """Runs `entry` on each list of inputs in `samples` (one relay-run over
    a --samples directory); returns the output directory, which holds
    NNNNNNN.npy for a tensor result of sample N, NNNNNNN.0.npy, ... for a
    tuple's fields (NNNNNNN.1.0.npy for a field of a field)."""
    for name in ('samples', 'out'):
        shutil.rmtree(os.path.join(tmp, name), ignore_errors=True)
    folder = os.path.join(tmp, 'samples')
    os.mkdir(folder)
    for s, inputs in enumerate(samples):
        if len(inputs) == 1:
            np.save(os.path.join(folder, '%07d.npy' % s), inputs[0])
            continue
        sub = os.path.join(folder, '%07d' % s)
        os.mkdir(sub)
        for i, x in enumerate(inputs):
            np.save(os.path.join(sub, 'in%04d.npy' % i), x)
    out = os.path.join(tmp, 'out')
    done = subprocess.run([relay_run, '--interp', program, '--entry', entry,
                           '--samples', folder, '--output', out],
                          capture_output=True, text=True)
    if done.returncode:
        print('relay-run @%s failed:\n%s' % (entry, done.stderr))
        sys.exit(1)
    return out


def totals(out, count):
    """The sum of every element of each of `count` results in `out`."""
    sums = [0.0] * count
    for name in os.listdir(out):
        sums[int(name[:7])] += float(np.sum(np.load(os.path.join(out, name))))
    return sums


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
    parser.add_argument('--elements', type=int, default=0)
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
        out = run(args.relay_run, args.program, args.func + '_grad',
                  [inputs], tmp)
        # (value, (d/dx1, ...)).
        grads = [np.load(os.path.join(out, '0000000.1.%d.npy' % i))
                 for i in range(len(inputs))]
        # Every perturbation (up and down of each element) in one run.
        perturbed, where = [], []
        for p, x in enumerate(inputs):
            indices = list(np.ndindex(*x.shape))
            if 0 < args.elements < len(indices):
                picked = rng.choice(len(indices), args.elements, replace=False)
                indices = [indices[i] for i in sorted(picked)]
            for index in indices:
                for sign in (1, -1):
                    xs = [y.copy() for y in inputs]
                    xs[p][index] += sign * args.eps
                    perturbed.append(xs)
                where.append((p, index))
        sums = totals(run(args.relay_run, args.program, args.func, perturbed,
                          tmp), len(perturbed))
        for i, (p, index) in enumerate(where):
            numeric = (sums[2 * i] - sums[2 * i + 1]) / (2 * args.eps)
            analytic = grads[p][index]
            if abs(numeric - analytic) > args.atol + args.rtol * abs(numeric):
                print('parameter %d element %s: gradient %.10g, finite '
                      'differences %.10g' % (p, index, analytic, numeric))
                sys.exit(1)
    print('ok: %d parameters' % len(inputs))


if __name__ == '__main__':
    main()

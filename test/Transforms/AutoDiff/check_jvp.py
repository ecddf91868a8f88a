#!/usr/bin/python3
"""Checks `@<func>_jvp` of a program against two-sided finite differences
of `@<func>` along the same tangents, both run on relay-run's reference
interpreter: the tangent of every output element must match
(f(x + eps v) - f(x - eps v)) / (2 eps).

  check_jvp.py RELAY_RUN PROGRAM [--func main] [--seed 0] [--positive]
      [--eps 1e-6] [--rtol 1e-4] [--atol 1e-6]

Inputs and tangents are float64, drawn as in check_grad.py. Over a
gradient (--func main_grad) the tangent holds Hessian-vector products.
Exits 1 naming the output element that disagrees.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np


def run(relay_run, program, entry, inputs, tmp):
    """Runs `entry`; returns its outputs by their index path ('' for a
    tensor result, '0.1' for field 1 of field 0)."""
    for name in os.listdir(tmp):
        os.remove(os.path.join(tmp, name))
    cmd = [relay_run, '--interp', program, '--entry', entry, '--output',
           os.path.join(tmp, 'out.npy')]
    for i, x in enumerate(inputs):
        path = os.path.join(tmp, 'in%d.npy' % i)
        np.save(path, x)
        cmd += ['--input', path]
    subprocess.run(cmd, check=True, capture_output=True)
    outputs = {}
    for name in os.listdir(tmp):
        m = re.fullmatch(r'out((?:\.\d+)*)\.npy', name)
        if m:
            outputs[m.group(1).lstrip('.')] = np.load(os.path.join(tmp, name))
    return outputs


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
    tangents = [rng.standard_normal(s) for s in shapes]
    with tempfile.TemporaryDirectory() as tmp:
        jvp = run(args.relay_run, args.program, args.func + '_jvp',
                  inputs + tangents, tmp)
        up = run(args.relay_run, args.program, args.func,
                 [x + args.eps * v for x, v in zip(inputs, tangents)], tmp)
        down = run(args.relay_run, args.program, args.func,
                   [x - args.eps * v for x, v in zip(inputs, tangents)], tmp)
        count = 0
        for path in sorted(up):
            key = '1' + ('.' + path if path else '')
            numeric = (up[path] - down[path]) / (2 * args.eps)
            analytic = jvp[key]
            for index in np.ndindex(*numeric.shape):
                if abs(numeric[index] - analytic[index]) > (
                        args.atol + args.rtol * abs(numeric[index])):
                    print('output %s element %s: tangent %.10g, finite '
                          'differences %.10g' % (path or '0', index,
                                                 analytic[index],
                                                 numeric[index]))
                    sys.exit(1)
                count += 1
    print('ok: %d outputs' % count)


if __name__ == '__main__':
    main()

#!/usr/bin/python3
"""ONNX Einsum against numpy.einsum: products, batch products, sums,
transposes, outer products, three operands, ellipses, the implicit
output and diagonals (traces), run by relay-run through the interpreter and compiled.

  /usr/bin/python3 check_einsum.py --bin build/bin
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper

CASES = [
    ('ij,jk->ik', [(3, 4), (4, 5)]),
    # Diagonals: a label repeated within one operand.
    ('ii->i', [(4, 4)]),
    ('ii', [(4, 4)]),
    ('...ii->...i', [(2, 3, 3)]),
    ('iij,jk->ik', [(3, 3, 4), (4, 2)]),
    ('iii->', [(3, 3, 3)]),
    ('ijij->ij', [(2, 3, 2, 3)]),
    ('bij,bjk->bik', [(2, 3, 4), (2, 4, 5)]),
    ('ij,ij->i', [(3, 4), (3, 4)]),
    ('i,i', [(6,), (6,)]),
    ('ij->ji', [(3, 4)]),
    ('ijk->', [(2, 3, 4)]),
    ('ijk->kj', [(2, 3, 4)]),
    ('i,j->ij', [(3,), (4,)]),
    ('ij,jk,kl->il', [(2, 3), (3, 4), (4, 5)]),
    ('bhqd,bhkd->bhqk', [(1, 2, 5, 4), (1, 2, 6, 4)]),
    ('bhqk,bhkd->bqhd', [(1, 2, 5, 6), (1, 2, 6, 4)]),
    ('...ij,...jk->...ik', [(2, 3, 4, 5), (2, 3, 5, 2)]),
    ('...i,...i->...', [(2, 3, 4), (2, 3, 4)]),
    ('ij,jk', [(3, 4), (4, 2)]),
    ('ba,ca', [(3, 4), (5, 4)]),
    ('abc,cd->abd', [(2, 3, 4), (4, 5)]),
    ('ij,kj->', [(3, 4), (2, 4)]),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', required=True)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for index, (equation, shapes) in enumerate(CASES):
            inputs = [rng.standard_normal(s).astype(np.float32)
                      for s in shapes]
            want = np.einsum(equation, *[a.astype(np.float64) for a in inputs])
            names = ['x%d' % i for i in range(len(inputs))]
            graph = helper.make_graph(
                [helper.make_node('Einsum', names, ['y'], equation=equation)],
                'einsum',
                [helper.make_tensor_value_info(n, TensorProto.FLOAT, a.shape)
                 for n, a in zip(names, inputs)],
                [helper.make_tensor_value_info('y', TensorProto.FLOAT,
                                               want.shape)])
            path = os.path.join(tmp, 'e%d.onnx' % index)
            onnx.save(helper.make_model(
                graph, opset_imports=[helper.make_opsetid('', 13)]), path)
            cmd = [os.path.join(args.bin, 'relay-run'), path, '--output',
                   os.path.join(tmp, 'y.npy')]
            for n, a in zip(names, inputs):
                np.save(os.path.join(tmp, n + '.npy'), a)
                cmd += ['--input', os.path.join(tmp, n + '.npy')]
            for mode in ('interpreter', 'compiled'):
                proc = subprocess.run(
                    cmd + (['--interp'] if mode == 'interpreter' else []),
                    capture_output=True, text=True)
                problem = None
                if proc.returncode != 0:
                    problem = proc.stderr.strip()[-300:]
                elif mode == 'compiled' and 'reference interpreter' in proc.stderr:
                    problem = 'not compiled'
                else:
                    got = np.load(os.path.join(tmp, 'y.npy'))
                    if got.shape != want.shape:
                        problem = 'shape %s, expected %s' % (got.shape,
                                                             want.shape)
                    elif not np.allclose(got, want, rtol=1e-4, atol=1e-5):
                        problem = 'values differ by %g' % np.max(
                            np.abs(got - want))
                failures += bool(problem)
                print('%-22s %-11s %s' % (equation, mode,
                                          'FAILED: ' + problem if problem
                                          else 'matches numpy'))
    print('%d failures' % failures)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
"""compare.py GOT.npy WANT.npy [RTOL]: exits 1 unless close (rtol, with an
absolute tolerance of rtol times the largest expected magnitude).

compare.py --cases DIR RTOL NAME...: the same for each NAME's compiled and
interpreted results, DIR/NAME.jit.npy and DIR/NAME.interp.npy, against
DIR/NAME.expected.npy (one process for a test's many models: each Python
start with numpy costs a quarter of a second); names every mismatch."""
import os
import sys

import numpy as np


def mismatch(got, want, rtol):
    """Why `got` is not close to `want`, or None."""
    if got.shape != want.shape:
        return 'shape %s, expected %s' % (got.shape, want.shape)
    atol = rtol * float(np.max(np.abs(want))) if want.size else 0.0
    if not np.allclose(got, want, rtol=rtol, atol=atol):
        return 'max abs difference %g (rtol %g, atol %g)' % (
            np.max(np.abs(got.astype(np.float64) - want)), rtol, atol)
    return None


def main():
    if sys.argv[1] == '--cases':
        out, rtol = sys.argv[2], float(sys.argv[3])
        problems = []
        for name in sys.argv[4:]:
            want = np.load(os.path.join(out, name + '.expected.npy'))
            for mode in ('jit', 'interp'):
                path = os.path.join(out, '%s.%s.npy' % (name, mode))
                problem = mismatch(np.load(path), want, rtol)
                if problem:
                    problems.append('%s: %s' % (path, problem))
        if problems:
            sys.exit('\n'.join(problems))
        print('match: %d models compiled and interpreted' % (len(sys.argv) - 4))
        return
    got, want = np.load(sys.argv[1]), np.load(sys.argv[2])
    rtol = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-4
    problem = mismatch(got, want, rtol)
    if problem:
        sys.exit(problem)
    print('match: max abs difference %g' %
          np.max(np.abs(got.astype(np.float64) - want)))


if __name__ == '__main__':
    main()

#!/usr/bin/python3
"""compare.py GOT.npy WANT.npy [RTOL]: exits 1 unless close (rtol, with an
absolute tolerance of rtol times the largest expected magnitude)."""
import sys

import numpy as np

got, want = np.load(sys.argv[1]), np.load(sys.argv[2])
rtol = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-4
if got.shape != want.shape:
    sys.exit('shape %s, expected %s' % (got.shape, want.shape))
atol = rtol * float(np.max(np.abs(want))) if want.size else 0.0
if not np.allclose(got, want, rtol=rtol, atol=atol):
    sys.exit('max abs difference %g (rtol %g, atol %g)' % (
        np.max(np.abs(got.astype(np.float64) - want)), rtol, atol))
print('match: max abs difference %g' % np.max(np.abs(got.astype(np.float64) - want)))

#!/usr/bin/python3
"""Products and convolutions compiled for an AVX2 CPU (--cpu haswell: 6x16
register tiles, 48-row cache tiles, a 256 KB L2), against the reference
interpreter, at one and two threads, whatever CPU runs the test: rows
padded to whole register and cache tiles (49 -> 54, 100 -> 108, 196 ->
210), cache tiles whose 32 or 64 rows are split into 6-row tiles and a
rest of 4 or 8 rows (convolutions with 64 or 128 filters), that split
inside a k loop whose first tile is peeled to start from zero (1152-long
sums), and a product of rows that 6 divides. Each compiled result must
be within 1e-4 of the interpreter's largest magnitude, and compiled (no
fallback to the interpreter).

  /usr/bin/python3 avx2_products_vs_interp.py --bin build/bin
"""
import argparse
import os
import sys
import tempfile

from interp_compare import compiled_runs_match_interpreter

HEADER = '#[version = "0.0.5"]\n'

DENSE = HEADER + '''def @main(%x: Tensor[({m}, {k}), float32],
          %w: Tensor[({n}, {k}), float32]) -> Tensor[({m}, {n}), float32] {{
  nn.dense(%x, %w)
}}
'''

MATMUL = HEADER + '''def @main(%a: Tensor[({m}, {k}), float32],
          %b: Tensor[({k}, {n}), float32]) -> Tensor[({m}, {n}), float32] {{
  nn.matmul(%a, %b)
}}
'''

CONV = HEADER + '''def @main(%x: Tensor[(1, {c}, {h}, {h}), float32],
          %w: Tensor[({f}, {c}, {r}, {r}), float32],
          %b: Tensor[({f}), float32]) -> Tensor[(1, {f}, {o}, {o}), float32] {{
  %0 = nn.conv2d(%x, %w, strides=[{s}, {s}], padding=[{p}, {p}, {p}, {p}],
                 channels={f}, kernel_size=[{r}, {r}]);
  %1 = nn.bias_add(%0, %b);
  nn.relu(%1)
}}
'''

# (name, program, sizes)
CASES = [
    ('dense 49 rows (padded to 54)', DENSE, dict(m=49, k=256, n=384)),
    ('dense 196 rows (padded to 210)', DENSE, dict(m=196, k=96, n=128)),
    ('matmul 100 rows (padded to 108)', MATMUL, dict(m=100, k=700, n=900)),
    ('matmul 96 rows (whole 6-row tiles)', MATMUL, dict(m=96, k=512, n=256)),
    ('matmul 20 rows', MATMUL, dict(m=20, k=64, n=48)),
    ('conv 64 filters (rows split 24 + 8)', CONV,
     dict(c=32, f=64, h=28, r=3, s=1, p=1)),
    ('conv 128 filters, 3x3/2 (split, k 576)', CONV,
     dict(c=64, f=128, h=56, r=3, s=2, p=1)),
    ('conv 128 filters, k 1152 (split, first k tile peeled)', CONV,
     dict(c=128, f=128, h=28, r=3, s=2, p=1)),
    ('conv 7x7 positions (padded to 54)', CONV,
     dict(c=256, f=64, h=7, r=1, s=1, p=0)),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', required=True)
    args = parser.parse_args()
    relay_run = os.path.join(args.bin, 'relay-run')
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        program = os.path.join(tmp, 'p.rly')
        for name, text, sizes in CASES:
            if 'h' in sizes:
                sizes = dict(sizes, o=(sizes['h'] + 2 * sizes['p'] -
                                       sizes['r']) // sizes['s'] + 1)
            with open(program, 'w') as f:
                f.write(text.format(**sizes))
            failures += compiled_runs_match_interpreter(
                relay_run, program, 5, name, tmp, 1e-4, ['--cpu', 'haswell'])
    print('%d of %d runs failed' % (failures, 2 * len(CASES)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

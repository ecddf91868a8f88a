#!/usr/bin/python3
"""Depthwise convolutions with their bias and ReLU, compiled, against the
reference interpreter on shapes drawn at random (a fixed seed): 3x3,
5x5 and 7x7 kernels (ConvNeXt's; at stride 2 not a row kernel), stride 1
and 2, rows narrower than a vector, rows of 17-18 columns (a 7x7 kernel's
second chunk starts under 3 columns in: not a row kernel), overlapping
chunks and odd sizes, and images over 2 MB (3x3: bands of rows), at one
and two threads; and after a 1x1 convolution whose channel bands the
depthwise convolution's channel blocks merge with (--cpu haswell: its
256 KB L2 makes those bands; widths whose rows are partial vectors, which
the merged loop once read unmasked, past the row; ConvNeXt's 7x7 layers
on its four stages' maps). Each compiled result must be within 1e-5 of
the interpreter's largest magnitude, and compiled (no fallback to the
interpreter).

  /usr/bin/python3 depthwise_vs_interp.py --bin build/bin [--seed S]
      [--cases N]
"""
import argparse
import os
import random
import sys
import tempfile

from interp_compare import compiled_runs_match_interpreter

PROGRAM = '''#[version = "0.0.5"]
def @main(%x: Tensor[(1, {c}, {h}, {w}), float32],
          %k: Tensor[({c}, 1, {k}, {k}), float32],
          %b: Tensor[({c}), float32]) -> Tensor[(1, {c}, {oh}, {ow}), float32] {{
  %0 = nn.conv2d(%x, %k, strides=[{s}, {s}], padding=[{p}, {p}, {p}, {p}],
                 groups={c}, channels={c}, kernel_size=[{k}, {k}]);
  %1 = nn.bias_add(%0, %b);
  nn.relu(%1)
}}
'''

EXPANDED = '''#[version = "0.0.5"]
def @main(%x: Tensor[(1, 24, {h}, {w}), float32],
          %e: Tensor[({c}, 24, 1, 1), float32],
          %k: Tensor[({c}, 1, {k}, {k}), float32]) -> Tensor[(1, {c}, {oh}, {ow}), float32] {{
  %0 = nn.conv2d(%x, %e, padding=[0, 0, 0, 0], channels={c}, kernel_size=[1, 1]);
  %1 = nn.relu(%0);
  nn.conv2d(%1, %k, strides=[{s}, {s}], padding=[{p}, {p}, {p}, {p}],
            groups={c}, channels={c}, kernel_size=[{k}, {k}])
}}
'''


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', required=True)
    parser.add_argument('--seed', type=int, default=7)
    parser.add_argument('--cases', type=int, default=60)
    args = parser.parse_args()
    relay_run = os.path.join(args.bin, 'relay-run')
    rng = random.Random(args.seed)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        program = os.path.join(tmp, 'dw.rly')
        # ConvNeXt's 7x7 layers on its four stages' maps (7 and 14: rows
        # narrower than a vector).
        expanded = [(k, s, hw) for k in (3, 5) for s in (1, 2)
                    for hw in (20, 28, 32)] + [(7, 1, hw)
                                               for hw in (7, 14, 28, 56)]
        for case in range(args.cases + len(expanded)):
            text, extra = PROGRAM, []
            if case < args.cases:
                k, s = rng.choice([3, 5, 7]), rng.choice([1, 2])
                c = rng.choice([1, 3, 8, 16])
                h, w = rng.randint(2, 40), rng.randint(2, 70)
                if k == 7 and rng.random() < 0.2:
                    w = rng.choice([14, 16, 17, 18, 19])
                if rng.random() < 0.15:
                    c, h, w = 48, rng.randint(100, 120), rng.randint(100, 130)
            else:
                k, s, h = expanded[case - args.cases]
                c, w, text, extra = 96, h, EXPANDED, ['--cpu', 'haswell']
            p = k // 2
            oh, ow = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
            with open(program, 'w') as f:
                f.write(text.format(c=c, h=h, w=w, k=k, s=s, p=p, oh=oh,
                                    ow=ow))
            name = '%dx%d stride %d, C=%d %dx%d%s' % (
                k, k, s, c, h, w, ' after a 1x1' if extra else '')
            failures += compiled_runs_match_interpreter(
                relay_run, program, case, name, tmp, 1e-5, extra)
    print('%d of %d runs failed' % (failures,
                                    2 * (args.cases + len(expanded))))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
"""Grouped convolutions (neither ungrouped nor depthwise) with their bias
and ReLU, compiled, against the reference interpreter on shapes drawn at
random (a fixed seed): 1x1, 3x3 and 5x5 kernels, stride 1 and 2, dilation,
one or a few channels per group, channel multipliers (one input channel,
several filters per group), batches of two, images of 7x7 positions (the
padded or transposed products) and ones large enough for row bands, at
one and two threads, for this CPU and for an AVX2 one (--cpu haswell, 6-row
register tiles). Each image is convolved group by group: on AVX-512 the
3x3 and 5x5 ones padded like depthwise ones in rows (register tiles of a
group's output channels, the row kernels reading the unpadded image),
the others and AVX2's as im2col products. Each compiled result must be
within 1e-5 of the interpreter's largest magnitude, and compiled (no
fallback to the interpreter).

  /usr/bin/python3 grouped_vs_interp.py --bin build/bin [--seed S]
      [--cases N]
"""
import argparse
import os
import random
import sys
import tempfile

from interp_compare import compiled_runs_match_interpreter

PROGRAM = '''#[version = "0.0.5"]
def @main(%x: Tensor[({n}, {c}, {h}, {w}), float32],
          %k: Tensor[({f}, {cg}, {k}, {k}), float32],
          %b: Tensor[({f}), float32]) -> Tensor[({n}, {f}, {oh}, {ow}), float32] {{
  %0 = nn.conv2d(%x, %k, strides=[{s}, {s}], padding=[{p}, {p}, {p}, {p}],
                 dilation=[{d}, {d}], groups={g}, channels={f},
                 kernel_size=[{k}, {k}]);
  %1 = nn.bias_add(%0, %b);
  nn.relu(%1)
}}
'''

# Shapes of networks: RegNet-Y-400MF's 8-channel groups (56x56 stride 2,
# 7x7), ResNeXt's 32 groups (stride 2 into 7x7 rows), AlexNet's two 5x5
# groups, two groups of 256 channels (an im2col product on any CPU); rows
# of at most 7 columns, two to a vector on AVX-512 (an odd number of rows,
# 3 columns, stride 2 from 13 and from 6 columns, a batch; the cases
# alternate between this CPU and AVX2, so the first two come twice).
FIXED = [(1, 48, 112, 112, 3, 1, 2, 1, 6, 8),
         (1, 440, 7, 7, 3, 1, 1, 1, 55, 8),
         (1, 128, 28, 28, 3, 1, 1, 1, 32, 4),
         (1, 1024, 14, 14, 3, 1, 2, 1, 32, 32),
         (1, 96, 27, 27, 5, 2, 1, 1, 2, 128),
         (1, 512, 6, 6, 3, 1, 1, 1, 2, 256),
         (1, 64, 5, 3, 3, 1, 1, 1, 4, 16),
         (1, 64, 5, 3, 3, 1, 1, 1, 4, 16),
         (1, 32, 9, 13, 3, 1, 2, 1, 4, 8),
         (1, 32, 9, 13, 3, 1, 2, 1, 4, 8),
         (2, 16, 4, 6, 3, 1, 2, 1, 2, 8)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', required=True)
    parser.add_argument('--seed', type=int, default=11)
    parser.add_argument('--cases', type=int, default=36)
    args = parser.parse_args()
    relay_run = os.path.join(args.bin, 'relay-run')
    rng = random.Random(args.seed)
    failures = runs = 0
    with tempfile.TemporaryDirectory() as tmp:
        program = os.path.join(tmp, 'grouped.rly')
        for case in range(len(FIXED) + args.cases):
            if case < len(FIXED):
                n, c, h, w, k, p, s, d, g, fg = FIXED[case]
            else:
                k = rng.choice([1, 3, 3, 5])
                s, d = rng.choice([1, 2]), rng.choice([1, 1, 1, 2])
                p = rng.choice([0, k // 2 * d])
                g = rng.choice([2, 3, 4, 8, 16])
                c = g * rng.choice([1, 2, 4, 8, 16])
                fg = rng.choice([1, 2, 4, 8, 16, 24])
                n = rng.choice([1, 1, 1, 2])
                h, w = rng.randint(d * (k - 1) + 1, 40), rng.randint(
                    d * (k - 1) + 1, 60)
                if rng.random() < 0.2:
                    h, w = 7, 7
                    p = k // 2 * d
            f = g * fg
            oh = (h + 2 * p - d * (k - 1) - 1) // s + 1
            ow = (w + 2 * p - d * (k - 1) - 1) // s + 1
            with open(program, 'w') as out:
                out.write(PROGRAM.format(n=n, c=c, cg=c // g, f=f, h=h, w=w,
                                         k=k, s=s, p=p, d=d, g=g, oh=oh,
                                         ow=ow))
            extra = ['--cpu', 'haswell'] if case % 2 else []
            name = ('%dx%d stride %d dilation %d pad %d, %d groups of %d -> %d'
                    ' channels, %dx%dx%d%s' % (
                        k, k, s, d, p, g, c // g, fg, n, h, w,
                        ' (haswell)' if extra else ''))
            failures += compiled_runs_match_interpreter(
                relay_run, program, case, name, tmp, 1e-5, extra)
            runs += 2
    print('%d of %d runs failed' % (failures, runs))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

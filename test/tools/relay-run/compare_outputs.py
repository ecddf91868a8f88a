#!/usr/bin/env python3
"""Compares two relay-run outputs (Relay values) within a relative tolerance.

usage: compare_outputs.py A.txt B.txt [TOLERANCE [max]]

Each difference is relative to the larger of 1 and the reference value's
magnitude, or, with `max`, to the largest magnitude among the reference's
values (for reduced precision, whose error scales with the sums, not with
each result). Both values are read as one sequence of numbers and names
(constructors, `<closure>`; True and False are 1 and 0): the names must
agree position by position, the numbers within the tolerance (NaN equals
NaN, an infinity itself). The values are tokenised rather than evaluated,
so a tensor of millions of elements compares in about a second; numpy is
imported only for large values (its import, 0.17 s, was most of the time
of the hundreds of small comparisons the lit tests make).
"""
import math
import re
import sys

# Above this many numbers the comparison is numpy's.
LARGE = 100000

TOKEN = re.compile(
    r"(?P<number>[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|inf|nan))"
    r"|(?P<name><closure>|[A-Za-z_]\w*)")


def parse(path):
    """The numbers of the first line of `path` (strings) and its sequence
    of tokens with each number replaced by `#`."""
    with open(path) as f:
        text = f.readline().strip()
    text = re.sub(r"\bTrue\b", "1", re.sub(r"\bFalse\b", "0", text))
    numbers, shape = [], []
    for m in TOKEN.finditer(text):
        if m.group("number") is not None:
            numbers.append(m.group("number"))
            shape.append("#")
        else:
            shape.append(m.group("name"))
    return numbers, shape


def worst_error(xa, xb, relative_to_max):
    """The largest difference of the numbers `xa` from `xb`, relative to
    max(|xb|, 1) or to xb's largest finite magnitude: 0 where they are
    equal or both NaN, infinite where the difference is NaN."""
    if len(xb) > LARGE:
        import numpy as np
        xa = np.array(xa, dtype=np.float64)
        xb = np.array(xb, dtype=np.float64)
        same = (xa == xb) | (np.isnan(xa) & np.isnan(xb))
        if relative_to_max:
            finite = np.abs(xb[np.isfinite(xb)])
            scale = np.full_like(xb, (finite.max() if finite.size else 1.0) or 1.0)
        else:
            scale = np.maximum(np.abs(xb), 1.0)
        with np.errstate(invalid="ignore"):
            error = np.where(same, 0.0, np.abs(xa - xb) / scale)
        error = np.where(np.isnan(error), np.inf, error)
        return float(error.max()) if error.size else 0.0
    xa = [float(x) for x in xa]
    xb = [float(x) for x in xb]
    if relative_to_max:
        finite = [abs(y) for y in xb if math.isfinite(y)]
        largest = (max(finite) if finite else 1.0) or 1.0
    worst = 0.0
    for x, y in zip(xa, xb):
        if x == y or (math.isnan(x) and math.isnan(y)):
            continue
        scale = largest if relative_to_max else max(abs(y), 1.0)
        error = abs(x - y) / scale
        worst = max(worst, math.inf if math.isnan(error) else error)
    return worst


def main():
    (xa, sa), (xb, sb) = parse(sys.argv[1]), parse(sys.argv[2])
    tol = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-5
    if len(sa) != len(sb):
        print(f"different sizes: {len(sa)} vs {len(sb)}")
        return 1
    for x, y in zip(sa, sb):
        if x != y:
            print(f"different values: {x} vs {y}")
            return 1
    worst = worst_error(xa, xb, len(sys.argv) > 4 and sys.argv[4] == "max")
    if worst > tol:
        print(f"relative difference {worst:.3g} > {tol}")
        return 1
    print(f"same values ({len(sa)} elements, relative difference {worst:.1g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

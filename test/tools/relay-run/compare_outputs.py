#!/usr/bin/env python3
"""Compares two relay-run outputs (Relay values) within a relative tolerance.

usage: compare_outputs.py A.txt B.txt [TOLERANCE [max]]

Each difference is relative to the larger of 1 and the reference value's
magnitude, or, with `max`, to the largest magnitude among the reference's
values (for reduced precision, whose error scales with the sums, not with
each result).
"""
import ast
import re
import sys


def parse(path):
    text = open(path).read().strip().splitlines()[0]
    text = text.replace("True", "1").replace("False", "0")
    # ADT values: Cons(1, Nil) -> ("Cons", 1, ("Nil",)); names compare equal.
    text = re.sub(r"\b([A-Z]\w*)\(", r'("\1", ', text)
    text = re.sub(r'(?<!")\b([A-Z]\w*)\b(?!")', r'("\1",)', text)
    text = text.replace("<closure>", '("<closure>",)')
    return ast.literal_eval(text)


def flatten(v):
    if isinstance(v, (list, tuple)):
        for x in v:
            yield from flatten(x)
    else:
        yield v


def main():
    a, b = parse(sys.argv[1]), parse(sys.argv[2])
    tol = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-5
    fa, fb = list(flatten(a)), list(flatten(b))
    if len(fa) != len(fb):
        print(f"different sizes: {len(fa)} vs {len(fb)}")
        return 1
    for x, y in zip(fa, fb):
        if isinstance(x, str) or isinstance(y, str):
            if x != y:
                print(f"different values: {x} vs {y}")
                return 1
    numbers = [(x, y) for x, y in zip(fa, fb) if not isinstance(x, str)]
    scale = None
    if len(sys.argv) > 4 and sys.argv[4] == "max":
        scale = max((abs(y) for _, y in numbers), default=1.0) or 1.0
    worst = max((abs(x - y) / (scale or max(abs(y), 1.0)) for x, y in numbers),
                default=0.0)
    if worst > tol:
        print(f"relative difference {worst:.3g} > {tol}")
        return 1
    print(f"same values ({len(fa)} elements, relative difference {worst:.1g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

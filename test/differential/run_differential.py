#!/usr/bin/python3
"""Differential testing on random programs: the interpreter, the JIT at
every -O level (and at two threads), and ahead-of-time objects called from
C must compute the same values on programs of relay_program_generator.py.

    run_differential.py --bin build/bin --seeds 0:10,1048 --programs 20

Each seed makes one module of PROGRAMS programs (its @main returns their
results as a tuple) and random inputs; every run of it is compared with
the interpreter's: integers and booleans exactly, floats to 1e-4 of the
tensor's largest magnitude (compiled code fuses, contracts into FMAs and
approximates tanh/sigmoid). A compiled run that falls back to the
interpreter is a failure too. On a mismatch the program that differs is
found (each program alone) and written to --keep (default: a temporary
folder), with the command that reproduces it; the exit status is 1.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from relay_program_generator import FLOAT, INT, generate_module  # noqa: E402

C_TYPES = {np.dtype(np.float32): "float", np.dtype(np.int32): "int32_t",
           np.dtype(np.bool_): "bool"}


def run(cmd, **kwargs):
    return subprocess.run(cmd, capture_output=True, text=True, **kwargs)


def random_inputs(rng, params):
    arrays = []
    for t in params:
        if t.dtype == FLOAT:
            arrays.append(rng.uniform(-1, 1, t.shape).astype(np.float32))
        else:
            arrays.append(rng.integers(0, 10, t.shape).astype(np.int32))
    return arrays


def read_results(stem, count):
    return [np.load("%s.%d.npy" % (stem, i)) for i in range(count)]


def c_driver(header, inputs, out_path):
    """The start of a C program that calls relay_main on `inputs` and opens
    `out_path` for the results (aot_results writes them)."""
    lines = ["#include \"%s\"" % header, "#include <stdbool.h>",
             "#include <stdint.h>", "#include <stdio.h>", "",
             "int main(void) {"]
    args = []
    for i, a in enumerate(inputs):
        ctype = C_TYPES[a.dtype]
        values = ", ".join(str(int(v)) if a.dtype != np.float32 else
                           "%.9gf" % v for v in a.reshape(-1)) or "0"
        lines.append("  static %s in%d[] = {%s};" % (ctype, i, values))
        sizes = ", ".join(str(d) for d in a.shape)
        strides = ", ".join(str(int(np.prod(a.shape[k + 1:], dtype=np.int64)))
                            for k in range(a.ndim))
        init = "in%d, in%d, 0" % (i, i)
        if a.ndim:
            init += ", {%s}, {%s}" % (sizes, strides)
        lines.append("  relay_main_arg%d_t a%d = {%s};" % (i, i, init))
        args.append("&a%d" % i)
    lines.append("  relay_main_results_t r;")
    lines.append("  relay_main(%s);" % ", ".join(["&r"] + args))
    lines.append("  FILE *out = fopen(\"%s\", \"wb\");" % out_path)
    lines.append("  if (!out) return 2;")
    return lines


def aot_results(bin_dir, work, program, inputs, expected, cc, runtime):
    """Runs `program` compiled ahead of time; the results, shaped like
    `expected`, or an error string."""
    obj = os.path.join(work, "aot.o")
    header = os.path.join(work, "aot.h")
    made = run([os.path.join(bin_dir, "relay-run"), program, "--emit-object",
                obj, "--emit-header", header, "--num-threads", "1"])
    if made.returncode:
        return "emit-object failed: " + made.stderr
    out_path = os.path.join(work, "aot.bin")
    lines = c_driver(header, inputs, out_path)
    for k, e in enumerate(expected):
        ctype = C_TYPES[e.dtype]
        # Walk the result through its strides, in row-major order.
        if e.ndim == 0:
            lines.append("  fwrite(r.r%d.aligned + r.r%d.offset, sizeof(%s), "
                         "1, out);" % (k, k, ctype))
            continue
        idx = ["i%d" % d for d in range(e.ndim)]
        for d in range(e.ndim):
            lines.append("  for (long %s = 0; %s < %d; ++%s)" % (
                idx[d], idx[d], e.shape[d], idx[d]))
        offset = " + ".join("%s * r.r%d.strides[%d]" % (idx[d], k, d)
                            for d in range(e.ndim))
        lines.append("    fwrite(r.r%d.aligned + r.r%d.offset + %s, "
                     "sizeof(%s), 1, out);" % (k, k, offset, ctype))
    lines += ["  fclose(out);", "  return 0;", "}"]
    source = os.path.join(work, "driver.c")
    with open(source, "w") as f:
        f.write("\n".join(lines) + "\n")
    exe = os.path.join(work, "driver")
    built = run([cc, "-std=c99", "-O1", "-I", work, source, obj, runtime,
                 "-lm", "-lpthread", "-o", exe])
    if built.returncode:
        return "the C driver did not build: " + built.stderr
    ran = run([exe])
    if ran.returncode:
        return "the AoT program failed (status %d): %s" % (ran.returncode,
                                                           ran.stderr)
    data = open(out_path, "rb").read()
    results, at = [], 0
    for e in expected:
        n = e.size * e.dtype.itemsize
        results.append(np.frombuffer(data[at:at + n],
                                     dtype=e.dtype).reshape(e.shape))
        at += n
    return results


def compare(reference, results):
    """None when `results` match `reference`, else where they differ."""
    if len(results) != len(reference):
        return "%d results, expected %d" % (len(results), len(reference))
    for k, (want, got) in enumerate(zip(reference, results)):
        if want.shape != got.shape or want.dtype != got.dtype:
            return "result %d: %s %s, expected %s %s" % (
                k, got.dtype, got.shape, want.dtype, want.shape)
        if want.dtype == np.float32:
            scale = max(1.0, float(np.abs(want).max()) if want.size else 1.0)
            bad = ~(np.abs(got - want) <= 1e-4 * scale)
        else:
            bad = got != want
        if bad.any():
            i = np.argwhere(bad)[0] if want.ndim else ()
            return "result %d differs at %s: %r, expected %r" % (
                k, tuple(int(v) for v in i), got[tuple(i)], want[tuple(i)])
    return None


def check_module(bin_dir, work, program, inputs, count, aot, cc, runtime):
    """Runs every configuration; a list of (configuration, problem)."""
    relay_run = os.path.join(bin_dir, "relay-run")
    input_args = []
    for i, a in enumerate(inputs):
        path = os.path.join(work, "x%d.npy" % i)
        np.save(path, a)
        input_args += ["--input", path]
    stem = os.path.join(work, "interp")
    ran = run([relay_run, "--interp", program, "--output", stem + ".npy"]
              + input_args)
    if ran.returncode:
        return [("interpreter", ran.stderr.strip())]
    reference = read_results(stem, count)
    problems = []
    configs = [("-O%d" % level, ["-O%d" % level, "--num-threads", "1"])
               for level in range(4)]
    configs.append(("-O3 two threads", ["-O3", "--num-threads", "2"]))
    for name, flags in configs:
        stem = os.path.join(work, "jit")
        ran = run([relay_run, program, "--output", stem + ".npy"] + flags
                  + input_args)
        if ran.returncode:
            problems.append((name, ran.stderr.strip()))
            continue
        if "reference interpreter" in ran.stderr:
            problems.append((name, "not compiled: " + ran.stderr.strip()))
            continue
        problem = compare(reference, read_results(stem, count))
        if problem:
            problems.append((name, problem))
    if aot:
        got = aot_results(bin_dir, work, program, inputs, reference, cc,
                          runtime)
        problem = got if isinstance(got, str) else compare(reference, got)
        if problem:
            problems.append(("ahead of time", problem))
    return problems


def single_program(text, k):
    """The module with @main returning only program k's result."""
    main = re.search(r"def @main\((.*?)\) \{\n  \((.*)\)\n\}", text)
    calls = re.findall(r"@program\d+\([^)]*\)", main.group(2))
    return text[:main.start()] + "def @main(%s) {\n  (%s,)\n}\n" % (
        main.group(1), calls[k])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--seeds", default="0:15",
                        help="the modules' seeds: FIRST:END ranges and "
                             "single seeds, comma-separated")
    parser.add_argument("--programs", type=int, default=20,
                        help="programs per module")
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--nn", action="store_true",
                        help="programs with products, convolutions, pools, "
                             "slices, gathers, pads ... too")
    parser.add_argument("--no-aot", dest="aot", action="store_false")
    parser.add_argument("--cc", default="cc")
    parser.add_argument("--runtime", default=None,
                        help="libRelayMLIRCRuntime.a (default: BIN/../lib)")
    parser.add_argument("--keep", default=None,
                        help="where failing programs are written")
    args = parser.parse_args()
    seeds = []
    for part in args.seeds.split(","):
        first, _, end = part.partition(":")
        seeds += range(int(first), int(end)) if end else [int(first)]
    runtime = args.runtime or os.path.join(args.bin, "..", "lib",
                                           "libRelayMLIRCRuntime.a")
    keep = args.keep or tempfile.mkdtemp(prefix="relay-differential-")
    os.makedirs(keep, exist_ok=True)
    failures, programs = 0, 0
    with tempfile.TemporaryDirectory() as work:
        for seed in seeds:
            text, params = generate_module(seed, args.programs, args.depth,
                                           args.nn)
            inputs = random_inputs(np.random.default_rng(seed), params)
            program = os.path.join(work, "module.rly")
            with open(program, "w") as f:
                f.write(text)
            programs += args.programs
            problems = check_module(args.bin, work, program, inputs,
                                    args.programs, args.aot, args.cc, runtime)
            done = seeds.index(seed) + 1
            if done % 10 == 0 and done < len(seeds):
                # A long run's figure so far, should it be stopped.
                print("%d modules so far, %d programs: %d modules differ"
                      % (done, programs, failures + bool(problems)),
                      flush=True)
            if not problems:
                continue
            failures += 1
            # Find the programs that differ, one by one.
            culprits = []
            for k in range(args.programs):
                alone = os.path.join(work, "alone.rly")
                with open(alone, "w") as f:
                    f.write(single_program(text, k))
                if check_module(args.bin, work, alone, inputs, 1, args.aot,
                                args.cc, runtime):
                    culprits.append(k)
            path = os.path.join(keep, "seed%d.rly" % seed)
            with open(path, "w") as f:
                f.write(text if not culprits else
                        single_program(text, culprits[0]))
            for i, a in enumerate(inputs):
                np.save(os.path.join(keep, "seed%d.x%d.npy" % (seed, i)), a)
            print("seed %d: programs %s differ; kept in %s" % (
                seed, culprits or "(only together)", path))
            for name, problem in problems:
                print("  %s: %s" % (name, problem[:2000]))
    print("%d modules, %d programs: %d modules differ" % (
        len(seeds), programs, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

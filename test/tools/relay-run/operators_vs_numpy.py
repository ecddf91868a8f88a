#!/usr/bin/env python3
"""Checks every operator's kernels against a numpy reference.

usage: operators_vs_numpy.py TOOLS_DIR WORK_DIR
         [compiled|dynamic|lower-gpu|lower-cpu]

For each case: random inputs are saved as .npy, a one-operator Relay
program runs on `relay-run --interp` (or, with `compiled`, natively
compiled and, in the same process, on the interpreter (`--interp-output`),
reporting the cases that fell back to the interpreter; with `dynamic`,
interpreted with every dimension of the parameters' types `?`, so that
relations and composite operators see only run-time shapes), and its
--output is compared with the numpy reference (float32: 1e-5 relative for elementwise operators, 1e-4 for
reductions, matrix products and convolutions). Prints one line per
operator and a summary; exits 1 on any mismatch. With `lower-gpu`, each
case's program is only lowered by `relay-mlir-opt --relay-to-nvvm` (no GPU
needed): every operator must have a GPU lowering; `lower-cpu` lowers them
by `--relay-to-llvm`, verifying the IR after every pass.

The cases are in operator_cases_{tensor,nn,qnn,vision}.py, their inputs'
generators in operator_inputs.py, the references numpy lacks in
operator_references.py, qnn_references.py and random_references.py.
"""
import os
import subprocess
import sys

import numpy as np

# The cases, by family; imported in this order, which fixes the random
# inputs each module draws from operator_inputs.RNG.
import operator_cases_tensor  # isort: skip
import operator_cases_nn  # isort: skip
import operator_cases_qnn  # isort: skip
import operator_cases_vision  # isort: skip
from operator_inputs import DTYPES

CASES = (operator_cases_tensor.CASES + operator_cases_nn.CASES +
         operator_cases_qnn.CASES + operator_cases_vision.CASES)


def relay_type(a, dynamic=False):
    """`a`'s Relay type; with `dynamic`, every dimension `?`."""
    dims = ", ".join("?" if dynamic else str(d)
                     for i, d in enumerate(a.shape))
    return f"Tensor[({dims}), {DTYPES[a.dtype]}]"



def check_result(work, stem, want, tol):
    """Compares the result relay-run wrote to `stem`.npy (a tuple's to
    `stem`.0.npy, ...) with numpy's `want`; returns None or the problem."""
    if not isinstance(want, tuple):
        return compare(np.load(os.path.join(work, stem + ".npy")), want, tol)
    for i, w in enumerate(want):
        problem = compare(np.load(os.path.join(work, f"{stem}.{i}.npy")), w, tol)
        if problem:
            return problem
    return None


def compare(got, want, tol):
    want = np.asarray(want)
    if got.shape != want.shape:
        return f"shape {got.shape}, expected {want.shape}"
    if tol == 0:
        floats = got.dtype.kind == "f"
        if not np.array_equal(got, want.astype(got.dtype), equal_nan=floats):
            return f"values differ: {got.ravel()[:6]} vs {want.ravel()[:6]}"
        return None
    g, w = got.astype(np.float64), want.astype(np.float64)
    err = np.abs(g - w) / np.maximum(np.abs(w), 1.0)
    if err.max() > tol:
        return f"relative error {err.max():.3g} > {tol}"
    return None


# Operators whose result's shape depends on the data: native code (static
# shapes) does not cover them; relay-run runs them on the interpreter.
DATA_DEPENDENT = {"argwhere", "dyn.reshape", "dyn.full", "dyn.zeros",
                  "dyn.ones", "dyn.broadcast_to", "dyn.topk",
                  "dyn.tile", "dyn.strided_slice", "dyn.image.resize2d",
                  "dyn.nn.pad", "dyn.squeeze", "dyn.expand_dims",
                  "dyn.one_hot", "dyn.sparse_to_dense", "dyn.nn.upsampling",
                  "dyn.nn.upsampling3d", "unique", "arange",
                  "vision.all_class_non_max_suppression", "sparse_fill_empty_rows"}
# Cases whose result's sizes are known only at run time, of operators that
# otherwise have static ones.
DATA_DEPENDENT_CASES = {"collapse_sum_to (run-time shape)"}
# Operators whose cases all decompose into the same arithmetic (the random
# ones: Threefry's rounds), of which the GPU lowering checks one case each:
# each lowers to ~200 kernels, most of the check's time otherwise.
ONE_GPU_CASE = ("random.",)

# Their operands that give the result's rank (a shape, bounds): `dynamic`
# keeps their lengths (a `?` length leaves the rank unknown, an error).
RANK_OPERANDS = {"dyn.reshape": {1}, "dyn.full": {1}, "dyn.tile": {1},
                 "dyn.zeros": {0}, "dyn.ones": {0}, "dyn.broadcast_to": {1},
                 "dyn.strided_slice": {1, 2, 3}, "dyn.nn.pad": {1},
                 "dyn.squeeze": {1}, "dyn.sparse_to_dense": {0, 3},
                 "gather_nd": {1},
                 "unravel_index": {1}, "collapse_sum_to": {1}}


def lower_program(tools, work, functions, pipeline):
    """Lowers a module of `functions` ((name, params, call) triples) by
    `relay-mlir-opt --PIPELINE` (the IR verified after every pass, which
    relay-run's pipelines skip for speed); returns None or the first
    error."""
    program = os.path.join(work, "lower.rly")
    with open(program, "w") as f:
        f.write('#[version = "0.0.5"]\n')
        for name, params, call in functions:
            f.write(f"def @{name}({params}) {{\n  {call}\n}}\n")
    imported = subprocess.run(
        [os.path.join(tools, "relay-mlir-translate"), "--import-relay",
         program], capture_output=True, text=True)
    lowered = imported.returncode == 0 and subprocess.run(
        [os.path.join(tools, "relay-mlir-opt"), "-", "--" + pipeline,
         "-o", os.devnull], input=imported.stdout, capture_output=True,
        text=True)
    if lowered and lowered.returncode == 0:
        return None
    error = (lowered or imported).stderr.strip().splitlines()
    return error[0] if error else "no message"


def lower_all(tools, work, target):
    """Lowers every case's program (but those of DATA_DEPENDENT operators
    and DATA_DEPENDENT_CASES) for the GPU (`target` "gpu") or the CPU
    ("cpu"); returns the failures.
    The cases go as one module of one function each (two processes instead
    of two per case); only when that fails is each lowered alone, to name
    the failing ones."""
    pipeline = "relay-to-nvvm" if target == "gpu" else "relay-to-llvm"
    cases = [c for c in CASES if c[0].split(" ")[0] not in DATA_DEPENDENT
             and c[0] not in DATA_DEPENDENT_CASES]
    if target == "gpu":
        seen = set()
        kept = []
        for c in cases:
            op = c[0].split(" ")[0]
            if op.startswith(ONE_GPU_CASE):
                if op in seen:
                    continue
                seen.add(op)
            kept.append(c)
        cases = kept
    functions = []
    for i, (name, call, inputs, _, _) in enumerate(cases):
        names = "abcde"[:len(inputs)]
        params = ", ".join(f"%{n}: {relay_type(a)}" for n, a in zip(names, inputs))
        functions.append((f"case{i}", params, call))
    failures = 0
    if lower_program(tools, work, functions, pipeline):
        for (name, *_), function in zip(cases, functions):
            error = lower_program(tools, work, [function], pipeline)
            if error:
                failures += 1
                print(f"FAILED {name}: {error}")
        if not failures:
            print("FAILED: the cases lower one by one but not together")
            return 1
    print(f"lowered {len(cases) - failures} of {len(cases)} cases for the {target.upper()}")
    return 1 if failures else 0


def main():
    tools, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    if len(sys.argv) > 3 and sys.argv[3] in ("lower-gpu", "lower-cpu"):
        return lower_all(tools, work, sys.argv[3][len("lower-"):])
    compiled = len(sys.argv) > 3 and sys.argv[3] == "compiled"
    dynamic = len(sys.argv) > 3 and sys.argv[3] == "dynamic"
    fallbacks = []
    os.makedirs(work, exist_ok=True)
    run = os.path.join(tools, "relay-run")
    failures = 0
    operators = set()
    for name, call, inputs, ref, tol in CASES:
        tag = name.replace(" ", "_").replace("(", "").replace(")", "").replace(",", "")
        names = "abcde"[:len(inputs)]
        keep = RANK_OPERANDS.get(name.split(" ")[0], set())
        params = ", ".join(
            f"%{n}: {relay_type(a, dynamic and i not in keep)}"
            for i, (n, a) in enumerate(zip(names, inputs)))
        program = os.path.join(work, tag + ".rly")
        with open(program, "w") as f:
            f.write(f'#[version = "0.0.5"]\ndef @main({params}) {{\n  {call}\n}}\n')
        args = [run, program, "--output", os.path.join(work, tag + ".npy")]
        if not compiled:
            args.insert(1, "--interp")
        for n, a in zip(names, inputs):
            path = os.path.join(work, f"{tag}.{n}.in.npy")
            np.save(path, a)
            args += ["--input", path]
        # Compiled runs check the interpreter too, in the same process.
        stems = [tag] + ([tag + "_interp"] if compiled else [])
        if compiled:
            args += ["--interp-output", os.path.join(work, stems[1] + ".npy")]
        p = subprocess.run(args, capture_output=True, text=True)
        want = ref(*inputs)
        if compiled and "reference interpreter" in p.stderr:
            fallbacks.append(name)
        if p.returncode != 0:
            problem = "relay-run failed: " + p.stderr.strip()[:300]
        else:
            problem = check_result(work, stems[0], want, tol)
            if not problem and compiled:
                problem = check_result(work, stems[1], want, tol)
                problem = problem and "interpreter: " + problem
        operators.add(name.split(" ")[0])
        if problem:
            failures += 1
            print(f"MISMATCH {name}: {problem}")
        else:
            print(f"ok {name}")
    if compiled:
        print(f"compiled {len(CASES) - len(fallbacks)} of {len(CASES)} cases; "
              f"on the interpreter: {', '.join(fallbacks) or 'none'}")
    print(f"checked {len(operators)} operators in {len(CASES)} cases against numpy: "
          f"{failures} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

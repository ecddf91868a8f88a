#!/usr/bin/python3
"""TVM's auto-quantize partition programs (../shared/conformance) through
--relay-bind-params, --relay-quantize and --relay-quantize-partition.

usage: partition_conformance.py CONFORMANCE_DIR TOOLS_DIR WORK_DIR

As TVM's tests do, the weights (parameters named w*, and y) are
bound to random constants and the program quantized with no layer
skipped. For each program: partitioned (partition-conversions=enabled)
it must compute what the unpartitioned quantized program computes, on
the same random inputs; then it is quantized with fully-integral and the
outcome (ok, or the error) printed.
"""
import glob
import os
import re
import subprocess
import sys

import numpy as np


def run(cmd, check=True):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if check and p.returncode != 0:
        sys.exit(f"FAILED: {' '.join(cmd)}\n{p.stderr}")
    return p


def main():
    conformance, tools, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    opt = os.path.join(tools, "relay-mlir-opt")
    translate = os.path.join(tools, "relay-mlir-translate")
    relay_run = os.path.join(tools, "relay-run")
    rng = np.random.default_rng(0)
    for path in sorted(glob.glob(os.path.join(
            conformance, "other", "*_pass_auto_quantize__*_partition.rly"))):
        name = os.path.basename(path).split("__")[1][:-len(".rly")]
        mlir = os.path.join(work, name + ".mlir")
        run([translate, "--import-relay", path, "-o", mlir])
        # The parameters' names and shapes, from the program's signature.
        with open(path) as f:
            text = f.read()
        params = []
        for m in re.finditer(r"%(\w+): Tensor\[\(([\d, ]*)\), float32\]", text):
            shape = tuple(int(d) for d in m.group(2).split(",") if d.strip())
            if (m.group(1), shape) not in params:
                params.append((m.group(1), shape))
        weights = os.path.join(work, name + ".weights")
        os.makedirs(weights, exist_ok=True)
        inputs = []
        for pname, shape in params:
            value = rng.uniform(-1, 1, size=shape).astype(np.float32)
            if pname[0] in "wy":
                np.save(os.path.join(weights, pname + ".npy"), value)
            else:
                p = os.path.join(work, f"{name}.{pname}.npy")
                np.save(p, value)
                inputs += ["--input", p]
        bound = os.path.join(work, name + ".bound.mlir")
        run([opt, mlir, f"--relay-bind-params=dir={weights}", "-o", bound])
        outputs = {}
        for mode in ("disabled", "enabled"):
            q = os.path.join(work, f"{name}.{mode}.mlir")
            run([opt, bound, "--relay-quantize=skip-conv-layers=none "
                 f"partition-conversions={mode}", "-o", q])
            out = os.path.join(work, f"{name}.{mode}.npy")
            run([relay_run, q, "--output", out] + inputs)
            outputs[mode] = np.load(out)
        same = np.array_equal(outputs["disabled"], outputs["enabled"])
        p = run([opt, bound, "--relay-quantize=skip-conv-layers=none "
                 "partition-conversions=fully-integral", "-o", os.devnull],
                check=False)
        if p.returncode == 0:
            integral = "ok"
        else:
            first = [l for l in p.stderr.splitlines() if "error:" in l][0]
            integral = "error:" + first.split("error:", 1)[1]
        print(f"{name}: partitioned computes the same: {same}; "
              f"fully-integral: {integral}")


if __name__ == "__main__":
    main()

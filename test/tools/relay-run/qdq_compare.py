"""What the quantization checks (torch_quantized_vs_torch.py,
qdq_matmul_vs_float.py; quantize_vs_float.py runs tools through it too)
share: run a tool or exit with its error, and run a QDQ ONNX model three
ways (compiled at -O3, where FakeQuantizationToInteger computes it on the
integers; with that pass disabled, its float semantics; interpreted)
against a reference output, in steps of the output's scale."""
import os
import subprocess
import sys

import numpy as np


def run(cmd):
    """Runs `cmd`; exits the check with its error when it fails."""
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAILED (exit status {p.returncode}): {' '.join(cmd)}\n"
                 f"{p.stderr}")
    return p


def modes_within_one_step(relay_run, path, inputs, want, step, name, work):
    """Runs `path` on the .npy files `inputs` compiled, in float and
    interpreted, printing one line each; returns how many failed. A mode
    fails when compiled code fell back to the interpreter, when an output
    is more than one `step` from `want` (the integer form requantizes by a
    fixed-point multiply where the float form rounds a float product, so a
    tie may differ by one step), or when fewer than 80% are equal."""
    failures = 0
    for mode in ("compiled", "float", "interpreted"):
        out = os.path.join(work, f"{name}.{mode}.npy")
        cmd = [relay_run, path]
        for npy in inputs:
            cmd += ["--input", npy]
        cmd += ["--output", out]
        if mode == "interpreted":
            cmd.insert(1, "--interp")
        if mode == "float":
            cmd += ["--disable-pass", "FakeQuantizationToInteger"]
        p = run(cmd)
        native = mode == "interpreted" or \
            "reference interpreter" not in p.stderr
        steps = np.abs(np.load(out) - want) / step
        equal = np.mean(steps < 1e-3)
        ok = native and steps.max() <= 1 + 1e-3 and equal >= 0.8
        failures += not ok
        print(f"{'ok' if ok else 'MISMATCH'} {name} {mode}: "
              f"native={native} largest difference {steps.max():.2f} "
              f"steps, {equal:.0%} equal")
    return failures

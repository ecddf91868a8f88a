"""The step the *_vs_torch.py checks share: run an ONNX model compiled by
relay-run on one input at 1 and 2 threads and compare with PyTorch's
output to 1e-4 of its largest magnitude."""
import os
import subprocess

import numpy as np


def compiled_runs_match(relay_run, onnx_path, x, want, what, tmp):
    """Runs `onnx_path` on `x` (a numpy array) at one and two threads and
    prints one line per run; returns how many runs failed. A run fails on a
    non-zero exit, on falling back to the interpreter (the compiled code is
    what is checked) or on a difference over 1e-4 of the largest output."""
    failures = 0
    inp = os.path.join(tmp, 'x.npy')
    np.save(inp, x)
    for threads in ('1', '2'):
        out = os.path.join(tmp, 'y.npy')
        proc = subprocess.run(
            [relay_run, onnx_path, '--input', inp, '--output', out,
             '--num-threads', threads], capture_output=True, text=True)
        run = '%s, %s thread(s)' % (what, threads)
        if proc.returncode != 0:
            print('FAIL %s: exit %d\n%s' % (run, proc.returncode, proc.stderr))
            failures += 1
            continue
        if 'reference interpreter' in proc.stderr:
            print('FAIL %s: not compiled\n%s' % (run, proc.stderr))
            failures += 1
            continue
        got = np.load(out)
        scale = float(np.max(np.abs(want)))
        err = float(np.max(np.abs(got - want))) / scale \
            if got.shape == want.shape else float('inf')
        ok = err <= 1e-4
        failures += not ok
        print('%s %s: shape %s, error %.2e of the largest output' % (
            'ok  ' if ok else 'FAIL', run, got.shape, err))
    return failures

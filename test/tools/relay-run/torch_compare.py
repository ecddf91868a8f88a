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
    inp = os.path.join(tmp, 'x.npy')
    np.save(inp, x)
    return compiled_program_runs_match(relay_run, [onnx_path, '--input', inp],
                                       want, what, tmp)


def compiled_program_runs_match(relay_run, args, want, what, tmp):
    """compiled_runs_match for relay-run's arguments `args` (a program and
    its inputs)."""
    failures = 0
    for threads in ('1', '2'):
        out = os.path.join(tmp, 'y.npy')
        proc = subprocess.run(
            [relay_run] + args + ['--output', out, '--num-threads', threads],
            capture_output=True, text=True)
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


def with_relu_match(relay_run, cases, tmp):
    """For each (make, shape, what) of `cases`: the module make() followed
    by a ReLU, exported to ONNX from an input of `shape` (seeded by its
    index) and checked by compiled_runs_match; returns how many runs
    failed."""
    import torch
    failures = 0
    for i, (make, shape, what) in enumerate(cases):
        torch.manual_seed(i)
        model = torch.nn.Sequential(make(), torch.nn.ReLU()).eval()
        x = torch.randn(*shape)
        with torch.no_grad():
            want = model(x).numpy()
        onnx_path = os.path.join(tmp, 'case%d.onnx' % i)
        torch.onnx.export(model, (x,), onnx_path, opset_version=13)
        failures += compiled_runs_match(relay_run, onnx_path, x.numpy(), want,
                                        what, tmp)
    return failures

"""The step the *_vs_interp.py checks share: run a Relay program on random
inputs on the reference interpreter, then compiled at one and two threads,
and compare."""
import os
import subprocess

import numpy as np


def run(relay_run, program, seed, out, extra):
    """Runs relay-run on `program` with random inputs from `seed`, writing
    the result to `out`; returns whether it succeeded without falling back
    to the interpreter (unless asked for), and the process."""
    proc = subprocess.run([relay_run, program, '--random-inputs', str(seed),
                           '--output', out] + list(extra),
                          capture_output=True, text=True)
    return proc.returncode == 0 and 'interpreter' not in proc.stderr, proc


def compiled_runs_match_interpreter(relay_run, program, seed, what, tmp,
                                    tolerance, extra=()):
    """Compares `program` compiled (with `extra` flags) at one and two
    threads against the interpreter, printing a line per failure; returns
    how many of the runs failed. A run fails on a non-zero exit, on falling
    back to the interpreter or on a difference over `tolerance` of the
    interpreter's largest magnitude."""
    want_path = os.path.join(tmp, 'want.npy')
    got_path = os.path.join(tmp, 'got.npy')
    ok, proc = run(relay_run, program, seed, want_path, ['--interp'])
    if not ok:
        print('FAIL %s: the interpreter failed\n%s' % (what, proc.stderr))
        return 2
    want = np.load(want_path)
    failures = 0
    for threads in (1, 2):
        ok, proc = run(relay_run, program, seed, got_path,
                       ['--num-threads', str(threads)] + list(extra))
        got = np.load(got_path) if ok else None
        err = (float(np.max(np.abs(got - want))) /
               max(float(np.max(np.abs(want))), 1e-6)
               if ok and got.shape == want.shape else float('inf'))
        if not ok or err > tolerance:
            print('FAIL %s, %d thread(s): %s' % (
                what, threads, proc.stderr.strip() or 'error %.3g' % err))
            failures += 1
    return failures

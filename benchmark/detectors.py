#!/usr/bin/python3
"""torchvision's detectors (test/models/check_detection.py's: SSDlite320
and Faster R-CNN on MobileNet-V3, Mask R-CNN and Keypoint R-CNN on
ResNet-50 FPN, with its weights and images) timed by relay-run and by
PyTorch side by side, the two alternating in each round, at one and two
threads. Their post-processing gives sizes that depend on the data, so
relay-run runs them on the interpreter calling compiled code for their
native regions (README, "Native regions").

For each detector and thread count:
  - relay-run, one run: the wall time of `relay-run model.onnx` for one
    result (import, type inference, the regions `--compile-regions=auto`
    finds worth compiling for one run, the run), in seconds;
  - relay-run, a run: the median of `--bench RUNS` (after the first run,
    auto compiling what pays off over RUNS + 1 runs), in ms;
  - PyTorch: eager (torchvision's detectors do not trace), the median of
    RUNS calls after two warm-ups, in ms, at the same thread count
    (OpenBLAS included: run_workloads.peer_env);
and, with --interp, relay-run's interpreter alone, one run (seconds).
Printed as a Markdown table headed by the CPU model.

  /usr/bin/python3 benchmark/detectors.py [--bin build/bin]
      [--models build/models] [--runs 5] [--rounds 1] [--threads 1,2]
      [--interp] [--results FILE] [NAME ...]
"""
import argparse
import os
import re
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from compare_builds import cpu_table  # noqa: E402
from run_workloads import ROOT, peer_env, with_blas_check  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, 'test', 'models'))
import check_detection  # noqa: E402

# Times detector argv[1] (check_detection.build) on the image argv[2] at
# argv[3] threads, argv[4] runs; prints the median in ms.
TORCH_SIDE = r'''
import sys, numpy as np, torch
name, image, threads, runs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sys.path.insert(0, sys.argv[5])
sys.path.insert(0, sys.argv[6])
import check_detection
from conv_layers import best_median_ms
torch.set_num_threads(threads)
model, _ = check_detection.build(name)
x = [torch.from_numpy(np.load(image))]
with torch.no_grad():
    print(best_median_ms([model], x, runs, warmup=2))
'''
TORCH_SIDE = with_blas_check(TORCH_SIDE)


def relay_one_run_s(relay_run, base, threads, interp=False):
    """Seconds `relay-run` takes for one result, start to exit."""
    args = [relay_run, base + '.onnx', '--input', base + '.input.npy',
            '--summary', '--num-threads', str(threads)]
    if interp:
        args.append('--interp')
    start = time.perf_counter()
    out = subprocess.run(args, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if out.returncode != 0:
        raise RuntimeError('relay-run %s failed:\n%s' % (base, out.stderr))
    return elapsed


def relay_run_ms(relay_run, base, threads, runs):
    """The median of relay-run's --bench runs, in ms."""
    out = subprocess.run([relay_run, base + '.onnx', '--input',
                          base + '.input.npy', '--summary', '--num-threads',
                          str(threads), '--bench', str(runs)],
                         capture_output=True, text=True)
    match = re.search(r'median: ([0-9.]+) ms', out.stdout)
    if out.returncode != 0 or not match:
        raise RuntimeError('relay-run %s failed:\n%s' % (base, out.stderr))
    return float(match.group(1))


def torch_ms(name, base, threads, runs):
    out = subprocess.run(
        [sys.executable, '-c', TORCH_SIDE, name, base + '.input.npy',
         str(threads), str(runs), HERE,
         os.path.join(ROOT, 'test', 'models')],
        capture_output=True, text=True, env=peer_env(threads))
    if out.returncode != 0:
        raise RuntimeError('PyTorch on %s failed:\n%s' % (name, out.stderr))
    return float(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', default=os.path.join(ROOT, 'build', 'bin'))
    parser.add_argument('--models',
                        default=os.path.join(ROOT, 'build', 'models'),
                        help='where the exports are kept (made if missing)')
    parser.add_argument('--runs', type=int, default=5)
    parser.add_argument('--rounds', type=int, default=1)
    parser.add_argument('--threads', default='1,2')
    parser.add_argument('--interp', action='store_true',
                        help="also time relay-run's interpreter alone")
    parser.add_argument('--results')
    parser.add_argument('names', nargs='*')
    args = parser.parse_args()
    relay_run = os.path.join(args.bin, 'relay-run')
    if not os.access(relay_run, os.X_OK):
        parser.error('no relay-run in %s (build first, or give --bin)' %
                     args.bin)
    names = args.names or check_detection.NAMES
    unknown = [n for n in names if n not in check_detection.NAMES]
    if unknown:
        parser.error('unknown detectors %s (known: %s)' %
                     (unknown, ', '.join(check_detection.NAMES)))
    threads = [int(t) for t in args.threads.split(',')]
    if args.runs < 1 or args.rounds < 1 or min(threads) < 1:
        parser.error('--runs, --rounds and --threads must be positive')
    os.makedirs(args.models, exist_ok=True)
    rows = []
    for name in names:
        base = os.path.join(args.models, name)
        if not os.path.exists(base + '.onnx'):
            check_detection.export(args.models, name)
        for t in threads:
            first, ours, theirs = [], [], []
            for _ in range(args.rounds):
                first.append(relay_one_run_s(relay_run, base, t))
                ours.append(relay_run_ms(relay_run, base, t, args.runs))
                theirs.append(torch_ms(name, base, t, args.runs))
            row = [name, str(t)]
            if args.interp:
                row.append('%.2f' % relay_one_run_s(relay_run, base, t,
                                                    interp=True))
            mine, peer = float(np.median(ours)), float(np.median(theirs))
            row += ['%.2f' % float(np.median(first)), '%.1f' % mine,
                    '%.1f' % peer, '%.2f' % (peer / mine)]
            rows.append(row)
            print('%s at %d threads done' % (name, t), file=sys.stderr,
                  flush=True)
    headers = ['detector', 'threads']
    if args.interp:
        headers.append('relay-run --interp, one run (s)')
    headers += ['relay-run, one run (s)', 'relay-run, a run (ms)',
                'PyTorch eager, a run (ms)', 'PyTorch / relay-run']
    cpu_table(headers, rows, args.results)
    return 0


if __name__ == '__main__':
    sys.exit(main())

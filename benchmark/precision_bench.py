#!/usr/bin/python3
"""relay-mlir's --precision bf16 against PyTorch's bfloat16, side by side.

For each vision network (torchvision, random weights, exported to ONNX as
the other benchmarks do), in one run with the two sides alternating in
each round, at one and two threads:

- relay-mlir: `relay-run model.onnx --precision fp32` and `--precision
  bf16` (convolutions and products on bfloat16 operands, float32 sums);
- PyTorch (Debian's python3-torch): float32 at its best (eager or frozen
  TorchScript), and bfloat16 at its best of `torch.autocast('cpu',
  torch.bfloat16)` and the whole model in bfloat16 (`model.bfloat16()`),
  of those that run (n/a when neither does).

It prints the table (the CPU model in its heading) and each side's bf16
error against PyTorch's float32 output, relative to its largest magnitude.

  /usr/bin/python3 benchmark/precision_bench.py [--runs 20] [--rounds 2]
      [--only resnet18,vgg16] [--results benchmark/RESULTS.md]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'examples', 'models'))
sys.path.insert(0, os.path.join(ROOT, 'benchmark'))
import export_torchvision  # noqa: E402
from run_workloads import cpu_model, peer_env, with_blas_check  # noqa: E402

NETWORKS = ['resnet18', 'mobilenet_v2', 'vgg16', 'googlenet', 'densenet121',
            'regnet_y_400mf', 'swin_t']

TORCH_DRIVER = r'''
import json, sys, time
import numpy as np
import torch
threads, spec = int(sys.argv[1]), json.loads(sys.argv[2])
torch.set_num_threads(threads)
model = torch.load(spec['model'], weights_only=False).eval()
x = torch.from_numpy(np.load(spec['input']))

def timed(fn, arg):
    with torch.no_grad():
        for _ in range(3):
            fn(arg)
        times = []
        for _ in range(spec['runs']):
            t = time.perf_counter()
            fn(arg)
            times.append((time.perf_counter() - t) * 1e3)
    return float(np.median(times))

result = {}
with torch.no_grad():
    frozen = torch.jit.optimize_for_inference(
        torch.jit.freeze(torch.jit.trace(model, (x,)).eval()))
result['fp32'] = min(timed(model, x), timed(frozen, x))

def autocast(arg):
    with torch.autocast('cpu', dtype=torch.bfloat16):
        return model(arg)

# Either form can fail on a network (this PyTorch's autocast passes f32
# weights to a bf16 layer_norm in Swin-T): it is then left out.
result['autocast'] = result['bf16'] = None
try:
    with torch.no_grad():
        out = autocast(x).float().numpy()
    np.save(spec['prefix'] + '.autocast.npy', out)
    result['autocast'] = timed(autocast, x)
except RuntimeError:
    pass
try:
    whole = torch.load(spec['model'], weights_only=False).eval().bfloat16()
    xb = x.bfloat16()
    with torch.no_grad():
        out = whole(xb).float().numpy()
    if result['autocast'] is None:
        np.save(spec['prefix'] + '.autocast.npy', out)
    result['bf16'] = timed(whole, xb)
except RuntimeError:
    pass
print(json.dumps(result))
'''
TORCH_DRIVER = with_blas_check(TORCH_DRIVER)


def run_relay(relay_run, model, inp, precision, threads, runs, out=None):
    cmd = [relay_run, model, '--input', inp, '--precision', precision,
           '--num-threads', str(threads), '--bench', str(runs)]
    if out:
        cmd += ['--output', out]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0 or 'reference interpreter' in proc.stderr:
        raise RuntimeError('relay-run failed on %s:\n%s' % (model, proc.stderr))
    return float(re.search(r'median: ([0-9.]+) ms', proc.stdout).group(1))


def run_torch(spec, threads):
    env = peer_env(threads)
    proc = subprocess.run(['/usr/bin/python3', '-c', TORCH_DRIVER,
                           str(threads), json.dumps(spec)],
                          capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise RuntimeError('PyTorch failed on %s:\n%s' % (spec['model'],
                                                           proc.stderr))
    return json.loads(proc.stdout.strip().splitlines()[-1])


def error(got, want):
    return float(np.max(np.abs(got - want)) / np.max(np.abs(want)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', default=os.path.join(ROOT, 'build', 'bin'))
    parser.add_argument('--models',
                        default=os.path.join(ROOT, 'build', 'models'))
    parser.add_argument('--runs', type=int, default=20)
    parser.add_argument('--rounds', type=int, default=2)
    parser.add_argument('--only', default='')
    parser.add_argument('--results', help='append the table to this file')
    args = parser.parse_args()
    relay_run = os.path.join(args.bin, 'relay-run')
    names = args.only.split(',') if args.only else NETWORKS
    os.makedirs(args.models, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            base = os.path.join(args.models, name)
            if not os.path.exists(base + '.onnx'):
                export_torchvision.export(name, args.models)
            inp = base + '.input.npy'
            spec = {'model': base + '.pt', 'input': inp, 'runs': args.runs,
                    'prefix': os.path.join(tmp, name)}
            out = os.path.join(tmp, name + '.bf16.npy')
            times = {k: [] for k in ('r32_1', 'r16_1', 't32_1', 't16_1',
                                     'r32_2', 'r16_2', 't32_2', 't16_2')}
            for r in range(args.rounds):
                for threads in (1, 2):
                    times['r32_%d' % threads].append(run_relay(
                        relay_run, base + '.onnx', inp, 'fp32', threads,
                        args.runs))
                    times['r16_%d' % threads].append(run_relay(
                        relay_run, base + '.onnx', inp, 'bf16', threads,
                        args.runs, out if r == 0 and threads == 1 else None))
                    t = run_torch(spec, threads)
                    times['t32_%d' % threads].append(t['fp32'])
                    bf16 = [v for v in (t['autocast'], t['bf16']) if v]
                    times['t16_%d' % threads].append(
                        min(bf16) if bf16 else float('nan'))
            want = np.load(base + '.torch.npy')
            ours = error(np.load(out), want)
            theirs = (error(np.load(spec['prefix'] + '.autocast.npy'), want)
                      if os.path.exists(spec['prefix'] + '.autocast.npy')
                      else float('nan'))
            med = {k: float(np.median(v)) for k, v in times.items()}
            rows.append((name, med, ours, theirs))
            print('%-15s bf16 1T %.2f ms (PyTorch bf16 %.2f), error %.2g '
                  '(autocast %.2g)' % (name, med['r16_1'], med['t16_1'],
                                       ours, theirs), flush=True)
    lines = ['| network | relay-mlir fp32 / bf16 1T (ms) '
             '| PyTorch fp32 / bf16 1T (ms) | bf16: PyTorch / relay-mlir 1T '
             '| relay-mlir fp32 / bf16 2T (ms) | PyTorch fp32 / bf16 2T (ms) '
             '| bf16: PyTorch / relay-mlir 2T '
             '| relay-mlir bf16 over fp32 1T; 2T '
             '| bf16 error: relay-mlir; PyTorch |',
             '|' + '---|' * 9]
    for name, m, ours, theirs in rows:
        lines.append(
            '| %s | %.2f / %.2f | %.2f / %.2f | %.2f | %.2f / %.2f '
            '| %.2f / %.2f | %.2f | %.2f; %.2f | %.2g; %.2g |' % (
                name, m['r32_1'], m['r16_1'], m['t32_1'], m['t16_1'],
                m['t16_1'] / m['r16_1'], m['r32_2'], m['r16_2'], m['t32_2'],
                m['t16_2'], m['t16_2'] / m['r16_2'], m['r32_1'] / m['r16_1'],
                m['r32_2'] / m['r16_2'], ours, theirs))
    cpu = cpu_model()
    text = ('CPU: %s; median of %d rounds of %d runs, the sides alternating.'
            '\n\n' % (cpu, args.rounds, args.runs) + '\n'.join(lines))
    print()
    print(text)
    if args.results:
        with open(args.results, 'a') as f:
            f.write('\n' + text + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())

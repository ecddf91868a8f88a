#!/usr/bin/env python3
"""Lowers every workload with --relay-to-nvvm and checks each kernel's PTX
with the CUDA toolkit's ptxas (no GPU needed).

The workloads are the papers' (ResNet-18, MobileNet-V2 and VGG-16 through
ONNX, DQN, RNN, GRU, LSTM, CharRNN and TreeLSTM in Relay text). Each kernel
of each gpu.binary is written out as a .ptx file and compiled by
`ptxas -arch=<chip>`; a kernel ptxas rejects, a pipeline error or a program
without kernels fails the test.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, 'benchmark'))
import run_workloads  # noqa: E402  (the workloads' programs)

# `assembly = "..."` of a #gpu.object (MLIR escapes bytes as \XX, `"` and `\`
# included).
ASSEMBLY = re.compile(r'assembly = "((?:[^"\\]|\\.)*)"')
ESCAPE = re.compile(r'\\([0-9A-Fa-f]{2}|\\)')


def unescape(text):
    return ESCAPE.sub(lambda m: '\\' if m.group(1) == '\\'
                      else chr(int(m.group(1), 16)), text)


def lower(bin_dir, name, models, chip, features, tmp):
    """The lowered module's text, weights elided (only the PTX is read). The
    import goes to relay-mlir-opt as bytecode: VGG-16's weights as text are
    1.1 GB of hex, slower to print and parse than the lowering itself."""
    program = run_workloads.program_path(name, models)
    imported = os.path.join(tmp, name + '.mlirbc')
    subprocess.run(
        [os.path.join(bin_dir, 'relay-mlir-translate'),
         '--import-onnx' if program.endswith('.onnx') else '--import-relay',
         program, '--emit-bytecode', '-o', imported], check=True,
        capture_output=True)
    result = subprocess.run(
        [os.path.join(bin_dir, 'relay-mlir-opt'), imported,
         '--relay-to-nvvm=chip=%s features=%s' % (chip, features),
         '--mlir-elide-elementsattrs-if-larger=16',
         '--mlir-elide-resource-strings-if-larger=16'], capture_output=True)
    os.remove(imported)
    if result.returncode != 0:
        raise RuntimeError(result.stderr.decode(errors='replace'))
    return result.stdout.decode()


def ptxas(tool, chip, path):
    result = subprocess.run([tool, '-arch=' + chip, path, '-o', os.devnull],
                            capture_output=True, text=True)
    return path, result.returncode, result.stderr


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', default=os.path.join(ROOT, 'build', 'bin'))
    parser.add_argument('--models',
                        default=os.path.join(ROOT, 'build', 'models'))
    parser.add_argument('--ptxas', default='ptxas')
    parser.add_argument('--chip', default='sm_90')
    parser.add_argument('--features', default='+ptx80')
    parser.add_argument('--only', default='')
    args = parser.parse_args()
    names = run_workloads.selected(args.only)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for name in names:
            try:
                text = lower(args.bin, name, args.models, args.chip,
                             args.features, tmp)
            except (RuntimeError, subprocess.CalledProcessError) as error:
                failures += 1
                print('%-13s FAILED to lower: %s' % (name, str(error)[:2000]),
                      flush=True)
                continue
            kernels = ASSEMBLY.findall(text)
            if not kernels:
                failures += 1
                print('%-13s FAILED: no kernels' % name, flush=True)
                continue
            paths = []
            for i, kernel in enumerate(kernels):
                path = os.path.join(tmp, '%s.%d.ptx' % (name, i))
                with open(path, 'w') as f:
                    f.write(unescape(kernel))
                paths.append(path)
            rejected = [r for r in pool.map(
                lambda p: ptxas(args.ptxas, args.chip, p), paths) if r[1]]
            launches = text.count('gpu.launch_func')
            if rejected:
                failures += 1
                print('%-13s %d of %d kernels REJECTED by ptxas, first: %s' % (
                    name, len(rejected), len(kernels), rejected[0][2][:2000]),
                    flush=True)
            else:
                print('%-13s %4d kernels (%d launch sites) pass ptxas -arch=%s'
                      % (name, len(kernels), launches, args.chip), flush=True)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

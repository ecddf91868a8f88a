#!/usr/bin/python3
"""TorchScript modules that build Python lists of tensors, exported by
torch.onnx (ONNX sequences: SequenceEmpty, SequenceInsert, SequenceAt,
SequenceErase, SequenceLength, SplitToSequence, ConcatFromSequence inside
Loops), run by relay-run interpreted and compiled against PyTorch.

  /usr/bin/python3 check_torch_sequences.py --bin build/bin
"""
import argparse
import os
import subprocess
import sys
import tempfile
from typing import List

import numpy as np
import torch


class Appends(torch.nn.Module):
    """A loop appending scaled rows, concatenated."""
    def forward(self, x):
        parts: List[torch.Tensor] = []
        for i in range(x.size(0)):
            parts.append(x[i] * float(i + 1))
        return torch.cat(parts, 0), len(parts)


class Chunks(torch.nn.Module):
    """torch.split into a list, stacked and summed."""
    def forward(self, x):
        chunks = torch.split(x, 2, 1)
        return torch.stack(list(chunks), 0).sum(0)


class Edits(torch.nn.Module):
    """Inserts at the front, pops the last, reads from the end."""
    def forward(self, x):
        parts: List[torch.Tensor] = [x[0], x[1]]
        for i in range(2, x.size(0)):
            parts.insert(0, x[i] + 1.0)
        last = parts.pop()
        return torch.stack(parts, 0), last, parts[-1]


class Prefixes(torch.nn.Module):
    """Rows of growing length: a list of tensors of different sizes."""
    def forward(self, x):
        sums: List[torch.Tensor] = []
        for i in range(x.size(1)):
            sums.append(x[:, : i + 1].sum(1))
        return torch.cat(sums, 0)


MODULES = [Appends, Chunks, Edits, Prefixes]


def run(relay_run, model, inputs, outputs, interp, tmp):
    out = os.path.join(tmp, 'out.npy')
    cmd = [relay_run, model, '--output', out]
    for i, x in enumerate(inputs):
        path = os.path.join(tmp, 'in%d.npy' % i)
        np.save(path, x)
        cmd += ['--input', path]
    if interp:
        cmd.append('--interp')
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        return proc.stderr.strip().splitlines()[-1]
    files = [out] if len(outputs) == 1 else [
        os.path.join(tmp, 'out.%d.npy' % i) for i in range(len(outputs))]
    for path, want in zip(files, outputs):
        got = np.load(path)
        if got.shape != want.shape or not np.allclose(got, want, rtol=1e-5,
                                                      atol=1e-6):
            return 'output %s differs: %s vs %s' % (
                os.path.basename(path), got.tolist(), want.tolist())
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', required=True)
    args = parser.parse_args()
    relay_run = os.path.join(args.bin, 'relay-run')
    torch.manual_seed(0)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for cls in MODULES:
            module = torch.jit.script(cls())
            x = torch.randn(4, 6)
            model = os.path.join(tmp, cls.__name__ + '.onnx')
            torch.onnx.export(module, (x,), model, opset_version=15,
                              input_names=['x'])
            want = module(x)
            want = want if isinstance(want, tuple) else (want,)
            want = [np.asarray(w.numpy() if isinstance(w, torch.Tensor)
                               else w) for w in want]
            for interp in (True, False):
                why = run(relay_run, model, [x.numpy()], want, interp, tmp)
                mode = 'interpreted' if interp else 'compiled'
                if why:
                    failures += 1
                    print('FAIL %s (%s): %s' % (cls.__name__, mode, why))
                else:
                    print('ok   %s (%s)' % (cls.__name__, mode))
    print('%d of %d runs agree with PyTorch' % (2 * len(MODULES) - failures,
                                                2 * len(MODULES)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
"""Any torchvision network, tried as a new user would: built by its
torchvision constructor with random weights (nothing is downloaded),
exported with torch.onnx.export, run by `relay-run model.onnx`, its output
checked against PyTorch's, then timed side by side with PyTorch at its best
of eager and frozen torch.jit.trace, at one and two threads, the two sides
alternating in each round. Printed as a Markdown table headed by the CPU
model (benchmark/RESULTS.md keeps the figures).

  /usr/bin/python3 benchmark/any_torchvision.py [--bin build/bin]
      [--dir DIR] [--runs 5] [--rounds 1] [--results FILE]
      NAME[@SIZE] ...

NAME is a constructor of torchvision.models (resnet50), of its
segmentation module (deeplabv3_resnet50: the 'out' map is the output) or
of its video module (mc3_18: a 16-frame clip); SIZE the image's side
(default 224, 112 for the video networks), e.g. efficientnet_v2_s@384.
The exports are kept in DIR (default a temporary directory).
"""
import argparse
import inspect
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_builds import cpu_table  # noqa: E402
from conv_layers import relay_ms  # noqa: E402
from run_workloads import ROOT, peer_env, with_blas_check  # noqa: E402

# Exports NAME at SIZE into DIR (argv): NAME.onnx, NAME.pt (the module),
# NAME.input.npy and NAME.torch.npy (PyTorch's output).
EXPORT = r'''
import inspect, sys, numpy as np, torch
out, name, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, sys.argv[4])
from any_torchvision import build
torch.manual_seed(0)
model, shape = build(name, size)
x = torch.from_numpy(np.random.default_rng(0).standard_normal(
    (1,) + shape).astype(np.float32))
with torch.no_grad():
    np.save('%s/%s.torch.npy' % (out, name), model(x).numpy())
np.save('%s/%s.input.npy' % (out, name), x.numpy())
legacy = {'dynamo': False} if 'dynamo' in inspect.signature(
    torch.onnx.export).parameters else {}
torch.onnx.export(model, x, '%s/%s.onnx' % (out, name), opset_version=17,
                  **legacy)
torch.save(model, '%s/%s.pt' % (out, name))
'''

# Times NAME.pt at its best of eager and frozen trace (argv: the .pt file,
# threads, runs, this directory); prints the median in ms.
TORCH_SIDE = r'''
import sys, numpy as np, torch
path, threads, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
sys.path.insert(0, sys.argv[4])
from any_torchvision import SegmentationOut  # noqa: F401 (unpickling)
from conv_layers import best_median_ms
torch.set_num_threads(threads)
model = torch.load(path, weights_only=False).eval()
x = torch.from_numpy(np.load(path[:-3] + '.input.npy'))
with torch.no_grad():
    fns = [model]
    try:
        fns.append(torch.jit.freeze(torch.jit.trace(model, x)))
    except Exception:
        pass
    print(best_median_ms(fns, x, runs, warmup=3))
'''
TORCH_SIDE = with_blas_check(TORCH_SIDE)


class SegmentationOut(torch.nn.Module):
    """A segmentation network's 'out' map (its forward returns a dict)."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)['out']


def build(name, size):
    """The network NAME in eval mode and its input's shape (no batch)."""
    import torchvision
    models = torchvision.models
    if hasattr(models.video, name):
        model = getattr(models.video, name)(weights=None)
        shape = (3, 16, size or 112, size or 112)
    elif hasattr(models.segmentation, name):
        kwargs = {'weights': None, 'weights_backbone': None}
        if 'aux_loss' in inspect.signature(
                getattr(models.segmentation, name)).parameters:
            kwargs['aux_loss'] = False
        model = SegmentationOut(getattr(models.segmentation, name)(**kwargs))
        shape = (3, size or 224, size or 224)
    elif hasattr(models, name):
        kwargs = {'weights': None}
        if name in ('inception_v3', 'googlenet'):
            kwargs.update(aux_logits=False, init_weights=True)
        model = getattr(models, name)(**kwargs)
        shape = (3, size or 224, size or 224)
    else:
        raise SystemExit('no torchvision network %r' % name)
    model.eval()
    # Weight matrices initialised to zeros (ViT's classifier head) would
    # make the output zeros whatever the network computes: random instead,
    # so that the check against PyTorch sees all of it.
    with torch.no_grad():
        for param in model.parameters():
            if param.dim() >= 2 and not param.any():
                param.normal_(0, 0.02)
    # Random but realistic batch-norm statistics, so that they matter.
    for m in model.modules():
        if isinstance(m, (torch.nn.BatchNorm2d, torch.nn.BatchNorm3d)):
            m.running_mean.uniform_(-0.1, 0.1)
            m.running_var.uniform_(0.5, 1.5)
    return model, shape


def torch_ms(path, threads, runs):
    out = subprocess.run([sys.executable, '-c', TORCH_SIDE, path,
                          str(threads), str(runs), os.path.dirname(
                              os.path.abspath(__file__))],
                         capture_output=True, text=True, env=peer_env(threads))
    if out.returncode != 0:
        raise RuntimeError('PyTorch on %s failed:\n%s' % (path, out.stderr))
    return float(out.stdout.strip().splitlines()[-1])


def run(args, tmp):
    relay_run = os.path.join(args.bin, 'relay-run')
    here = os.path.dirname(os.path.abspath(__file__))
    rows = []
    for spec in args.networks:
        name, _, size = spec.partition('@')
        stem = os.path.join(tmp, name)
        if not os.path.exists(stem + '.onnx'):
            export = subprocess.run([sys.executable, '-c', EXPORT, tmp, name,
                                     size or '0', here],
                                    capture_output=True, text=True,
                                    env=peer_env())
            if export.returncode != 0:
                # PyTorch's own exporter fails on some networks (swin_v2_t:
                # aten::zero has no ONNX form); say so and go on.
                why = (export.stderr.strip().splitlines() or
                       ['exit status %d' % export.returncode])[-1]
                print('%s: the ONNX export failed: %s' % (spec, why),
                      file=sys.stderr, flush=True)
                rows.append([spec, 'EXPORT FAILED: ' + why[-200:], '', '',
                             ''])
                continue
        out = subprocess.run([relay_run, stem + '.onnx', '--input',
                              stem + '.input.npy', '--output',
                              stem + '.relay.npy'],
                             capture_output=True, text=True)
        if out.returncode != 0:
            rows.append([spec, 'FAILED: ' + out.stderr.strip()[-200:], '', '',
                         ''])
            continue
        want, got = np.load(stem + '.torch.npy'), np.load(stem + '.relay.npy')
        error = float(np.max(np.abs(want - got)) /
                      max(float(np.max(np.abs(want))), 1e-30))
        times = {}
        for threads in (1, 2):
            ours, theirs = [], []
            for _ in range(args.rounds):
                ours.append(relay_ms(relay_run, stem + '.onnx', threads,
                                     args.runs))
                theirs.append(torch_ms(stem + '.pt', threads, args.runs))
            times[threads] = (float(np.median(ours)), float(np.median(theirs)))
        # A constant output (every class scored alike) checks nothing.
        checked = '%.1e' % error if np.ptp(want) > 0 else \
            'n/a: PyTorch output constant'
        rows.append([
            spec, checked,
            '%.3f / %.3f' % (times[1][0], times[2][0]),
            '%.3f / %.3f' % (times[1][1], times[2][1]),
            '%.2f; %.2f' % (times[1][1] / times[1][0],
                            times[2][1] / times[2][0])])
        print('%s done' % spec, file=sys.stderr, flush=True)
    cpu_table(['network', 'relative error', 'relay-mlir 1T / 2T (ms)',
               'PyTorch best 1T / 2T (ms)', 'PyTorch / relay-mlir 1T; 2T'],
              rows, args.results)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', default=os.path.join(ROOT, 'build', 'bin'))
    parser.add_argument('--dir')
    parser.add_argument('--runs', type=int, default=5)
    parser.add_argument('--rounds', type=int, default=1)
    parser.add_argument('--results')
    parser.add_argument('networks', nargs='+')
    args = parser.parse_args()
    if not os.access(os.path.join(args.bin, 'relay-run'), os.X_OK):
        parser.error('no relay-run in %s (build first, or give --bin)' %
                     args.bin)
    if args.dir:
        os.makedirs(args.dir, exist_ok=True)
        run(args, args.dir)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            run(args, tmp)
    return 0


if __name__ == '__main__':
    sys.exit(main())

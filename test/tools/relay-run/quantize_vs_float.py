#!/usr/bin/python3
"""Relay's quantization (--relay-quantize) on small PyTorch CNNs.

Each network (random weights, batch-norm statistics set) is exported to
ONNX, imported, quantized with TVM's default qconfig (int8 inputs and
weights, int32 accumulation, global scale 8, power-of-two weight scales)
with and without its first convolution left in float, and with ranges
calibrated on four other batches (kl-divergence, percentile; the latter
also with per-channel weight scales), and run on
a batch of random images: the compiled int8 program must equal the interpreter's
(the same integer arithmetic), keep a signal-to-quantization-noise ratio
against the float program above 20 dB, and agree on the top class for at
least 90% of the images.

  /usr/bin/python3 quantize_vs_float.py --bin build/bin
"""
import argparse
import os
import sys
import tempfile

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qdq_compare import run  # noqa: E402


class Plain(torch.nn.Module):
    """conv-bn-relu, a residual pair of convolutions, pooling, a head."""

    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 16, 3, padding=1)
        self.b1 = torch.nn.BatchNorm2d(16)
        self.c2 = torch.nn.Conv2d(16, 16, 3, padding=1)
        self.c3 = torch.nn.Conv2d(16, 16, 3, padding=1)
        self.c4 = torch.nn.Conv2d(16, 32, 3, stride=2, padding=1)
        self.fc = torch.nn.Linear(32, 10)

    def forward(self, x):
        x = torch.relu(self.b1(self.c1(x)))
        y = self.c3(torch.relu(self.c2(x))) + x
        y = torch.nn.functional.max_pool2d(torch.relu(y), 2)
        y = torch.relu(self.c4(y))
        y = torch.nn.functional.adaptive_avg_pool2d(y, 1).flatten(1)
        return self.fc(y)


class Bottleneck(torch.nn.Module):
    """1x1-3x3-1x1 with batch norms and a projected shortcut."""

    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Conv2d(3, 8, 3, padding=1, bias=False)
        self.a = torch.nn.Conv2d(8, 4, 1, bias=False)
        self.ba = torch.nn.BatchNorm2d(4)
        self.b = torch.nn.Conv2d(4, 4, 3, padding=1, bias=False)
        self.bb = torch.nn.BatchNorm2d(4)
        self.c = torch.nn.Conv2d(4, 16, 1, bias=False)
        self.bc = torch.nn.BatchNorm2d(16)
        self.proj = torch.nn.Conv2d(8, 16, 1, bias=False)
        self.fc = torch.nn.Linear(16, 6)

    def forward(self, x):
        x = torch.relu(self.stem(x))
        y = torch.relu(self.ba(self.a(x)))
        y = torch.relu(self.bb(self.b(y)))
        y = self.bc(self.c(y))
        y = torch.relu(y + self.proj(x))
        return self.fc(torch.nn.functional.adaptive_avg_pool2d(y, 1).flatten(1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    args = parser.parse_args()
    opt = os.path.join(args.bin, "relay-mlir-opt")
    translate = os.path.join(args.bin, "relay-mlir-translate")
    relay_run = os.path.join(args.bin, "relay-run")
    torch.manual_seed(0)
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        for net in (Plain(), Bottleneck()):
            name = type(net).__name__
            for m in net.modules():
                if isinstance(m, torch.nn.BatchNorm2d):
                    with torch.no_grad():
                        m.running_mean.uniform_(-0.2, 0.2)
                        m.running_var.uniform_(0.5, 2.0)
            net.eval()
            x = torch.randn(32, 3, 16, 16)
            onnx_path = os.path.join(work, name + ".onnx")
            torch.onnx.export(net, x, onnx_path, input_names=["x"])
            xin = os.path.join(work, name + ".x.npy")
            np.save(xin, x.numpy())
            mlir = os.path.join(work, name + ".mlir")
            run([translate, "--import-onnx", onnx_path, "-o", mlir])
            ref = os.path.join(work, name + ".f.npy")
            run([relay_run, mlir, "--input", xin, "--output", ref])
            want = np.load(ref)
            calibration = os.path.join(work, name + ".calibration")
            os.makedirs(calibration)
            for i in range(4):
                np.save(os.path.join(calibration, f"{i}.npy"),
                        torch.randn(32, 3, 16, 16).numpy())
            configs = [("0", "global-scale", ""),
                       ("none", "global-scale", ""),
                       ("0", "kl-divergence", ""), ("0", "percentile", ""),
                       ("0", "percentile", " per-channel=true weight-scale=max")]
            for skip, mode, extra in configs:
                tag = f"{skip}.{mode}{'.pc' if extra else ''}"
                q = os.path.join(work, f"{name}.q{tag}.mlir")
                options = (f"skip-conv-layers={skip} calibrate-mode={mode}"
                           f"{extra}")
                if mode != "global-scale":
                    options += f" calibration-data={calibration}"
                run([opt, mlir, f"--relay-quantize={options}", "-o", q])
                with open(q) as f:
                    text = f.read()
                convs = [l for l in text.splitlines() if "relay.nn.conv2d" in l]
                int8 = sum("xi8>, tensor<" in l and "xi32>" in l for l in convs)
                got_path = os.path.join(work, f"{name}.q{tag}.npy")
                interp_path = os.path.join(work, f"{name}.q{tag}.i.npy")
                p = run([relay_run, q, "--input", xin, "--output", got_path])
                run([relay_run, "--interp", q, "--input", xin, "--output",
                     interp_path])
                got, interp = np.load(got_path), np.load(interp_path)
                compiled = "reference interpreter" not in p.stderr
                same = np.abs(got - interp).max() <= 1e-5 * np.abs(interp).max()
                noise = np.sum((got - want) ** 2)
                sqnr = 10 * np.log10(np.sum(want ** 2) / max(noise, 1e-30))
                agree = np.mean(got.argmax(1) == want.argmax(1))
                # Every convolution but the skipped first runs on int8.
                want_int8 = len(convs) - (skip == "0")
                ok = (compiled and same and sqnr > 20 and agree >= 0.9 and
                      int8 == want_int8)
                failures += not ok
                shown = options.replace(f" calibration-data={calibration}", "")
                print(f"{'ok' if ok else 'MISMATCH'} {name} {shown}: "
                      f"{int8} of {len(convs)} convolutions int8, "
                      f"compiled={compiled} compiled==interpreted={same} "
                      f"SQNR {sqnr:.1f} dB top-1 agreement {agree:.0%}")
    print(f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

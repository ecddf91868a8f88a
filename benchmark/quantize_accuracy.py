#!/usr/bin/python3
"""Accuracy of Relay's quantization (seed 001's table), on networks made
here (no downloads).

  /usr/bin/python3 benchmark/quantize_accuracy.py [--build build]
      [--models digits,resnet18,mobilenet_v2] [--inputs 200] [--results FILE]

digits        a small CNN trained here (PyTorch, a few seconds) on
              scikit-learn's 8x8 digits (python3-sklearn, no download):
              1200 images to train, the other 597 to test; each
              quantization's test accuracy against fp32's, for the bit
              widths of the seeds' table (inputs and weights / results:
              8/32, 8/16, 16/32) and each calibration mode (global-scale,
              kl-divergence and percentile on four batches of training
              images).
resnet18,     torchvision's networks with random weights and batch-norm
mobilenet_v2  statistics set as the model tests do; --inputs random images
              (in batches of 50): top-1 agreement of int8 (8/32) with fp32
              and the signal-to-quantization-noise ratio of the logits, for
              global-scale and kl-divergence (four other batches), the
              latter also with per-channel weight scales (max).

Every quantization is --relay-quantize with TVM's other defaults (the first
convolution and dense layers in float, power-of-two weight scales), run by
relay-run (compiled). Prints a Markdown table (and writes it to --results).
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_builds import cpu_table  # noqa: E402

CONFIGS = {  # name: --relay-quantize options
    "8/32": "",
    "8/16": "nbit-activation=16 dtype-activation=int16",
    "16/32": "nbit-input=16 nbit-weight=16 dtype-input=int16 "
             "dtype-weight=int16",
}
MODES = ["global-scale", "kl-divergence", "percentile"]


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAILED: {' '.join(cmd)}\n{p.stderr[-2000:]}")
    return p


class Tools:
    def __init__(self, build, work):
        self.bin = os.path.join(build, "bin")
        self.work = work

    def path(self, name):
        return os.path.join(self.work, name)

    def import_onnx(self, onnx_path, name):
        out = self.path(name + ".mlir")
        run([os.path.join(self.bin, "relay-mlir-translate"), "--import-onnx",
             onnx_path, "-o", out])
        return out

    def quantize(self, mlir, name, options):
        out = self.path(name + ".mlir")
        run([os.path.join(self.bin, "relay-mlir-opt"), mlir,
             f"--relay-quantize={options}", "-o", out])
        return out

    def run(self, program, x, name):
        xin, out = self.path(name + ".x.npy"), self.path(name + ".y.npy")
        np.save(xin, x)
        run([os.path.join(self.bin, "relay-run"), program, "--input", xin,
             "--output", out])
        return np.load(out)


def calibration_dir(tools, name, batches):
    d = tools.path(name + ".calibration")
    os.makedirs(d, exist_ok=True)
    for i, b in enumerate(batches):
        np.save(os.path.join(d, f"{i}.npy"), b.astype(np.float32))
    return d


def digits(tools):
    from sklearn.datasets import load_digits
    data = load_digits()
    x = (data.images / 16.0).astype(np.float32)[:, None]
    y = data.target
    rng = np.random.default_rng(0)
    order = rng.permutation(len(x))
    train, test = order[:1200], order[1200:]
    torch.manual_seed(0)
    net = torch.nn.Sequential(
        torch.nn.Conv2d(1, 16, 3, padding=1), torch.nn.ReLU(),
        torch.nn.Conv2d(16, 32, 3, padding=1), torch.nn.ReLU(),
        torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(32, 32, 3, padding=1), torch.nn.ReLU(),
        torch.nn.Flatten(), torch.nn.Linear(32 * 4 * 4, 10))
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    xt, yt = torch.from_numpy(x[train]), torch.from_numpy(y[train])
    for epoch in range(15):
        for i in range(0, len(train), 50):
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(net(xt[i:i + 50]),
                                                     yt[i:i + 50])
            loss.backward()
            opt.step()
    net.eval()
    batch = len(test)
    onnx_path = tools.path("digits.onnx")
    torch.onnx.export(net, torch.from_numpy(x[test]), onnx_path,
                      input_names=["x"])
    mlir = tools.import_onnx(onnx_path, "digits")
    fp32 = tools.run(mlir, x[test], "digits.fp32").argmax(1)
    rows = [("digits CNN", "fp32", "-", f"{np.mean(fp32 == y[test]):.1%}",
             "-")]
    cal = calibration_dir(tools, "digits", [
        x[train][rng.choice(len(train), batch)] for _ in range(4)])
    for config, options in CONFIGS.items():
        for mode in MODES:
            opts = f"{options} calibrate-mode={mode}".strip()
            if mode != "global-scale":
                opts += f" calibration-data={cal}"
            q = tools.quantize(mlir, f"digits.{config.replace('/', '_')}.{mode}",
                               opts)
            got = tools.run(q, x[test], "digits.q").argmax(1)
            rows.append(("digits CNN", config, mode,
                         f"{np.mean(got == y[test]):.1%}",
                         f"{np.mean(got == fp32):.1%}"))
    return rows


def torchvision_model(tools, name, inputs):
    import torchvision
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(weights=None).eval()
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.uniform_(-0.1, 0.1)
            m.running_var.uniform_(0.5, 1.5)
    batch = 50
    rng = np.random.default_rng(1)
    images = rng.standard_normal((inputs, 3, 224, 224)).astype(np.float32)
    onnx_path = tools.path(name + ".onnx")
    torch.onnx.export(model, torch.from_numpy(images[:batch]), onnx_path,
                      input_names=["image"], opset_version=13)
    mlir = tools.import_onnx(onnx_path, name)
    fp32 = np.concatenate([tools.run(mlir, images[i:i + batch], name + ".f")
                           for i in range(0, inputs, batch)])
    cal = calibration_dir(tools, name, [
        rng.standard_normal((batch, 3, 224, 224)) for _ in range(4)])
    rows = []
    modes = (("global-scale", ""), ("kl-divergence", ""),
             ("kl-divergence, per-channel max weight scales",
              " per-channel=true weight-scale=max"))
    for label, extra in modes:
        mode = label.split(",")[0]
        opts = f"calibrate-mode={mode}{extra}"
        if mode != "global-scale":
            opts += f" calibration-data={cal}"
        q = tools.quantize(mlir, f"{name}.{mode}{'.pc' if extra else ''}",
                           opts)
        got = np.concatenate([tools.run(q, images[i:i + batch], name + ".q")
                              for i in range(0, inputs, batch)])
        sqnr = 10 * np.log10(np.sum(fp32 ** 2) / np.sum((got - fp32) ** 2))
        rows.append((name, "8/32", label, f"SQNR {sqnr:.1f} dB",
                     f"{np.mean(got.argmax(1) == fp32.argmax(1)):.1%}"))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--models", default="digits,resnet18,mobilenet_v2")
    parser.add_argument("--inputs", type=int, default=200)
    parser.add_argument("--results")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as work:
        tools = Tools(args.build, work)
        for model in args.models.split(","):
            if model == "digits":
                rows += digits(tools)
            else:
                rows += torchvision_model(tools, model, args.inputs)
    cpu_table(["network", "bits (inputs, weights / results)", "calibration",
               "accuracy (or SQNR)", "agreement with fp32 (top-1)"],
              rows, args.results)

if __name__ == "__main__":
    main()

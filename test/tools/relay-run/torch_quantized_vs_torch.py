#!/usr/bin/python3
"""Networks quantized by PyTorch (torch.ao.quantization, static, eager mode,
the qnnpack engine) exported to ONNX (QuantizeLinear/DequantizeLinear
around the float operators, as PyTorch's exporter writes them), run by
relay-run compiled (at -O3, where FakeQuantizationToInteger computes them
on the integers; and with it disabled, in float) and interpreted, against
PyTorch's int8 output. Every quantize/dequantize subgraph of the imported
model must be rewritten in integers
(--relay-fake-quantization-to-integer=hard-fail), every convolution and
linear layer becoming a qnn product (and MobileNet-V3's activations
lookup tables, its gate a qnn.mul, its join a qnn.concatenate).

The ONNX form requantizes in float, and the integer form by a fixed-point
multiply, where PyTorch's int8 kernels use their own requantization, so an
output may differ by one step of the output's scale (rounding at a tie):
every output must lie within one step and at least 80% must be equal.

  /usr/bin/python3 torch_quantized_vs_torch.py --bin build/bin
"""
import argparse
import os
import sys
import tempfile

import numpy as np
import torch
import torch.ao.quantization as tq

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qdq_compare import modes_within_one_step, run  # noqa: E402


class Small(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.quant, self.dequant = tq.QuantStub(), tq.DeQuantStub()
        self.c1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.r1 = torch.nn.ReLU()
        self.c2 = torch.nn.Conv2d(8, 16, 3, padding=1, stride=2)
        self.r2 = torch.nn.ReLU()
        self.pool = torch.nn.MaxPool2d(2)
        self.fc = torch.nn.Linear(16 * 4 * 4, 10)
        self.fuse = [["c1", "r1"], ["c2", "r2"]]

    def forward(self, x):
        x = self.r1(self.c1(self.quant(x)))
        x = self.pool(self.r2(self.c2(x)))
        return self.dequant(self.fc(torch.flatten(x, 1)))


class WithBatchNorm(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.quant, self.dequant = tq.QuantStub(), tq.DeQuantStub()
        self.c1 = torch.nn.Conv2d(3, 16, 3, padding=1, bias=False)
        self.b1 = torch.nn.BatchNorm2d(16)
        self.r1 = torch.nn.ReLU()
        self.c2 = torch.nn.Conv2d(16, 16, 1)
        self.pool = torch.nn.AdaptiveAvgPool2d(1)
        self.fc = torch.nn.Linear(16, 5)
        self.fuse = [["c1", "b1", "r1"]]

    def forward(self, x):
        x = self.c2(self.r1(self.b1(self.c1(self.quant(x)))))
        return self.dequant(self.fc(torch.flatten(self.pool(x), 1)))


class Residual(torch.nn.Module):
    """A residual block (PyTorch's quantized add_relu), global average
    pooling, weights quantized per output channel."""

    def __init__(self):
        super().__init__()
        self.quant, self.dequant = tq.QuantStub(), tq.DeQuantStub()
        self.c1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.r1 = torch.nn.ReLU()
        self.c2 = torch.nn.Conv2d(8, 8, 3, padding=1)
        self.skip = torch.ao.nn.quantized.FloatFunctional()
        self.pool = torch.nn.AdaptiveAvgPool2d(1)
        self.fc = torch.nn.Linear(8, 6)
        self.fuse = [["c1", "r1"]]
        self.per_channel = True

    def forward(self, x):
        x = self.r1(self.c1(self.quant(x)))
        y = self.skip.add_relu(self.c2(x), x)
        return self.dequant(self.fc(torch.flatten(self.pool(y), 1)))


class Mobile(torch.nn.Module):
    """MobileNet-V3's pieces: hardswish, a squeeze-and-excitation gate
    (hardsigmoid, a quantized multiply), branches joined by a quantized
    concatenation, and a sigmoid."""

    def __init__(self):
        super().__init__()
        self.quant, self.dequant = tq.QuantStub(), tq.DeQuantStub()
        self.c1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.hs = torch.nn.Hardswish()
        self.squeeze = torch.nn.AdaptiveAvgPool2d(1)
        self.f1 = torch.nn.Conv2d(8, 4, 1)
        self.r1 = torch.nn.ReLU()
        self.f2 = torch.nn.Conv2d(4, 8, 1)
        self.gate = torch.nn.Hardsigmoid()
        self.scale = torch.ao.nn.quantized.FloatFunctional()
        self.a = torch.nn.Conv2d(8, 4, 1)
        self.b = torch.nn.Conv2d(8, 4, 3, padding=1)
        self.join = torch.ao.nn.quantized.FloatFunctional()
        self.sig = torch.nn.Sigmoid()
        self.pool = torch.nn.AdaptiveAvgPool2d(1)
        self.fc = torch.nn.Linear(8, 6)
        self.fuse = [["f1", "r1"]]
        # Tables for hardswish, hardsigmoid and sigmoid.
        self.expect = {"relay.take": 3, "relay.qnn.mul": 1,
                       "relay.qnn.concatenate": 1}

    def forward(self, x):
        x = self.hs(self.c1(self.quant(x)))
        g = self.gate(self.f2(self.r1(self.f1(self.squeeze(x)))))
        x = self.scale.mul(x, g)
        x = self.sig(self.join.cat([self.a(x), self.b(x)], 1))
        return self.dequant(self.fc(torch.flatten(self.pool(x), 1)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    args = parser.parse_args()
    relay_run = os.path.join(args.bin, "relay-run")
    translate = os.path.join(args.bin, "relay-mlir-translate")
    opt = os.path.join(args.bin, "relay-mlir-opt")
    torch.manual_seed(0)
    torch.backends.quantized.engine = "qnnpack"
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        for net in (Small(), WithBatchNorm(), Residual(), Mobile()):
            name = type(net).__name__
            net.eval()
            for m in net.modules():
                if isinstance(m, torch.nn.BatchNorm2d):
                    with torch.no_grad():
                        m.running_mean.uniform_(-0.2, 0.2)
                        m.running_var.uniform_(0.5, 2.0)
            net.qconfig = tq.get_default_qconfig("qnnpack")
            if getattr(net, "per_channel", False):
                net.qconfig = tq.QConfig(
                    activation=net.qconfig.activation,
                    weight=tq.default_per_channel_weight_observer)
            tq.fuse_modules(net, net.fuse, inplace=True)
            tq.prepare(net, inplace=True)
            for _ in range(8):
                net(torch.randn(4, 3, 16, 16))
            tq.convert(net, inplace=True)
            x = torch.randn(8, 3, 16, 16)
            want = net(x).detach().numpy()
            step = float(net.fc.scale)
            path = os.path.join(work, name + ".onnx")
            torch.onnx.export(torch.jit.trace(net, x), x, path,
                              input_names=["x"], opset_version=13)
            xin = os.path.join(work, name + ".x.npy")
            np.save(xin, x.numpy())
            # Every subgraph in integers; a product per conv and linear.
            mlir = os.path.join(work, name + ".mlir")
            run([translate, "--import-onnx", path, "-o", mlir])
            ints = run([opt, mlir,
                        "--relay-fake-quantization-to-integer=hard-fail"]).stdout
            products = ints.count("relay.qnn.conv2d") + \
                ints.count("relay.qnn.dense")
            layers = sum(isinstance(m, (torch.nn.Conv2d, torch.nn.Linear))
                         or type(m).__name__ in ("Conv2d", "Linear",
                                                 "ConvReLU2d", "LinearReLU")
                         for m in net.modules())
            left = [op for op in ("relay.nn.conv2d", "relay.nn.dense",
                                  "relay.nn.matmul") if op in ints]
            expect = getattr(net, "expect", {})
            found = {op: ints.count(op + " ") for op in expect}
            ok = products == layers and not left and found == expect
            failures += not ok
            print(f"{'ok' if ok else 'MISMATCH'} {name} integer form: "
                  f"{products} qnn products for {layers} layers"
                  + (f", float {left} left" if left else "")
                  + "".join(f", {n} {op}" for op, n in found.items()))
            failures += modes_within_one_step(relay_run, path, [xin], want,
                                              step, name, work)
    print(f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

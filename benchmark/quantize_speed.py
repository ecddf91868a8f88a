#!/usr/bin/python3
"""Speed of quantized networks: relay-mlir int8 against relay-mlir f32 and
PyTorch int8 (and f32), side by side in one run.

  /usr/bin/python3 benchmark/quantize_speed.py [--build build]
      [--models resnet18,mobilenet_v2] [--threads 1,2] [--runs 10]
      [--rules FILE] [--results FILE]

Batch 1, 224x224, random weights. relay-mlir: the ONNX export through
relay-run --bench (f32), and --relay-quantize with TVM's defaults (int8
inputs and weights, int32 results, global scale, the first convolution
left in float) and with every convolution in int8 (skip-conv-layers=none,
as PyTorch's quantized models have it), then relay-run --bench (int8). PyTorch: torchvision's quantizable models fused, prepared,
calibrated on four random batches and converted (torch.ao static
quantization) with the fastest of the quantized engines Debian's build has
(onednn, qnnpack, fbgemm where present), and the float model, each timed
in its own process at set_num_threads(T) and OPENBLAS_NUM_THREADS=T
(run_workloads.peer_env): median of --runs after warm-up.
"PyTorch's QDQ": that PyTorch-quantized model (the first engine's
qconfig) exported to ONNX (QuantizeLinear/DequantizeLinear around float
operators) and run by relay-run at -O3, where FakeQuantizationToInteger
computes it on the integers.
--rules FILE quantizes both relay-mlir variants with that rules file too
(`--relay-quantize=rules=FILE`: examples/quantization/squeeze_excitation.txt
for MobileNet-V3). Prints a Markdown table with the CPU model.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_builds import cpu_table  # noqa: E402
from run_workloads import peer_env, with_blas_check  # noqa: E402

TORCH_SIDE = r'''
import sys, time, statistics, torch, torchvision
name, threads, runs, engine = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
sys.path.insert(0, sys.argv[5])
from quantize_speed import quantized_torch_model
torch.set_num_threads(threads)
torch.manual_seed(0)
x = torch.randn(1, 3, 224, 224)
if engine == "f32":
    model = getattr(torchvision.models, name)(weights=None).eval()
else:
    model = quantized_torch_model(name, engine)
with torch.no_grad():
    for _ in range(3):
        model(x)
    times = []
    for _ in range(runs):
        t = time.perf_counter(); model(x); times.append(time.perf_counter() - t)
print(statistics.median(times) * 1000)
'''
TORCH_SIDE = with_blas_check(TORCH_SIDE)


def run(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}\n{p.stderr[-2000:]}")
    return p.stdout


def quantized_torch_model(name, engine):
    """torchvision's quantizable `name` with random weights, fused,
    prepared with the engine's default qconfig, calibrated on four random
    batches and converted (torch.ao static quantization)."""
    import torch
    import torchvision
    import torch.ao.quantization as tq
    torch.backends.quantized.engine = engine
    model = getattr(torchvision.models.quantization, name)(
        weights=None, quantize=False).eval()
    model.fuse_model()
    model.qconfig = tq.get_default_qconfig(engine)
    tq.prepare(model, inplace=True)
    with torch.no_grad():
        for _ in range(4):
            model(torch.randn(1, 3, 224, 224))
    tq.convert(model, inplace=True)
    return model


def export_torch_quantized(name, engine, path):
    """quantized_torch_model exported to ONNX through a trace (QDQ form)."""
    import torch
    torch.manual_seed(0)
    model = quantized_torch_model(name, engine)
    x = torch.randn(1, 3, 224, 224)
    torch.onnx.export(torch.jit.trace(model, x), x, path,
                      input_names=["image"], opset_version=13)


def relay_ms(bin_dir, program, image, threads, runs):
    out = run([os.path.join(bin_dir, "relay-run"), program, "--input", image,
               "--bench", str(runs), "--num-threads", str(threads)])
    return float(re.search(r"median: ([\d.]+) ms", out).group(1))


def torch_ms(name, threads, runs, engine):
    env = peer_env(threads)
    here = os.path.dirname(os.path.abspath(__file__))
    return float(run([sys.executable, "-c", TORCH_SIDE, name, str(threads),
                      str(runs), engine, here],
                     env=env).strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--models", default="resnet18,mobilenet_v2")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--rules", help="a quantization rules file")
    parser.add_argument("--results")
    args = parser.parse_args()
    rules = f" rules={os.path.abspath(args.rules)}" if args.rules else ""
    import numpy as np
    import torch
    import torchvision
    bin_dir = os.path.join(args.build, "bin")
    engines = [e for e in ("onednn", "qnnpack", "fbgemm")
               if e in torch.backends.quantized.supported_engines]
    rows = []
    with tempfile.TemporaryDirectory() as work:
        image = os.path.join(work, "image.npy")
        np.save(image, np.random.default_rng(0).standard_normal(
            (1, 3, 224, 224)).astype(np.float32))
        for name in args.models.split(","):
            torch.manual_seed(0)
            model = getattr(torchvision.models, name)(weights=None).eval()
            onnx_path = os.path.join(work, name + ".onnx")
            torch.onnx.export(model, torch.randn(1, 3, 224, 224), onnx_path,
                              input_names=["image"], opset_version=13)
            f32 = os.path.join(work, name + ".mlir")
            run([os.path.join(bin_dir, "relay-mlir-translate"),
                 "--import-onnx", onnx_path, "-o", f32])
            int8 = os.path.join(work, name + ".int8.mlir")
            run([os.path.join(bin_dir, "relay-mlir-opt"), f32,
                 "--relay-quantize" + ("=" + rules.strip() if rules else ""),
                 "-o", int8])
            # Every convolution in int8, the first too (as PyTorch's
            # quantized models have it).
            int8all = os.path.join(work, name + ".int8all.mlir")
            run([os.path.join(bin_dir, "relay-mlir-opt"), f32,
                 "--relay-quantize=skip-conv-layers=none" + rules, "-o",
                 int8all])
            qdq = os.path.join(work, name + ".qdq.onnx")
            try:
                export_torch_quantized(name, engines[0], qdq)
            except Exception as e:  # torch.onnx cannot export some models
                print(f"{name}: PyTorch's quantized model did not export "
                      f"to ONNX ({type(e).__name__}); no QDQ column",
                      file=sys.stderr)
                qdq = None
            for threads in [int(t) for t in args.threads.split(",")]:
                rqdq = (relay_ms(bin_dir, qdq, image, threads, args.runs)
                        if qdq else None)
                r32 = relay_ms(bin_dir, f32, image, threads, args.runs)
                r8 = relay_ms(bin_dir, int8, image, threads, args.runs)
                r8all = relay_ms(bin_dir, int8all, image, threads, args.runs)
                t32 = torch_ms(name, threads, args.runs, "f32")
                best = None
                for e in engines:
                    try:
                        ms = torch_ms(name, threads, args.runs, e)
                    except RuntimeError:
                        continue
                    if best is None or ms < best[0]:
                        best = (ms, e)
                t8 = f"{best[0]:.1f} ({best[1]})" if best else "n/a"
                ratio = f"{best[0] / r8:.2f}x" if best else "n/a"
                ratio_all = f"{best[0] / r8all:.2f}x" if best else "n/a"
                rows.append((name, str(threads), f"{r8:.1f}",
                             f"{r8all:.1f}", f"{r32:.1f}",
                             f"{r32 / r8:.2f}x; {r32 / r8all:.2f}x", t8,
                             f"{ratio}; {ratio_all}", f"{t32:.1f}",
                             f"{rqdq:.1f}",
                             f"{best[0] / rqdq:.2f}x" if best else "n/a"))
    cpu_table(["network", "threads", "relay-mlir int8 ms (TVM defaults)",
               "relay-mlir int8 ms (every conv)", "relay-mlir f32 ms",
               "f32 / int8 (defaults; every conv)", "PyTorch int8 ms (engine)",
               "PyTorch int8 / relay-mlir int8 (defaults; every conv)",
               "PyTorch f32 ms", "relay-mlir on PyTorch's QDQ ms",
               "PyTorch int8 / relay-mlir QDQ"], rows, args.results)

if __name__ == "__main__":
    main()

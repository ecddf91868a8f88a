#!/usr/bin/python3
"""int8 convolutions and dense layers with constant weights, compiled
against interpreted.

The CPU target convolves int8 images with constant int8 weights into
int32 on AMX tiles where the CPU has AMX-INT8 and the image 16 channels or
more (tdpbssd on an im2col matrix, transforms/Codegen/CPU/AmxProducts.cpp),
else on AVX-512 VNNI where the CPU has it (vpdpbusd over a repacked
image, transforms/Codegen/CPU/VnniConvolution.cpp), on AVX2's vpmaddwd
(the bytes widened to 16 bits, Avx2Int8Convolution.cpp) on other CPUs
with AVX2, and as an integer product elsewhere (and for uint8). Every
case is also compiled for a Haswell (`--cpu haswell`: AVX2, no VNNI)
where this CPU can run its code, so that the vpmaddwd kernel is checked
on VNNI machines too, and for an Ice Lake server (`--cpu icelake-server`:
VNNI, no AMX) on AMX machines, so that vpdpbusd is checked there too. Each case below (channels not a multiple of four,
output channels not a multiple of 16, strides, dilations, uneven
padding, batches, 1x1 and 7x7 kernels, uint8 images, an epilogue of
bias, ReLU and requantization; depthwise (3x3, 5x5, ConvNeXt's 7x7) and
grouped convolutions, which run the f32 kernels on the integers exactly;
a small network of int8 convolutions, max pooling, a depthwise
convolution and a residual addition) is bound to its weights, compiled
and run, and must equal the reference interpreter exactly. At -O3 the
CPU's layout rules put the int8 convolutions (signed, constant weights)
in NHWC (their kernels' own layout; checked that they do); each case
also runs with AlterOpLayout disabled, which keeps them NCHW. Prints
whether the kernels took AMX (tdpbssd), VNNI (vpdpbusd) and vpmaddwd.

Dense layers (DENSE_CASES: one row, inner sizes not a multiple of four,
outputs not of 16, rows of a 3-d input, uint8, a requantizing epilogue)
take the same kernels as 1x1 convolutions of an image of m positions
(ProductPatterns.cpp, CPUTarget.cpp's buildInt8Dense) and are checked the
same way.

  /usr/bin/python3 int8_conv_kernels.py --bin build/bin
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

# (name, n, c, h, w, o, kernel, strides, dilation, padding, data dtype,
#  epilogue, groups)
CASES = [
    ("basic", 1, 16, 9, 9, 16, 3, 1, 1, (1, 1, 1, 1), "int8", False),
    ("odd-channels", 1, 3, 11, 13, 20, 3, 1, 1, (1, 1, 1, 1), "int8", False),
    ("wide-out", 1, 8, 8, 8, 80, 3, 1, 1, (1, 1, 1, 1), "int8", False),
    ("out-48", 1, 12, 7, 7, 48, 3, 1, 1, (0, 0, 0, 0), "int8", False),
    ("stride2", 1, 32, 15, 15, 64, 3, 2, 1, (1, 1, 1, 1), "int8", False),
    ("dilated", 1, 8, 12, 12, 16, 3, 1, 2, (2, 2, 2, 2), "int8", False),
    ("uneven-pad", 1, 5, 10, 7, 17, 3, 1, 1, (0, 1, 2, 0), "int8", False),
    ("1x1-s2", 2, 64, 14, 14, 128, 1, 2, 1, (0, 0, 0, 0), "int8", False),
    ("7x7-s2", 1, 3, 32, 32, 64, 7, 2, 1, (3, 3, 3, 3), "int8", False),
    ("batch3", 3, 16, 6, 6, 32, 3, 1, 1, (1, 1, 1, 1), "int8", False),
    ("uint8", 1, 16, 9, 9, 32, 3, 1, 1, (1, 1, 1, 1), "uint8", False),
    ("uint8-odd", 2, 6, 5, 8, 24, 3, 2, 1, (1, 0, 1, 0), "uint8", False),
    ("one-row", 1, 4, 1, 1, 16, 1, 1, 1, (0, 0, 0, 0), "int8", False),
    ("epilogue", 1, 16, 14, 14, 32, 3, 1, 1, (1, 1, 1, 1), "int8", True),
    # Depthwise (computed in f32, exactly): MobileNet's row kernels and
    # the generic form.
    ("dw3x3", 1, 32, 20, 20, 32, 3, 1, 1, (1, 1, 1, 1), "int8", True, 32),
    ("dw3x3-s2", 1, 48, 28, 28, 48, 3, 2, 1, (1, 1, 1, 1), "int8", False, 48),
    ("dw5x5", 1, 16, 18, 18, 16, 5, 1, 1, (2, 2, 2, 2), "int8", False, 16),
    ("dw7x7", 1, 16, 14, 14, 16, 7, 1, 1, (3, 3, 3, 3), "int8", False, 16),
    ("dw-dilated", 2, 8, 12, 12, 8, 3, 1, 2, (2, 2, 2, 2), "int8", False, 8),
    ("dw-uint8", 1, 16, 9, 9, 16, 3, 1, 1, (1, 1, 1, 1), "uint8", False, 16),
    ("grouped", 1, 16, 9, 9, 32, 3, 1, 1, (1, 1, 1, 1), "int8", False, 4),
    # AMX tiles: k (taps x channels) not a multiple of 64 and output
    # channels not of 32; a 1x1 convolution whose image is its A (64
    # pixels, 64 channels); a 512-channel 3x3 layer on a 7x7 map (many
    # column blocks, the weights the larger operand); two strided images.
    ("amx-k-pad", 1, 24, 10, 9, 40, 3, 1, 1, (1, 1, 1, 1), "int8", True),
    ("amx-1x1-whole", 1, 64, 8, 8, 32, 1, 1, 1, (0, 0, 0, 0), "int8", False),
    ("amx-wide", 1, 512, 7, 7, 512, 3, 1, 1, (1, 1, 1, 1), "int8", True),
    ("amx-batch-s2", 2, 48, 13, 11, 64, 3, 2, 1, (1, 0, 1, 1), "int8",
     False),
]

# (name, data shape, units, data dtype, epilogue): nn.dense of int8 data
# [..., k] by constant weights [units, k] into int32, plus a bias.
DENSE_CASES = [
    ("dense-one-row", (1, 64), 48, "int8", False),
    ("dense-odd", (5, 30), 20, "int8", False),
    ("dense-out-33", (17, 40), 33, "int8", False),
    ("dense-tokens", (2, 7, 24), 64, "int8", False),
    ("dense-large", (64, 256), 96, "int8", True),
    ("dense-uint8", (6, 16), 32, "uint8", False),
]


def dense_program(shape, units, dtype, epilogue):
    dims = ", ".join(map(str, shape))
    head = (f'#[version = "0.0.5"]\n'
            f"def @main(%x: Tensor[({dims}), {dtype}], "
            f"%w: Tensor[({units}, {shape[-1]}), {dtype}], "
            f"%bias: Tensor[({units}), int32]) {{\n"
            f"  %0 = nn.dense(%x, %w, out_dtype=\"int32\");\n")
    if not epilogue:
        return head + "  add(%0, %bias)\n}\n"
    return head + ("  %1 = right_shift(add(%0, %bias), 9);\n"
                   "  cast(clip(%1, a_min=-127f, a_max=127f), "
                   "dtype=\"int8\")\n}\n")


# A network's worth of int8 layers: a 3x3 convolution, max pooling, a
# depthwise 3x3 convolution (stride 2) and a 1x1 one, each requantized, and
# a residual addition of the pooled image.
NETWORK = '''#[version = "0.0.5"]
def @main(%x: Tensor[(1, 8, 20, 20), int8], %w1: Tensor[(32, 8, 3, 3), int8],
          %w2: Tensor[(32, 1, 3, 3), int8], %w3: Tensor[(32, 32, 1, 1), int8],
          %bias: Tensor[(32, 1, 1), int32]) {
  %0 = nn.conv2d(%x, %w1, padding=[1, 1, 1, 1], out_dtype="int32");
  %1 = nn.relu(add(%0, %bias));
  %2 = cast(clip(right_shift(add(%1, 256), 9), a_min=-127f, a_max=127f),
            dtype="int8");
  %3 = nn.max_pool2d(%2, pool_size=[3, 3], strides=[2, 2],
                     padding=[1, 1, 1, 1]);
  %4 = nn.conv2d(%3, %w2, strides=[2, 2], padding=[1, 1, 1, 1], groups=32,
                 channels=32, kernel_size=[3, 3], out_dtype="int32");
  %5 = cast(clip(right_shift(add(%4, 128), 8), a_min=-127f, a_max=127f),
            dtype="int8");
  %6 = nn.conv2d(%5, %w3, out_dtype="int32");
  %7 = nn.max_pool2d(%3, pool_size=[2, 2], strides=[2, 2]);
  %8 = add(%6, left_shift(cast(%7, dtype="int32"), 4));
  cast(clip(right_shift(%8, 6), a_min=-127f, a_max=127f), dtype="int8")
}
'''
NETWORK_SHAPES = {"x": (1, 8, 20, 20), "w1": (32, 8, 3, 3),
                  "w2": (32, 1, 3, 3), "w3": (32, 32, 1, 1)}


def program(n, c, h, w, o, k, s, d, pad, dtype, epilogue, groups):
    conv = (f"nn.conv2d(%x, %w, strides=[{s}, {s}], dilation=[{d}, {d}], "
            f"padding=[{', '.join(map(str, pad))}], groups={groups}, "
            f"out_dtype=\"int32\")")
    head = (f'#[version = "0.0.5"]\n'
            f"def @main(%x: Tensor[({n}, {c}, {h}, {w}), {dtype}], "
            f"%w: Tensor[({o}, {c // groups}, {k}, {k}), {dtype}], "
            f"%bias: Tensor[({o}, 1, 1), int32]) {{\n")
    if not epilogue:
        return head + f"  %0 = {conv};\n  add(%0, %bias)\n}}\n"
    return head + (f"  %0 = {conv};\n  %1 = nn.relu(add(%0, %bias));\n"
                   f"  %2 = right_shift(add(%1, 512), 10);\n"
                   f"  cast(clip(%2, a_min=-127f, a_max=127f), "
                   f"dtype=\"int8\")\n}}\n")


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)}\n{p.stderr[-3000:]}")
    return p.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    args = parser.parse_args()
    opt = os.path.join(args.bin, "relay-mlir-opt")
    translate = os.path.join(args.bin, "relay-mlir-translate")
    relay_run = os.path.join(args.bin, "relay-run")
    rng = np.random.default_rng(7)
    failures = 0
    amx = vnni = pmaddwd = False
    with open("/proc/cpuinfo") as f:
        flags = f.read()
    avx2 = " avx2" in flags
    has_amx = " amx_int8" in flags and " avx512_vnni" in flags
    nchw = ["--disable-pass", "AlterOpLayout"]
    targets = ([[], nchw] + ([["--cpu", "haswell"]] if avx2 else []) +
               ([["--cpu", "icelake-server"]] if has_amx else []))
    nhwc = 0
    with tempfile.TemporaryDirectory() as work:
        for case_ in CASES + DENSE_CASES + [("network",)]:
            name = case_[0]
            case = os.path.join(work, name)
            params = case + ".params"
            os.makedirs(params)
            if name.startswith("dense"):
                _, shape, units, dtype, epi = case_
                groups = 0
                text = dense_program(shape, units, dtype, epi)
                lo, hi = (0, 256) if dtype == "uint8" else (-128, 128)
                np.save(case + ".x.npy",
                        rng.integers(lo, hi, shape).astype(dtype))
                np.save(os.path.join(params, "w.npy"), rng.integers(
                    lo, hi, (units, shape[-1])).astype(dtype))
                np.save(os.path.join(params, "bias.npy"), rng.integers(
                    -5000, 5000, (units,)).astype(np.int32))
            elif name == "network":
                text, dtype, groups = NETWORK, "int8", 1
                np.save(case + ".x.npy", rng.integers(
                    -128, 128, NETWORK_SHAPES["x"]).astype(np.int8))
                for p, shape in NETWORK_SHAPES.items():
                    if p != "x":
                        np.save(os.path.join(params, p + ".npy"),
                                rng.integers(-20, 20, shape).astype(np.int8))
                np.save(os.path.join(params, "bias.npy"),
                        rng.integers(-500, 500, (32, 1, 1)).astype(np.int32))
            else:
                (name, n, c, h, w, o, k, s, d, pad, dtype, epi) = case_[:12]
                groups = case_[12] if len(case_) > 12 else 1
                text = program(n, c, h, w, o, k, s, d, pad, dtype, epi,
                               groups)
                lo, hi = (0, 256) if dtype == "uint8" else (-128, 128)
                np.save(case + ".x.npy",
                        rng.integers(lo, hi, (n, c, h, w)).astype(dtype))
                np.save(os.path.join(params, "w.npy"), rng.integers(
                    lo, hi, (o, c // groups, k, k)).astype(dtype))
                np.save(os.path.join(params, "bias.npy"), rng.integers(
                    -5000, 5000, (o, 1, 1)).astype(np.int32))
            with open(case + ".rly", "w") as f:
                f.write(text)
            imported = run([translate, "--import-relay", case + ".rly"])
            with open(case + ".in.mlir", "w") as f:
                f.write(imported)
            run([opt, case + ".in.mlir", f"--relay-bind-params=dir={params}",
                 "-o", case + ".mlir"])
            lowered = run([opt, case + ".mlir", "--relay-to-llvm"])
            amx = amx or "tdpbssd" in lowered
            vnni = vnni or "vpdpbusd" in lowered
            # Signed ungrouped or depthwise int8 convolutions take NHWC.
            optimized = run([opt, case + ".mlir", "--relay-optimize"])
            if avx2 and dtype == "int8" and (groups == 1 or name[:2] == "dw"):
                if 'data_layout = "NHWC"' not in optimized:
                    failures += 1
                    print(f"FAIL {name}: the convolution did not take NHWC")
                else:
                    nhwc += 1
            run([relay_run, case + ".mlir", "--interp", "--input",
                 case + ".x.npy", "--output", case + ".interp.npy"])
            want = np.load(case + ".interp.npy")
            if want.min() == want.max():
                failures += 1
                print(f"FAIL {name}: a constant output checks nothing")
            for target in targets:
                if target and target[0] == "--cpu":
                    lowered = run([opt, case + ".mlir",
                                   f"--relay-set-target-cpu=cpu={target[1]}",
                                   "--relay-to-llvm"])
                    pmaddwd = pmaddwd or "pmadd.wd" in lowered
                    vnni = vnni or "vpdpbusd" in lowered
                run([relay_run, case + ".mlir", "--input", case + ".x.npy",
                     "--output", case + ".compiled.npy"] + target)
                got = np.load(case + ".compiled.npy")
                label = f"{name} {' '.join(target)}".strip()
                if got.shape != want.shape or not np.array_equal(got, want):
                    failures += 1
                    diff = np.abs(got.astype(np.int64) - want).max()
                    print(f"FAIL {label}: compiled differs from the "
                          f"interpreter (max |diff| {diff})")
                else:
                    print(f"ok   {label}")
    print(f"tdpbssd used: {'yes' if amx else 'no (no AMX-INT8 here)'}")
    print(f"vpdpbusd used: {'yes' if vnni else 'no (no AVX-512 VNNI here)'}")
    print(f"vpmaddwd used: {'yes' if pmaddwd else 'no (no AVX2 here)'}")
    if has_amx and not (amx and vnni):
        sys.exit("on this AMX-INT8 CPU the int8 convolutions did not take "
                 "both tdpbssd and (for --cpu icelake-server) vpdpbusd")
    if avx2 and not pmaddwd:
        sys.exit("the Haswell target's int8 convolutions did not take "
                 "vpmaddwd")
    print(f"convolutions in NHWC at -O3: {nhwc} cases")
    count = len(CASES) + len(DENSE_CASES) + 1
    if failures:
        sys.exit(f"{failures} of {count * len(targets)} runs failed")
    print(f"all {count} cases equal on {len(targets)} targets")


if __name__ == "__main__":
    main()

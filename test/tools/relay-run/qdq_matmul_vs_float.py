#!/usr/bin/python3
"""Products of two quantized activations as ONNX Runtime's quantizer writes
them (QuantizeLinear/DequantizeLinear pairs around a float MatMul: the
query-key and attention-value products of a quantized transformer), built
here with onnx.helper, run by relay-run compiled at -O3 (where
FakeQuantizationToInteger computes them on the integers, as
qnn.batch_matmul or qnn.dense), interpreted, and with that pass disabled
(the float semantics of the QDQ graph), against numpy's evaluation of the
same graph.

Every import must be rewritten wholly in integers (hard-fail) with one qnn
product per MatMul. Every output must lie within one step of its scale
of numpy's and at least 80% must be equal (qdq_compare.py says why).

  /usr/bin/python3 qdq_matmul_vs_float.py --bin build/bin
"""
import argparse
import os
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qdq_compare import modes_within_one_step, run  # noqa: E402

RNG = np.random.default_rng(7)


def quantize(x, scale, zero, dtype):
    """ONNX QuantizeLinear: round half to even, saturate."""
    info = np.iinfo(dtype)
    q = np.rint(x / np.float32(scale)) + zero
    return np.clip(q, info.min, info.max).astype(dtype)


def dequantize(q, scale, zero):
    return ((q.astype(np.int32) - zero) * np.float32(scale)).astype(np.float32)


class Graph:
    """A QDQ graph under construction, and numpy's evaluation of it."""

    def __init__(self):
        self.nodes, self.inits, self.values = [], [], {}

    def param(self, name, scale, zero, dtype):
        elem = TensorProto.UINT8 if dtype == np.uint8 else TensorProto.INT8
        self.inits.append(numpy_helper.from_array(
            np.array(scale, dtype=np.float32), name + "_scale"))
        self.inits.append(helper.make_tensor(name + "_zero", elem, [],
                                             [int(zero)]))

    def qdq(self, src, name, scale, zero, dtype):
        """src quantized and dequantized again (a QDQ pair)."""
        self.param(name, scale, zero, dtype)
        self.nodes.append(helper.make_node(
            "QuantizeLinear", [src, name + "_scale", name + "_zero"],
            [name + "_q"]))
        self.nodes.append(helper.make_node(
            "DequantizeLinear", [name + "_q", name + "_scale",
                                 name + "_zero"], [name]))
        self.values[name] = dequantize(
            quantize(self.values[src], scale, zero, dtype), scale, zero)
        return name

    def op(self, kind, inputs, name, value, **attrs):
        self.nodes.append(helper.make_node(kind, inputs, [name], **attrs))
        self.values[name] = value.astype(np.float32)
        return name


def attention(g):
    """Scores Q K^T of [1, 2, 4, 8] heads (K transposed by a Transpose
    between its QDQ pair and the MatMul), then the scores times V."""
    qk = g.op("MatMul", ["q_dq", "kt"], "scores",
              g.values["q_dq"] @ g.values["kt"])
    s = g.qdq(qk, "scores_dq", 0.35, 3, np.int8)
    return g.op("MatMul", [s, "v_dq"], "context",
                g.values[s] @ g.values["v_dq"])


def build(case):
    """The case's model and inputs: (ModelProto, {name: array}, output
    scale, number of MatMuls)."""
    g = Graph()
    inputs = {}

    def input_(name, shape, scale, zero, dtype):
        x = RNG.standard_normal(shape).astype(np.float32)
        inputs[name] = x
        g.values[name] = x
        return g.qdq(name, name + "_dq", scale, zero, dtype)

    if case == "attention":
        input_("q", (1, 2, 4, 8), 0.03, 131, np.uint8)
        input_("k", (1, 2, 4, 8), 0.025, 0, np.int8)
        input_("v", (1, 2, 4, 8), 0.02, 120, np.uint8)
        g.op("Transpose", ["k_dq"], "kt",
             np.transpose(g.values["k_dq"], (0, 1, 3, 2)), perm=[0, 1, 3, 2])
        out = attention(g)
        out_scale, out_zero, matmuls = 0.015, 128, 2
    elif case == "broadcast":
        # [2, 3, 4, 8] x [3, 8, 5]: B broadcast over A's leading batch.
        input_("a", (2, 3, 4, 8), 0.03, 0, np.int8)
        input_("b", (3, 8, 5), 0.04, 100, np.uint8)
        out = g.op("MatMul", ["a_dq", "b_dq"], "prod",
                   g.values["a_dq"] @ g.values["b_dq"])
        out_scale, out_zero, matmuls = 0.05, 0, 1
    else:  # rows: [2, 4, 8] x a 2-d activation [8, 6], one dense product.
        input_("a", (2, 4, 8), 0.03, 0, np.int8)
        input_("b", (8, 6), 0.04, 7, np.int8)
        out = g.op("MatMul", ["a_dq", "b_dq"], "prod",
                   g.values["a_dq"] @ g.values["b_dq"])
        out_scale, out_zero, matmuls = 0.05, 0, 1
    y = g.qdq(out, "y", out_scale, out_zero, np.uint8)
    shapes = {n: inputs[n].shape for n in inputs}
    graph = helper.make_graph(
        g.nodes, case,
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
         for n, s in shapes.items()],
        [helper.make_tensor_value_info(y, TensorProto.FLOAT,
                                       g.values[y].shape)],
        g.inits)
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    return model, inputs, g.values[y], out_scale, matmuls


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    args = parser.parse_args()
    relay_run = os.path.join(args.bin, "relay-run")
    translate = os.path.join(args.bin, "relay-mlir-translate")
    opt = os.path.join(args.bin, "relay-mlir-opt")
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        for case in ("attention", "broadcast", "rows"):
            model, inputs, want, step, matmuls = build(case)
            path = os.path.join(work, case + ".onnx")
            onnx.save(model, path)
            mlir = os.path.join(work, case + ".mlir")
            run([translate, "--import-onnx", path, "-o", mlir])
            ints = run([opt, mlir,
                        "--relay-fake-quantization-to-integer=hard-fail"]).stdout
            products = ints.count("relay.qnn.batch_matmul ") + \
                ints.count("relay.qnn.dense ")
            left = [op for op in ("relay.nn.batch_matmul ", "relay.nn.matmul ",
                                  "relay.nn.dense ") if op in ints]
            ok = products == matmuls and not left
            failures += not ok
            print(f"{'ok' if ok else 'MISMATCH'} {case} integer form: "
                  f"{products} qnn products for {matmuls} MatMuls"
                  + (f", float {left} left" if left else ""))
            npys = []
            for name in inputs:
                npys.append(os.path.join(work, f"{case}.{name}.npy"))
                np.save(npys[-1], inputs[name])
            failures += modes_within_one_step(relay_run, path, npys, want,
                                              step, case, work)
    print(f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

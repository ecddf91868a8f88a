#!/usr/bin/python3
"""Structured mutations of ONNX's node test models through the importer.

  mutate_models.py --bin build/bin [--count 200] [--seed 0] [--keep DIR]
                   [--filter SUBSTRING]

libFuzzer's ONNX target (test/fuzz/OnnxFuzzer.cpp) mutates protobuf bytes,
which seldom yields a model that parses and still reaches a converter's
corner cases. This mutates models as models: an attribute set to a value
exporters never write (negative, zero, huge, NaN), an input dropped or
repeated, an output dropped, a graph input's dimension or dtype changed,
in the graphs of If, Loop and Scan too. Each mutant goes through
`relay-mlir-translate --import-onnx`, which must import it or report an
error (exit 1): a signal, an LLVM error or an assertion fails the run, and
--keep saves the mutant. Deterministic for a seed.
"""
import argparse
import glob
import os
import random
import shutil
import subprocess
import sys
import tempfile

import onnx

NODE_TESTS = '/usr/share/libonnx-testdata/data/node'
INTS = [-3, -1, 0, 1, 2, 3, 7, 100, 10**6, 2**40]
FLOATS = [-1.0, 0.0, 1e30, float('nan')]
DTYPES = [onnx.TensorProto.FLOAT, onnx.TensorProto.INT32,
          onnx.TensorProto.INT64, onnx.TensorProto.BOOL,
          onnx.TensorProto.FLOAT16, onnx.TensorProto.DOUBLE]


def nodes_of(graph):
    for node in graph.node:
        yield node
        for a in node.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                yield from nodes_of(a.g)


def mutate(model, rng):
    nodes = list(nodes_of(model.graph))
    inputs = list(model.graph.input)
    for _ in range(rng.randint(1, 3)):
        node = rng.choice(nodes)
        kind = rng.randrange(6)
        if kind == 0 and node.attribute:
            a = rng.choice(node.attribute)
            if a.type == onnx.AttributeProto.INT:
                a.i = rng.choice(INTS)
            elif a.type == onnx.AttributeProto.INTS and a.ints:
                a.ints[rng.randrange(len(a.ints))] = rng.choice(INTS)
            elif a.type == onnx.AttributeProto.FLOAT:
                a.f = rng.choice(FLOATS)
        elif kind == 1 and node.input:
            del node.input[rng.randrange(len(node.input))]
        elif kind == 2 and node.input:
            node.input.append(rng.choice(list(node.input)))
        elif kind == 3 and inputs:
            dims = rng.choice(inputs).type.tensor_type.shape.dim
            if dims:
                rng.choice(dims).dim_value = rng.choice([0, 1, 2, 5, 3000])
        elif kind == 4 and len(node.output) > 1:
            del node.output[rng.randrange(len(node.output))]
        elif kind == 5 and inputs:
            rng.choice(inputs).type.tensor_type.elem_type = rng.choice(DTYPES)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', required=True)
    parser.add_argument('--count', type=int, default=200)
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--keep', help='where to save crashing mutants')
    parser.add_argument('--filter', default='',
                        help='mutate only the tests whose names have this')
    args = parser.parse_args()
    models = sorted(m for m in glob.glob(os.path.join(NODE_TESTS, '*',
                                                      'model.onnx'))
                    if args.filter in os.path.basename(os.path.dirname(m)))
    if not models:
        print('no ONNX node tests under %s' % NODE_TESTS)
        return 1
    rng = random.Random(args.seed)
    crashes = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'mutant.onnx')
        for index in range(args.count):
            source = rng.choice(models)
            model = onnx.load(source)
            mutate(model, rng)
            onnx.save(model, path)
            proc = subprocess.run(
                [os.path.join(args.bin, 'relay-mlir-translate'),
                 '--import-onnx', path, '-o', os.devnull],
                capture_output=True, text=True, timeout=120)
            if proc.returncode in (0, 1) and 'Stack dump' not in proc.stderr \
                    and 'LLVM ERROR' not in proc.stderr:
                continue
            crashes += 1
            name = os.path.basename(os.path.dirname(source))
            print('CRASH #%d (a mutant of %s, exit %d): %s' % (
                index, name, proc.returncode,
                ' | '.join(proc.stderr.strip().splitlines()[:3])))
            if args.keep:
                os.makedirs(args.keep, exist_ok=True)
                shutil.copy(path, os.path.join(
                    args.keep, '%s-%d-%d.onnx' % (name, args.seed, index)))
    print('%d mutants (seed %d): %d crashes' % (args.count, args.seed,
                                                crashes))
    return 1 if crashes else 0


if __name__ == '__main__':
    sys.exit(main())

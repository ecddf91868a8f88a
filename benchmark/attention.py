#!/usr/bin/python3
"""ONNX's Attention operator (opset 23), relay-mlir against PyTorch.

Each shape is one Attention node on random Q, K, V (4-d, [batch, heads,
sequence, head size]) run by `relay-run --bench`, against PyTorch's eager
attention on the same shapes in the same run (torch 1.13 from Debian
predates scaled_dot_product_attention: softmax(Q K^T * scale + bias) V
as three operators, the causal bias precomputed), at one and two
threads, each side's best median of --rounds processes. Printed as a
Markdown table headed by the CPU model (benchmark/RESULTS.md keeps the
figures).

  /usr/bin/python3 benchmark/attention.py [--bin build/bin] [--runs 50]
      [--rounds 3] [--results FILE]
"""
import argparse
import os
import subprocess
import sys
import tempfile

import onnx
from onnx import TensorProto, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_builds import cpu_table  # noqa: E402
from conv_layers import relay_ms  # noqa: E402
from run_workloads import ROOT, peer_env  # noqa: E402

# (name, batch, query heads, key/value heads, queries, past keys, new
# keys, head size, causal): BERT-base's self-attention over 128 tokens
# (batch 1 and 8), ViT-B/16's over 197, a GPT-2 decoding step after 511
# cached tokens, and a Llama-style grouped-head prefill of 256 tokens.
SHAPES = [('bert-base 128', 1, 12, 12, 128, 0, 128, 64, False),
          ('bert-base 128 x8', 8, 12, 12, 128, 0, 128, 64, False),
          ('vit-b/16 197', 1, 12, 12, 197, 0, 197, 64, False),
          ('gpt-2 decode 1+511', 1, 12, 12, 1, 511, 1, 64, True),
          ('gqa 32/8 prefill 256', 1, 32, 8, 256, 0, 256, 128, True)]

# Median ms of PyTorch's eager attention (argv: the shape's fields after
# its name, threads, runs).
TORCH_SIDE = r'''
import sys, time, numpy as np, torch
b, hq, hkv, sq, past, new, d, causal, threads, runs = map(int, sys.argv[1:11])
torch.set_num_threads(threads)
skv = past + new
q = torch.randn(b, hq, sq, d)
k = torch.randn(b, hkv, new, d)
v = torch.randn(b, hkv, new, d)
pk = torch.randn(b, hkv, past, d)
pv = torch.randn(b, hkv, past, d)
bias = None
if causal:
    i = torch.arange(sq)[:, None] + past
    bias = torch.where(torch.arange(skv)[None, :] <= i, 0.0, float('-inf'))
scale = d ** -0.5
def step():
    kk = torch.cat([pk, k], 2) if past else k
    vv = torch.cat([pv, v], 2) if past else v
    if hq != hkv:
        kk = kk.repeat_interleave(hq // hkv, 1)
        vv = vv.repeat_interleave(hq // hkv, 1)
    s = torch.matmul(q, kk.transpose(-1, -2)) * scale
    if bias is not None:
        s = s + bias
    return torch.matmul(torch.softmax(s, -1), vv)
times = []
with torch.no_grad():
    for _ in range(5):
        step()
    for _ in range(runs):
        t = time.perf_counter()
        step()
        times.append((time.perf_counter() - t) * 1e3)
print(float(np.median(times)))
'''


def model(path, b, hq, hkv, sq, past, new, d, causal):
    F = TensorProto.FLOAT
    inputs = [helper.make_tensor_value_info('q', F, [b, hq, sq, d]),
              helper.make_tensor_value_info('k', F, [b, hkv, new, d]),
              helper.make_tensor_value_info('v', F, [b, hkv, new, d])]
    names = ['q', 'k', 'v']
    if past:
        inputs += [helper.make_tensor_value_info('pk', F, [b, hkv, past, d]),
                   helper.make_tensor_value_info('pv', F, [b, hkv, past, d])]
        names += ['', 'pk', 'pv']
    node = helper.make_node('Attention', names, ['y'], is_causal=int(causal))
    g = helper.make_graph([node], 'g', inputs, [
        helper.make_tensor_value_info('y', F, [b, hq, sq, d])])
    onnx.save(helper.make_model(
        g, opset_imports=[helper.make_opsetid('', 23)]), path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', default=os.path.join(ROOT, 'build', 'bin'))
    parser.add_argument('--runs', type=int, default=50)
    parser.add_argument('--rounds', type=int, default=3)
    parser.add_argument('--results')
    args = parser.parse_args()
    relay_run = os.path.join(args.bin, 'relay-run')
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for name, *shape in SHAPES:
            path = os.path.join(work, name.replace(' ', '_').replace('/', '')
                                + '.onnx')
            model(path, *shape)
            for threads in (1, 2):
                # Each side's best median over the rounds, in alternation:
                # one PyTorch process in three or so ran 10x slower than
                # the others on the same shape.
                ours = theirs = float('inf')
                for _ in range(args.rounds):
                    ours = min(ours, relay_ms(relay_run, path, threads,
                                              args.runs))
                    out = subprocess.run(
                        [sys.executable, '-c', TORCH_SIDE] +
                        [str(int(x)) for x in shape] +
                        [str(threads), str(args.runs)],
                        capture_output=True, text=True, check=True,
                        env=peer_env(threads)).stdout.split()
                    theirs = min(theirs, float(out[-1]))
                rows.append([name, str(threads), f'{ours:.3f}',
                             f'{theirs:.3f}', f'{theirs / ours:.2f}'])
    cpu_table(['shape', 'threads', 'relay-mlir ms', 'PyTorch eager ms',
               'PyTorch / relay-mlir'], rows, args.results)


if __name__ == '__main__':
    main()

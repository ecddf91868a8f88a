#!/usr/bin/python3
"""ONNX's recurrent layers (RNN, GRU, LSTM) beyond the backend node tests:
every direction, both layouts, sequence_lens (constant and as a graph
input), initial states, peepholes, clip, linear_before_reset and custom
activations, each run by relay-run through the interpreter and compiled and
checked against a numpy implementation of the ONNX specification; then
torch.nn.RNN/GRU/LSTM (stacked, bidirectional) exported by torch.onnx and
checked against PyTorch.

  /usr/bin/python3 check_recurrent.py --bin build/bin
"""
import argparse
import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

GATES = {'RNN': 1, 'GRU': 3, 'LSTM': 4}
DEFAULTS = {'RNN': ['Tanh'], 'GRU': ['Sigmoid', 'Tanh'],
            'LSTM': ['Sigmoid', 'Tanh', 'Tanh']}


def activation(name, alpha, beta):
    fns = {
        'Tanh': np.tanh,
        'Sigmoid': lambda x: 1 / (1 + np.exp(-x)),
        'Relu': lambda x: np.maximum(x, 0),
        'LeakyRelu': lambda x: np.where(x >= 0, x, alpha * x),
        'HardSigmoid': lambda x: np.clip(alpha * x + beta, 0, 1),
        'Affine': lambda x: alpha * x + beta,
        'ScaledTanh': lambda x: alpha * np.tanh(beta * x),
        'Elu': lambda x: np.where(x > 0, x, alpha * (np.exp(x) - 1)),
        'Softsign': lambda x: x / (1 + np.abs(x)),
        'Softplus': lambda x: np.log(1 + np.exp(x)),
        'ThresholdedRelu': lambda x: np.where(x > alpha, x, 0),
    }
    return fns[name]


def reference(kind, attrs, X, W, R, B=None, lens=None, h0=None, c0=None,
              P=None):
    """The ONNX specification's equations, step by step, in float64."""
    layout = attrs.get('layout', 0)
    if layout:
        X = X.transpose(1, 0, 2)
        h0 = None if h0 is None else h0.transpose(1, 0, 2)
        c0 = None if c0 is None else c0.transpose(1, 0, 2)
    steps, batch, _ = X.shape
    dirs, hidden = W.shape[0], R.shape[2]
    names = attrs.get('activations') or DEFAULTS[kind] * dirs
    alphas = list(attrs.get('activation_alpha', []))
    betas = list(attrs.get('activation_beta', []))
    defaults = {'LeakyRelu': (0.01, None), 'ThresholdedRelu': (1.0, None),
                'Elu': (1.0, None), 'HardSigmoid': (0.2, 0.5),
                'Affine': (1.0, 0.0), 'ScaledTanh': (1.0, 1.0)}
    fns = []
    for n in names:
        a, b = defaults.get(n, (None, None))
        a = alphas.pop(0) if a is not None and alphas else a
        b = betas.pop(0) if b is not None and betas else b
        fns.append(activation(n, a, b))
    per = len(DEFAULTS[kind])
    clip = attrs.get('clip')
    cl = (lambda v: np.clip(v, -clip, clip)) if clip is not None else (lambda v: v)
    lens = np.full(batch, steps) if lens is None else lens
    Y = np.zeros((steps, dirs, batch, hidden))
    Yh = np.zeros((dirs, batch, hidden))
    Yc = np.zeros((dirs, batch, hidden))
    g = GATES[kind]
    for d in range(dirs):
        f = fns[d * per:(d + 1) * per]
        reverse = attrs.get('direction') == 'reverse' or d == 1
        wb = B[d, :g * hidden] if B is not None else np.zeros(g * hidden)
        rb = B[d, g * hidden:] if B is not None else np.zeros(g * hidden)
        for n in range(batch):
            h = h0[d, n] if h0 is not None else np.zeros(hidden)
            c = c0[d, n] if c0 is not None else np.zeros(hidden)
            order = range(lens[n] - 1, -1, -1) if reverse else range(lens[n])
            for t in order:
                x = X[t, n]
                if kind == 'RNN':
                    h = f[0](cl(W[d] @ x + R[d] @ h + wb + rb))
                elif kind == 'GRU':
                    Wz, Wr, Wh = np.split(W[d], 3)
                    Rz, Rr, Rh = np.split(R[d], 3)
                    bz, br, bh = np.split(wb, 3)
                    rz, rr, rh = np.split(rb, 3)
                    z = f[0](cl(Wz @ x + Rz @ h + bz + rz))
                    r = f[0](cl(Wr @ x + Rr @ h + br + rr))
                    if attrs.get('linear_before_reset'):
                        hh = f[1](cl(Wh @ x + r * (Rh @ h + rh) + bh))
                    else:
                        hh = f[1](cl(Wh @ x + Rh @ (r * h) + rh + bh))
                    h = (1 - z) * hh + z * h
                else:
                    Wi, Wo, Wf, Wc = np.split(W[d], 4)
                    Ri, Ro, Rf, Rc = np.split(R[d], 4)
                    bi, bo, bf, bc = np.split(wb + rb, 4)
                    pi, po, pf = (np.split(P[d], 3) if P is not None
                                  else (0, 0, 0))
                    i = f[0](cl(Wi @ x + Ri @ h + pi * c + bi))
                    fg = f[0](cl(Wf @ x + Rf @ h + pf * c + bf))
                    cc = f[1](cl(Wc @ x + Rc @ h + bc))
                    c = fg * c + i * cc
                    o = f[0](cl(Wo @ x + Ro @ h + po * c + bo))
                    h = o * f[2](c)
                Y[t, d, n] = h
            Yh[d, n], Yc[d, n] = h, c
    if layout:
        Y = Y.transpose(2, 0, 1, 3)
        Yh, Yc = Yh.transpose(1, 0, 2), Yc.transpose(1, 0, 2)
    return [Y, Yh, Yc][:3 if kind == 'LSTM' else 2]


def case(kind, steps=4, batch=3, inp=5, hidden=6, lens=None, lens_input=False,
         bias=True, initial=False, peepholes=False, **attrs):
    """An ONNX model of one recurrent node, its inputs and the expected
    outputs."""
    rng = np.random.default_rng(len(CASES))
    dirs = 2 if attrs.get('direction') == 'bidirectional' else 1
    g = GATES[kind]
    layout = attrs.get('layout', 0)
    X = rng.standard_normal((batch, steps, inp) if layout else
                            (steps, batch, inp)).astype(np.float32)
    W = (rng.standard_normal((dirs, g * hidden, inp)) * 0.5).astype(np.float32)
    R = (rng.standard_normal((dirs, g * hidden, hidden)) * 0.5).astype(np.float32)
    B = (rng.standard_normal((dirs, 2 * g * hidden)) * 0.5).astype(np.float32)
    state = (batch, dirs, hidden) if layout else (dirs, batch, hidden)
    h0 = rng.standard_normal(state).astype(np.float32) if initial else None
    c0 = (rng.standard_normal(state).astype(np.float32)
          if initial and kind == 'LSTM' else None)
    P = ((rng.standard_normal((dirs, 3 * hidden)) * 0.5).astype(np.float32)
         if peepholes else None)
    seq = None if lens is None else np.array(lens, dtype=np.int32)
    names = ['X', 'W', 'R', 'B', 'sequence_lens', 'initial_h', 'initial_c', 'P']
    values = [X, W, R, B if bias else None, seq, h0, c0, P]
    graph_inputs, inits, feeds, node_inputs = [], [], [], []
    for i, (name, value) in enumerate(zip(names, values)):
        if value is None:
            node_inputs.append('')
            continue
        node_inputs.append(name)
        if name == 'X' or (name == 'sequence_lens' and lens_input):
            elem = TensorProto.INT32 if name == 'sequence_lens' else TensorProto.FLOAT
            graph_inputs.append(helper.make_tensor_value_info(
                name, elem, value.shape))
            feeds.append(value)
        else:
            inits.append(numpy_helper.from_array(value, name))
    while node_inputs and node_inputs[-1] == '':
        node_inputs.pop()
    outs = ['Y', 'Y_h', 'Y_c'][:3 if kind == 'LSTM' else 2]
    expected = reference(
        kind, attrs, X.astype(np.float64), W.astype(np.float64),
        R.astype(np.float64), B.astype(np.float64) if bias else None, seq,
        None if h0 is None else h0.astype(np.float64),
        None if c0 is None else c0.astype(np.float64),
        None if P is None else P.astype(np.float64))
    node = helper.make_node(kind, node_inputs, outs, hidden_size=hidden,
                            **attrs)
    graph = helper.make_graph(
        [node], kind.lower(), graph_inputs,
        [helper.make_tensor_value_info(o, TensorProto.FLOAT, e.shape)
         for o, e in zip(outs, expected)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 14)])
    return model, feeds, expected


CASES = []


def add(name, *args, **kwargs):
    CASES.append((name, case(*args, **kwargs)))


def build_cases():
    for kind in ('RNN', 'GRU', 'LSTM'):
        k = kind.lower()
        add(k + '_forward', kind)
        add(k + '_reverse', kind, direction='reverse', initial=True)
        add(k + '_bidirectional', kind, direction='bidirectional',
            initial=True)
        add(k + '_batch_first', kind, layout=1, direction='bidirectional',
            initial=True)
        add(k + '_no_bias', kind, bias=False)
        add(k + '_const_lens', kind, lens=[4, 2, 1],
            direction='bidirectional')
        add(k + '_input_lens', kind, lens=[3, 4, 0], lens_input=True,
            direction='bidirectional', initial=True)
        add(k + '_clip', kind, clip=0.4)
    add('rnn_relu', 'RNN', activations=['Relu'])
    add('rnn_affine_scaledtanh', 'RNN', direction='bidirectional',
        activations=['Affine', 'ScaledTanh'], activation_alpha=[0.5, 0.7],
        activation_beta=[0.1, 1.3])
    add('gru_linear_before_reset', 'GRU', linear_before_reset=1,
        direction='bidirectional', lens=[2, 4, 3], lens_input=True)
    add('gru_hardsigmoid_softsign', 'GRU',
        activations=['HardSigmoid', 'Softsign'], activation_alpha=[0.3],
        activation_beta=[0.4])
    add('lstm_peepholes', 'LSTM', peepholes=True, initial=True,
        direction='bidirectional', lens=[4, 1, 3], lens_input=True)
    add('lstm_activations', 'LSTM',
        activations=['HardSigmoid', 'Elu', 'Softplus'],
        activation_alpha=[0.25, 0.8])


def run(relay_run, model_path, feeds, outputs, interp, tmp):
    cmd = [relay_run, model_path, '--output', os.path.join(tmp, 'out.npy')]
    if interp:
        cmd.append('--interp')
    for i, value in enumerate(feeds):
        path = os.path.join(tmp, 'in%d.npy' % i)
        np.save(path, value)
        cmd += ['--input', path]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        return 'failed: ' + proc.stderr.strip()[-400:]
    if not interp and 'reference interpreter' in proc.stderr:
        return 'not compiled'
    files = ([os.path.join(tmp, 'out.npy')] if outputs == 1 else
             [os.path.join(tmp, 'out.%d.npy' % i) for i in range(outputs)])
    return [np.load(f) for f in files]


def compare(got, expected, tolerance):
    if isinstance(got, str):
        return got
    for i, (g, e) in enumerate(zip(got, expected)):
        if g.shape != e.shape:
            return 'output %d has shape %s, expected %s' % (i, g.shape, e.shape)
        err = float(np.max(np.abs(g - e))) / max(float(np.max(np.abs(e))), 1e-6)
        if err > tolerance:
            return 'output %d differs (relative error %.2g)' % (i, err)
    return None


def torch_cases(tmp):
    """torch.nn recurrent layers exported by torch.onnx (which writes ONNX
    RNN/GRU/LSTM nodes with initial states), with PyTorch's outputs."""
    import torch
    # torch.onnx's notes on batch sizes and shape inference are not ours.
    warnings.filterwarnings('ignore')

    class Outputs(torch.nn.Module):
        """The layer's output sequence only (not its final states)."""

        def __init__(self, layer):
            super().__init__()
            self.layer = layer

        def forward(self, x):
            return self.layer(x)[0]

    torch.manual_seed(0)
    for kind in ('RNN', 'GRU', 'LSTM'):
        module = Outputs(getattr(torch.nn, kind)(
            8, 12, num_layers=2, bidirectional=True, batch_first=True)).eval()
        x = torch.randn(2, 5, 8)
        with torch.no_grad():
            y = module(x)
        path = os.path.join(tmp, kind + '.onnx')
        torch.onnx.export(module, x, path, opset_version=14,
                          input_names=['x'])
        yield 'torch_' + kind.lower(), path, [x.numpy()], [y.numpy()]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', required=True)
    args = parser.parse_args()
    relay_run = os.path.join(args.bin, 'relay-run')
    build_cases()
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, (model, feeds, expected) in CASES:
            path = os.path.join(tmp, name + '.onnx')
            onnx.save(model, path)
            for interp in (True, False):
                why = compare(run(relay_run, path, feeds, len(expected),
                                  interp, tmp), expected, 1e-4)
                mode = 'interpreter' if interp else 'compiled'
                if why:
                    failures += 1
                    print('%-28s %-11s FAILED: %s' % (name, mode, why))
                else:
                    print('%-28s %-11s matches the reference' % (name, mode))
        for name, path, feeds, expected in torch_cases(tmp):
            why = compare(run(relay_run, path, feeds, 1, False, tmp),
                          expected, 1e-4)
            if why:
                failures += 1
                print('%-28s compiled    FAILED: %s' % (name, why))
            else:
                print('%-28s compiled    matches PyTorch' % name)
    print('%d failures' % failures)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

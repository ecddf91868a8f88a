#!/usr/bin/python3
"""ONNX DFT and STFT against numpy.fft and torch.stft: real and complex
signals, every signal axis, a dft_length that pads and one that truncates,
the inverse, one-sided spectra, frames with and without a window; run by
relay-run through the interpreter and compiled.

  /usr/bin/python3 check_signal.py --bin build/bin
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper


def complex_of(x):
    """An ONNX signal [..., 1 or 2] as numpy complex numbers."""
    return x[..., 0] + (1j * x[..., 1] if x.shape[-1] == 2 else 0)


def parts(z):
    return np.stack([z.real, z.imag], -1)


def dft_ref(x, axis=1, length=None, inverse=False, onesided=False):
    # ONNX counts a negative axis from the back of the input, whose last
    # axis holds the real and imaginary parts.
    axis = axis % x.ndim
    z = complex_of(x.astype(np.float64))
    n = length or x.shape[axis]
    out = (np.fft.ifft if inverse else np.fft.fft)(z, n=n, axis=axis)
    if onesided:
        out = np.take(out, np.arange(n // 2 + 1), axis=axis)
    return parts(out)


def stft_ref(x, step, length, window=None, onesided=True):
    """torch.stft (no centring or padding: ONNX's frames) of each batch
    entry, as [batch, frames, bins, 2]."""
    z = torch.from_numpy(complex_of(x.astype(np.float64)))
    w = torch.from_numpy(window.astype(np.float64)) if window is not None \
        else torch.ones(length, dtype=torch.float64)
    out = torch.stft(z, n_fft=length, hop_length=step, win_length=length,
                     window=w, center=False, onesided=onesided,
                     return_complex=True)
    return parts(out.numpy().transpose(0, 2, 1))


def dft_case(name, shape, axis=1, length=None, inverse=False,
             onesided=False):
    attrs = {'axis': axis, 'inverse': int(inverse), 'onesided': int(onesided)}
    inputs = ['x']
    initializers = []
    if length is not None:
        inputs.append('n')
        initializers.append(numpy_helper.from_array(np.array(length), 'n'))
    node = helper.make_node('DFT', inputs, ['y'], **attrs)
    return (name, node, {'x': shape}, initializers,
            lambda x: dft_ref(x, axis, length, inverse, onesided))


def stft_case(name, shape, step, length, windowed, onesided=True):
    inputs = ['x', 'step', 'window' if windowed else '',
              '' if windowed else 'length']
    initializers = [numpy_helper.from_array(np.array(step), 'step')]
    if not windowed:
        initializers.append(numpy_helper.from_array(np.array(length),
                                                    'length'))
    node = helper.make_node('STFT', inputs, ['y'], onesided=int(onesided))
    given = {'x': shape}
    if windowed:
        given['window'] = (length,)
    return (name, node, given, initializers,
            lambda x, w=None: stft_ref(x, step, length, w, onesided))


CASES = [
    dft_case('dft real axis 1', (2, 8, 3, 1)),
    dft_case('dft complex axis 2', (2, 3, 6, 2), axis=2),
    dft_case('dft axis -2', (1, 4, 5, 2), axis=-2),
    dft_case('dft padded', (2, 6, 1), length=9),
    dft_case('dft truncated', (2, 10, 2), length=7),
    dft_case('dft onesided', (3, 12, 1), onesided=True),
    dft_case('dft inverse', (2, 5, 4, 2), axis=1, inverse=True),
    dft_case('dft long', (1, 256, 1)),
    stft_case('stft', (2, 64, 1), 8, 16, windowed=False),
    stft_case('stft window', (1, 100, 1), 10, 20, windowed=True),
    stft_case('stft complex', (1, 40, 2), 5, 8, windowed=True,
              onesided=False),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', required=True)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for index, (name, node, shapes, initializers, ref) in enumerate(CASES):
            inputs = {k: rng.standard_normal(s).astype(np.float32)
                      for k, s in shapes.items()}
            want = ref(*inputs.values())
            graph = helper.make_graph(
                [node], 'signal',
                [helper.make_tensor_value_info(k, TensorProto.FLOAT, a.shape)
                 for k, a in inputs.items()],
                [helper.make_tensor_value_info('y', TensorProto.FLOAT,
                                               want.shape)],
                initializer=initializers)
            path = os.path.join(tmp, 's%d.onnx' % index)
            onnx.save(helper.make_model(
                graph, opset_imports=[helper.make_opsetid('', 17)]), path)
            cmd = [os.path.join(args.bin, 'relay-run'), path, '--output',
                   os.path.join(tmp, 'y.npy')]
            for k, a in inputs.items():
                np.save(os.path.join(tmp, k + '.npy'), a)
                cmd += ['--input', os.path.join(tmp, k + '.npy')]
            for mode in ('interpreter', 'compiled'):
                proc = subprocess.run(
                    cmd + (['--interp'] if mode == 'interpreter' else []),
                    capture_output=True, text=True)
                problem = None
                if proc.returncode != 0:
                    problem = proc.stderr.strip()[-300:]
                elif mode == 'compiled' and \
                        'reference interpreter' in proc.stderr:
                    problem = 'not compiled'
                else:
                    got = np.load(os.path.join(tmp, 'y.npy'))
                    scale = max(1.0, float(np.max(np.abs(want))))
                    if got.shape != want.shape:
                        problem = 'shape %s, expected %s' % (got.shape,
                                                             want.shape)
                    elif np.max(np.abs(got - want)) > 1e-5 * scale:
                        problem = 'values differ by %g' % np.max(
                            np.abs(got - want))
                failures += bool(problem)
                print('%-20s %-11s %s' % (name, mode,
                                          'FAILED: ' + problem if problem
                                          else 'matches numpy/torch'))
    print('%d failures' % failures)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

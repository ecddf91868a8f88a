"""RandomUniform, RandomNormal, their *Like forms, Bernoulli and training
Dropout checked against a numpy Threefry-2x32-20 (the generator the
importer builds, frontends/ONNX/RandomConverters.cpp), itself checked
against Random123's known-answer vectors, and against the distributions
the operators name. Runs each model with relay-run, compiled and with
--interp; prints one line per case and MISMATCH where a result is wrong."""
import os
import struct
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

tools, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
M32 = 0xFFFFFFFF
ROTATIONS = [13, 15, 26, 6, 17, 29, 16, 24]


def threefry(c0, c1, k0, k1):
    """Threefry-2x32 with 20 rounds on uint64 arrays of 32-bit words."""
    u, mask = np.uint64, np.uint64(M32)
    ks = [u(k0), u(k1), u(0x1BD11BDA ^ k0 ^ k1)]
    x0 = (u(c0) + ks[0]) & mask
    x1 = (u(c1) + ks[1]) & mask
    for r in range(20):
        x0 = (x0 + x1) & mask
        n = ROTATIONS[r % 8]
        x1 = ((x1 << u(n)) | (x1 >> u(32 - n))) & mask
        x1 ^= x0
        if r % 4 == 3:
            s = r // 4 + 1
            x0 = (x0 + ks[s % 3]) & mask
            x1 = (x1 + ks[(s + 1) % 3] + u(s)) & mask
    return x0, x1


def check_kat():
    # Random123's kat_vectors for threefry2x32_20: counter, key -> output.
    vectors = [((0, 0), (0, 0), (0x6B200159, 0x99BA4EFE)),
               ((M32, M32), (M32, M32), (0x1CB996FC, 0xBB002BE7)),
               ((0x243F6A88, 0x85A308D3), (0x13198A2E, 0x03707344),
                (0xC4923A9C, 0x483DF7A0))]
    for (c0, c1), (k0, k1), want in vectors:
        got = threefry(np.uint64(c0), np.uint64(c1), k0, k1)
        if (int(got[0]), int(got[1])) != want:
            print('MISMATCH kat', hex(int(got[0])), hex(int(got[1])))
            return
    print('ok kat')


def key_of(seed):
    bits = struct.unpack('<Q', struct.pack('<d', seed))[0]
    return bits & M32, bits >> 32


def words(shape, seed, int_seed=False):
    k0, k1 = (seed & M32, (seed >> 32) & M32) if int_seed else key_of(seed)
    index = np.arange(int(np.prod(shape)), dtype=np.uint64)
    x0, x1 = threefry(index, np.zeros_like(index), k0, k1)
    return x0.reshape(shape), x1.reshape(shape)


def unit(bits, offset=False, dtype=np.float32):
    return (((bits >> np.uint64(8)) + np.uint64(1 if offset else 0)).astype(dtype) *
            dtype(2.0 ** -24))


def run(name, nodes, inputs, outputs, opset=17):
    """Runs the model both ways; returns {mode: [outputs]} (None: failed)."""
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info(n, t, a.shape) for n, t, a in inputs],
        [helper.make_tensor_value_info(n, t, s) for n, t, s in outputs])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', opset)])
    path = os.path.join(work, name + '.onnx')
    onnx.save(model, path)
    args = []
    for n, _, a in inputs:
        np.save(os.path.join(work, '%s.%s.npy' % (name, n)), a)
        args += ['--input', os.path.join(work, '%s.%s.npy' % (name, n))]
    results = {}
    for mode in ([], ['--interp']):
        label = name + (' interpreted' if mode else ' compiled')
        out = os.path.join(work, name + '.out.npy')
        p = subprocess.run([os.path.join(tools, 'relay-run'), *mode, path,
                            *args, '--output', out], capture_output=True, text=True)
        if p.returncode != 0:
            print('MISMATCH', label, p.stderr.strip()[:300])
            results[label] = None
            continue
        if len(outputs) == 1:
            results[label] = [np.load(out)]
        else:
            results[label] = [np.load(out[:-4] + '.%d.npy' % i)
                              for i in range(len(outputs))]
        if not mode and 'reference interpreter' in p.stderr:
            print('MISMATCH', label, 'ran on the interpreter')
    return results


def expect(label, ok, detail=''):
    print(('ok ' if ok else 'MISMATCH ') + label + ('' if ok else ' ' + str(detail)))


check_kat()

# Uniform over [0, 2^24): the generator's 24 bits exactly; seed 0 is the
# key (0, 0), so element 0 is the first known answer's top 24 bits.
shape = (3, 700)
for label, got in run('uniform_bits', [helper.make_node(
        'RandomUniform', [], ['y'], shape=list(shape), low=0.0,
        high=float(2 ** 24), seed=0.0)], [], [('y', TensorProto.FLOAT, shape)]).items():
    if got is None:
        continue
    want = (words(shape, 0.0)[0] >> np.uint64(8)).astype(np.float32)
    expect(label + ' bits', np.array_equal(got[0], want) and got[0][0, 0] == 0x6B2001,
           got[0].ravel()[:3])

# Uniform in [-2, 5) as float64 (a *Like of a float64 input).
x = np.zeros((4, 25000))
for label, got in run('uniform_like', [helper.make_node(
        'RandomUniformLike', ['x'], ['y'], low=-2.0, high=5.0, seed=3.5)],
        [('x', TensorProto.DOUBLE, x)], [('y', TensorProto.DOUBLE, x.shape)]).items():
    if got is None:
        continue
    y = got[0]
    want = -2.0 + 7.0 * unit(words(x.shape, 3.5)[0], dtype=np.float64)
    expect(label, y.dtype == np.float64 and y.min() >= -2 and y.max() < 5 and
           abs(y.mean() - 1.5) < 0.03 and np.allclose(y, want, rtol=0, atol=1e-12),
           (y.dtype, y.min(), y.max(), y.mean()))

# Normal(3, 2): Box-Muller on the two words, and its moments.
shape = (200000,)
for label, got in run('normal', [helper.make_node(
        'RandomNormal', [], ['y'], shape=list(shape), mean=3.0, scale=2.0,
        seed=7.0)], [], [('y', TensorProto.FLOAT, shape)]).items():
    if got is None:
        continue
    y = got[0].astype(np.float64)
    x0, x1 = words(shape, 7.0)
    z = (np.sqrt(-2 * np.log(unit(x0, True, np.float64))) *
         np.cos(2 * np.pi * unit(x1, dtype=np.float64)))
    want = 3 + 2 * z
    skew = ((y - y.mean()) ** 3).mean() / y.std() ** 3
    expect(label, abs(y.mean() - 3) < 0.02 and abs(y.std() - 2) < 0.02 and
           abs(skew) < 0.03 and np.abs(y - want).max() < 1e-3 and
           abs((np.abs(y - 3) < 2).mean() - 0.6827) < 0.005,
           (y.mean(), y.std(), skew, np.abs(y - want).max()))

# RandomNormalLike of a float16 input: computed in float32, rounded.
x = np.zeros((50, 40), np.float16)
for label, got in run('normal_like', [helper.make_node(
        'RandomNormalLike', ['x'], ['y'], seed=1.0)],
        [('x', TensorProto.FLOAT16, x)], [('y', TensorProto.FLOAT16, x.shape)]).items():
    if got is None:
        continue
    y = got[0]
    expect(label, y.dtype == np.float16 and abs(float(y.astype(np.float32).mean())) < 0.1
           and 0.9 < float(y.astype(np.float32).std()) < 1.1, (y.dtype, y.mean(), y.std()))

# Bernoulli: p = 0 never, p = 1 always, p = 0.3 three times in ten; the
# same draws as u < p in the reference.
p = np.tile(np.array([0.0, 1.0, 0.3], np.float32), 40000)
for label, got in run('bernoulli', [helper.make_node(
        'Bernoulli', ['p'], ['y'], seed=11.0)],
        [('p', TensorProto.FLOAT, p)], [('y', TensorProto.FLOAT, p.shape)]).items():
    if got is None:
        continue
    y = got[0]
    want = (unit(words(p.shape, 11.0)[0]) < p).astype(np.float32)
    expect(label, np.array_equal(y, want) and y[0::3].max() == 0 and
           y[1::3].min() == 1 and abs(y[2::3].mean() - 0.3) < 0.01,
           (y[2::3].mean(), np.abs(y - want).max()))

# Bernoulli with an integer dtype.
for label, got in run('bernoulli_int', [helper.make_node(
        'Bernoulli', ['p'], ['y'], seed=11.0, dtype=TensorProto.INT32)],
        [('p', TensorProto.FLOAT, p)], [('y', TensorProto.INT32, p.shape)]).items():
    if got is None:
        continue
    expect(label, got[0].dtype == np.int32 and abs(got[0][2::3].mean() - 0.3) < 0.01)

# Multinomial: each row's classes drawn in proportion to exp(logits).
probs = np.array([[0.1, 0.2, 0.7, 0.0], [0.25, 0.25, 0.25, 0.25]])
logits = np.log(np.maximum(probs, 1e-30)).astype(np.float32)
for label, got in run('multinomial', [helper.make_node(
        'Multinomial', ['x'], ['y'], sample_size=30000, seed=2.0,
        dtype=TensorProto.INT64)],
        [('x', TensorProto.FLOAT, logits)], [('y', TensorProto.INT64, (2, 30000))]).items():
    if got is None:
        continue
    y = got[0]
    freq = np.stack([(y == c).mean(axis=1) for c in range(4)], axis=1)
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    cdf = np.cumsum(e / e.sum(axis=1, keepdims=True), axis=1).astype(np.float32)
    u = unit(words((2, 30000), 2.0)[0]) * cdf[:, -1:]
    want = np.minimum((cdf[:, None, :] <= u[:, :, None]).sum(axis=2), 3)
    expect(label, y.dtype == np.int64 and y.min() >= 0 and y.max() <= 3 and
           np.abs(freq - probs).max() < 0.01 and (y == want).mean() > 0.999,
           (freq, (y == want).mean()))

# Dropout in training mode, ratio 0.75: a quarter kept, scaled by 4.
x = np.random.default_rng(0).standard_normal((8, 5000)).astype(np.float32)
train = helper.make_tensor('t', TensorProto.BOOL, [], [True])
ratio = helper.make_tensor('r', TensorProto.FLOAT, [], [0.75])
nodes = [helper.make_node('Constant', [], ['t'], value=train),
         helper.make_node('Constant', [], ['r'], value=ratio),
         helper.make_node('Dropout', ['x', 'r', 't'], ['y', 'm'], seed=5)]
for label, got in run('dropout_train', nodes, [('x', TensorProto.FLOAT, x)],
                      [('y', TensorProto.FLOAT, x.shape),
                       ('m', TensorProto.BOOL, x.shape)]).items():
    if got is None:
        continue
    y, m = got
    keep = unit(words(x.shape, 5, int_seed=True)[0]) >= np.float32(0.75)
    expect(label, m.dtype == np.bool_ and np.array_equal(m, keep) and
           np.allclose(y, np.where(keep, x * 4, 0), rtol=1e-6) and
           abs(m.mean() - 0.25) < 0.01, (m.mean(),))

# Training mode and ratio as inputs: chosen at run time.
nodes = [helper.make_node('Dropout', ['x', 'r', 't'], ['y', 'm'], seed=5)]
for mode in (True, False):
    for label, got in run('dropout_runtime_%s' % str(mode).lower(), nodes,
                          [('x', TensorProto.FLOAT, x),
                           ('r', TensorProto.FLOAT, np.array(0.5, np.float32)),
                           ('t', TensorProto.BOOL, np.array(mode))],
                          [('y', TensorProto.FLOAT, x.shape),
                           ('m', TensorProto.BOOL, x.shape)]).items():
        if got is None:
            continue
        y, m = got
        if mode:
            ok = abs(m.mean() - 0.5) < 0.01 and np.allclose(y, np.where(m, 2 * x, 0))
        else:
            ok = m.all() and np.array_equal(y, x)
        expect(label, ok, (m.mean(),))

# Without a seed, each import draws its own key: two runs differ.
runs = [run('unseeded', [helper.make_node(
    'RandomUniform', [], ['y'], shape=[1000])], [],
    [('y', TensorProto.FLOAT, (1000,))])['unseeded compiled'] for _ in range(2)]
if runs[0] is not None and runs[1] is not None:
    expect('unseeded differs', not np.array_equal(runs[0][0], runs[1][0]) and
           runs[0][0].min() >= 0 and runs[0][0].max() < 1)

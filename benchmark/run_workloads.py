#!/usr/bin/python3
"""The papers' workloads, compiled by relay-mlir and run by PyTorch side by
side: checks that relay-mlir's outputs match PyTorch's and prints median
latencies at batch 1 and their ratios.

  /usr/bin/python3 benchmark/run_workloads.py [--bin build/bin] [--runs N]
      [--rounds R] [--only NAME,...] [--torchvision] [--check-only]
      [--results benchmark/RESULTS.md]

Workloads: ResNet-18, MobileNet-V2 and VGG-16 from torchvision (random
weights, exported with torch.onnx.export, run by relay-run from the .onnx
file), and DQN, RNN, GRU and LSTM written in Relay text (examples/dqn.rly,
examples/workloads/*.rly, sequences as recursion over the time step) fed
the weights of the equivalent torch.nn modules; CharRNN generation (a
data-dependent loop building a List) and a child-sum TreeLSTM over a rose
tree, against the same computations written in PyTorch (eager only: their
control flow is Python's). CharRNN is checked by teacher forcing: every
character relay-mlir emits must be PyTorch's best choice up to float noise.
With --torchvision, the other torchvision classification networks the model
tests export (SqueezeNet, ShuffleNet-V2, GoogLeNet, EfficientNet-B0,
MnasNet, MobileNet-V3, RegNet-Y, DenseNet-121, Swin-T) follow, as a new
user would run them: `relay-run model.onnx`.

PyTorch runs in its own process with the OpenBLAS kernel of this CPU
(peer_env: SkylakeX where there is AVX-512, which Debian's OpenBLAS 0.3.21
does not recognise on newer CPUs and would run with its SSE3 kernel; the
AVX2 kernel otherwise), at 1 and 2 threads set explicitly (set_num_threads,
and OPENBLAS_NUM_THREADS, which set_num_threads does not reach: the driver
fails if OpenBLAS runs another number), eager and TorchScript
(torch.jit.freeze + torch.jit.optimize_for_inference); the table compares
relay-mlir with PyTorch's best. relay-mlir runs with --num-threads 1 and 2
(with 2, contractions of 2 MFLOP or more, other ops of 2^17 iterations or
more and the row bands of large convolutions are split across threads, on
the C runtime's implementation of MLIR's async runtime API).

The two sides alternate: each of R rounds times relay-mlir and PyTorch at
one thread, then both at two (N runs each), so that a slow spell of the
shared machine falls on both. The table gives the median over the rounds
of each latency, and the range of the rounds' ratios. The table's heading
names the CPU (/proc/cpuinfo); --results replaces that CPU's table in the
file (or adds one), keeping the tables of other CPUs, the notes, and the
rows of workloads this run did not measure (--only).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VISION = ['resnet18', 'mobilenet_v2', 'vgg16']
# The other networks examples/models/export_torchvision.py exports.
TORCHVISION = ['squeezenet1_0', 'shufflenet_v2_x0_5', 'googlenet',
               'efficientnet_b0', 'mnasnet0_5', 'mobilenet_v3_small',
               'regnet_y_400mf', 'densenet121', 'swin_t', 'resnet50',
               'resnext50_32x4d',
               'convnext_tiny', 'r3d_18', 'r2plus1d_18']
SEQUENCE = {'rnn': 'RNN', 'gru': 'GRU', 'lstm': 'LSTM'}
T, I, H = 32, 64, 128
RTOL = 1e-4


def program_path(name, models):
    """The workload's program: its ONNX model in `models` (exported there,
    with its input and PyTorch module, the first time) or its Relay text."""
    if name in VISION + TORCHVISION:
        model = os.path.join(models, name + '.onnx')
        if not os.path.exists(model):
            os.makedirs(models, exist_ok=True)
            subprocess.run([sys.executable, os.path.join(
                ROOT, 'examples', 'models', 'export_torchvision.py'),
                models, name], check=True, capture_output=True)
        return model
    if name == 'dqn':
        return os.path.join(ROOT, 'examples', 'dqn.rly')
    return os.path.join(ROOT, 'examples', 'workloads', name + '.rly')


# Every workload, in the tables' order.
NAMES = VISION + ['dqn'] + list(SEQUENCE) + ['charrnn', 'treelstm']


def selected(only, torchvision=False):
    """NAMES (and TORCHVISION's networks when asked), or those of them in
    the comma-separated `only` when given."""
    every = NAMES + TORCHVISION
    if only:
        return [n for n in every if n in only.split(',')]
    return NAMES + (TORCHVISION if torchvision else [])


def cpu_info():
    """/proc/cpuinfo's fields for the first CPU (empty where unreadable)."""
    fields = {}
    try:
        with open('/proc/cpuinfo') as f:
            for line in f:
                if not line.strip():
                    break
                key, _, value = line.partition(':')
                fields[key.strip()] = value.strip()
    except OSError:
        pass
    return fields


def cpu_model():
    """The CPU, as the tables' headings name it: /proc/cpuinfo's model name,
    family and model, and the vector extensions the kernels care about."""
    fields = cpu_info()
    if not fields:
        return 'unknown CPU'
    flags = fields.get('flags', '').split()
    isa = [f for f in ('avx2', 'avx512f', 'avx512_vnni', 'avx512_bf16',
                       'avx512_fp16', 'amx_tile') if f in flags]
    return '%s (family %s, model %s; %s)' % (
        fields.get('model name', 'unknown'), fields.get('cpu family', '?'),
        fields.get('model', '?'), ', '.join(isa) or 'no AVX2')


def openblas_core():
    """The OpenBLAS kernel a peer should run on this CPU. Debian's OpenBLAS
    0.3.21 does not recognise newer AVX-512 CPUs and falls back to its SSE3
    kernel there, so they get SkylakeX; but SkylakeX's kernel dies of an
    illegal instruction on a CPU without AVX-512 (an AVX2-only Zen 3), which
    gets the AVX2 kernel of its vendor. None: leave OpenBLAS's own choice."""
    fields = cpu_info()
    flags = fields.get('flags', '').split()
    if 'avx512f' in flags:
        return 'SkylakeX'
    if 'avx2' in flags:
        return 'Zen' if fields.get('vendor_id') == 'AuthenticAMD' else 'Haswell'
    return None


def peer_env(threads=None):
    """The environment a peer (PyTorch, numpy) runs in at its best: this
    process's, with the OpenBLAS kernel for this CPU (openblas_core) and no
    OPENBLAS_L2_SIZE; with `threads`, that many threads for OpenBLAS and
    OpenMP too. torch.set_num_threads does not reach Debian's OpenBLAS
    (libopenblas0-pthread runs its own pool, one thread per core): PyTorch
    "at one thread" ran its OpenBLAS products (eager 1x1 convolutions,
    linear layers, recurrent cells' products) on every core. On a 2-core
    Zen 4, ResNeXt-50 at set_num_threads(1) took 86.6 ms that way and
    120.8 ms with OPENBLAS_NUM_THREADS=1 (2026-11-30)."""
    env = dict(os.environ)
    env.pop('OPENBLAS_L2_SIZE', None)
    if threads is not None:
        env['OPENBLAS_NUM_THREADS'] = str(threads)
        env['OMP_NUM_THREADS'] = str(threads)
    core = openblas_core()
    if core:
        env['OPENBLAS_CORETYPE'] = core
    else:
        env.pop('OPENBLAS_CORETYPE', None)
    return env


# Follows torch.set_num_threads(threads) in each PyTorch driver: the driver
# fails when OpenBLAS does not run `threads` threads (peer_env says why it
# would not), rather than time PyTorch on more cores than relay-mlir.
BLAS_THREADS_CHECK = r'''
import ctypes as _ctypes, sys as _sys
try:
    _blas = _ctypes.CDLL('libblas.so.3').openblas_get_num_threads()
except (OSError, AttributeError):  # not OpenBLAS
    _blas = threads
if _blas != threads:
    _sys.exit('OpenBLAS runs %d threads, not %d: run with '
              'OPENBLAS_NUM_THREADS=%d' % (_blas, threads, threads))
'''


def with_blas_check(driver):
    """The PyTorch driver `driver` with BLAS_THREADS_CHECK after its
    torch.set_num_threads(threads)."""
    call = 'torch.set_num_threads(threads)\n'
    assert driver.count(call) == 1
    return driver.replace(call, call + BLAS_THREADS_CHECK)


def merged_rows(path, cpu, rows):
    """`rows` (markdown table rows, one per workload) with the rows of the
    workloads they lack from `cpu`'s table in the file `path`, in the
    tables' order."""
    def name(row):
        return row.split('|')[1].strip()
    kept = {}
    if os.path.exists(path):
        lines = open(path).read().splitlines()
        heading = '## CPU: ' + cpu
        if heading in lines:
            for line in lines[lines.index(heading) + 1:]:
                if line.startswith('#'):
                    break
                if line.startswith('| ') and not line.startswith('| workload'):
                    kept[name(line)] = line
    kept.update({name(r): r for r in rows})
    order = NAMES + TORCHVISION
    return sorted(kept.values(), key=lambda r: (
        order.index(name(r)) if name(r) in order else len(order), name(r)))


def replace_cpu_section(path, cpu, section):
    """Writes `section` (starting with its '## CPU: ...' heading naming
    `cpu`) into the markdown file `path`, whose first part (up to its second
    top-level heading) holds the workload tables: in place of that CPU's
    section (up to the next heading), else before the first CPU's (after
    the file's title when there is none)."""
    lines = open(path).read().splitlines(True) if os.path.exists(path) \
        else ['# Workload latencies, batch 1\n', '\n']
    heading = '## CPU: ' + cpu
    # The workload tables are the file's first part (up to its next
    # top-level heading); later parts have tables of their own.
    limit = next((i for i in range(1, len(lines))
                  if lines[i].startswith('# ')), len(lines))
    start = next((i for i in range(limit)
                  if lines[i].rstrip('\n') == heading), None)
    if start is None:
        first = next((i for i in range(limit)
                      if lines[i].startswith('## CPU: ')), None)
        if first is None:
            lines[1:1] = ['\n', section]
        else:
            lines[first:first] = [section]
    else:
        end = next((i for i in range(start + 1, len(lines))
                    if lines[i].startswith('#')), len(lines))
        lines[start:end] = [section]
    with open(path, 'w') as f:
        f.write(''.join(lines))


def program_and_inputs(name, models, tmp):
    """The workload's program and input files: the vision models' image, the
    others' inputs written into `tmp` from a generator seeded 0."""
    program = program_path(name, models)
    if name in VISION:
        return program, [os.path.join(models, name + '.input.npy')]
    return program, relay_inputs(name, tmp, np.random.default_rng(0))


def relay_inputs(name, tmp, rng):
    """Writes the workload's inputs as .npy files; returns their paths and
    a description of the torch module that computes the same function."""
    paths = []

    def save(array, tag):
        path = os.path.join(tmp, '%s.%s.npy' % (name, tag))
        np.save(path, np.ascontiguousarray(array, dtype=np.float32))
        paths.append(path)

    if name == 'dqn':
        state = rng.standard_normal((1, 4))
        w1, b1 = rng.standard_normal((64, 4)) * 0.5, rng.standard_normal(64) * 0.1
        w2, b2 = rng.standard_normal((2, 64)) * 0.2, rng.standard_normal(2) * 0.1
        for a, t in ((state, 'state'), (w1, 'w1'), (b1, 'b1'), (w2, 'w2'), (b2, 'b2')):
            save(a, t)
        return paths
    if name == 'charrnn':
        save(rng.standard_normal((1, 64)) * 0.1, 'h0')
        save(rng.standard_normal((32, 32)), 'emb')
        save(rng.uniform(-0.3, 0.3, (64, 32)), 'w_ih')
        save(rng.uniform(-0.3, 0.3, (64, 64)), 'w_hh')
        save(rng.uniform(-0.1, 0.1, 64), 'b_ih')
        save(rng.uniform(-0.1, 0.1, 64), 'b_hh')
        save(rng.uniform(-1, 1, (32, 64)), 'w_out')
        b_out = rng.uniform(-0.1, 0.1, 32)
        b_out[0] -= 1.5  # end of text is rarer, so generations run longer
        save(b_out, 'b_out')
        return paths
    if name == 'treelstm':
        save(rng.standard_normal((7, 1, 32)), 'words')
        save(rng.uniform(-0.2, 0.2, (256, 32)), 'w')
        save(rng.uniform(-0.2, 0.2, (256, 64)), 'u')
        save(rng.uniform(-0.1, 0.1, 256), 'b')
        return paths
    gates = {'rnn': 1, 'gru': 3, 'lstm': 4}[name]
    scale = 1 / np.sqrt(H)
    xs = rng.standard_normal((T, 1, I))
    h0 = rng.standard_normal((1, H)) * 0.1
    save(xs, 'xs')
    save(h0, 'h0')
    if name == 'lstm':
        save(rng.standard_normal((1, H)) * 0.1, 'c0')
    save(rng.uniform(-scale, scale, (gates * H, I)), 'w_ih')
    save(rng.uniform(-scale, scale, (gates * H, H)), 'w_hh')
    save(rng.uniform(-scale, scale, gates * H), 'b_ih')
    save(rng.uniform(-scale, scale, gates * H), 'b_hh')
    return paths


def run_relay(binary, program, inputs, out, runs, threads=1):
    """Runs the program compiled; returns the median latency and stdout."""
    cmd = [binary, program, '--bench', str(runs), '--num-threads', str(threads)]
    if out:
        cmd += ['--output', out]
    for path in inputs:
        cmd += ['--input', path]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError('relay-run failed on %s:\n%s' % (program, proc.stderr))
    if 'reference interpreter' in proc.stderr:
        raise RuntimeError('relay-run did not compile %s:\n%s' % (program, proc.stderr))
    median = float(re.search(r'median: ([0-9.]+) ms', proc.stdout).group(1))
    return median, proc.stdout


def time_to_result(binary, program, inputs, tries=3):
    """Seconds from starting relay-run on the program (parse or import,
    compile, one run) to its exit: the best of `tries`."""
    cmd = [binary, program, '--summary']
    for path in inputs:
        cmd += ['--input', path]
    best = None
    for _ in range(tries):
        start = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=True)
        seconds = time.perf_counter() - start
        best = seconds if best is None else min(best, seconds)
    return best


# PyTorch's side: one process per thread count, so that set_num_threads
# and OpenBLAS's kernel choice apply from the start.
TORCH_DRIVER = r'''
import json, sys, time
import numpy as np
import torch, torchvision
threads, spec = int(sys.argv[1]), json.loads(sys.argv[2])
torch.set_num_threads(threads)
torch.manual_seed(0)

def timed(fn, args, runs):
    with torch.no_grad():
        for _ in range(3):
            fn(*args)
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            fn(*args)
            times.append((time.perf_counter() - t) * 1e3)
    return float(np.median(times))

def load(paths):
    return [torch.from_numpy(np.load(p)) for p in paths]

name, runs = spec['name'], spec['runs']
if 'model' in spec:
    model = torch.load(spec['model'], weights_only=False)
    model.eval()
    args = load(spec['inputs'])
    fn = model
elif name == 'dqn':
    state, w1, b1, w2, b2 = load(spec['inputs'])
    model = torch.nn.Sequential(torch.nn.Linear(4, 64), torch.nn.ReLU(),
                                torch.nn.Linear(64, 2)).eval()
    with torch.no_grad():
        model[0].weight.copy_(w1); model[0].bias.copy_(b1)
        model[2].weight.copy_(w2); model[2].bias.copy_(b2)
    args = [state]
    fn = model
elif name == 'charrnn':
    h0, emb, w_ih, w_hh, b_ih, b_hh, w_out, b_out = load(spec['inputs'])
    cell = torch.nn.RNNCell(32, 64).eval()
    lin = torch.nn.Linear(64, 32).eval()
    with torch.no_grad():
        cell.weight_ih.copy_(w_ih); cell.weight_hh.copy_(w_hh)
        cell.bias_ih.copy_(b_ih); cell.bias_hh.copy_(b_hh)
        lin.weight.copy_(w_out); lin.bias.copy_(b_out)

    def generate():
        c, h, out = 1, h0, []
        for _ in range(40):
            h = cell(emb[c][None], h)
            nxt = int(torch.argmax(lin(h), dim=1))
            if nxt == 0:
                break
            out.append(nxt)
            c = nxt
        return out

    def consistent(seq):
        # relay-mlir's choices against PyTorch's scores along the same
        # characters: each chosen one is the best up to float noise.
        c, h = 1, h0
        for k in range(len(seq) + 1):
            h = cell(emb[c][None], h)
            scores = lin(h)[0]
            best = float(scores.max())
            tol = 1e-4 * (abs(best) + 1)
            if k == len(seq):
                return len(seq) == 40 or float(scores[0]) >= best - tol
            if float(scores[seq[k]]) < best - tol:
                return False
            c = seq[k]
        return True

    fn, args, model = generate, [], None
elif name == 'treelstm':
    words, W, U, b = load(spec['inputs'])
    import treelstm_torch  # examples/workloads, on PYTHONPATH (run_torch)
    fn, args, model = (lambda: treelstm_torch.treelstm(words, W, U, b)), [], None
else:
    tensors = load(spec['inputs'])
    kind = {'rnn': torch.nn.RNN, 'gru': torch.nn.GRU, 'lstm': torch.nn.LSTM}[name]
    model = kind(spec['I'], spec['H']).eval()
    xs, h0 = tensors[0], tensors[1]
    rest = tensors[2:]
    c0 = None
    if name == 'lstm':
        c0, rest = rest[0], rest[1:]
    with torch.no_grad():
        model.weight_ih_l0.copy_(rest[0]); model.weight_hh_l0.copy_(rest[1])
        model.bias_ih_l0.copy_(rest[2]); model.bias_hh_l0.copy_(rest[3])
    state = (h0[None], c0[None]) if name == 'lstm' else h0[None]
    args = [xs, state]
    fn = model
with torch.no_grad():
    out = fn(*args)
result = {}
if name == 'charrnn':
    with torch.no_grad():
        result['consistent'] = consistent(spec['relay_seq'])
    result['sequence'] = out
    out = []
elif name == 'treelstm':
    out = [o.numpy() for o in out]
elif name in SEQ:
    out = out[1]
    out = [o[0].numpy() for o in out] if isinstance(out, tuple) else [out[0].numpy()]
else:
    out = [out.numpy()]
for i, o in enumerate(out):
    np.save('%s.torch%d.npy' % (spec['prefix'], i), o)
result['eager'] = timed(fn, args, runs)
result['torchscript'] = None
if model is None:
    # Python control flow over data (generation, recursion over a tree):
    # eager only.
    print(json.dumps(result))
    sys.exit(0)
with torch.no_grad():
    traced = torch.jit.trace(model, tuple(args) if name not in SEQ else (args[0], args[1]))
    frozen = torch.jit.optimize_for_inference(torch.jit.freeze(traced.eval()))
result['torchscript'] = timed(frozen, args, runs)
result['backend'] = torch.__config__.parallel_info().splitlines()[0]
print(json.dumps(result))
'''.replace('SEQ', "('rnn', 'gru', 'lstm')")
TORCH_DRIVER = with_blas_check(TORCH_DRIVER)


def run_torch(spec, threads):
    env = peer_env(threads)
    # The driver imports the TreeLSTM's PyTorch form from examples/workloads.
    env['PYTHONPATH'] = os.path.join(ROOT, 'examples', 'workloads')
    proc = subprocess.run(['/usr/bin/python3', '-c', TORCH_DRIVER, str(threads),
                           json.dumps(spec)], capture_output=True, text=True,
                          env=env)
    if proc.returncode != 0:
        raise RuntimeError('PyTorch failed on %s:\n%s' % (spec['name'], proc.stderr))
    return json.loads(proc.stdout.strip().splitlines()[-1])


def close(got, want):
    atol = RTOL * float(np.max(np.abs(want))) if want.size else 0.0
    return got.shape == want.shape and np.allclose(got, want, rtol=RTOL, atol=atol)


def best(t):
    """PyTorch's best latency (eager or TorchScript)."""
    return min(v for v in (t['eager'], t['torchscript']) if v is not None)


def timed_rounds(args, relay_run, name, program, inputs, spec, relay_ms,
                 torch1, out2=None):
    """A workload's table row: args.rounds rounds of relay-mlir and PyTorch
    alternating at one thread, then at two (the first round's one-thread
    times are the check's; its two-thread run writes `out2`). The medians
    over the rounds, each thread count's lowest and highest per-round
    ratio, and the time from file to result."""
    one, two, torch_one, torch_two = [], [], [], []
    for r in range(args.rounds):
        if r > 0:
            relay_ms, _ = run_relay(relay_run, program, inputs, None, args.runs)
            torch1 = run_torch(spec, 1)
        one.append(relay_ms)
        torch_one.append(torch1)
        ms2, _ = run_relay(relay_run, program, inputs,
                           out2 if r == 0 else None, args.runs, threads=2)
        two.append(ms2)
        torch_two.append(run_torch(spec, 2))

    def medians(results):
        row = {}
        for key in ('eager', 'torchscript'):
            values = [t[key] for t in results if t[key] is not None]
            row[key] = float(np.median(values)) if values else None
        return row

    ratios1 = [best(t) / ms for t, ms in zip(torch_one, one)]
    ratios2 = [best(t) / ms for t, ms in zip(torch_two, two)]
    return (name, float(np.median(one)), float(np.median(two)),
            medians(torch_one), medians(torch_two),
            (min(ratios1), max(ratios1), min(ratios2), max(ratios2)),
            time_to_result(relay_run, program, inputs))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', default=os.path.join(ROOT, 'build', 'bin'))
    parser.add_argument('--models', default=os.path.join(ROOT, 'build', 'models'),
                        help='where exported ONNX models are cached')
    parser.add_argument('--runs', type=int, default=20)
    parser.add_argument('--rounds', type=int, default=3,
                        help='rounds of both sides, alternating')
    parser.add_argument('--only', default='')
    parser.add_argument('--torchvision', action='store_true',
                        help="also the other torchvision networks")
    parser.add_argument('--check-only', action='store_true',
                        help='check outputs, skip PyTorch timing')
    parser.add_argument('--results', help='write the table here (markdown)')
    args = parser.parse_args()
    relay_run = os.path.join(args.bin, 'relay-run')
    names = selected(args.only, args.torchvision)
    os.makedirs(args.models, exist_ok=True)
    rows, failures = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            rng = np.random.default_rng(0)
            spec = {'name': name, 'runs': args.runs, 'I': I, 'H': H,
                    'prefix': os.path.join(tmp, name)}
            program = program_path(name, args.models)
            if name in VISION + TORCHVISION:
                inputs = [os.path.join(args.models, name + '.input.npy')]
                spec['model'] = os.path.join(args.models, name + '.pt')
            else:
                inputs = relay_inputs(name, tmp, rng)
            spec['inputs'] = inputs
            out = os.path.join(tmp, name + '.relay.npy')
            relay_ms, stdout = run_relay(relay_run, program, inputs,
                                         None if name == 'charrnn' else out,
                                         args.runs if not args.check_only else 1)
            if name == 'charrnn':
                # The generated List, printed as Cons(a, Cons(b, ... Nil)).
                spec['relay_seq'] = [int(c) for c in re.findall(
                    r'Cons\((-?\d+)', stdout.splitlines()[0])]
            torch1 = run_torch(dict(spec, runs=args.runs if not args.check_only else 1), 1)
            if name == 'charrnn':
                ok = torch1['consistent']
                failures += 0 if ok else 1
                print('%-13s %s (%d characters; PyTorch generates %s)' % (
                    name, 'matches PyTorch' if ok else 'DIFFERS from PyTorch',
                    len(spec['relay_seq']),
                    'the same' if torch1['sequence'] == spec['relay_seq']
                    else 'another sequence at a near tie'), flush=True)
                if not args.check_only:
                    rows.append(timed_rounds(args, relay_run, name, program,
                                             inputs, spec, relay_ms, torch1))
                continue
            outputs = sorted(f for f in os.listdir(tmp)
                             if f.startswith(name + '.torch'))

            def matches(path):
                # A tuple result is written as .0.npy, .1.npy, ...
                written = [path] if os.path.exists(path) else [
                    '%s.%d.npy' % (path[:-len('.npy')], i)
                    for i in range(len(outputs))]
                pairs = [(np.load(r), np.load(os.path.join(tmp, t)))
                         for r, t in zip(written, outputs)]
                return (all(close(got, want) for got, want in pairs),
                        max(float(np.max(np.abs(got - want)))
                            for got, want in pairs))
            ok, diff = matches(out)
            failures += 0 if ok else 1
            print('%-13s %s (max abs difference %.3g)' % (
                name, 'matches PyTorch' if ok else 'DIFFERS from PyTorch', diff),
                flush=True)
            if args.check_only:
                continue
            # Two threads: the same values (checked on the first round), timed.
            out2 = os.path.join(tmp, name + '.relay2.npy')
            rows.append(timed_rounds(args, relay_run, name, program, inputs,
                                     spec, relay_ms, torch1, out2))
            if not matches(out2)[0]:
                failures += 1
                print('%-13s DIFFERS from PyTorch with 2 threads' % name)
    if rows:
        header = ('| workload | relay-mlir 1 / 2 threads (ms) '
                  '| PyTorch 1 thread: eager / TorchScript (ms) '
                  '| PyTorch 2 threads: eager / TorchScript (ms) '
                  '| PyTorch best 1T / relay-mlir 1T | PyTorch best 2T / relay-mlir 2T '
                  '| per-round ratios 1T; 2T '
                  '| relay-run, file to result (s) |')
        lines = [header, '|' + '---|' * 8]
        def fmt(t):
            return '%.3f' % t if t is not None else 'n/a'

        for name, ms, ms2, t1, t2, spread, load in rows:
            lines.append(
                '| %s | %.3f / %.3f | %s / %s | %s / %s | %.2f | %.2f '
                '| %.2f-%.2f; %.2f-%.2f | %.2f |' % (
                    (name, ms, ms2, fmt(t1['eager']), fmt(t1['torchscript']),
                     fmt(t2['eager']), fmt(t2['torchscript']), best(t1) / ms,
                     best(t2) / ms2) + spread + (load,)))
        table = '\n'.join(lines)
        print()
        print(table)
        if args.results:
            # Rows of this CPU's table that this run did not measure (a run
            # with --only) are kept.
            lines = lines[:2] + merged_rows(args.results, cpu_model(),
                                            lines[2:])
            table = '\n'.join(lines)
        print('\n(ratio > 1: relay-mlir is faster)')
        cpu = cpu_model()
        print('CPU: ' + cpu)
        if args.results:
            section = (
                '## CPU: %s\n\n'
                'Command (of the last run): `/usr/bin/python3 '
                'benchmark/run_workloads.py --runs %d --rounds %d%s%s '
                '--results benchmark/RESULTS.md`; rows it did not measure '
                'are from earlier runs.\n\n' % (
                    cpu, args.runs, args.rounds,
                    ' --torchvision' if args.torchvision else '',
                    ' --only ' + args.only if args.only else '')
                + 'Each latency is the median over %d rounds, in which '
                'relay-mlir and PyTorch alternate (one thread, then '
                'two), of the median of %d runs after warm-up; '
                'PyTorch from Debian (python3-torch) with '
                'OPENBLAS_CORETYPE=%s, threads set explicitly '
                '(set_num_threads, OPENBLAS_NUM_THREADS, '
                'OMP_NUM_THREADS); '
                'relay-mlir compiled by relay-run (JIT; --num-threads 1 '
                'and 2: with 2, contractions of 2 MFLOP or more, '
                'other ops of 2^17 iterations or more, the row '
                'bands of large im2col and 1x1 convolutions and the '
                'tile-row bands of Winograd convolutions run on two '
                'threads).\n\n' % (args.rounds, args.runs,
                                     openblas_core() or "unset")
                + table + '\n\nA ratio above 1 means relay-mlir is faster '
                "than PyTorch's best (eager or TorchScript) at that thread "
                "count; the per-round ratios are the lowest and "
                "highest of the rounds'. "
                'The last column is the best of 3 runs of relay-run on '
                'the file (ONNX import or Relay text parse, compilation, '
                'one run, exit).\n\n')
            replace_cpu_section(args.results, cpu, section)
    if failures:
        print('%d workloads differ from PyTorch' % failures)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())

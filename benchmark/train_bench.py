#!/usr/bin/python3
"""Training-step time of relay-mlir against PyTorch, side by side.

  /usr/bin/python3 benchmark/train_bench.py [--build build] [--runs 20]
      [--rounds 2] [--models mlp,cnn,resnet18] [--results FILE]

One SGD step (forward, loss, backward, the update of every weight) of:
  mlp       784-256-128-10 with ReLU, batch 1, 16 and 64;
  cnn       28x28 images: 3x3 convolutions of 32 and 64 channels with ReLU
            and 2x2 max pools, dense 3136-128-10, batch 1, 16 and 64;
  resnet18  examples/models/relay_resnet.py (torchvision's ResNet-18, batch
            norm by its running statistics: PyTorch's eval mode), batch 8,
            224x224, 1000 classes;
all with the softmax cross entropy of one-hot targets. relay-mlir's step is
examples/training/sgd_step.py's (first-order gradient, one compiled
function), timed by relay-run --bench on its JIT at --num-threads 1 and 2;
PyTorch's is eager autograd with the update under no_grad (gradients set
to None, as optimisers do), in its own process with set_num_threads 1 and
2, as many OpenBLAS threads and the OpenBLAS kernel of the CPU
(run_workloads.peer_env says why). The
sides alternate in rounds; each figure is the median over the rounds of the
median of --runs steps after warm-up. Prints a Markdown table with the CPU
model (and writes it to --results).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, 'examples', 'models'))
from compare_builds import cpu_model  # noqa: E402
from run_workloads import peer_env, with_blas_check  # noqa: E402
import relay_resnet  # noqa: E402


def mlp_program(batch):
    return '''#[version = "0.0.5"]
def @loss(%%w1: Tensor[(256, 784), float32], %%b1: Tensor[(256,), float32],
          %%w2: Tensor[(128, 256), float32], %%b2: Tensor[(128,), float32],
          %%w3: Tensor[(10, 128), float32], %%b3: Tensor[(10,), float32],
          %%x: Tensor[(%d, 784), float32], %%y: Tensor[(%d, 10), float32]) -> float32 {
  %%0 = nn.relu(nn.bias_add(nn.dense(%%x, %%w1), %%b1));
  %%1 = nn.relu(nn.bias_add(nn.dense(%%0, %%w2), %%b2));
  %%2 = nn.bias_add(nn.dense(%%1, %%w3), %%b3);
  divide(negative(sum(multiply(%%y, nn.log_softmax(%%2)))), %df)
}
''' % (batch, batch, batch)


def cnn_program(batch):
    return '''#[version = "0.0.5"]
def @loss(%%w1: Tensor[(32, 1, 3, 3), float32], %%b1: Tensor[(32,), float32],
          %%w2: Tensor[(64, 32, 3, 3), float32], %%b2: Tensor[(64,), float32],
          %%w3: Tensor[(128, 3136), float32], %%b3: Tensor[(128,), float32],
          %%w4: Tensor[(10, 128), float32], %%b4: Tensor[(10,), float32],
          %%x: Tensor[(%d, 1, 28, 28), float32], %%y: Tensor[(%d, 10), float32]) -> float32 {
  %%0 = nn.relu(nn.bias_add(nn.conv2d(%%x, %%w1, padding=[1, 1, 1, 1]), %%b1));
  %%1 = nn.max_pool2d(%%0, pool_size=[2, 2], strides=[2, 2]);
  %%2 = nn.relu(nn.bias_add(nn.conv2d(%%1, %%w2, padding=[1, 1, 1, 1]), %%b2));
  %%3 = nn.batch_flatten(nn.max_pool2d(%%2, pool_size=[2, 2], strides=[2, 2]));
  %%4 = nn.relu(nn.bias_add(nn.dense(%%3, %%w3), %%b3));
  %%5 = nn.bias_add(nn.dense(%%4, %%w4), %%b4);
  divide(negative(sum(multiply(%%y, nn.log_softmax(%%5)))), %df)
}
''' % (batch, batch, batch)


def resnet_program(batch):
    return relay_resnet.program(batch, 224, 1000).replace('def @main(',
                                                          'def @loss(')


def cases(models):
    out = []
    for batch in (1, 16, 64):
        if 'mlp' in models:
            out.append(('mlp', batch, mlp_program(batch), 'x,y'))
    for batch in (1, 16, 64):
        if 'cnn' in models:
            out.append(('cnn', batch, cnn_program(batch), 'x,y'))
    if 'resnet18' in models:
        data = ['data', 'target'] + [
            name.replace('.', '_') for name in relay_resnet.parameter_names()
            if 'running' in name]
        out.append(('resnet18', 8, resnet_program(8), ','.join(data)))
    return out


TORCH_DRIVER = r'''
import json, statistics, sys, time
import torch
import torch.nn.functional as F
threads, name, batch, runs = (int(sys.argv[1]), sys.argv[2], int(sys.argv[3]),
                              int(sys.argv[4]))
torch.set_num_threads(threads)
torch.manual_seed(0)
if name == 'resnet18':
    import torchvision
    model = torchvision.models.resnet18().eval()
    x = torch.randn(batch, 3, 224, 224)
    classes = 1000
    forward = model
    params = list(model.parameters())
else:
    if name == 'mlp':
        shapes = [(256, 784), (256,), (128, 256), (128,), (10, 128), (10,)]
        x = torch.randn(batch, 784)
    else:
        shapes = [(32, 1, 3, 3), (32,), (64, 32, 3, 3), (64,), (128, 3136),
                  (128,), (10, 128), (10,)]
        x = torch.randn(batch, 1, 28, 28)
    params = [(0.05 * torch.randn(s)).requires_grad_() for s in shapes]
    classes = 10

    def forward(x):
        p = params
        if name == 'mlp':
            h = F.relu(F.linear(x, p[0], p[1]))
            h = F.relu(F.linear(h, p[2], p[3]))
            return F.linear(h, p[4], p[5])
        h = F.max_pool2d(F.relu(F.conv2d(x, p[0], p[1], padding=1)), 2)
        h = F.max_pool2d(F.relu(F.conv2d(h, p[2], p[3], padding=1)), 2)
        h = F.relu(F.linear(h.flatten(1), p[4], p[5]))
        return F.linear(h, p[6], p[7])

y = F.one_hot(torch.randint(0, classes, (batch,)), classes).float()
divisor = 1.0 if name == 'resnet18' else float(batch)


def step():
    loss = -(y * F.log_softmax(forward(x), dim=-1)).sum() / divisor
    for p in params:
        p.grad = None
    loss.backward()
    with torch.no_grad():
        for p in params:
            p.sub_(0.01 * p.grad)


for _ in range(3):
    step()
times = []
for _ in range(runs):
    start = time.perf_counter()
    step()
    times.append((time.perf_counter() - start) * 1e3)
print(json.dumps({'ms': statistics.median(times)}))
'''
TORCH_DRIVER = with_blas_check(TORCH_DRIVER)


def torch_ms(name, batch, threads, runs):
    env = peer_env(threads)
    proc = subprocess.run(['/usr/bin/python3', '-c', TORCH_DRIVER,
                           str(threads), name, str(batch), str(runs)],
                          capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise SystemExit('PyTorch failed on %s:\n%s' % (name, proc.stderr))
    return json.loads(proc.stdout.strip().splitlines()[-1])['ms']


def relay_ms(relay_run, step, threads, runs):
    proc = subprocess.run([relay_run, step, '--entry', 'step',
                           '--random-inputs', '0', '--bench', str(runs),
                           '--num-threads', str(threads)],
                          capture_output=True, text=True)
    match = re.search(r'median: ([0-9.]+) ms', proc.stdout + proc.stderr)
    if proc.returncode != 0 or not match:
        raise SystemExit('relay-run failed on %s:\n%s' % (step, proc.stderr))
    return float(match.group(1))


def median(values):
    values = sorted(values)
    mid = len(values) // 2
    return values[mid] if len(values) % 2 else (values[mid - 1] +
                                                 values[mid]) / 2


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--build', default=os.path.join(ROOT, 'build'))
    parser.add_argument('--runs', type=int, default=20)
    parser.add_argument('--rounds', type=int, default=2)
    parser.add_argument('--models', default='mlp,cnn,resnet18')
    parser.add_argument('--results')
    args = parser.parse_args()
    bin_dir = os.path.join(args.build, 'bin')
    relay_run = os.path.join(bin_dir, 'relay-run')
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, batch, program, data in cases(args.models.split(',')):
            loss = os.path.join(tmp, '%s%d.rly' % (name, batch))
            step = os.path.join(tmp, '%s%d.mlir' % (name, batch))
            with open(loss, 'w') as f:
                f.write(program)
            subprocess.run(['/usr/bin/python3',
                            os.path.join(ROOT, 'examples', 'training',
                                         'sgd_step.py'),
                            bin_dir, loss, step, '--data', data], check=True)
            runs = max(3, args.runs // 4) if name == 'resnet18' else args.runs
            row = {'name': name, 'batch': batch}
            for threads in (1, 2):
                mine, theirs = [], []
                for _ in range(args.rounds):
                    mine.append(relay_ms(relay_run, step, threads, runs))
                    theirs.append(torch_ms(name, batch, threads, runs))
                row[threads] = (median(mine), median(theirs),
                                [t / m for m, t in zip(mine, theirs)])
            rows.append(row)
            print('%s batch %d: %s' % (name, batch, row), file=sys.stderr)
    lines = [
        '# Training step, relay-mlir against PyTorch',
        '',
        'Command: `/usr/bin/python3 benchmark/train_bench.py --runs %d '
        '--rounds %d`' % (args.runs, args.rounds),
        '',
        'CPU: %s' % cpu_model(),
        '',
        '| model | batch | relay-mlir 1T (ms) | PyTorch 1T (ms) | ratio 1T | '
        'relay-mlir 2T (ms) | PyTorch 2T (ms) | ratio 2T | per-round ratios '
        '1T; 2T |',
        '|---|---|---|---|---|---|---|---|---|',
    ]
    for row in rows:
        cells = [row['name'], str(row['batch'])]
        spread = []
        for threads in (1, 2):
            mine, theirs, ratios = row[threads]
            cells += ['%.3f' % mine, '%.3f' % theirs,
                      '%.2f' % (theirs / mine)]
            spread.append('%.2f-%.2f' % (min(ratios), max(ratios)))
        cells.append('; '.join(spread))
        lines.append('| ' + ' | '.join(cells) + ' |')
    lines += ['', 'A ratio above 1 means relay-mlir\'s step is faster '
              '(PyTorch\'s time over relay-mlir\'s).']
    text = '\n'.join(lines) + '\n'
    print(text)
    if args.results:
        with open(args.results, 'w') as f:
            f.write(text)


if __name__ == '__main__':
    main()

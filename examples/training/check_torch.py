#!/usr/bin/python3
"""Trains the digits CNN of digits_cnn.rly in PyTorch from the same initial
weights on the same batches (prepare_digits.py's files) and checks the
losses train_digits wrote for its first steps against PyTorch's.

  check_torch.py DATA_DIR LOSSES LEARNING_RATE [--steps 100] [--rtol 1e-3]

Prints the largest relative difference and 'matches torch', or the first
step that differs; exits 1 then.
"""
import argparse
import os

import numpy as np
import torch
import torch.nn.functional as F

TRAIN, BATCH = 1437, 32
SHAPES = {'w1': (16, 1, 3, 3), 'b1': (16,), 'w2': (32, 16, 3, 3),
          'b2': (32,), 'w3': (10, 512), 'b3': (10,)}


def load(data, name, dtype, shape):
    return np.fromfile(os.path.join(data, name), dtype).reshape(shape)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('data')
    parser.add_argument('losses')
    parser.add_argument('learning_rate', type=float)
    parser.add_argument('--steps', type=int, default=100)
    parser.add_argument('--rtol', type=float, default=1e-3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    x = load(args.data, 'train_x', np.float32, (TRAIN, 1, 8, 8))
    y = load(args.data, 'train_y', np.float32, (TRAIN, 10))
    order = np.fromfile(os.path.join(args.data, 'order'),
                        np.int32).reshape(-1, TRAIN)
    w = {name: torch.tensor(load(args.data, name, np.float32, shape),
                            requires_grad=True)
         for name, shape in SHAPES.items()}
    relay = np.loadtxt(args.losses, ndmin=1)
    if len(relay) < args.steps:
        raise SystemExit('check_torch: %s has %d losses, fewer than %d' %
                         (args.losses, len(relay), args.steps))
    worst = 0.0
    steps_per_epoch = TRAIN // BATCH
    for step in range(args.steps):
        epoch, k = divmod(step, steps_per_epoch)
        idx = order[epoch, k * BATCH:(k + 1) * BATCH]
        xb, yb = torch.tensor(x[idx]), torch.tensor(y[idx])
        h = F.relu(F.conv2d(xb, w['w1'], w['b1'], padding=1))
        h = F.relu(F.conv2d(h, w['w2'], w['b2'], padding=1))
        h = F.max_pool2d(h, 2, 2).flatten(1)
        logits = h @ w['w3'].T + w['b3']
        loss = -(yb * F.log_softmax(logits, dim=-1)).sum() / BATCH
        for t in w.values():
            t.grad = None
        loss.backward()
        # train_digits.c's schedule: a tenth in the last quarter.
        rate = args.learning_rate
        if 4 * epoch >= 3 * len(order):
            rate /= 10
        with torch.no_grad():
            for t in w.values():
                t -= rate * t.grad
        difference = abs(relay[step] - loss.item()) / abs(loss.item())
        worst = max(worst, difference)
        if difference > args.rtol:
            print('step %d: relay-mlir loss %.7g, PyTorch %.7g (relative '
                  'difference %.2g)' % (step, relay[step], loss.item(),
                                        difference))
            raise SystemExit(1)
    print('first %d losses: largest relative difference %.2g' %
          (args.steps, worst))
    print('matches torch')


if __name__ == '__main__':
    main()

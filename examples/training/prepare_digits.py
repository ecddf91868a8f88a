#!/usr/bin/python3
"""Prepares the digits data set (sklearn.datasets.load_digits, shipped by
Debian's python3-sklearn: 1797 8x8 images of one channel, nothing is
downloaded) for train_digits.c: raw little-endian float32 / int32 files in
OUTDIR.

  prepare_digits.py OUTDIR [--epochs 15] [--seed 0]

train_x (1437x1x8x8, pixels / 16), train_y (1437x10, one-hot), test_x
(384x1x8x8: the 360 test images and zeros to fill the last batch of 32),
test_labels (360, int32), order (epochs x 1437 int32: each epoch's shuffle
of the training set) and the initial weights w1 b1 w2 b2 w3 b3 (He-scaled
normal weights, zero biases). check_torch.py trains PyTorch on the same
files.
"""
import argparse
import os

import numpy as np
from sklearn.datasets import load_digits

TRAIN, TEST, BATCH = 1437, 360, 32
SHAPES = {'w1': (16, 1, 3, 3), 'b1': (16,), 'w2': (32, 16, 3, 3),
          'b2': (32,), 'w3': (10, 512), 'b3': (10,)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('outdir')
    parser.add_argument('--epochs', type=int, default=15)
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    digits = load_digits()
    perm = rng.permutation(len(digits.target))
    images = (digits.images[perm] / 16.0).reshape(-1, 1, 8, 8)
    labels = digits.target[perm]
    test_x = np.zeros((-(-TEST // BATCH) * BATCH, 1, 8, 8))
    test_x[:TEST] = images[TRAIN:TRAIN + TEST]
    files = {
        'train_x': images[:TRAIN].astype(np.float32),
        'train_y': np.eye(10)[labels[:TRAIN]].astype(np.float32),
        'test_x': test_x.astype(np.float32),
        'test_labels': labels[TRAIN:TRAIN + TEST].astype(np.int32),
        'order': np.stack([rng.permutation(TRAIN)
                           for _ in range(args.epochs)]).astype(np.int32),
    }
    for name, shape in SHAPES.items():
        if name.startswith('b'):
            files[name] = np.zeros(shape, np.float32)
        else:
            fan_in = np.prod(shape[1:])
            gain = 1.0 if name == 'w3' else 2.0
            files[name] = (rng.standard_normal(shape) *
                           np.sqrt(gain / fan_in)).astype(np.float32)
    for name, array in files.items():
        array.tofile(os.path.join(args.outdir, name))
    with open(os.path.join(args.outdir, 'epochs'), 'w') as f:
        f.write('%d\n' % args.epochs)


if __name__ == '__main__':
    main()

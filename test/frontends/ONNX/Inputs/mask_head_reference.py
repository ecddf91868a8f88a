#!/usr/bin/python3
"""PyTorch reference for make_model.py's mask_head: writes its inputs (five
regions, three of them scoring above 0, resized to 5x11) and the expected
output.

  mask_head_reference.py MODEL.onnx X.npy S.npy HW.npy EXPECTED.npy
"""
import sys

import numpy as np
import onnx
import torch
from onnx import numpy_helper


def main():
    model, x_path, s_path, hw_path, out_path = sys.argv[1:6]
    p = {t.name: torch.tensor(numpy_helper.to_array(t))
         for t in onnx.load(model).graph.initializer}
    rng = np.random.default_rng(3)
    x = rng.standard_normal((5, 2, 4, 4)).astype(np.float32)
    s = np.array([0.5, -1.0, 2.0, 0.0, 0.25], np.float32)
    hw = np.array([5, 11], np.int64)
    for path, value in ((x_path, x), (s_path, s), (hw_path, hw)):
        np.save(path, value)
    f = torch.nn.functional
    picked = torch.tensor(x)[torch.tensor(s) > 0]
    r = f.relu(f.conv2d(picked, p['w'], p['b'], padding=1))
    up = f.conv_transpose2d(r, p['wt'], stride=2)
    y = f.interpolate(up, size=tuple(hw), mode='bilinear', align_corners=False)
    np.save(out_path, y.numpy())


if __name__ == '__main__':
    main()

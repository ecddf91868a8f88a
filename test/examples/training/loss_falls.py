"""Reads train_digits' output: each epoch's mean loss below the first's, the
last below a tenth of the first."""
import re
import sys

losses = [float(m.group(1)) for m in
          re.finditer(r'mean loss ([0-9.]+)', sys.stdin.read())]
assert len(losses) == 20, losses
assert all(loss < losses[0] for loss in losses[1:]), losses
assert losses[-1] < losses[0] / 10, losses
print('the loss falls from %.4f to %.4f' % (losses[0], losses[-1]))

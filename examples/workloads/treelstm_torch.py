"""The child-sum TreeLSTM of treelstm.rly in PyTorch: the same rose tree and
cell, the reference that benchmark/run_workloads.py times and
test/tools/relay-run/gradient_vs_torch.py differentiates."""
import torch

# (word index, children): the tree treelstm.rly builds.
TREE = (0, [(1, [(3, []), (4, [])]), (2, []), (5, [(6, [])])])


def treelstm(words, w, u, b, tree=TREE):
    """(h, c) of the root: words [7, 1, 64], w [256, 64], u [256, 64],
    b [1, 256]; gates i, o, g and the per-child f, in that order."""
    us = u.chunk(4, dim=0)

    def node(t):
        index, kids = t
        states = [node(k) for k in kids]
        wx = (words[index] @ w.T + b).chunk(4, dim=1)
        hsum = sum((h for h, _ in states), torch.zeros(1, 64))
        i = torch.sigmoid(wx[0] + hsum @ us[0].T)
        o = torch.sigmoid(wx[1] + hsum @ us[1].T)
        g = torch.tanh(wx[2] + hsum @ us[2].T)
        fc = sum((torch.sigmoid(wx[3] + h @ us[3].T) * c for h, c in states),
                 torch.zeros(1, 64))
        c = i * g + fc
        return o * torch.tanh(c), c

    return node(tree)

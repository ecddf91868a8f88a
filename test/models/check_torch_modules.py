#!/usr/bin/python3
"""Small PyTorch models of kinds beyond image classification (1-d CNNs,
bags of embeddings, a transformer encoder, scripted branches and loops, a
3-d U-Net, scatters at data-dependent indices, max pooling's indices),
exported with torch.onnx (random weights) and run compiled by relay-run:
each must compile (no interpreter fallback) and match PyTorch to 1e-4
relative to its largest magnitude.

  /usr/bin/python3 check_torch_modules.py --bin build/bin
"""
import argparse
import os
import subprocess
import sys
import tempfile
import warnings
from typing import List

import numpy as np
import torch
from torch import nn


class AudioCNN(nn.Module):
    """1-d convolutions, batch norm, 1-d pooling, a transposed 1-d
    convolution and global average pooling over time (speech/audio)."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(4, 16, 5, stride=2, padding=2), nn.BatchNorm1d(16),
            nn.ReLU(), nn.MaxPool1d(3, stride=2, padding=1),
            nn.Conv1d(16, 32, 3, dilation=2, padding=2, groups=4), nn.GELU(),
            nn.AvgPool1d(2), nn.ConvTranspose1d(32, 8, 4, stride=2, padding=1))
        self.head = nn.Linear(8, 5)

    def forward(self, x):
        return self.head(nn.functional.adaptive_avg_pool1d(
            self.features(x), 1).flatten(1))


class TextCNN(nn.Module):
    """Embedding lookup, parallel 1-d convolutions of several widths with
    max-over-time pooling (Kim's sentence classifier)."""

    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(50, 12)
        self.convs = nn.ModuleList(nn.Conv1d(12, 8, k) for k in (2, 3, 4))
        self.out = nn.Linear(24, 3)

    def forward(self, tokens):
        x = self.embed(tokens).transpose(1, 2)
        pooled = [torch.relu(c(x)).max(dim=2).values for c in self.convs]
        return self.out(torch.cat(pooled, 1))


class Encoder(nn.Module):
    """Two transformer encoder layers (attention, layer norm, GELU)."""

    def __init__(self):
        super().__init__()
        self.layers = nn.TransformerEncoder(nn.TransformerEncoderLayer(
            32, 4, 64, batch_first=True, activation='gelu'), 2)

    def forward(self, x):
        return self.layers(x)


class Branches(nn.Module):
    """Data-dependent control flow (scripted, so ONNX If with subgraphs that
    use the enclosing graph's values)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 6)

    def forward(self, x):
        y = self.fc(x)
        if bool(y.sum() > 0):
            z = torch.relu(y) * 2.0
        else:
            z = torch.tanh(y) - x
        return z


class Loops(nn.Module):
    """Scripted loops (ONNX Loop with a body graph): a fixed number of
    layers applied in turn, then halving while the magnitude stays large (a
    condition computed each step)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 6)

    def forward(self, x):
        for _ in range(3):
            x = torch.tanh(self.fc(x)) + x
        while bool(x.abs().sum() > 0.5):
            x = x * 0.5
        return x


class Bags(nn.Module):
    """Bags of embeddings (a recommender's sparse features): torch.onnx
    writes EmbeddingBag as a Loop over the bags collecting each bag's
    reduction (a scan output); its trip count is known at import, so the
    importer unrolls it and the model compiles."""

    def __init__(self):
        super().__init__()
        self.mean = nn.EmbeddingBag(50, 8, mode='mean')
        self.max = nn.EmbeddingBag(50, 8, mode='max')
        self.out = nn.Linear(16, 2)

    def forward(self, tokens):
        return self.out(torch.cat([self.mean(tokens), self.max(tokens)], 1))


class ScriptedRNN(nn.Module):
    """A scripted recurrent loop over a fixed number of steps appending
    each state to a list, stacked at the end (ONNX: a Loop carrying a
    sequence, ConcatFromSequence): unrolled at import, the list's elements
    stay known and the model compiles."""

    def __init__(self):
        super().__init__()
        self.cell = nn.Linear(4, 4)

    def forward(self, x):
        outs: List[torch.Tensor] = []
        h = x[0]
        for t in range(x.shape[0]):
            h = torch.tanh(self.cell(x[t]) + h)
            outs.append(h)
        return torch.stack(outs)


class UNet3D(nn.Module):
    """A two-level 3-d U-Net (volumetric segmentation): 3-d convolutions
    with batch norm, max pooling, a transposed 3-d convolution upsampling
    and the skip connection concatenated."""

    def __init__(self):
        super().__init__()
        def block(i, o):
            return nn.Sequential(nn.Conv3d(i, o, 3, padding=1),
                                 nn.BatchNorm3d(o), nn.ReLU())
        self.down = block(2, 8)
        self.bottom = nn.Sequential(nn.MaxPool3d(2), block(8, 16))
        self.up = nn.ConvTranspose3d(16, 8, 2, stride=2)
        self.decode = block(16, 8)
        self.out = nn.Conv3d(8, 3, 1)

    def forward(self, x):
        skip = self.down(x)
        y = self.up(self.bottom(skip))
        return self.out(self.decode(torch.cat([y, skip], 1)))


class InvertedResiduals(nn.Module):
    """Two inverted residual blocks of EfficientNet-V2-S at 384x384 (24x24
    maps): 160 channels expanded to 960 by a 1x1 convolution whose input
    stays in the cache (channel bands, the depthwise convolution in channel
    blocks), then 256 expanded to 1536 (a depthwise image in one-row bands
    whose 3-row windows of 24 columns are not whole vectors)."""

    def __init__(self):
        super().__init__()
        def block(c, e):
            return nn.Sequential(
                nn.Conv2d(c, e, 1, bias=False), nn.BatchNorm2d(e), nn.SiLU(),
                nn.Conv2d(e, e, 3, padding=1, groups=e, bias=False),
                nn.BatchNorm2d(e), nn.SiLU(),
                nn.Conv2d(e, c, 1, bias=False), nn.BatchNorm2d(c))
        self.first = block(160, 960)
        self.widen = nn.Conv2d(160, 256, 1)
        self.second = block(256, 1536)

    def forward(self, x):
        x = self.widen(x + self.first(x))
        return x + self.second(x)


class AtrousPyramid(nn.Module):
    """DeepLabV3's atrous spatial pyramid on a 28x28 map: 3x3 convolutions
    dilated by 12, 24 and 36 (at 36 only the centre tap reads the map:
    --relay-simplify-expr leaves a 1x1 convolution), a 1x1 branch and the
    pooled image, concatenated and projected."""

    def __init__(self):
        super().__init__()
        self.branches = nn.ModuleList(
            [nn.Conv2d(16, 8, 1)] +
            [nn.Conv2d(16, 8, 3, padding=r, dilation=r) for r in (12, 24, 36)])
        self.pool = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(16, 8, 1))
        self.project = nn.Conv2d(40, 8, 1)

    def forward(self, x):
        pooled = self.pool(x).expand(-1, -1, x.shape[2], x.shape[3])
        ys = [torch.relu(b(x)) for b in self.branches] + [pooled]
        return self.project(torch.cat(ys, 1))


class SparseTaps(nn.Module):
    """Dilated kernels whose outer taps reach the map from only some
    outputs (--relay-simplify-expr splits them into regions of the same
    live taps): a 5x3 kernel at stride 2 dilated 7 x 11 on a 20x24 map, and
    a grouped 3x3 dilated 5 on the 10x12 result."""

    def __init__(self):
        super().__init__()
        self.first = nn.Conv2d(16, 8, (5, 3), stride=2, padding=(14, 11),
                               dilation=(7, 11))
        self.second = nn.Conv2d(8, 8, 3, padding=5, dilation=5, groups=2)

    def forward(self, x):
        return self.second(torch.relu(self.first(x)))


class ClusterScatter(nn.Module):
    """Scatters at indices computed from the data (a segment sum as graph
    and point-cloud networks pool): each row is added to the cluster its
    projection's argmax picks (scatter_add: ScatterElements adding), and
    the rows at the top-3 positions of a score are overwritten (index_put:
    ScatterND)."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 4)

    def forward(self, x):
        h = self.proj(x)
        cluster = h.argmax(dim=1)[:, None].expand(-1, x.shape[1])
        sums = torch.zeros(4, x.shape[1]).scatter_add(0, cluster, x)
        top = h[:, 0].topk(3).indices
        table = x.clone()
        table[top] = sums[:3]
        return torch.cat([sums, table], 0)


class PoolIndices(nn.Module):
    """Max pooling that returns where each maximum was (MaxPool's second
    output, which torch offsets per channel with a 1x1 MaxPool), used as
    numbers."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.pool = nn.MaxPool2d(3, stride=2, padding=1, return_indices=True)

    def forward(self, x):
        pooled, where = self.pool(self.conv(x))
        return pooled + where.float() * 1e-3


# Models that need a newer opset than 14 (ScatterElements' reduction: 16).
OPSETS = {'cluster_scatter': 16}


def models():
    torch.manual_seed(0)
    yield 'audio_cnn', AudioCNN(), torch.randn(1, 4, 64)
    yield 'text_cnn', TextCNN(), torch.randint(0, 50, (2, 9))
    yield 'embedding_bags', Bags(), torch.randint(0, 50, (3, 5))
    yield 'transformer_encoder', Encoder(), torch.randn(1, 10, 32)
    yield 'unet3d', UNet3D(), torch.randn(1, 2, 8, 12, 10)
    yield 'inverted_residuals', InvertedResiduals(), torch.randn(1, 160, 24, 24)
    yield 'atrous_pyramid', AtrousPyramid(), torch.randn(1, 16, 28, 28)
    yield 'sparse_taps', SparseTaps(), torch.randn(1, 16, 20, 24)
    yield 'cluster_scatter', ClusterScatter(), torch.randn(10, 8)
    yield 'pool_indices', PoolIndices(), torch.randn(2, 3, 11, 9)
    yield 'scripted_loops', torch.jit.script(Loops()), torch.randn(2, 6)
    yield 'scripted_rnn', torch.jit.script(ScriptedRNN()), torch.randn(5, 3, 4)
    branches = torch.jit.script(Branches())
    for sign, name in ((1.0, 'scripted_if_then'), (-1.0, 'scripted_if_else')):
        with torch.no_grad():
            bias = branches.fc.bias
            bias.fill_(sign * 10.0)
        yield name, branches, torch.randn(2, 6)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', required=True)
    args = parser.parse_args()
    warnings.filterwarnings('ignore')
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, model, x in models():
            model.eval()
            for m in model.modules():
                if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d,
                                  nn.BatchNorm3d)):
                    m.running_mean.uniform_(-0.1, 0.1)
                    m.running_var.uniform_(0.5, 1.5)
            with torch.no_grad():
                want = model(x).numpy()
            path = os.path.join(tmp, name + '.onnx')
            torch.onnx.export(model, x, path,
                              opset_version=OPSETS.get(name, 14),
                              input_names=['x'])
            np.save(os.path.join(tmp, 'x.npy'), x.numpy())
            out = os.path.join(tmp, 'out.npy')
            proc = subprocess.run(
                [os.path.join(args.bin, 'relay-run'), path, '--input',
                 os.path.join(tmp, 'x.npy'), '--output', out],
                capture_output=True, text=True)
            if proc.returncode != 0 or 'reference interpreter' in proc.stderr:
                failures += 1
                print('%-20s FAILED: %s' % (name, proc.stderr.strip()[:500]))
                continue
            got = np.load(out)
            error = float(np.max(np.abs(got - want)) / np.max(np.abs(want)))
            ok = got.shape == want.shape and error <= 1e-4
            failures += 0 if ok else 1
            print('%-20s %s (relative error %.2g)' % (
                name, 'matches PyTorch' if ok else 'DIFFERS from PyTorch',
                error), flush=True)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
"""Exports torchvision models to ONNX with random weights (nothing is
downloaded), with a fixed input and PyTorch's output for checking.

  /usr/bin/python3 export_torchvision.py [--batch N] OUTDIR [MODEL ...]

MODEL: the papers' resnet18, mobilenet_v2 and vgg16 (the default), or one of
the other networks below (checked by test/models/check_torchvision.py;
EXTRA's with --extra).

writes OUTDIR/<model>.onnx, OUTDIR/<model>.input.npy (1x3x224x224 float32;
the video networks' a 1x3x16x112x112 clip),
OUTDIR/<model>.torch.npy (PyTorch's eval-mode output on that input) and
OUTDIR/<model>.pt (the module, for benchmark/run_workloads.py). With
--batch N (N > 1) the files are <model>_bN.* and the image Nx3x224x224.
"""
import inspect
import os
import sys

import numpy as np
import torch
import torchvision

PAPERS = {
    'resnet18': torchvision.models.resnet18,
    'mobilenet_v2': torchvision.models.mobilenet_v2,
    'vgg16': torchvision.models.vgg16,
}
OTHERS = {
    'squeezenet1_0': torchvision.models.squeezenet1_0,
    'shufflenet_v2_x0_5': torchvision.models.shufflenet_v2_x0_5,
    'googlenet': lambda weights: torchvision.models.googlenet(
        weights=weights, aux_logits=False, init_weights=True),
    'efficientnet_b0': torchvision.models.efficientnet_b0,
    'mnasnet0_5': torchvision.models.mnasnet0_5,
    'mobilenet_v3_small': torchvision.models.mobilenet_v3_small,
    'regnet_y_400mf': torchvision.models.regnet_y_400mf,
    'densenet121': torchvision.models.densenet121,
    'swin_t': torchvision.models.swin_t,
    # The bottleneck ResNet most users start from (1x1 -> 3x3 -> 1x1).
    'resnet50': torchvision.models.resnet50,
    # Grouped convolutions (32 groups of 4 to 32 channels) and a ConvNeXt's
    # 7x7 depthwise convolutions with layer norms and dense layers on
    # channels-last rows.
    'resnext50_32x4d': torchvision.models.resnext50_32x4d,
    'convnext_tiny': torchvision.models.convnext_tiny,
    # Video classification (Kinetics-400) on 16-frame 112x112 clips: 3-d
    # convolutions (3x3x3 in R3D; 1x3x3 then 3x1x1 in R(2+1)D).
    'r3d_18': torchvision.models.video.r3d_18,
    'r2plus1d_18': torchvision.models.video.r2plus1d_18,
}


class SegmentationLogits(torch.nn.Module):
    """A torchvision segmentation network's per-pixel logits (its forward
    returns a dict)."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)['out']


# More networks, for a longer check than CI's (check_torchvision.py
# --extra): a vision transformer and MaxViT (attention over windows and
# grids), EfficientNet-V2, Inception-V3 at 299x299, two segmentation
# networks (atrous convolutions, bilinear upsampling to the input's size)
# and S3D on 16 frames of 224x224.
EXTRA = {
    'vit_b_16': torchvision.models.vit_b_16,
    'maxvit_t': torchvision.models.maxvit_t,
    'efficientnet_v2_s': torchvision.models.efficientnet_v2_s,
    'inception_v3': lambda weights: torchvision.models.inception_v3(
        weights=weights, aux_logits=False, init_weights=True),
    'lraspp_mobilenet_v3_large': lambda weights: SegmentationLogits(
        torchvision.models.segmentation.lraspp_mobilenet_v3_large(
            weights=weights, weights_backbone=None)),
    'deeplabv3_mobilenet_v3_large': lambda weights: SegmentationLogits(
        torchvision.models.segmentation.deeplabv3_mobilenet_v3_large(
            weights=weights, weights_backbone=None, aux_loss=False)),
    's3d': torchvision.models.video.s3d,
}
# The input of each network: an image, or a clip of frames for the video
# networks (channels, frames, height, width).
CLIP = (3, 16, 112, 112)
INPUT = {name: CLIP for name in ('r3d_18', 'r2plus1d_18')}
INPUT.update({'inception_v3': (3, 299, 299), 's3d': (3, 16, 224, 224)})
MODELS = dict(PAPERS, **OTHERS, **EXTRA)


def export(name, outdir, batch=1):
    torch.manual_seed(0)
    model = MODELS[name](weights=None).eval()
    # Random but realistic batch-norm statistics, so that they matter.
    for m in model.modules():
        if isinstance(m, (torch.nn.BatchNorm2d, torch.nn.BatchNorm3d)):
            m.running_mean.uniform_(-0.1, 0.1)
            m.running_var.uniform_(0.5, 1.5)
    # torchvision zeroes some classifier heads (ViT's): random ones, so
    # that the output checks the whole network.
    for m in model.modules():
        if isinstance(m, torch.nn.Linear) and not m.weight.abs().sum():
            torch.nn.init.normal_(m.weight, std=0.02)
    rng = np.random.default_rng(0)
    image = rng.standard_normal(
        (batch,) + INPUT.get(name, (3, 224, 224))).astype(np.float32)
    with torch.no_grad():
        expected = model(torch.from_numpy(image)).numpy()
    stem = name if batch == 1 else '%s_b%d' % (name, batch)
    path = os.path.join(outdir, stem + '.onnx')
    # PyTorch 2.9 and later export through torch.export by default (opset
    # 18 and later); the TorchScript exporter writes the opset asked for.
    legacy = {'dynamo': False} if 'dynamo' in inspect.signature(
        torch.onnx.export).parameters else {}
    torch.onnx.export(model, torch.from_numpy(image), path, opset_version=13,
                      input_names=['image'], output_names=['logits'],
                      do_constant_folding=True, **legacy)
    np.save(os.path.join(outdir, stem + '.input.npy'), image)
    np.save(os.path.join(outdir, stem + '.torch.npy'), expected)
    torch.save(model, os.path.join(outdir, stem + '.pt'))
    print('wrote', path)


def main():
    args = sys.argv[1:]
    batch = 1
    if args[:1] == ['--batch'] and len(args) > 1 and args[1].isdigit():
        batch, args = int(args[1]), args[2:]
    if not args or batch < 1:
        print(__doc__)
        return 1
    outdir = args[0]
    os.makedirs(outdir, exist_ok=True)
    for name in args[1:] or PAPERS:
        if name not in MODELS:
            print('unknown model %s (known: %s)' % (name, ', '.join(MODELS)))
            return 1
        export(name, outdir, batch)
    return 0


if __name__ == '__main__':
    sys.exit(main())

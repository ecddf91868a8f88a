#!/usr/bin/python3
"""torchvision's detectors exported to ONNX and run by relay-run against
PyTorch: SSDlite320 (MobileNet-V3-Large) and Faster R-CNN (MobileNet-V3-
Large 320 FPN). Their post-processing (score thresholds, top-k of a
computed k, batched NMS; Faster R-CNN's region proposals, its multi-scale
RoIAlign over the proposals NMS kept, scattered back per level, and its
box head over them) gives sizes that depend on the data (Relay's dyn.*
operators, arange and all_class_non_max_suppression, `?` sizes), so
relay-run runs them on the interpreter, saying so. Each of PyTorch's
detections must be matched by one of relay-mlir's with the same label,
its score within 1e-4 and its box within 0.1 pixels (Faster R-CNN's
box regression, applied twice, moves a box of score 3e-15 by 0.052 pixels
in float32 noise), and the counts must
agree (detections of equal scores may come in either order).

torchvision's random initialisation gives SSDlite features of about 1e-14
and every class the same score, which would decide nothing; the weights
here are drawn so that features neither vanish nor explode (He-normal
convolutions, unit batch norms with random shifts).

  /usr/bin/python3 check_detection.py --bin build/bin --models DIR
"""
import argparse
import os
import subprocess
import sys

import numpy as np

NAMES = ['ssdlite320_mobilenet_v3_large', 'fasterrcnn_mobilenet_v3_large_320_fpn']


def spread_weights(model, torch):
    torch.manual_seed(1)
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, torch.nn.Conv2d):
                m.weight.normal_(0, (2.0 / m.weight[0].numel()) ** 0.5)
                if m.bias is not None:
                    m.bias.normal_(0, 0.1)
            elif isinstance(m, torch.nn.BatchNorm2d):
                m.weight.fill_(1.0)
                m.bias.normal_(0, 0.1)
                m.running_mean.zero_()
                m.running_var.fill_(1.0)


def export(models, name):
    """Writes NAME.onnx, its input and PyTorch's detections to `models`."""
    import torch
    import torchvision
    torch.manual_seed(0)
    # Faster R-CNN's random weights score its classes near 1/91 each: with
    # the default threshold (0.05) one detection or none would be compared.
    extra = {'box_score_thresh': 0.0} if name.startswith('fasterrcnn') else {}
    model = torchvision.models.get_model(name, weights=None,
                                         weights_backbone=None,
                                         **extra).eval()
    spread_weights(model, torch)
    image = torch.rand(3, 320, 320)
    with torch.no_grad():
        want = model([image])[0]
    base = os.path.join(models, name)
    # Faster R-CNN at opset 11: torchvision 0.14 writes RoiAlign without
    # coordinate_transformation_mode, which from opset 16 means half_pixel
    # (aligned corners), not the unaligned RoIAlign its detectors compute.
    opset = 11 if name.startswith('fasterrcnn') else 17
    torch.onnx.export(model, ([image],), base + '.onnx', opset_version=opset,
                      input_names=['image'])
    np.save(base + '.input.npy', image.numpy())
    for key in ('boxes', 'scores', 'labels'):
        np.save('%s.torch.%s.npy' % (base, key), want[key].numpy())


def check(args, name):
    """Runs `name` by relay-run and matches its detections with PyTorch's;
    whether they agree."""
    base = os.path.join(args.models, name)
    if not os.path.exists(base + '.torch.labels.npy'):
        export(args.models, name)
    proc = subprocess.run(
        [os.path.join(args.bin, 'relay-run'), base + '.onnx', '--input',
         base + '.input.npy', '--output', base + '.relay.npy'],
        capture_output=True, text=True)
    if proc.returncode != 0:
        print('%s FAILED: %s' % (name, proc.stderr.strip()[:1000]))
        return False
    boxes, scores, labels = (np.load('%s.relay.%d.npy' % (base, i))
                             for i in range(3))
    if scores.dtype.kind == 'i':  # exported as (boxes, labels, scores)
        scores, labels = labels, scores
    want = {k: np.load('%s.torch.%s.npy' % (base, k))
            for k in ('boxes', 'scores', 'labels')}
    unmatched = list(range(len(want['scores'])))
    for box, score, label in zip(boxes, scores, labels):
        for j in unmatched:
            if (want['labels'][j] == label and
                    abs(want['scores'][j] - score) <= 1e-4 and
                    np.abs(want['boxes'][j] - box).max() <= 0.1):
                unmatched.remove(j)
                break
    matched = len(want['scores']) - len(unmatched)
    ok = not unmatched and len(scores) == len(want['scores'])
    print('%s: %d detections (PyTorch %d), %d matched%s' % (
        name, len(scores), len(want['scores']), matched,
        '' if ok else ': DIFFERS from PyTorch'))
    return ok


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--bin', required=True)
    parser.add_argument('--models', required=True)
    parser.add_argument('--only', default='', help='comma-separated names')
    args = parser.parse_args()
    os.makedirs(args.models, exist_ok=True)
    names = args.only.split(',') if args.only else NAMES
    results = [check(args, name) for name in names]
    return 0 if all(results) else 1


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
"""torchvision's detectors exported to ONNX and run by relay-run against
PyTorch: SSDlite320 (MobileNet-V3-Large), Faster R-CNN (MobileNet-V3-
Large 320 FPN), Mask R-CNN and Keypoint R-CNN (ResNet-50 FPN, on a
192x192 image, their 20 and 10 best detections). Their post-processing (score thresholds, top-k of a
computed k, batched NMS; Faster R-CNN's region proposals, its multi-scale
RoIAlign over the proposals NMS kept, scattered back per level, and its
box head over them) gives sizes that depend on the data (Relay's dyn.*
operators, arange and all_class_non_max_suppression, `?` sizes), so
relay-run runs them on the interpreter, saying so. Each of PyTorch's
detections must be matched by one of relay-mlir's with the same label,
its score within 1e-4 and its box within 0.1 pixels (Faster R-CNN's
box regression, applied twice, moves a box of score 3e-15 by 0.052 pixels
in float32 noise), and the counts must
agree (detections of equal scores may come in either order). Mask R-CNN's
masks (each resized to its box widened by 30/28, the widened box's
corners truncated to whole pixels, and pasted there) must agree within
2e-3, but for two kinds of detection where float noise in the box
(2.6e-3 px here) moves samples across a boundary: the widened box's
corner crosses a pixel boundary (the mask is resized and pasted one pixel
over), or the box reaches the image's edge (its mask's RoIAlign samples
sit on the feature map's edge, where the sampling rule changes from
reading the border pixel to reading zero: box 16 here, x from 189.5014
against PyTorch's 189.4988 to the edge at 192). At most a tenth of the
masks may be excused so. Keypoint R-CNN's keypoints (each the maximum of
a heatmap resized bicubically to its box) must be within 0.05 pixels and
their scores within 1e-3 relative (1e-2 absolute).

torchvision's random initialisation gives SSDlite features of about 1e-14
and every class the same score, which would decide nothing; the weights
here are drawn so that features neither vanish nor explode (He-normal
convolutions, unit batch norms with random shifts, ResNet bottlenecks'
residual branches scaled by 0.2 as zero_init_residual would scale them
by 0).

  /usr/bin/python3 check_detection.py --bin build/bin --models DIR
"""
import argparse
import os
import subprocess
import sys

import numpy as np

NAMES = ['ssdlite320_mobilenet_v3_large', 'fasterrcnn_mobilenet_v3_large_320_fpn',
         'maskrcnn_resnet50_fpn', 'keypointrcnn_resnet50_fpn']
# The ResNet-50 detectors at a smaller image and fewer detections, so that
# the interpreter runs each in about 15-20 s here.
IMAGE_SIZE = {'maskrcnn_resnet50_fpn': 192, 'keypointrcnn_resnet50_fpn': 192}
DETECTIONS = {'maskrcnn_resnet50_fpn': 20, 'keypointrcnn_resnet50_fpn': 10}


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
        for m in model.modules():
            # Fifty layers of unit residual branches grow the features to
            # ~2000, and the region proposals then all fall outside.
            if type(m).__name__ == 'Bottleneck':
                m.bn3.weight.fill_(0.2)


def build(name):
    """The detector `name` (eval mode, check_detection's weights) and its
    input image; benchmark/detectors.py times the same."""
    import torch
    import torchvision
    torch.manual_seed(0)
    # Faster R-CNN's random weights score its classes near 1/91 each: with
    # the default threshold (0.05) one detection or none would be compared.
    extra = {} if name.startswith('ssdlite') else {'box_score_thresh': 0.0}
    size = IMAGE_SIZE.get(name, 320)
    if name in IMAGE_SIZE:
        extra.update(min_size=size, max_size=size)
    if name in DETECTIONS:
        extra['box_detections_per_img'] = DETECTIONS[name]
    model = torchvision.models.get_model(name, weights=None,
                                         weights_backbone=None,
                                         **extra).eval()
    spread_weights(model, torch)
    return model, torch.rand(3, size, size)


def export(models, name):
    """Writes NAME.onnx, its input and PyTorch's detections to `models`."""
    import torch
    model, image = build(name)
    with torch.no_grad():
        want = model([image])[0]
    base = os.path.join(models, name)
    # Faster R-CNN at opset 11: torchvision 0.14 writes RoiAlign without
    # coordinate_transformation_mode, which from opset 16 means half_pixel
    # (aligned corners), not the unaligned RoIAlign its detectors compute.
    opset = 17 if name.startswith('ssdlite') else 11
    torch.onnx.export(model, ([image],), base + '.onnx', opset_version=opset,
                      input_names=['image'])
    np.save(base + '.input.npy', image.numpy())
    for key in want:
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
    with_masks = os.path.exists(base + '.torch.masks.npy')
    with_keypoints = os.path.exists(base + '.torch.keypoints.npy')
    if scores.dtype.kind == 'i':  # exported as (boxes, labels, scores)
        scores, labels = labels, scores
    want = {k: np.load('%s.torch.%s.npy' % (base, k))
            for k in ('boxes', 'scores', 'labels')}
    unmatched = list(range(len(want['scores'])))
    pairs = []
    for i, (box, score, label) in enumerate(zip(boxes, scores, labels)):
        for j in unmatched:
            if (want['labels'][j] == label and
                    abs(want['scores'][j] - score) <= 1e-4 and
                    np.abs(want['boxes'][j] - box).max() <= 0.1):
                unmatched.remove(j)
                pairs.append((i, j))
                break
    matched = len(want['scores']) - len(unmatched)
    ok = not unmatched and len(scores) == len(want['scores'])
    masks = ''
    if with_masks and ok:
        mask_ok, masks = check_masks(
            np.load(base + '.relay.3.npy'),
            np.load(base + '.torch.masks.npy'), pairs, boxes, want['boxes'])
        ok = ok and mask_ok
    if with_keypoints and ok:
        keypoints_ok, masks = check_keypoints(
            [np.load('%s.relay.%d.npy' % (base, i)) for i in (3, 4)],
            [np.load('%s.torch.%s.npy' % (base, k))
             for k in ('keypoints', 'keypoints_scores')], pairs)
        ok = ok and keypoints_ok
    print('%s: %d detections (PyTorch %d), %d matched%s%s' % (
        name, len(scores), len(want['scores']), matched, masks,
        '' if ok else ': DIFFERS from PyTorch'))
    return ok


def pasted_box(box):
    """The whole-pixel box torchvision pastes a 28x28 mask into: `box`
    widened by (28 + 2) / 28 about its centre, truncated (expand_boxes,
    then int64, in _onnx_paste_masks_in_image_loop)."""
    box = np.asarray(box, dtype=np.float32)
    half = (box[2:] - box[:2]) * np.float32(0.5) * np.float32(30 / 28)
    centre = (box[2:] + box[:2]) * np.float32(0.5)
    return np.concatenate([centre - half, centre + half]).astype(np.int64)


def check_masks(got, want, pairs, got_boxes, want_boxes):
    """Whether the masks of matched detections (relay index, PyTorch index)
    agree, and a line saying how they compare."""
    if got.shape != want.shape:
        return False, ', masks %s (PyTorch %s)' % (got.shape, want.shape)
    height, width = want.shape[2:]
    worst, excused, wrong = 0.0, 0, 0
    for i, j in pairs:
        diff = np.abs(got[i] - want[j]).max()
        if diff <= 2e-3:
            worst = max(worst, diff)
            continue
        box = want_boxes[j]
        if ((pasted_box(got_boxes[i]) != pasted_box(box)).any() or
                min(box[0], box[1]) <= 0 or box[2] >= width or
                box[3] >= height):
            excused += 1
        else:
            wrong += 1
    ok = wrong == 0 and excused <= max(1, len(pairs) // 10)
    return ok, (', masks within %.1e (%d excused: a pixel over or at the '
                'edge, %d differ)' % (worst, excused, wrong))


def check_keypoints(got, want, pairs):
    """Whether the keypoints and their scores of matched detections agree,
    and a line saying how they compare."""
    (points, scores), (want_points, want_scores) = got, want
    if points.shape != want_points.shape or scores.shape != want_scores.shape:
        return False, ', keypoints %s (PyTorch %s)' % (points.shape,
                                                       want_points.shape)
    i, j = [list(k) for k in zip(*pairs)]
    moved = np.abs(points[i] - want_points[j]).max() if pairs else 0.0
    ok = moved <= 0.05 and np.allclose(scores[i], want_scores[j], rtol=1e-3,
                                       atol=1e-2)
    return ok, ', keypoints within %.1e px, their scores within %.1e' % (
        moved, np.abs(scores[i] - want_scores[j]).max() if pairs else 0.0)


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

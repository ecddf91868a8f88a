#!/usr/bin/python3
"""numpy reference for make_model.py's detect (a detector's
post-processing): writes its inputs and expected outputs.

  detect_reference.py BOXES.npy SCORES.npy EXPECTED_PREFIX
"""
import sys

import numpy as np


def iou(a, b):
    """Intersection over union of two boxes [y1, x1, y2, x2] (either
    diagonal), as ONNX's NonMaxSuppression computes it."""
    a = np.array([min(a[0], a[2]), min(a[1], a[3]),
                  max(a[0], a[2]), max(a[1], a[3])])
    b = np.array([min(b[0], b[2]), min(b[1], b[3]),
                  max(b[0], b[2]), max(b[1], b[3])])
    area_a = (a[2] - a[0]) * (a[3] - a[1])
    area_b = (b[2] - b[0]) * (b[3] - b[1])
    if area_a <= 0 or area_b <= 0:
        return 0.0
    h = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    w = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = h * w
    return inter / (area_a + area_b - inter)


def nms(boxes, scores, max_out, iou_threshold, score_threshold):
    order = [i for i in np.argsort(-scores, kind='stable')
             if scores[i] > score_threshold]
    kept = []
    for i in order:
        if len(kept) >= max_out:
            break
        if all(iou(boxes[i], boxes[j]) <= iou_threshold for j in kept):
            kept.append(i)
    return kept


def main():
    rng = np.random.default_rng(5)
    corner = rng.uniform(0, 10, (6, 2))
    size = rng.uniform(1, 4, (6, 2))
    boxes = np.concatenate([corner, corner + size], axis=1).astype(np.float32)
    # Box 1 nearly repeats box 0 (suppressed); box 4 scores under the
    # threshold; five candidates, k = 4.
    boxes[1] = boxes[0] + 0.1
    scores = np.array([0.9, 0.8, 0.35, 0.7, 0.1, 0.6], np.float32)
    np.save(sys.argv[1], boxes)
    np.save(sys.argv[2], scores)

    idx = np.nonzero(scores > 0.3)[0]
    sel = scores[idx]
    k = min(len(sel), 4)
    order = np.argsort(-sel, kind='stable')[:k]
    top = sel[order]
    kb = boxes[idx[order]]
    which = nms(kb, top, 10, 0.5, 0.0)
    final = kb[which]
    m = len(which)
    pairs = (final + 0.5).reshape(-1, 2)
    grid = np.broadcast_to(np.arange(m, dtype=np.int64)[:, None], (m, 3))
    tiled = np.tile(top, m)
    prefix = sys.argv[3]
    for name, value in (('final', final), ('pairs', pairs), ('grid', grid),
                        ('tiled', tiled)):
        np.save('%s.%s.npy' % (prefix, name), value)


if __name__ == '__main__':
    main()

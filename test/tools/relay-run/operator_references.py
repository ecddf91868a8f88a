"""numpy references of the operators numpy lacks, for operators_vs_numpy.py:
each computes what TVM's kernel (or the framework the operator comes from)
computes, written from its definition, never from relay-mlir's code."""
import math

import numpy as np

from random_references import *  # noqa: F401,F403


def space_to_batch_ref(a, block, pads, value=0.0):
    """TensorFlow's SpaceToBatchND element by element: output batch
    (offset index) * N + n holds padded[n, y * b + offset, ...]."""
    m = len(block)
    padded = np.pad(a, [(0, 0)] + [tuple(pads[2 * i:2 * i + 2]) for i in range(m)]
                    + [(0, 0)] * (a.ndim - 1 - m), constant_values=value)
    n = a.shape[0]
    reduced = [padded.shape[1 + i] // block[i] for i in range(m)]
    out = np.zeros([n * int(np.prod(block))] + reduced + list(a.shape[1 + m:]),
                   a.dtype)
    for offset_index, offsets in enumerate(np.ndindex(*block)):
        for b in range(n):
            for y in np.ndindex(*reduced):
                src = tuple(y[i] * block[i] + offsets[i] for i in range(m))
                out[(offset_index * n + b,) + y] = padded[(b,) + src]
    return out


def batch_to_space_ref(a, block, crops):
    """TensorFlow's BatchToSpaceND: the inverse placement, then the crops."""
    m = len(block)
    n = a.shape[0] // int(np.prod(block))
    full = [a.shape[1 + i] * block[i] for i in range(m)]
    out = np.zeros([n] + full + list(a.shape[1 + m:]), a.dtype)
    for offset_index, offsets in enumerate(np.ndindex(*block)):
        for b in range(n):
            for y in np.ndindex(*a.shape[1:1 + m]):
                dst = tuple(y[i] * block[i] + offsets[i] for i in range(m))
                out[(b,) + dst] = a[(offset_index * n + b,) + y]
    keep = tuple(slice(crops[2 * i], full[i] - crops[2 * i + 1]) for i in range(m))
    return out[(slice(None),) + keep]


def matrix_set_diag_ref(data, diagonal, k1, k2, super_right, sub_right):
    """TensorFlow's MatrixSetDiagV3, one element at a time."""
    out = data.copy()
    rows, cols = data.shape[-2:]
    longest = diagonal.shape[-1]
    if k1 == k2:
        diagonal = diagonal[..., None, :]
    for d in range(k1, k2 + 1):
        length = min(rows + min(d, 0), cols - max(d, 0))
        right = super_right if d > 0 else sub_right if d < 0 else False
        offset = longest - length if right else 0
        for n in range(length):
            i, j = (n, n + d) if d >= 0 else (n - d, n)
            out[..., i, j] = diagonal[..., k2 - d, offset + n]
    return out


def crop_and_resize_ref(data, boxes, indices, size, method, extrapolation,
                        layout="NCHW"):
    """TensorFlow's CropAndResize, one sample at a time (its kernel's
    formulas: positions from the box's corners, bilinear between floor and
    ceil, nearest by rounding half away from zero)."""
    if layout == "NHWC":
        data = data.transpose(0, 3, 1, 2)
    n, c, h, w = data.shape
    ch, cw = size
    out = np.zeros((len(boxes), c, ch, cw), np.float64)
    f = np.float32  # positions in float32, in TensorFlow's order

    def position(lo, hi, i, crop, size):
        if crop == 1:
            return f(0.5 * (lo + hi) * (size - 1))
        return f(lo * f(size - 1)) + f(i) * f(f((hi - lo) * f(size - 1)) / f(crop - 1))
    for b, (y1, x1, y2, x2) in enumerate(boxes.astype(np.float32)):
        image = data[indices[b]].astype(np.float64)
        for i in range(ch):
            y = float(position(y1, y2, i, ch, h))
            for j in range(cw):
                x = float(position(x1, x2, j, cw, w))
                if y < 0 or y > h - 1 or x < 0 or x > w - 1:
                    out[b, :, i, j] = extrapolation
                elif method == "nearest_neighbor":
                    out[b, :, i, j] = image[:, int(math.floor(y + 0.5)),
                                            int(math.floor(x + 0.5))]
                else:
                    y0, x0 = math.floor(y), math.floor(x)
                    y1_, x1_ = math.ceil(y), math.ceil(x)
                    top = image[:, y0, x0] + (image[:, y0, x1_] - image[:, y0, x0]) * (x - x0)
                    bottom = image[:, y1_, x0] + (image[:, y1_, x1_] - image[:, y1_, x0]) * (x - x0)
                    out[b, :, i, j] = top + (bottom - top) * (y - y0)
    if layout == "NHWC":
        out = out.transpose(0, 2, 3, 1)
    return out.astype(data.dtype)


def dilate_ref(a, strides, value):
    out = np.full([(d - 1) * s + 1 if d else 0 for d, s in zip(a.shape, strides)],
                  value, a.dtype)
    out[tuple(slice(None, None, s) for s in strides)] = a
    return out


def resize_ref(a, size, method, coords, rounding="floor"):
    """image.resize1d/2d/3d of `a` (NCW, NCHW, NCDHW) to `size` along the
    axes after the channels, linear or nearest (rounding down, or to the
    nearest), half_pixel, asymmetric or align_corners coordinates."""
    out = a.astype(np.float64)
    for axis, length in zip(range(2, a.ndim), size):
        n = out.shape[axis]
        i = np.arange(length, dtype=np.float64)
        pos = (i * n / length if coords == 'asymmetric' else
               i * (n - 1) / max(length - 1, 1) if coords == 'align_corners'
               else (i + 0.5) * n / length - 0.5)
        if method == 'nearest_neighbor':
            rows = np.floor(pos) if rounding == "floor" else np.rint(pos)
            out = np.take(out, np.clip(rows, 0, n - 1).astype(int), axis=axis)
            continue
        low = np.floor(pos)
        t = (pos - low).reshape([-1] + [1] * (a.ndim - 1 - axis))
        lo = np.take(out, np.clip(low, 0, n - 1).astype(int), axis=axis)
        hi = np.take(out, np.clip(low + 1, 0, n - 1).astype(int), axis=axis)
        out = lo * (1 - t) + hi * t
    return out.astype(a.dtype)


def reverse_sequence_ref(a, lengths, seq_axis, batch_axis):
    """TVM's reverse_sequence, one element at a time: index t of batch
    entry b reads len - 1 - t when 1 < len and t < len (len clamped to the
    axis), else t."""
    out = np.empty_like(a)
    dim = a.shape[seq_axis]
    for index in np.ndindex(*a.shape):
        t, n = index[seq_axis], int(lengths[index[batch_axis]])
        source = list(index)
        if n > 1 and t < n:
            source[seq_axis] = min(n, dim) - 1 - t
        out[index] = a[tuple(source)]
    return out


def affine_grid_ref(theta, h, w):
    """TVM's affine_grid: positions -1 + i * (2 - 1e-7) / (size - 1) in
    float32, each pixel's (x, y, 1) through its batch entry's transform."""
    f = np.float32
    ys = f(-1) + np.arange(h, dtype=f) * f((2.0 - 1e-7) / (h - 1))
    xs = f(-1) + np.arange(w, dtype=f) * f((2.0 - 1e-7) / (w - 1))
    out = np.zeros((theta.shape[0], 2, h, w))
    t = theta.astype(np.float64)
    for n in range(theta.shape[0]):
        for d in range(2):
            out[n, d] = (t[n, d, 0] * xs[None, :] + t[n, d, 1] * ys[:, None]
                         + t[n, d, 2])
    return out


def dilation2d_ref(x, w, strides, pads, dilations):
    """Morphological dilation (NCHW data, [C, KH, KW] weight), zero
    padding (top, left, bottom, right) as TVM's topi pads."""
    n, c, h, wd = x.shape
    _, kh, kw = w.shape
    t, l, bt, r = pads
    xp = np.zeros((n, c, h + t + bt, wd + l + r), x.dtype)
    xp[:, :, t:t + h, l:l + wd] = x
    oh = (h + t + bt - (kh - 1) * dilations[0] - 1) // strides[0] + 1
    ow = (wd + l + r - (kw - 1) * dilations[1] - 1) // strides[1] + 1
    out = np.full((n, c, oh, ow), -np.inf)
    for y in range(oh):
        for z in range(ow):
            for i in range(kh):
                for j in range(kw):
                    v = (xp[:, :, y * strides[0] + i * dilations[0],
                            z * strides[1] + j * dilations[1]] + w[None, :, i, j])
                    out[:, :, y, z] = np.maximum(out[:, :, y, z], v)
    return out


def correlation_ref(a, b, k, disp, s1, s2, pad, multiply):
    """TVM's topi correlation_nchw, transcribed: sums over channels and the
    k x k window at (i * s1 + disp, j * s1 + disp) of the padded maps,
    divided by k * k * C."""
    n, c, h, w = a.shape
    ph, pw = pad
    ap = np.pad(a.astype(np.float64), ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    bp = np.pad(b.astype(np.float64), ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    border = disp + (k - 1) // 2
    radius = disp // s2
    size = 2 * radius + 1
    oh = (h + 2 * ph - 2 * border + s1 - 1) // s1
    ow = (w + 2 * pw - 2 * border + s1 - 1) // s1
    out = np.zeros((n, size * size, oh, ow))
    for q in range(size * size):
        dy, dx = (q // size - radius) * s2, (q % size - radius) * s2
        for i in range(oh):
            for j in range(ow):
                y1, x1 = i * s1 + disp, j * s1 + disp
                p1 = ap[:, :, y1:y1 + k, x1:x1 + k]
                p2 = bp[:, :, y1 + dy:y1 + dy + k, x1 + dx:x1 + dx + k]
                v = p1 * p2 if multiply else np.abs(p1 - p2)
                out[:, q, i, j] = v.sum(axis=(1, 2, 3)) / (k * k * c)
    return out


def multibox_prior_ref(h, w, sizes, ratios, steps, offsets, clip):
    """TVM's hybrid multibox_prior, one box at a time."""
    step_h = steps[0] if steps[0] > 0 else 1.0 / h
    step_w = steps[1] if steps[1] > 0 else 1.0 / w
    boxes = []
    for i in range(h):
        cy = (i + offsets[0]) * step_h
        for j in range(w):
            cx = (j + offsets[1]) * step_w
            for k in range(len(sizes) + len(ratios) - 1):
                if k < len(sizes):
                    bw, bh = sizes[k] * h / w / 2, sizes[k] / 2
                else:
                    r = math.sqrt(ratios[k - len(sizes) + 1])
                    bw, bh = sizes[0] * h / w * r / 2, sizes[0] / r / 2
                boxes.append([cx - bw, cy - bh, cx + bw, cy + bh])
    out = np.array([boxes])
    return np.clip(out, 0, 1) if clip else out


def fixed_point_multiply_ref(x, multiplier, shift):
    """TVM's q_multiply_shift in Python integers: (x << left) * m + 2^(s-1),
    shifted right by s = 31 + right."""
    left, right = max(shift, 0), max(-shift, 0)
    total = 31 + right
    out = [((int(v) << left) * multiplier + (1 << (total - 1))) >> total
           for v in x.ravel()]
    return np.array(out, np.int64).astype(np.int32).reshape(x.shape)


def get_valid_counts_ref(data, threshold, id_index, score_index):
    """TVM's hybrid get_valid_counts, one row at a time."""
    b, n, k = data.shape
    counts = np.zeros(b, np.int32)
    out = np.full_like(data, -1)
    indices = np.full((b, n), -1, np.int32)
    for i in range(b):
        for j in range(n):
            if data[i, j, score_index] > threshold and (
                    id_index < 0 or data[i, j, id_index] >= 0):
                out[i, counts[i]] = data[i, j]
                indices[i, counts[i]] = j
                counts[i] += 1
    return counts, out, indices


def classic_nms_ref(data, valid_count, indices, max_out, iou_threshold,
                    force_suppress=False, top_k=-1, coord_start=2,
                    score_index=1, id_index=0, return_indices=True,
                    invalid_to_bottom=False):
    """TVM's topi vision.non_max_suppression: a stable descending argsort
    of the first valid_count scores, hybrid_nms in the data's precision,
    then hybrid_rearrange_indices_out or hybrid_rearrange_box_out."""
    b, n, k = data.shape
    t = data.dtype.type
    zero, thr = t(0), t(iou_threshold)
    out = np.full_like(data, -1)
    box_indices = np.full((b, n), -1, np.int32)

    def corners(row):
        c = row[coord_start:coord_start + 4]
        return (min(c[0], c[2]), min(c[1], c[3]), max(c[0], c[2]),
                max(c[1], c[3]))

    for i in range(b):
        vc = int(valid_count[i])
        if thr > 0:
            order = np.argsort(-data[i, :vc, score_index], kind="stable")
            nkeep = top_k if 0 < top_k < vc else vc
            for j in range(nkeep):
                out[i, j] = data[i, order[j]]
                box_indices[i, j] = order[j]
            kept = 0
            for j in range(vc):
                if kept == max_out:
                    out[i, j] = -1
                    box_indices[i, j] = -1
                elif out[i, j, score_index] > 0:
                    al, at, ar, ab = corners(out[i, j])
                    valid = True
                    for m in range(j):
                        if not (valid and out[i, m, score_index] > 0 and
                                (id_index < 0 or out[i, m, id_index] >= 0)):
                            continue
                        if not (force_suppress or id_index < 0 or
                                out[i, j, id_index] == out[i, m, id_index]):
                            continue
                        bl, bt, br, bb = corners(out[i, m])
                        w = max(zero, t(min(ar, br) - max(al, bl)))
                        h = max(zero, t(min(ab, bb) - max(at, bt)))
                        area = t(h * w)
                        u = t(t(t((ar - al) * (ab - at)) +
                                t((br - bl) * (bb - bt))) - area)
                        iou = zero if u <= zero else t(area / u)
                        if iou >= thr:
                            valid = False
                    if valid:
                        kept += 1
                    else:
                        out[i, j] = -1
                        box_indices[i, j] = -1
        else:
            out[i, :vc] = data[i, :vc]
            box_indices[i, :vc] = np.arange(vc)
        if return_indices:
            for j in range(vc):
                if box_indices[i, j] >= 0:
                    box_indices[i, j] = indices[i, box_indices[i, j]]
    if return_indices:
        result = np.full((b, n), -1, np.int32)
        count = np.zeros((b, 1), np.int32)
        for i in range(b):
            v = 0
            for j in range(n):
                if box_indices[i, j] >= 0:
                    result[i, v] = box_indices[i, j]
                    v += 1
                if j >= v:
                    result[i, j] = -1
            count[i, 0] = v
        return result, count
    if not invalid_to_bottom:
        return out
    moved = np.full_like(out, -1)
    for i in range(b):
        v = 0
        for j in range(n):
            if out[i, j, 0] >= 0:
                moved[i, v] = out[i, j]
                v += 1
    return moved


def detection_rows(batch, n, seed, classes=3, width=6):
    """[batch, n, width] rows (class, score, x1, y1, x2, y2[, extra]) of
    overlapping boxes: classes 0..classes-1 (every ninth -1), scores in
    [-0.1, 1), corners clustered so that many pairs overlap, every fifth
    given by its other diagonal."""
    r = np.random.default_rng(seed)
    rows = np.zeros((batch, n, width), np.float32)
    rows[..., 0] = r.integers(0, classes, (batch, n))
    rows[:, ::9, 0] = -1
    rows[..., 1] = r.uniform(-0.1, 1, (batch, n))
    x, y = r.uniform(0, 8, (batch, n)), r.uniform(0, 8, (batch, n))
    w, h = r.uniform(4, 10, (batch, n)), r.uniform(4, 10, (batch, n))
    rows[..., 2:6] = np.stack([x, y, x + w, y + h], -1)
    rows[:, ::5, 2:6] = rows[:, ::5][..., [4, 5, 2, 3]]
    if width > 6:
        rows[..., 6:] = r.uniform(-1, 1, (batch, n, width - 6))
    return rows


def multibox_transform_loc_ref(prob, loc, anchor, clip, threshold, variances,
                               keep_background):
    """TVM's hybrid multibox_transform_loc, one anchor at a time (the rows
    after the valid ones -1)."""
    b, c, n = prob.shape
    out = np.full((b, n, 6), -1.0)
    counts = np.zeros(b, np.int32)
    f = np.float32
    vx, vy, vw, vh = variances
    for i in range(b):
        for j in range(n):
            score, cls = -1.0, 0
            for k in range(0 if keep_background else 1, c):
                if prob[i, k, j] > score:
                    cls = k
                score = max(prob[i, k, j], score)
            if cls > 0 and score < f(threshold):
                cls = 0
            if not (keep_background or cls > 0):
                continue
            al, at, ar, ab = anchor[0, j].astype(np.float64)
            px, py, pw, ph = loc[i, j * 4:j * 4 + 4].astype(np.float64)
            aw, ah = ar - al, ab - at
            ax, ay = (al + ar) / 2, (at + ab) / 2
            ox, oy = px * vx * aw + ax, py * vy * ah + ay
            ow, oh = math.exp(pw * vw) * aw / 2, math.exp(ph * vh) * ah / 2
            box = [ox - ow, oy - oh, ox + ow, oy + oh]
            if clip:
                box = [min(max(v, 0.0), 1.0) for v in box]
            out[i, counts[i]] = [cls if keep_background else cls - 1, score] + box
            counts[i] += 1
    return out, counts


def roi_pool_ref(data, rois, ph, pw, scale):
    """TVM's topi roi_pool_nchw, one bin at a time (float32 arithmetic,
    round half away from zero)."""
    f = np.float32
    n, c, h, w = data.shape
    out = np.zeros((len(rois), c, ph, pw), data.dtype)

    def rnd(v):
        v = f(v) * f(scale)
        return int(math.copysign(math.floor(abs(v) + 0.5), v))
    for i, roi in enumerate(rois):
        b = int(roi[0])
        sw, sh, ew, eh = rnd(roi[1]), rnd(roi[2]), rnd(roi[3]), rnd(roi[4])
        rh, rw = max(eh - sh + 1, 1), max(ew - sw + 1, 1)
        bh, bw = f(rh) / f(ph), f(rw) / f(pw)
        for y in range(ph):
            hs = min(max(int(math.floor(f(y) * bh + f(1e-5))) + sh, 0), h)
            he = min(max(int(math.ceil(f(y + 1) * bh - f(1e-5))) + sh, 0), h)
            for x in range(pw):
                ws = min(max(int(math.floor(f(x) * bw + f(1e-5))) + sw, 0), w)
                we = min(max(int(math.ceil(f(x + 1) * bw - f(1e-5))) + sw, 0), w)
                if hs < he and ws < we:
                    out[i, :, y, x] = data[b, :, hs:he, ws:we].max(axis=(1, 2))
    return out


def unique_ref(a, is_sorted, counts):
    """unique's tuple for vector `a`: distinct values (ascending, or in
    order of first occurrence), where each first occurs, each element's
    position among them, their number [, how often each occurs]; padded
    with zeros to a's length, int32."""
    values, first, inverse, count = np.unique(
        a, return_index=True, return_inverse=True, return_counts=True)
    if not is_sorted:
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        values, first, count, inverse = (values[order], first[order],
                                         count[order], rank[inverse])
    pad = lambda v, dtype: np.concatenate(
        [v, np.zeros(len(a) - len(v))]).astype(dtype)
    out = (pad(values, a.dtype), pad(first, np.int32),
           inverse.astype(np.int32), np.array([len(values)], np.int32))
    return out + ((pad(count, np.int32),) if counts else ())


def nms_ref(boxes, scores, max_out, iou_threshold, score_threshold):
    """ONNX's NonMaxSuppression as vision.all_class_non_max_suppression
    returns it: (batch * classes * boxes, 3) int64 rows, the selected
    (batch, class, box) first, and their count."""
    def iou(a, b):
        a = [min(a[0], a[2]), min(a[1], a[3]), max(a[0], a[2]), max(a[1], a[3])]
        b = [min(b[0], b[2]), min(b[1], b[3]), max(b[0], b[2]), max(b[1], b[3])]
        area_a = (a[2] - a[0]) * (a[3] - a[1])
        area_b = (b[2] - b[0]) * (b[3] - b[1])
        if area_a <= 0 or area_b <= 0:
            return 0.0
        inter = (max(0.0, min(a[2], b[2]) - max(a[0], b[0])) *
                 max(0.0, min(a[3], b[3]) - max(a[1], b[1])))
        return inter / (area_a + area_b - inter)
    batches, classes, count = scores.shape
    rows = []
    for bt in range(batches):
        for c in range(classes):
            s = scores[bt, c]
            kept = []
            for i in np.argsort(-s, kind="stable"):
                if s[i] <= score_threshold or len(kept) >= max_out:
                    continue
                if all(iou(boxes[bt, i], boxes[bt, j]) <= iou_threshold
                       for j in kept):
                    kept.append(i)
            rows += [(bt, c, i) for i in kept]
    out = np.zeros((batches * classes * count, 3), np.int64)
    if rows:
        out[:len(rows)] = rows
    return out, np.array([len(rows)], np.int64)


def far_box(boxes):
    """`boxes` with its 18th box moved to x = 3e38."""
    boxes = boxes.copy()
    boxes[0, 17] = [0, 3e38, 10, 3e38]
    return boxes


def clustered_boxes(n, seed):
    """Boxes as a batched NMS offsets them: three classes' boxes, each class
    in its own band of x (100 apart), 0.5 to 40 wide, every tenth of no
    width, every seventh given by its other diagonal."""
    r = np.random.default_rng(seed)
    x1 = r.uniform(0, 60, n) + 100 * r.integers(0, 3, n)
    y1 = r.uniform(0, 60, n)
    w, h = r.uniform(0.5, 40, n), r.uniform(0.5, 40, n)
    w[::10] = 0
    b = np.stack([y1, x1, y1 + h, x1 + w], 1)
    b[1::7] = b[1::7][:, [2, 3, 0, 1]]
    return b[None].astype(np.float32)


def conv2d_ref(x, w, strides=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1),
               groups=1):
    n, c, h, wd = x.shape
    o, i, kh, kw = w.shape
    x = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (padding[0], padding[2]),
                                      (padding[1], padding[3])))
    oh = (h + padding[0] + padding[2] - (kh - 1) * dilation[0] - 1) // strides[0] + 1
    ow = (wd + padding[1] + padding[3] - (kw - 1) * dilation[1] - 1) // strides[1] + 1
    out = np.zeros((n, o, oh, ow))
    opg = o // groups
    for oc in range(o):
        g = oc // opg
        xs = x[:, g * i:(g + 1) * i]
        for y in range(oh):
            for z in range(ow):
                patch = xs[:, :, y * strides[0]:y * strides[0] + (kh - 1) * dilation[0] + 1:dilation[0],
                           z * strides[1]:z * strides[1] + (kw - 1) * dilation[1] + 1:dilation[1]]
                out[:, oc, y, z] = np.sum(patch * w[oc], axis=(1, 2, 3))
    return out.astype(np.float32)


def conv2d_transpose_ref(x, w, strides, padding, output_padding, dilation=(1, 1)):
    if dilation != (1, 1):
        # The dilated kernel: the taps spread with zeros between them.
        c, o, kh, kw = w.shape
        spread = np.zeros((c, o, (kh - 1) * dilation[0] + 1, (kw - 1) * dilation[1] + 1),
                          w.dtype)
        spread[:, :, ::dilation[0], ::dilation[1]] = w
        w = spread
    n, c, h, wd = x.shape
    _, o, kh, kw = w.shape
    full_h = (h - 1) * strides[0] + kh + output_padding[0]
    full_w = (wd - 1) * strides[1] + kw + output_padding[1]
    full = np.zeros((n, o, full_h, full_w))
    for y in range(h):
        for z in range(wd):
            full[:, :, y * strides[0]:y * strides[0] + kh, z * strides[1]:z * strides[1] + kw] += \
                np.einsum("nc,cokl->nokl", x[:, :, y, z].astype(np.float64), w)
    oh = full_h - padding[0] - padding[2]
    ow = full_w - padding[1] - padding[3]
    return full[:, :, padding[0]:padding[0] + oh, padding[1]:padding[1] + ow].astype(np.float32)


def pool_window(y, z, k, s, p, h, w, count_include_pad=False):
    """The rows and columns of the input that output (y, z) of a 2-d pool
    reads, and the count its average divides by."""
    y0, z0 = y * s[0] - p[0], z * s[1] - p[1]
    ys = [a for a in range(y0, y0 + k[0]) if 0 <= a < h]
    zs = [b for b in range(z0, z0 + k[1]) if 0 <= b < w]
    if count_include_pad:
        cy = len([a for a in range(y0, y0 + k[0]) if a < h + p[2]])
        cz = len([b for b in range(z0, z0 + k[1]) if b < w + p[3]])
        return ys, zs, cy * cz
    return ys, zs, len(ys) * len(zs)


def pool_ref(x, k, s, p, mode, count_include_pad=False, ceil_mode=False):
    n, c, h, w = x.shape
    def size(i, kk, ss, pp):
        span = i + pp - kk
        return ((span + ss - 1) if ceil_mode else span) // ss + 1
    oh, ow = size(h, k[0], s[0], p[0] + p[2]), size(w, k[1], s[1], p[1] + p[3])
    out = np.zeros((n, c, oh, ow))
    for y in range(oh):
        for z in range(ow):
            ys, zs, cnt = pool_window(y, z, k, s, p, h, w, count_include_pad)
            win = x[:, :, ys][:, :, :, zs].astype(np.float64)
            if mode == "max":
                out[:, :, y, z] = win.max(axis=(2, 3))
            else:
                out[:, :, y, z] = win.sum(axis=(2, 3)) / cnt
    return out.astype(np.float32)


def pool_grad_ref(g, x, k, s, p, mode, count_include_pad=False):
    """TVM's pool_grad: each window's gradient goes to the first element
    (row-major) equal to its maximum, or is shared over the elements the
    average counted (the windows as pool_ref makes them)."""
    n, c, h, w = x.shape
    dx = np.zeros(x.shape)
    for y in range(g.shape[2]):
        for z in range(g.shape[3]):
            ys, zs, cnt = pool_window(y, z, k, s, p, h, w, count_include_pad)
            if not ys or not zs:
                continue
            if mode == "max":
                win = x[:, :, ys][:, :, :, zs].reshape(n, c, -1)
                first = win.argmax(axis=2)
                for i in range(n):
                    for j in range(c):
                        a, b = divmod(int(first[i, j]), len(zs))
                        dx[i, j, ys[a], zs[b]] += g[i, j, y, z]
            else:
                dx[:, :, ys[0]:ys[-1] + 1, zs[0]:zs[-1] + 1] += \
                    g[:, :, y, z][:, :, None, None].astype(np.float64) / cnt
    return dx.astype(np.float32)


def conv2d_backward_weight_ref(g, x, k, strides=(1, 1), padding=(0, 0, 0, 0),
                               dilation=(1, 1), groups=1):
    """The gradient of conv2d's OIHW weight given its NCHW data x and the
    gradient g of its result."""
    n, c, h, w = x.shape
    o, oh, ow = g.shape[1], g.shape[2], g.shape[3]
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (padding[0], padding[2]),
                                       (padding[1], padding[3])))
    i, opg = c // groups, o // groups
    dw = np.zeros((o, i, k[0], k[1]))
    for oc in range(o):
        xs = xp[:, (oc // opg) * i:(oc // opg + 1) * i]
        for a in range(k[0]):
            for b in range(k[1]):
                ya, zb = a * dilation[0], b * dilation[1]
                patch = xs[:, :, ya:ya + (oh - 1) * strides[0] + 1:strides[0],
                           zb:zb + (ow - 1) * strides[1] + 1:strides[1]]
                dw[oc, :, a, b] = np.einsum("nihw,nhw->i", patch, g[:, oc])
    return dw.astype(np.float32)


def fixed_point_multiply_per_axis_ref(x, m, ls, rs, lshift, axes):
    """topi's q_multiply_shift_per_axis: in 64 bits, (x << ls when lshift)
    * m + 2^(30 + rs), shifted right by 31 + rs."""
    shape = [1] * x.ndim
    for a in axes:
        shape[a] = x.shape[a]
    m, ls, rs = (v.reshape(shape).astype(np.int64) for v in (m, ls, rs))
    v = x.astype(np.int64)
    if lshift:
        v = v << ls
    v = v * m + (np.int64(1) << (rs + 30))
    return (v >> (rs + 31)).astype(np.int32)


def adaptive_ref(x, out_size, mode):
    n, c, h, w = x.shape
    oh, ow = out_size
    out = np.zeros((n, c, oh, ow))
    for y in range(oh):
        for z in range(ow):
            y0, y1 = (y * h) // oh, -((-(y + 1) * h) // oh)
            z0, z1 = (z * w) // ow, -((-(z + 1) * w) // ow)
            win = x[:, :, y0:y1, z0:z1].astype(np.float64)
            out[:, :, y, z] = win.max(axis=(2, 3)) if mode == "max" else win.mean(axis=(2, 3))
    return out.astype(np.float32)


def conv3d_ref(x, w, strides, pad, dilation, groups):
    """pad: (front, top, left, back, bottom, right)."""
    x = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad[0], pad[3]),
                                      (pad[1], pad[4]), (pad[2], pad[5])))
    n, c = x.shape[:2]
    o, i = w.shape[:2]
    k = w.shape[2:]
    outs = [(x.shape[2 + a] - (k[a] - 1) * dilation[a] - 1) // strides[a] + 1 for a in range(3)]
    out = np.zeros((n, o) + tuple(outs))
    opg = o // groups
    for d in range(outs[0]):
        for y in range(outs[1]):
            for z in range(outs[2]):
                starts = (d * strides[0], y * strides[1], z * strides[2])
                patch = x[:, :, starts[0]:starts[0] + (k[0] - 1) * dilation[0] + 1:dilation[0],
                          starts[1]:starts[1] + (k[1] - 1) * dilation[1] + 1:dilation[1],
                          starts[2]:starts[2] + (k[2] - 1) * dilation[2] + 1:dilation[2]]
                for g in range(groups):
                    out[:, g * opg:(g + 1) * opg, d, y, z] = np.einsum(
                        "nidhw,oidhw->no", patch[:, g * i:(g + 1) * i], w[g * opg:(g + 1) * opg])
    return out.astype(np.float32)


def conv3d_transpose_ref(x, w, strides, pad, output_padding, dilation, groups):
    """Each input element scatters its kernel (IODHW weights) into the
    output; pad: (front, top, left, back, bottom, right)."""
    n, c = x.shape[:2]
    og, k = w.shape[1], w.shape[2:]
    cg = c // groups
    full = [(x.shape[2 + a] - 1) * strides[a] + dilation[a] * (k[a] - 1) + 1 +
            output_padding[a] for a in range(3)]
    out = np.zeros((n, og * groups) + tuple(full))
    for idx in np.ndindex(*x.shape[2:]):
        for t in np.ndindex(*k):
            at = tuple(idx[a] * strides[a] + t[a] * dilation[a] for a in range(3))
            for g in range(groups):
                out[(slice(None), slice(g * og, (g + 1) * og)) + at] += np.einsum(
                    "nc,co->no", x[(slice(None), slice(g * cg, (g + 1) * cg)) + idx].astype(np.float64),
                    w[(slice(g * cg, (g + 1) * cg), slice(None)) + t])
    return out[:, :, pad[0]:full[0] - pad[3], pad[1]:full[1] - pad[4],
               pad[2]:full[2] - pad[5]].astype(np.float32)


def pool3d_ref(x, k, s, p, mode, count_include_pad=False, ceil_mode=False):
    """p: (front, top, left, back, bottom, right)."""
    sizes = x.shape[2:]
    def size(a):
        span = sizes[a] + p[a] + p[a + 3] - k[a]
        return ((span + s[a] - 1) if ceil_mode else span) // s[a] + 1
    outs = [size(a) for a in range(3)]
    out = np.zeros(x.shape[:2] + tuple(outs))
    for idx in np.ndindex(*outs):
        starts = [idx[a] * s[a] - p[a] for a in range(3)]
        valid = [[j for j in range(starts[a], starts[a] + k[a]) if 0 <= j < sizes[a]] for a in range(3)]
        win = x[:, :, valid[0]][:, :, :, valid[1]][:, :, :, :, valid[2]].astype(np.float64)
        if mode == "max":
            out[(slice(None), slice(None)) + idx] = win.max(axis=(2, 3, 4))
        else:
            if count_include_pad:
                cnt = np.prod([len([j for j in range(starts[a], starts[a] + k[a])
                                    if j < sizes[a] + p[a + 3]]) for a in range(3)])
            else:
                cnt = win.shape[2] * win.shape[3] * win.shape[4]
            out[(slice(None), slice(None)) + idx] = win.sum(axis=(2, 3, 4)) / cnt
    return out.astype(np.float32)


def adaptive3d_ref(x, out_size, mode):
    sizes = x.shape[2:]
    out = np.zeros(x.shape[:2] + tuple(out_size))
    for idx in np.ndindex(*out_size):
        bounds = [((idx[a] * sizes[a]) // out_size[a], -((-(idx[a] + 1) * sizes[a]) // out_size[a]))
                  for a in range(3)]
        win = x[:, :, bounds[0][0]:bounds[0][1], bounds[1][0]:bounds[1][1],
                bounds[2][0]:bounds[2][1]].astype(np.float64)
        out[(slice(None), slice(None)) + idx] = (win.max(axis=(2, 3, 4)) if mode == "max"
                                                 else win.mean(axis=(2, 3, 4)))
    return out.astype(np.float32)


def upsample_positions(size, out, nearest, align_corners):
    """topi's resize coordinates of nn.upsampling in float32: the rows each
    output row samples (clamped) and bilinear's fraction."""
    f32 = np.float32
    if align_corners:
        step = f32(size - 1) / f32(out - 1) if out > 1 else f32(0)
    else:
        step = f32(size) / f32(out)
    pos = step * np.arange(out, dtype=np.float32)
    if nearest:
        rows = np.rint(pos) if align_corners else np.floor(pos + f32(1e-5))
        low = np.clip(rows.astype(np.int64), 0, size - 1)
        return low, low, np.zeros(out)
    base = np.floor(pos)
    low = np.clip(base.astype(np.int64), 0, size - 1)
    high = np.clip(base.astype(np.int64) + 1, 0, size - 1)
    return low, high, (pos - base).astype(np.float64)


def upsample_ref(x, sh, sw, method, align_corners=False):
    """TVM's nn.upsampling (NCHW): topi's image resize to round(size *
    scale) (float32, half to even) with asymmetric or aligned coordinates."""
    n, c, h, w = x.shape
    oh, ow = (int(np.rint(np.float32(h) * np.float32(sh))),
              int(np.rint(np.float32(w) * np.float32(sw))))
    nearest = method == "nearest_neighbor"
    y0, y1, fy = upsample_positions(h, oh, nearest, align_corners)
    z0, z1, fz = upsample_positions(w, ow, nearest, align_corners)
    x = x.astype(np.float64)
    fy, fz = fy[:, None], fz[None, :]
    top = (1 - fz) * x[:, :, y0][:, :, :, z0] + fz * x[:, :, y0][:, :, :, z1]
    bottom = (1 - fz) * x[:, :, y1][:, :, :, z0] + fz * x[:, :, y1][:, :, :, z1]
    return ((1 - fy) * top + fy * bottom).astype(np.float32)


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


ERF = np.vectorize(math.erf)


def nll_ref(p, t, w, reduction, ignore_index):
    """PyTorch's nll_loss: -w[t] * p[n, t, ...], 0 where t is ignored."""
    p = p.astype(np.float64)
    picked = np.take_along_axis(p, np.expand_dims(np.clip(t, 0, None), 1), 1)[:, 0]
    weight = np.where(t == ignore_index, 0.0, w[np.clip(t, 0, None)])
    loss = -picked * weight
    if reduction == "none":
        return loss.astype(np.float32)
    if reduction == "sum":
        return np.float32(loss.sum())
    return np.float32(loss.sum() / weight.sum())


def lrn_ref(x, size, bias, alpha, beta):
    sq = np.pad(x.astype(np.float64) ** 2,
                ((0, 0), ((size - 1) // 2, size // 2), (0, 0), (0, 0)))
    window = sum(sq[:, i:i + x.shape[1]] for i in range(size))
    return x / (bias + alpha / size * window) ** beta


def sort_order(x, axis, ascend):
    """Positions in sorted order along axis, equal elements in order: NaN
    (of either sign) above every number and -0 equal to 0, as PyTorch."""
    nan = np.isnan(x) if x.dtype.kind == "f" else np.zeros(x.shape, bool)
    v = np.where(nan, 0, x).astype(np.float64) + 0.0  # -0 + 0 is 0
    # lexsort is stable and sorts by its last key first.
    return (np.lexsort((v, nan), axis=axis) if ascend
            else np.lexsort((-v, ~nan), axis=axis))


def arg_ref(x, axis, largest, last):
    """argmax/argmin along axis with NaN the extreme, as numpy's, and with
    `last` the last of equal extremes."""
    rows = np.moveaxis(x, axis, -1).reshape(-1, x.shape[axis])
    out = []
    for row in rows:
        nan = np.flatnonzero(np.isnan(row))
        if len(nan):
            out.append(nan[-1] if last else nan[0])
            continue
        at = np.flatnonzero(row == (row.max() if largest else row.min()))
        out.append(at[-1] if last else at[0])
    shape = list(x.shape)
    del shape[axis]
    return np.array(out, np.int32).reshape(shape)


def topk_ref(x, k, axis, ascend):
    """The k largest (smallest) along axis; equal elements in order."""
    order = sort_order(x, axis, ascend)
    index = np.take(order, np.arange(k), axis=axis)
    return np.take_along_axis(x, index, axis=axis), index.astype(np.int32)


def group_norm_ref(x, groups, eps):
    n, c = x.shape[:2]
    g = x.astype(np.float64).reshape(n, groups, -1)
    g = (g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) + eps)
    return g.reshape(x.shape)


SCATTER_COMBINE = {"update": lambda a, u: u, "add": lambda a, u: a + u,
                   "mul": lambda a, u: a * u, "min": np.minimum,
                   "max": np.maximum}


def scatter_elements_ref(data, indices, updates, axis, reduction="update"):
    """Each update in row-major order into its position with the axis
    coordinate replaced by its index (negative from the end)."""
    out = data.copy()
    for pos in np.ndindex(*indices.shape):
        at = list(pos)
        at[axis] = int(indices[pos]) % data.shape[axis]
        out[tuple(at)] = SCATTER_COMBINE[reduction](out[tuple(at)], updates[pos])
    return out


def scatter_nd_ref(data, indices, updates, mode="update"):
    """TVM's scatter_nd: indices (M, Y...), updates (Y..., X_M...)."""
    out = data.copy()
    for y in np.ndindex(*indices.shape[1:]):
        at = tuple(int(indices[(j,) + y]) % data.shape[j]
                   for j in range(indices.shape[0]))
        out[at] = SCATTER_COMBINE[mode](out[at], updates[y])
    return out


def deformable_conv2d_ref(x, off, wt, strides=(1, 1), pad=(0, 0),
                          dilation=(1, 1), dg=1, groups=1):
    """TVM's nn.deformable_conv2d (topi's deformable_conv2d_nchw), in
    float64: tap (i, j) of output (y, x) reads the data at (y * stride -
    pad + i * dilation + dy, likewise x); 0 outside [0, H) x [0, W), else
    bilinear with the row and column after the last clamped to the last
    (topi's bilinear_sample_nchw: high corner min(ceil(p), size - 1))."""
    x, off, wt = (a.astype(np.float64) for a in (x, off, wt))
    n, c, h, w = x.shape
    o, _, kh, kw = wt.shape
    oh, ow = off.shape[2:]
    offs = off.reshape(n, dg, kh, kw, 2, oh, ow)
    cols = np.zeros((n, c, kh, kw, oh, ow))
    batch = np.arange(n)[:, None, None]
    for i in range(kh):
        for j in range(kw):
            base_y = (np.arange(oh) * strides[0] - pad[0] + i * dilation[0])[:, None]
            base_x = (np.arange(ow) * strides[1] - pad[1] + j * dilation[1])[None, :]
            for g in range(dg):
                py = base_y + offs[:, g, i, j, 0]
                px = base_x + offs[:, g, i, j, 1]
                inside = (py >= 0) & (px >= 0) & (py < h) & (px < w)
                ly, lx = py - np.floor(py), px - np.floor(px)
                y0 = np.clip(np.floor(py), 0, h - 1).astype(int)
                x0 = np.clip(np.floor(px), 0, w - 1).astype(int)
                y1 = np.clip(np.ceil(py), 0, h - 1).astype(int)
                x1 = np.clip(np.ceil(px), 0, w - 1).astype(int)
                chans = slice(g * c // dg, (g + 1) * c // dg)
                img = x[:, chans]

                def at(yy, xx):  # (n, cg, oh, ow)
                    return np.moveaxis(img[batch, :, yy, xx], -1, 1)
                ly, lx = ly[:, None], lx[:, None]
                v = ((1 - ly) * ((1 - lx) * at(y0, x0) + lx * at(y0, x1)) +
                     ly * ((1 - lx) * at(y1, x0) + lx * at(y1, x1)))
                cols[:, chans, i, j] = np.where(inside[:, None], v, 0)
    out = np.zeros((n, o, oh, ow))
    cin, cout = c // groups, o // groups
    for g in range(groups):
        out[:, g * cout:(g + 1) * cout] = np.einsum(
            "ncijyx,ocij->noyx", cols[:, g * cin:(g + 1) * cin],
            wt[g * cout:(g + 1) * cout])
    return out


def sliding_window_ref(x, axis, window, strides):
    """TVM's sliding_window: out[p..., w..., k...] = x[p..., w * stride +
    k...] over the axes from `axis` on."""
    counts = [-(-(n - k + 1) // s) for n, k, s in
              zip(x.shape[axis:], window, strides)]
    out = np.zeros(x.shape[:axis] + tuple(counts) + tuple(window), x.dtype)
    for w in np.ndindex(*counts):
        starts = [p * s for p, s in zip(w, strides)]
        region = tuple(slice(b, b + k) for b, k in zip(starts, window))
        out[(slice(None),) * axis + w] = \
            x[(slice(None),) * axis + region]
    return out


def yolo_reorg_ref(a_np, stride):
    """TVM's reorg_python (darknet's reorg), transcribed."""
    batch, in_channel, in_height, in_width = a_np.shape
    a_np = np.reshape(a_np, batch * in_channel * in_height * in_width)
    out_c = int(in_channel / (stride * stride))
    out_channel = in_channel * stride * stride
    out_height = int(in_height / stride)
    out_width = int(in_width / stride)
    b_np = np.zeros(batch * out_channel * out_height * out_width, a_np.dtype)
    cnt = 0
    for b in range(batch):
        for k in range(in_channel):
            for j in range(in_height):
                for i in range(in_width):
                    c2 = k % out_c
                    offset = int(k / out_c)
                    w2 = int(i * stride + offset % stride)
                    h2 = int(j * stride + offset / stride)
                    out_index = int(w2 + in_width * stride *
                                    (h2 + in_height * stride * (c2 + out_c * b)))
                    b_np[cnt] = a_np[int(out_index)]
                    cnt = cnt + 1
    return np.reshape(b_np, (batch, out_channel, out_height, out_width))


def strided_set_ref(data, v, begin, end, strides):
    """numpy's slice assignment data[b:e:s] = v, with the axes past the
    bounds' length sliced whole."""
    out = data.copy()
    index = []
    for d in range(data.ndim):
        b = int(begin[d]) if d < len(begin) else None
        e = int(end[d]) if d < len(end) else None
        s = int(strides[d]) if d < len(strides) else None
        index.append(slice(b, e, s))
    out[tuple(index)] = v
    return out


def sparse_matrix(data, indices, indptr, shape):
    """The dense form of a CSR (1-d data) or BSR (3-d blocks) matrix, by
    scipy."""
    import scipy.sparse
    kind = scipy.sparse.bsr_matrix if data.ndim == 3 else scipy.sparse.csr_matrix
    return kind((data, indices, indptr), shape=shape).toarray()


def sparse_dense_ref(dense, data, indices, indptr, sparse_lhs=False):
    """TVM's nn.sparse_dense: dense times the sparse matrix's transpose, or
    with sparse_lhs the sparse matrix times the dense one's transpose."""
    rows = (len(indptr) - 1) * (data.shape[1] if data.ndim == 3 else 1)
    sparse = sparse_matrix(data, indices, indptr, (rows, dense.shape[1]))
    return sparse @ dense.T if sparse_lhs else dense @ sparse.T


def sparse_transpose_ref(data, indices, indptr):
    """The CSR arrays of a square CSR matrix's transpose, by scipy."""
    import scipy.sparse
    n = len(indptr) - 1
    t = scipy.sparse.csr_matrix((data, indices, indptr), shape=(n, n)).T.tocsr()
    return (t.data.astype(data.dtype), t.indices.astype(indices.dtype),
            t.indptr.astype(indptr.dtype))


def dft_ref(re, im, inverse=False):
    """The DFT along the last axis (numpy's fft, ifft when inverse) as its
    real and imaginary parts."""
    x = re.astype(np.float64) + 1j * im.astype(np.float64)
    y = np.fft.ifft(x, axis=-1) if inverse else np.fft.fft(x, axis=-1)
    return (y.real.astype(re.dtype), y.imag.astype(re.dtype))


def stft_ref(data, window, n_fft, hop_length, win_length, normalized=False,
             onesided=True):
    """TVM's stft as topi's kernel sums it: frame t from t * hop_length,
    sum over w < win_length of window[w] * data[t * hop + w] *
    e^(-2 pi i r w / win_length); [batch,] frequencies, frames, 2."""
    x = data.astype(np.float64).reshape(-1, data.shape[-1])
    frames = (x.shape[1] - n_fft) // hop_length + 1
    rows = n_fft // 2 + 1 if onesided else n_fft
    w = np.arange(win_length)
    r = np.arange(rows)
    basis = np.exp(-2j * np.pi * np.outer(r, w) / win_length)   # [rows, W]
    out = np.zeros((x.shape[0], rows, frames, 2))
    for t in range(frames):
        seg = x[:, t * hop_length:t * hop_length + win_length] * window[:win_length]
        spec = seg @ basis.T                                       # [B, rows]
        out[:, :, t, 0] = spec.real
        out[:, :, t, 1] = spec.imag
    if normalized:
        out /= np.sqrt(n_fft)
    if data.ndim == 1:
        out = out[0]
    return out.astype(data.dtype)


def pack_nchwc(x, c):
    """NCHW to NCHW{c}c: [N, C/c, H, W, c]."""
    n, ch, h, w = x.shape
    return x.reshape(n, ch // c, c, h, w).transpose(0, 1, 3, 4, 2).copy()


def unpack_nchwc(x):
    """NCHW{c}c to NCHW."""
    n, cb, h, w, c = x.shape
    return x.transpose(0, 1, 4, 2, 3).reshape(n, cb * c, h, w)


def pack_oihwio(w, i, o):
    """OIHW to OIHW{i}i{o}o: [O/o, I/i, KH, KW, i, o]."""
    oc, ic, kh, kw = w.shape
    return w.reshape(oc // o, o, ic // i, i, kh, kw).transpose(0, 2, 4, 5, 3, 1).copy()


def unpack_oihwio(w):
    """OIHW{i}i{o}o to OIHW."""
    ob, ib, kh, kw, i, o = w.shape
    return w.transpose(0, 5, 1, 4, 2, 3).reshape(ob * o, ib * i, kh, kw)


def pack_oihw_ioi(w, i1, o, i2):
    """OIHW to OIHW{i1}i{o}o{i2}i (TVM's x86 int8 kernels): [O/o,
    I/(i1*i2), KH, KW, i1, o, i2], the input channel split twice."""
    oc, ic, kh, kw = w.shape
    return w.reshape(oc // o, o, ic // (i1 * i2), i1, i2, kh, kw).transpose(
        0, 2, 5, 6, 3, 1, 4).copy()


def unpack_oihw_ioi(w):
    """OIHW{i1}i{o}o{i2}i to OIHW."""
    ob, ib, kh, kw, i1, o, i2 = w.shape
    return w.transpose(0, 5, 1, 4, 6, 2, 3).reshape(ob * o, ib * i1 * i2, kh, kw)


def sparse_reshape_ref(indices, prev, new):
    """TensorFlow's SparseReshape by numpy: the -1 of the new shape
    inferred, each coordinate row through its flat index."""
    shape = new.astype(np.int64).copy()
    if (shape == -1).any():
        shape[shape == -1] = int(np.prod(prev)) // int(np.prod(shape[shape != -1]))
    flat = np.ravel_multi_index(tuple(indices.T.astype(np.int64)), tuple(prev))
    coords = np.stack(np.unravel_index(flat, tuple(shape)), axis=1)
    return (coords.astype(indices.dtype), shape.astype(new.dtype))


# Interpolation points of topi's winograd_util by degree tile + kernel - 2
# (Barabasz et al., "Error analysis and improving the accuracy of Winograd
# convolution"); the last point is infinity.
WINOGRAD_POINTS = {
    3: [0, -1, 1],
    4: [0, -1, 1, 1 / 2],
    5: [0, -1, 1, 1 / 2, -2],
    6: [0, -1, 1, 1 / 2, -2, -1 / 2],
    7: [0, -1, 1, 1 / 2, -1 / 2, 2, -2],
    8: [0, -1, 1, 1 / 2, -1 / 2, 2, -2, -1 / 4],
    9: [0, -1, 1, 1 / 2, -1 / 2, 2, -2, -1 / 4, 4],
    10: [0, -1, 1, 1 / 2, -1 / 2, 2, -2, -1 / 4, 3 / 4, -4 / 3],
    11: [0, -1, 1, 1 / 2, -1 / 2, 2, -2, -1 / 4, 4, 3 / 4, -4 / 3],
    12: [0, -1, 1, 1 / 2, -1 / 2, 2, -2, -1 / 4, 4, 3 / 4, -4 / 3, 1 / 4],
    13: [0, -1, 1, 1 / 2, -1 / 2, 2, -2, -1 / 4, 4, 1 / 4, -3 / 4, 4 / 3, -4],
}


def winograd_matrices(m, r):
    """Cook-Toom A [a, m], B [a, a] and G [a, r] of F(m, r), a = m + r - 1,
    normalised as topi's winograd_util normalises them."""
    a = np.array(WINOGRAD_POINTS[m + r - 2], np.float64)
    n = m + r - 1
    # Lagrange denominators; the first is made positive in f (not in B's).
    denom = np.array([np.prod([a[i] - a[k] for k in range(n - 1) if k != i]) for i in range(n - 1)])
    f = np.append(denom, 1.0)
    f[0] = abs(f[0])

    def vandermonde(cols):
        v = np.zeros((n, cols))
        for i in range(n - 1):
            v[i] = a[i] ** np.arange(cols)
        v[n - 1, cols - 1] = 1
        return v

    A = vandermonde(m)
    G = vandermonde(r) / f[:, None]
    # Row d of the Lagrange part: the x^d coefficients of prod_{k != i}
    # (x - a_k) / denom_i; the point at infinity adds -a_i^(n-1).
    lagrange = np.zeros((n - 1, n - 1))
    for i in range(n - 1):
        poly = np.poly1d([1.0])
        for k in range(n - 1):
            if k != i:
                poly = poly * np.poly1d([1.0, -a[k]])
        lagrange[i] = poly.coeffs[::-1] / denom[i]
    t = np.concatenate([np.eye(n - 1), -(a[:, None] ** (n - 1))], axis=1)
    B = np.concatenate([lagrange.T @ t, np.eye(n)[n - 1:]], axis=0) * f[None, :]
    return A, B, G


def winograd_weight_transform_ref(w, tile):
    """[O, I, K, K] to G w G^T as [a, a, O, I]."""
    _, _, G = winograd_matrices(tile, w.shape[2])
    return np.einsum("ek,oikl,nl->enoi", G, w.astype(np.float64), G).astype(w.dtype)


def winograd3d_weight_transform_ref(w, tile):
    """[O, I, KD, K, K] to [a, a, a, O, I] when topi transforms the depth
    (3 <= KD <= 7 and KD = K), else [a, a, KD, O, I]."""
    kd, k = w.shape[2], w.shape[3]
    _, _, G = winograd_matrices(tile, k)
    w = w.astype(np.float64)
    if 3 <= kd <= 7 and kd == k:
        return np.einsum("ad,oidhw,eh,nw->aenoi", G, w, G, G).astype(np.float32)
    return np.einsum("oidhw,eh,nw->endoi", w, G, G).astype(np.float32)


def sparse_fill_empty_rows_ref(indices, values, shape, default):
    """TensorFlow's SparseFillEmptyRows by numpy: the entries by row (stable),
    a default entry at column 0 of each empty row, and which rows were empty
    (int64, as TVM types it)."""
    rows = int(shape[0])
    order = np.argsort(indices[:, 0], kind="stable") if len(indices) else np.zeros(0, np.int64)
    out_i, out_v = [], []
    empty = np.ones(rows, np.int64)
    empty[indices[:, 0].astype(np.int64)] = 0
    for row in range(rows):
        if empty[row]:
            out_i.append([row] + [0] * (indices.shape[1] - 1))
            out_v.append(default.reshape(-1)[0])
        for i in order[indices[order, 0] == row]:
            out_i.append(list(indices[i]))
            out_v.append(values[i])
    return (np.array(out_i, np.int64).reshape(-1, indices.shape[1]),
            np.array(out_v, values.dtype), empty)


def gemm_weight_transform_ref(w, rows, cols):
    """topi's conv2d_gemm_weight_transform: HWIO as the [K, N] matrix W,
    zero-padded to whole tiles, out[x, y, z, v] = W[y * cols + v, x * rows + z]."""
    k = w.shape[0] * w.shape[1] * w.shape[2]
    n = w.shape[3]
    mat = w.reshape(k, n)
    kt, nt = -(-k // cols), -(-n // rows)
    out = np.zeros((nt, kt, rows, cols), w.dtype)
    for x in range(nt):
        for y in range(kt):
            for z in range(rows):
                for v in range(cols):
                    if y * cols + v < k and x * rows + z < n:
                        out[x, y, z, v] = mat[y * cols + v, x * rows + z]
    return out


def conv2d_nhwc_hwio_ref(x, w, **kw):
    """conv2d_ref on NHWC data and an HWIO weight."""
    return conv2d_ref(x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1), **kw).transpose(0, 2, 3, 1)


def proposal_ref(cls_prob, bbox_pred, im_info, scales=(4.0, 8.0, 16.0, 32.0),
                 ratios=(0.5, 1.0, 2.0), feature_stride=16, threshold=0.7,
                 rpn_pre_nms_top_n=6000, rpn_post_nms_top_n=300,
                 rpn_min_size=16, iou_loss=False):
    """vision.proposal as topi's rcnn/proposal.py computes it, in the
    inputs' float type."""
    t = cls_prob.dtype.type if cls_prob.dtype != np.float16 else np.float32
    batch, _, height, width = cls_prob.shape
    anchors = len(scales) * len(ratios)
    num = height * width * anchors
    pre = min(rpn_pre_nms_top_n, num) if rpn_pre_nms_top_n > 0 else num
    out = np.full((batch * rpn_post_nms_top_n, 5), -1, dtype=cls_prob.dtype)
    base = float(feature_stride)
    anchor_boxes = []
    for k in range(anchors):
        ratio, scale = ratios[k // len(scales)], scales[k % len(scales)]
        ctr = 0.5 * (base - 1.0)
        w = math.floor(math.sqrt(math.floor(base * base / ratio)) + 0.5) * scale
        h = math.floor(w / scale * ratio + 0.5) * scale
        anchor_boxes.append([ctr - 0.5 * (w - 1.0), ctr - 0.5 * (h - 1.0),
                             ctr + 0.5 * (w - 1.0), ctr + 0.5 * (h - 1.0)])
    one, half = t(1), t(0.5)
    for b in range(batch):
        im_h, im_w, im_scale = (t(v) for v in im_info[b])
        min_size = im_scale * t(rpn_min_size)
        real_h = np.trunc(im_h / t(feature_stride))
        real_w = np.trunc(im_w / t(feature_stride))
        rows = np.zeros((num, 5), dtype=t)
        for h in range(height):
            for w in range(width):
                for k in range(anchors):
                    a = [t(v) for v in anchor_boxes[k]]
                    x1, y1 = a[0] + t(w * feature_stride), a[1] + t(h * feature_stride)
                    x2, y2 = a[2] + t(w * feature_stride), a[3] + t(h * feature_stride)
                    d = [t(bbox_pred[b, k * 4 + i, h, w]) for i in range(4)]
                    if iou_loss:
                        p = [x1 + d[0], y1 + d[1], x2 + d[2], y2 + d[3]]
                    else:
                        bw, bh = x2 - x1 + one, y2 - y1 + one
                        cx, cy = x1 + half * (bw - one), y1 + half * (bh - one)
                        pcx, pcy = d[0] * bw + cx, d[1] * bh + cy
                        pw, ph = np.exp(d[2]) * bw, np.exp(d[3]) * bh
                        p = [pcx - half * (pw - one), pcy - half * (ph - one),
                             pcx + half * (pw - one), pcy + half * (ph - one)]
                    lim = [im_w - one, im_h - one, im_w - one, im_h - one]
                    p = [max(min(v, hi), t(0)) for v, hi in zip(p, lim)]
                    score = t(cls_prob[b, anchors + k, h, w])
                    if h >= real_h or w >= real_w:
                        score = t(-1)
                    row = p + [score]
                    if p[2] - p[0] + one < min_size or p[3] - p[1] + one < min_size:
                        m = min_size / t(2)
                        row = [p[0] - m, p[1] - m, p[2] + m, p[3] + m, t(-1)]
                    rows[(h * width + w) * anchors + k] = row
        keys = np.where(np.isnan(rows[:, 4]), -np.inf, rows[:, 4])
        order = sorted(range(num), key=lambda i: -keys[i])  # stable
        srt = rows[order[:pre]]
        area = (srt[:, 2] - srt[:, 0] + one) * (srt[:, 3] - srt[:, 1] + one)
        removed = [False] * pre
        for l in range(pre - 1):
            if removed[l]:
                continue
            for i in range(l + 1, pre):
                iw = max(t(0), min(srt[l, 2], srt[i, 2]) - max(srt[l, 0], srt[i, 0]) + one)
                ih = max(t(0), min(srt[l, 3], srt[i, 3]) - max(srt[l, 1], srt[i, 1]) + one)
                inter = iw * ih
                with np.errstate(divide="ignore", invalid="ignore"):
                    iou = inter / (area[l] + area[i] - inter)
                if iou > t(threshold):
                    removed[i] = True
        kept = [j for j in range(pre) if not removed[j]]
        if kept:
            for i in range(rpn_post_nms_top_n):
                j = kept[i % len(kept)]
                out[b * rpn_post_nms_top_n + i] = [b] + list(srt[j, :4])
    return out


# TVM's test of vision.proposal (tests/python/relay/test_op_level5.py,
# v0.13): its inputs and the outputs TVM's kernel gave, with and without
# iou_loss.
TVM_PROPOSAL_INPUTS = [
    np.array([[[[0.3, 0.6, 0.2], [0.4, 0.7, 0.5], [0.1, 0.4, 0.3]],
               [[0.7, 0.5, 0.3], [0.6, 0.4, 0.8], [0.9, 0.2, 0.5]]]], np.float32),
    np.array([[[[0.5, 1.0, 0.6], [0.8, 1.2, 2.0], [0.9, 1.0, 0.8]],
               [[0.5, 1.0, 0.7], [0.8, 1.2, 1.6], [2.1, 1.5, 0.7]],
               [[1.0, 0.5, 0.7], [1.5, 0.9, 1.6], [1.4, 1.5, 0.8]],
               [[1.0, 0.5, 0.6], [1.5, 0.9, 2.0], [1.8, 1.0, 0.9]]]], np.float32),
    np.array([[48.0, 48.0, 1.0]], np.float32)]
TVM_PROPOSAL_OUTPUT = np.array(
    [[0.0, 0.0, 2.8451548, 28.38012, 18.154846],
     [0.0, 0.0, 15.354933, 41.96971, 41.245064],
     [0.0, 18.019852, 1.0538368, 51.98015, 25.946163],
     [0.0, 27.320923, -1.266357, 55.0, 24.666357]], np.float32)
TVM_PROPOSAL_IOU_LOSS_OUTPUT = np.array(
    [[0.0, -5.25, -2.5, 21.75, 19.0],
     [0.0, 11.25, -2.0, 37.25, 18.5],
     [0.0, 26.849998, -2.3000002, 53.45, 18.6],
     [0.0, -4.95, 13.799999, 22.25, 35.5]], np.float32)


# TVM's bit-serial operators, written from topi's kernels
# (python/tvm/topi/nn/bitserial_util.py, bitserial_dense.py,
# bitserial_conv2d.py, v0.13): popcounts of packed words.
def bitpack_ref(data, bits, pack_axis, bit_axis, pack_type):
    """topi's bitpack: word j of plane b holds bit b of elements j * W ..
    j * W + W - 1 along pack_axis, the first in the top bit; the planes
    along bit_axis of the result (-1: last)."""
    width = np.dtype(pack_type).itemsize * 8
    moved = np.moveaxis(data.astype(np.int64), pack_axis, -1)
    words = moved.shape[-1] // width
    planes = []
    for b in range(bits):
        out = np.zeros(moved.shape[:-1] + (words,), np.uint64)
        for j in range(words):
            word = np.zeros(moved.shape[:-1], np.uint64)
            for k in range(width):
                bit = ((moved[..., j * width + k] & (1 << b)) >> b).astype(np.uint64)
                word = word | bit
                if k < width - 1:
                    word = word << np.uint64(1)
            out[..., j] = word
        planes.append(np.moveaxis(out, -1, pack_axis).astype(pack_type))
    axis = bit_axis if bit_axis >= 0 else data.ndim + 1 + bit_axis
    return np.stack(planes, axis=axis)


def _popcount(x):
    x = x.astype(np.uint64)
    count = np.zeros(x.shape, np.int64)
    for b in range(64):
        count += ((x >> np.uint64(b)) & np.uint64(1)).astype(np.int64)
    return count


def _wrap(values, out_dtype):
    """Python integers wrapped to `out_dtype` (two's complement)."""
    bits = np.dtype(out_dtype).itemsize * 8
    values = np.asarray(values, dtype=object) % (1 << bits)
    if np.dtype(out_dtype).kind == "i":
        values = np.where(values >= 1 << (bits - 1), values - (1 << bits), values)
    return values.astype(np.int64).astype(out_dtype)


def bitserial_dense_ref(data, weight, data_bits, weight_bits, pack_dtype,
                        out_dtype, unipolar):
    """topi's bitserial_dense: sum over weight plane j, data plane i and
    word k of popcount(w & d) (minus popcount(~w & d) when unipolar) <<
    (i + j), in Python integers, wrapped to out_dtype."""
    width = np.dtype(pack_dtype).itemsize * 8
    mask = (1 << width) - 1
    dq = bitpack_ref(data, data_bits, 1, 1, pack_dtype)       # [Y, DB, K]
    wq = (bitpack_ref(weight, weight_bits, 1, 1, pack_dtype)
          if weight.ndim == 2 else weight)                     # [X, WB, K]
    out = np.zeros((dq.shape[0], wq.shape[0]), dtype=object)
    for i in range(dq.shape[1]):
        for j in range(wq.shape[1]):
            d = dq[:, i, :][:, None, :]
            w = wq[:, j, :][None, :, :]
            term = _popcount(d & w)
            if unipolar:
                term = term - _popcount((~w & np.array(mask, w.dtype)) & d)
            out += term.sum(axis=-1).astype(object) * (1 << (i + j))
    return _wrap(out, out_dtype)


def bitserial_conv2d_ref(data, weight, strides, padding, activation_bits,
                         weight_bits, pack_dtype, out_dtype, unipolar,
                         layout="NCHW"):
    """topi's bitserial_conv2d_nchw / _nhwc on the packed planes (the
    weight 4-d, or packed 5-d as topi reads it)."""
    width = np.dtype(pack_dtype).itemsize * 8
    mask = (1 << width) - 1
    if layout == "NHWC":
        data = data.transpose(0, 3, 1, 2)
        if weight.ndim == 4:
            weight = weight.transpose(3, 2, 0, 1)               # HWIO -> OIHW
        else:
            weight = weight.transpose(3, 2, 0, 1, 4)            # [KH,KW,C/W,O,B]
    dq = bitpack_ref(data, activation_bits, 1, 2, pack_dtype)   # [N,C/W,AB,H,W]
    wq = (bitpack_ref(weight, weight_bits, 1, 4, pack_dtype)
          if weight.ndim == 4 else weight)                      # [O,C/W,KH,KW,WB]
    pads = list(padding)
    if len(pads) == 1:
        pads = pads * 4
    elif len(pads) == 2:
        pads = [pads[0], pads[1], pads[0], pads[1]]
    top, left, bottom, right = pads
    dq = np.pad(dq, ((0, 0), (0, 0), (0, 0), (top, bottom), (left, right)))
    n, _, ab, h, w_ = dq.shape
    o, _, kh, kw, wb = wq.shape
    sh, sw = strides
    oh, ow = (h - kh) // sh + 1, (w_ - kw) // sw + 1
    out = np.zeros((n, o, oh, ow), dtype=object)
    for y in range(oh):
        for x in range(ow):
            win = dq[:, :, :, y * sh:y * sh + kh, x * sw:x * sw + kw]  # [N,C,AB,KH,KW]
            for i in range(ab):
                for j in range(wb):
                    d = win[:, None, :, i]                    # [N,1,C,KH,KW]
                    f = wq[None, :, :, :, :, j]               # [1,O,C,KH,KW]
                    term = _popcount(d & f)
                    if unipolar:
                        term = term - _popcount(d & (~f & np.array(mask, f.dtype)))
                    out[:, :, y, x] += term.sum(axis=(2, 3, 4)).astype(object) * (1 << (i + j))
    out = _wrap(out, out_dtype)
    return out.transpose(0, 2, 3, 1) if layout == "NHWC" else out


def sparse_conv2d_ref(data, wdata, windices, windptr, layout, kernel=1):
    """TVM's nn.sparse_conv2d: topi's BSR kernel (1x1: each output channel
    n = block row * bs_r + j sums its blocks' values times the data's
    channels bs_c * block column + c) and, for 3x3, its x86 kernels' im2col
    (columns in HWI order for NHWC, IHW for NCHW; one pixel of zero
    padding). Columns past the matrix are skipped."""
    x = data if layout == "NHWC" else data.transpose(0, 2, 3, 1)   # NHWC
    m, h, w, c = x.shape
    if kernel == 3:
        padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
        patches = np.stack([padded[:, kh:kh + h, kw:kw + w, :]
                            for kh in range(3) for kw in range(3)], axis=3)
        if layout == "NHWC":
            cols = patches.reshape(m, h, w, 9 * c)                    # (kh, kw, c)
        else:
            cols = patches.transpose(0, 1, 2, 4, 3).reshape(m, h, w, 9 * c)  # (c, kh, kw)
    else:
        cols = x
    blocks = wdata if wdata.ndim == 3 else wdata[:, :, None]
    bs_r, bs_c = blocks.shape[1], blocks.shape[2]
    rows = len(windptr) - 1
    out = np.zeros((m, h, w, rows * bs_r), np.float64)
    for nb in range(rows):
        for e in range(int(windptr[nb]), int(windptr[nb + 1])):
            for j in range(bs_r):
                for cc in range(bs_c):
                    col = int(windices[e]) * bs_c + cc
                    if 0 <= col < cols.shape[3]:
                        out[..., nb * bs_r + j] += blocks[e, j, cc] * cols[..., col]
    out = out.astype(data.dtype)
    return out if layout == "NHWC" else out.transpose(0, 3, 1, 2)


def int_mean_ref(a, axis=None, keepdims=False):
    """An integer mean as relay-mlir computes it: the sum wrapped to 64 bits
    (signed, or unsigned for uint64), divided toward zero, in a's dtype."""
    s = np.sum(a.astype(object), axis=axis, keepdims=keepdims)
    n = a.size // max(np.asarray(s).size, 1)

    def one(v):
        v = int(v) % 2**64
        if a.dtype.kind == "i" and v >= 2**63:
            v -= 2**64
        return abs(v) // n * (1 if v >= 0 else -1)
    return np.vectorize(one, otypes=[object])(s).astype(a.dtype)

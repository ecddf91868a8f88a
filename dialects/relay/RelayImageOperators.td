//===- RelayImageOperators.td - Image and vision operators -*- tablegen -*-===//
//
// TVM's `image.*` operators (resize, grid sampling, crops, affine grids,
// dilation) and `vision.*` operators (ROI align and pooling, YOLO's reorg,
// multibox priors and decoding, valid-box counting, non-maximum
// suppression, Faster R-CNN's region proposals), and nn.correlation.
//
// Included by RelayOperators.td.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_IMAGE_OPERATORS
#define RELAY_IMAGE_OPERATORS

def Relay_Resize2DOp
    : Relay_OperatorOp<"image.resize2d", "Resize2D", "Injective", 1, 5> {
  let summary = "Resizes images to `size` (nearest_neighbor, linear or "
                "cubic interpolation)";
  let description = [{
    TVM's `image.resize2d`: the images in `layout` NCHW or another order of
    its axes (NHWC), `size` their new (height, width);
    `coordinate_transformation_mode` half_pixel,
    align_corners, asymmetric, pytorch_half_pixel, tf_half_pixel_for_nn,
    half_pixel_symmetric (ONNX's: half_pixel recentred where the scale
    does not make a whole length) or tf_crop_and_resize (which samples the crop `roi` = (start_h, start_w,
    end_h, end_w), fractions of the image, its corners on the first and
    last outputs, and gives `extrapolation_value` where a sample falls
    outside the image);
    `rounding_method` (nearest) round, floor, ceil, round_prefer_floor or
    round_prefer_ceil, or "" for topi's choice (round for align_corners,
    else floor); absent, it is round, TVM's default (its printer omits
    attributes at their defaults, so TVM's text without one means round);
    `cubic_alpha`, `cubic_exclude`. Sample positions outside the image take
    the nearest edge. `scale_h` and `scale_w`, where given, are the scales
    the coordinates divide by instead of the output size over the input's
    (ONNX's Resize with scales that do not divide the size exactly).
    Computed as gathers with constant indices and weights, one axis after
    the other.
  }];
  let arguments = (ins AnyType:$data, DenseI64ArrayAttr:$size,
                       DefaultValuedStrAttr<StrAttr, "NCHW">:$layout,
                       DefaultValuedStrAttr<StrAttr, "linear">:$method,
                       DefaultValuedStrAttr<StrAttr, "half_pixel">:$coordinate_transformation_mode,
                       DefaultValuedStrAttr<StrAttr, "round">:$rounding_method,
                       DefaultValuedAttr<F64Attr, "-0.5">:$cubic_alpha,
                       DefaultValuedAttr<I64Attr, "0">:$cubic_exclude,
                       DefaultValuedAttr<F64Attr, "0.0">:$extrapolation_value,
                       OptionalAttr<TypeAttr>:$out_dtype,
                       OptionalAttr<F64Attr>:$scale_h,
                       OptionalAttr<F64Attr>:$scale_w,
                       OptionalAttr<DenseF64ArrayAttr>:$roi);
}

def Relay_Resize1DOp
    : Relay_OperatorOp<"image.resize1d", "Resize1D", "Injective", 1, 5> {
  let summary = "Resizes signals to `size` (image.resize2d's methods "
                "and coordinates along one axis)";
  let description = [{
    TVM's `image.resize1d`: `layout` NCW or NWC; `size` is (W); `roi`
    (tf_crop_and_resize) is (start_w, end_w); `scale_w` as
    image.resize2d's.
  }];
  let arguments = (ins AnyType:$data, DenseI64ArrayAttr:$size,
                       DefaultValuedStrAttr<StrAttr, "NCW">:$layout,
                       DefaultValuedStrAttr<StrAttr, "linear">:$method,
                       DefaultValuedStrAttr<StrAttr, "half_pixel">:$coordinate_transformation_mode,
                       DefaultValuedStrAttr<StrAttr, "round">:$rounding_method,
                       DefaultValuedAttr<F64Attr, "-0.5">:$cubic_alpha,
                       DefaultValuedAttr<I64Attr, "0">:$cubic_exclude,
                       DefaultValuedAttr<F64Attr, "0.0">:$extrapolation_value,
                       OptionalAttr<TypeAttr>:$out_dtype,
                       OptionalAttr<F64Attr>:$scale_w,
                       OptionalAttr<DenseF64ArrayAttr>:$roi);
}

def Relay_Resize3DOp
    : Relay_OperatorOp<"image.resize3d", "Resize3D", "Injective", 1, 5> {
  let summary = "Resizes volumes to `size` (image.resize2d's methods "
                "and coordinates along three axes)";
  let description = [{
    TVM's `image.resize3d`: `layout` NCDHW or another order of its axes
    (NDHWC); `size` is (D, H, W); `roi` (tf_crop_and_resize)
    is (start_d, start_h, start_w, end_d, end_h, end_w); `scale_d`,
    `scale_h`, `scale_w` as image.resize2d's. Computed one axis after the
    other.
  }];
  let arguments = (ins AnyType:$data, DenseI64ArrayAttr:$size,
                       DefaultValuedStrAttr<StrAttr, "NCDHW">:$layout,
                       DefaultValuedStrAttr<StrAttr, "linear">:$method,
                       DefaultValuedStrAttr<StrAttr, "half_pixel">:$coordinate_transformation_mode,
                       DefaultValuedStrAttr<StrAttr, "round">:$rounding_method,
                       DefaultValuedAttr<F64Attr, "-0.5">:$cubic_alpha,
                       DefaultValuedAttr<I64Attr, "0">:$cubic_exclude,
                       DefaultValuedAttr<F64Attr, "0.0">:$extrapolation_value,
                       OptionalAttr<TypeAttr>:$out_dtype,
                       OptionalAttr<F64Attr>:$scale_d,
                       OptionalAttr<F64Attr>:$scale_h,
                       OptionalAttr<F64Attr>:$scale_w,
                       OptionalAttr<DenseF64ArrayAttr>:$roi);
}

def Relay_GridSampleOp
    : Relay_OperatorOp<"image.grid_sample", "GridSample", "Injective", 2, 5> {
  let summary = "Samples NCHW images at the positions a grid gives "
                "(bilinear, nearest or bicubic interpolation)";
  let description = [{
    TVM's `image.grid_sample` (PyTorch's `grid_sample`, ONNX's
    GridSample): `grid` is `[N, 2, H_out, W_out]`, each position's (x, y)
    normalised to [-1, 1] over the image's width and height (the corner
    pixels' centres with `align_corners`, else their outer edges); the
    result is `[N, C, H_out, W_out]`. `padding_mode` says what positions
    outside the image read: `zeros`, the nearest `border` pixel, or the
    image `reflection`-ed at its borders. Bicubic interpolation uses
    A = -0.75, its 16 taps each padded as `padding_mode` says. Computed as
    gathers at the positions (--relay-decompose).
  }];
  let arguments = (ins AnyType:$data, AnyType:$grid,
                       DefaultValuedStrAttr<StrAttr, "bilinear">:$method,
                       DefaultValuedStrAttr<StrAttr, "NCHW">:$layout,
                       DefaultValuedStrAttr<StrAttr, "zeros">:$padding_mode,
                       DefaultValuedAttr<BoolAttr, "true">:$align_corners);
}

def Relay_CropAndResizeOp
    : Relay_OperatorOp<"image.crop_and_resize", "CropAndResize", "Injective",
                       3, 5> {
  let summary = "Crops of the images at `boxes`, each resized to "
                "`crop_size` (TensorFlow's CropAndResize)";
  let description = [{
    TVM's `image.crop_and_resize`: `boxes` is `[B, 4]`, each box (y1, x1,
    y2, x2) in normalised coordinates (0 and 1 the first and last pixel's
    centres; y1 > y2 flips the crop) of the image `box_indices[b]` of the
    batch. Crop row i samples the image at y1 (H - 1) + i (y2 - y1) (H - 1)
    / (crop_h - 1) (the box's middle when crop_h is 1), columns likewise,
    by `method` bilinear or nearest_neighbor (rounding half away from
    zero); a sample outside the image is `extrapolation_value`. The result
    is `[B, C, crop_h, crop_w]` (`layout` NCHW) or `[B, crop_h, crop_w, C]`
    (NHWC), in `out_dtype` (default: the data's).
  }];
  let arguments = (ins AnyType:$data, AnyType:$boxes, AnyType:$box_indices,
                       DenseI64ArrayAttr:$crop_size,
                       DefaultValuedStrAttr<StrAttr, "NCHW">:$layout,
                       DefaultValuedStrAttr<StrAttr, "bilinear">:$method,
                       DefaultValuedAttr<F64Attr, "0.0">:$extrapolation_value,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

def Relay_RoiAlignOp
    : Relay_OperatorOp<"vision.roi_align", "RoiAlign", "OutEWiseFusable", 2,
                       5> {
  let summary = "Average (or maximum) of bilinear samples of NCHW features "
                "over regions of interest (Mask R-CNN's RoIAlign)";
  let description = [{
    TVM's `vision.roi_align`: `rois` is `[R, 5]`, each region its image's
    index in the batch and its corners (x1, y1, x2, y2) in input
    coordinates, which `spatial_scale` maps onto the features. Each region
    is split into `pooled_size` bins, each bin sampled on a grid of
    `sample_ratio` x `sample_ratio` points by bilinear interpolation, and
    the bin is their average (`mode = "avg"`) or maximum (`"max"`); the
    result is `[R, C, pooled_h, pooled_w]`. A sample more than one pixel
    outside the features reads zero; one within a pixel of them reads the
    border. `aligned` (torchvision's and ONNX's half-pixel coordinates, an
    addition to TVM's attributes) shifts the corners by half a pixel and
    lets a region be smaller than one pixel; without it a region is at
    least a pixel on each side, as in TVM. `sample_ratio` <= 0 is TVM's
    and ONNX's adaptive grid: ceil(region size / bins) points per bin
    side, region by region, which the interpreter computes and native code
    does not (its sizes depend on the regions). Compiled as gathers of the
    four taps of each sample (--relay-decompose).
  }];
  let arguments = (ins AnyType:$data, AnyType:$rois,
                       DenseI64ArrayAttr:$pooled_size,
                       F64Attr:$spatial_scale,
                       DefaultValuedAttr<I64Attr, "-1">:$sample_ratio,
                       DefaultValuedStrAttr<StrAttr, "NCHW">:$layout,
                       DefaultValuedStrAttr<StrAttr, "avg">:$mode,
                       DefaultValuedAttr<BoolAttr, "false">:$aligned);
}

def Relay_YoloReorgOp
    : Relay_OperatorOp<"vision.yolo_reorg", "YoloReorg", "Injective", 1, 5> {
  let summary = "Darknet's reorg (YOLOv2's passthrough layer)";
  let description = [{
    TVM's `vision.yolo_reorg(data, stride)` of NCHW data: the result is
    (N, C * stride^2, H / stride, W / stride), its elements those of the
    data in darknet's reorg order (TVM's reorg_python: input element (k, j,
    i) of an image is read from flat position `i * s + o % s + W * s * (j *
    s + o / s + H * s * (k % (C / s^2)))`, o = k / (C / s^2), the result
    taking them in order). C must divide by stride^2, H and W by stride.
  }];
  let arguments = (ins AnyType:$data, DefaultValuedAttr<I64Attr, "1">:$stride);
}

def Relay_AffineGridOp
    : Relay_OperatorOp<"image.affine_grid", "AffineGrid", "Injective", 1, 5> {
  let summary = "The sampling grid of affine transforms `[N, 2, 3]` over "
                "`target_shape` (for image.grid_sample)";
  let description = [{
    TVM's `image.affine_grid`: `[N, 2, H, W]` (H, W > 1) with (x, y) at
    each target pixel the transform applied to its normalised position
    (x, y, 1): x = -1 + j (2 - 1e-7) / (W - 1) at column j, y likewise
    over the rows (TVM's step, which keeps the last sample just inside).
  }];
  let arguments = (ins AnyType:$data, DenseI64ArrayAttr:$target_shape);
}

def Relay_Dilation2DOp
    : Relay_OperatorOp<"image.dilation2d", "Dilation2D", "OutEWiseFusable", 2,
                       2> {
  let summary = "Morphological dilation: the greatest `data + weight` over "
                "each window (TensorFlow's Dilation2D)";
  let description = [{
    TVM's `image.dilation2d`: out[n, c, y, x] = max over (ky, kx) of
    data[n, c, y * sh + ky * dh - pad_top, x * sw + kx * dw - pad_left] +
    weight[c, ky, kx], padding reading as zero. `data_layout` NCHW (weight
    `[C, KH, KW]`, kernel_layout IHW) or NHWC (weight `[KH, KW, C]`, HWI);
    `padding` 2 or 4 values as nn.conv2d's.
  }];
  let arguments = (ins AnyType:$data, AnyType:$weight,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
                       DefaultValuedStrAttr<StrAttr, "NCHW">:$data_layout,
                       DefaultValuedStrAttr<StrAttr, "IHW">:$kernel_layout,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

def Relay_CorrelationOp
    : Relay_OperatorOp<"nn.correlation", "Correlation", "OutEWiseFusable", 2,
                       10> {
  let summary = "FlowNet's correlation of two feature maps over "
                "displacements up to `max_displacement`";
  let description = [{
    TVM's `nn.correlation` (NCHW, as topi computes it): both maps padded
    by `padding` (height, width: each side; or before_h, before_w,
    after_h, after_w); for each displacement (dy, dx), multiples of
    `stride2` up to `max_displacement`, channel (dy / stride2 + r) * (2r +
    1) + dx / stride2 + r (r = max_displacement / stride2) at (i, j) is
    the mean, over the channels and the `kernel_size` window whose corner
    is (i * stride1 + max_displacement, j * stride1 + max_displacement),
    of data1 times data2 displaced by (dy, dx) (or of |data1 - data2|
    when `is_multiply` is false). The result has ceil((padded size - 2 *
    (max_displacement + (kernel_size - 1) / 2)) / stride1) rows and
    columns.
  }];
  let arguments = (ins AnyType:$data1, AnyType:$data2,
                       DefaultValuedAttr<I64Attr, "1">:$kernel_size,
                       DefaultValuedAttr<I64Attr, "1">:$max_displacement,
                       DefaultValuedAttr<I64Attr, "1">:$stride1,
                       DefaultValuedAttr<I64Attr, "1">:$stride2,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding,
                       DefaultValuedAttr<BoolAttr, "true">:$is_multiply,
                       DefaultValuedStrAttr<StrAttr, "NCHW">:$layout);
}

def Relay_MultiboxPriorOp
    : Relay_OperatorOp<"vision.multibox_prior", "MultiboxPrior", "Opaque", 1,
                       5> {
  let summary = "SSD's prior (anchor) boxes for each position of a feature "
                "map";
  let description = [{
    TVM's `vision.multibox_prior`: for an NCHW map of H x W, `[1, H * W *
    (S + R - 1), 4]` boxes (left, top, right, bottom, normalised), at each
    position centred at ((x + offsets[1]) * steps[1], (y + offsets[0]) *
    steps[0]) (a step of 0 or less is 1 / W or 1 / H): one box per size
    (ratio 1; TVM's kernel does not read ratios[0]), then sizes[0] with
    each further ratio r, half-width size * H / W * sqrt(r) / 2 and
    half-height size / sqrt(r) / 2; `clip` clamps them to [0, 1]. The
    data's values are not read.
  }];
  let arguments = (ins AnyType:$data,
                       DefaultValuedAttr<DenseF64ArrayAttr, "{1.0}">:$sizes,
                       DefaultValuedAttr<DenseF64ArrayAttr, "{1.0}">:$ratios,
                       DefaultValuedAttr<DenseF64ArrayAttr, "{-1.0, -1.0}">:$steps,
                       DefaultValuedAttr<DenseF64ArrayAttr, "{0.5, 0.5}">:$offsets,
                       DefaultValuedAttr<BoolAttr, "false">:$clip);
}

def Relay_MultiboxTransformLocOp
    : Relay_OperatorOp<"vision.multibox_transform_loc",
                       "MultiboxTransformLoc", "Opaque", 3, 5> {
  let summary = "SSD's detections: each anchor's best class and its box "
                "moved by the predicted offsets, `(boxes, valid_count)`";
  let description = [{
    TVM's `vision.multibox_transform_loc`: `cls_prob` is `[B, C, N]`,
    `loc_pred` `[B, N * 4]`, `anchor` `[1, N, 4]` (left, top, right,
    bottom). For each anchor, the class with the highest probability (the
    first on ties; class 0, the background, left out unless
    `keep_background`), dropped to the background when below `threshold`;
    the anchors not on the background become rows (class id, 1 less when
    the background is left out; score; left, top, right, bottom: the
    anchor's centre moved by loc * variance * size, its size scaled by
    exp(loc * variance), clamped to [0, 1] with `clip`) at the front of
    `[B, N, 6]` in anchor order; `valid_count` `[B]` (int32) counts them.
    The rows after them are -1 (TVM leaves them unset).
  }];
  let arguments = (ins AnyType:$cls_prob, AnyType:$loc_pred, AnyType:$anchor,
                       DefaultValuedAttr<BoolAttr, "true">:$clip,
                       DefaultValuedAttr<F64Attr, "0.01">:$threshold,
                       DefaultValuedAttr<DenseF64ArrayAttr, "{0.1, 0.1, 0.2, 0.2}">:$variances,
                       DefaultValuedAttr<BoolAttr, "false">:$keep_background);
}

def Relay_GetValidCountsOp
    : Relay_OperatorOp<"vision.get_valid_counts", "GetValidCounts", "Opaque",
                       2, 5> {
  let summary = "Moves the boxes scoring above `score_threshold` to the "
                "front: `(valid_count, boxes, indices)`";
  let description = [{
    TVM's `vision.get_valid_counts`: `data` is `[B, N, K]`, each row a box
    whose `score_index` element is its score and `id_index` element its
    class (a negative class is invalid; `id_index` < 0: no class);
    `score_threshold` a 0-d float. The valid rows (score > threshold) go to
    the front in their order, the rest become -1; the result is
    `(valid_count [B], boxes [B, N, K], indices [B, N])`, the counts and
    indices int32, each index a front row's original position (-1 after
    them).
  }];
  let arguments = (ins AnyType:$data, AnyType:$score_threshold,
                       DefaultValuedAttr<I64Attr, "0">:$id_index,
                       DefaultValuedAttr<I64Attr, "1">:$score_index);
}

def Relay_NonMaxSuppressionOp
    : Relay_OperatorOp<"vision.non_max_suppression", "NonMaxSuppression",
                       "Opaque", 5, 5> {
  let summary = "Greedy non-maximum suppression of each batch's boxes by "
                "descending score (TVM's classic form)";
  let description = [{
    TVM's `vision.non_max_suppression(data, valid_count, indices,
    max_output_size, iou_threshold)`, as its topi kernel computes it:
    `data` is `[B, N, K]` (float), each row a box with its class at
    `id_index` (-1: none), its score at `score_index` and its corners at
    `coord_start`..+3 (either diagonal); `valid_count` `[B]` the number of
    leading rows to consider (get_valid_counts's count), `indices` `[B, N]`
    the rows' original positions (get_valid_counts's indices),
    `max_output_size` (0-d int; negative: no limit) and `iou_threshold`
    (0-d float) tensors. The first `valid_count` rows are ordered by
    descending score (equal scores by position), only the `top_k` first
    kept (-1: all); each row of positive score is dropped when its
    intersection over union with an earlier kept row (of its class unless
    `force_suppress`) is at least `iou_threshold`, until
    `max_output_size` rows are kept; an `iou_threshold` of 0 or less keeps
    the rows as they are. With `return_indices` the result is
    `(indices [B, N], count [B, 1])`, int32: the kept rows' original
    positions (through `indices`) at the front, -1 after them, and their
    number; otherwise the `[B, N, K]` rows in sorted order, each dropped or
    left row all -1 (moved after the kept ones with
    `invalid_to_bottom`).
  }];
  let arguments = (ins AnyType:$data, AnyType:$valid_count, AnyType:$indices,
                       AnyType:$max_output_size, AnyType:$iou_threshold,
                       DefaultValuedAttr<BoolAttr, "false">:$force_suppress,
                       DefaultValuedAttr<I64Attr, "-1">:$top_k,
                       DefaultValuedAttr<I64Attr, "2">:$coord_start,
                       DefaultValuedAttr<I64Attr, "1">:$score_index,
                       DefaultValuedAttr<I64Attr, "0">:$id_index,
                       DefaultValuedAttr<BoolAttr, "true">:$return_indices,
                       DefaultValuedAttr<BoolAttr, "false">:$invalid_to_bottom);
}

def Relay_ProposalOp
    : Relay_OperatorOp<"vision.proposal", "Proposal", "Opaque", 3, 5> {
  let summary = "Faster R-CNN's region proposals: anchors moved by the "
                "predicted deltas, best first, greedily suppressed";
  let description = [{
    TVM's `vision.proposal(cls_prob, bbox_pred, im_info)`, as its topi
    kernel computes it: `cls_prob` is `[B, 2 * A, H, W]` (background then
    foreground scores of A = |scales| * |ratios| anchors per cell),
    `bbox_pred` `[B, 4 * A, H, W]` (each anchor's dx, dy, dw, dh, or the
    corners' offsets with `iou_loss`), `im_info` `[B, 3]` (image height,
    width and scale), all of one float dtype. Anchor k (ratio k / |scales|,
    scale k % |scales|) of cell (h, w) is Faster R-CNN's anchor of a
    `feature_stride` square moved by the cell's offset; it is regressed,
    clipped to the image, scored by its foreground score (-1 on cells past
    im_height / feature_stride or im_width / feature_stride, and for boxes
    smaller than `rpn_min_size` * scale, which grow by that size). Each
    image's boxes are sorted by descending score (ties in cell order, NaN
    last), the first `rpn_pre_nms_top_n` kept (-1: all), and each dropped
    whose intersection over union (pixel-inclusive, +1) with an earlier
    kept box is above `threshold`. The result is `[B *
    rpn_post_nms_top_n, 5]` rows (batch index, x1, y1, x2, y2): each
    image's survivors in order, repeated from the first until its rows
    are full.
  }];
  let arguments = (ins AnyType:$cls_prob, AnyType:$bbox_pred, AnyType:$im_info,
                       DefaultValuedAttr<DenseF64ArrayAttr, "{4.0, 8.0, 16.0, 32.0}">:$scales,
                       DefaultValuedAttr<DenseF64ArrayAttr, "{0.5, 1.0, 2.0}">:$ratios,
                       DefaultValuedAttr<I64Attr, "16">:$feature_stride,
                       DefaultValuedAttr<F64Attr, "0.7">:$threshold,
                       DefaultValuedAttr<I64Attr, "6000">:$rpn_pre_nms_top_n,
                       DefaultValuedAttr<I64Attr, "300">:$rpn_post_nms_top_n,
                       DefaultValuedAttr<I64Attr, "16">:$rpn_min_size,
                       DefaultValuedAttr<BoolAttr, "false">:$iou_loss);
}

def Relay_RoiPoolOp
    : Relay_OperatorOp<"vision.roi_pool", "RoiPool", "OutEWiseFusable", 2, 5> {
  let summary = "Max pooling of the regions `rois` over `pooled_size` bins "
                "(Fast R-CNN's RoIPool)";
  let description = [{
    TVM's `vision.roi_pool` (NCHW): each roi (batch index, x1, y1, x2, y2)
    scaled by `spatial_scale` and rounded (half away from zero) to pixels,
    at least 1 x 1, split into `pooled_size` bins (start floor(i * bin +
    1e-5), end ceil((i + 1) * bin - 1e-5), clamped to the image); each bin
    is the maximum of its pixels, 0 when it is empty. `[R, C, PH, PW]`.
  }];
  let arguments = (ins AnyType:$data, AnyType:$rois,
                       DenseI64ArrayAttr:$pooled_size,
                       F64Attr:$spatial_scale,
                       DefaultValuedStrAttr<StrAttr, "NCHW">:$layout);
}

#endif // RELAY_IMAGE_OPERATORS

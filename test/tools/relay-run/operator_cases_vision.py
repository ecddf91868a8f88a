"""The operator cases of operators_vs_numpy.py for vision.*, image.* and
dyn.image.*: (operator, call text with %a %b %c for the inputs, inputs,
numpy reference, tolerance)."""
import numpy as np  # noqa: F401

from operator_inputs import *  # noqa: F401,F403
from operator_references import *  # noqa: F401,F403
from qnn_references import *  # noqa: F401,F403

CASES = [
    ("image.crop_and_resize",
     "image.crop_and_resize(%a, %b, %c, crop_size=[3, 4], extrapolation_value=-1f)",
     [f32(2, 3, 5, 6),
      np.array([[0.1, 0.2, 0.7, 0.9], [0.8, 0.1, 0.2, 0.5], [-0.2, 0.3, 0.6, 1.3]],
               np.float32), np.array([1, 0, 1], np.int32)],
     lambda a, b, c: crop_and_resize_ref(a, b, c, (3, 4), "bilinear", -1.0), 1e-5),
    ("image.crop_and_resize (nearest, NHWC, one row)",
     "image.crop_and_resize(%a, %b, %c, crop_size=[1, 5], layout=\"NHWC\", "
     "method=\"nearest_neighbor\")",
     [f32(2, 4, 6, 3),
      np.array([[0.0, 0.0, 1.0, 1.0], [0.25, 0.9, 0.75, 0.1]], np.float32),
      np.array([0, 1], np.int64)],
     lambda a, b, c: crop_and_resize_ref(a, b, c, (1, 5), "nearest_neighbor", 0.0,
                                         "NHWC"), 0),
    ("image.resize1d", "image.resize1d(%a, size=[11])", [f32(2, 3, 7)],
     lambda a: resize_ref(a, (11,), 'linear', 'half_pixel'), 1e-5),
    ("image.resize1d (nearest, asymmetric)",
     'image.resize1d(%a, size=[4], method="nearest_neighbor", '
     'coordinate_transformation_mode="asymmetric", rounding_method="floor")',
     [f32(1, 2, 9)],
     lambda a: resize_ref(a, (4,), 'nearest_neighbor', 'asymmetric'), 0),
    # Without rounding_method, TVM's default: round (position 1.73 is 2).
    ("image.resize1d (nearest, default rounding)",
     'image.resize1d(%a, size=[11], method="nearest_neighbor")', [f32(2, 3, 7)],
     lambda a: resize_ref(a, (11,), 'nearest_neighbor', 'half_pixel', 'round'), 0),
    ("image.resize3d", "image.resize3d(%a, size=[3, 5, 4])", [f32(1, 2, 4, 3, 6)],
     lambda a: resize_ref(a, (3, 5, 4), 'linear', 'half_pixel'), 1e-5),
    ("image.resize3d (align_corners)",
     'image.resize3d(%a, size=[5, 2, 7], '
     'coordinate_transformation_mode="align_corners")', [f32(2, 1, 3, 4, 3)],
     lambda a: resize_ref(a, (5, 2, 7), 'linear', 'align_corners'), 1e-5),
    ("vision.yolo_reorg", "vision.yolo_reorg(%a, stride=2)",
     [f32(2, 8, 4, 6)], lambda a: yolo_reorg_ref(a, 2), 0),
    ("vision.yolo_reorg (stride 1)", "vision.yolo_reorg(%a)",
     [f32(1, 3, 2, 5)], lambda a: yolo_reorg_ref(a, 1), 0),
    ("image.affine_grid", "image.affine_grid(%a, target_shape=[5, 7])",
     [f32(3, 2, 3)], lambda a: affine_grid_ref(a, 5, 7), 1e-5),
    ("image.dilation2d", "image.dilation2d(%a, %b)", [f32(2, 3, 6, 7), f32(3, 2, 3)],
     lambda a, b: dilation2d_ref(a, b, (1, 1), (0, 0, 0, 0), (1, 1)), 0),
    ("image.dilation2d (NHWC, strides, padding, dilations)",
     'image.dilation2d(%a, %b, strides=[2, 1], padding=[1, 2, 0, 1], '
     'dilations=[1, 2], data_layout="NHWC", kernel_layout="HWI")',
     [f32(1, 7, 8, 2), f32(3, 2, 2)],
     lambda a, b: dilation2d_ref(a.transpose(0, 3, 1, 2), b.transpose(2, 0, 1),
                                 (2, 1), (1, 2, 0, 1), (1, 2)).transpose(0, 2, 3, 1), 0),
    ("vision.multibox_prior", "vision.multibox_prior(%a, sizes=[0.3f, 0.5f], "
     "ratios=[1f, 2f, 0.5f])", [f32(1, 2, 3, 4)],
     lambda a: multibox_prior_ref(3, 4, [0.3, 0.5], [1, 2, 0.5], [-1, -1],
                                  [0.5, 0.5], False), 1e-6),
    ("vision.multibox_prior (steps, offsets, clip)",
     "vision.multibox_prior(%a, sizes=[0.9f], ratios=[1f, 3f], steps=[0.2f, 0.25f], "
     "offsets=[0.4f, 0.6f], clip=True)", [f32(2, 1, 5, 4)],
     lambda a: multibox_prior_ref(5, 4, [0.9], [1, 3], [0.2, 0.25], [0.4, 0.6],
                                  True), 1e-6),
    ("vision.get_valid_counts", "vision.get_valid_counts(%a, 0.3f)",
     [np.concatenate([RNG.integers(-1, 3, (2, 9, 1)).astype(np.float32),
                      f32(2, 9, 1, low=0, high=1), f32(2, 9, 4)], axis=2)],
     lambda a: get_valid_counts_ref(a, np.float32(0.3), 0, 1), 0),
    ("vision.get_valid_counts (no class, score last)",
     "vision.get_valid_counts(%a, %b, id_index=-1, score_index=4)",
     [f32(3, 7, 5, low=-1, high=1), scalar(0.1, np.float32)],
     lambda a, b: get_valid_counts_ref(a, b, -1, 4), 0),
    ("vision.non_max_suppression", "vision.non_max_suppression(%a, %b, %c, -1, 0.5f)",
     [detection_rows(2, 24, 1), np.array([20, 24], np.int32),
      np.stack([RNG.permutation(24), RNG.permutation(24)]).astype(np.int32)],
     lambda a, b, c: classic_nms_ref(a, b, c, -1, 0.5), 0),
    ("vision.non_max_suppression (rows, force, top_k, max, to the bottom)",
     "vision.non_max_suppression(%a, %b, %c, 5, 0.3f, force_suppress=True, top_k=15, "
     "return_indices=False, invalid_to_bottom=True)",
     [detection_rows(2, 24, 2), np.array([24, 17], np.int32),
      np.tile(np.arange(24, dtype=np.int32), (2, 1))],
     lambda a, b, c: classic_nms_ref(a, b, c, 5, 0.3, force_suppress=True, top_k=15,
                                     return_indices=False, invalid_to_bottom=True), 0),
    ("vision.non_max_suppression (no class, score last, coordinates first)",
     "vision.non_max_suppression(%a, %b, %c, 4i64, 0.4f, id_index=-1, score_index=4, "
     "coord_start=0, return_indices=False)",
     [detection_rows(1, 16, 3)[..., [2, 3, 4, 5, 1]].copy(), np.array([16], np.int32),
      np.arange(16, dtype=np.int32)[None]],
     lambda a, b, c: classic_nms_ref(a, b, c, 4, 0.4, score_index=4, id_index=-1,
                                     coord_start=0, return_indices=False), 0),
    ("vision.non_max_suppression (threshold 0: rows as they are)",
     "vision.non_max_suppression(%a, %b, %c, -1, 0f)",
     [detection_rows(2, 10, 4), np.array([7, 0], np.int32),
      np.tile(np.arange(9, -1, -1, dtype=np.int32), (2, 1))],
     lambda a, b, c: classic_nms_ref(a, b, c, -1, 0.0), 0),
    ("vision.non_max_suppression (after get_valid_counts)",
     "%0 = vision.get_valid_counts(%a, 0.1f);\n  "
     "vision.non_max_suppression(%0.1, %0.0, %0.2, 8, 0.45f)",
     [detection_rows(2, 30, 5, width=7)],
     lambda a: classic_nms_ref(*(lambda c, o, i: (o, c, i))(
         *get_valid_counts_ref(a, np.float32(0.1), 0, 1)), 8, 0.45), 0),
    ("vision.multibox_transform_loc",
     "vision.multibox_transform_loc(%a, %b, %c, threshold=0.4f)",
     [softmax(f32(2, 4, 10, low=-3, high=3), 1), f32(2, 40, low=-1, high=1),
      np.sort(f32(1, 10, 4, low=0, high=1).reshape(1, 10, 2, 2), axis=2).reshape(1, 10, 4)],
     lambda a, b, c: multibox_transform_loc_ref(a, b, c, True, 0.4,
                                                (0.1, 0.1, 0.2, 0.2), False), 1e-5),
    ("vision.multibox_transform_loc (background kept, no clip)",
     "vision.multibox_transform_loc(%a, %b, %c, clip=False, variances=[0.2f, 0.1f, 0.3f, 0.25f], "
     "keep_background=True)",
     [softmax(f32(1, 3, 6, low=-3, high=3), 1), f32(1, 24, low=-2, high=2),
      f32(1, 6, 4, low=-0.2, high=1.2)],
     lambda a, b, c: multibox_transform_loc_ref(a, b, c, False, 0.01,
                                                (0.2, 0.1, 0.3, 0.25), True), 1e-5),
    ("vision.roi_pool", "vision.roi_pool(%a, %b, pooled_size=[3, 2], spatial_scale=0.5f)",
     [f32(2, 3, 9, 11),
      np.array([[0, 1, 2, 14, 12], [1, 0, 0, 21, 17], [1, 8, 3, 9, 4],
                [0, 5, 9, 40, 30], [1, -6, -3, 3, 2]], np.float32)],
     lambda a, b: roi_pool_ref(a, b, 3, 2, 0.5), 0),
    ("dyn.image.resize2d", "dyn.image.resize2d(%a, %b)",
     [f32(1, 2, 5, 6), i64(3, 8)],
     lambda a, b: resize_ref(a, (3, 8), 'linear', 'half_pixel'), 1e-5),
    ("dyn.image.resize2d (nearest, asymmetric)",
     'dyn.image.resize2d(%a, %b, method="nearest_neighbor", '
     'coordinate_transformation_mode="asymmetric", rounding_method="floor")',
     [f32(2, 1, 4, 3), i64(7, 2)],
     lambda a, b: resize_ref(a, (7, 2), 'nearest_neighbor', 'asymmetric'), 0),
    ("vision.all_class_non_max_suppression",
     "vision.all_class_non_max_suppression(%a, %b, 2i64, 0.4f, 0.2f)",
     [np.array([[[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3], [1, 1, 0, 0],
                 [5, 5, 6, 6]]], np.float32), f32(1, 2, 5, low=0, high=1)],
     lambda a, b: nms_ref(a, b, 2, 0.4, 0.2), 0),
    ("vision.all_class_non_max_suppression (400 clustered boxes)",
     "vision.all_class_non_max_suppression(%a, %b, 1000i64, 0.3f, 0.05f)",
     [clustered_boxes(400, 3), f32(1, 2, 400, low=0, high=1)],
     lambda a, b: nms_ref(a, b, 1000, 0.3, 0.05), 0),
    # A box at 3e38 (no width there in float32) is too far out for the
    # interpreter's buckets by left edge: from it on, its class compares
    # each candidate with every kept box.
    ("vision.all_class_non_max_suppression (a box at 3e38)",
     "vision.all_class_non_max_suppression(%a, %b, 1000i64, 0.3f, 0.05f)",
     [far_box(clustered_boxes(200, 5)), f32(1, 2, 200, low=0, high=1)],
     lambda a, b: nms_ref(a, b, 1000, 0.3, 0.05), 0),
    # TVM's own test of vision.proposal (tests/python/relay/
    # test_op_level5.py): its inputs and the outputs TVM's kernel gave.
    ("vision.proposal (TVM's test)",
     "vision.proposal(%a, %b, %c, scales=[0.5f], ratios=[0.5f], threshold=0.7f, "
     "rpn_pre_nms_top_n=200, rpn_post_nms_top_n=4)",
     TVM_PROPOSAL_INPUTS, lambda a, b, c: TVM_PROPOSAL_OUTPUT, 1e-5),
    ("vision.proposal (TVM's test, iou_loss)",
     "vision.proposal(%a, %b, %c, scales=[0.5f], ratios=[0.5f], threshold=0.7f, "
     "rpn_pre_nms_top_n=200, rpn_post_nms_top_n=4, iou_loss=True)",
     TVM_PROPOSAL_INPUTS, lambda a, b, c: TVM_PROPOSAL_IOU_LOSS_OUTPUT, 1e-5),
    # Two images, six anchors a cell, cells past the first image's height
    # (37 / 8 rows of 5), boxes under the minimum size, survivors cycled.
    ("vision.proposal",
     "vision.proposal(%a, %b, %c, scales=[2f, 4f], ratios=[0.5f, 1f, 2f], "
     "feature_stride=8, threshold=0.5f, rpn_pre_nms_top_n=100, "
     "rpn_post_nms_top_n=40, rpn_min_size=6)",
     [f32(2, 12, 5, 6, low=0, high=1), f32(2, 24, 5, 6, low=-0.6, high=0.6),
      np.array([[37, 45, 1.0], [40, 30, 0.8]], np.float32)],
     lambda a, b, c: proposal_ref(a, b, c, (2, 4), (0.5, 1, 2), 8, 0.5, 100, 40, 6),
     1e-5),
    ("vision.proposal (float64, all boxes, iou_loss, defaults)",
     "vision.proposal(%a, %b, %c, rpn_pre_nms_top_n=-1, iou_loss=True)",
     [RNG.uniform(0, 1, (1, 24, 3, 4)), RNG.uniform(-20, 20, (1, 48, 3, 4)),
      np.array([[50, 60, 1.5]])],
     lambda a, b, c: proposal_ref(a, b, c, rpn_pre_nms_top_n=-1, iou_loss=True),
     1e-9),
    ("vision.proposal (float16)",
     "vision.proposal(%a, %b, %c, scales=[1f], ratios=[1f, 2f], "
     "threshold=0.6f, rpn_post_nms_top_n=5, rpn_min_size=4)",
     [f32(1, 4, 2, 3, low=0, high=1).astype(np.float16),
      f32(1, 8, 2, 3, low=-0.5, high=0.5).astype(np.float16),
      np.array([[32, 48, 1]], np.float16)],
     lambda a, b, c: proposal_ref(a, b, c, (1,), (1, 2), 16, 0.6, 6000, 5, 4),
     1e-3),
]

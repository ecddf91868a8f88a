//===- RelationsDetection.cpp - Detection operators' relations --*- C++ -*-===//
//
// The relations of the object-detection operators on boxes: SSD's
// vision.multibox_prior and vision.multibox_transform_loc,
// vision.get_valid_counts, the classic vision.non_max_suppression and
// Faster R-CNN's vision.proposal.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;

/// A float-array attribute's values (none when it is absent).
static SmallVector<double> floatsAttr(RelationArgs &args, StringRef name) {
  auto a = dyn_cast_or_null<DenseF64ArrayAttr>(args.getAttr(name));
  return a ? SmallVector<double>(a.asArrayRef()) : SmallVector<double>();
}

/// Reads the anchors' `sizeName` attribute (their sizes or scales) and
/// their `ratios`: each at least one value, all positive.
static RelationStatus readAnchorShapes(RelationArgs &args, StringRef sizeName,
                                       SmallVector<double> &sizes,
                                       SmallVector<double> &ratios) {
  sizes = floatsAttr(args, sizeName);
  ratios = floatsAttr(args, "ratios");
  if (sizes.empty() || ratios.empty())
    return args.fail(sizeName + " and ratios must each have a value");
  auto positive = [](double v) { return v > 0; };
  if (!llvm::all_of(sizes, positive) || !llvm::all_of(ratios, positive))
    return args.fail(sizeName + " and ratios must be positive");
  return RelationStatus::Solved;
}

/// vision.multibox_prior: an NCHW map (float) gives [1, H * W * (sizes +
/// ratios - 1), 4] boxes of its dtype.
static RelationStatus multiboxPriorRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  if (data.getRank() != 4 || !isFloatLike(data.dtype))
    return args.fail("expected a 4-d (NCHW) float tensor, got " +
                     typeStr(args.getInput(0)));
  SmallVector<double> sizes, ratios;
  if (RelationStatus s = readAnchorShapes(args, "sizes", sizes, ratios);
      s != RelationStatus::Solved)
    return s;
  if (floatsAttr(args, "steps").size() != 2 ||
      floatsAttr(args, "offsets").size() != 2)
    return args.fail("steps and offsets must have 2 values (y, x)");
  Dim boxes = mulDims(data.product(2, 4),
                      Dim::of(int64_t(sizes.size() + ratios.size() - 1)));
  return args.solve(makeTensor(args.getContext(),
                               {Dim::of(1), boxes, Dim::of(4)}, data.dtype));
}

/// vision.multibox_transform_loc: cls_prob [B, C, N], loc_pred [B, N * 4]
/// and anchor [1, N, 4] of one float dtype give ([B, N, 6], [B] int32).
static RelationStatus multiboxTransformLocRelation(RelationArgs &args) {
  TensorInfo prob, loc, anchor;
  READ_TENSOR_OR_RETURN(args, 0, prob);
  READ_TENSOR_OR_RETURN(args, 1, loc);
  READ_TENSOR_OR_RETURN(args, 2, anchor);
  if (prob.getRank() != 3 || !isFloatLike(prob.dtype))
    return args.fail("expected class probabilities [B, C, N] (float), got " +
                     typeStr(args.getInput(0)));
  Dim batch = prob.dims[0], anchors = prob.dims[2];
  if (loc.getRank() != 2 || loc.dtype != prob.dtype ||
      failed(unifyDims(loc.dims[0], batch)) ||
      failed(unifyDims(loc.dims[1], mulDims(anchors, Dim::of(4)))))
    return args.fail(
        "expected location predictions [B, N * 4] (" + toString(batch) + " x " +
        toString(mulDims(anchors, Dim::of(4))) +
        ") of the probabilities' dtype, got " + typeStr(args.getInput(1)));
  if (anchor.getRank() != 3 || anchor.dtype != prob.dtype ||
      failed(unifyDims(anchor.dims[0], Dim::of(1))) ||
      failed(unifyDims(anchor.dims[1], anchors)) ||
      failed(unifyDims(anchor.dims[2], Dim::of(4))))
    return args.fail("expected anchors [1, N, 4] (N = " + toString(anchors) +
                     ") of the probabilities' dtype, got " +
                     typeStr(args.getInput(2)));
  auto variances =
      dyn_cast_or_null<DenseF64ArrayAttr>(args.getAttr("variances"));
  if (variances && variances.size() != 4)
    return args.fail("variances must have 4 values (x, y, w, h)");
  MLIRContext *ctx = args.getContext();
  Type boxes = makeTensor(ctx, {batch, anchors, Dim::of(6)}, prob.dtype);
  Type counts = makeTensor(ctx, {batch}, IntegerType::get(ctx, 32));
  return args.solve(TupleType::get(ctx, {boxes, counts}));
}

/// Whether elements `first` to `last` of boxes of `k` elements are not all
/// inside them.
static bool outsideBoxes(Dim k, int64_t first, int64_t last) {
  return first < 0 || (k.isStatic() && last >= k.size);
}

/// vision.get_valid_counts: data [B, N, K] (float) and a 0-d threshold
/// give ([B] int32, [B, N, K], [B, N] int32).
static RelationStatus getValidCountsRelation(RelationArgs &args) {
  TensorInfo data, threshold;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, threshold);
  if (data.getRank() != 3 || !isFloatLike(data.dtype))
    return args.fail("expected boxes [B, N, K] (float), got " +
                     typeStr(args.getInput(0)));
  if (threshold.getRank() != 0 || !isFloatLike(threshold.dtype))
    return args.fail("score_threshold must be a 0-d float tensor, got " +
                     typeStr(args.getInput(1)));
  int64_t score = args.getInt("score_index", 1),
          id = args.getInt("id_index", 0);
  Dim k = data.dims[2];
  if (outsideBoxes(k, score, score))
    return args.fail("score_index " + Twine(score) + " is not an element of " +
                     "boxes of " + toString(k));
  if (id >= 0 && outsideBoxes(k, id, id))
    return args.fail("id_index " + Twine(id) + " is not an element of " +
                     "boxes of " + toString(k));
  MLIRContext *ctx = args.getContext();
  Type i32 = IntegerType::get(ctx, 32);
  return args.solve(TupleType::get(
      ctx, {makeTensor(ctx, {data.dims[0]}, i32), args.getInput(0),
            makeTensor(ctx, {data.dims[0], data.dims[1]}, i32)}));
}

/// vision.non_max_suppression: data [B, N, K] (float), valid_count [B]
/// and indices [B, N] (integers), 0-d max_output_size (integer) and
/// iou_threshold (float) give ([B, N] int32, [B, 1] int32) with
/// return_indices, else the data's type.
static RelationStatus nonMaxSuppressionRelation(RelationArgs &args) {
  TensorInfo data, count, indices, maxOut, iou;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, count);
  READ_TENSOR_OR_RETURN(args, 2, indices);
  READ_TENSOR_OR_RETURN(args, 3, maxOut);
  READ_TENSOR_OR_RETURN(args, 4, iou);
  if (data.getRank() != 3 || !isFloatLike(data.dtype))
    return args.fail("expected boxes [B, N, K] (float), got " +
                     typeStr(args.getInput(0)));
  if (count.getRank() != 1 || !isa<IntegerType>(count.dtype) ||
      failed(unifyDims(count.dims[0], data.dims[0])))
    return args.fail("valid_count must be a [B] integer tensor of the "
                     "boxes' batch, got " +
                     typeStr(args.getInput(1)));
  if (indices.getRank() != 2 || !isa<IntegerType>(indices.dtype) ||
      failed(unifyDims(indices.dims[0], data.dims[0])) ||
      failed(unifyDims(indices.dims[1], data.dims[1])))
    return args.fail("indices must be a [B, N] integer tensor of the boxes' "
                     "batch and count, got " +
                     typeStr(args.getInput(2)));
  if (maxOut.getRank() != 0 || !isa<IntegerType>(maxOut.dtype))
    return args.fail("max_output_size must be a 0-d integer tensor, got " +
                     typeStr(args.getInput(3)));
  if (iou.getRank() != 0 || !isFloatLike(iou.dtype))
    return args.fail("iou_threshold must be a 0-d float tensor, got " +
                     typeStr(args.getInput(4)));
  Dim k = data.dims[2];
  int64_t score = args.getInt("score_index", 1),
          id = args.getInt("id_index", 0),
          coords = args.getInt("coord_start", 2);
  if (outsideBoxes(k, score, score))
    return args.fail("score_index " + Twine(score) +
                     " is not an element of boxes of " + toString(k));
  if (id >= 0 && outsideBoxes(k, id, id))
    return args.fail("id_index " + Twine(id) +
                     " is not an element of boxes of " + toString(k));
  if (outsideBoxes(k, coords, coords + 3))
    return args.fail("coord_start " + Twine(coords) +
                     ": the 4 coordinates are not elements of boxes of " +
                     toString(k));
  if (!args.getBool("return_indices", true))
    return args.solve(args.getInput(0));
  MLIRContext *ctx = args.getContext();
  Type i32 = IntegerType::get(ctx, 32);
  return args.solve(
      TupleType::get(ctx, {makeTensor(ctx, {data.dims[0], data.dims[1]}, i32),
                           makeTensor(ctx, {data.dims[0], Dim::of(1)}, i32)}));
}

/// vision.proposal: cls_prob [B, 2A, H, W], bbox_pred [B, 4A, H, W] and
/// im_info [B, 3] of one float dtype (A = |scales| * |ratios|) give
/// [B * rpn_post_nms_top_n, 5].
static RelationStatus proposalRelation(RelationArgs &args) {
  TensorInfo prob, deltas, info;
  READ_TENSOR_OR_RETURN(args, 0, prob);
  READ_TENSOR_OR_RETURN(args, 1, deltas);
  READ_TENSOR_OR_RETURN(args, 2, info);
  SmallVector<double> scales, ratios;
  if (RelationStatus s = readAnchorShapes(args, "scales", scales, ratios);
      s != RelationStatus::Solved)
    return s;
  if (args.getInt("feature_stride", 16) <= 0)
    return args.fail("feature_stride must be positive, got " +
                     Twine(args.getInt("feature_stride", 16)));
  int64_t post = args.getInt("rpn_post_nms_top_n", 300);
  if (post <= 0)
    return args.fail("rpn_post_nms_top_n must be positive, got " + Twine(post));
  if (args.getInt("rpn_min_size", 16) < 0)
    return args.fail("rpn_min_size must not be negative, got " +
                     Twine(args.getInt("rpn_min_size", 16)));
  int64_t anchors = int64_t(scales.size() * ratios.size());
  if (prob.getRank() != 4 || !isFloatLike(prob.dtype) ||
      failed(unifyDims(prob.dims[1], Dim::of(2 * anchors))))
    return args.fail("expected class probabilities [B, " + Twine(2 * anchors) +
                     ", H, W] (float; two scores for each of |scales| * "
                     "|ratios| anchors), got " +
                     typeStr(args.getInput(0)));
  if (deltas.getRank() != 4 || deltas.dtype != prob.dtype ||
      failed(unifyDims(deltas.dims[0], prob.dims[0])) ||
      failed(unifyDims(deltas.dims[1], Dim::of(4 * anchors))) ||
      failed(unifyDims(deltas.dims[2], prob.dims[2])) ||
      failed(unifyDims(deltas.dims[3], prob.dims[3])))
    return args.fail("expected box deltas [" + toString(prob.dims[0]) + ", " +
                     Twine(4 * anchors) + ", " + toString(prob.dims[2]) + ", " +
                     toString(prob.dims[3]) +
                     "] of the probabilities' dtype, got " +
                     typeStr(args.getInput(1)));
  if (info.getRank() != 2 || info.dtype != prob.dtype ||
      failed(unifyDims(info.dims[0], prob.dims[0])) ||
      failed(unifyDims(info.dims[1], Dim::of(3))))
    return args.fail("expected image info [" + toString(prob.dims[0]) +
                     ", 3] (height, width, scale) of the probabilities' "
                     "dtype, got " +
                     typeStr(args.getInput(2)));
  Dim rows = mulDims(prob.dims[0], Dim::of(post));
  if (rows.isStatic() && rows.size / post != prob.dims[0].size)
    return args.fail("the result's " + toString(prob.dims[0]) + " * " +
                     Twine(post) +
                     " rows (images * rpn_post_nms_top_n) overflow 64-bit "
                     "sizes");
  return args.solve(
      makeTensor(args.getContext(), {rows, Dim::of(5)}, prob.dtype));
}

void mlir::relay::registerDetectionRelations() {
  registerTypeRelation("MultiboxPrior", multiboxPriorRelation);
  registerTypeRelation("MultiboxTransformLoc", multiboxTransformLocRelation);
  registerTypeRelation("GetValidCounts", getValidCountsRelation);
  registerTypeRelation("NonMaxSuppression", nonMaxSuppressionRelation);
  registerTypeRelation("Proposal", proposalRelation);
}

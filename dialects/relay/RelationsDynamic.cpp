//===- RelationsDynamic.cpp - Relations of shapes from values ---*- C++ -*-===//
//
// The relations of the operators whose result shape depends on operand
// values (RelayDynamicOperators.td): they check the operands' kinds and
// give the rank, dtype and whatever the types say; the sizes the values
// decide are `?`.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;

/// Reads input #i as a tensor that must be an integer vector (a shape,
/// repetitions, slice bounds): its length in `length` (`?` when unknown).
static TensorState readIntVector(RelationArgs &args, unsigned i, StringRef what,
                                 Dim &length) {
  TensorInfo info;
  TensorState state = readInputTensor(args, i, info);
  if (state != TensorState::Tensor)
    return state;
  if (info.getRank() != 1 || !isa<IntegerType>(info.dtype)) {
    args.emitError() << what << " (operand #" << i
                     << ") must be a 1-D integer tensor, got "
                     << args.getInput(i);
    return TensorState::NotATensor;
  }
  length = info.dims[0];
  return state;
}

/// Reads input #i as a scalar of an integer (or, `allowFloat`, any
/// numeric) dtype.
static TensorState readScalar(RelationArgs &args, unsigned i, StringRef what,
                              TensorInfo &info, bool allowFloat) {
  TensorState state = readInputTensor(args, i, info);
  if (state != TensorState::Tensor)
    return state;
  bool numeric = isa<IntegerType>(info.dtype) ||
                 (allowFloat && isa<FloatType>(info.dtype));
  // A one-element vector is taken as TVM's importers pass them.
  bool scalar = info.getRank() == 0 ||
                (info.getRank() == 1 && info.dims[0] == Dim::of(1));
  if (!scalar || !numeric) {
    args.emitError() << what << " (operand #" << i << ") must be a"
                     << (allowFloat ? " numeric" : "n integer")
                     << " scalar, got " << args.getInput(i);
    return TensorState::NotATensor;
  }
  return state;
}

/// Returns Pending or Failed for a state that is not Tensor.
#define RETURN_UNLESS_TENSOR(state)                                            \
  do {                                                                         \
    if ((state) == TensorState::Unknown)                                       \
      return RelationStatus::Pending;                                          \
    if ((state) == TensorState::NotATensor)                                    \
      return RelationStatus::Failed;                                           \
  } while (false)

/// Reads input #i as an integer vector giving the result's sizes (a shape,
/// repetitions): one `?` dimension per element, its length known.
static TensorState readAnyDims(RelationArgs &args, unsigned i, StringRef what,
                               SmallVectorImpl<Dim> &dims) {
  Dim length;
  TensorState state = readIntVector(args, i, what, length);
  if (state != TensorState::Tensor)
    return state;
  if (!length.isStatic()) {
    args.emitError() << what
                     << " must have a static length (it gives the "
                        "result's rank)";
    return TensorState::NotATensor;
  }
  dims.assign(length.size, Dim::any());
  return state;
}

/// dyn.reshape(data, newshape): as many `?` dimensions as newshape has
/// elements.
static RelationStatus dynReshapeRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  SmallVector<Dim> dims;
  RETURN_UNLESS_TENSOR(readAnyDims(args, 1, "newshape", dims));
  return args.solve(makeTensor(args.getContext(), dims, data.dtype));
}

/// dyn.full(fill_value, shape): `dtype` or the fill value's.
static RelationStatus dynFullRelation(RelationArgs &args) {
  TensorInfo fill;
  TensorState state = readInputTensor(args, 0, fill);
  if (state == TensorState::NotATensor)
    return RelationStatus::Failed;
  if (state == TensorState::Tensor && fill.getRank() != 0)
    return args.fail("fill_value must be a scalar, got " +
                     typeStr(args.getInput(0)));
  SmallVector<Dim> dims;
  RETURN_UNLESS_TENSOR(readAnyDims(args, 1, "shape", dims));
  Type dtype = args.getDtype("dtype");
  if (!dtype) {
    if (state == TensorState::Unknown)
      return RelationStatus::Pending;
    dtype = fill.dtype;
  }
  return args.solve(makeTensor(args.getContext(), dims, dtype));
}

/// dyn.zeros / dyn.ones (shape): `dtype` (float32 by default).
static RelationStatus dynInitRelation(RelationArgs &args) {
  SmallVector<Dim> dims;
  RETURN_UNLESS_TENSOR(readAnyDims(args, 0, "shape", dims));
  Type dtype = args.getDtype("dtype");
  return args.solve(
      makeTensor(args.getContext(), dims,
                 dtype ? dtype : Float32Type::get(args.getContext())));
}

/// dyn.broadcast_to(data, shape): the data's dtype, as many `?` dimensions
/// as the shape has elements (at least the data's rank).
static RelationStatus dynBroadcastToRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  SmallVector<Dim> dims;
  RETURN_UNLESS_TENSOR(readAnyDims(args, 1, "shape", dims));
  if (int64_t(dims.size()) < data.getRank())
    return args.fail("a shape of " + Twine(dims.size()) +
                     " dimensions cannot hold the data's " +
                     Twine(data.getRank()));
  return args.solve(makeTensor(args.getContext(), dims, data.dtype));
}

/// dyn.topk(data, k): topk's result with the axis `?` long.
static RelationStatus dynTopKRelation(RelationArgs &args) {
  TensorInfo data, k;
  READ_TENSOR_OR_RETURN(args, 0, data);
  RETURN_UNLESS_TENSOR(readScalar(args, 1, "k", k, /*allowFloat=*/false));
  FailureOr<int64_t> axis =
      normalizeAxis(args, args.getInt("axis", -1), data.getRank());
  if (failed(axis))
    return RelationStatus::Failed;
  Type indexType = args.getDtype("dtype");
  if (!indexType)
    indexType = IntegerType::get(args.getContext(), 32);
  if (!isa<IntegerType>(indexType))
    return args.fail("dtype must be an integer type");
  SmallVector<Dim> dims = data.dims;
  dims[*axis] = Dim::any();
  Type values = makeTensor(args.getContext(), dims, data.dtype);
  Type indices = makeTensor(args.getContext(), dims, indexType);
  return solveTopKResult(args, values, indices);
}

/// dyn.tile(data, reps): rank max(data's, reps' length), every size `?`.
static RelationStatus dynTileRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  SmallVector<Dim> dims;
  RETURN_UNLESS_TENSOR(readAnyDims(args, 1, "reps", dims));
  dims.resize(std::max<int64_t>(dims.size(), data.getRank()), Dim::any());
  return args.solve(makeTensor(args.getContext(), dims, data.dtype));
}

/// dyn.strided_slice(data, begin, end, strides): data's rank, the sliced
/// axes `?` (every axis, the bounds' lengths not being known), the
/// bounds at most one per axis.
static RelationStatus dynStridedSliceRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  const char *names[] = {"begin", "end", "strides"};
  SmallVector<Dim> lengths(3);
  for (unsigned i = 1; i <= 3; ++i) {
    RETURN_UNLESS_TENSOR(readIntVector(args, i, names[i - 1], lengths[i - 1]));
    if (lengths[i - 1].isStatic() && lengths[i - 1].size > data.getRank())
      return args.fail(
          Twine(names[i - 1]) + " has " + Twine(lengths[i - 1].size) +
          " entries, more than the data's rank " + Twine(data.getRank()));
  }
  StringRef mode = args.getString("slice_mode", "end");
  if (mode != "end" && mode != "size")
    return args.fail("slice_mode must be end or size, got '" + mode + "'");
  SmallVector<Dim> dims = data.dims;
  // Axes past the bounds' (static) length are kept whole.
  int64_t sliced = lengths[0].isStatic() ? lengths[0].size : data.getRank();
  for (int64_t d = 0; d < sliced; ++d)
    dims[d] = Dim::any();
  return args.solve(makeTensor(args.getContext(), dims, data.dtype));
}

/// arange(start, stop, step): a vector of `?` elements of `dtype` (the
/// start's when absent).
static RelationStatus arangeRelation(RelationArgs &args) {
  const char *names[] = {"start", "stop", "step"};
  TensorInfo start;
  for (unsigned i = 0; i < 3; ++i) {
    TensorInfo info;
    RETURN_UNLESS_TENSOR(
        readScalar(args, i, names[i], info, /*allowFloat=*/true));
    if (i == 0)
      start = info;
  }
  Type dtype = args.getDtype("dtype");
  if (!dtype)
    dtype = start.dtype;
  if (!isa<IntegerType, FloatType>(dtype))
    return args.fail("dtype must be an integer or float type");
  return args.solve(makeTensor(args.getContext(), {Dim::any()}, dtype));
}

/// vision.all_class_non_max_suppression: ((batch * classes * boxes, 3)
/// int64, (1) int64) for boxes (batch, boxes, 4) and scores (batch,
/// classes, boxes).
static RelationStatus allClassNmsRelation(RelationArgs &args) {
  TensorInfo boxes, scores;
  READ_TENSOR_OR_RETURN(args, 0, boxes);
  READ_TENSOR_OR_RETURN(args, 1, scores);
  if (boxes.getRank() != 3 || failed(unifyDims(boxes.dims[2], Dim::of(4))) ||
      !isa<FloatType>(boxes.dtype))
    return args.fail("boxes must be float (batch, boxes, 4), got " +
                     typeStr(args.getInput(0)));
  if (scores.getRank() != 3 || scores.dtype != boxes.dtype)
    return args.fail("scores must be (batch, classes, boxes) of the boxes' "
                     "dtype, got " +
                     typeStr(args.getInput(1)));
  FailureOr<Dim> batch = unifyDims(boxes.dims[0], scores.dims[0]);
  FailureOr<Dim> count = unifyDims(boxes.dims[1], scores.dims[2]);
  if (failed(batch) || failed(count))
    return args.fail("boxes " + typeStr(args.getInput(0)) + " and scores " +
                     typeStr(args.getInput(1)) +
                     " disagree on the batch or the number of boxes");
  TensorInfo scalar;
  RETURN_UNLESS_TENSOR(readScalar(args, 2, "max_output_boxes_per_class", scalar,
                                  /*allowFloat=*/false));
  RETURN_UNLESS_TENSOR(
      readScalar(args, 3, "iou_threshold", scalar, /*allowFloat=*/true));
  RETURN_UNLESS_TENSOR(
      readScalar(args, 4, "score_threshold", scalar, /*allowFloat=*/true));
  if (args.getString("output_format", "onnx") != "onnx")
    return args.fail("output_format must be onnx (TVM's tensorflow form is "
                     "not supported)");
  MLIRContext *ctx = args.getContext();
  Type i64 = IntegerType::get(ctx, 64);
  Dim rows = mulDims(mulDims(*batch, scores.dims[1]), *count);
  Type indices = makeTensor(ctx, {rows, Dim::of(3)}, i64);
  Type total = makeTensor(ctx, {Dim::of(1)}, i64);
  return args.solve(TupleType::get(ctx, {indices, total}));
}

/// dyn.nn.pad(data, pad_width, pad_value): the data's rank and dtype,
/// every size `?`; pad_width a (rank, 2) integer tensor.
static RelationStatus dynPadRelation(RelationArgs &args) {
  TensorInfo data, width, value;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, width);
  if (width.getRank() != 2 || !isa<IntegerType>(width.dtype) ||
      failed(unifyDims(width.dims[0], Dim::of(data.getRank()))) ||
      failed(unifyDims(width.dims[1], Dim::of(2))))
    return args.fail("pad_width (operand #1) must be a (" +
                     Twine(data.getRank()) +
                     ", 2) integer tensor, a (before, after) row per axis of "
                     "the data, got " +
                     typeStr(args.getInput(1)));
  RETURN_UNLESS_TENSOR(
      readScalar(args, 2, "pad_value", value, /*allowFloat=*/true));
  StringRef mode = args.getString("pad_mode", "constant");
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    return args.fail("pad_mode must be \"constant\", \"edge\" or "
                     "\"reflect\", got \"" +
                     mode + "\"");
  SmallVector<Dim> dims(data.getRank(), Dim::any());
  return args.solve(makeTensor(args.getContext(), dims, data.dtype));
}

/// dyn.squeeze(data, axes): the data's rank less the axes' (static)
/// number, every size `?`.
static RelationStatus dynSqueezeRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  Dim count;
  RETURN_UNLESS_TENSOR(readIntVector(args, 1, "axes", count));
  if (!count.isStatic())
    return args.fail("axes must have a static length (it gives the result's "
                     "rank)");
  if (count.size > data.getRank())
    return args.fail("cannot squeeze " + Twine(count.size) +
                     " axes of a rank-" + Twine(data.getRank()) + " tensor");
  SmallVector<Dim> dims(data.getRank() - count.size, Dim::any());
  return args.solve(makeTensor(args.getContext(), dims, data.dtype));
}

/// dyn.expand_dims(data, axis): rank + num_newaxis, every size `?`.
static RelationStatus dynExpandDimsRelation(RelationArgs &args) {
  TensorInfo data, axis;
  READ_TENSOR_OR_RETURN(args, 0, data);
  RETURN_UNLESS_TENSOR(readScalar(args, 1, "axis", axis, /*allowFloat=*/false));
  int64_t added = args.getInt("num_newaxis", 1);
  if (added < 0)
    return args.fail("num_newaxis must not be negative, got " + Twine(added));
  SmallVector<Dim> dims(data.getRank() + added, Dim::any());
  return args.solve(makeTensor(args.getContext(), dims, data.dtype));
}

/// dyn.one_hot(indices, on_value, off_value, depth): one_hot's result with
/// the new axis `?` long.
static RelationStatus dynOneHotRelation(RelationArgs &args) {
  TensorInfo indices, on, off, depth;
  READ_TENSOR_OR_RETURN(args, 0, indices);
  READ_TENSOR_OR_RETURN(args, 1, on);
  READ_TENSOR_OR_RETURN(args, 2, off);
  if (!isa<IntegerType>(indices.dtype))
    return args.fail("expected integer indices, got " +
                     typeStr(args.getInput(0)));
  if (on.getRank() != 0 || off.getRank() != 0)
    return args.fail("on_value and off_value must be scalars");
  RETURN_UNLESS_TENSOR(
      readScalar(args, 3, "depth", depth, /*allowFloat=*/false));
  Type dtype = args.getDtype("dtype");
  if (!dtype)
    return args.fail("requires a 'dtype' attribute");
  FailureOr<int64_t> axis =
      normalizeAxis(args, args.getInt("axis", -1), indices.getRank() + 1);
  if (failed(axis))
    return RelationStatus::Failed;
  SmallVector<Dim> dims = indices.dims;
  dims.insert(dims.begin() + *axis, Dim::any());
  return args.solve(makeTensor(args.getContext(), dims, dtype));
}

/// dyn.sparse_to_dense(sparse_indices, sparse_values, default_value,
/// output_shape): the values' dtype, one `?` axis per element of
/// output_shape; the indices [N, rank], [N] or 0-d (rank 1).
static RelationStatus dynSparseToDenseRelation(RelationArgs &args) {
  TensorInfo indices, values, fill;
  READ_TENSOR_OR_RETURN(args, 0, indices);
  READ_TENSOR_OR_RETURN(args, 1, values);
  READ_TENSOR_OR_RETURN(args, 2, fill);
  SmallVector<Dim> dims;
  RETURN_UNLESS_TENSOR(readAnyDims(args, 3, "output_shape", dims));
  if (failed(
          checkSparseToDenseOperands(args, indices, values, fill, dims.size())))
    return RelationStatus::Failed;
  return args.solve(makeTensor(args.getContext(), dims, values.dtype));
}

/// dyn.nn.upsampling(data, scale_h, scale_w) and dyn.nn.upsampling3d(data,
/// scale_d, scale_h, scale_w): the data's type with the scaled axes `?`.
static RelationStatus dynUpSamplingRelation(RelationArgs &args, bool is3d) {
  if (!is3d && isPackedLayout(args.getString("layout", "NCHW")))
    return solveUnpacked(args, "DynUpSampling", "upsampling",
                         {{0, "layout", "NCHW", "NCHW", "data"}});
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  FailureOr<StringRef> layout = checkUpsamplingAttrs(args, data, is3d);
  if (failed(layout))
    return RelationStatus::Failed;
  static const char *const names[] = {"scale_d", "scale_h", "scale_w"};
  unsigned scales = is3d ? 3 : 2;
  for (unsigned i = 1; i <= scales; ++i) {
    TensorInfo scale;
    RETURN_UNLESS_TENSOR(readScalar(args, i, names[i - 1 + (3 - scales)], scale,
                                    /*allowFloat=*/true));
  }
  SmallVector<Dim> dims = data.dims;
  for (char axis : StringRef(is3d ? "DHW" : "HW"))
    dims[layout->find(axis)] = Dim::any();
  return args.solve(makeTensor(args.getContext(), dims, data.dtype));
}

void mlir::relay::registerDynamicRelations() {
  registerTypeRelation("DynReshape", dynReshapeRelation);
  registerTypeRelation("DynFull", dynFullRelation);
  registerTypeRelation("DynInit", dynInitRelation);
  registerTypeRelation("DynBroadcastTo", dynBroadcastToRelation);
  registerTypeRelation("DynTopK", dynTopKRelation);
  registerTypeRelation("DynTile", dynTileRelation);
  registerTypeRelation("DynStridedSlice", dynStridedSliceRelation);
  registerTypeRelation("Arange", arangeRelation);
  registerTypeRelation("AllClassNonMaxSuppression", allClassNmsRelation);
  registerTypeRelation("DynPad", dynPadRelation);
  registerTypeRelation("DynSqueeze", dynSqueezeRelation);
  registerTypeRelation("DynExpandDims", dynExpandDimsRelation);
  registerTypeRelation("DynOneHot", dynOneHotRelation);
  registerTypeRelation("DynSparseToDense", dynSparseToDenseRelation);
  registerTypeRelation("DynUpSampling", [](RelationArgs &args) {
    return dynUpSamplingRelation(args, /*is3d=*/false);
  });
  registerTypeRelation("DynUpSampling3D", [](RelationArgs &args) {
    return dynUpSamplingRelation(args, /*is3d=*/true);
  });
}

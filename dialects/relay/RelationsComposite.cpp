//===- RelationsComposite.cpp - Composite operators' relations --*- C++ -*-===//
//
// The relations of the operators --relay-decompose rewrites into primitive
// ones (the last section of RelayOperators.td): elementwise tests, the
// `*_like` operators, reverse, tile, repeat, l2_normalize, one_hot, cumsum,
// depth_to_space, space_to_depth, topk, argsort, sort, shape_of,
// ndarray_size, mirror_pad, image.resize1d/2d/3d, image.grid_sample,
// image.affine_grid, vision.roi_align and vision.roi_pool.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/EinsumEquation.h"
#include "dialects/relay/RelationUtils.h"
#include "dialects/relay/ResizeSampling.h"
#include "dialects/relay/TypeRelations.h"

#include <map>

using namespace mlir;
using namespace mlir::relay;

/// isnan, isinf, isfinite: a float tensor's shape, bool elements.
static RelationStatus identityToBoolRelation(RelationArgs &args) {
  TensorInfo info;
  READ_TENSOR_OR_RETURN(args, 0, info);
  if (!isFloatLike(info.dtype))
    return args.fail("expected a float tensor, got " +
                     typeStr(args.getInput(0)));
  return args.solve(makeTensor(args.getContext(), info.dims,
                               IntegerType::get(args.getContext(), 1)));
}

/// The operand's type, with an `axis` that must exist.
static RelationStatus axisIdentityRelation(RelationArgs &args) {
  TensorInfo info;
  READ_TENSOR_OR_RETURN(args, 0, info);
  if (failed(normalizeAxis(args, args.getInt("axis", 0), info.getRank())))
    return RelationStatus::Failed;
  return args.solve(args.getInput(0));
}

/// cast_like: the data's shape with the second operand's dtype.
static RelationStatus castLikeRelation(RelationArgs &args) {
  TensorInfo data, like;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, like);
  return args.solve(makeTensor(args.getContext(), data.dims, like.dtype));
}

/// Whether `from` broadcasts to `to` (numpy rules, aligned at the end);
/// unknown sizes are assumed to.
static bool broadcastsTo(const TensorInfo &from, const TensorInfo &to) {
  if (from.getRank() > to.getRank())
    return false;
  int64_t offset = to.getRank() - from.getRank();
  for (int64_t i = 0; i < from.getRank(); ++i) {
    const Dim &f = from.dims[i], &t = to.dims[i + offset];
    if (f.isStatic() && f.size != 1 && t.isStatic() && f.size != t.size)
      return false;
  }
  return true;
}

/// broadcast_to_like (data broadcast to the second shape) and
/// collapse_sum_like (the second shape broadcasts to the data's): the
/// second operand's shape with the data's dtype.
static RelationStatus likeShapeRelation(RelationArgs &args, bool collapse) {
  TensorInfo data, like;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, like);
  if (!(collapse ? broadcastsTo(like, data) : broadcastsTo(data, like)))
    return args.fail(
        Twine(collapse ? "cannot collapse " : "cannot broadcast ") +
        typeStr(args.getInput(0)) + " to the shape of " +
        typeStr(args.getInput(1)));
  return args.solve(makeTensor(args.getContext(), like.dims, data.dtype));
}

/// collapse_sum_to: (data, shape) -> data summed to `shape` (the attribute;
/// sizes unknown until run time without it).
static RelationStatus collapseSumToRelation(RelationArgs &args) {
  TensorInfo data, target;
  READ_TENSOR_OR_RETURN(args, 0, data);
  if (RelationStatus s = readIntegerVector(args, 1, target, "the shape");
      s != RelationStatus::Solved)
    return s;
  std::optional<SmallVector<int64_t>> shape = args.getOptionalInts("shape");
  if (!shape) {
    if (!target.dims[0].isStatic())
      return args.fail("needs the rank of the result: a shape attribute or "
                       "a shape tensor of static length");
    if (target.dims[0].size > data.getRank())
      return args.fail("cannot collapse " + typeStr(args.getInput(0)) + " to " +
                       Twine(target.dims[0].size) + " dimensions");
    return args.solve(makeTensor(
        args.getContext(), SmallVector<Dim>(target.dims[0].size), data.dtype));
  }
  if (target.dims[0].isStatic() &&
      target.dims[0].size != static_cast<int64_t>(shape->size()))
    return args.fail("the shape attribute has " + Twine(shape->size()) +
                     " values but the shape tensor " +
                     typeStr(args.getInput(1)) + " has " +
                     Twine(target.dims[0].size));
  TensorInfo to;
  for (int64_t s : *shape) {
    if (s < 0)
      return args.fail("shape sizes must not be negative");
    to.dims.push_back(Dim::of(s));
  }
  to.dtype = data.dtype;
  if (!broadcastsTo(to, data))
    return args.fail(
        "cannot collapse " + typeStr(args.getInput(0)) + " to the shape (" +
        llvm::join(llvm::map_range(*shape,
                                   [](int64_t s) { return std::to_string(s); }),
                   ", ") +
        ")");
  return args.solve(makeTensor(args.getContext(), to.dims, data.dtype));
}

/// adv_index: (data, i0, ..., ik-1) -> the indices' broadcast shape, then
/// data's axes from k on.
static RelationStatus advIndexRelation(RelationArgs &args) {
  SmallVector<TensorInfo> fields;
  if (RelationStatus s = readTensorTuple(args, fields, /*sameDtype=*/false);
      s != RelationStatus::Solved)
    return s;
  if (fields.size() < 2)
    return args.fail("expected a tuple of the data and at least one index "
                     "tensor, got " +
                     typeStr(args.getInput(0)));
  const TensorInfo &data = fields.front();
  int64_t k = fields.size() - 1;
  if (k > data.getRank())
    return args.fail(Twine(k) + " index tensors for data of rank " +
                     Twine(data.getRank()));
  SmallVector<Dim> shape;
  for (int64_t i = 1; i <= k; ++i) {
    auto dtype = dyn_cast<IntegerType>(fields[i].dtype);
    if (!dtype || dtype.getWidth() == 1)
      return args.fail("index " + Twine(i - 1) +
                       " must be an integer tensor, got " +
                       typeStr(cast<TupleType>(args.getInput(0)).getType(i)));
    FailureOr<SmallVector<Dim>> joined = broadcastDims(shape, fields[i].dims);
    if (failed(joined))
      return args.fail("the index tensors do not broadcast together: " +
                       typeStr(args.getInput(0)));
    shape = *joined;
  }
  shape.append(data.dims.begin() + k, data.dims.end());
  return args.solve(makeTensor(args.getContext(), shape, data.dtype));
}

/// TVM's annotations: the identity on a tensor or a tuple of tensors.
static RelationStatus annotationRelation(RelationArgs &args) {
  Type input = args.getInput(0);
  if (isa<TupleType>(input)) {
    SmallVector<TensorInfo> fields;
    if (RelationStatus s = readTensorTuple(args, fields, /*sameDtype=*/false);
        s != RelationStatus::Solved)
      return s;
    return args.solve(input);
  }
  TensorInfo info;
  READ_TENSOR_OR_RETURN(args, 0, info);
  return args.solve(input);
}

/// TVM's device annotations (on_device, device_copy): the identity on a
/// value of any type (a closure, a reference, a list too), as TVM's.
static RelationStatus deviceAnnotationRelation(RelationArgs &args) {
  auto known = [](Type type) {
    bool incomplete = false;
    type.walk([&](IncompleteType) { incomplete = true; });
    return !incomplete;
  };
  Type input = args.getInput(0), output = args.getOutput();
  if (!known(input) && known(output))
    return succeeded(args.assignInput(0, output)) ? RelationStatus::Solved
                                                  : RelationStatus::Failed;
  if (failed(args.assignOutput(input)))
    return RelationStatus::Failed;
  return known(input) ? RelationStatus::Solved : RelationStatus::Pending;
}

/// tile: numpy.tile's shape.
static RelationStatus tileRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  std::optional<SmallVector<int64_t>> reps = args.getOptionalInts("reps");
  if (!reps)
    return args.fail("requires a 'reps' attribute");
  for (int64_t r : *reps)
    if (r < 1)
      return args.fail("reps must be positive, got " + Twine(r));
  int64_t rank = std::max<int64_t>(data.getRank(), reps->size());
  SmallVector<Dim> dims(rank - data.getRank(), Dim::of(1));
  dims.append(data.dims.begin(), data.dims.end());
  SmallVector<int64_t> padded(rank - reps->size(), 1);
  padded.append(reps->begin(), reps->end());
  for (int64_t i = 0; i < rank; ++i)
    dims[i] = mulDims(dims[i], Dim::of(padded[i]));
  return args.solve(makeTensor(args.getContext(), dims, data.dtype));
}

/// repeat: `axis` grows `repeats` times.
static RelationStatus repeatRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  std::optional<int64_t> repeats = args.getOptionalInt("repeats");
  if (!repeats || *repeats < 1)
    return args.fail("requires a positive 'repeats' attribute");
  FailureOr<int64_t> axis =
      normalizeAxis(args, args.getInt("axis", 0), data.getRank());
  if (failed(axis))
    return RelationStatus::Failed;
  data.dims[*axis] = mulDims(data.dims[*axis], Dim::of(*repeats));
  return args.solve(makeTensor(args.getContext(), data.dims, data.dtype));
}

/// l2_normalize: a float tensor's type; every axis must exist.
static RelationStatus l2NormalizeRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  if (!isFloatLike(data.dtype))
    return args.fail("expected a float tensor, got " +
                     typeStr(args.getInput(0)));
  if (std::optional<SmallVector<int64_t>> axes = args.getOptionalInts("axis"))
    for (int64_t a : *axes)
      if (failed(normalizeAxis(args, a, data.getRank())))
        return RelationStatus::Failed;
  return args.solve(args.getInput(0));
}

/// one_hot: the indices' shape with `depth` inserted at `axis`; on_value
/// and off_value are scalars.
static RelationStatus oneHotRelation(RelationArgs &args) {
  TensorInfo indices, on, off;
  READ_TENSOR_OR_RETURN(args, 0, indices);
  READ_TENSOR_OR_RETURN(args, 1, on);
  READ_TENSOR_OR_RETURN(args, 2, off);
  if (!isa<IntegerType>(indices.dtype))
    return args.fail("expected integer indices, got " +
                     typeStr(args.getInput(0)));
  if (on.getRank() != 0 || off.getRank() != 0)
    return args.fail("on_value and off_value must be scalars");
  int64_t depth = args.getInt("depth", 0);
  if (depth <= 0)
    return args.fail("depth must be positive, got " + Twine(depth));
  Type dtype = args.getDtype("dtype");
  if (!dtype)
    return args.fail("requires a 'dtype' attribute");
  FailureOr<int64_t> axis =
      normalizeAxis(args, args.getInt("axis", -1), indices.getRank() + 1);
  if (failed(axis))
    return RelationStatus::Failed;
  SmallVector<Dim> dims = indices.dims;
  dims.insert(dims.begin() + *axis, Dim::of(depth));
  return args.solve(makeTensor(args.getContext(), dims, dtype));
}

/// cumsum and cumprod: the data's shape (flattened without an axis), `dtype` or
/// the data's.
static RelationStatus cumsumRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  Type dtype = args.getDtype("dtype");
  if (!dtype)
    dtype = data.dtype;
  if (std::optional<int64_t> axis = args.getOptionalInt("axis")) {
    if (failed(normalizeAxis(args, *axis, data.getRank())))
      return RelationStatus::Failed;
    return args.solve(makeTensor(args.getContext(), data.dims, dtype));
  }
  return args.solve(
      makeTensor(args.getContext(), {data.product(0, data.getRank())}, dtype));
}

/// depth_to_space and space_to_depth on NCHW data.
static RelationStatus blockMoveRelation(RelationArgs &args, bool toSpace) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  if (data.getRank() != 4)
    return args.fail("expected a 4-d (NCHW) tensor, got " +
                     typeStr(args.getInput(0)));
  if (auto layout = dyn_cast_or_null<StringAttr>(args.getAttr("layout"));
      layout && layout.getValue() != "NCHW")
    return args.fail("layout '" + layout.getValue() +
                     "' is not supported (only NCHW)");
  if (auto mode = dyn_cast_or_null<StringAttr>(args.getAttr("mode"));
      mode && mode.getValue() != "DCR" && mode.getValue() != "CRD")
    return args.fail("mode must be DCR or CRD, got '" + mode.getValue() + "'");
  int64_t b = args.getInt("block_size", 0);
  if (b <= 0)
    return args.fail("block_size must be positive, got " + Twine(b));
  SmallVector<Dim> dims = data.dims;
  auto divide = [&](Dim d, int64_t by, StringRef what) -> FailureOr<Dim> {
    if (!d.isStatic())
      return Dim::any();
    if (d.size % by != 0) {
      args.emitError() << "the " << what << " (" << d.size
                       << ") must be a multiple of " << by;
      return failure();
    }
    return Dim::of(d.size / by);
  };
  if (toSpace) {
    FailureOr<Dim> c =
        divide(dims[1], mulDims(Dim::of(b), Dim::of(b)).size, "channels");
    if (failed(c))
      return RelationStatus::Failed;
    dims = {dims[0], *c, mulDims(dims[2], Dim::of(b)),
            mulDims(dims[3], Dim::of(b))};
  } else {
    FailureOr<Dim> h = divide(dims[2], b, "height");
    FailureOr<Dim> w = divide(dims[3], b, "width");
    if (failed(h) || failed(w))
      return RelationStatus::Failed;
    dims = {dims[0], mulDims(mulDims(dims[1], Dim::of(b)), Dim::of(b)), *h, *w};
  }
  return args.solve(makeTensor(args.getContext(), dims, data.dtype));
}

/// The `dtype` of indices and sizes: an integer type, int32 when absent.
static FailureOr<Type> indexDtype(RelationArgs &args) {
  Type dtype = args.getDtype("dtype");
  if (!dtype)
    return Type(IntegerType::get(args.getContext(), 32));
  if (!isa<IntegerType>(dtype)) {
    args.emitError() << "dtype must be an integer type";
    return failure();
  }
  return dtype;
}

/// The longest axis sort, argsort and a topk of more than 64 sort (as a
/// sorting network, --relay-decompose): 2^18 elements make 171 steps.
static constexpr int64_t kMaxSortedAxis = int64_t(1) << 18;
/// The most rounds topk's decomposition unrolls; a larger k sorts.
static constexpr int64_t kMaxTopKRounds = 64;

/// topk: `axis` shrinks to k; values, indices or both (a tuple).
static RelationStatus topkRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  FailureOr<int64_t> axis =
      normalizeAxis(args, args.getInt("axis", -1), data.getRank());
  if (failed(axis))
    return RelationStatus::Failed;
  int64_t k = args.getInt("k", 1);
  Dim along = data.dims[*axis];
  if (k >= 1 && along.isStatic() && k > along.size)
    return args.fail("k = " + Twine(k) + " exceeds the axis size " +
                     Twine(along.size));
  Dim kept = k >= 1 ? Dim::of(k) : along;
  if (kept.isStatic() && kept.size > kMaxTopKRounds && along.isStatic() &&
      along.size > kMaxSortedAxis)
    return args.fail(
        "k = " + Twine(kept.size) + " sorts the axis of " + Twine(along.size) +
        " elements; sorting supports at most " + Twine(kMaxSortedAxis));
  FailureOr<Type> dtype = indexDtype(args);
  if (failed(dtype))
    return RelationStatus::Failed;
  SmallVector<Dim> dims = data.dims;
  dims[*axis] = kept;
  Type values = makeTensor(args.getContext(), dims, data.dtype);
  Type indices = makeTensor(args.getContext(), dims, *dtype);
  return solveTopKResult(args, values, indices);
}

/// shape_of (the shape as a vector) and ndarray_size (the element count),
/// in `dtype` (int32 when absent).
static RelationStatus shapeOfRelation(RelationArgs &args, bool size) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  FailureOr<Type> dtype = indexDtype(args);
  if (failed(dtype))
    return RelationStatus::Failed;
  SmallVector<int64_t> dims;
  if (!size)
    dims.push_back(data.getRank());
  return args.solve(makeTensor(args.getContext(), dims, *dtype));
}

/// argwhere: one int32 row per nonzero element, as many as the data has.
static RelationStatus argWhereRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  SmallVector<Dim> dims = {Dim::any(), Dim::of(data.getRank())};
  return args.solve(makeTensor(args.getContext(), dims,
                               IntegerType::get(args.getContext(), 32)));
}

/// unique: (output: data's type, indices, inverse_indices: int32 as long as
/// the axis, num_unique: int32 (1), [counts: as indices]); without `axis`
/// the data is a vector.
static RelationStatus uniqueRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  Dim length;
  if (Attribute a = args.getAttr("axis")) {
    FailureOr<int64_t> axis =
        normalizeAxis(args, cast<IntegerAttr>(a).getInt(), data.getRank());
    if (failed(axis))
      return RelationStatus::Failed;
    length = data.dims[*axis];
  } else {
    if (data.getRank() != 1)
      return args.fail("expected a 1-D tensor without an axis, got " +
                       typeStr(args.getInput(0)));
    length = data.dims[0];
  }
  MLIRContext *ctx = args.getContext();
  Type i32 = IntegerType::get(ctx, 32);
  Type index = makeTensor(ctx, {length}, i32);
  SmallVector<Type> fields = {args.getInput(0), index, index,
                              makeTensor(ctx, {Dim::of(1)}, i32)};
  auto counts = dyn_cast_or_null<BoolAttr>(args.getAttr("return_counts"));
  if (counts && counts.getValue())
    fields.push_back(index);
  return args.solve(TupleType::get(ctx, fields));
}

/// argsort (indices) and sort: the data's shape; the axis is at most
/// kMaxSortedAxis long.
static RelationStatus sortRelation(RelationArgs &args, bool indices) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  FailureOr<int64_t> axis =
      normalizeAxis(args, args.getInt("axis", -1), data.getRank());
  if (failed(axis))
    return RelationStatus::Failed;
  Dim along = data.dims[*axis];
  if (along.isStatic() && along.size > kMaxSortedAxis)
    return args.fail("the axis has " + Twine(along.size) +
                     " elements; sorting supports at most " +
                     Twine(kMaxSortedAxis));
  Type dtype = data.dtype;
  if (indices) {
    FailureOr<Type> index = indexDtype(args);
    if (failed(index))
      return RelationStatus::Failed;
    dtype = *index;
  }
  return args.solve(makeTensor(args.getContext(), data.dims, dtype));
}

/// mirror_pad: each axis grows by its pads, which must not exceed the
/// axis (less than it for REFLECT).
static RelationStatus mirrorPadRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  std::optional<SmallVector<int64_t>> width = args.getOptionalInts("pad_width");
  if (!width || (int64_t)width->size() != 2 * data.getRank())
    return args.fail("pad_width needs 2 values per axis (" +
                     Twine(2 * data.getRank()) + ")");
  std::string mode = "SYMMETRIC";
  if (auto m = dyn_cast_or_null<StringAttr>(args.getAttr("mode")))
    mode = m.getValue().str();
  if (mode != "SYMMETRIC" && mode != "REFLECT")
    return args.fail("mode must be SYMMETRIC or REFLECT, got '" + mode + "'");
  SmallVector<Dim> dims = data.dims;
  for (int64_t i = 0; i < data.getRank(); ++i) {
    int64_t before = (*width)[2 * i], after = (*width)[2 * i + 1];
    int64_t limit = dims[i].isStatic()
                        ? dims[i].size - (mode == "REFLECT" ? 1 : 0)
                        : INT64_MAX;
    if (before < 0 || after < 0 || before > limit || after > limit)
      return args.fail("pads " + Twine(before) + ", " + Twine(after) +
                       " do not fit axis " + Twine(i) + " in " + mode +
                       " mode");
    dims[i] = addDims(addDims(dims[i], Dim::of(before)), Dim::of(after));
  }
  return args.solve(makeTensor(args.getContext(), dims, data.dtype));
}

/// What is wrong with image.resize1d/2d/3d's data (float tensors of
/// `spatial` resized axes, NCW, NCHW or NCDHW or another order of those
/// axes) or attributes, shared with dyn.image.resize2d; empty when nothing
/// is.
static std::string resizeError(RelationArgs &args, const TensorInfo &data,
                               int64_t spatial, bool crop = true) {
  std::string expected = spatial == 1 ? "NCW" : spatial == 2 ? "NCHW" : "NCDHW";
  auto str = [&](StringRef name) {
    auto a = dyn_cast_or_null<StringAttr>(args.getAttr(name));
    return a ? a.getValue().str() : std::string();
  };
  std::string layout = str("layout"), method = str("method"),
              coords = str("coordinate_transformation_mode"),
              rounding = str("rounding_method");
  if (!getResizedAxes(layout, spatial))
    return "layout '" + layout + "' is not supported (expected " + expected +
           " or another order of its axes, such as " + expected[0] +
           expected.substr(2) + expected[1] + ")";
  if (data.getRank() != spatial + 2 || !isFloatLike(data.dtype))
    return "expected a " + std::to_string(spatial + 2) + "-d (" +
           (layout.empty() ? expected : layout) + ") float tensor, got " +
           typeStr(args.getInput(0));
  if (!method.empty() && method != "nearest_neighbor" && method != "linear" &&
      method != "cubic")
    return "method must be nearest_neighbor, linear or cubic, got '" + method +
           "'";
  if (!coords.empty() && coords != "half_pixel" && coords != "align_corners" &&
      coords != "asymmetric" && coords != "pytorch_half_pixel" &&
      coords != "tf_half_pixel_for_nn" && coords != "half_pixel_symmetric" &&
      (!crop || coords != "tf_crop_and_resize"))
    return "coordinate_transformation_mode '" + coords + "' is not supported";
  if (!rounding.empty() && rounding != "round" && rounding != "floor" &&
      rounding != "ceil" && rounding != "round_prefer_floor" &&
      rounding != "round_prefer_ceil")
    return "rounding_method '" + rounding + "' is not supported";
  return "";
}

/// image.resize1d/2d/3d: NCW, NCHW or NCDHW data (or another order of
/// those axes, given by `layout`) resized to `size`.
static RelationStatus resizeRelation(RelationArgs &args, int64_t spatial) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  if (std::string error = resizeError(args, data, spatial); !error.empty())
    return args.fail(error);
  auto coords = dyn_cast_or_null<StringAttr>(
      args.getAttr("coordinate_transformation_mode"));
  auto roi = dyn_cast_or_null<DenseF64ArrayAttr>(args.getAttr("roi"));
  static const char *const roiNames[] = {
      "(start_w, end_w)", "(start_h, start_w, end_h, end_w)",
      "(start_d, start_h, start_w, end_d, end_h, end_w)"};
  if (coords && coords.getValue() == "tf_crop_and_resize" &&
      (!roi || roi.size() != 2 * spatial))
    return args.fail(Twine("tf_crop_and_resize needs roi = ") +
                     roiNames[spatial - 1]);
  std::optional<SmallVector<int64_t>> size = args.getOptionalInts("size");
  if (!size || (int64_t)size->size() != spatial ||
      llvm::any_of(*size, [](int64_t d) { return d <= 0; }))
    return args.fail("size must be " + Twine(spatial) + " positive value" +
                     (spatial == 1 ? "" : "s"));
  Type dtype = args.getDtype("out_dtype");
  SmallVector<Dim> dims = data.dims;
  SmallVector<int64_t> resized =
      *getResizedAxes(args.getString("layout", ""), spatial);
  for (auto [axis, d] : llvm::zip(resized, *size))
    dims[axis] = Dim::of(d);
  return args.solve(
      makeTensor(args.getContext(), dims, dtype ? dtype : data.dtype));
}

/// dyn.image.resize2d: images (NCHW or another order of its axes) of `?`
/// height and width, the size an integer vector of 2.
static RelationStatus dynResize2dRelation(RelationArgs &args) {
  TensorInfo data, size;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, size);
  if (std::string error = resizeError(args, data, 2, /*crop=*/false);
      !error.empty())
    return args.fail(error);
  if (size.getRank() != 1 || !isa<IntegerType>(size.dtype) ||
      failed(unifyDims(size.dims[0], Dim::of(2))))
    return args.fail("size must be a 1-D integer tensor of 2 elements "
                     "(height, width), got " +
                     typeStr(args.getInput(1)));
  Type dtype = args.getDtype("out_dtype");
  SmallVector<Dim> dims = data.dims;
  SmallVector<int64_t> resized =
      *getResizedAxes(args.getString("layout", ""), 2);
  for (int64_t axis : resized)
    dims[axis] = Dim::any();
  return args.solve(
      makeTensor(args.getContext(), dims, dtype ? dtype : data.dtype));
}

/// image.grid_sample: data [N, C, H, W] sampled at grid [N, 2, Ho, Wo]
/// (the data's float type) is [N, C, Ho, Wo].
static RelationStatus gridSampleRelation(RelationArgs &args) {
  TensorInfo data, grid;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, grid);
  if (data.getRank() != 4 || !isFloatLike(data.dtype))
    return args.fail("expected a 4-d (NCHW) float tensor, got " +
                     typeStr(args.getInput(0)));
  if (grid.getRank() != 4 || grid.dtype != data.dtype ||
      failed(unifyDims(grid.dims[1], Dim::of(2))) ||
      failed(unifyDims(grid.dims[0], data.dims[0])))
    return args.fail("expected a grid [N, 2, H_out, W_out] of the data's "
                     "batch and dtype, got " +
                     typeStr(args.getInput(1)));
  std::string layout = args.getString("layout", "NCHW").str(),
              method = args.getString("method", "bilinear").str(),
              padding = args.getString("padding_mode", "zeros").str();
  if (layout != "NCHW")
    return args.fail("layout '" + layout + "' is not supported (only NCHW)");
  if (method != "bilinear" && method != "nearest" && method != "bicubic")
    return args.fail("method must be bilinear, nearest or bicubic, got '" +
                     method + "'");
  if (padding != "zeros" && padding != "border" && padding != "reflection")
    return args.fail("padding_mode must be zeros, border or reflection, got '" +
                     padding + "'");
  SmallVector<Dim> dims = {data.dims[0], data.dims[1], grid.dims[2],
                           grid.dims[3]};
  return args.solve(makeTensor(args.getContext(), dims, data.dtype));
}

/// image.crop_and_resize: data [N, C, H, W] (NCHW) or [N, H, W, C] (float),
/// boxes [B, 4] of its dtype, box_indices [B] (integers): [B, C, crop_h,
/// crop_w] or [B, crop_h, crop_w, C] in out_dtype.
static RelationStatus cropAndResizeRelation(RelationArgs &args) {
  TensorInfo data, boxes, indices;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, boxes);
  READ_TENSOR_OR_RETURN(args, 2, indices);
  std::string layout = args.getString("layout", "NCHW").str(),
              method = args.getString("method", "bilinear").str();
  if (layout != "NCHW" && layout != "NHWC")
    return args.fail("layout must be NCHW or NHWC, got '" + layout + "'");
  if (method != "bilinear" && method != "nearest_neighbor")
    return args.fail("method must be bilinear or nearest_neighbor, got '" +
                     method + "'");
  if (data.getRank() != 4 || !isFloatLike(data.dtype))
    return args.fail("expected a 4-d (" + layout + ") float tensor, got " +
                     typeStr(args.getInput(0)));
  if (boxes.getRank() != 2 || boxes.dtype != data.dtype ||
      failed(unifyDims(boxes.dims[1], Dim::of(4))))
    return args.fail("expected boxes [B, 4] (y1, x1, y2, x2) of the data's "
                     "dtype, got " +
                     typeStr(args.getInput(1)));
  if (indices.getRank() != 1 || !isa<IntegerType>(indices.dtype) ||
      failed(unifyDims(indices.dims[0], boxes.dims[0])))
    return args.fail("expected box_indices [B], one integer per box, got " +
                     typeStr(args.getInput(2)));
  SmallVector<int64_t> size = args.getInts("crop_size");
  if (size.size() != 2 || size[0] <= 0 || size[1] <= 0)
    return args.fail("crop_size must be two positive values");
  Type dtype = args.getDtype("out_dtype");
  Dim channels = data.dims[layout == "NCHW" ? 1 : 3];
  SmallVector<Dim> dims = {boxes.dims[0], Dim::of(size[0]), Dim::of(size[1])};
  dims.insert(layout == "NCHW" ? dims.begin() + 1 : dims.end(), channels);
  return args.solve(
      makeTensor(args.getContext(), dims, dtype ? dtype : data.dtype));
}

/// image.affine_grid: transforms [N, 2, 3] (float) give the grid [N, 2,
/// H, W] of target_shape (H, W), both above 1 (TVM's step divides by them
/// less one).
static RelationStatus affineGridRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  if (data.getRank() != 3 || !isFloatLike(data.dtype) ||
      failed(unifyDims(data.dims[1], Dim::of(2))) ||
      failed(unifyDims(data.dims[2], Dim::of(3))))
    return args.fail("expected affine transforms [N, 2, 3] (float), got " +
                     typeStr(args.getInput(0)));
  SmallVector<int64_t> size = args.getInts("target_shape");
  if (size.size() != 2 || size[0] <= 1 || size[1] <= 1)
    return args.fail("target_shape must be two sizes above 1 (height, "
                     "width)");
  SmallVector<Dim> dims = {data.dims[0], Dim::of(2), Dim::of(size[0]),
                           Dim::of(size[1])};
  return args.solve(makeTensor(args.getContext(), dims, data.dtype));
}

/// What is wrong with vision.roi_align's or roi_pool's data [N, C, H, W]
/// (float) and rois [R, 5] (the data's dtype); empty when nothing is.
static std::string roiError(RelationArgs &args, const TensorInfo &data,
                            const TensorInfo &rois) {
  if (data.getRank() != 4 || !isFloatLike(data.dtype))
    return "expected a 4-d (NCHW) float tensor, got " +
           typeStr(args.getInput(0));
  if (rois.getRank() != 2 || rois.dtype != data.dtype ||
      failed(unifyDims(rois.dims[1], Dim::of(5))))
    return "expected rois [R, 5] (batch index, x1, y1, x2, y2) of the "
           "data's dtype, got " +
           typeStr(args.getInput(1));
  return "";
}

/// vision.roi_pool: data [N, C, H, W] (float) pooled over rois [R, 5]
/// (the data's dtype) is [R, C, pooled_h, pooled_w].
static RelationStatus roiPoolRelation(RelationArgs &args) {
  TensorInfo data, rois;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, rois);
  if (args.getString("layout", "NCHW") != "NCHW")
    return args.fail("layout must be NCHW");
  if (std::string error = roiError(args, data, rois); !error.empty())
    return args.fail(error);
  SmallVector<int64_t> size = args.getInts("pooled_size");
  if (size.size() == 1)
    size.push_back(size[0]);
  if (size.size() != 2 || size[0] <= 0 || size[1] <= 0)
    return args.fail("pooled_size must be one or two positive values");
  if (!(args.getFloat("spatial_scale", 1.0) > 0))
    return args.fail("spatial_scale must be positive");
  SmallVector<Dim> dims = {rois.dims[0], data.dims[1], Dim::of(size[0]),
                           Dim::of(size[1])};
  return args.solve(makeTensor(args.getContext(), dims, data.dtype));
}

/// vision.roi_align: data [N, C, H, W] (float) pooled over rois [R, 5]
/// (the data's dtype) is [R, C, pooled_h, pooled_w].
static RelationStatus roiAlignRelation(RelationArgs &args) {
  TensorInfo data, rois;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, rois);
  if (std::string error = roiError(args, data, rois); !error.empty())
    return args.fail(error);
  std::string layout = args.getString("layout", "NCHW").str(),
              mode = args.getString("mode", "avg").str();
  if (layout != "NCHW")
    return args.fail("layout '" + layout + "' is not supported (only NCHW)");
  if (mode != "avg" && mode != "max")
    return args.fail("mode must be avg or max, got '" + mode + "'");
  std::optional<SmallVector<int64_t>> size =
      args.getOptionalInts("pooled_size");
  if (!size || size->size() != 2 || (*size)[0] <= 0 || (*size)[1] <= 0)
    return args.fail("pooled_size must be two positive values");
  int64_t ratio = args.getInt("sample_ratio", -1);
  if (ratio > 64)
    return args.fail("sample_ratio " + Twine(ratio) +
                     " is more points per bin side than supported (64)");
  SmallVector<Dim> dims = {rois.dims[0], data.dims[1], Dim::of((*size)[0]),
                           Dim::of((*size)[1])};
  return args.solve(makeTensor(args.getContext(), dims, data.dtype));
}

/// sequence_mask: the data's type; valid_length holds one length per
/// batch entry (the axis other than `axis` of the first two).
static RelationStatus sequenceMaskRelation(RelationArgs &args) {
  TensorInfo data, lengths;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, lengths);
  int64_t axis = args.getInt("axis", 0);
  if (axis != 0 && axis != 1)
    return args.fail("axis must be 0 or 1, got " + Twine(axis));
  if (data.getRank() < 2)
    return args.fail("expected data of rank 2 or more, got " +
                     typeStr(args.getInput(0)));
  if (!isa<IntegerType>(lengths.dtype) || lengths.getRank() != 1 ||
      failed(unifyDims(lengths.dims[0], data.dims[1 - axis])))
    return args.fail("valid_length must be integer lengths, one per batch "
                     "entry, got " +
                     typeStr(args.getInput(1)));
  return args.solve(args.getInput(0));
}

/// trilu: the data's type (at least 2-d); `k` a 0-d integer tensor.
static RelationStatus triluRelation(RelationArgs &args) {
  TensorInfo data, k;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, k);
  if (data.getRank() < 2)
    return args.fail("expected a tensor of at least 2 axes, got " +
                     typeStr(args.getInput(0)));
  if (k.getRank() != 0 || !isa<IntegerType>(k.dtype))
    return args.fail("k must be a 0-d integer tensor, got " +
                     typeStr(args.getInput(1)));
  return args.solve(args.getInput(0));
}

/// gather_nd: indices [M, B..., Y...] (M static) over data [B..., D_M...,
/// rest...]: [B..., Y..., rest...].
static RelationStatus gatherNDRelation(RelationArgs &args) {
  TensorInfo data, indices;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, indices);
  if (!isa<IntegerType>(indices.dtype) || indices.getRank() < 1)
    return args.fail("indices must be integers of at least one axis, got " +
                     typeStr(args.getInput(1)));
  if (!indices.dims[0].isStatic())
    return args.fail("the first axis of indices (the number of coordinates) "
                     "must have a known length, got " +
                     typeStr(args.getInput(1)));
  int64_t m = indices.dims[0].size, batch = args.getInt("batch_dims", 0);
  if (std::optional<int64_t> rank = args.getOptionalInt("index_rank");
      rank && *rank != m)
    return args.fail("index_rank " + Twine(*rank) +
                     " differs from the first axis of indices, " + Twine(m));
  if (batch < 0 || batch + m > data.getRank() || indices.getRank() < batch + 1)
    return args.fail("batch_dims " + Twine(batch) + " and " + Twine(m) +
                     " coordinates do not fit data " +
                     typeStr(args.getInput(0)) + " and indices " +
                     typeStr(args.getInput(1)));
  for (int64_t i = 0; i < batch; ++i)
    if (failed(unifyDims(data.dims[i], indices.dims[i + 1])))
      return args.fail("the batch axes of data " + typeStr(args.getInput(0)) +
                       " and indices " + typeStr(args.getInput(1)) + " differ");
  SmallVector<Dim> dims(indices.dims.begin() + 1, indices.dims.end());
  dims.append(data.dims.begin() + batch + m, data.dims.end());
  return args.solve(makeTensor(args.getContext(), dims, data.dtype));
}

/// unravel_index: indices (0-d or 1-d, integers) and a 1-d shape of known
/// length R of their type: [R] or [R, N].
static RelationStatus unravelIndexRelation(RelationArgs &args) {
  TensorInfo indices, shape;
  READ_TENSOR_OR_RETURN(args, 0, indices);
  READ_TENSOR_OR_RETURN(args, 1, shape);
  if (!isa<IntegerType>(indices.dtype) || indices.getRank() > 1)
    return args.fail("indices must be 0-d or 1-d integers, got " +
                     typeStr(args.getInput(0)));
  if (shape.getRank() != 1 || !shape.dims[0].isStatic() ||
      shape.dtype != indices.dtype)
    return args.fail("shape must be a 1-d tensor of known length with the "
                     "indices' dtype, got " +
                     typeStr(args.getInput(1)));
  SmallVector<Dim> dims = {shape.dims[0]};
  dims.append(indices.dims.begin(), indices.dims.end());
  return args.solve(makeTensor(args.getContext(), dims, indices.dtype));
}

/// invert_permutation: a 1-d integer tensor's type.
static RelationStatus invertPermutationRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  if (data.getRank() != 1 || !isa<IntegerType>(data.dtype))
    return args.fail("expected a 1-d integer tensor, got " +
                     typeStr(args.getInput(0)));
  return args.solve(args.getInput(0));
}

/// searchsorted: sorted [..., N] (1-d, or the values' leading axes) and
/// values [..., M]: the values' shape in `dtype` (int32 by default).
static RelationStatus searchSortedRelation(RelationArgs &args) {
  TensorInfo sorted, values;
  READ_TENSOR_OR_RETURN(args, 0, sorted);
  READ_TENSOR_OR_RETURN(args, 1, values);
  if (sorted.getRank() < 1 || sorted.dtype != values.dtype)
    return args.fail("expected a sorted sequence of at least one axis with "
                     "the values' dtype, got " +
                     typeStr(args.getInput(0)) + " and values " +
                     typeStr(args.getInput(1)));
  if (sorted.getRank() > 1) {
    bool leading = values.getRank() == sorted.getRank();
    for (int64_t i = 0; leading && i + 1 < sorted.getRank(); ++i)
      leading = succeeded(unifyDims(sorted.dims[i], values.dims[i]));
    if (!leading)
      return args.fail("a sorted sequence of more than one axis must share "
                       "its leading axes with the values, got " +
                       typeStr(args.getInput(0)) + " and " +
                       typeStr(args.getInput(1)));
  }
  Type dtype = args.getDtype("dtype");
  if (!dtype)
    dtype = IntegerType::get(args.getContext(), 32);
  if (!isa<IntegerType>(dtype))
    return args.fail("dtype must be an integer type");
  return args.solve(makeTensor(args.getContext(), values.dims, dtype));
}

/// sparse_to_dense: indices [N], [N, D] or 0-d (integers), values [N] or
/// 0-d, a 0-d default of the values' dtype: `output_shape` in that dtype.
static RelationStatus sparseToDenseRelation(RelationArgs &args) {
  TensorInfo indices, values, fill;
  READ_TENSOR_OR_RETURN(args, 0, indices);
  READ_TENSOR_OR_RETURN(args, 1, values);
  READ_TENSOR_OR_RETURN(args, 2, fill);
  SmallVector<int64_t> shape = args.getInts("output_shape");
  if (llvm::any_of(shape, [](int64_t d) { return d < 0; }))
    return args.fail("output_shape must not be negative");
  if (failed(checkSparseToDenseOperands(args, indices, values, fill,
                                        shape.size())))
    return RelationStatus::Failed;
  return args.solve(makeTensor(args.getContext(), shape, values.dtype));
}

/// einsum: a tuple of tensors of one dtype and numpy's subscripts. A
/// label's size is the same wherever it appears (1 broadcasts across
/// operands; a label repeated within one operand, a diagonal, must match
/// exactly); the result has the sizes of its labels.
static RelationStatus einsumRelation(RelationArgs &args) {
  SmallVector<TensorInfo> operands;
  if (RelationStatus s = readTensorTuple(args, operands);
      s != RelationStatus::Solved)
    return s;
  SmallVector<int64_t> ranks;
  for (const TensorInfo &t : operands)
    ranks.push_back(t.getRank());
  std::string error;
  std::optional<EinsumEquation> eq =
      EinsumEquation::parse(args.getString("equation", ""), ranks, error);
  if (!eq)
    return args.fail(error);
  std::map<EinsumLabel, Dim> sizes;
  for (auto [i, t] : llvm::enumerate(operands)) {
    std::map<EinsumLabel, Dim> own;
    for (auto [l, d] : llvm::zip(eq->inputs[i], t.dims)) {
      auto [it, fresh] = own.try_emplace(l, d);
      if (fresh)
        continue;
      FailureOr<Dim> same = unifyDims(it->second, d);
      if (failed(same))
        return args.fail("operand " + Twine(i) + "'s label '" +
                         EinsumEquation::describe(l) +
                         "' is repeated over dimensions of sizes " +
                         toString(it->second) + " and " + toString(d));
      it->second = *same;
    }
    for (auto [l, d] : own) {
      auto [it, fresh] = sizes.try_emplace(l, d);
      if (fresh)
        continue;
      FailureOr<Dim> both = broadcastDim(it->second, d);
      if (failed(both))
        return args.fail("label '" + EinsumEquation::describe(l) +
                         "' has size " + toString(it->second) +
                         " in one operand and " + toString(d) + " in operand " +
                         Twine(i));
      it->second = *both;
    }
  }
  SmallVector<Dim> shape;
  for (EinsumLabel l : eq->output)
    shape.push_back(sizes[l]);
  return args.solve(
      makeTensor(args.getContext(), shape, operands.front().dtype));
}

/// meshgrid: a tuple of 0-d or 1-d tensors of one dtype; a tuple of as
/// many grids.
static RelationStatus meshgridRelation(RelationArgs &args) {
  SmallVector<TensorInfo> vectors;
  if (RelationStatus s = readTensorTuple(args, vectors);
      s != RelationStatus::Solved)
    return s;
  StringRef indexing = args.getString("indexing", "ij");
  if (indexing != "ij" && indexing != "xy")
    return args.fail("indexing must be \"ij\" or \"xy\", got \"" + indexing +
                     "\"");
  SmallVector<Dim> shape;
  for (const TensorInfo &v : vectors) {
    if (v.getRank() > 1)
      return args.fail("expected a tuple of 0-d or 1-d tensors, got " +
                       typeStr(args.getInput(0)));
    shape.push_back(v.getRank() ? v.dims[0] : Dim::of(1));
  }
  if (indexing == "xy" && shape.size() > 1)
    std::swap(shape[0], shape[1]);
  SmallVector<Type> grids(vectors.size(), makeTensor(args.getContext(), shape,
                                                     vectors.front().dtype));
  return args.solve(TupleType::get(args.getContext(), grids));
}

/// matrix_set_diag: data [..., M, N]; diagonal [..., k2 - k1 + 1, L]
/// ([..., L] when k1 = k2) of data's dtype, L the band's longest diagonal.
static RelationStatus matrixSetDiagRelation(RelationArgs &args) {
  TensorInfo data, diagonal;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, diagonal);
  int64_t k1 = args.getInt("k1", 0), k2 = args.getInt("k2", 0);
  int64_t rank = data.getRank();
  if (rank < 2)
    return args.fail("data must have at least 2 dimensions, got " +
                     typeStr(args.getInput(0)));
  if (k1 > k2)
    return args.fail("k1 (" + Twine(k1) + ") must not exceed k2 (" + Twine(k2) +
                     ")");
  Dim rows = data.dims[rank - 2], cols = data.dims[rank - 1];
  if ((rows.isStatic() && k1 <= -rows.size) ||
      (cols.isStatic() && k2 >= cols.size))
    return args.fail("diagonals " + Twine(k1) + ".." + Twine(k2) +
                     " are not all in a matrix of " + toString(rows) + "x" +
                     toString(cols));
  // The expected diagonal shape: the batch, the band, the longest length.
  SmallVector<Dim> expected(data.dims.begin(), data.dims.end() - 2);
  if (k1 != k2)
    expected.push_back(Dim::of(k2 - k1 + 1));
  expected.push_back(
      rows.isStatic() && cols.isStatic()
          ? Dim::of(std::min(rows.size + std::min<int64_t>(k2, 0),
                             cols.size - std::max<int64_t>(k1, 0)))
          : Dim::any());
  bool fits = diagonal.dtype == data.dtype &&
              diagonal.getRank() == (int64_t)expected.size();
  for (int64_t i = 0; fits && i < diagonal.getRank(); ++i)
    fits = succeeded(unifyDims(diagonal.dims[i], expected[i]));
  if (!fits)
    return args.fail(
        "diagonal must be " +
        typeStr(makeTensor(args.getContext(), expected, data.dtype)) +
        " for diagonals " + Twine(k1) + ".." + Twine(k2) + " of " +
        typeStr(args.getInput(0)) + ", got " + typeStr(args.getInput(1)));
  return args.solve(args.getInput(0));
}

/// space_to_batch_nd and batch_to_space_nd: data [N, S1..SM, rest...]
/// with M = block_shape's length and 2M paddings (crops).
static RelationStatus batchSpaceRelation(RelationArgs &args, bool toBatch) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  SmallVector<int64_t> block = args.getInts("block_shape");
  StringRef padName = toBatch ? "paddings" : "crops";
  SmallVector<int64_t> pads = args.getInts(padName);
  int64_t m = block.size();
  if (m < 1 || data.getRank() < m + 1)
    return args.fail("block_shape needs one to rank - 1 values, got " +
                     Twine(m) + " for " + typeStr(args.getInput(0)));
  if (static_cast<int64_t>(pads.size()) != 2 * m)
    return args.fail(padName + " needs " + Twine(2 * m) +
                     " values (a before and an after per block axis), got " +
                     Twine(pads.size()));
  if (llvm::any_of(block, [](int64_t b) { return b < 1; }) ||
      llvm::any_of(pads, [](int64_t p) { return p < 0; }))
    return args.fail("block_shape must be positive and " + padName +
                     " non-negative");
  Dim blockProduct = Dim::of(1);
  for (int64_t b : block)
    blockProduct = mulDims(blockProduct, Dim::of(b));
  int64_t blocks = blockProduct.size;
  SmallVector<Dim> dims = data.dims;
  const Dim &n = data.dims[0];
  if (toBatch) {
    dims[0] = mulDims(n, Dim::of(blocks));
  } else {
    if (n.isStatic() && n.size % blocks)
      return args.fail("the batch " + Twine(n.size) +
                       " is not a multiple of the " + Twine(blocks) +
                       " blocks of block_shape");
    dims[0] = n.isStatic() ? Dim::of(n.size / blocks) : Dim::any();
  }
  for (int64_t i = 0; i < m; ++i) {
    const Dim &d = data.dims[1 + i];
    if (!d.isStatic()) {
      dims[1 + i] = Dim::any();
      continue;
    }
    int64_t extra =
        addDims(Dim::of(pads[2 * i]), Dim::of(pads[2 * i + 1])).size;
    if (toBatch) {
      int64_t padded = addDims(d, Dim::of(extra)).size;
      if (padded % block[i])
        return args.fail("axis " + Twine(1 + i) + " of " + Twine(d.size) +
                         " padded by " + Twine(extra) +
                         " is not a multiple of its block " + Twine(block[i]));
      dims[1 + i] = Dim::of(padded / block[i]);
    } else {
      Dim scaled = mulDims(d, Dim::of(block[i]));
      if (scaled.size < extra)
        return args.fail("crops of " + Twine(extra) + " exceed axis " +
                         Twine(1 + i) + "'s " + Twine(scaled.size));
      dims[1 + i] = Dim::of(scaled.size - extra);
    }
  }
  return args.solve(makeTensor(args.getContext(), dims, data.dtype));
}

/// dilate: each axis of n elements becomes (n - 1) * stride + 1.
static RelationStatus dilateRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  SmallVector<int64_t> strides = args.getInts("strides");
  if (static_cast<int64_t>(strides.size()) != data.getRank() ||
      llvm::any_of(strides, [](int64_t s) { return s < 1; }))
    return args.fail("strides needs one positive value per axis of " +
                     typeStr(args.getInput(0)) + ", got " +
                     Twine(strides.size()) + " values");
  SmallVector<Dim> dims = data.dims;
  for (int64_t i = 0; i < data.getRank(); ++i)
    if (dims[i].isStatic() && strides[i] > 1)
      dims[i] = Dim::of(dims[i].size ? (dims[i].size - 1) * strides[i] + 1 : 0);
    else if (strides[i] > 1)
      dims[i] = Dim::any();
  return args.solve(makeTensor(args.getContext(), dims, data.dtype));
}

void mlir::relay::registerCompositeRelations() {
  registerTypeRelation("SequenceMask", sequenceMaskRelation);
  registerTypeRelation(
      "Resize1D", [](RelationArgs &args) { return resizeRelation(args, 1); });
  registerTypeRelation(
      "Resize2D", [](RelationArgs &args) { return resizeRelation(args, 2); });
  registerTypeRelation(
      "Resize3D", [](RelationArgs &args) { return resizeRelation(args, 3); });
  registerTypeRelation("DynResize2D", dynResize2dRelation);
  registerTypeRelation("GridSample", gridSampleRelation);
  registerTypeRelation("RoiAlign", roiAlignRelation);
  registerTypeRelation("CropAndResize", cropAndResizeRelation);
  registerTypeRelation("AffineGrid", affineGridRelation);
  registerTypeRelation("RoiPool", roiPoolRelation);
  registerTypeRelation("ShapeOf", [](RelationArgs &args) {
    return shapeOfRelation(args, /*size=*/false);
  });
  registerTypeRelation("NdarraySize", [](RelationArgs &args) {
    return shapeOfRelation(args, /*size=*/true);
  });
  registerTypeRelation("ArgWhere", argWhereRelation);
  registerTypeRelation("Unique", uniqueRelation);
  registerTypeRelation("Argsort", [](RelationArgs &args) {
    return sortRelation(args, /*indices=*/true);
  });
  registerTypeRelation("Sort", [](RelationArgs &args) {
    return sortRelation(args, /*indices=*/false);
  });
  registerTypeRelation("MirrorPad", mirrorPadRelation);
  registerTypeRelation("TopK", topkRelation);
  registerTypeRelation("OneHot", oneHotRelation);
  registerTypeRelation("Cumsum", cumsumRelation);
  registerTypeRelation("Cumprod", cumsumRelation);
  registerTypeRelation("DepthToSpace", [](RelationArgs &args) {
    return blockMoveRelation(args, /*toSpace=*/true);
  });
  registerTypeRelation("SpaceToDepth", [](RelationArgs &args) {
    return blockMoveRelation(args, /*toSpace=*/false);
  });
  registerTypeRelation("IdentityToBool", identityToBoolRelation);
  registerTypeRelation("AxisIdentity", axisIdentityRelation);
  registerTypeRelation("CastLike", castLikeRelation);
  registerTypeRelation("BroadcastToLike", [](RelationArgs &args) {
    return likeShapeRelation(args, /*collapse=*/false);
  });
  registerTypeRelation("CollapseSumLike", [](RelationArgs &args) {
    return likeShapeRelation(args, /*collapse=*/true);
  });
  registerTypeRelation("CollapseSumTo", collapseSumToRelation);
  registerTypeRelation("AdvIndex", advIndexRelation);
  registerTypeRelation("Annotation", annotationRelation);
  registerTypeRelation("DeviceAnnotation", deviceAnnotationRelation);
  registerTypeRelation("Tile", tileRelation);
  registerTypeRelation("Repeat", repeatRelation);
  registerTypeRelation("L2Normalize", l2NormalizeRelation);
  registerTypeRelation("Trilu", triluRelation);
  registerTypeRelation("GatherND", gatherNDRelation);
  registerTypeRelation("UnravelIndex", unravelIndexRelation);
  registerTypeRelation("InvertPermutation", invertPermutationRelation);
  registerTypeRelation("SearchSorted", searchSortedRelation);
  registerTypeRelation("SpaceToBatchND", [](RelationArgs &args) {
    return batchSpaceRelation(args, /*toBatch=*/true);
  });
  registerTypeRelation("BatchToSpaceND", [](RelationArgs &args) {
    return batchSpaceRelation(args, /*toBatch=*/false);
  });
  registerTypeRelation("Dilate", dilateRelation);
  registerTypeRelation("SparseToDense", sparseToDenseRelation);
  registerTypeRelation("Einsum", einsumRelation);
  registerTypeRelation("Meshgrid", meshgridRelation);
  registerTypeRelation("MatrixSetDiag", matrixSetDiagRelation);
}

//===- RelationsComposite.cpp - Relations of composite operators -*- C++
//-*-===//
//
// The relations of the operators --relay-decompose rewrites into primitive
// ones (the last section of RelayOperators.td): elementwise tests, the
// `*_like` operators, reverse, tile, repeat and l2_normalize.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelationUtils.h"
#include "dialects/relay/TypeRelations.h"

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

void mlir::relay::registerCompositeRelations() {
  registerTypeRelation("IdentityToBool", identityToBoolRelation);
  registerTypeRelation("AxisIdentity", axisIdentityRelation);
  registerTypeRelation("CastLike", castLikeRelation);
  registerTypeRelation("BroadcastToLike", [](RelationArgs &args) {
    return likeShapeRelation(args, /*collapse=*/false);
  });
  registerTypeRelation("CollapseSumLike", [](RelationArgs &args) {
    return likeShapeRelation(args, /*collapse=*/true);
  });
  registerTypeRelation("Tile", tileRelation);
  registerTypeRelation("Repeat", repeatRelation);
  registerTypeRelation("L2Normalize", l2NormalizeRelation);
}

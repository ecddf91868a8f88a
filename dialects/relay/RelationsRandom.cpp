//===- RelationsRandom.cpp - Relations of the random operators --*- C++ -*-===//
//
// TVM's random.threefry_generate, random.threefry_split, random.uniform,
// random.normal and random.multinomial: a key is a tensor<10xui64>, and each
// returns the next key (or two) with its result.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;

/// A Threefry key: Tensor[(10), uint64].
static Type keyType(MLIRContext *ctx) {
  return RankedTensorType::get(
      {10}, IntegerType::get(ctx, 64, IntegerType::Unsigned));
}

/// Requires input #i to be a key (inferring it when unknown).
static LogicalResult expectKey(RelationArgs &args, unsigned i) {
  return expectInputType(args, i, keyType(args.getContext()),
                         "the Threefry key");
}

/// The `out_shape` attribute: non-negative sizes whose product Threefry's
/// 64-bit counter can count (at most 2^64 - 1 numbers).
static FailureOr<SmallVector<int64_t>> readOutShape(RelationArgs &args) {
  std::optional<SmallVector<int64_t>> shape = args.getOptionalInts("out_shape");
  if (!shape) {
    args.emitError() << "requires an 'out_shape' attribute";
    return failure();
  }
  uint64_t count = 1;
  bool overflow = false;
  for (int64_t d : *shape) {
    if (d < 0) {
      args.emitError() << "out_shape sizes must be non-negative, got " << d;
      return failure();
    }
    overflow |= d != 0 && count > UINT64_MAX / uint64_t(d);
    count *= uint64_t(d);
  }
  if (overflow && !llvm::is_contained(*shape, 0)) {
    args.emitError() << "out_shape asks for more than 2^64 - 1 numbers";
    return failure();
  }
  return *shape;
}

/// (next key, `result`).
static RelationStatus solveWithKey(RelationArgs &args, Type result) {
  return args.solve(
      TupleType::get(args.getContext(), {keyType(args.getContext()), result}));
}

/// threefry_generate: (key, uint64 bits of out_shape).
static RelationStatus threefryGenerateRelation(RelationArgs &args) {
  if (failed(expectKey(args, 0)))
    return RelationStatus::Failed;
  FailureOr<SmallVector<int64_t>> shape = readOutShape(args);
  if (failed(shape))
    return RelationStatus::Failed;
  MLIRContext *ctx = args.getContext();
  return solveWithKey(
      args, makeTensor(ctx, *shape,
                       IntegerType::get(ctx, 64, IntegerType::Unsigned)));
}

/// threefry_split: (key, key).
static RelationStatus threefrySplitRelation(RelationArgs &args) {
  if (failed(expectKey(args, 0)))
    return RelationStatus::Failed;
  Type key = keyType(args.getContext());
  return args.solve(TupleType::get(args.getContext(), {key, key}));
}

/// uniform and normal: a key, two 0-d parameters of `out_dtype` (float32 or
/// float64, by default float32); (key, values of out_shape).
static RelationStatus distributionRelation(RelationArgs &args, StringRef first,
                                           StringRef second) {
  Type dtype = args.getDtype("out_dtype");
  if (!dtype)
    dtype = Float32Type::get(args.getContext());
  if (!dtype.isF32() && !dtype.isF64())
    return args.fail("out_dtype must be float32 or float64, got " +
                     typeStr(dtype));
  if (failed(expectKey(args, 0)))
    return RelationStatus::Failed;
  Type scalar = RankedTensorType::get({}, dtype);
  if (failed(expectInputType(args, 1, scalar, first)) ||
      failed(expectInputType(args, 2, scalar, second)))
    return RelationStatus::Failed;
  FailureOr<SmallVector<int64_t>> shape = readOutShape(args);
  if (failed(shape))
    return RelationStatus::Failed;
  return solveWithKey(args, makeTensor(args.getContext(), *shape, dtype));
}

/// multinomial: a key, probabilities [..., K] (K > 0, any numeric dtype);
/// (key, int32 indices [..., num_samples]).
static RelationStatus multinomialRelation(RelationArgs &args) {
  if (failed(expectKey(args, 0)))
    return RelationStatus::Failed;
  TensorInfo probs;
  READ_TENSOR_OR_RETURN(args, 1, probs);
  if (probs.getRank() == 0 || probs.dtype.isInteger(1) ||
      !isa<FloatType, IntegerType, TypeVarType>(probs.dtype))
    return args.fail("expected the probabilities as a numeric tensor of at "
                     "least one axis, got " +
                     typeStr(args.getInput(1)));
  if (probs.dims.back().isStatic() && probs.dims.back().size == 0)
    return args.fail("the probabilities' last axis is empty: no index to "
                     "draw");
  int64_t samples = args.getInt("num_samples", 1);
  if (samples < 0)
    return args.fail("num_samples must be non-negative, got " + Twine(samples));
  SmallVector<Dim> result(probs.dims.begin(), probs.dims.end() - 1);
  result.push_back(Dim::of(samples));
  MLIRContext *ctx = args.getContext();
  return solveWithKey(args, makeTensor(ctx, result, IntegerType::get(ctx, 32)));
}

void mlir::relay::registerRandomRelations() {
  registerTypeRelation("ThreefryGenerate", threefryGenerateRelation);
  registerTypeRelation("ThreefrySplit", threefrySplitRelation);
  registerTypeRelation("Uniform", [](RelationArgs &args) {
    return distributionRelation(args, "low", "high");
  });
  registerTypeRelation("Normal", [](RelationArgs &args) {
    return distributionRelation(args, "mean", "scale");
  });
  registerTypeRelation("Multinomial", multinomialRelation);
}

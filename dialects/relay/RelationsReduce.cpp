//===- RelationsReduce.cpp - Reduction type relations -----------*- C++ -*-===//
//
// Reduce (sum, mean, max, min, prod, all, any) and ArgReduce (argmax,
// argmin): `axis` (absent = all axes), `keepdims`, `exclude`.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelationUtils.h"

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::relay;

static RelationStatus reduceRelation(RelationArgs &args, bool toIndex) {
  TensorInfo info;
  READ_TENSOR_OR_RETURN(args, 0, info);
  int64_t rank = info.getRank();
  llvm::SmallBitVector reduced(rank, false);
  if (std::optional<SmallVector<int64_t>> axes = args.getOptionalInts("axis")) {
    for (int64_t axis : *axes) {
      FailureOr<int64_t> a = normalizeAxis(args, axis, rank);
      if (failed(a))
        return RelationStatus::Failed;
      if (reduced[*a])
        return args.fail("axis " + std::to_string(axis) +
                         " is given more than once");
      reduced.set(*a);
    }
    if (args.getBool("exclude", false))
      reduced.flip();
  } else {
    reduced.set();
  }
  bool keepdims = args.getBool("keepdims", false);
  SmallVector<Dim> dims;
  for (int64_t i = 0; i < rank; ++i) {
    if (!reduced[i])
      dims.push_back(info.dims[i]);
    else if (keepdims)
      dims.push_back(Dim::of(1));
  }
  Type dtype = info.dtype;
  if (toIndex)
    dtype = IntegerType::get(args.getContext(), 32);
  return args.solve(makeTensor(args.getContext(), dims, dtype));
}

/// variance(data, mean): Reduce's result; the mean must broadcast to the
/// data (it is usually the data's mean with keepdims).
static RelationStatus varianceRelation(RelationArgs &args) {
  TensorInfo data, mean;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, mean);
  if (!isFloatLike(data.dtype) || mean.dtype != data.dtype)
    return args.fail("expected float data and a mean of its dtype, got " +
                     typeStr(args.getInput(0)) + " and " +
                     typeStr(args.getInput(1)));
  int64_t offset = data.getRank() - mean.getRank();
  bool fits = offset >= 0;
  for (int64_t i = 0; fits && i < mean.getRank(); ++i) {
    const Dim &m = mean.dims[i], &d = data.dims[i + offset];
    fits = !m.isStatic() || m.size == 1 || !d.isStatic() || m.size == d.size;
  }
  if (!fits)
    return args.fail("the mean " + typeStr(args.getInput(1)) +
                     " does not broadcast to the data " +
                     typeStr(args.getInput(0)));
  return reduceRelation(args, /*toIndex=*/false);
}

void mlir::relay::registerReduceRelations() {
  registerTypeRelation("Variance", varianceRelation);
  registerTypeRelation("Reduce", [](RelationArgs &args) {
    return reduceRelation(args, /*toIndex=*/false);
  });
  registerTypeRelation("ArgReduce", [](RelationArgs &args) {
    return reduceRelation(args, /*toIndex=*/true);
  });
}

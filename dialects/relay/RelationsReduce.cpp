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

void mlir::relay::registerReduceRelations() {
  registerTypeRelation("Reduce", [](RelationArgs &args) {
    return reduceRelation(args, /*toIndex=*/false);
  });
  registerTypeRelation("ArgReduce", [](RelationArgs &args) {
    return reduceRelation(args, /*toIndex=*/true);
  });
}

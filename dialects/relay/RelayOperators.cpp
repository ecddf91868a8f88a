//===- RelayOperators.cpp - Relay operators ---------------------*- C++ -*-===//
//
// The ODS-generated operator ops. Each verifies through its type relation
// (verifyOperator in OperatorRegistry.cpp).
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelayOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::relay;

#define GET_OP_CLASSES
#include "dialects/relay/RelayOperators.cpp.inc"

SmallVector<int64_t> TransposeOp::getPermutation(int64_t rank) {
  SmallVector<int64_t> axes;
  if (DenseI64ArrayAttr given = getAxesAttr())
    axes.assign(given.asArrayRef().begin(), given.asArrayRef().end());
  if (axes.empty())
    for (int64_t i = rank - 1; i >= 0; --i)
      axes.push_back(i);
  for (int64_t &a : axes)
    if (a < 0)
      a += rank;
  return axes;
}

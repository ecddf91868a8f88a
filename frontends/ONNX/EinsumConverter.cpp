//===- EinsumConverter.cpp - ONNX Einsum ------------------------*- C++ -*-===//
//
// Einsum is relay.einsum of a tuple of the inputs: the operator's relation
// checks the equation against the inputs' shapes (its errors are the
// node's), and --relay-decompose makes it transposes, sums and batched
// products.
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/Converters.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

namespace {

LogicalResult convertEinsum(NodeContext &ctx) {
  unsigned n = ctx.getNumInputs();
  if (n == 0)
    return ctx.fail("needs at least one input");
  if (failed(ctx.checkInputs(n, n)))
    return failure();
  if (!ctx.hasAttr("equation"))
    return ctx.fail("the equation attribute is required");
  SmallVector<Value> inputs;
  for (unsigned i = 0; i < n; ++i)
    inputs.push_back(ctx.input(i));
  return ctx.output(
      ctx.op<EinsumOp>({ctx.tuple(inputs)},
                       {ctx.str("equation", ctx.attrString("equation", ""))}));
}

} // namespace

void mlir::relay::onnx_import::addEinsumConverter(ConverterTable &t) {
  t["Einsum"] = convertEinsum;
}

//===- LoopBuilders.cpp - Loops and boxes for hand-built loop nests -------===//
//
// The scf.for and slice builders of the lowerings that emit loop nests of
// vector code on tensors (WinogradConv.cpp, DepthwiseConv.cpp).
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToLinalg/LoweringHelpers.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;

namespace mlir::relay::lowering {

Value index(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

scf::ForOp loopOp(OpBuilder &b, Location loc, int64_t begin, int64_t end,
                  int64_t step, Value init,
                  function_ref<Value(OpBuilder &, Value, Value)> body) {
  // The body is built once the loop is in its block, not by scf.for's body
  // builder (which runs before the loop is inserted): what the body's
  // kernels ask of the enclosing module, the CPU it is compiled for
  // (cpuAt), must find the module, not fall back to the host's.
  // The bounds in this order whatever the compiler's order of arguments.
  Value lb = index(b, loc, begin), ub = index(b, loc, end),
        stepValue = index(b, loc, step);
  auto loop = scf::ForOp::create(b, loc, lb, ub, stepValue, ValueRange{init});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  scf::YieldOp::create(
      b, loc, body(b, loop.getInductionVar(), loop.getRegionIterArg(0)));
  return loop;
}

scf::ForOp loopOp(OpBuilder &b, Location loc, int64_t end, int64_t step,
                  Value init,
                  function_ref<Value(OpBuilder &, Value, Value)> body) {
  return loopOp(b, loc, 0, end, step, init, body);
}

Value loop(OpBuilder &b, Location loc, int64_t end, int64_t step, Value init,
           function_ref<Value(OpBuilder &, Value, Value)> body) {
  return loopOp(b, loc, end, step, init, body).getResult(0);
}

Value sliceAt(OpBuilder &b, Location loc, Value source,
              ArrayRef<OpFoldResult> offsets, ArrayRef<int64_t> sizes) {
  auto type = RankedTensorType::get(
      sizes, cast<RankedTensorType>(source.getType()).getElementType());
  return tensor::ExtractSliceOp::create(
      b, loc, type, source, offsets,
      getAsIndexOpFoldResult(b.getContext(), sizes),
      SmallVector<OpFoldResult>(sizes.size(), b.getIndexAttr(1)));
}

Value insertAt(OpBuilder &b, Location loc, Value source, Value dest,
               ArrayRef<OpFoldResult> offsets, ArrayRef<int64_t> sizes) {
  return tensor::InsertSliceOp::create(
      b, loc, source, dest, offsets,
      getAsIndexOpFoldResult(b.getContext(), sizes),
      SmallVector<OpFoldResult>(sizes.size(), b.getIndexAttr(1)));
}

} // namespace mlir::relay::lowering

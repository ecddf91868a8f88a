//===- ScatterPatterns.cpp - scatter_elements and scatter_nd to scf -------===//
//
// A scatter writes where its indices say, so it is not a linalg.generic over
// its result: it lowers to a nest of scf.for over the updates threading the
// result tensor (a copy of data that one-shot bufferization updates in
// place), each step a tensor.extract of the index, a bounds check that
// raises a run-time error, and a tensor.insert of the update (combined with
// the element already there under a reduction). Updates apply in row-major
// order, so the last write wins, as in the interpreter.
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "conversion/RelayToLinalg/OperatorPattern.h"
#include "conversion/RelayToLinalg/RelayToLinalg.h"

#include "conversion/RelayCommon/BoxedValues.h"
#include "dialects/relay/RelayOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

/// `update` combined with `current` by a scatter's reduction (update, add,
/// mul, min, max).
Value combine(OpBuilder &b, Location l, StringRef reduction, Value current,
              Value update, bool isUnsigned) {
  bool isFloat = isa<FloatType>(update.getType());
  if (reduction == "add")
    return isFloat ? arith::AddFOp::create(b, l, current, update).getResult()
                   : arith::AddIOp::create(b, l, current, update).getResult();
  if (reduction == "mul")
    return isFloat ? arith::MulFOp::create(b, l, current, update).getResult()
                   : arith::MulIOp::create(b, l, current, update).getResult();
  if (reduction == "min") {
    if (isFloat)
      return arith::MinimumFOp::create(b, l, current, update);
    return isUnsigned
               ? arith::MinUIOp::create(b, l, current, update).getResult()
               : arith::MinSIOp::create(b, l, current, update).getResult();
  }
  if (reduction == "max") {
    if (isFloat)
      return arith::MaximumFOp::create(b, l, current, update);
    return isUnsigned
               ? arith::MaxUIOp::create(b, l, current, update).getResult()
               : arith::MaxSIOp::create(b, l, current, update).getResult();
  }
  return update;
}

/// The position an index value `raw` names along a dimension of `extent`
/// (a negative one counts from the end); out of range raises `message`.
Value checkedIndex(OpBuilder &b, Location l, ModuleOp module, Value raw,
                   int64_t extent, bool isUnsigned, StringRef message) {
  // In i64, so that adding the extent cannot overflow a narrow index type.
  Type i64 = b.getI64Type();
  if (raw.getType() != i64)
    raw = isUnsigned ? arith::ExtUIOp::create(b, l, i64, raw).getResult()
                     : arith::ExtSIOp::create(b, l, i64, raw).getResult();
  Value size = arith::ConstantIntOp::create(b, l, i64, extent);
  if (!isUnsigned) {
    Value negative =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, raw,
                              arith::ConstantIntOp::create(b, l, i64, 0));
    raw = arith::SelectOp::create(b, l, negative,
                                  arith::AddIOp::create(b, l, raw, size), raw);
  }
  // Still negative, or past the end: unsigned, both are >= extent.
  Value bad = arith::CmpIOp::create(b, l, arith::CmpIPredicate::uge, raw, size);
  auto check = scf::IfOp::create(b, l, bad, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(check.thenBlock());
    RuntimeCalls(module).fail(b, l, message);
  }
  return arith::IndexCastUIOp::create(b, l, b.getIndexType(), raw);
}

std::string outOfRange(Operation *op, int64_t extent, StringRef what) {
  return describeLocation(op->getLoc()) + "\t" +
         op->getName().getStringRef().drop_front(6).str() +
         ": an index is out of range [-" + std::to_string(extent) + ", " +
         std::to_string(extent) + ")" + what.str();
}

/// A loop nest over `shape` threading `init`; `body` gives the next value
/// from the induction variables and the value so far.
Value scatterLoops(
    OpBuilder &b, Location loc, ArrayRef<int64_t> shape, Value init,
    function_ref<Value(OpBuilder &, Location, ValueRange, Value)> body) {
  SmallVector<Value> lbs, ubs, steps;
  for (int64_t size : shape) {
    lbs.push_back(index(b, loc, 0));
    ubs.push_back(index(b, loc, size));
    steps.push_back(index(b, loc, 1));
  }
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, ValueRange{init},
      [&](OpBuilder &nb, Location l, ValueRange ivs, ValueRange acc) {
        return scf::ValueVector{body(nb, l, ivs, acc[0])};
      });
  return nest.results.front();
}

/// scatter_elements: for each index position u, result[u with u[axis] =
/// indices[u]] (combined with) updates[u].
FailureOr<SmallVector<Value>> scatterElementsRule(OpBuilder &b, Operation *op,
                                                  ValueRange operands) {
  RankedTensorType type = resultType(op);
  auto indexType = cast<RankedTensorType>(operands[1].getType());
  if (!type || !type.hasStaticShape() || !indexType.hasStaticShape())
    return failure();
  int64_t axis = intAttr(op, "axis", 0);
  if (axis < 0)
    axis += type.getRank();
  int64_t extent = type.getDimSize(axis);
  StringRef reduction = strAttr(op, "reduction", "update");
  bool unsignedIndex = isUnsignedValue(op->getOperand(1));
  bool unsignedData = isUnsignedValue(op->getOperand(0));
  auto module = op->getParentOfType<ModuleOp>();
  std::string message = outOfRange(op, extent, "");
  Value indices = operands[1], updates = operands[2];
  return SmallVector<Value>{scatterLoops(
      b, op->getLoc(), indexType.getShape(), operands[0],
      [&](OpBuilder &nb, Location l, ValueRange ivs, Value acc) {
        SmallVector<Value> at(ivs);
        at[axis] = checkedIndex(nb, l, module,
                                tensor::ExtractOp::create(nb, l, indices, ivs),
                                extent, unsignedIndex, message);
        Value update = tensor::ExtractOp::create(nb, l, updates, ivs);
        if (reduction != "update")
          update = combine(nb, l, reduction,
                           tensor::ExtractOp::create(nb, l, acc, at), update,
                           unsignedData);
        return tensor::InsertOp::create(nb, l, update, acc, at).getResult();
      })};
}

/// scatter_nd: indices (M, Y...), updates (Y..., X_M...); for each (y, x),
/// result[indices[:, y], x] (combined with) updates[y, x].
FailureOr<SmallVector<Value>> scatterNDRule(OpBuilder &b, Operation *op,
                                            ValueRange operands) {
  RankedTensorType type = resultType(op);
  auto indexType = cast<RankedTensorType>(operands[1].getType());
  if (!type || !type.hasStaticShape() || !indexType.hasStaticShape())
    return failure();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t m = indexType.getDimSize(0);
  int64_t k = indexType.getRank() - 1;
  StringRef mode = strAttr(op, "mode", "update");
  bool unsignedIndex = isUnsignedValue(op->getOperand(1));
  bool unsignedData = isUnsignedValue(op->getOperand(0));
  auto module = op->getParentOfType<ModuleOp>();
  SmallVector<std::string> messages;
  for (int64_t j = 0; j < m; ++j)
    messages.push_back(
        outOfRange(op, shape[j], " for dimension " + std::to_string(j)));
  // Loops over the index tuples (Y...) and the slice each writes (X_M...).
  SmallVector<int64_t> loops(indexType.getShape().drop_front());
  loops.append(shape.begin() + m, shape.end());
  Value indices = operands[1], updates = operands[2];
  return SmallVector<Value>{scatterLoops(
      b, op->getLoc(), loops, operands[0],
      [&](OpBuilder &nb, Location l, ValueRange ivs, Value acc) {
        SmallVector<Value> at;
        for (int64_t j = 0; j < m; ++j) {
          SmallVector<Value> tuple{index(nb, l, j)};
          tuple.append(ivs.begin(), ivs.begin() + k);
          at.push_back(checkedIndex(
              nb, l, module, tensor::ExtractOp::create(nb, l, indices, tuple),
              shape[j], unsignedIndex, messages[j]));
        }
        at.append(ivs.begin() + k, ivs.end());
        Value update = tensor::ExtractOp::create(nb, l, updates, ivs);
        if (mode != "update")
          update =
              combine(nb, l, mode, tensor::ExtractOp::create(nb, l, acc, at),
                      update, unsignedData);
        return tensor::InsertOp::create(nb, l, update, acc, at).getResult();
      })};
}

} // namespace

void mlir::relay::populateRelayScatterToSCFPatterns(
    RelayTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<RuleLowering<ScatterElementsOp, scatterElementsRule>,
               RuleLowering<ScatterNDOp, scatterNDRule>>(converter,
                                                         patterns.getContext());
}

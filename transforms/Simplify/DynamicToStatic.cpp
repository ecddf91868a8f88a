//===- DynamicToStatic.cpp - --relay-dynamic-to-static --------------------===//
//
// TVM's DynamicToStatic: the dyn operators (RelayDynamicOperators.td) whose
// shape operands are constants become their static forms, and the functions
// changed are typed again, so that the sizes that follow are static too.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "dialects/relay/RelayBuilder.h"
#include "dialects/relay/RelayOps.h"
#include "runtime/Interpreter/Interpreter.h"
#include "transforms/Specialize/BindInputShapes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"

#include <cmath>

namespace mlir::relay {
#define GEN_PASS_DEF_DYNAMICTOSTATIC
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

/// The most elements the static topk takes (its decomposition's rounds).
static constexpr int64_t kMaxStaticTopK = 64;
/// The longest arange made a constant (--relay-fold-constant's default
/// bound on a folded tensor).
static constexpr double kMaxArange = 1 << 22;

/// The integers of `v` when it is a constant.
static std::optional<SmallVector<int64_t>> constantInts(Value v) {
  auto c = v.getDefiningOp<ConstantOp>();
  auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : nullptr;
  if (!dense || !isa<IntegerType>(dense.getElementType()))
    return std::nullopt;
  SmallVector<int64_t> values;
  for (const APInt &v : dense.getValues<APInt>())
    values.push_back(v.getSExtValue());
  return values;
}

/// The static form of `op` (built before it), or null when its operands
/// are not constants or the static operator does not take them.
static Value staticForm(Operation *op, OpBuilder &b) {
  RelayBuilder relay(b, op->getLoc());
  auto attrs = [&](std::initializer_list<StringRef> kept) {
    SmallVector<NamedAttribute> out;
    for (StringRef name : kept)
      if (Attribute a = op->getAttr(name))
        out.push_back(b.getNamedAttr(name, a));
    return out;
  };
  auto quiet = [&]() -> InFlightDiagnostic {
    return mlir::emitError(op->getLoc());
  };
  ScopedDiagnosticHandler silence(op->getContext(),
                                  [](Diagnostic &) { return success(); });
  if (auto reshape = dyn_cast<DynReshapeOp>(op)) {
    std::optional<SmallVector<int64_t>> shape =
        constantInts(reshape.getNewshape());
    if (!shape)
      return nullptr;
    SmallVector<NamedAttribute> a = attrs({"allowzero"});
    a.push_back(b.getNamedAttr("newshape", b.getDenseI64ArrayAttr(*shape)));
    return relay.op<ReshapeOp>({reshape.getData()}, a, quiet);
  }
  if (auto full = dyn_cast<DynFullOp>(op)) {
    std::optional<SmallVector<int64_t>> shape = constantInts(full.getShape());
    if (!shape)
      return nullptr;
    SmallVector<NamedAttribute> a = attrs({"dtype"});
    a.push_back(b.getNamedAttr("shape", b.getDenseI64ArrayAttr(*shape)));
    return relay.op<FullOp>({full.getFillValue()}, a, quiet);
  }
  if (auto tile = dyn_cast<DynTileOp>(op)) {
    std::optional<SmallVector<int64_t>> reps = constantInts(tile.getReps());
    if (!reps)
      return nullptr;
    return relay.op<TileOp>(
        {tile.getData()},
        {b.getNamedAttr("reps", b.getDenseI64ArrayAttr(*reps))}, quiet);
  }
  if (auto slice = dyn_cast<DynStridedSliceOp>(op)) {
    std::optional<SmallVector<int64_t>> begin = constantInts(slice.getBegin()),
                                        end = constantInts(slice.getEnd()),
                                        strides =
                                            constantInts(slice.getStrides());
    if (!begin || !end || !strides)
      return nullptr;
    SmallVector<NamedAttribute> a = attrs({"slice_mode"});
    a.push_back(b.getNamedAttr("begin", b.getDenseI64ArrayAttr(*begin)));
    a.push_back(b.getNamedAttr("end", b.getDenseI64ArrayAttr(*end)));
    a.push_back(b.getNamedAttr("strides", b.getDenseI64ArrayAttr(*strides)));
    return relay.op<StridedSliceOp>({slice.getData()}, a, quiet);
  }
  if (auto resize = dyn_cast<DynResize2DOp>(op)) {
    std::optional<SmallVector<int64_t>> size = constantInts(resize.getSize());
    if (!size)
      return nullptr;
    SmallVector<NamedAttribute> a =
        attrs({"layout", "method", "coordinate_transformation_mode",
               "rounding_method", "cubic_alpha", "cubic_exclude",
               "extrapolation_value", "out_dtype"});
    a.push_back(b.getNamedAttr("size", b.getDenseI64ArrayAttr(*size)));
    return relay.op<Resize2DOp>({resize.getData()}, a, quiet);
  }
  if (auto topk = dyn_cast<DynTopKOp>(op)) {
    std::optional<SmallVector<int64_t>> k = constantInts(topk.getK());
    if (!k || k->size() != 1)
      return nullptr;
    // k < 1 takes the whole axis: the static topk does so too.
    auto data = cast<RankedTensorType>(topk.getData().getType());
    int64_t axis =
        topk.getAxis() < 0 ? topk.getAxis() + data.getRank() : topk.getAxis();
    int64_t kept = k->front() >= 1 ? k->front() : data.getDimSize(axis);
    if (ShapedType::isDynamic(kept) || kept > kMaxStaticTopK)
      return nullptr;
    SmallVector<NamedAttribute> a =
        attrs({"axis", "ret_type", "is_ascend", "dtype"});
    a.push_back(b.getNamedAttr("k", b.getI64IntegerAttr(k->front())));
    return relay.op<TopKOp>({topk.getData()}, a, quiet);
  }
  if (isa<ArangeOp>(op)) {
    std::vector<interp::ValuePtr> operands;
    for (Value v : op->getOperands()) {
      auto c = v.getDefiningOp<ConstantOp>();
      auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : nullptr;
      if (!dense)
        return nullptr;
      operands.push_back(
          interp::RuntimeValue::tensor(interp::Tensor::fromAttr(dense)));
    }
    // A constant stored in the program stays small (FoldConstant's bound):
    // a longer range is computed when the program runs.
    double start = operands[0]->getTensor().getF(0),
           stop = operands[1]->getTensor().getF(0),
           step = operands[2]->getTensor().getF(0);
    if (step == 0 || !(std::ceil((stop - start) / step) <= kMaxArange))
      return nullptr;
    FailureOr<interp::ValuePtr> value = interp::evaluateOperator(op, operands);
    if (failed(value) || !(*value)->isTensor())
      return nullptr;
    return ConstantOp::create(b, op->getLoc(), (*value)->getTensor().toAttr());
  }
  return nullptr;
}

namespace {

struct DynamicToStaticPass
    : public relay::impl::DynamicToStaticBase<DynamicToStaticPass> {
  using DynamicToStaticBase::DynamicToStaticBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> candidates;
    module.walk([&](Operation *op) {
      if (isa<DynReshapeOp, DynFullOp, DynTileOp, DynStridedSliceOp, DynTopKOp,
              DynResize2DOp, ArangeOp>(op))
        candidates.push_back(op);
    });
    bool changed = false;
    for (Operation *op : candidates) {
      OpBuilder b(op);
      Value replacement = staticForm(op, b);
      if (!replacement)
        continue;
      op->getResult(0).replaceAllUsesWith(replacement);
      op->erase();
      changed = true;
      ++numMadeStatic;
    }
    if (!changed)
      return;
    // What follows from the sizes made static is typed again, in every
    // function (a private function's results may be its callers' sizes);
    // public functions keep their declared results unless asked.
    SmallVector<std::pair<FuncOp, FunctionType>> declared;
    module.walk([&](FuncOp func) {
      if (func.getBody().empty())
        return;
      if (func.isPublic() && !refineSignatures)
        declared.push_back({func, func.getFunctionType()});
      forgetDynamicTypes(func);
    });
    OpPassManager infer("builtin.module");
    infer.addPass(createInferTypes());
    if (failed(runPipeline(infer, module)))
      return signalPassFailure();
    for (auto [func, type] : declared)
      func.setFunctionType(FunctionType::get(
          func.getContext(), func.getArgumentTypes(), type.getResults()));
  }
};

} // namespace

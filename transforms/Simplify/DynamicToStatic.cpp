//===- DynamicToStatic.cpp - --relay-dynamic-to-static --------------------===//
//
// TVM's DynamicToStatic: the dyn operators (RelayDynamicOperators.td) whose
// shape operands are constants become their static forms, and the functions
// changed are typed again, so that the sizes that follow are static too.
//
//===----------------------------------------------------------------------===//

#include "transforms/Simplify/DynamicToStatic.h"
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

/// The one number of `v` when it is a constant scalar (or one-element
/// tensor), read as a double.
static std::optional<double> constantNumber(Value v) {
  auto c = v.getDefiningOp<ConstantOp>();
  auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : nullptr;
  if (!dense || dense.getNumElements() != 1)
    return std::nullopt;
  if (isa<FloatType>(dense.getElementType()))
    return (*dense.getValues<APFloat>().begin()).convertToDouble();
  if (isa<IntegerType>(dense.getElementType()))
    return static_cast<double>(
        (*dense.getValues<APInt>().begin()).getSExtValue());
  return std::nullopt;
}

bool mlir::relay::isShapeFromValueOperator(Operation *op) {
  return isa<DynReshapeOp, DynFullOp, DynZerosOp, DynOnesOp, DynBroadcastToOp,
             DynTileOp, DynStridedSliceOp, DynTopKOp, DynResize2DOp, DynPadOp,
             DynSqueezeOp, DynExpandDimsOp, DynOneHotOp, DynSparseToDenseOp,
             DynUpSamplingOp, DynUpSampling3DOp, ArangeOp>(op);
}

/// The attributes of `op` named in `kept` that it has.
static SmallVector<NamedAttribute>
keptAttrs(Operation *op, std::initializer_list<StringRef> kept) {
  SmallVector<NamedAttribute> out;
  for (StringRef name : kept)
    if (Attribute a = op->getAttr(name))
      out.push_back(NamedAttribute(StringAttr::get(op->getContext(), name), a));
  return out;
}

namespace {
/// A dyn operator's operand that its static form takes as an attribute:
/// a list of integers, or one integer when `scalar`.
struct ShapeOperand {
  unsigned operand;
  StringRef attr;
  bool scalar = false;
};
} // namespace

/// `StaticOp` on the operands `data` of `op` with the constant operands
/// `shapes` as attributes, and the attributes `kept` of `op`; null when a
/// shape operand is not a constant or the static operator does not type.
template <typename StaticOp>
static Value rebuildStatic(Operation *op, RelayBuilder &relay,
                           ArrayRef<unsigned> data,
                           ArrayRef<ShapeOperand> shapes,
                           std::initializer_list<StringRef> kept,
                           function_ref<InFlightDiagnostic()> quiet) {
  SmallVector<NamedAttribute> a = keptAttrs(op, kept);
  Builder b(op->getContext());
  for (const ShapeOperand &shape : shapes) {
    std::optional<SmallVector<int64_t>> ints =
        constantInts(op->getOperand(shape.operand));
    if (!ints || (shape.scalar && ints->size() != 1))
      return nullptr;
    a.push_back(b.getNamedAttr(
        shape.attr, shape.scalar ? Attribute(b.getI64IntegerAttr(ints->front()))
                                 : b.getDenseI64ArrayAttr(*ints)));
  }
  SmallVector<Value> operands;
  for (unsigned i : data)
    operands.push_back(op->getOperand(i));
  return relay.op<StaticOp>(operands, a, quiet);
}

/// The static form of `op` (built before it), or null when its operands
/// are not constants or the static operator does not take them.
static Value staticForm(Operation *op, OpBuilder &b) {
  RelayBuilder relay(b, op->getLoc());
  auto quiet = [&]() -> InFlightDiagnostic {
    return mlir::emitError(op->getLoc());
  };
  ScopedDiagnosticHandler silence(op->getContext(),
                                  [](Diagnostic &) { return success(); });
  if (isa<DynReshapeOp>(op))
    return rebuildStatic<ReshapeOp>(op, relay, {0}, {{1, "newshape"}},
                                    {"allowzero"}, quiet);
  if (isa<DynFullOp>(op))
    return rebuildStatic<FullOp>(op, relay, {0}, {{1, "shape"}}, {"dtype"},
                                 quiet);
  if (isa<DynZerosOp>(op))
    return rebuildStatic<ZerosOp>(op, relay, {}, {{0, "shape"}}, {"dtype"},
                                  quiet);
  if (isa<DynOnesOp>(op))
    return rebuildStatic<OnesOp>(op, relay, {}, {{0, "shape"}}, {"dtype"},
                                 quiet);
  if (isa<DynBroadcastToOp>(op))
    return rebuildStatic<BroadcastToOp>(op, relay, {0}, {{1, "shape"}}, {},
                                        quiet);
  if (isa<DynTileOp>(op))
    return rebuildStatic<TileOp>(op, relay, {0}, {{1, "reps"}}, {}, quiet);
  if (isa<DynStridedSliceOp>(op))
    return rebuildStatic<StridedSliceOp>(
        op, relay, {0}, {{1, "begin"}, {2, "end"}, {3, "strides"}},
        {"slice_mode"}, quiet);
  if (isa<DynResize2DOp>(op))
    return rebuildStatic<Resize2DOp>(
        op, relay, {0}, {{1, "size"}},
        {"layout", "method", "coordinate_transformation_mode",
         "rounding_method", "cubic_alpha", "cubic_exclude",
         "extrapolation_value", "out_dtype"},
        quiet);
  if (isa<DynSqueezeOp>(op))
    return rebuildStatic<SqueezeOp>(op, relay, {0}, {{1, "axis"}}, {}, quiet);
  if (isa<DynExpandDimsOp>(op))
    return rebuildStatic<ExpandDimsOp>(
        op, relay, {0}, {{1, "axis", /*scalar=*/true}}, {"num_newaxis"}, quiet);
  if (isa<DynOneHotOp>(op))
    return rebuildStatic<OneHotOp>(op, relay, {0, 1, 2},
                                   {{3, "depth", /*scalar=*/true}},
                                   {"axis", "dtype"}, quiet);
  if (isa<DynSparseToDenseOp>(op))
    return rebuildStatic<SparseToDenseOp>(op, relay, {0, 1, 2},
                                          {{3, "output_shape"}}, {}, quiet);
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
        keptAttrs(op, {"axis", "ret_type", "is_ascend", "dtype"});
    a.push_back(b.getNamedAttr("k", b.getI64IntegerAttr(k->front())));
    return relay.op<TopKOp>({topk.getData()}, a, quiet);
  }
  if (auto pad = dyn_cast<DynPadOp>(op)) {
    std::optional<SmallVector<int64_t>> width = constantInts(pad.getPadWidth());
    auto value = cast<RankedTensorType>(pad.getPadValue().getType());
    auto data = cast<RankedTensorType>(pad.getData().getType());
    // (nn.pad takes a scalar of the data's dtype and widths of at least 0.)
    if (!width || value.getRank() != 0 ||
        value.getElementType() != data.getElementType() ||
        llvm::any_of(*width, [](int64_t w) { return w < 0; }))
      return nullptr;
    SmallVector<NamedAttribute> a = keptAttrs(op, {"pad_mode"});
    a.push_back(b.getNamedAttr("pad_width", b.getDenseI64ArrayAttr(*width)));
    return relay.op<PadOp>({pad.getData(), pad.getPadValue()}, a, quiet);
  }
  if (isa<DynUpSamplingOp, DynUpSampling3DOp>(op)) {
    bool is3d = isa<DynUpSampling3DOp>(op);
    SmallVector<NamedAttribute> a =
        keptAttrs(op, {"layout", "method", "align_corners",
                       "coordinate_transformation_mode"});
    static const char *const names[] = {"scale_d", "scale_h", "scale_w"};
    for (unsigned i = 1; i < op->getNumOperands(); ++i) {
      std::optional<double> scale = constantNumber(op->getOperand(i));
      if (!scale)
        return nullptr;
      a.push_back(b.getNamedAttr(names[i - 1 + (is3d ? 0 : 1)],
                                 b.getF64FloatAttr(*scale)));
    }
    Value data = op->getOperand(0);
    return is3d ? relay.op<UpSampling3DOp>({data}, a, quiet)
                : relay.op<UpSamplingOp>({data}, a, quiet);
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
      if (isShapeFromValueOperator(op))
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
    infer.addPass(createReinferTypes());
    if (failed(runPipeline(infer, module)))
      return signalPassFailure();
    for (auto [func, type] : declared)
      func.setFunctionType(FunctionType::get(
          func.getContext(), func.getArgumentTypes(), type.getResults()));
  }
};

} // namespace

//===- FoldConstant.cpp - --relay-fold-constant ---------------------------===//
//
// Operators of constants are evaluated by the interpreter's reference
// kernels (the same oracle compiled code is checked against), so that what
// a program computes does not depend on whether a part of it was folded.
// Conditionals on constants are decided; tuples of constants and their
// projections fold through the ops' own folders.
//
//===----------------------------------------------------------------------===//

#include "transforms/Simplify/FoldConstant.h"
#include "transforms/Decompose/Decompose.h"
#include "transforms/Passes.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayOps.h"
#include "runtime/Interpreter/Interpreter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::relay {
#define GEN_PASS_DEF_FOLDCONSTANT
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

/// The run-time value of `v` when it is a constant, or a tuple of them
/// (nested); null otherwise.
static ValuePtr constantValue(Value v) {
  if (auto c = v.getDefiningOp<ConstantOp>()) {
    if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue()))
      return RuntimeValue::tensor(Tensor::fromAttr(dense));
    if (auto resource = dyn_cast<DenseResourceElementsAttr>(c.getValue())) {
      FailureOr<Tensor> t = Tensor::fromResource(resource);
      return succeeded(t) ? RuntimeValue::tensor(std::move(*t)) : nullptr;
    }
    return nullptr;
  }
  if (auto tuple = v.getDefiningOp<TupleOp>()) {
    std::vector<ValuePtr> fields;
    for (Value field : tuple.getFields()) {
      ValuePtr f = constantValue(field);
      if (!f)
        return nullptr;
      fields.push_back(std::move(f));
    }
    return RuntimeValue::tuple(std::move(fields));
  }
  return nullptr;
}

/// The number of elements of `type` (a static tensor, or a tuple of them);
/// -1 when a shape is not static.
static int64_t numElements(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    int64_t n = 0;
    for (Type field : tuple.getTypes()) {
      int64_t f = numElements(field);
      if (f < 0)
        return -1;
      n += f;
    }
    return n;
  }
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() ? tensor.getNumElements() : -1;
}

/// `value` as constants of `type` (relay.constant, relay.tuple of them);
/// null when it does not have that type.
static Value materialize(OpBuilder &b, Location loc, const ValuePtr &value,
                         Type type) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    if (value->getKind() != RuntimeValue::Kind::Tuple ||
        value->getFields().size() != tuple.size())
      return nullptr;
    SmallVector<Value> fields;
    for (auto [field, t] : llvm::zip(value->getFields(), tuple.getTypes())) {
      Value f = materialize(b, loc, field, t);
      if (!f)
        return nullptr;
      fields.push_back(f);
    }
    return TupleOp::create(b, loc, fields);
  }
  if (!value->isTensor())
    return nullptr;
  DenseElementsAttr attr = value->getTensor().toAttr();
  if (attr.getType() != type)
    return nullptr;
  return ConstantOp::create(b, loc, attr);
}

/// The value of `v` computed from constants by the operators' kernels,
/// at most `depth` operators deep, none of whose results is larger than
/// `maxElements`; null when something is not constant.
static ValuePtr evaluate(Value v, unsigned depth, int64_t maxElements) {
  if (ValuePtr c = constantValue(v))
    return c;
  Operation *op = v.getDefiningOp();
  int64_t n = numElements(v.getType());
  if (!op || depth == 0 || op->getNumResults() != 1 || n < 0 ||
      n > maxElements || !lookupOperator(op->getName().getStringRef()))
    return nullptr;
  SmallVector<ValuePtr> operands;
  for (Value operand : op->getOperands()) {
    ValuePtr c = evaluate(operand, depth - 1, maxElements);
    if (!c)
      return nullptr;
    operands.push_back(std::move(c));
  }
  ScopedDiagnosticHandler quiet(op->getContext(),
                                [](Diagnostic &) { return success(); });
  FailureOr<ValuePtr> result = evaluateOperator(op, operands);
  return succeeded(result) ? *result : nullptr;
}

DenseElementsAttr mlir::relay::evaluateConstantTensor(Value v,
                                                      int64_t maxElements,
                                                      unsigned maxDepth) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !type.hasStaticShape() || type.getNumElements() > maxElements)
    return nullptr;
  ValuePtr value = evaluate(v, maxDepth, maxElements);
  if (!value || !value->isTensor())
    return nullptr;
  DenseElementsAttr attr = value->getTensor().toAttr();
  return attr.getType() == type ? attr : nullptr;
}

namespace {

/// The elements of the constant operands of `op` that nothing else uses:
/// what folding `op` removes from the program. A fold that stores no more
/// than that (a weight's transpose or reshape, its product with a scale)
/// does not grow the program, whatever its size, and saves recomputing it
/// on every run.
static int64_t consumedElements(Operation *op) {
  int64_t consumed = 0;
  SmallPtrSet<Value, 4> counted;
  for (Value v : op->getOperands()) {
    auto c = v.getDefiningOp<ConstantOp>();
    if (!c || !counted.insert(v).second ||
        llvm::any_of(v.getUsers(), [&](Operation *u) { return u != op; }))
      continue;
    consumed += std::max<int64_t>(numElements(v.getType()), 0);
  }
  return consumed;
}

/// An operator whose operands are all constants: its value.
struct FoldOperator : RewritePattern {
  FoldOperator(MLIRContext *context, int64_t maxElements, unsigned &folded)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context),
        maxElements(maxElements), folded(folded) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (op->getNumResults() != 1 ||
        !lookupOperator(op->getName().getStringRef()))
      return rewriter.notifyMatchFailure(op, "not an operator");
    int64_t n = numElements(op->getResult(0).getType());
    if (n < 0)
      return rewriter.notifyMatchFailure(op, "result not static");
    if (n > maxElements && n > consumedElements(op))
      return rewriter.notifyMatchFailure(op, "result too big");
    SmallVector<ValuePtr> operands;
    for (Value v : op->getOperands()) {
      ValuePtr c = constantValue(v);
      if (!c)
        return rewriter.notifyMatchFailure(op, "an operand is not constant");
      operands.push_back(std::move(c));
    }
    FailureOr<ValuePtr> result = failure();
    {
      // A kernel that fails (an integer division by zero) leaves the op to
      // fail when the program runs; its diagnostic is not this pass's.
      ScopedDiagnosticHandler quiet(op->getContext(),
                                    [](Diagnostic &) { return success(); });
      result = evaluateOperator(op, operands);
    }
    if (failed(result))
      return rewriter.notifyMatchFailure(op, "its kernel failed");
    Value folded = materialize(rewriter, op->getLoc(), *result,
                               op->getResult(0).getType());
    if (!folded)
      return rewriter.notifyMatchFailure(op, "the result has another type");
    rewriter.replaceOp(op, folded);
    ++this->folded;
    return success();
  }

  int64_t maxElements;
  unsigned &folded;
};

/// `if` on a constant condition: its taken branch.
struct FoldIf : OpRewritePattern<IfOp> {
  FoldIf(MLIRContext *context, unsigned &decided)
      : OpRewritePattern(context), decided(decided) {}

  LogicalResult matchAndRewrite(IfOp op,
                                PatternRewriter &rewriter) const override {
    ValuePtr cond = constantValue(op.getCond());
    if (!cond || !cond->isTensor() || cond->getTensor().getNumElements() != 1)
      return rewriter.notifyMatchFailure(op, "the condition is not constant");
    Region &taken =
        cond->getTensor().getB(0) ? op.getThenRegion() : op.getElseRegion();
    Block &block = taken.front();
    Operation *yield = block.getTerminator();
    Value result = yield->getOperand(0);
    rewriter.inlineBlockBefore(&block, op);
    rewriter.eraseOp(yield);
    rewriter.replaceOp(op, result);
    ++decided;
    return success();
  }

  unsigned &decided;
};

struct FoldConstantPass
    : public relay::impl::FoldConstantBase<FoldConstantPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    unsigned folded = 0, decided = 0;
    RewritePatternSet patterns(context);
    patterns.add<FoldOperator>(context, maxElements, folded);
    // shape_of and ndarray_size of a tensor whose type is static: its shape
    // or size whatever computes it (as TVM's FoldConstant), by their
    // decompositions, which need static types.
    populateDecompositionPatterns(patterns, [](StringRef name) {
      return name == ShapeOfOp::getOperationName() ||
             name == NdarraySizeOp::getOperationName();
    });
    patterns.add<FoldIf>(context, decided);
    // Not converging within the driver's rounds leaves a correct program
    // with fewer folds.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
    numFolded += folded;
    numBranches += decided;
  }
};

} // namespace

//===- FirstOrderGradient.cpp - Reverse-mode AD, first order ----*- C++ -*-===//
//
// --relay-gradient{mode=first-order}: TVM's first-order gradient. `@NAME_grad`
// takes NAME's parameters and returns `(NAME(x...), (d/dx1, ..., d/dxn))`,
// the result seeded with ones. Its body is NAME's forward ops, then their
// adjoints in reverse order, each operator's from the registry's gradient
// rule; the adjoints of a value used more than once are summed, those of
// tuples are kept field by field. It covers functions of tensors built
// from operators, constants, tuples and projections: anything else (calls,
// `if`, `match`, closures, references) is an error at the construct; an
// operator without a rule is reported with every other such operator at
// once.
//
//===----------------------------------------------------------------------===//

#include "transforms/AutoDiff/Gradient.h"
#include "transforms/AutoDiff/GradientRules.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayBuilder.h"
#include "dialects/relay/RelayOps.h"
#include "dialects/relay/TypeUtils.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::relay;

namespace {

/// The adjoint of a value: one value for a tensor, one per field (null
/// where none reached it) for a tuple.
using Adjoint = SmallVector<Value, 1>;

class FirstOrderGradient {
public:
  /// Builds `gradName` from `f` (checked first order).
  LogicalResult build(FuncOp f, StringRef gradName);

private:
  /// Adds `contribution` to the adjoint of `value` (field `field` of it for
  /// a tuple).
  void accumulate(RelayBuilder &rb, Value value, Value contribution,
                  unsigned field = 0);
  /// The adjoint of `value` as one value (a tuple's missing fields zeros),
  /// or null when none reached it.
  Value adjointValue(RelayBuilder &rb, Value value);

  DenseMap<Value, Adjoint> adjoints;
};

} // namespace

/// Checks that `f` is first order; reports every construct that is not
/// when `emit`.
static LogicalResult checkFirstOrder(FuncOp f, bool emit) {
  bool ok = true;
  for (Type t : f.getArgumentTypes())
    if (!isa<RankedTensorType>(t) || !isConcrete(t)) {
      ok = false;
      if (!emit)
        continue;
      f.emitError("relay-gradient: @")
          << f.getSymName() << " takes a " << t
          << "; the first-order gradient differentiates functions of "
             "tensors";
    }
  f.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == f.getOperation() ||
        isa<ConstantOp, TupleOp, TupleGetOp, ReturnOp>(op) ||
        lookupOperator(op->getName().getStringRef()))
      return WalkResult::advance();
    ok = false;
    if (!emit)
      return WalkResult::interrupt();
    InFlightDiagnostic diag =
        op->emitError("relay-gradient: the first-order gradient cannot "
                      "differentiate '")
        << op->getName() << "'";
    if (isa<CallOp>(op))
      diag << " (inline the callee first: --inline)";
    else
      diag << " (it covers operators, constants, tuples and projections)";
    return WalkResult::skip();
  });
  return success(ok);
}

bool mlir::relay::isFirstOrderDifferentiable(FuncOp f) {
  return succeeded(checkFirstOrder(f, /*emit=*/false));
}

namespace {

void FirstOrderGradient::accumulate(RelayBuilder &rb, Value value,
                                    Value contribution, unsigned field) {
  // Integer and boolean values (indices, masks) have no gradient.
  if (!contribution || !holdsGradient(value.getType()))
    return;
  // A tuple's contribution (concatenate's operand): field by field.
  if (auto tuple = dyn_cast<TupleType>(value.getType());
      tuple && isa<TupleType>(contribution.getType())) {
    for (unsigned i = 0; i < tuple.size(); ++i)
      accumulate(rb, value, rb.tupleGet(contribution, i), i);
    return;
  }
  Adjoint &adjoint = adjoints[value];
  if (auto tuple = dyn_cast<TupleType>(value.getType()))
    adjoint.resize(tuple.size());
  else
    adjoint.resize(1);
  Value &slot = adjoint[field];
  slot = slot ? rb.add(slot, contribution) : contribution;
}

Value FirstOrderGradient::adjointValue(RelayBuilder &rb, Value value) {
  auto it = adjoints.find(value);
  if (it == adjoints.end())
    return {};
  auto tuple = dyn_cast<TupleType>(value.getType());
  if (!tuple)
    return it->second.front();
  SmallVector<Value> fields;
  for (auto [i, t] : llvm::enumerate(tuple.getTypes())) {
    Value field = it->second[i];
    if (!field)
      field = rb.op<ZerosLikeOp>({rb.tupleGet(value, i)});
    fields.push_back(field);
  }
  return rb.tuple(fields);
}

LogicalResult FirstOrderGradient::build(FuncOp f, StringRef gradName) {
  if (failed(checkFirstOrder(f, /*emit=*/true)))
    return failure();
  auto module = f->getParentOfType<ModuleOp>();

  // @NAME_grad(x...) -> (result, (grads...)).
  MLIRContext *ctx = f.getContext();
  SmallVector<Type> inputs(f.getArgumentTypes());
  auto gradsType = TupleType::get(ctx, inputs);
  auto resultType = TupleType::get(ctx, {f.getReturnType(), gradsType});
  OpBuilder b(module.getBodyRegion());
  b.setInsertionPointAfter(f);
  auto grad = FuncOp::create(b, f.getLoc(), gradName, inputs, resultType);
  SymbolTable(module).insert(grad);
  Block &entry = grad.getBody().front();
  b.setInsertionPointToStart(&entry);
  IRMapping mapping;
  mapping.map(f.getBody().front().getArguments(), entry.getArguments());
  SmallVector<Operation *> forward;
  for (Operation &op : f.getBody().front().without_terminator())
    forward.push_back(b.clone(op, mapping));
  Value result = mapping.lookupOrDefault(
      cast<ReturnOp>(f.getBody().front().getTerminator()).getValue());
  RelayBuilder rb(b, f.getLoc());

  // The seed: ones for every tensor of the result.
  std::function<void(Value, Value, unsigned)> seed = [&](Value v, Value into,
                                                         unsigned field) {
    accumulate(rb, into, rb.op<OnesLikeOp>({v}), field);
  };
  if (auto tuple = dyn_cast<TupleType>(result.getType())) {
    for (unsigned i = 0; i < tuple.size(); ++i) {
      if (!isa<RankedTensorType>(tuple.getType(i))) {
        f.emitError("relay-gradient: @")
            << f.getSymName()
            << " returns a nested tuple; the first-order gradient "
            << "seeds tensors and tuples of tensors";
        return failure();
      }
      // An integer tensor of the result takes no seed.
      if (holdsGradient(tuple.getType(i)))
        seed(rb.tupleGet(result, i), result, i);
    }
  } else {
    seed(result, result, 0);
  }

  // The adjoints, in reverse. Once an operator without a rule is found,
  // the search goes on (marking what it would reach) to report all of them.
  SmallVector<Operation *> missing;
  DenseSet<Value> reached;
  // (An operator on constants alone has operands of zero derivative.)
  DenseMap<Operation *, bool> fromConstants;
  auto takesGradient = [&](Operation *op) {
    return llvm::any_of(op->getOperandTypes(), holdsGradient) &&
           !computedFromConstants(op, fromConstants);
  };
  for (Operation *op : llvm::reverse(forward)) {
    if (!missing.empty()) {
      bool live = llvm::any_of(op->getResults(), [&](Value r) {
        return holdsGradient(r.getType()) &&
               (reached.contains(r) || adjoints.count(r));
      });
      const OperatorInfo *info = lookupOperator(op->getName().getStringRef());
      if (live && info && !info->gradient && takesGradient(op))
        missing.push_back(op);
      if (live)
        reached.insert(op->operand_begin(), op->operand_end());
      continue;
    }
    rb.setLoc(op->getLoc());
    if (isa<ConstantOp>(op))
      continue;
    if (auto tuple = dyn_cast<TupleOp>(op)) {
      auto it = adjoints.find(tuple.getResult());
      if (it == adjoints.end())
        continue;
      Adjoint fields = it->second;
      for (auto [i, field] : llvm::enumerate(fields))
        accumulate(rb, tuple.getFields()[i], field);
      continue;
    }
    if (auto get = dyn_cast<TupleGetOp>(op)) {
      Value g = adjointValue(rb, get.getResult());
      accumulate(rb, get.getTuple(), g, get.getIndex());
      continue;
    }
    Value g = adjointValue(rb, op->getResult(0));
    if (!g || !takesGradient(op))
      continue;
    const OperatorInfo *info = lookupOperator(op->getName().getStringRef());
    if (!info || !info->gradient) {
      missing.push_back(op);
      reached.insert(op->operand_begin(), op->operand_end());
      continue;
    }
    FailureOr<SmallVector<Value>> grads = info->gradient(b, op, g);
    if (failed(grads) || grads->size() != op->getNumOperands()) {
      op->emitError("relay-gradient: the gradient rule of '")
          << op->getName() << "' does not cover this use";
      return failure();
    }
    for (auto [operand, operandGrad] : llvm::zip(op->getOperands(), *grads))
      accumulate(rb, operand, operandGrad);
  }
  if (!missing.empty()) {
    // One error for all of them (TVM reported one at a time), in program
    // order.
    std::reverse(missing.begin(), missing.end());
    llvm::SetVector<StringRef> unique;
    for (Operation *op : missing)
      unique.insert(op->getName().getStringRef());
    InFlightDiagnostic diag =
        f.emitError("relay-gradient: no gradient rule for ")
        << llvm::join(unique, ", ");
    for (Operation *op : missing)
      diag.attachNote(op->getLoc()) << "'" << op->getName() << "' here";
    grad.erase();
    return failure();
  }

  SmallVector<Value> grads;
  rb.setLoc(f.getLoc());
  for (BlockArgument arg : entry.getArguments()) {
    Value g = adjointValue(rb, arg);
    grads.push_back(g ? g : rb.op<ZerosLikeOp>({arg}));
  }
  Value out = rb.tuple({result, rb.tuple(grads)});
  ReturnOp::create(b, f.getLoc(), out);
  return success();
}

} // namespace

LogicalResult mlir::relay::buildFirstOrderGradient(FuncOp f,
                                                   StringRef gradName) {
  return FirstOrderGradient().build(f, gradName);
}

//===- FirstOrderGradient.cpp - Reverse-mode AD, first order ----*- C++ -*-===//
//
// --relay-gradient{mode=first-order}: TVM's first-order gradient. `@NAME_grad`
// takes NAME's parameters and returns `(NAME(x...), (d/dx1, ..., d/dxn))`,
// the result seeded with ones. Its body is NAME's forward ops, then their
// adjoints in reverse order, each operator's from the registry's gradient
// rule; the adjoints of a value used more than once are summed, those of
// tuples are kept field by field. It covers functions of tensors and
// (nested) tuples of them, returning the same, built from operators,
// constants, tuples and projections: anything else (calls,
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
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::relay;

namespace {

/// The adjoint of a value: one value for a tensor, one per field (null
/// where none reached it) for a tuple; a field that is itself a tuple holds
/// one tuple-typed value.
using Adjoint = SmallVector<Value, 1>;

class FirstOrderGradient {
public:
  /// Builds `gradName` from `f` (checked first order).
  LogicalResult build(FuncOp f, StringRef gradName);

private:
  /// Adds `contribution` (of `value`'s type) to the adjoint of `value`.
  void accumulate(RelayBuilder &rb, Value value, Value contribution);
  /// Adds `contribution` to field `field` of the adjoint of the tuple
  /// `value`.
  void accumulateField(RelayBuilder &rb, Value value, unsigned field,
                       Value contribution);
  /// The adjoint of `value` as one value (a tuple's missing fields zeros),
  /// or null when none reached it.
  Value adjointValue(RelayBuilder &rb, Value value);

  DenseMap<Value, Adjoint> adjoints;
};

} // namespace

/// Field `index` of `tuple`: the operand itself where a relay.tuple built it.
static Value fieldOf(RelayBuilder &rb, Value tuple, unsigned index) {
  if (auto op = tuple.getDefiningOp<TupleOp>())
    return op.getFields()[index];
  return rb.tupleGet(tuple, index);
}

/// a + b, field by field for (nested) tuples.
static Value sum(RelayBuilder &rb, Value a, Value b) {
  auto tuple = dyn_cast<TupleType>(a.getType());
  if (!tuple)
    return rb.add(a, b);
  SmallVector<Value> fields;
  for (unsigned i = 0; i < tuple.size(); ++i)
    fields.push_back(sum(rb, fieldOf(rb, a, i), fieldOf(rb, b, i)));
  return rb.tuple(fields);
}

/// Zeros shaped as `value`, field by field for (nested) tuples.
static Value zerosOf(RelayBuilder &rb, Value value) {
  auto tuple = dyn_cast<TupleType>(value.getType());
  if (!tuple)
    return rb.op<ZerosLikeOp>({value});
  SmallVector<Value> fields;
  for (unsigned i = 0; i < tuple.size(); ++i)
    fields.push_back(zerosOf(rb, fieldOf(rb, value, i)));
  return rb.tuple(fields);
}

/// The seed of `value`: ones for each floating-point tensor in it, zeros
/// for the integer ones (which take no gradient).
static Value seedOf(RelayBuilder &rb, Value value) {
  auto tuple = dyn_cast<TupleType>(value.getType());
  if (!tuple)
    return holdsGradient(value.getType()) ? rb.op<OnesLikeOp>({value})
                                          : rb.op<ZerosLikeOp>({value});
  SmallVector<Value> fields;
  for (unsigned i = 0; i < tuple.size(); ++i)
    fields.push_back(seedOf(rb, fieldOf(rb, value, i)));
  return rb.tuple(fields);
}

/// Whether `type` is a tensor or a (nested) tuple of them.
static bool isTensorsType(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type))
    return llvm::all_of(tuple.getTypes(), isTensorsType);
  return isa<RankedTensorType>(type);
}

/// Checks that `f` is first order; reports every construct that is not
/// when `emit`.
static LogicalResult checkFirstOrder(FuncOp f, bool emit) {
  bool ok = true;
  for (Type t : f.getArgumentTypes())
    if (!isTensorsType(t) || !isConcrete(t)) {
      ok = false;
      if (!emit)
        continue;
      f.emitError("relay-gradient: @")
          << f.getSymName() << " takes a " << t
          << "; the first-order gradient differentiates functions of "
             "tensors and (nested) tuples of them";
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
                                    Value contribution) {
  // Integer and boolean values (indices, masks) have no gradient.
  if (!contribution || !holdsGradient(value.getType()))
    return;
  if (auto tuple = dyn_cast<TupleType>(value.getType())) {
    for (unsigned i = 0; i < tuple.size(); ++i)
      if (holdsGradient(tuple.getType(i)))
        accumulateField(rb, value, i, fieldOf(rb, contribution, i));
    return;
  }
  Adjoint &adjoint = adjoints[value];
  adjoint.resize(1);
  adjoint[0] = adjoint[0] ? rb.add(adjoint[0], contribution) : contribution;
}

void FirstOrderGradient::accumulateField(RelayBuilder &rb, Value value,
                                         unsigned field, Value contribution) {
  auto tuple = cast<TupleType>(value.getType());
  if (!contribution || !holdsGradient(tuple.getType(field)))
    return;
  Adjoint &adjoint = adjoints[value];
  adjoint.resize(tuple.size());
  Value &slot = adjoint[field];
  slot = slot ? sum(rb, slot, contribution) : contribution;
}

Value FirstOrderGradient::adjointValue(RelayBuilder &rb, Value value) {
  auto it = adjoints.find(value);
  if (it == adjoints.end())
    return {};
  auto tuple = dyn_cast<TupleType>(value.getType());
  if (!tuple)
    return it->second.front();
  SmallVector<Value> fields;
  for (unsigned i = 0; i < tuple.size(); ++i) {
    Value field = it->second[i];
    fields.push_back(field ? field : zerosOf(rb, fieldOf(rb, value, i)));
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

  // The seed: ones for every floating-point tensor of the result.
  accumulate(rb, result, seedOf(rb, result));

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
      accumulateField(rb, get.getTuple(), get.getIndex(), g);
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
    grads.push_back(g ? g : zerosOf(rb, arg));
  }
  Value out = rb.tuple({result, rb.tuple(grads)});
  ReturnOp::create(b, f.getLoc(), out);
  // What nothing reads (an integer field's seed, the adjoint of a constant
  // operand) goes, users before their operands.
  SmallVector<Operation *> body;
  for (Operation &op : entry.without_terminator())
    body.push_back(&op);
  for (Operation *op : llvm::reverse(body))
    if (isOpTriviallyDead(op))
      op->erase();
  return success();
}

} // namespace

LogicalResult mlir::relay::buildFirstOrderGradient(FuncOp f,
                                                   StringRef gradName) {
  return FirstOrderGradient().build(f, gradName);
}

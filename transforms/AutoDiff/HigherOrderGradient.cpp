//===- HigherOrderGradient.cpp - Reverse mode, whole language ---*- C++ -*-===//
//
// --relay-gradient{mode=higher-order}: seed 000 §4.2, Fig. 4. Every value
// of the program is replaced by its AD value: a floating-point tensor by the
// pair (value, reference to its gradient), tuples, closures, references and
// ADTs by the same over AD values (an ADT whose fields change gets a copy
// `@<name>_ad`); integer and boolean tensors stay as they are (they have no
// gradient, so conditions and counters are unchanged). Each function `f`
// reaches gets a copy `@<g>_ad` taking the backpropagator reference `bp`
// first: a reference to a closure `fn () -> ()` that runs the backward pass
// of everything computed so far. An operator computes its value on the
// operands' values, gets a gradient reference holding zeros, and prepends
// its adjoint to `bp`: the new closure reads the result's gradient, adds the
// operands' gradients (its rule's, from the registry) into their
// references, then runs the previous closure. `@<f>_grad` pairs the
// parameters, calls `@<f>_ad`, adds ones to the result's gradients, runs
// `bp` and reads the parameters' gradients. Control flow, recursion,
// closures and references need nothing more: the backward pass is built as
// the forward pass runs, along the path it takes.
//
//===----------------------------------------------------------------------===//

#include "transforms/AutoDiff/DualTransform.h"
#include "transforms/AutoDiff/Gradient.h"

#include "dialects/relay/OperatorRegistry.h"

using namespace mlir;
using namespace mlir::relay;

namespace {

class HigherOrderGradient : public DualTransform {
public:
  explicit HigherOrderGradient(ModuleOp module)
      : DualTransform(module, "relay-gradient", "_ad",
                      RefType::get(module.getContext(),
                                   backpropType(module.getContext()))) {}

  LogicalResult build(FuncOp f, StringRef gradName);

private:
  /// The type of `bp`'s closures, `fn () -> ()`.
  static FuncType backpropType(MLIRContext *ctx) {
    return FuncType::get(ctx, {}, TupleType::get(ctx, {}));
  }
  TupleType unitType() { return TupleType::get(ctx, {}); }

  Type dualTensorType(Type t) override {
    return TupleType::get(ctx, {t, RefType::get(ctx, t)});
  }
  /// Fresh gradient references of zeros.
  Value lift(RelayBuilder &rb, Value v) override;
  /// The value on the operands' values, its gradient reference, and its
  /// adjoint prepended to `bp`.
  void transformOperator(RelayBuilder &rb, Operation *op, Value bp) override;

  /// The gradient held for `ad` (zeros for integer tensors).
  Value readGrad(RelayBuilder &rb, Value ad, Type t);
  /// Adds `grad` into the gradient references of `ad`.
  void accumulate(RelayBuilder &rb, Value ad, Type t, Value grad);
};

} // namespace

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

Value HigherOrderGradient::lift(RelayBuilder &rb, Value v) {
  Type t = v.getType();
  if (!changes(t))
    return v;
  if (isFloatTensor(t))
    return rb.tuple({v, rb.ref(rb.op<ZerosLikeOp>({v}))});
  auto tuple = cast<TupleType>(t); // operators return tensors and tuples
  SmallVector<Value> fields;
  for (unsigned i = 0; i < tuple.size(); ++i)
    fields.push_back(lift(rb, rb.tupleGet(v, i)));
  return rb.tuple(fields);
}

Value HigherOrderGradient::readGrad(RelayBuilder &rb, Value ad, Type t) {
  if (isFloatTensor(t))
    return rb.refRead(rb.tupleGet(ad, 1));
  if (auto tuple = dyn_cast<TupleType>(t)) {
    SmallVector<Value> fields;
    for (auto [i, field] : llvm::enumerate(tuple.getTypes()))
      fields.push_back(readGrad(rb, rb.tupleGet(ad, i), field));
    return rb.tuple(fields);
  }
  return rb.op<ZerosLikeOp>({ad}); // an integer tensor
}

void HigherOrderGradient::accumulate(RelayBuilder &rb, Value ad, Type t,
                                     Value grad) {
  if (!grad || !changes(t))
    return;
  if (isFloatTensor(t)) {
    Value ref = rb.tupleGet(ad, 1);
    rb.refWrite(ref, rb.add(rb.refRead(ref), grad));
    return;
  }
  auto tuple = cast<TupleType>(t);
  for (auto [i, field] : llvm::enumerate(tuple.getTypes()))
    accumulate(rb, rb.tupleGet(ad, i), field, rb.tupleGet(grad, i));
}

//===----------------------------------------------------------------------===//
// Operators and the entry
//===----------------------------------------------------------------------===//

void HigherOrderGradient::transformOperator(RelayBuilder &rb, Operation *op,
                                            Value bp) {
  // The value, computed on the operands' values.
  IRMapping operands;
  for (Value operand : op->getOperands())
    operands.map(operand, primal(rb, map.lookup(operand), operand.getType()));
  Operation *forward = rb.getBuilder().clone(*op, operands);
  Value result = forward->getResult(0);
  Value ad = lift(rb, result);
  map.map(op->getResult(0), ad);
  bool differentiable = holdsGradient(result.getType()) &&
                        llvm::any_of(op->getOperandTypes(), holdsGradient) &&
                        !computedFromConstants(op, fromConstants);
  if (!differentiable)
    return;
  const OperatorInfo *info = lookupOperator(op->getName().getStringRef());
  if (!info->gradient) {
    missing.push_back(op);
    return;
  }

  // bp := fn () { operands' gradients += rule(result's gradient); old bp() }
  Value previous = rb.refRead(bp);
  Value backprop = rb.fn({}, unitType(), [&](RelayBuilder &inner, ValueRange) {
    Value g = readGrad(inner, ad, result.getType());
    FailureOr<SmallVector<Value>> grads =
        info->gradient(inner.getBuilder(), forward, g);
    if (::failed(grads) || grads->size() != op->getNumOperands()) {
      fail(op, Twine("the gradient rule of '") + op->getName().getStringRef() +
                   "' does not cover this use");
    } else {
      inner.setLoc(op->getLoc());
      for (auto [operand, grad] : llvm::zip(op->getOperands(), *grads))
        accumulate(inner, map.lookup(operand), operand.getType(), grad);
    }
    return inner.apply(previous, {});
  });
  rb.refWrite(bp, backprop);
}

LogicalResult HigherOrderGradient::build(FuncOp f, StringRef gradName) {
  if (::failed(checkEntryParams(f)))
    return failure();
  FuncOp adF = adFunc(f);
  (void)fillQueued();

  // @<f>_grad(x...) = let bp = ref(fn () { () }) in
  //   let r = @<f>_ad(bp, lift(x)...) in r.grad += ones; bp!(); (r, grads)
  SmallVector<Type> inputs(f.getArgumentTypes());
  auto resultType =
      TupleType::get(ctx, {f.getReturnType(), TupleType::get(ctx, inputs)});
  OpBuilder b(ctx);
  b.setInsertionPointAfter(f);
  auto grad = FuncOp::create(b, f.getLoc(), gradName, inputs, resultType);
  symbols.insert(grad);
  Block &entry = grad.getBody().front();
  b.setInsertionPointToStart(&entry);
  RelayBuilder rb(b, f.getLoc());
  Value bp = rb.ref(rb.fn({}, unitType(), [&](RelayBuilder &inner, ValueRange) {
    return inner.tuple({});
  }));
  SmallVector<Value> args{bp}, params;
  for (BlockArgument x : entry.getArguments())
    params.push_back(lift(rb, x));
  llvm::append_range(args, params);
  Value r = rb.call(adF, args);
  Type returnType = f.getReturnType();
  Value value = primal(rb, r, returnType);
  std::function<void(Value, Value, Type)> seed = [&](Value ad, Value v,
                                                     Type t) {
    if (auto tuple = dyn_cast<TupleType>(t)) {
      for (auto [i, field] : llvm::enumerate(tuple.getTypes()))
        seed(rb.tupleGet(ad, i), rb.tupleGet(v, i), field);
      return;
    }
    accumulate(rb, ad, t, rb.op<OnesLikeOp>({v}));
  };
  seed(r, value, returnType);
  rb.apply(rb.refRead(bp), {});
  SmallVector<Value> grads;
  for (auto [param, x] : llvm::zip(params, entry.getArguments()))
    grads.push_back(readGrad(rb, param, x.getType()));
  ReturnOp::create(b, f.getLoc(), rb.tuple({value, rb.tuple(grads)}));

  if (::failed(reportMissing(f, "gradient")))
    failed = true;
  return failure(failed);
}

LogicalResult mlir::relay::buildHigherOrderGradient(FuncOp f,
                                                    StringRef gradName) {
  return HigherOrderGradient(f->getParentOfType<ModuleOp>()).build(f, gradName);
}

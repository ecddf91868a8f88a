//===- ForwardAD.cpp - --relay-forward-ad -----------------------*- C++ -*-===//
//
// Forward mode by dual numbers over the whole language: every value the
// derivative reaches is replaced by its AD value (DualTransform.h), a
// floating-point tensor by the pair (value, tangent). Each function reached
// gets a copy `@<g>_dual`; an operator computes its value on the operands'
// values and its tangent by the registry's tangent rule. `@<f>_jvp(x...,
// dx...)` pairs each parameter with its tangent, calls `@<f>_dual` and
// returns `(f(x...), J dx)`. Forward mode over the higher-order gradient
// gives Hessian-vector products (forward over reverse).
//
//===----------------------------------------------------------------------===//

#include "transforms/AutoDiff/DualTransform.h"
#include "transforms/AutoDiff/Gradient.h"
#include "transforms/AutoDiff/GradientRules.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/TypeUtils.h"
#include "transforms/Passes.h"

#include "mlir/Pass/PassManager.h"

namespace mlir::relay {
#define GEN_PASS_DEF_FORWARDAD
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

class ForwardAD : public DualTransform {
public:
  explicit ForwardAD(ModuleOp module)
      : DualTransform(module, "relay-forward-ad", "_dual") {}

  LogicalResult build(FuncOp f, StringRef jvpName);

private:
  Type dualTensorType(Type t) override { return TupleType::get(ctx, {t, t}); }
  /// Zero tangents.
  Value lift(RelayBuilder &rb, Value v) override;
  void transformOperator(RelayBuilder &rb, Operation *op, Value) override;

  /// `v` paired with tangent `t` (field by field for tuples).
  Value pair(RelayBuilder &rb, Value v, Value t);
  /// The tangent of AD value `ad` of type `t`: null for integer tensors
  /// unless `zeros`, which gives them zeros.
  Value tangent(RelayBuilder &rb, Value ad, Type t, bool zeros = false);
};

} // namespace

Value ForwardAD::lift(RelayBuilder &rb, Value v) {
  Type t = v.getType();
  if (!changes(t))
    return v;
  if (isFloatTensor(t))
    return rb.tuple({v, rb.op<ZerosLikeOp>({v})});
  auto tuple = cast<TupleType>(t); // constants and operators: tensors, tuples
  SmallVector<Value> fields;
  for (unsigned i = 0; i < tuple.size(); ++i)
    fields.push_back(lift(rb, rb.tupleGet(v, i)));
  return rb.tuple(fields);
}

Value ForwardAD::pair(RelayBuilder &rb, Value v, Value t) {
  Type type = v.getType();
  if (!changes(type))
    return v;
  if (isFloatTensor(type))
    return rb.tuple({v, t});
  auto tuple = cast<TupleType>(type);
  SmallVector<Value> fields;
  for (unsigned i = 0; i < tuple.size(); ++i)
    fields.push_back(pair(rb, rb.tupleGet(v, i), rb.tupleGet(t, i)));
  return rb.tuple(fields);
}

Value ForwardAD::tangent(RelayBuilder &rb, Value ad, Type t, bool zeros) {
  if (isFloatTensor(t))
    return rb.tupleGet(ad, 1);
  if (auto tuple = dyn_cast<TupleType>(t)) {
    SmallVector<Value> fields;
    for (auto [i, field] : llvm::enumerate(tuple.getTypes()))
      fields.push_back(tangent(rb, rb.tupleGet(ad, i), field, true));
    return rb.tuple(fields);
  }
  return zeros ? rb.op<ZerosLikeOp>({ad}) : Value();
}

void ForwardAD::transformOperator(RelayBuilder &rb, Operation *op, Value) {
  IRMapping operands;
  for (Value operand : op->getOperands())
    operands.map(operand, primal(rb, map.lookup(operand), operand.getType()));
  Operation *forward = rb.getBuilder().clone(*op, operands);
  Value result = forward->getResult(0);
  bool differentiable = holdsGradient(result.getType()) &&
                        llvm::any_of(op->getOperandTypes(), holdsGradient) &&
                        !computedFromConstants(op, fromConstants);
  if (!differentiable) {
    map.map(op->getResult(0), lift(rb, result));
    return;
  }
  const OperatorInfo *info = lookupOperator(op->getName().getStringRef());
  SmallVector<Value> tangents;
  for (Value operand : op->getOperands())
    tangents.push_back(holdsGradient(operand.getType())
                           ? tangent(rb, map.lookup(operand), operand.getType())
                           : Value());
  if (!info->tangent) {
    missing.push_back(op);
    map.map(op->getResult(0), lift(rb, result));
    return;
  }
  FailureOr<Value> t = info->tangent(rb.getBuilder(), forward, tangents);
  if (::failed(t) || !*t || (*t).getType() != result.getType()) {
    fail(op, Twine("the tangent rule of '") + op->getName().getStringRef() +
                 "' does not cover this use");
    map.map(op->getResult(0), lift(rb, result));
    return;
  }
  map.map(op->getResult(0), pair(rb, result, *t));
}

LogicalResult ForwardAD::build(FuncOp f, StringRef jvpName) {
  if (::failed(checkEntryParams(f)))
    return failure();
  // The result's tangent has the result's type: tensors (zeros for integer
  // ones) and tuples of them.
  if (!isTensorTree(f.getReturnType()))
    return f.emitError("relay-forward-ad: @")
           << f.getSymName() << " returns " << f.getReturnType()
           << "; a Jacobian-vector product needs a result of tensors (a "
              "tensor or a tuple of them)";
  FuncOp dualF = adFunc(f);
  (void)fillQueued();

  // @<f>_jvp(x..., dx...) = let r = @<f>_dual((x, dx)...) in
  //   (r.value, r.tangent)
  SmallVector<Type> inputs(f.getArgumentTypes());
  unsigned n = inputs.size();
  llvm::append_range(inputs, f.getArgumentTypes());
  Type returnType = f.getReturnType();
  auto resultType = TupleType::get(ctx, {returnType, returnType});
  OpBuilder b(ctx);
  b.setInsertionPointAfter(f);
  auto jvp = FuncOp::create(b, f.getLoc(), jvpName, inputs, resultType);
  symbols.insert(jvp);
  Block &entry = jvp.getBody().front();
  b.setInsertionPointToStart(&entry);
  RelayBuilder rb(b, f.getLoc());
  SmallVector<Value> args;
  for (unsigned i = 0; i < n; ++i)
    args.push_back(pair(rb, entry.getArgument(i), entry.getArgument(n + i)));
  Value r = rb.call(dualF, args);
  ReturnOp::create(
      b, f.getLoc(),
      rb.tuple({primal(rb, r, returnType), tangent(rb, r, returnType, true)}));
  if (::failed(reportMissing(f, "tangent")))
    failed = true;
  return failure(failed);
}

namespace {

struct ForwardADPass : public relay::impl::ForwardADBase<ForwardADPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    registerTangentRules();
    OpPassManager specialize("builtin.module");
    specialize.addPass(createSpecialize());
    if (::failed(runPipeline(specialize, module)))
      return signalPassFailure();
    auto f = module.lookupSymbol<FuncOp>(func);
    if (!f) {
      module.emitError("relay-forward-ad: the module has no function @")
          << func;
      return signalPassFailure();
    }
    if (f.isPolymorphic() || !isConcrete(f.getFunctionType()) ||
        f.getBody().empty()) {
      f.emitError("relay-forward-ad: @")
          << func << " is polymorphic, not typed or has no body";
      return signalPassFailure();
    }
    decomposeWithoutRules(f, /*tangent=*/true);
    std::string jvpName = func + "_jvp";
    if (module.lookupSymbol(jvpName)) {
      f.emitError("relay-forward-ad: the module has a @")
          << jvpName << " already";
      return signalPassFailure();
    }
    if (::failed(ForwardAD(module).build(f, jvpName)))
      return signalPassFailure();
  }
};

} // namespace

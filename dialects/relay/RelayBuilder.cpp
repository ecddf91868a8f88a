//===- RelayBuilder.cpp - C++ API to build Relay programs -------*- C++ -*-===//

#include "dialects/relay/RelayBuilder.h"
#include "dialects/relay/TypeRelations.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::relay;

Value RelayBuilder::scalar(int64_t value, Type dtype) {
  auto type = scalarType(dtype);
  return constant(DenseElementsAttr::get(
      type, APInt(dtype.getIntOrFloatBitWidth(), value, /*isSigned=*/true)));
}

Value RelayBuilder::scalarFloat(double value, Type dtype) {
  return full(value, {}, dtype);
}

Value RelayBuilder::full(double value, ArrayRef<int64_t> shape, Type dtype) {
  auto type = tensorType(shape, dtype);
  if (auto floatType = dyn_cast<FloatType>(dtype)) {
    APFloat v(value);
    bool losesInfo = false;
    v.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
              &losesInfo);
    return constant(DenseElementsAttr::get(type, v));
  }
  return constant(DenseElementsAttr::get(
      type, APInt(dtype.getIntOrFloatBitWidth(), static_cast<int64_t>(value),
                  /*isSigned=*/true)));
}

Value RelayBuilder::constant(ElementsAttr value) {
  return ConstantOp::create(builder, loc, value);
}

Type RelayBuilder::broadcastResult(Value lhs, Value rhs, bool toBool) {
  FailureOr<Type> type = inferBroadcastType(std::nullopt, "", lhs.getType(),
                                            rhs.getType(), toBool);
  // An ill-typed pair gets an incomplete result here; the op's verifier
  // reports the relation failure.
  if (failed(type) || !*type)
    return IncompleteType::get(getContext());
  return *type;
}

Value RelayBuilder::insertOperator(
    OperationState &state, function_ref<InFlightDiagnostic()> emitError) {
  const OperatorInfo *info = lookupOperator(state.name.getStringRef());
  if (!info || info->numInputs != state.operands.size() ||
      llvm::is_contained(state.operands, Value()))
    return {};
  // Typed while detached, so that a failure leaves nothing behind (and a
  // rewriter's listener sees only the finished op).
  Operation *op = Operation::create(state);
  /// Takes the result type the relation assigns; errors go to `emitError`.
  struct Reporter : TypeReporter {
    function_ref<InFlightDiagnostic()> emitErrorFn;
    unsigned numInputs;
    Type result;
    LogicalResult assign(unsigned index, Type type) override {
      if (index == numInputs)
        result = type;
      return success();
    }
    MLIRContext *ctx;
    InFlightDiagnostic emitError() override {
      return emitErrorFn ? emitErrorFn() : discardedError(ctx);
    }
  } reporter;
  reporter.ctx = getContext();
  reporter.emitErrorFn = emitError;
  reporter.numInputs = op->getNumOperands();
  SmallVector<Type> types(op->getOperandTypes());
  types.push_back(IncompleteType::get(getContext()));
  RelationStatus status = runOperatorRelation(op, *info, types, reporter);
  if (status != RelationStatus::Solved || !reporter.result ||
      isa<IncompleteType>(reporter.result)) {
    op->destroy();
    return {};
  }
  op->getResult(0).setType(reporter.result);
  builder.insert(op);
  return op->getResult(0);
}

Value RelayBuilder::like(Operation *op, ValueRange operands,
                         ArrayRef<NamedAttribute> overrides) {
  NamedAttrList attrs(op->getAttrDictionary());
  for (NamedAttribute a : overrides)
    attrs.set(a.getName(), a.getValue());
  OperationState state(loc, op->getName());
  state.addOperands(operands);
  state.addAttributes(attrs.getAttrs());
  state.addTypes(IncompleteType::get(getContext()));
  return insertOperator(state, nullptr);
}

template <typename TerminatorT>
void RelayBuilder::fillRegion(Region &region, TypeRange argTypes, BodyFn body) {
  Block *block = new Block();
  region.push_back(block);
  for (Type t : argTypes)
    block->addArgument(t, loc);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(block);
  Value result = body(*this, block->getArguments());
  TerminatorT::create(builder, loc, result);
}

FuncOp RelayBuilder::func(StringRef name, TypeRange inputs, Type result,
                          BodyFn body, ArrayRef<TypeVarType> typeParams) {
  auto func = FuncOp::create(builder, loc, name, inputs, result, typeParams);
  // The builder created the entry block with the arguments.
  Block &entry = func.getBody().front();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&entry);
  Value value = body(*this, entry.getArguments());
  ReturnOp::create(builder, loc, value);
  return func;
}

Value RelayBuilder::call(FuncOp callee, ValueRange args) {
  return CallOp::create(builder, loc, callee, args);
}

Value RelayBuilder::call(StringRef callee, Type result, ValueRange args,
                         ArrayAttr typeArgs) {
  return CallOp::create(builder, loc, result, callee, args, typeArgs,
                        /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr);
}

Value RelayBuilder::globalRef(FuncOp func) {
  return GlobalRefOp::create(builder, loc, func.getRelayType(),
                             func.getSymName());
}

Value RelayBuilder::fn(TypeRange inputs, Type result, BodyFn body,
                       bool recursive, ArrayRef<TypeVarType> typeParams) {
  auto type = FuncType::get(getContext(), typeParams, SmallVector<Type>(inputs),
                            result, {});
  OperationState state(loc, FnOp::getOperationName());
  state.addTypes(type);
  if (recursive)
    state.addAttribute(FnOp::getRecursiveAttrName(state.name),
                       builder.getUnitAttr());
  Region *region = state.addRegion();
  SmallVector<Type> argTypes;
  if (recursive)
    argTypes.push_back(type);
  llvm::append_range(argTypes, inputs);
  fillRegion<ReturnOp>(*region, argTypes, body);
  return builder.create(state)->getResult(0);
}

Value RelayBuilder::apply(Value closure, ValueRange args) {
  Type result = IncompleteType::get(getContext());
  if (auto type = dyn_cast<FuncType>(closure.getType()))
    result = type.getResult();
  return ApplyOp::create(builder, loc, result, closure, args,
                         /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr);
}

Value RelayBuilder::ifThenElse(Value cond, Type result, BranchFn thenBody,
                               BranchFn elseBody) {
  auto op = IfOp::create(builder, loc, result, cond);
  fillRegion<YieldOp>(op.getThenRegion(), {},
                      [&](RelayBuilder &b, ValueRange) { return thenBody(b); });
  fillRegion<YieldOp>(op.getElseRegion(), {},
                      [&](RelayBuilder &b, ValueRange) { return elseBody(b); });
  return op;
}

DataOp RelayBuilder::data(StringRef name, ArrayRef<TypeVarType> typeParams,
                          ArrayRef<CtorSpec> ctors) {
  auto data = DataOp::create(builder, loc, name, typeParams);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&data.getBody().front());
  for (const CtorSpec &ctor : ctors) {
    SmallVector<Attribute> fields;
    for (Type t : ctor.fields)
      fields.push_back(TypeAttr::get(t));
    CtorOp::create(builder, loc, ctor.name, builder.getArrayAttr(fields));
  }
  return data;
}

CtorOp RelayBuilder::lookupCtor(StringRef data, StringRef ctor) {
  Operation *scope = builder.getInsertionBlock()->getParentOp();
  auto ref = SymbolRefAttr::get(builder.getStringAttr(data),
                                {FlatSymbolRefAttr::get(getContext(), ctor)});
  return dyn_cast_or_null<CtorOp>(
      SymbolTable::lookupNearestSymbolFrom(scope, ref));
}

Value RelayBuilder::construct(CtorOp ctor, ValueRange fields, Type result) {
  return ConstructOp::create(builder, loc, result, ctor.getQualifiedName(),
                             fields);
}

Value RelayBuilder::match(Value scrutinee, Type result,
                          ArrayRef<MatchCase> cases, bool partial) {
  SmallVector<Attribute> patterns;
  for (const MatchCase &c : cases)
    patterns.push_back(c.pattern);
  OperationState state(loc, MatchOp::getOperationName());
  state.addOperands(scrutinee);
  state.addTypes(result);
  state.addAttribute(MatchOp::getPatternsAttrName(state.name),
                     builder.getArrayAttr(patterns));
  if (partial)
    state.addAttribute(MatchOp::getPartialAttrName(state.name),
                       builder.getUnitAttr());
  for (const MatchCase &c : cases)
    fillRegion<YieldOp>(*state.addRegion(), c.varTypes, c.body);
  return builder.create(state)->getResult(0);
}

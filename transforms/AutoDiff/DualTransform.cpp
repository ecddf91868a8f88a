//===- DualTransform.cpp - Programs over AD values --------------*- C++ -*-===//
//
// The structure both modes of AD share (DualTransform.h): AD types and ADT
// copies, the copies of functions, and every construct but operators.
//
//===----------------------------------------------------------------------===//

#include "transforms/AutoDiff/DualTransform.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/TypeUtils.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::relay;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

bool DualTransform::changes(Type t) {
  if (isFloatTensor(t))
    return true;
  if (auto tuple = dyn_cast<TupleType>(t))
    return llvm::any_of(tuple.getTypes(), [&](Type f) { return changes(f); });
  if (auto fn = dyn_cast<FuncType>(t))
    return changes(fn.getResult()) ||
           llvm::any_of(fn.getInputs(), [&](Type i) { return changes(i); });
  if (auto ref = dyn_cast<RefType>(t))
    return changes(ref.getElementType());
  if (auto adt = dyn_cast<AdtType>(t))
    return dataChanges(adt.getName()) ||
           llvm::any_of(adt.getArgs(), [&](Type a) { return changes(a); });
  return false;
}

bool DualTransform::dataChanges(StringAttr name) {
  auto [it, inserted] = changingData.try_emplace(name, false);
  if (!inserted)
    return it->second; // known, or being decided (a recursive field)
  auto data = symbols.lookup<DataOp>(name);
  bool result = false;
  if (data)
    for (CtorOp ctor : data.getConstructors())
      for (Type field : ctor.getFieldTypes())
        result = result || changes(field);
  changingData[name] = result;
  return result;
}

StringAttr DualTransform::adData(StringAttr name) {
  if (!dataChanges(name))
    return name;
  if (StringAttr known = adDataNames.lookup(name))
    return known;
  auto data = symbols.lookup<DataOp>(name);
  OpBuilder b(ctx);
  b.setInsertionPointAfter(data);
  auto copy = DataOp::create(b, data.getLoc(), (name.getValue() + suffix).str(),
                             data.getTypeParamList());
  StringAttr copyName = symbols.insert(copy);
  adDataNames[name] = copyName;
  // The fields' AD types may name this ADT: its name is known from here.
  b.setInsertionPointToStart(&copy.getBody().front());
  for (CtorOp ctor : data.getConstructors()) {
    SmallVector<Type> fields = llvm::map_to_vector(
        ctor.getFieldTypes(), [&](Type t) { return adType(t); });
    CtorOp::create(b, ctor.getLoc(), ctor.getSymName(),
                   b.getTypeArrayAttr(fields));
  }
  return copyName;
}

Type DualTransform::adType(Type t) {
  if (isFloatTensor(t))
    return dualTensorType(t);
  if (auto tuple = dyn_cast<TupleType>(t))
    return TupleType::get(
        ctx, llvm::map_to_vector(tuple.getTypes(),
                                 [&](Type f) { return adType(f); }));
  if (auto fn = dyn_cast<FuncType>(t))
    return FuncType::get(
        ctx, fn.getTypeParams(),
        llvm::map_to_vector(fn.getInputs(), [&](Type i) { return adType(i); }),
        adType(fn.getResult()), fn.getRelations());
  if (auto ref = dyn_cast<RefType>(t))
    return RefType::get(ctx, adType(ref.getElementType()));
  if (auto adt = dyn_cast<AdtType>(t))
    return AdtType::get(
        ctx, adData(adt.getName()),
        llvm::map_to_vector(adt.getArgs(), [&](Type a) { return adType(a); }));
  return t;
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

Value DualTransform::primal(RelayBuilder &rb, Value ad, Type t) {
  if (!changes(t))
    return ad;
  if (isFloatTensor(t))
    return rb.tupleGet(ad, 0);
  auto tuple = cast<TupleType>(t); // operators take tensors and tuples
  SmallVector<Value> fields;
  for (auto [i, field] : llvm::enumerate(tuple.getTypes()))
    fields.push_back(primal(rb, rb.tupleGet(ad, i), field));
  return rb.tuple(fields);
}

FuncOp DualTransform::adFunc(FuncOp g) {
  if (FuncOp known = adFuncs.lookup(g))
    return known;
  SmallVector<Type> inputs;
  if (contextType)
    inputs.push_back(contextType);
  for (Type t : g.getArgumentTypes())
    inputs.push_back(adType(t));
  OpBuilder b(ctx);
  b.setInsertionPointAfter(g);
  auto adG = FuncOp::create(b, g.getLoc(), (g.getSymName() + suffix).str(),
                            inputs, adType(g.getReturnType()));
  adG.setPrivate();
  symbols.insert(adG);
  adFuncs[g] = adG;
  toFill.push_back({g, adG});
  return adG;
}

LogicalResult DualTransform::fillFunc(FuncOp g, FuncOp adG) {
  if (g.isPolymorphic() || !isConcrete(g.getFunctionType()))
    return g.emitError(passName + ": @")
           << g.getSymName()
           << " is reached by the derivative but is polymorphic or not typed";
  if (g.getBody().empty())
    return g.emitError(passName + ": @")
           << g.getSymName() << " is reached by the derivative but has no body";
  Block &entry = adG.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  RelayBuilder rb(b, g.getLoc());
  Block &body = g.getBody().front();
  unsigned first = contextType ? 1 : 0;
  for (auto [arg, adArg] :
       llvm::zip(body.getArguments(), entry.getArguments().drop_front(first)))
    map.map(arg, adArg);
  Value result =
      transformBlock(rb, body, contextType ? entry.getArgument(0) : Value());
  rb.setLoc(body.getTerminator()->getLoc());
  ReturnOp::create(b, rb.getLoc(), result);
  return success();
}

Value DualTransform::transformBlock(RelayBuilder &rb, Block &block,
                                    Value context) {
  for (Operation &op : block.without_terminator())
    transformOp(rb, &op, context);
  return map.lookup(block.getTerminator()->getOperand(0));
}

void DualTransform::transformOp(RelayBuilder &rb, Operation *op,
                                Value context) {
  rb.setLoc(op->getLoc());
  OpBuilder &b = rb.getBuilder();
  auto mapped = [&](ValueRange values) {
    return llvm::map_to_vector(values, [&](Value v) { return map.lookup(v); });
  };
  auto bind = [&](Value result) { map.map(op->getResult(0), result); };

  if (lookupOperator(op->getName().getStringRef()))
    return transformOperator(rb, op, context);
  if (auto constant = dyn_cast<ConstantOp>(op))
    return bind(lift(rb, b.clone(*op)->getResult(0)));
  if (auto tuple = dyn_cast<TupleOp>(op))
    return bind(rb.tuple(mapped(tuple.getFields())));
  if (auto get = dyn_cast<TupleGetOp>(op))
    return bind(rb.tupleGet(map.lookup(get.getTuple()), get.getIndex()));
  if (auto call = dyn_cast<CallOp>(op)) {
    auto callee = symbols.lookup<FuncOp>(call.getCallee());
    SmallVector<Value> args;
    if (context)
      args.push_back(context);
    llvm::append_range(args, mapped(call.getArgs()));
    return bind(rb.call(adFunc(callee), args));
  }
  if (auto ref = dyn_cast<GlobalRefOp>(op)) {
    // A closure calling the global's AD copy (with this context).
    FuncOp adG = adFunc(symbols.lookup<FuncOp>(ref.getName()));
    auto type = cast<FuncType>(adType(ref.getType()));
    return bind(rb.fn(type.getInputs(), type.getResult(),
                      [&](RelayBuilder &inner, ValueRange params) {
                        SmallVector<Value> args;
                        if (context)
                          args.push_back(context);
                        llvm::append_range(args, params);
                        return inner.call(adG, args);
                      }));
  }
  if (auto fn = dyn_cast<FnOp>(op)) {
    auto type = cast<FuncType>(adType(fn.getFuncType()));
    if (type.isPolymorphic()) {
      fail(op, "cannot differentiate a polymorphic closure (run "
               "--relay-specialize first)");
      return bind(fn.getResult()); // its uses find a value; reports go on
    }
    return bind(rb.fn(
        type.getInputs(), type.getResult(),
        [&](RelayBuilder &inner, ValueRange params) {
          Block &body = fn.getBody().front();
          for (auto [arg, adArg] : llvm::zip(body.getArguments(), params))
            map.map(arg, adArg);
          return transformBlock(inner, body, context);
        },
        fn.getRecursive()));
  }
  if (auto apply = dyn_cast<ApplyOp>(op))
    return bind(
        rb.apply(map.lookup(apply.getCallee()), mapped(apply.getArgs())));
  if (auto ifOp = dyn_cast<IfOp>(op)) {
    auto branch = [&](Region &region) {
      return [&](RelayBuilder &inner) {
        return transformBlock(inner, region.front(), context);
      };
    };
    return bind(rb.ifThenElse(
        map.lookup(ifOp.getCond()), adType(ifOp.getType()),
        branch(ifOp.getThenRegion()), branch(ifOp.getElseRegion())));
  }
  if (auto match = dyn_cast<MatchOp>(op))
    return transformMatch(rb, match, context);
  if (auto construct = dyn_cast<ConstructOp>(op)) {
    SymbolRefAttr ctor = construct.getConstructor();
    auto name = ctor.getRootReference();
    auto adCtor = SymbolRefAttr::get(adData(name), ctor.getNestedReferences());
    return bind(ConstructOp::create(b, rb.getLoc(), adType(construct.getType()),
                                    adCtor, mapped(construct.getFields())));
  }
  if (auto ref = dyn_cast<RefOp>(op))
    return bind(rb.ref(map.lookup(ref.getValue())));
  if (auto read = dyn_cast<RefReadOp>(op))
    return bind(rb.refRead(map.lookup(read.getRef())));
  if (auto write = dyn_cast<RefWriteOp>(op))
    return bind(
        rb.refWrite(map.lookup(write.getRef()), map.lookup(write.getValue())));
  fail(op,
       Twine("cannot differentiate '") + op->getName().getStringRef() + "'");
  for (Value r : op->getResults())
    map.map(r, r); // keeps going, to report what else is wrong
}

Attribute DualTransform::adPattern(Attribute pattern) {
  if (auto ctor = dyn_cast<PatternCtorAttr>(pattern)) {
    SymbolRefAttr name = ctor.getConstructor();
    auto data = name.getRootReference();
    return PatternCtorAttr::get(
        ctx, SymbolRefAttr::get(adData(data), name.getNestedReferences()),
        llvm::map_to_vector(ctor.getFields(),
                            [&](Attribute f) { return adPattern(f); }));
  }
  if (auto tuple = dyn_cast<PatternTupleAttr>(pattern))
    return PatternTupleAttr::get(
        ctx, llvm::map_to_vector(tuple.getFields(),
                                 [&](Attribute f) { return adPattern(f); }));
  return pattern;
}

void DualTransform::transformMatch(RelayBuilder &rb, MatchOp match,
                                   Value context) {
  SmallVector<RelayBuilder::MatchCase> cases;
  for (auto [pattern, region] :
       llvm::zip(match.getPatterns(), match.getCases())) {
    Block *block = &region.front();
    RelayBuilder::MatchCase c;
    c.pattern = adPattern(pattern);
    for (Type t : block->getArgumentTypes())
      c.varTypes.push_back(adType(t));
    c.body = [this, block, context](RelayBuilder &inner, ValueRange vars) {
      for (auto [arg, var] : llvm::zip(block->getArguments(), vars))
        map.map(arg, var);
      return transformBlock(inner, *block, context);
    };
    cases.push_back(std::move(c));
  }
  map.map(match.getResult(),
          rb.match(map.lookup(match.getScrutinee()), adType(match.getType()),
                   cases, match.getPartial()));
}

LogicalResult DualTransform::fillQueued() {
  while (!toFill.empty()) {
    auto [g, adG] = toFill.pop_back_val();
    if (::failed(fillFunc(g, adG)))
      failed = true;
  }
  return failure(failed);
}

bool DualTransform::isTensorTree(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type))
    return llvm::all_of(tuple.getTypes(), isTensorTree);
  return isa<TensorType>(type);
}

LogicalResult DualTransform::checkEntryParams(FuncOp f) {
  for (Type t : f.getArgumentTypes())
    if (!isTensorTree(t))
      return f.emitError(passName + ": @")
             << f.getSymName() << " takes a " << t
             << "; a derivative is taken with respect to tensors and tuples "
                "of tensors (build other values inside the function)";
  return success();
}

LogicalResult DualTransform::reportMissing(Operation *at, StringRef column) {
  if (missing.empty())
    return success();
  llvm::SetVector<StringRef> names;
  for (Operation *op : missing)
    names.insert(op->getName().getStringRef());
  InFlightDiagnostic diag = at->emitError(passName + ": no ")
                            << column << " rule for "
                            << llvm::join(names, ", ");
  for (Operation *op : missing)
    diag.attachNote(op->getLoc()) << "'" << op->getName() << "' here";
  return failure();
}

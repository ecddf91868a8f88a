//===- HigherOrderGradient.cpp - Reverse-mode AD, whole language -*- C++
//-*-===//
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

#include "transforms/AutoDiff/Gradient.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayBuilder.h"
#include "dialects/relay/RelayOps.h"
#include "dialects/relay/TypeUtils.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::relay;

namespace {

class HigherOrderGradient {
public:
  explicit HigherOrderGradient(ModuleOp module)
      : module(module), symbols(module), ctx(module.getContext()) {}

  LogicalResult build(FuncOp f, StringRef gradName);

private:
  //===--------------------------------------------------------------------===//
  // Types
  //===--------------------------------------------------------------------===//

  static bool isFloatTensor(Type t) {
    auto tensor = dyn_cast<TensorType>(t);
    return tensor && isa<FloatType>(tensor.getElementType());
  }
  /// Whether values of `t` hold floating-point tensors (their AD type
  /// differs).
  bool changes(Type t);
  /// Whether the ADT's constructors hold values whose AD type differs.
  bool dataChanges(StringAttr name);
  /// The AD type of `t`.
  Type adType(Type t);
  /// The ADT for AD values of ADT `name`: itself, or its copy.
  StringAttr adData(StringAttr name);
  /// The type of `bp`'s closures, `fn () -> ()`.
  FuncType backpropType() { return FuncType::get(ctx, {}, unitType()); }
  TupleType unitType() { return TupleType::get(ctx, {}); }

  //===--------------------------------------------------------------------===//
  // Values
  //===--------------------------------------------------------------------===//

  /// The value of AD value `ad` of type `t` (the AD value of a `t`).
  Value primal(RelayBuilder &rb, Value ad, Type t);
  /// The AD value of plain value `v`: fresh gradient references of zeros.
  Value lift(RelayBuilder &rb, Value v);
  /// The gradient held for `ad` (zeros for integer tensors).
  Value readGrad(RelayBuilder &rb, Value ad, Type t);
  /// Adds `grad` into the gradient references of `ad`.
  void accumulate(RelayBuilder &rb, Value ad, Type t, Value grad);

  //===--------------------------------------------------------------------===//
  // Code
  //===--------------------------------------------------------------------===//

  /// `@<g>_ad`, declared (and queued to be filled) on first use.
  FuncOp adFunc(FuncOp g);
  /// Fills `adG` with the AD code of `g`.
  LogicalResult fillFunc(FuncOp g, FuncOp adG);
  /// The AD code of `block`'s operations; returns the AD value of its
  /// terminator's operand.
  Value transformBlock(RelayBuilder &rb, Block &block, Value bp);
  void transformOp(RelayBuilder &rb, Operation *op, Value bp);
  void transformOperator(RelayBuilder &rb, Operation *op, Value bp);
  void transformMatch(RelayBuilder &rb, MatchOp match, Value bp);
  Attribute adPattern(Attribute pattern);
  void fail(Operation *op, const Twine &what) {
    op->emitError("relay-gradient: ") << what;
    failed = true;
  }

  ModuleOp module;
  SymbolTable symbols;
  MLIRContext *ctx;
  /// Original values to their AD values.
  IRMapping map;
  DenseMap<Operation *, FuncOp> adFuncs;
  SmallVector<std::pair<FuncOp, FuncOp>> toFill;
  DenseMap<StringAttr, bool> changingData;
  DenseMap<StringAttr, StringAttr> adDataNames;
  /// Operators on the differentiated path without a gradient rule.
  SmallVector<Operation *> missing;
  bool failed = false;
};

} // namespace

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

bool HigherOrderGradient::changes(Type t) {
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

bool HigherOrderGradient::dataChanges(StringAttr name) {
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

StringAttr HigherOrderGradient::adData(StringAttr name) {
  if (!dataChanges(name))
    return name;
  if (StringAttr known = adDataNames.lookup(name))
    return known;
  auto data = symbols.lookup<DataOp>(name);
  OpBuilder b(ctx);
  b.setInsertionPointAfter(data);
  auto copy = DataOp::create(b, data.getLoc(), (name.getValue() + "_ad").str(),
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

Type HigherOrderGradient::adType(Type t) {
  if (isFloatTensor(t))
    return TupleType::get(ctx, {t, RefType::get(ctx, t)});
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

Value HigherOrderGradient::primal(RelayBuilder &rb, Value ad, Type t) {
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
// Code
//===----------------------------------------------------------------------===//

FuncOp HigherOrderGradient::adFunc(FuncOp g) {
  if (FuncOp known = adFuncs.lookup(g))
    return known;
  SmallVector<Type> inputs{RefType::get(ctx, backpropType())};
  for (Type t : g.getArgumentTypes())
    inputs.push_back(adType(t));
  OpBuilder b(ctx);
  b.setInsertionPointAfter(g);
  auto adG = FuncOp::create(b, g.getLoc(), (g.getSymName() + "_ad").str(),
                            inputs, adType(g.getReturnType()));
  adG.setPrivate();
  symbols.insert(adG);
  adFuncs[g] = adG;
  toFill.push_back({g, adG});
  return adG;
}

LogicalResult HigherOrderGradient::fillFunc(FuncOp g, FuncOp adG) {
  if (g.isPolymorphic() || !isConcrete(g.getFunctionType()))
    return g.emitError("relay-gradient: @")
           << g.getSymName()
           << " is reached by the gradient but is polymorphic or not typed";
  if (g.getBody().empty())
    return g.emitError("relay-gradient: @")
           << g.getSymName() << " is reached by the gradient but has no body";
  Block &entry = adG.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  RelayBuilder rb(b, g.getLoc());
  Block &body = g.getBody().front();
  for (auto [arg, adArg] :
       llvm::zip(body.getArguments(), entry.getArguments().drop_front()))
    map.map(arg, adArg);
  Value result = transformBlock(rb, body, entry.getArgument(0));
  rb.setLoc(body.getTerminator()->getLoc());
  ReturnOp::create(b, rb.getLoc(), result);
  return success();
}

Value HigherOrderGradient::transformBlock(RelayBuilder &rb, Block &block,
                                          Value bp) {
  for (Operation &op : block.without_terminator())
    transformOp(rb, &op, bp);
  return map.lookup(block.getTerminator()->getOperand(0));
}

void HigherOrderGradient::transformOp(RelayBuilder &rb, Operation *op,
                                      Value bp) {
  rb.setLoc(op->getLoc());
  OpBuilder &b = rb.getBuilder();
  auto mapped = [&](ValueRange values) {
    return llvm::map_to_vector(values, [&](Value v) { return map.lookup(v); });
  };
  auto bind = [&](Value result) { map.map(op->getResult(0), result); };

  if (lookupOperator(op->getName().getStringRef()))
    return transformOperator(rb, op, bp);
  if (auto constant = dyn_cast<ConstantOp>(op))
    return bind(lift(rb, b.clone(*op)->getResult(0)));
  if (auto tuple = dyn_cast<TupleOp>(op))
    return bind(rb.tuple(mapped(tuple.getFields())));
  if (auto get = dyn_cast<TupleGetOp>(op))
    return bind(rb.tupleGet(map.lookup(get.getTuple()), get.getIndex()));
  if (auto call = dyn_cast<CallOp>(op)) {
    auto callee = symbols.lookup<FuncOp>(call.getCallee());
    SmallVector<Value> args{bp};
    llvm::append_range(args, mapped(call.getArgs()));
    return bind(rb.call(adFunc(callee), args));
  }
  if (auto ref = dyn_cast<GlobalRefOp>(op)) {
    // A closure calling the global's AD copy with this `bp`.
    FuncOp adG = adFunc(symbols.lookup<FuncOp>(ref.getName()));
    auto type = cast<FuncType>(adType(ref.getType()));
    return bind(rb.fn(type.getInputs(), type.getResult(),
                      [&](RelayBuilder &inner, ValueRange params) {
                        SmallVector<Value> args{bp};
                        llvm::append_range(args, params);
                        return inner.call(adG, args);
                      }));
  }
  if (auto fn = dyn_cast<FnOp>(op)) {
    auto type = cast<FuncType>(adType(fn.getFuncType()));
    if (type.isPolymorphic())
      return fail(op, "cannot differentiate a polymorphic closure (run "
                      "--relay-specialize first)");
    return bind(rb.fn(
        type.getInputs(), type.getResult(),
        [&](RelayBuilder &inner, ValueRange params) {
          Block &body = fn.getBody().front();
          for (auto [arg, adArg] : llvm::zip(body.getArguments(), params))
            map.map(arg, adArg);
          return transformBlock(inner, body, bp);
        },
        fn.getRecursive()));
  }
  if (auto apply = dyn_cast<ApplyOp>(op))
    return bind(
        rb.apply(map.lookup(apply.getCallee()), mapped(apply.getArgs())));
  if (auto ifOp = dyn_cast<IfOp>(op)) {
    auto branch = [&](Region &region) {
      return [&](RelayBuilder &inner) {
        return transformBlock(inner, region.front(), bp);
      };
    };
    return bind(rb.ifThenElse(
        map.lookup(ifOp.getCond()), adType(ifOp.getType()),
        branch(ifOp.getThenRegion()), branch(ifOp.getElseRegion())));
  }
  if (auto match = dyn_cast<MatchOp>(op))
    return transformMatch(rb, match, bp);
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
                        llvm::any_of(op->getOperandTypes(), holdsGradient);
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

Attribute HigherOrderGradient::adPattern(Attribute pattern) {
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

void HigherOrderGradient::transformMatch(RelayBuilder &rb, MatchOp match,
                                         Value bp) {
  SmallVector<RelayBuilder::MatchCase> cases;
  for (auto [pattern, region] :
       llvm::zip(match.getPatterns(), match.getCases())) {
    Block *block = &region.front();
    RelayBuilder::MatchCase c;
    c.pattern = adPattern(pattern);
    for (Type t : block->getArgumentTypes())
      c.varTypes.push_back(adType(t));
    c.body = [this, block, bp](RelayBuilder &inner, ValueRange vars) {
      for (auto [arg, var] : llvm::zip(block->getArguments(), vars))
        map.map(arg, var);
      return transformBlock(inner, *block, bp);
    };
    cases.push_back(std::move(c));
  }
  map.map(match.getResult(),
          rb.match(map.lookup(match.getScrutinee()), adType(match.getType()),
                   cases, match.getPartial()));
}

LogicalResult HigherOrderGradient::build(FuncOp f, StringRef gradName) {
  // The entry's parameters: tensors and tuples of them (their gradients
  // are values of the same types).
  std::function<bool(Type)> plainData = [&](Type t) {
    if (auto tuple = dyn_cast<TupleType>(t))
      return llvm::all_of(tuple.getTypes(), plainData);
    return isa<TensorType>(t);
  };
  for (Type t : f.getArgumentTypes())
    if (!plainData(t))
      return f.emitError("relay-gradient: @")
             << f.getSymName() << " takes a " << t
             << "; a gradient is taken with respect to tensors and tuples "
                "of tensors (build other values inside the function)";

  FuncOp adF = adFunc(f);
  while (!toFill.empty()) {
    auto [g, adG] = toFill.pop_back_val();
    if (::failed(fillFunc(g, adG)))
      failed = true;
  }

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

  if (!missing.empty()) {
    llvm::SetVector<StringRef> names;
    for (Operation *op : missing)
      names.insert(op->getName().getStringRef());
    InFlightDiagnostic diag =
        f.emitError("relay-gradient: no gradient rule for ")
        << llvm::join(names, ", ");
    for (Operation *op : missing)
      diag.attachNote(op->getLoc()) << "'" << op->getName() << "' here";
    failed = true;
  }
  return failure(failed);
}

LogicalResult mlir::relay::buildHigherOrderGradient(FuncOp f,
                                                    StringRef gradName) {
  return HigherOrderGradient(f->getParentOfType<ModuleOp>()).build(f, gradName);
}

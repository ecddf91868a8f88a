//===- Defunctionalize.cpp - Closures as ADTs and apply functions -*- C++ -*-=//
//
// --relay-defunctionalize (Reynolds' defunctionalization, TVM's
// Defunctionalization pass): after it no value of a module has a function
// type. Each closure type T (a monomorphic `!relay.fn`, its own function
// types converted first) becomes an ADT `@Closure<N>` with one constructor
// per function that makes a value of T:
//
//   - each `relay.fn` is lifted into a global `@<outer>_lifted<M>` taking its
//     captured values and then its parameters; where the closure was made,
//     its constructor stores the captured values;
//   - each global function used as a value (`relay.global_ref @g`) gets a
//     constructor with no fields, and `@g` is its code.
//
// Applying a closure whose constructor is in sight (a local function's
// recursive call, a closure applied where it is made) calls its code
// directly; any other application calls `@apply<N>(closure, args...)`,
// which matches on the constructor and calls its code. The program is then
// first order: a backend needs ADTs and calls, not closures.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/ReachableFunctions.h"
#include "dialects/relay/RelayBuilder.h"
#include "dialects/relay/RelayOps.h"
#include "dialects/relay/TypeUtils.h"
#include "transforms/Passes.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::relay {
#define GEN_PASS_DEF_DEFUNCTIONALIZE
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// One closure type and what defunctionalising it makes.
struct ClosureType {
  /// The ADT that replaces the type, and its apply function.
  AdtType adt;
  std::string applyName;
  /// The closure type with its own function types converted.
  FuncType signature;
  /// Constructor name -> the types of its fields (unconverted until the
  /// ADT is declared); the constructor's code has the same name.
  llvm::MapVector<StringRef, SmallVector<Type>> ctors;
  /// Where a closure of the type is applied without its constructor in
  /// sight (the apply function is needed).
  std::optional<Location> unknownApply;
};

struct DefunctionalizePass
    : public relay::impl::DefunctionalizeBase<DefunctionalizePass> {
  using Base::Base;
  void runOnOperation() override;

  /// The converted form of `type`: every monomorphic function type in it
  /// replaced by its closure ADT.
  Type convert(Type type);
  /// The closure type of the monomorphic function type `fn`.
  ClosureType &closureType(FuncType fn);

  LogicalResult checkMonomorphic(ModuleOp module);
  void liftClosure(FnOp fn);
  void replaceGlobalRef(GlobalRefOp ref);
  void replaceApply(ApplyOp apply);
  LogicalResult declareClosureTypes(ModuleOp module);

  /// A symbol name not used yet in the module.
  std::string freshName(StringRef base);

  SymbolTable *symbols = nullptr;
  StringSet<> reserved;
  /// Closure types by their converted signature, in order of first use.
  llvm::MapVector<Type, ClosureType> closures;
  /// Codes of lifted closures by the function they were in, for names.
  llvm::StringMap<unsigned> liftedCount;
  /// The lifted codes, by name.
  llvm::StringMap<FuncOp> lifted;
};

std::string DefunctionalizePass::freshName(StringRef base) {
  std::string name = base.str();
  for (unsigned i = 0; symbols->lookup(name) || reserved.contains(name); ++i)
    name = (base + "_" + Twine(i)).str();
  reserved.insert(name);
  return name;
}

ClosureType &DefunctionalizePass::closureType(FuncType fn) {
  MLIRContext *ctx = fn.getContext();
  SmallVector<Type> inputs =
      llvm::map_to_vector(fn.getInputs(), [&](Type t) { return convert(t); });
  auto signature = FuncType::get(ctx, inputs, convert(fn.getResult()));
  auto [it, inserted] = closures.try_emplace(signature);
  ClosureType &closure = it->second;
  if (inserted) {
    std::string name = freshName("Closure" + Twine(closures.size() - 1).str());
    closure.adt = AdtType::get(ctx, StringAttr::get(ctx, name), {});
    closure.applyName = freshName("apply_" + name);
    closure.signature = signature;
  }
  return closure;
}

Type DefunctionalizePass::convert(Type type) {
  MLIRContext *ctx = type.getContext();
  auto all = [&](TypeRange types) {
    return llvm::map_to_vector(types, [&](Type t) { return convert(t); });
  };
  return llvm::TypeSwitch<Type, Type>(type)
      .Case([&](FuncType fn) -> Type {
        return fn.isPolymorphic() ? Type(fn) : closureType(fn).adt;
      })
      .Case([&](TupleType tuple) -> Type {
        return TupleType::get(ctx, all(tuple.getTypes()));
      })
      .Case([&](RefType ref) -> Type {
        return RefType::get(ctx, convert(ref.getElementType()));
      })
      .Case([&](AdtType adt) -> Type {
        return AdtType::get(ctx, adt.getName(), all(adt.getArgs()));
      })
      .Case([&](FunctionType fn) -> Type {
        return FunctionType::get(ctx, all(fn.getInputs()),
                                 all(fn.getResults()));
      })
      .Default([](Type t) { return t; });
}

/// After --relay-specialize nothing a closure touches may be polymorphic: a
/// closure type has one ADT, a lifted body one signature.
LogicalResult DefunctionalizePass::checkMonomorphic(ModuleOp module) {
  for (auto func : module.getOps<FuncOp>()) {
    WalkResult result = func.walk([&](Operation *op) {
      if (!isa<FnOp, GlobalRefOp, ApplyOp>(op))
        return WalkResult::advance();
      if (func.isPolymorphic()) {
        op->emitError("relay-defunctionalize: cannot defunctionalize a "
                      "closure in polymorphic @")
            << func.getSymName() << ", which no call instantiates";
        return WalkResult::interrupt();
      }
      Value closure = isa<ApplyOp>(op) ? op->getOperand(0) : op->getResult(0);
      auto type = dyn_cast<FuncType>(closure.getType());
      if (!type || type.isPolymorphic() || !isConcrete(type)) {
        op->emitError("relay-defunctionalize: the closure has type ")
            << closure.getType()
            << "; defunctionalization needs a monomorphic function type "
               "(a polymorphic function value is instantiated only where "
               "one type is expected of it)";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return failure();
  }
  return success();
}

/// Moves the projections `fn` makes of captured tuples out of it, where
/// those are the only uses it makes of them: the closure then stores the
/// fields it reads (`%parts.3` of a 4-way split), not the whole tuple.
/// Projections are pure, so computing them before the closure changes
/// nothing else.
static void hoistCapturedProjections(FnOp fn) {
  SetVector<Value> captures;
  getUsedValuesDefinedAbove(fn.getBody(), captures);
  for (Value captured : captures) {
    if (!isa<TupleType>(captured.getType()))
      continue;
    SmallVector<TupleGetOp> projections;
    bool onlyProjected = llvm::all_of(captured.getUses(), [&](OpOperand &use) {
      Operation *user = use.getOwner();
      if (!fn->isProperAncestor(user))
        return true;
      auto get = dyn_cast<TupleGetOp>(user);
      if (get)
        projections.push_back(get);
      return static_cast<bool>(get);
    });
    if (!onlyProjected)
      continue;
    OpBuilder b(fn);
    llvm::DenseMap<int64_t, Value> outside;
    for (TupleGetOp get : projections) {
      Value &field = outside[get.getIndex()];
      if (!field)
        field = TupleGetOp::create(b, get.getLoc(), get.getType(), captured,
                                   get.getIndexAttr());
      get.replaceAllUsesWith(field);
      get->erase();
    }
  }
}

/// The closure's body becomes `@code(captured..., params...)`; where it was
/// made, its constructor stores the captured values.
void DefunctionalizePass::liftClosure(FnOp fn) {
  hoistCapturedProjections(fn);
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(fn.getBody(), captured);
  Operation *outer = fn->getParentOfType<FuncOp>();
  StringRef outerName = cast<FuncOp>(outer).getSymName();
  std::string name = freshName(
      (outerName + "_lifted" + Twine(liftedCount[outerName]++)).str());
  ClosureType &closure = closureType(fn.getFuncType());
  SmallVector<Type> fields(ValueRange(captured.getArrayRef()).getTypes());
  closure.ctors[StringAttr::get(&getContext(), name).getValue()] = fields;
  SymbolRefAttr ctor = SymbolRefAttr::get(
      closure.adt.getName(), {FlatSymbolRefAttr::get(&getContext(), name)});

  // The code: a private function after the one the closure was in.
  OpBuilder b(outer);
  b.setInsertionPointAfter(outer);
  SmallVector<Type> inputs = fields;
  llvm::append_range(inputs, fn.getFuncType().getInputs());
  auto code = FuncOp::create(b, fn.getLoc(), name, inputs,
                             fn.getFuncType().getResult());
  code.setPrivate();
  lifted[name] = code;
  BlockArgument self = fn.getSelf();
  code.getBody().front().erase();
  code.getBody().takeBody(fn.getBody());
  Block &entry = code.getBody().front();
  for (auto [i, value] : llvm::enumerate(captured)) {
    BlockArgument arg =
        entry.insertArgument(i, value.getType(), value.getLoc());
    replaceAllUsesInRegionWith(value, arg, code.getBody());
  }
  if (self) {
    // The closure itself, rebuilt from the captured values.
    b.setInsertionPointToStart(&entry);
    auto again =
        ConstructOp::create(b, fn.getLoc(), closure.adt, ctor,
                            entry.getArguments().take_front(captured.size()));
    self.replaceAllUsesWith(again.getResult());
    entry.eraseArgument(self.getArgNumber());
  }

  b.setInsertionPoint(fn);
  auto made = ConstructOp::create(b, fn.getLoc(), closure.adt, ctor,
                                  captured.getArrayRef());
  fn.getResult().replaceAllUsesWith(made.getResult());
  fn.erase();
}

/// `@g` as a value: the constructor of `@g`'s kind with no fields.
void DefunctionalizePass::replaceGlobalRef(GlobalRefOp ref) {
  ClosureType &closure = closureType(cast<FuncType>(ref.getType()));
  closure.ctors[ref.getName()] = {};
  OpBuilder b(ref);
  auto made = ConstructOp::create(
      b, ref.getLoc(), closure.adt,
      SymbolRefAttr::get(closure.adt.getName(), {ref.getNameAttr()}),
      ValueRange());
  ref.getResult().replaceAllUsesWith(made.getResult());
  ref.erase();
}

/// A call of the code when the closure's constructor is in sight, else of
/// the apply function.
void DefunctionalizePass::replaceApply(ApplyOp apply) {
  OpBuilder b(apply);
  Value callee = apply.getCallee();
  // The callee may be a constructor's result already: the closure type
  // from the application's own types.
  ClosureType &closure = closureType(FuncType::get(
      &getContext(), apply.getArgs().getTypes(), apply.getType()));
  CallOp call;
  auto made = callee.getDefiningOp<ConstructOp>();
  if (made &&
      made.getConstructor().getRootReference() == closure.adt.getName()) {
    SmallVector<Value> args(made.getFields());
    llvm::append_range(args, apply.getArgs());
    call = CallOp::create(b, apply.getLoc(), apply.getType(),
                          made.getConstructor().getLeafReference(), args,
                          nullptr, nullptr, nullptr);
  } else {
    if (!closure.unknownApply)
      closure.unknownApply = apply.getLoc();
    SmallVector<Value> args{callee};
    llvm::append_range(args, apply.getArgs());
    call = CallOp::create(b, apply.getLoc(), apply.getType(), closure.applyName,
                          args, nullptr, nullptr, nullptr);
  }
  apply.getResult().replaceAllUsesWith(call.getResult());
  apply.erase();
  if (made && made->use_empty())
    made->erase();
}

/// The closure ADTs and the apply functions that match on them.
LogicalResult DefunctionalizePass::declareClosureTypes(ModuleOp module) {
  OpBuilder b(module.getBodyRegion());
  b.setInsertionPointToStart(module.getBody());
  Location loc = module.getLoc();
  RelayBuilder rb(b, loc);
  // A lifted code nothing calls is inlined into its apply function's case
  // (no call between the match and the body: its captured tensors go
  // straight from the object to their uses).
  llvm::StringSet<> called;
  module.walk([&](CallOp call) { called.insert(call.getCallee()); });
  // The closure types some value still has (every application of the others
  // called its code directly).
  DenseSet<StringAttr> used;
  auto collect = [&](Type type) {
    type.walk([&](AdtType adt) { used.insert(adt.getName()); });
  };
  module.walk([&](Operation *op) {
    for (Type t : op->getResultTypes())
      collect(t);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Type t : block.getArgumentTypes())
          collect(t);
  });
  // The fields' types converted first: that may add closure types (by
  // index: the vector may grow).
  for (size_t i = 0; i < closures.size(); ++i)
    for (size_t c = 0; c < (closures.begin() + i)->second.ctors.size(); ++c) {
      SmallVector<Type> fields =
          ((closures.begin() + i)->second.ctors.begin() + c)->second;
      for (Type &field : fields)
        field = convert(field);
      ((closures.begin() + i)->second.ctors.begin() + c)->second = fields;
    }
  // And those the fields of a used one have.
  for (bool grew = true; grew;) {
    grew = false;
    for (auto &[key, closure] : closures)
      if (used.contains(closure.adt.getName()))
        for (auto &[name, fields] : closure.ctors)
          for (Type field : fields)
            field.walk([&](AdtType adt) {
              grew |= used.insert(adt.getName()).second;
            });
  }
  for (auto &[key, closure] : closures) {
    if (!used.contains(closure.adt.getName()))
      continue;
    if (closure.ctors.empty()) {
      if (closure.unknownApply)
        return emitError(*closure.unknownApply,
                         "relay-defunctionalize: a closure of type ")
               << key
               << " is applied, but the module makes no function of that "
                  "type (a closure cannot come from outside the module)";
      // A type no value ever has: an ADT without constructors.
      DataOp::create(b, loc, closure.adt.getName().getValue(),
                     ArrayRef<TypeVarType>(), /*external=*/true);
      continue;
    }
    SmallVector<RelayBuilder::CtorSpec> specs;
    for (auto &[name, fields] : closure.ctors)
      specs.push_back({name, fields});
    DataOp data = rb.data(closure.adt.getName().getValue(), {}, specs);
    if (!closure.unknownApply)
      continue;
    // @apply(%closure, %args...) = match %closure { C(%fields...) =>
    // @C(%fields..., %args...) }
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    // Located at an application that needs it.
    loc = *closure.unknownApply;
    rb.setLoc(loc);
    SmallVector<Type> inputs{closure.adt};
    llvm::append_range(inputs, closure.signature.getInputs());
    Type result = closure.signature.getResult();
    auto apply = FuncOp::create(b, loc, closure.applyName, inputs, result);
    apply.setPrivate();
    Block &entry = apply.getBody().front();
    b.setInsertionPointToStart(&entry);
    SmallVector<RelayBuilder::MatchCase> cases;
    for (CtorOp ctor : data.getConstructors()) {
      SmallVector<Type> fields = ctor.getFieldTypes();
      StringRef code = ctor.getSymName();
      cases.push_back(
          {rb.ctorPattern(ctor,
                          SmallVector<Attribute>(fields.size(), rb.var())),
           fields, [&, code](RelayBuilder &inner, ValueRange vars) -> Value {
             SmallVector<Value> args(vars);
             llvm::append_range(args, entry.getArguments().drop_front());
             FuncOp body = lifted.lookup(code);
             if (!body || called.contains(code))
               return CallOp::create(inner.getBuilder(), loc, result, code,
                                     args, nullptr, nullptr, nullptr);
             IRMapping mapping;
             Block &block = body.getBody().front();
             mapping.map(block.getArguments(), args);
             for (Operation &op : block.without_terminator())
               inner.getBuilder().clone(op, mapping);
             Value value = mapping.lookupOrDefault(
                 cast<ReturnOp>(block.getTerminator()).getValue());
             body.erase();
             lifted.erase(code);
             return value;
           }});
    }
    Value value = rb.match(entry.getArgument(0), result, cases);
    ReturnOp::create(b, loc, value);
  }
  return success();
}

void DefunctionalizePass::runOnOperation() {
  ModuleOp module = getOperation();
  // An entry function's caller is outside the module: it cannot make a
  // closure to pass in. (One it gets back is an object it can only hold.)
  for (const std::string &name : entryFunctions) {
    auto entry = module.lookupSymbol<FuncOp>(name);
    if (!entry)
      continue;
    FunctionType signature = entry.getFunctionType();
    for (auto [i, input] : llvm::enumerate(signature.getInputs())) {
      Type type = input;
      bool closure = false;
      type.walk([&](FuncType) { closure = true; });
      if (closure) {
        entry.emitError("relay-defunctionalize: the entry function @")
            << name << " takes a closure (parameter " << i << ", " << type
            << "); code compiled for callers outside the module cannot "
               "receive one";
        return signalPassFailure();
      }
    }
  }
  // What no entry function reaches cannot run: erased, so that a closure
  // type only such a function still holds (its closures folded away with
  // the code that made them) needs no apply function.
  if (!entryFunctions.empty()) {
    SmallVector<std::string> entries(entryFunctions.begin(),
                                     entryFunctions.end());
    numUnreachable += eraseUnreachableFunctions(module, entries);
  }
  // A pass instance may run on several modules.
  reserved.clear();
  closures.clear();
  liftedCount.clear();
  lifted.clear();
  // Polymorphic functions, and polymorphic function values, take the
  // instance of their uses' types.
  OpPassManager specialize("builtin.module");
  specialize.addPass(createSpecialize());
  if (failed(runPipeline(specialize, module)))
    return signalPassFailure();
  if (failed(checkMonomorphic(module)))
    return signalPassFailure();
  SymbolTable symbolTable(module);
  symbols = &symbolTable;

  // Innermost closures first: an outer closure captures what the inner ones
  // store.
  SmallVector<FnOp> fns;
  SmallVector<GlobalRefOp> refs;
  module.walk([&](Operation *op) {
    if (auto fn = dyn_cast<FnOp>(op))
      fns.push_back(fn);
    else if (auto ref = dyn_cast<GlobalRefOp>(op))
      refs.push_back(ref);
  });
  for (FnOp fn : fns)
    liftClosure(fn);
  for (GlobalRefOp ref : refs)
    replaceGlobalRef(ref);
  SmallVector<ApplyOp> applies;
  module.walk([&](ApplyOp apply) { applies.push_back(apply); });
  for (ApplyOp apply : applies)
    replaceApply(apply);

  // Every type: values, signatures, constructors' fields, patterns.
  AttrTypeReplacer replacer;
  replacer.addReplacement([&](Type t) {
    return std::make_optional(std::make_pair(convert(t), WalkResult::skip()));
  });
  replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
  if (failed(declareClosureTypes(module)))
    return signalPassFailure();
  numClosureTypes += closures.size();
}

} // namespace

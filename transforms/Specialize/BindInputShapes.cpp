//===- BindInputShapes.cpp - A program typed for its inputs' shapes -------===//

#include "transforms/Specialize/BindInputShapes.h"

#include "dialects/relay/RelayBuilder.h"
#include "dialects/relay/RelayOps.h"
#include "dialects/relay/RelayTypes.h"
#include "dialects/relay/TypeUtils.h"
#include "transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::relay;

/// `param` with its `?` dimensions sized as `input`'s (a tuple's fields
/// each as the input's); null when `input` cannot be passed for it
/// (another rank or dtype, another static size) or there is nothing to
/// bind.
static Type bindParameter(Type param, Type input) {
  if (auto tuple = dyn_cast<TupleType>(param)) {
    auto given = dyn_cast<TupleType>(input);
    if (!given || given.size() != tuple.size())
      return nullptr;
    SmallVector<Type> fields;
    bool bound = false;
    for (auto [field, givenField] :
         llvm::zip(tuple.getTypes(), given.getTypes())) {
      Type t = bindParameter(field, givenField);
      if (!t && field != givenField)
        return nullptr;
      bound |= static_cast<bool>(t);
      fields.push_back(t ? t : field);
    }
    return bound ? TupleType::get(param.getContext(), fields) : nullptr;
  }
  auto type = dyn_cast<RankedTensorType>(param);
  auto given = dyn_cast<RankedTensorType>(input);
  if (!type || !given || type.hasStaticShape() || !given.hasStaticShape() ||
      type.getRank() != given.getRank() ||
      type.getElementType() != given.getElementType())
    return nullptr;
  for (auto [dim, size] : llvm::zip(type.getShape(), given.getShape()))
    if (!ShapedType::isDynamic(dim) && dim != size)
      return nullptr;
  return given;
}

/// Sets `func`'s parameters to `params` and leaves every other type in it
/// that has a `?` (its results, its ops', with `closureParams` its
/// closures' parameters) to be inferred again; with `keepJoins`, not those
/// of `if` and `match` (a `?` there may join branches of different sizes,
/// which inference, unifying them, would reject).
static void retype(FuncOp func, ArrayRef<Type> params, bool closureParams,
                   bool keepJoins = false) {
  MLIRContext *context = func.getContext();
  Type incomplete = IncompleteType::get(context);
  Block &body = func.getBody().front();
  for (auto [arg, type] : llvm::zip(body.getArguments(), params))
    arg.setType(type);
  SmallVector<Type> results;
  for (Type t : func.getResultTypes())
    results.push_back(hasDynamicTensor(t) ? incomplete : t);
  func.setFunctionType(
      FunctionType::get(context, body.getArgumentTypes(), results));
  func.walk([&](Operation *op) {
    // A closure's type is its signature's (its parameters with a `?` are
    // inferred from its applications too, with `closureParams`).
    if (auto fn = dyn_cast<FnOp>(op)) {
      FuncType type = fn.getFuncType();
      if (!hasDynamicTensor(type))
        return;
      SmallVector<Type> inputs;
      for (BlockArgument param : fn.getParams()) {
        if (closureParams && hasDynamicTensor(param.getType()))
          param.setType(incomplete);
        inputs.push_back(param.getType());
      }
      Type result =
          hasDynamicTensor(type.getResult()) ? incomplete : type.getResult();
      auto retyped = FuncType::get(context, type.getTypeParams(), inputs,
                                   result, type.getRelations());
      fn.getResult().setType(retyped);
      if (BlockArgument self = fn.getSelf())
        self.setType(retyped);
      return;
    }
    // A global function's reference has its type.
    if (isa<GlobalRefOp>(op) || (keepJoins && isa<IfOp, MatchOp>(op)))
      return;
    for (OpResult r : op->getResults())
      if (hasDynamicTensor(r.getType()))
        r.setType(incomplete);
  });
}

/// bindInputShapes with the entry's parameters typed `params`, closures'
/// parameters typed again or not (`closureParams`).
static OwningOpRef<ModuleOp> bind(ModuleOp module, StringRef entry,
                                  ArrayRef<Type> params, unsigned maxCopies,
                                  bool closureParams) {
  OwningOpRef<ModuleOp> copy = module.clone();
  SymbolTable symbols(*copy);
  auto func = symbols.lookup<FuncOp>(entry);
  retype(func, params, closureParams);
  MLIRContext *context = module.getContext();
  // The functions typed again, and the copies by callee and the arguments'
  // types (as a function type).
  SmallVector<FuncOp> retyped = {func};
  DenseMap<std::pair<Operation *, Type>, FuncOp> copies;
  ScopedDiagnosticHandler quiet(context,
                                [](Diagnostic &) { return success(); });
  while (true) {
    PassManager pm(context);
    pm.addPass(createReinferTypes());
    if (failed(pm.run(*copy)))
      return nullptr;
    // Calls passing static arguments where the callee's parameters say `?`
    // go to a copy of the callee typed for them.
    SmallVector<CallOp> calls;
    for (FuncOp f : retyped)
      f.walk([&](CallOp call) {
        auto callee = symbols.lookup<FuncOp>(call.getCallee());
        if (callee && !callee.isPolymorphic() && !call.getTypeArgs() &&
            llvm::any_of(callee.getArgumentTypes(), hasDynamicTensor) &&
            llvm::none_of(call.getArgs().getTypes(), hasDynamicTensor))
          calls.push_back(call);
      });
    if (calls.empty())
      break;
    for (CallOp call : calls) {
      auto callee = symbols.lookup<FuncOp>(call.getCallee());
      SmallVector<Type> types(call.getArgs().getTypes());
      FuncOp &instance =
          copies[{callee, FunctionType::get(context, types, {})}];
      if (!instance) {
        if (copies.size() > maxCopies)
          return nullptr;
        instance = callee.clone();
        instance.setSymName((callee.getSymName() + "_shaped").str());
        instance.setPrivate();
        // (Renamed further where that name is taken.)
        symbols.insert(instance, std::next(Block::iterator(callee)));
        retype(instance, types, closureParams);
        retyped.push_back(instance);
      }
      call.setCalleeAttr(FlatSymbolRefAttr::get(instance.getSymNameAttr()));
    }
    // The callers' types that came from the callees' `?` results.
    for (FuncOp f : retyped)
      retype(f, SmallVector<Type>(f.getArgumentTypes()), closureParams);
  }
  // The functions copied from that nothing calls any more (their `?`
  // signatures would stop native code generation).
  llvm::SetVector<Operation *> callees;
  for (auto &copied : copies)
    callees.insert(copied.first.first);
  for (Operation *callee : callees)
    if (callee != func && SymbolTable::symbolKnownUseEmpty(callee, *copy))
      symbols.erase(callee);
  return copy;
}

OwningOpRef<ModuleOp> mlir::relay::bindInputShapes(ModuleOp module,
                                                   StringRef entry,
                                                   ArrayRef<Type> inputTypes,
                                                   unsigned maxCopies) {
  auto func = module.lookupSymbol<FuncOp>(entry);
  if (!func || func.getBody().empty() ||
      func.getNumArguments() != inputTypes.size())
    return nullptr;
  SmallVector<Type> params(func.getArgumentTypes());
  bool bound = false;
  for (auto [param, input] : llvm::zip(params, inputTypes))
    if (Type t = bindParameter(param, input)) {
      param = t;
      bound = true;
    }
  if (!bound)
    return nullptr;
  // Closures typed `?` are typed from their applications where that types
  // (each applied at one shape), else kept as written.
  if (OwningOpRef<ModuleOp> copy =
          bind(module, entry, params, maxCopies, /*closureParams=*/true))
    return copy;
  return bind(module, entry, params, maxCopies, /*closureParams=*/false);
}

OwningOpRef<ModuleOp> mlir::relay::instantiateEntry(ModuleOp module,
                                                    StringRef entry,
                                                    ArrayRef<Type> inputTypes) {
  auto original = module.lookupSymbol<FuncOp>(entry);
  if (!original || !original.isPolymorphic() ||
      original.getNumArguments() != inputTypes.size())
    return nullptr;
  // A type variable still in an input's type: nothing to instantiate it
  // with (relay-run cannot tell a directory read for a type variable, an
  // element of `List[A]`, as a tuple or a list).
  for (auto [i, given] : llvm::enumerate(inputTypes)) {
    Type type = given;
    TypeVarType variable;
    type.walk([&](TypeVarType t) { variable = t; });
    if (variable) {
      emitError(original.getLoc())
          << "cannot instantiate @" << entry << " for input #" << i
          << ": its value does not say what type variable '"
          << variable.getName() << "' of " << type
          << " is (a directory cannot stand for one: a tuple or a list? "
             "write the type in the signature)";
      return nullptr;
    }
  }
  OwningOpRef<ModuleOp> copy = module.clone();
  SymbolTable symbols(*copy);
  auto poly = symbols.lookup<FuncOp>(entry);
  // (Its recursive calls follow the new name.)
  std::string polyName = (entry + "_poly").str();
  for (unsigned i = 0; symbols.lookup(polyName); ++i)
    polyName = (entry + "_poly" + Twine(i)).str();
  if (failed(
          symbols.rename(poly, StringAttr::get(copy->getContext(), polyName))))
    return nullptr;
  MLIRContext *context = copy->getContext();
  OpBuilder b(context);
  b.setInsertionPointAfter(poly);
  Location loc = poly.getLoc();
  auto func =
      FuncOp::create(b, loc, entry, inputTypes, IncompleteType::get(context));
  symbols.insert(func);
  Block &body = func.getBody().front();
  for (auto [arg, param] :
       llvm::zip(body.getArguments(), poly.getBody().front().getArguments()))
    arg.setLoc(param.getLoc());
  b.setInsertionPointToStart(&body);
  Value result = RelayBuilder(b, loc).call(
      polyName, IncompleteType::get(context), body.getArguments());
  ReturnOp::create(b, loc, result);
  PassManager infer(context);
  infer.addPass(createReinferTypes());
  if (failed(infer.run(*copy)))
    return nullptr;
  // An input that says nothing of a type variable (an empty list, a None)
  // leaves it unknown unless another input fixes it.
  for (auto [i, argType] : llvm::enumerate(func.getArgumentTypes())) {
    Type type = argType;
    bool unknown = false;
    type.walk([&](Type t) {
      if (isa<IncompleteType, TypeVarType>(t))
        unknown = true;
    });
    if (unknown) {
      emitError(loc) << "cannot instantiate @" << entry << " for input #" << i
                     << " of type " << type
                     << ": no input says what its type variable is (an "
                        "empty list or a None says nothing of its elements)";
      return nullptr;
    }
  }
  // The instance of the polymorphic entry keeps the `?` dimensions its
  // signature has; it and its callees are typed for the inputs' sizes as
  // bindInputShapes types a monomorphic entry. (Specialization replaces
  // functions: `func` is not read after it.)
  PassManager specialize(context);
  specialize.addPass(createSpecialize());
  if (failed(specialize.run(*copy)))
    return nullptr;
  for (bool closureParams : {true, false})
    if (OwningOpRef<ModuleOp> bound =
            bind(*copy, entry, inputTypes, /*maxCopies=*/64, closureParams))
      return bound;
  return copy;
}

void mlir::relay::forgetDynamicTypes(FuncOp func) {
  retype(func, SmallVector<Type>(func.getArgumentTypes()),
         /*closureParams=*/false, /*keepJoins=*/true);
}

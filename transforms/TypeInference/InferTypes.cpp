//===- InferTypes.cpp - The --relay-infer-types pass ------------*- C++ -*-===//
//
// Type inference for a module of Relay functions. Each strongly connected
// component of the call graph is inferred in turn, callees first:
//
//  1. every `!relay.incomplete` becomes a fresh flexible variable;
//  2. one walk over the bodies unifies what the language ties together
//     (arguments with parameters, branches of if/match with the result,
//     constructor fields, refs, tuples) and adds a relation instance per
//     operator (and per tuple_get, whose tuple may not be known yet);
//  3. the relation solver runs to a fixpoint;
//  4. variables left free in a function's signature become its type
//     parameters (generalisation); any other unknown is an error;
//  5. the solved types are written back into values, signatures, closure
//     types and the type arguments of calls.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "dialects/relay/MatchExhaustion.h"
#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelationUtils.h"
#include "dialects/relay/RelayAttrs.h"
#include "dialects/relay/RelayOps.h"
#include "dialects/relay/TypeUtils.h"
#include "transforms/TypeInference/RelationSolver.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::relay {
#define GEN_PASS_DEF_INFERTYPES
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

/// An attribute or type as diagnostics print it.
template <typename T> static std::string printed(T value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << value;
  return text;
}

//===----------------------------------------------------------------------===//
// Call graph components
//===----------------------------------------------------------------------===//

/// The relay.func ops of `module` grouped into strongly connected
/// components of the call graph, callees before callers (Tarjan).
static std::vector<SmallVector<FuncOp>> getCallGraphSCCs(ModuleOp module) {
  SmallVector<FuncOp> funcs(module.getOps<FuncOp>());
  DenseMap<Operation *, unsigned> index;
  for (auto [i, f] : llvm::enumerate(funcs))
    index[f] = i;
  std::vector<SmallVector<unsigned>> edges(funcs.size());
  for (auto [i, f] : llvm::enumerate(funcs)) {
    SmallVector<unsigned> &calls = edges[i];
    f.walk([&](Operation *op) {
      FlatSymbolRefAttr callee;
      if (auto call = dyn_cast<CallOp>(op))
        callee = call.getCalleeAttr();
      else if (auto ref = dyn_cast<GlobalRefOp>(op))
        callee = ref.getNameAttr();
      if (!callee)
        return;
      if (auto target = module.lookupSymbol<FuncOp>(callee))
        calls.push_back(index[target]);
    });
  }
  // Iterative Tarjan, so deep call chains do not exhaust the C++ stack.
  unsigned n = funcs.size(), counter = 0;
  std::vector<int> order(n, -1), low(n, 0);
  std::vector<bool> onStack(n, false);
  std::vector<unsigned> stack;
  std::vector<SmallVector<FuncOp>> sccs;
  for (unsigned root = 0; root < n; ++root) {
    if (order[root] != -1)
      continue;
    std::vector<std::pair<unsigned, unsigned>> work{{root, 0}};
    order[root] = low[root] = counter++;
    stack.push_back(root);
    onStack[root] = true;
    while (!work.empty()) {
      auto &[v, next] = work.back();
      if (next < edges[v].size()) {
        unsigned w = edges[v][next++];
        if (order[w] == -1) {
          order[w] = low[w] = counter++;
          stack.push_back(w);
          onStack[w] = true;
          work.push_back({w, 0});
        } else if (onStack[w]) {
          low[v] = std::min(low[v], order[w]);
        }
        continue;
      }
      if (low[v] == order[v]) {
        SmallVector<FuncOp> scc;
        unsigned w;
        do {
          w = stack.back();
          stack.pop_back();
          onStack[w] = false;
          scc.push_back(funcs[w]);
        } while (w != v);
        // Keep the module's order inside a component.
        llvm::sort(scc,
                   [&](FuncOp a, FuncOp b) { return index[a] < index[b]; });
        sccs.push_back(std::move(scc));
      }
      unsigned done = v;
      work.pop_back();
      if (!work.empty())
        low[work.back().first] = std::min(low[work.back().first], low[done]);
    }
  }
  return sccs;
}

//===----------------------------------------------------------------------===//
// Inference of one component
//===----------------------------------------------------------------------===//

namespace {
/// The inferred type arguments of one call to a polymorphic function.
struct PendingTypeArgs {
  CallOp call;
  SmallVector<TypeVarType> params;
  SmallVector<Attribute> instantiation;
};

class ComponentInference {
public:
  ComponentInference(ModuleOp module, SymbolTableCollection &symbols,
                     ArrayRef<FuncOp> funcs)
      : module(module), symbols(symbols), funcs(funcs),
        solver(module.getContext()), unifier(solver.getUnifier()),
        ctx(module.getContext()) {}

  /// Infers and writes back; fails after reporting an error.
  LogicalResult run(unsigned &numGeneralized);
  unsigned getNumRelations() const { return solver.getNumSolved(); }

private:
  // Constraint generation.
  Type termOf(Value v);
  void setTerm(Value v) { terms[v] = unifier.freshen(v.getType()); }
  LogicalResult unify(Type a, Type b, Operation *op, const Twine &what) {
    return solver.unify(a, b, op->getLoc(), what);
  }
  LogicalResult visit(Operation *op);
  LogicalResult visitCall(CallOp op);
  LogicalResult visitGlobalRef(GlobalRefOp op);
  LogicalResult visitFn(FnOp op);
  LogicalResult visitApply(ApplyOp op);
  LogicalResult visitReturn(ReturnOp op);
  LogicalResult visitYield(YieldOp op);
  LogicalResult visitIf(IfOp op);
  LogicalResult visitMatch(MatchOp op);
  LogicalResult visitPattern(MatchOp op, Attribute pattern, Type expected,
                             Block::BlockArgListType::iterator &nextArg);
  LogicalResult visitConstruct(ConstructOp op);
  LogicalResult visitTupleGet(TupleGetOp op);
  LogicalResult visitOperator(Operation *op, const OperatorInfo &info);
  LogicalResult addRelations(FuncType fnType, Operation *op);

  /// The type of a function as seen from a call in this component: the
  /// monomorphic signature being inferred for members, the declared (maybe
  /// polymorphic) type for the rest.
  FuncType calleeType(FuncOp callee);
  /// Instantiates `@ctor`'s ADT with fresh type arguments; returns the ADT
  /// type and fills the field types.
  FailureOr<AdtType> instantiateCtor(Operation *op, SymbolRefAttr name,
                                     SmallVectorImpl<Type> &fields);

  // Generalisation and write-back.
  LogicalResult generalize(unsigned &numGeneralized);
  LogicalResult writeBack();

  ModuleOp module;
  SymbolTableCollection &symbols;
  ArrayRef<FuncOp> funcs;
  RelationSolver solver;
  TypeUnifier &unifier;
  MLIRContext *ctx;

  DenseMap<Value, Type> terms;
  /// The return type being inferred for each relay.func / relay.fn.
  DenseMap<Operation *, Type> returnTerms;
  /// Signatures of the component's functions.
  DenseMap<Operation *, FuncType> signatures;
  /// Type parameters added to each function by generalisation.
  DenseMap<Operation *, SmallVector<TypeVarType>> generalized;
  std::vector<PendingTypeArgs> pendingTypeArgs;
};
} // namespace

Type ComponentInference::termOf(Value v) {
  auto it = terms.find(v);
  if (it != terms.end())
    return it->second;
  Type t = unifier.freshen(v.getType());
  terms[v] = t;
  return t;
}

FuncType ComponentInference::calleeType(FuncOp callee) {
  auto it = signatures.find(callee);
  if (it != signatures.end())
    return it->second;
  return callee.getRelayType();
}

LogicalResult ComponentInference::run(unsigned &numGeneralized) {
  // Signatures first, so calls between members see them.
  for (FuncOp func : funcs) {
    Block &entry = func.getBody().front();
    SmallVector<Type> inputs;
    for (BlockArgument arg : entry.getArguments()) {
      setTerm(arg);
      inputs.push_back(terms[arg]);
    }
    Type result = unifier.freshen(func.getReturnType());
    returnTerms[func] = result;
    signatures[func] = FuncType::get(ctx, func.getTypeParamList(), inputs,
                                     result, ArrayRef<TypeRelationAttr>());
  }
  for (FuncOp func : funcs) {
    // Relations are solved as they come, so an error is reported at the
    // first op (in program order) that contradicts what is known.
    WalkResult walk =
        func.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
          return failed(visit(op)) || failed(solver.solve())
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        });
    if (walk.wasInterrupted())
      return failure();
  }
  if (failed(solver.reportUnsolved()))
    return failure();
  if (failed(generalize(numGeneralized)))
    return failure();
  return writeBack();
}

LogicalResult ComponentInference::visit(Operation *op) {
  for (Value result : op->getResults())
    setTerm(result);
  if (const OperatorInfo *info = lookupOperator(op->getName().getStringRef()))
    return visitOperator(op, *info);
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](CallOp call) { return visitCall(call); })
      .Case([&](GlobalRefOp ref) { return visitGlobalRef(ref); })
      .Case([&](FnOp fn) { return visitFn(fn); })
      .Case([&](ApplyOp apply) { return visitApply(apply); })
      .Case([&](ReturnOp ret) { return visitReturn(ret); })
      .Case([&](YieldOp yield) { return visitYield(yield); })
      .Case([&](IfOp ifOp) { return visitIf(ifOp); })
      .Case([&](MatchOp match) { return visitMatch(match); })
      .Case([&](ConstructOp construct) { return visitConstruct(construct); })
      .Case([&](TupleOp tuple) {
        SmallVector<Type> fields = llvm::map_to_vector(
            tuple.getFields(), [&](Value v) { return termOf(v); });
        return unify(termOf(tuple.getResult()), TupleType::get(ctx, fields), op,
                     "relay.tuple: the result");
      })
      .Case([&](TupleGetOp get) { return visitTupleGet(get); })
      .Case([&](RefOp ref) {
        return unify(termOf(ref.getResult()),
                     RefType::get(ctx, termOf(ref.getValue())), op,
                     "relay.ref: the result");
      })
      .Case([&](RefReadOp read) {
        return unify(termOf(read.getRef()),
                     RefType::get(ctx, termOf(read.getResult())), op,
                     "relay.ref_read: the reference");
      })
      .Case([&](RefWriteOp write) {
        if (failed(unify(termOf(write.getRef()),
                         RefType::get(ctx, termOf(write.getValue())), op,
                         "relay.ref_write: the reference")))
          return failure();
        return unify(termOf(write.getResult()), TupleType::get(ctx, {}), op,
                     "relay.ref_write: the result");
      })
      // Constants and ops of other dialects keep the types they have.
      .Default([](Operation *) { return success(); });
}

LogicalResult ComponentInference::visitOperator(Operation *op,
                                                const OperatorInfo &info) {
  if (op->getNumOperands() != info.numInputs || op->getNumResults() != 1)
    return op->emitOpError("expects ")
           << info.numInputs << " operands and one result";
  const TypeRelationFn *relation = lookupTypeRelation(info.relation);
  if (!relation)
    return op->emitOpError("has no registered type relation '")
           << info.relation << "'";
  SmallVector<Type> types;
  for (Value v : op->getOperands())
    types.push_back(termOf(v));
  types.push_back(termOf(op->getResult(0)));
  StringRef name = op->getName().getStringRef();
  name.consume_front("relay.");
  solver.addRelation(name, *relation, types, info.numInputs,
                     getOperatorAttributes(op), op->getLoc());
  return success();
}

LogicalResult ComponentInference::addRelations(FuncType fnType, Operation *op) {
  for (TypeRelationAttr rel : fnType.getRelations()) {
    const TypeRelationFn *relation = lookupTypeRelation(rel.getName());
    if (!relation)
      return op->emitError("unknown type relation '") << rel.getName() << "'";
    ArrayRef<Type> args = rel.getArgs();
    if (args.empty())
      return op->emitError("type relation '")
             << rel.getName() << "' needs at least one argument";
    solver.addRelation(rel.getName(), *relation, args, args.size() - 1,
                       DictionaryAttr(), op->getLoc());
  }
  return success();
}

LogicalResult ComponentInference::visitCall(CallOp op) {
  auto callee = symbols.lookupNearestSymbolFrom<FuncOp>(op, op.getCalleeAttr());
  if (!callee)
    return op.emitOpError("refers to an undefined function ")
           << op.getCalleeAttr();
  FuncType type = calleeType(callee);
  SmallVector<Attribute> instantiation;
  FuncType mono =
      unifier.instantiate(type, op.getTypeArgsAttr(), &instantiation);
  std::string name = ("@" + op.getCallee()).str();
  if (mono.getNumInputs() != op.getArgs().size())
    return op.emitOpError("expects ")
           << mono.getNumInputs() << " arguments for " << name << ", got "
           << op.getArgs().size();
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(op.getArgs(), mono.getInputs())))
    if (failed(unify(termOf(std::get<0>(pair)), std::get<1>(pair), op,
                     "relay.call " + name + ": argument #" + Twine(i))))
      return failure();
  if (failed(unify(termOf(op.getResult()), mono.getResult(), op,
                   "relay.call " + name + ": the result")))
    return failure();
  if (type.isPolymorphic() && !op.getTypeArgsAttr())
    pendingTypeArgs.push_back(PendingTypeArgs{
        op, SmallVector<TypeVarType>(type.getTypeParams()), instantiation});
  return addRelations(mono, op);
}

LogicalResult ComponentInference::visitGlobalRef(GlobalRefOp op) {
  auto callee = symbols.lookupNearestSymbolFrom<FuncOp>(op, op.getNameAttr());
  if (!callee)
    return op.emitOpError("refers to an undefined function ")
           << op.getNameAttr();
  return unify(termOf(op.getResult()), calleeType(callee), op,
               ("relay.global_ref @" + op.getName()).str());
}

LogicalResult ComponentInference::visitFn(FnOp op) {
  auto declared = cast<FuncType>(termOf(op.getResult()));
  Block::BlockArgListType params = op.getParams();
  if (params.size() != declared.getNumInputs())
    return op.emitOpError("has ")
           << params.size() << " parameters but type " << op.getType();
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(params, declared.getInputs())))
    if (failed(unify(termOf(std::get<0>(pair)), std::get<1>(pair), op,
                     "relay.fn: parameter #" + Twine(i))))
      return failure();
  returnTerms[op] = declared.getResult();
  if (BlockArgument self = op.getSelf())
    return unify(termOf(self), declared, op,
                 "relay.fn: the recursive self-reference");
  return success();
}

LogicalResult ComponentInference::visitApply(ApplyOp op) {
  Type callee = unifier.resolve(termOf(op.getCallee()));
  SmallVector<Type> args =
      llvm::map_to_vector(op.getArgs(), [&](Value v) { return termOf(v); });
  Type result = termOf(op.getResult());
  auto fnType = dyn_cast<FuncType>(callee);
  if (!fnType) {
    if (isa<TypeVarType>(callee) &&
        TypeUnifier::isFlexible(cast<TypeVarType>(callee).getName()))
      return unify(callee, FuncType::get(ctx, args, result), op,
                   "relay.apply: the callee");
    return op.emitOpError("applies a value of type ")
           << callee << ", which is not a function";
  }
  FuncType mono = unifier.instantiate(fnType, nullptr);
  if (mono.getNumInputs() != args.size())
    return op.emitOpError("passes ")
           << args.size() << " arguments to a function of type " << callee;
  for (auto [i, pair] : llvm::enumerate(llvm::zip(args, mono.getInputs())))
    if (failed(unify(std::get<0>(pair), std::get<1>(pair), op,
                     "relay.apply: argument #" + Twine(i))))
      return failure();
  if (failed(unify(result, mono.getResult(), op, "relay.apply: the result")))
    return failure();
  return addRelations(mono, op);
}

LogicalResult ComponentInference::visitReturn(ReturnOp op) {
  Operation *parent = op->getParentOp();
  auto it = returnTerms.find(parent);
  if (it == returnTerms.end())
    return success();
  StringRef what = isa<FnOp>(parent) ? "relay.fn: the returned value"
                                     : "relay.func: the returned value";
  return unify(termOf(op.getValue()), it->second, op, what);
}

LogicalResult ComponentInference::visitYield(YieldOp op) {
  Operation *parent = op->getParentOp();
  if (parent->getNumResults() != 1)
    return success();
  std::string what =
      (parent->getName().getStringRef() + ": the yielded value").str();
  Type result = termOf(parent->getResult(0));
  if (failed(unify(termOf(op.getValue()), result, op, what)))
    return failure();
  // A branch yielding `?` where another yields a size: the result is `?`.
  unifier.widen(result, termOf(op.getValue()));
  return success();
}

LogicalResult ComponentInference::visitIf(IfOp op) {
  return unify(termOf(op.getCond()),
               RankedTensorType::get({}, IntegerType::get(ctx, 1)), op,
               "relay.if: the condition (a bool scalar)");
}

FailureOr<AdtType>
ComponentInference::instantiateCtor(Operation *op, SymbolRefAttr name,
                                    SmallVectorImpl<Type> &fields) {
  auto ctor =
      dyn_cast_or_null<CtorOp>(symbols.lookupNearestSymbolFrom(op, name));
  if (!ctor)
    return op->emitOpError("refers to an undefined constructor ") << name;
  DataOp data = ctor.getDataOp();
  TypeSubstitution subst;
  SmallVector<Type> args;
  for (TypeVarType param : data.getTypeParamList()) {
    TypeKind kind = param.getKind() == TypeKind::BaseType ? TypeKind::BaseType
                                                          : TypeKind::Type;
    Type fresh = unifier.freshType(kind);
    subst[param.getName()] = TypeAttr::get(fresh);
    args.push_back(fresh);
  }
  for (Type field : ctor.getFieldTypes())
    fields.push_back(substitute(field, subst));
  return AdtType::get(ctx, data.getSymNameAttr(), args);
}

LogicalResult ComponentInference::visitConstruct(ConstructOp op) {
  SmallVector<Type> fields;
  FailureOr<AdtType> adt = instantiateCtor(op, op.getConstructor(), fields);
  if (failed(adt))
    return failure();
  if (fields.size() != op.getFields().size())
    return op.emitOpError("passes ")
           << op.getFields().size() << " fields to " << op.getConstructor()
           << ", which takes " << fields.size();
  std::string name = "relay.construct " + printed(op.getConstructor());
  for (auto [i, pair] : llvm::enumerate(llvm::zip(op.getFields(), fields)))
    if (failed(unify(termOf(std::get<0>(pair)), std::get<1>(pair), op,
                     name + ": field #" + Twine(i))))
      return failure();
  return unify(termOf(op.getResult()), *adt, op, name + ": the result");
}

LogicalResult
ComponentInference::visitPattern(MatchOp op, Attribute pattern, Type expected,
                                 Block::BlockArgListType::iterator &nextArg) {
  if (isa<PatternWildcardAttr>(pattern))
    return success();
  if (isa<PatternVarAttr>(pattern)) {
    BlockArgument arg = *nextArg++;
    return unify(termOf(arg), expected, op, "relay.match: a pattern variable");
  }
  if (auto tuple = dyn_cast<PatternTupleAttr>(pattern)) {
    SmallVector<Type> fields;
    for (size_t i = 0; i < tuple.getFields().size(); ++i)
      fields.push_back(unifier.freshType());
    if (failed(unify(expected, TupleType::get(ctx, fields), op,
                     "relay.match: the value matched by a tuple pattern")))
      return failure();
    for (auto [sub, field] : llvm::zip(tuple.getFields(), fields))
      if (failed(visitPattern(op, sub, field, nextArg)))
        return failure();
    return success();
  }
  auto ctorPattern = cast<PatternCtorAttr>(pattern);
  SmallVector<Type> fields;
  FailureOr<AdtType> adt =
      instantiateCtor(op, ctorPattern.getConstructor(), fields);
  if (failed(adt))
    return failure();
  if (failed(unify(expected, *adt, op,
                   "relay.match: the value matched by pattern " +
                       printed(ctorPattern.getConstructor()))))
    return failure();
  if (fields.size() != ctorPattern.getFields().size())
    return op.emitOpError("pattern ") << ctorPattern.getConstructor() << " has "
                                      << ctorPattern.getFields().size()
                                      << " fields, expected " << fields.size();
  for (auto [sub, field] : llvm::zip(ctorPattern.getFields(), fields))
    if (failed(visitPattern(op, sub, field, nextArg)))
      return failure();
  return success();
}

LogicalResult ComponentInference::visitMatch(MatchOp op) {
  Type scrutinee = termOf(op.getScrutinee());
  for (auto [pattern, region] : llvm::zip(op.getPatterns(), op.getCases())) {
    Block &block = region.front();
    for (BlockArgument arg : block.getArguments())
      setTerm(arg);
    auto nextArg = block.getArguments().begin();
    if (failed(visitPattern(op, pattern, scrutinee, nextArg)))
      return failure();
  }
  return success();
}

LogicalResult ComponentInference::visitTupleGet(TupleGetOp op) {
  int64_t index = op.getIndex();
  // A relation, since the tuple's type may only be known later.
  TypeRelationFn relation = [index](RelationArgs &args) -> RelationStatus {
    Type input = args.getInput(0);
    auto tuple = dyn_cast<TupleType>(input);
    if (!tuple) {
      if (auto var = dyn_cast<TypeVarType>(input);
          var && TypeUnifier::isFlexible(var.getName()))
        return RelationStatus::Pending;
      return args.fail("expected a tuple, got " + typeStr(input));
    }
    if (index >= static_cast<int64_t>(tuple.size()))
      return args.fail("index " + std::to_string(index) +
                       " is out of range for " + typeStr(input));
    return args.solve(tuple.getType(index));
  };
  solver.addRelation("relay.tuple_get", relation,
                     {termOf(op.getTuple()), termOf(op.getResult())}, 1,
                     DictionaryAttr(), op.getLoc());
  return success();
}

//===----------------------------------------------------------------------===//
// Generalisation and write-back
//===----------------------------------------------------------------------===//

LogicalResult ComponentInference::generalize(unsigned &numGeneralized) {
  // Names given to generalised variables, shared by the component.
  llvm::StringMap<TypeVarType> given;
  for (FuncOp func : funcs) {
    FuncType sig = signatures[func];
    SmallVector<Type> sigTypes(sig.getInputs());
    sigTypes.push_back(sig.getResult());
    llvm::StringSet<> used;
    for (TypeVarType param : func.getTypeParamList())
      used.insert(param.getName());
    SmallVector<TypeVarType> added;
    auto freshUserName = [&]() {
      for (unsigned i = 0;; ++i) {
        std::string name = "t" + std::to_string(i);
        if (!used.contains(name) && !given.contains(name))
          return name;
      }
    };
    for (Type t : sigTypes) {
      walkTypeVars(unifier.resolve(t), [&](StringRef name, TypeKind kind) {
        if (!TypeUnifier::isFlexible(name)) {
          // A variable another member generalised.
          auto it = given.find(name);
          if (it != given.end() && !used.contains(name)) {
            used.insert(name);
            added.push_back(it->second);
          }
          return;
        }
        std::string userName = freshUserName();
        TypeVarType param = TypeVarType::get(ctx, userName, kind);
        given[userName] = param;
        used.insert(userName);
        added.push_back(param);
        if (kind == TypeKind::Type || kind == TypeKind::BaseType)
          unifier.bindName(name, TypeAttr::get(param));
        else
          unifier.bindName(name, StringAttr::get(ctx, userName));
      });
    }
    if (!added.empty()) {
      generalized[func] = added;
      ++numGeneralized;
    }
  }
  return success();
}

/// Reports a value whose type is still unknown.
static LogicalResult reportUnknown(Value v, Type type) {
  Location loc = v.getLoc();
  InFlightDiagnostic diag = emitError(loc);
  if (auto arg = dyn_cast<BlockArgument>(v))
    diag << "cannot infer the type of argument #" << arg.getArgNumber();
  else
    diag << "cannot infer the type of the result of '"
         << v.getDefiningOp()->getName() << "'";
  diag << ": it stays " << type << "; add a type annotation";
  return failure();
}

LogicalResult ComponentInference::writeBack() {
  // Resolve everything first, so an error leaves the IR untouched.
  SmallVector<std::pair<Value, Type>> updates;
  for (auto &[value, term] : terms) {
    Type resolved = unifier.resolve(term);
    if (unifier.hasFlexibleVars(resolved))
      return reportUnknown(value, resolved);
    if (resolved != value.getType())
      updates.push_back({value, resolved});
  }
  for (auto [value, type] : updates)
    value.setType(type);

  for (FuncOp func : funcs) {
    SmallVector<Type> inputs(func.getBody().front().getArgumentTypes());
    Type result = unifier.resolve(returnTerms[func]);
    func.setFunctionTypeAttr(
        TypeAttr::get(FunctionType::get(ctx, inputs, {result})));
    auto it = generalized.find(func);
    if (it != generalized.end()) {
      SmallVector<Attribute> params;
      if (ArrayAttr old = func.getTypeParamsAttr())
        params.append(old.begin(), old.end());
      for (TypeVarType param : it->second)
        params.push_back(TypeAttr::get(param));
      func.setTypeParamsAttr(ArrayAttr::get(ctx, params));
    }
  }

  // Inferred type arguments become explicit where they are concrete
  // enough to write (a shape argument must be a static shape).
  for (PendingTypeArgs &pending : pendingTypeArgs) {
    SmallVector<Attribute> args;
    bool complete = true;
    for (auto [param, inst] :
         llvm::zip(pending.params, pending.instantiation)) {
      Attribute arg = unifier.resolveTypeArgument(inst);
      if (isa<StringAttr>(arg) || failed(verifyTypeArgument(param, arg, [&] {
            return TypeReporter::discardedError(ctx);
          }))) {
        complete = false;
        break;
      }
      args.push_back(arg);
    }
    if (complete)
      pending.call.setTypeArgsAttr(ArrayAttr::get(ctx, args));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct InferTypesPass : public relay::impl::InferTypesBase<InferTypesPass> {
  using InferTypesBase::InferTypesBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbols;
    unsigned generalizedCount = 0;
    for (const SmallVector<FuncOp> &scc : getCallGraphSCCs(module)) {
      ComponentInference inference(module, symbols, scc);
      if (failed(inference.run(generalizedCount)))
        return signalPassFailure();
      numRelations += inference.getNumRelations();
    }
    numGeneralized += generalizedCount;
    if (failed(checkTensorSizes(module)))
      return signalPassFailure();
    if (warnUnmatchedCases)
      module.walk([&](MatchOp match) {
        if (match.getPartial())
          return;
        // The first 16 cases, and "..." when there are more.
        constexpr size_t kShown = 16;
        SmallVector<Attribute> missing =
            getUnmatchedCases(match, symbols, kShown + 1);
        if (missing.empty())
          return;
        InFlightDiagnostic warning = match.emitWarning(
            "match expression does not handle the following cases: ");
        llvm::interleaveComma(
            ArrayRef(missing).take_front(kShown), warning,
            [&](Attribute pattern) { warning << formatPattern(pattern); });
        if (missing.size() > kShown)
          warning << ", ...";
        warning.attachNote()
            << "a value of no case is a run-time error; add the cases, a "
               "final '_' case, or write 'match?' where that is meant";
      });
  }

  /// Tensors whose size overflows 64-bit arithmetic (a dimension of 1e16
  /// times a few more) are errors at the value, not a negative size in the
  /// lowering.
  static LogicalResult checkTensorSizes(ModuleOp module) {
    auto found = findTensorValue(
        module, [](RankedTensorType t) { return !staticTensorBytes(t); });
    if (!found)
      return success();
    return emitError(found->second)
           << "the tensor type " << found->first
           << " has more elements than 64-bit sizes can count (its size in "
              "bytes overflows)";
  }
};
} // namespace

std::unique_ptr<Pass> mlir::relay::createReinferTypes() {
  InferTypesOptions options;
  options.warnUnmatchedCases = false;
  return createInferTypes(options);
}

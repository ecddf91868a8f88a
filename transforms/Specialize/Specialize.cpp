//===- Specialize.cpp - Monomorphise polymorphic functions ------*- C++ -*-===//
//
// --relay-specialize: every call of a polymorphic relay.func with type
// arguments gets a copy of the callee with those arguments substituted for
// its type parameters (one copy per distinct list of arguments), starting
// from the monomorphic functions and following the copies' own calls.
// A polymorphic function used as a value (`relay.global_ref @id`, a
// `relay.fn [A]`) where a monomorphic function type is expected (an argument
// of a call, an applied closure, a returned or stored value) becomes the
// instance of that type, one per use. Polymorphic functions left without
// users are removed. Native code generation needs it: a lowered function
// has one machine signature.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelayOps.h"
#include "dialects/relay/TypeUtils.h"
#include "transforms/Passes.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::relay {
#define GEN_PASS_DEF_SPECIALIZE
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// True when something other than `f` itself refers to `f`.
bool usedOutside(FuncOp f, ModuleOp module) {
  std::optional<SymbolTable::UseRange> uses = f.getSymbolUses(module);
  if (!uses)
    return true; // unknown: keep it
  return llvm::any_of(*uses, [&](const SymbolTable::SymbolUse &use) {
    return !f->isAncestor(use.getUser());
  });
}

/// The monomorphic type a use of a value needs, when the user says (null
/// otherwise).
Type expectedType(OpOperand &use, SymbolTable &symbols) {
  Operation *user = use.getOwner();
  unsigned index = use.getOperandNumber();
  MLIRContext *ctx = user->getContext();
  Type type;
  if (auto call = dyn_cast<CallOp>(user)) {
    auto callee = symbols.lookup<FuncOp>(call.getCallee());
    if (callee && !callee.isPolymorphic() &&
        index < callee.getArgumentTypes().size())
      type = callee.getArgumentTypes()[index];
  } else if (auto apply = dyn_cast<ApplyOp>(user)) {
    if (index == 0) {
      type = FuncType::get(ctx, apply.getArgs().getTypes(), apply.getType());
    } else if (auto fn = dyn_cast<FuncType>(apply.getCallee().getType());
               fn && !fn.isPolymorphic()) {
      type = fn.getInputs()[index - 1];
    }
  } else if (isa<ReturnOp>(user)) {
    Operation *parent = user->getParentOp();
    if (auto func = dyn_cast<FuncOp>(parent))
      type = func.getReturnType();
    else if (auto fn = dyn_cast<FnOp>(parent);
             !fn.getFuncType().isPolymorphic())
      type = fn.getFuncType().getResult();
  } else if (isa<YieldOp>(user)) {
    type = user->getParentOp()->getResult(0).getType();
  } else if (auto tuple = dyn_cast<TupleOp>(user)) {
    type = cast<TupleType>(tuple.getType()).getType(index);
  } else if (auto ref = dyn_cast<RefOp>(user)) {
    if (auto refType = dyn_cast<RefType>(ref.getType()))
      type = refType.getElementType();
  } else if (auto write = dyn_cast<RefWriteOp>(user)) {
    if (auto refType = dyn_cast<RefType>(write->getOperand(0).getType());
        refType && index == 1)
      type = refType.getElementType();
  } else if (auto construct = dyn_cast<ConstructOp>(user)) {
    auto ctor = dyn_cast_or_null<CtorOp>(
        symbols.lookupSymbolIn(symbols.getOp(), construct.getConstructor()));
    auto adt = dyn_cast<AdtType>(construct.getType());
    if (ctor && adt) {
      TypeSubstitution subst;
      for (auto [param, arg] :
           llvm::zip(ctor.getDataOp().getTypeParamList(), adt.getArgs()))
        subst[param.getName()] = TypeAttr::get(arg);
      type = substitute(ctor.getFieldTypes()[index], subst);
    }
  }
  return type && isConcrete(type) ? type : Type();
}

/// Substitutes `subst` in every type and type attribute of `op`.
void substituteIn(Operation *op, const TypeSubstitution &subst) {
  // Whole types at a time: substitute() knows which variables a nested
  // polymorphic function type binds.
  AttrTypeReplacer replacer;
  replacer.addReplacement([&](Type t) {
    if (auto fn = dyn_cast<FunctionType>(t)) {
      auto each = [&](TypeRange ts) {
        return llvm::map_to_vector(
            ts, [&](Type x) { return substitute(x, subst); });
      };
      t = FunctionType::get(fn.getContext(), each(fn.getInputs()),
                            each(fn.getResults()));
    } else {
      t = substitute(t, subst);
    }
    return std::make_optional(std::make_pair(t, WalkResult::skip()));
  });
  replacer.recursivelyReplaceElementsIn(op, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
}

struct SpecializePass : public relay::impl::SpecializeBase<SpecializePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    Instances instances;
    SmallVector<FuncOp> worklist, polymorphic;
    for (FuncOp f : module.getOps<FuncOp>())
      (f.isPolymorphic() ? polymorphic : worklist).push_back(f);

    // A copy's call whose type arguments were symbolic where its callee
    // was typed (a ShapeVar passed on: type inference writes only static
    // shapes) has concrete operands in the copy: inferred again, in rounds.
    constexpr unsigned kMaxRounds = 16;
    for (unsigned round = 0;; ++round) {
      SmallVector<FuncOp> retry;
      while (!worklist.empty()) {
        FuncOp f = worklist.pop_back_val();
        bool waits = false;
        WalkResult result = f.walk([&](CallOp call) {
          auto callee = symbols.lookup<FuncOp>(call.getCallee());
          if (!callee || !callee.isPolymorphic())
            return WalkResult::advance();
          ArrayAttr typeArgs = call.getTypeArgsAttr();
          if (!typeArgs && round < kMaxRounds && copies.contains(f) &&
              llvm::all_of(call.getArgs().getTypes(),
                           [](Type t) { return isConcrete(t); })) {
            waits = true;
            return WalkResult::advance();
          }
          if (!typeArgs) {
            call.emitError("relay-specialize: the call of polymorphic @")
                << callee.getSymName()
                << " has no type arguments (run --relay-infer-types first)";
            return WalkResult::interrupt();
          }
          FuncOp instance =
              getInstance(callee, typeArgs, symbols, instances, worklist);
          call.setCallee(instance.getSymName());
          call.removeTypeArgsAttr();
          return WalkResult::advance();
        });
        if (result.wasInterrupted())
          return signalPassFailure();
        // With its calls on instances, the uses of polymorphic values in
        // `f` know their types; a copied relay.fn may call polymorphic
        // functions in turn, so `f` goes round again.
        FailureOr<bool> changed =
            instantiateValues(f, symbols, instances, worklist);
        if (failed(changed))
          return signalPassFailure();
        if (*changed)
          worklist.push_back(f);
        if (waits)
          retry.push_back(f);
      }
      if (retry.empty())
        break;
      OpPassManager infer("builtin.module");
      infer.addPass(createReinferTypes());
      if (failed(runPipeline(infer, module)))
        return signalPassFailure();
      worklist = std::move(retry);
    }
    // Erasing one may free another (a polymorphic caller of it).
    for (bool changed = true; changed;) {
      changed = false;
      for (FuncOp &f : polymorphic)
        if (f && !usedOutside(f, module)) {
          f.erase();
          f = nullptr;
          changed = true;
        }
    }
  }

  using Instances = DenseMap<std::pair<Attribute, Attribute>, FuncOp>;
  /// The instances made (the functions whose calls may wait for types).
  llvm::DenseSet<Operation *> copies;

  /// The instance of `callee` for `typeArgs`, made on first use (and queued
  /// for specialising in turn).
  FuncOp getInstance(FuncOp callee, ArrayAttr typeArgs, SymbolTable &symbols,
                     Instances &instances, SmallVectorImpl<FuncOp> &worklist) {
    FuncOp &instance = instances[{callee.getSymNameAttr(), typeArgs}];
    if (!instance) {
      instance = instantiate(callee, typeArgs, symbols);
      copies.insert(instance);
      worklist.push_back(instance);
      ++numInstances;
    }
    return instance;
  }

  /// Replaces each use of a polymorphic function value in `f` (a global_ref
  /// or a relay.fn) where a monomorphic type is expected by the instance of
  /// that type; the value goes when no use is left. Returns whether any
  /// use changed.
  FailureOr<bool> instantiateValues(FuncOp f, SymbolTable &symbols,
                                    Instances &instances,
                                    SmallVectorImpl<FuncOp> &worklist) {
    auto isPolymorphicValue = [](Operation *op) {
      if (!isa<FnOp, GlobalRefOp>(op))
        return false;
      auto type = dyn_cast<FuncType>(op->getResult(0).getType());
      return type && type.isPolymorphic();
    };
    bool any = false;
    for (bool changed = true; changed;) {
      changed = false;
      SmallVector<Operation *> values;
      // The outermost ones: one inside another is copied with it.
      f.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (!isPolymorphicValue(op))
          return WalkResult::advance();
        values.push_back(op);
        return WalkResult::skip();
      });
      for (Operation *value : values) {
        auto type = cast<FuncType>(value->getResult(0).getType());
        for (OpOperand &use :
             llvm::make_early_inc_range(value->getResult(0).getUses())) {
          Type want = expectedType(use, symbols);
          if (!want)
            continue;
          TypeSubstitution subst;
          if (failed(
                  matchTypeVars(FuncType::get(f.getContext(), type.getInputs(),
                                              type.getResult()),
                                want, subst)))
            return value->emitError("relay-specialize: the polymorphic "
                                    "function of type ")
                   << type << " is used where " << want << " is expected";
          OpBuilder b(value);
          Value instance;
          if (auto ref = dyn_cast<GlobalRefOp>(value)) {
            auto callee = symbols.lookup<FuncOp>(ref.getName());
            if (!callee)
              return ref.emitError("relay-specialize: @")
                     << ref.getName() << " is not a function";
            SmallVector<Attribute> typeArgs;
            for (TypeVarType param : callee.getTypeParamList()) {
              Attribute arg = subst.lookup(param.getName());
              if (!arg)
                return ref.emitError("relay-specialize: cannot find the "
                                     "type argument for '")
                       << param.getName() << "' of @" << ref.getName()
                       << " used as " << want;
              typeArgs.push_back(arg);
            }
            FuncOp callee2 = getInstance(callee, b.getArrayAttr(typeArgs),
                                         symbols, instances, worklist);
            instance = GlobalRefOp::create(b, ref.getLoc(), want,
                                           callee2.getSymName());
          } else {
            Operation *copy = b.clone(*value);
            substituteIn(copy, subst);
            copy->getResult(0).setType(want);
            if (BlockArgument self = cast<FnOp>(copy).getSelf())
              self.setType(want);
            instance = copy->getResult(0);
          }
          use.set(instance);
          changed = any = true;
        }
        if (value->use_empty())
          value->erase();
      }
    }
    return any;
  }

  /// A copy of `callee` with `typeArgs` for its type parameters, placed
  /// after it under a fresh name.
  FuncOp instantiate(FuncOp callee, ArrayAttr typeArgs, SymbolTable &symbols) {
    TypeSubstitution subst;
    for (auto [param, arg] : llvm::zip(callee.getTypeParamList(), typeArgs))
      subst[param.getName()] = arg;
    FuncOp copy = callee.clone();
    copy.removeTypeParamsAttr();
    substituteIn(copy, subst);
    // Its recursive calls without type arguments are at its own type
    // parameters (type inference keeps recursion within a function
    // monomorphic): this instance again.
    copy.walk([&](CallOp call) {
      if (call.getCallee() == callee.getSymName() && !call.getTypeArgsAttr())
        call.setTypeArgsAttr(typeArgs);
    });
    copy.setSymName((callee.getSymName() + "_spec").str());
    copy.setPrivate();
    OpBuilder b(callee);
    b.setInsertionPointAfter(callee);
    b.insert(copy);
    symbols.insert(copy); // renames on a clash
    return copy;
  }
};

} // namespace

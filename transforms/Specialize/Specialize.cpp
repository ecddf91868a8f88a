//===- Specialize.cpp - Monomorphise polymorphic functions ------*- C++ -*-===//
//
// --relay-specialize: every call of a polymorphic relay.func with type
// arguments gets a copy of the callee with those arguments substituted for
// its type parameters (one copy per distinct list of arguments), starting
// from the monomorphic functions and following the copies' own calls.
// Polymorphic functions left without users are removed. Native code
// generation needs it: a lowered function has one machine signature.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelayOps.h"
#include "dialects/relay/TypeUtils.h"
#include "transforms/Passes.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/SymbolTable.h"

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

struct SpecializePass : public relay::impl::SpecializeBase<SpecializePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    DenseMap<std::pair<Attribute, Attribute>, FuncOp> instances;
    SmallVector<FuncOp> worklist, polymorphic;
    for (FuncOp f : module.getOps<FuncOp>())
      (f.isPolymorphic() ? polymorphic : worklist).push_back(f);

    while (!worklist.empty()) {
      FuncOp f = worklist.pop_back_val();
      WalkResult result = f.walk([&](CallOp call) {
        auto callee = symbols.lookup<FuncOp>(call.getCallee());
        if (!callee || !callee.isPolymorphic())
          return WalkResult::advance();
        ArrayAttr typeArgs = call.getTypeArgsAttr();
        if (!typeArgs) {
          call.emitError("relay-specialize: the call of polymorphic @")
              << callee.getSymName()
              << " has no type arguments (run --relay-infer-types first)";
          return WalkResult::interrupt();
        }
        FuncOp &instance = instances[{callee.getSymNameAttr(), typeArgs}];
        if (!instance) {
          instance = instantiate(callee, typeArgs, symbols);
          worklist.push_back(instance);
          ++numInstances;
        }
        call.setCallee(instance.getSymName());
        call.removeTypeArgsAttr();
        return WalkResult::advance();
      });
      if (result.wasInterrupted())
        return signalPassFailure();
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

  /// A copy of `callee` with `typeArgs` for its type parameters, placed
  /// after it under a fresh name.
  FuncOp instantiate(FuncOp callee, ArrayAttr typeArgs, SymbolTable &symbols) {
    TypeSubstitution subst;
    for (auto [param, arg] : llvm::zip(callee.getTypeParamList(), typeArgs))
      subst[param.getName()] = arg;
    FuncOp copy = callee.clone();
    copy.removeTypeParamsAttr();
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
    replacer.recursivelyReplaceElementsIn(copy, /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
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

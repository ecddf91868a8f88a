//===- ClosurePatterns.cpp - Closures, defunctionalised ---------*- C++ -*-===//

#include "conversion/RelayCommon/BoxedValues.h"
#include "conversion/RelayCommon/RelayConversionPattern.h"
#include "conversion/RelayToRuntime/RelayToRuntime.h"

#include "dialects/relay/RelayOps.h"
#include "dialects/relay/RelayTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::relay;

const ClosureKind *ClosureTable::lookup(Operation *source) const {
  auto it = ids.find(source);
  return it == ids.end() ? nullptr : &kinds[it->second];
}

const ClosureKind *ClosureTable::lookupGlobal(StringRef name) const {
  auto it = globals.find(name);
  return it == globals.end() ? nullptr : &kinds[it->second];
}

LogicalResult mlir::relay::collectClosures(ModuleOp module, ClosureTable &table,
                                           StringRef passName) {
  MLIRContext *context = module.getContext();
  SymbolTable symbols(module);
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto error = [&](Operation *op) {
    return op->emitError() << passName << ": ";
  };
  auto add = [&](Operation *source, StringRef base,
                 FunctionType lowered) -> int64_t {
    auto it = table.ids.find(source);
    if (it != table.ids.end())
      return it->second;
    int64_t id = table.kinds.size();
    std::string name = (base + "_closure" + Twine(id)).str();
    while (symbols.lookup(name))
      name += "_";
    table.ids[source] = id;
    table.kinds.push_back({source, name, lowered, id});
    return id;
  };
  // (closure, parameters...) -> results, flattened, for a Relay function
  // type; fails after reporting at `source`.
  auto loweredKind = [&](Operation *source,
                         FuncType type) -> FailureOr<FunctionType> {
    SmallVector<Type> inputs{ptr}, results;
    for (Type t : type.getInputs())
      if (failed(flattenType(t, inputs)))
        return error(source) << "cannot lower a closure taking " << t;
    if (failed(flattenType(type.getResult(), results)))
      return error(source) << "cannot lower a closure returning "
                           << type.getResult();
    return FunctionType::get(context, inputs, results);
  };
  // Closures inside polymorphic functions are not lowered with them.
  auto inPolymorphic = [](Operation *op) {
    auto func = op->getParentOfType<FuncOp>();
    return func && func.isPolymorphic();
  };
  WalkResult result = module.walk([&](Operation *op) {
    if (inPolymorphic(op))
      return WalkResult::advance();
    if (auto fn = dyn_cast<FnOp>(op)) {
      SetVector<Value> captures;
      getUsedValuesDefinedAbove(fn.getBody(), captures);
      for (Value v : captures) {
        SmallVector<Type> ignored;
        if (failed(flattenType(v.getType(), ignored))) {
          (void)(error(fn) << "cannot lower a closure capturing a value "
                              "of type "
                           << v.getType());
          return WalkResult::interrupt();
        }
      }
      FailureOr<FunctionType> lowered = loweredKind(fn, fn.getFuncType());
      if (failed(lowered))
        return WalkResult::interrupt();
      // Named after the global function it is in.
      Operation *top = fn;
      while (top->getParentOp() != module.getOperation())
        top = top->getParentOp();
      auto name =
          top->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
      add(fn, name ? name.getValue() : StringRef("fn"), *lowered);
      return WalkResult::advance();
    }
    auto ref = dyn_cast<GlobalRefOp>(op);
    if (!ref)
      return WalkResult::advance();
    Operation *global = symbols.lookup(ref.getName());
    // A function still in Relay, or one --relay-to-scf converted already.
    FailureOr<FunctionType> lowered = failure();
    if (auto relayFunc = dyn_cast_or_null<FuncOp>(global)) {
      if (relayFunc.isPolymorphic()) {
        (void)(error(ref) << "cannot lower a reference to a polymorphic "
                             "global function yet");
        return WalkResult::interrupt();
      }
      lowered = loweredKind(relayFunc, relayFunc.getRelayType());
    } else if (auto func = dyn_cast_or_null<func::FuncOp>(global)) {
      SmallVector<Type> inputs{ptr};
      llvm::append_range(inputs, func.getArgumentTypes());
      lowered = FunctionType::get(context, inputs, func.getResultTypes());
    } else {
      (void)(error(ref) << "cannot lower a reference to @" << ref.getName()
                        << ", which is not a function");
      return WalkResult::interrupt();
    }
    if (failed(lowered))
      return WalkResult::interrupt();
    table.globals[ref.getName()] = add(global, ref.getName(), *lowered);
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// The values `fn`'s body uses that are defined outside it, in order of
/// first use. (During a conversion the arguments of an enclosing function
/// already converted belong to a block that is no longer in the function,
/// which getUsedValuesDefinedAbove would not count.)
static SmallVector<Value> capturedValues(FnOp fn) {
  SetVector<Value> captures;
  auto isInside = [&](Value v) {
    Operation *owner =
        v.getParentBlock() ? v.getParentBlock()->getParentOp() : nullptr;
    return owner && (owner == fn.getOperation() || fn->isProperAncestor(owner));
  };
  fn.getBody().walk([&](Operation *op) {
    for (Value v : op->getOperands())
      if (!isInside(v))
        captures.insert(v);
  });
  return captures.takeVector();
}

namespace {

/// A base for the patterns that need the closure table.
template <typename SourceOp>
struct ClosurePattern : RelayOpConversionPattern<SourceOp> {
  ClosurePattern(RelayTypeConverter &converter, MLIRContext *context,
                 const ClosureTable &closures)
      : RelayOpConversionPattern<SourceOp>(converter, context),
        closures(closures) {}

  const ClosureTable &closures;
};

/// relay.fn: the closure object (its kind's tag and the captured values,
/// boxed) where the closure is made, and the body moved into the kind's
/// private function, which unboxes the captured values from the object.
struct FnOpLowering : ClosurePattern<FnOp> {
  using ClosurePattern::ClosurePattern;

  LogicalResult
  matchAndRewrite(FnOp fn, OneToNOpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const ClosureKind *kind = closures.lookup(fn);
    if (!kind)
      return fail(rewriter, fn,
                  "cannot lower 'relay.fn' yet: the closure was not "
                  "collected");
    SmallVector<Value> captures = capturedValues(fn);
    // Captured tuples were split into their fields (narrowClosureCaptures):
    // each captured value lowers to one value.
    SmallVector<Value> lowered;
    for (Value v : captures) {
      Value l =
          flatSize(v.getType()) == 1 ? rewriter.getRemappedValue(v) : Value();
      if (!l)
        return failOnType(rewriter, fn, v.getType());
      lowered.push_back(l);
    }
    Block &body = fn.getBody().front();
    TypeConverter::SignatureConversion signature(body.getNumArguments());
    auto ptr = LLVM::LLVMPointerType::get(getContext());
    if (fn.getSelf()) {
      signature.addInputs(0, ptr);
    } else {
      signature.addInputs(ptr);
    }
    for (BlockArgument param : fn.getParams()) {
      SmallVector<Type> types;
      if (failed(getTypeConverter()->convertType(param.getType(), types)))
        return failOnType(rewriter, fn, param.getType());
      signature.addInputs(param.getArgNumber(), types);
    }

    Location loc = fn.getLoc();
    auto module = fn->getParentOfType<ModuleOp>();
    RuntimeCalls rt(module);
    Value object = rt.alloc(rewriter, loc, kind->id, captures.size());
    for (auto [i, v, l] : llvm::enumerate(captures, lowered))
      rt.setField(rewriter, loc, object, i,
                  rt.box(rewriter, loc, v.getType(), l));

    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToEnd(module.getBody());
    auto lifted =
        func::FuncOp::create(rewriter, loc, kind->name, kind->lowered);
    lifted.setPrivate();
    rewriter.inlineRegionBefore(fn.getBody(), lifted.getBody(), lifted.end());
    Block *entry = rewriter.applySignatureConversion(
        &lifted.getBody().front(), signature, getTypeConverter());
    rewriter.setInsertionPointToStart(entry);
    Value self = entry->getArgument(0);
    for (auto [i, v] : llvm::enumerate(captures)) {
      Value inside = rt.unbox(rewriter, loc, v.getType(),
                              rt.getField(rewriter, loc, self, i))
                         .front();
      if (inside.getType() != v.getType())
        inside = UnrealizedConversionCastOp::create(rewriter, loc, v.getType(),
                                                    inside)
                     .getResult(0);
      // The uses inside are ops the conversion has not visited yet (it
      // walks in pre-order): they are redirected directly, not as in-place
      // updates, which the driver would have to legalize at once (a
      // relay.yield of an `if` not converted yet cannot be).
      for (OpOperand &use : llvm::make_early_inc_range(v.getUses()))
        if (lifted->isProperAncestor(use.getOwner()))
          use.set(inside);
    }
    rewriter.replaceOpWithMultiple(fn, {{object}});
    return success();
  }
};

/// relay.global_ref @f: a closure object of @f's kind, capturing nothing;
/// the kind's function calls @f.
struct GlobalRefOpLowering : ClosurePattern<GlobalRefOp> {
  using ClosurePattern::ClosurePattern;

  LogicalResult
  matchAndRewrite(GlobalRefOp ref, OneToNOpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const ClosureKind *kind = closures.lookupGlobal(ref.getName());
    if (!kind)
      return fail(rewriter, ref,
                  "cannot lower a reference to a polymorphic global "
                  "function yet");
    Location loc = ref.getLoc();
    auto module = ref->getParentOfType<ModuleOp>();
    if (!module.lookupSymbol(kind->name)) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToEnd(module.getBody());
      auto wrapper =
          func::FuncOp::create(rewriter, loc, kind->name, kind->lowered);
      wrapper.setPrivate();
      Block *entry = wrapper.addEntryBlock();
      rewriter.setInsertionPointToStart(entry);
      auto call = func::CallOp::create(rewriter, loc, ref.getName(),
                                       kind->lowered.getResults(),
                                       entry->getArguments().drop_front());
      func::ReturnOp::create(rewriter, loc, call.getResults());
    }
    RuntimeCalls rt(module);
    rewriter.replaceOpWithMultiple(ref,
                                   {{rt.alloc(rewriter, loc, kind->id, 0)}});
    return success();
  }
};

/// relay.apply %f(args): a switch on %f's tag over the kinds of closure of
/// the applied signature, each calling its kind's function; an unknown tag
/// is a located run-time error.
struct ApplyOpLowering : ClosurePattern<ApplyOp> {
  using ClosurePattern::ClosurePattern;

  LogicalResult
  matchAndRewrite(ApplyOp apply, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> resultTypes;
    Type offending;
    if (failed(convertTypes(apply->getResultTypes(), resultTypes, offending)))
      return failOnType(rewriter, apply, offending);
    if (adaptor.getCallee().size() != 1)
      return failOnType(rewriter, apply, apply.getCallee().getType());
    Location loc = apply.getLoc();
    Value closure = adaptor.getCallee().front();
    SmallVector<Value> args{closure};
    for (ValueRange arg : adaptor.getArgs())
      llvm::append_range(args, arg);
    // Every kind with this lowered signature may be the one applied.
    SmallVector<const ClosureKind *> candidates;
    for (const ClosureKind &kind : closures.kinds)
      if (TypeRange(kind.lowered.getInputs()) == ValueRange(args).getTypes() &&
          TypeRange(kind.lowered.getResults()) == TypeRange(resultTypes))
        candidates.push_back(&kind);
    RuntimeCalls rt(apply->getParentOfType<ModuleOp>());
    Value tag = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getIndexType(), rt.tag(rewriter, loc, closure));
    SmallVector<int64_t> ids = llvm::map_to_vector(
        candidates, [](const ClosureKind *k) { return k->id; });
    auto dispatch = scf::IndexSwitchOp::create(rewriter, loc, resultTypes, tag,
                                               ids, candidates.size());
    OpBuilder::InsertionGuard guard(rewriter);
    for (auto [kind, region] :
         llvm::zip(candidates, dispatch.getCaseRegions())) {
      rewriter.setInsertionPointToStart(&region.emplaceBlock());
      auto call =
          func::CallOp::create(rewriter, loc, kind->name, resultTypes, args);
      scf::YieldOp::create(rewriter, loc, call.getResults());
    }
    rewriter.setInsertionPointToStart(
        &dispatch.getDefaultRegion().emplaceBlock());
    rt.fail(rewriter, loc,
            describeLocation(loc) + "\tapplies a closure of an unknown kind");
    scf::YieldOp::create(rewriter, loc,
                         placeholderValues(rewriter, loc, resultTypes));
    rewriter.replaceOpWithMultiple(apply, {dispatch.getResults()});
    return success();
  }
};

} // namespace

void mlir::relay::populateRelayClosureToRuntimePatterns(
    RelayTypeConverter &converter, RewritePatternSet &patterns,
    const ClosureTable &closures) {
  patterns.add<FnOpLowering, GlobalRefOpLowering, ApplyOpLowering>(
      converter, patterns.getContext(), closures);
}

void mlir::relay::populateRelayToRuntimeConversionPatterns(
    RelayTypeConverter &converter, RewritePatternSet &patterns,
    const ClosureTable &closures) {
  populateRelayAdtToRuntimePatterns(converter, patterns);
  populateRelayRefToRuntimePatterns(converter, patterns);
  populateRelayClosureToRuntimePatterns(converter, patterns, closures);
}

//===- AdtPatterns.cpp - ADT values and references as objects ---*- C++ -*-===//

#include "conversion/RelayCommon/BoxedValues.h"
#include "conversion/RelayCommon/RelayConversionPattern.h"
#include "conversion/RelayToRuntime/RelayToRuntime.h"

#include "dialects/relay/RelayAttrs.h"
#include "dialects/relay/RelayOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::relay;

namespace {

/// A pattern that reads nothing: a variable or the wildcard.
bool isIrrefutable(Attribute pattern) {
  return isa<PatternWildcardAttr, PatternVarAttr>(pattern);
}

/// Tests and binds the patterns of one relay.match on lowered values.
class PatternLowering {
public:
  PatternLowering(OpBuilder &b, RuntimeCalls &rt, Operation *match)
      : b(b), rt(rt), match(match), loc(match->getLoc()) {}

  /// An i1: whether `values` (a relay value of `type`) match `pattern`.
  Value test(Attribute pattern, Type type, ValueRange values);

  /// Appends the lowered values of each variable of `pattern`, in order.
  void bind(Attribute pattern, Type type, ValueRange values,
            SmallVectorImpl<SmallVector<Value>> &vars);

private:
  Value constant(bool v) {
    return arith::ConstantOp::create(b, loc, b.getBoolAttr(v)).getResult();
  }
  CtorOp lookupCtor(PatternCtorAttr pattern) {
    return SymbolTable::lookupNearestSymbolFrom<CtorOp>(
        match, pattern.getConstructor());
  }

  OpBuilder &b;
  RuntimeCalls &rt;
  Operation *match;
  Location loc;
};

Value PatternLowering::test(Attribute pattern, Type type, ValueRange values) {
  if (isIrrefutable(pattern))
    return constant(true);
  if (auto tuple = dyn_cast<PatternTupleAttr>(pattern)) {
    Value all = constant(true);
    unsigned next = 0;
    for (auto [p, t] :
         llvm::zip(tuple.getFields(), cast<TupleType>(type).getTypes())) {
      unsigned n = flatSize(t);
      if (!isIrrefutable(p))
        all = arith::AndIOp::create(b, loc, all,
                                    test(p, t, values.slice(next, n)));
      next += n;
    }
    return all;
  }
  auto pc = cast<PatternCtorAttr>(pattern);
  CtorOp ctor = lookupCtor(pc);
  Value isCtor = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, rt.tag(b, loc, values.front()),
      arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(ctor.getTag())));
  if (llvm::all_of(pc.getFields(), isIrrefutable))
    return isCtor;
  // The fields exist only when the tag matches.
  auto ifOp = scf::IfOp::create(b, loc, b.getI1Type(), isCtor,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  Value all = constant(true);
  for (auto [i, pt] : llvm::enumerate(
           llvm::zip(pc.getFields(), constructorFieldTypes(ctor, type)))) {
    auto [p, t] = pt;
    if (isIrrefutable(p))
      continue;
    SmallVector<Value> field =
        rt.unbox(b, loc, t, rt.getField(b, loc, values.front(), i));
    all = arith::AndIOp::create(b, loc, all, test(p, t, field));
  }
  scf::YieldOp::create(b, loc, all);
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  scf::YieldOp::create(b, loc, constant(false));
  return ifOp.getResult(0);
}

void PatternLowering::bind(Attribute pattern, Type type, ValueRange values,
                           SmallVectorImpl<SmallVector<Value>> &vars) {
  if (isa<PatternWildcardAttr>(pattern))
    return;
  if (isa<PatternVarAttr>(pattern)) {
    vars.push_back(SmallVector<Value>(values));
    return;
  }
  if (auto tuple = dyn_cast<PatternTupleAttr>(pattern)) {
    unsigned next = 0;
    for (auto [p, t] :
         llvm::zip(tuple.getFields(), cast<TupleType>(type).getTypes())) {
      unsigned n = flatSize(t);
      bind(p, t, values.slice(next, n), vars);
      next += n;
    }
    return;
  }
  auto pc = cast<PatternCtorAttr>(pattern);
  CtorOp ctor = lookupCtor(pc);
  for (auto [i, pt] : llvm::enumerate(
           llvm::zip(pc.getFields(), constructorFieldTypes(ctor, type)))) {
    auto [p, t] = pt;
    if (isa<PatternWildcardAttr>(p))
      continue;
    SmallVector<Value> field =
        rt.unbox(b, loc, t, rt.getField(b, loc, values.front(), i));
    bind(p, t, field, vars);
  }
}

/// relay.construct @T::@C(fields): an object tagged with C's tag holding
/// the boxed fields.
struct ConstructOpLowering : RelayOpConversionPattern<ConstructOp> {
  using RelayOpConversionPattern::RelayOpConversionPattern;

  LogicalResult
  matchAndRewrite(ConstructOp construct, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto ctor = SymbolTable::lookupNearestSymbolFrom<CtorOp>(
        construct, construct.getConstructor());
    if (!ctor)
      return fail(rewriter, construct,
                  "cannot lower 'relay.construct' yet: its constructor is "
                  "not declared");
    Location loc = construct.getLoc();
    RuntimeCalls rt(construct->getParentOfType<ModuleOp>());
    Value object =
        rt.alloc(rewriter, loc, ctor.getTag(), construct.getFields().size());
    for (auto [i, field, values] :
         llvm::enumerate(construct.getFields(), adaptor.getFields()))
      rt.setField(rewriter, loc, object, i,
                  rt.box(rewriter, loc, field.getType(), values));
    rewriter.replaceOpWithMultiple(construct, {{object}});
    return success();
  }
};

/// relay.match: `if (case 0 matches) {...} else if (case 1 matches) {...}
/// ... else fail`, each case's body moved into its branch with its
/// variables bound to the fields read.
struct MatchOpLowering : RelayOpConversionPattern<MatchOp> {
  using RelayOpConversionPattern::RelayOpConversionPattern;

  LogicalResult
  matchAndRewrite(MatchOp match, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> resultTypes;
    Type offending;
    if (failed(convertTypes(match->getResultTypes(), resultTypes, offending)))
      return failOnType(rewriter, match, offending);
    Type type = match.getScrutinee().getType();
    if (adaptor.getScrutinee().size() != flatSize(type))
      return failOnType(rewriter, match, type);
    Location loc = match.getLoc();
    RuntimeCalls rt(match->getParentOfType<ModuleOp>());
    PatternLowering patterns(rewriter, rt, match);
    SmallVector<Value> scrutinee(adaptor.getScrutinee());
    ArrayRef<Attribute> cases = match.getPatterns().getValue();
    // Builds the clauses from case k on at the insertion point; returns
    // their results.
    std::function<SmallVector<Value>(unsigned)> clause =
        [&](unsigned k) -> SmallVector<Value> {
      if (k == cases.size()) {
        // "file:line:col<TAB>message": the executor reports it there.
        rt.fail(rewriter, loc,
                describeLocation(loc) + "\tno case of the " +
                    (match.getPartial() ? "match?" : "match") +
                    " matches the value");
        return placeholderValues(rewriter, loc, resultTypes);
      }
      Value matches = patterns.test(cases[k], type, scrutinee);
      auto ifOp = scf::IfOp::create(rewriter, loc, resultTypes, matches,
                                    /*addThenBlock=*/true,
                                    /*addElseBlock=*/true);
      OpBuilder::InsertionGuard guard(rewriter);
      Block *thenBlock = &ifOp.getThenRegion().front();
      rewriter.setInsertionPointToStart(thenBlock);
      SmallVector<SmallVector<Value>> vars;
      patterns.bind(cases[k], type, scrutinee, vars);
      Block *body = &match.getCases()[k].front();
      TypeConverter::SignatureConversion bound(body->getNumArguments());
      for (auto [i, values] : llvm::enumerate(vars))
        bound.remapInput(i, values);
      Block *converted =
          rewriter.applySignatureConversion(body, bound, getTypeConverter());
      rewriter.inlineBlockBefore(converted, thenBlock, thenBlock->end());
      rewriter.setInsertionPointToStart(&ifOp.getElseRegion().front());
      SmallVector<Value> rest = clause(k + 1);
      scf::YieldOp::create(rewriter, loc, rest);
      return SmallVector<Value>(ifOp.getResults());
    };
    rewriter.replaceOpWithMultiple(match, {clause(0)});
    return success();
  }
};

/// relay.ref %v: a one-field cell holding %v boxed.
struct RefOpLowering : RelayOpConversionPattern<RefOp> {
  using RelayOpConversionPattern::RelayOpConversionPattern;

  LogicalResult
  matchAndRewrite(RefOp ref, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = ref.getLoc();
    RuntimeCalls rt(ref->getParentOfType<ModuleOp>());
    Value cell = rt.alloc(rewriter, loc, 0, 1);
    rt.setField(
        rewriter, loc, cell, 0,
        rt.box(rewriter, loc, ref.getValue().getType(), adaptor.getValue()));
    rewriter.replaceOpWithMultiple(ref, {{cell}});
    return success();
  }
};

/// relay.ref_read %r: the cell's value, unboxed.
struct RefReadOpLowering : RelayOpConversionPattern<RefReadOp> {
  using RelayOpConversionPattern::RelayOpConversionPattern;

  LogicalResult
  matchAndRewrite(RefReadOp read, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = read.getLoc();
    RuntimeCalls rt(read->getParentOfType<ModuleOp>());
    SmallVector<Value> value =
        rt.unbox(rewriter, loc, read.getType(),
                 rt.getField(rewriter, loc, adaptor.getRef().front(), 0));
    rewriter.replaceOpWithMultiple(read, {value});
    return success();
  }
};

/// relay.ref_write %r, %v: the cell's field set to %v boxed; the result is
/// `()` (no values).
struct RefWriteOpLowering : RelayOpConversionPattern<RefWriteOp> {
  using RelayOpConversionPattern::RelayOpConversionPattern;

  LogicalResult
  matchAndRewrite(RefWriteOp write, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = write.getLoc();
    RuntimeCalls rt(write->getParentOfType<ModuleOp>());
    rt.setField(
        rewriter, loc, adaptor.getRef().front(), 0,
        rt.box(rewriter, loc, write.getValue().getType(), adaptor.getValue()));
    rewriter.replaceOpWithMultiple(write, {ValueRange{}});
    return success();
  }
};

} // namespace

void mlir::relay::populateRelayAdtToRuntimePatterns(
    RelayTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ConstructOpLowering, MatchOpLowering>(converter,
                                                     patterns.getContext());
}

void mlir::relay::populateRelayRefToRuntimePatterns(
    RelayTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<RefOpLowering, RefReadOpLowering, RefWriteOpLowering>(
      converter, patterns.getContext());
}

void mlir::relay::populateRelayToRuntimeConversionPatterns(
    RelayTypeConverter &converter, RewritePatternSet &patterns) {
  populateRelayAdtToRuntimePatterns(converter, patterns);
  populateRelayRefToRuntimePatterns(converter, patterns);
}

LogicalResult mlir::relay::checkFirstOrder(ModuleOp module,
                                           StringRef passName) {
  WalkResult result = module.walk([&](Operation *op) {
    if (!isa<FnOp, ApplyOp, GlobalRefOp>(op))
      return WalkResult::advance();
    op->emitError() << passName << ": cannot lower '"
                    << op->getName().getStringRef()
                    << "': closures are lowered as ADTs, run "
                       "--relay-defunctionalize first";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

void mlir::relay::eraseDataDeclarations(ModuleOp module) {
  for (DataOp data : llvm::make_early_inc_range(module.getOps<DataOp>()))
    data->erase();
}

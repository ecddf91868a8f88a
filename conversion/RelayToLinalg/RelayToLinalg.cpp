//===- RelayToLinalg.cpp - Relay to linalg on tensors -----------*- C++ -*-===//

#include "conversion/RelayToLinalg/RelayToLinalg.h"
#include "conversion/RelayToLinalg/BoxedValues.h"
#include "conversion/RelayToLinalg/LoweringHelpers.h"

#include "conversion/Passes.h"
#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayAttrs.h"
#include "dialects/relay/RelayOps.h"
#include "dialects/relay/RelayTypes.h"
#include "dialects/relay/TypeUtils.h"
#include "transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/AllInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/RegionUtils.h"

#include <mutex>

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYTOLINALG
#include "conversion/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

FailureOr<FunctionType> mlir::relay::getLoweredFunctionType(FunctionType type,
                                                            Type &offending) {
  SmallVector<Type> inputs, results;
  for (Type t : type.getInputs())
    if (failed(flattenType(t, inputs))) {
      offending = t;
      return failure();
    }
  for (Type t : type.getResults())
    if (failed(flattenType(t, results))) {
      offending = t;
      return failure();
    }
  return FunctionType::get(type.getContext(), inputs, results);
}

namespace {

/// Closures in native code are defunctionalised: every relay.fn, and every
/// global function used as a value, is a kind of closure with an id and a
/// lifted func.func taking the closure object (holding the captured values)
/// and the parameters. A closure value is an object tagged with its kind;
/// applying one switches on the tag over the lifted functions of the
/// applied signature. The whole module is known, so no function pointers.
struct ClosureKind {
  Operation *source; // a relay.fn, or the relay.func of a global_ref
  std::string name;  // of the lifted function
  int64_t id;
  FunctionType lowered; // (closure, parameters...) -> results, flattened
  SmallVector<Value> captures;
};

struct ClosureTable {
  std::vector<ClosureKind> kinds;
  DenseMap<Operation *, int64_t> ids;
  /// Global functions used as values, by name (their lowered func.func
  /// takes the name while the module is converted).
  llvm::StringMap<int64_t> globals;

  const ClosureKind *lookup(Operation *source) const {
    auto it = ids.find(source);
    return it == ids.end() ? nullptr : &kinds[it->second];
  }
};

/// Lowers one relay.func body into a func.func body. Every Relay value maps
/// to the list of tensors it flattens to (one for a tensor, the fields for a
/// tuple).
class FunctionLowering {
public:
  FunctionLowering(OpBuilder &builder, RuntimeCalls &runtime,
                   const ClosureTable &closures)
      : b(builder), rt(runtime), closures(closures) {}

  /// Lowers the body of closure kind `kind` into `entry` (the closure
  /// object, then the flattened parameters).
  LogicalResult lowerClosureBody(const ClosureKind &kind, Block &entry);

  LogicalResult lowerBlock(Block &src, Block &dst);

  /// Lowers the body of `func`, whose self-calls are all tail calls, into
  /// `entry` as an scf.while loop (see lowerTailRecursive in the .cpp).
  LogicalResult lowerTailRecursive(FuncOp func, Block &entry,
                                   TypeRange argTypes, TypeRange resultTypes);

private:
  /// Lowers `src` in tail position of the loop body: its terminator's value
  /// becomes (continue?, next arguments, result) passed to `terminate`.
  LogicalResult lowerTail(Block &src, Block &dst,
                          function_ref<void(ValueRange)> terminate);

  LogicalResult lowerOp(Operation *op);
  /// The lowered values of `v` (valid until the map next grows).
  ArrayRef<Value> mapped(Value v) {
    auto it = map.find(v);
    return it == map.end() ? ArrayRef<Value>() : ArrayRef<Value>(it->second);
  }
  SmallVector<Value> mappedAll(ValueRange vs) {
    SmallVector<Value> out;
    for (Value v : vs)
      llvm::append_range(out, mapped(v));
    return out;
  }
  static LogicalResult unsupported(Operation *op, const Twine &why) {
    return op->emitError("relay-to-linalg: cannot lower '")
           << op->getName() << "' yet: " << why;
  }

  /// ADT values, matching and references (runtime objects).
  LogicalResult lowerMatch(MatchOp match);
  Value testPattern(Attribute pattern, Type type, ValueRange values,
                    Operation *from);
  void bindPattern(Attribute pattern, Type type, ValueRange values,
                   Operation *from, SmallVectorImpl<SmallVector<Value>> &vars);
  /// Lowers every op of `src` (its arguments mapped already) at the
  /// insertion point.
  LogicalResult lowerOps(Block &src) {
    for (Operation &op : src)
      if (failed(lowerOp(&op)))
        return failure();
    return success();
  }

  LogicalResult lowerApply(ApplyOp apply, TypeRange resultTypes);

  OpBuilder &b;
  RuntimeCalls &rt;
  const ClosureTable &closures;
  DenseMap<Value, SmallVector<Value>> map;
  // While lowering a tail-recursive function: the function, the loop's
  // current arguments and the flattened types of its arguments and result.
  FuncOp self;
  ValueRange loopArgs;
  SmallVector<Type> loopArgTypes, loopResultTypes;
};

} // namespace

/// True when `call` is a tail call: its result is only returned, through
/// any number of enclosing `if`s whose results are only returned.
static bool isTailCall(CallOp call, FuncOp func) {
  Value v = call.getResult();
  while (true) {
    if (!v.hasOneUse())
      return false;
    Operation *user = *v.getUsers().begin();
    if (isa<ReturnOp>(user))
      return user->getParentOp() == func;
    auto yield = dyn_cast<YieldOp>(user);
    if (!yield)
      return false;
    auto ifOp = dyn_cast<IfOp>(yield->getParentOp());
    if (!ifOp)
      return false;
    v = ifOp.getResult();
  }
}

/// True when `func` calls itself, and only in tail position: such a
/// function lowers to a loop (constant stack, and arguments passed along
/// unchanged stay in their buffers instead of being copied per call).
static bool isTailRecursive(FuncOp func) {
  bool any = false, allTail = true;
  func.walk([&](CallOp call) {
    if (call.getCallee() != func.getSymName())
      return;
    any = true;
    allTail &= isTailCall(call, func);
  });
  return any && allTail;
}

/// Values of `types` to fill the unused half of the loop's yield: empty
/// tensors (never read).
static SmallVector<Value> placeholders(OpBuilder &b, Location loc,
                                       TypeRange types) {
  SmallVector<Value> out;
  for (Type t : types) {
    if (isa<LLVM::LLVMPointerType>(t)) {
      out.push_back(LLVM::ZeroOp::create(b, loc, t));
      continue;
    }
    auto tensor = cast<RankedTensorType>(t);
    out.push_back(tensor::EmptyOp::create(b, loc, tensor.getShape(),
                                          tensor.getElementType()));
  }
  return out;
}

/// A pattern that reads nothing: a variable or the wildcard.
static bool isIrrefutable(Attribute pattern) {
  return isa<PatternWildcardAttr, PatternVarAttr>(pattern);
}

Value FunctionLowering::testPattern(Attribute pattern, Type type,
                                    ValueRange values, Operation *from) {
  Location loc = from->getLoc();
  auto constant = [&](bool v) {
    return arith::ConstantOp::create(b, loc, b.getBoolAttr(v)).getResult();
  };
  if (isIrrefutable(pattern))
    return constant(true);
  if (auto tuple = dyn_cast<PatternTupleAttr>(pattern)) {
    Value all = constant(true);
    unsigned next = 0;
    for (auto [p, t] :
         llvm::zip(tuple.getFields(), cast<TupleType>(type).getTypes())) {
      unsigned n = flatSize(t);
      if (!isIrrefutable(p))
        all = arith::AndIOp::create(
            b, loc, all, testPattern(p, t, values.slice(next, n), from));
      next += n;
    }
    return all;
  }
  auto pc = cast<PatternCtorAttr>(pattern);
  auto ctor =
      SymbolTable::lookupNearestSymbolFrom<CtorOp>(from, pc.getConstructor());
  Value isCtor = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, rt.tag(b, loc, values.front()),
      arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(ctor.getTag())));
  if (llvm::all_of(pc.getFields(), isIrrefutable))
    return isCtor;
  // The fields exist only when the tag matches.
  auto ifOp = scf::IfOp::create(b, loc, b.getI1Type(), isCtor,
                                /*withElseRegion=*/true);
  {
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
      all = arith::AndIOp::create(b, loc, all, testPattern(p, t, field, from));
    }
    scf::YieldOp::create(b, loc, all);
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    scf::YieldOp::create(b, loc, constant(false));
  }
  return ifOp.getResult(0);
}

void FunctionLowering::bindPattern(Attribute pattern, Type type,
                                   ValueRange values, Operation *from,
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
      bindPattern(p, t, values.slice(next, n), from, vars);
      next += n;
    }
    return;
  }
  auto pc = cast<PatternCtorAttr>(pattern);
  auto ctor =
      SymbolTable::lookupNearestSymbolFrom<CtorOp>(from, pc.getConstructor());
  Location loc = from->getLoc();
  for (auto [i, pt] : llvm::enumerate(
           llvm::zip(pc.getFields(), constructorFieldTypes(ctor, type)))) {
    auto [p, t] = pt;
    if (isa<PatternWildcardAttr>(p))
      continue;
    SmallVector<Value> field =
        rt.unbox(b, loc, t, rt.getField(b, loc, values.front(), i));
    bindPattern(p, t, field, from, vars);
  }
}

/// A location as `file:line:col` for run-time messages.
static std::string describe(Location loc) { return describeLocation(loc); }

LogicalResult FunctionLowering::lowerApply(ApplyOp apply,
                                           TypeRange resultTypes) {
  Location loc = apply.getLoc();
  Value closure = mapped(apply.getCallee())[0];
  SmallVector<Value> args{closure};
  llvm::append_range(args, mappedAll(apply.getArgs()));
  // Every kind with this lowered signature may be the one applied.
  SmallVector<const ClosureKind *> candidates;
  for (const ClosureKind &kind : closures.kinds)
    if (TypeRange(kind.lowered.getInputs()) == ValueRange(args).getTypes() &&
        TypeRange(kind.lowered.getResults()) == resultTypes)
      candidates.push_back(&kind);
  Value tag = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                         rt.tag(b, loc, closure));
  SmallVector<int64_t> ids = llvm::map_to_vector(
      candidates, [](const ClosureKind *k) { return k->id; });
  auto dispatch = scf::IndexSwitchOp::create(b, loc, resultTypes, tag, ids,
                                             candidates.size());
  OpBuilder::InsertionGuard guard(b);
  for (auto [kind, region] : llvm::zip(candidates, dispatch.getCaseRegions())) {
    b.setInsertionPointToStart(&region.emplaceBlock());
    auto call = func::CallOp::create(b, loc, kind->name, resultTypes, args);
    scf::YieldOp::create(b, loc, call.getResults());
  }
  b.setInsertionPointToStart(&dispatch.getDefaultRegion().emplaceBlock());
  rt.fail(b, loc, describe(loc) + "\tapplies a closure of an unknown kind");
  scf::YieldOp::create(b, loc, placeholders(b, loc, resultTypes));
  map[apply.getResult()] = SmallVector<Value>(dispatch.getResults());
  return success();
}

LogicalResult FunctionLowering::lowerClosureBody(const ClosureKind &kind,
                                                 Block &entry) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(&entry);
  Value object = entry.getArgument(0);
  ValueRange params = entry.getArguments().drop_front();
  Location loc = kind.source->getLoc();
  if (auto global = dyn_cast<FuncOp>(kind.source)) {
    // A global function as a value: call it.
    auto call = func::CallOp::create(b, loc, global.getSymName(),
                                     kind.lowered.getResults(), params);
    func::ReturnOp::create(b, loc, call.getResults());
    return success();
  }
  auto fn = cast<FnOp>(kind.source);
  for (auto [i, v] : llvm::enumerate(kind.captures))
    map[v] = rt.unbox(b, loc, v.getType(), rt.getField(b, loc, object, i));
  if (BlockArgument self = fn.getSelf())
    map[self] = {object};
  unsigned next = 0;
  for (BlockArgument arg : fn.getParams()) {
    unsigned n = flatSize(arg.getType());
    map[arg] = SmallVector<Value>(params.slice(next, n));
    next += n;
  }
  return lowerOps(fn.getBody().front());
}

LogicalResult FunctionLowering::lowerMatch(MatchOp match) {
  Location loc = match.getLoc();
  Type type = match.getScrutinee().getType();
  SmallVector<Value> scrutinee(mapped(match.getScrutinee()));
  SmallVector<Type> resultTypes;
  (void)flattenType(match.getType(), resultTypes);
  ArrayRef<Attribute> patterns = match.getPatterns().getValue();
  // if (case 0 matches) {...} else if (case 1 matches) {...} ... else fail
  std::function<FailureOr<SmallVector<Value>>(unsigned)> clause =
      [&](unsigned k) -> FailureOr<SmallVector<Value>> {
    if (k == patterns.size()) {
      // "file:line:col<TAB>message": the executor reports it there.
      rt.fail(b, loc,
              describe(loc) + "\tno case of the " +
                  (match.getPartial() ? "match?" : "match") +
                  " matches the value");
      return placeholders(b, loc, resultTypes);
    }
    Value matches = testPattern(patterns[k], type, scrutinee, match);
    auto ifOp = scf::IfOp::create(b, loc, resultTypes, matches,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    for (Region *r : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
      if (r->empty())
        r->push_back(new Block());
      while (!r->front().empty())
        r->front().back().erase();
    }
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    SmallVector<SmallVector<Value>> vars;
    bindPattern(patterns[k], type, scrutinee, match, vars);
    Block &body = match.getCases()[k].front();
    for (auto [arg, values] : llvm::zip(body.getArguments(), vars))
      map[arg] = values;
    if (failed(lowerOps(body)))
      return failure();
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    FailureOr<SmallVector<Value>> rest = clause(k + 1);
    if (failed(rest))
      return failure();
    scf::YieldOp::create(b, loc, *rest);
    return SmallVector<Value>(ifOp.getResults());
  };
  FailureOr<SmallVector<Value>> results = clause(0);
  if (failed(results))
    return failure();
  map[match.getResult()] = *results;
  return success();
}

LogicalResult
FunctionLowering::lowerTail(Block &src, Block &dst,
                            function_ref<void(ValueRange)> terminate) {
  Operation *terminator = src.getTerminator();
  Value value = terminator->getOperand(0);
  Operation *tailOp = value.getDefiningOp();
  auto call = dyn_cast_or_null<CallOp>(tailOp);
  auto ifOp = dyn_cast_or_null<IfOp>(tailOp);
  bool selfCall = call && call.getCallee() == self.getSymName();
  if (!selfCall && !(ifOp && value.hasOneUse()))
    tailOp = nullptr;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(&dst);
  for (Operation &op : src.without_terminator())
    if (&op != tailOp && failed(lowerOp(&op)))
      return failure();
  Location loc = terminator->getLoc();
  auto flag = [&](bool v) {
    return arith::ConstantOp::create(b, loc, b.getBoolAttr(v)).getResult();
  };
  SmallVector<Value> values;
  if (selfCall) {
    // Go round again with the call's arguments.
    values.push_back(flag(true));
    llvm::append_range(values, mappedAll(call.getArgs()));
    llvm::append_range(values, placeholders(b, loc, loopResultTypes));
  } else if (ifOp && tailOp) {
    // Both branches are in tail position.
    SmallVector<Type> types{b.getI1Type()};
    llvm::append_range(types, loopArgTypes);
    llvm::append_range(types, loopResultTypes);
    Value cond = tensor::ExtractOp::create(
        b, ifOp.getLoc(), mapped(ifOp.getCond())[0], ValueRange{});
    auto lowered = scf::IfOp::create(b, ifOp.getLoc(), types, cond,
                                     /*withElseRegion=*/true);
    for (auto [from, to] :
         {std::pair(&ifOp.getThenRegion(), &lowered.getThenRegion()),
          std::pair(&ifOp.getElseRegion(), &lowered.getElseRegion())}) {
      if (to->empty())
        to->push_back(new Block());
      Block &branch = to->front();
      while (!branch.empty())
        branch.back().erase();
      if (failed(lowerTail(from->front(), branch, [&](ValueRange vs) {
            scf::YieldOp::create(b, loc, vs);
          })))
        return failure();
    }
    b.setInsertionPointAfter(lowered);
    llvm::append_range(values, lowered.getResults());
  } else {
    // Done: the loop's result.
    values.push_back(flag(false));
    llvm::append_range(values, loopArgs);
    llvm::append_range(values, mapped(value));
  }
  terminate(values);
  return success();
}

LogicalResult FunctionLowering::lowerTailRecursive(FuncOp func, Block &entry,
                                                   TypeRange argTypes,
                                                   TypeRange resultTypes) {
  // %r:(args, results) = scf.while (%a = params) {
  //   <body: continue?, next args, result>
  //   scf.condition(%continue) %next, %result
  // } do { ^bb(%next, %result): scf.yield %next }
  // return the result part of %r
  self = func;
  loopArgTypes.assign(argTypes.begin(), argTypes.end());
  loopResultTypes.assign(resultTypes.begin(), resultTypes.end());
  Location loc = func.getLoc();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(&entry);
  SmallVector<Type> carried(argTypes);
  llvm::append_range(carried, resultTypes);
  auto loop = scf::WhileOp::create(b, loc, carried, entry.getArguments());
  SmallVector<Location> argLocs(argTypes.size(), loc);
  Block *before = b.createBlock(&loop.getBefore(), {}, argTypes, argLocs);
  SmallVector<Location> carriedLocs(carried.size(), loc);
  Block *after = b.createBlock(&loop.getAfter(), {}, carried, carriedLocs);
  scf::YieldOp::create(b, loc,
                       after->getArguments().take_front(argTypes.size()));
  // The body reads the loop's current arguments.
  loopArgs = before->getArguments();
  Block &body = func.getBody().front();
  unsigned next = 0;
  for (BlockArgument arg : body.getArguments()) {
    unsigned n = flatSize(arg.getType());
    map[arg] = SmallVector<Value>(loopArgs.slice(next, n));
    next += n;
  }
  if (failed(lowerTail(body, *before, [&](ValueRange vs) {
        scf::ConditionOp::create(b, loc, vs.front(), vs.drop_front());
      })))
    return failure();
  b.setInsertionPointAfter(loop);
  func::ReturnOp::create(b, loc, loop.getResults().drop_front(argTypes.size()));
  return success();
}

LogicalResult FunctionLowering::lowerBlock(Block &src, Block &dst) {
  unsigned next = 0;
  for (BlockArgument arg : src.getArguments()) {
    unsigned n = flatSize(arg.getType());
    map[arg] =
        SmallVector<Value>(ValueRange(dst.getArguments()).slice(next, n));
    next += n;
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(&dst);
  for (Operation &op : src)
    if (failed(lowerOp(&op)))
      return failure();
  return success();
}

LogicalResult FunctionLowering::lowerOp(Operation *op) {
  Location loc = op->getLoc();
  if (auto ret = dyn_cast<ReturnOp>(op)) {
    func::ReturnOp::create(b, loc, mapped(ret.getValue()));
    return success();
  }
  if (auto yield = dyn_cast<YieldOp>(op)) {
    scf::YieldOp::create(b, loc, mapped(yield.getValue()));
    return success();
  }
  SmallVector<Type> resultTypes;
  for (Type t : op->getResultTypes())
    if (failed(flattenType(t, resultTypes)))
      return op->emitError("relay-to-linalg: cannot lower '")
             << op->getName() << "' yet: native code handles tensors of "
             << "static shape and tuples of them, not " << t;
  if (auto tuple = dyn_cast<TupleOp>(op)) {
    map[tuple.getResult()] = mappedAll(tuple.getFields());
    return success();
  }
  if (auto construct = dyn_cast<ConstructOp>(op)) {
    auto ctor = SymbolTable::lookupNearestSymbolFrom<CtorOp>(
        op, construct.getConstructor());
    Value object =
        rt.alloc(b, loc, ctor.getTag(), construct.getFields().size());
    for (auto [i, field] : llvm::enumerate(construct.getFields()))
      rt.setField(b, loc, object, i,
                  rt.box(b, loc, field.getType(), mapped(field)));
    map[construct.getResult()] = {object};
    return success();
  }
  if (auto match = dyn_cast<MatchOp>(op))
    return lowerMatch(match);
  if (isa<FnOp, GlobalRefOp>(op)) {
    const ClosureKind *kind = nullptr;
    if (auto ref = dyn_cast<GlobalRefOp>(op)) {
      auto it = closures.globals.find(ref.getName());
      if (it != closures.globals.end())
        kind = &closures.kinds[it->second];
    } else {
      kind = closures.lookup(op);
    }
    if (!kind)
      return unsupported(op, "the closure was not collected");
    // The closure object: its kind and the values it captures.
    Value object = rt.alloc(b, loc, kind->id, kind->captures.size());
    for (auto [i, v] : llvm::enumerate(kind->captures))
      rt.setField(b, loc, object, i, rt.box(b, loc, v.getType(), mapped(v)));
    map[op->getResult(0)] = {object};
    return success();
  }
  if (auto apply = dyn_cast<ApplyOp>(op))
    return lowerApply(apply, resultTypes);
  if (auto ref = dyn_cast<RefOp>(op)) {
    Value cell = rt.alloc(b, loc, 0, 1);
    rt.setField(
        b, loc, cell, 0,
        rt.box(b, loc, ref.getValue().getType(), mapped(ref.getValue())));
    map[ref.getResult()] = {cell};
    return success();
  }
  if (auto read = dyn_cast<RefReadOp>(op)) {
    map[read.getResult()] =
        rt.unbox(b, loc, read.getType(),
                 rt.getField(b, loc, mapped(read.getRef())[0], 0));
    return success();
  }
  if (auto write = dyn_cast<RefWriteOp>(op)) {
    rt.setField(
        b, loc, mapped(write.getRef())[0], 0,
        rt.box(b, loc, write.getValue().getType(), mapped(write.getValue())));
    map[write.getResult()] = {};
    return success();
  }
  if (auto get = dyn_cast<TupleGetOp>(op)) {
    auto type = cast<TupleType>(get.getTuple().getType());
    unsigned offset = 0;
    for (unsigned i = 0; i < get.getIndex(); ++i)
      offset += flatSize(type.getType(i));
    map[get.getResult()] = llvm::to_vector(
        mapped(get.getTuple()).slice(offset, resultTypes.size()));
    return success();
  }
  if (const OperatorInfo *info = lookupOperator(op->getName().getStringRef())) {
    if (!info->lowering)
      return unsupported(op, "the operator has no lowering rule");
    // A tuple operand (concatenate, stack) passes its fields.
    SmallVector<Value> operands = mappedAll(op->getOperands());
    UnsignedOpScope unsignedScope(op);
    FailureOr<SmallVector<Value>> results = info->lowering(b, op, operands);
    if (failed(results))
      return unsupported(op, "its lowering does not cover these attributes "
                             "or types");
    // One value per result, or a tuple result's fields.
    if (op->getNumResults() == 1 && results->size() == resultTypes.size()) {
      map[op->getResult(0)] = *results;
      return success();
    }
    for (auto [from, to] : llvm::zip(op->getResults(), *results))
      map[from] = {to};
    return success();
  }
  if (auto c = dyn_cast<ConstantOp>(op)) {
    // Dense elements and resource blobs (imported weights) both become
    // arith.constant, then read-only globals.
    auto value = dyn_cast<TypedAttr>(c.getValue());
    if (!isa<DenseElementsAttr, DenseResourceElementsAttr>(c.getValue()) ||
        !value)
      return unsupported(op, "only dense and dense_resource constants lower");
    // Unsigned integers are signless in arith: same bits, new type.
    auto signless = cast<RankedTensorType>(signlessType(value.getType()));
    if (signless != value.getType()) {
      if (auto dense = dyn_cast<DenseElementsAttr>(value))
        value = dense.bitcast(signless.getElementType());
      else
        value = DenseResourceElementsAttr::get(
            signless, cast<DenseResourceElementsAttr>(value).getRawHandle());
    }
    map[c.getResult()] = {arith::ConstantOp::create(b, loc, value)};
    return success();
  }
  if (auto call = dyn_cast<CallOp>(op)) {
    auto lowered = func::CallOp::create(b, loc, call.getCallee(), resultTypes,
                                        mappedAll(call.getArgs()));
    map[call.getResult()] = SmallVector<Value>(lowered.getResults());
    return success();
  }
  if (auto ifOp = dyn_cast<IfOp>(op)) {
    Value cond = tensor::ExtractOp::create(b, loc, mapped(ifOp.getCond())[0],
                                           ValueRange{});
    auto lowered = scf::IfOp::create(b, loc, resultTypes, cond,
                                     /*withElseRegion=*/true);
    // scf.if builds its blocks with terminators only when it has no
    // results; drop any to fill them from the relay branches.
    for (auto [from, to] :
         {std::pair(&ifOp.getThenRegion(), &lowered.getThenRegion()),
          std::pair(&ifOp.getElseRegion(), &lowered.getElseRegion())}) {
      if (to->empty())
        to->push_back(new Block());
      Block &dst = to->front();
      while (!dst.empty())
        dst.back().erase();
      if (failed(lowerBlock(from->front(), dst)))
        return failure();
    }
    map[ifOp.getResult()] = SmallVector<Value>(lowered.getResults());
    return success();
  }
  return unsupported(op, "native code covers first-order tensor programs "
                         "(functions, calls, if, tuples, constants, "
                         "operators)");
}

namespace {
struct RelayToLinalgPass
    : public relay::impl::RelayToLinalgBase<RelayToLinalgPass> {
  void runOnOperation() override {
    registerOperatorLowerings();
    ModuleOp module = getOperation();
    OpBuilder b(module.getContext());
    RuntimeCalls runtime(module);
    lowering::hoistCapturedProjections(module);
    ClosureTable closures;
    if (failed(collectClosures(module, closures)))
      return signalPassFailure();
    SmallVector<Operation *> relayOps;
    for (Operation &op : module.getBody()->getOperations()) {
      auto func = dyn_cast<FuncOp>(op);
      if (isa<DataOp>(op)) {
        relayOps.push_back(&op);
        continue;
      }
      if (!func)
        continue;
      relayOps.push_back(func);
      if (func.isPolymorphic()) {
        func.emitError("relay-to-linalg: cannot lower polymorphic @")
            << func.getSymName() << " (run --relay-specialize first)";
        return signalPassFailure();
      }
      Type offending;
      FailureOr<FunctionType> type =
          getLoweredFunctionType(func.getFunctionType(), offending);
      if (failed(type)) {
        func.emitError("relay-to-linalg: cannot lower @")
            << func.getSymName() << " yet: its signature has " << offending
            << " (native code handles tensors of static shape and tuples of "
            << "them)";
        return signalPassFailure();
      }
      b.setInsertionPoint(func);
      auto lowered =
          func::FuncOp::create(b, func.getLoc(), func.getSymName(), *type);
      lowered->setAttr("llvm.emit_c_interface", b.getUnitAttr());
      if (func.getSymVisibility())
        lowered.setSymVisibility(*func.getSymVisibility());
      Block *entry = lowered.addEntryBlock();
      FunctionLowering lowering(b, runtime, closures);
      if (isTailRecursive(func)
              ? failed(lowering.lowerTailRecursive(
                    func, *entry, type->getInputs(), type->getResults()))
              : failed(lowering.lowerBlock(func.getBody().front(), *entry)))
        return signalPassFailure();
    }
    // The lifted closure bodies.
    b.setInsertionPointToEnd(module.getBody());
    for (const ClosureKind &kind : closures.kinds) {
      auto lifted = func::FuncOp::create(b, kind.source->getLoc(), kind.name,
                                         kind.lowered);
      lifted.setPrivate();
      Block *entry = lifted.addEntryBlock();
      FunctionLowering lowering(b, runtime, closures);
      if (failed(lowering.lowerClosureBody(kind, *entry)))
        return signalPassFailure();
      b.setInsertionPointToEnd(module.getBody());
    }
    for (Operation *op : relayOps)
      op->erase();
  }

  /// Gives every relay.fn and every global function used as a value a
  /// closure kind.
  LogicalResult collectClosures(ModuleOp module, ClosureTable &table) {
    SymbolTable symbols(module);
    auto add = [&](Operation *source, StringRef base, FuncType type,
                   SmallVector<Value> captures) -> LogicalResult {
      if (table.ids.count(source))
        return success();
      SmallVector<Type> inputs{LLVM::LLVMPointerType::get(&getContext())};
      SmallVector<Type> results;
      for (Type t : type.getInputs())
        if (failed(flattenType(t, inputs)))
          return source->emitError("relay-to-linalg: cannot lower a closure "
                                   "taking ")
                 << t;
      if (failed(flattenType(type.getResult(), results)))
        return source->emitError("relay-to-linalg: cannot lower a closure "
                                 "returning ")
               << type.getResult();
      for (Value v : captures) {
        SmallVector<Type> ignored;
        if (failed(flattenType(v.getType(), ignored)))
          return source->emitError("relay-to-linalg: cannot lower a closure "
                                   "capturing a value of type ")
                 << v.getType();
      }
      int64_t id = table.kinds.size();
      std::string name = (base + "_closure" + Twine(id)).str();
      while (symbols.lookup(name))
        name += "_";
      table.ids[source] = id;
      table.kinds.push_back({source, name, id,
                             FunctionType::get(&getContext(), inputs, results),
                             std::move(captures)});
      return success();
    };
    for (FuncOp func : module.getOps<FuncOp>()) {
      if (func.isPolymorphic())
        continue;
      WalkResult result = func.walk([&](Operation *op) {
        if (auto fn = dyn_cast<FnOp>(op)) {
          SetVector<Value> captures;
          getUsedValuesDefinedAbove(fn.getBody(), captures);
          if (failed(add(fn, func.getSymName(), fn.getFuncType(),
                         captures.takeVector())))
            return WalkResult::interrupt();
        } else if (auto ref = dyn_cast<GlobalRefOp>(op)) {
          auto global = symbols.lookup<FuncOp>(ref.getName());
          if (!global || global.isPolymorphic()) {
            ref.emitError("relay-to-linalg: cannot lower a reference to a "
                          "polymorphic global function yet");
            return WalkResult::interrupt();
          }
          if (failed(
                  add(global, global.getSymName(), global.getRelayType(), {})))
            return WalkResult::interrupt();
          table.globals[global.getSymName()] = table.ids[global];
        }
        return WalkResult::advance();
      });
      if (result.wasInterrupted())
        return failure();
    }
    return success();
  }
};
} // namespace

void mlir::relay::registerUpstreamPasses() {
  static std::once_flag once;
  std::call_once(once, [] { ::mlir::registerAllPasses(); });
}

OwningOpRef<ModuleOp> mlir::relay::lowerCopyToLLVM(ModuleOp module,
                                                   int64_t threads) {
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(module.getContext());
  // Verifying the module after each of the pipeline's thirty-odd passes
  // took a quarter of its time on a network; the result is verified once.
  pm.enableVerifier(false);
  RelayToLLVMOptions options;
  options.threads = threads;
  buildRelayToLLVMPipeline(pm, options);
  if (failed(pm.run(*copy)) || failed(verify(*copy)))
    return nullptr;
  return copy;
}

void mlir::relay::buildRelayToLLVMPipeline(OpPassManager &pm) {
  buildRelayToLLVMPipeline(pm, RelayToLLVMOptions());
}

void mlir::relay::buildRelayToLLVMPipeline(OpPassManager &pm,
                                           const RelayToLLVMOptions &options) {
  registerUpstreamPasses();
  pm.addPass(createInferTypes());
  pm.addPass(createSpecialize());
  pm.addPass(createDecompose());
  pm.addPass(createRelayToLinalg());
  pm.addNestedPass<func::FuncOp>(createFuseElementwise());
  // Upstream from here: bufferize, tile and vectorise, free buffers, loops,
  // LLVM. The texts name registered upstream passes only.
  auto addPipeline = [&](const std::string &text) {
    if (failed(parsePassPipeline(text, pm)))
      llvm::report_fatal_error("malformed --relay-to-llvm pipeline");
  };
  // eliminate-empty-tensors: an op whose result is inserted into a larger
  // tensor (an activation into its padded image) writes there directly.
  addPipeline("canonicalize,eliminate-empty-tensors,"
              "one-shot-bufferize{bufferize-function-boundaries "
              "allow-return-allocs-from-loops "
              "function-boundary-type-conversion=identity-layout-map}");
  // Recursive functions get buffers they only read without a copy.
  pm.addPass(createElideCallCopies());
  TileAndVectorizeOptions tiling;
  tiling.threads = options.threads;
  pm.addNestedPass<func::FuncOp>(createTileAndVectorize(tiling));
  pm.addNestedPass<func::FuncOp>(createApproximateMath());
  addPipeline("canonicalize,buffer-deallocation-pipeline,"
              "convert-bufferization-to-memref");
  pm.addNestedPass<func::FuncOp>(createHoistDeallocs());
  if (options.threads > 1)
    pm.addNestedPass<func::FuncOp>(createParallelizeLoops());
  pm.addPass(createOutlineLoops());
  addPipeline("convert-math-to-funcs");
  // Parallel tiles become tasks of the async runtime: each scf.forall is
  // split into `threads` blocks run by its worker threads.
  if (options.threads > 1)
    addPipeline("func.func(scf-forall-to-parallel),"
                "async-parallel-for{async-dispatch=false min-task-size=1 "
                "num-workers=" +
                std::to_string(options.threads) +
                "},async-to-async-runtime,async-runtime-ref-counting,"
                "async-runtime-ref-counting-opt,arith-expand,"
                "convert-async-to-llvm");
  // The lowerings that work within a function run on the functions in
  // parallel (after --relay-outline-loops a network has a hundred or more).
  addPipeline("func.func(convert-linalg-to-loops,lower-vector-multi-reduction,"
              "convert-vector-to-scf{full-unroll=true},expand-strided-metadata,"
              "lower-affine,convert-scf-to-cf,"
              "convert-vector-to-llvm{vector-contract-lowering=outerproduct}),"
              "finalize-memref-to-llvm{use-generic-functions},"
              "func.func(convert-math-to-llvm),convert-math-to-libm,"
              "func.func(convert-arith-to-llvm,convert-ub-to-llvm),"
              "convert-func-to-llvm,"
              "convert-cf-to-llvm,"
              "reconcile-unrealized-casts");
  pm.addPass(createFlattenConstantGlobals());
}

void mlir::relay::registerRelayToLLVMPipeline() {
  static PassPipelineRegistration<RelayToLLVMOptions> pipeline(
      "relay-to-llvm",
      "Lower a Relay module to the LLVM dialect: --relay-infer-types, "
      "--relay-to-linalg, one-shot bufferization, buffer deallocation, "
      "loops, LLVM",
      [](OpPassManager &pm, const RelayToLLVMOptions &options) {
        buildRelayToLLVMPipeline(pm, options);
      });
}

void mlir::relay::registerLoweringDialects(DialectRegistry &registry) {
  registry.insert<affine::AffineDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, cf::ControlFlowDialect,
                  func::FuncDialect, linalg::LinalgDialect, LLVM::LLVMDialect,
                  math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect, vector::VectorDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  // Bufferization, tiling and value bounds of linalg ops, and the value
  // bounds tiling and vectorisation query on the ops around them.
  linalg::registerAllDialectInterfaceImplementations(registry);
  affine::registerValueBoundsOpInterfaceExternalModels(registry);
  arith::registerValueBoundsOpInterfaceExternalModels(registry);
  memref::registerValueBoundsOpInterfaceExternalModels(registry);
  scf::registerValueBoundsOpInterfaceExternalModels(registry);
  tensor::registerValueBoundsOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  vector::registerBufferizableOpInterfaceExternalModels(registry);
}

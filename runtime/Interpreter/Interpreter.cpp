//===- Interpreter.cpp - The Relay reference interpreter --------*- C++ -*-===//

#include "runtime/Interpreter/Interpreter.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayAttrs.h"
#include "dialects/relay/TypeUtils.h"
#include "runtime/Interpreter/CompositeKernels.h"
#include "runtime/Interpreter/Kernels.h"
#include "transforms/Decompose/Decompose.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <sys/resource.h>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

LogicalResult Interpreter::checkArgument(const ValuePtr &value, Type type,
                                         Location loc, const Twine &what) {
  if (auto tensorType = dyn_cast<RankedTensorType>(type)) {
    if (!value->isTensor())
      return emitError(loc)
             << what << " must be a tensor of type " << tensorType;
    const Tensor &t = value->getTensor();
    bool ok = t.getElementType() == tensorType.getElementType() &&
              t.getRank() == tensorType.getRank();
    for (auto [a, b] : llvm::zip(t.getShape(), tensorType.getShape()))
      ok &= ShapedType::isDynamic(b) || a == b;
    if (!ok)
      return emitError(loc) << what << " has type " << t.getType()
                            << ", expected " << tensorType;
    return success();
  }
  if (auto tuple = dyn_cast<TupleType>(type)) {
    if (value->getKind() != RuntimeValue::Kind::Tuple ||
        value->getFields().size() != tuple.size())
      return emitError(loc) << what << " must be a tuple of type " << tuple;
    for (auto [i, pair] :
         llvm::enumerate(llvm::zip(value->getFields(), tuple.getTypes())))
      if (failed(checkArgument(std::get<0>(pair), std::get<1>(pair), loc,
                               what + " field " + Twine(i))))
        return failure();
  }
  // The prelude's List and Option: each element.
  if (auto adt = dyn_cast<AdtType>(type);
      adt && (adt.getName() == "List" || adt.getName() == "Option") &&
      adt.getArgs().size() == 1) {
    bool list = adt.getName() == "List";
    unsigned i = 0;
    for (ValuePtr at = value;; ++i) {
      if (at->getKind() != RuntimeValue::Kind::Adt ||
          cast<CtorOp>(at->getConstructor()).getDataOp().getSymName() !=
              adt.getName())
        return emitError(loc) << what << " must be a " << type;
      if (at->getFields().empty())
        break;
      if (failed(checkArgument(at->getFields().front(), adt.getArgs().front(),
                               loc, what + " element " + Twine(i))))
        return failure();
      if (!list)
        break;
      at = at->getFields()[1];
    }
  }
  return success();
}

/// A fresh environment under `parent` (an if or match branch sees its
/// enclosing block's values; a closure body its captured ones).
static std::shared_ptr<Env> newEnv(std::shared_ptr<Env> parent = nullptr) {
  auto env = std::make_shared<Env>();
  env->parent = std::move(parent);
  return env;
}

/// How many frames the interpreter's stack may hold: RELAY_INTERP_MAX_FRAMES,
/// or one per 4 KB of the machine's memory or of the address space `ulimit
/// -v` allows, whichever is less (a frame of a simple recursion takes about
/// 0.7 KB with its values), so that recursion deeper than memory is a
/// located error rather than the allocator's abort.
static size_t maxFrames() {
  static const size_t frames = [] {
    const char *text = std::getenv("RELAY_INTERP_MAX_FRAMES");
    char *end = nullptr;
    unsigned long long value = text ? std::strtoull(text, &end, 10) : 0;
    if (text && end != text && !*end && value >= 1)
      return size_t(value);
    int64_t memory = physicalMemoryBytes();
    struct rlimit limit;
    if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
      memory = std::min<int64_t>(memory, limit.rlim_cur);
    return size_t(std::max<int64_t>(memory / 4096, 100000));
  }();
  return frames;
}

namespace {

/// One activation of a block: a function body, a closure body, an if
/// branch or a match case. The frame below it waits in `caller` for the
/// value its terminator yields.
struct Frame {
  Block *block;
  Block::iterator ip;
  std::shared_ptr<Env> env;
  Operation *caller;
};

/// Collects the result type a relation gives, reporting errors at the op.
class ResultReporter : public TypeReporter {
public:
  ResultReporter(Operation *op, unsigned numInputs)
      : op(op), numInputs(numInputs) {}
  LogicalResult assign(unsigned index, Type type) override {
    if (index == numInputs)
      result = type;
    return success();
  }
  InFlightDiagnostic emitError() override {
    return mlir::emitError(op->getLoc());
  }
  Type result;

private:
  Operation *op;
  unsigned numInputs;
};

/// Adds the time from its construction to its destruction to `profile`
/// (when set) under the name `name` returns.
template <typename NameFn> class ProfileScope {
public:
  ProfileScope(Profile *profile, NameFn name)
      : profile(profile), name(std::move(name)) {
    if (profile)
      start = std::chrono::steady_clock::now();
  }
  ~ProfileScope() {
    if (profile)
      profile->add(name(), std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - start)
                               .count());
  }

private:
  Profile *profile;
  NameFn name;
  std::chrono::steady_clock::time_point start;
};
template <typename NameFn>
ProfileScope(Profile *, NameFn) -> ProfileScope<NameFn>;

} // namespace

/// The values of the constants a program evaluated more than once (in a
/// loop, or run after run), kept: materializing a constant converts each
/// of its elements every time (a detector's box head weights, 12.8 million
/// of them: 100 ms a run). Values are immutable, so one is shared. A
/// constant evaluated once is not kept (a network run once holds each
/// weight only while it is used). Each is kept with its attribute, which a
/// hit must match (an op erased and another made at its address).
struct mlir::relay::interp::ConstantValues {
  DenseMap<Operation *, std::pair<Attribute, ValuePtr>> kept;
  DenseMap<Operation *, Attribute> seen;
};

namespace {

class Machine {
public:
  Machine(ModuleOp module, const Interpreter::RegionRunner &regionRunner,
          Profile *profile, CompositeKernels &composites,
          ConstantValues &constants)
      : module(module), regionRunner(regionRunner), profile(profile),
        composites(composites), constants(constants) {
    registerKernels();
  }

  /// Runs `block` with `env` to its terminator's value.
  FailureOr<ValuePtr> run(Block *block, std::shared_ptr<Env> env);

  /// Pushes the frame of applying `fn` (a closure or a global function);
  /// fails past maxFrames().
  LogicalResult pushApplication(const ValuePtr &fn, ArrayRef<ValuePtr> args,
                                Operation *caller, Location loc);
  LogicalResult pushCall(FuncOp func, ArrayRef<ValuePtr> args,
                         Operation *caller, Location loc);

private:
  enum class Step { Next, Pushed, Failed };
  Step execute(Operation *op, Frame &frame);
  ValuePtr get(Frame &frame, Value v) { return frame.env->lookup(v); }
  FailureOr<ValuePtr> runOperator(Operation *op, const OperatorInfo &info,
                                  ArrayRef<ValuePtr> operands);
  Operation *lookupSymbol(Operation *from, SymbolRefAttr name);
  /// The values defined above `fn` that its body uses.
  ArrayRef<Value> capturedValues(FnOp fn);
  bool matchPattern(Attribute pattern, const ValuePtr &v, Operation *from,
                    SmallVectorImpl<ValuePtr> &bindings);
  /// Before `call` (the op the top frame runs) pushes its callee: pops the
  /// frames that would only pass the callee's value on (a call in tail
  /// position, and the if/match branches and calls that end with it), and
  /// returns the op that is to receive the value (null: run's caller). A
  /// loop written as tail recursion runs in constant space, as compiled
  /// code runs it, rather than keeping every step's values alive.
  Operation *popTailFrames(Operation *call);
  /// Fails, at `loc`, when the stack holds maxFrames().
  LogicalResult checkDepth(Location loc);

  /// Notes on `diag` (an error at `op`) the call that led there from
  /// another file (the program calling a library function, as the ONNX
  /// importer's sequence functions), else the nearest call.
  void noteCallSite(InFlightDiagnostic &diag, Operation *op);

  ModuleOp module;
  const Interpreter::RegionRunner &regionRunner;
  Profile *profile;
  std::vector<Frame> stack;
  /// The bottom of the innermost `run`'s frames: frames below it belong to
  /// a run that is waiting for this one, and stay.
  size_t runBase = 0;
  DenseMap<Attribute, Operation *> symbols;
  DenseMap<OperationName, const KernelFn *> kernels;
  DenseMap<Operation *, SmallVector<Value>> captures;
  CompositeKernels &composites;
  ConstantValues &constants;
};

} // namespace

/// The file of `loc`, if it has one.
static StringRef fileOf(Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    return file.getFilename();
  return "";
}

void Machine::noteCallSite(InFlightDiagnostic &diag, Operation *op) {
  Operation *nearest = nullptr;
  for (const Frame &frame : llvm::reverse(stack)) {
    Operation *caller = frame.caller;
    if (!isa_and_nonnull<CallOp, ApplyOp>(caller))
      continue;
    if (fileOf(caller->getLoc()) != fileOf(op->getLoc())) {
      diag.attachNote(caller->getLoc()) << "called from here";
      return;
    }
    if (!nearest)
      nearest = caller;
  }
  if (nearest)
    diag.attachNote(nearest->getLoc()) << "called from here";
}

Operation *Machine::lookupSymbol(Operation *from, SymbolRefAttr name) {
  auto it = symbols.find(name);
  if (it != symbols.end())
    return it->second;
  Operation *op = SymbolTable::lookupNearestSymbolFrom(from, name);
  symbols[name] = op;
  return op;
}

ArrayRef<Value> Machine::capturedValues(FnOp fn) {
  auto it = captures.find(fn);
  if (it != captures.end())
    return it->second;
  llvm::SetVector<Value> used;
  fn.getBody().walk([&](Operation *op) {
    for (Value v : op->getOperands())
      if (!fn.getBody().isAncestor(v.getParentRegion()))
        used.insert(v);
  });
  return captures[fn] = SmallVector<Value>(used.begin(), used.end());
}

LogicalResult Machine::checkDepth(Location loc) {
  if (stack.size() < maxFrames())
    return success();
  return emitError(loc) << "recursion deeper than the interpreter's "
                        << maxFrames()
                        << " frames (its frames would outgrow the memory; "
                           "RELAY_INTERP_MAX_FRAMES sets the limit)";
}

LogicalResult Machine::pushCall(FuncOp func, ArrayRef<ValuePtr> args,
                                Operation *caller, Location loc) {
  if (failed(checkDepth(loc)))
    return failure();
  Block &body = func.getBody().front();
  if (args.size() != body.getNumArguments())
    return emitError(loc) << "@" << func.getSymName() << " takes "
                          << body.getNumArguments() << " arguments, got "
                          << args.size();
  std::shared_ptr<Env> env = newEnv();
  for (auto [arg, v] : llvm::zip(body.getArguments(), args))
    env->values[arg] = v;
  stack.push_back(Frame{&body, body.begin(), std::move(env), caller});
  return success();
}

LogicalResult Machine::pushApplication(const ValuePtr &fn,
                                       ArrayRef<ValuePtr> args,
                                       Operation *caller, Location loc) {
  if (fn->getKind() != RuntimeValue::Kind::Closure)
    return emitError(loc) << "applies a value that is not a function";
  if (auto func = dyn_cast<FuncOp>(fn->getFunction()))
    return pushCall(func, args, caller, loc);
  if (failed(checkDepth(loc)))
    return failure();
  auto closure = cast<FnOp>(fn->getFunction());
  Block &body = closure.getBody().front();
  auto params = closure.getParams();
  if (args.size() != params.size())
    return emitError(loc) << "the closure takes " << params.size()
                          << " arguments, got " << args.size();
  std::shared_ptr<Env> env = newEnv(fn->getEnv());
  if (BlockArgument self = closure.getSelf())
    env->values[self] = fn;
  for (auto [param, v] : llvm::zip(params, args))
    env->values[param] = v;
  stack.push_back(Frame{&body, body.begin(), std::move(env), caller});
  return success();
}

/// The kernel of the operator `info` describes; null when it has none.
static const KernelFn *findKernel(const OperatorInfo &info) {
  auto it = info.columns.find(kInterpretColumn);
  return it == info.columns.end() ? nullptr
                                  : std::any_cast<KernelFn>(&it->second);
}

/// Runs `kernel`, the operator `op`'s, on `operands`; without one, the
/// operator's decomposition at the operands' types (`composites`).
static FailureOr<ValuePtr> runKernel(Operation *op, const OperatorInfo &info,
                                     const KernelFn *kernel,
                                     ArrayRef<ValuePtr> operands,
                                     CompositeKernels &composites) {
  // TVM's annotations are the identity on a value of any type (the device
  // annotations on closures, references and lists too).
  if (info.relation == "Annotation" || info.relation == "DeviceAnnotation")
    return operands.front();
  // The result type for these operands: the relation on the run-time types
  // (this also checks `?` dimensions against the actual sizes).
  SmallVector<Type> types;
  for (const ValuePtr &v : operands) {
    Type t = typeOfValue(v);
    if (!t)
      return mlir::emitError(op->getLoc(),
                             "operands of operators must be tensors or tuples "
                             "of tensors");
    types.push_back(t);
  }
  types.push_back(IncompleteType::get(op->getContext()));
  ResultReporter reporter(op, info.numInputs);
  RelationStatus status = runOperatorRelation(op, info, types, reporter);
  if (status == RelationStatus::Failed)
    return failure();
  if (status == RelationStatus::Pending || !reporter.result)
    return mlir::emitError(op->getLoc(),
                           "cannot determine the result type of '")
           << op->getName() << "' for operands "
           << TypeRange(types).drop_back();
  // A result larger than this machine's memory is an error at the op, not
  // an abort in the allocator.
  RankedTensorType tooLarge =
      findTensorType(reporter.result, [](RankedTensorType t) {
        std::optional<int64_t> bytes = interpreterBytes(t);
        return !bytes || *bytes > physicalMemoryBytes();
      });
  int64_t needed =
      tooLarge ? interpreterBytes(tooLarge).value_or(INT64_MAX) : 0;
  if (tooLarge)
    return mlir::emitError(op->getLoc(), "the result of '")
           << op->getName() << "', " << tooLarge << ", needs " << needed
           << " bytes in the interpreter, more than this machine's memory ("
           << physicalMemoryBytes() << " bytes)";
  // Packed layouts (NCHW16c) run unpacked: the kernels take plain ones.
  if (!kernel || hasPackedLayouts(op))
    return composites.run(op, operands, ArrayRef<Type>(types).drop_back(),
                          reporter.result);
  KernelContext ctx{op, operands, getOperatorAttributes(op), reporter.result};
  return (*kernel)(ctx);
}

FailureOr<ValuePtr> Machine::runOperator(Operation *op,
                                         const OperatorInfo &info,
                                         ArrayRef<ValuePtr> operands) {
  auto found = kernels.find(op->getName());
  if (found == kernels.end())
    found = kernels.try_emplace(op->getName(), findKernel(info)).first;
  return runKernel(op, info, found->second, operands, composites);
}

FailureOr<ValuePtr>
mlir::relay::interp::evaluateOperator(Operation *op,
                                      ArrayRef<ValuePtr> operands) {
  registerKernels();
  const OperatorInfo *info = lookupOperator(op->getName().getStringRef());
  if (!info)
    return op->emitError("'") << op->getName() << "' is not an operator";
  CompositeKernels composites;
  return runKernel(op, *info, findKernel(*info), operands, composites);
}

bool Machine::matchPattern(Attribute pattern, const ValuePtr &v,
                           Operation *from,
                           SmallVectorImpl<ValuePtr> &bindings) {
  if (isa<PatternWildcardAttr>(pattern))
    return true;
  if (isa<PatternVarAttr>(pattern)) {
    bindings.push_back(v);
    return true;
  }
  if (auto tuple = dyn_cast<PatternTupleAttr>(pattern)) {
    if (v->getKind() != RuntimeValue::Kind::Tuple ||
        v->getFields().size() != tuple.getFields().size())
      return false;
    for (auto [p, f] : llvm::zip(tuple.getFields(), v->getFields()))
      if (!matchPattern(p, f, from, bindings))
        return false;
    return true;
  }
  auto ctor = cast<PatternCtorAttr>(pattern);
  if (v->getKind() != RuntimeValue::Kind::Adt ||
      v->getConstructor() != lookupSymbol(from, ctor.getConstructor()))
    return false;
  for (auto [p, f] : llvm::zip(ctor.getFields(), v->getFields()))
    if (!matchPattern(p, f, from, bindings))
      return false;
  return true;
}

Machine::Step Machine::execute(Operation *op, Frame &frame) {
  auto set = [&](ValuePtr v) {
    frame.env->values[op->getResult(0)] = std::move(v);
    return Step::Next;
  };
  SmallVector<ValuePtr> operands;
  for (Value v : op->getOperands()) {
    ValuePtr value = get(frame, v);
    if (!value) {
      mlir::emitError(op->getLoc(),
                      "the interpreter found no value for an operand");
      return Step::Failed;
    }
    operands.push_back(std::move(value));
  }
  if (const OperatorInfo *info = lookupOperator(op->getName().getStringRef())) {
    ProfileScope timed(profile, [&] {
      return op->getName().getStringRef().drop_front(strlen("relay.")).str();
    });
    FailureOr<ValuePtr> v = runOperator(op, *info, operands);
    return failed(v) ? Step::Failed : set(*v);
  }
  auto fail = [&](const Twine &message) {
    mlir::emitError(op->getLoc(), message);
    return Step::Failed;
  };
  auto push = [&](LogicalResult pushed) {
    return failed(pushed) ? Step::Failed : Step::Pushed;
  };
  return llvm::TypeSwitch<Operation *, Step>(op)
      .Case([&](ConstantOp c) {
        if (auto kept = constants.kept.find(c);
            kept != constants.kept.end() && kept->second.first == c.getValue())
          return set(kept->second.second);
        ValuePtr value;
        if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue())) {
          value = RuntimeValue::tensor(Tensor::fromAttr(dense));
        } else if (auto blob =
                       dyn_cast<DenseResourceElementsAttr>(c.getValue())) {
          FailureOr<Tensor> t = Tensor::fromResource(blob);
          if (failed(t))
            return fail("the constant's resource blob is missing or does "
                        "not match its type");
          value = RuntimeValue::tensor(std::move(*t));
        } else {
          return fail("the interpreter runs dense and dense_resource "
                      "constants only");
        }
        auto [seen, first] = constants.seen.try_emplace(c, c.getValue());
        if (!first && seen->second == c.getValue())
          constants.kept[c] = {c.getValue(), value};
        seen->second = c.getValue();
        return set(std::move(value));
      })
      .Case([&](TupleOp) {
        return set(RuntimeValue::tuple(
            std::vector<ValuePtr>(operands.begin(), operands.end())));
      })
      .Case([&](TupleGetOp g) {
        const ValuePtr &t = operands[0];
        if (t->getKind() != RuntimeValue::Kind::Tuple ||
            g.getIndex() >= t->getFields().size())
          return fail("projects a field the value does not have");
        return set(t->getFields()[g.getIndex()]);
      })
      .Case([&](ConstructOp c) {
        Operation *ctor = lookupSymbol(op, c.getConstructor());
        return set(RuntimeValue::adt(
            ctor, std::vector<ValuePtr>(operands.begin(), operands.end())));
      })
      .Case([&](RefOp) { return set(RuntimeValue::ref(operands[0])); })
      .Case([&](RefReadOp) {
        if (operands[0]->getKind() != RuntimeValue::Kind::Ref)
          return fail("reads a value that is not a reference");
        return set(operands[0]->getRefContents());
      })
      .Case([&](RefWriteOp) {
        if (operands[0]->getKind() != RuntimeValue::Kind::Ref)
          return fail("writes a value that is not a reference");
        operands[0]->setRefContents(operands[1]);
        return set(RuntimeValue::tuple({}));
      })
      .Case([&](FnOp fn) {
        // The closure keeps only the values it uses from above (a flat
        // environment), so closures do not keep the whole activation alive
        // and no reference cycle forms through it.
        auto env = std::make_shared<Env>();
        for (Value v : capturedValues(fn))
          env->values[v] = get(frame, v);
        return set(RuntimeValue::closure(fn, std::move(env)));
      })
      .Case([&](GlobalRefOp g) {
        auto func = dyn_cast_or_null<FuncOp>(lookupSymbol(op, g.getNameAttr()));
        if (!func)
          return fail("refers to an undefined function");
        return set(RuntimeValue::closure(func, nullptr));
      })
      .Case([&](CallOp c) {
        auto func =
            dyn_cast_or_null<FuncOp>(lookupSymbol(op, c.getCalleeAttr()));
        if (!func)
          return fail("calls an undefined function");
        if (regionRunner && isNativeRegion(func)) {
          // A region the runner leaves to the interpreter is timed as its
          // operators; the runner's decision (its first call: an estimate)
          // under a name of its own.
          bool compiled = false;
          ProfileScope timed(profile, [&] {
            return ("native region @" + func.getSymName() +
                    (compiled ? "" : " (deciding to interpret it)"))
                .str();
          });
          std::optional<FailureOr<ValuePtr>> v = regionRunner(func, operands);
          compiled = v.has_value();
          if (compiled)
            return failed(*v) ? Step::Failed : set(**v);
        }
        // (`frame` is gone once the tail frames are popped.)
        Operation *caller = popTailFrames(op);
        return push(pushCall(func, operands, caller, op->getLoc()));
      })
      .Case([&](ApplyOp) {
        Operation *caller = popTailFrames(op);
        return push(pushApplication(operands[0],
                                    ArrayRef<ValuePtr>(operands).drop_front(),
                                    caller, op->getLoc()));
      })
      .Case([&](IfOp i) {
        const ValuePtr &cond = operands[0];
        if (!cond->isTensor() || cond->getTensor().getNumElements() != 1)
          return fail("the condition is not a bool scalar");
        Region &r =
            cond->getTensor().getB(0) ? i.getThenRegion() : i.getElseRegion();
        std::shared_ptr<Env> env = newEnv(frame.env);
        stack.push_back(Frame{&r.front(), r.front().begin(), env, op});
        return Step::Pushed;
      })
      .Case([&](MatchOp m) {
        for (auto [pattern, region] :
             llvm::zip(m.getPatterns(), m.getCases())) {
          SmallVector<ValuePtr> bindings;
          if (!matchPattern(pattern, operands[0], op, bindings))
            continue;
          Block &block = region.front();
          std::shared_ptr<Env> env = newEnv(frame.env);
          for (auto [arg, v] : llvm::zip(block.getArguments(), bindings))
            env->values[arg] = v;
          stack.push_back(Frame{&block, block.begin(), env, op});
          return Step::Pushed;
        }
        InFlightDiagnostic diag =
            mlir::emitError(op->getLoc(), "no case of the ");
        diag << (m.getPartial() ? "match?" : "match") << " matches the value ";
        std::string text;
        llvm::raw_string_ostream os(text);
        printValue(os, operands[0]);
        diag << text;
        noteCallSite(diag, op);
        return Step::Failed;
      })
      .Default([&](Operation *) {
        return fail("the interpreter cannot run '" +
                    op->getName().getStringRef() + "'");
      });
}

/// Whether `op`'s value is what its block returns, right after it.
static bool inTailPosition(Operation *op) {
  Operation *next = op->getNextNode();
  return isa_and_nonnull<ReturnOp, YieldOp>(next) &&
         next->getNumOperands() == 1 && op->getNumResults() == 1 &&
         next->getOperand(0) == op->getResult(0);
}

Operation *Machine::popTailFrames(Operation *call) {
  Operation *receiver = call;
  // The top frame runs `receiver`; while its value is the frame's own, the
  // frame is done once the callee is: the callee returns to its caller.
  while (receiver && stack.size() > runBase && inTailPosition(receiver)) {
    receiver = stack.back().caller;
    stack.pop_back();
  }
  return receiver;
}

FailureOr<ValuePtr> Machine::run(Block *block, std::shared_ptr<Env> env) {
  size_t base = stack.size();
  size_t outerBase = runBase;
  runBase = base;
  llvm::scope_exit restoreBase([&] { runBase = outerBase; });
  stack.push_back(Frame{block, block->begin(), std::move(env), nullptr});
  while (true) {
    Frame &frame = stack.back();
    Operation *op = &*frame.ip;
    if (isa<ReturnOp, YieldOp>(op)) {
      ValuePtr v = get(frame, op->getOperand(0));
      Operation *caller = frame.caller;
      stack.pop_back();
      if (!v)
        return mlir::emitError(op->getLoc(),
                               "the interpreter found no value to return");
      if (stack.size() == base)
        return v;
      Frame &parent = stack.back();
      parent.env->values[caller->getResult(0)] = std::move(v);
      ++parent.ip;
      continue;
    }
    switch (execute(op, frame)) {
    case Step::Next:
      ++stack.back().ip;
      break;
    case Step::Pushed:
      break;
    case Step::Failed:
      stack.resize(base);
      return failure();
    }
  }
}

Interpreter::Interpreter(ModuleOp module)
    : module(module), composites(std::make_shared<CompositeKernels>()),
      constants(std::make_shared<ConstantValues>()) {}

FailureOr<ValuePtr> Interpreter::call(StringRef name, ArrayRef<ValuePtr> args) {
  auto func = module.lookupSymbol<FuncOp>(name);
  if (!func)
    return emitError(module.getLoc())
           << "the module has no relay.func @" << name;
  return call(func, args);
}

FailureOr<ValuePtr> Interpreter::call(FuncOp func, ArrayRef<ValuePtr> args) {
  Block &body = func.getBody().front();
  if (args.size() != body.getNumArguments())
    return func.emitError("@")
           << func.getSymName() << " takes " << body.getNumArguments()
           << " arguments, got " << args.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(body.getArguments(), args)))
    if (failed(checkArgument(std::get<1>(pair), std::get<0>(pair).getType(),
                             func.getLoc(), "argument #" + Twine(i))))
      return failure();
  auto env = std::make_shared<Env>();
  for (auto [arg, v] : llvm::zip(body.getArguments(), args))
    env->values[arg] = v;
  Machine machine(module, regionRunner, profile, *composites, *constants);
  return machine.run(&body, std::move(env));
}

FailureOr<ValuePtr> Interpreter::apply(const ValuePtr &closure,
                                       ArrayRef<ValuePtr> args, Location loc) {
  if (closure->getKind() != RuntimeValue::Kind::Closure)
    return emitError(loc) << "applies a value that is not a function";
  if (auto func = dyn_cast<FuncOp>(closure->getFunction()))
    return call(func, args);
  auto fn = cast<FnOp>(closure->getFunction());
  auto params = fn.getParams();
  if (args.size() != params.size())
    return emitError(loc) << "the closure takes " << params.size()
                          << " arguments, got " << args.size();
  auto env = std::make_shared<Env>();
  env->parent = closure->getEnv();
  if (BlockArgument self = fn.getSelf())
    env->values[self] = closure;
  for (auto [param, v] : llvm::zip(params, args))
    env->values[param] = v;
  Machine machine(module, regionRunner, profile, *composites, *constants);
  return machine.run(&fn.getBody().front(), std::move(env));
}

void Profile::print(raw_ostream &os, int64_t runs) const {
  SmallVector<const llvm::StringMapEntry<Entry> *> sorted;
  double total = 0;
  for (const auto &entry : entries) {
    sorted.push_back(&entry);
    total += entry.getValue().seconds;
  }
  llvm::stable_sort(sorted, [](const auto *a, const auto *b) {
    if (a->getValue().seconds != b->getValue().seconds)
      return a->getValue().seconds > b->getValue().seconds;
    return a->getKey() < b->getKey();
  });
  runs = std::max<int64_t>(runs, 1);
  os << llvm::format("%12s %7s %12s  %s\n", "ms per run", "%", "calls/run",
                     "operator or native region");
  for (const auto *entry : sorted)
    os << llvm::format(
              "%12.3f %7.2f %12.1f  ", entry->getValue().seconds * 1e3 / runs,
              total > 0 ? 100 * entry->getValue().seconds / total : 0.0,
              double(entry->getValue().calls) / runs)
       << entry->getKey() << "\n";
  os << llvm::format("%12.3f %7.2f %12s  ", total * 1e3 / runs, 100.0, "")
     << "total\n";
}

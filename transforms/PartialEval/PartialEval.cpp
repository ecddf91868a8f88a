//===- PartialEval.cpp - --relay-partial-eval -------------------*- C++ -*-===//
//
// An online partial evaluator (seed 000 §4.3, TVM's PartialEvaluate). Each
// function's body is evaluated with its parameters unknown: every value is
// partially static (a tuple, constructor, closure, global function or
// reference known by its parts, a small constant, a tensor known to be
// zeros) or dynamic (only the code computing it is known). Operators emit
// their code (folded when their operands are small constants); closures and
// global functions applied to anything are unfolded at compile time;
// references are cells of a simulated store, read and written at compile
// time; `if` on a known condition and `match` on a known constructor are
// decided. What cannot be decided is emitted ("residual" code): a dynamic
// `if`, say, or an application of an unknown closure.
//
// Soundness. Only references that nothing unknown can reach stay in the
// store: one passed to residual code, stored in a residual cell, or live
// when control flow becomes dynamic (a residual `if`/`match`, the body of
// a residual closure) is materialised there (`ref(<its contents>)`) and is
// read and written by residual code from then on. Effects stay in program
// order because evaluation follows it.
//
// Termination. A function or closure already being unfolded is unfolded
// again only when no dynamic branch lies between the two activations (its
// recursion is then decided by known values, as a loop with a constant
// trip count); a recursive call under a dynamic condition is emitted. A
// budget of unfoldings (`fuel`) and of nesting bounds the rest. A chain of
// tail calls (the backpropagator of a higher-order gradient is one) is
// unfolded iteratively.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayBuilder.h"
#include "dialects/relay/RelayOps.h"
#include "runtime/Interpreter/Interpreter.h"
#include "support/BigStack.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"

#include <memory>

namespace mlir::relay {
#define GEN_PASS_DEF_PARTIALEVAL
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

struct Env;
using EnvPtr = std::shared_ptr<Env>;
struct PNode;
using PVal = std::shared_ptr<PNode>;

/// What is known of a value at compile time.
struct PNode {
  enum class Kind { Dynamic, Tuple, Construct, Closure, Global, Ref };
  Kind kind = Kind::Dynamic;
  Type type;
  /// The residual code computing the value (always set for Dynamic; set for
  /// the others once emitted).
  Value residual;
  /// Tuple and Construct.
  SmallVector<PVal> fields;
  SymbolRefAttr ctor;
  /// Closure: its code and the environment it was created in.
  FnOp fn;
  EnvPtr env;
  /// Global.
  FuncOp global;
  /// Ref: its cell in the store.
  unsigned cell = 0;
  /// Dynamic: its value when it is a small constant.
  DenseElementsAttr constant;
  /// Dynamic: known to be all zeros.
  bool zeros = false;

  PNode() = default;
  PNode(const PNode &) = delete;
  PNode &operator=(const PNode &) = delete;
  /// Releases what only this node holds one node at a time: a list built
  /// by a loop is a chain of Cons nodes 300,000 long, whose destructors
  /// calling one another overflowed the stack.
  ~PNode();
};

/// The static values of the original program's SSA values in one
/// activation (a function or closure body), chained to the environment
/// the closure was created in.
struct Env {
  EnvPtr parent;
  DenseMap<Value, PVal> vars;

  explicit Env(EnvPtr parent = nullptr) : parent(std::move(parent)) {}
  PVal lookup(Value v) const {
    for (const Env *e = this; e; e = e->parent.get())
      if (auto it = e->vars.find(v); it != e->vars.end())
        return it->second;
    return nullptr;
  }
};

PNode::~PNode() {
  SmallVector<PVal> pending;
  auto release = [&](PNode &node) {
    for (PVal &field : node.fields)
      pending.push_back(std::move(field));
    node.fields.clear();
    if (node.env && node.env.use_count() == 1) {
      for (auto &entry : node.env->vars)
        pending.push_back(std::move(entry.second));
      node.env->vars.clear();
    }
  };
  release(*this);
  while (!pending.empty()) {
    PVal next = std::move(pending.back());
    pending.pop_back();
    if (next && next.use_count() == 1)
      release(*next);
  }
}

/// Elements of a constant the evaluator keeps to decide conditions and
/// fold operators (counters, flags, shapes).
constexpr int64_t kMaxConstantElements = 64;

class PartialEvaluator {
public:
  PartialEvaluator(ModuleOp module, int64_t fuel, unsigned maxDepth,
                   int64_t maxOps)
      : module(module), symbols(module), builder(module.getContext(), &emitted),
        initialFuel(fuel), fuel(fuel), maxDepth(maxDepth), maxOps(maxOps) {}
  /// A closure's node holds the environment it was made in, which binds
  /// the closure: the cycle is broken here, once nothing is evaluated.
  ~PartialEvaluator() {
    for (const std::weak_ptr<Env> &weak : envs)
      if (EnvPtr env = weak.lock())
        env->vars.clear();
  }

  /// The residual body of `f`, in the entry block of `into` (a function of
  /// its type); failure when `f` has to stay as it is (reported as a
  /// remark).
  LogicalResult evaluateFunction(FuncOp f, FuncOp into);

  unsigned numUnfolded = 0;

private:
  //===--------------------------------------------------------------------===//
  // Values
  //===--------------------------------------------------------------------===//

  EnvPtr newEnv(EnvPtr parent = nullptr) {
    auto env = std::make_shared<Env>(std::move(parent));
    envs.push_back(env);
    return env;
  }
  PVal dynamic(Value v) {
    auto p = std::make_shared<PNode>();
    p->type = v.getType();
    p->residual = v;
    return p;
  }
  PVal lookup(const EnvPtr &env, Value v);
  /// The residual code of `p` at the insertion point, emitted if needed.
  Value reify(const PVal &p, Location loc);
  Value reifyClosure(const PVal &p, Location loc);
  /// Whether residual `v` can be used at the insertion point.
  bool usableHere(Value v) {
    Region *at = builder.getInsertionBlock()->getParent();
    return v.getParentRegion()->isAncestor(at);
  }

  //===--------------------------------------------------------------------===//
  // The store
  //===--------------------------------------------------------------------===//

  struct Cell {
    PVal ref;
    PVal contents;
  };
  /// Materialises every cell of the store: their references become
  /// residual code.
  void escapeAll(Location loc);
  /// Materialises one cell.
  void escape(unsigned cell, Location loc);
  /// A scope of residual code (a region): the cells made in it die with
  /// it.
  void pushScope() {
    scopes.emplace_back();
    ++dynamicDepth;
  }
  void popScope() {
    for (unsigned cell : scopes.back())
      store.erase(cell);
    scopes.pop_back();
    --dynamicDepth;
  }

  //===--------------------------------------------------------------------===//
  // Evaluation
  //===--------------------------------------------------------------------===//

  /// Evaluates `block` in `env`; returns its terminator's operand.
  PVal evalBody(Block *block, EnvPtr env);
  void evalOp(Operation *op, const EnvPtr &env);
  PVal evalOperator(Operation *op, const EnvPtr &env);
  /// An `if` or `match`: where its condition or scrutinee decides the
  /// branch, that branch's value, or with `taken` given the branch itself
  /// (a match's pattern variables bound in `env`) for the caller to
  /// evaluate, and null; else residual code.
  PVal evalIf(IfOp op, const EnvPtr &env, Block **taken = nullptr);
  PVal evalMatch(MatchOp op, const EnvPtr &env, Block **taken = nullptr);
  PVal residualMatch(MatchOp op, const EnvPtr &env);
  /// An application or call to unfold: the body and its environment.
  struct Unfolding {
    Block *body = nullptr;
    EnvPtr env;
    Operation *callable = nullptr;
  };
  std::optional<Unfolding> unfoldable(Operation *op, const EnvPtr &env);
  bool mayUnfold(Operation *callable);

  enum class Match { Yes, No, Unknown };
  Match matchPattern(Attribute pattern, const PVal &value,
                     SmallVectorImpl<PVal> &bindings, Location loc);

  void giveUp(Operation *op, const Twine &why) {
    if (!failed)
      op->emitRemark("relay-partial-eval: ") << why;
    failed = true;
  }

  /// Counts the operations of residual code the builder inserts.
  struct Counter : OpBuilder::Listener {
    int64_t ops = 0;
    void notifyOperationInserted(Operation *, OpBuilder::InsertPoint) override {
      ++ops;
    }
  };

  ModuleOp module;
  SymbolTable symbols;
  Counter emitted;
  OpBuilder builder;
  int64_t initialFuel, fuel;
  unsigned maxDepth;
  int64_t maxOps;
  bool warnedLimit = false;
  /// Every environment made, to break closure cycles at the end.
  std::vector<std::weak_ptr<Env>> envs;

  llvm::MapVector<unsigned, Cell> store;
  unsigned nextCell = 0;
  SmallVector<SmallVector<unsigned>> scopes;
  /// Cells being materialised (a cell holding a closure that reaches it
  /// cannot be).
  DenseSet<unsigned> escaping;
  struct Activation {
    Operation *callable;
    unsigned dynamicDepth;
  };
  SmallVector<Activation> activations;
  unsigned dynamicDepth = 0;
  unsigned depth = 0;
  bool failed = false;
};

} // namespace

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

PVal PartialEvaluator::lookup(const EnvPtr &env, Value v) {
  PVal p = env->lookup(v);
  if (!p) {
    // Not reachable for verified input; keeps the pass from crashing.
    if (Operation *def = v.getDefiningOp())
      giveUp(def, "a value was used before the evaluator reached it");
    else
      giveUp(v.getParentRegion()->getParentOp(),
             "a value was used before the evaluator reached it");
    return dynamic(v);
  }
  return p;
}

Value PartialEvaluator::reify(const PVal &p, Location loc) {
  if (p->residual && usableHere(p->residual))
    return p->residual;
  RelayBuilder rb(builder, loc);
  Value v;
  auto isAggregate = [](const PNode &node) {
    return node.kind == PNode::Kind::Tuple ||
           node.kind == PNode::Kind::Construct;
  };
  auto pending = [&](const PNode &node) {
    return isAggregate(node) && !(node.residual && usableHere(node.residual));
  };
  switch (p->kind) {
  case PNode::Kind::Dynamic:
    // A dynamic value is only used where its code is in scope.
    return p->residual;
  case PNode::Kind::Tuple:
  case PNode::Kind::Construct: {
    // Tuples and constructor values nested in one another are built
    // innermost first from a worklist, not by recursion: a list made by a
    // loop is a chain of Cons as long as the loop ran (300,000).
    SmallVector<std::pair<PNode *, bool>> stack = {{p.get(), false}};
    while (!stack.empty()) {
      auto [node, expanded] = stack.pop_back_val();
      if (!pending(*node))
        continue;
      if (!expanded) {
        stack.push_back({node, true});
        for (const PVal &f : llvm::reverse(node->fields))
          if (pending(*f))
            stack.push_back({f.get(), false});
        continue;
      }
      SmallVector<Value> fields;
      for (const PVal &f : node->fields)
        fields.push_back(isAggregate(*f) ? f->residual : reify(f, loc));
      node->residual = node->kind == PNode::Kind::Tuple
                           ? rb.tuple(fields)
                           : ConstructOp::create(builder, loc, node->type,
                                                 node->ctor, fields)
                                 .getResult();
    }
    return p->residual;
  }
  case PNode::Kind::Global:
    v = GlobalRefOp::create(builder, loc, p->type, p->global.getSymName());
    break;
  case PNode::Kind::Closure:
    v = reifyClosure(p, loc);
    break;
  case PNode::Kind::Ref:
    if (store.count(p->cell))
      escape(p->cell, loc);
    else if (!p->residual)
      giveUp(module.getOperation(),
             "a reference outlived the code it was made in");
    return p->residual;
  }
  p->residual = v;
  return v;
}

Value PartialEvaluator::reifyClosure(const PVal &p, Location loc) {
  // The closure may run at any time from here: the cells it can reach are
  // read and written by residual code.
  escapeAll(loc);
  FnOp fn = p->fn;
  OperationState state(loc, FnOp::getOperationName());
  state.addTypes(fn.getFuncType());
  state.addAttributes(fn->getAttrs());
  state.addRegion();
  // The op first, so that its region is in the tree while it is filled.
  Operation *residual = builder.create(state);
  OpBuilder::InsertionGuard guard(builder);
  Block &body = fn.getBody().front();
  Block *block =
      builder.createBlock(&residual->getRegion(0), {}, body.getArgumentTypes(),
                          SmallVector<Location>(body.getNumArguments(), loc));
  pushScope();
  auto env = newEnv(p->env);
  for (auto [orig, arg] : llvm::zip(body.getArguments(), block->getArguments()))
    env->vars[orig] = dynamic(arg);
  PVal result = evalBody(&body, env);
  builder.setInsertionPointToEnd(block);
  ReturnOp::create(builder, fn.getLoc(), reify(result, fn.getLoc()));
  popScope();
  return residual->getResult(0);
}

//===----------------------------------------------------------------------===//
// The store
//===----------------------------------------------------------------------===//

void PartialEvaluator::escape(unsigned cell, Location loc) {
  auto it = store.find(cell);
  if (it == store.end())
    return;
  if (!escaping.insert(cell).second) {
    giveUp(module.getOperation(),
           "a reference holds a closure that reaches it");
    return;
  }
  Cell c = it->second;
  Value contents = reify(c.contents, loc);
  c.ref->residual = RefOp::create(builder, loc, contents);
  store.erase(cell);
  escaping.erase(cell);
}

void PartialEvaluator::escapeAll(Location loc) {
  SmallVector<unsigned> cells;
  // A cell being materialised is skipped: its contents are what is being
  // made (a closure that does reach it gives up).
  for (auto &entry : store)
    if (!escaping.contains(entry.first))
      cells.push_back(entry.first);
  for (unsigned cell : cells)
    escape(cell, loc);
}

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

bool PartialEvaluator::mayUnfold(Operation *callable) {
  if (emitted.ops >= maxOps) {
    // Code of that size, nested as deep as the loop ran, is more than the
    // printer, the verifier and the passes after this one can take: the
    // function stays as it was.
    giveUp(callable, "the residual code passed max-ops (" + Twine(maxOps) +
                         " operations): the function is left as it was");
    return false;
  }
  if (fuel <= 0 || depth >= maxDepth) {
    if (!warnedLimit)
      callable->emitRemark("relay-partial-eval: not unfolded: ")
          << (fuel <= 0 ? "out of fuel" : "at max-depth")
          << " (the rest of the evaluation emits calls)";
    warnedLimit = true;
    return false;
  }
  for (const Activation &a : llvm::reverse(activations))
    if (a.callable == callable)
      return a.dynamicDepth == dynamicDepth;
  return true;
}

std::optional<PartialEvaluator::Unfolding>
PartialEvaluator::unfoldable(Operation *op, const EnvPtr &env) {
  auto bind = [&](Block &body, EnvPtr scope, ValueRange args,
                  unsigned skip) -> Unfolding {
    Unfolding u;
    u.body = &body;
    u.env = std::move(scope);
    for (auto [orig, arg] :
         llvm::zip(body.getArguments().drop_front(skip), args))
      u.env->vars[orig] = lookup(env, arg);
    return u;
  };
  auto global = [&](FuncOp g, ValueRange args) -> std::optional<Unfolding> {
    if (!g || g.isPolymorphic() || g.getBody().empty() || !mayUnfold(g))
      return std::nullopt;
    Unfolding u = bind(g.getBody().front(), newEnv(), args, 0);
    u.callable = g;
    return u;
  };
  if (auto call = dyn_cast<CallOp>(op))
    return global(symbols.lookup<FuncOp>(call.getCallee()), call.getArgs());
  auto apply = cast<ApplyOp>(op);
  PVal callee = lookup(env, apply.getCallee());
  if (callee->kind == PNode::Kind::Global)
    return global(callee->global, apply.getArgs());
  if (callee->kind != PNode::Kind::Closure)
    return std::nullopt;
  FnOp fn = callee->fn;
  if (fn.getFuncType().isPolymorphic() || !mayUnfold(fn))
    return std::nullopt;
  auto scope = newEnv(callee->env);
  Block &body = fn.getBody().front();
  if (BlockArgument self = fn.getSelf())
    scope->vars[self] = callee;
  Unfolding u = bind(body, scope, apply.getArgs(), fn.getSelf() ? 1 : 0);
  u.callable = fn;
  return u;
}

PVal PartialEvaluator::evalBody(Block *block, EnvPtr env) {
  size_t pushed = 0;
  PVal result;
  while (!failed) {
    Operation *terminator = block->getTerminator();
    Value ret = terminator->getOperand(0);
    // A call in tail position is unfolded in this loop, not by recursion,
    // and so is the branch a known condition or scrutinee of a tail `if` or
    // `match` takes: a loop written as tail recursion through a branch
    // (`if (i == n) { i } else { @count(i + 1, n) }`) runs its steps here,
    // where nesting them ran 200,000 steps into a stack overflow.
    Operation *tail = ret.getDefiningOp();
    if (!tail || tail->getBlock() != block ||
        tail->getNextNode() != terminator ||
        !isa<ApplyOp, CallOp, IfOp, MatchOp>(tail))
      tail = nullptr;
    for (Operation &op : block->without_terminator()) {
      if (&op == tail || failed)
        break;
      evalOp(&op, env);
    }
    if (failed)
      break;
    if (tail && isa<IfOp, MatchOp>(tail)) {
      Block *taken = nullptr;
      PVal value = isa<IfOp>(tail)
                       ? evalIf(cast<IfOp>(tail), env, &taken)
                       : evalMatch(cast<MatchOp>(tail), env, &taken);
      if (taken) {
        block = taken;
        continue;
      }
      env->vars[ret] = value;
      result = value;
      break;
    }
    std::optional<Unfolding> next;
    if (tail)
      next = unfoldable(tail, env);
    if (!next) {
      if (tail)
        evalOp(tail, env);
      result = lookup(env, ret);
      break;
    }
    activations.push_back({next->callable, dynamicDepth});
    ++pushed;
    --fuel;
    ++numUnfolded;
    block = next->body;
    env = next->env;
  }
  activations.resize(activations.size() - pushed);
  return result ? result : dynamic(block->getTerminator()->getOperand(0));
}

void PartialEvaluator::evalOp(Operation *op, const EnvPtr &env) {
  Location loc = op->getLoc();
  builder.setInsertionPointToEnd(builder.getInsertionBlock());
  auto bind = [&](PVal p) { env->vars[op->getResult(0)] = std::move(p); };
  auto make = [&](PNode::Kind kind) {
    auto p = std::make_shared<PNode>();
    p->kind = kind;
    p->type = op->getResult(0).getType();
    return p;
  };

  if (lookupOperator(op->getName().getStringRef()))
    return bind(evalOperator(op, env));
  if (auto constant = dyn_cast<ConstantOp>(op)) {
    PVal p = dynamic(builder.clone(*op)->getResult(0));
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (dense && dense.getNumElements() <= kMaxConstantElements)
      p->constant = dense;
    return bind(p);
  }
  if (auto tuple = dyn_cast<TupleOp>(op)) {
    PVal p = make(PNode::Kind::Tuple);
    for (Value f : tuple.getFields())
      p->fields.push_back(lookup(env, f));
    return bind(p);
  }
  if (auto get = dyn_cast<TupleGetOp>(op)) {
    PVal t = lookup(env, get.getTuple());
    if (t->kind == PNode::Kind::Tuple)
      return bind(t->fields[get.getIndex()]);
    return bind(dynamic(
        TupleGetOp::create(builder, loc, reify(t, loc), get.getIndex())));
  }
  if (auto construct = dyn_cast<ConstructOp>(op)) {
    PVal p = make(PNode::Kind::Construct);
    p->ctor = construct.getConstructor();
    for (Value f : construct.getFields())
      p->fields.push_back(lookup(env, f));
    return bind(p);
  }
  if (auto fn = dyn_cast<FnOp>(op)) {
    PVal p = make(PNode::Kind::Closure);
    p->fn = fn;
    p->env = env;
    return bind(p);
  }
  if (auto ref = dyn_cast<GlobalRefOp>(op)) {
    PVal p = make(PNode::Kind::Global);
    p->global = symbols.lookup<FuncOp>(ref.getName());
    if (!p->global)
      return bind(dynamic(builder.clone(*op)->getResult(0)));
    return bind(p);
  }
  if (isa<ApplyOp, CallOp>(op)) {
    if (std::optional<Unfolding> u = unfoldable(op, env)) {
      activations.push_back({u->callable, dynamicDepth});
      --fuel;
      ++numUnfolded;
      ++depth;
      PVal result = evalBody(u->body, u->env);
      --depth;
      activations.pop_back();
      return bind(result);
    }
    // Residual: the arguments (and an unknown closure) as code.
    IRMapping mapping;
    for (Value operand : op->getOperands())
      mapping.map(operand, reify(lookup(env, operand), loc));
    return bind(dynamic(builder.clone(*op, mapping)->getResult(0)));
  }
  if (auto ifOp = dyn_cast<IfOp>(op))
    return bind(evalIf(ifOp, env));
  if (auto match = dyn_cast<MatchOp>(op))
    return bind(evalMatch(match, env));
  if (auto ref = dyn_cast<RefOp>(op)) {
    PVal p = make(PNode::Kind::Ref);
    p->cell = nextCell++;
    store[p->cell] = Cell{p, lookup(env, ref.getValue())};
    if (!scopes.empty())
      scopes.back().push_back(p->cell);
    return bind(p);
  }
  if (auto read = dyn_cast<RefReadOp>(op)) {
    PVal r = lookup(env, read.getRef());
    if (r->kind == PNode::Kind::Ref && store.count(r->cell))
      return bind(store[r->cell].contents);
    return bind(
        dynamic(RefReadOp::create(builder, loc, reify(r, loc)).getResult()));
  }
  if (auto write = dyn_cast<RefWriteOp>(op)) {
    PVal r = lookup(env, write.getRef());
    PVal v = lookup(env, write.getValue());
    if (r->kind == PNode::Kind::Ref && store.count(r->cell)) {
      store[r->cell].contents = v;
      return bind(make(PNode::Kind::Tuple)); // ()
    }
    Value ref = reify(r, loc);
    return bind(dynamic(
        RefWriteOp::create(builder, loc, ref, reify(v, loc)).getResult()));
  }
  if (op->getNumRegions() == 0 && op->getNumResults() <= 1) {
    // Anything else (another dialect's op): kept, on residual operands.
    IRMapping mapping;
    for (Value operand : op->getOperands())
      mapping.map(operand, reify(lookup(env, operand), loc));
    Operation *copy = builder.clone(*op, mapping);
    if (op->getNumResults() == 1)
      bind(dynamic(copy->getResult(0)));
    return;
  }
  giveUp(op, Twine("cannot evaluate '") + op->getName().getStringRef() + "'");
}

PVal PartialEvaluator::evalOperator(Operation *op, const EnvPtr &env) {
  Location loc = op->getLoc();
  SmallVector<PVal> operands;
  for (Value v : op->getOperands())
    operands.push_back(lookup(env, v));
  Type resultType = op->getResult(0).getType();

  // x + zeros and zeros + x are x (the adjoints of a gradient start as
  // zeros).
  if (isa<AddOp>(op))
    for (unsigned i = 0; i < 2; ++i)
      if (operands[i]->zeros && operands[1 - i]->type == resultType)
        return operands[1 - i];

  // Operators of small constants are folded by the interpreter's kernels.
  if (llvm::all_of(operands, [](const PVal &p) { return p->constant; })) {
    auto tensorType = dyn_cast<RankedTensorType>(resultType);
    if (tensorType && tensorType.hasStaticShape() &&
        tensorType.getNumElements() <= kMaxConstantElements) {
      SmallVector<interp::ValuePtr> values;
      for (const PVal &p : operands)
        values.push_back(interp::RuntimeValue::tensor(
            interp::Tensor::fromAttr(p->constant)));
      FailureOr<interp::ValuePtr> result = failure();
      {
        // A kernel that fails leaves the operator to fail at run time.
        ScopedDiagnosticHandler quiet(op->getContext(),
                                      [](Diagnostic &) { return success(); });
        result = interp::evaluateOperator(op, values);
      }
      if (succeeded(result) && (*result)->isTensor()) {
        DenseElementsAttr attr = (*result)->getTensor().toAttr();
        if (attr.getType() == resultType) {
          PVal p = dynamic(ConstantOp::create(builder, loc, attr));
          p->constant = attr;
          return p;
        }
      }
    }
  }

  IRMapping mapping;
  for (auto [v, p] : llvm::zip(op->getOperands(), operands))
    mapping.map(v, reify(p, loc));
  PVal p = dynamic(builder.clone(*op, mapping)->getResult(0));
  p->zeros = isa<ZerosLikeOp, ZerosOp>(op) ||
             (isa<MultiplyOp>(op) && llvm::any_of(operands, [&](const PVal &o) {
                return o->zeros && o->type == resultType;
              }));
  return p;
}

PVal PartialEvaluator::evalIf(IfOp op, const EnvPtr &env, Block **taken) {
  Location loc = op.getLoc();
  PVal cond = lookup(env, op.getCond());
  if (cond->constant && cond->constant.getNumElements() == 1) {
    bool isTrue = !cond->constant.getValues<APInt>()[0].isZero();
    Block *branch = &(isTrue ? op.getThenRegion() : op.getElseRegion()).front();
    if (taken) {
      *taken = branch;
      return nullptr;
    }
    return evalBody(branch, env);
  }
  Value c = reify(cond, loc);
  escapeAll(loc);
  auto residual = IfOp::create(builder, loc, op.getType(), c);
  for (auto [from, to] : llvm::zip(op->getRegions(), residual->getRegions())) {
    OpBuilder::InsertionGuard guard(builder);
    Block *block = builder.createBlock(&to);
    pushScope();
    PVal r = evalBody(&from.front(), env);
    YieldOp::create(builder, loc, reify(r, loc));
    popScope();
    (void)block;
  }
  return dynamic(residual.getResult());
}

PartialEvaluator::Match
PartialEvaluator::matchPattern(Attribute pattern, const PVal &value,
                               SmallVectorImpl<PVal> &bindings, Location loc) {
  if (isa<PatternWildcardAttr>(pattern))
    return Match::Yes;
  if (isa<PatternVarAttr>(pattern)) {
    bindings.push_back(value);
    return Match::Yes;
  }
  ArrayRef<Attribute> subpatterns;
  SmallVector<PVal> fields;
  if (auto tuple = dyn_cast<PatternTupleAttr>(pattern)) {
    subpatterns = tuple.getFields();
    if (value->kind == PNode::Kind::Tuple) {
      fields = value->fields;
    } else {
      // A dynamic tuple matches; its fields are projections.
      Value t = reify(value, loc);
      for (unsigned i = 0; i < subpatterns.size(); ++i)
        fields.push_back(dynamic(TupleGetOp::create(builder, loc, t, i)));
    }
  } else {
    auto ctor = cast<PatternCtorAttr>(pattern);
    if (value->kind != PNode::Kind::Construct)
      return Match::Unknown;
    if (value->ctor != ctor.getConstructor())
      return Match::No;
    subpatterns = ctor.getFields();
    fields = value->fields;
  }
  Match result = Match::Yes;
  for (auto [sub, field] : llvm::zip(subpatterns, fields)) {
    Match m = matchPattern(sub, field, bindings, loc);
    if (m == Match::No)
      return Match::No;
    if (m == Match::Unknown)
      result = Match::Unknown;
  }
  return result;
}

PVal PartialEvaluator::evalMatch(MatchOp op, const EnvPtr &env, Block **taken) {
  PVal scrutinee = lookup(env, op.getScrutinee());
  for (auto [pattern, region] : llvm::zip(op.getPatterns(), op.getCases())) {
    SmallVector<PVal> bindings;
    Match m = matchPattern(pattern, scrutinee, bindings, op.getLoc());
    if (m == Match::No)
      continue;
    if (m == Match::Unknown)
      break;
    Block &block = region.front();
    for (auto [arg, value] : llvm::zip(block.getArguments(), bindings))
      env->vars[arg] = value;
    if (taken) {
      *taken = &block;
      return nullptr;
    }
    return evalBody(&block, env);
  }
  return residualMatch(op, env);
}

PVal PartialEvaluator::residualMatch(MatchOp op, const EnvPtr &env) {
  Location loc = op.getLoc();
  Value scrutinee = reify(lookup(env, op.getScrutinee()), loc);
  escapeAll(loc);
  OperationState state(loc, MatchOp::getOperationName());
  state.addOperands(scrutinee);
  state.addTypes(op.getType());
  state.addAttributes(op->getAttrs());
  for (unsigned i = 0; i < op.getCases().size(); ++i)
    state.addRegion();
  Operation *residual = builder.create(state);
  for (auto [from, to] : llvm::zip(op.getCases(), residual->getRegions())) {
    OpBuilder::InsertionGuard guard(builder);
    Block &orig = from.front();
    Block *block =
        builder.createBlock(&to, {}, orig.getArgumentTypes(),
                            SmallVector<Location>(orig.getNumArguments(), loc));
    for (auto [arg, copy] :
         llvm::zip(orig.getArguments(), block->getArguments()))
      env->vars[arg] = dynamic(copy);
    pushScope();
    PVal r = evalBody(&orig, env);
    YieldOp::create(builder, loc, reify(r, loc));
    popScope();
  }
  return dynamic(residual->getResult(0));
}

LogicalResult PartialEvaluator::evaluateFunction(FuncOp f, FuncOp into) {
  failed = warnedLimit = false;
  fuel = initialFuel;
  emitted.ops = 0;
  store.clear();
  scopes.clear();
  activations.clear();
  dynamicDepth = depth = 0;
  Block &body = f.getBody().front();
  Block *block = &into.getBody().front();
  builder.setInsertionPointToEnd(block);
  auto env = newEnv();
  for (auto [orig, arg] : llvm::zip(body.getArguments(), block->getArguments()))
    env->vars[orig] = dynamic(arg);
  activations.push_back({f, 0});
  PVal result = evalBody(&body, env);
  if (failed)
    return failure();
  builder.setInsertionPointToEnd(block);
  Location loc = body.getTerminator()->getLoc();
  ReturnOp::create(builder, loc, reify(result, loc));
  return failure(failed);
}

namespace {

struct PartialEvalPass : public relay::impl::PartialEvalBase<PartialEvalPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    PartialEvaluator evaluator(module, fuel, maxDepth, maxOps);
    // Every body is evaluated from the original program (unfolded callees
    // included) before any is replaced: into a copy of its function in a
    // scratch module.
    OwningOpRef<ModuleOp> scratch = ModuleOp::create(module.getLoc());
    OpBuilder b = OpBuilder::atBlockEnd(scratch->getBody());
    SmallVector<std::pair<FuncOp, FuncOp>> bodies;
    // The evaluator recurses into what it evaluates and reifies (closures
    // made inside closures, one per step of an unfolded loop): on the large
    // stack, so that a chain of 100,000 of them is not a crash.
    std::string overflow =
        ("relay-partial-eval: error: the evaluation nests deeper than the " +
         Twine(bigStackSize() >> 20) +
         " MiB stack allows (RELAY_STACK_MIB sets its size; fuel, max-depth "
         "and max-ops bound the unfolding)\n")
            .str();
    runOnBigStack(
        [&] {
          for (auto f : module.getOps<FuncOp>()) {
            if (f.getBody().empty())
              continue;
            auto into = FuncOp::create(b, f.getLoc(), f.getSymName(),
                                       f.getArgumentTypes(), f.getReturnType(),
                                       f.getTypeParamList());
            if (succeeded(evaluator.evaluateFunction(f, into)))
              bodies.emplace_back(f, into);
          }
        },
        overflow);
    for (auto [f, into] : bodies) {
      f.getBody().getBlocks().clear();
      f.getBody().takeBody(into.getBody());
    }
    numUnfolded += evaluator.numUnfolded;
  }
};

} // namespace

//===- TailRecursion.cpp - Tail-recursive functions as loops ----*- C++ -*-===//
//
// A func.func whose self-calls are all in tail position becomes
//
//   %r:(args, results) = scf.while (%a = params) {
//     <body: continue?, next args, result>
//     scf.condition(%continue) %next, %result
//   } do { ^bb(%next, %result): scf.yield %next }
//   return the result part of %r
//
// A self-call in tail position continues the loop with its arguments; any
// other value the body returns ends it. Tail positions nest through scf.if
// (a Relay `if`, or the clauses of a `match`).
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayCommon/BoxedValues.h"
#include "conversion/RelayToSCF/RelayToSCF.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::relay;

/// The op whose results are exactly `values`, in order, each used only
/// there; null when there is none.
static Operation *producerOf(OperandRange values) {
  if (values.empty())
    return nullptr;
  auto first = dyn_cast<OpResult>(values.front());
  if (!first)
    return nullptr;
  Operation *op = first.getOwner();
  if (op->getNumResults() != values.size())
    return nullptr;
  for (auto [result, v] : llvm::zip(op->getResults(), values))
    if (result != v || !result.hasOneUse())
      return nullptr;
  return op;
}

/// Whether only ops without effects stand between `op` and the end of its
/// block: then what `op` produces is the last thing its block does.
static bool endsBlock(Operation *op) {
  for (Operation *next = op->getNextNode();
       next && !next->hasTrait<OpTrait::IsTerminator>();
       next = next->getNextNode())
    if (!isMemoryEffectFree(next))
      return false;
  return true;
}

/// The call or scf.if in tail position of `block`: the op that alone
/// produces what the terminator passes on (or, for no values, the op right
/// before it), with nothing that has effects after it; null when there is
/// none.
static Operation *tailOp(Block &block) {
  Operation *terminator = block.getTerminator();
  Operation *op = producerOf(terminator->getOperands());
  if (!op) {
    // A call or an if with no results right before the terminator (a
    // function returning `()`).
    if (terminator->getNumOperands() != 0 || &block.front() == terminator)
      return nullptr;
    op = terminator->getPrevNode();
    if (op->getNumResults() != 0)
      return nullptr;
  }
  return isa<func::CallOp, scf::IfOp>(op) && endsBlock(op) ? op : nullptr;
}

/// Whether `call` (a call of `func` inside it) is a tail call.
static bool isTailCall(func::CallOp call, func::FuncOp func) {
  Operation *op = call;
  while (true) {
    Block *block = op->getBlock();
    if (tailOp(*block) != op)
      return false;
    Operation *parent = block->getParentOp();
    if (parent == func)
      return isa<func::ReturnOp>(block->getTerminator());
    if (!isa<scf::IfOp>(parent))
      return false;
    op = parent;
  }
}

static bool isTailRecursive(func::FuncOp func) {
  bool any = false, allTail = true;
  func.walk([&](func::CallOp call) {
    if (call.getCallee() != func.getSymName())
      return;
    any = true;
    allTail &= isTailCall(call, func);
  });
  return any && allTail;
}

namespace {
/// Rewrites the tail positions of one function's loop body.
struct TailRewriter {
  func::FuncOp func;
  ValueRange loopArgs;
  TypeRange argTypes, resultTypes;

  /// Replaces `block`'s terminator by `terminate(continue?, next args,
  /// result)`, rebuilding the scf.ifs in tail position on the way.
  void
  rewrite(Block &block,
          function_ref<void(OpBuilder &, Location, ValueRange)> terminate) {
    Operation *terminator = block.getTerminator();
    Location loc = terminator->getLoc();
    Operation *tail = tailOp(block);
    OpBuilder b(terminator);
    auto flag = [&](bool v) {
      return arith::ConstantOp::create(b, loc, b.getBoolAttr(v)).getResult();
    };
    SmallVector<Value> values;
    if (auto call = dyn_cast_or_null<func::CallOp>(tail);
        call && call.getCallee() == func.getSymName()) {
      // Go round again with the call's arguments.
      b.setInsertionPoint(call);
      values.push_back(flag(true));
      llvm::append_range(values, call.getOperands());
      llvm::append_range(values, placeholderValues(b, loc, resultTypes));
      b.setInsertionPoint(terminator);
      terminate(b, loc, values);
      terminator->erase();
      call->erase();
      return;
    }
    if (auto ifOp = dyn_cast_or_null<scf::IfOp>(tail)) {
      // Both branches are in tail position.
      SmallVector<Type> types{b.getI1Type()};
      llvm::append_range(types, argTypes);
      llvm::append_range(types, resultTypes);
      b.setInsertionPoint(ifOp);
      auto loop =
          scf::IfOp::create(b, ifOp.getLoc(), types, ifOp.getCondition(),
                            /*addThenBlock=*/false,
                            /*addElseBlock=*/false);
      loop.getThenRegion().takeBody(ifOp.getThenRegion());
      loop.getElseRegion().takeBody(ifOp.getElseRegion());
      for (Region *r : {&loop.getThenRegion(), &loop.getElseRegion()})
        rewrite(r->front(), [](OpBuilder &yb, Location l, ValueRange vs) {
          scf::YieldOp::create(yb, l, vs);
        });
      b.setInsertionPoint(terminator);
      terminate(b, loc, loop.getResults());
      terminator->erase();
      ifOp->erase();
      return;
    }
    // Done: the loop's result.
    values.push_back(flag(false));
    llvm::append_range(values, loopArgs);
    llvm::append_range(values, terminator->getOperands());
    terminate(b, loc, values);
    terminator->erase();
  }
};
} // namespace

static void convertToLoop(func::FuncOp func) {
  Block &entry = func.getBody().front();
  TypeRange argTypes = func.getArgumentTypes();
  TypeRange resultTypes = func.getResultTypes();
  Location loc = func.getLoc();
  SmallVector<Type> carried(argTypes);
  llvm::append_range(carried, resultTypes);

  // The body moves into the loop's "before" region, reading its arguments.
  OpBuilder b(func.getContext());
  auto *before = new Block();
  for (BlockArgument arg : entry.getArguments())
    before->addArgument(arg.getType(), arg.getLoc());
  before->getOperations().splice(before->end(), entry.getOperations());
  for (auto [from, to] :
       llvm::zip(entry.getArguments(), before->getArguments()))
    from.replaceAllUsesWith(to);

  b.setInsertionPointToEnd(&entry);
  auto loop = scf::WhileOp::create(b, loc, carried, entry.getArguments());
  loop.getBefore().push_back(before);
  SmallVector<Location> carriedLocs(carried.size(), loc);
  Block *after = b.createBlock(&loop.getAfter(), {}, carried, carriedLocs);
  scf::YieldOp::create(b, loc,
                       after->getArguments().take_front(argTypes.size()));
  b.setInsertionPointAfter(loop);
  func::ReturnOp::create(b, loc, loop.getResults().drop_front(argTypes.size()));

  TailRewriter rewriter{func, before->getArguments(), argTypes, resultTypes};
  rewriter.rewrite(*before, [](OpBuilder &cb, Location l, ValueRange vs) {
    scf::ConditionOp::create(cb, l, vs.front(), vs.drop_front());
  });
}

void mlir::relay::convertTailRecursionToLoops(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal() && isTailRecursive(func))
      convertToLoop(func);
}

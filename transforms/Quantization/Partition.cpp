//===- Partition.cpp - A quantized program in three functions -------------===//
//
// --relay-quantize-partition (TVM's partition_conversions): splits a
// quantized @main into
//
//   @quantize_inputs     the float inputs to the integers the program
//                        reads (a tuple): every chain of conversion
//                        operators from one input to an operator that is
//                        not one
//   @quantized_main      the rest, up to the integers the result is made of
//   @dequantize_outputs  those integers to the float result
//
// (an input the middle part reads without a conversion passes through
// @quantize_inputs unchanged; where nothing quantized reaches the result,
// the middle part computes it and @dequantize_outputs is the identity).
//
// and makes @main call them in turn, computing what it did. Conversion
// operators are those realize writes around integers (TVM's list): add,
// multiply, right_shift, clip, round, cast. With fully-integral, every
// value of @quantized_main must have a quantized dtype and the other two
// may only convert; the first value or operator that breaks this is the
// error.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "dialects/relay/RelayBuilder.h"
#include "transforms/Quantization/QuantizeConfig.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::relay {
#define GEN_PASS_DEF_QUANTIZEPARTITION
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::quant;

namespace {

bool isConversion(Operation *op) {
  return isa<AddOp, MultiplyOp, RightShiftOp, ClipOp, RoundOp, CastOp,
             ConstantOp>(op);
}

Type dtypeOf(Type t) {
  auto ranked = dyn_cast<RankedTensorType>(t);
  return ranked ? ranked.getElementType() : Type();
}

class Partitioner {
public:
  Partitioner(FuncOp main, ArrayRef<Type> quantized, bool fullyIntegral)
      : main(main), quantized(quantized), fullyIntegral(fullyIntegral) {}

  LogicalResult run();

private:
  /// The inputs `v` is computed from by conversions alone (none for a
  /// constant); none when an operator that is not a conversion is on the
  /// way.
  std::optional<llvm::SmallSetVector<BlockArgument, 2>> inputsOf(Value v);

  /// The ops computing `values` from the function's arguments, in order.
  SmallVector<Operation *> slice(ArrayRef<Value> values,
                                 function_ref<bool(Value)> stop);

  bool isQuantized(Value v) const {
    return llvm::is_contained(quantized, dtypeOf(v.getType()));
  }

  FuncOp main;
  ArrayRef<Type> quantized;
  bool fullyIntegral;
  DenseMap<Value, std::optional<llvm::SmallSetVector<BlockArgument, 2>>> memo;
};

std::optional<llvm::SmallSetVector<BlockArgument, 2>>
Partitioner::inputsOf(Value v) {
  auto it = memo.find(v);
  if (it != memo.end())
    return it->second;
  std::optional<llvm::SmallSetVector<BlockArgument, 2>> result;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    result.emplace();
    result->insert(arg);
  } else if (Operation *def = v.getDefiningOp();
             def && isConversion(def) && def->getNumRegions() == 0) {
    result.emplace();
    for (Value operand : def->getOperands()) {
      std::optional<llvm::SmallSetVector<BlockArgument, 2>> in =
          inputsOf(operand);
      if (!in) {
        result.reset();
        break;
      }
      result->insert(in->begin(), in->end());
    }
  }
  memo[v] = result;
  return result;
}

SmallVector<Operation *> Partitioner::slice(ArrayRef<Value> values,
                                            function_ref<bool(Value)> stop) {
  llvm::SetVector<Operation *> ops;
  SmallVector<Value> work(values.begin(), values.end());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (stop(v))
      continue;
    Operation *def = v.getDefiningOp();
    if (!def || !ops.insert(def))
      continue;
    for (Value operand : def->getOperands())
      work.push_back(operand);
  }
  SmallVector<Operation *> ordered(ops.begin(), ops.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

LogicalResult Partitioner::run() {
  Block &body = main.getBody().front();
  for (Operation &op : body)
    if (op.getNumRegions())
      return op.emitError("--relay-quantize-partition partitions straight-"
                          "line dataflow; this operation has regions");
  auto ret = cast<ReturnOp>(body.getTerminator());

  // The cuts: operands of non-conversions made from one input by
  // conversions (an input itself included).
  llvm::SetVector<Value> cuts;
  for (Operation &op : body.without_terminator()) {
    if (isConversion(&op))
      continue;
    for (Value operand : op.getOperands()) {
      std::optional<llvm::SmallSetVector<BlockArgument, 2>> in =
          inputsOf(operand);
      if (!in || in->empty())
        continue;
      if (in->size() > 1)
        return op.emitError("an operand of this operator converts several "
                            "inputs at once; the inputs cannot be "
                            "quantized apart from the program");
      cuts.insert(operand);
    }
  }
  // The boundary: the quantized values the result is made of (through
  // values of other dtypes).
  llvm::SetVector<Value> outputs;
  SmallVector<Value> work = {ret.getValue()};
  DenseSet<Value> seen;
  SmallVector<Operation *> suffix;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (isQuantized(v) || isa<BlockArgument>(v) || cuts.contains(v)) {
      outputs.insert(v);
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (isa<ConstantOp>(def))
      continue;
    suffix.push_back(def);
    for (Value operand : def->getOperands())
      work.push_back(operand);
  }
  // No quantized boundary on some path (nothing was quantized there): as
  // TVM does, the whole result is the middle part and the suffix the
  // identity.
  if (llvm::any_of(outputs, [&](Value v) { return !isQuantized(v); })) {
    outputs.clear();
    outputs.insert(ret.getValue());
    suffix.clear();
  }
  // Inputs the middle part reads without a conversion pass through
  // @quantize_inputs unchanged.
  for (Operation *op : slice(SmallVector<Value>(outputs.begin(), outputs.end()),
                             [&](Value v) { return cuts.contains(v); }))
    for (Value operand : op->getOperands())
      if (isa<BlockArgument>(operand))
        cuts.insert(operand);
  for (Value v : outputs)
    if (isa<BlockArgument>(v))
      cuts.insert(v);
  if (fullyIntegral) {
    for (Operation *op : suffix)
      if (!isConversion(op))
        return op->emitError("this operator stays in float after the "
                             "quantized part (fully-integral)");
  }

  MLIRContext *ctx = main.getContext();
  ModuleOp module = main->getParentOfType<ModuleOp>();
  SymbolTable symbols(module);
  OpBuilder b(ctx);
  b.setInsertionPointAfter(main);
  Location loc = main.getLoc();
  auto types = [](auto values) {
    SmallVector<Type> t;
    for (Value v : values)
      t.push_back(v.getType());
    return t;
  };

  // @quantize_inputs(inputs) -> (cuts...)
  SmallVector<Value> cutList(cuts.begin(), cuts.end());
  auto preType = TupleType::get(ctx, types(cutList));
  auto pre = FuncOp::create(b, loc, "quantize_inputs",
                            main.getFunctionType().getInputs(), preType);
  {
    OpBuilder pb = OpBuilder::atBlockBegin(&pre.getBody().front());
    IRMapping m;
    m.map(body.getArguments(), pre.getBody().front().getArguments());
    for (Operation *op : slice(cutList, [](Value) { return false; }))
      pb.clone(*op, m);
    SmallVector<Value> fields;
    for (Value c : cutList)
      fields.push_back(m.lookupOrDefault(c));
    ReturnOp::create(pb, loc, TupleOp::create(pb, loc, fields));
  }
  symbols.insert(pre);

  // @quantized_main(cuts...) -> the boundary (one value or a tuple).
  SmallVector<Value> outList(outputs.begin(), outputs.end());
  Type midResult = outList.size() == 1
                       ? outList.front().getType()
                       : Type(TupleType::get(ctx, types(outList)));
  b.setInsertionPointAfter(pre);
  auto mid =
      FuncOp::create(b, loc, "quantized_main", types(cutList), midResult);
  {
    Block &entry = mid.getBody().front();
    OpBuilder mb = OpBuilder::atBlockBegin(&entry);
    IRMapping m;
    for (auto [c, arg] : llvm::zip(cutList, entry.getArguments()))
      m.map(c, arg);
    auto stop = [&](Value v) { return cuts.contains(v); };
    for (Operation *op : slice(outList, stop))
      mb.clone(*op, m);
    SmallVector<Value> results;
    for (Value v : outList)
      results.push_back(m.lookupOrDefault(v));
    ReturnOp::create(mb, loc,
                     results.size() == 1 ? results.front()
                                         : TupleOp::create(mb, loc, results));
    if (fullyIntegral) {
      WalkResult r = mid.walk([&](Operation *op) {
        // A float constant is reported where it is used.
        if (isa<ConstantOp>(op))
          return WalkResult::advance();
        for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults()))
          if (isa<RankedTensorType>(v.getType()) && !isQuantized(v)) {
            op->emitError("the quantized part computes a ")
                << v.getType()
                << " here (fully-integral allows only the quantized dtypes)";
            return WalkResult::interrupt();
          }
        return WalkResult::advance();
      });
      if (r.wasInterrupted())
        return failure();
    }
  }
  symbols.insert(mid);

  // @dequantize_outputs(boundary) -> the result.
  b.setInsertionPointAfter(mid);
  auto post = FuncOp::create(b, loc, "dequantize_outputs", {midResult},
                             main.getReturnType());
  {
    Block &entry = post.getBody().front();
    OpBuilder sb = OpBuilder::atBlockBegin(&entry);
    IRMapping m;
    if (outList.size() == 1) {
      m.map(outList.front(), entry.getArgument(0));
    } else {
      for (auto [i, v] : llvm::enumerate(outList))
        m.map(v, TupleGetOp::create(sb, loc, entry.getArgument(0), i));
    }
    auto stop = [&](Value v) { return outputs.contains(v); };
    for (Operation *op : slice({ret.getValue()}, stop))
      sb.clone(*op, m);
    ReturnOp::create(sb, loc, m.lookupOrDefault(ret.getValue()));
  }
  symbols.insert(post);

  // @main: the three in turn.
  while (Operation *op = ret->getPrevNode()) {
    op->dropAllUses();
    op->erase();
  }
  OpBuilder rb(ret);
  Value q = CallOp::create(rb, loc, pre, body.getArguments());
  SmallVector<Value> fields;
  for (size_t i = 0; i < cutList.size(); ++i)
    fields.push_back(TupleGetOp::create(rb, loc, q, i));
  Value r = CallOp::create(rb, loc, mid, fields);
  Value d = CallOp::create(rb, loc, post, ValueRange{r});
  ret->setOperands(d);
  return success();
}

struct QuantizePartitionPass
    : relay::impl::QuantizePartitionBase<QuantizePartitionPass> {
  using QuantizePartitionBase::QuantizePartitionBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SmallVector<Type> quantized;
    for (StringRef name : {StringRef(dtypeInput), StringRef(dtypeWeight),
                           StringRef(dtypeActivation)}) {
      Type t = parseIntegerDtype(ctx, name);
      if (!t) {
        emitError(module.getLoc(), "--relay-quantize-partition: '")
            << name << "' is not an integer dtype";
        return signalPassFailure();
      }
      quantized.push_back(t);
    }
    auto main = module.lookupSymbol<FuncOp>("main");
    if (!main) {
      emitError(module.getLoc(),
                "--relay-quantize-partition: the module has no @main");
      return signalPassFailure();
    }
    for (StringRef name :
         {"quantize_inputs", "quantized_main", "dequantize_outputs"})
      if (module.lookupSymbol(name)) {
        emitError(module.getLoc(), "--relay-quantize-partition: @")
            << name << " is defined already (partitioned twice?)";
        return signalPassFailure();
      }
    if (failed(Partitioner(main, quantized, fullyIntegral).run()))
      signalPassFailure();
  }
};

} // namespace

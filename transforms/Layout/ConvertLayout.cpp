//===- ConvertLayout.cpp - --relay-convert-layout, --relay-alter-op-layout ===//
//
// The layout engine both passes share (TVM's ConvertLayout and
// AlterOpLayout): the ops that are asked for a layout take it, the ops
// after them follow it by their "infer_layout" rules, and layout_transforms
// are inserted only where a value meets an op that needs it in another
// layout (at the edges of the converted region); a value is transformed
// once per layout it is needed in, and transforms that undo each other are
// cancelled.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "conversion/RelayToLinalg/LoweringTarget.h"
#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayBuilder.h"
#include "dialects/relay/RelayOps.h"
#include "transforms/Decompose/Decompose.h"
#include "transforms/Layout/LayoutRules.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

#include <map>

namespace mlir::relay {
#define GEN_PASS_DEF_CONVERTLAYOUT
#define GEN_PASS_DEF_ALTEROPLAYOUT
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::layout;

namespace {

using DesiredFn = function_ref<SmallVector<std::string>(Operation *)>;

/// Converts the ops of one block.
class BlockConverter : public LayoutQuery {
public:
  BlockConverter(Block &block, DesiredFn desiredFor)
      : block(block), desiredFor(desiredFor) {}

  /// Returns the number of ops that changed layout.
  unsigned run() {
    unsigned converted = 0;
    for (Operation &op : llvm::make_early_inc_range(block.without_terminator()))
      if (!created.contains(&op) && convert(&op))
        ++converted;
    finish();
    return converted;
  }

  LayoutState stateOf(Value v) const override {
    auto it = current.find(v);
    return it == current.end() ? LayoutState() : it->second.second;
  }

  ValueRange tupleFields(Value v) const override {
    auto tuple = v.getDefiningOp<TupleOp>();
    if (!tuple || tuple->getBlock() != &block)
      return {};
    return tuple.getFields();
  }

private:
  /// Converts `op` when its rule decides a layout for it.
  bool convert(Operation *op) {
    const OperatorInfo *info = lookupOperator(op->getName().getStringRef());
    if (!info || op->getNumResults() != 1 || op->getNumRegions())
      return false;
    SmallVector<std::string> desired = desiredFor(op);
    auto changed = [&](Value v) { return !stateOf(v).isIdentity(); };
    bool inputsChanged = llvm::any_of(op->getOperands(), [&](Value v) {
      return changed(v) || llvm::any_of(tupleFields(v), changed);
    });
    if (desired.empty() && !inputsChanged)
      return false;
    const InferLayoutFn *rule = lookupInferLayoutRule(op);
    if (!rule)
      return false;
    std::optional<LayoutDecision> decision = (*rule)(op, *this, desired);
    if (!decision)
      return false;

    // The operands in the layouts the op wants.
    OpBuilder builder(op);
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      Value v;
      if (const LayoutState *s = requiredState(*decision, operand)) {
        v = valueIn(operand, *s);
      } else if (ValueRange fields = tupleFields(operand);
                 !fields.empty() && llvm::any_of(fields, [&](Value f) {
                   return requiredState(*decision, f);
                 })) {
        SmallVector<Value> newFields;
        for (Value f : fields) {
          const LayoutState *s = requiredState(*decision, f);
          newFields.push_back(valueIn(f, s ? *s : LayoutState()));
        }
        if (llvm::all_of(newFields, [](Value f) { return bool(f); })) {
          builder.setInsertionPoint(op);
          v = track(TupleOp::create(builder, op->getLoc(), newFields));
        }
      } else {
        v = valueIn(operand, LayoutState());
      }
      if (!v)
        return false;
      operands.push_back(v);
    }
    NamedAttrList attrs(op->getAttrs());
    for (NamedAttribute attr : decision->attrs)
      attrs.set(attr.getName(), attr.getValue());
    SmallVector<Type> operandTypes(ValueRange(operands).getTypes());
    Type resultType =
        inferOperatorResultType(op->getName().getStringRef(), operandTypes,
                                attrs.getDictionary(op->getContext()));
    if (!resultType)
      return false;
    builder.setInsertionPoint(op);
    OperationState state(op->getLoc(), op->getName(), operands, {resultType},
                         attrs.getAttrs());
    Operation *newOp = track(builder.create(state));
    Value result = op->getResult(0), newResult = newOp->getResult(0);
    if (decision->result.isIdentity() &&
        result.getType() == newResult.getType()) {
      result.replaceAllUsesWith(newResult);
      op->erase();
      return true;
    }
    current[result] = {newResult, decision->result};
    replaced.insert(op);
    return true;
  }

  static const LayoutState *requiredState(const LayoutDecision &decision,
                                          Value v) {
    for (const auto &[value, state] : decision.required)
      if (value == v)
        return &state;
    return nullptr;
  }

  /// `v` (a value of the original program) in layout `s`: the value now
  /// standing for it, transformed when its layout is another; null when
  /// that cannot be done.
  Value valueIn(Value v, const LayoutState &s) {
    auto it = current.find(v);
    Value now = it == current.end() ? v : it->second.first;
    LayoutState have = it == current.end() ? LayoutState() : it->second.second;
    if (have == s || (have.isIdentity() && s.isIdentity()))
      return now;
    auto key = std::make_pair(v.getAsOpaquePointer(), s.orig + "/" + s.cur);
    if (auto cached = cache.find(key); cached != cache.end())
      return cached->second;

    std::string src, dst;
    if (s.isIdentity()) {
      src = have.cur;
      dst = have.orig;
    } else if (have.isIdentity()) {
      src = s.orig;
      dst = s.cur;
    } else {
      // Both changed: name the wanted layout with the letters `now` has.
      if (have.orig.size() != s.orig.size())
        return nullptr;
      src = have.cur;
      for (char c : s.cur)
        dst += have.orig[s.orig.find(c)];
    }
    OpBuilder builder(v.getContext());
    if (Operation *def = now.getDefiningOp())
      builder.setInsertionPointAfter(def);
    else
      builder.setInsertionPointToStart(now.getParentBlock());
    Location loc = now.getLoc();
    RelayBuilder rb(builder, loc);
    Value x = now;
    // A lower-rank operand of a broadcast first gets the leading axes.
    auto type = dyn_cast<RankedTensorType>(x.getType());
    if (!type || type.getRank() > int64_t(src.size()))
      return nullptr;
    if (int64_t missing = src.size() - type.getRank()) {
      x = rb.op<ExpandDimsOp>(
          {x}, {builder.getNamedAttr("axis", builder.getI64IntegerAttr(0)),
                builder.getNamedAttr("num_newaxis",
                                     builder.getI64IntegerAttr(missing))});
      if (!x)
        return nullptr;
      track(x.getDefiningOp());
    }
    Value t = rb.op<LayoutTransformOp>(
        {x}, {builder.getNamedAttr("src_layout", builder.getStringAttr(src)),
              builder.getNamedAttr("dst_layout", builder.getStringAttr(dst))});
    if (!t)
      return nullptr;
    track(t.getDefiningOp());
    cache[key] = t;
    return t;
  }

  template <typename T> T track(T op) {
    created.insert(op);
    return op;
  }
  Value track(Value v) {
    created.insert(v.getDefiningOp());
    return v;
  }

  /// The ops left reading a converted value get it in its original layout;
  /// the replaced ops and the unused transforms go.
  void finish() {
    for (Operation *op : replaced) {
      Value result = op->getResult(0);
      bool outsideUse = llvm::any_of(result.getUses(), [&](OpOperand &use) {
        return !replaced.contains(use.getOwner());
      });
      if (!outsideUse)
        continue;
      Value original = valueIn(result, LayoutState());
      result.replaceUsesWithIf(original, [&](OpOperand &use) {
        return !replaced.contains(use.getOwner()) &&
               use.getOwner() != original.getDefiningOp();
      });
    }
    for (Operation *op : llvm::reverse(replaced))
      op->erase();
    // Transforms made for a decision that was then abandoned.
    for (Operation *op : llvm::reverse(created))
      if (op->use_empty() && isMemoryEffectFree(op))
        op->erase();
  }

  Block &block;
  DesiredFn desiredFor;
  /// Each converted value of the program: the value standing for it and
  /// its layout.
  DenseMap<Value, std::pair<Value, LayoutState>> current;
  std::map<std::pair<void *, std::string>, Value> cache;
  llvm::SetVector<Operation *> replaced;
  llvm::SetVector<Operation *> created;
};

/// Runs the engine on every block of the module's functions.
unsigned convertLayouts(ModuleOp module, DesiredFn desiredFor) {
  SmallVector<Block *> blocks;
  for (FuncOp func : module.getOps<FuncOp>())
    func->walk<WalkOrder::PreOrder>(
        [&](Block *block) { blocks.push_back(block); });
  unsigned converted = 0;
  for (Block *block : blocks)
    converted += BlockConverter(*block, desiredFor).run();
  RewritePatternSet patterns(module.getContext());
  populateComposeLayoutTransformsPatterns(patterns);
  (void)applyPatternsGreedily(module, std::move(patterns));
  return converted;
}

/// The name an option gives an operator (`nn.conv2d`) as registered.
std::string fullName(StringRef name) {
  return name.starts_with("relay.") ? name.str() : ("relay." + name).str();
}

/// An op's data layout: its `data_layout`, else its `layout` attribute.
StringAttr dataLayoutOf(Operation *op) {
  DictionaryAttr attrs = getOperatorAttributes(op);
  if (auto data = attrs.getAs<StringAttr>("data_layout"))
    return data;
  return attrs.getAs<StringAttr>("layout");
}

struct ConvertLayoutPass
    : public relay::impl::ConvertLayoutBase<ConvertLayoutPass> {
  using ConvertLayoutBase::ConvertLayoutBase;

  LogicalResult initialize(MLIRContext *context) override {
    desired.clear();
    for (const std::string &entry : desiredLayouts) {
      SmallVector<StringRef> parts;
      StringRef(entry).split(parts, ':');
      auto error = [&](const Twine &what) {
        return emitError(UnknownLoc::get(context))
               << "--relay-convert-layout: desired-layouts entry '" << entry
               << "': " << what;
      };
      if (parts.size() < 2 || parts.size() > 3)
        return error("expected OP:DATA_LAYOUT[:KERNEL_LAYOUT], e.g. "
                     "nn.conv2d:NHWC:HWIO");
      std::string name = fullName(parts[0]);
      if (!lookupOperator(name))
        return error("no operator " + parts[0]);
      for (StringRef layout : llvm::drop_begin(parts))
        if (layout != "default" && !isPermutationOf(layout, layout))
          return error("malformed layout '" + layout +
                       "' (upper-case axis letters, each once)");
      if (parts[1] == "default")
        return error("the data layout cannot be 'default'");
      desired[name] = {parts[1].str()};
      if (parts.size() == 3)
        desired[name].push_back(parts[2].str());
    }
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Each op asked for a layout must have one of that many axes.
    WalkResult checked = module.walk([&](Operation *op) {
      auto it = desired.find(op->getName().getStringRef());
      if (it == desired.end())
        return WalkResult::advance();
      DictionaryAttr attrs = getOperatorAttributes(op);
      StringAttr data = dataLayoutOf(op);
      if (!data || !lookupInferLayoutRule(op)) {
        emitError(op->getLoc(), "--relay-convert-layout: '")
            << op->getName() << "' has no layout to convert";
        return WalkResult::interrupt();
      }
      if (!isPermutationOf(it->second[0], data.getValue())) {
        emitError(op->getLoc(), "--relay-convert-layout: desired layout '")
            << it->second[0] << "' is not a permutation of the op's layout '"
            << data.getValue() << "'";
        return WalkResult::interrupt();
      }
      auto kernel = attrs.getAs<StringAttr>("kernel_layout");
      if (kernel && it->second.size() > 1 && it->second[1] != "default" &&
          !isPermutationOf(it->second[1], kernel.getValue())) {
        emitError(op->getLoc(),
                  "--relay-convert-layout: desired kernel layout '")
            << it->second[1] << "' is not a permutation of the op's '"
            << kernel.getValue() << "'";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (checked.wasInterrupted())
      return signalPassFailure();
    numConverted += convertLayouts(module, [&](Operation *op) {
      auto it = desired.find(op->getName().getStringRef());
      return it == desired.end() ? SmallVector<std::string>() : it->second;
    });
    // An op asked for a layout its rule does not take stays as it was,
    // saying so (a permutation the kernels have no form for: NHCW).
    module.walk([&](Operation *op) {
      auto it = desired.find(op->getName().getStringRef());
      if (it == desired.end())
        return;
      StringAttr data = dataLayoutOf(op);
      if (data && data.getValue() != it->second[0])
        emitRemark(op->getLoc(), "--relay-convert-layout: '")
            << op->getName() << "' stays in " << data.getValue()
            << ": its layout rule does not take " << it->second[0];
    });
  }

  llvm::StringMap<SmallVector<std::string>> desired;
};

struct AlterOpLayoutPass
    : public relay::impl::AlterOpLayoutBase<AlterOpLayoutPass> {
  using AlterOpLayoutBase::AlterOpLayoutBase;

  void runOnOperation() override {
    if (!lookupLoweringTarget(target)) {
      emitError(getOperation().getLoc(), "--relay-alter-op-layout: unknown "
                                         "target '")
          << target << "' (" << llvm::join(getLoweringTargetNames(), ", ")
          << ")";
      return signalPassFailure();
    }
    numConverted += convertLayouts(getOperation(), [&](Operation *op) {
      const AlterLayoutFn *rule = lookupAlterLayoutRule(op, target);
      if (!rule)
        return SmallVector<std::string>();
      std::optional<SmallVector<std::string>> layouts = (*rule)(op);
      return layouts ? *layouts : SmallVector<std::string>();
    });
  }
};

} // namespace

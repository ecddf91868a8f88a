//===- LayoutRules.cpp - How operators follow a change of layout ----------===//
//
// The registry's layout columns and the built-in rules: convolutions
// (transposed ones too) and pooling (and resampling) take the layout they
// are asked for; bias_add, prelu, reductions, concatenate and pad follow
// their input with their axes renamed; elementwise and broadcast operators,
// and take from a 1-d table, follow their operands.
//
//===----------------------------------------------------------------------===//

#include "transforms/Layout/LayoutRules.h"

#include "dialects/relay/OperatorRegistry.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <mutex>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::layout;

static constexpr llvm::StringLiteral kInferColumn = "infer_layout";

static std::string alterColumn(StringRef target) {
  return ("alter_layout:" + target).str();
}

bool mlir::relay::layout::isPermutationOf(StringRef layout, StringRef of) {
  if (layout.size() != of.size() || layout.empty())
    return false;
  for (char c : layout)
    if (c < 'A' || c > 'Z' || layout.count(c) != 1 || of.count(c) != 1)
      return false;
  return true;
}

namespace {

int64_t rankOf(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type ? type.getRank() : -1;
}

StringRef strAttr(Operation *op, StringRef name) {
  auto attr = getOperatorAttributes(op).getAs<StringAttr>(name);
  return attr ? attr.getValue() : StringRef();
}

NamedAttribute namedStr(Operation *op, StringRef name, StringRef value) {
  Builder b(op->getContext());
  return b.getNamedAttr(name, b.getStringAttr(value));
}

/// Where the axis `axis` of `s.orig` is in `s.cur`.
int64_t renamedAxis(const LayoutState &s, int64_t axis) {
  return s.cur.find(s.orig[axis]);
}

/// The first operand of rank `rank` whose layout has changed.
std::optional<LayoutState>
changedOperand(Operation *op, const LayoutQuery &query, int64_t rank) {
  for (Value operand : op->getOperands())
    if (rankOf(operand) == rank && !query.stateOf(operand).isIdentity())
      return query.stateOf(operand);
  return std::nullopt;
}

/// The kernel layout TVM takes for a data layout given as "default"
/// (convert_conv2d's, convert_conv2d_transpose's).
std::string defaultKernelLayout(StringRef data, StringRef kernel,
                                int64_t groups, bool transposed) {
  if (data == "NHWC")
    return groups == 1 || transposed ? "HWIO" : "HWOI";
  if (data == "NCHW")
    return transposed ? "IOHW" : "OIHW";
  return kernel.str();
}

/// nn.conv2d, nn.conv2d_transpose and nn.deformable_conv2d: the data and
/// kernel layouts they are asked for (none asked: they keep their own and
/// read their operands in them). A deformable convolution's offset
/// (operand 1) is in the data's layout and follows it (TVM's
/// convert_deformable_conv2d).
std::optional<LayoutDecision> convolutionRule(Operation *op,
                                              ArrayRef<std::string> desired,
                                              bool deformable,
                                              bool transposed = false) {
  if (desired.empty())
    return std::nullopt;
  StringRef dl = strAttr(op, "data_layout"), kl = strAttr(op, "kernel_layout"),
            ol = strAttr(op, "out_layout");
  if (ol.empty())
    ol = dl;
  auto groups = getOperatorAttributes(op).getAs<IntegerAttr>("groups");
  std::string d = desired[0];
  std::string k = desired.size() > 1 && desired[1] != "default"
                      ? desired[1]
                      : defaultKernelLayout(d, kl, groups ? groups.getInt() : 1,
                                            transposed);
  if (!isPermutationOf(d, dl) || !isPermutationOf(k, kl) ||
      !isPermutationOf(ol, dl) || (d == dl && k == kl && ol == dl))
    return std::nullopt;
  LayoutDecision decision;
  decision.required = {{op->getOperand(0), {dl.str(), d}},
                       {op->getOperand(deformable ? 2 : 1), {kl.str(), k}}};
  if (deformable)
    decision.required.push_back({op->getOperand(1), {dl.str(), d}});
  decision.attrs = {namedStr(op, "data_layout", d),
                    namedStr(op, "kernel_layout", k),
                    namedStr(op, "out_layout", "")};
  decision.result = {ol.str(), d};
  return decision;
}

/// Pooling and resampling (`layout` attribute): the layout it is asked for,
/// else the one its input is in now.
std::optional<LayoutDecision> poolRule(Operation *op, const LayoutQuery &query,
                                       ArrayRef<std::string> desired) {
  StringRef layout = strAttr(op, "layout");
  LayoutState in = query.stateOf(op->getOperand(0));
  std::string target;
  if (!desired.empty())
    target = desired[0];
  else if (!in.isIdentity() && in.orig == layout)
    target = in.cur;
  if (target.empty() || target == layout || !isPermutationOf(target, layout) ||
      !strAttr(op, "out_layout").empty())
    return std::nullopt;
  LayoutDecision decision;
  decision.required = {{op->getOperand(0), {layout.str(), target}}};
  decision.attrs = {namedStr(op, "layout", target)};
  decision.result = {layout.str(), target};
  return decision;
}

/// bias_add and prelu: a per-channel vector along `axis` of their input.
std::optional<LayoutDecision>
axisVectorRule(Operation *op, const LayoutQuery &query, ArrayRef<std::string>) {
  Value x = op->getOperand(0);
  LayoutState s = query.stateOf(x);
  auto axis = getOperatorAttributes(op).getAs<IntegerAttr>("axis");
  int64_t rank = rankOf(x);
  if (s.isIdentity() || !axis || rank != int64_t(s.orig.size()))
    return std::nullopt;
  int64_t a = axis.getInt() < 0 ? axis.getInt() + rank : axis.getInt();
  if (a < 0 || a >= rank)
    return std::nullopt;
  LayoutDecision decision;
  decision.required = {{x, s}};
  Builder b(op->getContext());
  decision.attrs = {
      b.getNamedAttr("axis", b.getI64IntegerAttr(renamedAxis(s, a)))};
  decision.result = s;
  return decision;
}

/// Reductions over `axis`: the axes renamed; without keepdims the result's
/// layout is the input's without the reduced axes.
std::optional<LayoutDecision>
reduceRule(Operation *op, const LayoutQuery &query, ArrayRef<std::string>) {
  Value x = op->getOperand(0);
  LayoutState s = query.stateOf(x);
  DictionaryAttr attrs = getOperatorAttributes(op);
  auto axes = attrs.getAs<DenseI64ArrayAttr>("axis");
  auto exclude = attrs.getAs<BoolAttr>("exclude");
  int64_t rank = rankOf(x);
  if (s.isIdentity() || !axes || (exclude && exclude.getValue()) ||
      rank != int64_t(s.orig.size()))
    return std::nullopt;
  SmallVector<int64_t> renamed;
  std::string reduced;
  for (int64_t a : axes.asArrayRef()) {
    int64_t p = a < 0 ? a + rank : a;
    if (p < 0 || p >= rank)
      return std::nullopt;
    renamed.push_back(renamedAxis(s, p));
    reduced += s.orig[p];
  }
  llvm::sort(renamed);
  LayoutDecision decision;
  decision.required = {{x, s}};
  Builder b(op->getContext());
  decision.attrs = {b.getNamedAttr("axis", b.getDenseI64ArrayAttr(renamed))};
  auto keep = attrs.getAs<BoolAttr>("keepdims");
  if (keep && keep.getValue()) {
    decision.result = s;
  } else {
    auto drop = [&](const std::string &l) {
      std::string out;
      for (char c : l)
        if (reduced.find(c) == std::string::npos)
          out += c;
      return out;
    };
    decision.result = {drop(s.orig), drop(s.cur)};
  }
  return decision;
}

/// nn.pad: follows its input, the (before, after) pairs of pad_width in
/// the new order of the axes (the pad value is a scalar).
std::optional<LayoutDecision> padRule(Operation *op, const LayoutQuery &query,
                                      ArrayRef<std::string>) {
  Value x = op->getOperand(0);
  LayoutState s = query.stateOf(x);
  auto width = getOperatorAttributes(op).getAs<DenseI64ArrayAttr>("pad_width");
  int64_t rank = rankOf(x);
  if (s.isIdentity() || !width || rank != int64_t(s.orig.size()) ||
      width.size() != 2 * rank || rankOf(op->getOperand(1)) != 0)
    return std::nullopt;
  SmallVector<int64_t> renamed(2 * rank);
  for (int64_t a = 0; a < rank; ++a) {
    int64_t to = renamedAxis(s, a);
    renamed[2 * to] = width[2 * a];
    renamed[2 * to + 1] = width[2 * a + 1];
  }
  LayoutDecision decision;
  decision.required = {{x, s}};
  Builder b(op->getContext());
  decision.attrs = {
      b.getNamedAttr("pad_width", b.getDenseI64ArrayAttr(renamed))};
  decision.result = s;
  return decision;
}

/// take from a 1-d table without an axis (FakeQuantizationToInteger's
/// lookup tables): elementwise over the indices, so it follows them.
std::optional<LayoutDecision> takeRule(Operation *op, const LayoutQuery &query,
                                       ArrayRef<std::string>) {
  Value table = op->getOperand(0), indices = op->getOperand(1);
  LayoutState s = query.stateOf(indices);
  if (rankOf(table) != 1 || op->getAttr("axis") || s.isIdentity() ||
      rankOf(indices) != int64_t(s.orig.size()))
    return std::nullopt;
  LayoutDecision decision;
  decision.required = {{indices, s}};
  decision.result = s;
  return decision;
}

/// concatenate of a relay.tuple: every field in the layout of the first
/// changed one, the axis renamed.
std::optional<LayoutDecision> concatenateRule(Operation *op,
                                              const LayoutQuery &query,
                                              ArrayRef<std::string>) {
  ValueRange fields = query.tupleFields(op->getOperand(0));
  auto axis = getOperatorAttributes(op).getAs<IntegerAttr>("axis");
  int64_t rank = rankOf(op->getResult(0));
  if (fields.empty() || !axis)
    return std::nullopt;
  std::optional<LayoutState> s;
  for (Value field : fields) {
    if (rankOf(field) != rank)
      return std::nullopt;
    if (!s && !query.stateOf(field).isIdentity())
      s = query.stateOf(field);
  }
  int64_t a = axis.getInt() < 0 ? axis.getInt() + rank : axis.getInt();
  if (!s || rank != int64_t(s->orig.size()) || a < 0 || a >= rank)
    return std::nullopt;
  LayoutDecision decision;
  for (Value field : fields)
    decision.required.push_back({field, *s});
  Builder b(op->getContext());
  decision.attrs = {
      b.getNamedAttr("axis", b.getI64IntegerAttr(renamedAxis(*s, a)))};
  decision.result = *s;
  return decision;
}

/// Elementwise and broadcast operators without axes: every operand in the
/// layout of the first changed one of the result's rank (lower-rank
/// operands are broadcast to that rank first; scalars stay).
std::optional<LayoutDecision> followOperandsRule(Operation *op,
                                                 const LayoutQuery &query,
                                                 ArrayRef<std::string>) {
  if (op->getNumResults() != 1)
    return std::nullopt;
  int64_t rank = rankOf(op->getResult(0));
  std::optional<LayoutState> s = changedOperand(op, query, rank);
  if (!s || rank != int64_t(s->orig.size()))
    return std::nullopt;
  LayoutDecision decision;
  for (Value operand : op->getOperands()) {
    int64_t r = rankOf(operand);
    if (r < 0)
      return std::nullopt;
    if (r > 0)
      decision.required.push_back({operand, *s});
  }
  decision.result = *s;
  return decision;
}

/// Whether `op`'s attributes name axes or layouts (the operand-following
/// rule would then be wrong).
bool hasAxisAttributes(Operation *op) {
  return llvm::any_of(getOperatorAttributes(op), [](NamedAttribute a) {
    StringRef n = a.getName();
    return n.contains("axis") || n.contains("axes") || n.contains("layout");
  });
}

void registerBuiltinLayoutRules() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto set = [](StringRef name, InferLayoutFn fn) {
      (void)updateOperator(("relay." + name).str(), [&](OperatorInfo &info) {
        info.columns[kInferColumn] = fn;
      });
    };
    set("nn.conv2d",
        [](Operation *op, const LayoutQuery &, ArrayRef<std::string> desired) {
          return convolutionRule(op, desired, /*deformable=*/false);
        });
    set("nn.deformable_conv2d",
        [](Operation *op, const LayoutQuery &, ArrayRef<std::string> desired) {
          return convolutionRule(op, desired, /*deformable=*/true);
        });
    set("nn.conv2d_transpose",
        [](Operation *op, const LayoutQuery &, ArrayRef<std::string> desired) {
          return convolutionRule(op, desired, /*deformable=*/false,
                                 /*transposed=*/true);
        });
    for (StringRef pool : {"nn.max_pool2d", "nn.avg_pool2d",
                           "nn.global_max_pool2d", "nn.global_avg_pool2d",
                           "nn.adaptive_max_pool2d", "nn.adaptive_avg_pool2d",
                           // Resampling keeps each axis where it is.
                           "nn.upsampling", "image.resize1d", "image.resize2d",
                           "image.resize3d"})
      set(pool, poolRule);
    set("nn.bias_add", axisVectorRule);
    set("nn.prelu", axisVectorRule);
    for (StringRef reduce : {"sum", "mean", "max", "min", "prod"})
      set(reduce, reduceRule);
    set("concatenate", concatenateRule);
    set("nn.pad", padRule);
    set("take", takeRule);
  });
}

} // namespace

LogicalResult mlir::relay::layout::registerInferLayoutRule(StringRef opName,
                                                           InferLayoutFn rule) {
  registerBuiltinLayoutRules();
  return updateOperator(opName, [&](OperatorInfo &info) {
    info.columns[kInferColumn] = std::move(rule);
  });
}

LogicalResult mlir::relay::layout::registerAlterLayoutRule(StringRef opName,
                                                           StringRef target,
                                                           AlterLayoutFn rule) {
  return updateOperator(opName, [&](OperatorInfo &info) {
    info.columns[alterColumn(target)] = std::move(rule);
  });
}

const InferLayoutFn *mlir::relay::layout::lookupInferLayoutRule(Operation *op) {
  registerBuiltinLayoutRules();
  const OperatorInfo *info = lookupOperator(op->getName().getStringRef());
  if (!info)
    return nullptr;
  auto it = info->columns.find(kInferColumn);
  if (it != info->columns.end())
    return std::any_cast<InferLayoutFn>(&it->second);
  static const InferLayoutFn follow = followOperandsRule;
  if ((info->pattern == OpPatternKind::ElemWise ||
       info->pattern == OpPatternKind::Broadcast) &&
      !hasAxisAttributes(op))
    return &follow;
  return nullptr;
}

const AlterLayoutFn *
mlir::relay::layout::lookupAlterLayoutRule(Operation *op, StringRef target) {
  const OperatorInfo *info = lookupOperator(op->getName().getStringRef());
  if (!info)
    return nullptr;
  auto it = info->columns.find(alterColumn(target));
  return it == info->columns.end() ? nullptr
                                   : std::any_cast<AlterLayoutFn>(&it->second);
}

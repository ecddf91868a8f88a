//===- EinsumConverter.cpp - ONNX Einsum ------------------------*- C++ -*-===//
//
// Einsum as relay's transposes, reshapes, sums and batch_matmul: labels
// that one operand alone carries and nothing later needs are summed first;
// then the operands fold left to right, each pair as one batched product
// [batch, left, contracted] x [batch, contracted, right]; the result is
// transposed to the output's order. Ellipses name the broadcast dimensions
// (aligned at the right); a label repeated within one operand takes that
// operand's diagonal first (the two axes moved last, flattened, and every
// (size + 1)-th element taken).
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/Converters.h"
#include "frontends/ONNX/Emitter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

#include <cctype>
#include <map>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

namespace {

/// Dimension labels: letters, and ellipsis dimensions as 1000 + their
/// position counted from the right.
using Label = int;
using Labels = SmallVector<Label>;

/// An operand (or partial result): its value and one label per dimension.
struct Term {
  Value value;
  Labels labels;
};

/// Parses one side of the equation for an operand of rank `rank` (-1 for
/// the output, whose ellipsis takes `ellipsisRank` dimensions).
FailureOr<Labels> parseTerm(NodeContext &ctx, StringRef text, int64_t rank,
                            int64_t &ellipsisRank) {
  Labels labels;
  size_t dots = text.find("...");
  StringRef before = text.substr(0, dots);
  StringRef after = dots == StringRef::npos ? "" : text.substr(dots + 3);
  for (StringRef part : {before, after})
    for (char c : part)
      if (!std::isalpha(static_cast<unsigned char>(c)))
        return ctx.fail("malformed equation term '" + text + "'");
  int64_t letters = before.size() + after.size();
  int64_t ellipsis = 0;
  if (dots != StringRef::npos) {
    ellipsis = rank < 0 ? ellipsisRank : rank - letters;
    if (ellipsis < 0)
      return ctx.fail("term '" + text +
                      "' has more labels than its operand's rank");
    if (rank >= 0)
      ellipsisRank = std::max(ellipsisRank, ellipsis);
  } else if (rank >= 0 && letters != rank) {
    return ctx.fail("term '" + text + "' has " + Twine(letters) +
                    " labels for an operand of rank " + Twine(rank));
  }
  for (char c : before)
    labels.push_back(c);
  for (int64_t i = ellipsis - 1; i >= 0; --i)
    labels.push_back(1000 + i);
  for (char c : after)
    labels.push_back(c);
  return labels;
}

class EinsumBuilder {
public:
  EinsumBuilder(NodeContext &ctx) : ctx(ctx), b(ctx) {}

  ArrayRef<int64_t> shape(const Term &t) {
    return cast<RankedTensorType>(t.value.getType()).getShape();
  }

  /// `t` with each label it repeats read along the diagonal: one axis of
  /// that label, last; fails (reported) when the repeated axes' sizes
  /// differ.
  LogicalResult takeDiagonals(Term &t) {
    for (;;) {
      size_t first = 0, second = 0;
      for (size_t i = 0; i < t.labels.size() && !second; ++i)
        for (size_t j = i + 1; j < t.labels.size(); ++j)
          if (t.labels[i] == t.labels[j]) {
            first = i;
            second = j;
            break;
          }
      if (!second)
        return success();
      ArrayRef<int64_t> dims = shape(t);
      int64_t size = dims[first];
      if (dims[second] != size)
        return ctx.fail("label '" + describe(t.labels[first]) +
                        "' is repeated over dimensions of sizes " +
                        Twine(size) + " and " + Twine(dims[second]));
      SmallVector<int64_t> perm, newShape;
      Labels labels;
      for (size_t i = 0; i < t.labels.size(); ++i)
        if (i != first && i != second) {
          perm.push_back(i);
          newShape.push_back(dims[i]);
          labels.push_back(t.labels[i]);
        }
      perm.append({(int64_t)first, (int64_t)second});
      newShape.push_back(size * size);
      labels.push_back(t.labels[first]);
      Value moved = b.op<TransposeOp>({t.value}, {ctx.ints("axes", perm)});
      Value flat = b.op<ReshapeOp>({moved}, {ctx.ints("newshape", newShape)});
      SmallVector<int64_t> diagonal;
      for (int64_t k = 0; k < size; ++k)
        diagonal.push_back(k * (size + 1));
      Type i64 = IntegerType::get(ctx.getContext(), 64);
      Value at = ctx.constant(DenseElementsAttr::get(
          RankedTensorType::get({size}, i64), ArrayRef<int64_t>(diagonal)));
      t.value = b.op<TakeOp>({flat, at},
                             {ctx.i64("axis", (int64_t)newShape.size() - 1)});
      t.labels = labels;
      if (!b.succeeded())
        return failure();
    }
  }

  /// Sums the dimensions of `t` whose labels are not in `keep`.
  void sumAllBut(Term &t, const llvm::SmallSet<Label, 8> &keep) {
    SmallVector<int64_t> axes;
    Labels kept;
    for (auto [i, l] : llvm::enumerate(t.labels)) {
      if (keep.contains(l))
        kept.push_back(l);
      else
        axes.push_back(i);
    }
    if (axes.empty())
      return;
    t.value = b.op<SumOp>({t.value}, {ctx.ints("axis", axes)});
    t.labels = kept;
  }

  /// `t` transposed so that its labels read `order`.
  Value permuted(const Term &t, ArrayRef<Label> order) {
    SmallVector<int64_t> perm;
    for (Label l : order)
      perm.push_back(llvm::find(t.labels, l) - t.labels.begin());
    if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
      return t.value;
    return b.op<TransposeOp>({t.value}, {ctx.ints("axes", perm)});
  }

  /// The product of `a` and `b` over their shared labels not in `keep`.
  FailureOr<Term> contract(const Term &a, const Term &c,
                           const llvm::SmallSet<Label, 8> &keep) {
    Labels batch, left, right, summed;
    std::map<Label, int64_t> size;
    for (auto [l, d] : llvm::zip(a.labels, shape(a)))
      size[l] = d;
    for (auto [l, d] : llvm::zip(c.labels, shape(c))) {
      if (size.count(l) && size[l] != d)
        return ctx.fail("label '" + describe(l) + "' has sizes " +
                        Twine(size[l]) + " and " + Twine(d));
      size[l] = d;
    }
    for (Label l : a.labels) {
      bool shared = llvm::is_contained(c.labels, l);
      (shared ? (keep.contains(l) ? batch : summed) : left).push_back(l);
    }
    for (Label l : c.labels)
      if (!llvm::is_contained(a.labels, l))
        right.push_back(l);
    auto product = [&](ArrayRef<Label> ls) {
      int64_t p = 1;
      for (Label l : ls)
        p *= size[l];
      return p;
    };
    int64_t nb = product(batch), m = product(left), k = product(summed),
            n = product(right);
    Labels orderA(batch), orderC(batch);
    orderA.append(left.begin(), left.end());
    orderA.append(summed.begin(), summed.end());
    orderC.append(summed.begin(), summed.end());
    orderC.append(right.begin(), right.end());
    Value lhs = b.op<ReshapeOp>({permuted(a, orderA)},
                                {ctx.ints("newshape", {nb, m, k})});
    Value rhs = b.op<ReshapeOp>({permuted(c, orderC)},
                                {ctx.ints("newshape", {nb, k, n})});
    Value prod =
        b.op<BatchMatmulOp>({lhs, rhs}, {ctx.boolean("transpose_b", false)});
    Labels labels(batch);
    labels.append(left.begin(), left.end());
    labels.append(right.begin(), right.end());
    SmallVector<int64_t> dims;
    for (Label l : labels)
      dims.push_back(size[l]);
    return Term{b.op<ReshapeOp>({prod}, {ctx.ints("newshape", dims)}), labels};
  }

  static std::string describe(Label l) {
    return l >= 1000 ? "..." : std::string(1, char(l));
  }

  Emitter &emitter() { return b; }

private:
  NodeContext &ctx;
  Emitter b;
};

LogicalResult convertEinsum(NodeContext &ctx) {
  unsigned n = ctx.getNumInputs();
  if (n == 0)
    return ctx.fail("needs at least one input");
  if (failed(ctx.checkInputs(n, n)))
    return failure();
  if (!ctx.hasAttr("equation"))
    return ctx.fail("the equation attribute is required");
  std::string equation = ctx.attrString("equation", "");
  equation.erase(llvm::remove_if(equation, ::isspace), equation.end());
  StringRef eq(equation);
  auto [lhs, rhs] = eq.split("->");
  bool explicitOutput = eq.contains("->");
  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != n)
    return ctx.fail("the equation '" + equation + "' names " +
                    Twine(terms.size()) + " operands, the node has " +
                    Twine(n));
  int64_t ellipsisRank = 0;
  SmallVector<Term> operands;
  for (unsigned i = 0; i < n; ++i) {
    FailureOr<Labels> labels =
        parseTerm(ctx, terms[i], ctx.rank(i), ellipsisRank);
    if (failed(labels))
      return failure();
    operands.push_back({ctx.input(i), *labels});
  }
  // The output: given, or (implicit mode) the ellipsis then the labels
  // used once, in alphabetical order.
  Labels output;
  if (explicitOutput) {
    FailureOr<Labels> out = parseTerm(ctx, rhs, -1, ellipsisRank);
    if (failed(out))
      return failure();
    output = *out;
  } else {
    std::map<Label, int> count;
    for (const Term &t : operands)
      for (Label l : t.labels)
        ++count[l];
    for (int64_t i = ellipsisRank - 1; i >= 0; --i)
      output.push_back(1000 + i);
    for (auto [l, c] : count)
      if (l < 1000 && c == 1)
        output.push_back(l);
  }
  for (Label l : output)
    if (!llvm::any_of(operands, [&](const Term &t) {
          return llvm::is_contained(t.labels, l);
        }))
      return ctx.fail("output label '" + EinsumBuilder::describe(l) +
                      "' is not an input's");

  EinsumBuilder eb(ctx);
  // Repeated labels (counted above as used more than once) are diagonals.
  for (Term &t : operands)
    if (failed(eb.takeDiagonals(t)))
      return failure();
  // The labels needed after operand i: the output's and later operands'.
  auto neededAfter = [&](unsigned i) {
    llvm::SmallSet<Label, 8> keep(output.begin(), output.end());
    for (unsigned j = i + 1; j < n; ++j)
      keep.insert(operands[j].labels.begin(), operands[j].labels.end());
    return keep;
  };
  auto neededBy = [&](unsigned i, const Term &other) {
    llvm::SmallSet<Label, 8> keep = neededAfter(i);
    keep.insert(other.labels.begin(), other.labels.end());
    return keep;
  };
  Term acc = operands[0];
  eb.sumAllBut(acc, neededAfter(0));
  {
    for (unsigned i = 1; i < n; ++i) {
      Term next = operands[i];
      eb.sumAllBut(next, neededBy(i, acc));
      FailureOr<Term> r = eb.contract(acc, next, neededAfter(i));
      if (failed(r))
        return failure();
      acc = *r;
    }
  }
  if (!eb.emitter().succeeded())
    return failure();
  return eb.emitter().output(eb.permuted(acc, output));
}

} // namespace

void mlir::relay::onnx_import::addEinsumConverter(ConverterTable &t) {
  t["Einsum"] = convertEinsum;
}

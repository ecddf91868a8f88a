//===- EinsumRewrites.cpp - einsum as products and sums ---------*- C++ -*-===//
//
// einsum as transposes, reshapes, sums and batch_matmul: each operand is
// broadcast to its labels' sizes and reads its diagonals (a label repeated
// within it: the two axes moved last, flattened, every (size + 1)-th
// element taken); labels one operand alone carries and nothing later needs
// are summed first; then the operands fold left to right, each pair as one
// batched product [batch, left, contracted] x [batch, contracted, right];
// the result is transposed to the equation's order.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/EinsumEquation.h"
#include "transforms/Decompose/Rewrites.h"

#include "llvm/ADT/SmallSet.h"

#include <map>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

namespace {

using Labels = SmallVector<EinsumLabel>;
using LabelSet = llvm::SmallSet<EinsumLabel, 8>;

/// An operand (or partial product): its value and one label per dimension.
struct Term {
  Value value;
  Labels labels;
};

class EinsumBuilder {
public:
  EinsumBuilder(Emitter &b, std::map<EinsumLabel, int64_t> sizes)
      : b(b), sizes(std::move(sizes)) {}

  /// `t` broadcast where its dimension is 1 and its label's size is not.
  void broadcast(Term &t) {
    SmallVector<int64_t> shape;
    for (EinsumLabel l : t.labels)
      shape.push_back(sizes.at(l));
    if (ArrayRef<int64_t>(shape) != shapeOf(t.value))
      t.value = b.op<BroadcastToOp>({t.value}, {b.ints("shape", shape)});
  }

  /// `t` with each label it repeats read along the diagonal: one axis of
  /// that label, last.
  void takeDiagonals(Term &t) {
    for (;;) {
      size_t first = 0, second = 0;
      for (size_t i = 0; i < t.labels.size() && !second; ++i)
        for (size_t j = i + 1; j < t.labels.size(); ++j)
          if (t.labels[i] == t.labels[j]) {
            first = i;
            second = j;
            break;
          }
      if (!second || !t.value)
        return;
      int64_t size = sizes.at(t.labels[first]);
      SmallVector<int64_t> perm, shape;
      Labels labels;
      for (size_t i = 0; i < t.labels.size(); ++i)
        if (i != first && i != second) {
          perm.push_back(i);
          shape.push_back(sizes.at(t.labels[i]));
          labels.push_back(t.labels[i]);
        }
      perm.append({(int64_t)first, (int64_t)second});
      shape.push_back(size * size);
      labels.push_back(t.labels[first]);
      Value moved = b.op<TransposeOp>({t.value}, {b.ints("axes", perm)});
      SmallVector<int64_t> diagonal;
      for (int64_t k = 0; k < size; ++k)
        diagonal.push_back(k * (size + 1));
      Type i64 = b.getRewriter().getI64Type();
      Value at = b.constant(DenseElementsAttr::get(
          RankedTensorType::get({size}, i64), ArrayRef<int64_t>(diagonal)));
      t.value = b.op<TakeOp>({reshaped(moved, shape), at},
                             {b.i64("axis", (int64_t)shape.size() - 1)});
      t.labels = labels;
    }
  }

  /// Sums the dimensions of `t` whose labels are not in `keep`.
  void sumAllBut(Term &t, const LabelSet &keep) {
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
    t.value = b.op<SumOp>({t.value}, {b.ints("axis", axes)});
    t.labels = kept;
  }

  /// `t` transposed so that its labels read `order`.
  Value permuted(const Term &t, ArrayRef<EinsumLabel> order) {
    SmallVector<int64_t> perm;
    for (EinsumLabel l : order)
      perm.push_back(llvm::find(t.labels, l) - t.labels.begin());
    if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
      return t.value;
    return b.op<TransposeOp>({t.value}, {b.ints("axes", perm)});
  }

  /// The product of `a` and `c` over their shared labels not in `keep`
  /// (those in it are the batch).
  Term contract(const Term &a, const Term &c, const LabelSet &keep) {
    Labels batch, left, right, summed;
    for (EinsumLabel l : a.labels) {
      bool shared = llvm::is_contained(c.labels, l);
      (shared ? (keep.contains(l) ? batch : summed) : left).push_back(l);
    }
    for (EinsumLabel l : c.labels)
      if (!llvm::is_contained(a.labels, l))
        right.push_back(l);
    auto product = [&](ArrayRef<EinsumLabel> ls) {
      int64_t p = 1;
      for (EinsumLabel l : ls)
        p *= sizes.at(l);
      return p;
    };
    int64_t nb = product(batch), m = product(left), k = product(summed),
            n = product(right);
    Labels orderA(batch), orderC(batch), orderCT(batch);
    orderA.append(left.begin(), left.end());
    orderA.append(summed.begin(), summed.end());
    orderC.append(summed.begin(), summed.end());
    orderC.append(right.begin(), right.end());
    orderCT.append(right.begin(), right.end());
    orderCT.append(summed.begin(), summed.end());
    // The right operand as it lies when it reads [batch, right, summed]
    // (attention's "bkd"), the product then transposing it (TVM's NT).
    bool transposeB = c.labels == orderCT && c.labels != orderC;
    Value lhs = reshaped(permuted(a, orderA), {nb, m, k});
    Value rhs = transposeB ? reshaped(c.value, {nb, n, k})
                           : reshaped(permuted(c, orderC), {nb, k, n});
    Value prod =
        b.op<BatchMatmulOp>({lhs, rhs}, {b.boolean("transpose_b", transposeB)});
    Labels labels(batch);
    labels.append(left.begin(), left.end());
    labels.append(right.begin(), right.end());
    SmallVector<int64_t> dims;
    for (EinsumLabel l : labels)
      dims.push_back(sizes.at(l));
    return Term{reshaped(prod, dims), labels};
  }

  /// `v` reshaped to `shape` (itself when it has that shape).
  Value reshaped(Value v, ArrayRef<int64_t> shape) {
    if (v && shapeOf(v) == shape)
      return v;
    return b.reshape(v, shape);
  }

private:
  Emitter &b;
  std::map<EinsumLabel, int64_t> sizes;
};

Value einsum(Emitter &b, Operation *op) {
  auto types = cast<TupleType>(op->getOperand(0).getType()).getTypes();
  SmallVector<Value> values;
  SmallVector<int64_t> ranks;
  for (auto [i, type] : llvm::enumerate(types)) {
    values.push_back(b.tupleGet(op->getOperand(0), i));
    ranks.push_back(cast<RankedTensorType>(type).getRank());
  }
  std::string error;
  std::optional<EinsumEquation> eq = EinsumEquation::parse(
      cast<StringAttr>(op->getAttr("equation")).getValue(), ranks, error);
  if (!eq)
    return nullptr; // the relation reported it
  // Each label's size: its dimension other than 1 (the relation checked
  // that there is at most one), else 1.
  std::map<EinsumLabel, int64_t> sizes;
  SmallVector<Term> operands;
  for (auto [value, labels] : llvm::zip(values, eq->inputs)) {
    for (auto [l, d] : llvm::zip(labels, shapeOf(value))) {
      auto [it, fresh] = sizes.try_emplace(l, d);
      if (!fresh && it->second == 1)
        it->second = d;
    }
    operands.push_back({value, labels});
  }
  EinsumBuilder eb(b, sizes);
  for (Term &t : operands) {
    eb.broadcast(t);
    eb.takeDiagonals(t);
  }
  // The labels needed after operand i: the result's and later operands'.
  unsigned n = operands.size();
  auto neededAfter = [&](unsigned i) {
    LabelSet keep;
    keep.insert(eq->output.begin(), eq->output.end());
    for (unsigned j = i + 1; j < n; ++j)
      keep.insert(operands[j].labels.begin(), operands[j].labels.end());
    return keep;
  };
  Term acc = operands[0];
  eb.sumAllBut(acc, neededAfter(0));
  for (unsigned i = 1; i < n; ++i) {
    Term next = operands[i];
    LabelSet keep = neededAfter(i);
    LabelSet keepNext = keep;
    keepNext.insert(acc.labels.begin(), acc.labels.end());
    eb.sumAllBut(next, keepNext);
    acc = eb.contract(acc, next, keep);
  }
  return eb.permuted(acc, eq->output);
}

} // namespace

void mlir::relay::decompose::addEinsumRewrites(AddRewrite add) {
  add("einsum", einsum);
}

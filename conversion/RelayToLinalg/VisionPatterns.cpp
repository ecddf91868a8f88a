//===- VisionPatterns.cpp - vision.non_max_suppression to scf -------------===//
//
// TVM's classic non-maximum suppression is greedy: whether a box is kept
// depends on every box kept before it, so it is not a linalg.generic. It
// lowers to scf.for loops over each batch's rows threading the result
// tensors (updated in place by one-shot bufferization), as TVM's topi
// kernel: the first valid_count rows ordered by descending score (each
// row's rank counted, equal scores by position: a stable sort), the
// suppression, then the indices' or the rows' rearrangement. The
// interpreter's kernel (KernelsNN.cpp) computes the same in the same
// precision.
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "conversion/RelayToLinalg/OperatorPattern.h"
#include "conversion/RelayToLinalg/RelayToLinalg.h"

#include "conversion/RelayCommon/BoxedValues.h"
#include "dialects/relay/RelayOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <array>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

/// The scalar builders of the lowering, at one location.
struct NmsBuilder {
  OpBuilder &b;
  Location loc;
  Type element;

  Value idx(int64_t v) { return index(b, loc, v); }
  Value f(double v) { return constantScalar(b, loc, element, v); }
  Value at(Value t, ArrayRef<Value> indices) {
    return tensor::ExtractOp::create(b, loc, t, indices);
  }
  Value cmpf(arith::CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value cmpi(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value both(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value either(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value min(Value x, Value y) { return arith::MinNumFOp::create(b, loc, x, y); }
  Value max(Value x, Value y) { return arith::MaxNumFOp::create(b, loc, x, y); }
  Value add1(Value i) {
    return arith::AddIOp::create(b, loc, i, idx(1)).getResult();
  }

  /// scf.for from `lb` to `ub` threading `inits`; `body` yields the next
  /// values from the induction variable and the current ones.
  ValueRange loop(Value lb, Value ub, ValueRange inits,
                  function_ref<SmallVector<Value>(Value, ValueRange)> body) {
    auto op = scf::ForOp::create(b, loc, lb, ub, idx(1), inits);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(op.getBody());
    scf::YieldOp::create(b, loc,
                         body(op.getInductionVar(), op.getRegionIterArgs()));
    return op.getResults();
  }

  /// scf.if yielding `then()` or `otherwise()` (the same types).
  ValueRange choose(Value cond, function_ref<SmallVector<Value>()> then,
                    function_ref<SmallVector<Value>()> otherwise) {
    auto op = scf::IfOp::create(
        b, loc, cond,
        [&](OpBuilder &, Location) { scf::YieldOp::create(b, loc, then()); },
        [&](OpBuilder &, Location) {
          scf::YieldOp::create(b, loc, otherwise());
        });
    return op.getResults();
  }

  /// The corners (left, top, right, bottom) of row `j` of batch `i` of
  /// `t`, its coordinates from element `coords` on (either diagonal).
  std::array<Value, 4> corners(Value t, Value i, Value j, int64_t coords) {
    Value c[4];
    for (int64_t e = 0; e < 4; ++e)
      c[e] = at(t, {i, j, idx(coords + e)});
    return {min(c[0], c[2]), min(c[1], c[3]), max(c[0], c[2]), max(c[1], c[3])};
  }

  /// The intersection over union of boxes `a` and `c` (0 where the union
  /// is not positive), as TVM's kernel computes it.
  Value iou(const std::array<Value, 4> &a, const std::array<Value, 4> &c) {
    Value w = max(f(0), sub(min(a[2], c[2]), max(a[0], c[0])));
    Value h = max(f(0), sub(min(a[3], c[3]), max(a[1], c[1])));
    Value area = mul(h, w);
    Value areaA = mul(sub(a[2], a[0]), sub(a[3], a[1]));
    Value areaC = mul(sub(c[2], c[0]), sub(c[3], c[1]));
    Value u = sub(arith::AddFOp::create(b, loc, areaA, areaC), area);
    return arith::SelectOp::create(
        b, loc, cmpf(arith::CmpFPredicate::OLE, u, f(0)), f(0),
        arith::DivFOp::create(b, loc, area, u));
  }

  /// Row `j` of batch `i` of a [B, N, K] tensor.
  Value row(Value t, Value i, Value j, int64_t k) {
    return sliceAt(b, loc, t, {i, j, b.getIndexAttr(0)}, {1, 1, k});
  }
  Value setRow(Value t, Value i, Value j, Value r) {
    int64_t k = cast<RankedTensorType>(r.getType()).getDimSize(2);
    return insertAt(b, loc, r, t, {i, j, b.getIndexAttr(0)}, {1, 1, k});
  }
};

FailureOr<SmallVector<Value>> nonMaxSuppressionRule(OpBuilder &b, Operation *op,
                                                    ValueRange operands) {
  Value data = operands[0], validCount = operands[1], indices = operands[2];
  auto dataType = cast<RankedTensorType>(data.getType());
  Type e = dataType.getElementType();
  auto signless = [](Value v) {
    auto t = dyn_cast<IntegerType>(
        cast<RankedTensorType>(v.getType()).getElementType());
    return t && t.isSignless();
  };
  if (!dataType.hasStaticShape() || !isa<FloatType>(e) ||
      !signless(validCount) || !signless(indices) || !signless(operands[3]))
    return failure();
  int64_t batches = dataType.getDimSize(0), n = dataType.getDimSize(1),
          k = dataType.getDimSize(2);
  auto flag = [&](StringRef name) {
    auto value =
        dyn_cast_or_null<BoolAttr>(getOperatorAttributes(op).get(name));
    return value && value.getValue();
  };
  bool force = flag("force_suppress");
  int64_t topK = intAttr(op, "top_k", -1),
          coords = intAttr(op, "coord_start", 2),
          scoreAt = intAttr(op, "score_index", 1),
          idAt = intAttr(op, "id_index", 0);
  bool returnIndices = flag("return_indices");
  bool toBottom = flag("invalid_to_bottom");
  auto module = op->getParentOfType<ModuleOp>();
  Location loc = op->getLoc();
  NmsBuilder nb{b, loc, e};
  Type i64 = b.getI64Type();
  Value zeroIdx = nb.idx(0), nIdx = nb.idx(n);
  auto asIndex = [&](Value v) -> Value {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  };
  auto asI64 = [&](Value v) -> Value {
    return v.getType() == i64 ? v : arith::ExtSIOp::create(b, loc, i64, v);
  };
  Value maxOut = asI64(nb.at(operands[3], {}));
  Value threshold = convertScalar(b, loc, nb.at(operands[4], {}), e,
                                  /*fromUnsigned=*/false, /*toUnsigned=*/false);
  Value minusOneI64 = arith::ConstantIntOp::create(b, loc, i64, -1);
  Value oneI64 = arith::ConstantIntOp::create(b, loc, i64, 1);
  Value noRow = filledTensor(b, loc, {1, 1, k}, nb.f(-1));
  Value rows = filledTensor(b, loc, {batches, n, k}, nb.f(-1));
  Value boxIndex = filledTensor(b, loc, {batches, n}, minusOneI64);
  std::string message = describeLocation(loc) +
                        "\tvision.non_max_suppression: a valid_count is "
                        "not a number of the " +
                        std::to_string(n) + " boxes";

  // The first `count` rows of batch `i` in descending order of score: each
  // row's rank is the number of rows before it scoring more, or as much at
  // a lower position (a stable sort).
  auto descendingOrder = [&](Value i, Value count) -> Value {
    auto score = [&](Value j) { return nb.at(data, {i, j, nb.idx(scoreAt)}); };
    Value order =
        filledTensor(b, loc, {n}, arith::ConstantIntOp::create(b, loc, i64, 0));
    return nb.loop(
        zeroIdx, count, {order},
        [&](Value j, ValueRange o) -> SmallVector<Value> {
          Value sj = score(j);
          Value rank =
              nb.loop(zeroIdx, count, {zeroIdx},
                      [&](Value m, ValueRange r) -> SmallVector<Value> {
                        Value sm = score(m);
                        Value before = nb.either(
                            nb.cmpf(arith::CmpFPredicate::OGT, sm, sj),
                            nb.both(nb.cmpf(arith::CmpFPredicate::OEQ, sm, sj),
                                    nb.cmpi(arith::CmpIPredicate::ult, m, j)));
                        return {arith::SelectOp::create(b, loc, before,
                                                        nb.add1(r[0]), r[0])};
                      })[0];
          // Ranks of NaN scores collide: clamped.
          rank = arith::MinUIOp::create(b, loc, rank, nb.idx(n - 1));
          return {tensor::InsertOp::create(
              b, loc, arith::IndexCastOp::create(b, loc, i64, j), o[0],
              ValueRange{rank})};
        })[0];
  };

  // Whether row `j` of batch `i` of `rows` survives the rows before it:
  // none of those still scoring above 0 (of its class unless
  // force_suppress) overlaps it by an IoU of at least the threshold.
  auto survives = [&](Value rows, Value i, Value j) -> Value {
    std::array<Value, 4> a = nb.corners(rows, i, j, coords);
    Value trueValue = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
    return nb.loop(
        zeroIdx, j, {trueValue},
        [&](Value m, ValueRange v) -> SmallVector<Value> {
          Value considered =
              nb.cmpf(arith::CmpFPredicate::OGT,
                      nb.at(rows, {i, m, nb.idx(scoreAt)}), nb.f(0));
          if (idAt >= 0) {
            Value idM = nb.at(rows, {i, m, nb.idx(idAt)});
            considered = nb.both(
                considered, nb.cmpf(arith::CmpFPredicate::OGE, idM, nb.f(0)));
            if (!force)
              considered = nb.both(
                  considered, nb.cmpf(arith::CmpFPredicate::OEQ,
                                      nb.at(rows, {i, j, nb.idx(idAt)}), idM));
          }
          Value overlap = nb.iou(a, nb.corners(rows, i, m, coords));
          Value suppresses =
              nb.both(considered,
                      nb.cmpf(arith::CmpFPredicate::OGE, overlap, threshold));
          return {nb.both(
              v[0], arith::XOrIOp::create(b, loc, suppresses, trueValue))};
        })[0];
  };

  ValueRange batch = nb.loop(
      zeroIdx, nb.idx(batches), {rows, boxIndex},
      [&](Value i, ValueRange acc) -> SmallVector<Value> {
        Value out = acc[0], box = acc[1];
        Value raw = asI64(nb.at(validCount, {i}));
        Value bad =
            nb.either(nb.cmpi(arith::CmpIPredicate::slt, raw,
                              arith::ConstantIntOp::create(b, loc, i64, 0)),
                      nb.cmpi(arith::CmpIPredicate::sgt, raw,
                              arith::ConstantIntOp::create(b, loc, i64, n)));
        auto check = scf::IfOp::create(b, loc, bad, /*withElse=*/false);
        {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(check.thenBlock());
          RuntimeCalls(module).fail(b, loc, message);
        }
        Value count = asIndex(raw);
        Value positive = nb.cmpf(arith::CmpFPredicate::OGT, threshold, nb.f(0));
        ValueRange done = nb.choose(
            positive,
            [&]() -> SmallVector<Value> {
              Value order = descendingOrder(i, count);
              Value keep = count;
              if (topK > 0)
                keep = arith::MinUIOp::create(b, loc, count, nb.idx(topK));
              ValueRange sorted = nb.loop(
                  zeroIdx, keep, {out, box},
                  [&](Value j, ValueRange t) -> SmallVector<Value> {
                    Value from = nb.at(order, {j});
                    return {nb.setRow(t[0], i, j,
                                      nb.row(data, i, asIndex(from), k)),
                            tensor::InsertOp::create(b, loc, from, t[1],
                                                     ValueRange{i, j})};
                  });
              // The suppression, row by row, counting the kept rows.
              ValueRange kept = nb.loop(
                  zeroIdx, count,
                  {sorted[0], sorted[1],
                   arith::ConstantIntOp::create(b, loc, i64, 0)},
                  [&](Value j, ValueRange t) -> SmallVector<Value> {
                    Value full =
                        nb.cmpi(arith::CmpIPredicate::eq, t[2], maxOut);
                    auto drop = [&]() -> SmallVector<Value> {
                      return {nb.setRow(t[0], i, j, noRow),
                              tensor::InsertOp::create(b, loc, minusOneI64,
                                                       t[1], ValueRange{i, j}),
                              t[2]};
                    };
                    auto same = [&]() -> SmallVector<Value> {
                      return {t[0], t[1], t[2]};
                    };
                    return nb.choose(full, drop, [&]() -> SmallVector<Value> {
                      Value live = nb.cmpf(arith::CmpFPredicate::OGT,
                                           nb.at(t[0], {i, j, nb.idx(scoreAt)}),
                                           nb.f(0));
                      return nb.choose(
                          live,
                          [&]() -> SmallVector<Value> {
                            Value valid = survives(t[0], i, j);
                            return nb.choose(
                                valid,
                                [&]() -> SmallVector<Value> {
                                  return {t[0], t[1],
                                          arith::AddIOp::create(b, loc, t[2],
                                                                oneI64)
                                              .getResult()};
                                },
                                drop);
                          },
                          same);
                    });
                  });
              return {kept[0], kept[1]};
            },
            [&]() -> SmallVector<Value> {
              // No threshold: the rows as they are.
              ValueRange copied = nb.loop(
                  zeroIdx, count, {out, box},
                  [&](Value j, ValueRange t) -> SmallVector<Value> {
                    return {nb.setRow(t[0], i, j, nb.row(data, i, j, k)),
                            tensor::InsertOp::create(
                                b, loc,
                                arith::IndexCastOp::create(b, loc, i64, j),
                                t[1], ValueRange{i, j})};
                  });
              return {copied[0], copied[1]};
            });
        Value boxDone = done[1];
        if (returnIndices)
          // The kept rows' original positions, through `indices`.
          boxDone = nb.loop(
              zeroIdx, count, {boxDone},
              [&](Value j, ValueRange t) -> SmallVector<Value> {
                Value from = nb.at(t[0], {i, j});
                Value kept =
                    nb.cmpi(arith::CmpIPredicate::sge, from,
                            arith::ConstantIntOp::create(b, loc, i64, 0));
                Value safe = asIndex(arith::SelectOp::create(
                    b, loc, kept, from,
                    arith::ConstantIntOp::create(b, loc, i64, 0)));
                Value original = asI64(nb.at(indices, {i, safe}));
                return {tensor::InsertOp::create(
                    b, loc,
                    arith::SelectOp::create(b, loc, kept, original, from), t[0],
                    ValueRange{i, j})};
              })[0];
        return {done[0], boxDone};
      });

  Location l = loc;
  if (returnIndices) {
    // The kept rows' indices at the front, -1 after them, and their count.
    Type i32 = b.getI32Type();
    Value front = filledTensor(b, l, {batches, n},
                               arith::ConstantIntOp::create(b, l, i32, -1));
    Value counts = filledTensor(b, l, {batches, 1},
                                arith::ConstantIntOp::create(b, l, i32, 0));
    ValueRange result = nb.loop(
        zeroIdx, nb.idx(batches), {front, counts},
        [&](Value i, ValueRange acc) -> SmallVector<Value> {
          ValueRange packed = nb.loop(
              zeroIdx, nIdx, {acc[0], zeroIdx},
              [&](Value j, ValueRange t) -> SmallVector<Value> {
                Value from = nb.at(batch[1], {i, j});
                Value kept =
                    nb.cmpi(arith::CmpIPredicate::sge, from,
                            arith::ConstantIntOp::create(b, l, i64, 0));
                return nb.choose(
                    kept,
                    [&]() -> SmallVector<Value> {
                      Value narrow = arith::TruncIOp::create(b, l, i32, from);
                      return {tensor::InsertOp::create(b, l, narrow, t[0],
                                                       ValueRange{i, t[1]}),
                              nb.add1(t[1])};
                    },
                    [&]() -> SmallVector<Value> {
                      return {t[0], t[1]};
                    });
              });
          Value total = arith::IndexCastOp::create(b, l, i32, packed[1]);
          return {packed[0], tensor::InsertOp::create(b, l, total, acc[1],
                                                      ValueRange{i, zeroIdx})};
        });
    return SmallVector<Value>{result[0], result[1]};
  }
  if (!toBottom)
    return SmallVector<Value>{batch[0]};
  // Rows whose first element is not negative moved to the front.
  Value moved = filledTensor(b, l, {batches, n, k}, nb.f(-1));
  moved = nb.loop(
      zeroIdx, nb.idx(batches), {moved},
      [&](Value i, ValueRange acc) -> SmallVector<Value> {
        return {nb.loop(
            zeroIdx, nIdx, {acc[0], zeroIdx},
            [&](Value j, ValueRange t) -> SmallVector<Value> {
              Value first = nb.at(batch[0], {i, j, zeroIdx});
              Value live = nb.cmpf(arith::CmpFPredicate::OGE, first, nb.f(0));
              return nb.choose(
                  live,
                  [&]() -> SmallVector<Value> {
                    return {nb.setRow(t[0], i, t[1], nb.row(batch[0], i, j, k)),
                            nb.add1(t[1])};
                  },
                  [&]() -> SmallVector<Value> {
                    return {t[0], t[1]};
                  });
            })[0]};
      })[0];
  return SmallVector<Value>{moved};
}

} // namespace

void mlir::relay::populateRelayVisionToSCFPatterns(
    RelayTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<RuleLowering<NonMaxSuppressionOp, nonMaxSuppressionRule>>(
      converter, patterns.getContext());
}

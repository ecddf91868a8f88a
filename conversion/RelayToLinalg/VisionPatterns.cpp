//===- VisionPatterns.cpp - NMS and region proposals to scf ---------------===//
//
// TVM's classic non-maximum suppression is greedy: whether a box is kept
// depends on every box kept before it, so it is not a linalg.generic. It
// lowers to scf.for loops over each batch's rows threading the result
// tensors (updated in place by one-shot bufferization), as TVM's topi
// kernel: the first valid_count rows ordered by descending score (each
// row's rank counted, equal scores by position: a stable sort), the
// suppression, then the indices' or the rows' rearrangement. The
// interpreter's kernel (KernelsNN.cpp) computes the same in the same
// precision. vision.proposal (Faster R-CNN's region proposals) suppresses
// the same way after regressing its anchors and merge-sorting them
// (thousands of boxes: a rank count would be quadratic); its interpreter
// kernel is in KernelsDetection.cpp.
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "conversion/RelayToLinalg/OperatorPattern.h"
#include "conversion/RelayToLinalg/RelayToLinalg.h"

#include "conversion/RelayCommon/BoxedValues.h"
#include "dialects/relay/ProposalAnchors.h"
#include "dialects/relay/RelayOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <array>
#include <limits>

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

/// vision.proposal as the interpreter's kernel (KernelsDetection.cpp)
/// computes it, in the same arithmetic (f64 for f64, else f32): per image,
/// the regressed boxes, a stable bottom-up merge sort of their indices by
/// descending score, the greedy suppression of the best, and the
/// survivors cycled into the image's rows.
FailureOr<SmallVector<Value>> proposalRule(OpBuilder &b, Operation *op,
                                           ValueRange operands) {
  Value prob = operands[0], deltas = operands[1], info = operands[2];
  auto probType = cast<RankedTensorType>(prob.getType());
  RankedTensorType outType = resultType(op);
  Type e = probType.getElementType();
  if (!probType.hasStaticShape() || !outType.hasStaticShape() ||
      !isa<FloatType>(e))
    return failure();
  Type c = e.isF64() ? e : b.getF32Type();
  int64_t batches = probType.getDimSize(0), height = probType.getDimSize(2),
          width = probType.getDimSize(3);
  DictionaryAttr attrs = getOperatorAttributes(op);
  auto floats = [&](StringRef name, ArrayRef<double> dflt) {
    auto a = dyn_cast_or_null<DenseF64ArrayAttr>(attrs.get(name));
    return a ? SmallVector<double>(a.asArrayRef()) : SmallVector<double>(dflt);
  };
  SmallVector<double> scales = floats("scales", {4, 8, 16, 32});
  SmallVector<double> ratios = floats("ratios", {0.5, 1, 2});
  int64_t anchors = int64_t(scales.size() * ratios.size());
  int64_t stride = intAttr(op, "feature_stride", 16);
  int64_t preTop = intAttr(op, "rpn_pre_nms_top_n", 6000);
  int64_t postTop = intAttr(op, "rpn_post_nms_top_n", 300);
  int64_t minSizeAttr = intAttr(op, "rpn_min_size", 16);
  auto iouLossAttr = dyn_cast_or_null<BoolAttr>(attrs.get("iou_loss"));
  bool iouLoss = iouLossAttr && iouLossAttr.getValue();
  int64_t boxes = height * width * anchors;
  int64_t sorted = preTop > 0 ? std::min(preTop, boxes) : boxes;
  if (anchors == 0 || stride <= 0 || outType.getDimSize(0) != batches * postTop)
    return failure();
  Location loc = op->getLoc();
  NmsBuilder nb{b, loc, c};
  Value out =
      filledTensor(b, loc, outType.getShape(), constantScalar(b, loc, e, -1));
  if (boxes == 0)
    return SmallVector<Value>{out};

  Type i64 = b.getI64Type();
  Value zeroIdx = nb.idx(0), oneIdx = nb.idx(1);
  auto ext = [&](Value v) -> Value {
    return v.getType() == c ? v : arith::ExtFOp::create(b, loc, c, v);
  };
  auto toOut = [&](Value v) -> Value {
    return v.getType() == e ? v : arith::TruncFOp::create(b, loc, e, v);
  };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddFOp::create(b, loc, x, y);
  };
  auto div = [&](Value x, Value y) -> Value {
    return arith::DivFOp::create(b, loc, x, y);
  };
  auto sel = [&](Value cond, Value x, Value y) -> Value {
    return arith::SelectOp::create(b, loc, cond, x, y);
  };
  // std::min and std::max, NaN included, as the kernel computes them.
  auto smin = [&](Value x, Value y) {
    return sel(nb.cmpf(arith::CmpFPredicate::OLT, y, x), y, x);
  };
  auto smax = [&](Value x, Value y) {
    return sel(nb.cmpf(arith::CmpFPredicate::OLT, x, y), y, x);
  };
  auto toFloat = [&](Value index) -> Value {
    return arith::SIToFPOp::create(
        b, loc, c, arith::IndexCastOp::create(b, loc, i64, index));
  };
  auto asIndex = [&](Value v) -> Value {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  };
  auto muli = [&](Value x, int64_t y) -> Value {
    return arith::MulIOp::create(b, loc, x, nb.idx(y));
  };
  auto addi = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, loc, x, y);
  };

  auto anchorType = RankedTensorType::get({anchors, 4}, c);
  SmallVector<Attribute> anchorValues;
  for (const std::array<double, 4> &corners :
       proposalAnchors(scales, ratios, static_cast<double>(stride)))
    for (double v : corners)
      anchorValues.push_back(FloatAttr::get(c, v));
  Value anchorTable = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(anchorType, anchorValues));
  Value one = nb.f(1), half = nb.f(0.5), strideF = nb.f(double(stride));
  Value minusOne = nb.f(-1);

  auto perImage = [&](Value image, Value result) -> Value {
    Value imHeight = ext(nb.at(info, {image, zeroIdx}));
    Value imWidth = ext(nb.at(info, {image, oneIdx}));
    Value minSize =
        nb.mul(ext(nb.at(info, {image, nb.idx(2)})), nb.f(double(minSizeAttr)));
    // Cells past the image (the feature map's padding) score -1.
    Value realHeight = math::TruncOp::create(b, loc, div(imHeight, strideF));
    Value realWidth = math::TruncOp::create(b, loc, div(imWidth, strideF));
    Value maxX = nb.sub(imWidth, one), maxY = nb.sub(imHeight, one);
    auto clip = [&](Value v, Value hi) { return smax(smin(v, hi), nb.f(0)); };

    // The regressed boxes: x1, y1, x2, y2, score.
    Value rows = filledTensor(b, loc, {boxes, 5}, nb.f(0));
    rows = nb.loop(
        zeroIdx, nb.idx(boxes), {rows},
        [&](Value j, ValueRange t) -> SmallVector<Value> {
          Value k = arith::RemUIOp::create(b, loc, j, nb.idx(anchors));
          Value cell = arith::DivUIOp::create(b, loc, j, nb.idx(anchors));
          Value w = arith::RemUIOp::create(b, loc, cell, nb.idx(width));
          Value h = arith::DivUIOp::create(b, loc, cell, nb.idx(width));
          Value xOff = toFloat(muli(w, stride)),
                yOff = toFloat(muli(h, stride));
          auto anchor = [&](int64_t i) {
            return nb.at(anchorTable, {k, nb.idx(i)});
          };
          Value x1 = add(anchor(0), xOff), y1 = add(anchor(1), yOff);
          Value x2 = add(anchor(2), xOff), y2 = add(anchor(3), yOff);
          Value d[4];
          for (int64_t i = 0; i < 4; ++i)
            d[i] =
                ext(nb.at(deltas, {image, addi(muli(k, 4), nb.idx(i)), h, w}));
          Value p[4];
          if (iouLoss) {
            p[0] = add(x1, d[0]);
            p[1] = add(y1, d[1]);
            p[2] = add(x2, d[2]);
            p[3] = add(y2, d[3]);
          } else {
            Value bw = add(nb.sub(x2, x1), one), bh = add(nb.sub(y2, y1), one);
            Value cx = add(x1, nb.mul(half, nb.sub(bw, one)));
            Value cy = add(y1, nb.mul(half, nb.sub(bh, one)));
            Value pcx = add(nb.mul(d[0], bw), cx);
            Value pcy = add(nb.mul(d[1], bh), cy);
            Value pw = nb.mul(math::ExpOp::create(b, loc, d[2]), bw);
            Value ph = nb.mul(math::ExpOp::create(b, loc, d[3]), bh);
            p[0] = nb.sub(pcx, nb.mul(half, nb.sub(pw, one)));
            p[1] = nb.sub(pcy, nb.mul(half, nb.sub(ph, one)));
            p[2] = add(pcx, nb.mul(half, nb.sub(pw, one)));
            p[3] = add(pcy, nb.mul(half, nb.sub(ph, one)));
          }
          p[0] = clip(p[0], maxX);
          p[1] = clip(p[1], maxY);
          p[2] = clip(p[2], maxX);
          p[3] = clip(p[3], maxY);
          Value score =
              ext(nb.at(prob, {image, addi(k, nb.idx(anchors)), h, w}));
          Value outside = nb.either(
              nb.cmpf(arith::CmpFPredicate::OGE, toFloat(h), realHeight),
              nb.cmpf(arith::CmpFPredicate::OGE, toFloat(w), realWidth));
          score = sel(outside, minusOne, score);
          // Boxes smaller than the minimum grow by it and score -1.
          Value small =
              nb.either(nb.cmpf(arith::CmpFPredicate::OLT,
                                add(nb.sub(p[2], p[0]), one), minSize),
                        nb.cmpf(arith::CmpFPredicate::OLT,
                                add(nb.sub(p[3], p[1]), one), minSize));
          Value grow = div(minSize, nb.f(2));
          Value values[5] = {sel(small, nb.sub(p[0], grow), p[0]),
                             sel(small, nb.sub(p[1], grow), p[1]),
                             sel(small, add(p[2], grow), p[2]),
                             sel(small, add(p[3], grow), p[3]),
                             sel(small, minusOne, score)};
          Value r = t[0];
          for (int64_t i = 0; i < 5; ++i)
            r = tensor::InsertOp::create(b, loc, values[i], r,
                                         ValueRange{j, nb.idx(i)});
          return {r};
        })[0];

    // The boxes' indices by descending score, equal ones in box order (a
    // NaN score as the lowest): a bottom-up merge sort, runs of 1, 2, 4,
    // ... merged from one buffer into the other.
    auto key = [&](Value box) -> Value {
      Value s = nb.at(rows, {asIndex(box), nb.idx(4)});
      Value nan = nb.cmpf(arith::CmpFPredicate::UNO, s, s);
      return sel(nan, nb.f(-std::numeric_limits<double>::infinity()), s);
    };
    Value order = filledTensor(b, loc, {boxes},
                               arith::ConstantIntOp::create(b, loc, i64, 0));
    order = nb.loop(zeroIdx, nb.idx(boxes), {order},
                    [&](Value j, ValueRange t) -> SmallVector<Value> {
                      return {tensor::InsertOp::create(
                          b, loc, arith::IndexCastOp::create(b, loc, i64, j),
                          t[0], ValueRange{j})};
                    })[0];
    int64_t levels = 0;
    while ((int64_t(1) << levels) < boxes)
      ++levels;
    Value last = nb.idx(boxes - 1), boxCount = nb.idx(boxes);
    ValueRange passes = nb.loop(
        zeroIdx, nb.idx(levels), {order, order},
        [&](Value level, ValueRange t) -> SmallVector<Value> {
          Value run = arith::ShLIOp::create(b, loc, oneIdx, level);
          Value pair = arith::ShLIOp::create(b, loc, run, oneIdx);
          auto pairs = scf::ForOp::create(b, loc, zeroIdx, boxCount, pair,
                                          ValueRange{t[1]});
          {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPointToStart(pairs.getBody());
            Value lo = pairs.getInductionVar();
            Value mid = arith::MinUIOp::create(b, loc, addi(lo, run), boxCount);
            Value hi = arith::MinUIOp::create(b, loc, addi(lo, pair), boxCount);
            ValueRange merged = nb.loop(
                lo, hi, {pairs.getRegionIterArgs()[0], lo, mid},
                [&](Value p, ValueRange m) -> SmallVector<Value> {
                  Value i = m[1], j = m[2];
                  // Reads clamped into range; the select masks them.
                  Value left =
                      nb.at(t[0], {arith::MinUIOp::create(b, loc, i, last)});
                  Value right =
                      nb.at(t[0], {arith::MinUIOp::create(b, loc, j, last)});
                  Value takeRight = nb.both(
                      nb.cmpi(arith::CmpIPredicate::ult, j, hi),
                      nb.either(nb.cmpi(arith::CmpIPredicate::uge, i, mid),
                                nb.cmpf(arith::CmpFPredicate::OGT, key(right),
                                        key(left))));
                  Value next = tensor::InsertOp::create(
                      b, loc, sel(takeRight, right, left), m[0], ValueRange{p});
                  return {next, sel(takeRight, i, nb.add1(i)),
                          sel(takeRight, nb.add1(j), j)};
                });
            scf::YieldOp::create(b, loc, merged[0]);
          }
          return {pairs.getResult(0), t[0]};
        });
    // (With no level, both hold the identity order.)
    order = passes[0];

    // Greedy suppression of the `sorted` best: IoU over pixel-inclusive
    // boxes (+1), strictly above the threshold.
    Value threshold = nb.f(floatAttr(op, "threshold", 0.7));
    Value falseValue = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
    Value removed = filledTensor(b, loc, {sorted}, falseValue);
    auto box = [&](Value position) {
      Value index = asIndex(nb.at(order, {position}));
      std::array<Value, 4> r;
      for (int64_t i = 0; i < 4; ++i)
        r[i] = nb.at(rows, {index, nb.idx(i)});
      return r;
    };
    auto area = [&](const std::array<Value, 4> &r) {
      return nb.mul(add(nb.sub(r[2], r[0]), one), add(nb.sub(r[3], r[1]), one));
    };
    removed = nb.loop(
        zeroIdx, nb.idx(std::max<int64_t>(sorted - 1, 0)), {removed},
        [&](Value l, ValueRange t) -> SmallVector<Value> {
          Value gone = nb.at(t[0], {l});
          return nb.choose(
              gone, [&]() -> SmallVector<Value> { return {t[0]}; },
              [&]() -> SmallVector<Value> {
                std::array<Value, 4> p = box(l);
                Value areaP = area(p);
                return nb.loop(
                    nb.add1(l), nb.idx(sorted), {t[0]},
                    [&](Value i, ValueRange u) -> SmallVector<Value> {
                      std::array<Value, 4> q = box(i);
                      Value iw = smax(
                          nb.f(0),
                          add(nb.sub(smin(p[2], q[2]), smax(p[0], q[0])), one));
                      Value ih = smax(
                          nb.f(0),
                          add(nb.sub(smin(p[3], q[3]), smax(p[1], q[1])), one));
                      Value inter = nb.mul(iw, ih);
                      Value iou =
                          div(inter, nb.sub(add(areaP, area(q)), inter));
                      Value drop = nb.either(
                          nb.at(u[0], {i}),
                          nb.cmpf(arith::CmpFPredicate::OGT, iou, threshold));
                      return {tensor::InsertOp::create(b, loc, drop, u[0],
                                                       ValueRange{i})};
                    });
              });
        })[0];

    // The survivors in order, cycled until the image's rows are full.
    Value kept = filledTensor(b, loc, {sorted},
                              arith::ConstantIntOp::create(b, loc, i64, 0));
    ValueRange survivors = nb.loop(
        zeroIdx, nb.idx(sorted), {kept, zeroIdx},
        [&](Value j, ValueRange t) -> SmallVector<Value> {
          return nb.choose(
              nb.at(removed, {j}),
              [&]() -> SmallVector<Value> {
                return {t[0], t[1]};
              },
              [&]() -> SmallVector<Value> {
                return {tensor::InsertOp::create(b, loc, nb.at(order, {j}),
                                                 t[0], ValueRange{t[1]}),
                        nb.add1(t[1])};
              });
        });
    Value count = survivors[1];
    Value any = nb.cmpi(arith::CmpIPredicate::ugt, count, zeroIdx);
    Value divisor = arith::MaxUIOp::create(b, loc, count, oneIdx);
    Value imageF = toOut(toFloat(image));
    Value first = muli(image, postTop);
    return nb.loop(zeroIdx, nb.idx(postTop), {result},
                   [&](Value i, ValueRange t) -> SmallVector<Value> {
                     return nb.choose(
                         any,
                         [&]() -> SmallVector<Value> {
                           Value from = asIndex(nb.at(
                               survivors[0],
                               {arith::RemUIOp::create(b, loc, i, divisor)}));
                           Value r = addi(first, i);
                           Value o = tensor::InsertOp::create(
                               b, loc, imageF, t[0], ValueRange{r, zeroIdx});
                           for (int64_t f = 0; f < 4; ++f)
                             o = tensor::InsertOp::create(
                                 b, loc, toOut(nb.at(rows, {from, nb.idx(f)})),
                                 o, ValueRange{r, nb.idx(f + 1)});
                           return {o};
                         },
                         [&]() -> SmallVector<Value> { return {t[0]}; });
                   })[0];
  };
  return SmallVector<Value>{
      nb.loop(zeroIdx, nb.idx(batches), {out},
              [&](Value image, ValueRange t) -> SmallVector<Value> {
                return {perImage(image, t[0])};
              })[0]};
}

} // namespace

void mlir::relay::populateRelayVisionToSCFPatterns(
    RelayTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<RuleLowering<NonMaxSuppressionOp, nonMaxSuppressionRule>,
               RuleLowering<ProposalOp, proposalRule>>(converter,
                                                       patterns.getContext());
}

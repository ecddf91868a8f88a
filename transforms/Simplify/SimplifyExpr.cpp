//===- SimplifyExpr.cpp - --relay-simplify-expr ---------------------------===//
//
// Rewrites that leave less to compute: chains of reshapes and transposes
// collapse, identities of arithmetic and casts disappear (TVM's
// SimplifyReshape, SimplifyTranspose, EliminateIdentity, SimplifySameCast
// and SimplifyConsecutiveCast), a convolution's kernel taps that only
// ever read its padding go, and elementwise arithmetic with constants
// moves above the transposes and unit reshapes before it.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayBuilder.h"
#include "dialects/relay/RelayOps.h"
#include "transforms/Decompose/Rewrites.h"
#include "transforms/Simplify/FoldConstant.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <array>
#include <map>

namespace mlir::relay {
#define GEN_PASS_DEF_SIMPLIFYEXPR
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

/// Whether `op` only reshapes its first operand (its result type says to
/// what).
static bool isReshapeLike(Operation *op) {
  return isa<ReshapeOp, SqueezeOp, ExpandDimsOp, BatchFlattenOp, ReshapeLikeOp>(
      op);
}

/// Whether `v` is a constant all of whose elements are `value`.
static bool isSplat(Value v, double value) {
  auto c = v.getDefiningOp<ConstantOp>();
  auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : nullptr;
  if (!dense || !dense.isSplat())
    return false;
  Type e = dense.getElementType();
  if (isa<FloatType>(e))
    return dense.getSplatValue<APFloat>().convertToDouble() == value;
  if (e.isInteger(1))
    return false;
  return isa<IntegerType>(e) &&
         dense.getSplatValue<APInt>().getSExtValue() == int64_t(value);
}

namespace {

/// A reshape-like op of a reshape-like op: one reshape of the original
/// value; a reshape to the operand's own type: the operand.
struct CollapseReshapes : RewritePattern {
  CollapseReshapes(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isReshapeLike(op))
      return failure();
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic result");
    Value source = op->getOperand(0);
    while (Operation *def = source.getDefiningOp()) {
      if (!isReshapeLike(def))
        break;
      source = def->getOperand(0);
    }
    if (source.getType() == type) {
      rewriter.replaceOp(op, source);
      return success();
    }
    if (source == op->getOperand(0))
      return rewriter.notifyMatchFailure(op, "nothing to collapse");
    rewriter.replaceOpWithNewOp<ReshapeOp>(
        op, TypeRange{type}, ValueRange{source},
        ArrayRef<NamedAttribute>{rewriter.getNamedAttr(
            "newshape", rewriter.getDenseI64ArrayAttr(type.getShape()))});
    return success();
  }
};

/// The permutation of `transpose` (the reversal when not given).
SmallVector<int64_t> permutationOf(TransposeOp transpose) {
  return transpose.getPermutation(
      cast<RankedTensorType>(transpose.getOperand().getType()).getRank());
}

/// transpose(transpose(x, p), q): transpose(x, p o q); the identity
/// permutation: x.
struct ComposeTransposes : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<RankedTensorType>(op.getOperand().getType()))
      return rewriter.notifyMatchFailure(op, "unranked");
    SmallVector<int64_t> perm = permutationOf(op);
    Value source = op.getOperand();
    if (auto inner = source.getDefiningOp<TransposeOp>()) {
      SmallVector<int64_t> first = permutationOf(inner);
      for (int64_t &p : perm)
        p = first[p];
      source = inner.getOperand();
    }
    bool identity = llvm::all_of(llvm::enumerate(perm), [](auto e) {
      return int64_t(e.index()) == e.value();
    });
    if (identity && source.getType() == op.getType()) {
      rewriter.replaceOp(op, source);
      return success();
    }
    if (source == op.getOperand())
      return rewriter.notifyMatchFailure(op, "nothing to compose");
    rewriter.replaceOpWithNewOp<TransposeOp>(
        op, TypeRange{op.getType()}, ValueRange{source},
        ArrayRef<NamedAttribute>{rewriter.getNamedAttr(
            "axes", rewriter.getDenseI64ArrayAttr(perm))});
    return success();
  }
};

/// x * 1, 1 * x, x / 1, x + 0, 0 + x, x - 0: x, where the constant does not
/// broadcast x to another shape.
struct EliminateIdentity : RewritePattern {
  EliminateIdentity(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<MultiplyOp, DivideOp, AddOp, SubtractOp>(op))
      return failure();
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    Type type = op->getResult(0).getType();
    double unit = isa<MultiplyOp, DivideOp>(op) ? 1 : 0;
    bool commutes = isa<MultiplyOp, AddOp>(op);
    Value kept;
    if (isSplat(rhs, unit) && lhs.getType() == type)
      kept = lhs;
    else if (commutes && isSplat(lhs, unit) && rhs.getType() == type)
      kept = rhs;
    if (!kept)
      return rewriter.notifyMatchFailure(op, "no identity operand");
    rewriter.replaceOp(op, kept);
    return success();
  }
};

/// Whether a value of element type `from` converts to `to` without loss:
/// a wider type of the same kind (float, signed or unsigned integer).
bool isWidening(Type from, Type to) {
  if (auto f = dyn_cast<FloatType>(from)) {
    auto t = dyn_cast<FloatType>(to);
    return t && t.getWidth() > f.getWidth() && (f.isF16() || f.isF32()) &&
           (t.isF32() || t.isF64());
  }
  auto fi = dyn_cast<IntegerType>(from), ti = dyn_cast<IntegerType>(to);
  return fi && ti && !fi.isInteger(1) && ti.getWidth() > fi.getWidth() &&
         fi.isUnsigned() == ti.isUnsigned();
}

Type elementOf(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t ? t.getElementType() : Type();
}

/// cast(x) to x's own type: x; cast(cast(x, wider), t): cast(x, t).
struct SimplifyCast : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getOperand();
    if (x.getType() == op.getType()) {
      rewriter.replaceOp(op, x);
      return success();
    }
    auto inner = x.getDefiningOp<CastOp>();
    if (!inner || !elementOf(inner.getOperand()) ||
        !isWidening(elementOf(inner.getOperand()), elementOf(x)))
      return rewriter.notifyMatchFailure(op, "no widening cast under it");
    rewriter.modifyOpInPlace(op,
                             [&] { op->setOperand(0, inner.getOperand()); });
    return success();
  }
};

/// The live kernel taps [first, last] along one axis of a convolution (input
/// size `in`, output `out`, stride, dilation, padding before, `taps` taps):
/// tap k reads rows k*d - p + y*s for the outputs y, and is dead when all of
/// them are in the padding. The read rows grow with k, so the live taps are
/// one run.
std::pair<int64_t, int64_t> liveTaps(int64_t in, int64_t out, int64_t s,
                                     int64_t d, int64_t p, int64_t taps) {
  int64_t first = 0, last = taps - 1;
  while (first < taps && (out - 1) * s + first * d - p < 0)
    ++first;
  while (last >= first && last * d - p > in - 1)
    --last;
  return {first, last};
}

/// An nn.conv2d in NCHW/OIHW with static types: its sizes, strides,
/// dilation and padding (top, left, bottom, right), read the way its
/// relation reads them.
struct ConvGeometry {
  RankedTensorType x, w, y;
  SmallVector<int64_t> strides, dilation, padding;

  /// Null when `op` is not such a convolution (the reason in `why`).
  static std::optional<ConvGeometry> of(Conv2DOp op, const char *&why) {
    ConvGeometry g;
    g.x = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    g.w = dyn_cast<RankedTensorType>(op->getOperand(1).getType());
    g.y = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    auto layout = [&](StringRef name, StringRef dflt) {
      auto a = op->getAttrOfType<StringAttr>(name);
      return a ? a.getValue() : dflt;
    };
    why = "not NCHW/OIHW with static types";
    if (!g.x || !g.w || !g.y || !g.x.hasStaticShape() ||
        !g.w.hasStaticShape() || !g.y.hasStaticShape() || g.x.getRank() != 4 ||
        g.w.getRank() != 4 || layout("data_layout", "NCHW") != "NCHW" ||
        layout("kernel_layout", "OIHW") != "OIHW" ||
        !layout("out_layout", "").empty())
      return std::nullopt;
    auto pairOf = [&](StringRef name) -> SmallVector<int64_t> {
      auto a = op->getAttrOfType<DenseI64ArrayAttr>(name);
      if (!a || a.empty())
        return {1, 1};
      return a.size() == 1 ? SmallVector<int64_t>{a[0], a[0]}
                           : SmallVector<int64_t>(a.asArrayRef());
    };
    g.strides = pairOf("strides");
    g.dilation = pairOf("dilation");
    g.padding.assign(4, 0);
    if (auto a = op->getAttrOfType<DenseI64ArrayAttr>("padding")) {
      why = "padding of another size";
      if (a.size() == 1)
        g.padding.assign(4, a[0]);
      else if (a.size() == 2)
        g.padding = {a[0], a[1], a[0], a[1]};
      else if (a.size() == 4)
        g.padding.assign(a.asArrayRef().begin(), a.asArrayRef().end());
      else
        return std::nullopt;
    }
    why = "strides or dilation not 2-d";
    if (g.strides.size() != 2 || g.dilation.size() != 2)
      return std::nullopt;
    return g;
  }
};

/// `op`'s attributes with `replaced` in place of those of the same names.
SmallVector<NamedAttribute> withAttrs(Operation *op,
                                      ArrayRef<NamedAttribute> replaced) {
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute attr : op->getAttrs())
    if (!llvm::any_of(replaced, [&](NamedAttribute r) {
          return r.getName() == attr.getName();
        }))
      attrs.push_back(attr);
  llvm::append_range(attrs, replaced);
  return attrs;
}

/// A rewrite of an nn.conv2d that ConvGeometry reads.
struct ConvGeometryPattern : OpRewritePattern<Conv2DOp> {
  ConvGeometryPattern(MLIRContext *context, PatternBenefit benefit)
      : OpRewritePattern(context, benefit) {}

  LogicalResult matchAndRewrite(Conv2DOp op,
                                PatternRewriter &rewriter) const final {
    const char *why;
    std::optional<ConvGeometry> g = ConvGeometry::of(op, why);
    if (!g)
      return rewriter.notifyMatchFailure(op, why);
    return rewrite(op, *g, rewriter);
  }

  virtual LogicalResult rewrite(Conv2DOp op, const ConvGeometry &g,
                                PatternRewriter &rewriter) const = 0;
};

/// nn.conv2d (NCHW, OIHW) whose kernel has rows or columns of taps that
/// read only the padding for every output (DeepLabV3's atrous pyramid on
/// small maps: dilation 36 on a 28x28 map leaves only the centre tap):
/// the convolution with the live taps' weights (a strided_slice, folded
/// with constant weights) and the padding they need.
struct DropPaddingTaps : ConvGeometryPattern {
  DropPaddingTaps(MLIRContext *context)
      : ConvGeometryPattern(context, /*benefit=*/2) {}

  LogicalResult rewrite(Conv2DOp op, const ConvGeometry &g,
                        PatternRewriter &rewriter) const override {
    RankedTensorType x = g.x, w = g.w, y = g.y;
    ArrayRef<int64_t> s = g.strides, d = g.dilation, p = g.padding;
    SmallVector<int64_t> begin(2), end(2), pad(4);
    bool dead = false;
    for (int a = 0; a < 2; ++a) {
      int64_t taps = w.getDimSize(2 + a);
      auto [first, last] = liveTaps(x.getDimSize(2 + a), y.getDimSize(2 + a),
                                    s[a], d[a], p[a], taps);
      // No live tap: every output is zero (left as it is).
      if (first > last)
        return rewriter.notifyMatchFailure(op, "no tap reads the image");
      dead |= first > 0 || last < taps - 1;
      begin[a] = first;
      end[a] = last + 1;
      // The padding before the first live tap, and after as the output's
      // size needs; a live tap reading before the image starts (padding
      // not a multiple of the dilation) would need a cropped image.
      pad[a] = p[a] - first * d[a];
      pad[2 + a] = (y.getDimSize(2 + a) - 1) * s[a] + last * d[a] -
                   first * d[a] + 1 - x.getDimSize(2 + a) - pad[a];
      if (pad[a] < 0 || pad[2 + a] < 0)
        return rewriter.notifyMatchFailure(op, "the image would be cropped");
    }
    if (!dead)
      return rewriter.notifyMatchFailure(op, "every tap reads the image");
    decompose::Emitter b(rewriter, op.getLoc());
    Value weights = b.op<StridedSliceOp>(
        {op->getOperand(1)},
        {b.ints("begin", begin), b.ints("end", end), b.ints("strides", {1, 1}),
         b.ints("axes", {2, 3})});
    SmallVector<NamedAttribute> replaced = {b.ints("padding", pad)};
    // One tap left along an axis: no dilation there.
    if (op->hasAttr("dilation"))
      replaced.push_back(
          b.ints("dilation", {end[0] - begin[0] > 1 ? d[0] : 1,
                              end[1] - begin[1] > 1 ? d[1] : 1}));
    if (op->hasAttr("kernel_size"))
      replaced.push_back(
          b.ints("kernel_size", {end[0] - begin[0], end[1] - begin[1]}));
    Value conv =
        b.op<Conv2DOp>({op->getOperand(0), weights}, withAttrs(op, replaced));
    if (!b.succeeded() || conv.getType() != y) {
      // Not expected (the sizes above are the relation's): nothing changes.
      for (Value made : {conv, weights})
        if (made)
          rewriter.eraseOp(made.getDefiningOp());
      return rewriter.notifyMatchFailure(op, "the smaller kernel's relation");
    }
    rewriter.replaceOp(op, conv);
    return success();
  }
};

/// The most regions SplitPartialTaps splits a convolution into.
constexpr size_t kMaxTapRegions = 25;

/// A run of outputs along one axis of a convolution that all read the
/// image with the same kernel taps [first, last].
struct TapBand {
  int64_t begin, end, first, last;
};

/// The outputs along one axis (sizes as in liveTaps) in runs of the same
/// live taps; empty when some output reads only padding.
SmallVector<TapBand> tapBands(int64_t in, int64_t out, int64_t s, int64_t d,
                              int64_t p, int64_t taps) {
  SmallVector<TapBand> bands;
  for (int64_t o = 0; o < out; ++o) {
    // Tap k reads row o*s + k*d - p: live when that is in [0, in).
    int64_t first = std::max<int64_t>(0, llvm::divideCeilSigned(p - o * s, d));
    int64_t last = std::min<int64_t>(
        taps - 1, llvm::divideFloorSigned(in - 1 + p - o * s, d));
    if (first > last)
      return {};
    if (!bands.empty() && bands.back().first == first &&
        bands.back().last == last)
      bands.back().end = o + 1;
    else
      bands.push_back({o, o + 1, first, last});
  }
  return bands;
}

/// nn.conv2d (NCHW, OIHW) whose outer taps read the image for only some of
/// its outputs, so that most of its multiplications are by padding
/// (DeepLabV3's atrous pyramid: dilation 12 and 24 on a 28x28 map, where
/// the outer taps reach the map from 16 and 4 of the 28 rows): one
/// unpadded convolution per region of outputs that reads the image with
/// the same taps, on the part of the image that region reads, with those
/// taps' weights; the regions' outputs concatenated. Only where that
/// leaves at most two thirds of the multiplications: an ordinary 3x3
/// convolution padded by 1 saves only its border's (1 - 19/21 squared, 18%
/// on a 7x7 map), which does not pay for the several kernels and copies.
struct SplitPartialTaps : ConvGeometryPattern {
  SplitPartialTaps(MLIRContext *context)
      : ConvGeometryPattern(context, /*benefit=*/1) {}

  LogicalResult rewrite(Conv2DOp op, const ConvGeometry &g,
                        PatternRewriter &rewriter) const override {
    ArrayRef<int64_t> s = g.strides, d = g.dilation, p = g.padding;
    SmallVector<TapBand> bands[2];
    int64_t live[2] = {0, 0}, all[2];
    for (int a = 0; a < 2; ++a) {
      int64_t taps = g.w.getDimSize(2 + a), out = g.y.getDimSize(2 + a);
      bands[a] = tapBands(g.x.getDimSize(2 + a), out, s[a], d[a], p[a], taps);
      if (bands[a].empty())
        return rewriter.notifyMatchFailure(op, "an output reads only padding");
      for (const TapBand &band : bands[a])
        live[a] += (band.end - band.begin) * (band.last - band.first + 1);
      all[a] = out * taps;
    }
    if (bands[0].size() == 1 && bands[1].size() == 1)
      return rewriter.notifyMatchFailure(op, "one region");
    // A 3x3 kernel makes at most 5 x 5 regions; larger kernels on small
    // maps could make hundreds of small convolutions.
    if (bands[0].size() * bands[1].size() > kMaxTapRegions)
      return rewriter.notifyMatchFailure(op, "too many regions");
    if (3 * live[0] * live[1] > 2 * all[0] * all[1])
      return rewriter.notifyMatchFailure(op, "most taps read the image");
    decompose::Emitter b(rewriter, op.getLoc());
    Value image = op->getOperand(0), weights = op->getOperand(1);
    // The rows (columns) of the image a band reads: from its first output's
    // first tap to its last output's last.
    auto reads = [&](int a, const TapBand &band) {
      return std::pair(band.begin * s[a] + band.first * d[a] - p[a],
                       (band.end - 1) * s[a] + band.last * d[a] - p[a] + 1);
    };
    // The ops this makes go before `op`, after `previous`.
    Operation *previous = op->getPrevNode();
    SmallVector<Value> rows;
    std::map<std::array<int64_t, 4>, Value> parts;
    for (const TapBand &r : bands[0]) {
      SmallVector<Value> columns;
      for (const TapBand &c : bands[1]) {
        auto [r0, r1] = reads(0, r);
        auto [c0, c1] = reads(1, c);
        // One slice per window of the image the regions read (the corner
        // regions of a dilated kernel read the same one), none for all of
        // the image.
        Value &part = parts[{r0, r1, c0, c1}];
        if (!part)
          part = r0 == 0 && c0 == 0 && r1 == g.x.getDimSize(2) &&
                         c1 == g.x.getDimSize(3)
                     ? image
                     : b.op<StridedSliceOp>({image}, {b.ints("begin", {r0, c0}),
                                                      b.ints("end", {r1, c1}),
                                                      b.ints("strides", {1, 1}),
                                                      b.ints("axes", {2, 3})});
        Value taps = b.op<StridedSliceOp>(
            {weights}, {b.ints("begin", {r.first, c.first}),
                        b.ints("end", {r.last + 1, c.last + 1}),
                        b.ints("strides", {1, 1}), b.ints("axes", {2, 3})});
        int64_t kh = r.last - r.first + 1, kw = c.last - c.first + 1;
        SmallVector<NamedAttribute> replaced = {
            b.ints("padding", {0, 0, 0, 0}),
            b.ints("dilation", {kh > 1 ? d[0] : 1, kw > 1 ? d[1] : 1})};
        if (op->hasAttr("kernel_size"))
          replaced.push_back(b.ints("kernel_size", {kh, kw}));
        columns.push_back(
            b.op<Conv2DOp>({part, taps}, withAttrs(op, replaced)));
      }
      rows.push_back(
          columns.size() == 1
              ? columns.front()
              : b.op<ConcatenateOp>({b.tuple(columns)}, {b.i64("axis", 3)}));
    }
    Value result = rows.size() == 1 ? rows.front()
                                    : b.op<ConcatenateOp>({b.tuple(rows)},
                                                          {b.i64("axis", 2)});
    if (!b.succeeded() || result.getType() != g.y) {
      // Not expected (the regions' sizes are the relation's): nothing
      // changes.
      while (op->getPrevNode() != previous)
        rewriter.eraseOp(op->getPrevNode());
      return rewriter.notifyMatchFailure(op, "the regions' relations");
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The product of a tensor type's static sizes and how many are `?`.
std::pair<int64_t, int64_t> staticSizeAndUnknowns(RankedTensorType type) {
  int64_t size = 1, unknowns = 0;
  for (int64_t d : type.getShape()) {
    if (ShapedType::isDynamic(d))
      ++unknowns;
    else
      size *= d;
  }
  return {size, unknowns};
}

/// take(R(u(x)), i), u a unary elementwise operator that keeps its
/// operand's type (sigmoid, exp, relu, clip, ...) used only there and R
/// reshape-like ops used only there: u(take(R(x), i)), u applied to the
/// gathered elements instead of all of them. Only where the gather gives
/// fewer elements than u did: fewer with static sizes, or fewer static
/// elements per `?` where both have as many `?` sizes (Mask R-CNN's
/// post-processing takes one class's mask per detection from the sigmoid of
/// all 91 classes': 91x the work, on the interpreter).
struct SinkUnaryIntoTake : OpRewritePattern<TakeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TakeOp take,
                                PatternRewriter &rewriter) const override {
    SmallVector<Operation *> reshapes;
    Value data = take->getOperand(0);
    Operation *unary = data.getDefiningOp();
    while (unary && isReshapeLike(unary) && unary->getResult(0).hasOneUse()) {
      reshapes.push_back(unary);
      unary = unary->getOperand(0).getDefiningOp();
    }
    const OperatorInfo *info =
        unary ? lookupOperator(unary->getName().getStringRef()) : nullptr;
    if (!info || info->pattern != OpPatternKind::ElemWise ||
        info->numInputs != 1 || unary->getNumOperands() != 1 ||
        unary->getNumResults() != 1 ||
        unary->getOperand(0).getType() != unary->getResult(0).getType() ||
        !unary->getResult(0).hasOneUse())
      return rewriter.notifyMatchFailure(take, "no unary elementwise source");
    auto before = dyn_cast<RankedTensorType>(unary->getResult(0).getType());
    auto after = dyn_cast<RankedTensorType>(take.getResult().getType());
    if (!before || !after)
      return failure();
    auto [beforeSize, beforeUnknowns] = staticSizeAndUnknowns(before);
    auto [afterSize, afterUnknowns] = staticSizeAndUnknowns(after);
    if (beforeUnknowns != afterUnknowns || afterSize >= beforeSize)
      return rewriter.notifyMatchFailure(take, "gathers no fewer elements");
    // The reshapes and the gather on u's operand (same types: u keeps its
    // operand's), then u on the gathered elements.
    IRMapping mapping;
    mapping.map(unary->getResult(0), unary->getOperand(0));
    rewriter.setInsertionPoint(take);
    for (Operation *reshape : llvm::reverse(reshapes))
      rewriter.clone(*reshape, mapping);
    Operation *gathered = rewriter.clone(*take, mapping);
    IRMapping applied;
    applied.map(unary->getOperand(0), gathered->getResult(0));
    Operation *sunk = rewriter.clone(*unary, applied);
    sunk->getResult(0).setType(take.getResult().getType());
    rewriter.replaceOp(take, sunk->getResults());
    return success();
  }
};

/// The shape `constant` (broadcasting against `after`, the shape of a
/// layout op's result) takes against the layout op's operand, `before`:
/// through a transpose (`perm`) its dimensions permuted back; through a
/// reshape that only inserts or removes unit dimensions, those removed or
/// inserted. None where the reshape does more.
static std::optional<SmallVector<int64_t>>
constantShapeBefore(ArrayRef<int64_t> constant, ArrayRef<int64_t> after,
                    ArrayRef<int64_t> before,
                    std::optional<ArrayRef<int64_t>> perm) {
  // The constant at the full rank of `after`.
  SmallVector<int64_t> full(after.size() - constant.size(), 1);
  full.append(constant.begin(), constant.end());
  if (perm) {
    SmallVector<int64_t> shape(before.size(), 1);
    for (auto [d, p] : llvm::enumerate(*perm))
      shape[p] = full[d];
    return shape;
  }
  // Non-unit dimensions, in order, the same on both sides.
  SmallVector<int64_t> at; // for each non-unit dim of `after`, its index
  for (auto [d, size] : llvm::enumerate(after))
    if (size != 1)
      at.push_back(d);
  SmallVector<int64_t> shape;
  size_t next = 0;
  for (int64_t size : before) {
    if (size == 1) {
      shape.push_back(1);
      continue;
    }
    if (next == at.size() || after[at[next]] != size)
      return std::nullopt;
    shape.push_back(full[at[next++]]);
  }
  if (next != at.size())
    return std::nullopt;
  return shape;
}

/// e(L(x), c...) -> L(e(x, c'...)), e an elementwise or broadcasting
/// operator whose other operands are constants, L a transpose or a reshape
/// that only inserts or removes unit dimensions, used only by e, whose
/// result e does not broadcast: each c' is c laid out as x is (a
/// transpose and reshape of constants, which FoldConstant computes). The
/// layout op then follows the arithmetic instead of separating it from
/// what made x: a 3-d convolution decomposed into a 2-d one over its
/// depth slices, whose result is transposed back, gets its bias and
/// activation in the 2-d convolution's epilogue (--relay-fuse-ops), not
/// in a pass of their own over the transposed result.
struct HoistElementwiseAboveLayout : RewritePattern {
  HoistElementwiseAboveLayout(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  /// bias_add(L(x), b, axis): L(bias_add(x, b, axis')), axis' the
  /// dimension of x that L moves to `axis`.
  LogicalResult hoistBiasAdd(BiasAddOp op, PatternRewriter &rewriter) const {
    Value laidOut = op->getOperand(0);
    Operation *layout = laidOut.getDefiningOp();
    if (!layout || !laidOut.hasOneUse() ||
        !(isa<TransposeOp>(layout) ||
          isa<ReshapeOp, SqueezeOp, ExpandDimsOp>(layout)))
      return rewriter.notifyMatchFailure(op, "no layout op");
    auto after = dyn_cast<RankedTensorType>(laidOut.getType());
    auto before = dyn_cast<RankedTensorType>(layout->getOperand(0).getType());
    if (!after || !before || !after.hasStaticShape() ||
        !before.hasStaticShape())
      return failure();
    int64_t axis = op.getAxis();
    if (axis < 0)
      axis += after.getRank();
    if (axis < 0 || axis >= after.getRank())
      return failure();
    int64_t moved = -1;
    if (auto t = dyn_cast<TransposeOp>(layout)) {
      moved = permutationOf(t)[axis];
    } else {
      // The bias's dimension as a one-hot constant shape: where it lands.
      SmallVector<int64_t> oneHot(after.getRank(), 1);
      oneHot[axis] = after.getDimSize(axis);
      if (after.getDimSize(axis) == 1)
        return rewriter.notifyMatchFailure(op, "a unit axis");
      std::optional<SmallVector<int64_t>> shape = constantShapeBefore(
          oneHot, after.getShape(), before.getShape(), std::nullopt);
      if (!shape)
        return rewriter.notifyMatchFailure(op, "a reshape of non-unit dims");
      for (auto [d, size] : llvm::enumerate(*shape))
        if (size != 1)
          moved = d;
    }
    if (moved < 0)
      return failure();
    Operation *hoisted = rewriter.clone(*op);
    hoisted->setOperand(0, layout->getOperand(0));
    hoisted->setAttr("axis", rewriter.getI64IntegerAttr(moved));
    hoisted->getResult(0).setType(RankedTensorType::get(
        before.getShape(),
        cast<RankedTensorType>(op.getType()).getElementType()));
    IRMapping mapping;
    mapping.map(layout->getOperand(0), hoisted->getResult(0));
    Operation *relaid = rewriter.clone(*layout, mapping);
    relaid->getResult(0).setType(op.getType());
    rewriter.replaceOp(op, relaid->getResults());
    return success();
  }

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (auto bias = dyn_cast<BiasAddOp>(op))
      return hoistBiasAdd(bias, rewriter);
    const OperatorInfo *info = lookupOperator(op->getName().getStringRef());
    if (!info ||
        (info->pattern != OpPatternKind::ElemWise &&
         info->pattern != OpPatternKind::Broadcast) ||
        op->getNumResults() != 1 || op->getNumOperands() == 0)
      return failure();
    // Attributes that name dimensions or shapes (bias_add's axis,
    // broadcast_to's shape) do not survive a change of layout.
    for (StringRef name : {"axis", "axes", "shape", "newshape", "layout",
                           "data_layout", "indices"})
      if (op->hasAttr(name))
        return rewriter.notifyMatchFailure(op, "a layout attribute");
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !type.hasStaticShape())
      return failure();
    // The layout op: a transpose or unit-dimension reshape used only here.
    int layoutAt = -1;
    for (auto [i, v] : llvm::enumerate(op->getOperands())) {
      Operation *def = v.getDefiningOp();
      if (def && v.hasOneUse() &&
          (isa<TransposeOp>(def) ||
           isa<ReshapeOp, SqueezeOp, ExpandDimsOp>(def))) {
        layoutAt = i;
        break;
      }
    }
    if (layoutAt < 0)
      return failure();
    // The other operands constants, or computed from constants only (a
    // batch norm's shift before FoldConstant's second round).
    SmallVector<DenseElementsAttr> values(op->getNumOperands());
    for (auto [i, v] : llvm::enumerate(op->getOperands())) {
      if (int(i) == layoutAt || v.getDefiningOp<ConstantOp>())
        continue;
      values[i] = evaluateConstantTensor(v, type.getNumElements());
      if (!values[i])
        return rewriter.notifyMatchFailure(op, "an operand not constant");
    }
    Value laidOut = op->getOperand(layoutAt);
    Operation *layout = laidOut.getDefiningOp();
    auto afterType = dyn_cast<RankedTensorType>(laidOut.getType());
    auto beforeType =
        dyn_cast<RankedTensorType>(layout->getOperand(0).getType());
    if (!laidOut.hasOneUse() || !afterType || !beforeType ||
        !beforeType.hasStaticShape() || afterType.getShape() != type.getShape())
      return rewriter.notifyMatchFailure(op, "shared or broadcast");
    std::optional<SmallVector<int64_t>> perm;
    if (auto t = dyn_cast<TransposeOp>(layout))
      perm = permutationOf(t);
    // Each constant's shape laid out as the layout op's operand.
    SmallVector<SmallVector<int64_t>> shapes(op->getNumOperands());
    for (auto [i, v] : llvm::enumerate(op->getOperands())) {
      if (int(i) == layoutAt)
        continue;
      auto ct = dyn_cast<RankedTensorType>(v.getType());
      if (!ct || !ct.hasStaticShape() || ct.getRank() > type.getRank())
        return rewriter.notifyMatchFailure(op, "a constant of higher rank");
      std::optional<SmallVector<int64_t>> shape = constantShapeBefore(
          ct.getShape(), afterType.getShape(), beforeType.getShape(),
          perm ? std::optional<ArrayRef<int64_t>>(*perm) : std::nullopt);
      if (!shape)
        return rewriter.notifyMatchFailure(op, "a reshape of non-unit dims");
      shapes[i] = std::move(*shape);
    }
    // Built only now that every operand maps.
    RelayBuilder rb(rewriter, op->getLoc());
    SmallVector<Value> operands(op->getOperands());
    operands[layoutAt] = layout->getOperand(0);
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      if (int(i) == layoutAt)
        continue;
      Value v = operand;
      if (values[i])
        v = ConstantOp::create(rewriter, op->getLoc(), values[i]);
      auto ct = cast<RankedTensorType>(v.getType());
      SmallVector<int64_t> full(type.getRank() - ct.getRank(), 1);
      full.append(ct.getShape().begin(), ct.getShape().end());
      ArrayRef<int64_t> shape = shapes[i];
      Value c = v;
      if (perm) {
        if (ArrayRef<int64_t>(full) != ct.getShape())
          c = rb.op<ReshapeOp>(
              {c}, {rewriter.getNamedAttr(
                       "newshape", rewriter.getDenseI64ArrayAttr(full))});
        SmallVector<int64_t> inverse(perm->size());
        for (auto [d, p] : llvm::enumerate(*perm))
          inverse[p] = d;
        c = rb.op<TransposeOp>(
            {c}, {rewriter.getNamedAttr(
                     "axes", rewriter.getDenseI64ArrayAttr(inverse))});
      } else if (ArrayRef<int64_t>(shape) != ct.getShape()) {
        c = rb.op<ReshapeOp>(
            {c}, {rewriter.getNamedAttr("newshape",
                                        rewriter.getDenseI64ArrayAttr(shape))});
      }
      if (!c)
        return failure();
      // Computed now, so that the next layout op up sees a constant.
      if (c != v) {
        DenseElementsAttr value = evaluateConstantTensor(
            c, std::numeric_limits<int64_t>::max(), /*maxDepth=*/2);
        SmallVector<Operation *> made;
        for (Operation *m = c.getDefiningOp(); m && m != v.getDefiningOp();
             m = m->getOperand(0).getDefiningOp())
          made.push_back(m);
        if (value)
          c = ConstantOp::create(rewriter, op->getLoc(), value);
        for (Operation *m : made)
          if (m->use_empty())
            rewriter.eraseOp(m);
      }
      operands[i] = c;
    }
    Operation *hoisted = rewriter.clone(*op);
    hoisted->setOperands(operands);
    hoisted->getResult(0).setType(
        RankedTensorType::get(beforeType.getShape(), type.getElementType()));
    IRMapping mapping;
    mapping.map(layout->getOperand(0), hoisted->getResult(0));
    Operation *relaid = rewriter.clone(*layout, mapping);
    relaid->getResult(0).setType(type);
    rewriter.replaceOp(op, relaid->getResults());
    return success();
  }
};

struct SimplifyExprPass
    : public relay::impl::SimplifyExprBase<SimplifyExprPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<CollapseReshapes, ComposeTransposes, EliminateIdentity,
                 SimplifyCast, DropPaddingTaps, SplitPartialTaps,
                 SinkUnaryIntoTake, HoistElementwiseAboveLayout>(context);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
  }
};

} // namespace

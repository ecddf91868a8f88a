//===- VectorLowerings.cpp - x86-shaped vector op lowerings -----*- C++ -*-===//
//
// Strided reads as loads and shuffles, square blocks' row reductions as
// shuffle trees, AVX2's 8x8 transposition: the vector code of
// --relay-tile-and-vectorize's kernels lowered the way x86 runs it fast.
//
//===----------------------------------------------------------------------===//

#include "transforms/Codegen/CPU/VectorLowerings.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;

namespace mlir::relay::cpu {

/// The vector lowering has no pattern for a 0-d transfer of a strided
/// buffer (a broadcast operand's element), which would reach LLVM
/// unconverted. The element is in bounds:
/// the indices come from a linalg op's indexing maps.
void readElementAsLoad(RewriterBase &rewriter, vector::TransferReadOp read) {
  if (read.getVectorType().getRank() != 0 || read.getMask() ||
      !isa<MemRefType>(read.getBase().getType()))
    return;
  rewriter.setInsertionPoint(read);
  Value element = memref::LoadOp::create(rewriter, read.getLoc(),
                                         read.getBase(), read.getIndices());
  rewriter.replaceOpWithNewOp<vector::BroadcastOp>(read, read.getVectorType(),
                                                   element);
}

void readBroadcastOperandAsLoads(RewriterBase &rewriter,
                                 vector::ContractionOp contract) {
  // The result's innermost dimension must be the other operand's: the lhs
  // is the one whose elements the outer products broadcast.
  SmallVector<AffineMap> maps = contract.getIndexingMapsArray();
  AffineMap out = maps[2];
  if (out.getNumResults() == 0 || !out.isProjectedPermutation() ||
      maps[0].isFunctionOfDim(out.getDimPosition(out.getNumResults() - 1)))
    return;
  auto read = contract.getLhs().getDefiningOp<vector::TransferReadOp>();
  if (!read || read.getMask() || !read->hasOneUse() ||
      !read.getPermutationMap().isMinorIdentity() ||
      !isa<MemRefType>(read.getBase().getType()) ||
      llvm::any_of(read.getInBoundsValues(), [](bool b) { return !b; }))
    return;
  VectorType type = read.getVectorType();
  int64_t elements = type.getNumElements();
  if (type.isScalable() || elements > 16 || llvm::isPowerOf2_64(elements))
    return;
  // Indices of each element: the read's, plus its position along the
  // vector's dimensions (the trailing ones of the buffer).
  rewriter.setInsertionPoint(read);
  Location loc = read.getLoc();
  SmallVector<Value> indices(read.getIndices());
  unsigned first = indices.size() - type.getRank();
  SmallVector<int64_t> strides = computeStrides(type.getShape());
  SmallVector<Value> loads;
  for (int64_t e = 0; e < elements; ++e) {
    SmallVector<Value> at(indices);
    for (auto [d, offset] : llvm::enumerate(delinearize(e, strides)))
      if (offset)
        at[first + d] = arith::AddIOp::create(
            rewriter, loc, indices[first + d],
            arith::ConstantIndexOp::create(rewriter, loc, offset));
    loads.push_back(memref::LoadOp::create(rewriter, loc, read.getBase(), at));
  }
  rewriter.replaceOpWithNewOp<vector::FromElementsOp>(read, type, loads);
}

} // namespace mlir::relay::cpu

namespace {

/// A vector read along a strided innermost dimension (a window of a strided
/// convolution or pooling): with a stride up to kMaxShuffledStride one
/// vector read of the span and a shuffle picking every s-th lane, else one
/// scalar load per element. MLIR lowers it to a loop inserting each element
/// at a variable position, which LLVM compiles to a store and reload of the
/// whole vector per element. (The relay-to-linalg lowering copies stride
/// phases out only for larger strides: its kMaxShuffledStride is this one.)
struct StridedReadToLoads : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  static constexpr int64_t kMaxElements = 64;
  static constexpr int64_t kMaxShuffledStride = 4;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto memref = dyn_cast<MemRefType>(read.getBase().getType());
    VectorType type = read.getVectorType();
    if (!memref || memref.getRank() == 0 || read.getMask() ||
        !read.getPermutationMap().isIdentity() ||
        type.getRank() != memref.getRank() || type.isScalable() ||
        llvm::any_of(read.getInBoundsValues(), [](bool b) { return !b; }))
      return failure();
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(memref.getStridesAndOffset(strides, offset)) ||
        strides.back() == 1 || ShapedType::isDynamic(strides.back()))
      return failure();
    ArrayRef<int64_t> shape = type.getShape();
    int64_t n = shape.back();
    if (n > kMaxElements ||
        llvm::any_of(shape.drop_back(), [](int64_t d) { return d != 1; }))
      return failure();
    Location loc = read.getLoc();
    SmallVector<Value> indices(read.getIndices());
    int64_t s = strides.back();
    if (n > 1 && s >= 2 && s <= kMaxShuffledStride) {
      // The span in two in-bounds halves of n*s/2 lanes, the second ending
      // at the span's last element (they overlap by s-1 lanes), then every
      // s-th element picked out of both by one shuffle. (One read of n*s
      // lanes masked past the span's end: with 16-lane outputs, the masked
      // loads took most of a strided depthwise convolution's time.)
      auto meta = memref::ExtractStridedMetadataOp::create(rewriter, loc,
                                                           read.getBase());
      Value linear = meta.getOffset();
      for (auto [index, stride] : llvm::zip(indices, meta.getStrides()))
        linear = arith::AddIOp::create(
            rewriter, loc, linear,
            arith::MulIOp::create(rewriter, loc, index, stride));
      int64_t span = (n - 1) * s + 1;
      int64_t half = (n * s + 1) / 2, second = span - half;
      Type e = type.getElementType();
      auto spanType =
          MemRefType::get({span}, e,
                          StridedLayoutAttr::get(rewriter.getContext(),
                                                 ShapedType::kDynamic, {1}));
      Value view = memref::ReinterpretCastOp::create(
          rewriter, loc, spanType, meta.getBaseBuffer(), linear,
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(span)},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)});
      auto halfType = VectorType::get({half}, e);
      auto readAt = [&](int64_t at) -> Value {
        return vector::TransferReadOp::create(
            rewriter, loc, halfType, view,
            ValueRange{arith::ConstantIndexOp::create(rewriter, loc, at)},
            read.getPadding(), ArrayRef<bool>{true});
      };
      Value low = readAt(0), high = readAt(second);
      // Element i of the span is lane i of `low` (i < half), else lane
      // i - second of `high`, which is lane i - second + half of the pair.
      SmallVector<int64_t> lanes;
      for (int64_t k = 0; k < n; ++k)
        lanes.push_back(k * s < half ? k * s : k * s - second + half);
      Value picked = vector::ShuffleOp::create(rewriter, loc, low, high, lanes);
      rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(read, type, picked);
      return success();
    }
    SmallVector<Value> elements;
    for (int64_t k = 0; k < n; ++k) {
      SmallVector<Value> at(indices);
      at.back() = arith::AddIOp::create(
          rewriter, loc, indices.back(),
          arith::ConstantIndexOp::create(rewriter, loc, k));
      elements.push_back(
          memref::LoadOp::create(rewriter, loc, read.getBase(), at));
    }
    Value flat = vector::FromElementsOp::create(
        rewriter, loc, VectorType::get({n}, type.getElementType()), elements);
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(read, type, flat);
    return success();
  }
};

/// The sums (or other reductions) of each row of a square block of rows
/// (vector<16x16>, AVX2's vector<8x8>: a matrix-vector product's per-lane
/// partial sums, 16 output rows at a time) as a tree of two-source
/// shuffles, log2(16) levels: at each, a pair of vectors holding rows'
/// chunks of w partials becomes one holding both pairs' rows' chunks of w/2
/// (the chunks' first halves of both, plus their second halves): 15 pairs
/// of 2 shuffles and 1 add for 16 rows, where one vector.reduction per row
/// takes 4 shuffles and 4 adds and leaves a scalar to insert (an LSTM
/// cell's 512 gate sums were 15% of its time).
struct RowReductionTree : OpRewritePattern<vector::MultiDimReductionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::MultiDimReductionOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getSourceVectorType();
    // A masked reduction leaves some lanes out; the tree would sum them.
    if (type.getRank() != 2 || type.isScalable() || op.isMasked() ||
        op.getReductionMask() != ArrayRef<bool>{false, true})
      return failure();
    int64_t rows = type.getDimSize(0), width = type.getDimSize(1);
    if (rows != width || width < 2 || !llvm::isPowerOf2_64(width))
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> level;
    for (int64_t i = 0; i < rows; ++i)
      level.push_back(
          vector::ExtractOp::create(rewriter, loc, op.getSource(), i));
    // Each vector holds width / chunk rows' chunks of `chunk` partials.
    for (int64_t chunk = width; chunk > 1; chunk /= 2) {
      int64_t half = chunk / 2;
      SmallVector<int64_t> firsts, seconds;
      for (int64_t source : {int64_t(0), width})
        for (int64_t at = 0; at < width; at += chunk)
          for (int64_t l = 0; l < half; ++l) {
            firsts.push_back(source + at + l);
            seconds.push_back(source + at + half + l);
          }
      SmallVector<Value> next;
      for (size_t i = 0; i < level.size(); i += 2) {
        Value a = vector::ShuffleOp::create(rewriter, loc, level[i],
                                            level[i + 1], firsts);
        Value b = vector::ShuffleOp::create(rewriter, loc, level[i],
                                            level[i + 1], seconds);
        next.push_back(
            vector::makeArithReduction(rewriter, loc, op.getKind(), a, b));
      }
      level = std::move(next);
    }
    rewriter.replaceOp(op,
                       vector::makeArithReduction(rewriter, loc, op.getKind(),
                                                  level[0], op.getAcc()));
    return success();
  }
};

/// An 8x8 transposition of 32-bit elements as the 24 shuffles of AVX2's
/// idiom, each one instruction on 8-lane registers: unpacklo/hi of row
/// pairs, shufps of those pairs' halves, vperm2f128 of the 128-bit lanes.
/// (Upstream's x86vector lowering of it blends with inline assembly, which
/// an object file without LLVM's x86 assembly parser cannot hold; upstream's
/// generic shuffle lowering is for 16x16.)
struct Transpose8x8 : OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getSourceVectorType();
    if (type.getShape() != ArrayRef<int64_t>{8, 8} ||
        op.getPermutation() != ArrayRef<int64_t>{1, 0} ||
        !type.getElementType().isIntOrFloat() ||
        type.getElementType().getIntOrFloatBitWidth() != 32)
      return failure();
    Location loc = op.getLoc();
    auto shuffle = [&](Value a, Value b, ArrayRef<int64_t> mask) -> Value {
      return vector::ShuffleOp::create(rewriter, loc, a, b, mask);
    };
    SmallVector<Value> r;
    for (int64_t i = 0; i < 8; ++i)
      r.push_back(vector::ExtractOp::create(rewriter, loc, op.getVector(), i));
    // t: interleaved pairs of rows (r0 r1 -> t0 t1, ...).
    SmallVector<Value> t, u(8), out(8);
    for (int64_t i = 0; i < 8; i += 2) {
      t.push_back(shuffle(r[i], r[i + 1], {0, 8, 1, 9, 4, 12, 5, 13}));
      t.push_back(shuffle(r[i], r[i + 1], {2, 10, 3, 11, 6, 14, 7, 15}));
    }
    // u: four rows' elements of two columns in each 128-bit lane.
    for (int64_t q = 0; q < 2; ++q)
      for (int64_t h = 0; h < 2; ++h) {
        Value lo = t[4 * q + h], hi = t[4 * q + h + 2];
        u[4 * q + 2 * h] = shuffle(lo, hi, {0, 1, 8, 9, 4, 5, 12, 13});
        u[4 * q + 2 * h + 1] = shuffle(lo, hi, {2, 3, 10, 11, 6, 7, 14, 15});
      }
    // Columns j and j + 4: the low and high lanes of rows 0-3 and 4-7.
    for (int64_t j = 0; j < 4; ++j) {
      out[j] = shuffle(u[j], u[4 + j], {0, 1, 2, 3, 8, 9, 10, 11});
      out[j + 4] = shuffle(u[j], u[4 + j], {4, 5, 6, 7, 12, 13, 14, 15});
    }
    Value result = arith::ConstantOp::create(
        rewriter, loc, type, cast<TypedAttr>(rewriter.getZeroAttr(type)));
    for (int64_t j = 0; j < 8; ++j)
      result = vector::InsertOp::create(rewriter, loc, out[j], result, j);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

namespace mlir::relay::cpu {

void populateStridedReadPatterns(RewritePatternSet &patterns) {
  patterns.add<StridedReadToLoads>(patterns.getContext());
}

void populateRowReductionTreePatterns(RewritePatternSet &patterns,
                                      PatternBenefit benefit) {
  patterns.add<RowReductionTree>(patterns.getContext(), benefit);
}

void populateTranspose8x8Patterns(RewritePatternSet &patterns,
                                  PatternBenefit benefit) {
  patterns.add<Transpose8x8>(patterns.getContext(), benefit);
}

} // namespace mlir::relay::cpu

//===- TileAndVectorize.cpp - Tile and vectorise linalg code ----*- C++ -*-===//
//
// --relay-tile-and-vectorize: a fixed schedule over bufferized, static-shaped
// linalg ops. Contractions are tiled for the caches and then for registers
// and become vector.contract with the accumulator held in registers across
// the k loop; other vectorisable ops are vectorised along their innermost
// loop. Everything uses upstream transforms; the pass only picks tile sizes.
//
//===----------------------------------------------------------------------===//

#include "transforms/Codegen/CPU/CPUDescription.h"
#include "transforms/Codegen/CPU/HoistAccumulators.h"
#include "transforms/Codegen/CPU/ProductEpilogues.h"
#include "transforms/Codegen/CPU/VectorLowerings.h"
#include "transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <numeric>

namespace mlir::relay {
#define GEN_PASS_DEF_TILEANDVECTORIZE
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

/// The tile sizes for one CPU (CPUDescription.h, read from the module's
/// target spec). The rules give, for the 32 KB L1 / 1 MB L2 / AVX-512 Zen 4
/// the kernels were measured on, the sizes found best there; elsewhere they
/// scale with the caches and vector registers.
struct TileSizes {
  explicit TileSizes(const relay::cpu::CPUDescription &cpu) : cpu(cpu) {
    lanes = cpu.f32Lanes();
    // Register tile: 8x32 f32 with 32 vector registers (16 zmm
    // accumulators), 6x16 with AVX2's 16 (12 ymm).
    regN = cpu.registerTileColumns();
    regM = cpu.registerTileRows();
    // Cache tile: 8 register tiles' rows and 4 register tiles' columns; the
    // k tile such that the B block a cache tile reads (k x n) takes a
    // quarter of L2 and the A panel a register tile reads (its rows x k)
    // half of L1, where it must stay while B's panel streams past it. Each
    // k tile loads and stores every accumulator tile once: on the Zen 4
    // (32 KB L1, 1 MB L2), k tiles of 512 made ResNet-18 5% faster than 128
    // (VGG-16 4%); 64 was 15% slower. On a Xeon with 48 KB L1 and 2 MB L2
    // the L2 rule alone gives 1024: an A panel of 32 KB in a 48 KB L1.
    cacheM = cpu.cacheTileRows();
    cacheN = 4 * regN;
    cacheK = std::clamp<int64_t>(
        std::min(cpu.l2Bytes / 4 / (cacheN * 4), cpu.l1Bytes / 2 / (regM * 4)),
        64, 1024);
    // The size (f32 bytes) from which the panel of B that one m tile reads
    // (all of k, one n tile) is read once, the product's loops going (n,
    // k, m), instead of once per m tile: beyond half a core's share of the
    // last-level cache it came from memory every time. ResNet-18's first
    // weight gradient (147 x 64 summed over 100352, a 26 MB panel): 38 ->
    // 28 ms at one thread, 31 -> 19 ms at two; products with panels that
    // stay in the cache (1024^3, 2304 x 256 over 1568) ran 5-10% slower
    // that way.
    minPanelBytes =
        std::clamp<int64_t>(cpu.l3BytesPerCore / 2, 4 << 20, 16 << 20);
    // Longest vector along the innermost loop of other ops (4 registers),
    // and of those with many inputs (a depthwise convolution's taps and
    // their broadcast weights: 9 weights of 64 lanes would not fit in the
    // 32 vector registers).
    innerVector = 4 * lanes;
    manyInputsVector = 2 * lanes;
  }
  relay::cpu::CPUDescription cpu;
  int64_t lanes, regM, regN, cacheM, cacheN, cacheK, minPanelBytes, innerVector,
      manyInputsVector;
};
constexpr int64_t kParallelMinFlops =
    relay::cpu::CPUDescription::kParallelMinFlops;
/// The fewest iterations of another op (elementwise, pooling, depthwise
/// convolution, im2col, padding) split across threads: these stream memory,
/// and async-parallel-for hands each thread several blocks. At two threads
/// 2^17 measured MobileNet-V2 5.2 -> 4.8 ms and ResNet-18 13.7 -> 13.3 ms;
/// 2^14 made both slower than not splitting them at all.
constexpr int64_t kParallelMinIterations = 1 << 17;
/// Ops with more inputs than this take the shorter vectors.
constexpr int64_t kManyInputs = 8;

/// The largest divisor of `n` that is at most `cap`, so tiles stay static.
int64_t divisorAtMost(int64_t n, int64_t cap) {
  for (int64_t t = std::min(n, cap); t > 1; --t)
    if (n % t == 0)
      return t;
  return 1;
}

/// The largest divisor of `n` that is at most `cap` and a multiple of one
/// of `quanta` (tried in order), else divisorAtMost(n, cap): tiles that are
/// whole vectors (16 f32 lanes) avoid split and partial vector code.
int64_t alignedDivisorAtMost(int64_t n, int64_t cap,
                             std::initializer_list<int64_t> quanta) {
  for (int64_t q : quanta)
    for (int64_t t = std::min(n, cap) / q * q; t >= q; t -= q)
      if (n % t == 0)
        return t;
  return divisorAtMost(n, cap);
}

/// A tile size of 0 leaves the loop untiled (no one-trip loop).
int64_t tileOrWhole(int64_t size, int64_t tile) {
  return tile >= size ? 0 : tile;
}

/// `op` split along loop `dim` at `at` (linalg::splitOp), both parts
/// inserted before it; failure when either part is not made.
FailureOr<std::pair<linalg::LinalgOp, linalg::LinalgOp>>
splitLinalg(RewriterBase &rewriter, linalg::LinalgOp op, unsigned dim,
            int64_t at) {
  rewriter.setInsertionPoint(op);
  auto [first, second] =
      linalg::splitOp(rewriter, cast<TilingInterface>(op.getOperation()), dim,
                      rewriter.getIndexAttr(at));
  auto a = dyn_cast_or_null<linalg::LinalgOp>(first.getOperation());
  auto b = dyn_cast_or_null<linalg::LinalgOp>(second.getOperation());
  if (!a || !b)
    return failure();
  return std::pair(a, b);
}

/// Tiles `op` with scf.for loops; returns the tiled op (the op itself when no
/// loop is tiled) and sets `outermost`, when given, to the outermost loop
/// made (unchanged when none) and `made`, when given, to all of them (one
/// per tiled loop, in the order of the loops' dimensions, or of
/// `interchange` when given).
FailureOr<linalg::LinalgOp> tile(RewriterBase &rewriter, linalg::LinalgOp op,
                                 ArrayRef<int64_t> sizes,
                                 scf::SCFTilingOptions::LoopType loops =
                                     scf::SCFTilingOptions::LoopType::ForOp,
                                 Operation **outermost = nullptr,
                                 SmallVectorImpl<Operation *> *made = nullptr,
                                 ArrayRef<int64_t> interchange = {}) {
  if (llvm::all_of(sizes, [](int64_t s) { return s == 0; }))
    return op;
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op.getContext(), sizes));
  options.setLoopType(loops);
  if (!interchange.empty())
    options.setInterchange(interchange);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled) || tiled->tiledOps.empty())
    return failure();
  auto inner = dyn_cast<linalg::LinalgOp>(tiled->tiledOps.back());
  if (!inner)
    return failure();
  if (outermost && !tiled->loops.empty())
    *outermost = tiled->loops.front();
  if (made)
    made->assign(tiled->loops.begin(), tiled->loops.end());
  rewriter.eraseOp(op); // buffer semantics: the tiles write in place
  return inner;
}

/// The buffer `v` is a view of (through view-like ops).
Value rootBuffer(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

/// The linalg.fill with zero of `op`'s output buffer right before it (only
/// ops without memory effects between), when `op` reads no view of that
/// buffer otherwise; null when there is none.
linalg::FillOp zeroFillBefore(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return nullptr;
  Value init = op.getDpsInitOperand(0)->get();
  Value root = rootBuffer(init);
  if (llvm::any_of(op.getDpsInputs(),
                   [&](Value in) { return rootBuffer(in) == root; }))
    return nullptr;
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(prev)) {
      Value value = fill.getInputs()[0];
      bool zero = matchPattern(value, m_AnyZeroFloat()) ||
                  matchPattern(value, m_Zero());
      return zero && fill.getOutputs()[0] == init ? fill : nullptr;
    }
    if (!isMemoryEffectFree(prev))
      return nullptr;
  }
  return nullptr;
}

/// Whether `a` and `b` are the same view: one value, or subviews of one
/// buffer at the same static offsets, sizes and strides.
bool sameView(Value a, Value b) {
  if (a == b)
    return true;
  auto x = a.getDefiningOp<memref::SubViewOp>();
  auto y = b.getDefiningOp<memref::SubViewOp>();
  return x && y &&
         OperationEquivalence::isEquivalentTo(
             x, y, OperationEquivalence::IgnoreLocations);
}

/// Whether `op` reduces without reading its inputs: its body combines the
/// accumulator with values the loops do not change (a fill's value that
/// --relay-fuse-elementwise folded in: `sum(full(c, [n]))` is `out + c`
/// n times). Upstream's vectoriser reduces such a body once instead of n
/// times; the loop lowering computes it right.
bool reducesInvariant(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0)
    return false;
  return llvm::none_of(op.getDpsInputOperands(), [&](OpOperand *input) {
    return !op.getMatchingBlockArgument(input).use_empty();
  });
}

/// Whether `op` is a generic copy (its body yields its input) from an
/// input whose map is linear in the loops (sums of multiples of them, no
/// floordiv or mod) to an output in loop order: vectorizeShiftedCopyRow
/// vectorises its rows.
bool isShiftedCopy(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1 ||
      !generic.getIndexingMapsArray()[1].isIdentity())
    return false;
  Block &body = generic.getRegion().front();
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  return body.getOperations().size() == 1 && yield &&
         yield.getValues().size() == 1 &&
         yield.getValues()[0] == body.getArgument(0) &&
         generic.getIndexingMapsArray()[0].getNumSymbols() == 0 &&
         llvm::all_of(generic.getIndexingMapsArray()[0].getResults(),
                      [](AffineExpr e) {
                        bool linear = true;
                        e.walk([&](AffineExpr sub) {
                          linear &= sub.getKind() != AffineExprKind::FloorDiv &&
                                    sub.getKind() != AffineExprKind::CeilDiv &&
                                    sub.getKind() != AffineExprKind::Mod;
                        });
                        return linear;
                      });
}

/// A copy (its body yields its input) whose input map adds loop
/// dimensions, tiled to one row: windows of one tensor stacked by a
/// generic, out[c, kh, kw, n, h, w] = in[c, n, h + kh, w + kw] (a weight
/// gradient's im2col matrix). The linalg vectoriser takes only projected
/// permutations; the row is one vector read of the input along the one
/// dimension the row's loop moves and one vector write of the output.
LogicalResult vectorizeShiftedCopyRow(RewriterBase &rewriter,
                                      linalg::LinalgOp op) {
  if (!isShiftedCopy(op) || !op.hasPureBufferSemantics())
    return failure();
  auto generic = cast<linalg::GenericOp>(op.getOperation());
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  int64_t loops = ranges.size();
  if (loops == 0 || ShapedType::isDynamicShape(ranges) ||
      llvm::any_of(ArrayRef(ranges).drop_back(),
                   [](int64_t r) { return r != 1; }))
    return failure();
  AffineMap in = generic.getIndexingMapsArray()[0];
  // The input's indices at the row's start, and the one input dimension
  // that moves with the row's loop, by one per step.
  SmallVector<int64_t> zero(loops, 0), step(loops, 0);
  step.back() = 1;
  SmallVector<int64_t> at = in.compose(zero), next = in.compose(step);
  int64_t moving = -1;
  for (int64_t d = 0, e = at.size(); d < e; ++d) {
    if (next[d] == at[d])
      continue;
    if (moving >= 0 || next[d] - at[d] != 1)
      return failure();
    moving = d;
  }
  if (moving < 0)
    return failure();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value input = generic.getDpsInputs()[0];
  Value output = generic.getDpsInits()[0];
  auto inType = cast<MemRefType>(input.getType());
  auto outType = cast<MemRefType>(output.getType());
  auto vectorType = VectorType::get({ranges.back()}, inType.getElementType());
  SmallVector<Value> inIndices,
      outIndices(outType.getRank(),
                 arith::ConstantIndexOp::create(rewriter, loc, 0));
  for (int64_t i : at)
    inIndices.push_back(arith::ConstantIndexOp::create(rewriter, loc, i));
  MLIRContext *ctx = rewriter.getContext();
  Value padding = ub::PoisonOp::create(rewriter, loc, inType.getElementType());
  Value row = vector::TransferReadOp::create(
      rewriter, loc, vectorType, input, inIndices, padding,
      AffineMap::get(inType.getRank(), 0, getAffineDimExpr(moving, ctx)),
      ArrayRef<bool>{true});
  vector::TransferWriteOp::create(
      rewriter, loc, row, output, outIndices,
      AffineMap::getMinorIdentityMap(outType.getRank(), 1, ctx),
      ArrayRef<bool>{true});
  rewriter.eraseOp(op);
  return success();
}

/// Vectorises a static-shaped linalg op in place.
LogicalResult vectorizeOp(RewriterBase &rewriter, linalg::LinalgOp op,
                          bool contraction) {
  // What the linalg vectoriser takes it vectorises; a shifted copy's rows
  // are vector transfers of their own.
  if (!contraction && failed(linalg::vectorizeOpPrecondition(op)))
    return vectorizeShiftedCopyRow(rewriter, op);
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::VectorizationResult> result = linalg::vectorize(
      rewriter, op, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
      /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
      /*assumeDynamicDimsMatchVecSizes=*/false,
      /*createNamedContraction=*/contraction);
  if (failed(result))
    return failure();
  if (result->replacements.empty())
    rewriter.eraseOp(op);
  else
    rewriter.replaceOp(op, result->replacements);
  return success();
}

struct TileAndVectorizePass
    : public relay::impl::TileAndVectorizeBase<TileAndVectorizePass> {
  using Base::Base;

  /// The tile sizes of the CPU the function is compiled for.
  TileSizes tiles = TileSizes(relay::cpu::hostCPU());

  /// The register tile (rows, columns) of a cache tile of cm x cn.
  std::pair<int64_t, int64_t> registerTile(int64_t cm, int64_t cn) const {
    int64_t rn = alignedDivisorAtMost(cn, tiles.regN, {tiles.lanes});
    // With one vector per row (n not a multiple of 32: 14x14 maps, 208
    // columns) twice the rows keep 16 accumulators (MobileNet-V2 2% faster).
    int64_t rm = rn == tiles.regN / 2 && cm % (2 * tiles.regM) == 0
                     ? 2 * tiles.regM
                     : divisorAtMost(cm, tiles.regM);
    // Rows that leave most accumulators unused (49 rows: AVX2's 6-row tiles
    // fall to 1 row of 2 vectors, 2 accumulators where 4 FMAs of latency 4
    // must be in flight on each of 2 pipes) take one vector per row and up
    // to twice the rows instead (7 rows of 1 vector: 7 accumulators).
    int64_t accumulators = tiles.regM * tiles.regN / tiles.lanes;
    int64_t vectors = rn / tiles.lanes;
    if (2 * rm * vectors < accumulators && cn % tiles.lanes == 0) {
      int64_t rows = divisorAtMost(cm, 2 * tiles.regM);
      if (rows > rm * vectors)
        return {rows, tiles.lanes};
    }
    return {rm, rn};
  }

  /// The rows of a register tile `rn` columns wide that keeps enough
  /// accumulators: the register tile's, twice that with one vector per row
  /// (registerTile).
  int64_t wholeTileRows(int64_t rn) const {
    return rn == tiles.regN ? tiles.regM : 2 * tiles.regM;
  }

  /// Where the cm rows of a cache tile are split when its register tiles
  /// (rm x rn) would keep too few accumulators because the tile's rows do
  /// not divide cm (64 rows with AVX2's 6-row tiles: 4x16 tiles, 8
  /// accumulators): the rows before in whole register tiles (of
  /// wholeTileRows), the rest (over half of those: 64 = 60 + 4, 32 = 24 +
  /// 8) in tiles of their own. 0: none. Tiles of one vector per row are
  /// split only where they keep under half of the accumulators needed
  /// (AVX2's 7x8 tiles of 49 rows stay): R(2+1)D's 230 output channels,
  /// cache tiles of 46 rows over bands of 112 positions, took 2x16 tiles,
  /// 2 accumulators, at 56 GFLOP/s; now 32 rows of 16x16 and 14 of 14x16.
  int64_t splitRows(int64_t cm, int64_t rm, int64_t rn) const {
    constexpr int64_t kMin = relay::cpu::CPUDescription::kMinTileAccumulators;
    bool oneVector = rn == tiles.lanes && rn != tiles.regN;
    if ((rn != tiles.regN && !oneVector) || rm == wholeTileRows(rn) ||
        cm <= tiles.regM || rm * rn / tiles.lanes >= kMin ||
        (oneVector && 2 * rm >= kMin))
      return 0;
    int64_t quantum = wholeTileRows(rn);
    int64_t rest = cm % quantum;
    if (2 * rest <= quantum)
      rest += quantum;
    return rest < cm ? cm - rest : 0;
  }

  /// Where the cn columns of a cache tile are split when its register tiles
  /// (rm x rn) are not whole vectors: the columns before in whole vectors,
  /// the rest (fewer than a vector) in tiles of their own. 0: none. (A 1x1
  /// convolution computed in a depthwise one's 5-row windows of 24 columns,
  /// EfficientNet-V2's at 384x384, took 8x30 tiles, LLVM's vectors of 16,
  /// 8, 4 and 2 lanes, at 4 GFLOP/s.)
  int64_t splitColumns(int64_t cn, int64_t rn) const {
    if (rn % tiles.lanes == 0 || cn <= tiles.lanes)
      return 0;
    return cn / tiles.lanes * tiles.lanes;
  }

  /// The zero fills right before contractions, by contraction; the fills
  /// erased because their contraction starts from zero.
  llvm::DenseMap<Operation *, linalg::FillOp> zeroFills;
  llvm::DenseSet<Operation *> erasedFills;

  /// Whether `op` sits in a loop whose iterations run in parallel (the
  /// bands of a large convolution): the threads are busy already.
  static bool inParallelLoop(Operation *op) {
    for (auto loop = op->getParentOfType<scf::ForOp>(); loop;
         loop = loop->getParentOfType<scf::ForOp>())
      if (relay::hasCodegenMark(loop,
                                relay::CodegenMark::IndependentIterations))
        return true;
    return false;
  }

  /// The bytes of an element of `op`'s result (at least 1).
  static int64_t elementBytes(linalg::LinalgOp op) {
    Type e = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
    return e.isIntOrFloat()
               ? std::max<int64_t>(1, e.getIntOrFloatBitWidth() / 8)
               : 4;
  }

  /// The loops of a product on packed panels, out[mo, mi, no, ni] (in any
  /// order, ni innermost) = sum_k a[mo, k, mi] * b[no, k, ni], whose inner
  /// loops (mi, ni) are one register tile: each operand's innermost
  /// dimension is the tile's, so a register tile reads both sequentially.
  struct PanelLoops {
    unsigned mo, mi, no, ni, k;
  };
  std::optional<PanelLoops>
  panelLoops(linalg::LinalgOp op, const linalg::ContractionDimensions &dims,
             ArrayRef<int64_t> ranges) const {
    if (!dims.batch.empty() || dims.m.size() != 2 || dims.n.size() != 2 ||
        dims.k.size() != 1 || op.getNumDpsInputs() != 2 ||
        op.getNumDpsInits() != 1 || ShapedType::isDynamicShape(ranges))
      return std::nullopt;
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    auto innermost = [](AffineMap map) -> std::optional<unsigned> {
      if (!map.isProjectedPermutation() || map.getNumResults() == 0)
        return std::nullopt;
      return map.getDimPosition(map.getNumResults() - 1);
    };
    std::optional<unsigned> a = innermost(maps[0]), b = innermost(maps[1]),
                            out = innermost(maps[2]);
    if (!a || !b || !out)
      return std::nullopt;
    if (llvm::is_contained(dims.n, *a))
      std::swap(a, b);
    if (!llvm::is_contained(dims.m, *a) || !llvm::is_contained(dims.n, *b) ||
        *out != *b)
      return std::nullopt;
    PanelLoops l;
    l.mi = *a;
    l.mo = dims.m[0] == *a ? dims.m[1] : dims.m[0];
    l.ni = *b;
    l.no = dims.n[0] == *b ? dims.n[1] : dims.n[0];
    l.k = dims.k[0];
    if (ranges[l.ni] % tiles.lanes != 0 || ranges[l.ni] > tiles.regN ||
        ranges[l.mi] < 2 || ranges[l.mi] > 2 * tiles.regM)
      return std::nullopt;
    // Each k tile but the first reads the register tiles back: only where
    // their rows are contiguous, or k is one tile. (A convolution's packed
    // positions with their result in rows, outT[po, pi, fo, fi], as AVX2
    // keeps them: a 1024 -> 256 1x1 convolution on 14x14 maps ran 5%
    // slower in the panel schedule's k tiles than in the other products'
    // on a Xeon; with the result in panels of channels, as AVX-512 keeps
    // it, no slower.)
    unsigned results = maps[2].getNumResults();
    bool contiguous =
        results >= 2 && maps[2].getDimPosition(results - 2) == l.mi;
    if (!contiguous &&
        ranges[l.k] > tiles.cpu.panelSliceK(ranges[l.ni], elementBytes(op)))
      return std::nullopt;
    return l;
  }

  /// Before `tiled`, the register tile of a product on packed panels (one
  /// panel of B, its row at one k, in a loop `noLoop` over B's panels),
  /// prefetches the same row of B's next panel into L2 (the last panel
  /// prefetches its own row): while every m tile reads a panel's k tile
  /// from L1, the next panel's comes in. Constant weights come from memory
  /// in a network (the layers before evicted them), and the hardware's
  /// prefetchers do not run ahead of the k tiles of one panel after
  /// another. A chain of 16 512-channel 3x3 convolutions on 7x7 maps (9.4
  /// MB of weights each) ran 41.2 -> 31.5 ms so on a Xeon; prefetched into
  /// L1 instead (where the next panel's k tile evicts the current one's),
  /// 38.5 -> 33.9 ms, and a 1024^3 product 7% slower.
  void prefetchNextPanel(RewriterBase &rewriter, linalg::LinalgOp tiled,
                         const PanelLoops &l, scf::ForOp noLoop) const {
    if (!noLoop)
      return;
    SmallVector<AffineMap> maps = tiled.getIndexingMapsArray();
    unsigned bIndex =
        maps[1].getDimPosition(maps[1].getNumResults() - 1) == l.ni ? 1 : 0;
    auto view = tiled.getDpsInputs()[bIndex].getDefiningOp<memref::SubViewOp>();
    if (!view)
      return;
    // Only B's not made here (constant weights, arguments): a panel packed
    // at run time was just written, so is in the cache, and prefetching it
    // again cost a 1024^3 product 2%.
    Value root = rootBuffer(view);
    if (!isa<BlockArgument>(root) && !root.getDefiningOp<memref::GetGlobalOp>())
      return;
    SmallVector<OpFoldResult> offsets = view.getMixedOffsets();
    auto noOffset = llvm::find_if(offsets, [&](OpFoldResult o) {
      return dyn_cast<Value>(o) == noLoop.getInductionVar();
    });
    auto type = cast<MemRefType>(view.getType());
    if (noOffset == offsets.end() || !type.hasStaticShape() ||
        maps[bIndex].getDimPosition(maps[bIndex].getNumResults() - 1) != l.ni)
      return;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(tiled);
    Location loc = tiled.getLoc();
    Value iv = noLoop.getInductionVar(), step = noLoop.getStep();
    Value next = arith::MinSIOp::create(
        rewriter, loc, arith::AddIOp::create(rewriter, loc, iv, step),
        arith::SubIOp::create(rewriter, loc, noLoop.getUpperBound(), step));
    *noOffset = next;
    Value nextRow = memref::SubViewOp::create(
        rewriter, loc, type, view.getSource(), offsets, view.getMixedSizes(),
        view.getMixedStrides());
    // One prefetch per cache line (64 bytes) of the row.
    int64_t lineElements =
        64 / std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
    SmallVector<Value> indices(
        type.getRank(), arith::ConstantIndexOp::create(rewriter, loc, 0));
    for (int64_t at = 0; at < type.getShape().back(); at += lineElements) {
      indices.back() = arith::ConstantIndexOp::create(rewriter, loc, at);
      memref::PrefetchOp::create(rewriter, loc, nextRow, indices,
                                 /*isWrite=*/false, /*localityHint=*/2,
                                 /*isDataCache=*/true);
    }
  }

  /// A product on packed panels (panelLoops) as BLIS schedules one: blocks
  /// of A's m tiles by a k tile (the block in L2), in each, for each of B's
  /// panels, its k tile's slice (in L1) read by every m tile of the block in
  /// turn, the register tile summing along k. With threads, each takes a
  /// share of B's panels (or else of A's). On a Xeon with a 48 KB L1 and a
  /// 2 MB L2, C loops of a 1024^3 product's 8x32 tiles in this order ran at
  /// 155 GFLOP/s with k tiles of 128-256 (and 118 with each tile's rows a
  /// row of the result apart, 126 with the other products' k tiles of 512,
  /// the slice of B coming from L2); MatrixProducts' 1024^3 and 2048^3 at
  /// one thread went from 116 and 109 GFLOP/s to 121 and 118.
  LogicalResult schedulePanelProduct(RewriterBase &rewriter,
                                     linalg::LinalgOp op, const PanelLoops &l,
                                     ArrayRef<int64_t> ranges) {
    unsigned numLoops = ranges.size();
    int64_t bytes = elementBytes(op);
    int64_t kCap = tiles.cpu.panelSliceK(ranges[l.ni], bytes);
    int64_t kt = divisorAtMost(ranges[l.k], kCap);
    // No divisor near the cap (a prime k): k whole, as other products.
    if (2 * kt < std::min(kCap, ranges[l.k]))
      kt = ranges[l.k];
    int64_t flops = 2;
    for (int64_t r : ranges)
      flops *= r;
    bool parallel =
        threads > 1 && flops >= kParallelMinFlops && !inParallelLoop(op);
    linalg::FillOp zeroFill = zeroFills.lookup(op);
    Value output = op.getDpsInitOperand(0)->get();
    Operation *nest = nullptr;
    FailureOr<linalg::LinalgOp> tiled = op;
    auto permutation = [&](std::initializer_list<unsigned> first) {
      SmallVector<int64_t> order(first.begin(), first.end());
      for (unsigned d = 0; d < numLoops; ++d)
        if (!llvm::is_contained(first, d))
          order.push_back(d);
      return order;
    };
    if (parallel) {
      // B's panels split evenly where they can be, else A's.
      unsigned d =
          ranges[l.no] % threads == 0 ||
                  (ranges[l.mo] % threads != 0 && ranges[l.no] >= ranges[l.mo])
              ? l.no
              : l.mo;
      SmallVector<int64_t> sizes(numLoops, 0);
      sizes[d] = tileOrWhole(
          ranges[d],
          divisorAtMost(ranges[d], (ranges[d] + threads - 1) / threads));
      tiled = tile(rewriter, op, sizes,
                   scf::SCFTilingOptions::LoopType::ForallOp, &nest);
      if (failed(tiled))
        return failure();
    }
    SmallVector<int64_t> inner = tiled->getStaticLoopRanges();
    int64_t blockRows = tiles.cpu.panelBlockBytes() / (kt * bytes);
    SmallVector<int64_t> block(numLoops, 0);
    block[l.mo] = tileOrWhole(
        inner[l.mo],
        divisorAtMost(inner[l.mo],
                      std::max<int64_t>(1, blockRows / ranges[l.mi])));
    block[l.k] = tileOrWhole(inner[l.k], kt);
    SmallVector<Operation *> blockLoops;
    tiled =
        tile(rewriter, *tiled, block, scf::SCFTilingOptions::LoopType::ForOp,
             nest ? nullptr : &nest, &blockLoops, permutation({l.mo, l.k}));
    if (failed(tiled))
      return failure();
    Operation *kLoop = block[l.k] ? blockLoops.back() : nullptr;
    inner = tiled->getStaticLoopRanges();
    SmallVector<int64_t> reg(numLoops, 0);
    reg[l.no] = tileOrWhole(inner[l.no], 1);
    reg[l.mo] = tileOrWhole(inner[l.mo], 1);
    reg[l.k] = tileOrWhole(inner[l.k], 1);
    SmallVector<Operation *> regLoops;
    tiled =
        tile(rewriter, *tiled, reg, scf::SCFTilingOptions::LoopType::ForOp,
             nest ? nullptr : &nest, &regLoops, permutation({l.no, l.mo, l.k}));
    if (failed(tiled))
      return failure();
    if (reg[l.no] && !regLoops.empty())
      prefetchNextPanel(rewriter, *tiled, l,
                        dyn_cast<scf::ForOp>(regLoops.front()));
    if (vectorize && failed(vectorizeOp(rewriter, *tiled, true)))
      return failure();
    ++numContractions;
    // The first k tile starts its register tiles from zero where the
    // output was freshly zeroed (see scheduleContraction).
    if (!vectorize || !zeroFill || !reg[l.k] || !(reg[l.no] || reg[l.mo]))
      return success();
    scf::ForOp first;
    if (!kLoop && nest)
      startFromZero(rewriter, nest, output, zeroFill);
    else if (isa_and_nonnull<scf::ForOp>(kLoop) &&
             succeeded(scf::peelForLoopFirstIteration(
                 rewriter, cast<scf::ForOp>(kLoop), first)))
      startFromZero(rewriter, first, output, zeroFill);
    return success();
  }

  /// Cache tiles, register tiles, vector.contract.
  LogicalResult scheduleContraction(RewriterBase &rewriter, linalg::LinalgOp op,
                                    const linalg::ContractionDimensions &dims,
                                    ArrayRef<int64_t> ranges) {
    if (std::optional<PanelLoops> panels = panelLoops(op, dims, ranges))
      return schedulePanelProduct(rewriter, op, *panels, ranges);
    SmallVector<int64_t> cache(ranges.size(), 0), reg(ranges.size(), 0);
    // Batch dims and all but the innermost m, n and k dims go one at a time.
    auto outer = [&](ArrayRef<unsigned> ds) {
      for (unsigned d : ds.drop_back()) {
        cache[d] = tileOrWhole(ranges[d], 1);
        reg[d] = 0;
      }
    };
    for (unsigned d : dims.batch)
      cache[d] = tileOrWhole(ranges[d], 1);
    outer(dims.m);
    outer(dims.n);
    outer(dims.k);
    unsigned m = dims.m.back(), n = dims.n.back(), k = dims.k.back();
    int64_t cm = alignedDivisorAtMost(ranges[m], tiles.cacheM, {tiles.regM});
    // An m with no divisor near the cache tile (7x7 maps' 49 positions with
    // AVX2's 32-row cache tiles: 7) goes whole when it is within twice the
    // cache tile: a few rows per m tile read all of B again for each
    // (ResNet-18's last convolutions re-read 9.4 MB of weights 7 times).
    if (2 * cm <= tiles.cacheM && ranges[m] <= 2 * tiles.cacheM)
      cm = ranges[m];
    int64_t cn = alignedDivisorAtMost(ranges[n], tiles.cacheN,
                                      {tiles.regN, tiles.lanes});
    int64_t ck = divisorAtMost(ranges[k], tiles.cacheK);
    cache[m] = tileOrWhole(ranges[m], cm);
    cache[n] = tileOrWhole(ranges[n], cn);
    cache[k] = tileOrWhole(ranges[k], ck);
    auto [rm, rn] = registerTile(cm, cn);
    reg[m] = tileOrWhole(cm, rm);
    reg[n] = tileOrWhole(cn, rn);
    reg[k] = tileOrWhole(ck, 1);
    // A product over a freshly zeroed buffer whose k loop is one cache tile
    // starts its register tiles from zero instead: the fill (a memset of the
    // whole output) goes.
    // With k over several cache tiles the first k tile is peeled off and
    // starts from zero. (The accumulator reads must sit in m or n loops:
    // hoisting replaces the k loops around them.)
    bool mnLoop = cache[m] || cache[n] || reg[m] || reg[n];
    bool mnRegLoop = reg[m] || reg[n];
    linalg::FillOp zeroFill = dims.k.size() == 1 && reg[k] != 0 &&
                                      (cache[k] == 0 ? mnLoop : mnRegLoop)
                                  ? zeroFills.lookup(op)
                                  : nullptr;
    SmallVector<Operation *> cacheLoops;
    // The loop over k tiles: the tiled loops follow their dimensions' order.
    auto kLoopOf = [&](ArrayRef<int64_t> sizes) -> Operation * {
      if (!sizes[k] || cacheLoops.empty())
        return nullptr;
      unsigned before = llvm::count_if(ArrayRef(sizes).take_front(k),
                                       [](int64_t s) { return s != 0; });
      return before < cacheLoops.size() ? cacheLoops[before] : nullptr;
    };
    Operation *kLoop = nullptr;
    Value output = op.getDpsInitOperand(0)->get();
    Operation *nest = nullptr;
    FailureOr<linalg::LinalgOp> tiled = failure();
    int64_t flops = 2;
    for (int64_t r : ranges)
      flops *= r;
    bool parallel =
        threads > 1 && flops >= kParallelMinFlops && !inParallelLoop(op);
    // A long k whose B panel does not stay in the cache (a convolution's
    // weight gradient: 147 x 64 results summed over 100352): the loops go
    // (n, k, m), so that each k x n block of B is read from the cache by
    // every m tile instead of B's whole panel streaming in again for each.
    bool panels = ranges.size() == 3 && dims.m.size() == 1 &&
                  dims.n.size() == 1 && dims.k.size() == 1 && cache[m] &&
                  cache[k] &&
                  ranges[k] * (cache[n] ? cache[n] : ranges[n]) * 4 >=
                      tiles.minPanelBytes;
    if (panels) {
      // (n, k) tiles sequential; the m tiles inside, on threads when
      // parallel.
      SmallVector<int64_t> outerSizes(cache), mSizes(cache.size(), 0);
      outerSizes[m] = 0;
      mSizes[m] = cache[m];
      // The three loops are m, n and k (checked above): n, then k, then m.
      SmallVector<int64_t> interchange = {n, k, m};
      tiled =
          tile(rewriter, op, outerSizes, scf::SCFTilingOptions::LoopType::ForOp,
               &nest, &cacheLoops, interchange);
      if (succeeded(tiled)) {
        unsigned kAt = outerSizes[n] ? 1 : 0;
        kLoop = kAt < cacheLoops.size() ? cacheLoops[kAt] : nullptr;
        tiled = tile(rewriter, *tiled, mSizes,
                     parallel ? scf::SCFTilingOptions::LoopType::ForallOp
                              : scf::SCFTilingOptions::LoopType::ForOp);
      }
    } else if (parallel) {
      // The parallel cache tiles as one scf.forall, then k inside.
      SmallVector<int64_t> parallel(cache), reduction(cache.size(), 0);
      for (unsigned d : dims.k) {
        parallel[d] = 0;
        reduction[d] = cache[d];
      }
      // With m tiles enough for every thread, the n tiles go inside too:
      // a forall over both (36 x 2 tiles of a 2304x256 result: a
      // convolution's weight gradient) ran 2-4x slower at two threads than
      // at one; over the m tiles alone, 1.9x faster.
      if (cache[m] && ranges[m] / cache[m] >= 2 * threads)
        for (unsigned d : dims.n) {
          parallel[d] = 0;
          reduction[d] = cache[d];
        }
      tiled = tile(rewriter, op, parallel,
                   scf::SCFTilingOptions::LoopType::ForallOp, &nest);
      if (succeeded(tiled)) {
        tiled =
            tile(rewriter, *tiled, reduction,
                 scf::SCFTilingOptions::LoopType::ForOp, &nest, &cacheLoops);
        kLoop = kLoopOf(reduction);
      }
    } else {
      tiled = tile(rewriter, op, cache, scf::SCFTilingOptions::LoopType::ForOp,
                   &nest, &cacheLoops);
      kLoop = kLoopOf(cache);
    }
    if (failed(tiled))
      return failure();
    // Rows (or else columns) split in two parts, each with its register
    // tile, only inside cache loops: the zero start below rewrites the nest
    // they share.
    SmallVector<std::pair<linalg::LinalgOp, SmallVector<int64_t>>> parts = {
        {*tiled, reg}};
    SmallVector<int64_t> firstReg(reg), secondReg(reg);
    unsigned splitDim = m;
    int64_t splitAt = 0;
    if (!nest) {
      // Nothing to split inside.
    } else if ((splitAt = splitRows(cm, rm, rn))) {
      auto [restM, restN] = registerTile(cm - splitAt, cn);
      firstReg[m] = tileOrWhole(splitAt, wholeTileRows(rn));
      secondReg[m] = tileOrWhole(cm - splitAt, restM);
      secondReg[n] = tileOrWhole(cn, restN);
    } else if ((splitAt = splitColumns(cn, rn))) {
      splitDim = n;
      auto [firstM, firstN] = registerTile(cm, splitAt);
      auto [restM, restN] = registerTile(cm, cn - splitAt);
      firstReg[m] = tileOrWhole(cm, firstM);
      firstReg[n] = tileOrWhole(splitAt, firstN);
      secondReg[m] = tileOrWhole(cm, restM);
      secondReg[n] = tileOrWhole(cn - splitAt, restN);
    }
    if (splitAt) {
      auto halves = splitLinalg(rewriter, *tiled, splitDim, splitAt);
      if (failed(halves))
        return failure();
      parts = {{halves->first, firstReg}, {halves->second, secondReg}};
    }
    for (auto &[part, sizes] : parts) {
      tiled =
          tile(rewriter, part, sizes, scf::SCFTilingOptions::LoopType::ForOp,
               nest ? nullptr : &nest);
      if (failed(tiled))
        return failure();
      if (vectorize && failed(vectorizeOp(rewriter, *tiled, true)))
        return failure();
    }
    ++numContractions;
    if (vectorize && zeroFill && cache[k] == 0 && nest)
      startFromZero(rewriter, nest, output, zeroFill);
    scf::ForOp first;
    if (vectorize && zeroFill && cache[k] != 0 &&
        isa_and_nonnull<scf::ForOp>(kLoop) &&
        succeeded(scf::peelForLoopFirstIteration(
            rewriter, cast<scf::ForOp>(kLoop), first)))
      startFromZero(rewriter, first, output, zeroFill);
    return success();
  }

  /// Replaces the reads of `output`'s accumulator tiles in `nest` (a
  /// vectorised contraction with a single k tile) by zero and erases
  /// `fill`, when every read, once hoisted out of its k loop, only starts
  /// that loop's accumulation; otherwise leaves everything as it is.
  void startFromZero(RewriterBase &rewriter, Operation *nest, Value output,
                     linalg::FillOp fill) {
    DominanceInfo dominance(nest);
    eliminateCommonSubExpressions(rewriter, dominance, nest);
    relay::hoistAccumulatorTransfers(nest);
    Value root = rootBuffer(output);
    SmallVector<vector::TransferReadOp> reads;
    bool onlyStarts = true;
    nest->walk([&](vector::TransferReadOp read) {
      if (rootBuffer(read.getBase()) != root)
        return;
      reads.push_back(read);
      onlyStarts &= read->hasOneUse() &&
                    isa<scf::ForOp>(*read->getUsers().begin()) &&
                    llvm::is_contained(
                        cast<scf::ForOp>(*read->getUsers().begin()).getInits(),
                        read.getResult());
    });
    if (!onlyStarts || reads.empty())
      return;
    for (vector::TransferReadOp read : reads) {
      rewriter.setInsertionPoint(read);
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          read, rewriter.getZeroAttr(read.getVectorType()));
    }
    erasedFills.insert(fill);
    rewriter.eraseOp(fill);
    ++numZeroStarts;
  }

  /// `op` tiled by `sizes`; with threads and enough `work` (the iterations
  /// of the op `op` was split from), the outermost parallel loop (not the
  /// vectorised innermost one) with a tile for every thread is an
  /// scf.forall, the other loops inside it. A
  /// transposition between a product's [P, C] result and NCHW ran on one
  /// thread: 6% of ResNeXt-50's two-thread time, the other thread idle.
  FailureOr<linalg::LinalgOp>
  tileParallelOutermost(RewriterBase &rewriter, linalg::LinalgOp op,
                        SmallVector<int64_t> sizes, int64_t work,
                        Operation **outermost = nullptr) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (threads <= 1 || work < kParallelMinIterations || inParallelLoop(op) ||
        ShapedType::isDynamicShape(ranges))
      return tile(rewriter, op, sizes, scf::SCFTilingOptions::LoopType::ForOp,
                  outermost);
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    for (int64_t d = 0, e = int64_t(ranges.size()) - 1; d < e; ++d) {
      int64_t step = sizes[d] ? sizes[d] : ranges[d];
      if (iterators[d] != utils::IteratorType::parallel ||
          ranges[d] / step < threads)
        continue;
      SmallVector<int64_t> parallel(sizes.size(), 0);
      parallel[d] = step;
      sizes[d] = 0;
      FailureOr<linalg::LinalgOp> tiled =
          tile(rewriter, op, parallel,
               scf::SCFTilingOptions::LoopType::ForallOp, outermost);
      if (failed(tiled))
        return failure();
      return tile(rewriter, *tiled, sizes);
    }
    return tile(rewriter, op, sizes, scf::SCFTilingOptions::LoopType::ForOp,
                outermost);
  }

  /// Every loop but the innermost to 1, the innermost to a vector. A
  /// reduction over an outer loop into a parallel innermost one (the
  /// per-lane partial sums of a matrix-vector product) keeps its vector
  /// accumulator in a register across the reduction; the parallel loop
  /// outside it is tiled to tiles.regM rows so that as many independent
  /// accumulation chains hide the latency of the FMAs.
  LogicalResult scheduleOther(RewriterBase &rewriter, linalg::LinalgOp op,
                              ArrayRef<int64_t> ranges) {
    SmallVector<int64_t> sizes;
    for (int64_t r : ranges.drop_back())
      sizes.push_back(tileOrWhole(r, 1));
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    // The innermost loop in whole registers: a parallel loop whose range is
    // not a multiple of 16 lanes (a 56-wide row) is split into a multiple
    // of 16 and a tail below. Vectors of 56 lanes are 3.5 registers: LLVM
    // splits every operation and, with broadcast operands, spilled them.
    int64_t cap = op.getNumDpsInputs() > kManyInputs ? tiles.manyInputsVector
                                                     : tiles.innerVector;
    // A reduction along the row is split the same way where its range has
    // no divisor of a register or more (softmax over a ViT's 197 tokens):
    // else it ran one element at a time, five times slower than split.
    int64_t splitAt = 0;
    if (!ranges.empty()) {
      int64_t last = ranges.back();
      if (last % tiles.lanes == 0) {
        sizes.push_back(
            tileOrWhole(last, alignedDivisorAtMost(last, cap, {tiles.lanes})));
      } else if (last > tiles.lanes &&
                 (iterators.back() == utils::IteratorType::parallel ||
                  divisorAtMost(last, cap) < tiles.lanes)) {
        splitAt = last / tiles.lanes * tiles.lanes;
        sizes.push_back(0);
      } else {
        sizes.push_back(tileOrWhole(last, divisorAtMost(last, cap)));
      }
    }
    // Rows reduced over one whole vector each (a matrix-vector product's
    // per-lane partial sums) go a vector's count of rows at a time: the
    // square block's rows are summed as a tree (RowReductionTree).
    if (iterators.size() == 2 &&
        iterators[0] == utils::IteratorType::parallel &&
        iterators[1] == utils::IteratorType::reduction &&
        ranges[1] == tiles.lanes && ranges[0] % tiles.lanes == 0)
      sizes[0] = tileOrWhole(ranges[0], tiles.lanes);
    if (iterators.size() >= 3 &&
        iterators.back() == utils::IteratorType::parallel &&
        iterators[iterators.size() - 2] == utils::IteratorType::reduction) {
      // The innermost parallel loop outside the reductions.
      for (int64_t d = iterators.size() - 3; d >= 0; --d) {
        if (iterators[d] != utils::IteratorType::parallel)
          continue;
        sizes[d] = tileOrWhole(ranges[d], divisorAtMost(ranges[d], tiles.regM));
        break;
      }
    }
    // A matrix-vector product's partial sums over a freshly zeroed buffer,
    // their one reduction loop whole inside the tiles: the accumulators
    // start from zero and the fill (a memset of the partial sums) goes. Not
    // with more reduction loops (an accumulator read inside an outer one
    // carries the sums of its earlier iterations), nor without a parallel
    // loop around the reduction's for the reads to sit in (a product of 2
    // rows, whole in one register tile: its nest is the reduction loop).
    auto reduction = llvm::find(iterators, utils::IteratorType::reduction);
    bool rowLoop = llvm::any_of(
        llvm::seq<int64_t>(0, reduction - iterators.begin()), [&](int64_t d) {
          return iterators[d] == utils::IteratorType::parallel && sizes[d];
        });
    linalg::FillOp zeroFill =
        llvm::count(iterators, utils::IteratorType::reduction) == 1 &&
                iterators.back() == utils::IteratorType::parallel && rowLoop
            ? zeroFills.lookup(op)
            : nullptr;
    Value output =
        op.getNumDpsInits() == 1 ? op.getDpsInitOperand(0)->get() : Value();
    Operation *nest = nullptr;
    // The work counts an iteration once per pair of operands it streams:
    // Winograd's input transform (6 inputs and 6 outputs over 64 x 14 x 58
    // for a 56x56 layer) moves as much memory as a copy six times its size.
    int64_t work = ShapedType::getNumElements(ranges) *
                   std::max<int64_t>(1, op->getNumOperands() / 2);
    FailureOr<linalg::LinalgOp> tiled =
        tileParallelOutermost(rewriter, op, sizes, work, &nest);
    if (failed(tiled))
      return failure();
    if (splitAt) {
      // The row's whole registers, tiled to at most `cap` lanes, and its
      // tail (8 lanes of a 56-wide row) as one shorter vector, in the same
      // loop nest.
      unsigned dim = ranges.size() - 1;
      auto halves = splitLinalg(rewriter, *tiled, dim, splitAt);
      if (failed(halves))
        return failure();
      SmallVector<int64_t> headSizes(ranges.size(), 0);
      headSizes[dim] = tileOrWhole(
          splitAt, alignedDivisorAtMost(splitAt, cap, {tiles.lanes}));
      FailureOr<linalg::LinalgOp> inner =
          tile(rewriter, halves->first, headSizes);
      if (failed(inner))
        return failure();
      if (vectorize && (failed(vectorizeOp(rewriter, *inner, false)) ||
                        failed(vectorizeOp(rewriter, halves->second, false))))
        return failure();
      ++numVectorized;
      return success();
    }
    if (vectorize && failed(vectorizeOp(rewriter, *tiled, false)))
      return failure();
    ++numVectorized;
    if (vectorize && zeroFill && output && nest)
      startFromZero(rewriter, nest, output, zeroFill);
    return success();
  }

  /// A transposition whose output's innermost dimension and the dimension
  /// its input's innermost dimension lands on are whole vectors goes in
  /// square blocks (16x16 or 8x8: blockSize): the vector.transpose of each
  /// block becomes a network of shuffles (lowerBlockTransposes) instead of
  /// one load per element. Taken: linalg.transpose of f32, and all-parallel
  /// generics of 32-bit elements that write through the identity and read one
  /// input through another permutation (an int8 convolution's [P, O] result
  /// read back into NCHW, with the elementwise ops fused into it) -- read by
  /// rows of its output, such an input was one gather per element, each
  /// from another cache line.
  LogicalResult scheduleBlockTranspose(RewriterBase &rewriter,
                                       linalg::LinalgOp op,
                                       ArrayRef<int64_t> ranges) {
    int64_t rank = ranges.size();
    std::optional<int64_t> from = transposedLoop(op);
    if (rank < 2 || !from || *from == rank - 1)
      return failure();
    int64_t block = blockSize(ranges[*from], ranges[rank - 1]);
    // NCHW to NHWC of 14x14 or 28x28 maps: H and W stay together, and as
    // one dimension of 196 or 784 they are (mostly) whole blocks.
    auto transpose = dyn_cast<linalg::TransposeOp>(op.getOperation());
    if (transpose && (!block || ranges[*from] % block != 0)) {
      if (std::optional<linalg::TransposeOp> collapsed =
              collapseTransposedRuns(rewriter, transpose)) {
        linalg::LinalgOp next = *collapsed;
        return scheduleBlockTranspose(rewriter, next,
                                      next.getStaticLoopRanges());
      }
    }
    if (!block)
      return failure();
    // Rows that are not whole blocks (49 = 48 + 1): the whole blocks go in
    // blocks, the rest of each row as vectors of its own (each element read
    // on its own: MobileNet-V2's int8 56-wide rows, 48 + 8 in 16x16 blocks,
    // spent 90% of their transposition in the 8 columns left). So do the
    // input's rows that are not whole blocks (196 = 192 + 4).
    linalg::LinalgOp blocks = op, restOfFrom, rest;
    int64_t wholeFrom = ranges[*from] / block * block;
    if (wholeFrom != ranges[*from]) {
      auto halves = splitLinalg(rewriter, blocks, *from, wholeFrom);
      if (failed(halves))
        return failure();
      std::tie(blocks, restOfFrom) = *halves;
    }
    int64_t whole = ranges[rank - 1] / block * block;
    if (whole != ranges[rank - 1]) {
      auto halves = splitLinalg(rewriter, blocks, rank - 1, whole);
      if (failed(halves))
        return failure();
      std::tie(blocks, rest) = *halves;
    }
    SmallVector<int64_t> sizes;
    for (int64_t r : ranges)
      sizes.push_back(tileOrWhole(r, 1));
    sizes[*from] = tileOrWhole(wholeFrom, block);
    sizes[rank - 1] = tileOrWhole(whole, block);
    FailureOr<linalg::LinalgOp> tiled = tileParallelOutermost(
        rewriter, blocks, sizes, ShapedType::getNumElements(ranges));
    if (failed(tiled) ||
        (vectorize && failed(vectorizeOp(rewriter, *tiled, false))))
      return failure();
    // The rests: one vector per row of the output, each element gathered.
    for (linalg::LinalgOp part : {rest, restOfFrom}) {
      if (!part)
        continue;
      SmallVector<int64_t> partRanges = part.getStaticLoopRanges();
      for (int64_t d = 0; d < rank; ++d)
        sizes[d] = tileOrWhole(partRanges[d], 1);
      sizes[rank - 1] = 0;
      FailureOr<linalg::LinalgOp> tiledRest = tile(rewriter, part, sizes);
      if (failed(tiledRest) ||
          (vectorize && failed(vectorizeOp(rewriter, *tiledRest, false))))
        return failure();
    }
    ++numVectorized;
    return success();
  }

  /// `op` with each run of output dimensions that reads consecutive input
  /// dimensions in order (H and W of NCHW -> NHWC) made one dimension, where
  /// both buffers are contiguous along each run (memref.collapse_shape);
  /// nothing (and `op` untouched) when no run has two dimensions or a
  /// buffer is strided along one.
  std::optional<linalg::TransposeOp>
  collapseTransposedRuns(RewriterBase &rewriter, linalg::TransposeOp op) {
    ArrayRef<int64_t> perm = op.getPermutation();
    auto inType = dyn_cast<MemRefType>(op.getInput().getType());
    auto outType = dyn_cast<MemRefType>(op.getInit().getType());
    if (!inType || !outType)
      return std::nullopt;
    // Runs of output dimensions, in output order.
    SmallVector<ReassociationIndices> outRuns;
    for (int64_t i = 0, e = perm.size(); i < e; ++i) {
      if (i > 0 && perm[i] == perm[i - 1] + 1)
        outRuns.back().push_back(i);
      else
        outRuns.push_back({i});
    }
    if (outRuns.size() == perm.size())
      return std::nullopt;
    // Only where the collapsed transposition goes in blocks: the run that
    // reads the input's innermost dimension is not the output's last, and
    // the block size of the two runs' lengths is not 0.
    ArrayRef<int64_t> shape = outType.getShape();
    auto length = [&](const ReassociationIndices &run) {
      int64_t n = 1;
      for (int64_t d : run)
        n *= shape[d];
      return n;
    };
    auto fromRun = llvm::find_if(outRuns, [&](const ReassociationIndices &r) {
      return perm[r.back()] == int64_t(perm.size()) - 1;
    });
    if (fromRun == outRuns.end() || fromRun == outRuns.end() - 1 ||
        !blockSize(length(*fromRun), length(outRuns.back())))
      return std::nullopt;
    // The same runs over the input's dimensions, in input order, and the
    // collapsed permutation.
    SmallVector<int64_t> order(outRuns.size());
    std::iota(order.begin(), order.end(), 0);
    llvm::sort(order, [&](int64_t a, int64_t b) {
      return perm[outRuns[a][0]] < perm[outRuns[b][0]];
    });
    SmallVector<ReassociationIndices> inRuns;
    SmallVector<int64_t> position(outRuns.size());
    for (auto [at, run] : llvm::enumerate(order)) {
      position[run] = at;
      ReassociationIndices dims;
      for (int64_t d : outRuns[run])
        dims.push_back(perm[d]);
      inRuns.push_back(dims);
    }
    if (!memref::CollapseShapeOp::isGuaranteedCollapsible(inType, inRuns) ||
        !memref::CollapseShapeOp::isGuaranteedCollapsible(outType, outRuns))
      return std::nullopt;
    SmallVector<int64_t> collapsedPerm;
    for (int64_t run = 0, e = outRuns.size(); run < e; ++run)
      collapsedPerm.push_back(position[run]);
    rewriter.setInsertionPoint(op);
    Location loc = op.getLoc();
    Value in =
        memref::CollapseShapeOp::create(rewriter, loc, op.getInput(), inRuns);
    Value out =
        memref::CollapseShapeOp::create(rewriter, loc, op.getInit(), outRuns);
    auto collapsed =
        linalg::TransposeOp::create(rewriter, loc, in, out, collapsedPerm);
    rewriter.eraseOp(op);
    return collapsed;
  }

  /// f32, i32 and the like (not index, whose width the target decides).
  static bool is32Bit(Type t) {
    return t.isIntOrFloat() && t.getIntOrFloatBitWidth() == 32;
  }

  /// The loop whose index is the innermost dimension of the input `op`
  /// transposes (see scheduleBlockTranspose); none for other ops.
  static std::optional<int64_t> transposedLoop(linalg::LinalgOp op) {
    if (auto transpose = dyn_cast<linalg::TransposeOp>(op.getOperation())) {
      if (!transpose.getInput().getType().getElementType().isF32())
        return std::nullopt;
      ArrayRef<int64_t> perm = transpose.getPermutation();
      return llvm::find(perm, int64_t(perm.size()) - 1) - perm.begin();
    }
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic || generic.getNumReductionLoops() != 0 ||
        generic.getNumDpsInits() != 1 ||
        !generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
             .isIdentity())
      return std::nullopt;
    std::optional<int64_t> loop;
    for (OpOperand *in : generic.getDpsInputOperands()) {
      AffineMap map = generic.getMatchingIndexingMap(in);
      auto type = dyn_cast<ShapedType>(in->get().getType());
      if (!map.isPermutation() || map.isIdentity() || !type ||
          !is32Bit(type.getElementType()))
        continue;
      if (loop)
        return std::nullopt;
      loop = cast<AffineDimExpr>(map.getResults().back()).getPosition();
    }
    return loop;
  }
  /// The side of the square blocks a transposition of `from` x `rows`
  /// elements (the input's innermost dimension and the output's) goes in:
  /// 16 where both are whole 16-lane vectors and the CPU has them, else 8
  /// (AVX2's vectors, and AVX-512's rows of 56 or 24) where both are whole
  /// 8-lane vectors, else 16 with rests (where the CPU has 16-lane vectors
  /// or the input's rows are whole blocks), else 8 with rests; 0 for
  /// transpositions narrower than 8 either way.
  int64_t blockSize(int64_t from, int64_t rows) const {
    bool wide = tiles.lanes >= 16;
    if (wide && from % 16 == 0 && rows % 16 == 0)
      return 16;
    if (from % 8 == 0 && rows % 8 == 0)
      return 8;
    if ((from % 16 == 0 || wide) && from >= 16 && rows >= 16)
      return 16;
    return from >= 8 && rows >= 8 ? 8 : 0;
  }

  /// The 16x16 and 8x8 32-bit vector.transposes of scheduleBlockTranspose
  /// as shuffles (other transposes keep the lowering of
  /// --convert-vector-to-llvm).
  void lowerBlockTransposes(func::FuncOp func) {
    // A block among unit dimensions (of a transposing generic of rank 4)
    // first becomes a 2-d transpose between shape casts (upstream's
    // unit-dimension patterns).
    SmallVector<Operation *> withUnitDims;
    func.walk([&](vector::TransposeOp op) {
      if (op.getSourceVectorType().getRank() > 2 &&
          is32Bit(op.getSourceVectorType().getElementType()))
        withUnitDims.push_back(op);
    });
    if (!withUnitDims.empty()) {
      RewritePatternSet dropUnitDims(func.getContext());
      vector::populateDropUnitDimWithShapeCastPatterns(dropUnitDims);
      GreedyRewriteConfig config;
      config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
      (void)applyOpPatternsGreedily(withUnitDims, std::move(dropUnitDims),
                                    config);
    }
    SmallVector<Operation *> blocks;
    func.walk([&](vector::TransposeOp op) {
      VectorType type = op.getSourceVectorType();
      if ((type.getShape() == ArrayRef<int64_t>{16, 16} ||
           type.getShape() == ArrayRef<int64_t>{8, 8}) &&
          is32Bit(type.getElementType()))
        blocks.push_back(op);
    });
    if (blocks.empty())
      return;
    // 16x16 blocks as upstream's network of shuffles, 8x8 ones as AVX2's
    // unpack / shuffle / 128-bit permute sequence (Transpose8x8).
    RewritePatternSet patterns(func.getContext());
    vector::populateVectorTransposeLoweringPatterns(
        patterns, vector::VectorTransposeLowering::Shuffle16x16);
    relay::cpu::populateTranspose8x8Patterns(patterns, /*benefit=*/10);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    (void)applyOpPatternsGreedily(blocks, std::move(patterns), config);
  }

  /// Copies between strided views (a padded image's interior, slices)
  /// become linalg.copy, vectorised below; MLIR would otherwise lower them
  /// to calls of the element-by-element memrefCopy. Contiguous copies stay
  /// memref.copy (one memcpy).
  void copiesToLinalg(func::FuncOp func, RewriterBase &rewriter) {
    SmallVector<memref::CopyOp> copies, selfCopies;
    func.walk([&](memref::CopyOp copy) {
      // Bufferizing an insert_slice of a slice filled in place copies the
      // slice onto itself.
      if (sameView(copy.getSource(), copy.getTarget())) {
        selfCopies.push_back(copy);
        return;
      }
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
      if (source && target && source.hasStaticShape() &&
          target.hasStaticShape() &&
          (!memref::isStaticShapeAndContiguousRowMajor(source) ||
           !memref::isStaticShapeAndContiguousRowMajor(target)))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : selfCopies)
      rewriter.eraseOp(copy);
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    }
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *ctx = &getContext();
    tiles = TileSizes(relay::cpu::cpuFor(func));
    {
      IRRewriter rewriter(ctx);
      copiesToLinalg(func, rewriter);
    }
    SmallVector<linalg::LinalgOp> ops;
    func.walk([&](linalg::LinalgOp op) {
      // Without the linalg TilingInterface models registered nothing is
      // scheduled (the loops lowering still handles every op).
      if (op.hasPureBufferSemantics() && !op.hasDynamicShape() &&
          op.getNumLoops() > 0 && isa<TilingInterface>(op.getOperation()))
        ops.push_back(op);
    });
    // The zero fills before contractions wait until those are scheduled
    // (a contraction may start from zero instead and erase its fill). The
    // maps start empty for each function: an op of this one may sit where
    // an op erased in another was, and find that one's erased fill.
    zeroFills.clear();
    erasedFills.clear();
    llvm::DenseSet<Operation *> waiting;
    for (linalg::LinalgOp op : ops)
      if (linalg::isaContractionOpInterface(op))
        if (linalg::FillOp fill = zeroFillBefore(op)) {
          zeroFills[op] = fill;
          waiting.insert(fill);
        }
    // The elementwise op after a product that starts from zero (its bias
    // and activation) may run on the product's register tiles.
    llvm::DenseMap<Operation *, Value> epilogues;
    for (linalg::LinalgOp op : ops)
      if (zeroFills.contains(op))
        if (linalg::GenericOp epilogue = relay::cpu::findProductEpilogue(op))
          epilogues[epilogue] = op.getDpsInits()[0];
    SmallVector<linalg::LinalgOp> fillsLast;
    for (linalg::LinalgOp op : ops)
      if (waiting.contains(op))
        fillsLast.push_back(op);
    llvm::erase_if(ops,
                   [&](linalg::LinalgOp op) { return waiting.contains(op); });
    for (linalg::LinalgOp fill : fillsLast)
      ops.push_back(fill);
    IRRewriter rewriter(ctx);
    for (linalg::LinalgOp op : ops) {
      // A fill that a contraction made redundant is gone.
      if (waiting.contains(op) && erasedFills.contains(op))
        continue;
      // Ops the vectoriser cannot take stay whole for the loop lowering; so
      // do ops on i1 buffers (a memref stores an i1 per byte, a vector of
      // i1 in LLVM is packed bits).
      bool bits = llvm::any_of(op->getOperandTypes(), [](Type t) {
        auto m = dyn_cast<MemRefType>(t);
        return m && m.getElementType().isInteger(1);
      });
      if (bits || reducesInvariant(op) || !linalg::hasVectorizationImpl(op) ||
          (failed(linalg::vectorizeOpPrecondition(op)) && !isShiftedCopy(op)))
        continue;
      if (Value product = epilogues.lookup(op))
        if (succeeded(relay::cpu::fuseEpilogueIntoTiles(
                rewriter, cast<linalg::GenericOp>(op.getOperation()),
                product))) {
          ++numFusedEpilogues;
          continue;
        }
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      FailureOr<linalg::ContractionDimensions> dims =
          linalg::isaContractionOpInterface(op)
              ? linalg::inferContractionDims(op)
              : FailureOr<linalg::ContractionDimensions>(failure());
      if (succeeded(scheduleBlockTranspose(rewriter, op, ranges)))
        continue;
      LogicalResult done =
          succeeded(dims) && !dims->m.empty() && !dims->n.empty() &&
                  !dims->k.empty()
              ? scheduleContraction(rewriter, op, *dims, ranges)
              : scheduleOther(rewriter, op, ranges);
      // A failed schedule leaves a correct (tiled or whole) linalg op.
      (void)done;
    }

    // Fold the vector code: contractions from multiply-reduce, transfer
    // permutations, subviews into the transfers' indices (hoisting does not
    // look through views), then keep accumulators in registers across k
    // loops.
    RewritePatternSet patterns(ctx);
    relay::cpu::populateStridedReadPatterns(patterns);
    memref::populateFoldMemRefAliasOpPatterns(patterns);
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateSinkVectorOpsPatterns(patterns);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns, ctx);
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns, ctx);
    vector::ContractionOp::getCanonicalizationPatterns(patterns, ctx);
    scf::ForOp::getCanonicalizationPatterns(patterns, ctx);
    affine::AffineMinOp::getCanonicalizationPatterns(patterns, ctx);
    memref::SubViewOp::getCanonicalizationPatterns(patterns, ctx);
    // Not converging within the iteration limit leaves valid IR that is
    // merely less folded; it is not an error.
    (void)applyPatternsGreedily(func, std::move(patterns));
    // Hoisting pairs a read and a write by their SSA indices.
    DominanceInfo dominance(func);
    eliminateCommonSubExpressions(rewriter, dominance, func);
    relay::hoistAccumulatorTransfers(func);
    linalg::hoistRedundantVectorTransfers(func, /*verifyNonZeroTrip=*/true);
    lowerBroadcastContractions(func);
    lowerReductions(func);
    lowerBlockTransposes(func);
    // A 0-d read of a strided buffer's element (a broadcast operand) has no
    // lowering to LLVM as a transfer: a load. (Rewritten alone: a greedy
    // driver would fold the rest of the vector code too.)
    SmallVector<vector::TransferReadOp> reads;
    func.walk([&](vector::TransferReadOp read) { reads.push_back(read); });
    for (vector::TransferReadOp read : reads)
      relay::cpu::readElementAsLoad(rewriter, read);
    SmallVector<vector::ContractionOp> contracts;
    func.walk([&](vector::ContractionOp op) { contracts.push_back(op); });
    for (vector::ContractionOp contract : contracts)
      relay::cpu::readBroadcastOperandAsLoads(rewriter, contract);
  }

  /// Multi-dimensional reductions become one vector.reduction per row, and
  /// float sums and products may be reassociated: LLVM then reduces the
  /// lanes as a tree (log2 of the width in steps), not one lane after
  /// another. Vectorising a reduction reassociates it anyway.
  void lowerReductions(func::FuncOp func) {
    RewritePatternSet patterns(func.getContext());
    relay::cpu::populateRowReductionTreePatterns(patterns, /*benefit=*/2);
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerReduction);
    (void)applyPatternsGreedily(func, std::move(patterns));
    func.walk([](vector::ReductionOp op) {
      if (isa<FloatType>(op.getType()) &&
          (op.getKind() == vector::CombiningKind::ADD ||
           op.getKind() == vector::CombiningKind::MUL))
        op.setFastmath(op.getFastmath() | arith::FastMathFlags::reassoc);
    });
  }

  /// Contractions with an operand that spans every loop (the partial sums
  /// of a matrix-vector product: acc[n, l] += x[k, l] * w[n, k, l]) are
  /// elementwise multiply-adds over a unit reduction, not outer products:
  /// the outer-product lowering of --convert-vector-to-llvm does not take
  /// them, and its fallback extracts every element.
  void lowerBroadcastContractions(func::FuncOp func) {
    SmallVector<Operation *> contracts;
    func.walk([&](vector::ContractionOp op) {
      unsigned loops = op.getIteratorTypes().size();
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      if (llvm::any_of(ArrayRef(maps).take_front(2), [&](AffineMap map) {
            return map.getNumResults() == loops;
          }))
        contracts.push_back(op);
    });
    if (contracts.empty())
      return;
    RewritePatternSet patterns(func.getContext());
    vector::populateVectorContractLoweringPatterns(
        patterns, vector::VectorContractLowering::ParallelArith);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    (void)applyOpPatternsGreedily(contracts, std::move(patterns), config);
  }
};

} // namespace

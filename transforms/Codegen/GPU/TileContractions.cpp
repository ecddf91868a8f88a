//===- TileContractions.cpp - Products on shared-memory tiles -------------===//
//
// --relay-gpu-tile-contractions: each linalg op that is a contraction of two
// buffers (a product, a batched product, a convolution: a multiply-add body,
// the output written whole) becomes one gpu.launch that computes it as a
// matrix product C[b][m][n] = sum_k A[b][m][k] * B[b][n][k] over blocks of
// the result, with the operands' tiles staged in shared memory. Its loop
// dimensions are classified by the operands that use them: rows (M) are the
// first input's parallel dimensions, columns (N) the second's, batch ones
// both inputs', and the reductions (K) are the rest; several of a kind are
// flattened (a convolution's rows are its image, row and column of output,
// its reductions channel and window), so the kernel reads the operands
// through their indexing maps: a convolution is an implicit product
// (no im2col buffer).
//
// A block of 256 threads computes 16 x 16 tiles of t x t results (t = 8 or
// 4: 128 x 128 or 64 x 64 per block). For each step of 8 along K, the
// threads copy the two operands' tiles into shared memory (consecutive
// threads along the operand's contiguous dimension, so the loads coalesce;
// the tiles transposed to K-major, padded by 4 so the stores do not collide
// on banks), then each thread reads t values of each with vector loads and
// does t x t multiply-adds into registers. The next step's tile is loaded
// into registers before the current one is used, so the global loads'
// latency overlaps the arithmetic. Elements past the edges are read as
// zero (clamped index, selected), so any shape runs.
//
//===----------------------------------------------------------------------===//

#include "transforms/Codegen/GPU/FillFeeding.h"
#include "transforms/Codegen/GPU/InKernel.h"
#include "transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::relay {
#define GEN_PASS_DEF_GPUTILECONTRACTIONS
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

constexpr int64_t kThreads = 256;
/// Threads along each side of the block's square of thread tiles.
constexpr int64_t kThreadsPerSide = 16;
/// The step along K: the depth of a shared-memory tile.
constexpr int64_t kDepth = 8;
/// Elements each shared-memory row is padded by (keeps rows 16-byte
/// aligned and spreads a step's transposed stores over the banks).
constexpr int64_t kPad = 4;
/// Multiprocessors of an H100 or H200: below one block of 128 x 128 per
/// multiprocessor, blocks of 64 x 64.
constexpr int64_t kMultiprocessors = 132;
/// Largest grid y and z.
constexpr int64_t kMaxGridYZ = 65535;
/// Shortest reduction a warp's lanes share (a matrix-vector product's).
constexpr int64_t kMinWarpDepth = 128;

/// A contraction's loop dimensions by role, with its static ranges.
struct Contraction {
  linalg::LinalgOp op;
  SmallVector<int64_t> ranges;
  SmallVector<unsigned> batch, rows, cols, reductions;
  int64_t b = 1, m = 1, n = 1, k = 1;
  /// Whether consecutive threads load the first operand along rows (its
  /// innermost dimension follows the last row dimension) rather than K;
  /// the same for the second operand and columns.
  bool rowsFastA = false, colsFastB = false;
};

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

bool isMultiplyAdd(Operation *first, Operation *second) {
  return (isa<arith::MulFOp>(first) && isa<arith::AddFOp>(second)) ||
         (isa<arith::MulIOp>(first) && isa<arith::AddIOp>(second));
}

int64_t product(const Contraction &c, ArrayRef<unsigned> dims) {
  int64_t size = 1;
  for (unsigned d : dims)
    size *= c.ranges[d];
  return size;
}

/// `op` as a contraction, or nothing where it is not one of two statically
/// shaped buffers into a third it writes whole.
std::optional<Contraction> matchContraction(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.hasPureBufferSemantics() || op.getNumReductionLoops() == 0 ||
      !linalg::detail::isContractionBody(*op.getBlock(), isMultiplyAdd))
    return std::nullopt;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !type.hasStaticShape() ||
        !type.getElementType().isIntOrFloat())
      return std::nullopt;
  }
  Contraction c;
  c.op = op;
  c.ranges = op.getStaticLoopRanges();
  if (ShapedType::isDynamicShape(c.ranges))
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineMap a = maps[0], b = maps[1], out = maps[2];
  if (!out.isProjectedPermutation() ||
      out.getNumResults() != op.getNumParallelLoops() ||
      llvm::is_contained(op.getDpsInputs(), op.getDpsInits()[0]))
    return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (unsigned d = 0; d < op.getNumLoops(); ++d) {
    bool inA = a.isFunctionOfDim(d), inB = b.isFunctionOfDim(d),
         inOut = out.isFunctionOfDim(d);
    if (iterators[d] == utils::IteratorType::reduction) {
      if (inOut)
        return std::nullopt;
      c.reductions.push_back(d);
    } else if (inA && inB) {
      c.batch.push_back(d);
    } else if (inA) {
      c.rows.push_back(d);
    } else if (inB) {
      c.cols.push_back(d);
    } else {
      // A parallel dimension neither operand reads (a broadcast result).
      return std::nullopt;
    }
  }
  if (c.rows.empty() || c.cols.empty() || c.reductions.empty() ||
      a.getNumResults() == 0 || b.getNumResults() == 0)
    return std::nullopt;
  c.b = product(c, c.batch);
  c.m = product(c, c.rows);
  c.n = product(c, c.cols);
  c.k = product(c, c.reductions);
  c.rowsFastA = a.getResults().back().isFunctionOfDim(c.rows.back());
  c.colsFastB = b.getResults().back().isFunctionOfDim(c.cols.back());
  return c;
}

/// How a tiled contraction is split among blocks.
struct TiledShape {
  /// Results per thread along rows and columns (4 or 8).
  int64_t tileM = 4, tileN = 4;
  /// Blocks sharing each tile's reduction (split-K), adding their partial
  /// sums into the output atomically; 1: each block sums all of K.
  int64_t splits = 1;
  /// Steps of kDepth each split sums.
  int64_t stepsPerSplit = 1;
};

/// What the kernels of one contraction share: index arithmetic over its
/// loop dimensions, its operands' elements, its body.
class ContractionBuilder {
public:
  ContractionBuilder(RewriterBase &rewriter, const Contraction &c,
                     linalg::FillOp fill)
      : rewriter(rewriter), c(c), loc(c.op->getLoc()), fill(fill) {}

protected:
  Value index(int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  }
  Value add(Value a, Value b) {
    return arith::AddIOp::create(rewriter, loc, a, b);
  }
  Value mul(Value a, int64_t b) {
    return arith::MulIOp::create(rewriter, loc, a, index(b));
  }
  Value lessThan(Value a, int64_t b) {
    return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, a,
                                 index(b));
  }
  /// Sets the values of `dims` in `all` from `linear` (the last fastest).
  void delinearize(Value linear, ArrayRef<unsigned> dims,
                   SmallVectorImpl<Value> &all);
  /// The element of input `which` (0: rows by K, 1: columns by K) at
  /// (`outer`, `depth`), zero past the edges.
  Value loadOperand(unsigned which, Value outer, Value depth);
  /// The output's indices at (`row`, `col`), clamped inside the buffer.
  SmallVector<Value> outputIndices(Value row, Value col);
  /// The body of the contraction applied to (a, b, acc).
  Value multiplyAdd(Value a, Value b, Value acc);
  /// Launches `threads` x `blocks` (x, y, z) with `sharedBytes` of dynamic
  /// shared memory, the builder inside; returns the launch.
  gpu::LaunchOp launch(ArrayRef<int64_t> blocks, int64_t threads,
                       int64_t sharedBytes);

  RewriterBase &rewriter;
  Contraction c;
  Location loc;
  linalg::FillOp fill;
  /// The batch dimensions' values in the kernel.
  SmallVector<Value> batchIvs;
};

void ContractionBuilder::delinearize(Value linear, ArrayRef<unsigned> dims,
                                     SmallVectorImpl<Value> &all) {
  for (int64_t i = dims.size() - 1; i >= 0; --i) {
    if (i == 0) {
      all[dims[i]] = linear;
      break;
    }
    Value size = index(c.ranges[dims[i]]);
    all[dims[i]] = arith::RemUIOp::create(rewriter, loc, linear, size);
    linear = arith::DivUIOp::create(rewriter, loc, linear, size);
  }
}

Value ContractionBuilder::loadOperand(unsigned which, Value outer,
                                      Value depth) {
  linalg::LinalgOp op = c.op;
  int64_t outerSize = which == 0 ? c.m : c.n;
  ArrayRef<unsigned> outerDims = which == 0 ? c.rows : c.cols;
  Value inBounds = arith::AndIOp::create(
      rewriter, loc, lessThan(outer, outerSize), lessThan(depth, c.k));
  SmallVector<Value> dims(op.getNumLoops(), index(0));
  for (auto [d, v] : llvm::zip(c.batch, batchIvs))
    dims[d] = v;
  delinearize(
      arith::MinUIOp::create(rewriter, loc, outer, index(outerSize - 1)),
      outerDims, dims);
  delinearize(arith::MinUIOp::create(rewriter, loc, depth, index(c.k - 1)),
              c.reductions, dims);
  AffineMap map = op.getIndexingMapsArray()[which];
  SmallVector<Value> indices;
  for (unsigned r = 0; r < map.getNumResults(); ++r)
    indices.push_back(
        affine::AffineApplyOp::create(rewriter, loc, map.getSubMap({r}), dims));
  Value value =
      memref::LoadOp::create(rewriter, loc, op.getDpsInputs()[which], indices);
  Value zero = arith::ConstantOp::create(rewriter, loc,
                                         rewriter.getZeroAttr(value.getType()));
  return arith::SelectOp::create(rewriter, loc, inBounds, value, zero);
}

SmallVector<Value> ContractionBuilder::outputIndices(Value row, Value col) {
  SmallVector<Value> dims(c.op.getNumLoops());
  for (auto [d, v] : llvm::zip(c.batch, batchIvs))
    dims[d] = v;
  delinearize(arith::MinUIOp::create(rewriter, loc, row, index(c.m - 1)),
              c.rows, dims);
  delinearize(arith::MinUIOp::create(rewriter, loc, col, index(c.n - 1)),
              c.cols, dims);
  SmallVector<Value> indices;
  for (AffineExpr e : c.op.getIndexingMapsArray()[2].getResults())
    indices.push_back(dims[cast<AffineDimExpr>(e).getPosition()]);
  return indices;
}

Value ContractionBuilder::multiplyAdd(Value a, Value b, Value acc) {
  Block *body = c.op.getBlock();
  IRMapping mapping;
  mapping.map(body->getArgument(0), a);
  mapping.map(body->getArgument(1), b);
  mapping.map(body->getArgument(2), acc);
  for (Operation &op : body->without_terminator()) {
    Operation *clone = rewriter.clone(op, mapping);
    // Multiply and add may contract into one fused multiply-add (as
    // cuBLAS's do): one instruction and one rounding.
    if (auto fastMath = dyn_cast<arith::ArithFastMathInterface>(clone))
      clone->setAttr(fastMath.getFastMathAttrName(),
                     arith::FastMathFlagsAttr::get(
                         rewriter.getContext(),
                         fastMath.getFastMathFlagsAttr().getValue() |
                             arith::FastMathFlags::contract));
  }
  return mapping.lookup(body->getTerminator()->getOperand(0));
}

gpu::LaunchOp ContractionBuilder::launch(ArrayRef<int64_t> blocks,
                                         int64_t threads, int64_t sharedBytes) {
  rewriter.setInsertionPoint(c.op);
  Value one = index(1);
  Value shared;
  if (sharedBytes)
    shared = arith::ConstantIntOp::create(rewriter, loc, sharedBytes, 32);
  auto launch =
      gpu::LaunchOp::create(rewriter, loc, index(blocks[0]), index(blocks[1]),
                            index(blocks[2]), index(threads), one, one, shared);
  Block &body = launch.getBody().front();
  rewriter.setInsertionPointToEnd(&body);
  auto terminator = gpu::TerminatorOp::create(rewriter, loc);
  rewriter.setInsertionPoint(terminator);
  return launch;
}

/// A contraction as blocks of 16 x 16 threads' tiles staged through shared
/// memory (see the file's comment).
class TiledKernel : public ContractionBuilder {
public:
  TiledKernel(RewriterBase &rewriter, const Contraction &c, linalg::FillOp fill,
              TiledShape shape)
      : ContractionBuilder(rewriter, c, fill), shape(shape) {}

  void build();

private:
  int64_t side(unsigned which) {
    return kThreadsPerSide * (which == 0 ? shape.tileM : shape.tileN);
  }
  /// The global loads of one operand's step of K at `depthBase`.
  SmallVector<Value> loadStep(unsigned which, Value depthBase);
  /// A thread's (outer, depth) offsets in an operand's tile, per element it
  /// loads.
  void loaderOffsets(unsigned which, Value tid);
  /// `count` consecutive elements of a shared-memory tile's row `depth`
  /// from `start`, by 4-wide vector loads.
  SmallVector<Value> readTile(Value tile, Value depth, Value start,
                              int64_t count);

  TiledShape shape;
  Value blockBase[2];
  // Per operand, per element a thread loads: its offsets in the tile.
  SmallVector<Value> outerOffsets[2], depthOffsets[2];
};

void TiledKernel::loaderOffsets(unsigned which, Value tid) {
  bool outerFast = which == 0 ? c.rowsFastA : c.colsFastB;
  int64_t perThread = side(which) * kDepth / kThreads;
  int64_t fastSize = outerFast ? side(which) : kDepth;
  for (int64_t e = 0; e < perThread; ++e) {
    Value linear = add(tid, index(e * kThreads));
    Value fast = arith::RemUIOp::create(rewriter, loc, linear, index(fastSize));
    Value slow = arith::DivUIOp::create(rewriter, loc, linear, index(fastSize));
    outerOffsets[which].push_back(outerFast ? fast : slow);
    depthOffsets[which].push_back(outerFast ? slow : fast);
  }
}

SmallVector<Value> TiledKernel::loadStep(unsigned which, Value depthBase) {
  SmallVector<Value> values;
  for (auto [outer, depth] :
       llvm::zip(outerOffsets[which], depthOffsets[which]))
    values.push_back(loadOperand(which, add(blockBase[which], outer),
                                 add(depthBase, depth)));
  return values;
}

SmallVector<Value> TiledKernel::readTile(Value tile, Value depth, Value start,
                                         int64_t count) {
  SmallVector<Value> values;
  Type elementType = cast<MemRefType>(tile.getType()).getElementType();
  auto vectorType = VectorType::get({4}, elementType);
  unsigned bytes = std::max(elementType.getIntOrFloatBitWidth() / 8, 1u);
  for (int64_t q = 0; q < count; q += 4) {
    Value vector = vector::LoadOp::create(
        rewriter, loc, vectorType, tile,
        ValueRange{depth, add(start, index(q))},
        /*nontemporal=*/false, llvm::MaybeAlign(4 * bytes));
    for (int64_t l = 0; l < 4; ++l)
      values.push_back(vector::ExtractOp::create(rewriter, loc, vector, l));
  }
  return values;
}

void TiledKernel::build() {
  linalg::LinalgOp op = c.op;
  MLIRContext *ctx = rewriter.getContext();
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  // The tiles in dynamic shared memory, which the NVVM lowering aligns to
  // 16 bytes (a workgroup attribution gets its element's alignment), as
  // the 4-wide vector loads need.
  MemRefType tileTypes[2];
  int64_t offsets[2] = {0, 0}, bytes = 0;
  for (unsigned which = 0; which < 2; ++which) {
    tileTypes[which] = MemRefType::get(
        {kDepth, side(which) + kPad},
        getElementTypeOrSelf(op.getDpsInputs()[which].getType()), AffineMap(),
        workgroup);
    offsets[which] = bytes;
    bytes += llvm::alignTo(tileTypes[which].getNumElements() *
                               tileTypes[which].getElementTypeBitWidth() / 8,
                           16);
  }
  gpu::LaunchOp kernel =
      launch({ceilDiv(c.n, side(1)), ceilDiv(c.m, side(0)), c.b * shape.splits},
             kThreads, bytes);
  Value shared = gpu::DynamicSharedMemoryOp::create(
      rewriter, loc,
      MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type(), AffineMap(),
                      workgroup));
  Value tiles[2];
  for (unsigned which = 0; which < 2; ++which)
    tiles[which] =
        memref::ViewOp::create(rewriter, loc, tileTypes[which], shared,
                               index(offsets[which]), ValueRange{});

  Value tid = kernel.getThreadIds().x;
  Value tx = arith::RemUIOp::create(rewriter, loc, tid, index(kThreadsPerSide));
  Value ty = arith::DivUIOp::create(rewriter, loc, tid, index(kThreadsPerSide));
  blockBase[0] = mul(kernel.getBlockIds().y, side(0));
  blockBase[1] = mul(kernel.getBlockIds().x, side(1));
  Value batchLinear = kernel.getBlockIds().z, split;
  if (shape.splits > 1) {
    split =
        arith::RemUIOp::create(rewriter, loc, batchLinear, index(shape.splits));
    batchLinear =
        arith::DivUIOp::create(rewriter, loc, batchLinear, index(shape.splits));
  }
  batchIvs.assign(op.getNumLoops(), Value());
  {
    SmallVector<Value> all(op.getNumLoops());
    delinearize(batchLinear, c.batch, all);
    batchIvs.clear();
    for (unsigned d : c.batch)
      batchIvs.push_back(all[d]);
  }
  loaderOffsets(0, tid);
  loaderOffsets(1, tid);
  // The thread's first row and column of results within the block.
  Value myRow = mul(ty, shape.tileM), myCol = mul(tx, shape.tileN);
  SmallVector<Value> rows, cols;
  for (int64_t i = 0; i < shape.tileM; ++i)
    rows.push_back(add(blockBase[0], add(myRow, index(i))));
  for (int64_t j = 0; j < shape.tileN; ++j)
    cols.push_back(add(blockBase[1], add(myCol, index(j))));
  Value output = op.getDpsInits()[0];
  Type accType = getElementTypeOrSelf(output.getType());

  // Accumulators: the fill's value, or the output's elements; zero where
  // the reduction is split (the partial sums are added to the output).
  SmallVector<Value> inits;
  Value zero =
      arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(accType));
  for (int64_t i = 0; i < shape.tileM; ++i)
    for (int64_t j = 0; j < shape.tileN; ++j)
      inits.push_back(
          shape.splits > 1 ? zero
          : fill           ? fill.getInputs()[0]
                           : memref::LoadOp::create(rewriter, loc, output,
                                                    outputIndices(rows[i], cols[j]))
                       .getResult());
  int64_t numAcc = inits.size();
  Value firstStep = index(0);
  if (split)
    firstStep = mul(split, shape.stepsPerSplit);
  Value firstDepth = mul(firstStep, kDepth);
  SmallVector<Value> first[2] = {loadStep(0, firstDepth),
                                 loadStep(1, firstDepth)};
  int64_t numA = first[0].size();
  inits.append(first[0]);
  inits.append(first[1]);

  Value one = index(1);
  auto loop = scf::ForOp::create(rewriter, loc, index(0),
                                 index(shape.stepsPerSplit), one, inits);
  rewriter.setInsertionPointToStart(loop.getBody());
  ValueRange carried = loop.getRegionIterArgs();
  // This step's operands into shared memory.
  for (unsigned which = 0; which < 2; ++which) {
    ValueRange values = which == 0 ? carried.slice(numAcc, numA)
                                   : carried.drop_front(numAcc + numA);
    for (auto [v, outer, depth] :
         llvm::zip(values, outerOffsets[which], depthOffsets[which]))
      memref::StoreOp::create(rewriter, loc, v, tiles[which],
                              ValueRange{depth, outer});
  }
  gpu::BarrierOp::create(rewriter, loc);
  // The next step's operands into registers.
  Value nextDepth =
      mul(add(add(firstStep, loop.getInductionVar()), one), kDepth);
  SmallVector<Value> next[2] = {loadStep(0, nextDepth), loadStep(1, nextDepth)};
  // The step's multiply-adds.
  SmallVector<Value> acc(carried.take_front(numAcc));
  for (int64_t d = 0; d < kDepth; ++d) {
    SmallVector<Value> a = readTile(tiles[0], index(d), myRow, shape.tileM);
    SmallVector<Value> b = readTile(tiles[1], index(d), myCol, shape.tileN);
    for (int64_t i = 0; i < shape.tileM; ++i)
      for (int64_t j = 0; j < shape.tileN; ++j)
        acc[i * shape.tileN + j] =
            multiplyAdd(a[i], b[j], acc[i * shape.tileN + j]);
  }
  gpu::BarrierOp::create(rewriter, loc);
  SmallVector<Value> yielded(acc);
  yielded.append(next[0]);
  yielded.append(next[1]);
  scf::YieldOp::create(rewriter, loc, yielded);

  // The results inside the output: stored, or added where split.
  rewriter.setInsertionPointAfter(loop);
  bool isFloat = isa<FloatType>(accType);
  for (int64_t i = 0; i < shape.tileM; ++i) {
    Value rowInside = lessThan(rows[i], c.m);
    for (int64_t j = 0; j < shape.tileN; ++j) {
      Value inside = arith::AndIOp::create(rewriter, loc, rowInside,
                                           lessThan(cols[j], c.n));
      auto guard = scf::IfOp::create(rewriter, loc, inside);
      rewriter.setInsertionPoint(guard.thenBlock()->getTerminator());
      Value result = loop.getResult(i * shape.tileN + j);
      SmallVector<Value> at = outputIndices(rows[i], cols[j]);
      if (shape.splits > 1)
        memref::AtomicRMWOp::create(rewriter, loc,
                                    isFloat ? arith::AtomicRMWKind::addf
                                            : arith::AtomicRMWKind::addi,
                                    result, output, at);
      else
        memref::StoreOp::create(rewriter, loc, result, output, at);
      rewriter.setInsertionPointAfter(guard);
    }
  }
  // A split reduction adds to the fill's values, which stay.
  if (fill && shape.splits == 1)
    rewriter.eraseOp(fill);
  rewriter.eraseOp(op);
}

/// A contraction of few rows (a matrix-vector product: a batch-1 dense
/// layer) whose second operand is contiguous along K: each warp computes a
/// column's results for all rows, its lanes striding over K (coalesced
/// loads of the operand that dominates the traffic), and adds the lanes'
/// sums by shuffles.
class WarpKernel : public ContractionBuilder {
public:
  using ContractionBuilder::ContractionBuilder;
  void build();
};

void WarpKernel::build() {
  linalg::LinalgOp op = c.op;
  constexpr int64_t kWarp = 32, kWarpsPerBlock = kThreads / kWarp;
  int64_t warps = c.n * c.b;
  gpu::LaunchOp kernel =
      launch({ceilDiv(warps, kWarpsPerBlock), 1, 1}, kThreads, 0);
  Value tid = kernel.getThreadIds().x;
  Value lane = arith::RemUIOp::create(rewriter, loc, tid, index(kWarp));
  Value warp = add(mul(kernel.getBlockIds().x, kWarpsPerBlock),
                   arith::DivUIOp::create(rewriter, loc, tid, index(kWarp)));
  auto guard = scf::IfOp::create(rewriter, loc, lessThan(warp, warps));
  rewriter.setInsertionPoint(guard.thenBlock()->getTerminator());
  Value col = arith::RemUIOp::create(rewriter, loc, warp, index(c.n));
  {
    SmallVector<Value> all(op.getNumLoops());
    delinearize(arith::DivUIOp::create(rewriter, loc, warp, index(c.n)),
                c.batch, all);
    for (unsigned d : c.batch)
      batchIvs.push_back(all[d]);
  }
  Value output = op.getDpsInits()[0];
  Type accType = getElementTypeOrSelf(output.getType());
  Value zero =
      arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(accType));
  auto loop = scf::ForOp::create(rewriter, loc, lane, index(c.k), index(kWarp),
                                 SmallVector<Value>(c.m, zero));
  rewriter.setInsertionPointToStart(loop.getBody());
  Value depth = loop.getInductionVar();
  Value b = loadOperand(1, col, depth);
  SmallVector<Value> sums;
  for (int64_t row = 0; row < c.m; ++row)
    sums.push_back(multiplyAdd(loadOperand(0, index(row), depth), b,
                               loop.getRegionIterArgs()[row]));
  scf::YieldOp::create(rewriter, loc, sums);
  rewriter.setInsertionPointAfter(loop);
  bool isFloat = isa<FloatType>(accType);
  auto sum = [&](Value x, Value y) -> Value {
    if (isFloat)
      return arith::AddFOp::create(rewriter, loc, x, y);
    return arith::AddIOp::create(rewriter, loc, x, y);
  };
  SmallVector<Value> totals(loop.getResults());
  Value width = arith::ConstantIntOp::create(rewriter, loc, kWarp, 32);
  for (int64_t offset = kWarp / 2; offset >= 1; offset /= 2) {
    Value distance = arith::ConstantIntOp::create(rewriter, loc, offset, 32);
    for (Value &total : totals)
      total = sum(total, gpu::ShuffleOp::create(rewriter, loc, total, distance,
                                                width, gpu::ShuffleMode::XOR)
                             .getShuffleResult());
  }
  auto first = scf::IfOp::create(rewriter, loc,
                                 arith::CmpIOp::create(rewriter, loc,
                                                       arith::CmpIPredicate::eq,
                                                       lane, index(0)));
  rewriter.setInsertionPoint(first.thenBlock()->getTerminator());
  for (int64_t row = 0; row < c.m; ++row) {
    SmallVector<Value> at = outputIndices(index(row), col);
    Value start =
        fill ? fill.getInputs()[0]
             : memref::LoadOp::create(rewriter, loc, output, at).getResult();
    memref::StoreOp::create(rewriter, loc, sum(start, totals[row]), output, at);
  }
  if (fill)
    rewriter.eraseOp(fill);
  rewriter.eraseOp(op);
}

/// The shape of the tiled kernel for `c`: 8 x 8 results per thread along
/// sides of at least 128, fewer while the blocks do not fill the
/// multiprocessors, then split-K until they do (where the output can be
/// added to atomically), each split at least kMinStepsPerSplit steps.
TiledShape chooseShape(const Contraction &c, int64_t threadTile,
                       int64_t splitK) {
  constexpr int64_t kMinStepsPerSplit = 8;
  TiledShape shape;
  auto blocks = [&](int64_t tm, int64_t tn) -> int64_t {
    return ceilDiv(c.m, kThreadsPerSide * tm) *
           ceilDiv(c.n, kThreadsPerSide * tn) * c.b;
  };
  if (threadTile) {
    shape.tileM = shape.tileN = threadTile;
  } else {
    shape.tileM = c.m >= 128 ? 8 : 4;
    shape.tileN = c.n >= 128 ? 8 : 4;
    while (blocks(shape.tileM, shape.tileN) < kMultiprocessors &&
           std::max(shape.tileM, shape.tileN) == 8) {
      if (shape.tileM >= shape.tileN)
        shape.tileM = 4;
      else
        shape.tileN = 4;
    }
  }
  int64_t steps = ceilDiv(c.k, kDepth);
  linalg::LinalgOp op = c.op;
  Type accType = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  bool atomic = accType.isF32() || accType.isF64() || accType.isInteger(32) ||
                accType.isInteger(64);
  int64_t splits = 1;
  if (splitK > 0) {
    splits = splitK;
  } else if (atomic) {
    int64_t have = blocks(shape.tileM, shape.tileN);
    if (have < kMultiprocessors)
      splits = std::min<int64_t>(ceilDiv(2 * kMultiprocessors, have),
                                 steps / kMinStepsPerSplit);
  }
  if (!atomic || c.b * splits > kMaxGridYZ)
    splits = 1;
  splits = std::max<int64_t>(std::min(splits, steps), 1);
  shape.stepsPerSplit = ceilDiv(steps, splits);
  shape.splits = ceilDiv(steps, shape.stepsPerSplit);
  return shape;
}

struct GpuTileContractionsPass
    : public relay::impl::GpuTileContractionsBase<GpuTileContractionsPass> {
  using GpuTileContractionsBase::GpuTileContractionsBase;

  void runOnOperation() override {
    if (threadTile != 0 && threadTile != 4 && threadTile != 8) {
      getOperation().emitError("--relay-gpu-tile-contractions: thread-tile ")
          << static_cast<int64_t>(threadTile) << " is not 0 (by size), 4 or 8";
      return signalPassFailure();
    }
    if (splitK < 0) {
      getOperation().emitError("--relay-gpu-tile-contractions: split-k ")
          << static_cast<int64_t>(splitK) << " is negative";
      return signalPassFailure();
    }
    std::vector<Contraction> tiled, warped;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (relay::isInKernel(op))
        return;
      std::optional<Contraction> c = matchContraction(op);
      if (!c)
        return;
      if (c->m >= minSize && c->n >= minSize && c->b <= kMaxGridYZ &&
          ceilDiv(c->m, 64) <= kMaxGridYZ) {
        tiled.push_back(*c);
        return;
      }
      // Few rows, a long reduction, the second operand contiguous along
      // it, sums a shuffle adds: a warp per column.
      Type accType = getElementTypeOrSelf(op.getDpsInits()[0].getType());
      if (c->m < minSize && c->k >= kMinWarpDepth && !c->colsFastB &&
          (accType.isF32() || accType.isInteger(32)) &&
          ceilDiv(c->n * c->b, kThreads / 32) <=
              std::numeric_limits<int32_t>::max())
        warped.push_back(*c);
    });
    IRRewriter rewriter(&getContext());
    for (const Contraction &c : tiled)
      TiledKernel(rewriter, c, relay::fillFeeding(c.op),
                  chooseShape(c, threadTile, splitK))
          .build();
    for (const Contraction &c : warped)
      WarpKernel(rewriter, c, relay::fillFeeding(c.op)).build();
  }
};
} // namespace

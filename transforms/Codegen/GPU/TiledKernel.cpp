//===- TiledKernel.cpp - Products on CUDA cores' shared-memory tiles ------===//
//
// The kernels of --relay-gpu-tile-contractions on CUDA cores: blocks of
// 16 x 16 threads' tiles staged through shared memory, and a warp per
// column for products of few rows.
//
// Each linalg op that is a contraction of two
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

#include "transforms/Codegen/GPU/ContractionKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::relay::gpu_kernels;

namespace {
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
} // namespace

void mlir::relay::gpu_kernels::buildTiledKernel(RewriterBase &rewriter,
                                                const Contraction &c,
                                                linalg::FillOp fill,
                                                TiledShape shape) {
  TiledKernel(rewriter, c, fill, shape).build();
}

void mlir::relay::gpu_kernels::buildWarpKernel(RewriterBase &rewriter,
                                               const Contraction &c,
                                               linalg::FillOp fill) {
  WarpKernel(rewriter, c, fill).build();
}

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
  /// `count` consecutive elements of a shared-memory tile's row `depth`
  /// from `start`, by 4-wide vector loads.
  SmallVector<Value> readTile(Value tile, Value depth, Value start,
                              int64_t count);

  TiledShape shape;
};

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
  auto workgroup = gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                              gpu::AddressSpace::Workgroup);
  // The tiles K-major: a step's row of each operand is one row of its tile.
  SmallVector<MemRefType> tileTypes;
  for (unsigned which = 0; which < 2; ++which)
    tileTypes.push_back(MemRefType::get(
        {kDepth, side(which) + kPad},
        getElementTypeOrSelf(op.getDpsInputs()[which].getType()), AffineMap(),
        workgroup));
  Value split = launchTiled(shape, {side(0), side(1)}, tileTypes);
  Value tx = arith::RemUIOp::create(rewriter, loc, tid, index(kThreadsPerSide));
  Value ty = arith::DivUIOp::create(rewriter, loc, tid, index(kThreadsPerSide));
  copyOffsets(0, side(0), kDepth, 1);
  copyOffsets(1, side(1), kDepth, 1);
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
  // A step's multiply-adds: t values of each operand per row of the tiles.
  auto compute = [&](ValueRange carried) {
    SmallVector<Value> acc(carried);
    for (int64_t d = 0; d < kDepth; ++d) {
      SmallVector<Value> a = readTile(tiles[0], index(d), myRow, shape.tileM);
      SmallVector<Value> b = readTile(tiles[1], index(d), myCol, shape.tileN);
      for (int64_t i = 0; i < shape.tileM; ++i)
        for (int64_t j = 0; j < shape.tileN; ++j)
          acc[i * shape.tileN + j] =
              multiplyAdd(a[i], b[j], acc[i * shape.tileN + j]);
    }
    return acc;
  };
  scf::ForOp loop = pipelinedLoop(shape, inits, split, kDepth,
                                  /*depthMajor=*/true, compute);

  rewriter.setInsertionPointAfter(loop);
  for (int64_t i = 0; i < shape.tileM; ++i)
    for (int64_t j = 0; j < shape.tileN; ++j)
      storeResult(loop.getResult(i * shape.tileN + j), rows[i], cols[j],
                  /*atomic=*/shape.splits > 1);
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

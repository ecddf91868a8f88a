//===- TensorCoreKernel.cpp - Products of float16s on tensor cores --------===//
//
// The tiled kernel of --relay-gpu-tile-contractions for float16 operands
// (float16 or float32 results): the same blocks of 256 threads over the
// result as on CUDA cores, but each of the 8 warps owns a (side / 2) x
// (side / 4) part of its block and computes it with mma.sync (m16n8k16,
// float32 accumulators), its fragments read from shared memory by
// ldmatrix. Each step of 32 along K stages the operands' tiles row-major
// with K contiguous (rows padded by 8 halves, so that ldmatrix's eight row
// addresses fall on distinct banks); an operand contiguous along a
// reduction whose length is a multiple of 8 is copied by 16-byte vector
// loads, any other one (a convolution's image) element by element through
// its indexing map. As on CUDA cores, the next step's operands are loaded
// into registers before the current step's products, elements past the
// edges read as zero, and a split reduction adds its partial sums
// atomically (float32 results only).
//
//===----------------------------------------------------------------------===//

#include "transforms/Codegen/GPU/ContractionKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::relay::gpu_kernels;

namespace {

/// Halves each shared-memory row is padded by.
constexpr int64_t kRowPad = 8;
/// Halves a vector load copies.
constexpr int64_t kChunk = 8;
constexpr int64_t kWarp = 32;
/// Warps of a block along its rows and columns.
constexpr int64_t kWarpRows = 2, kWarpCols = 4;

class TensorCoreKernel : public ContractionBuilder {
public:
  TensorCoreKernel(RewriterBase &rewriter, const Contraction &c,
                   linalg::FillOp fill, TiledShape shape)
      : ContractionBuilder(rewriter, c, fill), shape(shape) {}

  void build();

private:
  int64_t side(unsigned which) {
    return kThreadsPerSide * (which == 0 ? shape.tileM : shape.tileN);
  }
  /// Whether operand `which` is copied by vector loads: its innermost
  /// dimension is the last reduction alone, a multiple of kChunk long.
  bool isContiguous(unsigned which);
  /// A thread's (outer, depth) offsets in an operand's tile, per element
  /// or chunk it copies.
  void copierOffsets(unsigned which, Value tid);
  /// One step's global loads of operand `which` at `depthBase`: chunks or
  /// elements.
  SmallVector<Value> loadStep(unsigned which, Value depthBase);
  /// The chunk of operand `which` at (`outer`, `depth`), zeros past the
  /// edges.
  Value loadChunk(unsigned which, Value outer, Value depth);

  TiledShape shape;
  bool contiguous[2] = {false, false};
  Value blockBase[2];
  SmallVector<Value> outerOffsets[2], depthOffsets[2];
};

bool TensorCoreKernel::isContiguous(unsigned which) {
  linalg::LinalgOp op = c.op;
  auto type = cast<MemRefType>(op.getDpsInputs()[which].getType());
  AffineMap map = op.getIndexingMapsArray()[which];
  unsigned last = c.reductions.back();
  auto innermost = dyn_cast<AffineDimExpr>(map.getResults().back());
  if (!type.getLayout().isIdentity() || !innermost ||
      innermost.getPosition() != last || c.ranges[last] % kChunk ||
      type.getShape().back() % kChunk)
    return false;
  for (AffineExpr e : map.getResults().drop_back())
    if (e.isFunctionOfDim(last))
      return false;
  return true;
}

void TensorCoreKernel::copierOffsets(unsigned which, Value tid) {
  int64_t elements = side(which) * kTensorCoreDepth;
  if (contiguous[which]) {
    int64_t chunksPerRow = kTensorCoreDepth / kChunk;
    for (int64_t e = 0; e < elements / kChunk / kThreads; ++e) {
      Value linear = add(tid, index(e * kThreads));
      outerOffsets[which].push_back(
          arith::DivUIOp::create(rewriter, loc, linear, index(chunksPerRow)));
      depthOffsets[which].push_back(mul(
          arith::RemUIOp::create(rewriter, loc, linear, index(chunksPerRow)),
          kChunk));
    }
    return;
  }
  bool outerFast = which == 0 ? c.rowsFastA : c.colsFastB;
  int64_t fastSize = outerFast ? side(which) : kTensorCoreDepth;
  for (int64_t e = 0; e < elements / kThreads; ++e) {
    Value linear = add(tid, index(e * kThreads));
    Value fast = arith::RemUIOp::create(rewriter, loc, linear, index(fastSize));
    Value slow = arith::DivUIOp::create(rewriter, loc, linear, index(fastSize));
    outerOffsets[which].push_back(outerFast ? fast : slow);
    depthOffsets[which].push_back(outerFast ? slow : fast);
  }
}

Value TensorCoreKernel::loadChunk(unsigned which, Value outer, Value depth) {
  linalg::LinalgOp op = c.op;
  int64_t outerSize = which == 0 ? c.m : c.n;
  ArrayRef<unsigned> outerDims = which == 0 ? c.rows : c.cols;
  // The chunk starts at a multiple of kChunk inside a row of the innermost
  // dimension (its length is one too), so it is inside or wholly past K.
  Value inBounds = arith::AndIOp::create(
      rewriter, loc, lessThan(outer, outerSize), lessThan(depth, c.k));
  SmallVector<Value> dims(op.getNumLoops(), index(0));
  for (auto [d, v] : llvm::zip(c.batch, batchIvs))
    dims[d] = v;
  delinearize(
      arith::MinUIOp::create(rewriter, loc, outer, index(outerSize - 1)),
      outerDims, dims);
  delinearize(arith::MinUIOp::create(rewriter, loc, depth, index(c.k - kChunk)),
              c.reductions, dims);
  AffineMap map = op.getIndexingMapsArray()[which];
  SmallVector<Value> indices;
  for (AffineExpr e : map.getResults())
    indices.push_back(dims[cast<AffineDimExpr>(e).getPosition()]);
  Value buffer = op.getDpsInputs()[which];
  auto type = VectorType::get(
      {kChunk}, cast<MemRefType>(buffer.getType()).getElementType());
  Value chunk =
      vector::LoadOp::create(rewriter, loc, type, buffer, indices,
                             /*nontemporal=*/false, llvm::MaybeAlign(16));
  Value zero =
      arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(type));
  return arith::SelectOp::create(rewriter, loc, inBounds, chunk, zero);
}

SmallVector<Value> TensorCoreKernel::loadStep(unsigned which, Value depthBase) {
  SmallVector<Value> values;
  for (auto [outer, depth] :
       llvm::zip(outerOffsets[which], depthOffsets[which])) {
    Value at = add(blockBase[which], outer), k = add(depthBase, depth);
    values.push_back(contiguous[which] ? loadChunk(which, at, k)
                                       : loadOperand(which, at, k));
  }
  return values;
}

void TensorCoreKernel::build() {
  linalg::LinalgOp op = c.op;
  MLIRContext *ctx = rewriter.getContext();
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  Type f16 = rewriter.getF16Type(), f32 = rewriter.getF32Type();
  for (unsigned which = 0; which < 2; ++which)
    contiguous[which] = isContiguous(which);
  // The tiles, row-major with K contiguous, in dynamic shared memory
  // (aligned to 16 bytes).
  MemRefType tileTypes[2];
  int64_t offsets[2] = {0, 0}, bytes = 0;
  for (unsigned which = 0; which < 2; ++which) {
    tileTypes[which] = MemRefType::get(
        {side(which), kTensorCoreDepth + kRowPad}, f16, AffineMap(), workgroup);
    offsets[which] = bytes;
    bytes += llvm::alignTo(tileTypes[which].getNumElements() * 2, 16);
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
  Value lane = arith::RemUIOp::create(rewriter, loc, tid, index(kWarp));
  Value warp = arith::DivUIOp::create(rewriter, loc, tid, index(kWarp));
  int64_t warpTile[2] = {side(0) / kWarpRows, side(1) / kWarpCols};
  int64_t mTiles = warpTile[0] / 16, nTiles = warpTile[1] / 8;
  Value warpBase[2] = {
      mul(arith::DivUIOp::create(rewriter, loc, warp, index(kWarpCols)),
          warpTile[0]),
      mul(arith::RemUIOp::create(rewriter, loc, warp, index(kWarpCols)),
          warpTile[1])};
  blockBase[0] = mul(kernel.getBlockIds().y, side(0));
  blockBase[1] = mul(kernel.getBlockIds().x, side(1));
  Value batchLinear = kernel.getBlockIds().z, split;
  if (shape.splits > 1) {
    split =
        arith::RemUIOp::create(rewriter, loc, batchLinear, index(shape.splits));
    batchLinear =
        arith::DivUIOp::create(rewriter, loc, batchLinear, index(shape.splits));
  }
  {
    SmallVector<Value> all(op.getNumLoops());
    delinearize(batchLinear, c.batch, all);
    for (unsigned d : c.batch)
      batchIvs.push_back(all[d]);
  }
  copierOffsets(0, tid);
  copierOffsets(1, tid);

  // The element (i, j, r, e) of the warp's results: fragment (i, j)'s
  // register pair r, element e (PTX's layout of an m16n8 accumulator).
  Value group = arith::DivUIOp::create(rewriter, loc, lane, index(4));
  Value pair = mul(arith::RemUIOp::create(rewriter, loc, lane, index(4)), 2);
  auto rowOf = [&](int64_t i, int64_t r) {
    return add(add(blockBase[0], warpBase[0]),
               add(group, index(i * 16 + 8 * r)));
  };
  auto colOf = [&](int64_t j, int64_t e) {
    return add(add(blockBase[1], warpBase[1]), add(pair, index(j * 8 + e)));
  };
  Value output = op.getDpsInits()[0];
  Type outType = getElementTypeOrSelf(output.getType());
  auto accType = VectorType::get({2, 2}, f32);
  auto widen = [&](Value v) -> Value {
    return v.getType() == f32 ? v
                              : arith::ExtFOp::create(rewriter, loc, f32, v);
  };
  SmallVector<Value> inits;
  for (int64_t i = 0; i < mTiles; ++i)
    for (int64_t j = 0; j < nTiles; ++j) {
      if (shape.splits > 1 || fill) {
        Value start = shape.splits > 1
                          ? arith::ConstantOp::create(rewriter, loc,
                                                      rewriter.getZeroAttr(f32))
                                .getResult()
                          : widen(fill.getInputs()[0]);
        inits.push_back(
            vector::BroadcastOp::create(rewriter, loc, accType, start));
        continue;
      }
      SmallVector<Value> elements;
      for (int64_t r = 0; r < 2; ++r)
        for (int64_t e = 0; e < 2; ++e)
          elements.push_back(widen(memref::LoadOp::create(
              rewriter, loc, output, outputIndices(rowOf(i, r), colOf(j, e)))));
      inits.push_back(
          vector::FromElementsOp::create(rewriter, loc, accType, elements));
    }
  int64_t numAcc = inits.size();
  Value firstStep = index(0);
  if (split)
    firstStep = mul(split, shape.stepsPerSplit);
  Value firstDepth = mul(firstStep, kTensorCoreDepth);
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
  for (unsigned which = 0; which < 2; ++which) {
    ValueRange values = which == 0 ? carried.slice(numAcc, numA)
                                   : carried.drop_front(numAcc + numA);
    for (auto [v, outer, depth] :
         llvm::zip(values, outerOffsets[which], depthOffsets[which])) {
      if (contiguous[which])
        vector::StoreOp::create(rewriter, loc, v, tiles[which],
                                ValueRange{outer, depth},
                                /*nontemporal=*/false, llvm::MaybeAlign(16));
      else
        memref::StoreOp::create(rewriter, loc, v, tiles[which],
                                ValueRange{outer, depth});
    }
  }
  gpu::BarrierOp::create(rewriter, loc);
  Value nextDepth =
      mul(add(add(firstStep, loop.getInductionVar()), one), kTensorCoreDepth);
  SmallVector<Value> next[2] = {loadStep(0, nextDepth), loadStep(1, nextDepth)};
  // ldmatrix's row addresses: lanes 0-15 the A fragment's 16 rows at the
  // step's first 8 columns, lanes 16-31 at the next 8; for B, lanes 0-7
  // its 8 rows (columns of the result) at the first 8, lanes 8-15 the next.
  Value aRow =
      add(warpBase[0], arith::RemUIOp::create(rewriter, loc, lane, index(16)));
  Value aCol = mul(arith::DivUIOp::create(rewriter, loc, lane, index(16)), 8);
  Value bRow =
      add(warpBase[1], arith::RemUIOp::create(rewriter, loc, lane, index(8)));
  Value bCol =
      mul(arith::RemUIOp::create(
              rewriter, loc,
              arith::DivUIOp::create(rewriter, loc, lane, index(8)), index(2)),
          8);
  SmallVector<Value> acc(carried.take_front(numAcc));
  auto aFragType = VectorType::get({4, 2}, f16);
  auto bFragType = VectorType::get({2, 2}, f16);
  for (int64_t kk = 0; kk < kTensorCoreDepth; kk += 16) {
    SmallVector<Value> a, b;
    for (int64_t i = 0; i < mTiles; ++i)
      a.push_back(nvgpu::LdMatrixOp::create(
          rewriter, loc, aFragType, tiles[0],
          ValueRange{add(aRow, index(i * 16)), add(aCol, index(kk))},
          /*transpose=*/false, /*numTiles=*/4));
    for (int64_t j = 0; j < nTiles; ++j)
      b.push_back(nvgpu::LdMatrixOp::create(
          rewriter, loc, bFragType, tiles[1],
          ValueRange{add(bRow, index(j * 8)), add(bCol, index(kk))},
          /*transpose=*/false, /*numTiles=*/2));
    for (int64_t i = 0; i < mTiles; ++i)
      for (int64_t j = 0; j < nTiles; ++j)
        acc[i * nTiles + j] = nvgpu::MmaSyncOp::create(
            rewriter, loc, a[i], b[j], acc[i * nTiles + j],
            ArrayRef<int64_t>{16, 8, 16});
  }
  gpu::BarrierOp::create(rewriter, loc);
  SmallVector<Value> yielded(acc);
  yielded.append(next[0]);
  yielded.append(next[1]);
  scf::YieldOp::create(rewriter, loc, yielded);

  rewriter.setInsertionPointAfter(loop);
  for (int64_t i = 0; i < mTiles; ++i)
    for (int64_t j = 0; j < nTiles; ++j)
      for (int64_t r = 0; r < 2; ++r)
        for (int64_t e = 0; e < 2; ++e) {
          Value row = rowOf(i, r), col = colOf(j, e);
          Value inside = arith::AndIOp::create(
              rewriter, loc, lessThan(row, c.m), lessThan(col, c.n));
          auto guard = scf::IfOp::create(rewriter, loc, inside);
          rewriter.setInsertionPoint(guard.thenBlock()->getTerminator());
          Value result = vector::ExtractOp::create(
              rewriter, loc, loop.getResult(i * nTiles + j),
              ArrayRef<int64_t>{r, e});
          if (outType != f32)
            result = arith::TruncFOp::create(rewriter, loc, outType, result);
          SmallVector<Value> at = outputIndices(row, col);
          if (shape.splits > 1)
            memref::AtomicRMWOp::create(
                rewriter, loc, arith::AtomicRMWKind::addf, result, output, at);
          else
            memref::StoreOp::create(rewriter, loc, result, output, at);
          rewriter.setInsertionPointAfter(guard);
        }
  if (fill && shape.splits == 1)
    rewriter.eraseOp(fill);
  rewriter.eraseOp(op);
}

} // namespace

bool mlir::relay::gpu_kernels::fitsTensorCores(const Contraction &c) {
  linalg::LinalgOp op = c.op;
  Type a = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
  Type b = getElementTypeOrSelf(op.getDpsInputs()[1].getType());
  Type out = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  return a.isF16() && b.isF16() && (out.isF16() || out.isF32()) && c.k >= 16;
}

void mlir::relay::gpu_kernels::buildTensorCoreKernel(RewriterBase &rewriter,
                                                     const Contraction &c,
                                                     linalg::FillOp fill,
                                                     TiledShape shape) {
  TensorCoreKernel(rewriter, c, fill, shape).build();
}

//===- TensorCoreKernel.cpp - Products on tensor cores --------------------===//
//
// The tiled kernel of --relay-gpu-tile-contractions for float16 operands
// (float16 or float32 results) and, with its `tf32` option, float32 ones
// (read by the tensor cores as TF32: 10 bits of mantissa): the same blocks
// of 256 threads over the result as on CUDA cores, but each of the 8 warps
// owns a (side / 2) x (side / 4) part of its block and computes it with
// mma.sync (m16n8k16 on float16s, m16n8k8 on TF32s, float32 accumulators),
// its fragments read from shared memory by ldmatrix (which reads a TF32
// fragment as pairs of halves: the same registers PTX's m16n8k8 layout
// wants). Each step of 32 along K stages the operands' tiles row-major
// with K contiguous (rows padded by 16 bytes, so that ldmatrix's eight row
// addresses fall on distinct banks); an operand contiguous along a
// reduction whose length is a multiple of a 16-byte vector is copied by
// vector loads, any other one (a convolution's image) element by element
// through its indexing map. As on CUDA cores, the next step's operands are
// loaded into registers before the current step's products, elements past the
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

/// Bytes each shared-memory row is padded by, and a vector load copies.
constexpr int64_t kRowPadBytes = 16, kChunkBytes = 16;
constexpr int64_t kWarp = 32;
/// Warps of a block along its rows and columns.
constexpr int64_t kWarpRows = 2, kWarpCols = 4;

class TensorCoreKernel : public ContractionBuilder {
public:
  TensorCoreKernel(RewriterBase &rewriter, const Contraction &c,
                   linalg::FillOp fill, TiledShape shape)
      : ContractionBuilder(rewriter, c, fill), shape(shape),
        element(getElementTypeOrSelf(this->c.op.getDpsInputs()[0].getType())),
        tf32(element.isF32()), chunk(kChunkBytes / (tf32 ? 4 : 2)),
        mmaDepth(tf32 ? 8 : 16) {}

  void build();

private:
  int64_t side(unsigned which) {
    return kThreadsPerSide * (which == 0 ? shape.tileM : shape.tileN);
  }
  /// Whether operand `which` is copied by vector loads: its innermost
  /// dimension is the last reduction alone, a multiple of kChunk long.
  bool isContiguous(unsigned which);

  TiledShape shape;
  /// The operands' element type: float16, or float32 read as TF32.
  Type element;
  bool tf32;
  /// Elements a vector load copies (and a row is padded by); K of one
  /// mma.sync.
  int64_t chunk, mmaDepth;
};

bool TensorCoreKernel::isContiguous(unsigned which) {
  linalg::LinalgOp op = c.op;
  auto type = cast<MemRefType>(op.getDpsInputs()[which].getType());
  AffineMap map = op.getIndexingMapsArray()[which];
  unsigned last = c.reductions.back();
  auto innermost = dyn_cast<AffineDimExpr>(map.getResults().back());
  if (!type.getLayout().isIdentity() || !innermost ||
      innermost.getPosition() != last || c.ranges[last] % chunk ||
      type.getShape().back() % chunk)
    return false;
  for (AffineExpr e : map.getResults().drop_back())
    if (e.isFunctionOfDim(last))
      return false;
  return true;
}

void TensorCoreKernel::build() {
  linalg::LinalgOp op = c.op;
  MLIRContext *ctx = rewriter.getContext();
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  Type f32 = rewriter.getF32Type();
  // The tiles row-major with K contiguous, as ldmatrix reads them.
  SmallVector<MemRefType> tileTypes;
  for (unsigned which = 0; which < 2; ++which)
    tileTypes.push_back(MemRefType::get(
        {side(which), kTensorCoreDepth + kRowPadBytes * chunk / kChunkBytes},
        element, AffineMap(), workgroup));
  Value split = launchTiled(shape, {side(0), side(1)}, tileTypes);
  Value lane = arith::RemUIOp::create(rewriter, loc, tid, index(kWarp));
  Value warp = arith::DivUIOp::create(rewriter, loc, tid, index(kWarp));
  int64_t warpTile[2] = {side(0) / kWarpRows, side(1) / kWarpCols};
  int64_t mTiles = warpTile[0] / 16, nTiles = warpTile[1] / 8;
  Value warpBase[2] = {
      mul(arith::DivUIOp::create(rewriter, loc, warp, index(kWarpCols)),
          warpTile[0]),
      mul(arith::RemUIOp::create(rewriter, loc, warp, index(kWarpCols)),
          warpTile[1])};
  // A chunk starts at a multiple of its length inside a row of the
  // innermost dimension (its length is one too): inside K or wholly past
  // it.
  for (unsigned which = 0; which < 2; ++which)
    copyOffsets(which, side(which), kTensorCoreDepth,
                isContiguous(which) ? chunk : 1);

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
  // ldmatrix's row addresses (16 bytes each: 8 halves or 4 TF32s, half a
  // fragment's depth): lanes 0-15 the A fragment's 16 rows at the step's
  // first half, lanes 16-31 at the second; for B, lanes 0-7 its 8 rows
  // (columns of the result) at the first, lanes 8-15 the second.
  Value aRow =
      add(warpBase[0], arith::RemUIOp::create(rewriter, loc, lane, index(16)));
  Value aCol =
      mul(arith::DivUIOp::create(rewriter, loc, lane, index(16)), chunk);
  Value bRow =
      add(warpBase[1], arith::RemUIOp::create(rewriter, loc, lane, index(8)));
  Value bCol =
      mul(arith::RemUIOp::create(
              rewriter, loc,
              arith::DivUIOp::create(rewriter, loc, lane, index(8)), index(2)),
          chunk);
  // A thread's registers of a fragment: 32 bits each, two halves or a TF32.
  int64_t perRegister = tf32 ? 1 : 2;
  auto aFragType = VectorType::get({4, perRegister}, element);
  auto bFragType = VectorType::get({2, perRegister}, element);
  auto compute = [&](ValueRange carried) {
    SmallVector<Value> acc(carried);
    for (int64_t kk = 0; kk < kTensorCoreDepth; kk += mmaDepth) {
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
              ArrayRef<int64_t>{16, 8, mmaDepth}, /*tf32Enabled=*/tf32);
    }
    return acc;
  };
  scf::ForOp loop = pipelinedLoop(shape, inits, split, kTensorCoreDepth,
                                  /*depthMajor=*/false, compute);

  rewriter.setInsertionPointAfter(loop);
  for (int64_t i = 0; i < mTiles; ++i)
    for (int64_t j = 0; j < nTiles; ++j)
      for (int64_t r = 0; r < 2; ++r)
        for (int64_t e = 0; e < 2; ++e) {
          Value result = vector::ExtractOp::create(
              rewriter, loc, loop.getResult(i * nTiles + j),
              ArrayRef<int64_t>{r, e});
          if (outType != f32)
            result = arith::TruncFOp::create(rewriter, loc, outType, result);
          storeResult(result, rowOf(i, r), colOf(j, e),
                      /*atomic=*/shape.splits > 1);
        }
  if (fill && shape.splits == 1)
    rewriter.eraseOp(fill);
  rewriter.eraseOp(op);
}

} // namespace

bool mlir::relay::gpu_kernels::fitsTensorCores(const Contraction &c,
                                               bool tf32) {
  linalg::LinalgOp op = c.op;
  Type a = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
  Type b = getElementTypeOrSelf(op.getDpsInputs()[1].getType());
  Type out = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  if (tf32 && a.isF32() && b.isF32() && out.isF32())
    return c.k >= 8;
  return a.isF16() && b.isF16() && (out.isF16() || out.isF32()) && c.k >= 16;
}

void mlir::relay::gpu_kernels::buildTensorCoreKernel(RewriterBase &rewriter,
                                                     const Contraction &c,
                                                     linalg::FillOp fill,
                                                     TiledShape shape) {
  TensorCoreKernel(rewriter, c, fill, shape).build();
}

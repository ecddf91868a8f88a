//===- ContractionKernels.h - GPU kernels of products -----------*- C++ -*-===//
//
// What --relay-gpu-tile-contractions knows of a contraction (a linalg op of
// two operands with a multiply-add body: a product, a batched product, a
// convolution) and the kernels it builds for one: tiles on shared memory
// (CUDA cores or tensor cores) and a warp per column for few rows.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_CODEGEN_GPU_CONTRACTIONKERNELS_H
#define RELAY_MLIR_TRANSFORMS_CODEGEN_GPU_CONTRACTIONKERNELS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir::relay::gpu_kernels {

constexpr int64_t kThreads = 256;
/// Threads along each side of the block's square of thread tiles.
constexpr int64_t kThreadsPerSide = 16;
/// The step along K: the depth of a shared-memory tile.
constexpr int64_t kDepth = 8;
/// The step along K of the tensor cores' kernel (two mma.sync k16 steps).
constexpr int64_t kTensorCoreDepth = 32;
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

inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

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

/// `op` as a contraction, or nothing where it is not one of two statically
/// shaped buffers into a third it writes whole.
std::optional<Contraction> matchContraction(linalg::LinalgOp op);

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

/// The shape of the tiled kernel for `c` with steps of `depth` along K:
/// 8 x 8 results per thread along sides of at least 128, fewer while the
/// blocks do not fill the multiprocessors, then split-K until they do
/// (where the output can be added to atomically). `threadTile` (4 or 8)
/// and `splitK` (above 0) force them.
TiledShape chooseShape(const Contraction &c, int64_t depth, int64_t threadTile,
                       int64_t splitK);

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
  /// (`outer`, `depth`), zero past the edges; with `width` above 1, the
  /// vector of that many along K from there (aligned to its size; the
  /// caller knows them contiguous and inside K or wholly past it).
  Value loadOperand(unsigned which, Value outer, Value depth,
                    int64_t width = 1);
  /// The output's indices at (`row`, `col`), clamped inside the buffer.
  SmallVector<Value> outputIndices(Value row, Value col);
  /// The body of the contraction applied to (a, b, acc).
  Value multiplyAdd(Value a, Value b, Value acc);
  /// Launches `threads` x `blocks` (x, y, z) with `sharedBytes` of dynamic
  /// shared memory, the builder inside; returns the launch.
  gpu::LaunchOp launch(ArrayRef<int64_t> blocks, int64_t threads,
                       int64_t sharedBytes);

  /// Launches a tiled kernel's blocks for `shape` (x: columns, y: rows,
  /// z: batches times splits) with `tileTypes` in dynamic shared memory,
  /// which the NVVM lowering aligns to 16 bytes (a workgroup attribution
  /// gets only its element's alignment), as vector loads need. Sets
  /// `tiles`, `tid`, `blockBase` and `batchIvs`; returns the block's split
  /// of the reduction, or null without split-K.
  Value launchTiled(const TiledShape &shape, ArrayRef<int64_t> sides,
                    ArrayRef<MemRefType> tileTypes);
  /// The reduction's loop over `shape.stepsPerSplit` steps of `depth`
  /// (from the block's `split`, null for the whole reduction), carrying
  /// `accumulators`: each step stores the operands loadStep read into
  /// `tiles` (at [depth, outer] where `depthMajor`, else [outer, depth]),
  /// waits at a barrier, loads the next step's, `compute`s the
  /// accumulators and waits again (so the global loads' latency overlaps
  /// the arithmetic). Its first accumulators.size() results are the sums.
  scf::ForOp
  pipelinedLoop(const TiledShape &shape, ValueRange accumulators, Value split,
                int64_t depth, bool depthMajor,
                function_ref<SmallVector<Value>(ValueRange)> compute);
  /// The offsets (outer, depth) in operand `which`'s tile of `side` x
  /// `depth` of the elements (or, with `width` above 1, vectors along K)
  /// this thread copies: consecutive threads along the operand's
  /// contiguous dimension, so that a warp's loads coalesce.
  void copyOffsets(unsigned which, int64_t side, int64_t depth, int64_t width);
  /// This thread's loads of operand `which` for the step at `depthBase`.
  SmallVector<Value> loadStep(unsigned which, Value depthBase);
  /// Stores `result` at (`row`, `col`) where inside the output, or adds it
  /// atomically with `atomic` (a split reduction's partial sum).
  void storeResult(Value result, Value row, Value col, bool atomic);

  RewriterBase &rewriter;
  Contraction c;
  Location loc;
  linalg::FillOp fill;
  /// The batch dimensions' values in the kernel.
  SmallVector<Value> batchIvs;
  /// Set by launchTiled: the shared-memory tiles, the thread's index, the
  /// block's first row and column.
  SmallVector<Value, 2> tiles;
  Value tid;
  Value blockBase[2];
  /// Set by copyOffsets, per operand.
  SmallVector<Value> outerOffsets[2], depthOffsets[2];
  int64_t widths[2] = {1, 1};
};

/// Replaces `c` by a kernel of CUDA cores' tiles on shared memory.
void buildTiledKernel(RewriterBase &rewriter, const Contraction &c,
                      linalg::FillOp fill, TiledShape shape);
/// Replaces `c` by a kernel of tensor cores' tiles (float16 operands, or
/// float32 ones read as TF32).
void buildTensorCoreKernel(RewriterBase &rewriter, const Contraction &c,
                           linalg::FillOp fill, TiledShape shape);
/// Whether `c` can run on tensor cores: float16 operands, or with `tf32`
/// float32 operands and result.
bool fitsTensorCores(const Contraction &c, bool tf32);
/// Replaces `c` (few rows) by a kernel of a warp per column.
void buildWarpKernel(RewriterBase &rewriter, const Contraction &c,
                     linalg::FillOp fill);

} // namespace mlir::relay::gpu_kernels

#endif // RELAY_MLIR_TRANSFORMS_CODEGEN_GPU_CONTRACTIONKERNELS_H

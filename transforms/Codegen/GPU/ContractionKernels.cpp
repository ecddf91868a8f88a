//===- ContractionKernels.cpp - What the GPU kernels of products share ----===//
//
// A contraction's loop dimensions by role (rows, columns, batches,
// reductions), the tiled kernels' shape, and the index arithmetic, loads
// and body every kernel of one builds.
//
//===----------------------------------------------------------------------===//

#include "transforms/Codegen/GPU/ContractionKernels.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::relay::gpu_kernels;

namespace {
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
} // namespace

/// `op` as a contraction, or nothing where it is not one of two statically
/// shaped buffers into a third it writes whole.
std::optional<Contraction>
mlir::relay::gpu_kernels::matchContraction(linalg::LinalgOp op) {
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

/// The shape of the tiled kernel for `c`: 8 x 8 results per thread along
/// sides of at least 128, fewer while the blocks do not fill the
/// multiprocessors, then split-K until they do (where the output can be
/// added to atomically), each split at least kMinStepsPerSplit steps.
TiledShape mlir::relay::gpu_kernels::chooseShape(const Contraction &c,
                                                 int64_t depth,
                                                 int64_t threadTile,
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
  int64_t steps = ceilDiv(c.k, depth);
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

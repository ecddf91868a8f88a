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
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
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

Value ContractionBuilder::loadOperand(unsigned which, Value outer, Value depth,
                                      int64_t width) {
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
  delinearize(arith::MinUIOp::create(rewriter, loc, depth, index(c.k - width)),
              c.reductions, dims);
  AffineMap map = op.getIndexingMapsArray()[which];
  SmallVector<Value> indices;
  for (unsigned r = 0; r < map.getNumResults(); ++r)
    indices.push_back(
        affine::AffineApplyOp::create(rewriter, loc, map.getSubMap({r}), dims));
  Value buffer = op.getDpsInputs()[which];
  Type elementType = cast<MemRefType>(buffer.getType()).getElementType();
  Value value;
  if (width == 1) {
    value = memref::LoadOp::create(rewriter, loc, buffer, indices);
  } else {
    value = vector::LoadOp::create(
        rewriter, loc, VectorType::get({width}, elementType), buffer, indices,
        /*nontemporal=*/false,
        llvm::MaybeAlign(width * elementType.getIntOrFloatBitWidth() / 8));
  }
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
    // (A widening extf carries no flags unless given some.)
    if (auto fastMath = dyn_cast<arith::ArithFastMathInterface>(clone)) {
      arith::FastMathFlagsAttr flags = fastMath.getFastMathFlagsAttr();
      clone->setAttr(
          fastMath.getFastMathAttrName(),
          arith::FastMathFlagsAttr::get(
              rewriter.getContext(),
              (flags ? flags.getValue() : arith::FastMathFlags::none) |
                  arith::FastMathFlags::contract));
    }
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

Value ContractionBuilder::launchTiled(const TiledShape &shape,
                                      ArrayRef<int64_t> sides,
                                      ArrayRef<MemRefType> tileTypes) {
  SmallVector<int64_t> offsets;
  int64_t bytes = 0;
  for (MemRefType type : tileTypes) {
    offsets.push_back(bytes);
    bytes += llvm::alignTo(
        type.getNumElements() * type.getElementTypeBitWidth() / 8, 16);
  }
  gpu::LaunchOp kernel = launch(
      {ceilDiv(c.n, sides[1]), ceilDiv(c.m, sides[0]), c.b * shape.splits},
      kThreads, bytes);
  Value shared = gpu::DynamicSharedMemoryOp::create(
      rewriter, loc,
      MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type(), AffineMap(),
                      tileTypes.front().getMemorySpace()));
  tiles.clear();
  for (auto [type, offset] : llvm::zip(tileTypes, offsets))
    tiles.push_back(memref::ViewOp::create(rewriter, loc, type, shared,
                                           index(offset), ValueRange{}));
  tid = kernel.getThreadIds().x;
  blockBase[0] = mul(kernel.getBlockIds().y, sides[0]);
  blockBase[1] = mul(kernel.getBlockIds().x, sides[1]);
  Value batchLinear = kernel.getBlockIds().z, split;
  if (shape.splits > 1) {
    split =
        arith::RemUIOp::create(rewriter, loc, batchLinear, index(shape.splits));
    batchLinear =
        arith::DivUIOp::create(rewriter, loc, batchLinear, index(shape.splits));
  }
  SmallVector<Value> all(c.op.getNumLoops());
  delinearize(batchLinear, c.batch, all);
  batchIvs.clear();
  for (unsigned d : c.batch)
    batchIvs.push_back(all[d]);
  return split;
}

scf::ForOp ContractionBuilder::pipelinedLoop(
    const TiledShape &shape, ValueRange accumulators, Value split,
    int64_t depth, bool depthMajor,
    function_ref<SmallVector<Value>(ValueRange)> compute) {
  SmallVector<Value> inits(accumulators);
  int64_t numAcc = inits.size();
  Value firstStep = split ? mul(split, shape.stepsPerSplit) : index(0);
  Value firstDepth = mul(firstStep, depth);
  SmallVector<Value> first[2] = {loadStep(0, firstDepth),
                                 loadStep(1, firstDepth)};
  int64_t numA = first[0].size();
  inits.append(first[0]);
  inits.append(first[1]);
  Value one = index(1);
  auto loop = scf::ForOp::create(rewriter, loc, index(0),
                                 index(shape.stepsPerSplit), one, inits);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(loop.getBody());
  ValueRange carried = loop.getRegionIterArgs();
  for (unsigned which = 0; which < 2; ++which) {
    ValueRange values = which == 0 ? carried.slice(numAcc, numA)
                                   : carried.drop_front(numAcc + numA);
    for (auto [v, outer, at] :
         llvm::zip(values, outerOffsets[which], depthOffsets[which])) {
      SmallVector<Value> indices = depthMajor ? SmallVector<Value>{at, outer}
                                              : SmallVector<Value>{outer, at};
      if (widths[which] > 1)
        vector::StoreOp::create(rewriter, loc, v, tiles[which], indices,
                                /*nontemporal=*/false, llvm::MaybeAlign(16));
      else
        memref::StoreOp::create(rewriter, loc, v, tiles[which], indices);
    }
  }
  gpu::BarrierOp::create(rewriter, loc);
  Value nextDepth =
      mul(add(add(firstStep, loop.getInductionVar()), one), depth);
  SmallVector<Value> next[2] = {loadStep(0, nextDepth), loadStep(1, nextDepth)};
  SmallVector<Value> yielded = compute(carried.take_front(numAcc));
  gpu::BarrierOp::create(rewriter, loc);
  yielded.append(next[0]);
  yielded.append(next[1]);
  scf::YieldOp::create(rewriter, loc, yielded);
  return loop;
}

void ContractionBuilder::storeResult(Value result, Value row, Value col,
                                     bool atomic) {
  Value inside = arith::AndIOp::create(rewriter, loc, lessThan(row, c.m),
                                       lessThan(col, c.n));
  auto guard = scf::IfOp::create(rewriter, loc, inside);
  OpBuilder::InsertionGuard insertion(rewriter);
  rewriter.setInsertionPoint(guard.thenBlock()->getTerminator());
  Value output = c.op.getDpsInits()[0];
  SmallVector<Value> at = outputIndices(row, col);
  if (atomic)
    memref::AtomicRMWOp::create(rewriter, loc,
                                isa<FloatType>(result.getType())
                                    ? arith::AtomicRMWKind::addf
                                    : arith::AtomicRMWKind::addi,
                                result, output, at);
  else
    memref::StoreOp::create(rewriter, loc, result, output, at);
}

void ContractionBuilder::copyOffsets(unsigned which, int64_t side,
                                     int64_t depth, int64_t width) {
  widths[which] = width;
  int64_t units = side * depth / width / kThreads;
  if (width > 1) {
    int64_t perRow = depth / width;
    for (int64_t e = 0; e < units; ++e) {
      Value linear = add(tid, index(e * kThreads));
      outerOffsets[which].push_back(
          arith::DivUIOp::create(rewriter, loc, linear, index(perRow)));
      depthOffsets[which].push_back(mul(
          arith::RemUIOp::create(rewriter, loc, linear, index(perRow)), width));
    }
    return;
  }
  bool outerFast = which == 0 ? c.rowsFastA : c.colsFastB;
  int64_t fastSize = outerFast ? side : depth;
  for (int64_t e = 0; e < units; ++e) {
    Value linear = add(tid, index(e * kThreads));
    Value fast = arith::RemUIOp::create(rewriter, loc, linear, index(fastSize));
    Value slow = arith::DivUIOp::create(rewriter, loc, linear, index(fastSize));
    outerOffsets[which].push_back(outerFast ? fast : slow);
    depthOffsets[which].push_back(outerFast ? slow : fast);
  }
}

SmallVector<Value> ContractionBuilder::loadStep(unsigned which,
                                                Value depthBase) {
  SmallVector<Value> values;
  for (auto [outer, depth] :
       llvm::zip(outerOffsets[which], depthOffsets[which]))
    values.push_back(loadOperand(which, add(blockBase[which], outer),
                                 add(depthBase, depth), widths[which]));
  return values;
}

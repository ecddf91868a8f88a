//===- MapParallelLoops.cpp - Parallel loops to GPU blocks and threads ----===//
//
// --relay-gpu-map-parallel-loops: linalg ops become parallel loops (their
// reductions innermost), then each outermost scf.parallel is collapsed into
// one dimension, tiled by the block size and its tiles marked as blocks and
// their iterations as threads, for the upstream
// --convert-parallel-loops-to-gpu (see Passes.td). Buffer copies the
// bufferization left on the host become linalg copies first.
//
//===----------------------------------------------------------------------===//

#include "transforms/Codegen/GPU/FillFeeding.h"
#include "transforms/Codegen/GPU/InKernel.h"
#include "transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir::relay {
#define GEN_PASS_DEF_GPUMAPPARALLELLOOPS
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using mlir::relay::fillFeeding;
using mlir::relay::isInKernel;

namespace {

/// A box of a buffer a fill writes: the subview's static offsets and sizes
/// (unit strides) of a statically shaped base buffer.
struct FilledBox {
  linalg::FillOp fill;
  Value base;
  SmallVector<int64_t> offsets, sizes;
};

std::optional<FilledBox> filledBox(linalg::FillOp fill) {
  auto view = fill.getOutputs()[0].getDefiningOp<memref::SubViewOp>();
  if (!view || !fill.hasPureBufferSemantics())
    return std::nullopt;
  auto baseType = dyn_cast<MemRefType>(view.getSource().getType());
  if (!baseType || !baseType.hasStaticShape() ||
      !baseType.getLayout().isIdentity() ||
      view.getSourceType().getRank() != view.getType().getRank() ||
      !llvm::all_of(view.getStaticStrides(),
                    [](int64_t s) { return s == 1; }) ||
      ShapedType::isDynamicShape(view.getStaticOffsets()) ||
      ShapedType::isDynamicShape(view.getStaticSizes()))
    return std::nullopt;
  return FilledBox{fill, view.getSource(),
                   llvm::to_vector(view.getStaticOffsets()),
                   llvm::to_vector(view.getStaticSizes())};
}

/// Fills of boxes of one buffer with one value that follow each other (a
/// padded image's four border strips; subviews and constants may sit
/// between them) become one loop over the buffer that writes the elements
/// inside any box: one kernel instead of one per strip.
void fuseAdjacentFills(RewriterBase &rewriter, func::FuncOp func) {
  SmallVector<SmallVector<FilledBox>> groups;
  func.walk([&](Block *block) {
    SmallVector<FilledBox> group;
    auto flush = [&] {
      if (group.size() > 1)
        groups.push_back(group);
      group.clear();
    };
    for (Operation &op : *block) {
      if (isa<memref::SubViewOp, arith::ConstantOp>(op))
        continue;
      auto fill = dyn_cast<linalg::FillOp>(op);
      std::optional<FilledBox> box;
      if (fill && !isInKernel(fill))
        box = filledBox(fill);
      if (!box) {
        flush();
        continue;
      }
      if (!group.empty() &&
          (group.front().base != box->base ||
           group.front().fill.getInputs()[0] != fill.getInputs()[0]))
        flush();
      group.push_back(*box);
    }
    flush();
  });
  for (ArrayRef<FilledBox> group : groups) {
    linalg::FillOp last = group.back().fill;
    Location loc = last.getLoc();
    Value base = group.front().base, value = last.getInputs()[0];
    auto type = cast<MemRefType>(base.getType());
    rewriter.setInsertionPoint(last);
    auto index = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    SmallVector<Value> lower, upper, steps;
    for (int64_t size : type.getShape()) {
      lower.push_back(index(0));
      upper.push_back(index(size));
      steps.push_back(index(1));
    }
    scf::ParallelOp::create(
        rewriter, loc, lower, upper, steps,
        [&](OpBuilder &b, Location loc, ValueRange ivs) {
          Value inside;
          for (const FilledBox &box : group) {
            Value inBox;
            for (auto [dim, iv] : llvm::enumerate(ivs)) {
              int64_t offset = box.offsets[dim], size = box.sizes[dim];
              if (offset == 0 && size == type.getDimSize(dim))
                continue;
              Value from = arith::CmpIOp::create(
                  b, loc, arith::CmpIPredicate::uge, iv,
                  arith::ConstantIndexOp::create(b, loc, offset));
              Value to = arith::CmpIOp::create(
                  b, loc, arith::CmpIPredicate::ult, iv,
                  arith::ConstantIndexOp::create(b, loc, offset + size));
              Value both = arith::AndIOp::create(b, loc, from, to);
              inBox = inBox ? arith::AndIOp::create(b, loc, inBox, both) : both;
            }
            if (!inBox)
              inBox = arith::ConstantIntOp::create(b, loc, 1, 1);
            inside =
                inside ? arith::OrIOp::create(b, loc, inside, inBox) : inBox;
          }
          scf::IfOp::create(b, loc, inside, [&](OpBuilder &b, Location loc) {
            memref::StoreOp::create(b, loc, value, base, ivs);
            scf::YieldOp::create(b, loc);
          });
        });
    for (FilledBox box : group) {
      Value view = box.fill.getOutputs()[0];
      rewriter.eraseOp(box.fill);
      if (view.use_empty())
        rewriter.eraseOp(view.getDefiningOp());
    }
  }
}

/// `op` as loops: its parallel dimensions an scf.parallel, its reductions
/// scf.for loops inside it (a generic's reduction dimensions are moved
/// after its parallel ones first: a thread runs them in sequence).

void accumulateInRegisters(RewriterBase &rewriter, scf::ForOp loop);

/// `fill`'s value as the initial value of the reduction loops `loops` made
/// of the op it fed: their accumulator is carried in a register, and its
/// first load from `buffer` becomes the fill's value; the fill goes.
/// Returns false, changing only the loops' form, where the accumulator
/// could not be carried.
bool foldFillIntoReduction(RewriterBase &rewriter, Operation *outermost,
                           Value buffer, linalg::FillOp fill) {
  auto parallel = dyn_cast<scf::ParallelOp>(outermost);
  if (!parallel)
    parallel = outermost->getParentOfType<scf::ParallelOp>();
  if (!parallel)
    return false;
  // The loops' index arithmetic folded (identity affine.apply), so that the
  // accumulator's load and store use the same index values.
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  (void)applyPatternsGreedily(parallel.getRegion(), FrozenRewritePatternSet(),
                              config);
  SmallVector<scf::ForOp> reductions;
  parallel.walk([&](scf::ForOp loop) { reductions.push_back(loop); });
  for (scf::ForOp loop : reductions)
    accumulateInRegisters(rewriter, loop);
  scf::ForOp root;
  for (Operation &op : parallel.getBody()->without_terminator())
    if (auto loop = dyn_cast<scf::ForOp>(op))
      root = loop;
  if (!root || root.getInitArgs().empty())
    return false;
  // The accumulators' first loads, from the buffer or a thread's tile of it.
  SmallVector<memref::LoadOp> loads;
  for (Value init : root.getInitArgs()) {
    auto load = init.getDefiningOp<memref::LoadOp>();
    if (!load || !load->hasOneUse())
      return false;
    Value source = load.getMemRef();
    if (auto tile = source.getDefiningOp<memref::SubViewOp>())
      source = tile.getSource();
    if (source != buffer)
      return false;
    loads.push_back(load);
  }
  for (memref::LoadOp load : loads)
    rewriter.replaceOp(load, fill.getInputs()[0]);
  rewriter.eraseOp(fill);
  return true;
}

/// Threads a coarsened op keeps at least: 128 per multiprocessor of an
/// H100 or H200 (132 of them).
constexpr int64_t kMinThreads = 132 * 128;

/// The results of `op` one thread computes, per loop dimension (1 for the
/// other parallel ones, 0 for reductions), or nothing to keep one result
/// per thread. A reduction of two inputs with static bounds gets up to
/// 4 x 4 results per thread: along the innermost parallel dimension the
/// first input does not depend on and the one the second does not (a
/// product's columns and rows, a convolution's filters and output
/// columns), so that a step of the reduction loads each input element once
/// for the tile (4 + 4 loads for 16 multiply-adds, not 32), as long as
/// enough threads remain.
SmallVector<int64_t> threadTile(linalg::LinalgOp op, int64_t largest) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !op.hasPureBufferSemantics() ||
      op.hasDynamicShape())
    return {};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> tile(ranges.size(), 0);
  int64_t results = 1;
  for (unsigned dim = 0; dim < ranges.size(); ++dim)
    if (iterators[dim] == utils::IteratorType::parallel) {
      tile[dim] = 1;
      results *= ranges[dim];
    }
  // Per input, the innermost parallel dimension it does not depend on.
  SmallVector<unsigned> shared;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    for (unsigned dim = ranges.size(); dim-- > 0;)
      if (tile[dim] == 1 && ranges[dim] % 2 == 0 && !map.isFunctionOfDim(dim) &&
          !llvm::is_contained(shared, dim)) {
        shared.push_back(dim);
        break;
      }
  }
  if (shared.size() != 2)
    return {};
  for (int64_t factor : {4, 2}) {
    if (factor > largest)
      continue;
    if (llvm::any_of(shared, [&](unsigned d) { return ranges[d] % factor; }) ||
        results / (factor * factor) < kMinThreads)
      continue;
    for (unsigned dim : shared)
      tile[dim] = factor;
    return tile;
  }
  return {};
}

/// `op` with `tile` results per thread: tiled into a parallel loop over
/// the tiles, each tile's op a generic whose reductions run outside the
/// tile's dimensions, as loops, those fully unrolled (so a step of the
/// reduction loads each input element once for the whole tile, and the
/// accumulators can live in registers). Returns the parallel loop.
FailureOr<scf::ParallelOp> convertTiled(RewriterBase &rewriter,
                                        linalg::LinalgOp op,
                                        ArrayRef<int64_t> tile) {
  linalg::LinalgTilingOptions options;
  options.setTileSizes(tile).setLoopType(
      linalg::LinalgTilingLoopType::ParallelLoops);
  FailureOr<linalg::TiledLinalgOp> tiled =
      linalg::tileLinalgOp(rewriter, op, options);
  if (failed(tiled) || tiled->loops.empty())
    return failure();
  auto parallel = dyn_cast<scf::ParallelOp>(tiled->loops.front());
  if (!parallel)
    return failure();
  rewriter.eraseOp(op);
  linalg::LinalgOp inner = tiled->op;
  rewriter.setInsertionPoint(inner);
  linalg::GenericOp generic = dyn_cast<linalg::GenericOp>(inner.getOperation());
  if (!generic) {
    FailureOr<linalg::GenericOp> general = linalg::generalizeNamedOp(
        rewriter, cast<linalg::LinalgOp>(inner.getOperation()));
    if (failed(general))
      return failure();
    generic = *general;
  }
  // Dimensions of one iteration, reductions, then the tile's.
  SmallVector<unsigned> order;
  for (unsigned dim = 0; dim < tile.size(); ++dim)
    if (tile[dim] == 1)
      order.push_back(dim);
  for (unsigned dim = 0; dim < tile.size(); ++dim)
    if (tile[dim] == 0)
      order.push_back(dim);
  for (unsigned dim = 0; dim < tile.size(); ++dim)
    if (tile[dim] > 1)
      order.push_back(dim);
  FailureOr<linalg::GenericOp> interchanged =
      linalg::interchangeGenericOp(rewriter, generic, order);
  if (failed(interchanged))
    return failure();
  FailureOr<linalg::LinalgLoops> loops =
      linalg::linalgOpToLoops(rewriter, *interchanged);
  if (failed(loops))
    return failure();
  rewriter.eraseOp(*interchanged);
  // Innermost first (a full unroll erases the loop).
  for (size_t position = order.size(); position-- > 0;) {
    unsigned dim = order[position];
    auto loop = dyn_cast<scf::ForOp>((*loops)[position]);
    if (!loop)
      return failure();
    if (tile[dim] > 1) {
      if (failed(loopUnrollFull(loop)))
        return failure();
    } else if (tile[dim] == 1) {
      (void)loop.promoteIfSingleIteration(rewriter);
    }
  }
  return parallel;
}

/// `op` as loops (see below); with `fill`, the fill that fed it, folded
/// into its loops' initial value where possible (`folded` says so).
LogicalResult convertToLoops(RewriterBase &rewriter, linalg::LinalgOp op,
                             linalg::FillOp fill, int64_t largestTile,
                             bool &folded) {
  rewriter.setInsertionPoint(op);
  if (SmallVector<int64_t> tile = threadTile(op, largestTile); !tile.empty()) {
    Value buffer = op.getDpsInitOperand(0)->get();
    FailureOr<scf::ParallelOp> tiled = convertTiled(rewriter, op, tile);
    if (failed(tiled))
      return failure();
    folded = fill && foldFillIntoReduction(rewriter, *tiled, buffer, fill);
    return success();
  }
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation())) {
    SmallVector<unsigned> order;
    SmallVector<utils::IteratorType> iterators =
        generic.getIteratorTypesArray();
    for (unsigned dim = 0; dim < iterators.size(); ++dim)
      if (iterators[dim] == utils::IteratorType::parallel)
        order.push_back(dim);
    for (unsigned dim = 0; dim < iterators.size(); ++dim)
      if (iterators[dim] != utils::IteratorType::parallel)
        order.push_back(dim);
    if (!llvm::equal(order, llvm::seq<unsigned>(0, iterators.size()))) {
      FailureOr<linalg::GenericOp> interchanged =
          linalg::interchangeGenericOp(rewriter, generic, order);
      if (failed(interchanged))
        return failure();
      op = *interchanged;
    }
  }
  // An op without parallel dimensions (a sum of a whole tensor) runs in one
  // thread of the device rather than on the host, where its operands would
  // migrate back: its loops go into a parallel loop of one iteration.
  if (op.getNumParallelLoops() == 0) {
    Location loc = op.getLoc();
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto single = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                          ValueRange{one}, ValueRange{one});
    rewriter.moveOpBefore(op, single.getBody()->getTerminator());
    rewriter.setInsertionPoint(op);
  }
  Value buffer =
      op.getNumDpsInits() == 1 ? op.getDpsInitOperand(0)->get() : Value();
  FailureOr<linalg::LinalgLoops> loops =
      linalg::linalgOpToParallelLoops(rewriter, op);
  if (failed(loops))
    return failure();
  rewriter.eraseOp(op);
  folded = fill && !loops->empty() &&
           foldFillIntoReduction(rewriter, loops->front(), buffer, fill);
  return success();
}

/// Whether two index lists name the same element (equal values or equal
/// constants).
bool sameIndices(ValueRange a, ValueRange b) {
  if (a.size() != b.size())
    return false;
  for (auto [x, y] : llvm::zip(a, b))
    if (!isEqualConstantIntOrValue(x, y))
      return false;
  return true;
}

/// A reduction loop that reads and writes elements of buffers at indices
/// fixed in the loop (a product's or convolution's accumulators: one, or a
/// thread's tile of them) carries the values in registers instead: one load
/// before the loop, one store after it, each. Applied from the innermost
/// loop out, so a convolution's three reduction loops all carry them.
/// Other buffers the loop reads are assumed not to alias the accumulators'
/// (as upstream's hoisting of vector transfers does).
void accumulateInRegisters(RewriterBase &rewriter, scf::ForOp loop) {
  // The index arithmetic of the loops' linalg op (affine.apply in the
  // innermost body) out of the loop first.
  moveLoopInvariantCode(cast<LoopLikeOpInterface>(loop.getOperation()));
  if (!loop.getInitArgs().empty())
    return;
  Block *body = loop.getBody();
  auto invariant = [&](Value v) { return loop.isDefinedOutsideOfLoop(v); };
  SmallVector<memref::StoreOp> stores;
  for (Operation &op : body->without_terminator())
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (!invariant(store.getMemRef()) ||
          !llvm::all_of(store.getIndices(), invariant))
        return;
      for (memref::StoreOp other : stores)
        if (other.getMemRef() == store.getMemRef() &&
            sameIndices(other.getIndices(), store.getIndices()))
          return;
      stores.push_back(store);
    }
  if (stores.empty())
    return;
  // Each accumulator is read once, at its store's indices, before it, and
  // touched by nothing else in the loop.
  SmallVector<memref::LoadOp> loads(stores.size());
  for (auto [index, store] : llvm::enumerate(stores)) {
    for (OpOperand &use : store.getMemRef().getUses()) {
      Operation *user = use.getOwner();
      if (!loop->isAncestor(user) || llvm::is_contained(stores, user))
        continue;
      auto read = dyn_cast<memref::LoadOp>(user);
      if (!read || read->getBlock() != body)
        return;
      // (Another accumulator's read is checked with that one.)
      if (!sameIndices(read.getIndices(), store.getIndices())) {
        if (llvm::none_of(stores, [&](memref::StoreOp other) {
              return other.getMemRef() == read.getMemRef() &&
                     sameIndices(other.getIndices(), read.getIndices());
            }))
          return;
        continue;
      }
      if (loads[index] || !read->isBeforeInBlock(store))
        return;
      loads[index] = read;
    }
    if (!loads[index])
      return;
  }
  // No call or unknown side effect may read the buffers in between.
  bool opaque = false;
  loop.walk([&](Operation *op) {
    if (auto store = dyn_cast<memref::StoreOp>(op))
      opaque |= store->getBlock() != body;
    else if (!isa<memref::LoadOp>(op) && !isMemoryEffectFree(op) &&
             !isa<scf::ForOp, scf::YieldOp>(op))
      opaque = true;
  });
  if (opaque)
    return;
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> initial;
  for (memref::LoadOp load : loads)
    initial.push_back(memref::LoadOp::create(
        rewriter, load.getLoc(), load.getMemRef(), load.getIndices()));
  auto carried =
      scf::ForOp::create(rewriter, loop.getLoc(), loop.getLowerBound(),
                         loop.getUpperBound(), loop.getStep(), initial);
  Block *newBody = carried.getBody();
  // (The builder adds no yield to a loop with iteration arguments.)
  if (!newBody->empty() && newBody->back().hasTrait<OpTrait::IsTerminator>())
    rewriter.eraseOp(&newBody->back());
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), carried.getInductionVar());
  for (auto [load, arg] : llvm::zip(loads, carried.getRegionIterArgs()))
    mapping.map(load.getResult(), arg);
  rewriter.setInsertionPointToEnd(newBody);
  for (Operation &op : body->without_terminator()) {
    if (isa<memref::StoreOp>(op) || llvm::is_contained(loads, &op))
      continue;
    rewriter.clone(op, mapping);
  }
  SmallVector<Value> yielded;
  for (memref::StoreOp store : stores)
    yielded.push_back(mapping.lookupOrDefault(store.getValueToStore()));
  scf::YieldOp::create(rewriter, loop.getLoc(), yielded);
  rewriter.setInsertionPointAfter(carried);
  for (auto [store, result] : llvm::zip(stores, carried.getResults()))
    memref::StoreOp::create(rewriter, store.getLoc(), result, store.getMemRef(),
                            store.getIndices());
  rewriter.eraseOp(loop);
}

/// Maps `loop` (outermost, any number of dimensions) to blocks of
/// `blockSize` threads.
void mapToBlocksAndThreads(RewriterBase &rewriter, scf::ParallelOp loop,
                           int64_t blockSize) {
  MLIRContext *ctx = rewriter.getContext();
  // The iterations, where the bounds are constants: a loop shorter than a
  // block runs in one block of whole warps.
  std::optional<int64_t> trips = 1;
  for (auto [lower, upper, step] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    std::optional<int64_t> l = getConstantIntValue(lower);
    std::optional<int64_t> u = getConstantIntValue(upper);
    std::optional<int64_t> s = getConstantIntValue(step);
    if (!l || !u || !s || *s <= 0) {
      trips = std::nullopt;
      break;
    }
    *trips *= llvm::divideCeil(std::max<int64_t>(*u - *l, 0), *s);
  }
  int64_t tile = blockSize;
  if (trips)
    tile = std::min<int64_t>(tile,
                             std::max<int64_t>(32, llvm::alignTo(*trips, 32)));
  // One dimension, the last one fastest (collapseParallelLoops replaces the
  // loop; the new one is the first parallel loop after the old one's
  // predecessor).
  if (loop.getNumLoops() > 1) {
    Block *block = loop->getBlock();
    Operation *before = loop->getPrevNode();
    std::vector<unsigned> all;
    for (unsigned dim = 0; dim < loop.getNumLoops(); ++dim)
      all.push_back(dim);
    collapseParallelLoops(rewriter, loop, {all});
    auto next = before ? std::next(before->getIterator()) : block->begin();
    loop = nullptr;
    for (Operation &op : llvm::make_range(next, block->end()))
      if ((loop = dyn_cast<scf::ParallelOp>(op)))
        break;
    assert(loop && "collapsing made no loop");
  }
  auto [blocks, threads] =
      scf::tileParallelLoop(loop, {tile}, /*noMinMaxBounds=*/true);
  AffineMap identity = rewriter.getDimIdentityMap();
  auto mapping = [&](gpu::Processor processor) {
    return gpu::ParallelLoopDimMappingAttr::get(ctx, processor, identity,
                                                identity);
  };
  (void)gpu::setMappingAttr(blocks, {mapping(gpu::Processor::BlockX)});
  (void)gpu::setMappingAttr(threads, {mapping(gpu::Processor::ThreadX)});
  // Parallel loops inside a thread's work run in sequence.
  threads.getBody()->walk([&](scf::ParallelOp nested) {
    SmallVector<gpu::ParallelLoopDimMappingAttr> sequential(
        nested.getNumLoops(), mapping(gpu::Processor::Sequential));
    (void)gpu::setMappingAttr(nested, sequential);
  });
}

struct GpuMapParallelLoopsPass
    : public relay::impl::GpuMapParallelLoopsBase<GpuMapParallelLoopsPass> {
  using GpuMapParallelLoopsBase::GpuMapParallelLoopsBase;

  void runOnOperation() override {
    if (threadTile != 1 && threadTile != 2 && threadTile != 4) {
      getOperation().emitError("--relay-gpu-map-parallel-loops: thread-tile ")
          << static_cast<int64_t>(threadTile) << " is not 1, 2 or 4";
      return signalPassFailure();
    }
    if (blockSize < 32 || blockSize > 1024 || blockSize % 32) {
      getOperation().emitError("--relay-gpu-map-parallel-loops: block-size ")
          << static_cast<int64_t>(blockSize)
          << " is not a multiple of 32 between 32 and 1024";
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    // Buffer copies as linalg copies, lowered to loops like the others.
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      if (!isInKernel(copy))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      linalg::makeMemRefCopyOp(rewriter, copy.getLoc(), copy.getSource(),
                               copy.getTarget());
      rewriter.eraseOp(copy);
    }
    fuseAdjacentFills(rewriter, getOperation());
    SmallVector<linalg::LinalgOp> linalgOps;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (!isInKernel(op))
        linalgOps.push_back(op);
    });
    // Fills that set a reduction's accumulator just before it are lowered
    // with the reduction (folded into it where it carries the accumulator
    // in a register); the others after.
    llvm::DenseMap<Operation *, linalg::FillOp> feeding;
    llvm::SmallPtrSet<Operation *, 16> feeders;
    for (linalg::LinalgOp op : linalgOps)
      if (linalg::FillOp fill = fillFeeding(op)) {
        feeding[op] = fill;
        feeders.insert(fill);
      }
    SmallVector<linalg::LinalgOp> unfolded;
    for (linalg::LinalgOp op : linalgOps) {
      if (feeders.contains(op))
        continue;
      linalg::FillOp fill = feeding.lookup(op);
      bool folded = false;
      if (failed(convertToLoops(rewriter, op, fill, threadTile, folded))) {
        op->emitError("cannot lower this operation to GPU loops");
        return signalPassFailure();
      }
      if (fill && !folded)
        unfolded.push_back(fill);
    }
    for (linalg::LinalgOp fill : unfolded) {
      bool folded = false;
      if (failed(convertToLoops(rewriter, fill, nullptr, threadTile, folded))) {
        fill->emitError("cannot lower this operation to GPU loops");
        return signalPassFailure();
      }
    }

    SmallVector<scf::ParallelOp> outermost;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::LaunchOp>(op))
        return WalkResult::skip();
      if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
        // Loops that reduce into values stay on the host (the upstream
        // conversion maps none).
        if (loop.getInitVals().empty())
          outermost.push_back(loop);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    for (scf::ParallelOp loop : outermost)
      mapToBlocksAndThreads(rewriter, loop, blockSize);
    // Fold the index arithmetic of collapsing and tiling (x * 1, constant
    // products, `true and c`, identity affine.apply) so that the bounds of
    // launches are constants where the shapes are and an accumulator's
    // load and store use the same index values; no patterns, so loops keep
    // their form.
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    (void)applyPatternsGreedily(getOperation(), FrozenRewritePatternSet(),
                                config);
    // A thread's reductions accumulate in registers (innermost loop first:
    // the walk is post-order).
    SmallVector<scf::ForOp> reductions;
    getOperation().walk([&](scf::ForOp loop) {
      auto threads = loop->getParentOfType<scf::ParallelOp>();
      if (threads && threads->hasAttr(gpu::getMappingAttrName()))
        reductions.push_back(loop);
    });
    for (scf::ForOp loop : reductions)
      accumulateInRegisters(rewriter, loop);
  }
};
} // namespace

linalg::FillOp mlir::relay::fillFeeding(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || !op.hasPureBufferSemantics() ||
      op.getNumReductionLoops() == 0)
    return nullptr;
  OpOperand *init = op.getDpsInitOperand(0);
  Value buffer = init->get();
  if (llvm::is_contained(op.getDpsInputs(), buffer))
    return nullptr;
  AffineMap map = op.getMatchingIndexingMap(init);
  if (!map.isProjectedPermutation() ||
      map.getNumResults() != op.getNumParallelLoops())
    return nullptr;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (AffineExpr e : map.getResults())
    if (iterators[cast<AffineDimExpr>(e).getPosition()] !=
        utils::IteratorType::parallel)
      return nullptr;
  Operation *previous = op->getPrevNode();
  while (previous && isa<arith::ConstantOp>(previous))
    previous = previous->getPrevNode();
  auto fill = dyn_cast_or_null<linalg::FillOp>(previous);
  if (!fill || !fill.hasPureBufferSemantics() || fill.getOutputs()[0] != buffer)
    return nullptr;
  return fill;
}

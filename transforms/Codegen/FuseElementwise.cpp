//===- FuseElementwise.cpp - Fuse elementwise linalg chains --------------===//
//
// --relay-fuse-elementwise: upstream's elementwise fusion of linalg generics
// on tensors, limited to what never repeats work (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "transforms/Codegen/ElementwiseRows.h"
#include "transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

bool isAllParallel(linalg::GenericOp op) {
  return op.getNumReductionLoops() == 0;
}

/// Whether `op` gathers: reads a tensor at indices it computes (take, a
/// lookup table), which upstream's vectoriser leaves to scalar loops.
bool gathers(linalg::GenericOp op) {
  return op.getBody()
      ->walk([](tensor::ExtractOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// Whether `op`'s body is at most a conversion or two (a cast, an offset).
bool isSmallBody(linalg::GenericOp op) {
  return op.getBody()->getOperations().size() <= 3;
}

/// The most operations a fused body grows to. Each fusion copies the
/// producer's body into the consumer's, so a chain of n elementwise ops
/// fused into one costs n^2 (50,000 adds in a row took minutes); a body of
/// this size is long past being limited by memory traffic.
constexpr size_t kMaxFusedBodyOps = 256;

/// Whether fusing the producer of `operand` into its user repeats no work:
/// both are all-parallel, the producer's result is used once, and the
/// consumer reads it through a permutation (no broadcast). A gather fuses
/// only with a small body (the cast of its indices): with anything larger
/// (a requantization) the fused op would run in scalar loops, where apart
/// the larger one vectorises.
bool fusesWithoutRecomputing(OpOperand *operand) {
  auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
  auto consumer = dyn_cast<linalg::GenericOp>(operand->getOwner());
  if (!producer || !consumer || !isAllParallel(producer) ||
      !isAllParallel(consumer) || !operand->get().hasOneUse())
    return false;
  if (producer.getBody()->getOperations().size() +
          consumer.getBody()->getOperations().size() >
      kMaxFusedBodyOps)
    return false;
  bool producerGathers = gathers(producer), consumerGathers = gathers(consumer);
  if (producerGathers != consumerGathers &&
      !isSmallBody(producerGathers ? consumer : producer))
    return false;
  return consumer.getMatchingIndexingMap(operand).isPermutation();
}

/// The band loop (an scf.for of independent iterations, each inserting its
/// band into the loop's tensor) whose result `consumer` reads element for
/// element as its only user; null when there is none.
scf::ForOp bandLoopFeeding(linalg::GenericOp consumer) {
  if (!isAllParallel(consumer))
    return nullptr;
  for (OpOperand *operand : consumer.getDpsInputOperands()) {
    auto loop = operand->get().getDefiningOp<scf::ForOp>();
    if (!loop ||
        !relay::hasCodegenMark(loop,
                               relay::CodegenMark::IndependentIterations) ||
        loop->getNumResults() != 1 || !operand->get().hasOneUse() ||
        loop->getBlock() != consumer->getBlock() ||
        !consumer.getMatchingIndexingMap(operand).isIdentity())
      continue;
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    if (yield.getOperand(0).getDefiningOp<tensor::InsertSliceOp>())
      return loop;
  }
  return nullptr;
}

/// Applies `consumer` (all-parallel, one result of the loop's type, reading
/// the row-kernel loop's result element for element) to every row vector
/// the loop writes, before it is written; the loop's result then replaces
/// the consumer's. Returns false when it does not apply (having at most
/// moved pure ops that compute the consumer's inputs above the loop).
bool applyToRowVectors(RewriterBase &rewriter, linalg::GenericOp consumer,
                       scf::ForOp loop) {
  Value result = loop.getResult(0);
  if (consumer.getNumDpsInits() != 1 || consumer->getNumResults() != 1 ||
      consumer->getResult(0).getType() != result.getType() ||
      !relay::hasVectorizableBody(consumer))
    return false;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  auto insert = yield.getOperand(0).getDefiningOp<tensor::InsertSliceOp>();
  if (!insert || !insert.hasUnitStride())
    return false;
  Type blockType = insert.getSourceType();
  SmallVector<vector::TransferWriteOp> writes;
  bool rows = true;
  loop.getBody()->walk([&](vector::TransferWriteOp write) {
    if (write.getBase().getType() != blockType)
      return;
    rows &= write.getVectorType().getRank() == 1 &&
            write.getPermutationMap().isMinorIdentity();
    writes.push_back(write);
  });
  if (!rows || writes.empty())
    return false;
  OpOperand *fromLoop = nullptr;
  for (OpOperand *operand : consumer.getDpsInputOperands()) {
    if (operand->get() == result)
      fromLoop = operand;
    else if (!relay::readableAlongRows(
                 consumer.getMatchingIndexingMap(operand)) ||
             !relay::makeAvailableBefore(operand->get(), loop))
      return false;
  }
  if (!fromLoop)
    return false;
  for (vector::TransferWriteOp write : writes) {
    rewriter.setInsertionPoint(write);
    Location loc = write.getLoc();
    int64_t lanes = write.getVectorType().getDimSize(0);
    // The row's position in the result: its block's offset plus its own.
    SmallVector<Value> at;
    for (auto [offset, index] :
         llvm::zip(insert.getMixedOffsets(), write.getIndices())) {
      Value base = getValueOrCreateConstantIndexOp(rewriter, loc, offset);
      at.push_back(arith::AddIOp::create(rewriter, loc, base, index));
    }
    SmallVector<Value> inputs;
    for (OpOperand *operand : consumer.getDpsInputOperands())
      inputs.push_back(
          operand == fromLoop
              ? write.getVector()
              : relay::readOperandRow(rewriter, loc, operand->get(),
                                      consumer.getMatchingIndexingMap(operand),
                                      at, lanes, write.getMask()));
    Value row = relay::applyBodyToRows(rewriter, loc, consumer, inputs, lanes);
    rewriter.modifyOpInPlace(
        write, [&] { write.getValueToStoreMutable().assign(row); });
  }
  rewriter.replaceOp(consumer, result);
  return true;
}

/// Moves an elementwise op that reads a band loop's result into the loop,
/// band by band (upstream's consumer fusion), so that it reads each band
/// while it is in the cache: a convolution's bias and activation no longer
/// write and re-read the whole image. The loop's own result, now unused,
/// goes (its bands are no longer inserted anywhere).
void fuseIntoBandLoops(func::FuncOp func) {
  SmallVector<std::pair<linalg::GenericOp, scf::ForOp>> candidates;
  func.walk([&](linalg::GenericOp op) {
    if (scf::ForOp loop = bandLoopFeeding(op))
      candidates.emplace_back(op, loop);
  });
  IRRewriter rewriter(func.getContext());
  for (auto [consumer, loop] : candidates) {
    if (relay::hasCodegenMark(loop, relay::CodegenMark::RowKernel) &&
        applyToRowVectors(rewriter, consumer, loop))
      continue;
    // A row kernel's result converted to another element type (the int32
    // of an int8 depthwise convolution computed in f32) stays whole: fused
    // band by band, the kernel's planes became views of dynamic layout,
    // and it ran 25 times slower.
    if (relay::hasCodegenMark(loop, relay::CodegenMark::RowKernel) &&
        getElementTypeOrSelf(consumer->getResult(0).getType()) !=
            getElementTypeOrSelf(loop.getResult(0).getType()))
      continue;
    SmallVector<LoopLikeOpInterface> loops{
        cast<LoopLikeOpInterface>(loop.getOperation())};
    FailureOr<scf::SCFFuseConsumerOfSliceResult> fused =
        scf::tileAndFuseConsumer(rewriter, consumer, loops);
    if (failed(fused))
      continue;
    // The consumer's uses now read the loop's new result.
    if (consumer->use_empty())
      rewriter.eraseOp(consumer);
    // The loop with the consumer's results added is a new op: its bands
    // are still independent.
    auto newLoop = cast<scf::ForOp>(loops.front().getOperation());
    relay::setCodegenMark(newLoop, relay::CodegenMark::IndependentIterations);
    // The band loop's first result had its one use in the consumer: yield
    // the loop's tensor unchanged so the canonicalizer drops it and the
    // insertion of each band.
    if (newLoop.getResult(0).use_empty()) {
      auto yield = cast<scf::YieldOp>(newLoop.getBody()->getTerminator());
      rewriter.modifyOpInPlace(
          yield, [&] { yield->setOperand(0, newLoop.getRegionIterArgs()[0]); });
    }
  }
}

/// The constant bounds (lower, upper, step) of `loop`, if constant.
std::optional<std::array<int64_t, 3>> constantBounds(scf::ForOp loop) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step)
    return std::nullopt;
  return std::array<int64_t, 3>{*lb, *ub, *step};
}

/// For a read of `blocks` (the result of a loop over channel blocks) inside
/// `kernel` (a row-kernel loop over the same blocks), the channel within
/// the block it reads: the read's channel index is kernel's induction
/// variable plus that of a loop in the kernel from 0 to the block size by
/// 1. Null otherwise.
Value channelWithinBlock(vector::TransferReadOp read, scf::ForOp kernel,
                         int64_t block) {
  if (read.getIndices().size() != 4)
    return nullptr;
  auto add = read.getIndices()[1].getDefiningOp<arith::AddIOp>();
  if (!add)
    return nullptr;
  for (auto [x, y] : {std::pair(add.getLhs(), add.getRhs()),
                      std::pair(add.getRhs(), add.getLhs())}) {
    if (x != kernel.getInductionVar())
      continue;
    auto inner = dyn_cast<BlockArgument>(y);
    auto loop =
        inner ? dyn_cast<scf::ForOp>(inner.getOwner()->getParentOp()) : nullptr;
    if (!loop || loop.getInductionVar() != y || !kernel->isProperAncestor(loop))
      continue;
    std::optional<std::array<int64_t, 3>> b = constantBounds(loop);
    if (b && (*b)[0] == 0 && (*b)[1] == block && (*b)[2] == 1)
      return y;
  }
  return nullptr;
}

/// Merges a row-kernel loop over channel blocks (a depthwise convolution)
/// into the loop of channel bands before it that makes its image (a 1x1
/// convolution with its bias and activation), when the two go over the
/// same blocks and the kernel reads block c of the image only in its
/// iteration c: each iteration then convolves the band it has just made,
/// from the cache, and the image is never whole in memory.
void mergeChannelBlockLoops(func::FuncOp func) {
  SmallVector<scf::ForOp> kernels;
  func.walk([&](scf::ForOp loop) {
    if (relay::hasCodegenMark(loop, relay::CodegenMark::RowKernel) &&
        !relay::hasCodegenMark(loop, relay::CodegenMark::ImageWindows))
      kernels.push_back(loop);
  });
  IRRewriter rewriter(func.getContext());
  for (scf::ForOp kernel : kernels) {
    std::optional<std::array<int64_t, 3>> bounds = constantBounds(kernel);
    if (!bounds || kernel.getNumResults() != 1)
      continue;
    // The image: the one value from outside that the kernel reads.
    SmallVector<vector::TransferReadOp> reads;
    Value image;
    bool oneImage = true;
    kernel.getBody()->walk([&](vector::TransferReadOp read) {
      Value base = read.getBase();
      if (kernel.getBodyRegion().isAncestor(base.getParentRegion()))
        return;
      oneImage &= !image || image == base;
      image = base;
      reads.push_back(read);
    });
    auto bands = image ? image.getDefiningOp<scf::ForOp>() : nullptr;
    if (!oneImage || !bands || bands->getBlock() != kernel->getBlock() ||
        !relay::hasCodegenMark(bands,
                               relay::CodegenMark::IndependentIterations) ||
        bands.getNumResults() != 1 || constantBounds(bands) != bounds)
      continue;
    auto yield = cast<scf::YieldOp>(bands.getBody()->getTerminator());
    auto insert = yield.getOperand(0).getDefiningOp<tensor::InsertSliceOp>();
    int64_t block = (*bounds)[2];
    if (!insert || !insert.hasUnitStride() ||
        insert.getDest() != bands.getRegionIterArgs()[0] ||
        !llvm::all_of(image.getUsers(), [&](Operation *user) {
          // Only the reads collected above (their indices are rewritten).
          auto read = dyn_cast<vector::TransferReadOp>(user);
          return read && llvm::is_contained(reads, read);
        }))
      continue;
    // The band is the image's block c: offsets (0, c, 0, 0), whole planes.
    SmallVector<OpFoldResult> offsets = insert.getMixedOffsets();
    auto imageType = cast<RankedTensorType>(image.getType());
    auto bandType = insert.getSourceType();
    if (offsets.size() != 4 ||
        offsets[1] != OpFoldResult(bands.getInductionVar()) ||
        !isConstantIntValue(offsets[0], 0) ||
        !isConstantIntValue(offsets[2], 0) ||
        !isConstantIntValue(offsets[3], 0) ||
        bandType.getShape() != ArrayRef<int64_t>{imageType.getDimSize(0), block,
                                                 imageType.getDimSize(2),
                                                 imageType.getDimSize(3)})
      continue;
    SmallVector<Value> within;
    for (vector::TransferReadOp read : reads)
      within.push_back(channelWithinBlock(read, kernel, block));
    if (llvm::any_of(within, [](Value v) { return !v; }))
      continue;
    // Everything else the kernel uses from outside must be there before
    // the bands.
    bool available = relay::makeAvailableBefore(kernel.getInitArgs()[0], bands);
    kernel.getBody()->walk([&](Operation *op) {
      for (Value v : op->getOperands())
        if (v != image &&
            !kernel.getBodyRegion().isAncestor(v.getParentRegion()))
          available &= relay::makeAvailableBefore(v, bands);
    });
    if (!available)
      continue;
    // Each read of block c of the image reads the band: only its channel
    // index changes (its mask stays: a partial chunk of a row must not read
    // the next row's columns as the padding's zeros).
    for (auto [read, channel] : llvm::zip(reads, within)) {
      vector::TransferReadOp op = read;
      Value index = channel;
      rewriter.modifyOpInPlace(op,
                               [&] { op.getIndicesMutable()[1].set(index); });
    }
    Value band = insert.getSource();
    FailureOr<LoopLikeOpInterface> merged = bands.replaceWithAdditionalYields(
        rewriter, kernel.getInitArgs(), /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &b, Location loc, ArrayRef<BlockArgument> args) {
          IRMapping mapping;
          mapping.map(kernel.getInductionVar(),
                      cast<scf::ForOp>(args[0].getOwner()->getParentOp())
                          .getInductionVar());
          mapping.map(kernel.getRegionIterArgs()[0], args[0]);
          mapping.map(image, band);
          for (Operation &op : kernel.getBody()->without_terminator())
            b.clone(op, mapping);
          return SmallVector<Value>{
              mapping.lookup(kernel.getBody()->getTerminator()->getOperand(0))};
        });
    if (failed(merged))
      continue;
    auto loop = cast<scf::ForOp>(merged->getOperation());
    relay::setCodegenMark(loop, relay::CodegenMark::IndependentIterations);
    rewriter.replaceOp(kernel, loop.getResult(1));
    // The image is no longer assembled: yield the loop's tensor unchanged,
    // and the band is computed into a tensor of its own, not a slice of it.
    auto newYield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    Value imageArg = loop.getRegionIterArgs()[0];
    rewriter.modifyOpInPlace(newYield,
                             [&] { newYield->setOperand(0, imageArg); });
    for (OpOperand &use : llvm::make_early_inc_range(imageArg.getUses())) {
      auto slice = dyn_cast<tensor::ExtractSliceOp>(use.getOwner());
      if (!slice)
        continue;
      rewriter.setInsertionPoint(slice);
      rewriter.replaceOpWithNewOp<tensor::EmptyOp>(
          slice, slice.getType().getShape(), slice.getType().getElementType());
    }
  }
}

/// Collects the extract_slice ops a rewrite creates.
struct SliceCollector : RewriterBase::Listener {
  SmallVector<tensor::ExtractSliceOp> slices;
  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
      slices.push_back(slice);
  }
};

/// Moves the ops that make the image a loop of image windows
/// (relay.image_windows: the row bands of a depthwise convolution) reads
/// into the loop, each iteration computing only its window: upstream's
/// producer fusion (scf::tileAndFuseProducerOfSlice) for the elementwise
/// ops and the one contraction before them (a 1x1 convolution, with its
/// fill), upstream's bubbling of extract_slice through the reshapes
/// between them. Only ops whose result nothing else uses join; the
/// contraction's inputs stay outside. The rows windows share are computed
/// in both; the image is never whole in memory.
void fuseIntoImageWindows(func::FuncOp func) {
  SmallVector<scf::ForOp> loops;
  func.walk([&](scf::ForOp loop) {
    if (relay::hasCodegenMark(loop, relay::CodegenMark::ImageWindows))
      loops.push_back(loop);
  });
  MLIRContext *ctx = func.getContext();
  RewritePatternSet bubbling(ctx);
  tensor::populateBubbleUpExtractSliceOpPatterns(bubbling);
  FrozenRewritePatternSet bubble(std::move(bubbling));
  IRRewriter rewriter(ctx);
  for (scf::ForOp loop : loops) {
    auto isOutside = [&](Value v) {
      Operation *def = v.getDefiningOp();
      return def && !loop->isAncestor(def);
    };
    SmallVector<tensor::ExtractSliceOp> work;
    loop.getBody()->walk([&](tensor::ExtractSliceOp slice) {
      if (work.empty() && isOutside(slice.getSource()))
        work.push_back(slice);
    });
    bool contracted = false;
    while (!work.empty()) {
      tensor::ExtractSliceOp slice = work.pop_back_val();
      Operation *def = slice.getSource().getDefiningOp();
      if (!isOutside(slice.getSource()) || !def->getResult(0).hasOneUse())
        continue;
      if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def)) {
        SliceCollector created;
        GreedyRewriteConfig config;
        config.setStrictness(GreedyRewriteStrictness::ExistingOps);
        config.setListener(&created);
        (void)applyOpPatternsGreedily({slice.getOperation()}, bubble, config);
        if (def->use_empty())
          rewriter.eraseOp(def);
        llvm::append_range(work, created.slices);
        continue;
      }
      auto producer = dyn_cast<linalg::LinalgOp>(def);
      if (!producer || !producer.hasPureTensorSemantics() ||
          producer->getNumResults() != 1)
        continue;
      bool contraction = producer.getNumReductionLoops() > 0;
      if (contraction && contracted)
        continue;
      SmallVector<LoopLikeOpInterface> nest{
          cast<LoopLikeOpInterface>(loop.getOperation())};
      std::optional<scf::SCFFuseProducerOfSliceResult> fused =
          scf::tileAndFuseProducerOfSlice(rewriter, slice, nest);
      if (!fused)
        continue;
      contracted |= contraction;
      // The slice and the whole op are dead now: their operands (the
      // window's next producers) are then used only in the loop.
      if (slice->use_empty())
        rewriter.eraseOp(slice);
      if (producer->use_empty())
        rewriter.eraseOp(producer);
      // Follow the window into the fused op's operands: all of an
      // elementwise op's, only the init of the contraction.
      auto tiled =
          fused->tiledAndFusedProducer.getDefiningOp<linalg::LinalgOp>();
      if (!tiled)
        continue;
      for (OpOperand &operand : tiled->getOpOperands()) {
        if (contraction && !tiled.isDpsInit(&operand))
          continue;
        if (auto next = operand.get().getDefiningOp<tensor::ExtractSliceOp>())
          work.push_back(next);
      }
    }
  }
}

/// Rewrites `op`'s inputs read at a constant index (a unit dimension
/// broadcast: a layer norm's [1, 56, 56, 1] statistics, read at (d0, d1, d2,
/// 0)) as inputs without that dimension, merged into a neighbour by a
/// collapse_shape: upstream's collapseOpIterationDims takes only maps of
/// loop dimensions.
/// Returns whether it changed `op`.
bool dropBroadcastUnitDims(linalg::GenericOp op, RewriterBase &rewriter) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  // The inputs to rewrite: each with the groups of its dimensions that
  // collapse into one (a constant-index dimension joins its neighbour).
  SmallVector<std::pair<OpOperand *, SmallVector<ReassociationIndices>>>
      rewrites;
  for (OpOperand *operand : op.getDpsInputOperands()) {
    AffineMap map = maps[operand->getOperandNumber()];
    auto type = dyn_cast<RankedTensorType>(operand->get().getType());
    if (!type || llvm::none_of(map.getResults(), [](AffineExpr e) {
          return isa<AffineConstantExpr>(e);
        }))
      continue;
    SmallVector<ReassociationIndices> groups;
    SmallVector<AffineExpr> kept;
    ReassociationIndices pending;
    for (auto [i, e] : llvm::enumerate(map.getResults())) {
      if (isa<AffineConstantExpr>(e)) {
        // Only a dimension of one element is dropped.
        if (type.getDimSize(i) != 1)
          return false;
        if (groups.empty())
          pending.push_back(i);
        else
          groups.back().push_back(i);
        continue;
      }
      pending.push_back(i);
      groups.push_back(pending);
      pending.clear();
      kept.push_back(e);
    }
    // All constant: one element, collapsed to rank 0 (no groups).
    maps[operand->getOperandNumber()] =
        AffineMap::get(map.getNumDims(), 0, kept, op.getContext());
    rewrites.push_back({operand, groups});
  }
  if (rewrites.empty())
    return false;
  rewriter.setInsertionPoint(op);
  rewriter.modifyOpInPlace(op, [&] {
    for (auto &[operand, groups] : rewrites)
      operand->set(tensor::CollapseShapeOp::create(rewriter, op.getLoc(),
                                                   operand->get(), groups));
    op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
  return true;
}

/// An elementwise generic whose result is collapsed (ONNX's MatMul of
/// [1, 56, 56, 96] as [3136, 96]) and inserted at the start of a larger
/// empty tensor (a product's rows padded to whole register tiles,
/// lowering::padHighInPlace: the empty tensor's padding strips filled
/// first) computes in the collapsed shape instead, so
/// that bufferization's empty-tensor elimination lets it write into the
/// larger buffer: through the collapse it cannot, and the result was copied
/// (a ConvNeXt's or Swin's dense layers).
/// Whether `v` is a tensor.empty, or one with slices inserted into it.
static bool onEmptyTensor(Value v) {
  while (auto insert = v.getDefiningOp<tensor::InsertSliceOp>())
    v = insert.getDest();
  return v.getDefiningOp<tensor::EmptyOp>() != nullptr;
}

struct CollapseProducerOfPaddedOperand
    : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::InsertSliceOp insert,
                                PatternRewriter &rewriter) const override {
    auto collapse = insert.getSource().getDefiningOp<tensor::CollapseShapeOp>();
    if (!collapse || !collapse->hasOneUse() ||
        !onEmptyTensor(insert.getDest()) ||
        !llvm::all_of(insert.getMixedOffsets(), isZeroInteger) ||
        !llvm::all_of(insert.getMixedStrides(), isOneInteger))
      return failure();
    auto producer = collapse.getSrc().getDefiningOp<linalg::GenericOp>();
    if (!producer || producer->getNumResults() != 1 || !producer->hasOneUse() ||
        !isAllParallel(producer) ||
        !producer.getDpsInitOperand(0)
             ->get()
             .getDefiningOp<tensor::EmptyOp>() ||
        producer.payloadUsesValueFromOperand(producer.getDpsInitOperand(0)) ||
        !producer.getIndexingMapMatchingResult(producer->getResult(0))
             .isIdentity())
      return failure();
    // The groups of loops to fold (upstream takes only those of two or
    // more; the others stay).
    SmallVector<ReassociationIndices> dims;
    for (const ReassociationIndices &group : collapse.getReassociationIndices())
      if (group.size() > 1)
        dims.push_back(group);
    if (dims.empty())
      return failure();
    bool dropped = dropBroadcastUnitDims(producer, rewriter);
    if (!linalg::areDimSequencesPreserved(producer.getIndexingMapsArray(),
                                          dims))
      return success(dropped);
    FailureOr<linalg::CollapseResult> collapsed =
        linalg::collapseOpIterationDims(producer, dims, rewriter);
    if (failed(collapsed))
      return success(dropped);
    // Its init, the collapsed empty tensor, as an empty tensor of its own:
    // empty-tensor elimination finds it through no reshape.
    OpOperand *init = collapsed->collapsedOp.getDpsInitOperand(0);
    if (auto reshaped = init->get().getDefiningOp<tensor::CollapseShapeOp>();
        reshaped && reshaped.getSrc().getDefiningOp<tensor::EmptyOp>()) {
      rewriter.setInsertionPoint(collapsed->collapsedOp);
      Value empty = tensor::EmptyOp::create(
          rewriter, reshaped.getLoc(), reshaped.getResultType().getShape(),
          reshaped.getResultType().getElementType());
      rewriter.modifyOpInPlace(collapsed->collapsedOp,
                               [&] { init->set(empty); });
    }
    rewriter.replaceOp(collapse, collapsed->collapsedOp->getResult(0));
    rewriter.eraseOp(producer);
    return success();
  }
};

struct FuseElementwise : relay::impl::FuseElementwiseBase<FuseElementwise> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(patterns,
                                                 fusesWithoutRecomputing);
    scf::ForOp::getCanonicalizationPatterns(patterns, &getContext());
    tensor::InsertSliceOp::getCanonicalizationPatterns(patterns, &getContext());
    // A window's slice of an empty tensor (a fused contraction's init) is
    // an empty tensor of its own size, not a view of a whole image's.
    tensor::populateFoldTensorEmptyPatterns(patterns);
    FrozenRewritePatternSet frozen(std::move(patterns));
    if (failed(applyPatternsGreedily(getOperation(), frozen)))
      return signalPassFailure();
    fuseIntoImageWindows(getOperation());
    fuseIntoBandLoops(getOperation());
    if (failed(applyPatternsGreedily(getOperation(), frozen)))
      return signalPassFailure();
    mergeChannelBlockLoops(getOperation());
    if (failed(applyPatternsGreedily(getOperation(), frozen)))
      return signalPassFailure();
    // Last, once the producers are whole: collapsing one earlier would stop
    // upstream's fusion through the collapse.
    RewritePatternSet collapsing(&getContext());
    collapsing.add<CollapseProducerOfPaddedOperand>(&getContext());
    tensor::populateFoldTensorEmptyPatterns(collapsing);
    if (failed(applyPatternsGreedily(getOperation(), std::move(collapsing))))
      signalPassFailure();
  }
};

} // namespace

//===- Im2colConvolution.cpp - Convolutions as matrix products --*- C++ -*-===//
//
// The CPU's generic convolution kernels: im2col products (the image copied
// tap by tap into a matrix, then one product tiled and vectorised like a
// matmul), built in bands of output rows or channels so that the matrix
// and the product stay in cache, transposed with packed constant weights
// where the spatial size fits the vector width badly; batches image by
// image and grouped convolutions group by group; depthwise convolutions as
// elementwise sums of strided views.
//
//===----------------------------------------------------------------------===//

#include "transforms/Codegen/CPU/CPUKernels.h"

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "dialects/relay/RelayDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace mlir::relay::cpu {

int64_t channelBlock(int64_t c, int64_t planeBytes, const CPUDescription &cpu) {
  int64_t blockBytes = cpu.l2Bytes / 8;
  int64_t best = 1, best8 = 0;
  for (int64_t d = 1; d <= c; ++d)
    if (c % d == 0 && d * planeBytes <= blockBytes) {
      best = d;
      if (d % 8 == 0)
        best8 = d;
    }
  return best8 ? best8 : best;
}

/// A convolution with constant weights multiplies transposed where padding
/// its spatial size would add this share of work (in percent) or more, or
/// any padding when each output sums this many products or more (enough
/// to pay for transposing the result back).
constexpr int64_t kMinPaddingToTranspose = 15;
constexpr int64_t kMinKToTranspose = 1024;
/// The fewest output channels (padded) of a transposed product whose
/// positions are packed (conv2dSingleImageProduct).
constexpr int64_t kMinChannelsToPackPositions = 256;
/// A convolution with constant weights also multiplies transposed where
/// that makes its register tiles whole (below) and each output sums this
/// many products or more: with fewer, transposing the result back costs
/// about what the better tiles save (SqueezeNet, whose expand layers sum
/// 16-64 products on 54x54 maps, ran 10-20% slower in two runs on a Zen 5
/// with every such layer transposed).
constexpr int64_t kMinKForWholeTiles = 128;

/// out[f, p] = sum_k w[f, k] * col[k, p] for one image and one group, a
/// 2-d product whose result buffer is fresh (so register tiles stay in
/// registers along k), expanded to the NCHW result. A spatial size that is
/// not a multiple of the vector width is padded with zero columns so that
/// every vector is whole; the padding is sliced off. Where that would waste
/// much (7x7: 49 -> 64 columns) or k is long (ResNet-18's and VGG-16's
/// 14x14 layers and 7-row bands of 28x28 ones: 196 -> 208 columns, which
/// also made the register tiles 8x16) and the weights are constant, the
/// product is transposed instead,
///   outT[p, fo, fi] = sum_k col[k, p] * packed[fo, k, fi]
/// with the weights packed at compile time into panels of a register tile's
/// columns (32 or 16 channels), each contiguous along k: the channels are
/// the vectors, the positions rows of register tiles (AVX-512: 7 rows, no
/// padding), each register tile streams its weight panel sequentially, and
/// the PxF result is transposed back (a small copy). ResNet-18 22.6 -> 20.5 ms,
/// VGG-16 175 -> 167 ms, MobileNet-V2 6.7 -> 6.2 ms at one thread. Channels
/// that are not whole vectors are padded with zero weights instead where that
/// wastes less than padding the positions: RegNet-Y's 440-channel 1x1
/// convolutions on 7x7 maps compute 448 channels of 49 positions, not 440
/// of 64.
Value conv2dSingleImageProduct(OpBuilder &b, Location loc,
                               RankedTensorType type, Value col, Value w) {
  MLIRContext *ctx = b.getContext();
  Type e = type.getElementType();
  w = tensor::CollapseShapeOp::create(
      b, loc, w, SmallVector<ReassociationIndices>{{0, 1}, {2}});
  col = tensor::CollapseShapeOp::create(
      b, loc, col, SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
  int64_t f = cast<RankedTensorType>(w.getType()).getDimSize(0);
  auto ct = cast<RankedTensorType>(col.getType());
  int64_t k = ct.getDimSize(0), p = ct.getDimSize(1);
  constexpr int64_t kLanes = 16;
  int64_t padded = (p + kLanes - 1) / kLanes * kLanes;
  int64_t paddedF = (f + kLanes - 1) / kLanes * kLanes;
  // Weight panels one register tile wide (CPUDescription::panelColumns).
  CPUDescription cpu = cpuAt(b);
  int64_t lanes = cpu.panelColumns(paddedF);
  // With AVX-512's two-vector (32-column) register tiles, positions that
  // are not whole tiles leave the plain product 16x16 tiles: 16 broadcasts
  // and a load for 16 FMAs, against 8 and 2 in the transposed product's
  // 8x32 tiles, whose channels are whole tiles.
  int64_t tileColumns = cpu.registerTileColumns();
  bool partialTiles = tileColumns > kLanes && p % tileColumns != 0 &&
                      lanes == tileColumns && k >= kMinKForWholeTiles;
  bool transpose = (padded - p) * 100 >= p * kMinPaddingToTranspose ||
                   (padded != p && k >= kMinKToTranspose) || partialTiles;
  bool padChannels = (paddedF - f) * p < (padded - p) * f;
  if (transpose && (paddedF == f || padChannels))
    if (Value packed = packedConstantMatrix(b, loc, w, lanes, paddedF)) {
      // Positions with no divisor near the register tile's rows are padded
      // to whole tiles with zero columns (CPUDescription::paddedTileRows):
      // AVX2's tiles found no divisor of 49 but 1 (then 7x8 tiles: 7
      // accumulators and a broadcast per FMA); 52 rows of 4x16 tiles made
      // the 7x7 layers of ResNet-18 and MobileNet-V2 25-35% faster on a
      // Zen 3, and 6x16 tiles take 54. (AVX-512's 8-row tiles take 7 rows
      // of 49.)
      int64_t paddedP = cpu.paddedTileRows(p);
      // The positions padded with zero columns (made where read whole).
      auto paddedCol = [&] { return padHighTo(b, loc, col, {k, paddedP}); };
      // With a long k, the positions are packed into panels of a register
      // tile's rows, each contiguous along k: colP[po, k, pi] = col[k, po *
      // rows + pi]. Read in place, a register tile's rows take a cache line
      // per k (rows of the image are p floats apart), more than half of L1
      // from k = 256 on a 32 KB L1; packed, 4 * rows bytes. The copy is one
      // pass over the image, small beside a product of many output
      // channels (kMinChannelsToPackPositions). ResNeXt-50's 7x7 1x1
      // layers (2048 x 1024, 1024 x 2048) 2.8-3.0 -> 2.2-2.6 ms at one
      // thread on a Zen 4; MobileNet-V2, whose 1x1 layers have short k or
      // few channels, ran 5-10% slower with every such product packed.
      // With AVX-512 a shorter k is packed too where the weights are over a
      // quarter of L2 and the positions span several cache tiles: in place,
      // the product reads all of the weights again for each cache tile of
      // positions, packed it takes the panel schedule, which streams each
      // weight panel once while every panel of positions reads it. A chain
      // of ResNet-50's 256 -> 1024 layers on 14x14 maps (1 MB of weights,
      // 5 cache tiles of 40 positions) ran 10% faster so on a Xeon.
      int64_t rows = 1;
      bool rereadsWeights = cpu.vectorBits == 512 &&
                            paddedP > cpu.cacheTileRows() &&
                            k * paddedF * 4 > cpu.l2Bytes / 4;
      if ((k * 64 > cpu.l1Bytes / 2 || rereadsWeights) &&
          paddedF >= kMinChannelsToPackPositions)
        for (int64_t r = cpu.registerTileRows(); r > 1; --r)
          if (paddedP % r == 0) {
            rows = r;
            break;
          }
      // The [paddedP, paddedF] product transposed back to NCHW.
      auto transposedBack = [&](Value outT) -> Value {
        if (paddedP != p || paddedF != f)
          outT = sliceAt(b, loc, outT, {b.getIndexAttr(0), b.getIndexAttr(0)},
                         {p, f});
        Value init = tensor::EmptyOp::create(b, loc, {f, p}, e);
        Value out = linalg::TransposeOp::create(b, loc, outT, init, {1, 0})
                        ->getResult(0);
        return tensor::ExpandShapeOp::create(
            b, loc, type, out,
            SmallVector<ReassociationIndices>{{0, 1}, {2, 3}});
      };
      if (rows == 1) {
        // Loops (p, fo, fi, k): outT[p, fo, fi] = sum_k col[k, p] *
        // packed[fo, k, fi].
        Value outT = contract(
            b, loc, RankedTensorType::get({paddedP, paddedF / lanes, lanes}, e),
            ValueRange{paddedCol(), packed}, 4,
            {map(ctx, 4, {3, 0}), map(ctx, 4, {1, 3, 2}),
             map(ctx, 4, {0, 1, 2})});
        outT = tensor::CollapseShapeOp::create(
            b, loc, outT, SmallVector<ReassociationIndices>{{0}, {1, 2}});
        return transposedBack(outT);
      }
      // The panels of positions: those within the image copied from it,
      // the last (with the padding positions, whose results are sliced
      // off) from its rest padded; the image padded whole first cost a
      // fill and a copy of all of it (two of the five passes over a 14x14
      // layer's 1024 channels between its products).
      AffineExpr po, kk, pi;
      bindDims(ctx, po, kk, pi);
      AffineMap toPanels = AffineMap::get(3, 0, {kk, po * rows + pi}, ctx);
      int64_t whole = p / rows, tiles = paddedP / rows;
      Value colP;
      if (whole == tiles || whole == 0) {
        colP = copyThroughMap(b, loc, paddedCol(), {tiles, k, rows}, toPanels);
      } else {
        Value head = copyThroughMap(b, loc, col, {whole, k, rows}, toPanels);
        Value rest = sliceAt(b, loc, col,
                             {b.getIndexAttr(0), b.getIndexAttr(whole * rows)},
                             {k, p - whole * rows});
        // Zeros, not undefined: the padding positions' products are
        // computed, and garbage taken for denormal floats made the chain of
        // 14x14 1x1 layers up to twice as slow.
        rest = padHighTo(b, loc, rest, {k, (tiles - whole) * rows});
        Value tail =
            copyThroughMap(b, loc, rest, {tiles - whole, k, rows}, toPanels);
        colP = tensor::EmptyOp::create(b, loc, {tiles, k, rows}, e);
        OpFoldResult zero = b.getIndexAttr(0);
        colP =
            insertAt(b, loc, head, colP, {zero, zero, zero}, {whole, k, rows});
        colP = insertAt(b, loc, tail, colP, {b.getIndexAttr(whole), zero, zero},
                        {tiles - whole, k, rows});
      }
      // With AVX-512, loops (fo, po, pi, fi, k): outP[fo, po, pi, fi] =
      // sum_k colP[po, k, pi] * packed[fo, k, fi], a product on panels
      // whose register tiles are contiguous in its result, scheduled in k
      // tiles whose slice of a weight panel stays in L1 while every panel
      // of positions reads it (--relay-tile-and-vectorize). Then each
      // channel panel's [P, 32] block is transposed to [32, P]. On a Xeon
      // at one thread, against the result in rows (as AVX2 keeps it,
      // below) in the other products' k tiles: ResNet-18
      // 30.6 -> 29.4 ms, ResNet-50 75.2 -> 74.7 (2 threads 45.8 -> 43.5),
      // ResNeXt-50 78.2 -> 77.4, a 512 -> 512 3x3 convolution on 7x7 maps
      // 2.03 -> 1.96 ms. (AVX2's 6x16 tiles were not measured so: a
      // product packed so ran 10% slower as haswell code on that Xeon.)
      int64_t panels = paddedF / lanes;
      if (cpu.vectorBits != 512) {
        // Loops (fo, fi, po, pi, k): outT[po, pi, fo, fi] = sum_k
        // colP[po, k, pi] * packed[fo, k, fi]; the weight panels
        // outermost, each read from the cache by every panel of
        // positions.
        Value outT = contract(
            b, loc,
            RankedTensorType::get({paddedP / rows, rows, panels, lanes}, e),
            ValueRange{colP, packed}, 5,
            {map(ctx, 5, {2, 4, 3}), map(ctx, 5, {0, 4, 1}),
             map(ctx, 5, {2, 3, 0, 1})});
        outT = tensor::CollapseShapeOp::create(
            b, loc, outT, SmallVector<ReassociationIndices>{{0, 1}, {2, 3}});
        return transposedBack(outT);
      }
      Value outP = contract(
          b, loc,
          RankedTensorType::get({panels, paddedP / rows, rows, lanes}, e),
          ValueRange{colP, packed}, 5,
          {map(ctx, 5, {1, 4, 2}), map(ctx, 5, {0, 4, 3}),
           map(ctx, 5, {0, 1, 2, 3})});
      outP = tensor::CollapseShapeOp::create(
          b, loc, outP, SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}});
      Value init = tensor::EmptyOp::create(b, loc, {panels, lanes, paddedP}, e);
      Value out = linalg::TransposeOp::create(b, loc, outP, init, {0, 2, 1})
                      ->getResult(0);
      out = tensor::CollapseShapeOp::create(
          b, loc, out, SmallVector<ReassociationIndices>{{0, 1}, {2}});
      if (paddedP != p || paddedF != f)
        out = sliceAt(b, loc, out, {b.getIndexAttr(0), b.getIndexAttr(0)},
                      {f, p});
      return tensor::ExpandShapeOp::create(
          b, loc, type, out, SmallVector<ReassociationIndices>{{0, 1}, {2, 3}});
    }
  col = padHighTo(b, loc, col, {k, padded});
  // Channels that are neither whole register tiles nor whole vectors
  // (R(2+1)D's 230, 460 and 921 channels: 230 went in 2-row tiles, 4
  // accumulators, at a third of the speed of 224) are padded with zero
  // weights as CPUDescription::paddedTileRows says; constant weights are
  // padded here, once. (Whole vectors of rows keep their tiles: AVX2's
  // 6-row tiles split 64 rows as 60 + 4, see --relay-tile-and-vectorize.)
  int64_t paddedRows =
      f % cpu.registerTileRows() && f % kLanes ? cpu.paddedTileRows(f) : f;
  w = zeroPaddedRows(b, loc, w, paddedRows);
  // Loops (f, p, k).
  Value out =
      contract(b, loc, RankedTensorType::get({paddedRows, padded}, e),
               ValueRange{w, col}, 3,
               {map(ctx, 3, {0, 2}), map(ctx, 3, {2, 1}), map(ctx, 3, {0, 1})});
  if (padded != p || paddedRows != f)
    out = tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get({f, p}, e), out, ValueRange{},
        ValueRange{}, ValueRange{}, b.getDenseI64ArrayAttr({0, 0}),
        b.getDenseI64ArrayAttr({f, p}), b.getDenseI64ArrayAttr({1, 1}));
  return tensor::ExpandShapeOp::create(
      b, loc, type, out, SmallVector<ReassociationIndices>{{0, 1}, {2, 3}});
}

/// The most kernel taps an im2col matrix is copied in tap by tap.
constexpr int64_t kMaxIm2colTaps = 64;

/// The output rows per band of a convolution with `k` = C*KH*KW taps per
/// output position: the most that divide `oh` and keep the band's im2col
/// matrix (f32) within the L2 cache; `oh` when the whole matrix is within
/// twice that. A larger matrix is built and multiplied a band of output
/// rows at a time, so that each band's columns are still in cache when the
/// product reads them (VGG-16's first layers would otherwise write and
/// re-read 115 MB per convolution).
int64_t im2colBandRows(int64_t k, int64_t oh, int64_t ow,
                       const CPUDescription &cpu) {
  int64_t bandBytes = cpu.l2Bytes;
  int64_t rowBytes = k * ow * 4;
  if (rowBytes * oh <= 2 * bandBytes)
    return oh;
  for (int64_t rows = std::min(oh, bandBytes / rowBytes); rows > 1; --rows)
    if (oh % rows == 0)
      return rows;
  return 1;
}

/// The most bytes of a band's product (f32) in productBandRows, an eighth
/// of L2 (128 KB of 1 MB): the band stays in the L2 cache for the op that
/// reads it next.
int64_t productBandBytes(const CPUDescription &cpu) { return cpu.l2Bytes / 8; }

/// The output rows per band of a convolution of one image with `f` output
/// channels: the most rows that divide `oh` whose product
/// is whole vectors (a multiple of 32 columns, else of 16) and within
/// productBandBytes; 0 (no bands) when the whole product is within that
/// or no band fits. --relay-fuse-elementwise moves the elementwise op after
/// the convolution (bias, activation) into the band loop: it then reads
/// each band from the cache, not the whole result from memory. With
/// threads, whose share of the bands is run in parallel, a count of bands
/// they divide comes first (rows of 8 positions allowed): on two threads
/// ResNet-50's 512 -> 128 layers on 28x28 maps took 7 bands of 4 rows, 4
/// on one thread and 3 on the other; in 14 bands of 2 rows a chain of 16
/// such layers ran 7.35 -> 6.63 ms on a Xeon.
int64_t productBandRows(int64_t f, int64_t oh, int64_t ow,
                        const CPUDescription &cpu) {
  int64_t bandBytes = productBandBytes(cpu);
  if (f * oh * ow * 4 <= bandBytes)
    return 0;
  auto fits = [&](int64_t rows, int64_t quantum) {
    return oh % rows == 0 && rows * ow % quantum == 0 &&
           f * rows * ow * 4 <= bandBytes;
  };
  if (cpu.threads > 1)
    for (int64_t quantum : {32, 16, 8})
      for (int64_t rows = oh - 1; rows >= 1; --rows)
        if (fits(rows, quantum) && (oh / rows) % cpu.threads == 0)
          return rows;
  for (int64_t quantum : {32, 16})
    for (int64_t rows = oh - 1; rows >= 1; --rows)
      if (fits(rows, quantum))
        return rows;
  return 0;
}

/// The most bytes of the image read by every channel band of a 1x1
/// convolution (conv2dInChannelBands), half of L2: it stays in the cache.
int64_t channelBandInputBytes(const CPUDescription &cpu) {
  return cpu.l2Bytes / 2;
}

/// Whether a 1x1 stride-1 convolution of one image with `c` input and `f`
/// output channels over `p` positions goes in bands of output channels
/// (conv2dInChannelBands): its image stays in the L2 cache while every
/// band reads it.
static bool takesChannelBands(int64_t c, int64_t f, int64_t p,
                              const CPUDescription &cpu) {
  return p % 16 == 0 && c * p * 4 <= channelBandInputBytes(cpu) &&
         f * p * 4 > productBandBytes(cpu) && channelBlock(f, p * 4, cpu) < f;
}

/// The NCHW result `type` of one image computed in blocks of `channels`
/// output channels as an scf.for of independent iterations (with threads,
/// they run in parallel), block `f0` by `block` (given the block's first
/// channel and its result type) and inserted into the result.
static Value inOutputChannelBlocks(
    OpBuilder &b, Location loc, RankedTensorType type, int64_t channels,
    function_ref<Value(OpBuilder &, Value, RankedTensorType)> block) {
  auto blockType = RankedTensorType::get(
      {1, channels, type.getDimSize(2), type.getDimSize(3)},
      type.getElementType());
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  scf::ForOp loop =
      loopOp(b, loc, type.getDimSize(1), channels, init,
             [&](OpBuilder &lb, Value f0, Value acc) {
               OpFoldResult zero = lb.getIndexAttr(0);
               return insertAt(lb, loc, block(lb, f0, blockType), acc,
                               {zero, f0, zero, zero}, blockType.getShape());
             });
  relay::setCodegenMark(loop, relay::CodegenMark::IndependentIterations);
  return loop.getResult(0);
}

/// conv2dNchwAsProduct (1x1, stride 1) of one image as an scf.for over
/// bands of `channels` output channels, each multiplying its rows of the
/// weights by the whole image and inserted into the result. The bands
/// match the channel blocks of a depthwise convolution of the same planes
/// (channelBlock), whose loop --relay-fuse-elementwise then merges with
/// this one: each block of the expanded image is convolved while it is in
/// the cache (MobileNet's inverted residual blocks).
Value conv2dInChannelBands(OpBuilder &b, Location loc, RankedTensorType type,
                           Value data, Value weight, int64_t channels) {
  SmallVector<int64_t> wSizes(
      cast<RankedTensorType>(weight.getType()).getShape());
  wSizes[0] = channels;
  return inOutputChannelBlocks(
      b, loc, type, channels,
      [&](OpBuilder &lb, Value f0, RankedTensorType bandType) {
        OpFoldResult zero = lb.getIndexAttr(0);
        Value w = sliceAt(lb, loc, weight, {f0, zero, zero, zero}, wSizes);
        return conv2dNchwAsProduct(lb, loc, bandType, data, w,
                                   /*groups=*/1, {1, 1}, {1, 1});
      });
}

/// The output columns per band of a convolution whose im2col matrix of
/// one output row (`k` = C*KH*KW taps by `ow` columns) is over the L2
/// cache: the most that divide `ow`, whole register tiles (32 columns, else
/// 16), whose im2col matrix is within L2 and whose product (`f` channels)
/// within productBandBytes; `ow` (no column bands) otherwise. R(2+1)D's
/// temporal convolutions are 2-d convolutions over depth and 3136 flattened
/// positions: one row's matrix of 432 taps was 5.4 MB, built and multiplied
/// from memory at 80 GFLOP/s.
int64_t im2colBandColumns(int64_t k, int64_t f, int64_t ow,
                          const CPUDescription &cpu) {
  if (k * ow * 4 <= cpu.l2Bytes)
    return ow;
  int64_t most =
      std::min(cpu.l2Bytes / (k * 4), productBandBytes(cpu) / (f * 4));
  for (int64_t quantum : {32, 16})
    for (int64_t cols = most; cols >= quantum; --cols)
      if (ow % cols == 0 && cols % quantum == 0)
        return cols;
  return ow;
}

/// conv2dNchwAsProduct of one image, one group, as an scf.for over bands
/// of `rows` output rows and `cols` output columns: each band convolves
/// the box of input rows and columns it reads and is inserted into the
/// result.
Value conv2dInBands(OpBuilder &b, Location loc, RankedTensorType type,
                    Value data, Value weight, ArrayRef<int64_t> s,
                    ArrayRef<int64_t> d, int64_t rows, int64_t cols) {
  auto in = cast<RankedTensorType>(data.getType());
  auto wt = cast<RankedTensorType>(weight.getType());
  int64_t kh = wt.getDimSize(2), kw = wt.getDimSize(3);
  int64_t ow = type.getDimSize(3), columnBands = ow / cols;
  int64_t inRows = (rows - 1) * s[0] + (kh - 1) * d[0] + 1;
  int64_t inCols = columnBands == 1 ? in.getDimSize(3)
                                    : (cols - 1) * s[1] + (kw - 1) * d[1] + 1;
  auto sliceType = RankedTensorType::get(
      {in.getDimSize(0), in.getDimSize(1), inRows, inCols},
      in.getElementType());
  auto bandType = RankedTensorType::get(
      {type.getDimSize(0), type.getDimSize(1), rows, cols},
      type.getElementType());
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  // One loop over the bands, row-band major: with threads they are shared
  // out whether the rows or the columns make them many.
  // Without column bands the loop steps by `rows` (the band's first row).
  int64_t end = columnBands == 1 ? type.getDimSize(2)
                                 : type.getDimSize(2) / rows * columnBands;
  int64_t step = columnBands == 1 ? rows : 1;
  scf::ForOp loop = loopOp(
      b, loc, end, step, init, [&](OpBuilder &lb, Value band, Value acc) {
        auto times = [&](Value v, int64_t factor) -> Value {
          if (factor == 1)
            return v;
          return arith::MulIOp::create(lb, loc, v, index(lb, loc, factor));
        };
        OpFoldResult zero = lb.getIndexAttr(0);
        Value row = band;
        OpFoldResult col = zero, inCol = zero;
        if (columnBands > 1) {
          Value per = index(lb, loc, columnBands);
          row = arith::DivUIOp::create(lb, loc, band, per);
          Value c0 = times(arith::RemUIOp::create(lb, loc, band, per), cols);
          col = c0;
          inCol = times(c0, s[1]);
          row = times(row, rows);
        }
        Value slice =
            sliceAt(lb, loc, data, {zero, zero, times(row, s[0]), inCol},
                    sliceType.getShape());
        Value out = conv2dNchwAsProduct(lb, loc, bandType, slice, weight,
                                        /*groups=*/1, s, d);
        return insertAt(lb, loc, out, acc, {zero, zero, row, col},
                        bandType.getShape());
      });
  // The bands are independent: with threads, --relay-to-llvm runs them in
  // parallel (--relay-parallelize-loops).
  relay::setCodegenMark(loop, relay::CodegenMark::IndependentIterations);
  return loop.getResult(0);
}

/// conv2dNchwAsProduct of one image with `groups` groups as an scf.for over
/// the groups, each an ungrouped convolution of its channels of the image
/// with its filters (so it takes the row bands, the padding and the tiles of
/// those), inserted into the result. One product batched over the groups
/// reads an im2col matrix of every group from memory, K = 72 rows at a time
/// for RegNet's 8-channel groups, and multiplies a few filters per group:
/// on a Zen 3 at one thread RegNet-Y-400MF's grouped convolutions ran at
/// 6-16 GFLOP/s that way and 11-31 group by group (the 48-channel stride-2
/// one 2.9 -> 1.05 ms), AlexNet's two 48-channel 5x5 groups 102 -> 11.5 ms.
/// The groups are independent: with threads they run in parallel.
static Value conv2dGroupByGroup(OpBuilder &b, Location loc,
                                RankedTensorType type, Value data, Value weight,
                                int64_t groups, ArrayRef<int64_t> s,
                                ArrayRef<int64_t> d) {
  auto in = cast<RankedTensorType>(data.getType());
  auto wt = cast<RankedTensorType>(weight.getType());
  int64_t cg = in.getDimSize(1) / groups, fg = wt.getDimSize(0) / groups;
  SmallVector<int64_t> dataSizes(in.getShape()), wSizes(wt.getShape());
  dataSizes[1] = cg;
  wSizes[0] = fg;
  return inOutputChannelBlocks(
      b, loc, type, fg,
      [&](OpBuilder &lb, Value f0, RankedTensorType groupType) {
        // The group's first input channel: f0 / fg * cg.
        OpFoldResult zero = lb.getIndexAttr(0);
        Value c0 = f0;
        if (cg != fg)
          c0 = arith::MulIOp::create(
              lb, loc, arith::DivUIOp::create(lb, loc, f0, index(lb, loc, fg)),
              index(lb, loc, cg));
        Value image = sliceAt(lb, loc, data, {zero, c0, zero, zero}, dataSizes);
        Value w = sliceAt(lb, loc, weight, {f0, zero, zero, zero}, wSizes);
        return conv2dNchwAsProduct(lb, loc, groupType, image, w,
                                   /*groups=*/1, s, d);
      });
}

/// Grouped NCHW/OIHW convolution of float tensors as a matrix product
/// (im2col), so it is tiled and vectorised like a matmul:
///   col[n, g, c, kh, kw, oh, ow] = data[n, g*Cg + c, oh*sh + kh*dh,
///                                       ow*sw + kw*dw]
///   out[n, g, f, p] = sum_k weight[g, f, k] * col[n, g, k, p]
/// with k = (c, kh, kw) and p = (oh, ow) collapsed. A 1x1 stride-1
/// convolution reads the data directly (no copy).
Value conv2dNchwAsProduct(OpBuilder &b, Location loc, RankedTensorType type,
                          Value data, Value weight, int64_t groups,
                          ArrayRef<int64_t> s, ArrayRef<int64_t> d,
                          bool bands) {
  MLIRContext *ctx = b.getContext();
  CPUDescription cpu = cpuAt(b);
  auto in = cast<RankedTensorType>(data.getType());
  auto wt = cast<RankedTensorType>(weight.getType());
  Type e = type.getElementType();
  int64_t n = in.getDimSize(0), c = in.getDimSize(1);
  int64_t f = wt.getDimSize(0), kh = wt.getDimSize(2), kw = wt.getDimSize(3);
  int64_t oh = type.getDimSize(2), ow = type.getDimSize(3);
  int64_t g = groups, cg = c / g, fg = f / g, p = oh * ow;
  bool direct = kh == 1 && kw == 1 && s[0] == 1 && s[1] == 1 &&
                in.getDimSize(2) == oh && in.getDimSize(3) == ow;
  // A 1x1 convolution whose image stays in the L2 cache goes in bands of
  // output channels (whole vectors along the positions).
  if (bands && direct && n == 1 && g == 1 && takesChannelBands(c, f, p, cpu))
    return conv2dInChannelBands(b, loc, type, data, weight,
                                channelBlock(f, p * 4, cpu));
  if (bands && n == 1 && g > 1)
    return conv2dGroupByGroup(b, loc, type, data, weight, g, s, d);
  // Bands of rows: an im2col matrix built band by band within L2, and
  // products within an eighth of it, whichever bands are smaller.
  if (bands && n == 1 && g == 1) {
    int64_t rows = direct ? oh : im2colBandRows(c * kh * kw, oh, ow, cpu);
    if (int64_t productRows = productBandRows(f, oh, ow, cpu))
      rows = std::min(rows, productRows);
    int64_t cols =
        direct || rows > 1 ? ow : im2colBandColumns(c * kh * kw, f, ow, cpu);
    if (rows < oh || cols < ow)
      return conv2dInBands(b, loc, type, data, weight, s, d, rows, cols);
  }
  Value col;
  if (direct) {
    col = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get({n, g, cg, oh, ow}, e), data,
        SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
    col = tensor::CollapseShapeOp::create(
        b, loc, col, SmallVector<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
  } else if (kh * kw > kMaxIm2colTaps) {
    // Large kernels (a ViT's 16x16 patches): one generic copy.
    AffineExpr dn, dg, dc, dkh, dkw, doh, dow;
    bindDims(ctx, dn, dg, dc, dkh, dkw, doh, dow);
    AffineMap read = AffineMap::get(
        7, 0,
        {dn, dg * cg + dc, doh * s[0] + dkh * d[0], dow * s[1] + dkw * d[1]},
        ctx);
    col = copyThroughMap(b, loc, data, {n, g, cg, kh, kw, oh, ow}, read);
    col = tensor::CollapseShapeOp::create(
        b, loc, col,
        SmallVector<ReassociationIndices>{{0}, {1}, {2, 3, 4}, {5, 6}});
  } else {
    // One copy per kernel tap of the image's strided view into the tap's
    // plane of col: rows of the view are contiguous (unit column stride)
    // and the copies vectorise; a generic reading data at oh*s + kh*d would
    // not. (A chain of many insertions is slow to bufferize: large kernels
    // take the generic above.)
    SmallVector<int64_t> colShape{n, g, cg, kh, kw, oh, ow};
    col = tensor::EmptyOp::create(b, loc, colShape, e);
    auto viewType = RankedTensorType::get({n, c, oh, ow}, e);
    auto tapType = RankedTensorType::get({n, g, cg, oh, ow}, e);
    StridePhases phases(b, loc, data, s, d, kh, kw);
    for (int64_t i = 0; i < kh; ++i)
      for (int64_t j = 0; j < kw; ++j) {
        Value view = phases.tapView(b, loc, i, j, viewType);
        Value tap = tensor::ExpandShapeOp::create(
            b, loc, tapType, view,
            SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
        col = tensor::InsertSliceOp::create(
            b, loc, tap, col, ValueRange{}, ValueRange{}, ValueRange{},
            b.getDenseI64ArrayAttr({0, 0, 0, i, j, 0, 0}),
            b.getDenseI64ArrayAttr({n, g, cg, 1, 1, oh, ow}),
            b.getDenseI64ArrayAttr({1, 1, 1, 1, 1, 1, 1}));
      }
    col = tensor::CollapseShapeOp::create(
        b, loc, col,
        SmallVector<ReassociationIndices>{{0}, {1}, {2, 3, 4}, {5, 6}});
  }
  Value w = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({g, fg, cg, kh, kw}, e), weight,
      SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
  w = tensor::CollapseShapeOp::create(
      b, loc, w, SmallVector<ReassociationIndices>{{0}, {1}, {2, 3, 4}});
  if (n == 1 && g == 1)
    return conv2dSingleImageProduct(b, loc, type, col, w);
  // Loops (n, g, f, p, k).
  Value out = contract(b, loc, RankedTensorType::get({n, g, fg, p}, e),
                       ValueRange{w, col}, 5,
                       {map(ctx, 5, {1, 2, 4}), map(ctx, 5, {0, 1, 4, 3}),
                        map(ctx, 5, {0, 1, 2, 3})});
  out = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({n, g, fg, oh, ow}, e), out,
      SmallVector<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
  return tensor::CollapseShapeOp::create(
      b, loc, type, out,
      SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
}

/// Depthwise NCHW convolution (one input and one output channel per group)
/// of a padded float image, directly: one elementwise generic over the
/// output sums, for each kernel tap, a strided view of the image (no copy)
/// times the tap's weight per channel, so it vectorises along the output
/// row like any elementwise op (im2col would copy the image KH*KW times for
/// products with k = KH*KW).
Value depthwiseConv2dNchw(OpBuilder &b, Location loc, RankedTensorType type,
                          Value data, Value weight, ArrayRef<int64_t> s,
                          ArrayRef<int64_t> d) {
  MLIRContext *ctx = b.getContext();
  auto wt = cast<RankedTensorType>(weight.getType());
  Type e = type.getElementType();
  int64_t n = type.getDimSize(0), c = type.getDimSize(1);
  int64_t oh = type.getDimSize(2), ow = type.getDimSize(3);
  int64_t kh = wt.getDimSize(2), kw = wt.getDimSize(3);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  AffineMap id = AffineMap::getMultiDimIdentityMap(4, ctx);
  AffineMap channel = map(ctx, 4, {1});
  auto viewType = RankedTensorType::get({n, c, oh, ow}, e);
  auto tapType = RankedTensorType::get({c}, e);
  StridePhases phases(b, loc, data, s, d, kh, kw);
  for (int64_t i = 0; i < kh; ++i)
    for (int64_t j = 0; j < kw; ++j) {
      inputs.push_back(phases.tapView(b, loc, i, j, viewType));
      maps.push_back(id);
      inputs.push_back(tensor::ExtractSliceOp::create(
          b, loc, tapType, weight, ValueRange{}, ValueRange{}, ValueRange{},
          b.getDenseI64ArrayAttr({0, 0, i, j}),
          b.getDenseI64ArrayAttr({c, 1, 1, 1}),
          b.getDenseI64ArrayAttr({1, 1, 1, 1})));
      maps.push_back(channel);
    }
  maps.push_back(id);
  Value out = tensor::EmptyOp::create(b, loc, type.getShape(), e);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, inputs, ValueRange{out}, maps,
             SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange a) {
               // Fused multiply-adds: LLVM does not contract a separate
               // multiply and add (no fast-math flags).
               Value acc = arith::MulFOp::create(nb, l, a[0], a[1]);
               for (size_t t = 2; t + 1 < a.size(); t += 2)
                 acc = math::FmaOp::create(nb, l, a[t], a[t + 1], acc);
               linalg::YieldOp::create(nb, l, acc);
             })
      .getResult(0);
}

/// NHWC/HWIO convolution of float tensors as one matrix product:
///   col[n, oh, ow, kh, kw, c] = data[n, oh*sh + kh*dh, ow*sw + kw*dw, c]
///   out[(n, oh, ow), f] = sum_(kh, kw, c) col[.., (kh, kw, c)] w[(kh,kw,c), f]
Value conv2dNhwcAsProduct(OpBuilder &b, Location loc, RankedTensorType type,
                          Value data, Value weight, ArrayRef<int64_t> s,
                          ArrayRef<int64_t> d) {
  MLIRContext *ctx = b.getContext();
  auto in = cast<RankedTensorType>(data.getType());
  auto wt = cast<RankedTensorType>(weight.getType());
  Type e = type.getElementType();
  int64_t n = in.getDimSize(0), c = in.getDimSize(3);
  int64_t kh = wt.getDimSize(0), kw = wt.getDimSize(1), f = wt.getDimSize(3);
  int64_t oh = type.getDimSize(1), ow = type.getDimSize(2);
  AffineExpr dn, doh, dow, dkh, dkw, dc;
  bindDims(ctx, dn, doh, dow, dkh, dkw, dc);
  AffineMap read = AffineMap::get(
      6, 0, {dn, doh * s[0] + dkh * d[0], dow * s[1] + dkw * d[1], dc}, ctx);
  Value col = copyThroughMap(b, loc, data, {n, oh, ow, kh, kw, c}, read);
  col = tensor::CollapseShapeOp::create(
      b, loc, col, SmallVector<ReassociationIndices>{{0, 1, 2}, {3, 4, 5}});
  Value w = tensor::CollapseShapeOp::create(
      b, loc, weight, SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
  // Loops (m, f, k).
  Value out = contract(
      b, loc, RankedTensorType::get({n * oh * ow, f}, e), ValueRange{col, w}, 3,
      {map(ctx, 3, {0, 2}), map(ctx, 3, {2, 1}), map(ctx, 3, {0, 1})});
  return tensor::ExpandShapeOp::create(
      b, loc, type, out, SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
}

/// A batch of NCHW images (already padded) convolved one after another as
/// single images, which get the single-image product (fresh result buffer,
/// transposed products, row bands); the batched product over (n, f, p, k)
/// was 4x slower. Grouped convolutions go group by group within each image.
Value convImageByImage(OpBuilder &b, Location loc, RankedTensorType type,
                       Value data, Value weight, int64_t groups,
                       ArrayRef<int64_t> s, ArrayRef<int64_t> d) {
  auto resultType = RankedTensorType::get(
      {1, type.getDimSize(1), type.getDimSize(2), type.getDimSize(3)},
      type.getElementType());
  Value out = eachImage(b, loc, type, data, [&](OpBuilder &ib, Value image) {
    return conv2dNchwAsProduct(ib, loc, resultType, image, weight, groups, s,
                               d);
  });
  // The images are independent: the bias and activation after the
  // convolution join each image's iteration (--relay-fuse-elementwise).
  relay::setCodegenMark(out.getDefiningOp<scf::ForOp>(),
                        relay::CodegenMark::IndependentIterations);
  return out;
}

/// Elementwise ops that may follow a 1x1 convolution into the image of a
/// depthwise one (bias, activation).
static constexpr llvm::StringLiteral kElementwise[] = {
    "relay.nn.bias_add", "relay.add",     "relay.multiply",
    "relay.subtract",    "relay.clip",    "relay.nn.relu",
    "relay.maximum",     "relay.minimum", "relay.sigmoid"};

/// Whether `conv` (a relay.nn.conv2d) is 1x1, stride 1, unpadded and
/// ungrouped: one plain product whose windows upstream's fusion can compute
/// (an im2col one builds its matrix by insertions).
static bool isPlain1x1(Operation *conv) {
  auto weight = dyn_cast<RankedTensorType>(conv->getOperand(1).getType());
  return weight && weight.getRank() == 4 && weight.getDimSize(2) == 1 &&
         weight.getDimSize(3) == 1 && intAttr(conv, "groups", 1) == 1 &&
         llvm::all_of(intsAttr(conv, "strides", {1, 1}),
                      [](int64_t s) { return s == 1; }) &&
         llvm::all_of(padding4(conv), [](int64_t p) { return p == 0; });
}

/// The depthwise 3x3 convolution (padding 1, undilated, NCHW, equal
/// strides) whose image the result of `conv` goes into, through
/// elementwise ops of its type (these may read it more than once, as a
/// SiLU does), as the only use leaving them; null when there is none.
static Operation *depthwiseAfter(Operation *conv) {
  // The elementwise ops after the convolution form a small graph of values
  // of its type (a SiLU reads the biased product twice) with one way out.
  auto image = dyn_cast<RankedTensorType>(conv->getResult(0).getType());
  llvm::SetVector<Value> chain;
  chain.insert(conv->getResult(0));
  auto joins = [&](Operation *user) {
    return llvm::is_contained(kElementwise, user->getName().getStringRef()) &&
           user->getNumResults() == 1 &&
           user->getResult(0).getType() == image &&
           // Its operands of the image's type come from the chain.
           llvm::all_of(user->getOperands(), [&](Value operand) {
             return operand.getType() != image || chain.contains(operand);
           });
  };
  for (bool grew = true; grew && chain.size() <= 8;) {
    grew = false;
    for (size_t i = 0; i < chain.size(); ++i)
      for (Operation *user : chain[i].getUsers())
        if (joins(user) && !chain.contains(user->getResult(0)))
          grew |= chain.insert(user->getResult(0));
  }
  // Exactly one use leaves the chain.
  OpOperand *exitUse = nullptr;
  for (Value v : chain)
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (user->getNumResults() == 1 && chain.contains(user->getResult(0)))
        continue;
      if (exitUse)
        return nullptr;
      exitUse = &use;
    }
  if (!exitUse)
    return nullptr;
  Operation *exit = exitUse->getOwner();
  if (exit->getName().getStringRef() != "relay.nn.conv2d" ||
      exitUse->getOperandNumber() != 0)
    return nullptr;
  SmallVector<int64_t> s = intsAttr(exit, "strides", {1, 1});
  auto kernel = dyn_cast<RankedTensorType>(exit->getOperand(1).getType());
  bool depthwise =
      image && image.getRank() == 4 && kernel && s.size() == 2 &&
      s[0] == s[1] && intAttr(exit, "groups", 1) == image.getDimSize(1) &&
      kernel.getShape() == ArrayRef<int64_t>{image.getDimSize(1), 1, 3, 3} &&
      llvm::all_of(padding4(exit), [](int64_t p) { return p == 1; }) &&
      llvm::all_of(intsAttr(exit, "dilation", {1, 1}),
                   [](int64_t d) { return d == 1; }) &&
      strAttr(exit, "data_layout", "NCHW") == "NCHW";
  return depthwise ? exit : nullptr;
}

/// Whether the 1x1 convolution `conv` of one static image goes in bands of
/// output channels (takesChannelBands).
static bool inChannelBands(Operation *conv, const CPUDescription &cpu) {
  auto in = dyn_cast<RankedTensorType>(conv->getOperand(0).getType());
  auto out = dyn_cast<RankedTensorType>(conv->getResult(0).getType());
  return in && out && in.hasStaticShape() && out.hasStaticShape() &&
         in.getRank() == 4 && out.getRank() == 4 && in.getDimSize(0) == 1 &&
         takesChannelBands(in.getDimSize(1), out.getDimSize(1),
                           out.getDimSize(2) * out.getDimSize(3), cpu);
}

bool feedsDepthwiseRowBands(Operation *conv) {
  if (!isPlain1x1(conv))
    return false;
  Operation *depthwise = depthwiseAfter(conv);
  if (!depthwise)
    return false;
  // A convolution whose input stays in the cache goes in channel bands, and
  // the depthwise one in the matching channel blocks (imageInChannelBands):
  // row bands compute each window's rows above and below again
  // (EfficientNet-V2-S at 384x384: 960 channels of 24x24 made from 160, in
  // 3-row bands of 5-row windows, 2.9 ms against 1.5).
  CPUDescription cpu = cpuFor(conv);
  if (inChannelBands(conv, cpu))
    return false;
  return depthwiseRowBandRows(
             cast<RankedTensorType>(conv->getResult(0).getType()),
             intsAttr(depthwise, "strides", {1, 1})[0], cpu) > 0;
}

bool imageInChannelBands(Operation *depthwise) {
  // The 1x1 convolution before the elementwise ops that make the image.
  Value image = depthwise->getOperand(0);
  SmallVector<Value> work = {image};
  llvm::SmallPtrSet<Operation *, 8> seen;
  while (!work.empty() && seen.size() <= 8) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || !seen.insert(def).second)
      continue;
    if (def->getName().getStringRef() == "relay.nn.conv2d") {
      if (isPlain1x1(def) && depthwiseAfter(def) == depthwise)
        return inChannelBands(def, cpuFor(def));
      continue;
    }
    if (llvm::is_contained(kElementwise, def->getName().getStringRef()))
      for (Value operand : def->getOperands())
        if (operand.getType() == image.getType())
          work.push_back(operand);
  }
  return false;
}

} // namespace mlir::relay::cpu

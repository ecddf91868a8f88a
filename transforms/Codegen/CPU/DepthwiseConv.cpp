//===- DepthwiseConv.cpp - Depthwise and grouped convolutions in rows -----===//
//
// A 3x3 depthwise convolution with one pixel of zero padding (MobileNet's),
// or a 5x5 one with two (EfficientNet's), at stride 1 or 2, or a 7x7 one
// with three (ConvNeXt's) at stride 1, as loop nests of vector code on
// tensors that read the unpadded image:
// each output row is whole 16-lane chunks, the last overlapping the one
// before (a row narrower than a chunk: one chunk under constant masks); the
// taps left and right of a chunk are reads one column over inside the row
// and, at the row's ends, the chunk rotated by one lane with the lane that
// wrapped around masked off its multiply-add (at stride 2, the odd columns
// of the span). Rows above and below the image are skipped. So the image
// is never copied into a padded buffer: the convolution before it writes
// the image and nothing writes a border. Rows narrower than a chunk go two
// at a time, each input row's taps made once for both: two chains of
// multiply-adds instead of one of k*k dependent steps (ConvNeXt's 7x7
// layer on 14x14 maps 20% faster, MobileNet-V2's 3x3 ones on 14x14 and 7x7
// 10%, on a Zen 3).
//
//   out[c, h, w] = sum_(i, j) in[c, s*h - p + i, s*w - p + j] * k[c, i, j]
//
// (p = 1 for 3x3, 2 for 5x5, 3 for 7x7).
//
// Grouped convolutions of a few channels per group (ResNeXt, RegNet) use
// the same taps: each input channel's rows are made into taps once and
// multiplied by the weights of several output channels of its group, a
// register tile of those channels' chunks of one output row carried
// through a loop over the group's input channels. Rows of at most 7
// columns (7x7 maps) go two to a vector.
//
// Depthwise convolutions of 8-bit integers (quantized MobileNets) run the
// same float kernels on the integers converted to f32, which is exact:
// every product and partial sum is an integer below 2^24. In NHWC (where
// the CPU's layout rules put an int8 network, its other convolutions'
// layout) they are one generic along the channels instead: a strided view
// of the padded image per tap, widened to f32 and multiplied by the tap's
// weights.
//
// The channels go in blocks (channelBlock of the input planes) as an
// scf.for of independent iterations, each inserting its block into the
// result, its vectors written only by transfer_writes along the rows:
// --relay-fuse-elementwise applies the bias and activation after the
// convolution to each vector before it is written, and merges the loop
// with the channel bands of a 1x1 convolution that makes the image. An
// image over 2 MB goes in bands of output rows instead, each reading a
// window of the image's rows, into which --relay-fuse-elementwise moves
// the ops that make the image.
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "dialects/relay/RelayDialect.h"
#include "transforms/Codegen/CPU/CPUKernels.h"

#include "conversion/RelayToLinalg/LoweringTarget.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;
using namespace mlir::relay::cpu;

namespace {

/// f32 lanes per chunk of a row.
constexpr int64_t kLanes = 16;
/// The largest kernel taken (7x7, at stride 1 only).
constexpr int64_t kMaxKernel = 7;
/// The widest input row taken (its chunks are unrolled).
constexpr int64_t kMaxWidth = 256;
/// The most output rows of a band (their code is unrolled).
constexpr int64_t kMaxBandRows = 8;
/// The most input or output channels per group a grouped convolution is
/// convolved in rows with (groupedConvInRows). On a Zen 5 the rows beat
/// the group-by-group im2col products up to this (two groups of 128
/// channels on 14x14: 0.65 against 0.74 ms).
constexpr int64_t kMaxGroupedChannels = 128;

/// A vector of `lanes` f32 zeros.
Value zeros(OpBuilder &b, Location loc, int64_t lanes) {
  auto type = VectorType::get({lanes}, b.getF32Type());
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, b.getF32FloatAttr(0)));
}

/// The lanes `picks` of the concatenation of `x` and `y`.
Value shuffle(OpBuilder &b, Location loc, Value x, Value y,
              ArrayRef<int64_t> picks) {
  return vector::ShuffleOp::create(b, loc, x, y, picks);
}

/// Where each chunk of a row of `width` columns starts. A row at least one
/// chunk wide is whole chunks, the last overlapping the one before it
/// (28 = 0..16 and 12..28): a partial vector (12 lanes) is split by LLVM
/// into pieces and was a third of the speed. The overlap is computed twice
/// and written twice with the same values.
SmallVector<int64_t> chunkStarts(int64_t width) {
  SmallVector<int64_t> starts;
  for (int64_t start = 0; start < width; start += kLanes)
    starts.push_back(width >= kLanes ? std::min(start, width - kLanes) : start);
  return starts;
}

/// The mask of lanes [0, n) of a chunk; null for the whole chunk.
Value prefixMask(OpBuilder &b, Location loc, int64_t n) {
  if (n >= kLanes)
    return nullptr;
  return vector::ConstantMaskOp::create(
      b, loc, VectorType::get({kLanes}, b.getI1Type()), ArrayRef<int64_t>{n});
}

/// A tap's vector and, if set, the lanes where it is valid (elsewhere it
/// is a zero of the padding).
struct Tap {
  Value value;
  Value mask = nullptr;
};

/// Emits the convolution of one output row into a plane.
struct RowKernel {
  Location loc;
  Value data;                         // [1, C, H, W]
  int64_t w, ow, s;                   // input and output width, stride
  int64_t k;                          // kernel size: 3, 5 or 7
  Value channel;                      // index of the image's channel
  Value blockChannel;                 // index of the channel within the block
  Value taps[kMaxKernel][kMaxKernel]; // the channel's weights (f32 scalars)

  /// Lanes [0, valid) of the image's row `row` from column `offset` as a
  /// chunk, the others zero. A partial chunk is a load under a constant
  /// mask: LLVM splits a vector of 12 or 14 lanes into pieces.
  Value readRow(OpBuilder &b, Value row, int64_t offset,
                int64_t valid = kLanes) const {
    Value zero = index(b, loc, 0);
    Value mask = prefixMask(b, loc, valid);
    auto type = VectorType::get({kLanes}, b.getF32Type());
    return vector::TransferReadOp::create(
        b, loc, type, data,
        ValueRange{zero, channel, row, index(b, loc, offset)},
        AffineMap::getMinorIdentityMap(4, 1, b.getContext()),
        arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0)), mask,
        b.getBoolArrayAttr({true}));
  }

  Value broadcast(OpBuilder &b, Value scalar, int64_t lanes) const {
    return vector::BroadcastOp::create(
        b, loc, VectorType::get({lanes}, b.getF32Type()), scalar);
  }

  /// acc + x * k (acc null: x * k), in the lanes of `mask` only if it is
  /// set: the select becomes an FMA under a mask register.
  Value multiplyAdd(OpBuilder &b, Value acc, Tap x, Value k) const {
    Value kv = broadcast(b, k, kLanes);
    Value sum = acc ? math::FmaOp::create(b, loc, x.value, kv, acc).getResult()
                    : arith::MulFOp::create(b, loc, x.value, kv).getResult();
    if (!x.mask)
      return sum;
    return arith::SelectOp::create(b, loc, x.mask, sum,
                                   acc ? acc : zeros(b, loc, kLanes));
  }

  /// The lanes of `v` rotated by `by` (lane l takes lane l + by).
  Value rotate(OpBuilder &b, Value v, int64_t by) const {
    SmallVector<int64_t> picks;
    for (int64_t l = 0; l < kLanes; ++l)
      picks.push_back((l + by + kLanes) % kLanes);
    return shuffle(b, loc, v, v, picks);
  }

  /// The lanes [from, to) as a mask.
  Value laneMask(OpBuilder &b, int64_t from, int64_t to) const {
    SmallVector<bool> bits;
    for (int64_t l = 0; l < kLanes; ++l)
      bits.push_back(l >= from && l < to);
    auto type = VectorType::get({kLanes}, b.getI1Type());
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(type, bits));
  }

  /// For each output chunk, the k taps (input columns s*w - k/2 to
  /// s*w + k/2) of input row `row`. Inside the row the side taps are plain
  /// reads j columns over (unaligned loads are cheaper than shuffles). A
  /// row's end is the zeros of the padding: the side tap there is the
  /// chunk rotated by j lanes, the lanes that wrapped around masked off
  /// (in a row narrower than a chunk they may be lanes past the row,
  /// already zero). A shuffle that shifts in zeros would be a vexpandps,
  /// which took three times as long per row.
  SmallVector<SmallVector<Tap, kMaxKernel>> rowTaps(OpBuilder &b,
                                                    Value row) const {
    SmallVector<SmallVector<Tap, kMaxKernel>> taps;
    bool narrow = ow < kLanes;
    int64_t p = k / 2;
    if (s == 1) {
      for (int64_t start : chunkStarts(ow)) {
        Value cur = readRow(b, row, start, std::min(kLanes, w - start));
        SmallVector<Tap, kMaxKernel> chunk;
        for (int64_t j = -p; j <= p; ++j) {
          Tap tap{cur};
          if (j < 0 && start > 0) {
            // start >= p (depthwiseConvInRows): a read inside the row.
            tap.value = readRow(b, row, start + j);
          } else if (j < 0) {
            tap.value = rotate(b, cur, j);
            if (!narrow || w > kLanes + j)
              tap.mask = laneMask(b, -j, kLanes);
          } else if (j > 0 && start + j + kLanes <= w) {
            tap.value = readRow(b, row, start + j);
          } else if (j > 0 && start + kLanes >= w) {
            // The chunk ends the row.
            tap.value = rotate(b, cur, j);
            if (!narrow || w > kLanes - j)
              tap.mask = laneMask(b, 0, kLanes - j);
          } else if (j > 0) {
            // A chunk before the last whose tap reaches past the row.
            tap.value = readRow(b, row, start + j, w - start - j);
          }
          chunk.push_back(tap);
        }
        taps.push_back(std::move(chunk));
      }
      return taps;
    }
    // Stride 2: the chunk of outputs [o, o + 16) reads the input span
    // [2o, 2o + 32) as two halves, zeros past the row's end; the centre
    // taps are its even columns, the ones right of it its odd columns. The
    // taps left of it are the odd (and, for 5x5, even) columns one output
    // back: the previous chunk's lane o - 1 - (its start), then its own
    // lanes. A 5x5 kernel's rightmost taps are the even columns one output
    // on: its own lanes, then column 2o + 32, read, or past the row a lane
    // masked off.
    Value prevOdd, prevEven;
    int64_t prevStart = 0;
    for (int64_t o : chunkStarts(ow)) {
      int64_t start = 2 * o;
      int64_t real = std::min(2 * kLanes, w - start);
      Value low = readRow(b, row, start, std::min(kLanes, real));
      // A span within one chunk: its second half is not read. For 3x3 the
      // lanes that pick from it lie past the output row; a 5x5 kernel's
      // rightmost taps read one of them (a zero of the padding).
      Value high = real > kLanes
                       ? readRow(b, row, start + kLanes, real - kLanes)
                   : k == 5 ? zeros(b, loc, kLanes)
                            : low;
      SmallVector<int64_t> evens, odds;
      for (int64_t l = 0; l < kLanes; ++l) {
        evens.push_back(2 * l);
        odds.push_back(2 * l + 1);
      }
      Value even = shuffle(b, loc, low, high, evens);
      Value odd = shuffle(b, loc, low, high, odds);
      // One output back: the previous chunk's lane, or the padding's zero.
      auto back = [&](Value prev, Value cur) {
        Tap tap;
        if (prev) {
          SmallVector<int64_t> picks{o - 1 - prevStart};
          for (int64_t l = 0; l + 1 < kLanes; ++l)
            picks.push_back(kLanes + l);
          tap.value = shuffle(b, loc, prev, cur, picks);
        } else {
          tap.value = rotate(b, cur, -1);
          tap.mask = laneMask(b, 1, kLanes);
        }
        return tap;
      };
      SmallVector<Tap, kMaxKernel> chunk;
      if (k == 5)
        chunk.push_back(back(prevEven, even));
      chunk.append({back(prevOdd, odd), Tap{even}, Tap{odd}});
      if (k == 5) {
        Tap on;
        if (start + 2 * kLanes < w) {
          SmallVector<int64_t> picks;
          for (int64_t l = 1; l <= kLanes; ++l)
            picks.push_back(l);
          on.value = shuffle(b, loc, even,
                             readRow(b, row, start + 2 * kLanes, 1), picks);
        } else {
          // Past the row (in a narrow row, a lane past it: zero).
          on.value = rotate(b, even, 1);
          if (!narrow)
            on.mask = laneMask(b, 0, kLanes - 1);
        }
        chunk.push_back(on);
      }
      taps.push_back(std::move(chunk));
      prevOdd = odd;
      prevEven = even;
      prevStart = o;
    }
    return taps;
  }

  /// Output row `outRow` of `plane` from the k rows `rows` of `data` (its
  /// input rows s*outRow - k/2 + i; null: outside the image).
  Value emit(OpBuilder &b, ArrayRef<Value> rows, Value outRow,
             Value plane) const {
    return emitRows(b, rows, 1, outRow, plane);
  }

  /// Output rows outRow to outRow + count - 1 of `plane` from the
  /// s*(count - 1) + k rows `rows` of `data` (its input rows s*outRow - k/2
  /// + i; null: outside the image). Each input row is made into taps once,
  /// for every output row that reads it: rows narrower than a chunk go two
  /// at a time (channelBlocks), two chains of multiply-adds instead of one
  /// whose k*k steps wait on each other.
  Value emitRows(OpBuilder &b, ArrayRef<Value> rows, int64_t count,
                 Value outRow, Value plane) const {
    SmallVector<int64_t> starts = chunkStarts(ow);
    int64_t chunks = starts.size();
    SmallVector<Value> acc(count * chunks);
    for (int64_t i = 0; i < int64_t(rows.size()); ++i) {
      if (!rows[i])
        continue;
      SmallVector<SmallVector<Tap, kMaxKernel>> taps = rowTaps(b, rows[i]);
      for (int64_t q = 0; q < count; ++q) {
        int64_t tapRow = i - s * q;
        if (tapRow < 0 || tapRow >= k)
          continue;
        for (int64_t c = 0; c < chunks; ++c)
          for (int64_t j = 0; j < k; ++j)
            acc[q * chunks + c] = multiplyAdd(
                b, acc[q * chunks + c], taps[c][j], this->taps[tapRow][j]);
      }
    }
    Value zero = index(b, loc, 0);
    // A row narrower than a chunk: its lanes, under a constant mask.
    Value mask = prefixMask(b, loc, ow);
    for (int64_t q = 0; q < count; ++q) {
      Value row = q ? arith::AddIOp::create(b, loc, outRow, index(b, loc, q))
                          .getResult()
                    : outRow;
      for (int64_t c = 0; c < chunks; ++c)
        plane =
            vector::TransferWriteOp::create(
                b, loc, acc[q * chunks + c], plane,
                ValueRange{zero, blockChannel, row, index(b, loc, starts[c])},
                AffineMapAttr::get(
                    AffineMap::getMinorIdentityMap(4, 1, b.getContext())),
                mask, b.getBoolArrayAttr({true}))
                .getResult();
    }
    return plane;
  }
};

/// The input row s*outRow - p + i of output row `outRow`.
Value inputRow(OpBuilder &b, Location loc, Value outRow, int64_t s, int64_t p,
               int64_t i) {
  Value row = outRow;
  if (s != 1)
    row = arith::MulIOp::create(b, loc, row, index(b, loc, s));
  if (i != p)
    row = arith::AddIOp::create(b, loc, row, index(b, loc, i - p));
  return row;
}

/// A row kernel for channel `channel` of `data`, writing channel
/// `outChannel` of its planes, with the channel's weights.
RowKernel kernelFor(OpBuilder &b, Location loc, Value data, Value weight,
                    int64_t s, int64_t ow, Value channel, Value outChannel) {
  auto in = cast<RankedTensorType>(data.getType());
  int64_t k = cast<RankedTensorType>(weight.getType()).getDimSize(2);
  RowKernel kernel{loc, data,    in.getDimSize(3), ow, s,
                   k,   channel, outChannel,       {}};
  Value zero = index(b, loc, 0);
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < k; ++j)
      kernel.taps[i][j] = tensor::ExtractOp::create(
          b, loc, weight,
          ValueRange{channel, zero, index(b, loc, i), index(b, loc, j)});
  return kernel;
}

/// Output rows [0, oh) of a plane, each emitted by `emit` (given the k
/// input rows s*r - k/2 + i it reads, null outside the image, the output
/// row and the plane so far): the first rows, with rows above the image,
/// and the last, which may read below it, each their own code, which skips
/// those; the rows between, which read k rows of the image, in an scf.for,
/// two at a time when `emitPair` is given (its rows are the s + k input
/// rows of output rows r and r + 1).
Value eachOutputRow(
    OpBuilder &b, Location loc, int64_t k, int64_t s, int64_t h, int64_t oh,
    Value plane,
    function_ref<Value(OpBuilder &, ArrayRef<Value>, Value, Value)> emit,
    function_ref<Value(OpBuilder &, ArrayRef<Value>, Value, Value)> emitPair =
        nullptr) {
  int64_t p = k / 2;
  // Output rows [top, bottom) read only rows inside the image.
  int64_t top = std::min(oh, (p + s - 1) / s);
  int64_t bottom = std::max(top, std::min(oh, (h - p + s - 1) / s));
  auto emitRow = [&](int64_t r, Value plane) {
    SmallVector<Value, kMaxKernel> rows(k);
    for (int64_t i = 0; i < k; ++i)
      if (s * r - p + i >= 0 && s * r - p + i < h)
        rows[i] = index(b, loc, s * r - p + i);
    return emit(b, rows, index(b, loc, r), plane);
  };
  // The rows between in steps of `step` output rows, each reading
  // s * (step - 1) + k input rows.
  auto middle =
      [&](int64_t from, int64_t to, int64_t step, Value plane,
          function_ref<Value(OpBuilder &, ArrayRef<Value>, Value, Value)>
              body) {
        return loopOp(b, loc, from, to, step, plane,
                      [&](OpBuilder &lb, Value r, Value pl) {
                        SmallVector<Value, kMaxKernel + 2> rows;
                        for (int64_t i = 0; i < s * (step - 1) + k; ++i)
                          rows.push_back(inputRow(lb, loc, r, s, p, i));
                        return body(lb, rows, r, pl);
                      })
            .getResult(0);
      };
  for (int64_t r = 0; r < top; ++r)
    plane = emitRow(r, plane);
  int64_t paired = emitPair ? top + (bottom - top) / 2 * 2 : top;
  if (paired > top)
    plane = middle(top, paired, 2, plane, emitPair);
  if (bottom > paired)
    plane = middle(paired, bottom, 1, plane, emit);
  for (int64_t r = std::max(top, bottom); r < oh; ++r)
    plane = emitRow(r, plane);
  return plane;
}

/// The convolution as an scf.for over blocks of channels (channelBlock of
/// the input planes, as a 1x1 convolution before it makes them in channel
/// bands, so that the two loops can merge), each over its channels and
/// their rows.
Value channelBlocks(OpBuilder &b, Location loc, RankedTensorType type,
                    Value data, Value weight, int64_t s) {
  auto in = cast<RankedTensorType>(data.getType());
  int64_t c = in.getDimSize(1), h = in.getDimSize(2), w = in.getDimSize(3);
  int64_t oh = type.getDimSize(2), ow = type.getDimSize(3);
  int64_t block = channelBlock(c, h * w * 4, cpuAt(b));
  int64_t k = cast<RankedTensorType>(weight.getType()).getDimSize(2);
  Value out = tensor::EmptyOp::create(b, loc, type.getShape(), b.getF32Type());
  scf::ForOp blocks =
      loopOp(b, loc, c, block, out, [&](OpBuilder &b1, Value c0, Value acc) {
        Value plane = tensor::EmptyOp::create(b1, loc, {1, block, oh, ow},
                                              b.getF32Type());
        plane = loop(
            b1, loc, block, 1, plane, [&](OpBuilder &b2, Value ci, Value pl) {
              Value channel = arith::AddIOp::create(b2, loc, c0, ci);
              RowKernel kernel =
                  kernelFor(b2, loc, data, weight, s, ow, channel, ci);
              auto emit = [&](OpBuilder &rb, ArrayRef<Value> rows, Value r,
                              Value p3) {
                return kernel.emit(rb, rows, r, p3);
              };
              // Rows narrower than a chunk go two at a time (emitRows).
              auto emitPair = [&](OpBuilder &rb, ArrayRef<Value> rows, Value r,
                                  Value p3) {
                return kernel.emitRows(rb, rows, 2, r, p3);
              };
              if (chunkStarts(ow).size() == 1)
                return eachOutputRow(b2, loc, k, s, h, oh, pl, emit, emitPair);
              return eachOutputRow(b2, loc, k, s, h, oh, pl, emit);
            });
        return insertAt(
            b1, loc, plane, acc,
            {b1.getIndexAttr(0), c0, b1.getIndexAttr(0), b1.getIndexAttr(0)},
            {1, block, oh, ow});
      });
  // The blocks are independent: with threads they run in parallel.
  relay::setCodegenMark(blocks, relay::CodegenMark::IndependentIterations);
  // Its writes are row vectors: the bias and activation after it apply to
  // each before it is written (--relay-fuse-elementwise).
  relay::setCodegenMark(blocks, relay::CodegenMark::RowKernel);
  return blocks.getResult(0);
}

/// The convolution as an scf.for over bands of `rows` output rows, each
/// reading a window of the image's rows (an extract_slice of all its
/// channels) and convolving all channels. The first band (no row above
/// the image) and, where the window would end below the image, the last
/// take their own code in an scf.if.
Value rowBands(OpBuilder &b, Location loc, RankedTensorType type, Value data,
               Value weight, int64_t s, int64_t rows) {
  auto in = cast<RankedTensorType>(data.getType());
  int64_t c = in.getDimSize(1), h = in.getDimSize(2), w = in.getDimSize(3);
  int64_t oh = type.getDimSize(2), ow = type.getDimSize(3);
  int64_t windowRows = s * (rows - 1) + 3;
  int64_t last = oh - rows;
  // The window of a band in the middle starts at row s*o0 - 1; the last
  // band's would end below the image unless s*(oh - 1) + 2 <= h.
  bool lastApart = s * (oh - 1) + 2 > h;
  auto bandType = RankedTensorType::get({1, c, rows, ow}, b.getF32Type());
  Value out = tensor::EmptyOp::create(b, loc, type.getShape(), b.getF32Type());
  scf::ForOp bands =
      loopOp(b, loc, oh, rows, out, [&](OpBuilder &b1, Value o0, Value acc) {
        // The window's first row: s*o0 - 1 within [0, h - windowRows].
        Value start = arith::SubIOp::create(
            b1, loc, arith::MulIOp::create(b1, loc, o0, index(b1, loc, s)),
            index(b1, loc, 1));
        start = arith::MaxSIOp::create(b1, loc, start, index(b1, loc, 0));
        start = arith::MinSIOp::create(b1, loc, start,
                                       index(b1, loc, h - windowRows));
        OpFoldResult zero = b1.getIndexAttr(0);
        Value window = sliceAt(b1, loc, data, {zero, zero, start, zero},
                               {1, c, windowRows, w});
        // The band starting at output row `first` (-1: any in the middle).
        auto emitBand = [&](OpBuilder &bb, int64_t first) -> Value {
          // The window's first row, where it is known.
          int64_t from =
              first < 0 ? -1
                        : std::clamp<int64_t>(s * first - 1, 0, h - windowRows);
          Value band = tensor::EmptyOp::create(bb, loc, bandType.getShape(),
                                               b.getF32Type());
          return loop(
              bb, loc, c, 1, band, [&](OpBuilder &b2, Value ci, Value bd) {
                RowKernel kernel =
                    kernelFor(b2, loc, window, weight, s, ow, ci, ci);
                for (int64_t k = 0; k < rows; ++k) {
                  // Its rows of the window (null: outside the image).
                  std::array<Value, 3> inputRows;
                  for (int64_t i = 0; i < 3; ++i) {
                    if (first < 0) {
                      inputRows[i] = index(b2, loc, s * k + i);
                      continue;
                    }
                    int64_t row = s * (first + k) - 1 + i;
                    if (row >= 0 && row < h)
                      inputRows[i] = index(b2, loc, row - from);
                  }
                  bd = kernel.emit(b2, inputRows, index(b2, loc, k), bd);
                }
                return bd;
              });
        };
        auto branch = [&](OpBuilder &bb, Value cond, auto then, auto other) {
          auto ifOp = scf::IfOp::create(
              bb, loc, cond,
              [&](OpBuilder &tb, Location) {
                scf::YieldOp::create(tb, loc, then(tb));
              },
              [&](OpBuilder &eb, Location) {
                scf::YieldOp::create(eb, loc, other(eb));
              });
          return ifOp.getResult(0);
        };
        auto isBand = [&](OpBuilder &bb, int64_t first) -> Value {
          return arith::CmpIOp::create(bb, loc, arith::CmpIPredicate::eq, o0,
                                       index(bb, loc, first));
        };
        auto middle = [&](OpBuilder &bb) { return emitBand(bb, -1); };
        auto notFirst = [&](OpBuilder &bb) -> Value {
          if (!lastApart)
            return middle(bb);
          return branch(
              bb, isBand(bb, last),
              [&](OpBuilder &lb) { return emitBand(lb, last); }, middle);
        };
        Value band = branch(
            b1, isBand(b1, 0), [&](OpBuilder &fb) { return emitBand(fb, 0); },
            notFirst);
        return insertAt(b1, loc, band, acc, {zero, zero, o0, zero},
                        bandType.getShape());
      });
  // The bands are independent: with threads they run in parallel.
  relay::setCodegenMark(bands, relay::CodegenMark::IndependentIterations);
  relay::setCodegenMark(bands, relay::CodegenMark::RowKernel);
  // --relay-fuse-elementwise computes each window of the image in its band.
  relay::setCodegenMark(bands, relay::CodegenMark::ImageWindows);
  return bands.getResult(0);
}

/// The most accumulators (16-lane vectors) of a grouped convolution's
/// register tile: 24 of AVX-512's 32 registers, the others holding taps
/// and weights.
constexpr int64_t kGroupedAccumulators = 24;

/// The output channels of a grouped convolution's register tile (one output
/// row of `chunks` chunks): the most that divide the group's `fg` within
/// kGroupedAccumulators vectors (at least one channel). Each weight is then
/// broadcast for one input row only (an FMA's memory operand); register tiles
/// of several output rows, which reuse each weight for each row, kept the
/// weights in registers, spilled them, and ran 1.3-2.5x slower (ResNeXt-50's
/// layers on a Zen 5).
int64_t groupedTileChannels(int64_t fg, int64_t chunks) {
  int64_t best = 1;
  for (int64_t f = 1; f <= fg && f * chunks <= kGroupedAccumulators; ++f)
    if (fg % f == 0)
      best = f;
  return best;
}

/// Emits one output row of a grouped convolution's `channels` output
/// channels from f0 into a group's `plane` ([1, fg, oh, ow]): an scf.for
/// over the group's input channels carrying the row's accumulators (each
/// channel's chunks), each input channel's k input rows made into taps and
/// multiplied by every output channel's weights; then the accumulators
/// written as row vectors.
struct GroupedKernel {
  Location loc;
  Value data, weight; // [1, C, H, W], [F, cg, k, k]
  int64_t w, ow, s;   // input and output width, stride
  int64_t k, cg;      // kernel size, input channels per group
  Value c0, g0;       // the group's first input and output channel

  /// `rows` are the k input rows of output row `outRow` (null: outside the
  /// image).
  Value emit(OpBuilder &b, Value f0, int64_t channels, ArrayRef<Value> rows,
             Value outRow, Value plane) const {
    SmallVector<int64_t> starts = chunkStarts(ow);
    int64_t chunks = starts.size();
    SmallVector<Value> inits(channels * chunks, zeros(b, loc, kLanes));
    auto inputChannels = scf::ForOp::create(
        b, loc, index(b, loc, 0), index(b, loc, cg), index(b, loc, 1), inits,
        [&](OpBuilder &cb, Location, Value ci, ValueRange accs) {
          SmallVector<Value> acc(accs);
          Value channel = arith::AddIOp::create(cb, loc, c0, ci);
          RowKernel kernel{loc, data, w, ow, s, k, channel, nullptr, {}};
          SmallVector<Value> filters;
          for (int64_t f = 0; f < channels; ++f)
            filters.push_back(arith::AddIOp::create(
                cb, loc, g0,
                arith::AddIOp::create(cb, loc, f0, index(cb, loc, f))));
          for (int64_t i = 0; i < k; ++i) {
            if (!rows[i])
              continue;
            SmallVector<SmallVector<Tap, kMaxKernel>> taps =
                kernel.rowTaps(cb, rows[i]);
            for (int64_t f = 0; f < channels; ++f)
              for (int64_t j = 0; j < k; ++j) {
                Value weight = tensor::ExtractOp::create(
                    cb, loc, this->weight,
                    ValueRange{filters[f], ci, index(cb, loc, i),
                               index(cb, loc, j)});
                for (int64_t c = 0; c < chunks; ++c)
                  acc[f * chunks + c] = kernel.multiplyAdd(
                      cb, acc[f * chunks + c], taps[c][j], weight);
              }
          }
          scf::YieldOp::create(cb, loc, acc);
        });
    Value zero = index(b, loc, 0);
    // A row narrower than a chunk: its lanes, under a constant mask.
    Value mask = prefixMask(b, loc, ow);
    for (int64_t f = 0; f < channels; ++f) {
      Value channel = arith::AddIOp::create(b, loc, f0, index(b, loc, f));
      for (int64_t c = 0; c < chunks; ++c)
        plane = vector::TransferWriteOp::create(
                    b, loc, inputChannels.getResult(f * chunks + c), plane,
                    ValueRange{zero, channel, outRow, index(b, loc, starts[c])},
                    AffineMapAttr::get(
                        AffineMap::getMinorIdentityMap(4, 1, b.getContext())),
                    mask, b.getBoolArrayAttr({true}))
                    .getResult();
    }
    return plane;
  }

  /// Whether two output rows share each vector (pairedRows): 3x3 rows of at
  /// most 7 columns (at most 14 input columns at stride 2). ResNeXt-50's
  /// 7x7 layer at one thread: 0.31 ms with a row per vector (7 of 16 lanes),
  /// 0.19 with two (0.28 as im2col products).
  bool paired() const {
    return k == 3 && ow <= kLanes / 2 - 1 && (s == 1 || w <= kLanes - 2);
  }

  /// Emits output rows outRow and, if `second`, outRow + 1 of the tile's
  /// channels with the two in one vector: lanes [0, 8) of each tap are the
  /// first row's, [8, 16) the second's. Every row has at most 7 columns, so
  /// lanes 7 and 15 of the input rows read (at stride 2, of their odd
  /// columns) are the padding's zeros, which the taps rotated by one lane
  /// shift in at both rows' ends: no masks. Output rows of 7 columns in
  /// vectors of their own filled 7 of 16 lanes. `top` and `bottom` are the
  /// two rows' input rows (null: outside the image).
  Value emitPair(OpBuilder &b, Value f0, int64_t channels, ArrayRef<Value> top,
                 ArrayRef<Value> bottom, Value outRow, bool second,
                 Value plane) const {
    SmallVector<Value> inits(channels, zeros(b, loc, kLanes));
    auto inputChannels = scf::ForOp::create(
        b, loc, index(b, loc, 0), index(b, loc, cg), index(b, loc, 1), inits,
        [&](OpBuilder &cb, Location, Value ci, ValueRange accs) {
          SmallVector<Value> acc(accs);
          Value channel = arith::AddIOp::create(cb, loc, c0, ci);
          RowKernel kernel{loc, data, w, ow, s, k, channel, nullptr, {}};
          for (int64_t i = 0; i < k; ++i) {
            if (!top[i] && !bottom[i])
              continue;
            auto read = [&](Value row) {
              return row ? kernel.readRow(cb, row, 0, w)
                         : zeros(cb, loc, kLanes);
            };
            Value x = read(top[i]), y = read(bottom[i]);
            // Lanes `from`, `from` + `step`, ... of x, then the same of y.
            auto halves = [&](int64_t from, int64_t step) {
              SmallVector<int64_t> picks;
              for (int64_t half = 0; half < 2; ++half)
                for (int64_t l = 0; l < kLanes / 2; ++l)
                  picks.push_back(half * kLanes + from + step * l);
              return shuffle(cb, loc, x, y, picks);
            };
            SmallVector<Value, 3> taps;
            if (s == 1) {
              Value both = halves(0, 1);
              taps = {kernel.rotate(cb, both, -1), both,
                      kernel.rotate(cb, both, 1)};
            } else {
              Value even = halves(0, 2), odd = halves(1, 2);
              taps = {kernel.rotate(cb, odd, -1), even, odd};
            }
            for (int64_t f = 0; f < channels; ++f) {
              Value filter = arith::AddIOp::create(
                  cb, loc, g0,
                  arith::AddIOp::create(cb, loc, f0, index(cb, loc, f)));
              for (int64_t j = 0; j < k; ++j) {
                Value weight = tensor::ExtractOp::create(
                    cb, loc, this->weight,
                    ValueRange{filter, ci, index(cb, loc, i),
                               index(cb, loc, j)});
                acc[f] = kernel.multiplyAdd(cb, acc[f], Tap{taps[j]}, weight);
              }
            }
          }
          scf::YieldOp::create(cb, loc, acc);
        });
    Value zero = index(b, loc, 0);
    Value mask = vector::ConstantMaskOp::create(
        b, loc, VectorType::get({kLanes / 2}, b.getI1Type()),
        ArrayRef<int64_t>{ow});
    for (int64_t f = 0; f < channels; ++f) {
      Value channel = arith::AddIOp::create(b, loc, f0, index(b, loc, f));
      for (int64_t half = 0; half < (second ? 2 : 1); ++half) {
        Value row = vector::ExtractStridedSliceOp::create(
            b, loc, inputChannels.getResult(f),
            ArrayRef<int64_t>{half * kLanes / 2}, ArrayRef<int64_t>{kLanes / 2},
            ArrayRef<int64_t>{1});
        Value at = arith::AddIOp::create(b, loc, outRow, index(b, loc, half));
        plane = vector::TransferWriteOp::create(
                    b, loc, row, plane, ValueRange{zero, channel, at, zero},
                    AffineMapAttr::get(
                        AffineMap::getMinorIdentityMap(4, 1, b.getContext())),
                    mask, b.getBoolArrayAttr({true}))
                    .getResult();
      }
    }
    return plane;
  }
};

/// The output rows of a grouped convolution's plane in pairs
/// (GroupedKernel::emitPair): the pairs that read a row outside the image
/// (the first; the last, or a last row alone) each their own code, those
/// between in an scf.for.
Value pairedRows(OpBuilder &b, Location loc, const GroupedKernel &kernel,
                 Value f0, int64_t channels, int64_t h, int64_t oh,
                 Value plane) {
  int64_t s = kernel.s;
  // Pair q (output rows 2q and 2q + 1) reads input rows s*2q - 1 to
  // s*(2q + 1) + 1.
  auto inside = [&](int64_t q) {
    return 2 * q + 1 < oh && s * 2 * q - 1 >= 0 && s * (2 * q + 1) + 1 < h;
  };
  int64_t pairs = (oh + 1) / 2, first = 0;
  while (first < pairs && !inside(first))
    ++first;
  int64_t last = first;
  while (last < pairs && inside(last))
    ++last;
  auto staticPair = [&](int64_t q, Value pl) {
    SmallVector<Value, 3> top(3), bottom(3);
    for (int64_t i = 0; i < 3; ++i) {
      int64_t a = s * 2 * q - 1 + i, c = s * (2 * q + 1) - 1 + i;
      if (a >= 0 && a < h)
        top[i] = index(b, loc, a);
      if (2 * q + 1 < oh && c >= 0 && c < h)
        bottom[i] = index(b, loc, c);
    }
    return kernel.emitPair(b, f0, channels, top, bottom, index(b, loc, 2 * q),
                           2 * q + 1 < oh, pl);
  };
  for (int64_t q = 0; q < pairs; ++q) {
    if (q < first || q >= last) {
      plane = staticPair(q, plane);
      continue;
    }
    plane = loopOp(b, loc, 2 * first, 2 * last, 2, plane,
                   [&](OpBuilder &lb, Value r, Value pl) {
                     SmallVector<Value, 3> top, bottom;
                     Value next =
                         arith::AddIOp::create(lb, loc, r, index(lb, loc, 1));
                     for (int64_t i = 0; i < 3; ++i) {
                       top.push_back(inputRow(lb, loc, r, s, 1, i));
                       bottom.push_back(inputRow(lb, loc, next, s, 1, i));
                     }
                     return kernel.emitPair(lb, f0, channels, top, bottom, r,
                                            true, pl);
                   })
                .getResult(0);
    q = last - 1;
  }
  return plane;
}

/// The grouped convolution as an scf.for over its groups, each over blocks
/// of its output channels (groupedTileChannels) and, in each, over output
/// rows: the first and last rows (which read rows outside the image) each
/// their own code, those between in an scf.for.
Value groupedChannelBlocks(OpBuilder &b, Location loc, RankedTensorType type,
                           Value data, Value weight, int64_t groups,
                           int64_t s) {
  auto in = cast<RankedTensorType>(data.getType());
  int64_t c = in.getDimSize(1), h = in.getDimSize(2), w = in.getDimSize(3);
  int64_t f = type.getDimSize(1), oh = type.getDimSize(2),
          ow = type.getDimSize(3);
  int64_t k = cast<RankedTensorType>(weight.getType()).getDimSize(2);
  int64_t cg = c / groups, fg = f / groups;
  int64_t channels = groupedTileChannels(fg, chunkStarts(ow).size());
  Value out = tensor::EmptyOp::create(b, loc, type.getShape(), b.getF32Type());
  scf::ForOp blocks =
      loopOp(b, loc, f, fg, out, [&](OpBuilder &b1, Value g0, Value acc) {
        Value c0 = g0;
        if (cg != fg)
          c0 = arith::MulIOp::create(
              b1, loc, arith::DivUIOp::create(b1, loc, g0, index(b1, loc, fg)),
              index(b1, loc, cg));
        GroupedKernel kernel{loc, data, weight, w, ow, s, k, cg, c0, g0};
        Value plane =
            tensor::EmptyOp::create(b1, loc, {1, fg, oh, ow}, b.getF32Type());
        plane = loop(
            b1, loc, fg, channels, plane,
            [&](OpBuilder &b2, Value f0, Value pl) {
              if (kernel.paired())
                return pairedRows(b2, loc, kernel, f0, channels, h, oh, pl);
              return eachOutputRow(
                  b2, loc, k, s, h, oh, pl,
                  [&](OpBuilder &rb, ArrayRef<Value> rows, Value r, Value p3) {
                    return kernel.emit(rb, f0, channels, rows, r, p3);
                  });
            });
        return insertAt(
            b1, loc, plane, acc,
            {b1.getIndexAttr(0), g0, b1.getIndexAttr(0), b1.getIndexAttr(0)},
            {1, fg, oh, ow});
      });
  // The groups are independent: with threads they run in parallel.
  relay::setCodegenMark(blocks, relay::CodegenMark::IndependentIterations);
  // Its writes are row vectors: the bias and activation after it apply to
  // each before it is written (--relay-fuse-elementwise).
  relay::setCodegenMark(blocks, relay::CodegenMark::RowKernel);
  return blocks.getResult(0);
}

} // namespace

int64_t mlir::relay::cpu::depthwiseRowBandRows(RankedTensorType image,
                                               int64_t stride,
                                               const CPUDescription &cpu) {
  // An image above twice L2 is convolved in bands of output rows
  // (rowBands), not channel blocks: it does not stay in the cache, and the
  // 1x1 convolution that makes it cannot go in channel bands (its input is
  // as large). --relay-fuse-elementwise then computes each band's window
  // of the image in the band, a window of at most half of L2.
  int64_t rowBandImageBytes = 2 * cpu.l2Bytes, windowBytes = cpu.l2Bytes / 2;
  // What depthwiseConvInRows takes: one f32 image, rows of at most
  // kMaxWidth, stride 1 or 2.
  if (!image.hasStaticShape() || image.getRank() != 4 ||
      !image.getElementType().isF32() || image.getDimSize(0) != 1 ||
      (stride != 1 && stride != 2))
    return 0;
  int64_t c = image.getDimSize(1), h = image.getDimSize(2),
          w = image.getDimSize(3);
  int64_t oh = (h - 1) / stride + 1;
  if (c * h * w * 4 <= rowBandImageBytes || w > kMaxWidth || h < 2 || w < 2)
    return 0;
  for (int64_t rows = std::min(kMaxBandRows, oh / 2); rows >= 1; --rows) {
    int64_t windowRows = stride * (rows - 1) + 3;
    if (oh % rows == 0 && windowRows <= h &&
        c * windowRows * w * 4 <= windowBytes)
      return rows;
  }
  return 0;
}

/// The stride of a convolution the row kernels take, 0 for others: f32
/// NCHW image `in`, OIHW weights `wt` and result `type`, static, 3x3 or 5x5
/// at stride 1 or 2 (the same along both axes) or 7x7 at stride 1, padded
/// by half the kernel on every side, undilated, rows of at most kMaxWidth,
/// at least 2x2; the channels are the caller's to check. At stride 1, 5x5
/// and 7x7 go in rows whose chunks start at 0 or at least k/2 columns in
/// (a left tap is then a read inside the row or the first chunk rotated).
static int64_t rowKernelStride(RankedTensorType type, RankedTensorType in,
                               RankedTensorType wt, ArrayRef<int64_t> strides,
                               ArrayRef<int64_t> dilations,
                               ArrayRef<int64_t> padding) {
  if (!type.getElementType().isF32() || !in.getElementType().isF32() ||
      !wt.getElementType().isF32() || !type.hasStaticShape() ||
      !in.hasStaticShape() || !wt.hasStaticShape() || type.getRank() != 4 ||
      in.getRank() != 4 || wt.getRank() != 4 || strides.size() != 2 ||
      strides[0] != strides[1] ||
      llvm::any_of(dilations, [](int64_t d) { return d != 1; }))
    return 0;
  int64_t h = in.getDimSize(2), w = in.getDimSize(3);
  int64_t k = wt.getDimSize(2), s = strides[0];
  bool kernel = (s == 2 && (k == 3 || k == 5)) ||
                (s == 1 && (k == 3 || ((k == 5 || k == kMaxKernel) &&
                                       (w <= kLanes || w >= kLanes + k / 2))));
  if (!kernel || wt.getDimSize(3) != k ||
      llvm::any_of(padding, [&](int64_t p) { return p != k / 2; }) ||
      w > kMaxWidth || h < 2 || w < 2 ||
      type.getDimSize(0) != in.getDimSize(0) ||
      type.getDimSize(2) != (h - 1) / s + 1 ||
      type.getDimSize(3) != (w - 1) / s + 1)
    return 0;
  return s;
}

Value mlir::relay::cpu::depthwiseConvInRows(
    OpBuilder &b, Location loc, RankedTensorType type, Value data, Value weight,
    ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
    ArrayRef<int64_t> padding, bool allowRowBands) {
  auto in = cast<RankedTensorType>(data.getType());
  auto wt = cast<RankedTensorType>(weight.getType());
  int64_t s = rowKernelStride(type, in, wt, strides, dilations, padding);
  int64_t c = in.getDimSize(1);
  if (!s || in.getDimSize(0) != 1 || wt.getDimSize(0) != c ||
      wt.getDimSize(1) != 1 || type.getDimSize(1) != c)
    return nullptr;
  if (allowRowBands && wt.getDimSize(2) == 3)
    if (int64_t rows = depthwiseRowBandRows(in, s, cpuAt(b)))
      return rowBands(b, loc, type, data, weight, s, rows);
  return channelBlocks(b, loc, type, data, weight, s);
}

Value mlir::relay::cpu::groupedConvInRows(OpBuilder &b, Location loc,
                                          RankedTensorType type, Value data,
                                          Value weight, int64_t groups,
                                          ArrayRef<int64_t> strides,
                                          ArrayRef<int64_t> dilations,
                                          ArrayRef<int64_t> padding) {
  auto in = cast<RankedTensorType>(data.getType());
  auto wt = cast<RankedTensorType>(weight.getType());
  int64_t s = rowKernelStride(type, in, wt, strides, dilations, padding);
  if (!s || groups < 2)
    return nullptr;
  int64_t c = in.getDimSize(1), f = wt.getDimSize(0);
  if (c % groups != 0 || f % groups != 0 || wt.getDimSize(1) != c / groups ||
      type.getDimSize(1) != f)
    return nullptr;
  int64_t cg = c / groups, fg = f / groups;
  // 7x7 grouped convolutions (none in the networks timed) stay products.
  if (wt.getDimSize(2) > 5)
    return nullptr;
  // Groups of many channels are products as large as ungrouped ones: the
  // im2col product (with its packed weights) takes those.
  if (cg > kMaxGroupedChannels || fg > kMaxGroupedChannels)
    return nullptr;
  // AVX2's 16 registers hold 6 accumulators of 16 lanes (each two
  // registers): AVX2 code on a Zen 5 at one thread ran ResNeXt-50's
  // 28-wide and 7-wide layers 20-30% slower than the im2col products (the
  // 56- and 14-wide ones 5-35% faster); on a Zen 3 (AVX2) 7 of its 11
  // layers ran 6-58% slower in rows at one thread (RegNet-Y's two smallest
  // faster), see benchmark/RESULTS.md.
  if (cpuAt(b).vectorBits < 512)
    return nullptr;
  if (in.getDimSize(0) == 1)
    return groupedChannelBlocks(b, loc, type, data, weight, groups, s);
  // A batch goes image by image, each one's groups in parallel.
  auto imageType = RankedTensorType::get(
      {1, f, type.getDimSize(2), type.getDimSize(3)}, b.getF32Type());
  return eachImage(b, loc, type, data, [&](OpBuilder &ib, Value image) {
    return groupedChannelBlocks(ib, loc, imageType, image, weight, groups, s);
  });
}

namespace {

/// Whether `conv` is a depthwise convolution of static bytes into int32
/// whose products and partial sums f32 holds exactly (integers below 2^24
/// in magnitude); sets which operands are unsigned.
bool isExactByteDepthwise(const Conv2dProblem &conv, int64_t taps,
                          bool &unsignedData, bool &unsignedWeight) {
  auto in = cast<RankedTensorType>(conv.data.getType());
  auto wt = cast<RankedTensorType>(conv.weight.getType());
  auto isByte = [](Type t) {
    return isa<IntegerType>(t) && t.getIntOrFloatBitWidth() <= 8;
  };
  if (!conv.isDepthwise() || !conv.type.getElementType().isInteger(32) ||
      !isByte(in.getElementType()) || !isByte(wt.getElementType()) ||
      !in.hasStaticShape() || !wt.hasStaticShape() ||
      !conv.type.hasStaticShape())
    return false;
  unsignedData = conv.op && isUnsignedValue(conv.op->getOperand(0));
  unsignedWeight = conv.op && isUnsignedValue(conv.op->getOperand(1));
  return (unsignedData ? 255 : 128) * (unsignedWeight ? 255 : 128) * taps <=
         (int64_t(1) << 24);
}

/// The byte weights of `conv` as f32 (converted at compile time when
/// constant).
Value floatWeights(OpBuilder &b, Location loc, Value weight,
                   bool unsignedWeight) {
  auto wt = cast<RankedTensorType>(weight.getType());
  Type f32 = b.getF32Type();
  if (arith::ConstantOp constant = constantThroughReshapes(weight))
    if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue())) {
      SmallVector<float> values;
      for (const APInt &v : dense.getValues<APInt>())
        values.push_back(unsignedWeight ? float(v.getZExtValue())
                                        : float(v.getSExtValue()));
      return arith::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(RankedTensorType::get(wt.getShape(), f32),
                                 ArrayRef<float>(values)));
    }
  return convertTensor(b, loc, weight, f32, unsignedWeight, false);
}

} // namespace

Value mlir::relay::cpu::integerDepthwiseAsFloat(OpBuilder &b,
                                                const Conv2dProblem &conv) {
  RankedTensorType type = conv.type;
  auto wt = cast<RankedTensorType>(conv.weight.getType());
  bool unsignedData, unsignedWeight;
  if (!conv.nchw ||
      !isExactByteDepthwise(conv, wt.getDimSize(2) * wt.getDimSize(3),
                            unsignedData, unsignedWeight))
    return nullptr;
  Location loc = conv.loc;
  Type f32 = b.getF32Type();
  Value data = convertTensor(b, loc, conv.data, f32, unsignedData, false);
  Value weight = floatWeights(b, loc, conv.weight, unsignedWeight);
  auto floatType = RankedTensorType::get(type.getShape(), f32);
  Value out = depthwiseConvInRows(b, loc, floatType, data, weight, conv.strides,
                                  conv.dilations, conv.padding);
  if (!out) {
    Value padded = padImage(b, loc, data, conv.padding, 2, 3,
                            constantScalar(b, loc, f32, 0));
    out = depthwiseConv2dNchw(b, loc, floatType, padded, weight, conv.strides,
                              conv.dilations);
  }
  return convertTensor(b, loc, out, type.getElementType(), false, false);
}

Value mlir::relay::cpu::integerDepthwiseNhwc(OpBuilder &b,
                                             const Conv2dProblem &conv) {
  RankedTensorType type = conv.type;
  auto wt = cast<RankedTensorType>(conv.weight.getType());
  bool unsignedData, unsignedWeight;
  int64_t kh = wt.getDimSize(0), kw = wt.getDimSize(1), taps = kh * kw;
  // HWIO of one input channel per group: [kh, kw, 1, C].
  if (conv.nchw || wt.getDimSize(2) != 1 ||
      !isExactByteDepthwise(conv, taps, unsignedData, unsignedWeight))
    return nullptr;
  Location loc = conv.loc;
  MLIRContext *ctx = b.getContext();
  Value weights = tensor::CollapseShapeOp::create(
      b, loc, floatWeights(b, loc, conv.weight, unsignedWeight),
      SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
  auto in = cast<RankedTensorType>(conv.data.getType());
  Value padded = padImage(b, loc, conv.data, conv.padding, 1, 2,
                          constantScalar(b, loc, in.getElementType(), 0));
  ArrayRef<int64_t> s = conv.strides, d = conv.dilations;
  auto tapType = RankedTensorType::get(type.getShape(), in.getElementType());
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  AffineMap id = AffineMap::getMultiDimIdentityMap(4, ctx);
  for (int64_t i = 0; i < kh; ++i)
    for (int64_t j = 0; j < kw; ++j) {
      operands.push_back(tensor::ExtractSliceOp::create(
          b, loc, tapType, padded, ValueRange{}, ValueRange{}, ValueRange{},
          b.getDenseI64ArrayAttr({0, i * d[0], j * d[1], 0}),
          b.getDenseI64ArrayAttr(type.getShape()),
          b.getDenseI64ArrayAttr({1, s[0], s[1], 1})));
      maps.push_back(id);
    }
  // Tap t's weights along the channels: weights[t, :] (a row of its own,
  // as the vectoriser takes only projected permutations).
  int64_t c = type.getDimSize(3);
  for (int64_t t = 0; t < taps; ++t) {
    operands.push_back(tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get({c}, b.getF32Type()), weights,
        ValueRange{}, ValueRange{}, ValueRange{},
        b.getDenseI64ArrayAttr({t, 0}), b.getDenseI64ArrayAttr({1, c}),
        b.getDenseI64ArrayAttr({1, 1})));
    maps.push_back(AffineMap::get(4, 0, {getAffineDimExpr(3, ctx)}, ctx));
  }
  maps.push_back(id);
  Value out =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  Type f32 = b.getF32Type();
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, operands, ValueRange{out}, maps,
             SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange a) {
               Value acc;
               for (int64_t t = 0; t < taps; ++t) {
                 Value x =
                     unsignedData
                         ? arith::UIToFPOp::create(nb, l, f32, a[t]).getResult()
                         : arith::SIToFPOp::create(nb, l, f32, a[t])
                               .getResult();
                 acc = acc ? math::FmaOp::create(nb, l, x, a[taps + t], acc)
                                 .getResult()
                           : arith::MulFOp::create(nb, l, x, a[taps + t])
                                 .getResult();
               }
               linalg::YieldOp::create(
                   nb, l,
                   arith::FPToSIOp::create(nb, l, type.getElementType(), acc)
                       .getResult());
             })
      .getResult(0);
}

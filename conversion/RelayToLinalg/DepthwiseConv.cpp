//===- DepthwiseConv.cpp - 3x3 depthwise convolutions as row kernels ------===//
//
// A 3x3 depthwise convolution with one pixel of zero padding (MobileNet's)
// as loop nests of vector code on tensors that read the unpadded image:
// each output row is 16-lane chunks; the taps left and right of a chunk
// are reads one column over inside the row and, at the row's ends, the
// chunk shifted by one lane with a zero shuffled in (at stride 2, the odd
// columns of the span shifted by one lane). Rows above and below the image
// are skipped. So the image is never copied into a padded buffer: the
// convolution before it writes the image and nothing writes a border.
//
//   out[c, h, w] = sum_(i, j) in[c, s*h - 1 + i, s*w - 1 + j] * k[c, i, j]
//
// The channels go in blocks (channelBlock of the input planes) as an
// scf.for of independent iterations, each inserting its block into the
// result, its vectors written only by transfer_writes along the rows:
// --relay-fuse-elementwise applies the bias and activation after the
// convolution to each vector before it is written, and merges the loop
// with the channel bands of a 1x1 convolution that makes the image.
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "transforms/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::relay::lowering;

namespace {

/// f32 lanes per chunk of a row.
constexpr int64_t kLanes = 16;
/// The widest input row taken (its chunks are unrolled).
constexpr int64_t kMaxWidth = 256;

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

int64_t lanesOf(Value v) { return cast<VectorType>(v.getType()).getDimSize(0); }

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

/// Emits the convolution of one output row into a plane.
struct RowKernel {
  Location loc;
  Value data;              // [1, C, H, W]
  int64_t h, w, oh, ow, s; // input and output sizes, stride
  Value channel;           // index of the image's channel
  Value blockChannel;      // index of the channel within the block
  Value taps[3][3];        // the channel's weights (f32 scalars)

  /// A row of the image, [offset, offset + lanes).
  Value readRow(OpBuilder &b, Value row, int64_t offset, int64_t lanes) const {
    Value zero = index(b, loc, 0);
    return vector::TransferReadOp::create(
        b, loc, VectorType::get({lanes}, b.getF32Type()), data,
        ValueRange{zero, channel, row, index(b, loc, offset)},
        arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0)),
        ArrayRef<bool>{true});
  }

  Value broadcast(OpBuilder &b, Value scalar, int64_t lanes) const {
    return vector::BroadcastOp::create(
        b, loc, VectorType::get({lanes}, b.getF32Type()), scalar);
  }

  /// acc + x * k (acc null: x * k).
  Value multiplyAdd(OpBuilder &b, Value acc, Value x, Value k) const {
    Value kv = broadcast(b, k, lanesOf(x));
    if (!acc)
      return arith::MulFOp::create(b, loc, x, kv);
    return math::FmaOp::create(b, loc, x, kv, acc);
  }

  /// For each output chunk, the three tap vectors (input columns s*w - 1,
  /// s*w, s*w + 1) of input row `row`.
  SmallVector<std::array<Value, 3>> rowTaps(OpBuilder &b, Value row) const {
    SmallVector<std::array<Value, 3>> taps;
    if (s == 1) {
      // Inside the row the side taps are plain reads one column to the
      // left and right (unaligned loads are cheaper than shuffles here);
      // at the row's ends the chunk shifted by one lane with a zero.
      for (int64_t start : chunkStarts(ow)) {
        int64_t n = std::min(kLanes, w - start);
        Value cur = readRow(b, row, start, n);
        SmallVector<int64_t> left{n}, right;
        for (int64_t l = 0; l + 1 < n; ++l) {
          left.push_back(l);
          right.push_back(l + 1);
        }
        right.push_back(n);
        Value zero = zeros(b, loc, 1);
        Value l = start > 0 ? readRow(b, row, start - 1, n)
                            : shuffle(b, loc, cur, zero, left);
        Value r = start + n < w ? readRow(b, row, start + 1, n)
                                : shuffle(b, loc, cur, zero, right);
        taps.push_back({l, cur, r});
      }
      return taps;
    }
    // Stride 2: the chunk of outputs [o, o + n) reads the input span
    // [2o, 2o + 2n), of which the columns past the row's end are zeros.
    // Its left taps are the odd columns one output back: the previous
    // chunk's odd lane o - 1 - (its start), then its own odd lanes.
    Value prevOdd;
    int64_t prevStart = 0;
    for (int64_t o : chunkStarts(ow)) {
      int64_t n = std::min(kLanes, ow - o);
      int64_t start = 2 * o;
      int64_t real = std::min(2 * n, w - start);
      Value low = readRow(b, row, start, std::min(kLanes, real));
      Value high = real > kLanes
                       ? readRow(b, row, start + kLanes, real - kLanes)
                       : zeros(b, loc, 1);
      // A zero lane after the real ones when the span needs one.
      if (real < 2 * n && real > kLanes) {
        SmallVector<int64_t> extend;
        for (int64_t l = 0; l <= real - kLanes; ++l)
          extend.push_back(l);
        high = shuffle(b, loc, high, zeros(b, loc, 1), extend);
      }
      int64_t lowLanes = lanesOf(low);
      int64_t zeroLane = real > kLanes ? real : lowLanes;
      auto pick = [&](int64_t q) { return q < real ? q : zeroLane; };
      SmallVector<int64_t> evens, odds;
      for (int64_t l = 0; l < n; ++l) {
        evens.push_back(pick(2 * l));
        odds.push_back(pick(2 * l + 1));
      }
      Value even = shuffle(b, loc, low, high, evens);
      Value odd = shuffle(b, loc, low, high, odds);
      // Before the first chunk: the zero of the padding.
      Value prev = prevOdd ? prevOdd : zeros(b, loc, 1);
      int64_t p = lanesOf(prev);
      SmallVector<int64_t> left{prevOdd ? o - 1 - prevStart : 0};
      for (int64_t l = 0; l + 1 < n; ++l)
        left.push_back(p + l);
      taps.push_back({shuffle(b, loc, prev, odd, left), even, odd});
      prevOdd = odd;
      prevStart = o;
    }
    return taps;
  }

  /// Output row `outRow` (valid[i]: whether input row s*outRow - 1 + i is
  /// inside the image) written into `plane`.
  Value emit(OpBuilder &b, Value outRow, std::array<bool, 3> valid,
             Value plane) const {
    SmallVector<int64_t> starts = chunkStarts(ow);
    int64_t chunks = starts.size();
    SmallVector<Value> acc(chunks);
    for (int64_t i = 0; i < 3; ++i) {
      if (!valid[i])
        continue;
      // s*outRow - 1 + i
      Value row = outRow;
      if (s != 1)
        row = arith::MulIOp::create(b, loc, row, index(b, loc, s));
      if (i != 1)
        row = arith::AddIOp::create(b, loc, row, index(b, loc, i - 1));
      SmallVector<std::array<Value, 3>> taps = rowTaps(b, row);
      for (int64_t k = 0; k < chunks; ++k)
        for (int64_t j = 0; j < 3; ++j)
          acc[k] = multiplyAdd(b, acc[k], taps[k][j], this->taps[i][j]);
    }
    Value zero = index(b, loc, 0);
    for (int64_t k = 0; k < chunks; ++k)
      plane =
          vector::TransferWriteOp::create(
              b, loc, acc[k], plane,
              ValueRange{zero, blockChannel, outRow, index(b, loc, starts[k])},
              ArrayRef<bool>{true})
              .getResult();
    return plane;
  }
};

} // namespace

Value mlir::relay::lowering::depthwiseConv3x3(OpBuilder &b, Location loc,
                                              RankedTensorType type, Value data,
                                              Value weight,
                                              ArrayRef<int64_t> strides,
                                              ArrayRef<int64_t> dilations,
                                              ArrayRef<int64_t> padding) {
  auto in = cast<RankedTensorType>(data.getType());
  auto wt = cast<RankedTensorType>(weight.getType());
  if (!type.getElementType().isF32() || !in.getElementType().isF32() ||
      !wt.getElementType().isF32() || !type.hasStaticShape() ||
      !in.hasStaticShape() || !wt.hasStaticShape() || in.getRank() != 4 ||
      in.getDimSize(0) != 1 ||
      wt.getShape() != ArrayRef<int64_t>{in.getDimSize(1), 1, 3, 3} ||
      strides.size() != 2 || strides[0] != strides[1] ||
      (strides[0] != 1 && strides[0] != 2) ||
      llvm::any_of(dilations, [](int64_t d) { return d != 1; }) ||
      llvm::any_of(padding, [](int64_t p) { return p != 1; }))
    return nullptr;
  int64_t c = in.getDimSize(1), h = in.getDimSize(2), w = in.getDimSize(3);
  int64_t s = strides[0];
  int64_t oh = (h - 1) / s + 1, ow = (w - 1) / s + 1;
  if (type.getShape() != ArrayRef<int64_t>{1, c, oh, ow} || w > kMaxWidth ||
      h < 2 || w < 2)
    return nullptr;
  // Blocks of the image's channels as a 1x1 convolution before it makes
  // them (its channel bands), so that the two loops can merge.
  int64_t block = channelBlock(c, h * w * 4);
  Value out = tensor::EmptyOp::create(b, loc, type.getShape(), b.getF32Type());
  scf::ForOp blocks =
      loopOp(b, loc, c, block, out, [&](OpBuilder &b1, Value c0, Value acc) {
        Value plane = tensor::EmptyOp::create(b1, loc, {1, block, oh, ow},
                                              b.getF32Type());
        plane = loop(
            b1, loc, block, 1, plane, [&](OpBuilder &b2, Value ci, Value pl) {
              RowKernel kernel{loc, data, h, w, oh, ow, s, nullptr, ci, {}};
              kernel.channel = arith::AddIOp::create(b2, loc, c0, ci);
              Value zero = index(b2, loc, 0);
              for (int64_t i = 0; i < 3; ++i)
                for (int64_t j = 0; j < 3; ++j)
                  kernel.taps[i][j] = tensor::ExtractOp::create(
                      b2, loc, weight,
                      ValueRange{kernel.channel, zero, index(b2, loc, i),
                                 index(b2, loc, j)});
              // Row 0 has no row above; the last output row may read
              // below the image; the rows between read three rows.
              auto lastValid = [&](int64_t r) -> std::array<bool, 3> {
                return {r > 0, true, s * r + 1 < h};
              };
              pl = kernel.emit(b2, index(b2, loc, 0), lastValid(0), pl);
              if (oh > 2)
                pl = loopOp(b2, loc, 1, oh - 1, 1, pl,
                            [&](OpBuilder &b3, Value r, Value p3) {
                              return kernel.emit(b3, r, {true, true, true}, p3);
                            })
                         .getResult(0);
              if (oh > 1)
                pl = kernel.emit(b2, index(b2, loc, oh - 1), lastValid(oh - 1),
                                 pl);
              return pl;
            });
        return insertAt(
            b1, loc, plane, acc,
            {b1.getIndexAttr(0), c0, b1.getIndexAttr(0), b1.getIndexAttr(0)},
            {1, block, oh, ow});
      });
  // The blocks are independent: with threads they run in parallel.
  blocks->setAttr(relay::kIndependentIterationsAttr, b.getUnitAttr());
  // Its writes are row vectors: the bias and activation after it apply to
  // each before it is written (--relay-fuse-elementwise).
  blocks->setAttr(relay::kRowKernelAttr, b.getUnitAttr());
  return blocks.getResult(0);
}

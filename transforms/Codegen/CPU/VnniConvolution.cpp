//===- VnniConvolution.cpp - int8 convolutions on AVX-512 VNNI -----------===//
//
// An ungrouped NCHW convolution of 8-bit integers into int32 (what
// --relay-quantize and the qnn canonicalization make) on AVX-512 VNNI's
// `vpdpbusd`, which sums four u8 x s8 products into each of 16 int32 lanes:
//
//   out[p, o] = sum_(t, c) image[p + tap t, c] * w[o, c, t]
//
// computed as outT[p, o] (positions are rows, output channels the lanes):
//
// - The image is repacked once (padded, NHWC, four channels per int32):
//   image32[n, y, x, c/4], 128 added to each byte (an xor with 0x80) so
//   that the signed image is the unsigned operand.
// - The weights are packed at compile time so that a 64-byte load holds
//   16 output channels x 4 input channels of one tap: w8[t, c/4, o*4 + c%4],
//   the padding channels zero.
// - The extra 128 * sum_(c, t) w[o, c, t] of the shift is subtracted
//   by starting each accumulator at its negation (a constant), as TVM does.
// - A register tile is `rows` positions x `vecs` vectors of 16 channels:
//   per tap and four channels, `vecs` weight loads and `rows` broadcasts of
//   one int32 of the image feed rows*vecs vpdpbusd.
// - Tiles go in bands of positions, output channels in panels whose
//   weights stay in L1/L2; a small image's bands are split by panels too:
//   an scf.for of independent tasks, which threads share.
//
// The [P, O] result is transposed back to NCHW by a copy that
// --relay-fuse-elementwise merges with the bias, activation and
// requantization after the convolution, so that int8 is written once.
//
//===----------------------------------------------------------------------===//

#include "transforms/Codegen/CPU/CPUKernels.h"

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "conversion/RelayToLinalg/LoweringTarget.h"
#include "dialects/relay/RelayDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/TargetParser/Host.h"

#include <cstring>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

/// int32 lanes of a 512-bit vector.
constexpr int64_t kLanes = 16;
/// acc[i] += sum_(j < 4) a.u8[4i + j] * b.s8[4i + j].
constexpr llvm::StringLiteral kVpdpbusd = "llvm.x86.avx512.vpdpbusd.512";
/// Register tiles per band of positions at most (a band is one task for
/// the threads).
constexpr int64_t kMaxBandTiles = 16;
/// Bands a convolution is split into at least, where it has the tiles.
constexpr int64_t kMinBands = 4;
/// Tasks (bands x groups of channel panels) wanted at least: enough for
/// two threads to share evenly.
constexpr int64_t kMinTasks = 8;

/// The register tile: `rows` positions x `vecs` vectors of output
/// channels, with `vecs` dividing the vectors of channels; rows * vecs
/// accumulators, `vecs` weight vectors and a broadcast within the 32
/// registers.
std::pair<int64_t, int64_t> registerTile(int64_t channelVectors) {
  for (int64_t vecs : {4, 3, 2, 1})
    if (channelVectors % vecs == 0)
      return {vecs == 4 ? 6 : vecs == 3 ? 8 : 12, vecs};
  llvm_unreachable("a channel count has a divisor");
}

/// acc[i] + sum_(j < 4) a.u8[4i + j] * b.s8[4i + j] for vector<16xi32> acc
/// and vector<64xi8> a, b: one vpdpbusd (its intrinsic has no memory
/// effects: registerIntrinsicEffectsModel).
Value dotU8S8(OpBuilder &b, Location loc, Value acc, Value a, Value w) {
  return LLVM::CallIntrinsicOp::create(b, loc, acc.getType(),
                                       b.getStringAttr(kVpdpbusd),
                                       ValueRange{acc, a, w})
      .getResult(0);
}

/// The weights w (OIHW, int8 bytes) packed for the kernel,
/// packed[t, cq, o * 4 + r] = w[o, 4 * cq + r, t / kw, t % kw] (zero past
/// the channels), and each output channel's accumulator start
/// -128 * sum(w[o]), which takes back the image's shift.
struct PackedWeights {
  std::vector<char> bytes;
  std::vector<int32_t> start;
};

PackedWeights packWeights(ArrayRef<char> w, int64_t o, int64_t c, int64_t kh,
                          int64_t kw, int64_t op, int64_t cq) {
  int64_t taps = kh * kw;
  PackedWeights packed;
  packed.bytes.assign(taps * cq * op * 4, 0);
  packed.start.assign(op, 0);
  for (int64_t oi = 0; oi < o; ++oi) {
    int64_t sum = 0;
    for (int64_t ci = 0; ci < c; ++ci)
      for (int64_t t = 0; t < taps; ++t) {
        auto v = static_cast<int8_t>(w[(oi * c + ci) * taps + t]);
        sum += v;
        packed.bytes[(t * cq + ci / 4) * op * 4 + oi * 4 + ci % 4] =
            static_cast<char>(v);
      }
    packed.start[oi] = static_cast<int32_t>(-128 * sum);
  }
  return packed;
}

/// image32[n, y, x, cq] = the four bytes padded[n, 4cq + r, y, x] (r =
/// 0..3, little-endian) plus 128 each (xor 0x80808080): words made along
/// the image's rows (four contiguous reads, one contiguous write), then
/// transposed to NHWC (which the tiling pass does in 16x16 blocks).
Value packImage(OpBuilder &b, Location loc, Value padded) {
  MLIRContext *ctx = b.getContext();
  auto in = cast<RankedTensorType>(padded.getType());
  int64_t n = in.getDimSize(0), cq = in.getDimSize(1) / 4;
  int64_t h = in.getDimSize(2), w = in.getDimSize(3);
  AffineExpr dn, dc, dy, dx;
  bindDims(ctx, dn, dc, dy, dx);
  SmallVector<AffineMap> maps;
  for (int64_t r = 0; r < 4; ++r)
    maps.push_back(AffineMap::get(4, 0, {dn, dc * 4 + r, dy, dx}, ctx));
  maps.push_back(AffineMap::getMultiDimIdentityMap(4, ctx));
  Type i32 = b.getI32Type();
  Value init = tensor::EmptyOp::create(b, loc, {n, cq, h, w}, i32);
  Value words =
      linalg::GenericOp::create(
          b, loc, TypeRange{init.getType()},
          ValueRange{padded, padded, padded, padded}, init, maps,
          SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
          [&](OpBuilder &nb, Location l, ValueRange a) {
            Value word;
            for (int64_t r = 0; r < 4; ++r) {
              Value v = arith::ExtUIOp::create(nb, l, i32, a[r]);
              if (r)
                v = arith::ShLIOp::create(
                    nb, l, v, arith::ConstantIntOp::create(nb, l, i32, 8 * r));
              word =
                  word ? arith::OrIOp::create(nb, l, word, v).getResult() : v;
            }
            word = arith::XOrIOp::create(
                nb, l, word,
                arith::ConstantIntOp::create(nb, l, i32, int32_t(0x80808080)));
            linalg::YieldOp::create(nb, l, word);
          })
          .getResult(0);
  // image32[n, y, x, c] = words[n, c, y, x]
  AffineExpr on, oy, ox, oc;
  bindDims(ctx, on, oy, ox, oc);
  AffineMap read = AffineMap::get(4, 0, {on, oc, oy, ox}, ctx);
  return copyThroughMap(b, loc, words, {n, h, w, cq}, read);
}

/// The convolution's shape as the kernel sees it.
struct Problem {
  int64_t n, oh, ow;      // images, output rows and columns
  int64_t kw, taps, cq;   // kernel width, taps, groups of 4 input channels
  int64_t op;             // output channels, padded to whole vectors
  int64_t sh, sw, dh, dw; // strides, dilations
  int64_t rows, vecs;     // the register tile

  /// Whether the inner loop runs along a kernel row's taps instead of a
  /// tap's channel groups: for one group (an RGB image's first
  /// convolution), whose 7x7 taps would otherwise each be a loop of one
  /// trip. An undilated row's words are contiguous in the image.
  bool rowRuns() const { return cq == 1 && dw == 1; }
  /// The outer loop's trips (kernel rows or taps) and the inner loop's.
  int64_t outerTrips() const { return rowRuns() ? taps / kw : taps; }
  int64_t innerTrips() const { return rowRuns() ? kw : cq; }
};

/// Emits outT[Pp, op] (Pp = positions padded to whole bands) from the
/// packed image [n, hp, wp, cq] (i32), weights [taps, cq, op * 4] (i8) and
/// accumulator starts [op] (i32).
class Kernel {
public:
  Kernel(OpBuilder &b, Location loc, const Problem &p, Value image,
         Value weights, Value start)
      : b(b), loc(loc), p(p), image(image), weights(weights), start(start) {}

  Value build() {
    int64_t positions = p.n * p.oh * p.ow;
    int64_t tiles = (positions + p.rows - 1) / p.rows;
    int64_t bandTiles =
        std::clamp<int64_t>(tiles / kMinBands, int64_t(1), kMaxBandTiles);
    int64_t bands = (tiles + bandTiles - 1) / bandTiles;
    int64_t bandRows = bandTiles * p.rows;
    // A small image (few bands) is split across its panels of output
    // channels too, into an even number of tasks where the panels allow,
    // so that two threads share it evenly.
    int64_t panelWidth = kLanes * p.vecs, panels = p.op / panelWidth;
    // The fewest groups (a divisor of the panels) that make enough tasks,
    // an even number of them; all panels apart where none does.
    int64_t groups = 1;
    for (int64_t d = 1; d <= panels; ++d) {
      if (panels % d)
        continue;
      groups = d;
      if (bands * d >= kMinTasks && (bands * d) % 2 == 0)
        break;
    }
    int64_t groupWidth = p.op / groups;
    Value out = tensor::EmptyOp::create(b, loc, {bands * bandRows, p.op},
                                        b.getI32Type());
    scf::ForOp taskLoop = loopOp(
        b, loc, bands * groups, 1, out,
        [&](OpBuilder &b1, Value task, Value result) {
          IndexMath m{b1, loc};
          Value p0 = m.mul(m.div(task, m.c(groups)), m.c(bandRows));
          Value c0 = m.mul(m.rem(task, m.c(groups)), m.c(groupWidth));
          Value band = tensor::EmptyOp::create(b1, loc, {bandRows, groupWidth},
                                               b1.getI32Type());
          // Panels of output channels outside, tiles of positions inside:
          // a panel's weights stay in cache across the band.
          band = loop(b1, loc, groupWidth, panelWidth, band,
                      [&](OpBuilder &b2, Value o0, Value band2) {
                        Value o = arith::AddIOp::create(b2, loc, c0, o0);
                        return loop(b2, loc, bandRows, p.rows, band2,
                                    [&](OpBuilder &b3, Value r0, Value band3) {
                                      return tile(b3, p0, r0, o, o0, band3);
                                    });
                      });
          return insertAt(b1, loc, band, result, {p0, c0},
                          {bandRows, groupWidth});
        });
    // The tasks are independent: with threads they run in parallel.
    relay::setCodegenMark(taskLoop, relay::CodegenMark::IndependentIterations);
    return taskLoop.getResult(0);
  }

private:
  OpBuilder &b;
  Location loc;
  const Problem &p;
  Value image, weights, start;

  Value idx(OpBuilder &ob, int64_t v) const { return index(ob, loc, v); }

  /// One register tile: positions p0 + r0 + [0, rows) (the last clamped to
  /// the last position; their rows of the band are sliced off) x channels
  /// o0 + [0, 16 * vecs), written into `band` at row r0 and column `at`.
  Value tile(OpBuilder &tb, Value p0, Value r0, Value o0, Value at,
             Value band) {
    IndexMath m{tb, loc};
    int64_t positions = p.n * p.oh * p.ow;
    // Each row's image, and its first input row and column.
    SmallVector<Value> imageOf, rowOf, colOf;
    for (int64_t r = 0; r < p.rows; ++r) {
      Value pos = m.min(m.add(m.add(p0, r0), m.c(r)), m.c(positions - 1));
      Value plane = m.rem(pos, m.c(p.oh * p.ow));
      imageOf.push_back(m.div(pos, m.c(p.oh * p.ow)));
      rowOf.push_back(m.mul(m.div(plane, m.c(p.ow)), m.c(p.sh)));
      colOf.push_back(m.mul(m.rem(plane, m.c(p.ow)), m.c(p.sw)));
    }
    auto accType = VectorType::get({kLanes}, tb.getI32Type());
    auto bytesType = VectorType::get({4 * kLanes}, tb.getI8Type());
    SmallVector<Value> init;
    for (int64_t r = 0; r < p.rows; ++r)
      for (int64_t v = 0; v < p.vecs; ++v)
        init.push_back(read(tb, accType, start, {m.add(o0, m.c(v * kLanes))}));
    // The outer loop over taps (or kernel rows), the inner over a tap's
    // channel groups (or a row's taps); the weights are [outer, inner,
    // o * 4].
    auto taps = scf::ForOp::create(
        tb, loc, idx(tb, 0), idx(tb, p.outerTrips()), idx(tb, 1), init,
        [&](OpBuilder &b1, Location, Value t, ValueRange accs) {
          IndexMath m1{b1, loc};
          Value i = p.rowRuns() ? m1.mul(t, m1.c(p.dh))
                                : m1.mul(m1.div(t, m1.c(p.kw)), m1.c(p.dh));
          Value j =
              p.rowRuns() ? m1.c(0) : m1.mul(m1.rem(t, m1.c(p.kw)), m1.c(p.dw));
          SmallVector<Value> ys, xs;
          for (int64_t r = 0; r < p.rows; ++r) {
            ys.push_back(m1.add(rowOf[r], i));
            xs.push_back(m1.add(colOf[r], j));
          }
          auto inner = scf::ForOp::create(
              b1, loc, idx(b1, 0), idx(b1, p.innerTrips()), idx(b1, 1), accs,
              [&](OpBuilder &b2, Location, Value c, ValueRange acc) {
                IndexMath m2{b2, loc};
                SmallVector<Value> w;
                for (int64_t v = 0; v < p.vecs; ++v)
                  w.push_back(read(
                      b2, bytesType, weights,
                      {t, c, m2.mul(m2.add(o0, m2.c(v * kLanes)), m2.c(4))}));
                SmallVector<Value> next;
                for (int64_t r = 0; r < p.rows; ++r) {
                  // A row run's c is the tap along the row (one group).
                  SmallVector<Value> at{imageOf[r], ys[r],
                                        p.rowRuns() ? m2.add(xs[r], c) : xs[r],
                                        p.rowRuns() ? m2.c(0) : c};
                  Value word = tensor::ExtractOp::create(b2, loc, image, at);
                  Value a = vector::BitCastOp::create(
                      b2, loc, bytesType,
                      vector::BroadcastOp::create(b2, loc, accType, word));
                  for (int64_t v = 0; v < p.vecs; ++v)
                    next.push_back(
                        dotU8S8(b2, loc, acc[r * p.vecs + v], a, w[v]));
                }
                scf::YieldOp::create(b2, loc, next);
              });
          scf::YieldOp::create(b1, loc, inner.getResults());
        });
    for (int64_t r = 0; r < p.rows; ++r)
      for (int64_t v = 0; v < p.vecs; ++v)
        band = vector::TransferWriteOp::create(
                   tb, loc, taps.getResult(r * p.vecs + v), band,
                   ValueRange{m.add(r0, m.c(r)), m.add(at, m.c(v * kLanes))},
                   AffineMapAttr::get(
                       AffineMap::getMinorIdentityMap(2, 1, tb.getContext())),
                   /*mask=*/Value(), tb.getBoolArrayAttr({true}))
                   .getResult();
    return band;
  }

  /// The whole vector of `type` at `indices` (the last dimension) of
  /// `source`.
  Value read(OpBuilder &rb, VectorType type, Value source,
             ValueRange indices) const {
    unsigned rank = cast<RankedTensorType>(source.getType()).getRank();
    Value pad = arith::ConstantOp::create(
        rb, loc, rb.getIntegerAttr(type.getElementType(), 0));
    return vector::TransferReadOp::create(
        rb, loc, type, source, indices,
        AffineMap::getMinorIdentityMap(rank, 1, rb.getContext()), pad,
        /*mask=*/Value(), rb.getBoolArrayAttr({true}));
  }
};

} // namespace

namespace mlir::relay::cpu {

Value vnniConv2d(OpBuilder &b, const Conv2dProblem &conv) {
  RankedTensorType type = conv.type;
  auto in = cast<RankedTensorType>(conv.data.getType());
  auto wt = cast<RankedTensorType>(conv.weight.getType());
  if (!conv.nchw || conv.groups != 1 || !type.getElementType().isInteger(32) ||
      !in.getElementType().isInteger(8) || !wt.getElementType().isInteger(8) ||
      !in.hasStaticShape() || !wt.hasStaticShape() || !cpuAt(b).vnni)
    return nullptr;
  // vpdpbusd multiplies unsigned bytes by signed ones: the image is made
  // unsigned by the shift; unsigned weights do not fit. (nn.conv2d takes
  // one dtype for both, and the qnn canonicalization widens mixed ones.)
  if (conv.op && (isUnsignedValue(conv.op->getOperand(0)) ||
                  isUnsignedValue(conv.op->getOperand(1))))
    return nullptr;
  ArrayRef<char> bytes;
  bool isResource = false;
  std::vector<char> splatBytes;
  if (DenseElementsAttr splat = splatConstant(conv.weight)) {
    splatBytes.assign(
        wt.getNumElements(),
        static_cast<char>(splat.getSplatValue<APInt>().getZExtValue()));
    bytes = splatBytes;
  } else if (!constantBytes(conv.weight, bytes, isResource)) {
    return nullptr;
  }
  Location loc = conv.loc;
  int64_t n = in.getDimSize(0), c = in.getDimSize(1);
  int64_t o = wt.getDimSize(0), kh = wt.getDimSize(2), kw = wt.getDimSize(3);
  int64_t cq = (c + 3) / 4, op = (o + kLanes - 1) / kLanes * kLanes;
  auto [rows, vecs] = registerTile(op / kLanes);
  Problem p{n,
            type.getDimSize(2),
            type.getDimSize(3),
            kw,
            kh * kw,
            cq,
            op,
            conv.strides[0],
            conv.strides[1],
            conv.dilations[0],
            conv.dilations[1],
            rows,
            vecs};
  PackedWeights packed = packWeights(bytes, o, c, kh, kw, op, cq);
  // [taps, cq, o*4] bytes, seen as [kh, kw, o*4] for row runs (cq = 1).
  Value weights = bytesConstant(
      b, loc,
      RankedTensorType::get({p.outerTrips(), p.innerTrips(), op * 4},
                            b.getI8Type()),
      packed.bytes, isResource);
  std::vector<char> startBytes(op * 4);
  std::memcpy(startBytes.data(), packed.start.data(), startBytes.size());
  Value start = bytesConstant(
      b, loc, RankedTensorType::get({op}, b.getI32Type()), startBytes, false);
  Value data = conv.data;
  // An unpadded strided 1x1 convolution (a ResNet shortcut) reads every
  // s-th pixel only: those are taken first, so that only they are
  // repacked, and the convolution is of stride 1.
  if (kh == 1 && kw == 1 && (p.sh > 1 || p.sw > 1) &&
      llvm::all_of(conv.padding, [](int64_t v) { return v == 0; })) {
    data = tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get({n, c, p.oh, p.ow}, in.getElementType()),
        data, ValueRange{}, ValueRange{}, ValueRange{},
        b.getDenseI64ArrayAttr({0, 0, 0, 0}),
        b.getDenseI64ArrayAttr({n, c, p.oh, p.ow}),
        b.getDenseI64ArrayAttr({1, 1, p.sh, p.sw}));
    p.sh = p.sw = 1;
  }
  // The image padded (with zeros: 128 once shifted, the shifted image's
  // zero) to whole groups of four channels.
  Value zero = constantScalar(b, loc, in.getElementType(), 0);
  data = padImage(b, loc, data, conv.padding, 2, 3, zero);
  if (cq * 4 != c) {
    auto padded = cast<RankedTensorType>(data.getType());
    SmallVector<int64_t> shape(padded.getShape());
    shape[1] = cq * 4;
    data = tensor::PadOp::create(
        b, loc, RankedTensorType::get(shape, padded.getElementType()), data,
        getAsIndexOpFoldResult(b.getContext(), {0, 0, 0, 0}),
        getAsIndexOpFoldResult(b.getContext(), {0, cq * 4 - c, 0, 0}), zero);
  }
  Value image = packImage(b, loc, data);
  Value outT = Kernel(b, loc, p, image, weights, start).build();
  // out[n, o, y, x] = outT[(n * oh + y) * ow + x, o]: outT's first rows
  // and columns read through a permutation, which the tiling pass
  // vectorises as a transposition in 16x16 blocks: as [n, oh, ow, o] by
  // rows, or, where rows are narrower than a vector (14, 7), as
  // [n, oh * ow, o] by whole planes, reshaped after.
  MLIRContext *ctx = b.getContext();
  int64_t plane = p.oh * p.ow;
  outT = tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get({n * plane, o}, b.getI32Type()), outT,
      ValueRange{}, ValueRange{}, ValueRange{}, b.getDenseI64ArrayAttr({0, 0}),
      b.getDenseI64ArrayAttr({n * plane, o}), b.getDenseI64ArrayAttr({1, 1}));
  bool byRows = p.ow >= kLanes;
  SmallVector<int64_t> viewShape = byRows
                                       ? SmallVector<int64_t>{n, p.oh, p.ow, o}
                                       : SmallVector<int64_t>{n, plane, o};
  outT = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(viewShape, b.getI32Type()), outT,
      byRows ? SmallVector<ReassociationIndices>{{0, 1, 2}, {3}}
             : SmallVector<ReassociationIndices>{{0, 1}, {2}});
  // Output loops (n, o, spatial...) read view[n, spatial..., o].
  unsigned loops = viewShape.size();
  SmallVector<AffineExpr> read{getAffineDimExpr(0, ctx)};
  for (unsigned d = 2; d < loops; ++d)
    read.push_back(getAffineDimExpr(d, ctx));
  read.push_back(getAffineDimExpr(1, ctx));
  SmallVector<int64_t> outShape{n, o};
  llvm::append_range(outShape, ArrayRef(viewShape).slice(1, loops - 2));
  Value out = copyThroughMap(b, loc, outT, outShape,
                             AffineMap::get(loops, 0, read, ctx));
  if (byRows)
    return out;
  return tensor::ExpandShapeOp::create(
      b, loc, type, out, SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}});
}

} // namespace mlir::relay::cpu

//===- DotProductKernel.cpp - Kernels on x86 dot-product instructions -----===//
//
// The register tile is `rows` positions x `vecs` vectors of 16 output
// channels: per tap and word of input channels, `vecs` weight loads and
// `rows` broadcasts of one word of the image feed rows * vecs dot
// instructions (AVX-512's vpdpbusd and vdpbf16ps; AVX2's vpmaddwd on each
// 8-lane half of a vector, then an add). Tiles go in bands of positions,
// output channels in panels whose weights stay in L1/L2; a small image's
// bands are split by panels too: an scf.for of independent tasks, which
// threads share.
//
//===----------------------------------------------------------------------===//

#include "transforms/Codegen/CPU/DotProductKernel.h"

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "conversion/RelayToLinalg/LoweringTarget.h"
#include "dialects/relay/RelayDialect.h"
#include "transforms/Codegen/CPU/CPUKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <cstring>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::cpu;
using namespace mlir::relay::lowering;

namespace {

constexpr int64_t kLanes = DotInstruction::kLanes;
/// Register tiles per band of positions at most (a band is one task for
/// the threads).
constexpr int64_t kMaxBandTiles = 16;
/// Bands a convolution is split into at least, where it has the tiles.
constexpr int64_t kMinBands = 4;
/// Tasks (bands x groups of channel panels) wanted at least: enough for
/// two threads to share evenly.
constexpr int64_t kMinTasks = 8;

/// Emits outT[Pp, op] from the packed image, weights and starts.
class Kernel {
public:
  Kernel(OpBuilder &b, Location loc, const DotInstruction &dot,
         const DotProblem &p, Value image, Value weights, Value start)
      : b(b), loc(loc), dot(dot), p(p), image(image), weights(weights),
        start(start) {}

  Value build() {
    if (p.rowRuns())
      image = tensor::CollapseShapeOp::create(
          b, loc, image, SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}});
    // An image of operands: `group` of them (neighbouring channels) read
    // as a word.
    Type element = cast<RankedTensorType>(image.getType()).getElementType();
    perWord = element.isInteger(32) ? 1 : dot.group;
    int64_t positions = p.n * p.oh * p.ow;
    int64_t tiles = (positions + p.rows - 1) / p.rows;
    int64_t bandTiles =
        std::clamp<int64_t>(tiles / kMinBands, int64_t(1), kMaxBandTiles);
    int64_t bands = (tiles + bandTiles - 1) / bandTiles;
    // Up to twice as many bands where they cover the tiles with fewer left
    // over past the last one (every band is whole tiles: 33 tiles of a
    // 14x14 map went as 5 bands of 8, 40 tiles' work; 5 bands of 7 are 35).
    for (int64_t b = bands + 1, most = 2 * bands; b <= most; ++b) {
      int64_t t = (tiles + b - 1) / b;
      if (b * t < bands * bandTiles) {
        bands = b;
        bandTiles = t;
      }
    }
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
    Type acc = dot.accElement;
    Value out = tensor::EmptyOp::create(b, loc, {bands * bandRows, p.op}, acc);
    scf::ForOp taskLoop = loopOp(
        b, loc, bands * groups, 1, out,
        [&](OpBuilder &b1, Value task, Value result) {
          IndexMath m{b1, loc};
          Value p0 = m.mul(m.div(task, m.c(groups)), m.c(bandRows));
          Value c0 = m.mul(m.rem(task, m.c(groups)), m.c(groupWidth));
          Value band =
              tensor::EmptyOp::create(b1, loc, {bandRows, groupWidth}, acc);
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
  const DotInstruction &dot;
  const DotProblem &p;
  Value image, weights, start;
  /// Image elements per word: 1 (words), or the group of operands.
  int64_t perWord = 1;

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
    VectorType accType = dot.accType(), operandType = dot.operandType();
    auto wordsType = VectorType::get({kLanes}, tb.getI32Type());
    SmallVector<Value> init;
    for (int64_t r = 0; r < p.rows; ++r)
      for (int64_t v = 0; v < p.vecs; ++v)
        init.push_back(read(tb, accType, start, {m.add(o0, m.c(v * kLanes))}));
    // The outer loop over taps (or kernel rows), the inner over a tap's
    // channel words (or a row's taps); the weights are [panel, outer,
    // inner, o * group], read in order.
    Value panel = m.div(o0, m.c(p.panelWidth()));
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
                  w.push_back(
                      read(b2, operandType, weights,
                           {panel, t, c, m2.c(v * kLanes * dot.group)}));
                SmallVector<Value> next;
                for (int64_t r = 0; r < p.rows; ++r) {
                  // A row run's c is the word along the row (the image
                  // seen as [n, h, w * cq]).
                  Value wordAt =
                      p.rowRuns() ? m2.add(m2.mul(xs[r], m2.c(p.cq)), c) : c;
                  if (perWord > 1)
                    wordAt = m2.mul(wordAt, m2.c(perWord));
                  SmallVector<Value> at{imageOf[r], ys[r]};
                  if (!p.rowRuns())
                    at.push_back(xs[r]);
                  at.push_back(wordAt);
                  Value word;
                  if (perWord == 1) {
                    word = vector::BroadcastOp::create(
                        b2, loc, wordsType,
                        tensor::ExtractOp::create(b2, loc, image, at));
                  } else {
                    // The word's operands, as one i32 (a 32-bit load).
                    Value operands =
                        read(b2, VectorType::get({perWord}, dot.operandElement),
                             image, at);
                    word = vector::BroadcastOp::create(
                        b2, loc, wordsType,
                        vector::BitCastOp::create(
                            b2, loc, VectorType::get({1}, b2.getI32Type()),
                            operands));
                  }
                  Value a =
                      vector::BitCastOp::create(b2, loc, operandType, word);
                  for (int64_t v = 0; v < p.vecs; ++v)
                    next.push_back(
                        dot.dot(b2, loc, acc[r * p.vecs + v], a, w[v]));
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
        rb, loc, cast<TypedAttr>(rb.getZeroAttr(type.getElementType())));
    return vector::TransferReadOp::create(
        rb, loc, type, source, indices,
        AffineMap::getMinorIdentityMap(rank, 1, rb.getContext()), pad,
        /*mask=*/Value(), rb.getBoolArrayAttr({true}));
  }
};

} // namespace

namespace mlir::relay::cpu {

Value DotInstruction::dot(OpBuilder &b, Location loc, Value acc, Value a,
                          Value w) const {
  // The intrinsics have no memory effects (registerIntrinsicEffectsModel).
  auto call = [&](Value into, Value x, Value y) -> Value {
    if (accumulates)
      return LLVM::CallIntrinsicOp::create(b, loc, into.getType(),
                                           b.getStringAttr(intrinsic),
                                           ValueRange{into, x, y})
          .getResult(0);
    Value sums = LLVM::CallIntrinsicOp::create(b, loc, into.getType(),
                                               b.getStringAttr(intrinsic),
                                               ValueRange{x, y})
                     .getResult(0);
    return arith::AddIOp::create(b, loc, into, sums);
  };
  if (registersPerVector == 1)
    return call(acc, a, w);
  // Each register's part of the vectors (LLVM keeps a vector of two
  // registers in two, so the slices cost nothing).
  auto part = [&](Value v, int64_t i) -> Value {
    auto type = cast<VectorType>(v.getType());
    int64_t size = type.getDimSize(0) / registersPerVector;
    return vector::ExtractStridedSliceOp::create(b, loc, v, {i * size}, {size},
                                                 {1});
  };
  Value result = acc;
  for (int64_t i = 0; i < registersPerVector; ++i) {
    Value sum = call(part(acc, i), part(a, i), part(w, i));
    int64_t size = cast<VectorType>(sum.getType()).getDimSize(0);
    result = vector::InsertStridedSliceOp::create(b, loc, sum, result,
                                                  {i * size}, {1});
  }
  return result;
}

DotInstruction DotInstruction::vnni(MLIRContext *ctx) {
  return {"llvm.x86.avx512.vpdpbusd.512", 4, IntegerType::get(ctx, 32),
          IntegerType::get(ctx, 8)};
}

DotInstruction DotInstruction::bf16(MLIRContext *ctx) {
  return {"llvm.x86.avx512bf16.dpbf16ps.512", 2, Float32Type::get(ctx),
          BFloat16Type::get(ctx)};
}

DotInstruction DotInstruction::avx2Int16(MLIRContext *ctx) {
  return {"llvm.x86.avx2.pmadd.wd",  2,
          IntegerType::get(ctx, 32), IntegerType::get(ctx, 16),
          /*registersPerVector=*/2,
          /*accumulates=*/false};
}

std::pair<int64_t, int64_t> dotRegisterTile(int64_t channelVectors,
                                            int64_t registersPerVector) {
  // AVX2: 6 rows of one vector (12 of the 16 ymm registers; the weights
  // and a broadcast take 3 more).
  if (registersPerVector > 1)
    return {6, 1};
  for (int64_t vecs : {4, 3, 2, 1})
    if (channelVectors % vecs == 0)
      return {vecs == 4 ? 6 : vecs == 3 ? 8 : 12, vecs};
  llvm_unreachable("a channel count has a divisor");
}

Value dotProductKernel(OpBuilder &b, Location loc, const DotInstruction &dot,
                       const DotProblem &p, Value image, Value weights,
                       Value start) {
  return Kernel(b, loc, dot, p, image, weights, start).build();
}

Value packWords(OpBuilder &b, Location loc, Value source, unsigned dim,
                int64_t group, uint32_t flip) {
  MLIRContext *ctx = b.getContext();
  auto in = cast<RankedTensorType>(source.getType());
  unsigned rank = in.getRank();
  int64_t bits = 32 / group;
  SmallVector<int64_t> shape(in.getShape());
  shape[dim] /= group;
  SmallVector<AffineMap> maps;
  for (int64_t r = 0; r < group; ++r) {
    SmallVector<AffineExpr> exprs;
    for (unsigned d = 0; d < rank; ++d)
      exprs.push_back(d == dim ? getAffineDimExpr(d, ctx) * group + r
                               : getAffineDimExpr(d, ctx));
    maps.push_back(AffineMap::get(rank, 0, exprs, ctx));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  Type i32 = b.getI32Type(), bitsType = b.getIntegerType(bits);
  Value init = tensor::EmptyOp::create(b, loc, shape, i32);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()},
             SmallVector<Value>(group, source), init, maps,
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange a) {
               Value word;
               for (int64_t r = 0; r < group; ++r) {
                 Value v = a[r];
                 if (isa<FloatType>(v.getType()))
                   v = arith::BitcastOp::create(nb, l, bitsType, v);
                 // Narrower integers (bytes in 16-bit words) are signed.
                 if (v.getType().getIntOrFloatBitWidth() < bits)
                   v = arith::ExtSIOp::create(nb, l, bitsType, v);
                 v = arith::ExtUIOp::create(nb, l, i32, v);
                 if (r)
                   v = arith::ShLIOp::create(
                       nb, l, v,
                       arith::ConstantIntOp::create(nb, l, i32, bits * r));
                 word = word ? arith::OrIOp::create(nb, l, word, v).getResult()
                             : v;
               }
               if (flip)
                 word = arith::XOrIOp::create(
                     nb, l, word,
                     arith::ConstantIntOp::create(nb, l, i32, int32_t(flip)));
               linalg::YieldOp::create(nb, l, word);
             })
      .getResult(0);
}

std::vector<char> packDotWeights(ArrayRef<char> w, int64_t elementBytes,
                                 int64_t o, int64_t c, int64_t so, int64_t sc,
                                 int64_t st, const DotProblem &p,
                                 int64_t group) {
  int64_t pw = p.panelWidth();
  std::vector<char> packed(p.taps * p.cq * p.op * group * elementBytes, 0);
  for (int64_t oi = 0; oi < o; ++oi)
    for (int64_t ci = 0; ci < c; ++ci)
      for (int64_t t = 0; t < p.taps; ++t)
        std::memcpy(
            &packed[(((oi / pw * p.taps + t) * p.cq + ci / group) * pw * group +
                     oi % pw * group + ci % group) *
                    elementBytes],
            &w[(oi * so + ci * sc + t * st) * elementBytes], elementBytes);
  return packed;
}

RankedTensorType packedDotWeightsType(const DotProblem &p, int64_t group,
                                      Type element) {
  return RankedTensorType::get({p.op / p.panelWidth(), p.outerTrips(),
                                p.innerTrips(), p.panelWidth() * group},
                               element);
}

bool int8ConvWeights(const Conv2dProblem &conv, ArrayRef<char> &bytes,
                     bool &isResource, std::vector<char> &storage) {
  auto in = cast<RankedTensorType>(conv.data.getType());
  auto wt = cast<RankedTensorType>(conv.weight.getType());
  if (conv.groups != 1 || !conv.type.getElementType().isInteger(32) ||
      !in.getElementType().isInteger(8) || !wt.getElementType().isInteger(8) ||
      !in.hasStaticShape() || !wt.hasStaticShape())
    return false;
  // Both kernels take signed bytes (vpdpbusd's unsigned operand is the
  // image shifted by 128; vpmaddwd's words are sign-extended); nn.conv2d
  // takes one dtype for both, and the qnn canonicalization widens mixed
  // ones.
  if (conv.op && (isUnsignedValue(conv.op->getOperand(0)) ||
                  isUnsignedValue(conv.op->getOperand(1))))
    return false;
  isResource = false;
  if (DenseElementsAttr splat = splatConstant(conv.weight)) {
    storage.assign(
        wt.getNumElements(),
        static_cast<char>(splat.getSplatValue<APInt>().getZExtValue()));
    bytes = storage;
    return true;
  }
  return constantBytes(conv.weight, bytes, isResource);
}

ConvWeightStrides convWeightStrides(const Conv2dProblem &conv) {
  auto wt = cast<RankedTensorType>(conv.weight.getType());
  if (conv.nchw) {
    // OIHW.
    int64_t c = wt.getDimSize(1), taps = wt.getDimSize(2) * wt.getDimSize(3);
    return {c * taps, taps, 1, wt.getDimSize(0), c, taps};
  }
  // HWIO.
  int64_t c = wt.getDimSize(2), o = wt.getDimSize(3);
  return {1, o, c * o, o, c, wt.getDimSize(0) * wt.getDimSize(1)};
}

Value dotProductConv2d(OpBuilder &b, const Conv2dProblem &conv,
                       const DotInstruction &dot,
                       const DotConvPacking &packing) {
  RankedTensorType type = conv.type;
  auto in = cast<RankedTensorType>(conv.data.getType());
  auto wt = cast<RankedTensorType>(conv.weight.getType());
  Location loc = conv.loc;
  bool nchw = conv.nchw;
  if (!nchw && !packing.toOperands)
    return nullptr;
  // The image's and the kernel's dimensions in either layout.
  unsigned cDim = nchw ? 1 : 3, hDim = nchw ? 2 : 1, wDim = nchw ? 3 : 2;
  int64_t n = in.getDimSize(0), c = in.getDimSize(cDim);
  int64_t o = convWeightStrides(conv).outputs;
  int64_t kh = wt.getDimSize(nchw ? 2 : 0), kw = wt.getDimSize(nchw ? 3 : 1);
  int64_t cq = (c + dot.group - 1) / dot.group;
  int64_t op = (o + kLanes - 1) / kLanes * kLanes;
  auto [rows, vecs] = dotRegisterTile(op / kLanes, dot.registersPerVector);
  DotProblem p{n,
               type.getDimSize(hDim),
               type.getDimSize(wDim),
               kw,
               kh * kw,
               cq,
               op,
               conv.strides[0],
               conv.strides[1],
               conv.dilations[0],
               conv.dilations[1],
               rows,
               vecs,
               dot.group};
  auto [weights, start] = packing.packWeights(b, loc, p);
  Value data = conv.data;
  // An unpadded strided 1x1 convolution (a ResNet shortcut) reads every
  // s-th pixel only: those are taken first, so that only they are
  // repacked, and the convolution is of stride 1.
  if (kh == 1 && kw == 1 && (p.sh > 1 || p.sw > 1) &&
      llvm::all_of(conv.padding, [](int64_t v) { return v == 0; })) {
    SmallVector<int64_t> sizes{n, c, c, c}, strides{1, 1, 1, 1};
    sizes[hDim] = p.oh;
    sizes[wDim] = p.ow;
    strides[hDim] = p.sh;
    strides[wDim] = p.sw;
    data = tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get(sizes, in.getElementType()), data,
        ValueRange{}, ValueRange{}, ValueRange{},
        b.getDenseI64ArrayAttr({0, 0, 0, 0}), b.getDenseI64ArrayAttr(sizes),
        b.getDenseI64ArrayAttr(strides));
    p.sh = p.sw = 1;
  }
  // NHWC: the image as operands (fused into the op that makes it), padded
  // (the padding as an operand) to whole words of channels, which the
  // kernel reads where they are.
  Value pad = packing.padValue;
  if (!nchw) {
    data = packing.toOperands(b, loc, data);
    pad = packing.operandPad;
  }
  // The image padded to whole words of channels.
  data = padImage(b, loc, data, conv.padding, hDim, wDim, pad);
  SmallVector<int64_t> wordsShape(
      cast<RankedTensorType>(data.getType()).getShape());
  wordsShape[cDim] = cq * dot.group;
  data = padHighTo(b, loc, data, wordsShape, pad);
  MLIRContext *ctx = b.getContext();
  Value image = data;
  if (nchw) {
    // The words made along the image's rows (contiguous reads and writes),
    // then transposed to NHWC (which the tiling pass does in 16x16 blocks).
    Value words = packing.packImage(b, loc, data);
    auto wordsType = cast<RankedTensorType>(words.getType());
    AffineExpr dn, dy, dx, dc;
    bindDims(ctx, dn, dy, dx, dc);
    image = copyThroughMap(
        b, loc, words,
        {n, wordsType.getDimSize(2), wordsType.getDimSize(3), cq},
        AffineMap::get(4, 0, {dn, dc, dy, dx}, ctx));
  }
  Value outT = dotProductKernel(b, loc, dot, p, image, weights, start);
  // out[n, o, y, x] = outT[(n * oh + y) * ow + x, o]: outT's first rows
  // and columns read through a permutation, which the tiling pass
  // vectorises as a transposition in 16x16 blocks: as [n, oh, ow, o] by
  // rows, or, where rows are narrower than a vector (14, 7), as
  // [n, oh * ow, o] by whole planes, reshaped after.
  Type acc = dot.accElement;
  int64_t plane = p.oh * p.ow;
  outT = tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get({n * plane, o}, acc), outT, ValueRange{},
      ValueRange{}, ValueRange{}, b.getDenseI64ArrayAttr({0, 0}),
      b.getDenseI64ArrayAttr({n * plane, o}), b.getDenseI64ArrayAttr({1, 1}));
  if (!nchw)
    return tensor::ExpandShapeOp::create(
        b, loc, type, outT, SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
  bool byRows = p.ow >= kLanes;
  SmallVector<int64_t> viewShape = byRows
                                       ? SmallVector<int64_t>{n, p.oh, p.ow, o}
                                       : SmallVector<int64_t>{n, plane, o};
  outT = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(viewShape, acc), outT,
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

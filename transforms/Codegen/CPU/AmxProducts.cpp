//===- AmxProducts.cpp - bf16 and int8 products for AMX tiles -------------===//
//
// Convolutions and matrix products of bfloat16 operands into float32 (what
// --relay-to-mixed-precision makes of f32 ones) on CPUs with AMX-BF16, and
// convolutions of signed 8-bit integers into int32 (what --relay-quantize
// makes) on CPUs with AMX-INT8 (Sapphire Rapids and later). Each becomes
// one product
//
//   out[m, n] = sum over k of A[m, k] * B[n / 32, k / g, n % 32, k % g]
//
// of A (M x K) and B (panels of 32 columns, each K/g rows of groups of g
// along k: AMX's VNNI layout, g = 2 for bf16, 4 for int8) into f32
// (int32), M and N multiples of 32, K of 32 (64): a linalg.generic marked
// relay.amx_tiles, which
// --relay-lower-amx-products computes on AMX tiles (tdpbf16ps: a 16x32
// bf16 tile of A times one of B into a 16x16 f32 tile; tdpbssd: 16x64
// signed bytes into 16x16 int32) after bufferization. Unlowered, it is an
// ordinary generic.
//
// - A convolution's A is its im2col matrix: one row per output pixel (of
//   all images), column tap * C + channel, copied tap by tap from the image
//   transposed to NHWC, so that a row is runs of C contiguous channels. B holds
//   the weights, packed at compile time when they are constants. The result,
//   pixels x output channels, is transposed back to NCHW.
// - A matrix product's A is its left operand, B its right one packed the
//   same way.
// - An int8 convolution (NHWC/HWIO, the layout the CPU's rules give
//   quantized networks, or NCHW/OIHW) builds A the same way, one byte per
//   element; its result, pixels x output channels, is NHWC as it is.
//
// Rows of A past the real ones and columns past K are zero, as are B's
// past N and K, so every padded product is exact.
//
//===----------------------------------------------------------------------===//

#include "transforms/Codegen/CPU/CPUKernels.h"
#include "transforms/Codegen/CPU/DotProductKernel.h"

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "conversion/RelayToLinalg/LoweringTarget.h"
#include "dialects/relay/RelayDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cstring>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::cpu;
using namespace mlir::relay::lowering;

namespace {

/// M, N and K are multiples of this: two AMX tiles of 16 rows along M and
/// N, one tile of 32 bf16 along K.
constexpr int64_t kBlock = 32;
/// K of an int8 product is a multiple of this: one tile row of 64 bytes.
constexpr int64_t kInt8Depth = 64;

int64_t roundUp(int64_t v, int64_t multiple) {
  return (v + multiple - 1) / multiple * multiple;
}

/// The product out = A x B of the file comment, marked for AMX tiles: bf16
/// into f32 or signed i8 into i32, B in panels (N/32 x K/g x 32 x g).
Value amxTileProduct(OpBuilder &b, Location loc, Value a, Value packed) {
  int64_t m = cast<RankedTensorType>(a.getType()).getDimSize(0);
  auto bt = cast<RankedTensorType>(packed.getType());
  bool int8 = bt.getElementType().isInteger(8);
  Type acc = int8 ? Type(b.getI32Type()) : Type(b.getF32Type());
  int64_t n = bt.getDimSize(0) * bt.getDimSize(2);
  Value init = filledTensor(b, loc, {m, n}, constantScalar(b, loc, acc, 0));
  auto product = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{a, packed}, ValueRange{init},
      amxProductMaps(b.getContext(), bt.getDimSize(3)), amxProductIterators(),
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value sum;
        if (int8) {
          Value x = arith::ExtSIOp::create(nb, nl, acc, args[0]);
          Value y = arith::ExtSIOp::create(nb, nl, acc, args[1]);
          sum = arith::AddIOp::create(nb, nl, args[2],
                                      arith::MulIOp::create(nb, nl, x, y));
        } else {
          Value x = arith::ExtFOp::create(nb, nl, acc, args[0]);
          Value y = arith::ExtFOp::create(nb, nl, acc, args[1]);
          sum = arith::AddFOp::create(nb, nl, args[2],
                                      arith::MulFOp::create(nb, nl, x, y));
        }
        linalg::YieldOp::create(nb, nl, ValueRange{sum});
      });
  setCodegenMark(product, CodegenMark::AmxTiles);
  return product.getResult(0);
}

/// B (np/32 x kp/2 x 32 x 2: panels of 32 columns, pairs along k) of
/// constant weights whose element (k, n) is the `at(k, n)`-th bf16 of
/// `bytes`, or zero where `at` is negative.
Value packedPairs(OpBuilder &b, Location loc, ArrayRef<char> bytes,
                  bool isResource, int64_t kp, int64_t np,
                  function_ref<int64_t(int64_t, int64_t)> at) {
  std::vector<char> packed(kp * np * 2, 0);
  for (int64_t k = 0; k < kp; ++k)
    for (int64_t n = 0; n < np; ++n)
      if (int64_t i = at(k, n); i >= 0)
        std::memcpy(
            &packed[(((n / kBlock * (kp / 2) + k / 2) * kBlock + n % kBlock) *
                         2 +
                     k % 2) *
                    2],
            &bytes[i * 2], 2);
  auto type =
      RankedTensorType::get({np / kBlock, kp / 2, kBlock, 2}, b.getBF16Type());
  return bytesConstant(b, loc, type, packed, isResource);
}

/// The pairs' map (panel, kq, column, j) -> k = 2 kq + j, n = 32 panel +
/// column.
std::pair<AffineExpr, AffineExpr> pairIndices(MLIRContext *ctx) {
  AffineExpr dp, dk, dn, dj;
  bindDims(ctx, dp, dk, dn, dj);
  return {dk * 2 + dj, dp * kBlock + dn};
}

/// The shape of a bf16 B of kp x np in panels.
SmallVector<int64_t> pairPanels(int64_t kp, int64_t np) {
  return {np / kBlock, kp / 2, kBlock, 2};
}

/// The im2col matrix (mp x kp) of the padded NHWC image `nhwc` for an
/// output of `out` = (images, ho, wo) pixels and a kernel of `kernel` =
/// (kh, kw) taps: row n * P + pixel, column tap * C + channel, zero past
/// N * P rows and K columns. Each tap's window of the image (a strided view
/// whose rows are C contiguous channels) is copied into its columns, in
/// place in A (one-shot bufferization keeps the slices of A views of it).
Value windowsMatrix(OpBuilder &b, Location loc, Value nhwc,
                    ArrayRef<int64_t> out, ArrayRef<int64_t> kernel,
                    ArrayRef<int64_t> s, ArrayRef<int64_t> d, int64_t mp,
                    int64_t kp) {
  auto type = cast<RankedTensorType>(nhwc.getType());
  Type e = type.getElementType();
  int64_t images = out[0], ho = out[1], wo = out[2], kh = kernel[0],
          kw = kernel[1], c = type.getDimSize(3), taps = kh * kw,
          rowsOfA = images * ho * wo, k = taps * c;
  bool paddedA = mp != rowsOfA || kp != k;
  Value full =
      paddedA ? filledTensor(b, loc, {mp, kp}, constantScalar(b, loc, e, 0))
              : tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{mp, kp}, e)
                    .getResult();
  Value inner =
      paddedA ? sliceAt(b, loc, full, {b.getIndexAttr(0), b.getIndexAttr(0)},
                        {rowsOfA, k})
              : full;
  SmallVector<ReassociationIndices> rowsAndColumns = {{0, 1, 2}, {3, 4}};
  Value taps5 = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({images, ho, wo, taps, c}, e), inner,
      rowsAndColumns);
  // Row by row of the output: the rows are independent, and with threads
  // --relay-to-llvm copies them in parallel (each tap's copy alone is too
  // small to be split).
  auto windowType = RankedTensorType::get({images, 1, wo, c}, e);
  scf::ForOp rows =
      loopOp(b, loc, ho, 1, taps5, [&](OpBuilder &lb, Value y, Value acc) {
        OpFoldResult zero = lb.getIndexAttr(0);
        Value top = arith::MulIOp::create(
            lb, loc, y, arith::ConstantIndexOp::create(lb, loc, s[0]));
        for (int64_t i = 0; i < kh; ++i)
          for (int64_t j = 0; j < kw; ++j) {
            Value inRow = arith::AddIOp::create(
                lb, loc, top,
                arith::ConstantIndexOp::create(lb, loc, i * d[0]));
            Value window = tensor::ExtractSliceOp::create(
                lb, loc, windowType, nhwc,
                ArrayRef<OpFoldResult>{lb.getIndexAttr(0), inRow,
                                       lb.getIndexAttr(j * d[1]),
                                       lb.getIndexAttr(0)},
                ArrayRef<OpFoldResult>{lb.getIndexAttr(images),
                                       lb.getIndexAttr(1), lb.getIndexAttr(wo),
                                       lb.getIndexAttr(c)},
                ArrayRef<OpFoldResult>{lb.getIndexAttr(1), lb.getIndexAttr(1),
                                       lb.getIndexAttr(s[1]),
                                       lb.getIndexAttr(1)});
            acc = tensor::InsertSliceOp::create(
                lb, loc, window, acc,
                ArrayRef<OpFoldResult>{zero, y, zero,
                                       lb.getIndexAttr(i * kw + j), zero},
                ArrayRef<OpFoldResult>{lb.getIndexAttr(images),
                                       lb.getIndexAttr(1), lb.getIndexAttr(wo),
                                       lb.getIndexAttr(1), lb.getIndexAttr(c)},
                SmallVector<OpFoldResult>(5, lb.getIndexAttr(1)));
          }
        return acc;
      });
  relay::setCodegenMark(rows, relay::CodegenMark::IndependentIterations);
  taps5 = rows.getResult(0);
  Value a = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({rowsOfA, k}, e), taps5, rowsAndColumns);
  if (paddedA)
    a = insertAt(b, loc, a, full, {b.getIndexAttr(0), b.getIndexAttr(0)},
                 {rowsOfA, k});
  return a;
}

} // namespace

namespace mlir::relay::cpu {

SmallVector<AffineMap> amxProductMaps(MLIRContext *ctx, int64_t group) {
  AffineExpr dm, dn, dk, dj;
  bindDims(ctx, dm, dn, dk, dj);
  return {AffineMap::get(4, 0, {dm, dk * group + dj}, ctx),
          AffineMap::get(4, 0, {dn.floorDiv(kBlock), dk, dn % kBlock, dj}, ctx),
          AffineMap::get(4, 0, {dm, dn}, ctx)};
}

SmallVector<utils::IteratorType> amxProductIterators() {
  return {utils::IteratorType::parallel, utils::IteratorType::parallel,
          utils::IteratorType::reduction, utils::IteratorType::reduction};
}

Value amxConv2d(OpBuilder &b, const Conv2dProblem &conv) {
  if (!conv.nchw || conv.groups != 1 || !conv.type.hasStaticShape() ||
      !isBF16IntoF32(conv.type, {conv.data, conv.weight}) || !cpuAt(b).amx)
    return nullptr;
  // Fewer channels than half a tile's k (an RGB image): the windows' rows
  // would be copied a few bytes at a time; the dot-product kernel reads
  // them in runs along the image rows instead.
  if (cast<RankedTensorType>(conv.weight.getType()).getDimSize(1) < 16)
    return nullptr;
  Location loc = conv.loc;
  MLIRContext *ctx = b.getContext();
  ArrayRef<int64_t> s = conv.strides, d = conv.dilations;
  auto wt = cast<RankedTensorType>(conv.weight.getType());
  int64_t o = wt.getDimSize(0), c = wt.getDimSize(1);
  int64_t kh = wt.getDimSize(2), kw = wt.getDimSize(3), taps = kh * kw;
  int64_t images = conv.type.getDimSize(0), ho = conv.type.getDimSize(2),
          wo = conv.type.getDimSize(3), pixels = ho * wo;
  int64_t k = taps * c, kp = roundUp(k, kBlock), np = roundUp(o, kBlock),
          mp = roundUp(images * pixels, kBlock);

  // A holds the whole batch: past 256 MB (VGG-16's first layers take 58 MB
  // an image) the images go one at a time, and an image whose A alone
  // would pass it takes the dot-product kernel, which builds no A.
  constexpr int64_t kMaxBytesOfA = int64_t(256) << 20;
  if (mp * kp * 2 > kMaxBytesOfA) {
    if (images == 1 || roundUp(pixels, kBlock) * kp * 2 > kMaxBytesOfA)
      return nullptr;
    return eachImage(
        b, loc, conv.type, conv.data, [&](OpBuilder &ib, Value image) {
          Conv2dProblem one = conv;
          one.data = image;
          one.type = RankedTensorType::get({1, o, ho, wo}, b.getF32Type());
          return amxConv2d(ib, one);
        });
  }

  // The image padded, in NHWC.
  Value padded = padImage(b, loc, conv.data, conv.padding, 2, 3,
                          constantScalar(b, loc, b.getBF16Type(), 0));
  Value nhwc = permuteAxes(b, loc, padded, {0, 2, 3, 1});

  // A: row n * P + pixel, column tap * C + channel, zero past N * P rows
  // and K columns.
  Value a =
      windowsMatrix(b, loc, nhwc, {images, ho, wo}, {kh, kw}, s, d, mp, kp);

  // B: element (k, n) is w[n, k % C, k / C] (OIHW, taps row-major).
  Value pairs;
  std::vector<char> storage;
  ArrayRef<char> bytes;
  bool isResource = false;
  if (bf16ConstantBytes(conv.weight, storage, bytes, isResource)) {
    pairs = packedPairs(b, loc, bytes, isResource, kp, np,
                        [&](int64_t ki, int64_t ni) -> int64_t {
                          if (ki >= k || ni >= o)
                            return -1;
                          return (ni * c + ki % c) * taps + ki / c;
                        });
  } else {
    // Weights made at run time: one copy from the weights padded with
    // zero output channels and zero kernel rows past the last tap.
    auto [ki, ni] = pairIndices(ctx);
    int64_t rows = (kp - 1) / c / kw + 1;
    Value wPadded = padHighTo(b, loc, conv.weight, {np, c, rows, kw});
    AffineExpr tap = ki.floorDiv(c);
    pairs = copyThroughMap(
        b, loc, wPadded, pairPanels(kp, np),
        AffineMap::get(4, 0, {ni, ki % c, tap.floorDiv(kw), tap % kw}, ctx));
  }

  // Pixels x output channels, back to NCHW.
  Value product = amxTileProduct(b, loc, a, pairs);
  Value rows = sliceAt(b, loc, product, {b.getIndexAttr(0), b.getIndexAttr(0)},
                       {images * pixels, o});
  Value nPO = reshapeStatic(
      b, loc, rows, RankedTensorType::get({images, pixels, o}, b.getF32Type()));
  Value nOP = permuteAxes(b, loc, nPO, {0, 2, 1});
  return reshapeStatic(b, loc, nOP, conv.type);
}

Value amxInt8Conv2d(OpBuilder &b, const Conv2dProblem &conv) {
  ArrayRef<char> bytes;
  bool isResource = false;
  std::vector<char> storage;
  if (!cpuAt(b).amxInt8 || !conv.type.hasStaticShape() ||
      !int8ConvWeights(conv, bytes, isResource, storage))
    return nullptr;
  ConvWeightStrides ws = convWeightStrides(conv);
  int64_t o = ws.outputs, c = ws.inputs, taps = ws.taps;
  // Fewer channels than a quarter of a tile row (an RGB stem): the windows'
  // rows would be copied a few bytes at a time; the dot-product kernel
  // reads the image where it is.
  if (c < 16)
    return nullptr;
  Location loc = conv.loc;
  ArrayRef<int64_t> s = conv.strides, d = conv.dilations;
  auto wt = cast<RankedTensorType>(conv.weight.getType());
  int64_t kh = wt.getDimSize(conv.nchw ? 2 : 0),
          kw = wt.getDimSize(conv.nchw ? 3 : 1);
  unsigned hDim = conv.nchw ? 2 : 1, wDim = conv.nchw ? 3 : 2;
  int64_t images = conv.type.getDimSize(0), ho = conv.type.getDimSize(hDim),
          wo = conv.type.getDimSize(wDim), pixels = ho * wo;
  int64_t k = taps * c, kp = roundUp(k, kInt8Depth), np = roundUp(o, kBlock),
          mp = roundUp(images * pixels, kBlock);
  // A (one byte an element) past 256 MB: image by image, as amxConv2d.
  constexpr int64_t kMaxBytesOfA = int64_t(256) << 20;
  if (mp * kp > kMaxBytesOfA) {
    if (images == 1 || roundUp(pixels, kBlock) * kp > kMaxBytesOfA)
      return nullptr;
    SmallVector<int64_t> one(conv.type.getShape());
    one[0] = 1;
    return eachImage(b, loc, conv.type, conv.data,
                     [&](OpBuilder &ib, Value image) {
                       Conv2dProblem single = conv;
                       single.data = image;
                       single.type = RankedTensorType::get(one, b.getI32Type());
                       return amxInt8Conv2d(ib, single);
                     });
  }

  // The image padded with zeros, in NHWC.
  Type i8 = b.getI8Type();
  Value padded = padImage(b, loc, conv.data, conv.padding, hDim, wDim,
                          constantScalar(b, loc, i8, 0));
  Value nhwc = conv.nchw ? permuteAxes(b, loc, padded, {0, 2, 3, 1}) : padded;

  // A: row n * P + pixel, column tap * C + channel, zero past N * P rows
  // and K columns; a 1x1 convolution with unit strides over a whole image
  // whose sizes need no padding is its image.
  auto nhwcType = cast<RankedTensorType>(nhwc.getType());
  Value a = taps == 1 && s[0] == 1 && s[1] == 1 && mp == images * pixels &&
                    kp == k && nhwcType.getDimSize(1) == ho &&
                    nhwcType.getDimSize(2) == wo
                ? tensor::CollapseShapeOp::create(
                      b, loc, RankedTensorType::get({images * pixels, k}, i8),
                      nhwc, SmallVector<ReassociationIndices>{{0, 1, 2}, {3}})
                      .getResult()
                : windowsMatrix(b, loc, nhwc, {images, ho, wo}, {kh, kw}, s, d,
                                mp, kp);

  // B in panels of 32 output channels (np/32 x kp/4 x 32 x 4): element
  // (k, n) is w[n, k % C, k / C], packed at compile time, zero past K and
  // the output channels. A block of 32 columns then reads its panel as one
  // run of memory: in quads along N (kp/4 x np x 4) its tiles' rows were
  // np * 4 bytes apart, and ResNet-18's 512-channel layers, whose 2.4 MB of
  // weights come from memory, read them a cache line per 2 KB.
  std::vector<char> quads(kp * np, 0);
  for (int64_t ki = 0; ki < k; ++ki)
    for (int64_t ni = 0; ni < o; ++ni)
      quads[((ni / kBlock * (kp / 4) + ki / 4) * kBlock + ni % kBlock) * 4 +
            ki % 4] = bytes[ni * ws.so + ki % c * ws.sc + ki / c * ws.st];
  Value packed = bytesConstant(
      b, loc, RankedTensorType::get({np / kBlock, kp / 4, kBlock, 4}, i8),
      quads, isResource);

  // Pixels x output channels: NHWC, or transposed back to NCHW.
  Value product = amxTileProduct(b, loc, a, packed);
  Value rows = sliceAt(b, loc, product, {b.getIndexAttr(0), b.getIndexAttr(0)},
                       {images * pixels, o});
  if (!conv.nchw)
    return reshapeStatic(b, loc, rows, conv.type);
  Value nPO = reshapeStatic(
      b, loc, rows, RankedTensorType::get({images, pixels, o}, b.getI32Type()));
  Value nOP = permuteAxes(b, loc, nPO, {0, 2, 1});
  return reshapeStatic(b, loc, nOP, conv.type);
}

Value amxProduct(OpBuilder &b, Location loc, RankedTensorType type, Value x,
                 Value w, bool wIsNK) {
  if (!type.hasStaticShape() || !isBF16IntoF32(type, {x, w}) ||
      cast<RankedTensorType>(x.getType()).getRank() != 2 || !cpuAt(b).amx)
    return nullptr;
  int64_t m = type.getDimSize(0), n = type.getDimSize(1);
  int64_t k = cast<RankedTensorType>(x.getType()).getDimSize(1);
  // Fewer rows than a tile's: the rows of a tile would be mostly padding;
  // vdpbf16ps's kernel reads the weights once as well.
  if (m < 16)
    return nullptr;
  int64_t kp = roundUp(k, kBlock), np = roundUp(n, kBlock),
          mp = roundUp(m, kBlock);
  Value pairs;
  std::vector<char> storage;
  ArrayRef<char> bytes;
  bool isResource = false;
  if (bf16ConstantBytes(w, storage, bytes, isResource)) {
    pairs = packedPairs(b, loc, bytes, isResource, kp, np,
                        [&](int64_t ki, int64_t ni) -> int64_t {
                          if (ki >= k || ni >= n)
                            return -1;
                          return wIsNK ? ni * k + ki : ki * n + ni;
                        });
  } else {
    auto [ki, ni] = pairIndices(b.getContext());
    Value wPadded = padHighTo(b, loc, w,
                              wIsNK ? SmallVector<int64_t>{np, kp}
                                    : SmallVector<int64_t>{kp, np});
    pairs =
        copyThroughMap(b, loc, wPadded, pairPanels(kp, np),
                       AffineMap::get(4, 0,
                                      wIsNK ? SmallVector<AffineExpr>{ni, ki}
                                            : SmallVector<AffineExpr>{ki, ni},
                                      b.getContext()));
  }
  Value a = padHighTo(b, loc, x, {mp, kp});
  Value product = amxTileProduct(b, loc, a, pairs);
  return sliceAt(b, loc, product, {b.getIndexAttr(0), b.getIndexAttr(0)},
                 {m, n});
}

} // namespace mlir::relay::cpu

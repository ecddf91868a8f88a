//===- AmxProducts.cpp - bf16 products for AMX tiles ----------------------===//
//
// Convolutions and matrix products of bfloat16 operands into float32 (what
// --relay-to-mixed-precision makes of f32 ones) on CPUs with AMX-BF16
// (Sapphire Rapids and later). Each becomes one product
//
//   out[m, n] = sum over k of A[m, k] * B[k / 2, n, k % 2]
//
// of bf16 A (M x K) and B (K/2 x N x 2: pairs along k, AMX's VNNI layout)
// into f32, M, N and K multiples of 32: a linalg.generic marked
// relay.amx_tiles, which --relay-lower-amx-products computes on AMX tiles
// (tdpbf16ps: a 16x32 tile of A times a 16x32 tile of B into a 16x16 f32
// tile) after bufferization. Unlowered, it is an ordinary generic.
//
// - A convolution's A is its im2col matrix: one row per output pixel (of
//   all images), column tap * C + channel, copied tap by tap from the image
//   transposed to NHWC, so that a row is runs of C contiguous channels. B holds
//   the weights, packed at compile time when they are constants. The result,
//   pixels x output channels, is transposed back to NCHW.
// - A matrix product's A is its left operand, B its right one packed the
//   same way.
//
// Rows of A past the real ones and columns past K are zero, as are B's
// past N and K, so every padded product is exact.
//
//===----------------------------------------------------------------------===//

#include "transforms/Codegen/CPU/CPUKernels.h"

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "conversion/RelayToLinalg/LoweringTarget.h"
#include "dialects/relay/RelayDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
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

int64_t roundUp(int64_t v, int64_t multiple) {
  return (v + multiple - 1) / multiple * multiple;
}

/// The product out = A x B of the file comment, marked for AMX tiles.
Value amxTileProduct(OpBuilder &b, Location loc, Value a, Value pairs) {
  int64_t m = cast<RankedTensorType>(a.getType()).getDimSize(0);
  int64_t n = cast<RankedTensorType>(pairs.getType()).getDimSize(1);
  Value init =
      filledTensor(b, loc, {m, n}, constantScalar(b, loc, b.getF32Type(), 0));
  auto product = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{a, pairs}, ValueRange{init},
      amxProductMaps(b.getContext()), amxProductIterators(),
      [](OpBuilder &nb, Location nl, ValueRange args) {
        Type f32 = nb.getF32Type();
        Value x = arith::ExtFOp::create(nb, nl, f32, args[0]);
        Value y = arith::ExtFOp::create(nb, nl, f32, args[1]);
        Value xy = arith::MulFOp::create(nb, nl, x, y);
        linalg::YieldOp::create(
            nb, nl, ValueRange{arith::AddFOp::create(nb, nl, args[2], xy)});
      });
  setCodegenMark(product, CodegenMark::AmxTiles);
  return product.getResult(0);
}

/// B (kp/2 x np x 2) of constant weights whose element (k, n) is the
/// `at(k, n)`-th bf16 of `bytes`, or zero where `at` is negative.
Value packedPairs(OpBuilder &b, Location loc, ArrayRef<char> bytes,
                  bool isResource, int64_t kp, int64_t np,
                  function_ref<int64_t(int64_t, int64_t)> at) {
  std::vector<char> packed(kp * np * 2, 0);
  for (int64_t k = 0; k < kp; ++k)
    for (int64_t n = 0; n < np; ++n)
      if (int64_t i = at(k, n); i >= 0)
        std::memcpy(&packed[((k / 2 * np + n) * 2 + k % 2) * 2], &bytes[i * 2],
                    2);
  auto type = RankedTensorType::get({kp / 2, np, 2}, b.getBF16Type());
  return bytesConstant(b, loc, type, packed, isResource);
}

/// The pairs' map (kq, n, j) -> k = 2 kq + j, n.
std::pair<AffineExpr, AffineExpr> pairIndices(MLIRContext *ctx) {
  AffineExpr dk, dn, dj;
  bindDims(ctx, dk, dn, dj);
  return {dk * 2 + dj, dn};
}

} // namespace

namespace mlir::relay::cpu {

SmallVector<AffineMap> amxProductMaps(MLIRContext *ctx) {
  AffineExpr dm, dn, dk, dj;
  bindDims(ctx, dm, dn, dk, dj);
  return {AffineMap::get(4, 0, {dm, dk * 2 + dj}, ctx),
          AffineMap::get(4, 0, {dk, dn, dj}, ctx),
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
  // and K columns. Each tap's window of the image (a strided view whose
  // rows are C contiguous channels) is copied into its columns, in place
  // in A (one-shot bufferization keeps the slices of A views of it).
  Type bf16 = b.getBF16Type();
  bool paddedA = mp != images * pixels || kp != k;
  Value full =
      paddedA ? filledTensor(b, loc, {mp, kp}, constantScalar(b, loc, bf16, 0))
              : tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{mp, kp}, bf16)
                    .getResult();
  Value inner =
      paddedA ? sliceAt(b, loc, full, {b.getIndexAttr(0), b.getIndexAttr(0)},
                        {images * pixels, k})
              : full;
  SmallVector<ReassociationIndices> rowsAndColumns = {{0, 1, 2}, {3, 4}};
  Value taps5 = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({images, ho, wo, taps, c}, bf16), inner,
      rowsAndColumns);
  auto windowType = RankedTensorType::get({images, ho, wo, c}, bf16);
  for (int64_t i = 0; i < kh; ++i)
    for (int64_t j = 0; j < kw; ++j) {
      Value window = tensor::ExtractSliceOp::create(
          b, loc, windowType, nhwc, ValueRange{}, ValueRange{}, ValueRange{},
          b.getDenseI64ArrayAttr({0, i * d[0], j * d[1], 0}),
          b.getDenseI64ArrayAttr({images, ho, wo, c}),
          b.getDenseI64ArrayAttr({1, s[0], s[1], 1}));
      taps5 = tensor::InsertSliceOp::create(
          b, loc, window, taps5, ValueRange{}, ValueRange{}, ValueRange{},
          b.getDenseI64ArrayAttr({0, 0, 0, i * kw + j, 0}),
          b.getDenseI64ArrayAttr({images, ho, wo, 1, c}),
          b.getDenseI64ArrayAttr({1, 1, 1, 1, 1}));
    }
  Value a = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({images * pixels, k}, bf16), taps5,
      rowsAndColumns);
  if (paddedA)
    a = insertAt(b, loc, a, full, {b.getIndexAttr(0), b.getIndexAttr(0)},
                 {images * pixels, k});

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
        b, loc, wPadded, {kp / 2, np, 2},
        AffineMap::get(3, 0, {ni, ki % c, tap.floorDiv(kw), tap % kw}, ctx));
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
        copyThroughMap(b, loc, wPadded, {kp / 2, np, 2},
                       AffineMap::get(3, 0,
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

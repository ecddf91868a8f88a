//===- Bf16Products.cpp - bf16 products on AVX-512 BF16 -------------------===//
//
// Convolutions and matrix products of bfloat16 operands into float32 (what
// --relay-to-mixed-precision makes of f32 ones) on AVX-512 BF16's
// `vdpbf16ps`, which sums two bf16 x bf16 products into each of 16 f32
// lanes with f32 accumulation, on the dot-product kernel
// (DotProductKernel.cpp):
//
// - The image (or a product's left operand) is packed into words of two
//   bf16 along the input channels (along k).
// - The weights are packed so that a 64-byte load holds 16 output channels
//   x 2 input channels of one tap, in panels of the register tile's
//   channels: w16[o/pw, t, c/2, (o%pw)*2 + c%2], zero where padded; at
//   compile time when they are constants (--relay-to-mixed-precision rounds
//   constant weights into bf16 constants), else by a copy at run time.
// - The accumulators start at zero.
//
// On a CPU without AVX-512 BF16 the operands are widened to f32 and the
// f32 kernels compute the same products (bf16 values are exact in f32).
//
//===----------------------------------------------------------------------===//

#include "transforms/Codegen/CPU/CPUKernels.h"
#include "transforms/Codegen/CPU/DotProductKernel.h"

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "conversion/RelayToLinalg/LoweringTarget.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cstring>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::cpu;
using namespace mlir::relay::lowering;

namespace {

constexpr int64_t kLanes = DotInstruction::kLanes;

bool isBF16Tensor(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.hasStaticShape() && t.getElementType().isBF16();
}

/// The weights `w` packed for `p` (packedDotWeightsType, bf16): element
/// (o, c, t) of w at o * so + c * sc + t * st (row-major); at compile time
/// when `w` is constant, else by a copy at run time from `w` padded to
/// `paddedShape` (p.op output and p.cq * 2 input channels), whose element
/// (o, c, t) is at index at(o, c, t).
Value packBF16Weights(OpBuilder &b, Location loc, const DotProblem &p, Value w,
                      int64_t o, int64_t c, int64_t so, int64_t sc, int64_t st,
                      ArrayRef<int64_t> paddedShape,
                      function_ref<SmallVector<AffineExpr>(
                          AffineExpr o, AffineExpr c, AffineExpr t)>
                          at) {
  RankedTensorType packedType = packedDotWeightsType(p, 2, b.getBF16Type());
  ArrayRef<char> bytes;
  bool isResource = false;
  std::vector<char> splatBytes;
  if (bf16ConstantBytes(w, splatBytes, bytes, isResource))
    return bytesConstant(b, loc, packedType,
                         packDotWeights(bytes, 2, o, c, so, sc, st, p, 2),
                         isResource);
  // Weights computed at run time: one copy through the packing's map,
  // packed[P, i, q, j] = w(P * pw + j / 2, 2q + j % 2, tap i) (for row
  // runs: packed[P, i, r, j] of kernel row i, word r % cq of tap r / cq
  // along it).
  MLIRContext *ctx = b.getContext();
  AffineExpr dp, di, dq, dj;
  bindDims(ctx, dp, di, dq, dj);
  AffineExpr t = p.rowRuns() ? di * p.kw + dq.floorDiv(p.cq) : di;
  AffineExpr q = p.rowRuns() ? dq % p.cq : dq;
  Value padded = padHighTo(b, loc, w, paddedShape);
  return copyThroughMap(b, loc, padded, packedType.getShape(),
                        AffineMap::get(4, 0,
                                       at(dp * p.panelWidth() + dj.floorDiv(2),
                                          q * 2 + dj % 2, t),
                                       ctx));
}

/// Accumulators starting at zero.
Value zeroStart(OpBuilder &b, Location loc, int64_t op) {
  auto type = RankedTensorType::get({op}, b.getF32Type());
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, b.getF32FloatAttr(0)));
}

} // namespace

namespace mlir::relay::cpu {

bool bf16ConstantBytes(Value w, std::vector<char> &storage,
                       ArrayRef<char> &bytes, bool &isResource) {
  isResource = false;
  if (DenseElementsAttr splat = splatConstant(w)) {
    ArrayRef<char> one = splat.getRawData();
    int64_t count = cast<RankedTensorType>(w.getType()).getNumElements();
    for (int64_t i = 0; i < count; ++i)
      storage.insert(storage.end(), one.begin(), one.begin() + 2);
    bytes = storage;
    return true;
  }
  return constantBytes(w, bytes, isResource);
}

bool isBF16IntoF32(RankedTensorType type, ValueRange operands) {
  return type.getElementType().isF32() && operands.size() == 2 &&
         llvm::all_of(operands, isBF16Tensor);
}

Value bf16Conv2d(OpBuilder &b, const Conv2dProblem &conv) {
  if (!conv.nchw || conv.groups != 1 || !conv.type.hasStaticShape() ||
      !isBF16IntoF32(conv.type, {conv.data, conv.weight}) || !cpuAt(b).bf16)
    return nullptr;
  auto wt = cast<RankedTensorType>(conv.weight.getType());
  int64_t o = wt.getDimSize(0), c = wt.getDimSize(1);
  int64_t kh = wt.getDimSize(2), kw = wt.getDimSize(3), taps = kh * kw;
  auto packWeights = [&](OpBuilder &pb, Location loc, const DotProblem &p) {
    Value weights = packBF16Weights(
        pb, loc, p, conv.weight, o, c, c * taps, taps, 1,
        {p.op, p.cq * 2, kh, kw},
        [&](AffineExpr oi, AffineExpr ci, AffineExpr t) {
          return SmallVector<AffineExpr>{oi, ci, t.floorDiv(kw), t % kw};
        });
    return std::make_pair(weights, zeroStart(pb, loc, p.op));
  };
  auto packImage = [](OpBuilder &pb, Location loc, Value padded) {
    return packWords(pb, loc, padded, 1, 2);
  };
  DotConvPacking packing{constantScalar(b, conv.loc, b.getBF16Type(), 0),
                         packImage, packWeights};
  return dotProductConv2d(b, conv, DotInstruction::bf16(b.getContext()),
                          packing);
}

Value bf16Product(OpBuilder &b, Location loc, RankedTensorType type, Value x,
                  Value w, bool wIsNK) {
  if (!type.hasStaticShape() || !isBF16IntoF32(type, {x, w}) ||
      cast<RankedTensorType>(x.getType()).getRank() != 2 || !cpuAt(b).bf16)
    return nullptr;
  int64_t m = type.getDimSize(0), n = type.getDimSize(1);
  int64_t k = cast<RankedTensorType>(x.getType()).getDimSize(1);
  int64_t cq = (k + 1) / 2, op = (n + kLanes - 1) / kLanes * kLanes;
  auto [tileRows, vecs] = dotRegisterTile(op / kLanes);
  // Fewer rows than a register tile's (a classifier at batch 1): tiles of
  // those rows only, not of copies of the last.
  int64_t rows = std::min(tileRows, m);
  // The rows are the positions of a 1x1 convolution of one image of m x 1
  // pixels with k channels.
  DotProblem p{1, m, 1, 1, 1, cq, op, 1, 1, 1, 1, rows, vecs, 2};
  Value weights =
      packBF16Weights(b, loc, p, w, n, k, wIsNK ? k : 1, wIsNK ? 1 : n, 0,
                      wIsNK ? SmallVector<int64_t>{op, cq * 2}
                            : SmallVector<int64_t>{cq * 2, op},
                      [&](AffineExpr oi, AffineExpr ci, AffineExpr) {
                        return wIsNK ? SmallVector<AffineExpr>{oi, ci}
                                     : SmallVector<AffineExpr>{ci, oi};
                      });
  Value words = packWords(b, loc, padHighTo(b, loc, x, {m, cq * 2}), 1, 2);
  Value image = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({1, m, 1, cq}, b.getI32Type()), words,
      SmallVector<ReassociationIndices>{{0, 1}, {2, 3}});
  Value outT = dotProductKernel(b, loc, DotInstruction::bf16(b.getContext()), p,
                                image, weights, zeroStart(b, loc, op));
  return tensor::ExtractSliceOp::create(
      b, loc, type, outT, ValueRange{}, ValueRange{}, ValueRange{},
      b.getDenseI64ArrayAttr({0, 0}), b.getDenseI64ArrayAttr({m, n}),
      b.getDenseI64ArrayAttr({1, 1}));
}

Value widenedBF16(OpBuilder &b, Location loc, Value v) {
  if (!isBF16Tensor(v))
    return v;
  auto t = cast<RankedTensorType>(v.getType());
  auto wide = RankedTensorType::get(t.getShape(), b.getF32Type());
  // Constants (weights) are widened here, so that the f32 kernels still
  // find constants to transform and pack at compile time.
  if (DenseElementsAttr splat = splatConstant(v))
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(
            wide, b.getF32FloatAttr(
                      splat.getSplatValue<APFloat>().convertToFloat())));
  ArrayRef<char> bytes;
  bool isResource = false;
  if (constantBytes(v, bytes, isResource)) {
    std::vector<char> words(bytes.size() * 2, 0);
    for (size_t i = 0; i < bytes.size() / 2; ++i)
      std::memcpy(&words[i * 4 + 2], &bytes[i * 2], 2);
    return bytesConstant(b, loc, wide, words, isResource);
  }
  return convertTensor(b, loc, v, b.getF32Type(), false, false);
}

} // namespace mlir::relay::cpu

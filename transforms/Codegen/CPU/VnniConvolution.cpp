//===- VnniConvolution.cpp - int8 convolutions on AVX-512 VNNI -----------===//
//
// An ungrouped convolution (NCHW or NHWC) of 8-bit integers into int32 (what
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
//   16 output channels x 4 input channels of one tap, in panels of the
//   register tile's channels: w8[o/pw, t, c/4, (o%pw)*4 + c%4], the
//   padding channels zero.
// - The extra 128 * sum_(c, t) w[o, c, t] of the shift is subtracted
//   by starting each accumulator at its negation (a constant), as TVM does.
// - The kernel (DotProductKernel.cpp): register tiles of positions x
//   vectors of 16 output channels, one vpdpbusd per word of the image and
//   vector of weights.
//
// The [P, O] result is NHWC; for an NCHW convolution it is transposed back
// by a copy that --relay-fuse-elementwise merges with the bias, activation
// and requantization after the convolution, so that int8 is written once.
// The CPU's layout rules ask for NHWC (CPUTarget.cpp): then the image's
// words are four neighbouring bytes read where they are (shifted by an
// xor that fuses into the op making the image), and the result needs no
// transposition.
//
//===----------------------------------------------------------------------===//

#include "transforms/Codegen/CPU/CPUKernels.h"
#include "transforms/Codegen/CPU/DotProductKernel.h"

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "conversion/RelayToLinalg/LoweringTarget.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cstring>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace mlir::relay::cpu {

Value vnniConv2d(OpBuilder &b, const Conv2dProblem &conv) {
  auto in = cast<RankedTensorType>(conv.data.getType());
  ArrayRef<char> bytes;
  bool isResource = false;
  std::vector<char> splatBytes;
  if (!cpuAt(b).vnni || !int8ConvWeights(conv, bytes, isResource, splatBytes))
    return nullptr;
  ConvWeightStrides ws = convWeightStrides(conv);
  // The weights packed so that a 64-byte load holds 16 output channels x 4
  // input channels of one tap, in panels of the register tile's channels:
  // w8[o/pw, t, c/4, (o%pw)*4 + c%4], the padding channels zero (taps as
  // [kh, kw] for row runs, cq = 1). Each accumulator starts at
  // -128 * sum(w[o]), which takes back the image's shift.
  auto packWeights = [&](OpBuilder &pb, Location loc, const DotProblem &p) {
    std::vector<char> packed = packDotWeights(bytes, 1, ws.outputs, ws.inputs,
                                              ws.so, ws.sc, ws.st, p, 4);
    Value weights =
        bytesConstant(pb, loc, packedDotWeightsType(p, 4, pb.getI8Type()),
                      packed, isResource);
    std::vector<int32_t> sums(p.op, 0);
    for (int64_t oi = 0; oi < ws.outputs; ++oi)
      for (int64_t ci = 0; ci < ws.inputs; ++ci)
        for (int64_t t = 0; t < ws.taps; ++t)
          sums[oi] -= 128 * static_cast<int8_t>(
                                bytes[oi * ws.so + ci * ws.sc + t * ws.st]);
    std::vector<char> startBytes(p.op * 4);
    std::memcpy(startBytes.data(), sums.data(), startBytes.size());
    Value start =
        bytesConstant(pb, loc, RankedTensorType::get({p.op}, pb.getI32Type()),
                      startBytes, false);
    return std::make_pair(weights, start);
  };
  // Four bytes per word plus 128 each (xor 0x80808080); the image's zero
  // padding is 128 once shifted, the shifted image's zero.
  auto packImage = [](OpBuilder &pb, Location loc, Value padded) {
    return packWords(pb, loc, padded, 1, 4, 0x80808080u);
  };
  // NHWC: each byte plus 128 (xor 0x80) in place; the padding is 128.
  auto toOperands = [](OpBuilder &pb, Location loc, Value image) {
    Type i8 = pb.getI8Type();
    return mapElements(
        pb, loc, image, i8, [&](OpBuilder &nb, Location l, Value v) -> Value {
          return arith::XOrIOp::create(
              nb, l, v, arith::ConstantIntOp::create(nb, l, i8, -128));
        });
  };
  DotConvPacking packing{constantScalar(b, conv.loc, in.getElementType(), 0),
                         packImage, packWeights, toOperands,
                         constantScalar(b, conv.loc, b.getI8Type(), -128)};
  return dotProductConv2d(b, conv, DotInstruction::vnni(b.getContext()),
                          packing);
}

} // namespace mlir::relay::cpu

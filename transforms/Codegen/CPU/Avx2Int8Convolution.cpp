//===- Avx2Int8Convolution.cpp - int8 convolutions on AVX2's vpmaddwd -----===//
//
// An ungrouped convolution (NCHW or NHWC) of int8 images with constant int8
// weights into int32 on CPUs without AVX-512 VNNI: the bytes sign-extended to
// 16 bits, two input channels per 32-bit word, and AVX2's `vpmaddwd` (16
// products of 16-bit words summed in pairs into 8 int32 lanes, exact for
// bytes) on each half of the dot-product kernel's 16-lane vectors
// (DotProductKernel.cpp: the same packed NHWC image, packed weights and
// register tiles of positions x output channels as vpdpbusd's). Before
// it, such convolutions were integer matrix products of 32-bit multiplies
// (vpmulld), slower than the float network: on a Zen 3 at one thread the
// int8 ResNet-18 took 166 ms against 54 ms in f32.
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "conversion/RelayToLinalg/LoweringTarget.h"
#include "transforms/Codegen/CPU/CPUKernels.h"
#include "transforms/Codegen/CPU/DotProductKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cstdint>
#include <cstring>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace mlir::relay::cpu {

Value avx2Int8Conv2d(OpBuilder &b, const Conv2dProblem &conv) {
  auto in = cast<RankedTensorType>(conv.data.getType());
  CPUDescription cpu = cpuAt(b);
  ArrayRef<char> bytes;
  bool isResource = false;
  std::vector<char> splatBytes;
  if (cpu.vnni || cpu.vectorBits < 256 ||
      !int8ConvWeights(conv, bytes, isResource, splatBytes))
    return nullptr;
  ConvWeightStrides ws = convWeightStrides(conv);
  // The weights packed as the kernel reads them (two input channels per
  // word), each byte then widened to a 16-bit word; the accumulators start
  // at zero (no shift to take back).
  auto packWeights = [&](OpBuilder &pb, Location loc, const DotProblem &p) {
    std::vector<char> packed = packDotWeights(bytes, 1, ws.outputs, ws.inputs,
                                              ws.so, ws.sc, ws.st, p, 2);
    std::vector<char> wide(packed.size() * 2);
    for (size_t i = 0; i < packed.size(); ++i) {
      int16_t v = static_cast<int8_t>(packed[i]);
      std::memcpy(&wide[i * 2], &v, 2);
    }
    Value weights = bytesConstant(
        pb, loc, packedDotWeightsType(p, 2, pb.getI16Type()), wide, isResource);
    Value start = arith::ConstantOp::create(
        pb, loc,
        DenseElementsAttr::get(RankedTensorType::get({p.op}, pb.getI32Type()),
                               pb.getI32IntegerAttr(0)));
    return std::make_pair(weights, start);
  };
  // Two sign-extended bytes per word (packWords); the padding is zero.
  auto packImage = [](OpBuilder &pb, Location loc, Value padded) {
    return packWords(pb, loc, padded, 1, 2);
  };
  // NHWC: the bytes sign-extended to 16 bits where they are.
  auto toOperands = [](OpBuilder &pb, Location loc, Value image) {
    return convertTensor(pb, loc, image, pb.getI16Type(), false, false);
  };
  DotConvPacking packing{constantScalar(b, conv.loc, in.getElementType(), 0),
                         packImage, packWeights, toOperands,
                         constantScalar(b, conv.loc, b.getI16Type(), 0)};
  return dotProductConv2d(b, conv, DotInstruction::avx2Int16(b.getContext()),
                          packing);
}

} // namespace mlir::relay::cpu

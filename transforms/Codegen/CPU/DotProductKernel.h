//===- DotProductKernel.h - Kernels on AVX-512 dot instructions -*- C++ -*-===//
//
// The products and convolutions built on AVX-512's dot-product
// instructions, which sum `group` products of narrow operands into each of
// a vector's 16 32-bit lanes: VNNI's vpdpbusd (four u8 x s8 into i32) and
// AVX-512 BF16's vdpbf16ps (two bf16 x bf16 into f32). Both compute
//
//   outT[p, o] = start[o] + sum_(t, c) image[p + tap t, c] * w[o, c, t]
//
// with positions p as rows and output channels o as lanes: the image
// packed into 32-bit words of `group` channels (NHWC), broadcast one word
// per row; the weights packed so that a vector load holds 16 output
// channels x `group` input channels of one tap. VnniConvolution.cpp and
// Bf16Products.cpp say what is packed how.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_CODEGEN_CPU_DOTPRODUCTKERNEL_H
#define RELAY_MLIR_TRANSFORMS_CODEGEN_CPU_DOTPRODUCTKERNEL_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <vector>

namespace mlir::relay {
struct Conv2dProblem;
} // namespace mlir::relay

namespace mlir::relay::cpu {

/// One of the dot instructions: the LLVM intrinsic, how many operands each
/// 32-bit lane sums (`group`), the accumulator's element type (i32, f32)
/// and the operands' (i8, bf16).
struct DotInstruction {
  StringRef intrinsic;
  int64_t group;
  Type accElement, operandElement;
  /// Machine registers per vector of kLanes lanes: 2 where the instruction
  /// is AVX2's (256 bits), which dot() then applies to each half.
  int64_t registersPerVector = 1;
  /// Whether the instruction adds into its accumulator operand (vpdpbusd)
  /// or returns the sums alone (vpmaddwd), which dot() then adds.
  bool accumulates = true;

  /// 32-bit lanes of a 512-bit vector.
  static constexpr int64_t kLanes = 16;

  VectorType accType() const { return VectorType::get({kLanes}, accElement); }
  VectorType operandType() const {
    return VectorType::get({kLanes * group}, operandElement);
  }
  /// acc + the instruction's sums of a and w (vectors of operandType).
  Value dot(OpBuilder &b, Location loc, Value acc, Value a, Value w) const;

  /// vpdpbusd: acc.i32[i] += sum_(j < 4) a.u8[4i + j] * w.s8[4i + j].
  static DotInstruction vnni(MLIRContext *ctx);
  /// vdpbf16ps: acc.f32[i] += sum_(j < 2) a.bf16[2i + j] * w.bf16[2i + j].
  static DotInstruction bf16(MLIRContext *ctx);
  /// AVX2's vpmaddwd on each half: acc.i32[i] += sum_(j < 2)
  /// a.i16[2i + j] * w.i16[2i + j], exact for sign-extended bytes.
  static DotInstruction avx2Int16(MLIRContext *ctx);
};

/// The convolution's (or product's) shape as the kernel sees it.
struct DotProblem {
  int64_t n, oh, ow;      // images, output rows and columns
  int64_t kw, taps, cq;   // kernel width, taps, words of input channels
  int64_t op;             // output channels, padded to whole vectors
  int64_t sh, sw, dh, dw; // strides, dilations
  int64_t rows, vecs;     // the register tile

  int64_t group; // channels per word

  /// Whether the inner loop runs along a kernel row's taps and their words
  /// instead of a tap's words: for an image of at most 4 channels (an RGB
  /// image's first convolution), whose 7x7 taps would otherwise each be a
  /// loop of one or two trips. An undilated row's words are contiguous in
  /// the image.
  bool rowRuns() const { return cq * group <= 4 && dw == 1; }
  /// The outer loop's trips (kernel rows or taps) and the inner loop's.
  int64_t outerTrips() const { return rowRuns() ? taps / kw : taps; }
  int64_t innerTrips() const { return rowRuns() ? kw * cq : cq; }
  /// Output channels per panel: the register tile's.
  int64_t panelWidth() const { return DotInstruction::kLanes * vecs; }
};

/// The register tile for `channelVectors` vectors of output channels:
/// (rows, vecs) with `vecs` dividing them; rows * vecs accumulators, `vecs`
/// weight vectors and a broadcast within the 32 registers.
/// The register tile (rows, vectors of kLanes channels) for a panel of
/// `channelVectors` vectors: 24 accumulator registers of AVX-512's 32, 12
/// of AVX2's 16 where a vector takes two (`registersPerVector`).
std::pair<int64_t, int64_t> dotRegisterTile(int64_t channelVectors,
                                            int64_t registersPerVector = 1);

/// outT[Pp, op] (Pp: the positions n * oh * ow padded to whole bands) from
/// the packed image [n, hp, wp, cq] (i32 words; or [n, hp, wp, cq * group]
/// of the operands, read `group` at a time as a word), the weights [op / pw,
/// outer, inner, pw * group] (operand elements; pw = p.panelWidth(): each
/// panel's weights contiguous, read in order) and the accumulators' start
/// [op].
Value dotProductKernel(OpBuilder &b, Location loc, const DotInstruction &dot,
                       const DotProblem &p, Value image, Value weights,
                       Value start);

/// words[..., i, ...] = the `32 / group`-bit patterns of source[..., group *
/// i + r, ...] (r = 0..group-1, the first in the low bits) along dimension
/// `dim`, each xor `flip` (an i32 tensor; `dim`'s size a multiple of
/// `group`). Integers narrower than the pattern are sign-extended.
Value packWords(OpBuilder &b, Location loc, Value source, unsigned dim,
                int64_t group, uint32_t flip = 0);

/// Row-major weights, element (o, c, t) at byte offset (o * so + c * sc + t
/// * st) * elementBytes of `w`, packed for the kernel of `p` (o output and
/// c input channels, p.taps taps): packed[oo / pw, t, c / group, (oo % pw) *
/// group + c % group] = w(oo, c, t) for the output channels padded to p.op
/// and the input channels to p.cq words, zero where padded.
std::vector<char> packDotWeights(ArrayRef<char> w, int64_t elementBytes,
                                 int64_t o, int64_t c, int64_t so, int64_t sc,
                                 int64_t st, const DotProblem &p,
                                 int64_t group);

/// The type of the packed weights of `p`: [op / pw, outer, inner, pw *
/// group] of `element`.
RankedTensorType packedDotWeightsType(const DotProblem &p, int64_t group,
                                      Type element);

/// How a convolution's operands are packed for dotProductConv2d.
struct DotConvPacking {
  /// The image's padding value (a scalar of its element type).
  Value padValue;
  /// The padded NCHW image [n, cq * group, h, w] as words [n, cq, h, w].
  function_ref<Value(OpBuilder &, Location, Value)> packImage;
  /// The weights (packedDotWeightsType) and the start [op] of `p`.
  function_ref<std::pair<Value, Value>(OpBuilder &, Location,
                                       const DotProblem &)>
      packWeights;
  /// NHWC, where the kernel reads `group` neighbouring channels as a word:
  /// the image's elements as the instruction's operands (elementwise,
  /// before the padding, so that it fuses into the op that makes the
  /// image), and the padding's value as an operand. Null: NHWC is not
  /// taken.
  function_ref<Value(OpBuilder &, Location, Value)> toOperands = nullptr;
  Value operandPad = nullptr;
};

/// The constant weights of an int8 dot-product convolution: whether `conv`
/// is an ungrouped convolution (NCHW/OIHW or NHWC/HWIO) of signed bytes
/// (image and weights, static shapes) into int32 with constant weights,
/// whose bytes are then in `bytes` (a splat's written out into `storage`;
/// `isResource` when they are a resource blob's).
bool int8ConvWeights(const Conv2dProblem &conv, ArrayRef<char> &bytes,
                     bool &isResource, std::vector<char> &storage);

/// Where weight (o, c, t) of `conv` is in its row-major weights: at element
/// o * so + c * sc + t * st (tap t = kernel row * kernel width + column);
/// with the numbers of output channels, input channels and taps.
struct ConvWeightStrides {
  int64_t so, sc, st;
  int64_t outputs, inputs, taps;
};
ConvWeightStrides convWeightStrides(const Conv2dProblem &conv);

/// An ungrouped convolution with static shapes on `dot`: NCHW/OIHW gives
/// `conv.type` through the kernel's transposed result; NHWC/HWIO reads
/// `group` neighbouring channels of the image (as operands) as one word and
/// gives the kernel's result as it is (positions by output channels: NHWC).
Value dotProductConv2d(OpBuilder &b, const Conv2dProblem &conv,
                       const DotInstruction &dot,
                       const DotConvPacking &packing);

} // namespace mlir::relay::cpu

#endif // RELAY_MLIR_TRANSFORMS_CODEGEN_CPU_DOTPRODUCTKERNEL_H

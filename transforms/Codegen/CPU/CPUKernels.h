//===- CPUKernels.h - The x86 CPU's products and convolutions ---*- C++ -*-===//
//
// The kernels the CPU lowering target (CPUTarget.cpp) builds for products
// and convolutions, on tensors: register-tile-shaped products, im2col
// convolutions in cache-sized bands, Winograd's minimal filtering, the
// depthwise row kernels, and weights packed at compile time. Loops they
// build that later passes treat specially carry RelayDialect's codegen
// marks (dialects/relay/RelayDialect.h).
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_CODEGEN_CPU_CPUKERNELS_H
#define RELAY_MLIR_TRANSFORMS_CODEGEN_CPU_CPUKERNELS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include "transforms/Codegen/CPU/CPUDescription.h"

#include <vector>

namespace mlir::relay {
struct Conv2dProblem;
} // namespace mlir::relay

namespace mlir::relay::cpu {

//===----------------------------------------------------------------------===//
// Products (MatrixProducts.cpp)
//===----------------------------------------------------------------------===//

/// sum(a * b) over the last loop of a `numDims`-loop nest with the given
/// maps (a, b, result), into a zero-filled float tensor of `type`; an
/// operand read across k-major rows is first copied with n innermost.
Value contract(OpBuilder &b, Location loc, RankedTensorType type,
               ValueRange operands, unsigned numDims, ArrayRef<AffineMap> maps);

/// contract() with the result's innermost two loops (m and n) padded so
/// that register tiles are whole, and the result sliced back.
Value paddedContract(OpBuilder &b, Location loc, RankedTensorType type,
                     ValueRange operands, unsigned numDims,
                     ArrayRef<AffineMap> maps);

/// out[m, n] = sum_k x[m, k] * w[n, k] (`wIsNK`; else w[k, n]) for a
/// constant float w and four or more rows, on w packed at compile time
/// into panels of 32 (or 16) columns contiguous along k; null when that
/// does not apply.
Value packedWeightProduct(OpBuilder &b, Location loc, RankedTensorType type,
                          Value x, Value w, bool wIsNK);

/// packedWeightProduct's panels for a float w known only at run time,
/// packed by a copy where it pays: 64 or more rows and a w too large for L2
/// to hold its rows for the cache tiles (over twice L2); null elsewhere.
Value packedOperandProduct(OpBuilder &b, Location loc, RankedTensorType type,
                           Value x, Value w, bool wIsNK);

/// Whether x [1, K] times w^T (w [N, K]) is a one-row product of floats
/// that rowTimesTransposed takes.
bool isOneRowProduct(RankedTensorType type, Value x, Value w);

/// out[0, n] = sum_k x[0, k] * w[n, k] for one row x, as a split reduction
/// that reads w's rows as vectors.
Value rowTimesTransposed(OpBuilder &b, Location loc, RankedTensorType type,
                         Value x, Value w);

//===----------------------------------------------------------------------===//
// Convolutions as products (Im2colConvolution.cpp)
//===----------------------------------------------------------------------===//

/// The channels per block of an op over `c` channel planes of
/// `planeBytes` each, done block by block: the most that divide `c` within
/// an eighth of `cpu`'s L2 (128 KB of 1 MB), a multiple of 8 where one fits
/// (a register tile's rows). A 1x1
/// convolution's channel bands and the depthwise convolution after it
/// agree on this, so that their loops can merge.
int64_t channelBlock(int64_t c, int64_t planeBytes, const CPUDescription &cpu);

/// A grouped NCHW/OIHW float convolution of already padded `data` as a
/// matrix product (im2col), giving `type`; of one image, group by group, and
/// of one large image, in bands of rows or channels, unless `bands` is
/// false.
Value conv2dNchwAsProduct(OpBuilder &b, Location loc, RankedTensorType type,
                          Value data, Value weight, int64_t groups,
                          ArrayRef<int64_t> s, ArrayRef<int64_t> d,
                          bool bands = true);

/// A depthwise NCHW convolution of a padded float image: one elementwise
/// generic summing, per kernel tap, a strided view times the tap's weight.
Value depthwiseConv2dNchw(OpBuilder &b, Location loc, RankedTensorType type,
                          Value data, Value weight, ArrayRef<int64_t> s,
                          ArrayRef<int64_t> d);

/// An NHWC/HWIO float convolution of a padded image as one matrix product.
Value conv2dNhwcAsProduct(OpBuilder &b, Location loc, RankedTensorType type,
                          Value data, Value weight, ArrayRef<int64_t> s,
                          ArrayRef<int64_t> d);

/// A batch of padded NCHW images convolved one by one as single images
/// (grouped ones group by group).
Value convImageByImage(OpBuilder &b, Location loc, RankedTensorType type,
                       Value data, Value weight, int64_t groups,
                       ArrayRef<int64_t> s, ArrayRef<int64_t> d);

/// Whether the result of the 1x1 convolution `conv` (a relay.nn.conv2d)
/// goes, through elementwise ops, only into the image of a depthwise
/// convolution that depthwiseConvInRows convolves in row bands: then it is
/// not banded itself (--relay-fuse-elementwise computes it window by window
/// in those bands).
bool feedsDepthwiseRowBands(Operation *conv);

/// Whether the image of the depthwise convolution `depthwise` (a
/// relay.nn.conv2d) is made, through elementwise ops, by a 1x1 convolution
/// in bands of output channels: the depthwise convolution then goes in the
/// matching channel blocks, whatever the image's size, and the two loops
/// merge.
bool imageInChannelBands(Operation *depthwise);

//===----------------------------------------------------------------------===//
// Winograd (WinogradConv.cpp) and depthwise rows (DepthwiseConv.cpp)
//===----------------------------------------------------------------------===//

/// A 3x3, stride-1, undilated convolution of NCHW f32 images `data`
/// (unpadded; `padding` is (top, left, bottom, right)) with OIHW weights
/// (transformed at compile time when constant), by Winograd's minimal filtering
/// F(4x4, 3x3) or F(2x2, 3x3), giving `type`; null when it does not apply or
/// would not pay.
Value winogradConv2d(OpBuilder &b, Location loc, RankedTensorType type,
                     Value data, Value weight, ArrayRef<int64_t> padding);

/// Whether winogradConv3d computes a 3-d convolution of f32 NCDHW `data`
/// (padded by `padding`: front, top, left, back, bottom, right) with OIDHW
/// `weight` into `type`, on `cpu`, at unit strides and dilations and in
/// one group (the caller's to check): a kernel of KD > 1 depth taps and
/// 3x3 rows and columns where the 2-d convolution of the stacked taps
/// would take Winograd.
bool winogradConv3dApplies(RankedTensorType type, RankedTensorType data,
                           RankedTensorType weight, ArrayRef<int64_t> padding,
                           const CPUDescription &cpu);

/// That 3-d convolution by Winograd's F(m x m, 3 x 3) on each depth slice,
/// transformed once for the KD output depths that read it, the depth taps
/// summed in the product over channels; null where it does not apply.
Value winogradConv3d(OpBuilder &b, Location loc, RankedTensorType type,
                     Value data, Value weight, ArrayRef<int64_t> padding);

/// A 3x3, stride-1 convolution as winogradConv2d, dilated by `dilation`
/// (rows, columns; not both 1) and padded by it (the output the image's
/// size): the image's d_h x d_w phases (every d-th row and column from
/// each offset), laid side by side with a row and column of zeros between
/// them, convolved undilated by Winograd, and interleaved back (an image
/// of partial phases extended with zeros first). Null where Winograd does
/// not apply or the gutters would make the mosaic over 1.5 times the
/// output.
Value dilatedWinogradConv2d(OpBuilder &b, Location loc, RankedTensorType type,
                            Value data, Value weight,
                            ArrayRef<int64_t> dilation,
                            ArrayRef<int64_t> padding);

/// A depthwise convolution (one channel per group) of one NCHW f32 image
/// `data` (unpadded; `padding` is (top, left, bottom, right)), 3x3 with
/// padding 1 or 5x5 with padding 2 at stride 1 or 2, or 7x7 with padding 3
/// at stride 1, undilated, giving
/// `type`, as loop nests of vector code along rows that treat the padding
/// as zeros (no padded copy of the image); null when it does not apply.
/// An image above twice L2 goes in bands of output rows unless
/// `allowRowBands` is false (imageInChannelBands), else in blocks of channels.
Value depthwiseConvInRows(OpBuilder &b, Location loc, RankedTensorType type,
                          Value data, Value weight, ArrayRef<int64_t> strides,
                          ArrayRef<int64_t> dilations,
                          ArrayRef<int64_t> padding, bool allowRowBands = true);

/// A grouped convolution (at most 128 channels per group: ResNeXt's and
/// RegNet's 3x3 ones) of NCHW f32 images, with the kernels, padding and
/// strides of depthwiseConvInRows, as the same row kernels over register
/// tiles of a group's output channels in one row (two rows of at most 7
/// columns to a vector), image by image; null
/// when it does not apply or the CPU has no AVX-512 (the im2col products
/// group by group take it).
Value groupedConvInRows(OpBuilder &b, Location loc, RankedTensorType type,
                        Value data, Value weight, int64_t groups,
                        ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                        ArrayRef<int64_t> padding);

/// A depthwise NCHW convolution of 8-bit integers into int32 as the f32
/// kernels above on the values converted to f32 (exact: every partial sum
/// is an integer below 2^24, which is checked); null when it does not
/// apply.
Value integerDepthwiseAsFloat(OpBuilder &b, const Conv2dProblem &conv);

/// The same for an NHWC convolution ([kh, kw, 1, C] weights): one generic
/// along the channels over a strided view of the padded image per tap,
/// each widened to f32 and multiplied by its tap's weights (an int8
/// network's, whose other convolutions the CPU takes in NHWC).
Value integerDepthwiseNhwc(OpBuilder &b, const Conv2dProblem &conv);

/// The output rows per band when depthwiseConvInRows convolves `image`
/// (NCHW, one image) with a 3x3 kernel at `stride` in bands of rows (a
/// large image); 0 when it goes in channel blocks.
int64_t depthwiseRowBandRows(RankedTensorType image, int64_t stride,
                             const CPUDescription &cpu);

//===----------------------------------------------------------------------===//
// int8 convolutions on AVX-512 VNNI (VnniConvolution.cpp)
//===----------------------------------------------------------------------===//

/// An ungrouped NCHW convolution of int8 images with constant
/// int8 weights into int32 on vpdpbusd; null when it does not apply (the
/// CPU the code is for has no AVX-512 VNNI, other types or layouts, weights not
/// constant).
Value vnniConv2d(OpBuilder &b, const Conv2dProblem &conv);

/// The same convolution on AVX2's vpmaddwd (bytes widened to 16 bits) for
/// CPUs without AVX-512 VNNI; null when it does not apply (no AVX2, VNNI
/// present, other types or layouts, unsigned bytes, weights not constant).
Value avx2Int8Conv2d(OpBuilder &b, const Conv2dProblem &conv);

//===----------------------------------------------------------------------===//
// bf16 products on AVX-512 BF16 (Bf16Products.cpp)
//===----------------------------------------------------------------------===//

/// Whether `operands` are two static bf16 tensors and `type` has f32
/// elements: a product of bf16 values accumulated in f32.
bool isBF16IntoF32(RankedTensorType type, ValueRange operands);

/// An ungrouped NCHW convolution of bf16 images and weights into f32 on
/// vdpbf16ps; null when it does not apply (the CPU the code is for has no
/// AVX-512 BF16, other types, layouts or groups).
Value bf16Conv2d(OpBuilder &b, const Conv2dProblem &conv);

/// out[m, n] = sum_k x[m, k] * w[n, k] (`wIsNK`; else w[k, n]) for bf16
/// matrices x and w into f32 on vdpbf16ps, the weights packed at compile
/// time when constant; null when it does not apply.
Value bf16Product(OpBuilder &b, Location loc, RankedTensorType type, Value x,
                  Value w, bool wIsNK);

/// The raw bytes of the bf16 constant `w` (a splat expanded into
/// `storage`) in `bytes`; false when `w` is not a constant at hand.
bool bf16ConstantBytes(Value w, std::vector<char> &storage,
                       ArrayRef<char> &bytes, bool &isResource);

/// `v` widened to f32 when it is a bf16 tensor (for CPUs without AVX-512
/// BF16: the f32 kernels then compute bf16 products exactly), else `v`.
Value widenedBF16(OpBuilder &b, Location loc, Value v);

//===----------------------------------------------------------------------===//
// bf16 products on AMX tiles (AmxProducts.cpp)
//===----------------------------------------------------------------------===//

/// The indexing maps and iterators of the products marked for AMX tiles,
/// out[m, n] += A[m, k] * B[n / 32, k / g, n % 32, k % g] over (m, n,
/// k / g, k % g): B in panels of 32 columns, groups of `group` g = 2
/// (bf16) or 4 (int8) along k.
SmallVector<AffineMap> amxProductMaps(MLIRContext *ctx, int64_t group);
SmallVector<utils::IteratorType> amxProductIterators();

/// An ungrouped NCHW convolution of bf16 images and weights into f32 as one
/// product marked for AMX tiles (--relay-lower-amx-products); null when it
/// does not apply (the CPU the code is for has no AMX-BF16, other types,
/// layouts or groups).
Value amxConv2d(OpBuilder &b, const Conv2dProblem &conv);

/// An ungrouped convolution (NHWC/HWIO or NCHW/OIHW) of signed 8-bit
/// images and constant weights into int32 as one product marked for AMX
/// tiles; null when it does not apply (the CPU the code is for has no
/// AMX-INT8, other types, groups, weights made at run time, fewer than 16
/// input channels).
Value amxInt8Conv2d(OpBuilder &b, const Conv2dProblem &conv);

/// out[m, n] = sum_k x[m, k] * w[n, k] (`wIsNK`; else w[k, n]) for bf16
/// matrices x and w into f32 as a product marked for AMX tiles, the weights
/// packed at compile time when constant; null when it does not apply (no
/// AMX-BF16, fewer than 16 rows).
Value amxProduct(OpBuilder &b, Location loc, RankedTensorType type, Value x,
                 Value w, bool wIsNK);

//===----------------------------------------------------------------------===//
// Constant weights (PackConstants.cpp)
//===----------------------------------------------------------------------===//

/// The arith.constant `value` is, seen through reshapes; null when none.
arith::ConstantOp constantThroughReshapes(Value value);

/// The splat `value` is a constant of (through reshapes); null when none.
DenseElementsAttr splatConstant(Value value);

/// The raw row-major bytes of a static-shaped constant tensor `value` (an
/// arith.constant of dense elements or a resource blob, seen through
/// reshapes; not a splat) in `data`, `isResource` saying which; false when
/// `value` is no such constant or its data is not at hand.
bool constantBytes(Value value, ArrayRef<char> &data, bool &isResource);

/// A constant of `type` holding the row-major bytes `data`, as a resource
/// blob (64-byte aligned) when `asResource`, else dense elements.
Value bytesConstant(OpBuilder &b, Location loc, RankedTensorType type,
                    ArrayRef<char> data, bool asResource);

/// A constant RxC tensor `matrix` transposed in panels of `lanes` rows,
/// packed[i / lanes, j, i % lanes] = matrix[i, j] (P/lanes x C x lanes, for
/// R rows zero-padded to `paddedRows` P, R when 0), as a new constant; null
/// when `matrix` is not a constant, its data is not at hand or `lanes` does
/// not divide P. With `transposed`, `matrix` is CxR (its rows are the
/// packed columns j).
Value packedConstantMatrix(OpBuilder &b, Location loc, Value matrix,
                           int64_t lanes, int64_t paddedRows = 0,
                           bool transposed = false);

/// `value` (a static tensor) with its leading dimension padded to `rows`
/// with zeros: a new constant where `value` is one, else a tensor.pad. The
/// output channels of a convolution's weights padded to whole register
/// tiles or vectors.
Value zeroPaddedRows(OpBuilder &b, Location loc, Value value, int64_t rows);

} // namespace mlir::relay::cpu

#endif // RELAY_MLIR_TRANSFORMS_CODEGEN_CPU_CPUKERNELS_H

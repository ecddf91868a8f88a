//===- LoweringHelpers.h - Shared pieces of the lowering rules --*- C++ -*-===//
//
// Attribute readers, scalar constants and image helpers the operator
// lowering rules share across files (OperatorLowerings.cpp builds the
// table; NNLowerings.cpp and LayoutTransformLowering.cpp add rules to it).
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_CONVERSION_RELAYTOLINALG_LOWERINGHELPERS_H
#define RELAY_MLIR_CONVERSION_RELAYTOLINALG_LOWERINGHELPERS_H

#include "dialects/relay/OperatorRegistry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::relay::lowering {

/// Operator attributes of `op` with defaults.
int64_t intAttr(Operation *op, StringRef name, int64_t dflt);
double floatAttr(Operation *op, StringRef name, double dflt);
SmallVector<int64_t> intsAttr(Operation *op, StringRef name,
                              ArrayRef<int64_t> dflt);
StringRef strAttr(Operation *op, StringRef name, StringRef dflt);

/// The lowered type of `op`'s (single) result: unsigned integers signless.
RankedTensorType resultType(Operation *op);

/// `v` reshaped to the static `type` (same number of elements).
Value reshapeStatic(OpBuilder &b, Location loc, Value v, RankedTensorType type);

/// A scalar constant of type `t`; +-infinity is an integer type's extreme.
Value constantScalar(OpBuilder &b, Location loc, Type t, double v);

/// A tensor of `shape` filled with the scalar `value` (an accumulator's
/// initial value).
Value filledTensor(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                   Value value);

/// Whether integers of type `t` compare unsigned (unsigned types, booleans,
/// or any integer inside an UnsignedOpScope).
bool isUnsignedLike(Type t);

/// Signed or unsigned integer max/min as `isUnsignedLike` says.
Value integerMax(OpBuilder &b, Location l, Value x, Value y);
Value integerMin(OpBuilder &b, Location l, Value x, Value y);

/// (top, left, bottom, right) from TVM's 1, 2 or 4 padding values.
SmallVector<int64_t> padding4(Operation *op);

/// Pads H (`h`) and W (`w`) of a 4-d image by (top, left, bottom, right)
/// with `value`; returns `data` when there is nothing to pad.
Value padImage(OpBuilder &b, Location loc, Value data, ArrayRef<int64_t> p,
               int64_t h, int64_t w, Value value);

/// The batch `images` (N x ...) convolved image by image into `type`
/// (N x ...): `convolve` maps one image (1 x ...) to its result (1 x ...),
/// in an scf.for over the images.
Value eachImage(OpBuilder &b, Location loc, RankedTensorType type, Value images,
                function_ref<Value(OpBuilder &, Value)> convolve);

/// Moves the projections of captured tuples out of the closures that use
/// the tuples only through them, so that the closures capture (and box)
/// only the fields they read.
void hoistCapturedProjections(ModuleOp module);

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

/// A constant RxC tensor `matrix` (an arith.constant of dense elements or a
/// resource blob, seen through reshapes) transposed in panels of `lanes`
/// rows, packed[i / lanes, j, i % lanes] = matrix[i, j] (R/lanes x C x
/// lanes), as a new constant; null when `matrix` is not such a constant,
/// its data is not at hand or `lanes` does not divide R.
Value packedConstantMatrix(OpBuilder &b, Location loc, Value matrix,
                           int64_t lanes);

/// A grouped NCHW/OIHW float convolution of already padded `data` as a
/// matrix product (im2col), giving `type`; of one large image, in bands of
/// rows or channels unless `bands` is false.
Value conv2dNchwAsProduct(OpBuilder &b, Location loc, RankedTensorType type,
                          Value data, Value weight, int64_t groups,
                          ArrayRef<int64_t> s, ArrayRef<int64_t> d,
                          bool bands = true);

/// A 3x3, stride-1, undilated convolution of NCHW f32 images `data`
/// (unpadded; `padding` is (top, left, bottom, right)) with constant OIHW
/// weights, by Winograd's minimal filtering F(4x4, 3x3) or F(2x2, 3x3),
/// giving `type`; null when it does not apply or would not pay.
Value winogradConv2d(OpBuilder &b, Location loc, RankedTensorType type,
                     Value data, Value weight, ArrayRef<int64_t> padding);

/// A depthwise convolution (one channel per group) of one NCHW f32 image
/// `data` (unpadded; `padding` is (top, left, bottom, right)), 3x3 with
/// padding 1 or 5x5 with padding 2, at stride 1 or 2,
/// undilated, giving `type`, as loop nests of vector code along rows that
/// treat the padding as zeros (no padded copy of the image); null when it
/// does not apply.
Value depthwiseConvInRows(OpBuilder &b, Location loc, RankedTensorType type,
                          Value data, Value weight, ArrayRef<int64_t> strides,
                          ArrayRef<int64_t> dilations,
                          ArrayRef<int64_t> padding);

/// The output rows per band when depthwiseConvInRows convolves `image`
/// (NCHW, one image) with a 3x3 kernel at `stride` in bands of rows (a
/// large image); 0 when it goes in channel blocks.
int64_t depthwiseRowBandRows(RankedTensorType image, int64_t stride);

/// The channels per block of an op over `c` channel planes of
/// `planeBytes` each, done block by block: the most that divide `c` within
/// 128 KB, a multiple of 8 where one fits (a register tile's rows). A 1x1
/// convolution's channel bands and the depthwise convolution after it
/// agree on this, so that their loops can merge.
int64_t channelBlock(int64_t c, int64_t planeBytes);

/// An index constant.
Value index(OpBuilder &b, Location loc, int64_t v);

/// An scf.for from `begin` (0 when not given) to `end` by `step` threading
/// one value from `init` through `body` (given the induction variable and
/// the value so far).
scf::ForOp loopOp(OpBuilder &b, Location loc, int64_t begin, int64_t end,
                  int64_t step, Value init,
                  function_ref<Value(OpBuilder &, Value, Value)> body);
scf::ForOp loopOp(OpBuilder &b, Location loc, int64_t end, int64_t step,
                  Value init,
                  function_ref<Value(OpBuilder &, Value, Value)> body);

/// The result of loopOp from 0.
Value loop(OpBuilder &b, Location loc, int64_t end, int64_t step, Value init,
           function_ref<Value(OpBuilder &, Value, Value)> body);

/// The box of `sizes` at `offsets` (unit strides) of `source`.
Value sliceAt(OpBuilder &b, Location loc, Value source,
              ArrayRef<OpFoldResult> offsets, ArrayRef<int64_t> sizes);

/// `source` inserted into `dest` as the box of `sizes` at `offsets`.
Value insertAt(OpBuilder &b, Location loc, Value source, Value dest,
               ArrayRef<OpFoldResult> offsets, ArrayRef<int64_t> sizes);

/// A tensor of `type` whose element at each index is computed by `body`
/// from the index values (a parallel linalg.generic over `type`, the body
/// free to tensor.extract from other tensors: gathers, resampling).
Value generateTensor(
    OpBuilder &b, Location loc, RankedTensorType type,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body);

/// Rules for conv2d_transpose, adaptive pooling, upsampling and layer_norm.
void addNNLowerings(llvm::StringMap<LoweringRuleFn> &rules);

/// The rule for layout_transform.
void addLayoutTransformLowering(llvm::StringMap<LoweringRuleFn> &rules);

} // namespace mlir::relay::lowering

#endif // RELAY_MLIR_CONVERSION_RELAYTOLINALG_LOWERINGHELPERS_H

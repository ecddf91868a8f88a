//===- LoweringHelpers.h - Shared pieces of the operator lowering -*- C++ -*-=//
//
// Attribute readers, scalar constants, elementwise generics, image padding,
// loops and slices that the operator patterns (the *Patterns.cpp files) and
// the target kernels (transforms/Codegen/CPU/) build their code from.
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
#include "llvm/ADT/DenseMap.h"

#include <array>
#include <functional>
#include <optional>

namespace mlir::relay::lowering {

/// The positions of an NCHW image's axes.
enum Axis : int64_t { N = 0, C = 1, H = 2, W = 3 };

/// A scalar computation in the body of an elementwise generic; a null
/// result means "not for this dtype".
using ScalarFn = std::function<Value(OpBuilder &, Location, ValueRange)>;

/// Operator attributes of `op` with defaults.
int64_t intAttr(Operation *op, StringRef name, int64_t dflt);
double floatAttr(Operation *op, StringRef name, double dflt);
SmallVector<int64_t> intsAttr(Operation *op, StringRef name,
                              ArrayRef<int64_t> dflt);
StringRef strAttr(Operation *op, StringRef name, StringRef dflt);

/// The lowered type of `op`'s (single) result: unsigned integers signless.
RankedTensorType resultType(Operation *op);

/// Whether the Relay value `v` holds unsigned integers (or booleans).
bool isUnsignedValue(Value v);

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

/// `p` made unsigned where `t` compares unsigned.
arith::CmpIPredicate unsignedFor(Type t, arith::CmpIPredicate p);

/// Signed or unsigned integer max/min as `isUnsignedLike` says.
Value integerMax(OpBuilder &b, Location l, Value x, Value y);
Value integerMin(OpBuilder &b, Location l, Value x, Value y);

/// arith.select.
Value select(OpBuilder &b, Location l, Value c, Value x, Value y);

/// The map from an output of shape `out` to an operand of `shape`
/// broadcast into it (numpy rules: right-aligned, size-1 dims read 0).
AffineMap broadcastMap(MLIRContext *ctx, ArrayRef<int64_t> out,
                       ArrayRef<int64_t> shape);

/// A linalg.generic over `op`'s result shape, broadcasting every operand,
/// computing `fn` on scalars; fails on a dynamic result.
FailureOr<SmallVector<Value>> elementwise(OpBuilder &b, Operation *op,
                                          ValueRange operands, ScalarFn fn);

/// out = sum over the last of `numDims` loops of operands[0] * operands[1]
/// (float), read through `maps` (inputs, then the result), into a
/// zero-filled tensor of `type`: linalg.fill and one linalg.generic.
Value filledContraction(OpBuilder &b, Location loc, RankedTensorType type,
                        ValueRange operands, unsigned numDims,
                        ArrayRef<AffineMap> maps);

/// The integer counterpart of filledContraction: each operand widened to
/// `type`'s element type (zero-extended where `zeroExtend` says, else
/// sign-extended), multiplied, summed.
Value integerContraction(OpBuilder &b, Location loc, RankedTensorType type,
                         ValueRange operands, ArrayRef<bool> zeroExtend,
                         unsigned numDims, ArrayRef<AffineMap> maps);

/// The map of `numDims` loops reading dims `dims`.
AffineMap map(MLIRContext *ctx, unsigned numDims, ArrayRef<unsigned> dims);

/// (top, left, bottom, right) from TVM's 1, 2 or 4 padding values.
SmallVector<int64_t> padding4(Operation *op);

/// `v` padded at the end of each dimension to `shape` with `value` (zero
/// when null); `v` itself when it has that shape already.
Value padHighTo(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> shape,
                Value value = nullptr);

/// `v` at the start of a tensor of the larger static `shape` whose other
/// elements are zero, filled strip by strip: for rows or columns added to
/// a product's m or n loop whose results are sliced off. Unlike padHighTo
/// only the strips are filled, and bufferization's empty-tensor elimination
/// can let the producer of `v` write into the larger buffer in place. (The
/// strips were left undefined before: their products are computed, and
/// garbage read as denormal floats made the FMAs that took it up to 100
/// times slower, from run to run.)
Value padHighInPlace(OpBuilder &b, Location loc, Value v,
                     ArrayRef<int64_t> shape);

/// Pads H (`h`) and W (`w`) of a 4-d image by (top, left, bottom, right)
/// with `value`; returns `data` when there is nothing to pad.
Value padImage(OpBuilder &b, Location loc, Value data, ArrayRef<int64_t> p,
               int64_t h, int64_t w, Value value);

/// The batch `images` (N x ...) convolved image by image into `type`
/// (N x ...): `convolve` maps one image (1 x ...) to its result (1 x ...),
/// in an scf.for over the images.
Value eachImage(OpBuilder &b, Location loc, RankedTensorType type, Value images,
                function_ref<Value(OpBuilder &, Value)> convolve);

/// The windows of a strided convolution's or pooling's kernel taps. A tap's
/// window is a view of the image with the convolution's strides; with
/// strides above kMaxShuffledStride copying it reads one element at a time,
/// so when there are more taps than stride phases (positions modulo the
/// strides), each phase used is copied out once (the only strided reads)
/// and every tap's window is a unit-stride view of its phase, whose rows
/// copy as vectors.
class StridePhases {
public:
  /// The largest stride whose strided rows vectorised code reads as one
  /// vector of the span and a shuffle.
  static constexpr int64_t kMaxShuffledStride = 4;

  StridePhases(OpBuilder &b, Location loc, Value data, ArrayRef<int64_t> s,
               ArrayRef<int64_t> d, int64_t kh, int64_t kw);

  /// The window of tap (i, j): out position (y, x) reads the image at
  /// (y * sh + i * dh, x * sw + j * dw).
  Value tapView(OpBuilder &b, Location loc, int64_t i, int64_t j,
                RankedTensorType viewType);

private:
  Value data;
  ArrayRef<int64_t> s, d;
  llvm::SmallDenseMap<std::pair<int64_t, int64_t>, Value> phase;
};

/// A new tensor of `shape` whose element at each index i is data[read(i)]:
/// one all-parallel generic copy.
Value copyThroughMap(OpBuilder &b, Location loc, Value data,
                     ArrayRef<int64_t> shape, AffineMap read);

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

/// Index arithmetic in the body of a generic.
struct IndexMath {
  OpBuilder &b;
  Location l;
  Value c(int64_t v);
  Value add(Value x, Value y);
  Value sub(Value x, Value y);
  Value mul(Value x, Value y);
  Value div(Value x, Value y);
  Value rem(Value x, Value y);
  Value min(Value x, Value y);
  Value max(Value x, Value y);
  Value lt(Value x, Value y);
  Value eq(Value x, Value y);
  Value both(Value x, Value y);
  /// An index as an f64.
  Value toF64(Value x);
  /// An f64 truncated to an index.
  Value fromF64(Value x);
};

/// Positions of the letters of `axes` in `layout`, which must be a
/// permutation of them ("NCHW", "NHWC"; "OIHW", "IOHW", "HWIO", ...).
std::optional<std::array<int64_t, 4>> axesOf(StringRef layout, StringRef axes);

/// `v` with its axes permuted (linalg.transpose): axis i of the result is
/// axis perm[i] of `v`.
Value permuteAxes(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> perm);

/// The scalar `x` converted to the numeric type `to` (Relay's cast: the
/// signedness of integers from the Relay types, as lowered integers are
/// signless).
Value convertScalar(OpBuilder &b, Location l, Value x, Type to,
                    bool fromUnsigned, bool toUnsigned);

/// `source` mapped element by element to a tensor of `to` by `fn` (one
/// parallel generic).
Value mapElements(OpBuilder &b, Location loc, Value source, Type to,
                  function_ref<Value(OpBuilder &, Location, Value)> fn);

/// The static-shaped tensor `v` converted element by element to `to` (one
/// parallel generic of convertScalar).
Value convertTensor(OpBuilder &b, Location loc, Value v, Type to,
                    bool fromUnsigned, bool toUnsigned);

/// f64 arithmetic on scalars of a float type `e` (widened, then narrowed).
Value widen(OpBuilder &b, Location l, Value v);
Value narrow(OpBuilder &b, Location l, Value v, Type e);

} // namespace mlir::relay::lowering

#endif // RELAY_MLIR_CONVERSION_RELAYTOLINALG_LOWERINGHELPERS_H

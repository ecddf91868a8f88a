//===- RelationUtils.h - Helpers for writing type relations -----*- C++ -*-===//
//
// Relations see tensors as a list of dimensions (static sizes, `?` for
// Relay's Any, or named shape variables) and a dtype. A dimension computed
// arithmetically from a symbolic or `?` one is `?`; a dimension passed
// through keeps its name.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_DIALECTS_RELAY_RELATIONUTILS_H
#define RELAY_MLIR_DIALECTS_RELAY_RELATIONUTILS_H

#include "dialects/relay/OperatorRegistry.h"

#include "mlir/IR/BuiltinTypes.h"

namespace mlir::relay {

/// One dimension: a static size, `?` (Any), or a named shape variable.
struct Dim {
  int64_t size = ShapedType::kDynamic;
  StringAttr symbol;

  static Dim any() { return Dim(); }
  static Dim of(int64_t size) { return Dim{size, nullptr}; }
  bool isStatic() const { return !ShapedType::isDynamic(size); }
  bool isAny() const { return !isStatic() && !symbol; }
  bool operator==(const Dim &other) const {
    return size == other.size && symbol == other.symbol;
  }
  bool operator!=(const Dim &other) const { return !(*this == other); }
};

/// Prints a dimension as Relay does: `3`, `?` or the variable's name.
std::string toString(const Dim &dim);

/// A tensor of known rank.
struct TensorInfo {
  SmallVector<Dim> dims;
  /// The element type; a BaseType variable when symbolic.
  Type dtype;

  int64_t getRank() const { return dims.size(); }
  /// The product of the dimensions in [begin, end), `?` when one is not
  /// static.
  Dim product(int64_t begin, int64_t end) const;
};

/// What a relation argument currently is.
enum class TensorState { Tensor, Unknown, NotATensor };

/// Reads `type` as a tensor of known rank. Unknown when it is still
/// incomplete, a type variable, or a tensor whose rank is a variable.
TensorState readTensor(Type type, TensorInfo &info);

/// Builds the tensor type for `dims` and `dtype` (builtin when concrete).
Type makeTensor(MLIRContext *ctx, ArrayRef<Dim> dims, Type dtype);
Type makeTensor(MLIRContext *ctx, ArrayRef<int64_t> dims, Type dtype);

/// Arithmetic on dimensions: `?` when an operand is not static; a static
/// result past int64 saturates (a type-size check then reports it).
Dim mulDims(Dim a, Dim b);
Dim addDims(Dim a, Dim b);

/// Reads input #i as a tensor for `args`: returns Unknown (the relation
/// should stay Pending) or NotATensor (after reporting the error).
TensorState readInputTensor(RelationArgs &args, unsigned i, TensorInfo &info);

/// Reads input #index as a tensor into `info`; on anything else returns the
/// status the relation must return (Pending or Failed).
#define READ_TENSOR_OR_RETURN(args, index, info)                               \
  do {                                                                         \
    TensorState state_ = readInputTensor(args, index, info);                   \
    if (state_ == TensorState::Unknown)                                        \
      return RelationStatus::Pending;                                          \
    if (state_ == TensorState::NotATensor)                                     \
      return RelationStatus::Failed;                                           \
  } while (false)

/// Normalises an axis in [-rank, rank) to [0, rank); fails (reporting which
/// attribute) when out of range.
FailureOr<int64_t> normalizeAxis(RelationArgs &args, int64_t axis, int64_t rank,
                                 StringRef what = "axis");

/// Broadcasts two dimensions by numpy's rules (1 stretches, `?` may be
/// anything); fails on two other different sizes.
FailureOr<Dim> broadcastDim(Dim a, Dim b);
/// Broadcasts two shapes by numpy's rules (aligned from the right).
FailureOr<SmallVector<Dim>> broadcastDims(ArrayRef<Dim> a, ArrayRef<Dim> b);

/// Reads input 0 as a non-empty tuple of tensors of one dtype into
/// `fields`: Solved, Pending while it or a field is unknown, or Failed
/// (reported).
RelationStatus readTensorTuple(RelationArgs &args,
                               SmallVectorImpl<TensorInfo> &fields,
                               bool sameDtype = true);

/// Runs the relation `name` inside the relation of `outer`, on `inputs`
/// and `attrs` (outer's attributes when null); its errors are reported as
/// outer's. With `refines`, inner input j stands for outer input
/// refines[j] (what the relation learns of it refines that input unless
/// the type given differs from it) and the inner output is outer's output;
/// without, the inner output starts unknown and outer learns nothing.
/// `output` gets the output type the relation assigns (null if none).
/// `context`, when given, is a note on each of its errors.
RelationStatus runNestedRelation(RelationArgs &outer, StringRef name,
                                 ArrayRef<Type> inputs, Type &output,
                                 DictionaryAttr attrs = {},
                                 ArrayRef<unsigned> refines = {},
                                 StringRef context = "");

/// Solves the output as the convolution relation `relation` (Conv2D,
/// Conv3D) types input 0 convolved with `weight` in `kernelLayout`, under
/// the op's other attributes but `dropped` (for the convolutions whose
/// weight input is transformed).
RelationStatus solveAsConvolution(RelationArgs &args, StringRef relation,
                                  Type weight, StringRef kernelLayout,
                                  ArrayRef<StringRef> dropped = {});

/// Reads input #i as a 1-d integer tensor into `info`: Solved, Pending
/// while it is unknown, or Failed ("expected <what> as a 1-d integer
/// tensor, got ...").
RelationStatus readIntegerVector(RelationArgs &args, unsigned i,
                                 TensorInfo &info, const Twine &what);

/// Unifies two dimensions that must be equal: the more precise one, or
/// failure when two different static sizes or names meet.
FailureOr<Dim> unifyDims(Dim a, Dim b);

/// Requires input #i to have type `expected` (compatibly: `?` matches any
/// size), or infers it when it is unknown. `what` names the input in the
/// error.
LogicalResult expectInputType(RelationArgs &args, unsigned i, Type expected,
                              StringRef what);

/// topk's result by its `ret_type` (both: a (values, indices) tuple,
/// values, indices): solved, or failed on another ret_type.
RelationStatus solveTopKResult(RelationArgs &args, Type values, Type indices);

/// sparse_to_dense's and dyn.sparse_to_dense's operands (inputs 0-2) for
/// an output of `rank` axes: indices integers, [N, rank], or [N] or 0-d
/// when rank is 1; values 0-d or one per index; a 0-d default of the
/// values' dtype. Fails (reported) otherwise.
LogicalResult checkSparseToDenseOperands(RelationArgs &args,
                                         const TensorInfo &indices,
                                         const TensorInfo &values,
                                         const TensorInfo &fill, int64_t rank);

/// The attributes of nn.upsampling3d and of dyn.nn.upsampling(3d) other
/// than the scales: `layout` (NCHW or NHWC, NCDHW or NDHWC when `is3d`) of
/// the float tensor `data` of that rank, `method` (nearest_neighbor, or
/// bilinear / trilinear) and for 3-d the coordinate_transformation_mode.
/// Returns the layout, or fails (reported).
FailureOr<StringRef> checkUpsamplingAttrs(RelationArgs &args,
                                          const TensorInfo &data, bool is3d);

/// `type` printed in quotes, as diagnostics print types.
std::string typeStr(Type type);

/// Returns true when `dtype` is a float type (or a variable).
bool isFloatLike(Type dtype);

/// A data layout such as `NCHW` or `NCHW16c`: primal axes are upper-case
/// letters, a lower-case letter with a factor is a split-off sub-axis. A
/// primal axis may have several, outermost first (TVM's x86 int8 kernels'
/// OIHW4i16o4i: input channel (i0 * 4 + i1) * 4 + i2).
struct DataLayout {
  struct Axis {
    char name;
    int64_t factor; // 0 for a primal axis
  };
  SmallVector<Axis> axes;

  /// Parses `text`; fails on a malformed layout (a repeated primal axis, a
  /// sub-axis without its primal axis, a factor on a primal axis).
  static FailureOr<DataLayout> parse(StringRef text);
  /// The position of the primal axis (or first sub-axis) of letter
  /// `primal`.
  std::optional<size_t> find(char primal, bool sub) const;
  /// The positions of the sub-axes of `primal`, outermost first.
  SmallVector<size_t> subAxes(char primal) const;
  /// The product of the factors of `primal`'s sub-axes (1 when unsplit).
  int64_t subFactor(char primal) const;
};

/// Whether `layout` splits off a sub-axis (TVM's packed layouts: the 16c
/// of NCHW16c, the 4i4o of OIHW4i4o).
bool isPackedLayout(StringRef layout);

/// An operand an image operator reads in the layout attribute `attr`
/// (default `dflt`), which its plain relation takes in `plain`; `what`
/// names it in diagnostics.
struct LayoutOperand {
  unsigned input;
  StringRef attr, dflt, plain, what;
};

/// Types an operator whose layout attributes pack an axis (TVM's
/// NCHW16c, OIHW16i16o) as the relation `relation` types it on plain
/// layouts: each of `operands` unpacked by layout_transform's relation to
/// its plain layout, `relation` run with those layouts (and `outAttr`
/// cleared), its result (in operand 0's plain layout) packed to the layout
/// `outAttr` names, or to operand 0's when that is empty or not given.
/// `what` names the operation in a note on the relation's errors.
RelationStatus solveUnpacked(RelationArgs &args, StringRef relation,
                             StringRef what, ArrayRef<LayoutOperand> operands,
                             StringRef outAttr = "");

/// nn.conv2d and nn.conv2d_transpose (and the NCHWc convolutions) on
/// packed layouts: solveUnpacked with the data in NCHW and the weight in
/// OIHW (IOHW `transposed`); an unknown weight is typed from `channels`
/// and `kernel_size`, packed to kernel_layout.
RelationStatus solveUnpackedConv2D(RelationArgs &args, bool transposed);

/// Where strided_slice reads along each axis of an input of static
/// `shape`: out[i] = in[first[d] + i * step[d]] on axis d. `begin`,
/// `strides`, `axes` and `sizeMode` (slice_mode "size") are the op's
/// attributes; begins are normalised and clamped as the relation does (a
/// negative step may start at -1: an empty slice). The relation, the
/// interpreter's kernel and the lowering all slice this way.
struct StridedSliceStarts {
  SmallVector<int64_t> first, step;
};
StridedSliceStarts stridedSliceStarts(ArrayRef<int64_t> shape,
                                      ArrayRef<int64_t> begin,
                                      ArrayRef<int64_t> strides,
                                      ArrayRef<int64_t> axes, bool sizeMode);

/// Relations shared by the relation files (RelationsXxx.cpp).
void registerElementwiseRelations();
void registerReduceRelations();
void registerTransformRelations();
void registerNNRelations();
void registerCompositeRelations();
void registerLossRelations();
void registerQnnRelations();
void registerDynamicRelations();
void registerGradientRelations();
void registerSparseRelations();
void registerSignalRelations();
void registerPackedRelations();
void registerWinogradRelations();
void registerDetectionRelations();
void registerRandomRelations();
void registerBitserialRelations();

} // namespace mlir::relay

#endif // RELAY_MLIR_DIALECTS_RELAY_RELATIONUTILS_H

//===- NodeContext.cpp - What an ONNX op converter sees ---------*- C++ -*-===//

#include "frontends/ONNX/NodeContext.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayOps.h"
#include "dialects/relay/RelayTypes.h"

#include "llvm/ADT/StringSet.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

InFlightDiagnostic NodeContext::emitError() {
  InFlightDiagnostic diag = mlir::emitError(loc);
  diag << node.op_type() << " node '" << node.name() << "': ";
  return diag;
}

RankedTensorType NodeContext::tensorType(unsigned i) const {
  return dyn_cast<RankedTensorType>(inputs[i].value.getType());
}

/// The op types whose converters take inputs with `?` dimensions computed
/// by other nodes (NonZero's count, and what follows from it): elementwise
/// operators and comparisons, the reshapes, slices, gathers and reductions
/// detection models put after NonZero, and the shape operators whose
/// shape, k or bounds are then computed at run time (Relay's `dyn.*`).
static bool takesAnyDims(StringRef opType) {
  static const llvm::StringSet<> kOpTypes = {
      // Elementwise (Relay's relations broadcast `?`).
      "Abs", "Neg", "Exp", "Log", "Sqrt", "Relu", "Sigmoid", "Tanh", "Erf",
      "Floor", "Ceil", "Round", "Sign", "Not", "Add", "Sub", "Mul", "Div",
      "Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual", "And", "Or",
      "Xor", "Max", "Min", "Pow", "Mod", "Where", "Clip", "Cast", "CastLike",
      "Identity", "Reciprocal", "HardSigmoid", "HardSwish", "IsNaN", "IsInf",
      "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh",
      "Acosh", "Atanh", "Sum", "Mean", "BitShift", "LeakyRelu", "Elu", "Celu",
      "Selu", "Shrink", "ThresholdedRelu", "PRelu", "Gelu", "Mish", "Swish",
      "Softplus", "Softsign", "BitwiseAnd", "BitwiseOr", "BitwiseXor",
      "BitwiseNot", "Dropout",
      // Shapes and element movement.
      "Shape", "Size", "Reshape", "Flatten", "Unsqueeze", "Squeeze",
      "Transpose", "Concat", "Split", "Slice", "Gather", "GatherND", "Expand",
      "Tile", "ConstantOfShape", "Range", "NonZero", "ScatterElements", "Pad",
      "Resize", "Upsample", "ScatterND", "GatherElements", "Compress", "OneHot",
      "Trilu", "EyeLike", "ReverseSequence", "CumSum", "CumProd",
      // Products whose relations take `?` rows.
      "Gemm", "MatMul", "Einsum",
      // Recurrent layers over a sequence whose length (or batch) is `?`.
      "RNN", "GRU", "LSTM",
      // Reductions, sorting, detection.
      "ReduceMin", "ReduceMax", "ReduceSum", "ReduceMean", "ReduceProd",
      "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp",
      "ReduceSumSquare", "ArgMax", "ArgMin", "TopK", "Softmax", "LogSoftmax",
      "Hardmax", "NonMaxSuppression", "RoiAlign", "Unique",
      // Normalisations over the last axes.
      "LayerNormalization", "RMSNormalization", "MeanVarianceNormalization"};
  return kOpTypes.contains(opType);
}

/// The op types whose converters take 1-d and 2-d images (N x C x L,
/// N x C x H x W) whose count, length, height or width depends on the
/// data, the channels static:
/// Relay's convolution, pooling and batch norm relations carry `?` sizes
/// through (Mask R-CNN's mask head runs on the `?` regions its RoIAlign
/// pooled; a scripted model crops its image at sizes it computes). SAME
/// padding at strides above 1 and ConvTranspose's output_shape need the
/// spatial sizes, and say so.
static bool takesAnyBatch(StringRef opType) {
  static const llvm::StringSet<> kOpTypes = {"Conv",
                                             "ConvTranspose",
                                             "MaxPool",
                                             "AveragePool",
                                             "GlobalAveragePool",
                                             "GlobalMaxPool",
                                             "BatchNormalization",
                                             "InstanceNormalization",
                                             "LpPool",
                                             "LRN"};
  return kOpTypes.contains(opType);
}

/// Whether `type` is an image (N x C x H x W, or N x C x L) whose channels
/// are known.
static bool hasStaticChannels(RankedTensorType type) {
  return (type.getRank() == 3 || type.getRank() == 4) &&
         !ShapedType::isDynamic(type.getDimSize(1));
}

bool NodeContext::hasStaticShape(unsigned i) const {
  auto type = tensorType(i);
  return type && type.hasStaticShape();
}

FailureOr<int64_t> NodeContext::spatialRank(unsigned i) {
  int64_t r = rank(i);
  if (r < 3)
    return fail("expects data of rank 3 or more (N x C x D1 ...), got rank " +
                Twine(r));
  return r;
}

LogicalResult NodeContext::checkInputs(unsigned min, unsigned max) {
  if (inputs.size() > max)
    return fail(Twine("takes at most ") + Twine(max) + " inputs, got " +
                Twine(inputs.size()));
  for (unsigned i = 0; i < min; ++i)
    if (!hasInput(i))
      return fail(Twine("input #") + Twine(i) + " is required");
  for (unsigned i = 0; i < inputs.size(); ++i) {
    if (!hasInput(i))
      continue;
    auto type = tensorType(i);
    if (!type)
      return fail(Twine("input #") + Twine(i) + " is not a tensor");
    // A graph input of @main (a Loop body's are the parameters of the loop
    // function, possibly still being built, whose `?` sizes the body
    // computes at run time).
    auto arg = dyn_cast<BlockArgument>(input(i));
    if (!type.hasStaticShape() && arg &&
        isa_and_nonnull<FuncOp>(arg.getOwner()->getParentOp()))
      return fail(Twine("input #") + Twine(i) +
                  " has a dynamic shape; the importer needs static shapes "
                  "(give the model's symbolic input dimensions sizes: "
                  "relay-run takes them from its --input files or "
                  "--samples' first sample, and relay-run and "
                  "relay-mlir-translate from --onnx-input-shape "
                  "NAME=D1xD2x...)");
    // Computed by a node: its size depends on the data (NonZero's). The
    // converters of takesAnyDims' op types handle that.
    if (!type.hasStaticShape() && !takesAnyDims(node.op_type()) &&
        !(i == 0 && takesAnyBatch(node.op_type()) && hasStaticChannels(type))) {
      std::string shape;
      llvm::raw_string_ostream os(shape);
      os << type;
      return fail(Twine("input #") + Twine(i) + " has the type '" + shape +
                  "', whose size depends on the data (NonZero's output, or "
                  "computed from one), which " +
                  node.op_type() +
                  "'s import does not take (the elementwise, shape, slicing, "
                  "gathering, scattering, reduction, matrix product, "
                  "softmax, normalisation, TopK, NonMaxSuppression and "
                  "RoiAlign operators do, and convolutions, pooling and "
                  "normalisations of images whose channels are known)");
    }
  }
  return success();
}

FailureOr<SmallVector<int64_t>> NodeContext::constantInts(unsigned i,
                                                          StringRef what) {
  ElementsAttr c = constantInput(i);
  if (!c)
    return fail(Twine("its ") + what + " (input #" + Twine(i) +
                ") must be known when importing (a constant or "
                "initializer, or computed from shapes)");
  return readInts(c);
}

const onnx::AttributeProto *NodeContext::attribute(StringRef name) const {
  for (const onnx::AttributeProto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

int64_t NodeContext::attrInt(StringRef name, int64_t dflt) const {
  const onnx::AttributeProto *a = attribute(name);
  return a ? a->i() : dflt;
}

double NodeContext::attrFloat(StringRef name, double dflt) const {
  const onnx::AttributeProto *a = attribute(name);
  return a ? a->f() : dflt;
}

std::string NodeContext::attrString(StringRef name, StringRef dflt) const {
  const onnx::AttributeProto *a = attribute(name);
  return a ? a->s() : dflt.str();
}

SmallVector<int64_t> NodeContext::attrInts(StringRef name,
                                           ArrayRef<int64_t> dflt) const {
  const onnx::AttributeProto *a = attribute(name);
  if (!a)
    return SmallVector<int64_t>(dflt);
  return SmallVector<int64_t>(a->ints().begin(), a->ints().end());
}

SmallVector<double> NodeContext::attrFloats(StringRef name) const {
  const onnx::AttributeProto *a = attribute(name);
  if (!a)
    return {};
  return SmallVector<double>(a->floats().begin(), a->floats().end());
}

LogicalResult NodeContext::expectAttr(StringRef name, int64_t supported) {
  const onnx::AttributeProto *a = attribute(name);
  if (a && a->i() != supported)
    return fail(Twine("attribute ") + name + " = " + Twine(a->i()) +
                " is not supported (only " + Twine(supported) + ")");
  return success();
}

FailureOr<int64_t> NodeContext::axis(int64_t axis, int64_t rank) {
  // A scalar has no axis: every caller indexes the shape with it.
  if (axis < -rank || axis >= rank)
    return fail(Twine("axis ") + Twine(axis) + " is out of range for rank " +
                Twine(rank));
  return axis < 0 ? axis + rank : axis;
}

FailureOr<SmallVector<int64_t>>
NodeContext::distinctAxes(ArrayRef<int64_t> axes, int64_t rank) {
  SmallVector<int64_t> normalised;
  for (int64_t a : axes) {
    FailureOr<int64_t> n = axis(a, rank);
    if (failed(n))
      return failure();
    if (llvm::is_contained(normalised, *n))
      return fail("axes repeat " + Twine(a));
    normalised.push_back(*n);
  }
  return normalised;
}

Value NodeContext::constant(ElementsAttr value) {
  return ConstantOp::create(builder, loc, value);
}

Value NodeContext::scalar(double value, Type elementType) {
  auto type = RankedTensorType::get({}, elementType);
  if (auto f = dyn_cast<FloatType>(elementType)) {
    APFloat v(value);
    bool losesInfo;
    v.convert(f.getFloatSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
    return constant(DenseElementsAttr::get(type, v));
  }
  unsigned width = elementType.getIntOrFloatBitWidth();
  // Saturated to int64's range (a cast of a double beyond it is undefined;
  // a fuzzed Pad value found it), NaN as 0, then wrapped to the width.
  int64_t integer = 0;
  if (!std::isnan(value))
    integer = value >= 9.2233720368547758e18    ? INT64_MAX
              : value <= -9.2233720368547758e18 ? INT64_MIN
                                                : static_cast<int64_t>(value);
  return constant(DenseElementsAttr::get(
      type, APInt(width, integer,
                  /*isSigned=*/!elementType.isUnsignedInteger() && width > 1,
                  /*implicitTrunc=*/true)));
}

Value NodeContext::tuple(ValueRange fields) {
  // A field that failed to build (reported) makes no tuple: the op that
  // takes it fails in turn.
  if (llvm::any_of(fields, [](Value v) { return !v; }))
    return {};
  return TupleOp::create(builder, loc, fields);
}

Value NodeContext::tupleGet(Value tuple, unsigned index) {
  if (!tuple)
    return {};
  return TupleGetOp::create(builder, loc, tuple, index);
}

DenseElementsAttr
mlir::relay::onnx_import::i64Elements(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                      ArrayRef<int64_t> values) {
  return DenseElementsAttr::get(
      RankedTensorType::get(shape, IntegerType::get(ctx, 64)), values);
}

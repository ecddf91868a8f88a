//===- RelationUtils.cpp - Helpers for writing type relations ---*- C++ -*-===//

#include "dialects/relay/RelationUtils.h"

#include "dialects/relay/RelayTypes.h"
#include "dialects/relay/TypeUtils.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::relay;

std::string mlir::relay::toString(const Dim &dim) {
  if (dim.symbol)
    return dim.symbol.str();
  if (!dim.isStatic())
    return "?";
  return std::to_string(dim.size);
}

Dim TensorInfo::product(int64_t begin, int64_t end) const {
  Dim result = Dim::of(1);
  for (int64_t i = begin; i < end; ++i)
    result = mulDims(result, dims[i]);
  return result;
}

TensorState mlir::relay::readTensor(Type type, TensorInfo &info) {
  info = TensorInfo();
  if (auto ranked = dyn_cast<RankedTensorType>(type)) {
    for (int64_t d : ranked.getShape())
      info.dims.push_back(Dim::of(d));
    info.dtype = ranked.getElementType();
    return TensorState::Tensor;
  }
  if (auto poly = dyn_cast<PolyTensorType>(type)) {
    if (poly.hasShapeVar())
      return TensorState::Unknown;
    for (Attribute d : poly.getDims()) {
      if (auto name = dyn_cast<StringAttr>(d))
        info.dims.push_back(Dim{ShapedType::kDynamic, name});
      else
        info.dims.push_back(Dim::of(cast<IntegerAttr>(d).getInt()));
    }
    info.dtype = poly.getDtype();
    return TensorState::Tensor;
  }
  if (isa<IncompleteType, TypeVarType, UnrankedTensorType>(type))
    return TensorState::Unknown;
  return TensorState::NotATensor;
}

Type mlir::relay::makeTensor(MLIRContext *ctx, ArrayRef<Dim> dims, Type dtype) {
  Builder b(ctx);
  SmallVector<Attribute> attrs;
  for (const Dim &d : dims)
    attrs.push_back(d.symbol ? Attribute(d.symbol)
                             : Attribute(b.getI64IntegerAttr(d.size)));
  return makeTensorType(ctx, nullptr, attrs, dtype);
}

Type mlir::relay::makeTensor(MLIRContext *ctx, ArrayRef<int64_t> dims,
                             Type dtype) {
  SmallVector<Dim> list;
  for (int64_t d : dims)
    list.push_back(Dim::of(d));
  return makeTensor(ctx, list, dtype);
}

Dim mlir::relay::mulDims(Dim a, Dim b) {
  if (a.isStatic() && b.isStatic()) {
    // A product past int64 saturates: the type's size check then reports
    // it as too large (it wrapped to a negative size).
    int64_t product;
    if (llvm::MulOverflow(a.size, b.size, product))
      return Dim::of(std::numeric_limits<int64_t>::max());
    return Dim::of(product);
  }
  // x * 1 keeps x, names included.
  if (a.isStatic() && a.size == 1)
    return b;
  if (b.isStatic() && b.size == 1)
    return a;
  return Dim::any();
}

Dim mlir::relay::addDims(Dim a, Dim b) {
  if (!a.isStatic() || !b.isStatic())
    return Dim::any();
  int64_t sum;
  if (llvm::AddOverflow(a.size, b.size, sum))
    return Dim::of(std::numeric_limits<int64_t>::max());
  return Dim::of(sum);
}

TensorState mlir::relay::readInputTensor(RelationArgs &args, unsigned i,
                                         TensorInfo &info) {
  TensorState state = readTensor(args.getInput(i), info);
  if (state == TensorState::NotATensor)
    args.emitError() << "expected a tensor for operand #" << i << ", got "
                     << args.getInput(i);
  return state;
}

FailureOr<int64_t> mlir::relay::normalizeAxis(RelationArgs &args, int64_t axis,
                                              int64_t rank, StringRef what) {
  if (axis < -rank || axis >= rank) {
    args.emitError() << what << " " << axis
                     << " is out of range for a tensor of rank " << rank
                     << " (expected in [" << -rank << ", " << rank << "))";
    return failure();
  }
  return axis < 0 ? axis + rank : axis;
}

FailureOr<Dim> mlir::relay::unifyDims(Dim a, Dim b) {
  if (a == b || b.isAny())
    return a;
  if (a.isAny())
    return b;
  return failure();
}

LogicalResult mlir::relay::expectInputType(RelationArgs &args, unsigned i,
                                           Type expected, StringRef what) {
  Type actual = args.getInput(i);
  TensorInfo info;
  if (readTensor(actual, info) == TensorState::Unknown &&
      !isa<PolyTensorType>(actual))
    return args.assignInput(i, expected);
  if (areCompatible(actual, expected))
    return success();
  args.emitError() << what << " must have type " << expected << ", got "
                   << actual;
  return failure();
}

RelationStatus mlir::relay::readIntegerVector(RelationArgs &args, unsigned i,
                                              TensorInfo &info,
                                              const Twine &what) {
  READ_TENSOR_OR_RETURN(args, i, info);
  if (info.getRank() != 1 || !isa<IntegerType>(info.dtype))
    return args.fail("expected " + what + " as a 1-d integer tensor, got " +
                     typeStr(args.getInput(i)));
  return RelationStatus::Solved;
}

bool mlir::relay::isFloatLike(Type dtype) {
  return isa<FloatType, TypeVarType>(dtype);
}

std::string mlir::relay::typeStr(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "'" << type << "'";
  return text;
}

FailureOr<relay::DataLayout> relay::DataLayout::parse(StringRef text) {
  relay::DataLayout layout;
  int64_t factor = 0;
  for (char c : text) {
    if (llvm::isDigit(c)) {
      factor = factor * 10 + (c - '0');
      if (factor > (int64_t(1) << 32))
        return failure();
      continue;
    }
    if (llvm::isUpper(c)) {
      if (factor != 0)
        return failure();
      layout.axes.push_back({c, 0});
    } else if (llvm::isLower(c)) {
      if (factor == 0)
        return failure();
      layout.axes.push_back({c, factor});
    } else {
      return failure();
    }
    factor = 0;
  }
  if (factor != 0)
    return failure();
  // Each primal axis once; each sub-axis needs its primal axis.
  for (auto [i, a] : llvm::enumerate(layout.axes)) {
    char primal = llvm::toUpper(a.name);
    if (a.factor != 0 && !layout.find(primal, /*sub=*/false))
      return failure();
    for (auto &b : ArrayRef(layout.axes).drop_front(i + 1))
      if (a.factor == 0 && b.name == a.name)
        return failure();
  }
  return layout;
}

SmallVector<size_t> relay::DataLayout::subAxes(char primal) const {
  SmallVector<size_t> found;
  for (auto [i, a] : llvm::enumerate(axes))
    if (a.factor != 0 && llvm::toUpper(a.name) == primal)
      found.push_back(i);
  return found;
}

int64_t relay::DataLayout::subFactor(char primal) const {
  int64_t factor = 1;
  for (size_t i : subAxes(primal))
    factor *= axes[i].factor;
  return factor;
}

std::optional<size_t> relay::DataLayout::find(char primal, bool sub) const {
  for (auto [i, a] : llvm::enumerate(axes))
    if (llvm::toUpper(a.name) == primal && (a.factor != 0) == sub)
      return i;
  return std::nullopt;
}

StridedSliceStarts mlir::relay::stridedSliceStarts(ArrayRef<int64_t> shape,
                                                   ArrayRef<int64_t> begin,
                                                   ArrayRef<int64_t> strides,
                                                   ArrayRef<int64_t> axes,
                                                   bool sizeMode) {
  int64_t rank = shape.size();
  StridedSliceStarts starts{SmallVector<int64_t>(rank, 0),
                            SmallVector<int64_t>(rank, 1)};
  SmallVector<int64_t> sliced(axes);
  if (sliced.empty())
    for (int64_t i = 0; i < static_cast<int64_t>(begin.size()); ++i)
      sliced.push_back(i);
  for (auto [i, a] : llvm::enumerate(sliced)) {
    int64_t axis = a < 0 ? a + rank : a;
    if (axis < 0 || axis >= rank)
      continue;
    int64_t s = strides.size() == 1  ? strides[0]
                : i < strides.size() ? strides[i]
                                     : 1;
    // In "size" mode strides are ignored.
    if (sizeMode || s == 0)
      s = 1;
    int64_t n = shape[axis];
    int64_t f = i < begin.size() ? begin[i] : (s > 0 ? 0 : n - 1);
    if (f < 0)
      f += n;
    f = s > 0 ? std::clamp<int64_t>(f, 0, n)
              : std::clamp<int64_t>(f, -1, n - 1);
    starts.first[axis] = f;
    starts.step[axis] = s;
  }
  return starts;
}

LogicalResult mlir::relay::checkSparseToDenseOperands(RelationArgs &args,
                                                      const TensorInfo &indices,
                                                      const TensorInfo &values,
                                                      const TensorInfo &fill,
                                                      int64_t rank) {
  bool indicesFit =
      isa<IntegerType>(indices.dtype) &&
      (indices.getRank() <= 1
           ? rank == 1
           : indices.getRank() == 2 &&
                 succeeded(unifyDims(indices.dims[1], Dim::of(rank))));
  if (!indicesFit) {
    args.fail("sparse_indices must be integers, [N] or 0-d for a 1-d "
              "output_shape, [N, " +
              Twine(rank) + "] for this one, got " + typeStr(args.getInput(0)));
    return failure();
  }
  if (values.getRank() > 1 ||
      (values.getRank() == 1 && indices.getRank() > 0 &&
       failed(unifyDims(values.dims[0], indices.dims[0])))) {
    args.fail("sparse_values must be 0-d or one per index, got " +
              typeStr(args.getInput(1)));
    return failure();
  }
  if (fill.getRank() != 0 || fill.dtype != values.dtype) {
    args.fail("default_value must be a 0-d tensor of the values' dtype, got " +
              typeStr(args.getInput(2)));
    return failure();
  }
  return success();
}

FailureOr<StringRef> mlir::relay::checkUpsamplingAttrs(RelationArgs &args,
                                                       const TensorInfo &data,
                                                       bool is3d) {
  StringRef first = is3d ? "NCDHW" : "NCHW", last = is3d ? "NDHWC" : "NHWC";
  StringRef layout = args.getString("layout", first);
  if (layout != first && layout != last) {
    args.fail("layout must be " + first + " or " + last + ", got \"" + layout +
              "\"");
    return failure();
  }
  if (data.getRank() != static_cast<int64_t>(layout.size()) ||
      !isFloatLike(data.dtype)) {
    args.fail("expected a " + Twine(layout.size()) + "-d (" + layout +
              ") float tensor, got " + typeStr(args.getInput(0)));
    return failure();
  }
  StringRef method = args.getString("method", "nearest_neighbor");
  StringRef linear = is3d ? "trilinear" : "bilinear";
  if (method != "nearest_neighbor" && method != linear) {
    args.fail("method must be \"nearest_neighbor\" or \"" + linear +
              "\", got \"" + method + "\"");
    return failure();
  }
  if (is3d) {
    StringRef coords =
        args.getString("coordinate_transformation_mode", "half_pixel");
    if (coords != "half_pixel" && coords != "align_corners" &&
        coords != "asymmetric") {
      args.fail("coordinate_transformation_mode must be half_pixel, "
                "align_corners or asymmetric, got \"" +
                coords + "\"");
      return failure();
    }
  }
  return layout;
}

RelationStatus mlir::relay::solveTopKResult(RelationArgs &args, Type values,
                                            Type indices) {
  StringRef ret = args.getString("ret_type", "both");
  if (ret == "values")
    return args.solve(values);
  if (ret == "indices")
    return args.solve(indices);
  if (ret != "both")
    return args.fail("ret_type must be both, values or indices, got '" + ret +
                     "'");
  return args.solve(TupleType::get(args.getContext(), {values, indices}));
}

namespace {
/// The reporter of a relation run inside another (runNestedRelation).
class NestedReporter : public TypeReporter {
public:
  NestedReporter(RelationArgs &outer, ArrayRef<Type> inputs,
                 ArrayRef<unsigned> refines, StringRef context)
      : outer(outer), inputs(inputs), refines(refines), context(context) {}

  LogicalResult assign(unsigned index, Type type) override {
    if (index >= inputs.size()) {
      output = type;
      if (refines.empty())
        return success();
      return outer.getReporter().assign(outer.getNumInputs(), type);
    }
    if (refines.empty() || type == inputs[index])
      return success();
    return outer.getReporter().assign(refines[index], type);
  }
  InFlightDiagnostic emitError() override {
    InFlightDiagnostic diag = outer.getReporter().emitError();
    if (!context.empty())
      diag.attachNote() << context;
    return diag;
  }

  Type output;

private:
  RelationArgs &outer;
  ArrayRef<Type> inputs;
  ArrayRef<unsigned> refines;
  StringRef context;
};
} // namespace

RelationStatus mlir::relay::runNestedRelation(
    RelationArgs &outer, StringRef name, ArrayRef<Type> inputs, Type &output,
    DictionaryAttr attrs, ArrayRef<unsigned> refines, StringRef context) {
  assert((refines.empty() || refines.size() == inputs.size()) &&
         "one outer input per inner input");
  const TypeRelationFn *relation = lookupTypeRelation(name);
  assert(relation && "unknown relation");
  NestedReporter reporter(outer, inputs, refines, context);
  SmallVector<Type> types(inputs);
  types.push_back(refines.empty() ? IncompleteType::get(outer.getContext())
                                  : outer.getOutput());
  RelationArgs inner(outer.getOpName(), types, inputs.size(),
                     attrs ? attrs : outer.getAttrs(), reporter);
  RelationStatus status = (*relation)(inner);
  output = reporter.output;
  return status;
}

RelationStatus mlir::relay::solveAsConvolution(RelationArgs &args,
                                               StringRef relation, Type weight,
                                               StringRef kernelLayout,
                                               ArrayRef<StringRef> dropped) {
  MLIRContext *ctx = args.getContext();
  NamedAttrList attrs(args.getAttrs());
  for (StringRef name : dropped)
    attrs.erase(name);
  attrs.set("kernel_layout", StringAttr::get(ctx, kernelLayout));
  Type result;
  if (RelationStatus s =
          runNestedRelation(args, relation, {args.getInput(0), weight}, result,
                            attrs.getDictionary(ctx));
      s != RelationStatus::Solved)
    return s;
  if (!result)
    return RelationStatus::Pending;
  return args.solve(result);
}

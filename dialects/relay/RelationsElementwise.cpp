//===- RelationsElementwise.cpp - Elementwise type relations ----*- C++ -*-===//
//
// Identity, Broadcast, BroadcastToBool, Cast, the initialisers (Init, Full,
// FullLike), Where, the per-channel relations (BiasAdd, PRelu) and
// FixedPointMultiply.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelationUtils.h"
#include "dialects/relay/TypeRelations.h"

#include "dialects/relay/RelayTypes.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::relay;

FailureOr<Dim> mlir::relay::broadcastDim(Dim a, Dim b) {
  if (a == b)
    return a;
  if (a.isStatic() && a.size == 1)
    return b;
  if (b.isStatic() && b.size == 1)
    return a;
  // `?` may be anything, so the other dimension decides.
  if (a.isAny())
    return b;
  if (b.isAny())
    return a;
  return failure();
}

FailureOr<SmallVector<Dim>> mlir::relay::broadcastDims(ArrayRef<Dim> a,
                                                       ArrayRef<Dim> b) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<Dim> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Align from the right; a missing dimension acts as 1.
    Dim da = i < rank - a.size() ? Dim::of(1) : a[i - (rank - a.size())];
    Dim db = i < rank - b.size() ? Dim::of(1) : b[i - (rank - b.size())];
    FailureOr<Dim> d = broadcastDim(da, db);
    if (failed(d))
      return failure();
    result[i] = *d;
  }
  return result;
}

FailureOr<SmallVector<int64_t>>
mlir::relay::broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  auto toDims = [](ArrayRef<int64_t> shape) {
    return llvm::map_to_vector(shape, [](int64_t d) { return Dim::of(d); });
  };
  FailureOr<SmallVector<Dim>> dims = broadcastDims(toDims(a), toDims(b));
  if (failed(dims))
    return failure();
  return llvm::map_to_vector(*dims, [](const Dim &d) { return d.size; });
}

/// Broadcast / BroadcastToBool over inputs 0 and 1.
static RelationStatus broadcastRelation(RelationArgs &args, bool toBool) {
  Type lhs = args.getInput(0), rhs = args.getInput(1);
  TensorInfo a, b;
  TensorState sa = readInputTensor(args, 0, a);
  TensorState sb = readInputTensor(args, 1, b);
  if (sa == TensorState::NotATensor || sb == TensorState::NotATensor)
    return RelationStatus::Failed;
  // Identical symbolic tensors broadcast to themselves whatever their shape.
  if (lhs == rhs && isa<PolyTensorType>(lhs) && !toBool)
    return args.solve(lhs);
  if (sa != TensorState::Tensor || sb != TensorState::Tensor)
    return RelationStatus::Pending;
  if (a.dtype != b.dtype) {
    InFlightDiagnostic diag = args.emitError();
    diag << "dtype mismatch between " << lhs << " and " << rhs;
    // `%x + 1` of a float tensor: the literal is an int32 scalar.
    auto intScalar = [](const TensorInfo &t) {
      return t.dims.empty() && t.dtype.isSignlessInteger(32);
    };
    if ((intScalar(a) && isa<FloatType>(b.dtype)) ||
        (intScalar(b) && isa<FloatType>(a.dtype)))
      diag << " (the literal 1 is an int32 scalar; 1f is float32, 1f16 "
              "float16)";
    return RelationStatus::Failed;
  }
  FailureOr<SmallVector<Dim>> dims = broadcastDims(a.dims, b.dims);
  if (failed(dims)) {
    args.emitError() << "cannot broadcast " << lhs << " with " << rhs;
    return RelationStatus::Failed;
  }
  Type dtype = toBool ? IntegerType::get(args.getContext(), 1) : a.dtype;
  return args.solve(makeTensor(args.getContext(), *dims, dtype));
}

FailureOr<Type> mlir::relay::inferBroadcastType(std::optional<Location> loc,
                                                StringRef opName, Type lhs,
                                                Type rhs, bool toBool) {
  // Runs the relation with a reporter that captures the result.
  struct Capture : TypeReporter {
    std::optional<Location> loc;
    MLIRContext *ctx;
    Type result;
    LogicalResult assign(unsigned, Type type) override {
      result = type;
      return success();
    }
    InFlightDiagnostic emitError() override {
      return loc ? mlir::emitError(*loc) : discardedError(ctx);
    }
  } capture;
  capture.loc = loc;
  capture.ctx = lhs.getContext();
  SmallVector<Type> types{lhs, rhs, IncompleteType::get(lhs.getContext())};
  RelationArgs args(opName, types, 2, DictionaryAttr(), capture);
  switch (broadcastRelation(args, toBool)) {
  case RelationStatus::Solved:
    return capture.result;
  case RelationStatus::Pending:
    return Type();
  case RelationStatus::Failed:
    return failure();
  }
  llvm_unreachable("unknown relation status");
}

/// Identity: the result has the operand's type.
static RelationStatus identityRelation(RelationArgs &args) {
  TensorInfo info;
  Type input = args.getInput(0);
  if (auto poly = dyn_cast<PolyTensorType>(input))
    return args.solve(poly);
  switch (readInputTensor(args, 0, info)) {
  case TensorState::NotATensor:
    return RelationStatus::Failed;
  case TensorState::Unknown:
    return RelationStatus::Pending;
  case TensorState::Tensor:
    return args.solve(input);
  }
  llvm_unreachable("unknown tensor state");
}

/// Softmax and friends: Identity with an axis that must exist.
static RelationStatus softmaxRelation(RelationArgs &args) {
  TensorInfo info;
  READ_TENSOR_OR_RETURN(args, 0, info);
  if (failed(normalizeAxis(args, args.getInt("axis", -1), info.getRank())))
    return RelationStatus::Failed;
  if (!isFloatLike(info.dtype))
    return args.fail("expected a float tensor, got " +
                     typeStr(args.getInput(0)));
  return args.solve(args.getInput(0));
}

/// Cast: the operand's shape with the `dtype` attribute's element type.
static RelationStatus castRelation(RelationArgs &args) {
  TensorInfo info;
  READ_TENSOR_OR_RETURN(args, 0, info);
  Type dtype = args.getDtype("dtype");
  if (!dtype)
    return args.fail("requires a 'dtype' attribute");
  return args.solve(makeTensor(args.getContext(), info.dims, dtype));
}

/// Reinterpret: Cast's type, between dtypes of the same width.
static RelationStatus reinterpretRelation(RelationArgs &args) {
  TensorInfo info;
  READ_TENSOR_OR_RETURN(args, 0, info);
  Type dtype = args.getDtype("dtype");
  if (!dtype)
    return args.fail("requires a 'dtype' attribute");
  if (!info.dtype.isIntOrFloat()) // a BaseType variable: not known yet
    return RelationStatus::Pending;
  unsigned from = info.dtype.getIntOrFloatBitWidth(),
           to = dtype.getIntOrFloatBitWidth();
  if (from == 1 || to == 1)
    return args.fail("works on dtypes of 8 bits or more, not on bool, "
                     "whose elements have no bit layout to read");
  if (from != to)
    return args.fail(llvm::formatv("keeps each element's bits, so dtype {0} "
                                   "({1} bits) must be as wide as the "
                                   "data's {2} ({3} bits)",
                                   typeStr(dtype), to, typeStr(info.dtype),
                                   from)
                         .str());
  return args.solve(makeTensor(args.getContext(), info.dims, dtype));
}

/// Reads the static `shape` attribute of an initialiser.
static FailureOr<SmallVector<int64_t>> readShapeAttr(RelationArgs &args) {
  std::optional<SmallVector<int64_t>> shape = args.getOptionalInts("shape");
  if (!shape) {
    args.emitError() << "requires a 'shape' attribute";
    return failure();
  }
  for (int64_t d : *shape)
    if (d < 0) {
      args.emitError() << "shape dimensions must be non-negative, got " << d;
      return failure();
    }
  return *shape;
}

/// Init (zeros, ones): a tensor of the `shape` and `dtype` attributes.
static RelationStatus initRelation(RelationArgs &args) {
  FailureOr<SmallVector<int64_t>> shape = readShapeAttr(args);
  if (failed(shape))
    return RelationStatus::Failed;
  Type dtype = args.getDtype("dtype");
  if (!dtype)
    dtype = Float32Type::get(args.getContext());
  return args.solve(makeTensor(args.getContext(), *shape, dtype));
}

/// Requires input #i to be a 0-d tensor (a scalar); returns its state.
static TensorState readScalarInput(RelationArgs &args, unsigned i,
                                   TensorInfo &info) {
  TensorState state = readInputTensor(args, i, info);
  if (state == TensorState::Tensor && info.getRank() != 0) {
    args.emitError() << "operand #" << i << " must be a scalar, got "
                     << args.getInput(i);
    return TensorState::NotATensor;
  }
  return state;
}

/// Full: `full(fill_value, shape=..., dtype=...)`.
static RelationStatus fullRelation(RelationArgs &args) {
  TensorInfo fill;
  TensorState state = readScalarInput(args, 0, fill);
  if (state == TensorState::NotATensor)
    return RelationStatus::Failed;
  FailureOr<SmallVector<int64_t>> shape = readShapeAttr(args);
  if (failed(shape))
    return RelationStatus::Failed;
  Type dtype = args.getDtype("dtype");
  if (!dtype) {
    if (state == TensorState::Unknown)
      return RelationStatus::Pending;
    dtype = fill.dtype;
  }
  return args.solve(makeTensor(args.getContext(), *shape, dtype));
}

/// FullLike: `full_like(data, fill_value)` has data's type.
static RelationStatus fullLikeRelation(RelationArgs &args) {
  TensorInfo fill;
  if (readScalarInput(args, 1, fill) == TensorState::NotATensor)
    return RelationStatus::Failed;
  return identityRelation(args);
}

/// Where: `where(cond, x, y)`; the three shapes broadcast, x and y share a
/// dtype.
static RelationStatus whereRelation(RelationArgs &args) {
  TensorInfo cond, x, y;
  TensorState states[] = {readInputTensor(args, 0, cond),
                          readInputTensor(args, 1, x),
                          readInputTensor(args, 2, y)};
  for (TensorState s : states)
    if (s == TensorState::NotATensor)
      return RelationStatus::Failed;
  for (TensorState s : states)
    if (s == TensorState::Unknown)
      return RelationStatus::Pending;
  if (x.dtype != y.dtype) {
    args.emitError() << "dtype mismatch between " << args.getInput(1) << " and "
                     << args.getInput(2);
    return RelationStatus::Failed;
  }
  FailureOr<SmallVector<Dim>> xy = broadcastDims(x.dims, y.dims);
  FailureOr<SmallVector<Dim>> all =
      succeeded(xy) ? broadcastDims(cond.dims, *xy) : xy;
  if (failed(all)) {
    args.emitError() << "cannot broadcast " << args.getInput(0) << ", "
                     << args.getInput(1) << " and " << args.getInput(2);
    return RelationStatus::Failed;
  }
  return args.solve(makeTensor(args.getContext(), *all, x.dtype));
}

/// BiasAdd / PRelu: input 1 is a vector of data's `axis` dimension; the
/// result has data's type. The vector's type is inferred when unknown.
static RelationStatus
channelVectorRelation(RelationArgs &args, int64_t defaultAxis, StringRef what) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  FailureOr<int64_t> axis =
      normalizeAxis(args, args.getInt("axis", defaultAxis), data.getRank());
  if (failed(axis))
    return RelationStatus::Failed;
  Type expected = makeTensor(args.getContext(), {data.dims[*axis]}, data.dtype);
  if (failed(expectInputType(args, 1, expected, what)))
    return RelationStatus::Failed;
  return args.solve(args.getInput(0));
}

/// Dropout: `(data, mask)`, both of data's type.
static RelationStatus dropoutRelation(RelationArgs &args) {
  TensorInfo info;
  READ_TENSOR_OR_RETURN(args, 0, info);
  double rate = args.getFloat("rate", 0.5);
  if (rate < 0 || rate > 1)
    return args.fail("rate must be in [0, 1], got " +
                     llvm::formatv("{0}", rate).str());
  Type data = args.getInput(0);
  return args.solve(TupleType::get(args.getContext(), {data, data}));
}

/// fixed_point_multiply: an int32 tensor's type; the multiplier a Q31
/// value (int32), the shift within [-32, 32].
/// fixed_point_multiply_per_axis: int32 data; int32 multipliers, left and
/// right shifts shaped as the data's (increasing) axes.
static RelationStatus fixedPointMultiplyPerAxisRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  if (!data.dtype.isSignlessInteger(32))
    return args.fail("expected int32 data, got " + typeStr(args.getInput(0)));
  SmallVector<int64_t> axes = args.getInts("axes");
  if (axes.empty())
    return args.fail("requires the quantization axes");
  SmallVector<Dim> along;
  int64_t previous = -1;
  for (int64_t a : axes) {
    FailureOr<int64_t> axis = normalizeAxis(args, a, data.getRank());
    if (failed(axis))
      return RelationStatus::Failed;
    if (*axis <= previous)
      return args.fail("axes must be increasing");
    previous = *axis;
    along.push_back(data.dims[*axis]);
  }
  const char *names[] = {"multipliers", "left shifts", "right shifts"};
  for (unsigned i = 1; i <= 3; ++i) {
    TensorInfo param;
    READ_TENSOR_OR_RETURN(args, i, param);
    bool fits = param.dtype.isSignlessInteger(32) &&
                param.getRank() == static_cast<int64_t>(along.size());
    for (size_t d = 0; fits && d < along.size(); ++d)
      fits = succeeded(unifyDims(param.dims[d], along[d]));
    if (!fits)
      return args.fail(
          Twine("the ") + names[i - 1] +
          " must be int32 and shaped as the data's axes (" +
          llvm::join(
              llvm::map_range(along, [](const Dim &d) { return toString(d); }),
              ", ") +
          "), got " + typeStr(args.getInput(i)));
  }
  return args.solve(args.getInput(0));
}

static RelationStatus fixedPointMultiplyRelation(RelationArgs &args) {
  TensorInfo info;
  READ_TENSOR_OR_RETURN(args, 0, info);
  if (!info.dtype.isSignlessInteger(32))
    return args.fail("expected an int32 tensor, got " +
                     typeStr(args.getInput(0)));
  int64_t multiplier = args.getInt("multiplier", 0),
          shift = args.getInt("shift", 0);
  if (multiplier < INT32_MIN || multiplier > INT32_MAX)
    return args.fail("multiplier must be an int32 value, got " +
                     Twine(multiplier));
  if (shift < -32 || shift > 32)
    return args.fail("shift must be within [-32, 32], got " + Twine(shift));
  return args.solve(args.getInput(0));
}

void mlir::relay::registerElementwiseRelations() {
  registerTypeRelation("FixedPointMultiply", fixedPointMultiplyRelation);
  registerTypeRelation("FixedPointMultiplyPerAxis",
                       fixedPointMultiplyPerAxisRelation);
  registerTypeRelation("Identity", identityRelation);
  registerTypeRelation("Broadcast", [](RelationArgs &args) {
    return broadcastRelation(args, /*toBool=*/false);
  });
  registerTypeRelation("BroadcastToBool", [](RelationArgs &args) {
    return broadcastRelation(args, /*toBool=*/true);
  });
  registerTypeRelation("Softmax", softmaxRelation);
  registerTypeRelation("Cast", castRelation);
  registerTypeRelation("Reinterpret", reinterpretRelation);
  registerTypeRelation("Init", initRelation);
  registerTypeRelation("Full", fullRelation);
  registerTypeRelation("FullLike", fullLikeRelation);
  registerTypeRelation("Where", whereRelation);
  registerTypeRelation("BiasAdd", [](RelationArgs &args) {
    return channelVectorRelation(args, 1, "bias");
  });
  registerTypeRelation("PRelu", [](RelationArgs &args) {
    return channelVectorRelation(args, 1, "alpha");
  });
  registerTypeRelation("Dropout", dropoutRelation);
}

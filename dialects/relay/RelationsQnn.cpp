//===- RelationsQnn.cpp - Relations of the quantized operators --*- C++ -*-===//
//
// The qnn.* operators and simulated_quantize. Each checks its
// quantization parameters (a float32 scale and an int32 zero point, scalars
// or vectors along the quantized axis) and the integer dtypes it accepts,
// then types its result; the products and convolutions run the relation of
// their float counterpart (Conv2D, Conv2DTranspose, Dense, BatchMatmul) on
// the data and weight, whose dtypes may differ (uint8 data, int8 weights).
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelationUtils.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;

/// Whether `t` is an integer dtype quantized values are stored in.
static bool isStorageInt(Type t) {
  auto i = dyn_cast<IntegerType>(t);
  return i && (i.getWidth() == 8 || i.getWidth() == 16 || i.getWidth() == 32);
}

static std::string dtypeList() { return "int8, uint8, int16, uint16, int32"; }

/// Checks input #i, a quantization parameter named `what` of dtype
/// `dtype`: a scalar, or a vector of 1 or `channels` elements (`channels`
/// unknown when the parameter cannot be per-channel). Pending while its
/// type is not known.
static RelationStatus checkParam(RelationArgs &args, unsigned i, StringRef what,
                                 Type dtype, std::optional<Dim> channels) {
  TensorInfo info;
  TensorState state = readInputTensor(args, i, info);
  if (state == TensorState::Unknown)
    return RelationStatus::Pending;
  if (state == TensorState::NotATensor)
    return RelationStatus::Failed;
  if (info.dtype != dtype)
    return args.fail(what + " must be " + typeStr(dtype) + " values, got " +
                     typeStr(args.getInput(i)));
  if (info.getRank() == 0)
    return RelationStatus::Solved;
  if (info.getRank() == 1) {
    Dim n = info.dims[0];
    if (!n.isStatic() || n.size == 1)
      return RelationStatus::Solved;
    if (channels && (!channels->isStatic() || channels->size == n.size))
      return RelationStatus::Solved;
  }
  std::string expected = "a scalar";
  if (channels)
    expected += " or a vector of " + toString(*channels) + " (one per channel)";
  return args.fail(what + " must be " + expected + ", got " +
                   typeStr(args.getInput(i)));
}

/// The dimension of `data` along the attribute `axisName` (the per-channel
/// axis); failure after reporting when the axis is out of range.
static FailureOr<Dim> channelDim(RelationArgs &args, const TensorInfo &data,
                                 StringRef axisName) {
  if (data.getRank() == 0)
    return Dim::of(1);
  FailureOr<int64_t> axis =
      normalizeAxis(args, args.getInt(axisName, -1), data.getRank(), axisName);
  if (failed(axis))
    return failure();
  return data.dims[*axis];
}

/// Combines the statuses of parameter checks: Failed wins, then Pending.
static RelationStatus both(RelationStatus a, RelationStatus b) {
  if (a == RelationStatus::Failed || b == RelationStatus::Failed)
    return RelationStatus::Failed;
  if (a == RelationStatus::Pending || b == RelationStatus::Pending)
    return RelationStatus::Pending;
  return RelationStatus::Solved;
}

static Type f32(RelationArgs &args) {
  return Float32Type::get(args.getContext());
}
static Type i32(RelationArgs &args) {
  return IntegerType::get(args.getContext(), 32);
}

/// The out_dtype attribute, or `dflt`; fails (reported) when it is not one
/// of the storage integer types.
static FailureOr<Type> intOutDtype(RelationArgs &args, Type dflt) {
  Type t = args.getDtype("out_dtype");
  if (!t)
    return dflt;
  if (!isStorageInt(t)) {
    args.emitError() << "out_dtype must be one of " << dtypeList() << ", got "
                     << typeStr(t);
    return failure();
  }
  return t;
}

/// Checks the scale at input `scale` and the zero point at `zeroPoint`,
/// named `prefix` + scale / zero_point.
static RelationStatus checkPair(RelationArgs &args, unsigned scale,
                                unsigned zeroPoint, StringRef prefix,
                                std::optional<Dim> channels) {
  return both(
      checkParam(args, scale, (prefix + "scale").str(), f32(args), channels),
      checkParam(args, zeroPoint, (prefix + "zero_point").str(), i32(args),
                 channels));
}

/// Reads input 0, float32 data, into `data`: Solved when it is, else the
/// status to return (Pending, or Failed after reporting).
static RelationStatus readFloat32Data(RelationArgs &args, TensorInfo &data) {
  READ_TENSOR_OR_RETURN(args, 0, data);
  if (!isa<Float32Type>(data.dtype))
    return args.fail("expected float32 data, got " + typeStr(args.getInput(0)));
  return RelationStatus::Solved;
}

static RelationStatus quantizeRelation(RelationArgs &args) {
  TensorInfo data;
  if (RelationStatus s = readFloat32Data(args, data);
      s != RelationStatus::Solved)
    return s;
  FailureOr<Dim> channels = channelDim(args, data, "axis");
  FailureOr<Type> out =
      intOutDtype(args, IntegerType::get(args.getContext(), 8));
  if (failed(channels) || failed(out))
    return RelationStatus::Failed;
  if (RelationStatus s = checkPair(args, 1, 2, "output_", *channels);
      s != RelationStatus::Solved)
    return s;
  return args.solve(makeTensor(args.getContext(), data.dims, *out));
}

/// Reads input 0, integer data, into `data`: Solved when it is one, else
/// the status to return (Pending, or Failed after reporting).
static RelationStatus readIntegerData(RelationArgs &args, TensorInfo &data) {
  READ_TENSOR_OR_RETURN(args, 0, data);
  if (!isStorageInt(data.dtype))
    return args.fail("expected integer data (" + dtypeList() + "), got " +
                     typeStr(args.getInput(0)));
  return RelationStatus::Solved;
}

static RelationStatus dequantizeRelation(RelationArgs &args) {
  TensorInfo data;
  if (RelationStatus s = readIntegerData(args, data);
      s != RelationStatus::Solved)
    return s;
  FailureOr<Dim> channels = channelDim(args, data, "axis");
  if (failed(channels))
    return RelationStatus::Failed;
  Type out = args.getDtype("out_dtype");
  if (!out)
    out = f32(args);
  if (!isa<Float32Type, Float16Type>(out))
    return args.fail("out_dtype must be float32 or float16, got " +
                     typeStr(out));
  if (RelationStatus s = checkPair(args, 1, 2, "input_", *channels);
      s != RelationStatus::Solved)
    return s;
  return args.solve(makeTensor(args.getContext(), data.dims, out));
}

static RelationStatus requantizeRelation(RelationArgs &args) {
  TensorInfo data;
  if (RelationStatus s = readIntegerData(args, data);
      s != RelationStatus::Solved)
    return s;
  FailureOr<Dim> channels = channelDim(args, data, "axis");
  FailureOr<Type> out =
      intOutDtype(args, IntegerType::get(args.getContext(), 8));
  if (failed(channels) || failed(out))
    return RelationStatus::Failed;
  StringRef rounding = args.getString("rounding", "None");
  if (rounding != "None" && rounding != "UPWARD" && rounding != "TONEAREST")
    return args.fail("rounding must be \"UPWARD\", \"TONEAREST\" or "
                     "\"None\", got \"" +
                     rounding + "\"");
  StringRef compute = args.getString("compute_dtype", "None");
  if (compute != "None" && compute != "int64" && compute != "float32" &&
      compute != "float64")
    return args.fail("compute_dtype must be \"int64\", \"float32\", "
                     "\"float64\" or \"None\", got \"" +
                     compute + "\"");
  // The input's parameters may be per channel; the output's too.
  RelationStatus s = both(checkPair(args, 1, 2, "input_", *channels),
                          checkPair(args, 3, 4, "output_", *channels));
  if (s != RelationStatus::Solved)
    return s;
  return args.solve(makeTensor(args.getContext(), data.dims, *out));
}

/// qnn.conv2d, qnn.conv2d_transpose, qnn.dense and qnn.batch_matmul: integer
/// data and weight
/// (their dtypes may differ), zero points at inputs 2 and 3, scales at 4
/// and 5; the weight's zero point and scale may be per output channel.
static RelationStatus productRelation(RelationArgs &args, StringRef floatName,
                                      StringRef dataName,
                                      StringRef weightName) {
  TensorInfo data, weight;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, weight);
  if (!isStorageInt(data.dtype) || !isStorageInt(weight.dtype) ||
      cast<IntegerType>(data.dtype).getWidth() > 16 ||
      cast<IntegerType>(weight.dtype).getWidth() > 16)
    return args.fail("expected int8, uint8, int16 or uint16 operands, got " +
                     typeStr(args.getInput(0)) + " and " +
                     typeStr(args.getInput(1)));
  FailureOr<Type> out = intOutDtype(args, i32(args));
  if (failed(out))
    return RelationStatus::Failed;
  // The float relation sees both operands in the data's dtype; the
  // output's dtype is out_dtype's (the attribute it reads).
  MLIRContext *ctx = args.getContext();
  Type weightAsData = makeTensor(ctx, weight.dims, data.dtype);
  NamedAttrList attrs(args.getAttrs());
  attrs.set("out_dtype", TypeAttr::get(*out));
  Type resultType;
  RelationStatus s =
      runNestedRelation(args, floatName, {args.getInput(0), weightAsData},
                        resultType, attrs.getDictionary(ctx), {0, 1});
  if (s != RelationStatus::Solved)
    return s;
  TensorInfo result;
  if (readTensor(resultType, result) != TensorState::Tensor)
    return RelationStatus::Pending;
  // Output channels: conv2d's along its layout's C, the products' last.
  std::optional<Dim> outChannels;
  if (floatName == "Conv2D") {
    StringRef layout = args.getString("out_layout", "");
    if (layout.empty())
      layout = args.getString("data_layout", "NCHW");
    size_t c = layout.find('C');
    if (c != StringRef::npos && c < size_t(result.getRank()))
      outChannels = result.dims[c];
  } else if (floatName == "Conv2DTranspose") {
    // Along the kernel layout's O axis.
    size_t o = args.getString("kernel_layout", "IOHW").find('O');
    if (o != StringRef::npos && o < size_t(weight.getRank()))
      outChannels = weight.dims[o];
  } else if (result.getRank() > 0) {
    outChannels = result.dims.back();
  }
  return both(both(checkParam(args, 2, (dataName + "_zero_point").str(),
                              i32(args), std::nullopt),
                   checkParam(args, 4, (dataName + "_scale").str(), f32(args),
                              std::nullopt)),
              both(checkParam(args, 3, (weightName + "_zero_point").str(),
                              i32(args), outChannels),
                   checkParam(args, 5, (weightName + "_scale").str(), f32(args),
                              outChannels)));
}

/// qnn.add, qnn.subtract, qnn.mul: operands of one integer dtype,
/// broadcast; the result has that dtype.
static RelationStatus binaryRelation(RelationArgs &args) {
  TensorInfo lhs, rhs;
  READ_TENSOR_OR_RETURN(args, 0, lhs);
  READ_TENSOR_OR_RETURN(args, 1, rhs);
  if (!isStorageInt(lhs.dtype))
    return args.fail("expected integer operands (" + dtypeList() + "), got " +
                     typeStr(args.getInput(0)));
  FailureOr<Dim> lc = channelDim(args, lhs, "lhs_axis");
  FailureOr<Dim> rc = channelDim(args, rhs, "rhs_axis");
  if (failed(lc) || failed(rc))
    return RelationStatus::Failed;
  Type broadcast;
  RelationStatus s =
      runNestedRelation(args, "Broadcast", {args.getInput(0), args.getInput(1)},
                        broadcast, {}, {0, 1});
  if (s != RelationStatus::Solved)
    return s;
  // qnn.mul requantizes from the product of the two scales: one each.
  bool mul = args.getOpName() == "qnn.mul";
  std::optional<Dim> lScales = mul ? std::nullopt : std::optional<Dim>(*lc);
  std::optional<Dim> rScales = mul ? std::nullopt : std::optional<Dim>(*rc);
  return both(both(both(checkParam(args, 2, "lhs_scale", f32(args), lScales),
                        checkParam(args, 3, "lhs_zero_point", i32(args), *lc)),
                   both(checkParam(args, 4, "rhs_scale", f32(args), rScales),
                        checkParam(args, 5, "rhs_zero_point", i32(args), *rc))),
              checkPair(args, 6, 7, "output_", std::nullopt));
}

/// Checks that input #i is a tuple of `n` scalar parameters of `dtype`.
static RelationStatus checkParamTuple(RelationArgs &args, unsigned i,
                                      StringRef what, Type dtype, size_t n) {
  Type t = args.getInput(i);
  auto tuple = dyn_cast<TupleType>(t);
  if (!tuple) {
    TensorInfo unused;
    if (readTensor(t, unused) == TensorState::Unknown && !isa<TensorType>(t))
      return RelationStatus::Pending;
    return args.fail(what + " must be a tuple of " + std::to_string(n) +
                     " scalars, got " + typeStr(t));
  }
  if (tuple.size() != n)
    return args.fail(what + " has " + std::to_string(tuple.size()) +
                     " values for " + std::to_string(n) + " inputs");
  for (Type field : tuple.getTypes()) {
    TensorInfo info;
    TensorState state = readTensor(field, info);
    if (state == TensorState::Unknown)
      return RelationStatus::Pending;
    if (state == TensorState::NotATensor || info.dtype != dtype ||
        info.getRank() > 1 ||
        (info.getRank() == 1 && info.dims[0] != Dim::of(1)))
      return args.fail(what + " must hold " + typeStr(dtype) +
                       " scalars, got " + typeStr(t));
  }
  return RelationStatus::Solved;
}

static RelationStatus concatenateRelation(RelationArgs &args) {
  auto data = dyn_cast<TupleType>(args.getInput(0));
  if (!data)
    return isa<TensorType>(args.getInput(0))
               ? args.fail("expected a tuple of tensors, got " +
                           typeStr(args.getInput(0)))
               : RelationStatus::Pending;
  for (Type field : data.getTypes()) {
    TensorInfo info;
    if (readTensor(field, info) == TensorState::Tensor &&
        !isStorageInt(info.dtype))
      return args.fail("expected integer tensors (" + dtypeList() + "), got " +
                       typeStr(args.getInput(0)));
  }
  Type concatenated;
  RelationStatus s = runNestedRelation(args, "Concatenate", {args.getInput(0)},
                                       concatenated, {}, {0});
  if (s != RelationStatus::Solved)
    return s;
  return both(
      both(checkParamTuple(args, 1, "input_scales", f32(args), data.size()),
           checkParamTuple(args, 2, "input_zero_points", i32(args),
                           data.size())),
      checkPair(args, 3, 4, "output_", std::nullopt));
}

static RelationStatus simulatedQuantizeRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  if (!isa<FloatType>(data.dtype))
    return args.fail("expected float data, got " + typeStr(args.getInput(0)));
  int64_t kind = args.getInt("kind", 0);
  if (kind < 0 || kind > 3)
    return args.fail("kind must be 0 (identity), 1 (input), 2 (weight) or "
                     "3 (activation), got " +
                     std::to_string(kind));
  if (!args.getBool("sign", true))
    return args.fail("only signed quantization is simulated (sign=True)");
  if (args.getString("rounding", "round") != "round")
    return args.fail("rounding must be \"round\", got \"" +
                     args.getString("rounding", "round") + "\"");
  Type f = f32(args);
  // dom_scale: a scalar, or a tensor that broadcasts to the data (a
  // weight's scales per output channel, [O, 1, 1, 1] for OIHW).
  TensorInfo scale;
  TensorState scaleState = readInputTensor(args, 1, scale);
  RelationStatus s = RelationStatus::Pending;
  if (scaleState == TensorState::NotATensor)
    return RelationStatus::Failed;
  if (scaleState == TensorState::Tensor) {
    if (scale.dtype != f)
      return args.fail("dom_scale must be float32 values, got " +
                       typeStr(args.getInput(1)));
    bool broadcasts = scale.getRank() <= data.getRank();
    for (int64_t i = 0; broadcasts && i < scale.getRank(); ++i) {
      Dim d = scale.dims[scale.getRank() - 1 - i];
      Dim x = data.dims[data.getRank() - 1 - i];
      broadcasts =
          !d.isStatic() || d.size == 1 || !x.isStatic() || d.size == x.size;
    }
    if (!broadcasts)
      return args.fail("dom_scale must be a scalar or broadcast to the data " +
                       typeStr(args.getInput(0)) + ", got " +
                       typeStr(args.getInput(1)));
    s = RelationStatus::Solved;
  }
  s = both(both(s, checkParam(args, 2, "clip_min", f, std::nullopt)),
           checkParam(args, 3, "clip_max", f, std::nullopt));
  if (s != RelationStatus::Solved)
    return s;
  return args.solve(args.getInput(0));
}

/// Reads input 0 of the qnn operators TVM defines on int8 and uint8 only.
static RelationStatus readInt8Data(RelationArgs &args, TensorInfo &data) {
  READ_TENSOR_OR_RETURN(args, 0, data);
  auto i = dyn_cast<IntegerType>(data.dtype);
  if (!i || i.getWidth() != 8)
    return args.fail("expected int8 or uint8 data, got " +
                     typeStr(args.getInput(0)));
  return RelationStatus::Solved;
}

/// The scalar scale and zero point of the data (inputs 1 and 2, named
/// `prefix` + scale / zero_point) and of the output (inputs 3 and 4).
static RelationStatus checkScalarPairs(RelationArgs &args, StringRef prefix) {
  return both(checkPair(args, 1, 2, prefix, std::nullopt),
              checkPair(args, 3, 4, "output_", std::nullopt));
}

/// qnn.abs, qnn.erf, ..., qnn.tanh, qnn.leaky_relu and (`softmax`)
/// qnn.softmax: int8 or uint8 data (of rank 1 or more with `axis` one of
/// its axes for softmax) and scalar parameters; the data's type.
static RelationStatus unaryRelation(RelationArgs &args, bool softmax) {
  TensorInfo data;
  if (RelationStatus s = readInt8Data(args, data); s != RelationStatus::Solved)
    return s;
  bool leaky = args.getOpName() == "qnn.leaky_relu";
  if (leaky && !std::isfinite(args.getFloat("alpha", 0.25)))
    return args.fail("alpha must be finite");
  if (softmax && data.getRank() == 0)
    return args.fail("expected data of rank 1 or more, got " +
                     typeStr(args.getInput(0)));
  if (softmax &&
      failed(normalizeAxis(args, args.getInt("axis", -1), data.getRank())))
    return RelationStatus::Failed;
  if (RelationStatus s = checkScalarPairs(args, leaky ? "input_" : "");
      s != RelationStatus::Solved)
    return s;
  return args.solve(args.getInput(0));
}

/// qnn.avg_pool2d: int8 or uint8 data pooled as nn.avg_pool2d's relation
/// says, in the data's dtype; scalar parameters.
static RelationStatus avgPool2dRelation(RelationArgs &args) {
  TensorInfo data;
  if (RelationStatus s = readInt8Data(args, data); s != RelationStatus::Solved)
    return s;
  if (RelationStatus s = checkScalarPairs(args, "input_");
      s != RelationStatus::Solved)
    return s;
  Type pooled;
  return runNestedRelation(args, "Pool2D", {args.getInput(0)}, pooled, {}, {0});
}

/// qnn.simulated_quantize and qnn.simulated_dequantize: float32 data, an
/// int32 scalar dtype code, a float32 scale and int32 zero point (scalars
/// or vectors along `axis`); the data's type.
static RelationStatus simulatedRelation(RelationArgs &args) {
  TensorInfo data;
  if (RelationStatus s = readFloat32Data(args, data);
      s != RelationStatus::Solved)
    return s;
  FailureOr<Dim> channels = channelDim(args, data, "axis");
  if (failed(channels))
    return RelationStatus::Failed;
  RelationStatus s = both(checkParam(args, 1, "dtype", i32(args), std::nullopt),
                          checkPair(args, 2, 3, "", *channels));
  if (s != RelationStatus::Solved)
    return s;
  return args.solve(args.getInput(0));
}

void mlir::relay::registerQnnRelations() {
  registerTypeRelation("QnnQuantize", quantizeRelation);
  registerTypeRelation("QnnDequantize", dequantizeRelation);
  registerTypeRelation("QnnRequantize", requantizeRelation);
  registerTypeRelation("QnnConv2D", [](RelationArgs &args) {
    return productRelation(args, "Conv2D", "input", "kernel");
  });
  registerTypeRelation("QnnConv2DTranspose", [](RelationArgs &args) {
    return productRelation(args, "Conv2DTranspose", "input", "kernel");
  });
  registerTypeRelation("QnnDense", [](RelationArgs &args) {
    return productRelation(args, "Dense", "input", "kernel");
  });
  registerTypeRelation("QnnBatchMatmul", [](RelationArgs &args) {
    return productRelation(args, "BatchMatmul", "x", "y");
  });
  registerTypeRelation("QnnBinary", binaryRelation);
  registerTypeRelation("QnnConcatenate", concatenateRelation);
  registerTypeRelation("SimulatedQuantize", simulatedQuantizeRelation);
  registerTypeRelation("QnnUnary", [](RelationArgs &args) {
    return unaryRelation(args, /*softmax=*/false);
  });
  registerTypeRelation("QnnSoftmax", [](RelationArgs &args) {
    return unaryRelation(args, /*softmax=*/true);
  });
  registerTypeRelation("QnnAvgPool2D", avgPool2dRelation);
  registerTypeRelation("QnnSimulatedQuantize", simulatedRelation);
}

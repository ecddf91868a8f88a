//===- RelationsNN.cpp - Neural-network type relations ----------*- C++ -*-===//
//
// Conv2D, Conv2DTranspose, Dense/Matmul, BatchMatmul, Pool2D, GlobalPool2D,
// AdaptivePool2D, BatchNorm, LayerNorm, UpSampling and UpSampling3D,
// Dilation2D, Correlation, and the 1-d and 3-d convolutions and poolings. Where
// TVM can infer a weight's type from the attributes (`channels`, `kernel_size`,
// `units`) so can these.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelationUtils.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;

namespace {
/// Positions of the batch, channel and spatial axes in a 2-d layout.
struct Layout2D {
  int64_t n, c, h, w;
};
/// Positions of the output-channel, input-channel and kernel axes.
struct KernelLayout {
  int64_t o, i, h, w;
};
} // namespace

static FailureOr<Layout2D> parseDataLayout(RelationArgs &args,
                                           StringRef attrName, StringRef dflt) {
  StringRef layout = args.getString(attrName, dflt);
  if (layout == "NCHW")
    return Layout2D{0, 1, 2, 3};
  if (layout == "NHWC")
    return Layout2D{0, 3, 1, 2};
  args.emitError() << attrName << " \"" << layout
                   << "\" is not supported (expected \"NCHW\" or \"NHWC\")";
  return failure();
}

/// Checks that `data` (input 0) is 4-d and parses its `layout` attribute.
static FailureOr<Layout2D> readImageLayout(RelationArgs &args,
                                           const TensorInfo &data) {
  if (data.getRank() != 4) {
    args.emitError() << "expected a 4-d tensor, got " << args.getInput(0);
    return failure();
  }
  return parseDataLayout(args, "layout", "NCHW");
}

static FailureOr<KernelLayout> parseKernelLayout(RelationArgs &args,
                                                 StringRef dflt) {
  StringRef layout = args.getString("kernel_layout", dflt);
  if (layout.size() == 4) {
    size_t o = layout.find('O'), i = layout.find('I'), h = layout.find('H'),
           w = layout.find('W');
    if (o != StringRef::npos && i != StringRef::npos && h != StringRef::npos &&
        w != StringRef::npos)
      return KernelLayout{static_cast<int64_t>(o), static_cast<int64_t>(i),
                          static_cast<int64_t>(h), static_cast<int64_t>(w)};
  }
  args.emitError() << "kernel_layout \"" << layout
                   << "\" is not supported (expected a permutation of OIHW)";
  return failure();
}

/// Reads a 2-element attribute (a single value means both).
static FailureOr<std::array<int64_t, 2>>
readPair(RelationArgs &args, StringRef name, int64_t dflt) {
  SmallVector<int64_t> v = args.getInts(name, {dflt, dflt});
  if (v.size() == 1)
    return std::array<int64_t, 2>{v[0], v[0]};
  if (v.size() != 2) {
    args.emitError() << name << " must have 1 or 2 values, got " << v.size();
    return failure();
  }
  return std::array<int64_t, 2>{v[0], v[1]};
}

/// Reads `padding` as (top, left, bottom, right) from 1, 2 or 4 values.
static FailureOr<std::array<int64_t, 4>> readPadding(RelationArgs &args) {
  SmallVector<int64_t> p = args.getInts("padding", {0, 0});
  for (int64_t v : p)
    if (v < 0) {
      args.emitError() << "padding must be non-negative";
      return failure();
    }
  if (p.size() == 1)
    return std::array<int64_t, 4>{p[0], p[0], p[0], p[0]};
  if (p.size() == 2)
    return std::array<int64_t, 4>{p[0], p[1], p[0], p[1]};
  if (p.size() == 4)
    return std::array<int64_t, 4>{p[0], p[1], p[2], p[3]};
  args.emitError() << "padding must have 1, 2 or 4 values, got " << p.size();
  return failure();
}

static LogicalResult checkPositive(RelationArgs &args, StringRef name,
                                   ArrayRef<int64_t> values) {
  for (int64_t v : values)
    if (v <= 0) {
      args.emitError() << name << " must be positive, got " << v;
      return failure();
    }
  return success();
}

/// The output size of a sliding window: `(in + pads - extent) / stride + 1`,
/// rounding up with `ceil`. Fails when the window does not fit.
static FailureOr<Dim> windowOutput(RelationArgs &args, Dim in, int64_t pads,
                                   int64_t kernel, int64_t dilation,
                                   int64_t stride, bool ceil,
                                   StringRef axisName) {
  if (!in.isStatic())
    return Dim::any();
  int64_t extent = (kernel - 1) * dilation + 1;
  int64_t span = in.size + pads - extent;
  if (span < 0) {
    args.emitError() << "the window (" << extent << ") is larger than the "
                     << axisName << " dimension " << in.size << " plus padding "
                     << pads;
    return failure();
  }
  return Dim::of((ceil ? (span + stride - 1) : span) / stride + 1);
}

static Type outDtype(RelationArgs &args, Type dflt) {
  Type t = args.getDtype("out_dtype");
  return t ? t : dflt;
}

//===----------------------------------------------------------------------===//
// Convolutions
//===----------------------------------------------------------------------===//

/// The input channels each group of a convolution sees; fails (reported)
/// when `groups` is not positive or does not divide the channels.
static FailureOr<Dim> channelsPerGroup(RelationArgs &args, Dim inChannels,
                                       int64_t groups) {
  if (groups <= 0) {
    args.emitError() << "groups must be positive";
    return failure();
  }
  if (!inChannels.isStatic())
    return Dim::any();
  if (inChannels.size % groups != 0) {
    args.emitError() << "the " << inChannels.size
                     << " input channels are not divisible by groups = "
                     << groups;
    return failure();
  }
  return Dim::of(inChannels.size / groups);
}

/// The size of a transposed convolution's output along one axis: (in - 1)
/// * stride - pads + dilation * (k - 1) + outputPadding + 1; Any where the
/// input or kernel size is; a located error when the padding leaves none.
static FailureOr<Dim> transposedOutput(RelationArgs &args, Dim in, Dim k,
                                       int64_t stride, int64_t dilation,
                                       int64_t pads, int64_t outputPadding) {
  if (!in.isStatic() || !k.isStatic())
    return Dim::any();
  int64_t size = (in.size - 1) * stride - pads + dilation * (k.size - 1) +
                 outputPadding + 1;
  if (size <= 0) {
    args.emitError() << "the padding leaves no output";
    return failure();
  }
  return Dim::of(size);
}

/// Checks nn.deformable_conv2d's offset (operand 1): (N, deformable_groups
/// * KH * KW * 2, OH, OW), in the data's layout (TVM's), for the data's N
/// and channels and the output's (OH, OW).
static RelationStatus checkDeformableOffset(RelationArgs &args,
                                            const TensorInfo &data,
                                            const Layout2D &dl, Dim kh, Dim kw,
                                            Dim oh, Dim ow) {
  TensorInfo offset;
  READ_TENSOR_OR_RETURN(args, 1, offset);
  int64_t groups = args.getInt("deformable_groups", 1);
  Dim channels = data.dims[dl.c];
  if (groups < 1 || (channels.isStatic() && channels.size % groups != 0))
    return args.fail("deformable_groups = " + Twine(groups) +
                     " must divide the data's " + toString(channels) +
                     " channels");
  Dim fields = mulDims(mulDims(Dim::of(2 * groups), kh), kw);
  SmallVector<Dim> expected(4);
  expected[dl.n] = data.dims[dl.n];
  expected[dl.c] = fields;
  expected[dl.h] = oh;
  expected[dl.w] = ow;
  bool matches = offset.getRank() == 4 && offset.dtype == data.dtype;
  for (unsigned i = 0; matches && i < 4; ++i)
    matches = succeeded(unifyDims(offset.dims[i], expected[i]));
  if (!matches) {
    std::string dims;
    for (unsigned i = 0; i < 4; ++i)
      dims += (i ? ", " : "") + toString(expected[i]);
    return args.fail("offset must be (" + Twine(dims) +
                     ") of the data's dtype (batch, deformable_groups * "
                     "kernel height * width * 2, output height, width, in "
                     "the data's layout), got " +
                     typeStr(args.getInput(1)));
  }
  return RelationStatus::Solved;
}

/// Whether a product's operands may have the dtypes `a` and `b`: the same,
/// or two integer types (TVM's x86 lowering of quantized products
/// multiplies uint8 data by int8 weights; each operand widens by its own
/// signedness).
static bool productDtypesAgree(Type a, Type b) {
  auto integer = [](Type t) { return isa<IntegerType>(t) && !t.isInteger(1); };
  return a == b || (integer(a) && integer(b));
}

/// nn.conv2d and nn.conv2d_transpose (data, weight), and
/// nn.deformable_conv2d (data, offset, weight).
static RelationStatus conv2dRelation(RelationArgs &args, bool transposed,
                                     bool deformable = false) {
  if (!deformable &&
      llvm::any_of(
          ArrayRef<StringRef>{"data_layout", "kernel_layout", "out_layout"},
          [&](StringRef name) {
            return isPackedLayout(args.getString(name, ""));
          }))
    return solveUnpackedConv2D(args, transposed);
  TensorInfo data, weight;
  READ_TENSOR_OR_RETURN(args, 0, data);
  MLIRContext *ctx = args.getContext();
  if (data.getRank() != 4)
    return args.fail("expected a 4-d data tensor, got " +
                     typeStr(args.getInput(0)));
  unsigned weightIndex = deformable ? 2 : 1;
  FailureOr<Layout2D> dl = parseDataLayout(args, "data_layout", "NCHW");
  FailureOr<KernelLayout> kl =
      parseKernelLayout(args, transposed ? "IOHW" : "OIHW");
  FailureOr<std::array<int64_t, 2>> strides = readPair(args, "strides", 1);
  FailureOr<std::array<int64_t, 2>> dilation = readPair(args, "dilation", 1);
  FailureOr<std::array<int64_t, 4>> pad = readPadding(args);
  if (failed(dl) || failed(kl) || failed(strides) || failed(dilation) ||
      failed(pad) || failed(checkPositive(args, "strides", *strides)) ||
      failed(checkPositive(args, "dilation", *dilation)))
    return RelationStatus::Failed;
  int64_t groups = args.getInt("groups", 1);
  Dim inChannels = data.dims[dl->c];
  FailureOr<Dim> perGroup = channelsPerGroup(args, inChannels, groups);
  if (failed(perGroup))
    return RelationStatus::Failed;
  std::optional<int64_t> channels = args.getOptionalInt("channels");
  std::optional<SmallVector<int64_t>> kernelSize =
      args.getOptionalInts("kernel_size");
  if (kernelSize && kernelSize->size() != 2)
    return args.fail("kernel_size must have 2 values");

  // The weight's (O, I, KH, KW) in kernel-layout positions. For a
  // transposed convolution `I` is the data's channels and `O` the output's
  // per group.
  TensorState ws = readInputTensor(args, weightIndex, weight);
  if (ws == TensorState::NotATensor)
    return RelationStatus::Failed;
  if (ws == TensorState::Unknown) {
    if (!channels || !kernelSize)
      return RelationStatus::Pending;
    SmallVector<Dim> dims(4);
    if (transposed) {
      dims[kl->i] = inChannels;
      dims[kl->o] = Dim::of(*channels / groups);
    } else {
      dims[kl->o] = Dim::of(*channels);
      dims[kl->i] = *perGroup;
    }
    dims[kl->h] = Dim::of((*kernelSize)[0]);
    dims[kl->w] = Dim::of((*kernelSize)[1]);
    Type weightType = makeTensor(ctx, dims, data.dtype);
    if (failed(args.assignInput(weightIndex, weightType)))
      return RelationStatus::Failed;
    weight = TensorInfo{dims, data.dtype};
  }
  if (weight.getRank() != 4)
    return args.fail("expected a 4-d weight tensor, got " +
                     typeStr(args.getInput(weightIndex)));
  if (!productDtypesAgree(data.dtype, weight.dtype))
    return args.fail("data " + typeStr(args.getInput(0)) + " and weight " +
                     typeStr(args.getInput(weightIndex)) +
                     " have different dtypes (only integer ones may differ)");
  Dim wo = weight.dims[kl->o], wi = weight.dims[kl->i];
  Dim kh = weight.dims[kl->h], kw = weight.dims[kl->w];
  if ((kh.isStatic() && kh.size <= 0) || (kw.isStatic() && kw.size <= 0))
    return args.fail("weight " + typeStr(args.getInput(weightIndex)) +
                     " has an empty kernel");
  Dim expectedIn = transposed ? inChannels : *perGroup;
  if (failed(unifyDims(wi, expectedIn)))
    return args.fail("weight " + typeStr(args.getInput(weightIndex)) + " has " +
                     toString(wi) + " input channels, expected " +
                     toString(expectedIn) + " (data channels / groups)");
  Dim outChannels = transposed ? mulDims(wo, Dim::of(groups)) : wo;
  if (channels && failed(unifyDims(outChannels, Dim::of(*channels))))
    return args.fail(
        "weight " + typeStr(args.getInput(weightIndex)) + " has " +
        toString(outChannels) +
        " output channels but channels = " + std::to_string(*channels));
  if (kernelSize && (failed(unifyDims(kh, Dim::of((*kernelSize)[0]))) ||
                     failed(unifyDims(kw, Dim::of((*kernelSize)[1])))))
    return args.fail("weight " + typeStr(args.getInput(weightIndex)) +
                     " does not match kernel_size");
  if (!transposed && groups > 1 && wo.isStatic() && wo.size % groups != 0)
    return args.fail("the " + std::to_string(wo.size) +
                     " output channels are not divisible by groups = " +
                     std::to_string(groups));

  Dim oh, ow;
  if (!transposed) {
    if (!kh.isStatic() || !kw.isStatic()) {
      oh = ow = Dim::any();
    } else {
      FailureOr<Dim> h =
          windowOutput(args, data.dims[dl->h], (*pad)[0] + (*pad)[2], kh.size,
                       (*dilation)[0], (*strides)[0], false, "height");
      if (failed(h))
        return RelationStatus::Failed;
      FailureOr<Dim> w =
          windowOutput(args, data.dims[dl->w], (*pad)[1] + (*pad)[3], kw.size,
                       (*dilation)[1], (*strides)[1], false, "width");
      if (failed(w))
        return RelationStatus::Failed;
      oh = *h;
      ow = *w;
    }
  } else {
    FailureOr<std::array<int64_t, 2>> outPad =
        readPair(args, "output_padding", 0);
    if (failed(outPad))
      return RelationStatus::Failed;
    FailureOr<Dim> h =
        transposedOutput(args, data.dims[dl->h], kh, (*strides)[0],
                         (*dilation)[0], (*pad)[0] + (*pad)[2], (*outPad)[0]);
    FailureOr<Dim> w =
        transposedOutput(args, data.dims[dl->w], kw, (*strides)[1],
                         (*dilation)[1], (*pad)[1] + (*pad)[3], (*outPad)[1]);
    if (failed(h) || failed(w))
      return RelationStatus::Failed;
    oh = *h;
    ow = *w;
  }
  FailureOr<Layout2D> ol = dl;
  if (!args.getString("out_layout", "").empty())
    ol = parseDataLayout(args, "out_layout", "");
  if (failed(ol))
    return RelationStatus::Failed;
  if (deformable)
    if (RelationStatus s =
            checkDeformableOffset(args, data, *dl, kh, kw, oh, ow);
        s != RelationStatus::Solved)
      return s;
  SmallVector<Dim> out(4);
  out[ol->n] = data.dims[dl->n];
  out[ol->c] = outChannels;
  out[ol->h] = oh;
  out[ol->w] = ow;
  return args.solve(makeTensor(ctx, out, outDtype(args, data.dtype)));
}

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

/// Dense and Matmul: `a` is [..., K] (or [K, M] transposed), `b` is [K, N]
/// (or [N, K] transposed, which is Dense's weight).
static RelationStatus matmulRelation(RelationArgs &args, bool isDense) {
  TensorInfo a, b;
  READ_TENSOR_OR_RETURN(args, 0, a);
  MLIRContext *ctx = args.getContext();
  bool transA = !isDense && args.getBool("transpose_a", false);
  bool transB = isDense || args.getBool("transpose_b", false);
  if (a.getRank() < 1 || (transA && a.getRank() != 2))
    return args.fail("expected a tensor of rank >= 1 (2 when transposed), "
                     "got " +
                     typeStr(args.getInput(0)));
  Dim k = transA ? a.dims[0] : a.dims.back();
  std::optional<int64_t> units = args.getOptionalInt("units");
  TensorState bs = readInputTensor(args, 1, b);
  if (bs == TensorState::NotATensor)
    return RelationStatus::Failed;
  if (bs == TensorState::Unknown) {
    if (!units)
      return RelationStatus::Pending;
    SmallVector<Dim> dims = transB ? SmallVector<Dim>{Dim::of(*units), k}
                                   : SmallVector<Dim>{k, Dim::of(*units)};
    if (failed(args.assignInput(1, makeTensor(ctx, dims, a.dtype))))
      return RelationStatus::Failed;
    b = TensorInfo{dims, a.dtype};
  }
  if (b.getRank() != 2)
    return args.fail("expected a 2-d weight, got " + typeStr(args.getInput(1)));
  Dim bk = transB ? b.dims[1] : b.dims[0];
  Dim n = transB ? b.dims[0] : b.dims[1];
  if (failed(unifyDims(k, bk)))
    return args.fail(
        "reduction dimensions differ: " + typeStr(args.getInput(0)) + " and " +
        typeStr(args.getInput(1)));
  if (units && failed(unifyDims(n, Dim::of(*units))))
    return args.fail("weight " + typeStr(args.getInput(1)) +
                     " does not have units = " + std::to_string(*units));
  if (!productDtypesAgree(a.dtype, b.dtype))
    return args.fail(
        "operands have different dtypes: " + typeStr(args.getInput(0)) +
        " and " + typeStr(args.getInput(1)) +
        " (only integer ones may differ)");
  SmallVector<Dim> out;
  if (transA)
    out.push_back(a.dims[1]);
  else
    out.append(a.dims.begin(), a.dims.end() - 1);
  out.push_back(n);
  return args.solve(makeTensor(ctx, out, outDtype(args, a.dtype)));
}

static RelationStatus batchMatmulRelation(RelationArgs &args) {
  TensorInfo x, y;
  READ_TENSOR_OR_RETURN(args, 0, x);
  READ_TENSOR_OR_RETURN(args, 1, y);
  if (x.getRank() != 3 || y.getRank() != 3)
    return args.fail("expected 3-d operands, got " + typeStr(args.getInput(0)) +
                     " and " + typeStr(args.getInput(1)));
  bool transA = args.getBool("transpose_a", false);
  bool transB = args.getBool("transpose_b", false);
  Dim m = transA ? x.dims[2] : x.dims[1];
  Dim k = transA ? x.dims[1] : x.dims[2];
  Dim yk = transB ? y.dims[2] : y.dims[1];
  Dim n = transB ? y.dims[1] : y.dims[2];
  if (failed(unifyDims(k, yk)))
    return args.fail(
        "reduction dimensions differ: " + typeStr(args.getInput(0)) + " and " +
        typeStr(args.getInput(1)));
  Dim bx = x.dims[0], by = y.dims[0], batch;
  if (bx.isStatic() && bx.size == 1)
    batch = by;
  else if (by.isStatic() && by.size == 1)
    batch = bx;
  else if (FailureOr<Dim> d = unifyDims(bx, by); succeeded(d))
    batch = *d;
  else
    return args.fail("batch dimensions differ: " + typeStr(args.getInput(0)) +
                     " and " + typeStr(args.getInput(1)));
  if (!productDtypesAgree(x.dtype, y.dtype))
    return args.fail(
        "operands have different dtypes: " + typeStr(args.getInput(0)) +
        " and " + typeStr(args.getInput(1)) +
        " (only integer ones may differ)");
  return args.solve(
      makeTensor(args.getContext(), {batch, m, n}, outDtype(args, x.dtype)));
}

//===----------------------------------------------------------------------===//
// Pooling and resizing
//===----------------------------------------------------------------------===//

/// The data of a 2-d image operator (pooling, upsampling) in a packed
/// `layout` (NCHW16c): the operator's relation `relation` types the data
/// unpacked to NCHW, and the result is packed back.
static std::optional<RelationStatus>
solveIfPacked(RelationArgs &args, StringRef relation, StringRef what) {
  if (!isPackedLayout(args.getString("layout", "NCHW")))
    return std::nullopt;
  return solveUnpacked(args, relation, what,
                       {{0, "layout", "NCHW", "NCHW", "data"}});
}

static RelationStatus pool2dRelation(RelationArgs &args) {
  if (std::optional<RelationStatus> s =
          solveIfPacked(args, "Pool2D", "pooling"))
    return *s;
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  FailureOr<Layout2D> layout = readImageLayout(args, data);
  if (failed(layout))
    return RelationStatus::Failed;
  std::optional<SmallVector<int64_t>> poolSize =
      args.getOptionalInts("pool_size");
  if (!poolSize)
    return args.fail("requires a 'pool_size' attribute");
  FailureOr<std::array<int64_t, 2>> pool = readPair(args, "pool_size", 1);
  FailureOr<std::array<int64_t, 2>> strides = readPair(args, "strides", 1);
  FailureOr<std::array<int64_t, 2>> dilation = readPair(args, "dilation", 1);
  FailureOr<std::array<int64_t, 4>> pad = readPadding(args);
  if (failed(pool) || failed(strides) || failed(dilation) || failed(pad) ||
      failed(checkPositive(args, "pool_size", *pool)) ||
      failed(checkPositive(args, "strides", *strides)) ||
      failed(checkPositive(args, "dilation", *dilation)))
    return RelationStatus::Failed;
  bool ceil = args.getBool("ceil_mode", false);
  FailureOr<Dim> h =
      windowOutput(args, data.dims[layout->h], (*pad)[0] + (*pad)[2],
                   (*pool)[0], (*dilation)[0], (*strides)[0], ceil, "height");
  if (failed(h))
    return RelationStatus::Failed;
  FailureOr<Dim> w =
      windowOutput(args, data.dims[layout->w], (*pad)[1] + (*pad)[3],
                   (*pool)[1], (*dilation)[1], (*strides)[1], ceil, "width");
  if (failed(w))
    return RelationStatus::Failed;
  SmallVector<Dim> out = data.dims;
  out[layout->h] = *h;
  out[layout->w] = *w;
  return args.solve(makeTensor(args.getContext(), out, data.dtype));
}

//===----------------------------------------------------------------------===//
// 1-d convolution and pooling (NCW data, OIW weights)
//===----------------------------------------------------------------------===//

/// One positive value of a 1-d window attribute (default `dflt`).
static FailureOr<int64_t> readSingle(RelationArgs &args, StringRef name,
                                     int64_t dflt) {
  std::optional<SmallVector<int64_t>> v = args.getOptionalInts(name);
  if (!v || v->empty())
    return dflt;
  if (v->size() != 1 || v->front() <= 0) {
    args.emitError() << name << " must be one positive value";
    return failure();
  }
  return v->front();
}

/// The left and right padding of a 1-d window: 1 or 2 values.
static FailureOr<std::array<int64_t, 2>> readPadding1d(RelationArgs &args) {
  std::optional<SmallVector<int64_t>> v = args.getOptionalInts("padding");
  if (!v || v->empty())
    return std::array<int64_t, 2>{0, 0};
  if (v->size() > 2 || llvm::any_of(*v, [](int64_t p) { return p < 0; })) {
    args.emitError() << "padding must be 1 or 2 non-negative values";
    return failure();
  }
  return std::array<int64_t, 2>{v->front(), v->back()};
}

static LogicalResult requireLayout(RelationArgs &args, StringRef name,
                                   StringRef only) {
  if (auto layout = dyn_cast_or_null<StringAttr>(args.getAttr(name)))
    if (!layout.getValue().empty() && layout.getValue() != only) {
      args.emitError() << name << " '" << layout.getValue()
                       << "' is not supported (only " << only << ")";
      return failure();
    }
  return success();
}

/// The window of a 1-d convolution: stride, dilation, [left, right] pads.
struct Window1D {
  int64_t stride, dilation;
  std::array<int64_t, 2> pad;
};

/// Reads the window attributes of a 1-d convolution with NCW data and
/// `kernelLayout` weights; fails (reported) on a bad value or layout.
static FailureOr<Window1D> readConv1dWindow(RelationArgs &args,
                                            StringRef kernelLayout) {
  FailureOr<int64_t> stride = readSingle(args, "strides", 1);
  FailureOr<int64_t> dilation = readSingle(args, "dilation", 1);
  FailureOr<std::array<int64_t, 2>> pad = readPadding1d(args);
  if (failed(stride) || failed(dilation) || failed(pad) ||
      failed(requireLayout(args, "data_layout", "NCW")) ||
      failed(requireLayout(args, "kernel_layout", kernelLayout)))
    return failure();
  return Window1D{*stride, *dilation, *pad};
}

static RelationStatus conv1dRelation(RelationArgs &args) {
  TensorInfo data, weight;
  READ_TENSOR_OR_RETURN(args, 0, data);
  if (data.getRank() != 3)
    return args.fail("expected a 3-d (NCW) data tensor, got " +
                     typeStr(args.getInput(0)));
  FailureOr<Window1D> window = readConv1dWindow(args, "OIW");
  if (failed(window))
    return RelationStatus::Failed;
  FailureOr<Dim> groupChannels =
      channelsPerGroup(args, data.dims[1], args.getInt("groups", 1));
  if (failed(groupChannels))
    return RelationStatus::Failed;
  Dim perGroup = *groupChannels;
  TensorState ws = readInputTensor(args, 1, weight);
  if (ws == TensorState::NotATensor)
    return RelationStatus::Failed;
  if (ws == TensorState::Unknown) {
    std::optional<int64_t> channels = args.getOptionalInt("channels");
    std::optional<SmallVector<int64_t>> k = args.getOptionalInts("kernel_size");
    if (!channels || !k || k->size() != 1)
      return RelationStatus::Pending;
    SmallVector<Dim> dims = {Dim::of(*channels), perGroup, Dim::of(k->front())};
    if (failed(args.assignInput(
            1, makeTensor(args.getContext(), dims, data.dtype))))
      return RelationStatus::Failed;
    weight = TensorInfo{dims, data.dtype};
  }
  if (weight.getRank() != 3 || weight.dtype != data.dtype)
    return args.fail("expected a 3-d (OIW) weight tensor of the data's "
                     "dtype, got " +
                     typeStr(args.getInput(1)));
  if (failed(unifyDims(weight.dims[1], perGroup)))
    return args.fail("weight " + typeStr(args.getInput(1)) + " has " +
                     toString(weight.dims[1]) + " input channels, expected " +
                     toString(perGroup) + " (data channels / groups)");
  Dim kw = weight.dims[2];
  if (kw.isStatic() && kw.size <= 0)
    return args.fail("weight " + typeStr(args.getInput(1)) +
                     " has an empty kernel");
  Dim out = Dim::any();
  if (kw.isStatic()) {
    FailureOr<Dim> w =
        windowOutput(args, data.dims[2], window->pad[0] + window->pad[1],
                     kw.size, window->dilation, window->stride, false, "width");
    if (failed(w))
      return RelationStatus::Failed;
    out = *w;
  }
  return args.solve(makeTensor(args.getContext(),
                               {data.dims[0], weight.dims[0], out},
                               outDtype(args, data.dtype)));
}

static RelationStatus pool1dRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  if (data.getRank() != 3)
    return args.fail("expected a 3-d (NCW) data tensor, got " +
                     typeStr(args.getInput(0)));
  if (!args.getOptionalInts("pool_size"))
    return args.fail("requires a 'pool_size' attribute");
  FailureOr<int64_t> pool = readSingle(args, "pool_size", 1);
  FailureOr<int64_t> stride = readSingle(args, "strides", 1);
  FailureOr<int64_t> dilation = readSingle(args, "dilation", 1);
  FailureOr<std::array<int64_t, 2>> pad = readPadding1d(args);
  if (failed(pool) || failed(stride) || failed(dilation) || failed(pad) ||
      failed(requireLayout(args, "layout", "NCW")))
    return RelationStatus::Failed;
  FailureOr<Dim> w =
      windowOutput(args, data.dims[2], (*pad)[0] + (*pad)[1], *pool, *dilation,
                   *stride, args.getBool("ceil_mode", false), "width");
  if (failed(w))
    return RelationStatus::Failed;
  return args.solve(makeTensor(args.getContext(),
                               {data.dims[0], data.dims[1], *w}, data.dtype));
}

/// AdaptivePool1D: NCW data; `output_size` (one value) or the width kept.
static RelationStatus adaptivePool1dRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  if (data.getRank() != 3)
    return args.fail("expected a 3-d (NCW) data tensor, got " +
                     typeStr(args.getInput(0)));
  if (failed(requireLayout(args, "layout", "NCW")))
    return RelationStatus::Failed;
  SmallVector<Dim> dims = data.dims;
  if (std::optional<SmallVector<int64_t>> size =
          args.getOptionalInts("output_size");
      size && !size->empty()) {
    if (size->size() != 1 || size->front() <= 0)
      return args.fail("output_size must be one positive value");
    dims[2] = Dim::of(size->front());
  }
  return args.solve(makeTensor(args.getContext(), dims, data.dtype));
}

/// Conv1DTranspose: NCW data, IOW weights; the width grows by the stride.
static RelationStatus conv1dTransposeRelation(RelationArgs &args) {
  TensorInfo data, weight;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, weight);
  if (data.getRank() != 3 || weight.getRank() != 3 ||
      weight.dtype != data.dtype)
    return args.fail("expected 3-d (NCW) data and (IOW) weights of one "
                     "dtype, got " +
                     typeStr(args.getInput(0)) + " and " +
                     typeStr(args.getInput(1)));
  FailureOr<Window1D> window = readConv1dWindow(args, "IOW");
  int64_t groups = args.getInt("groups", 1);
  if (failed(window) || failed(channelsPerGroup(args, data.dims[1], groups)))
    return RelationStatus::Failed;
  if (failed(unifyDims(weight.dims[0], data.dims[1])))
    return args.fail("weight " + typeStr(args.getInput(1)) + " has " +
                     toString(weight.dims[0]) + " input channels, expected " +
                     toString(data.dims[1]));
  int64_t outputPadding = 0;
  if (std::optional<SmallVector<int64_t>> op =
          args.getOptionalInts("output_padding");
      op && !op->empty())
    outputPadding = op->front();
  if (outputPadding < 0 ||
      outputPadding >= std::max(window->stride, window->dilation))
    return args.fail("output_padding must be smaller than the stride or the "
                     "dilation");
  FailureOr<Dim> out = transposedOutput(
      args, data.dims[2], weight.dims[2], window->stride, window->dilation,
      window->pad[0] + window->pad[1], outputPadding);
  if (failed(out))
    return RelationStatus::Failed;
  return args.solve(
      makeTensor(args.getContext(),
                 {data.dims[0], mulDims(weight.dims[1], Dim::of(groups)), *out},
                 outDtype(args, data.dtype)));
}

/// GlobalPool2D and AdaptivePool2D (global is output_size = 1x1).
static RelationStatus adaptivePool2dRelation(RelationArgs &args, bool global) {
  if (std::optional<RelationStatus> s = solveIfPacked(
          args, global ? "GlobalPool2D" : "AdaptivePool2D", "pooling"))
    return *s;
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  FailureOr<Layout2D> layout = readImageLayout(args, data);
  if (failed(layout))
    return RelationStatus::Failed;
  SmallVector<Dim> out = data.dims;
  if (global) {
    out[layout->h] = out[layout->w] = Dim::of(1);
  } else if (std::optional<SmallVector<int64_t>> size =
                 args.getOptionalInts("output_size");
             size && !size->empty()) {
    if (size->size() > 2)
      return args.fail("output_size must have 1 or 2 values");
    if (failed(checkPositive(args, "output_size", *size)))
      return RelationStatus::Failed;
    out[layout->h] = Dim::of((*size)[0]);
    out[layout->w] = Dim::of(size->size() == 2 ? (*size)[1] : (*size)[0]);
  }
  return args.solve(makeTensor(args.getContext(), out, data.dtype));
}

/// An upsampled size as TVM computes it: round(size * scale) in float32,
/// half to even (its relation's tvm::round of a constant).
static Dim scaledDim(Dim d, double scale) {
  if (!d.isStatic())
    return Dim::any();
  return Dim::of(static_cast<int64_t>(
      std::nearbyint(static_cast<float>(d.size) * static_cast<float>(scale))));
}

static RelationStatus upsamplingRelation(RelationArgs &args) {
  if (std::optional<RelationStatus> s =
          solveIfPacked(args, "UpSampling", "upsampling"))
    return *s;
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  FailureOr<Layout2D> layout = readImageLayout(args, data);
  if (failed(layout))
    return RelationStatus::Failed;
  StringRef method = args.getString("method", "nearest_neighbor");
  if (method != "nearest_neighbor" && method != "bilinear" &&
      method != "bicubic")
    return args.fail("method must be \"nearest_neighbor\", \"bilinear\" or "
                     "\"bicubic\", got \"" +
                     method + "\"");
  double scales[2] = {args.getFloat("scale_h", 1.0),
                      args.getFloat("scale_w", 1.0)};
  if (scales[0] <= 0 || scales[1] <= 0)
    return args.fail("scale_h and scale_w must be positive");
  SmallVector<Dim> out = data.dims;
  int64_t axes[2] = {layout->h, layout->w};
  for (int i = 0; i < 2; ++i)
    out[axes[i]] = scaledDim(data.dims[axes[i]], scales[i]);
  return args.solve(makeTensor(args.getContext(), out, data.dtype));
}

/// nn.upsampling3d: NCDHW or NDHWC, each of D, H, W scaled as
/// nn.upsampling's.
static RelationStatus upsampling3dRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  FailureOr<StringRef> layout = checkUpsamplingAttrs(args, data, /*is3d=*/true);
  if (failed(layout))
    return RelationStatus::Failed;
  static const char *const names[] = {"scale_d", "scale_h", "scale_w"};
  SmallVector<Dim> out = data.dims;
  int64_t first = *layout == "NCDHW" ? 2 : 1;
  for (int i = 0; i < 3; ++i) {
    double scale = args.getFloat(names[i], 1.0);
    if (!(scale > 0))
      return args.fail(Twine(names[i]) + " must be positive");
    out[first + i] = scaledDim(data.dims[first + i], scale);
    if (out[first + i].isStatic() && out[first + i].size <= 0)
      return args.fail(Twine(names[i]) + " leaves no output");
  }
  return args.solve(makeTensor(args.getContext(), out, data.dtype));
}

/// image.dilation2d: data NCHW (weight [C, KH, KW], IHW) or NHWC (weight
/// [KH, KW, C], HWI); the output's size as a convolution's.
static RelationStatus dilation2dRelation(RelationArgs &args) {
  TensorInfo data, weight;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, weight);
  StringRef layout = args.getString("data_layout", "NCHW"),
            kernel = args.getString("kernel_layout", "IHW");
  bool nchw = layout == "NCHW";
  if ((layout != "NCHW" && layout != "NHWC") ||
      kernel != (nchw ? "IHW" : "HWI"))
    return args.fail("data_layout and kernel_layout must be NCHW and IHW or "
                     "NHWC and HWI, got " +
                     layout + " and " + kernel);
  if (data.getRank() != 4)
    return args.fail("expected a 4-d (" + layout + ") data tensor, got " +
                     typeStr(args.getInput(0)));
  int64_t c = nchw ? 1 : 3, h = nchw ? 2 : 1;
  if (weight.getRank() != 3 || weight.dtype != data.dtype ||
      failed(unifyDims(weight.dims[nchw ? 0 : 2], data.dims[c])))
    return args.fail(
        "expected a weight [" + Twine(nchw ? "C, KH, KW" : "KH, KW, C") +
        "] of the data's channels and dtype, got " + typeStr(args.getInput(1)));
  SmallVector<int64_t> strides = args.getInts("strides", {1, 1}),
                       dilations = args.getInts("dilations", {1, 1});
  if (strides.size() != 2 || dilations.size() != 2)
    return args.fail("strides and dilations must have 2 values");
  FailureOr<std::array<int64_t, 4>> pad = readPadding(args);
  if (failed(pad) || failed(checkPositive(args, "strides", strides)) ||
      failed(checkPositive(args, "dilations", dilations)))
    return RelationStatus::Failed;
  SmallVector<Dim> out = data.dims;
  for (int i = 0; i < 2; ++i) {
    Dim k = weight.dims[nchw ? i + 1 : i];
    if (!k.isStatic()) {
      out[h + i] = Dim::any();
      continue;
    }
    FailureOr<Dim> size = windowOutput(
        args, data.dims[h + i], (*pad)[i] + (*pad)[i + 2], k.size, dilations[i],
        strides[i], /*ceil=*/false, i ? "width" : "height");
    if (failed(size))
      return RelationStatus::Failed;
    out[h + i] = *size;
  }
  return args.solve(
      makeTensor(args.getContext(), out, outDtype(args, data.dtype)));
}

/// nn.correlation: two NCHW maps of one type; [N, (2r + 1)^2, out_h,
/// out_w], r = max_displacement / stride2, each output size ceil((padded -
/// 2 * border) / stride1), border = max_displacement + (kernel_size - 1) /
/// 2.
static RelationStatus correlationRelation(RelationArgs &args) {
  TensorInfo a, b;
  READ_TENSOR_OR_RETURN(args, 0, a);
  READ_TENSOR_OR_RETURN(args, 1, b);
  if (args.getString("layout", "NCHW") != "NCHW")
    return args.fail("layout must be NCHW");
  if (a.getRank() != 4 || !isFloatLike(a.dtype))
    return args.fail("expected a 4-d (NCHW) float tensor, got " +
                     typeStr(args.getInput(0)));
  bool same = b.getRank() == 4 && b.dtype == a.dtype;
  for (int64_t i = 0; same && i < 4; ++i)
    same = succeeded(unifyDims(a.dims[i], b.dims[i]));
  if (!same)
    return args.fail("expected data2 of data1's type " +
                     typeStr(args.getInput(0)) + ", got " +
                     typeStr(args.getInput(1)));
  int64_t k = args.getInt("kernel_size", 1),
          disp = args.getInt("max_displacement", 1),
          s1 = args.getInt("stride1", 1), s2 = args.getInt("stride2", 1);
  if (k <= 0 || k % 2 == 0)
    return args.fail("kernel_size must be a positive odd number, got " +
                     Twine(k));
  if (disp < 0 || s1 <= 0 || s2 <= 0)
    return args.fail("max_displacement must be non-negative and stride1, "
                     "stride2 positive");
  SmallVector<int64_t> p = args.getInts("padding", {0, 0});
  if ((p.size() != 2 && p.size() != 4) ||
      llvm::any_of(p, [](int64_t v) { return v < 0; }))
    return args.fail("padding must be 2 or 4 non-negative values");
  int64_t pads[2] = {p.size() == 2 ? 2 * p[0] : p[0] + p[2],
                     p.size() == 2 ? 2 * p[1] : p[1] + p[3]};
  int64_t border = disp + (k - 1) / 2, radius = disp / s2;
  SmallVector<Dim> out = {a.dims[0],
                          Dim::of((2 * radius + 1) * (2 * radius + 1)),
                          Dim::any(), Dim::any()};
  for (int i = 0; i < 2; ++i) {
    Dim in = a.dims[2 + i];
    if (!in.isStatic())
      continue;
    int64_t span = in.size + pads[i] - 2 * border;
    if (span <= 0)
      return args.fail("the " + Twine(i ? "width" : "height") + " " +
                       Twine(in.size) + " plus padding " + Twine(pads[i]) +
                       " leaves no position " + Twine(border) +
                       " from each side (max_displacement plus the kernel's "
                       "radius)");
    out[2 + i] = Dim::of((span + s1 - 1) / s1);
  }
  return args.solve(makeTensor(args.getContext(), out, a.dtype));
}

//===----------------------------------------------------------------------===//
// Normalisation
//===----------------------------------------------------------------------===//

/// BatchNorm (5 inputs, 3-tuple result) and LayerNorm (3 inputs, data's
/// type): the parameters are vectors over the `axis` dimension.
static RelationStatus normRelation(RelationArgs &args, bool batchNorm) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  FailureOr<int64_t> axis = normalizeAxis(
      args, args.getInt("axis", batchNorm ? 1 : -1), data.getRank());
  if (failed(axis))
    return RelationStatus::Failed;
  if (!isFloatLike(data.dtype))
    return args.fail("expected a float tensor, got " +
                     typeStr(args.getInput(0)));
  Type vector = makeTensor(args.getContext(), {data.dims[*axis]}, data.dtype);
  static const char *const names[] = {"gamma", "beta", "moving_mean",
                                      "moving_var"};
  for (unsigned i = 1; i < args.getNumInputs(); ++i)
    if (failed(expectInputType(args, i, vector, names[i - 1])))
      return RelationStatus::Failed;
  Type dataType = args.getInput(0);
  if (!batchNorm)
    return args.solve(dataType);
  return args.solve(
      TupleType::get(args.getContext(), {dataType, vector, vector}));
}

/// GroupNorm: LayerNorm's, with channels that split into `num_groups`.
static RelationStatus groupNormRelation(RelationArgs &args) {
  RelationStatus status = normRelation(args, /*batchNorm=*/false);
  if (status != RelationStatus::Solved)
    return status;
  int64_t groups = args.getInt("num_groups", 0);
  if (groups < 1)
    return args.fail("num_groups must be positive, got " + Twine(groups));
  TensorInfo data;
  if (readTensor(args.getInput(0), data) != TensorState::Tensor)
    return status;
  int64_t axis = args.getInt("axis", 1);
  const Dim &channels = data.dims[axis < 0 ? axis + data.getRank() : axis];
  if (channels.isStatic() && channels.size % groups != 0)
    return args.fail("the " + Twine(channels.size) +
                     " channels do not split into " + Twine(groups) +
                     " groups");
  return status;
}

//===----------------------------------------------------------------------===//
// 3-d convolution and pooling (NCDHW data, OIDHW weights)
//===----------------------------------------------------------------------===//

/// A window attribute of a 3-d op: 1 value (every axis) or 3 (depth,
/// height, width), each positive; `dflt` when absent.
static FailureOr<std::array<int64_t, 3>>
readTriple(RelationArgs &args, StringRef name, int64_t dflt) {
  std::optional<SmallVector<int64_t>> v = args.getOptionalInts(name);
  if (!v || v->empty())
    return std::array<int64_t, 3>{dflt, dflt, dflt};
  if ((v->size() != 1 && v->size() != 3) ||
      llvm::any_of(*v, [](int64_t x) { return x <= 0; })) {
    args.emitError() << name << " must have 1 or 3 positive values, got "
                     << v->size() << " value" << (v->size() == 1 ? "" : "s");
    return failure();
  }
  if (v->size() == 1)
    return std::array<int64_t, 3>{v->front(), v->front(), v->front()};
  return std::array<int64_t, 3>{(*v)[0], (*v)[1], (*v)[2]};
}

/// The padding of a 3-d window as (front, top, left, back, bottom, right)
/// from 1, 3 (each axis both sides) or 6 non-negative values.
static FailureOr<std::array<int64_t, 6>> readPadding3d(RelationArgs &args) {
  std::optional<SmallVector<int64_t>> v = args.getOptionalInts("padding");
  if (!v || v->empty())
    return std::array<int64_t, 6>{0, 0, 0, 0, 0, 0};
  const SmallVector<int64_t> &p = *v;
  if ((p.size() != 1 && p.size() != 3 && p.size() != 6) ||
      llvm::any_of(p, [](int64_t x) { return x < 0; })) {
    args.emitError() << "padding must have 1, 3 or 6 non-negative values, got "
                     << p.size();
    return failure();
  }
  if (p.size() == 1)
    return std::array<int64_t, 6>{p[0], p[0], p[0], p[0], p[0], p[0]};
  if (p.size() == 3)
    return std::array<int64_t, 6>{p[0], p[1], p[2], p[0], p[1], p[2]};
  return std::array<int64_t, 6>{p[0], p[1], p[2], p[3], p[4], p[5]};
}

/// The output depth, height and width of a 3-d window over `data`
/// (NCDHW); null dims where the input's are unknown.
static FailureOr<SmallVector<Dim>>
window3dOutput(RelationArgs &args, const TensorInfo &data,
               ArrayRef<int64_t> kernel, ArrayRef<int64_t> dilation,
               ArrayRef<int64_t> strides, ArrayRef<int64_t> pad, bool ceil) {
  static const char *names[] = {"depth", "height", "width"};
  SmallVector<Dim> out;
  for (int axis = 0; axis < 3; ++axis) {
    FailureOr<Dim> d = windowOutput(
        args, data.dims[axis + 2], pad[axis] + pad[axis + 3], kernel[axis],
        dilation[axis], strides[axis], ceil, names[axis]);
    if (failed(d))
      return failure();
    out.push_back(*d);
  }
  return out;
}

static RelationStatus conv3dRelation(RelationArgs &args) {
  TensorInfo data, weight;
  READ_TENSOR_OR_RETURN(args, 0, data);
  if (data.getRank() != 5)
    return args.fail("expected a 5-d (NCDHW) data tensor, got " +
                     typeStr(args.getInput(0)));
  FailureOr<std::array<int64_t, 3>> strides = readTriple(args, "strides", 1);
  FailureOr<std::array<int64_t, 3>> dilation = readTriple(args, "dilation", 1);
  FailureOr<std::array<int64_t, 6>> pad = readPadding3d(args);
  if (failed(strides) || failed(dilation) || failed(pad) ||
      failed(requireLayout(args, "data_layout", "NCDHW")) ||
      failed(requireLayout(args, "kernel_layout", "OIDHW")) ||
      failed(requireLayout(args, "out_layout", "NCDHW")))
    return RelationStatus::Failed;
  int64_t groups = args.getInt("groups", 1);
  FailureOr<Dim> perGroup = channelsPerGroup(args, data.dims[1], groups);
  if (failed(perGroup))
    return RelationStatus::Failed;
  std::optional<int64_t> channels = args.getOptionalInt("channels");
  std::optional<SmallVector<int64_t>> kernelSize =
      args.getOptionalInts("kernel_size");
  if (kernelSize && kernelSize->size() != 3)
    return args.fail("kernel_size must have 3 values");
  TensorState ws = readInputTensor(args, 1, weight);
  if (ws == TensorState::NotATensor)
    return RelationStatus::Failed;
  if (ws == TensorState::Unknown) {
    if (!channels || !kernelSize)
      return RelationStatus::Pending;
    SmallVector<Dim> dims = {Dim::of(*channels), *perGroup};
    for (int64_t k : *kernelSize)
      dims.push_back(Dim::of(k));
    if (failed(args.assignInput(
            1, makeTensor(args.getContext(), dims, data.dtype))))
      return RelationStatus::Failed;
    weight = TensorInfo{dims, data.dtype};
  }
  if (weight.getRank() != 5 || weight.dtype != data.dtype)
    return args.fail("expected a 5-d (OIDHW) weight tensor of the data's "
                     "dtype, got " +
                     typeStr(args.getInput(1)));
  if (failed(unifyDims(weight.dims[1], *perGroup)))
    return args.fail("weight " + typeStr(args.getInput(1)) + " has " +
                     toString(weight.dims[1]) + " input channels, expected " +
                     toString(*perGroup) + " (data channels / groups)");
  Dim outChannels = weight.dims[0];
  if (channels && failed(unifyDims(outChannels, Dim::of(*channels))))
    return args.fail(
        "weight " + typeStr(args.getInput(1)) + " has " +
        toString(outChannels) +
        " output channels but channels = " + std::to_string(*channels));
  if (outChannels.isStatic() && outChannels.size % groups != 0)
    return args.fail("the " + std::to_string(outChannels.size) +
                     " output channels are not divisible by groups = " +
                     std::to_string(groups));
  SmallVector<int64_t> kernel;
  for (int axis = 0; axis < 3; ++axis) {
    Dim k = weight.dims[axis + 2];
    if (kernelSize && failed(unifyDims(k, Dim::of((*kernelSize)[axis]))))
      return args.fail("weight " + typeStr(args.getInput(1)) +
                       " does not match kernel_size");
    if (k.isStatic() && k.size <= 0)
      return args.fail("weight " + typeStr(args.getInput(1)) +
                       " has an empty kernel");
    kernel.push_back(k.isStatic() ? k.size : 0);
  }
  SmallVector<Dim> out = {data.dims[0], outChannels};
  if (llvm::is_contained(kernel, 0)) {
    out.append(3, Dim::any());
  } else {
    FailureOr<SmallVector<Dim>> spatial =
        window3dOutput(args, data, kernel, *dilation, *strides, *pad, false);
    if (failed(spatial))
      return RelationStatus::Failed;
    out.append(*spatial);
  }
  return args.solve(
      makeTensor(args.getContext(), out, outDtype(args, data.dtype)));
}

/// Conv3DTranspose: NCDHW data, IODHW weights ([C, O / groups, KD, KH, KW]);
/// each spatial size is (in - 1) * stride - padding + dilation * (k - 1) +
/// output_padding + 1.
static RelationStatus conv3dTransposeRelation(RelationArgs &args) {
  TensorInfo data, weight;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, weight);
  if (data.getRank() != 5 || weight.getRank() != 5 ||
      weight.dtype != data.dtype)
    return args.fail("expected 5-d (NCDHW) data and (IODHW) weights of one "
                     "dtype, got " +
                     typeStr(args.getInput(0)) + " and " +
                     typeStr(args.getInput(1)));
  FailureOr<std::array<int64_t, 3>> strides = readTriple(args, "strides", 1);
  FailureOr<std::array<int64_t, 3>> dilation = readTriple(args, "dilation", 1);
  FailureOr<std::array<int64_t, 6>> pad = readPadding3d(args);
  if (failed(strides) || failed(dilation) || failed(pad) ||
      failed(requireLayout(args, "data_layout", "NCDHW")) ||
      failed(requireLayout(args, "kernel_layout", "IODHW")) ||
      failed(requireLayout(args, "out_layout", "NCDHW")))
    return RelationStatus::Failed;
  int64_t groups = args.getInt("groups", 1);
  if (failed(channelsPerGroup(args, data.dims[1], groups)))
    return RelationStatus::Failed;
  if (failed(unifyDims(weight.dims[0], data.dims[1])))
    return args.fail("weight " + typeStr(args.getInput(1)) + " has " +
                     toString(weight.dims[0]) + " input channels, expected " +
                     toString(data.dims[1]));
  std::array<int64_t, 3> outputPadding = {0, 0, 0};
  if (std::optional<SmallVector<int64_t>> op =
          args.getOptionalInts("output_padding");
      op && !op->empty()) {
    if (op->size() != 1 && op->size() != 3)
      return args.fail("output_padding must have 1 or 3 values");
    for (int axis = 0; axis < 3; ++axis)
      outputPadding[axis] = (*op)[op->size() == 1 ? 0 : axis];
  }
  Dim outChannels = mulDims(weight.dims[1], Dim::of(groups));
  if (std::optional<int64_t> channels = args.getOptionalInt("channels");
      channels && failed(unifyDims(outChannels, Dim::of(*channels))))
    return args.fail(
        "weight " + typeStr(args.getInput(1)) + " gives " +
        toString(outChannels) +
        " output channels but channels = " + std::to_string(*channels));
  SmallVector<Dim> out = {data.dims[0], outChannels};
  for (int axis = 0; axis < 3; ++axis) {
    int64_t stride = (*strides)[axis], dil = (*dilation)[axis];
    if (outputPadding[axis] < 0 || outputPadding[axis] >= std::max(stride, dil))
      return args.fail("output_padding must be non-negative and smaller "
                       "than the stride or the dilation");
    Dim in = data.dims[axis + 2], k = weight.dims[axis + 2];
    if (k.isStatic() && k.size <= 0)
      return args.fail("weight " + typeStr(args.getInput(1)) +
                       " has an empty kernel");
    FailureOr<Dim> size =
        transposedOutput(args, in, k, stride, dil,
                         (*pad)[axis] + (*pad)[axis + 3], outputPadding[axis]);
    if (failed(size))
      return RelationStatus::Failed;
    out.push_back(*size);
  }
  return args.solve(
      makeTensor(args.getContext(), out, outDtype(args, data.dtype)));
}

static RelationStatus pool3dRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  if (data.getRank() != 5)
    return args.fail("expected a 5-d (NCDHW) data tensor, got " +
                     typeStr(args.getInput(0)));
  if (!args.getOptionalInts("pool_size"))
    return args.fail("requires a 'pool_size' attribute");
  FailureOr<std::array<int64_t, 3>> pool = readTriple(args, "pool_size", 1);
  FailureOr<std::array<int64_t, 3>> strides = readTriple(args, "strides", 1);
  FailureOr<std::array<int64_t, 3>> dilation = readTriple(args, "dilation", 1);
  FailureOr<std::array<int64_t, 6>> pad = readPadding3d(args);
  if (failed(pool) || failed(strides) || failed(dilation) || failed(pad) ||
      failed(requireLayout(args, "layout", "NCDHW")) ||
      failed(requireLayout(args, "out_layout", "NCDHW")))
    return RelationStatus::Failed;
  FailureOr<SmallVector<Dim>> spatial =
      window3dOutput(args, data, *pool, *dilation, *strides, *pad,
                     args.getBool("ceil_mode", false));
  if (failed(spatial))
    return RelationStatus::Failed;
  SmallVector<Dim> out = {data.dims[0], data.dims[1]};
  out.append(*spatial);
  return args.solve(makeTensor(args.getContext(), out, data.dtype));
}

/// AdaptivePool3D: NCDHW data; `output_size` (1 or 3 values) or the depth,
/// height and width kept.
static RelationStatus adaptivePool3dRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  if (data.getRank() != 5)
    return args.fail("expected a 5-d (NCDHW) data tensor, got " +
                     typeStr(args.getInput(0)));
  if (failed(requireLayout(args, "layout", "NCDHW")) ||
      failed(requireLayout(args, "out_layout", "NCDHW")))
    return RelationStatus::Failed;
  SmallVector<Dim> dims = data.dims;
  if (std::optional<SmallVector<int64_t>> size =
          args.getOptionalInts("output_size");
      size && !size->empty()) {
    FailureOr<std::array<int64_t, 3>> s = readTriple(args, "output_size", 1);
    if (failed(s))
      return RelationStatus::Failed;
    for (int axis = 0; axis < 3; ++axis)
      dims[axis + 2] = Dim::of((*s)[axis]);
  }
  return args.solve(makeTensor(args.getContext(), dims, data.dtype));
}

/// nn.fifo_buffer: data and buffer of one dtype and rank agreeing but
/// along `axis`, where data is shorter; the result is the buffer's type.
static RelationStatus fifoBufferRelation(RelationArgs &args) {
  TensorInfo data, buffer;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, buffer);
  if (data.getRank() != buffer.getRank() || data.dtype != buffer.dtype)
    return args.fail("expected data of the buffer's dtype and rank (" +
                     typeStr(args.getInput(1)) + "), got " +
                     typeStr(args.getInput(0)));
  FailureOr<int64_t> axis =
      normalizeAxis(args, args.getInt("axis", 0), buffer.getRank());
  if (failed(axis))
    return RelationStatus::Failed;
  for (int64_t i = 0; i < buffer.getRank(); ++i) {
    if (i == *axis)
      continue;
    if (failed(unifyDims(data.dims[i], buffer.dims[i])))
      return args.fail("data " + typeStr(args.getInput(0)) + " and buffer " +
                       typeStr(args.getInput(1)) + " differ along axis " +
                       Twine(i));
  }
  Dim d = data.dims[*axis], b = buffer.dims[*axis];
  if (d.isStatic() && b.isStatic() && d.size >= b.size)
    return args.fail("expected data shorter than the buffer along axis " +
                     Twine(*axis) + ", got " + Twine(d.size) + " and " +
                     Twine(b.size));
  return args.solve(args.getInput(1));
}

void mlir::relay::registerNNRelations() {
  registerTypeRelation("FifoBuffer", fifoBufferRelation);
  registerTypeRelation("GroupNorm", groupNormRelation);
  registerTypeRelation("Conv1D", conv1dRelation);
  registerTypeRelation("Pool1D", pool1dRelation);
  registerTypeRelation("AdaptivePool1D", adaptivePool1dRelation);
  registerTypeRelation("Conv1DTranspose", conv1dTransposeRelation);
  registerTypeRelation("Conv3D", conv3dRelation);
  registerTypeRelation("Conv3DTranspose", conv3dTransposeRelation);
  registerTypeRelation("Pool3D", pool3dRelation);
  registerTypeRelation("AdaptivePool3D", adaptivePool3dRelation);
  registerTypeRelation("Conv2D", [](RelationArgs &args) {
    return conv2dRelation(args, /*transposed=*/false);
  });
  registerTypeRelation("Conv2DTranspose", [](RelationArgs &args) {
    return conv2dRelation(args, /*transposed=*/true);
  });
  registerTypeRelation("DeformableConv2D", [](RelationArgs &args) {
    return conv2dRelation(args, /*transposed=*/false, /*deformable=*/true);
  });
  registerTypeRelation("Dense", [](RelationArgs &args) {
    return matmulRelation(args, /*isDense=*/true);
  });
  registerTypeRelation("Matmul", [](RelationArgs &args) {
    return matmulRelation(args, /*isDense=*/false);
  });
  registerTypeRelation("BatchMatmul", batchMatmulRelation);
  registerTypeRelation("Pool2D", pool2dRelation);
  registerTypeRelation("GlobalPool2D", [](RelationArgs &args) {
    return adaptivePool2dRelation(args, /*global=*/true);
  });
  registerTypeRelation("AdaptivePool2D", [](RelationArgs &args) {
    return adaptivePool2dRelation(args, /*global=*/false);
  });
  registerTypeRelation("UpSampling", upsamplingRelation);
  registerTypeRelation("UpSampling3D", upsampling3dRelation);
  registerTypeRelation("Dilation2D", dilation2dRelation);
  registerTypeRelation("Correlation", correlationRelation);
  registerTypeRelation("BatchNorm", [](RelationArgs &args) {
    return normRelation(args, /*batchNorm=*/true);
  });
  registerTypeRelation("LayerNorm", [](RelationArgs &args) {
    return normRelation(args, /*batchNorm=*/false);
  });
}

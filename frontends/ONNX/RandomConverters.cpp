//===- RandomConverters.cpp - ONNX random number operators ------*- C++ -*-===//
//
// RandomUniform, RandomNormal, RandomUniformLike, RandomNormalLike,
// Bernoulli, Multinomial and Dropout (in training mode), as relay arithmetic on
// unsigned 32-bit integers: each element's flat index is encrypted by the
// counter-based generator Threefry-2x32 with 20 rounds (Salmon et al.,
// "Parallel random numbers: as easy as 1, 2, 3", SC'11; the generator of JAX
// and of Random123) under a key made from the node's seed, and the two words it
// returns become the element's value. Nothing is sequential, so the arithmetic
// is elementwise (fused into one kernel, and folded into a constant where the
// optimiser folds constants); the same seed gives the same tensor in every run,
// interpreted or compiled. ONNX leaves the generator to the runtime: the values
// are not onnxruntime's or PyTorch's, only their distribution is the same.
//
// A seed is the bits of its float (so 1.0 and 1.5 differ); a node without
// one gets a key drawn at import, as ONNX asks ("auto generated"): the model
// imported again samples differently, a run of one import does not.
//
// From the words (x0, x1): uniform = low + (high - low) * (x0 >> 8) / 2^24,
// in [low, high); normal = mean + scale * sqrt(-2 log u1) cos(2 pi u2)
// (Box-Muller) with u1 = ((x0 >> 8) + 1) / 2^24 in (0, 1] and u2 =
// (x1 >> 8) / 2^24; Bernoulli = uniform(0, 1) < p. The arithmetic is in
// float32 (float64 for a float64 output), so each value has 24 random bits.
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/Converters.h"
#include "frontends/ONNX/Emitter.h"

#include <cmath>
#include <cstring>
#include <random>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

namespace {

/// Threefry-2x32's rotation distances, round r using kRotations[r % 8].
constexpr unsigned kRotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
constexpr unsigned kRounds = 20;
/// The key schedule's parity constant (Threefish's C240 for 32-bit words).
constexpr uint32_t kParity = 0x1BD11BDA;

/// The two key words of a node: its `seed` attribute's bits (a float's;
/// Dropout's seed is an integer), or random.
std::pair<uint32_t, uint32_t> keyOf(NodeContext &ctx) {
  uint64_t bits;
  if (const onnx::AttributeProto *seed = ctx.attribute("seed")) {
    if (seed->type() == onnx::AttributeProto::INT) {
      bits = uint64_t(seed->i());
    } else {
      double f = seed->f();
      static_assert(sizeof(f) == sizeof(bits));
      std::memcpy(&bits, &f, sizeof(bits));
    }
  } else {
    std::random_device device;
    bits = (uint64_t(device()) << 32) | device();
  }
  return {uint32_t(bits), uint32_t(bits >> 32)};
}

/// Builds the generator's words for every element of a tensor of `shape`.
class Threefry {
public:
  Threefry(NodeContext &ctx, Emitter &b)
      : ctx(ctx), b(b),
        u32(IntegerType::get(ctx.getContext(), 32, IntegerType::Unsigned)) {}

  /// (x0, x1) of Threefry-2x32-20 on the counter (flat index, 0) under
  /// `key`, each a tensor of `shape`.
  std::pair<Value, Value> words(ArrayRef<int64_t> shape,
                                std::pair<uint32_t, uint32_t> key) {
    uint32_t ks[3] = {key.first, key.second, kParity ^ key.first ^ key.second};
    Value x0 = add(flatIndex(shape), ks[0]);
    // The counter's second word is 0: x1 starts as a scalar and takes the
    // shape in the first round.
    Value x1 = word(ks[1]);
    for (unsigned r = 0; r < kRounds; ++r) {
      x0 = b.add(x0, x1);
      x1 = b.op<BitwiseXorOp>({rotateLeft(x1, kRotations[r % 8]), x0});
      if (r % 4 == 3) {
        uint32_t s = r / 4 + 1;
        x0 = add(x0, ks[s % 3]);
        x1 = add(x1, ks[(s + 1) % 3] + s);
      }
    }
    return {x0, x1};
  }

  /// The top 24 bits of `bits` as a float of `type` in [0, 1), or in
  /// (0, 1] with `offset`.
  Value unitInterval(Value bits, FloatType type, bool offset = false) {
    Value top = b.op<RightShiftOp>({bits, word(8)});
    if (offset)
      top = add(top, 1);
    Value f = b.castTo(top, type);
    return b.mul(f, ctx.scalar(std::ldexp(1.0, -24), type));
  }

private:
  Value word(uint32_t v) { return ctx.scalar(double(v), u32); }
  Value add(Value x, uint32_t v) { return v ? b.add(x, word(v)) : x; }
  Value rotateLeft(Value x, unsigned n) {
    return b.op<BitwiseOrOp>({b.op<LeftShiftOp>({x, word(n)}),
                              b.op<RightShiftOp>({x, word(32 - n)})});
  }
  /// The row-major index of each element of `shape`: a sum of one small
  /// constant per axis (index * stride), broadcast.
  Value flatIndex(ArrayRef<int64_t> shape) {
    Value index;
    int64_t stride = 1;
    for (int64_t d = shape.size() - 1; d >= 0; --d) {
      SmallVector<int64_t> axisShape(shape.size(), 1);
      axisShape[d] = shape[d];
      SmallVector<APInt> values;
      for (int64_t i = 0; i < shape[d]; ++i)
        values.push_back(APInt(32, uint64_t(i * stride)));
      Value axis = ctx.constant(DenseElementsAttr::get(
          RankedTensorType::get(axisShape, u32), values));
      index = index ? b.add(index, axis) : axis;
      stride *= shape[d];
    }
    return index ? index : word(0);
  }

  NodeContext &ctx;
  Emitter &b;
  IntegerType u32;
};

/// The output's element type: the `dtype` attribute, else `dflt`.
FailureOr<Type> outputType(NodeContext &ctx, Type dflt) {
  if (!ctx.hasAttr("dtype"))
    return dflt;
  Type type = convertDataType(ctx.getContext(), ctx.attrInt("dtype", 0));
  if (!type)
    return ctx.fail("dtype is not a supported data type");
  return type;
}

/// The float type the values are computed in: float64 for a float64
/// output, else float32 (a float16 output is rounded at the end).
FloatType computeType(MLIRContext *context, Type output) {
  return output.isF64() ? cast<FloatType>(Float64Type::get(context))
                        : cast<FloatType>(Float32Type::get(context));
}

/// The shape of a generated tensor: the `shape` attribute, or the first
/// input's (the *Like operators); at most 2^32 elements (the counter's
/// range).
FailureOr<SmallVector<int64_t>> sampleShape(NodeContext &ctx, bool like) {
  SmallVector<int64_t> shape;
  if (like) {
    if (failed(ctx.checkInputs(1, 1)))
      return failure();
    shape.assign(ctx.shape(0).begin(), ctx.shape(0).end());
  } else {
    if (failed(ctx.checkInputs(0, 0)))
      return failure();
    if (!ctx.hasAttr("shape"))
      return ctx.fail("attribute shape is required");
    shape = ctx.attrInts("shape");
  }
  // Checked one axis at a time, so that the product cannot overflow.
  uint64_t elements = 1;
  for (int64_t d : shape) {
    if (d < 0)
      return ctx.fail("shape has a negative dimension");
    elements *= uint64_t(d);
    if (elements > (uint64_t(1) << 32))
      return ctx.fail("more than 2^32 elements to generate");
  }
  return shape;
}

/// Computes `values` of the output's shape in the compute type (the node's
/// float `dtype`, or the input's for a *Like node, else float32), then
/// rounds them to the output type.
using SampleFn =
    function_ref<Value(Emitter &, Threefry &, FloatType, ArrayRef<int64_t>)>;
LogicalResult convertFloatSample(NodeContext &ctx, bool like, SampleFn values) {
  FailureOr<SmallVector<int64_t>> shape = sampleShape(ctx, like);
  if (failed(shape))
    return failure();
  FailureOr<Type> type = outputType(
      ctx, like ? ctx.elementType(0) : Float32Type::get(ctx.getContext()));
  if (failed(type))
    return failure();
  if (!isa<FloatType>(*type))
    return ctx.fail("dtype must be a float type");
  Emitter b(ctx);
  Threefry generator(ctx, b);
  FloatType f = computeType(ctx.getContext(), *type);
  Value v = values(b, generator, f, *shape);
  return b.output(b.castTo(v, *type));
}

/// RandomUniform(Like): low + (high - low) * u, u in [0, 1).
LogicalResult convertRandomUniform(NodeContext &ctx, bool like) {
  return convertFloatSample(
      ctx, like,
      [&](Emitter &b, Threefry &generator, FloatType f,
          ArrayRef<int64_t> shape) {
        double low = ctx.attrFloat("low", 0), high = ctx.attrFloat("high", 1);
        Value u =
            generator.unitInterval(generator.words(shape, keyOf(ctx)).first, f);
        return b.add(b.mul(u, ctx.scalar(high - low, f)), ctx.scalar(low, f));
      });
}

/// RandomNormal(Like): mean + scale * z, z standard normal (Box-Muller).
LogicalResult convertRandomNormal(NodeContext &ctx, bool like) {
  return convertFloatSample(
      ctx, like,
      [&](Emitter &b, Threefry &generator, FloatType f,
          ArrayRef<int64_t> shape) {
        auto [x0, x1] = generator.words(shape, keyOf(ctx));
        Value u1 = generator.unitInterval(x0, f, /*offset=*/true);
        Value u2 = generator.unitInterval(x1, f);
        Value radius =
            b.op<SqrtOp>({b.mul(b.op<LogOp>({u1}), ctx.scalar(-2.0, f))});
        Value z =
            b.mul(radius, b.op<CosOp>({b.mul(u2, ctx.scalar(2 * M_PI, f))}));
        return b.add(b.mul(z, ctx.scalar(ctx.attrFloat("scale", 1), f)),
                     ctx.scalar(ctx.attrFloat("mean", 0), f));
      });
}

/// Bernoulli: 1 where u < p (u uniform in [0, 1)), else 0, in `dtype` (the
/// input's type when absent).
LogicalResult convertBernoulli(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  if (!isa<FloatType>(ctx.elementType(0)))
    return ctx.fail("input must be a float tensor of probabilities");
  FailureOr<Type> type = outputType(ctx, ctx.elementType(0));
  if (failed(type))
    return failure();
  Emitter b(ctx);
  Threefry generator(ctx, b);
  FloatType f = computeType(ctx.getContext(), ctx.elementType(0));
  Value p = b.castTo(ctx.input(0), f);
  Value u = generator.unitInterval(
      generator.words(ctx.shape(0), keyOf(ctx)).first, f);
  return b.output(b.castTo(b.op<LessOp>({u, p}), *type));
}

/// Multinomial: `sample_size` class indices for each row of unnormalised
/// log-probabilities [batch, classes]; a sample is the number of classes
/// whose cumulative probability is at most u * (the row's total), u in
/// [0, 1).
LogicalResult convertMultinomial(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  if (ctx.rank(0) != 2 || !isa<FloatType>(ctx.elementType(0)))
    return ctx.fail("input must be a 2-d float tensor [batch, classes]");
  int64_t batch = ctx.shape(0)[0], classes = ctx.shape(0)[1];
  int64_t samples = ctx.attrInt("sample_size", 1);
  if (samples < 1 || classes < 1)
    return ctx.fail("sample_size and the number of classes must be positive");
  if (uint64_t(batch) * uint64_t(samples) > (uint64_t(1) << 32))
    return ctx.fail("more than 2^32 elements to generate");
  FailureOr<Type> type =
      outputType(ctx, IntegerType::get(ctx.getContext(), 32));
  if (failed(type))
    return failure();
  if (!type->isInteger(32) && !type->isInteger(64))
    return ctx.fail("dtype must be int32 or int64");
  Emitter b(ctx);
  Threefry generator(ctx, b);
  FloatType f = computeType(ctx.getContext(), ctx.elementType(0));
  Value logits = b.castTo(ctx.input(0), f);
  Value cdf = b.op<CumsumOp>({b.op<SoftmaxOp>({logits}, {ctx.i64("axis", 1)})},
                             {ctx.i64("axis", 1)});
  Value total =
      b.op<ExpandDimsOp>({b.take(cdf, classes - 1, 1)}, {ctx.i64("axis", 1)});
  Value u = b.mul(generator.unitInterval(
                      generator.words({batch, samples}, keyOf(ctx)).first, f),
                  total);
  Value below =
      b.op<LessEqualOp>({b.op<ExpandDimsOp>({cdf}, {ctx.i64("axis", 1)}),
                         b.op<ExpandDimsOp>({u}, {ctx.i64("axis", 2)})});
  Value count = b.op<SumOp>({b.castTo(below, *type)}, {ctx.ints("axis", {2})});
  return b.output(
      b.op<MinimumOp>({count, ctx.scalar(double(classes - 1), *type)}));
}

/// Dropout: in training mode (opset 12 on: the third input true) each
/// element is kept with probability 1 - ratio (u >= ratio) and scaled by
/// 1 / (1 - ratio), else 0; the mask output says which were kept. A
/// training mode or ratio computed at run time selects between that and
/// the identity at run time. Before opset 12 (and with training_mode
/// absent or a constant false) Dropout is the identity, its mask all true;
/// so it is with a constant ratio of 0 (every u >= 0 is kept, scaled by 1),
/// which is what torch.onnx writes for a module's `nn.Dropout(0.0)` in
/// training mode (Swin-T's attention): generating its unused random words
/// made compiling Swin-T take four times as long.
LogicalResult convertDropout(NodeContext &ctx) {
  if (failed(ctx.checkInputs(1, 3)))
    return failure();
  bool wantMask =
      ctx.getNode().output_size() > 1 && !ctx.getNode().output(1).empty();
  auto maskType = RankedTensorType::get(ctx.shape(0),
                                        IntegerType::get(ctx.getContext(), 1));
  ElementsAttr training = ctx.constantInput(2);
  ElementsAttr ratioAttr = ctx.constantInput(1);
  bool zeroRatio = ratioAttr && ratioAttr.getNumElements() == 1 &&
                   readDoubles(ratioAttr).front() == 0;
  if (!ctx.hasInput(2) || (training && readInts(training).front() == 0) ||
      zeroRatio) {
    ctx.addOutput(ctx.input(0));
    if (wantMask)
      ctx.addOutput(ctx.constant(DenseElementsAttr::get(maskType, true)));
    return success();
  }
  if (!isa<FloatType>(ctx.elementType(0)))
    return ctx.fail("data must be a float tensor");
  Emitter b(ctx);
  Threefry generator(ctx, b);
  Type element = ctx.elementType(0);
  FloatType f = computeType(ctx.getContext(), element);
  Value ratio =
      ctx.hasInput(1) ? b.castTo(ctx.input(1), f) : ctx.scalar(0.5, f);
  Value u = generator.unitInterval(
      generator.words(ctx.shape(0), keyOf(ctx)).first, f);
  Value keep = b.op<GreaterEqualOp>({u, ratio});
  // 1 / (1 - ratio) in the data's type; where the element is dropped the
  // scale is not read (a ratio of 1 drops everything, without 0 * inf).
  Value scale =
      b.castTo(b.op<DivideOp>({ctx.scalar(1, f),
                               b.op<SubtractOp>({ctx.scalar(1, f), ratio})}),
               element);
  Value x = ctx.input(0);
  Value dropped =
      b.op<WhereOp>({keep, b.mul(x, scale), ctx.scalar(0, element)});
  Value mask = keep;
  if (!training) {
    // Chosen at run time: the identity and an all-true mask when false.
    Value mode = b.castTo(ctx.input(2), maskType.getElementType());
    dropped = b.op<WhereOp>({mode, dropped, x});
    mask = b.op<LogicalOrOp>({keep, b.op<LogicalNotOp>({mode})});
  }
  if (failed(b.output(dropped)))
    return failure();
  return wantMask ? b.output(mask) : success();
}

} // namespace

void mlir::relay::onnx_import::addRandomConverters(ConverterTable &t) {
  t["RandomUniform"] = [](NodeContext &c) {
    return convertRandomUniform(c, false);
  };
  t["RandomUniformLike"] = [](NodeContext &c) {
    return convertRandomUniform(c, true);
  };
  t["RandomNormal"] = [](NodeContext &c) {
    return convertRandomNormal(c, false);
  };
  t["RandomNormalLike"] = [](NodeContext &c) {
    return convertRandomNormal(c, true);
  };
  t["Bernoulli"] = convertBernoulli;
  t["Multinomial"] = convertMultinomial;
  t["Dropout"] = convertDropout;
}

//===- SignalConverters.cpp - ONNX window functions, DFT, STFT --*- C++ -*-===//
//
// HannWindow, HammingWindow and BlackmanWindow: sums of cosines of
// 2*pi*k*n/N over n = 0 .. size-1, N = size (periodic) or size - 1
// (symmetric). A size known at import gives a constant; a size computed at
// run time an `arange` whose length depends on the data (relay-run runs
// such a model on its interpreter).
//
// DFT and STFT are products with constant cosine and sine matrices (the
// transform's length is known at import): nn.dense over the signal moved to
// the last axis, real and imaginary parts apart, stacked at the end as
// ONNX's [..., 2]. STFT first gathers the frames (a take at constant
// indices) and multiplies them by the window. MelWeightMatrix is a constant.
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/Converters.h"
#include "frontends/ONNX/Emitter.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

namespace {

/// `values` (row-major) of `shape` as `element`.
DenseElementsAttr floatValues(ArrayRef<int64_t> shape, Type element,
                              ArrayRef<double> values) {
  SmallVector<APFloat> converted;
  for (double v : values) {
    APFloat value(v);
    bool losesInfo;
    value.convert(cast<FloatType>(element).getFloatSemantics(),
                  APFloat::rmNearestTiesToEven, &losesInfo);
    converted.push_back(value);
  }
  return DenseElementsAttr::get(RankedTensorType::get(shape, element),
                                converted);
}

/// w[n] = sum_k coefficients[k] * cos(2 pi k n / N).
LogicalResult convertCosineWindow(NodeContext &ctx,
                                  ArrayRef<double> coefficients) {
  if (failed(ctx.checkInputs(1, 1)))
    return failure();
  if (ctx.rank(0) != 0 || !isa<IntegerType>(ctx.elementType(0)))
    return ctx.fail("size must be an integer scalar");
  Type element = convertDataType(ctx.getContext(),
                                 ctx.attrInt("output_datatype", /*FLOAT=*/1));
  if (!element || !isa<FloatType>(element))
    return ctx.fail("output_datatype must be a floating-point type");
  bool periodic = ctx.attrInt("periodic", 1) != 0;

  if (ElementsAttr known = ctx.constantInput(0)) {
    int64_t size = readInts(known).front();
    if (size < 0)
      return ctx.fail("size must not be negative, got " + Twine(size));
    double n = periodic ? size : size - 1;
    SmallVector<double> values;
    for (int64_t i = 0; i < size; ++i) {
      double v = 0;
      for (auto [k, a] : llvm::enumerate(coefficients))
        v += a * (k == 0 ? 1.0 : std::cos(2 * M_PI * k * i / n));
      values.push_back(v);
    }
    DenseElementsAttr folded = floatValues({size}, element, values);
    ctx.addOutput(ctx.constant(folded), folded);
    return success();
  }

  Emitter b(ctx);
  Value size = ctx.input(0);
  Type sizeType = ctx.elementType(0);
  Value positions =
      b.op<ArangeOp>({ctx.scalar(0, sizeType), size, ctx.scalar(1, sizeType)},
                     {ctx.type("dtype", sizeType)});
  positions = b.op<CastOp>({positions}, {ctx.type("dtype", element)});
  Value n = b.op<CastOp>({size}, {ctx.type("dtype", element)});
  if (!periodic)
    n = b.op<SubtractOp>({n, ctx.scalar(1, element)});
  // 2 pi n / N: the phase of the first cosine.
  Value phase =
      b.op<DivideOp>({b.mul(positions, ctx.scalar(2 * M_PI, element)), n});
  Value window;
  for (auto [k, a] : llvm::enumerate(coefficients)) {
    Value term;
    if (k == 0) {
      // The constant term, as long as the window.
      term = b.op<FullLikeOp>({phase, ctx.scalar(a, element)});
    } else {
      Value angle =
          k == 1 ? phase
                 : b.mul(phase, ctx.scalar(static_cast<double>(k), element));
      term = b.mul(b.op<CosOp>({angle}), ctx.scalar(a, element));
    }
    window = window ? b.add(window, term) : term;
  }
  return b.output(window);
}

LogicalResult convertHannWindow(NodeContext &ctx) {
  return convertCosineWindow(ctx, {0.5, -0.5});
}

LogicalResult convertHammingWindow(NodeContext &ctx) {
  // ONNX's alpha = 25/46 and beta = 1 - alpha.
  return convertCosineWindow(ctx, {25.0 / 46.0, -21.0 / 46.0});
}

LogicalResult convertBlackmanWindow(NodeContext &ctx) {
  return convertCosineWindow(ctx, {0.42, -0.5, 0.08});
}

/// The most elements the constant matrices of one transform may hold (64 Mi
/// doubles while they are computed): longer transforms are refused rather
/// than exhausting memory at import.
constexpr int64_t kMaxMatrixElements = int64_t(1) << 26;

Value floatConstant(NodeContext &ctx, ArrayRef<int64_t> shape, Type element,
                    ArrayRef<double> values) {
  return ctx.constant(floatValues(shape, element, values));
}

/// The DFT of length `n` over the last axis of `re` and `im` (`im` null
/// for a real signal), whose last axis holds `given` samples (zero-padded or
/// truncated to `n`): its first `bins` frequencies, real and imaginary
/// parts. The inverse has the opposite sign and divides by n.
std::pair<Value, Value> dftLastAxis(Emitter &b, NodeContext &ctx, Value re,
                                    Value im, int64_t given, int64_t n,
                                    int64_t bins, bool inverse, Type element) {
  // cos and sin of 2 pi k j / n as dense weights [bins, given]; samples
  // past n weigh nothing (truncation), missing ones are zeros (padding).
  double scale = inverse ? 1.0 / n : 1.0;
  SmallVector<double> cosines, sines, negated;
  for (int64_t k = 0; k < bins; ++k)
    for (int64_t j = 0; j < given; ++j) {
      // (k * j) mod n keeps the angle accurate for long transforms.
      double angle = 2 * M_PI * double((k * j) % n) / double(n);
      bool used = j < n;
      cosines.push_back(used ? std::cos(angle) * scale : 0.0);
      sines.push_back(used ? std::sin(angle) * scale : 0.0);
      negated.push_back(-sines.back());
    }
  Value wc = floatConstant(ctx, {bins, given}, element, cosines);
  Value ws = floatConstant(ctx, {bins, given}, element, sines);
  Value wn = floatConstant(ctx, {bins, given}, element, negated);
  auto dense = [&](Value x, Value w) { return b.op<DenseOp>({x, w}); };
  // Forward: (re + i im)(cos - i sin); inverse: (re + i im)(cos + i sin).
  Value outRe = dense(re, wc), outIm = dense(re, inverse ? ws : wn);
  if (im) {
    outRe = b.add(outRe, dense(im, inverse ? wn : ws));
    outIm = b.add(outIm, dense(im, wc));
  }
  return {outRe, outIm};
}

/// The real and imaginary parts of a signal whose last axis is 1 (real: no
/// imaginary part) or 2.
std::pair<Value, Value> complexParts(Emitter &b, Value x, int64_t rank,
                                     int64_t parts) {
  Value re = b.take(x, 0, rank - 1);
  return {re, parts == 2 ? b.take(x, 1, rank - 1) : Value()};
}

LogicalResult convertDFT(NodeContext &ctx) {
  // Opset 20 takes the axis as input #2 (default -2), no longer the
  // attribute (default 1).
  bool axisInput = ctx.getOpset() >= 20;
  if (failed(ctx.checkInputs(1, axisInput ? 3 : 2)))
    return failure();
  int64_t rank = ctx.rank(0);
  ArrayRef<int64_t> shape = ctx.shape(0);
  if (rank < 3 || (shape.back() != 1 && shape.back() != 2))
    return ctx.fail("expects a signal of shape [batch, ..., 1 or 2] (real "
                    "or complex)");
  Type element = ctx.elementType(0);
  if (!isa<FloatType>(element))
    return ctx.fail("expects a floating-point signal");
  int64_t givenAxis = axisInput ? -2 : ctx.attrInt("axis", 1);
  if (axisInput && ctx.hasInput(2)) {
    FailureOr<SmallVector<int64_t>> a = ctx.constantInts(2, "axis");
    if (failed(a))
      return failure();
    if (a->size() != 1)
      return ctx.fail("axis must be one integer");
    givenAxis = a->front();
  }
  int64_t axis = givenAxis;
  if (axis < 0)
    axis += rank;
  if (axis < 1 || axis > rank - 2)
    return ctx.fail("axis " + Twine(givenAxis) +
                    " does not name a signal dimension (1 to " +
                    Twine(rank - 2) + ")");
  int64_t given = shape[axis];
  if (ShapedType::isDynamic(given) || given < 1)
    return ctx.fail("the signal's length along the axis must be known and "
                    "positive");
  int64_t n = given;
  if (ctx.hasInput(1)) {
    FailureOr<SmallVector<int64_t>> length = ctx.constantInts(1, "dft_length");
    if (failed(length))
      return failure();
    if (length->size() != 1 || length->front() < 1)
      return ctx.fail("dft_length must be one positive integer");
    n = length->front();
  }
  bool inverse = ctx.attrInt("inverse", 0) != 0;
  int64_t bins = ctx.attrInt("onesided", 0) != 0 ? n / 2 + 1 : n;
  if (bins > kMaxMatrixElements / given)
    return ctx.fail("a DFT of " + Twine(n) + " points is too long (its " +
                    Twine(bins) + " x " + Twine(given) +
                    " matrices exceed the importer's limit of " +
                    Twine(kMaxMatrixElements) + " elements)");

  Emitter b(ctx);
  auto [re, im] = complexParts(b, ctx.input(0), rank, shape.back());
  // The transformed axis last (among rank - 1 without the parts' axis).
  SmallVector<int64_t> perm, back(rank - 1);
  for (int64_t d = 0; d < rank - 1; ++d)
    if (d != axis)
      perm.push_back(d);
  perm.push_back(axis);
  for (int64_t d = 0; d < rank - 1; ++d)
    back[perm[d]] = d;
  bool moved = axis != rank - 2;
  auto transpose = [&](Value v, ArrayRef<int64_t> axes) {
    return v && moved ? b.op<TransposeOp>({v}, {ctx.ints("axes", axes)}) : v;
  };
  auto [outRe, outIm] =
      dftLastAxis(b, ctx, transpose(re, perm), transpose(im, perm), given, n,
                  bins, inverse, element);
  return b.output(
      b.stack({transpose(outRe, back), transpose(outIm, back)}, rank - 1));
}

LogicalResult convertSTFT(NodeContext &ctx) {
  if (failed(ctx.checkInputs(2, 4)))
    return failure();
  ArrayRef<int64_t> shape = ctx.shape(0);
  if (shape.size() != 3 || (shape[2] != 1 && shape[2] != 2) ||
      ShapedType::isDynamic(shape[1]))
    return ctx.fail("expects a signal of shape [batch, length, 1 or 2] with "
                    "a known length");
  Type element = ctx.elementType(0);
  if (!isa<FloatType>(element))
    return ctx.fail("expects a floating-point signal");
  FailureOr<SmallVector<int64_t>> step = ctx.constantInts(1, "frame_step");
  if (failed(step))
    return failure();
  if (step->size() != 1 || step->front() < 1)
    return ctx.fail("frame_step must be one positive integer");
  int64_t length = -1;
  bool windowed = ctx.hasInput(2);
  if (windowed) {
    if (ctx.rank(2) != 1 || ShapedType::isDynamic(ctx.shape(2)[0]) ||
        ctx.shape(2)[0] < 1)
      return ctx.fail("the window must be a vector of known, positive "
                      "length");
    length = ctx.shape(2)[0];
  }
  if (ctx.hasInput(3)) {
    FailureOr<SmallVector<int64_t>> given = ctx.constantInts(3, "frame_length");
    if (failed(given))
      return failure();
    if (given->size() != 1 || given->front() < 1)
      return ctx.fail("frame_length must be one positive integer");
    if (windowed && given->front() != length)
      return ctx.fail("frame_length " + Twine(given->front()) +
                      " differs from the window's length " + Twine(length));
    length = given->front();
  }
  if (length < 0)
    return ctx.fail("needs a window or a frame_length");
  if (length > shape[1])
    return ctx.fail("frames of " + Twine(length) +
                    " samples are longer than the signal (" + Twine(shape[1]) +
                    ")");
  int64_t frames = (shape[1] - length) / step->front() + 1;
  if (length > kMaxMatrixElements / length ||
      frames > kMaxMatrixElements / length)
    return ctx.fail("frames of " + Twine(length) +
                    " samples are too long (the importer's matrices hold at "
                    "most " +
                    Twine(kMaxMatrixElements) + " elements)");
  SmallVector<int64_t> positions;
  for (int64_t f = 0; f < frames; ++f)
    for (int64_t j = 0; j < length; ++j)
      positions.push_back(f * step->front() + j);
  Value at =
      ctx.constant(i64Elements(ctx.getContext(), {frames, length}, positions));

  Emitter b(ctx);
  auto [re, im] = complexParts(b, ctx.input(0), 3, shape[2]);
  auto frame = [&](Value v) {
    if (!v)
      return v;
    v = b.op<TakeOp>({v, at}, {ctx.i64("axis", 1)});
    return windowed ? b.mul(v, ctx.input(2)) : v;
  };
  int64_t bins = ctx.attrInt("onesided", 1) != 0 ? length / 2 + 1 : length;
  auto [outRe, outIm] = dftLastAxis(b, ctx, frame(re), frame(im), length,
                                    length, bins, /*inverse=*/false, element);
  return b.output(b.stack({outRe, outIm}, 3));
}

/// MelWeightMatrix: triangular filters over the DFT's bins, as ONNX's
/// reference computes them (mel = 2595 log10(1 + hz / 700), the band
/// edges spaced evenly in mel and rounded down to bins).
LogicalResult convertMelWeightMatrix(NodeContext &ctx) {
  if (failed(ctx.checkInputs(5, 5)))
    return failure();
  FailureOr<SmallVector<int64_t>> mels = ctx.constantInts(0, "num_mel_bins");
  FailureOr<SmallVector<int64_t>> dft = ctx.constantInts(1, "dft_length");
  FailureOr<SmallVector<int64_t>> rate = ctx.constantInts(2, "sample_rate");
  if (failed(mels) || failed(dft) || failed(rate))
    return failure();
  ElementsAttr lowAttr = ctx.constantInput(3), highAttr = ctx.constantInput(4);
  if (!lowAttr || !highAttr)
    return ctx.fail("its lower_edge_hertz and upper_edge_hertz (inputs #3 "
                    "and #4) must be known when importing");
  if (mels->size() != 1 || dft->size() != 1 || rate->size() != 1 ||
      mels->front() < 1 || dft->front() < 1 || rate->front() < 1)
    return ctx.fail("num_mel_bins, dft_length and sample_rate must be "
                    "positive integers");
  Type element = convertDataType(ctx.getContext(),
                                 ctx.attrInt("output_datatype", /*FLOAT=*/1));
  if (!element || !isa<FloatType>(element))
    return ctx.fail("output_datatype must be a floating-point type");
  int64_t count = mels->front(), length = dft->front();
  int64_t rows = length / 2 + 1;
  if (count > kMaxMatrixElements / rows)
    return ctx.fail("a " + Twine(rows) + " x " + Twine(count) +
                    " matrix exceeds the importer's limit of " +
                    Twine(kMaxMatrixElements) + " elements");
  double low = readDoubles(lowAttr).front(),
         high = readDoubles(highAttr).front();
  auto toMel = [](double hz) { return 2595 * std::log10(1 + hz / 700); };
  double lowMel = toMel(low), step = (toMel(high) - lowMel) / (count + 2);
  SmallVector<int64_t> edges;
  for (int64_t i = 0; i < count + 2; ++i) {
    double hz = 700 * (std::pow(10, (i * step + lowMel) / 2595) - 1);
    edges.push_back(int64_t(std::floor((length + 1) * hz / rate->front())));
  }
  SmallVector<double> weights(rows * count, 0.0);
  auto set = [&](int64_t row, int64_t column, double v) {
    if (row >= 0 && row < rows)
      weights[row * count + column] = v;
  };
  for (int64_t i = 0; i < count; ++i) {
    int64_t left = edges[i], centre = edges[i + 1], right = edges[i + 2];
    if (centre == left)
      set(centre, i, 1.0);
    else
      for (int64_t j = std::max<int64_t>(left, 0);
           j <= std::min(centre, rows - 1); ++j)
        set(j, i, double(j - left) / double(centre - left));
    for (int64_t j = std::max<int64_t>(centre, 0); j < std::min(right, rows);
         ++j)
      set(j, i, double(right - j) / double(right - centre));
  }
  DenseElementsAttr matrix = floatValues({rows, count}, element, weights);
  ctx.addOutput(ctx.constant(matrix), matrix);
  return success();
}

} // namespace

void mlir::relay::onnx_import::addSignalConverters(ConverterTable &t) {
  t["HannWindow"] = convertHannWindow;
  t["HammingWindow"] = convertHammingWindow;
  t["BlackmanWindow"] = convertBlackmanWindow;
  t["DFT"] = convertDFT;
  t["STFT"] = convertSTFT;
  t["MelWeightMatrix"] = convertMelWeightMatrix;
}

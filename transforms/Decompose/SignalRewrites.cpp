//===- SignalRewrites.cpp - Fourier transforms as products -----*- C++ -*-===//
//
// dft and stft as products with constant cosine and sine matrices (the
// transform's length is a static size): nn.dense over the last axis, real
// and imaginary parts apart. stft first gathers its frames with one take
// of a constant table of positions and weighs them by the window.
//
//===----------------------------------------------------------------------===//

#include "transforms/Decompose/Rewrites.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

namespace {

/// The largest cosine or sine matrix built (as the ONNX importer's DFT).
constexpr int64_t kMaxMatrixElements = int64_t(1) << 26;

/// cos and sin of 2 pi r k / period * `sign` as [rows, cols] matrices of
/// `element` (element (r, k)); the angle's numerator is reduced modulo the
/// period first, so long transforms keep their precision.
std::pair<Value, Value> fourierMatrices(Emitter &b, Type element, int64_t rows,
                                        int64_t cols, int64_t period,
                                        double sign) {
  SmallVector<double> cosines, sines;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t k = 0; k < cols; ++k) {
      double angle = sign * 2.0 * M_PI * double((r * k) % period) / period;
      cosines.push_back(std::cos(angle));
      sines.push_back(std::sin(angle));
    }
  return {floatConstant(b, {rows, cols}, element, cosines),
          floatConstant(b, {rows, cols}, element, sines)};
}

/// dft: X[n] = sum_k x[k] e^(-+2 pi i n k / N), divided by N when inverse.
Value dft(Emitter &b, Operation *op) {
  Value re = op->getOperand(0), im = op->getOperand(1);
  int64_t n = shapeOf(re).back();
  if (n * n > kMaxMatrixElements)
    return Value();
  bool inverse = boolAttr(op, "inverse");
  auto [c, s] = fourierMatrices(b, elementOf(re), n, n, n, inverse ? 1 : -1);
  auto product = [&](Value x, Value m) { return b.op<DenseOp>({x, m}); };
  Value outRe = b.op<SubtractOp>({product(re, c), product(im, s)});
  Value outIm = b.add(product(re, s), product(im, c));
  if (inverse) {
    outRe = b.mul(outRe, b.scalar(1.0 / n, outRe));
    outIm = b.mul(outIm, b.scalar(1.0 / n, outIm));
  }
  return b.tuple({outRe, outIm});
}

/// stft: the frames [.., T, W] weighed by the window, times the cosine and
/// minus the sine matrix [N, W], stacked and moved to [.., N, T, 2].
Value stft(Emitter &b, Operation *op) {
  Value data = op->getOperand(0), window = op->getOperand(1);
  ArrayRef<int64_t> result = shapeOf(op->getResult(0));
  int64_t rank = shapeOf(data).size();
  int64_t width = intAttr(op, "win_length"), hop = intAttr(op, "hop_length");
  int64_t frequencies = result[rank - 1], frames = result[rank];
  if (frequencies * width > kMaxMatrixElements)
    return Value();
  SmallVector<int64_t> positions;
  for (int64_t t = 0; t < frames; ++t)
    for (int64_t w = 0; w < width; ++w)
      positions.push_back(t * hop + w);
  Value framed =
      b.op<TakeOp>({data, i64Constant(b, {frames, width}, positions)},
                   {b.i64("axis", rank - 1)});
  Type element = elementOf(data);
  Value weights =
      castTo(b,
             b.op<StridedSliceOp>(
                 {window}, {b.ints("begin", {0}), b.ints("end", {width})}),
             element);
  framed = b.mul(framed, weights);
  auto [c, s] =
      fourierMatrices(b, element, frequencies, width, width, /*sign=*/-1);
  Value real = b.op<DenseOp>({framed, c});
  Value imaginary = b.op<DenseOp>({framed, s});
  if (boolAttr(op, "normalized")) {
    double scale = 1.0 / std::sqrt(double(intAttr(op, "n_fft")));
    real = b.mul(real, b.scalar(scale, real));
    imaginary = b.mul(imaginary, b.scalar(scale, imaginary));
  }
  Value stacked =
      b.op<StackOp>({b.tuple({real, imaginary})}, {b.i64("axis", rank + 1)});
  SmallVector<int64_t> perm = rank == 2 ? SmallVector<int64_t>{0, 2, 1, 3}
                                        : SmallVector<int64_t>{1, 0, 2};
  return b.op<TransposeOp>({stacked}, {b.ints("axes", perm)});
}

} // namespace

void mlir::relay::decompose::addSignalRewrites(AddRewrite add) {
  add("dft", dft);
  add("stft", stft);
}

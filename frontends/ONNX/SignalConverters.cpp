//===- SignalConverters.cpp - ONNX window functions -------------*- C++ -*-===//
//
// HannWindow, HammingWindow and BlackmanWindow: sums of cosines of
// 2*pi*k*n/N over n = 0 .. size-1, N = size (periodic) or size - 1
// (symmetric). A size known at import gives a constant; a size computed at
// run time an `arange` whose length depends on the data (relay-run runs
// such a model on its interpreter).
//
//===----------------------------------------------------------------------===//

#include "frontends/ONNX/Converters.h"
#include "frontends/ONNX/Emitter.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::onnx_import;

namespace {

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
    auto type = RankedTensorType::get({size}, element);
    SmallVector<APFloat> values;
    for (int64_t i = 0; i < size; ++i) {
      double v = 0;
      for (auto [k, a] : llvm::enumerate(coefficients))
        v += a * (k == 0 ? 1.0 : std::cos(2 * M_PI * k * i / n));
      APFloat value(v);
      bool losesInfo;
      value.convert(cast<FloatType>(element).getFloatSemantics(),
                    APFloat::rmNearestTiesToEven, &losesInfo);
      values.push_back(value);
    }
    auto folded = DenseElementsAttr::get(type, values);
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

} // namespace

void mlir::relay::onnx_import::addSignalConverters(ConverterTable &t) {
  t["HannWindow"] = convertHannWindow;
  t["HammingWindow"] = convertHammingWindow;
  t["BlackmanWindow"] = convertBlackmanWindow;
}

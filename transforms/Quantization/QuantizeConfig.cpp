//===- QuantizeConfig.cpp - Relay's quantization configuration ------------===//

#include "transforms/Quantization/QuantizeConfig.h"

#include "dialects/relay/RelationUtils.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <sstream>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::quant;

Type quant::parseIntegerDtype(MLIRContext *ctx, StringRef text) {
  bool isUnsigned = text.consume_front("uint");
  if (!isUnsigned && !text.consume_front("int"))
    return {};
  unsigned width;
  if (text.getAsInteger(10, width) ||
      (width != 8 && width != 16 && width != 32 && width != 64))
    return {};
  return IntegerType::get(
      ctx, width, isUnsigned ? IntegerType::Unsigned : IntegerType::Signless);
}

LogicalResult quant::verifyConfig(const QuantizeConfig &config,
                                  function_ref<InFlightDiagnostic()> emitError,
                                  bool dtypes) {
  struct Width {
    StringRef name;
    int64_t bits;
    StringRef dtypeName;
    StringRef dtype;
  } widths[] = {
      {"nbit-input", config.nbitInput, "dtype-input", config.dtypeInput},
      {"nbit-weight", config.nbitWeight, "dtype-weight", config.dtypeWeight},
      {"nbit-activation", config.nbitActivation, "dtype-activation",
       config.dtypeActivation},
  };
  for (const Width &w : widths) {
    if (w.bits < 2 || w.bits > 32)
      return emitError() << w.name << "=" << w.bits
                         << " is not a bit width from 2 to 32";
    if (!dtypes)
      continue;
    StringRef text = w.dtype;
    bool isUnsigned = text.consume_front("uint");
    unsigned width = 0;
    if ((!isUnsigned && !text.consume_front("int")) ||
        text.getAsInteger(10, width) ||
        (width != 8 && width != 16 && width != 32))
      return emitError() << w.dtypeName << "=" << w.dtype
                         << " is not int8, int16 or int32";
    if (isUnsigned)
      return emitError() << w.dtypeName << "=" << w.dtype
                         << ": quantized values are signed";
    if (int64_t(width) < w.bits)
      return emitError() << w.dtypeName << "=" << w.dtype << " cannot hold "
                         << w.name << "=" << w.bits << " bits";
  }
  if (config.calibrateMode != "global-scale" &&
      config.calibrateMode != "kl-divergence" &&
      config.calibrateMode != "percentile")
    return emitError() << "calibrate-mode=" << config.calibrateMode
                       << " is not global-scale, kl-divergence or percentile";
  if (!(config.globalScale > 0)) {
    std::ostringstream value;
    value << config.globalScale;
    return emitError() << "global-scale=" << value.str() << " is not positive";
  }
  if (config.weightScale != "power2" && config.weightScale != "max")
    return emitError() << "weight-scale=" << config.weightScale
                       << " is not power2 or max";
  return success();
}

LogicalResult
quant::parseSkipConvLayers(ArrayRef<std::string> values, QuantizeConfig &config,
                           function_ref<InFlightDiagnostic()> emitError) {
  if (values.empty())
    return success();
  config.skipConvLayers.clear();
  for (const std::string &v : values) {
    if (v == "none")
      continue;
    int64_t index;
    if (StringRef(v).getAsInteger(10, index) || index < 0)
      return emitError() << "skip-conv-layers: '" << v
                         << "' is not a convolution index (or none)";
    config.skipConvLayers.push_back(index);
  }
  return success();
}

SmallVector<double> quant::elementValues(DenseElementsAttr dense) {
  SmallVector<double> out;
  if (isa<FloatType>(dense.getElementType())) {
    for (APFloat f : dense.getValues<APFloat>()) {
      bool lost;
      f.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
      out.push_back(f.convertToDouble());
    }
    return out;
  }
  // uint8 zero points read as 0..255, booleans as 0 and 1.
  Type t = dense.getElementType();
  bool zeroExtend = t.isUnsignedInteger() || t.isInteger(1);
  for (const APInt &i : dense.getValues<APInt>())
    out.push_back(zeroExtend ? static_cast<double>(i.getZExtValue())
                             : static_cast<double>(i.getSExtValue()));
  return out;
}

std::optional<SmallVector<double>> quant::constantValues(Value v) {
  // Through a cast of a constant (importers cast ONNX's int8 and uint8
  // zero points to int32 before the constants are folded), where the cast
  // keeps every value: integers that fit the integer type, floats made
  // float32 or float64.
  if (auto castOp = v ? v.getDefiningOp<CastOp>() : CastOp()) {
    std::optional<SmallVector<double>> values =
        constantValues(castOp->getOperand(0));
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!values || !type)
      return std::nullopt;
    Type to = type.getElementType();
    for (double &x : *values) {
      if (auto integer = dyn_cast<IntegerType>(to)) {
        // (Bounds past 2^53 are not exact doubles: those stop there.)
        unsigned width = std::min(integer.getWidth(), 53u);
        bool isUnsigned = integer.isUnsignedInteger() || width == 1;
        double lo = isUnsigned ? 0 : -std::ldexp(1.0, width - 1);
        double hi = std::ldexp(1.0, isUnsigned ? width : width - 1) - 1;
        if (x < lo || x > hi || x != std::trunc(x))
          return std::nullopt;
      } else if (to.isF32()) {
        x = static_cast<float>(x);
      } else if (!to.isF64()) {
        return std::nullopt;
      }
    }
    return values;
  }
  auto c = v ? v.getDefiningOp<ConstantOp>() : ConstantOp();
  DenseElementsAttr dense = c ? c.getDenseValue() : nullptr;
  if (!dense)
    return std::nullopt;
  return elementValues(dense);
}

std::optional<double> quant::scalarConstant(Value v) {
  std::optional<SmallVector<double>> values = constantValues(v);
  if (!values || values->size() != 1)
    return std::nullopt;
  return values->front();
}

Value quant::f32Constant(OpBuilder &b, Location loc, double v) {
  auto type = RankedTensorType::get({}, b.getF32Type());
  return ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(type, cast<Attribute>(b.getF32FloatAttr(v))));
}

std::optional<int64_t> quant::productWeightAxis(Operation *weightQuantization) {
  std::optional<int64_t> axis;
  Value w = weightQuantization->getResult(0);
  if (w.use_empty())
    return std::nullopt;
  for (OpOperand &use : w.getUses()) {
    Operation *user = use.getOwner();
    if (use.getOperandNumber() != 1)
      return std::nullopt;
    std::optional<int64_t> a;
    if (isa<DenseOp>(user)) {
      a = 0;
    } else if (isa<Conv2DOp>(user)) {
      auto layout = user->getAttrOfType<StringAttr>("kernel_layout");
      size_t o = layout ? layout.getValue().find('O') : 0;
      // A packed kernel (OIHW16i16o) has its output channels on two axes.
      if (o != StringRef::npos &&
          !(layout && isPackedLayout(layout.getValue())))
        a = static_cast<int64_t>(o);
    }
    if (!a || (axis && *axis != *a))
      return std::nullopt;
    axis = a;
  }
  return axis;
}

std::optional<int64_t> quant::productOutputAxis(Operation *product) {
  auto type = dyn_cast<RankedTensorType>(product->getResult(0).getType());
  if (!type)
    return std::nullopt;
  if (isa<DenseOp>(product))
    return type.getRank() - 1;
  if (!isa<Conv2DOp>(product))
    return std::nullopt;
  auto out = product->getAttrOfType<StringAttr>("out_layout");
  StringRef layout = out && !out.getValue().empty() ? out.getValue() : "";
  if (layout.empty()) {
    auto data = product->getAttrOfType<StringAttr>("data_layout");
    layout = data ? data.getValue() : "NCHW";
  }
  size_t c = layout.find('C');
  if (c == StringRef::npos || isPackedLayout(layout))
    return std::nullopt;
  return static_cast<int64_t>(c);
}

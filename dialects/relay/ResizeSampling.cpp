//===- ResizeSampling.cpp - Where image.resize* samples -------------------===//
//
// The coordinate transformations of image.resize* (TVM's topi and ONNX's
// Resize) as per-axis tables of taps.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/ResizeSampling.h"
#include "dialects/relay/OperatorRegistry.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <algorithm>
#include <cmath>
#include <string>

using namespace mlir;
using namespace mlir::relay;

SmallVector<ResizeTap>
mlir::relay::resizeTaps(int64_t in, int64_t outSize, StringRef method,
                        StringRef coords, StringRef rounding, double alpha,
                        bool exclude, std::optional<double> given,
                        std::optional<std::pair<double, double>> crop,
                        SmallVectorImpl<bool> *outside) {
  double scale = given ? *given : double(outSize) / double(in);
  auto source = [&](int64_t i) -> double {
    // The crop's ends on the first and last outputs (TensorFlow's
    // crop_and_resize, ONNX's formula).
    if (coords == "tf_crop_and_resize") {
      auto [start, end] = crop.value_or(std::pair(0.0, 1.0));
      return outSize > 1 ? start * (in - 1) + i * (end - start) * (in - 1) /
                                                  double(outSize - 1)
                         : 0.5 * (start + end) * (in - 1);
    }
    // ONNX's aligned corners divide by the resized length, in * scale
    // (unfloored), where a scale is given.
    if (coords == "align_corners") {
      double resized = given ? in * scale : double(outSize);
      return resized <= 1 ? 0.0 : double(i) * (in - 1) / (resized - 1);
    }
    if (coords == "asymmetric")
      return i / scale;
    if (coords == "tf_half_pixel_for_nn")
      return (i + 0.5) / scale;
    if (coords == "pytorch_half_pixel" && outSize == 1)
      return 0.0;
    // ONNX's (opset 19) half_pixel_symmetric: half_pixel shifted so that
    // the whole output length, where in * scale is not whole, stays
    // centred on the input's.
    if (coords == "half_pixel_symmetric") {
      double adjustment = double(outSize) / (in * scale);
      return in / 2.0 * (1 - adjustment) + (i + 0.5) / scale - 0.5;
    }
    return (i + 0.5) / scale - 0.5;
  };
  auto clamp = [&](int64_t i) { return std::clamp<int64_t>(i, 0, in - 1); };
  int numTaps = method == "nearest_neighbor" ? 1 : method == "linear" ? 2 : 4;
  SmallVector<ResizeTap> taps(numTaps);
  if (outside)
    outside->assign(outSize, false);
  for (int64_t i = 0; i < outSize; ++i) {
    double pos = source(i);
    if (coords == "tf_crop_and_resize" && (pos < 0 || pos > in - 1)) {
      if (outside)
        (*outside)[i] = true;
      for (ResizeTap &tap : taps) {
        tap.indices.push_back(0);
        tap.weights.push_back(0.0);
      }
      continue;
    }
    if (method == "nearest_neighbor") {
      double r;
      if (rounding == "floor")
        r = std::floor(pos);
      else if (rounding == "ceil")
        r = std::ceil(pos);
      else if (rounding == "round_prefer_ceil")
        r = std::floor(pos + 0.5);
      else if (rounding == "round_prefer_floor")
        r = std::ceil(pos - 0.5);
      else
        r = std::round(pos);
      taps[0].indices.push_back(clamp(int64_t(r)));
      taps[0].weights.push_back(1.0);
      continue;
    }
    double base = std::floor(pos), t = pos - base;
    if (method == "linear") {
      taps[0].indices.push_back(clamp(int64_t(base)));
      taps[0].weights.push_back(1.0 - t);
      taps[1].indices.push_back(clamp(int64_t(base) + 1));
      taps[1].weights.push_back(t);
      continue;
    }
    double a = alpha;
    double w[4] = {((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a,
                   ((a + 2) * t - (a + 3)) * t * t + 1,
                   ((a + 2) * (1 - t) - (a + 3)) * (1 - t) * (1 - t) + 1,
                   ((a * (2 - t) - 5 * a) * (2 - t) + 8 * a) * (2 - t) - 4 * a};
    double total = 0;
    for (int j = 0; j < 4; ++j) {
      int64_t idx = int64_t(base) - 1 + j;
      if (exclude && (idx < 0 || idx >= in))
        w[j] = 0;
      total += w[j];
    }
    for (int j = 0; j < 4; ++j) {
      taps[j].indices.push_back(clamp(int64_t(base) - 1 + j));
      taps[j].weights.push_back(exclude && total != 0 ? w[j] / total : w[j]);
    }
  }
  return taps;
}

std::optional<SmallVector<int64_t>>
mlir::relay::getResizedAxes(StringRef layout, int64_t spatial) {
  if (spatial < 1 || spatial > 3)
    return std::nullopt;
  std::string plain = "NC" + StringRef("DHW").take_back(spatial).str();
  if (layout.empty())
    layout = plain;
  if (layout.size() != plain.size())
    return std::nullopt;
  for (char c : plain)
    if (layout.count(c) != 1)
      return std::nullopt;
  SmallVector<int64_t> axes;
  for (char c : StringRef(plain).drop_front(2))
    axes.push_back(layout.find(c));
  return axes;
}

std::optional<SmallVector<ResizeAxis>>
mlir::relay::getResizeAxes(Operation *op) {
  auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto sizeAttr = op->getAttrOfType<DenseI64ArrayAttr>("size");
  if (!type || !type.hasStaticShape() || !sizeAttr)
    return std::nullopt;
  DictionaryAttr attrs = getOperatorAttributes(op);
  auto str = [&](StringRef name) {
    auto value = dyn_cast_or_null<StringAttr>(attrs.get(name));
    return value ? value.getValue() : StringRef();
  };
  auto number = [&](StringRef name) {
    auto value = dyn_cast_or_null<FloatAttr>(attrs.get(name));
    return value ? value.getValueAsDouble() : 0.0;
  };
  StringRef method = str("method"),
            coords = str("coordinate_transformation_mode");
  StringRef rounding = str("rounding_method");
  if (rounding.empty())
    rounding = coords == "align_corners" ? "round" : "floor";
  auto exclude = dyn_cast_or_null<IntegerAttr>(attrs.get("cubic_exclude"));
  ArrayRef<int64_t> size = sizeAttr.asArrayRef();
  int64_t spatial = size.size();
  std::optional<SmallVector<int64_t>> resized =
      getResizedAxes(str("layout"), spatial);
  if (type.getRank() != spatial + 2 || !resized)
    return std::nullopt;
  static const char *const scaleNames[] = {"scale_d", "scale_h", "scale_w"};
  ArrayRef<const char *> scales = ArrayRef(scaleNames).take_back(spatial);
  auto roi = op->getAttrOfType<DenseF64ArrayAttr>("roi");
  SmallVector<ResizeAxis> axes;
  for (int64_t i = 0; i < spatial; ++i) {
    ResizeAxis &axis = axes.emplace_back();
    axis.axis = (*resized)[i];
    int64_t in = type.getDimSize(axis.axis);
    std::optional<double> scale;
    if (auto a = op->getAttrOfType<FloatAttr>(scales[i]))
      scale = a.getValueAsDouble();
    std::optional<std::pair<double, double>> crop;
    if (roi && int64_t(roi.size()) == 2 * spatial)
      crop = std::pair(roi[i], roi[i + spatial]);
    axis.identity = in == size[i] && scale.value_or(1.0) == 1.0 &&
                    method != "cubic" && coords != "tf_half_pixel_for_nn" &&
                    coords != "tf_crop_and_resize";
    axis.outside.assign(size[i], false);
    if (!axis.identity)
      axis.taps = resizeTaps(
          in, size[i], method, coords, rounding, number("cubic_alpha"),
          exclude && exclude.getInt() != 0, scale, crop, &axis.outside);
  }
  return axes;
}

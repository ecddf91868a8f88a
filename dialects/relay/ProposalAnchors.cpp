//===- ProposalAnchors.cpp - vision.proposal's anchor boxes -----*- C++ -*-===//

#include "dialects/relay/ProposalAnchors.h"

#include <cmath>

using namespace mlir;

SmallVector<std::array<double, 4>>
mlir::relay::proposalAnchors(ArrayRef<double> scales, ArrayRef<double> ratios,
                             double base) {
  SmallVector<std::array<double, 4>> anchors;
  int64_t numScales = scales.size();
  double center = 0.5 * (base - 1.0);
  for (int64_t k = 0, e = numScales * ratios.size(); k < e; ++k) {
    double ratio = ratios[k / numScales], scale = scales[k % numScales];
    double w =
        std::floor(std::sqrt(std::floor(base * base / ratio)) + 0.5) * scale;
    double h = std::floor(w / scale * ratio + 0.5) * scale;
    anchors.push_back({center - 0.5 * (w - 1.0), center - 0.5 * (h - 1.0),
                       center + 0.5 * (w - 1.0), center + 0.5 * (h - 1.0)});
  }
  return anchors;
}

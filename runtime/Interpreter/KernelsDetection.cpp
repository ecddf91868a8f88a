//===- KernelsDetection.cpp - Region-proposal reference kernel --*- C++ -*-===//
//
// vision.proposal, Faster R-CNN's region proposal layer as TVM's topi
// computes it (topi/vision/rcnn/proposal.py): anchors moved by the
// predicted deltas, sorted by score, suppressed greedily and cycled into a
// fixed number of rows. Its suppression is sequential and its output rows
// depend on how many boxes survive, so it has no decomposition.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/ProposalAnchors.h"
#include "runtime/Interpreter/Kernels.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

/// The kernel in `T`, the arithmetic of TVM's kernel for the input dtype
/// (float for float16 and float32).
template <typename T>
static FailureOr<ValuePtr> proposal(const KernelContext &ctx) {
  const Tensor &prob = ctx.input(0), &deltas = ctx.input(1),
               &info = ctx.input(2);
  ArrayRef<int64_t> shape = prob.getShape();
  int64_t batches = shape[0], height = shape[2], width = shape[3];
  SmallVector<double> scales = ctx.getFloats("scales", {4, 8, 16, 32});
  SmallVector<double> ratios = ctx.getFloats("ratios", {0.5, 1, 2});
  int64_t anchors = int64_t(scales.size() * ratios.size());
  int64_t stride = ctx.getInt("feature_stride", 16);
  T threshold = T(ctx.getFloat("threshold", 0.7));
  int64_t preTop = ctx.getInt("rpn_pre_nms_top_n", 6000);
  int64_t postTop = ctx.getInt("rpn_post_nms_top_n", 300);
  T minSizeAttr = T(ctx.getInt("rpn_min_size", 16));
  bool iouLoss = ctx.getBool("iou_loss", false);
  int64_t boxes = height * width * anchors;
  int64_t sorted = preTop > 0 ? std::min(preTop, boxes) : boxes;

  SmallVector<std::array<double, 4>> anchorBoxes =
      proposalAnchors(scales, ratios, double(stride));

  auto type = ctx.resultTensorType();
  Tensor out(type.getElementType(), type.getShape());
  // Rows a batch without surviving boxes (no boxes at all) leaves: TVM
  // leaves them unset.
  for (int64_t e = 0; e < out.getNumElements(); ++e)
    out.setF(e, -1);
  // A box: x1, y1, x2, y2, score.
  std::vector<std::array<T, 5>> rows(boxes);
  std::vector<int64_t> order(boxes);
  std::vector<bool> removed;
  for (int64_t b = 0; b < batches; ++b) {
    T imHeight = T(info.getF(b * 3)), imWidth = T(info.getF(b * 3 + 1));
    T minSize = T(info.getF(b * 3 + 2)) * minSizeAttr;
    // Cells past the image (the feature map's padding) score -1.
    T realHeight = std::trunc(imHeight / T(stride));
    T realWidth = std::trunc(imWidth / T(stride));
    auto clip = [](T v, T hi) { return std::max(std::min(v, hi), T(0)); };
    for (int64_t h = 0; h < height; ++h) {
      for (int64_t w = 0; w < width; ++w) {
        for (int64_t k = 0; k < anchors; ++k) {
          const std::array<double, 4> &a = anchorBoxes[k];
          T x1 = T(a[0]) + T(w * stride), y1 = T(a[1]) + T(h * stride);
          T x2 = T(a[2]) + T(w * stride), y2 = T(a[3]) + T(h * stride);
          T d[4];
          for (int64_t i = 0; i < 4; ++i)
            d[i] = T(deltas.getF(
                (((b * anchors + k) * 4 + i) * height + h) * width + w));
          T px1, py1, px2, py2;
          if (iouLoss) {
            px1 = x1 + d[0];
            py1 = y1 + d[1];
            px2 = x2 + d[2];
            py2 = y2 + d[3];
          } else {
            T bw = x2 - x1 + T(1), bh = y2 - y1 + T(1);
            T cx = x1 + T(0.5) * (bw - T(1)), cy = y1 + T(0.5) * (bh - T(1));
            T pcx = d[0] * bw + cx, pcy = d[1] * bh + cy;
            T pw = T(std::exp(d[2])) * bw, ph = T(std::exp(d[3])) * bh;
            px1 = pcx - T(0.5) * (pw - T(1));
            py1 = pcy - T(0.5) * (ph - T(1));
            px2 = pcx + T(0.5) * (pw - T(1));
            py2 = pcy + T(0.5) * (ph - T(1));
          }
          px1 = clip(px1, imWidth - T(1));
          py1 = clip(py1, imHeight - T(1));
          px2 = clip(px2, imWidth - T(1));
          py2 = clip(py2, imHeight - T(1));
          T score = T(prob.getF(
              ((b * anchors * 2 + anchors + k) * height + h) * width + w));
          if (T(h) >= realHeight || T(w) >= realWidth)
            score = T(-1);
          std::array<T, 5> &row = rows[(h * width + w) * anchors + k];
          row = {px1, py1, px2, py2, score};
          // Boxes smaller than the minimum grow by it and score -1.
          if (px2 - px1 + T(1) < minSize || py2 - py1 + T(1) < minSize) {
            T half = minSize / T(2);
            row = {px1 - half, py1 - half, px2 + half, py2 + half, T(-1)};
          }
        }
      }
    }
    // Descending scores, equal ones in box order (TVM's argsort_nms); a
    // NaN score sorts as the lowest.
    for (int64_t i = 0; i < boxes; ++i)
      order[i] = i;
    auto key = [&](int64_t i) {
      T s = rows[i][4];
      return std::isnan(s) ? -std::numeric_limits<T>::infinity() : s;
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t l, int64_t r) { return key(l) > key(r); });
    // Greedy suppression of the `sorted` best, IoU over pixel-inclusive
    // boxes (+1), strictly above the threshold.
    removed.assign(sorted, false);
    auto area = [](const std::array<T, 5> &r) {
      return (r[2] - r[0] + T(1)) * (r[3] - r[1] + T(1));
    };
    for (int64_t l = 0; l + 1 < sorted; ++l) {
      if (removed[l])
        continue;
      const std::array<T, 5> &p = rows[order[l]];
      for (int64_t i = l + 1; i < sorted; ++i) {
        const std::array<T, 5> &q = rows[order[i]];
        T iw =
            std::max(T(0), std::min(p[2], q[2]) - std::max(p[0], q[0]) + T(1));
        T ih =
            std::max(T(0), std::min(p[3], q[3]) - std::max(p[1], q[1]) + T(1));
        T inter = iw * ih;
        T iou = inter / (area(p) + area(q) - inter);
        if (iou > threshold)
          removed[i] = true;
      }
    }
    // The survivors in order, cycled until the batch's rows are full.
    int64_t kept = std::count(removed.begin(), removed.end(), false);
    for (int64_t i = 0; kept > 0 && i < postTop;) {
      for (int64_t j = 0; j < sorted && i < postTop; ++j) {
        if (removed[j])
          continue;
        int64_t row = (b * postTop + i++) * 5;
        out.setF(row, double(b));
        for (int64_t e = 0; e < 4; ++e)
          out.setF(row + 1 + e, double(rows[order[j]][e]));
      }
    }
  }
  return RuntimeValue::tensor(std::move(out));
}

void mlir::relay::interp::registerDetectionKernels(
    llvm::StringMap<KernelFn> &k) {
  k["vision.proposal"] = [](const KernelContext &ctx) {
    return ctx.input(0).getElementType().isF64() ? proposal<double>(ctx)
                                                 : proposal<float>(ctx);
  };
}

//===- KernelsNN.cpp - Neural-network reference kernels ---------*- C++ -*-===//
//
// Convolutions, matrix products, pooling, normalisation, dropout,
// upsampling, roi_align and the classic non-maximum suppression, with the
// layouts, padding, strides, dilation and groups the relations accept.
// Accumulation is in double.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelayOps.h"
#include "runtime/Interpreter/Kernels.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::interp;

namespace {
/// Positions of N, C, H, W in a 2-d data layout.
struct ImageLayout {
  int64_t n, c, h, w;
  static ImageLayout get(StringRef layout) {
    if (layout == "NHWC")
      return {0, 3, 1, 2};
    return {0, 1, 2, 3};
  }
  int64_t offset(ArrayRef<int64_t> strides, int64_t n_, int64_t c_, int64_t h_,
                 int64_t w_) const {
    return n_ * strides[n] + c_ * strides[c] + h_ * strides[h] +
           w_ * strides[w];
  }
};

/// Positions of O, I, H, W in a kernel layout (a permutation of OIHW).
struct KernelLayout {
  int64_t o, i, h, w;
  static KernelLayout get(StringRef layout) {
    return {int64_t(layout.find('O')), int64_t(layout.find('I')),
            int64_t(layout.find('H')), int64_t(layout.find('W'))};
  }
};

/// (top, left, bottom, right) from 1, 2 or 4 padding values.
std::array<int64_t, 4> padding(const KernelContext &ctx) {
  SmallVector<int64_t> p = ctx.getInts("padding", {0, 0});
  if (p.size() == 1)
    return {p[0], p[0], p[0], p[0]};
  if (p.size() == 2)
    return {p[0], p[1], p[0], p[1]};
  return {p[0], p[1], p[2], p[3]};
}

std::array<int64_t, 2> pair(const KernelContext &ctx, StringRef name,
                            int64_t dflt) {
  SmallVector<int64_t> v = ctx.getInts(name, {dflt, dflt});
  return {v[0], v.size() > 1 ? v[1] : v[0]};
}
} // namespace

static FailureOr<ValuePtr> conv2dKernel(const KernelContext &ctx,
                                        bool transposed) {
  const Tensor &x = ctx.input(0), &w = ctx.input(1);
  StringRef dataLayout = ctx.getString("data_layout", "NCHW");
  ImageLayout dl = ImageLayout::get(dataLayout);
  StringRef outLayoutName = ctx.getString("out_layout", "");
  ImageLayout ol =
      ImageLayout::get(outLayoutName.empty() ? dataLayout : outLayoutName);
  KernelLayout kl = KernelLayout::get(
      ctx.getString("kernel_layout", transposed ? "IOHW" : "OIHW"));
  auto [sh, sw] = pair(ctx, "strides", 1);
  auto [dh, dw] = pair(ctx, "dilation", 1);
  auto pad = padding(ctx);
  int64_t groups = ctx.getInt("groups", 1);
  auto type = ctx.resultTensorType();
  Tensor out(type.getElementType(), type.getShape());
  ArrayRef<int64_t> xs = x.getShape(), ws = w.getShape(), os = out.getShape();
  int64_t N = xs[dl.n], C = xs[dl.c], H = xs[dl.h], W = xs[dl.w];
  int64_t KH = ws[kl.h], KW = ws[kl.w];
  int64_t OC = os[ol.c], OH = os[ol.h], OW = os[ol.w];
  SmallVector<int64_t> xst = x.strides(), wst = w.strides(),
                       ost = out.strides();
  auto wOffset = [&](int64_t o, int64_t i, int64_t h, int64_t ww) {
    return o * wst[kl.o] + i * wst[kl.i] + h * wst[kl.h] + ww * wst[kl.w];
  };
  if (!transposed) {
    // The operands in NCHW / OIHW doubles, each output plane accumulated
    // a row at a time: per output the terms are added in the order of
    // (input channel, kernel row, kernel column), as a dot product per
    // output would add them, but the inner loop runs along a row.
    int64_t cinPerGroup = C / groups, coutPerGroup = OC / groups;
    std::vector<double> in(N * C * H * W), weights(OC * cinPerGroup * KH * KW);
    for (int64_t n = 0, k = 0; n < N; ++n)
      for (int64_t c = 0; c < C; ++c)
        for (int64_t h = 0; h < H; ++h)
          for (int64_t ww = 0; ww < W; ++ww)
            in[k++] = x.getF(dl.offset(xst, n, c, h, ww));
    for (int64_t o = 0, k = 0; o < OC; ++o)
      for (int64_t i = 0; i < cinPerGroup; ++i)
        for (int64_t h = 0; h < KH; ++h)
          for (int64_t ww = 0; ww < KW; ++ww)
            weights[k++] = w.getF(wOffset(o, i, h, ww));
    std::vector<double> plane(OH * OW);
    for (int64_t n = 0; n < N; ++n)
      for (int64_t oc = 0; oc < OC; ++oc) {
        int64_t group = oc / coutPerGroup;
        std::fill(plane.begin(), plane.end(), 0.0);
        for (int64_t ic = 0; ic < cinPerGroup; ++ic) {
          const double *image = &in[(n * C + group * cinPerGroup + ic) * H * W];
          for (int64_t kh = 0; kh < KH; ++kh)
            for (int64_t kw = 0; kw < KW; ++kw) {
              double wv =
                  weights[((oc * cinPerGroup + ic) * KH + kh) * KW + kw];
              // The outputs whose column iw = ow * sw - left + kw * dw
              // falls in the image.
              int64_t shift = kw * dw - pad[1];
              int64_t first = shift >= 0 ? 0 : (-shift + sw - 1) / sw;
              int64_t last = W - 1 - shift < 0
                                 ? -1
                                 : std::min(OW - 1, (W - 1 - shift) / sw);
              for (int64_t oh = 0; oh < OH; ++oh) {
                int64_t ih = oh * sh - pad[0] + kh * dh;
                if (ih < 0 || ih >= H)
                  continue;
                const double *row = image + ih * W;
                double *acc = &plane[oh * OW];
                for (int64_t ow = first; ow <= last; ++ow)
                  acc[ow] += row[ow * sw + shift] * wv;
              }
            }
        }
        for (int64_t oh = 0, k = 0; oh < OH; ++oh)
          for (int64_t ow = 0; ow < OW; ++ow)
            out.setF(ol.offset(ost, n, oc, oh, ow), plane[k++]);
      }
    return RuntimeValue::tensor(std::move(out));
  }
  // Transposed: every input element scatters into the output.
  std::vector<double> acc(out.getNumElements(), 0.0);
  int64_t cinPerGroup = C / groups, coutPerGroup = OC / groups;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t ic = 0; ic < C; ++ic) {
      int64_t group = ic / cinPerGroup;
      for (int64_t ih = 0; ih < H; ++ih)
        for (int64_t iw = 0; iw < W; ++iw) {
          double v = x.getF(dl.offset(xst, n, ic, ih, iw));
          for (int64_t o = 0; o < coutPerGroup; ++o) {
            int64_t oc = group * coutPerGroup + o;
            for (int64_t kh = 0; kh < KH; ++kh) {
              int64_t oh = ih * sh - pad[0] + kh * dh;
              if (oh < 0 || oh >= OH)
                continue;
              for (int64_t kw = 0; kw < KW; ++kw) {
                int64_t ow = iw * sw - pad[1] + kw * dw;
                if (ow < 0 || ow >= OW)
                  continue;
                acc[ol.offset(ost, n, oc, oh, ow)] +=
                    v * w.getF(wOffset(o, ic, kh, kw));
              }
            }
          }
        }
    }
  for (int64_t k = 0; k < out.getNumElements(); ++k)
    out.setF(k, acc[k]);
  return RuntimeValue::tensor(std::move(out));
}

/// dense (b transposed), matmul (optional transposes), batch_matmul.
static FailureOr<ValuePtr> matmulKernel(const KernelContext &ctx, bool dense,
                                        bool batched) {
  const Tensor &a = ctx.input(0), &b = ctx.input(1);
  bool ta = !dense && ctx.getBool("transpose_a", false);
  bool tb = dense || ctx.getBool("transpose_b", false);
  auto type = ctx.resultTensorType();
  Tensor out(type.getElementType(), type.getShape());
  SmallVector<int64_t> as = a.strides(), bs = b.strides();
  int64_t ar = a.getRank();
  // The reduction size.
  int64_t K = batched ? a.getShape()[ta ? 1 : 2]
                      : (ta ? a.getShape()[0] : a.getShape()[ar - 1]);
  for (int64_t k = 0; k < out.getNumElements(); ++k) {
    SmallVector<int64_t> o = unravel(k, out.getShape());
    int64_t n = o.back();
    int64_t aBase, aStep, bBase, bStep;
    if (batched) {
      int64_t batch = o[0], m = o[1];
      aBase =
          (a.getShape()[0] == 1 ? 0 : batch) * as[0] + m * (ta ? as[2] : as[1]);
      aStep = ta ? as[1] : as[2];
      bBase =
          (b.getShape()[0] == 1 ? 0 : batch) * bs[0] + n * (tb ? bs[1] : bs[2]);
      bStep = tb ? bs[2] : bs[1];
    } else {
      if (ta) {
        aBase = o[0] * as[1];
        aStep = as[0];
      } else {
        // The leading dimensions of `a` index the rows.
        aBase = ravel(ArrayRef<int64_t>(o).drop_back(),
                      ArrayRef<int64_t>(as).drop_back());
        aStep = as[ar - 1];
      }
      bBase = n * (tb ? bs[0] : bs[1]);
      bStep = tb ? bs[1] : bs[0];
    }
    double acc = 0;
    for (int64_t r = 0; r < K; ++r)
      acc += a.getF(aBase + r * aStep) * b.getF(bBase + r * bStep);
    out.setF(k, acc);
  }
  return RuntimeValue::tensor(std::move(out));
}

static FailureOr<ValuePtr> poolKernel(const KernelContext &ctx, bool isMax) {
  const Tensor &x = ctx.input(0);
  ImageLayout l = ImageLayout::get(ctx.getString("layout", "NCHW"));
  auto [kh, kw] = pair(ctx, "pool_size", 1);
  auto [sh, sw] = pair(ctx, "strides", 1);
  auto [dh, dw] = pair(ctx, "dilation", 1);
  auto pad = padding(ctx);
  bool includePad = ctx.getBool("count_include_pad", false);
  auto type = ctx.resultTensorType();
  Tensor out(type.getElementType(), type.getShape());
  ArrayRef<int64_t> xs = x.getShape(), os = out.getShape();
  int64_t H = xs[l.h], W = xs[l.w];
  SmallVector<int64_t> xst = x.strides(), ost = out.strides();
  for (int64_t n = 0; n < os[l.n]; ++n)
    for (int64_t c = 0; c < os[l.c]; ++c)
      for (int64_t oh = 0; oh < os[l.h]; ++oh)
        for (int64_t ow = 0; ow < os[l.w]; ++ow) {
          double acc = isMax ? -INFINITY : 0;
          int64_t count = 0, padCount = 0;
          for (int64_t i = 0; i < kh; ++i) {
            int64_t ih = oh * sh - pad[0] + i * dh;
            for (int64_t j = 0; j < kw; ++j) {
              int64_t iw = ow * sw - pad[1] + j * dw;
              // Positions inside the padded input count for
              // count_include_pad.
              if (ih < H + pad[2] && iw < W + pad[3])
                ++padCount;
              if (ih < 0 || ih >= H || iw < 0 || iw >= W)
                continue;
              double v = x.getF(l.offset(xst, n, c, ih, iw));
              // The maximum propagates NaN, as the max reduction does.
              acc = !isMax ? acc + v : std::isnan(acc) || acc >= v ? acc : v;
              ++count;
            }
          }
          if (!isMax)
            acc = (includePad ? padCount : count)
                      ? acc / (includePad ? padCount : count)
                      : 0;
          out.setF(l.offset(ost, n, c, oh, ow), acc);
        }
  return RuntimeValue::tensor(std::move(out));
}

/// Adaptive pooling (PyTorch's windows); global pooling is output 1x1.
static FailureOr<ValuePtr> adaptivePoolKernel(const KernelContext &ctx,
                                              bool isMax) {
  const Tensor &x = ctx.input(0);
  ImageLayout l = ImageLayout::get(ctx.getString("layout", "NCHW"));
  auto type = ctx.resultTensorType();
  Tensor out(type.getElementType(), type.getShape());
  ArrayRef<int64_t> xs = x.getShape(), os = out.getShape();
  int64_t H = xs[l.h], W = xs[l.w], OH = os[l.h], OW = os[l.w];
  SmallVector<int64_t> xst = x.strides(), ost = out.strides();
  for (int64_t n = 0; n < os[l.n]; ++n)
    for (int64_t c = 0; c < os[l.c]; ++c)
      for (int64_t oh = 0; oh < OH; ++oh)
        for (int64_t ow = 0; ow < OW; ++ow) {
          int64_t h0 = oh * H / OH, h1 = ((oh + 1) * H + OH - 1) / OH;
          int64_t w0 = ow * W / OW, w1 = ((ow + 1) * W + OW - 1) / OW;
          double acc = isMax ? -INFINITY : 0;
          for (int64_t ih = h0; ih < h1; ++ih)
            for (int64_t iw = w0; iw < w1; ++iw) {
              double v = x.getF(l.offset(xst, n, c, ih, iw));
              // The maximum propagates NaN, as the max reduction does.
              acc = !isMax ? acc + v : std::isnan(acc) || acc >= v ? acc : v;
            }
          if (!isMax)
            acc /= double((h1 - h0) * (w1 - w0));
          out.setF(l.offset(ost, n, c, oh, ow), acc);
        }
  return RuntimeValue::tensor(std::move(out));
}

static FailureOr<ValuePtr> batchNormKernel(const KernelContext &ctx) {
  const Tensor &x = ctx.input(0), &gamma = ctx.input(1), &beta = ctx.input(2),
               &mean = ctx.input(3), &var = ctx.input(4);
  int64_t axis = ctx.getInt("axis", 1);
  if (axis < 0)
    axis += x.getRank();
  double eps = ctx.getFloat("epsilon", 1e-5);
  bool center = ctx.getBool("center", true), scale = ctx.getBool("scale", true);
  Tensor y(x.getElementType(), x.getShape());
  int64_t stride = x.strides()[axis], n = x.getShape()[axis];
  for (int64_t k = 0; k < x.getNumElements(); ++k) {
    int64_t c = (k / stride) % n;
    double v = (x.getF(k) - mean.getF(c)) / std::sqrt(var.getF(c) + eps);
    if (scale)
      v *= gamma.getF(c);
    if (center)
      v += beta.getF(c);
    y.setF(k, v);
  }
  return RuntimeValue::tuple({RuntimeValue::tensor(std::move(y)),
                              RuntimeValue::tensor(mean),
                              RuntimeValue::tensor(var)});
}

static FailureOr<ValuePtr> layerNormKernel(const KernelContext &ctx) {
  const Tensor &x = ctx.input(0), &gamma = ctx.input(1), &beta = ctx.input(2);
  int64_t axis = ctx.getInt("axis", -1);
  if (axis < 0)
    axis += x.getRank();
  double eps = ctx.getFloat("epsilon", 1e-5);
  bool center = ctx.getBool("center", true), scale = ctx.getBool("scale", true);
  Tensor y(x.getElementType(), x.getShape());
  int64_t stride = x.strides()[axis], n = x.getShape()[axis];
  for (int64_t k = 0; k < x.getNumElements(); ++k) {
    if ((k / stride) % n != 0)
      continue; // each line once, from its first element
    double sum = 0, sq = 0;
    for (int64_t j = 0; j < n; ++j)
      sum += x.getF(k + j * stride);
    double mu = sum / n;
    for (int64_t j = 0; j < n; ++j) {
      double d = x.getF(k + j * stride) - mu;
      sq += d * d;
    }
    double inv = 1.0 / std::sqrt(sq / n + eps);
    for (int64_t j = 0; j < n; ++j) {
      double v = (x.getF(k + j * stride) - mu) * inv;
      if (scale)
        v *= gamma.getF(j);
      if (center)
        v += beta.getF(j);
      y.setF(k + j * stride, v);
    }
  }
  return RuntimeValue::tensor(std::move(y));
}

static FailureOr<ValuePtr> dropoutKernel(const KernelContext &ctx) {
  // Inference: the identity, and a mask of ones.
  const Tensor &x = ctx.input(0);
  Tensor mask(x.getElementType(), x.getShape());
  for (int64_t k = 0; k < mask.getNumElements(); ++k)
    mask.setF(k, 1.0);
  return RuntimeValue::tuple(
      {RuntimeValue::tensor(x), RuntimeValue::tensor(std::move(mask))});
}

static FailureOr<ValuePtr> upsamplingKernel(const KernelContext &ctx) {
  const Tensor &x = ctx.input(0);
  ImageLayout l = ImageLayout::get(ctx.getString("layout", "NCHW"));
  StringRef method = ctx.getString("method", "nearest_neighbor");
  bool alignCorners = ctx.getBool("align_corners", false);
  auto type = ctx.resultTensorType();
  // Bicubic: image.resize2d's cubic taps (default alpha) with aligned
  // corners or asymmetric coordinates, as topi and the decomposition take
  // them.
  if (method == "bicubic")
    return resizeAxes(ctx, x, {l.h, l.w},
                      {type.getDimSize(l.h), type.getDimSize(l.w)}, "cubic",
                      alignCorners ? "align_corners" : "asymmetric", "round",
                      /*alpha=*/-0.5, /*exclude=*/false);
  Tensor out(type.getElementType(), type.getShape());
  ArrayRef<int64_t> xs = x.getShape(), os = out.getShape();
  SmallVector<int64_t> xst = x.strides(), ost = out.strides();
  bool nearest = method == "nearest_neighbor";
  UpSamplingOp::SourcePositions rows =
      UpSamplingOp::getSourcePositions(xs[l.h], os[l.h], nearest, alignCorners);
  UpSamplingOp::SourcePositions cols =
      UpSamplingOp::getSourcePositions(xs[l.w], os[l.w], nearest, alignCorners);
  for (int64_t n = 0; n < os[l.n]; ++n)
    for (int64_t c = 0; c < os[l.c]; ++c)
      for (int64_t oh = 0; oh < os[l.h]; ++oh)
        for (int64_t ow = 0; ow < os[l.w]; ++ow) {
          auto at = [&](int64_t yy, int64_t xx) {
            return x.getF(l.offset(xst, n, c, yy, xx));
          };
          int64_t y0 = rows.low[oh], y1 = rows.high[oh];
          int64_t x0 = cols.low[ow], x1 = cols.high[ow];
          double fy = rows.fraction[oh], fx = cols.fraction[ow];
          double v =
              nearest ? at(y0, x0)
                      : (1 - fy) * ((1 - fx) * at(y0, x0) + fx * at(y0, x1)) +
                            fy * ((1 - fx) * at(y1, x0) + fx * at(y1, x1));
          out.setF(l.offset(ost, n, c, oh, ow), v);
        }
  return RuntimeValue::tensor(std::move(out));
}

/// One axis's bilinear taps of a sample at `v` over `size` pixels, as
/// vision.roi_align's decomposition (NNRewrites.cpp) takes them: the low
/// and high pixel and their weights, zero more than a pixel outside, the
/// border pixel alone within the last pixel (or below 0).
struct AxisTap {
  int64_t low, high;
  double lowWeight, highWeight;
};
static AxisTap axisTap(double v, int64_t size) {
  // NaN propagates (NaN weights, as the decomposition's); an infinite
  // coordinate is outside (zero weights).
  if (std::isnan(v))
    return {0, 0, v, v};
  if (std::isinf(v))
    return {0, 0, 0.0, 0.0};
  double valid = v >= -1 && v <= double(size) ? 1.0 : 0.0;
  v = std::max(v, 0.0);
  double floor = std::floor(v);
  double low = std::clamp(floor, 0.0, double(size - 1));
  double high = std::clamp(low + 1, 0.0, double(size - 1));
  double frac = floor >= double(size - 1) ? 0.0 : v - low;
  return {int64_t(low), int64_t(high), (1 - frac) * valid, frac * valid};
}

/// The most sample points of one bin of an adaptive grid (sample_ratio <=
/// 0): a region far larger than its bins fails rather than runs for hours.
static constexpr int64_t kMaxAdaptiveSamples = 1 << 16;

/// vision.roi_align (NCHW) as its decomposition computes it: per region,
/// the bilinear taps of its sample rows and columns once, then per channel
/// and bin the mean (or maximum) of its points. sample_ratio <= 0 is TVM's
/// and ONNX's adaptive grid: ceil(region size / bins) points per bin side,
/// region by region (which the decomposition, of static sizes, lacks).
static FailureOr<ValuePtr> roiAlignKernel(const KernelContext &ctx) {
  const Tensor &data = ctx.input(0), &rois = ctx.input(1);
  auto type = ctx.resultTensorType();
  Tensor out(type.getElementType(), type.getShape());
  ArrayRef<int64_t> in = data.getShape();
  int64_t n = in[0], c = in[1], h = in[2], w = in[3];
  int64_t r = rois.getShape()[0];
  SmallVector<int64_t> pooled = ctx.getInts("pooled_size", {1, 1});
  int64_t bh = pooled[0], bw = pooled[1];
  int64_t ratio = ctx.getInt("sample_ratio", -1);
  double scale = ctx.getFloat("spatial_scale", 1.0);
  bool aligned = ctx.getBool("aligned", false);
  bool isMax = ctx.getString("mode", "avg") == "max";
  double shift = aligned ? -0.5 : 0.0;
  if (r > 0 && (n == 0 || h == 0 || w == 0)) {
    ctx.emitError() << "regions of interest over empty features";
    return failure();
  }
  std::vector<AxisTap> rowTaps, colTaps;
  for (int64_t i = 0; i < r; ++i) {
    auto field = [&](int64_t f) { return rois.getF(i * 5 + f); };
    // A NaN batch index reads image 0, as the decomposition's cast does.
    double b0 = field(0);
    int64_t batch =
        std::isnan(b0) ? 0 : int64_t(std::clamp(b0, 0.0, double(n - 1)));
    double x1 = field(1) * scale + shift, y1 = field(2) * scale + shift;
    double width = field(3) * scale + shift - x1;
    double height = field(4) * scale + shift - y1;
    if (!aligned) {
      width = std::max(width, 1.0);
      height = std::max(height, 1.0);
    }
    auto grid = [&](double size, int64_t bins) -> int64_t {
      if (ratio > 0)
        return ratio;
      double points = std::ceil(size / double(bins));
      return std::isfinite(points)
                 ? std::max<int64_t>(1, int64_t(std::min(points, 1e9)))
                 : 1;
    };
    int64_t gh = grid(height, bh), gw = grid(width, bw);
    if (gh * gw > kMaxAdaptiveSamples) {
      ctx.emitError() << "region " << i << " takes an adaptive grid of " << gh
                      << " x " << gw << " points per bin, more than supported ("
                      << kMaxAdaptiveSamples << " points)";
      return failure();
    }
    int64_t rows = bh * gh, cols = bw * gw;
    rowTaps.clear();
    colTaps.clear();
    for (int64_t j = 0; j < rows; ++j)
      rowTaps.push_back(axisTap(y1 + height * ((j + 0.5) / double(rows)), h));
    for (int64_t j = 0; j < cols; ++j)
      colTaps.push_back(axisTap(x1 + width * ((j + 0.5) / double(cols)), w));
    for (int64_t ch = 0; ch < c; ++ch) {
      int64_t plane = (batch * c + ch) * h * w;
      auto at = [&](int64_t y, int64_t x) {
        return data.getF(plane + y * w + x);
      };
      for (int64_t a = 0; a < bh; ++a)
        for (int64_t b = 0; b < bw; ++b) {
          double acc = isMax ? -INFINITY : 0.0;
          for (int64_t iy = 0; iy < gh; ++iy) {
            const AxisTap &y = rowTaps[a * gh + iy];
            for (int64_t ix = 0; ix < gw; ++ix) {
              const AxisTap &x = colTaps[b * gw + ix];
              double v = at(y.low, x.low) * (y.lowWeight * x.lowWeight) +
                         at(y.low, x.high) * (y.lowWeight * x.highWeight) +
                         at(y.high, x.low) * (y.highWeight * x.lowWeight) +
                         at(y.high, x.high) * (y.highWeight * x.highWeight);
              // The maximum propagates NaN, as the max reduction does.
              acc = !isMax ? acc + v : std::isnan(acc) || acc >= v ? acc : v;
            }
          }
          out.setF(((i * c + ch) * bh + a) * bw + b,
                   isMax ? acc : acc / double(gh * gw));
        }
    }
  }
  return RuntimeValue::tensor(std::move(out));
}

/// vision.non_max_suppression as TVM's topi kernel computes it (a stable
/// descending argsort of the first valid_count scores, hybrid_nms, then
/// the rearrangement of the indices or of the rows), the overlaps in the
/// precision `T` of the data (float for float32 boxes, as TVM's kernel).
template <typename T>
static FailureOr<ValuePtr> nonMaxSuppression(const KernelContext &ctx) {
  const Tensor &data = ctx.input(0), &validCount = ctx.input(1),
               &indices = ctx.input(2);
  int64_t maxOut = ctx.input(3).getI(0);
  T threshold = T(ctx.input(4).getF(0));
  int64_t batches = data.getShape()[0], n = data.getShape()[1],
          k = data.getShape()[2];
  bool force = ctx.getBool("force_suppress", false);
  int64_t topK = ctx.getInt("top_k", -1), coords = ctx.getInt("coord_start", 2),
          score = ctx.getInt("score_index", 1), id = ctx.getInt("id_index", 0);
  bool returnIndices = ctx.getBool("return_indices", true);
  Tensor out(data.getElementType(), {batches, n, k});
  std::vector<int64_t> boxIndices(batches * n, -1);
  // Rows of `out` being built (T: the kernel's arithmetic).
  std::vector<T> rows(n * k);
  auto at = [&](int64_t j, int64_t e) -> T & { return rows[j * k + e]; };
  struct Corners {
    T l, t, r, b;
  };
  auto corners = [&](int64_t j) {
    T x1 = at(j, coords), y1 = at(j, coords + 1), x2 = at(j, coords + 2),
      y2 = at(j, coords + 3);
    return Corners{std::min(x1, x2), std::min(y1, y2), std::max(x1, x2),
                   std::max(y1, y2)};
  };
  std::vector<int64_t> order;
  for (int64_t i = 0; i < batches; ++i) {
    int64_t count = validCount.getI(i);
    if (count < 0 || count > n)
      return ctx.emitError() << "valid_count[" << i << "] is " << count
                             << ", not a number of the " << n << " boxes";
    std::fill(rows.begin(), rows.end(), T(-1));
    int64_t *boxIndex = &boxIndices[i * n];
    if (threshold > 0) {
      order.resize(count);
      for (int64_t j = 0; j < count; ++j)
        order[j] = j;
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        return data.getF((i * n + a) * k + score) >
               data.getF((i * n + b) * k + score);
      });
      int64_t keep = 0 < topK && topK < count ? topK : count;
      for (int64_t j = 0; j < keep; ++j) {
        for (int64_t e = 0; e < k; ++e)
          at(j, e) = T(data.getF((i * n + order[j]) * k + e));
        boxIndex[j] = order[j];
      }
      int64_t kept = 0;
      for (int64_t j = 0; j < count; ++j) {
        if (kept == maxOut) {
          std::fill_n(&at(j, 0), k, T(-1));
          boxIndex[j] = -1;
          continue;
        }
        if (!(at(j, score) > 0))
          continue;
        Corners a = corners(j);
        bool valid = true;
        for (int64_t m = 0; m < j && valid; ++m) {
          if (!(at(m, score) > 0) || (id >= 0 && !(at(m, id) >= 0)))
            continue;
          if (!force && id >= 0 && at(j, id) != at(m, id))
            continue;
          Corners b = corners(m);
          T w = std::max(T(0), T(std::min(a.r, b.r) - std::max(a.l, b.l)));
          T h = std::max(T(0), T(std::min(a.b, b.b) - std::max(a.t, b.t)));
          T area = h * w;
          T areaA = (a.r - a.l) * (a.b - a.t);
          T areaB = (b.r - b.l) * (b.b - b.t);
          T u = T(areaA + areaB) - area;
          T iou = u <= 0 ? T(0) : area / u;
          valid = !(iou >= threshold);
        }
        if (valid) {
          ++kept;
        } else {
          std::fill_n(&at(j, 0), k, T(-1));
          boxIndex[j] = -1;
        }
      }
    } else {
      for (int64_t j = 0; j < count; ++j) {
        for (int64_t e = 0; e < k; ++e)
          at(j, e) = T(data.getF((i * n + j) * k + e));
        boxIndex[j] = j;
      }
    }
    if (returnIndices)
      for (int64_t j = 0; j < count; ++j)
        if (boxIndex[j] >= 0)
          boxIndex[j] = indices.getI(i * n + boxIndex[j]);
    for (int64_t e = 0; e < n * k; ++e)
      out.setF(i * n * k + e, double(rows[e]));
  }
  MLIRContext *context = ctx.op->getContext();
  if (returnIndices) {
    // hybrid_rearrange_indices_out: the kept rows' indices at the front.
    Type i32 = IntegerType::get(context, 32);
    Tensor front(i32, {batches, n}), counts(i32, {batches, 1});
    for (int64_t i = 0; i < batches; ++i) {
      int64_t valid = 0;
      for (int64_t j = 0; j < n; ++j) {
        int64_t index = boxIndices[i * n + j];
        if (index >= 0)
          front.setI(i * n + valid++, index);
        if (j >= valid)
          front.setI(i * n + j, -1);
      }
      counts.setI(i, valid);
    }
    return RuntimeValue::tuple({RuntimeValue::tensor(std::move(front)),
                                RuntimeValue::tensor(std::move(counts))});
  }
  if (!ctx.getBool("invalid_to_bottom", false))
    return RuntimeValue::tensor(std::move(out));
  // hybrid_rearrange_box_out: rows whose first element is not negative
  // moved to the front.
  Tensor moved(data.getElementType(), {batches, n, k});
  for (int64_t e = 0; e < batches * n * k; ++e)
    moved.setF(e, -1);
  for (int64_t i = 0; i < batches; ++i)
    for (int64_t j = 0, valid = 0; j < n; ++j)
      if (out.getF((i * n + j) * k) >= 0) {
        for (int64_t e = 0; e < k; ++e)
          copyElement(out, (i * n + j) * k + e, moved, (i * n + valid) * k + e);
        ++valid;
      }
  return RuntimeValue::tensor(std::move(moved));
}

void mlir::relay::interp::registerNNKernels(llvm::StringMap<KernelFn> &k) {
  k["nn.conv2d"] = [](const KernelContext &ctx) {
    return conv2dKernel(ctx, /*transposed=*/false);
  };
  k["nn.conv2d_transpose"] = [](const KernelContext &ctx) {
    return conv2dKernel(ctx, /*transposed=*/true);
  };
  k["nn.dense"] = [](const KernelContext &ctx) {
    return matmulKernel(ctx, /*dense=*/true, /*batched=*/false);
  };
  k["nn.matmul"] = [](const KernelContext &ctx) {
    return matmulKernel(ctx, /*dense=*/false, /*batched=*/false);
  };
  k["nn.batch_matmul"] = [](const KernelContext &ctx) {
    return matmulKernel(ctx, /*dense=*/false, /*batched=*/true);
  };
  k["nn.max_pool2d"] = [](const KernelContext &ctx) {
    return poolKernel(ctx, /*isMax=*/true);
  };
  k["nn.avg_pool2d"] = [](const KernelContext &ctx) {
    return poolKernel(ctx, /*isMax=*/false);
  };
  k["nn.global_max_pool2d"] =
      k["nn.adaptive_max_pool2d"] = [](const KernelContext &ctx) {
        return adaptivePoolKernel(ctx, /*isMax=*/true);
      };
  k["nn.global_avg_pool2d"] =
      k["nn.adaptive_avg_pool2d"] = [](const KernelContext &ctx) {
        return adaptivePoolKernel(ctx, /*isMax=*/false);
      };
  k["nn.batch_norm"] = batchNormKernel;
  k["nn.layer_norm"] = layerNormKernel;
  k["nn.dropout"] = dropoutKernel;
  k["nn.upsampling"] = upsamplingKernel;
  k["vision.roi_align"] = roiAlignKernel;
  k["vision.non_max_suppression"] = [](const KernelContext &ctx) {
    return ctx.input(0).getElementType().isF64()
               ? nonMaxSuppression<double>(ctx)
               : nonMaxSuppression<float>(ctx);
  };
}

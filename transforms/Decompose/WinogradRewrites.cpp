//===- WinogradRewrites.cpp - Winograd convolution as products -*- C++ -*-===//
//
// nn.contrib_conv2d_winograd_weight_transform and
// nn.contrib_conv2d_winograd_without_weight_transform as products with the
// Cook-Toom matrices A, B and G of F(m, r) (m the tile, r the kernel),
// built as topi's winograd_util builds them (its interpolation points and
// normalisation) so that a weight TVM transformed gives TVM's result:
//
//   U = G w G^T per (O, I);  V = B^T d B per input tile;
//   M = sum over I of U V per tile position;  Y = A^T M A.
//
// The two-sided transforms are one nn.dense each with the Kronecker
// product of the matrix with itself; input tiles (overlapping by r - 1)
// are gathered by one take of a constant table of positions.
//
//===----------------------------------------------------------------------===//

#include "transforms/Decompose/Rewrites.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

namespace {

/// Row-major matrices A [a, m], B [a, a] and G [a, r], a = m + r - 1.
struct CookToom {
  int64_t alpha;
  SmallVector<double> a, b, g;
};

/// topi's interpolation points for F(m, r) by degree m + r - 2 (Barabasz
/// et al., "Error analysis and improving the accuracy of Winograd
/// convolution for deep neural networks"); infinity is the last point.
ArrayRef<double> interpolationPoints(int64_t degree) {
  static const SmallVector<double> points[] = {
      {0, -1, 1},
      {0, -1, 1, 0.5},
      {0, -1, 1, 0.5, -2},
      {0, -1, 1, 0.5, -2, -0.5},
      {0, -1, 1, 0.5, -0.5, 2, -2},
      {0, -1, 1, 0.5, -0.5, 2, -2, -0.25},
      {0, -1, 1, 0.5, -0.5, 2, -2, -0.25, 4},
      {0, -1, 1, 0.5, -0.5, 2, -2, -0.25, 0.75, -4.0 / 3},
      {0, -1, 1, 0.5, -0.5, 2, -2, -0.25, 4, 0.75, -4.0 / 3},
      {0, -1, 1, 0.5, -0.5, 2, -2, -0.25, 4, 0.75, -4.0 / 3, 0.25},
      {0, -1, 1, 0.5, -0.5, 2, -2, -0.25, 4, 0.25, -0.75, 4.0 / 3, -4},
  };
  assert(degree >= 3 && degree <= 13 && "relation limits tile and kernel");
  return points[degree - 3];
}

CookToom cookToom(int64_t m, int64_t r) {
  int64_t n = m + r - 1;
  ArrayRef<double> pt = interpolationPoints(m + r - 2);
  // Lagrange denominators prod_{k != i} (p_i - p_k); f is them with the
  // point at infinity's 1, its first made positive (B's keep the sign).
  SmallVector<double> denom(n - 1, 1.0), f(n, 1.0);
  for (int64_t i = 0; i < n - 1; ++i)
    for (int64_t k = 0; k < n - 1; ++k)
      if (k != i)
        denom[i] *= pt[i] - pt[k];
  for (int64_t i = 0; i < n - 1; ++i)
    f[i] = denom[i];
  f[0] = std::fabs(f[0]);
  // Rows p_i^j of the finite points, then e_{cols-1} for infinity.
  auto vandermonde = [&](int64_t cols) {
    SmallVector<double> v(n * cols, 0.0);
    for (int64_t i = 0; i < n - 1; ++i)
      for (int64_t j = 0; j < cols; ++j)
        v[i * cols + j] = std::pow(pt[i], double(j));
    v[(n - 1) * cols + cols - 1] = 1.0;
    return v;
  };
  CookToom c;
  c.alpha = n;
  c.a = vandermonde(m);
  c.g = vandermonde(r);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < r; ++j)
      c.g[i * r + j] /= f[i];
  // B's first n - 1 rows: row d, column j is sum_i L[i][d] T[i][j], with
  // L[i][d] the x^d coefficient of prod_{k != i} (x - p_k) / denom_i and
  // T = [I | -p_i^(n-1)]; its last row e_{n-1}; columns scaled by f.
  c.b.assign(n * n, 0.0);
  for (int64_t i = 0; i < n - 1; ++i) {
    SmallVector<double> poly{1.0}; // coefficients, x^0 first
    for (int64_t k = 0; k < n - 1; ++k) {
      if (k == i)
        continue;
      SmallVector<double> next(poly.size() + 1, 0.0);
      for (size_t d = 0; d < poly.size(); ++d) {
        next[d + 1] += poly[d];
        next[d] -= pt[k] * poly[d];
      }
      poly = std::move(next);
    }
    for (int64_t d = 0; d < n - 1; ++d) {
      double l = poly[d] / denom[i];
      c.b[d * n + i] += l;
      c.b[d * n + n - 1] += l * -std::pow(pt[i], double(n - 1));
    }
  }
  c.b[(n - 1) * n + n - 1] = 1.0;
  for (int64_t row = 0; row < n; ++row)
    for (int64_t col = 0; col < n; ++col)
      c.b[row * n + col] *= f[col];
  return c;
}

/// The Kronecker product K[(i, j), (p, q)] = M[p][i] * M[q][j] of the
/// transposed [rows, cols] matrix `m` with itself: [cols^2, rows^2], the
/// weight of an nn.dense applying M^T x M to x flattened.
Value kroneckerOfTranspose(Emitter &b, Type element, ArrayRef<double> m,
                           int64_t rows, int64_t cols) {
  SmallVector<double> k;
  for (int64_t i = 0; i < cols; ++i)
    for (int64_t j = 0; j < cols; ++j)
      for (int64_t p = 0; p < rows; ++p)
        for (int64_t q = 0; q < rows; ++q)
          k.push_back(m[p * cols + i] * m[q * cols + j]);
  return floatConstant(b, {cols * cols, rows * rows}, element, k);
}

Value transpose(Emitter &b, Value v, ArrayRef<int64_t> axes) {
  return b.op<TransposeOp>({v}, {b.ints("axes", axes)});
}

/// U = G w G^T: [O, I, K, K] flattened to [O * I, K^2], times the
/// Kronecker product of G, to [a, a, O, I].
Value weightTransform(Emitter &b, Operation *op) {
  Value w = op->getOperand(0);
  ArrayRef<int64_t> shape = shapeOf(w);
  int64_t k = shape[2];
  CookToom c = cookToom(intAttr(op, "tile_size"), k);
  // G [a, K] applies as G x G^T, so its transpose [K, a] goes in.
  SmallVector<double> gT;
  for (int64_t kh = 0; kh < k; ++kh)
    for (int64_t e = 0; e < c.alpha; ++e)
      gT.push_back(c.g[e * k + kh]);
  Value kg = kroneckerOfTranspose(b, elementOf(w), gT, k, c.alpha);
  Value y = b.op<DenseOp>({b.reshape(w, {shape[0] * shape[1], k * k}), kg});
  return b.reshape(transpose(b, y, {1, 0}),
                   {c.alpha, c.alpha, shape[0], shape[1]});
}

/// The convolution on NCHW data: the padded image's tiles [N, C, T, a^2]
/// (T = nH * nW tiles of m x m outputs) transformed by B, multiplied with
/// U per tile position over the channels, transformed back by A, and the
/// m x m output tiles put in place.
Value winogradConv2d(Emitter &b, Operation *op) {
  Value data = op->getOperand(0), weight = op->getOperand(1);
  Type element = elementOf(op->getResult(0));
  data = castTo(b, data, element);
  weight = castTo(b, weight, element);
  bool nhwc = strAttr(op, "data_layout") == "NHWC";
  if (nhwc)
    data = transpose(b, data, {0, 3, 1, 2});
  ArrayRef<int64_t> in = shapeOf(op->getOperand(0)),
                    out = shapeOf(op->getResult(0));
  int64_t n = in[0], ch = in[nhwc ? 3 : 1], h = in[nhwc ? 1 : 2],
          w = in[nhwc ? 2 : 3];
  int64_t oc = out[nhwc ? 3 : 1], oh = out[nhwc ? 1 : 2],
          ow = out[nhwc ? 2 : 3];
  int64_t m = intAttr(op, "tile_size"), k = intsAttr(op, "kernel_size")[0];
  CookToom c = cookToom(m, k);
  int64_t alpha = c.alpha, a2 = alpha * alpha;

  SmallVector<int64_t> pad{0, 0, 0, 0};
  if (auto p = op->getAttrOfType<DenseI64ArrayAttr>("padding")) {
    ArrayRef<int64_t> v = p.asArrayRef();
    if (v.size() == 1)
      pad.assign(4, v[0]);
    else if (v.size() == 2)
      pad = {v[0], v[1], v[0], v[1]};
    else
      pad.assign(v.begin(), v.end());
  }
  int64_t tilesH = (oh + m - 1) / m, tilesW = (ow + m - 1) / m;
  // Padded far enough that the last tile's a x a input exists.
  int64_t paddedH = (tilesH - 1) * m + alpha,
          paddedW = (tilesW - 1) * m + alpha;
  Value padded = b.op<PadOp>(
      {data, b.scalar(0, data)},
      {b.ints("pad_width", {0, 0, 0, 0, pad[0], paddedH - h - pad[0], pad[1],
                            paddedW - w - pad[1]})});
  SmallVector<int64_t> positions;
  for (int64_t th = 0; th < tilesH; ++th)
    for (int64_t tw = 0; tw < tilesW; ++tw)
      for (int64_t e = 0; e < alpha; ++e)
        for (int64_t v = 0; v < alpha; ++v)
          positions.push_back((th * m + e) * paddedW + tw * m + v);
  int64_t tiles = tilesH * tilesW;
  Value tileValues = takeFlat(b, padded, 2, {tiles, a2}, positions);

  // V = B^T d B per tile, then [a^2, N * T, C] for the products.
  Value v =
      b.op<DenseOp>({b.reshape(tileValues, {n * ch * tiles, a2}),
                     kroneckerOfTranspose(b, element, c.b, alpha, alpha)});
  v = b.reshape(transpose(b, b.reshape(v, {n, ch, tiles, a2}), {3, 0, 2, 1}),
                {a2, n * tiles, ch});
  // U is [a, a, I, O] for NCHW, [a, a, O, I] for NHWC.
  Value u = b.reshape(weight, {a2, shapeOf(weight)[2], shapeOf(weight)[3]});
  Value prod = b.op<BatchMatmulOp>({v, u}, {b.boolean("transpose_b", nhwc)});

  // Y = A^T M A per tile, [N, O, T, m^2] to the image.
  Value y = transpose(b, b.reshape(prod, {a2, n, tiles, oc}), {1, 3, 2, 0});
  y = b.op<DenseOp>({b.reshape(y, {n * oc * tiles, a2}),
                     kroneckerOfTranspose(b, element, c.a, alpha, m)});
  y = transpose(b, b.reshape(y, {n, oc, tilesH, tilesW, m, m}),
                {0, 1, 2, 4, 3, 5});
  y = b.reshape(y, {n, oc, tilesH * m, tilesW * m});
  if (tilesH * m != oh || tilesW * m != ow)
    y = b.op<StridedSliceOp>(
        {y}, {b.ints("begin", {0, 0, 0, 0}), b.ints("end", {n, oc, oh, ow})});
  return nhwc ? transpose(b, y, {0, 2, 3, 1}) : y;
}

} // namespace

void mlir::relay::decompose::addWinogradRewrites(AddRewrite add) {
  add("nn.contrib_conv2d_winograd_weight_transform", weightTransform);
  add("nn.contrib_conv2d_winograd_without_weight_transform", winogradConv2d);
}

//===- WinogradRewrites.cpp - Winograd convolution as products -*- C++ -*-===//
//
// nn.contrib_conv2d_winograd_weight_transform,
// nn.contrib_conv2d_winograd_without_weight_transform and their 3-d forms
// as products with the Cook-Toom matrices A, B and G of F(m, r) (m the
// tile, r the kernel), built as topi's winograd_util builds them (its
// interpolation points and normalisation) so that a weight TVM transformed
// gives TVM's result:
//
//   U = G w G^T per (O, I);  V = B^T d B per input tile;
//   M = sum over I of U V per tile position;  Y = A^T M A.
//
// The transforms along each spatial axis are one nn.dense each with the
// Kronecker power of the matrix; input tiles (overlapping by r - 1) are
// gathered by one take of a constant table of positions.
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

/// The Kronecker power K[(i_1..i_d), (p_1..p_d)] = prod_j M[p_j][i_j] of
/// the transposed [rows, cols] matrix `m`: [cols^d, rows^d], the weight of
/// an nn.dense applying M^T along each of d axes of x flattened.
Value kroneckerOfTranspose(Emitter &b, Type element, ArrayRef<double> m,
                           int64_t rows, int64_t cols, int64_t d) {
  int64_t outer = 1, inner = 1;
  for (int64_t j = 0; j < d; ++j) {
    outer *= cols;
    inner *= rows;
  }
  SmallVector<double> k(outer * inner, 1.0);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t in = 0; in < inner; ++in) {
      // Digits of o (base cols) and in (base rows), the last axis fastest.
      int64_t oi = o, ii = in;
      for (int64_t j = 0; j < d; ++j, oi /= cols, ii /= rows)
        k[o * inner + in] *= m[(ii % rows) * cols + oi % cols];
    }
  return floatConstant(b, {outer, inner}, element, k);
}

Value transpose(Emitter &b, Value v, ArrayRef<int64_t> axes) {
  return b.op<TransposeOp>({v}, {b.ints("axes", axes)});
}

int64_t power(int64_t base, int64_t d) {
  int64_t p = 1;
  while (d--)
    p *= base;
  return p;
}

/// U = G w G^T over the last `d` axes of `w` [rest..., K x d]: flattened
/// to [rest, K^d], times the Kronecker power of G: [rest, a^d].
Value transformWeight(Emitter &b, Value w, const CookToom &c, int64_t k,
                      int64_t d) {
  ArrayRef<int64_t> shape = shapeOf(w);
  int64_t rest = 1;
  for (size_t j = 0; j + d < shape.size(); ++j)
    rest *= shape[j];
  // G [a, K] applies as G x G^T, so its transpose [K, a] goes in.
  SmallVector<double> gT;
  for (int64_t kh = 0; kh < k; ++kh)
    for (int64_t e = 0; e < c.alpha; ++e)
      gT.push_back(c.g[e * k + kh]);
  Value kg = kroneckerOfTranspose(b, elementOf(w), gT, k, c.alpha, d);
  return b.op<DenseOp>({b.reshape(w, {rest, power(k, d)}), kg});
}

/// nn.contrib_conv2d_winograd_weight_transform: [O, I, K, K] to
/// [a, a, O, I].
Value weightTransform(Emitter &b, Operation *op) {
  Value w = op->getOperand(0);
  ArrayRef<int64_t> shape = shapeOf(w);
  CookToom c = cookToom(intAttr(op, "tile_size"), shape[2]);
  Value y = transformWeight(b, w, c, shape[2], 2);
  return b.reshape(transpose(b, y, {1, 0}),
                   {c.alpha, c.alpha, shape[0], shape[1]});
}

/// topi's rule for a 3-d kernel: its depth is transformed too when it is
/// a size Winograd matrices exist for and the kernel's height.
bool depthTransformed(int64_t kd, int64_t kh) {
  return kd >= 3 && kd <= 7 && kd == kh;
}

/// nn.contrib_conv3d_winograd_weight_transform: [O, I, K, K, K] to
/// [a, a, a, O, I] when the depth is transformed, else [O, I, KD, K, K]
/// to [a, a, KD, O, I].
Value weightTransform3D(Emitter &b, Operation *op) {
  Value w = op->getOperand(0);
  ArrayRef<int64_t> shape = shapeOf(w);
  int64_t o = shape[0], i = shape[1], kd = shape[2], k = shape[3];
  CookToom c = cookToom(intAttr(op, "tile_size"), k);
  if (depthTransformed(kd, k)) {
    Value y = transformWeight(b, w, c, k, 3);
    return b.reshape(transpose(b, y, {1, 0}),
                     {c.alpha, c.alpha, c.alpha, o, i});
  }
  Value y =
      b.reshape(transformWeight(b, w, c, k, 2), {o, i, kd, c.alpha * c.alpha});
  return b.reshape(transpose(b, y, {3, 2, 0, 1}), {c.alpha, c.alpha, kd, o, i});
}

/// Padding [before..., after...] of `d` spatial axes from the op's
/// `padding` (1, d or 2d values).
SmallVector<int64_t> spatialPadding(Operation *op, int64_t d) {
  SmallVector<int64_t> pad(2 * d, 0);
  if (auto p = op->getAttrOfType<DenseI64ArrayAttr>("padding")) {
    ArrayRef<int64_t> v = p.asArrayRef();
    for (int64_t j = 0; j < 2 * d; ++j)
      pad[j] = v.size() == 1 ? v[0] : v.size() == size_t(d) ? v[j % d] : v[j];
  }
  return pad;
}

/// The Winograd convolution of `data` [N, C, S_1..S_d] (d = 2 or 3) with
/// the transformed weight `u` [a^d, C, O] (or [a^d, O, C] when
/// `uTransposed`): the padded image's tiles [N, C, T, a^d] (T tiles of m^d
/// outputs) transformed by B, multiplied with U per tile position over the
/// channels, transformed back by A, and the output tiles put in place,
/// cut to `out` [O_1..O_d].
Value winogradConv(Emitter &b, Value data, Value u, bool uTransposed,
                   const CookToom &c, int64_t m, ArrayRef<int64_t> pad,
                   ArrayRef<int64_t> out) {
  ArrayRef<int64_t> in = shapeOf(data);
  int64_t d = out.size(), n = in[0], ch = in[1], alpha = c.alpha;
  int64_t ad = power(alpha, d);
  int64_t oc = shapeOf(u)[uTransposed ? 1 : 2];
  Type element = elementOf(data);
  SmallVector<int64_t> tiles(d), padded(d), width{0, 0, 0, 0};
  int64_t numTiles = 1;
  for (int64_t j = 0; j < d; ++j) {
    tiles[j] = (out[j] + m - 1) / m;
    // Padded far enough that the last tile's a^d input exists.
    padded[j] = (tiles[j] - 1) * m + alpha;
    width.push_back(pad[j]);
    width.push_back(padded[j] - in[2 + j] - pad[j]);
    numTiles *= tiles[j];
  }
  Value image =
      b.op<PadOp>({data, b.scalar(0, data)}, {b.ints("pad_width", width)});
  // Flat positions (row-major over the padded axes) of each tile's a^d
  // inputs, tiles first.
  SmallVector<int64_t> positions;
  for (int64_t t = 0; t < numTiles; ++t)
    for (int64_t e = 0; e < ad; ++e) {
      int64_t flat = 0;
      for (int64_t j = 0, tt = t, ee = e, tStride = numTiles, eStride = ad;
           j < d; ++j) {
        tStride /= tiles[j];
        eStride /= alpha;
        int64_t at = (tt / tStride) * m + ee / eStride;
        tt %= tStride;
        ee %= eStride;
        flat = flat * padded[j] + at;
      }
      positions.push_back(flat);
    }
  Value tileValues = takeFlat(b, image, 2, {numTiles, ad}, positions);

  // V = B^T d B per tile, then [a^d, N * T, C] for the products.
  Value v =
      b.op<DenseOp>({b.reshape(tileValues, {n * ch * numTiles, ad}),
                     kroneckerOfTranspose(b, element, c.b, alpha, alpha, d)});
  v = b.reshape(transpose(b, b.reshape(v, {n, ch, numTiles, ad}), {3, 0, 2, 1}),
                {ad, n * numTiles, ch});
  Value prod =
      b.op<BatchMatmulOp>({v, u}, {b.boolean("transpose_b", uTransposed)});

  // Y = A^T M A per tile, [N, O, T, m^d] to the image.
  Value y = transpose(b, b.reshape(prod, {ad, n, numTiles, oc}), {1, 3, 2, 0});
  y = b.op<DenseOp>({b.reshape(y, {n * oc * numTiles, ad}),
                     kroneckerOfTranspose(b, element, c.a, alpha, m, d)});
  SmallVector<int64_t> split{n, oc}, perm{0, 1}, full{n, oc}, end{n, oc};
  split.append(tiles.begin(), tiles.end());
  split.append(d, m);
  bool cut = false;
  for (int64_t j = 0; j < d; ++j) {
    perm.push_back(2 + j);
    perm.push_back(2 + d + j);
    full.push_back(tiles[j] * m);
    end.push_back(out[j]);
    cut |= tiles[j] * m != out[j];
  }
  y = b.reshape(transpose(b, b.reshape(y, split), perm), full);
  if (cut)
    y = b.op<StridedSliceOp>(
        {y},
        {b.ints("begin", SmallVector<int64_t>(2 + d, 0)), b.ints("end", end)});
  return y;
}

/// nn.contrib_conv2d_winograd_without_weight_transform, NHWC moved to
/// NCHW and back.
Value winogradConv2d(Emitter &b, Operation *op) {
  Value data = op->getOperand(0), weight = op->getOperand(1);
  Type element = elementOf(op->getResult(0));
  data = castTo(b, data, element);
  weight = castTo(b, weight, element);
  bool nhwc = strAttr(op, "data_layout") == "NHWC";
  if (nhwc)
    data = transpose(b, data, {0, 3, 1, 2});
  ArrayRef<int64_t> out = shapeOf(op->getResult(0));
  int64_t m = intAttr(op, "tile_size"), k = intsAttr(op, "kernel_size")[0];
  CookToom c = cookToom(m, k);
  ArrayRef<int64_t> ws = shapeOf(weight);
  // U is [a, a, I, O] for NCHW, [a, a, O, I] for NHWC.
  Value u = b.reshape(weight, {c.alpha * c.alpha, ws[2], ws[3]});
  SmallVector<int64_t> size = nhwc ? SmallVector<int64_t>{out[1], out[2]}
                                   : SmallVector<int64_t>{out[2], out[3]};
  Value y = winogradConv(b, data, u, nhwc, c, m, spatialPadding(op, 2), size);
  return nhwc ? transpose(b, y, {0, 2, 3, 1}) : y;
}

/// nn.contrib_conv3d_winograd_without_weight_transform (NCDHW): a 3-d
/// Winograd convolution on [a, a, a, O, I]; on [a, a, KD, O, I] (depth
/// not transformed) a 2-d one per depth tap, on the depths that tap reads
/// (with the depth stride) as images, summed.
Value winogradConv3d(Emitter &b, Operation *op) {
  Value data = op->getOperand(0), weight = op->getOperand(1);
  Type element = elementOf(op->getResult(0));
  data = castTo(b, data, element);
  weight = castTo(b, weight, element);
  ArrayRef<int64_t> out = shapeOf(op->getResult(0)), ws = shapeOf(weight);
  ArrayRef<int64_t> kernel = intsAttr(op, "kernel_size");
  int64_t m = intAttr(op, "tile_size"), k = kernel[1];
  CookToom c = cookToom(m, k);
  int64_t oc = out[1];
  SmallVector<int64_t> pad = spatialPadding(op, 3);
  if (depthTransformed(kernel[0], k)) {
    Value u = b.reshape(weight, {c.alpha * c.alpha * c.alpha, ws[3], ws[4]});
    return winogradConv(b, data, u, /*uTransposed=*/true, c, m, pad,
                        {out[2], out[3], out[4]});
  }
  // Depth taps apart: pad the depth, then per tap the depths it reads.
  ArrayRef<int64_t> in = shapeOf(data);
  int64_t n = in[0], ch = in[1], kd = ws[2], depth = out[2];
  int64_t strideD = 1;
  if (auto s = op->getAttrOfType<DenseI64ArrayAttr>("strides"))
    strideD = s.asArrayRef()[0];
  Value padded = b.op<PadOp>(
      {data, b.scalar(0, data)},
      {b.ints("pad_width", {0, 0, 0, 0, pad[0], pad[3], 0, 0, 0, 0})});
  Value sum;
  for (int64_t tap = 0; tap < kd; ++tap) {
    Value taps = b.op<StridedSliceOp>(
        {padded},
        {b.ints("begin", {0, 0, tap, 0, 0}),
         b.ints("end", {n, ch, tap + (depth - 1) * strideD + 1, in[3], in[4]}),
         b.ints("strides", {1, 1, strideD, 1, 1})});
    Value images = b.reshape(transpose(b, taps, {0, 2, 1, 3, 4}),
                             {n * depth, ch, in[3], in[4]});
    Value u = b.reshape(
        b.op<StridedSliceOp>(
            {weight}, {b.ints("begin", {0, 0, tap, 0, 0}),
                       b.ints("end", {c.alpha, c.alpha, tap + 1, oc, ws[4]})}),
        {c.alpha * c.alpha, oc, ws[4]});
    Value y = winogradConv(b, images, u, /*uTransposed=*/true, c, m,
                           {pad[1], pad[2], pad[4], pad[5]}, {out[3], out[4]});
    sum = sum ? b.add(sum, y) : y;
  }
  return transpose(b, b.reshape(sum, {n, depth, oc, out[3], out[4]}),
                   {0, 2, 1, 3, 4});
}

} // namespace

void mlir::relay::decompose::addWinogradRewrites(AddRewrite add) {
  add("nn.contrib_conv2d_winograd_weight_transform", weightTransform);
  add("nn.contrib_conv2d_winograd_without_weight_transform", winogradConv2d);
  add("nn.contrib_conv3d_winograd_weight_transform", weightTransform3D);
  add("nn.contrib_conv3d_winograd_without_weight_transform", winogradConv3d);
}

//===- ConvolutionPatterns.cpp - Convolutions to linalg ---------*- C++ -*-===//
//
// nn.conv2d (NCHW/OIHW and NHWC/HWIO, groups, strides, dilation, padding)
// and nn.conv2d_transpose (undilated: one direct convolution per output
// phase, of the input with the kernel taps that reach the phase, flipped;
// dilated: the direct convolution of the input spread by the strides with
// the kernel flipped). The lowering target builds the
// convolution where it has kernels for it; otherwise the image is padded
// and linalg's named convolutions compute it (grouped NCHW ones as
// conv_2d_ngchw_gfchw over the grouped views).
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "conversion/RelayToLinalg/OperatorPattern.h"
#include "conversion/RelayToLinalg/RelayToLinalg.h"

#include "dialects/relay/RelayOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

/// The padded image and linalg's named convolution of `conv`; fails for a
/// grouped NHWC convolution.
FailureOr<Value> namedConvolution(OpBuilder &b, const Conv2dProblem &conv) {
  Location loc = conv.loc;
  RankedTensorType type = conv.type;
  Type e = type.getElementType();
  Type dataElement =
      cast<RankedTensorType>(conv.data.getType()).getElementType();
  if (conv.groups != 1 && !conv.nchw)
    return failure();
  Value data =
      padImage(b, loc, conv.data, conv.padding, conv.nchw ? 2 : 1,
               conv.nchw ? 3 : 2, constantScalar(b, loc, dataElement, 0));
  auto strides = b.getI64TensorAttr(conv.strides);
  auto dilations = b.getI64TensorAttr(conv.dilations);
  Value zero = constantScalar(b, loc, e, 0);
  if (conv.groups == 1) {
    Value init = filledTensor(b, loc, type.getShape(), zero);
    if (conv.nchw)
      return linalg::Conv2DNchwFchwOp::create(
                 b, loc, TypeRange{type}, ValueRange{data, conv.weight},
                 ValueRange{init}, strides, dilations)
          .getResult(0);
    return linalg::Conv2DNhwcHwcfOp::create(
               b, loc, TypeRange{type}, ValueRange{data, conv.weight},
               ValueRange{init}, strides, dilations)
        .getResult(0);
  }
  // Grouped: [N, G*C, H, W] x [G*F, C, KH, KW] seen as [N, G, C, H, W] x
  // [G, F, C, KH, KW] -> [N, G, F, OH, OW].
  auto in = cast<RankedTensorType>(data.getType());
  auto wt = cast<RankedTensorType>(conv.weight.getType());
  int64_t g = conv.groups, n = in.getDimSize(0), c = in.getDimSize(1);
  int64_t f = wt.getDimSize(0);
  Value groupedData = tensor::ExpandShapeOp::create(
      b, loc,
      RankedTensorType::get({n, g, c / g, in.getDimSize(2), in.getDimSize(3)},
                            dataElement),
      data, SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
  Value groupedWeight = tensor::ExpandShapeOp::create(
      b, loc,
      RankedTensorType::get(
          {g, f / g, wt.getDimSize(1), wt.getDimSize(2), wt.getDimSize(3)},
          wt.getElementType()),
      conv.weight, SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
  auto groupedType = RankedTensorType::get(
      {n, g, f / g, type.getDimSize(2), type.getDimSize(3)}, e);
  Value init = filledTensor(b, loc, groupedType.getShape(), zero);
  Value out =
      linalg::Conv2DNgchwGfchwOp::create(b, loc, TypeRange{groupedType},
                                         ValueRange{groupedData, groupedWeight},
                                         ValueRange{init}, strides, dilations)
          .getResult(0);
  return tensor::CollapseShapeOp::create(
             b, loc, type, out,
             SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}})
      .getResult();
}

/// An ungrouped NCHW convolution of integers (int8 into int32) as one
/// product per image: the weights [O, C*KH*KW] times the im2col columns
/// [C*KH*KW, OH*OW] of the padded image, the operands widened to the
/// result's type (integerContraction), which --relay-tile-and-vectorize
/// tiles and vectorises as it does matrix products (linalg's named integer
/// convolutions it leaves scalar). Null for other convolutions.
Value integerConvolution(OpBuilder &b, const Conv2dProblem &conv) {
  RankedTensorType type = conv.type;
  auto in = cast<RankedTensorType>(conv.data.getType());
  auto wt = cast<RankedTensorType>(conv.weight.getType());
  if (!isa<IntegerType>(type.getElementType()) ||
      !isa<IntegerType>(in.getElementType()) ||
      !isa<IntegerType>(wt.getElementType()) || !conv.nchw || conv.groups != 1)
    return nullptr;
  Location loc = conv.loc;
  MLIRContext *ctx = b.getContext();
  Value data = padImage(b, loc, conv.data, conv.padding, H, W,
                        constantScalar(b, loc, in.getElementType(), 0));
  int64_t n = in.getDimSize(N), c = in.getDimSize(C);
  int64_t o = wt.getDimSize(0), kh = wt.getDimSize(2), kw = wt.getDimSize(3);
  int64_t oh = type.getDimSize(H), ow = type.getDimSize(W);
  ArrayRef<int64_t> s = conv.strides, d = conv.dilations;
  // cols[n, c, i, j, y, x] = data[n, c, y * sh + i * dh, x * sw + j * dw]
  AffineExpr dn, dc, di, dj, dy, dx;
  bindDims(ctx, dn, dc, di, dj, dy, dx);
  AffineMap read = AffineMap::get(
      6, 0, {dn, dc, dy * s[0] + di * d[0], dx * s[1] + dj * d[1]}, ctx);
  Value cols = copyThroughMap(b, loc, data, {n, c, kh, kw, oh, ow}, read);
  cols = tensor::CollapseShapeOp::create(
      b, loc, cols, SmallVector<ReassociationIndices>{{0}, {1, 2, 3}, {4, 5}});
  Value weights = tensor::CollapseShapeOp::create(
      b, loc, conv.weight, SmallVector<ReassociationIndices>{{0}, {1, 2, 3}});
  auto flat = RankedTensorType::get({n, o, oh * ow}, type.getElementType());
  bool zeroExtend[2] = {conv.op && isUnsignedValue(conv.op->getOperand(1)),
                        conv.op && isUnsignedValue(conv.op->getOperand(0))};
  // (n, o, p, k): weights (o, k), columns (n, k, p), result (n, o, p).
  Value out = integerContraction(
      b, loc, flat, {weights, cols}, zeroExtend, 4,
      {map(ctx, 4, {1, 3}), map(ctx, 4, {0, 3, 2}), map(ctx, 4, {0, 1, 2})});
  return tensor::ExpandShapeOp::create(
      b, loc, type, out, SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}});
}

/// `conv` by the target's kernels, else (integers) as products, else by
/// linalg's named convolutions.
FailureOr<SmallVector<Value>> convolve(OpBuilder &b, const Conv2dProblem &conv,
                                       const LoweringTarget &target) {
  if (Value out = target.buildConv2d(b, conv))
    return SmallVector<Value>{out};
  if (Value out = integerConvolution(b, conv))
    return SmallVector<Value>{out};
  FailureOr<Value> out = namedConvolution(b, conv);
  if (failed(out))
    return failure();
  return SmallVector<Value>{*out};
}

FailureOr<SmallVector<Value>> conv2dRule(OpBuilder &b, Operation *op,
                                         ValueRange operands,
                                         const LoweringTarget &target) {
  RankedTensorType type = resultType(op);
  int64_t groups = intAttr(op, "groups", 1);
  if (!type || !type.hasStaticShape() || !strAttr(op, "out_layout", "").empty())
    return failure();
  StringRef dl = strAttr(op, "data_layout", "NCHW");
  StringRef kl = strAttr(op, "kernel_layout", "OIHW");
  bool nchw = dl == "NCHW" && kl == "OIHW";
  bool nhwc = dl == "NHWC" && kl == "HWIO";
  Location loc = op->getLoc();
  Value data = operands[0], weight = operands[1];
  SmallVector<int64_t> s = intsAttr(op, "strides", {1, 1});
  SmallVector<int64_t> d = intsAttr(op, "dilation", {1, 1});
  if (s.size() == 1)
    s.push_back(s[0]);
  if (d.size() == 1)
    d.push_back(d[0]);
  auto problem = [&](Value data, Value weight, RankedTensorType convType,
                     bool nchw) {
    Conv2dProblem conv(loc);
    conv.op = op;
    conv.type = convType;
    conv.data = data;
    conv.weight = weight;
    conv.nchw = nchw;
    conv.groups = groups;
    conv.strides = {s[0], s[1]};
    conv.dilations = {d[0], d[1]};
    conv.padding = SmallVector<int64_t, 4>(padding4(op));
    return conv;
  };
  // A depthwise NHWC convolution (HWIO [kh, kw, 1, C] or HWOI [kh, kw, C,
  // 1], the same bytes) goes to the target's kernels as HWIO where it has
  // them, else between transposes below.
  auto wt = dyn_cast<RankedTensorType>(weight.getType());
  if (dl == "NHWC" && (kl == "HWIO" || kl == "HWOI") && groups > 1 && wt &&
      wt.hasStaticShape() && groups == type.getDimSize(3)) {
    int64_t kh = wt.getDimSize(0), kw = wt.getDimSize(1);
    auto hwio = RankedTensorType::get({kh, kw, 1, groups}, wt.getElementType());
    if (wt.getNumElements() == hwio.getNumElements()) {
      Value asHwio =
          kl == "HWIO"
              ? weight
              : tensor::CollapseShapeOp::create(
                    b, loc, weight,
                    SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}})
                    .getResult();
      if (kl == "HWOI")
        asHwio = tensor::ExpandShapeOp::create(
            b, loc, hwio, asHwio,
            SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}});
      if (Value out = target.buildConv2d(b, problem(data, asHwio, type, false)))
        return SmallVector<Value>{out};
    }
  }
  RankedTensorType convType = type;
  // Other orders of the axes (a grouped NHWC convolution, an HWOI kernel):
  // the NCHW/OIHW convolution between transposes.
  std::optional<std::array<int64_t, 4>> dataAxes;
  if ((!nchw && !nhwc) || (nhwc && groups != 1)) {
    dataAxes = axesOf(dl, "NCHW");
    std::optional<std::array<int64_t, 4>> kernelAxes = axesOf(kl, "OIHW");
    if (!dataAxes || !kernelAxes)
      return failure();
    data = permuteAxes(b, loc, data, *dataAxes);
    weight = permuteAxes(b, loc, weight, *kernelAxes);
    SmallVector<int64_t> shape;
    for (int64_t a : *dataAxes)
      shape.push_back(type.getDimSize(a));
    convType = RankedTensorType::get(shape, type.getElementType());
    nchw = true;
  }
  FailureOr<SmallVector<Value>> result =
      convolve(b, problem(data, weight, convType, nchw), target);
  if (failed(result) || !dataAxes)
    return result;
  SmallVector<int64_t> back;
  for (char c : dl)
    back.push_back(StringRef("NCHW").find(c));
  return SmallVector<Value>{permuteAxes(b, loc, result->front(), back)};
}

// nn.conv2d_transpose
//===----------------------------------------------------------------------===//

/// The outputs of one stride phase of an undilated transposed convolution
/// along one axis: those at r + s*j (j < count) take the kernel taps
/// first + s*t (t < taps), tap t reading input j + start + taps - 1 - t.
struct Phase {
  int64_t count, first, taps, start;

  Phase(int64_t r, int64_t s, int64_t p, int64_t k, int64_t outSize) {
    count = r < outSize ? (outSize - r + s - 1) / s : 0;
    // r + s*j = i*s - p + kh: kh = r + p (mod s), i = j + (r + p - kh) / s.
    first = (r + p) % s;
    taps = first < k ? (k - first + s - 1) / s : 0;
    start = (r + p - first) / s - (taps - 1);
  }
  /// The input positions its direct convolution reads: [start, end).
  int64_t end() const { return start + count + taps - 1; }
};

/// An undilated transposed convolution as s_h * s_w direct ones, one per
/// output phase (oh mod s_h, ow mod s_w), each of the input with the kernel
/// taps that reach that phase (flipped), its result inserted into every
/// s-th row and column: 1/(s_h * s_w) of the multiplies of the direct
/// convolution of the input spread by zeros. At stride 1 it is that
/// convolution, of the input padded (or cropped) by K - 1 - p.
FailureOr<SmallVector<Value>>
phasedTransposedConv(OpBuilder &b, Location loc, RankedTensorType type,
                     Value data, Value weight, std::array<int64_t, 4> kl,
                     ArrayRef<int64_t> s, ArrayRef<int64_t> p, int64_t groups,
                     const LoweringTarget &target) {
  auto in = cast<RankedTensorType>(data.getType());
  auto wt = cast<RankedTensorType>(weight.getType());
  Type e = type.getElementType();
  int64_t n = in.getDimSize(N), c = in.getDimSize(C);
  int64_t size[2] = {in.getDimSize(H), in.getDimSize(W)};
  int64_t k[2] = {wt.getDimSize(kl[H]), wt.getDimSize(kl[W])};
  int64_t out[2] = {type.getDimSize(H), type.getDimSize(W)};
  int64_t oc = type.getDimSize(C), cg = c / groups, ocg = oc / groups;
  SmallVector<Phase> phases[2];
  int64_t before[2] = {0, 0}, after[2] = {0, 0};
  bool covered = true;
  for (int a = 0; a < 2; ++a)
    for (int64_t r = 0; r < s[a]; ++r) {
      Phase ph(r, s[a], p[a], k[a], out[a]);
      phases[a].push_back(ph);
      if (!ph.count)
        continue;
      if (!ph.taps) {
        covered = false;
        continue;
      }
      before[a] = std::max(before[a], -ph.start);
      after[a] = std::max(after[a], ph.end() - size[a]);
    }
  Value zero = constantScalar(b, loc, e, 0);
  Value padded = padImage(
      b, loc, data, {before[0], before[1], after[0], after[1]}, H, W, zero);
  Value result =
      covered ? tensor::EmptyOp::create(b, loc, type.getShape(), e).getResult()
              : filledTensor(b, loc, type.getShape(), zero);
  for (const Phase &py : phases[0])
    for (const Phase &px : phases[1]) {
      int64_t ry = &py - phases[0].data(), rx = &px - phases[1].data();
      if (!py.count || !px.count || !py.taps || !px.taps)
        continue;
      Value window =
          sliceAt(b, loc, padded,
                  {b.getIndexAttr(0), b.getIndexAttr(0),
                   b.getIndexAttr(py.start + before[0]),
                   b.getIndexAttr(px.start + before[1])},
                  {n, c, py.count + py.taps - 1, px.count + px.taps - 1});
      auto kernelType = RankedTensorType::get({oc, cg, py.taps, px.taps}, e);
      Value kernel = generateTensor(
          b, loc, kernelType, [&](OpBuilder &nb, Location l, ValueRange i) {
            IndexMath m{nb, l};
            Value group = m.div(i[0], m.c(ocg));
            SmallVector<Value> at(4);
            at[kl[0]] = m.rem(i[0], m.c(ocg));
            at[kl[1]] = m.add(m.mul(group, m.c(cg)), i[1]);
            at[kl[2]] = m.sub(m.c(py.first + s[0] * (py.taps - 1)),
                              m.mul(i[2], m.c(s[0])));
            at[kl[3]] = m.sub(m.c(px.first + s[1] * (px.taps - 1)),
                              m.mul(i[3], m.c(s[1])));
            return tensor::ExtractOp::create(nb, l, weight, at).getResult();
          });
      Conv2dProblem conv(loc);
      conv.type = RankedTensorType::get({n, oc, py.count, px.count}, e);
      conv.data = window;
      conv.weight = kernel;
      conv.groups = groups;
      conv.strides = {1, 1};
      conv.dilations = {1, 1};
      conv.padding = {0, 0, 0, 0};
      FailureOr<SmallVector<Value>> phase = convolve(b, conv, target);
      if (failed(phase))
        return failure();
      MLIRContext *ctx = b.getContext();
      result = tensor::InsertSliceOp::create(
          b, loc, phase->front(), result,
          getAsIndexOpFoldResult(ctx, {0, 0, ry, rx}),
          getAsIndexOpFoldResult(ctx, {n, oc, py.count, px.count}),
          getAsIndexOpFoldResult(ctx, {1, 1, s[0], s[1]}));
    }
  return SmallVector<Value>{result};
}

/// out[oh] = sum x[ih] w[kh] over ih*s - p + kh*d = oh is the direct
/// convolution (stride 1, dilation d) of x spread by s (zeros between
/// pixels) and offset by (K-1)*d - p, with the kernel flipped and its I and
/// O exchanged (per group).
/// The transposed convolution of NCHW `data` into `type` (NCHW), the
/// kernel `weight` in any order of OIHW's axes (`kl`).
FailureOr<SmallVector<Value>>
conv2dTransposeNCHW(OpBuilder &b, Operation *op, Value data, Value weight,
                    RankedTensorType type, const std::array<int64_t, 4> &kl,
                    const LoweringTarget &target) {
  auto in = cast<RankedTensorType>(data.getType());
  auto wt = cast<RankedTensorType>(weight.getType());
  Type e = type.getElementType();
  SmallVector<int64_t> s = intsAttr(op, "strides", {1, 1});
  SmallVector<int64_t> d = intsAttr(op, "dilation", {1, 1});
  for (auto *v : {&s, &d})
    if (v->size() == 1)
      v->push_back(v->front());
  SmallVector<int64_t> p = padding4(op);
  int64_t groups = intAttr(op, "groups", 1);
  int64_t n = in.getDimSize(N), c = in.getDimSize(C), h = in.getDimSize(H),
          w = in.getDimSize(W);
  int64_t kh = wt.getDimSize(kl[H]), kw = wt.getDimSize(kl[W]);
  int64_t oc = type.getDimSize(C), oh = type.getDimSize(H),
          ow = type.getDimSize(W);
  int64_t cg = c / groups, ocg = oc / groups;
  int64_t offH = (kh - 1) * d[0] - p[0], offW = (kw - 1) * d[1] - p[1];
  Location loc = op->getLoc();
  if (d[0] == 1 && d[1] == 1)
    return phasedTransposedConv(b, loc, type, data, weight, kl, s, p, groups,
                                target);

  auto spreadType = RankedTensorType::get(
      {n, c, oh + (kh - 1) * d[0], ow + (kw - 1) * d[1]}, e);
  Value spread = generateTensor(
      b, loc, spreadType, [&](OpBuilder &nb, Location l, ValueRange i) {
        IndexMath m{nb, l};
        // The source pixel of padded position q: (q - off) / s when that
        // divides and lies inside the input.
        auto source = [&](Value q, int64_t off, int64_t stride, int64_t size,
                          Value &inside) {
          Value shifted = m.sub(q, m.c(off));
          Value nonNegative = m.max(shifted, m.c(0));
          Value at = m.div(nonNegative, m.c(stride));
          inside = m.both(m.both(m.lt(m.c(-1), shifted),
                                 m.eq(m.rem(nonNegative, m.c(stride)), m.c(0))),
                          m.lt(at, m.c(size)));
          return m.min(at, m.c(size - 1));
        };
        Value insideH, insideW;
        Value y = source(i[H], offH, s[0], h, insideH);
        Value x = source(i[W], offW, s[1], w, insideW);
        Value v = tensor::ExtractOp::create(nb, l, data,
                                            ValueRange{i[N], i[C], y, x});
        return arith::SelectOp::create(nb, l, m.both(insideH, insideW), v,
                                       constantScalar(nb, l, e, 0))
            .getResult();
      });

  auto flippedType = RankedTensorType::get({oc, cg, kh, kw}, e);
  Value flipped = generateTensor(
      b, loc, flippedType, [&](OpBuilder &nb, Location l, ValueRange i) {
        IndexMath m{nb, l};
        Value group = m.div(i[0], m.c(ocg));
        SmallVector<Value> at(4);
        at[kl[0]] = m.rem(i[0], m.c(ocg));
        at[kl[1]] = m.add(m.mul(group, m.c(cg)), i[1]);
        at[kl[2]] = m.sub(m.c(kh - 1), i[2]);
        at[kl[3]] = m.sub(m.c(kw - 1), i[3]);
        return tensor::ExtractOp::create(nb, l, weight, at).getResult();
      });
  // The direct convolution of the spread image (padded already).
  Conv2dProblem conv(loc);
  conv.type = type;
  conv.data = spread;
  conv.weight = flipped;
  conv.groups = groups;
  conv.strides = {1, 1};
  conv.dilations = {d[0], d[1]};
  conv.padding = {0, 0, 0, 0};
  return convolve(b, conv, target);
}

/// nn.conv2d_transpose: conv2dTransposeNCHW, data in another order of
/// NCHW's axes (NHWC) between transposes.
FailureOr<SmallVector<Value>>
conv2dTransposeRule(OpBuilder &b, Operation *op, ValueRange operands,
                    const LoweringTarget &target) {
  RankedTensorType type = resultType(op);
  StringRef dl = strAttr(op, "data_layout", "NCHW");
  StringRef outLayout = strAttr(op, "out_layout", "");
  std::optional<std::array<int64_t, 4>> kl =
      axesOf(strAttr(op, "kernel_layout", "IOHW"), "OIHW");
  std::optional<std::array<int64_t, 4>> dataAxes = axesOf(dl, "NCHW");
  if (!type || !type.hasStaticShape() || !dataAxes ||
      (!outLayout.empty() && outLayout != dl) || !kl)
    return failure();
  // Integers too: qnn.conv2d_transpose's canonical form is int32.
  Type e = type.getElementType();
  if (!isa<FloatType, IntegerType>(e) ||
      getElementTypeOrSelf(operands[0].getType()) != e ||
      getElementTypeOrSelf(operands[1].getType()) != e)
    return failure();
  if (dl == "NCHW")
    return conv2dTransposeNCHW(b, op, operands[0], operands[1], type, *kl,
                               target);
  Location loc = op->getLoc();
  SmallVector<int64_t> shape, back;
  for (int64_t a : *dataAxes)
    shape.push_back(type.getDimSize(a));
  for (char c : dl)
    back.push_back(StringRef("NCHW").find(c));
  FailureOr<SmallVector<Value>> result = conv2dTransposeNCHW(
      b, op, permuteAxes(b, loc, operands[0], *dataAxes), operands[1],
      RankedTensorType::get(shape, e), *kl, target);
  if (failed(result))
    return result;
  return SmallVector<Value>{permuteAxes(b, loc, result->front(), back)};
}

/// A 3-d convolution the target keeps whole (its lowersWhole), by the
/// target's kernel; the others are --relay-decompose's 2-d convolutions by
/// the time they are lowered.
class Conv3dLowering : public RelayOpConversionPattern<Conv3DOp> {
public:
  Conv3dLowering(RelayTypeConverter &converter, MLIRContext *context,
                 const LoweringTarget &target)
      : RelayOpConversionPattern<Conv3DOp>(converter, context), target(target) {
  }

  LogicalResult
  matchAndRewrite(Conv3DOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!target.lowersWhole(op))
      return fail(rewriter, op,
                  "cannot lower 'relay.nn.conv3d' for target '" +
                      target.getName() +
                      "': run --relay-decompose first (a target lowers only "
                      "the 3-d convolutions it keeps whole)");
    return lowerWithRule(
        op, adaptor.getOperands(), rewriter, getTypeConverter(),
        [&](OpBuilder &b, Operation *o,
            ValueRange operands) -> FailureOr<SmallVector<Value>> {
          auto type = cast<RankedTensorType>(o->getResult(0).getType());
          if (Value out =
                  target.buildConv3d(b, o, type, operands[0], operands[1]))
            return SmallVector<Value>{out};
          return failure();
        });
  }

private:
  const LoweringTarget &target;
};

} // namespace

void mlir::relay::populateRelayConvolutionToLinalgPatterns(
    RelayTypeConverter &converter, RewritePatternSet &patterns,
    const LoweringTarget &target) {
  patterns.add<TargetRuleLowering<Conv2DOp, conv2dRule>,
               TargetRuleLowering<Conv2DTransposeOp, conv2dTransposeRule>,
               Conv3dLowering>(converter, patterns.getContext(), target);
}

//===- WinogradConv.cpp - 3x3 convolutions by minimal filtering -*- C++ -*-===//
//
// Winograd's minimal filtering (Lavin and Gray, "Fast Algorithms for
// Convolutional Neural Networks"): F(m x m, 3 x 3) computes each m x m tile
// of output from an a x a tile of input (a = m + 2) with a*a products per
// channel pair instead of 9*m*m, that is 4x fewer for F(4x4, 3x3) and 2.25x
// for F(2x2, 3x3):
//
//   Y = At [ sum_c (G g G^T)[f, c] . (Bt d B)[c] ] A
//
// The weight transform U = G g G^T is done here, at compile time, on
// constant weights, and by a small product at run time on others (a
// training step's, a function's parameters). The input transform V = Bt d B is
// a pass over rows (an elementwise linalg.generic over strided views,
// vectorised like any elementwise op) and one over columns; the a*a products
// over channels are one batched contraction, tiled and vectorised like every
// other product:
//
//   M[t, p, f] = sum_c V[t, c, p] * U[t, c, f]     (t = one of a*a, p = tile)
//
// with the channels as vector lanes (U packed in panels of 32 channels, as
// for the transposed im2col product) and the tiles as register-tile rows.
// The output transform works on that [tile][channel] layout and the result
// is transposed back to NCHW once. The column pass and the output
// transform are loop nests of vector code on tensors (columnPass,
// outputPass): as linalg ops their several results per op could not all
// be written in place.
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "dialects/relay/RelayDialect.h"
#include "transforms/Codegen/CPU/CPUKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;
using namespace mlir::relay::cpu;

namespace {

/// The transform matrices of F(m x m, 3 x 3), row-major: Bt (a x a),
/// G (a x 3) and At (m x a), from Lavin and Gray.
struct MinimalFilter {
  int64_t m, a;
  ArrayRef<double> bt, g, at;
};

constexpr double kBt4[] = {4, 0, -5, 0,  1, 0, 0, -4, -4, 1,  1, 0,
                           0, 4, -4, -1, 1, 0, 0, -2, -1, 2,  1, 0,
                           0, 2, -1, -2, 1, 0, 0, 4,  0,  -5, 0, 1};
constexpr double kG4[] = {1.0 / 4,  0,        0,        -1.0 / 6,  -1.0 / 6,
                          -1.0 / 6, -1.0 / 6, 1.0 / 6,  -1.0 / 6,  1.0 / 24,
                          1.0 / 12, 1.0 / 6,  1.0 / 24, -1.0 / 12, 1.0 / 6,
                          0,        0,        1};
constexpr double kAt4[] = {1, 1, 1, 1, 1, 0, 0, 1, -1, 2, -2, 0,
                           0, 1, 1, 4, 4, 0, 0, 1, -1, 8, -8, 1};
constexpr double kBt2[] = {1, 0, -1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1, 0, -1};
constexpr double kG2[] = {1, 0, 0, 0.5, 0.5, 0.5, 0.5, -0.5, 0.5, 0, 0, 1};
constexpr double kAt2[] = {1, 1, 1, 0, 0, 1, -1, -1};

const MinimalFilter kF4{4, 6, kBt4, kG4, kAt4};
const MinimalFilter kF2{2, 4, kBt2, kG2, kAt2};

/// The fewest tiles (register-tile rows of the product) for which the
/// transformed weights, a*a/9 times the size of the weights, are worth
/// streaming: each of their elements is used once per tile. Below this the
/// im2col product wins (ResNet-18's 7x7 layers).
constexpr int64_t kMinTiles = 32;
/// kMinTiles for a batch with weights that are not constant:
/// ResNet-18's 7x7 layers at batch 8 (16 2x2 tiles an image), the batch's
/// images in parallel, took 18.5-19.4 ms by F(2x2, 3x3) against 23.5-23.9
/// ms by the im2col product at one thread, 9.7 against 13.8-22 at two.
constexpr int64_t kMinTilesRuntimeWeights = 16;
/// The most bytes of transformed weights (a*a/9 times the weights') one
/// convolution may add to the program: its constants are held in memory
/// while compiling and by the compiled code.
constexpr int64_t kMaxTransformedWeightBytes = 64 << 20;
/// The fewest input channels: the product's k. The transforms cost the
/// same per channel whatever F is, so a short k does not pay for them.
constexpr int64_t kMinChannels = 16;

/// The most output channels, in percent, added to make them whole vectors.
constexpr int64_t kMaxPaddedChannelsPercent = 15;

int64_t ceilDiv(int64_t x, int64_t y) { return (x + y - 1) / y; }

/// How many times its bytes a transformed input V or product M that does
/// not stay in the L2 cache costs in traffic beyond it: written (the line
/// read for ownership, then written back) and read again.
constexpr int64_t kSpillTraffic = 3;

/// The tile rows per band of an image of `th` x `tw` tiles convolved with
/// `c` input and `f` output channels by `mf`, at most `largest`. Each band
/// streams all of the transformed weights U (a*a*c*f floats) through the
/// product; its transformed input V and product M stay in the L2 cache
/// when the band is small enough. Of the most rows whose V fits L2 and the
/// largest bands (whose one transform position's V still does, for the
/// product's passes over the filters), the one that moves fewer bytes
/// beyond L2: bands x U, plus kSpillTraffic x (V + M) of the image if they
/// spill. On a Zen 3 (512 KB L2) at one thread, one row a band (V in L2)
/// ran VGG-16's 64- and 128-channel layers 1.3-1.6x faster than two
/// bands, while its 512-channel 28x28 layer (U 38 MB, V + M 7 MB), which
/// streamed U seven times, ran 2x faster in two bands (78-87 -> 40-43 ms),
/// the 256-channel 56x56 one 1.5x, the 14x14 ones 1.7-2x. (Those bands
/// were capped at half the image's tile rows; with `largest` the whole
/// image, the 28x28 layer now takes one band, its V spilling L2: by this
/// count 60 MB beyond L2 against 98 in two bands, not measured there.)
int64_t bandTileRows(const MinimalFilter &mf, int64_t c, int64_t f, int64_t th,
                     int64_t tw, int64_t largest, const CPUDescription &cpu) {
  int64_t aa = mf.a * mf.a, l2 = cpu.l2Bytes;
  int64_t rowBytes = aa * c * tw * 4;
  int64_t cached = std::clamp<int64_t>(l2 / rowBytes, 1, largest);
  if (cached == largest || c * largest * tw * 4 > l2 / 2)
    return cached;
  int64_t uBytes = aa * c * f * 4, vmBytes = aa * (c + f) * th * tw * 4;
  auto traffic = [&](int64_t rows) {
    bool spills = rows > cached;
    return ceilDiv(th, rows) * uBytes + (spills ? kSpillTraffic * vmBytes : 0);
  };
  return traffic(largest) < traffic(cached) ? largest : cached;
}

/// `rows` tile rows a band, or where bands of `rows` leave rows of zero
/// tiles at the end of `th`, the next height up to twice `rows` that
/// divides `th`: the larger band's transformed input spills L2 a little,
/// which costs less than the products of the zero rows. On the model-167
/// Xeon (2 MB L2): VGG-16's 28x28 layers took 3 bands of 3 of their 7
/// tile rows (2 of zeros, 22% of their products), now 1 of 7, and its
/// 112x112 and 224x224 ones bands of 4; VGG-16 ran in 0.94 of the time at
/// one thread (the same at two). R3D-18's 3-d convolutions (14 tile rows
/// as 3 x 5 -> 2 x 7, 7 as 2 x 4 -> 1 x 7): 0.95 / 0.97. Three times
/// `rows` (VGG-16's 56x56 layers' 14 rows as 2 x 7 instead of 5 x 3) was
/// no faster.
int64_t dividingBandRows(int64_t th, int64_t rows) {
  if (th % rows == 0)
    return rows;
  for (int64_t r = rows + 1; r <= 2 * rows; ++r)
    if (th % r == 0)
      return r;
  return rows;
}

/// The constant `v` of the scalar or vector float type `t`.
Value floatConstant(OpBuilder &b, Location loc, Type t, double v) {
  if (auto vector = dyn_cast<VectorType>(t))
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(vector,
                               b.getFloatAttr(vector.getElementType(), v)));
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, v));
}

/// sum_i coefficients[i] * values[i] over the nonzero coefficients, with
/// plain adds and subtractions for +-1 (scalars or vectors).
Value linearCombination(OpBuilder &b, Location loc, ValueRange values,
                        ArrayRef<double> coefficients) {
  Value sum;
  for (auto [value, c] : llvm::zip(values, coefficients)) {
    if (c == 0)
      continue;
    bool unit = c == 1 || c == -1;
    Value term =
        unit ? value
             : arith::MulFOp::create(
                   b, loc, floatConstant(b, loc, value.getType(), std::abs(c)),
                   value)
                   .getResult();
    if (!sum)
      sum = c > 0 ? term : arith::NegFOp::create(b, loc, term).getResult();
    else if (c > 0)
      sum = arith::AddFOp::create(b, loc, sum, term);
    else
      sum = arith::SubFOp::create(b, loc, sum, term);
  }
  return sum ? sum : floatConstant(b, loc, values[0].getType(), 0);
}

/// outputs[o] = sum_i coefficient(o, i) * inputs[i], elementwise over
/// tensors of `type` (one multi-output linalg.generic: each input is read
/// once for all the outputs).
SmallVector<Value> combine(OpBuilder &b, Location loc, RankedTensorType type,
                           ValueRange inputs, int64_t outputs,
                           function_ref<double(int64_t, int64_t)> coefficient) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = type.getRank();
  SmallVector<Value> inits;
  for (int64_t o = 0; o < outputs; ++o)
    inits.push_back(tensor::EmptyOp::create(b, loc, type.getShape(),
                                            type.getElementType()));
  SmallVector<AffineMap> maps(inputs.size() + outputs,
                              AffineMap::getMultiDimIdentityMap(rank, ctx));
  SmallVector<Type> types(outputs, type);
  int64_t n = inputs.size();
  auto op = linalg::GenericOp::create(
      b, loc, types, inputs, inits, maps,
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        SmallVector<Value> results;
        for (int64_t o = 0; o < outputs; ++o) {
          SmallVector<double> row;
          for (int64_t i = 0; i < n; ++i)
            row.push_back(coefficient(o, i));
          results.push_back(linearCombination(nb, l, args.take_front(n), row));
        }
        linalg::YieldOp::create(nb, l, results);
      });
  return SmallVector<Value>(op.getResults());
}

/// A strided slice of `source` (static offsets, sizes and strides).
Value slice(OpBuilder &b, Location loc, Value source, ArrayRef<int64_t> offsets,
            ArrayRef<int64_t> sizes, ArrayRef<int64_t> strides,
            RankedTensorType type = nullptr) {
  MLIRContext *ctx = b.getContext();
  if (!type)
    type = RankedTensorType::get(
        sizes, cast<RankedTensorType>(source.getType()).getElementType());
  return tensor::ExtractSliceOp::create(
      b, loc, type, source, getAsIndexOpFoldResult(ctx, offsets),
      getAsIndexOpFoldResult(ctx, sizes), getAsIndexOpFoldResult(ctx, strides));
}

/// U[t = xi * a + nu, f / lanes, c, f % lanes] = (G g[f, c] G^T)[xi, nu]
/// for f32 weights g (F x C x 3 x 3), as a constant; null when the weights
/// are not a constant at hand. `c` is the product's channels and `kernelAt`
/// the element at which the 3x3 kernel g[f, c] starts (a 3-d convolution's
/// taps are its depth taps' channels, tap-major); by default the weights
/// are F x C x 3 x 3.
Value transformedWeights(
    OpBuilder &b, Location loc, Value weight, const MinimalFilter &mf,
    int64_t lanes, int64_t c = 0,
    function_ref<int64_t(int64_t, int64_t)> kernelAt = nullptr) {
  auto wt = cast<RankedTensorType>(weight.getType());
  int64_t f = wt.getDimSize(0), a = mf.a;
  if (!c)
    c = wt.getDimSize(1);
  auto kernelStart = [&](int64_t fi, int64_t ci) {
    return kernelAt ? kernelAt(fi, ci) : (fi * c + ci) * 9;
  };
  ArrayRef<char> bytes;
  bool isResource = false;
  std::optional<float> splat;
  if (!constantBytes(weight, bytes, isResource)) {
    DenseElementsAttr dense = splatConstant(weight);
    if (!dense)
      return nullptr;
    splat = dense.getSplatValue<float>();
  }
  // A panel of `lanes` output channels and one input channel at a time, so
  // that U is written in runs of `lanes` floats (VGG-16's weights are 59 MB;
  // element by element in U's order the writes missed the caches).
  int64_t panels = f / lanes;
  std::vector<float> u(a * a * f * c);
  std::vector<float> block(a * a * lanes);
  for (int64_t fo = 0; fo < panels; ++fo)
    for (int64_t ci = 0; ci < c; ++ci) {
      for (int64_t lane = 0; lane < lanes; ++lane) {
        float k[9];
        if (splat)
          std::fill(std::begin(k), std::end(k), *splat);
        else
          std::memcpy(k, &bytes[kernelStart(fo * lanes + lane, ci) * 4],
                      sizeof(k));
        // Gk = G k (a x 3), then Gk G^T (a x a).
        double gk[6][3];
        for (int64_t x = 0; x < a; ++x)
          for (int64_t j = 0; j < 3; ++j) {
            double s = 0;
            for (int64_t i = 0; i < 3; ++i)
              s += mf.g[x * 3 + i] * k[i * 3 + j];
            gk[x][j] = s;
          }
        for (int64_t x = 0; x < a; ++x)
          for (int64_t y = 0; y < a; ++y) {
            double s = 0;
            for (int64_t j = 0; j < 3; ++j)
              s += gk[x][j] * mf.g[y * 3 + j];
            block[(x * a + y) * lanes + lane] = float(s);
          }
      }
      for (int64_t t = 0; t < a * a; ++t)
        std::memcpy(&u[((t * panels + fo) * c + ci) * lanes], &block[t * lanes],
                    lanes * sizeof(float));
    }
  auto type =
      RankedTensorType::get({a * a, f / lanes, c, lanes}, wt.getElementType());
  return bytesConstant(b, loc, type,
                       ArrayRef<char>(reinterpret_cast<const char *>(u.data()),
                                      u.size() * sizeof(float)),
                       isResource);
}

/// U as transformedWeights lays it out, computed at run time from weights
/// that are not a constant (a training step's): one product of the a*a x 9
/// matrix (G x G)[xi * a + nu, i * 3 + j] = G[xi, i] G[nu, j] with the
/// weights seen as [F / lanes, lanes, C, 9]. It costs a*a*9 multiplies per
/// channel pair, against the convolution's 9 per output pixel and pair.
Value runtimeTransformedWeights(OpBuilder &b, Location loc, Value weight,
                                const MinimalFilter &mf, int64_t lanes) {
  MLIRContext *ctx = b.getContext();
  auto wt = cast<RankedTensorType>(weight.getType());
  Type e = wt.getElementType();
  int64_t f = wt.getDimSize(0), c = wt.getDimSize(1), a = mf.a;
  SmallVector<float> kron;
  for (int64_t xi = 0; xi < a; ++xi)
    for (int64_t nu = 0; nu < a; ++nu)
      for (int64_t i = 0; i < 3; ++i)
        for (int64_t j = 0; j < 3; ++j)
          kron.push_back(float(mf.g[xi * 3 + i] * mf.g[nu * 3 + j]));
  auto kronType = RankedTensorType::get({a * a, 9}, e);
  Value coefficients = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(kronType, ArrayRef<float>(kron)));
  Value taps = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({f / lanes, lanes, c, 3, 3}, e), weight,
      SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
  taps = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({f / lanes, lanes, c, 9}, e), taps,
      SmallVector<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
  // Loops (t, fo, c, fl, k).
  auto map = [&](ArrayRef<unsigned> dims) {
    SmallVector<AffineExpr> exprs;
    for (unsigned d : dims)
      exprs.push_back(getAffineDimExpr(d, ctx));
    return AffineMap::get(5, 0, exprs, ctx);
  };
  return contract(b, loc,
                  RankedTensorType::get({a * a, f / lanes, c, lanes}, e),
                  ValueRange{coefficients, taps}, 5,
                  {map({0, 4}), map({1, 3, 2, 4}), map({0, 1, 2, 3})});
}

/// Three nested loops from 0 to `ends` in `steps` carrying one tensor from
/// `init` through `body` (given the three induction variables), the outer
/// one marked as having independent iterations: the transforms are vector
/// code built as loops, which --relay-tile-and-vectorize does not split
/// between threads; with threads, --relay-parallelize-loops runs the outer
/// loop in parallel unless it is inside a parallel loop already (the bands
/// or images of a convolution). On one thread, the transforms were most of
/// ResNet-18's serial code at two threads (a tenth of its work, the other
/// thread idle); split between the threads, ResNet-18 ran 6% faster at two
/// threads, VGG-16 3%, a chain of 64-channel 56x56 layers 13%.
Value independentLoopNest(
    OpBuilder &b, Location loc, std::array<int64_t, 3> ends,
    std::array<int64_t, 3> steps, Value init,
    function_ref<Value(OpBuilder &, Value, Value, Value, Value)> body) {
  scf::ForOp outer = loopOp(
      b, loc, ends[0], steps[0], init, [&](OpBuilder &b1, Value x, Value acc1) {
        return loop(b1, loc, ends[1], steps[1], acc1,
                    [&](OpBuilder &b2, Value y, Value acc2) {
                      return loop(b2, loc, ends[2], steps[2], acc2,
                                  [&](OpBuilder &b3, Value z, Value acc3) {
                                    return body(b3, x, y, z, acc3);
                                  });
                    });
      });
  relay::setCodegenMark(outer, relay::CodegenMark::IndependentIterations);
  return outer.getResult(0);
}

/// The column pass of the input transform,
///   V[xi * a + nu][c, i, j] = sum_s Bt[nu, s] T[xi][c, i, j*m + s]
/// with t[xi][s] the view T[xi][.., s + m*j], as one loop nest per xi over
/// (c, i, 16 lanes of j) of vector code on tensors: each step reads the a
/// columns once for the a planes they make and writes the planes into V in
/// place. (As linalg ops, one multi-result op per xi left all but its first
/// result in buffers of their own, copied into V by the insertions, which
/// also made bufferization slow; one single-result op per plane re-read
/// the columns a times.)
Value columnPass(OpBuilder &b, Location loc, ArrayRef<SmallVector<Value>> t,
                 const MinimalFilter &mf, int64_t c, int64_t rows, int64_t tw,
                 Type e, Value init) {
  int64_t a = mf.a;
  constexpr int64_t kLanes = 16;
  int64_t lanes = std::min(tw, kLanes);
  // A partial last chunk reads and writes masked.
  bool whole = tw % lanes == 0;
  auto vectorType = VectorType::get({lanes}, e);
  Value pad = constantScalar(b, loc, e, 0);
  if (!init)
    init = tensor::EmptyOp::create(b, loc, {a * a, c, rows, tw}, e);
  auto body = [&](OpBuilder &ob, int64_t xi, Value ci, Value i, Value j,
                  Value out) {
    SmallVector<Value> columns;
    for (int64_t s = 0; s < a; ++s)
      columns.push_back(vector::TransferReadOp::create(
          ob, loc, vectorType, t[xi][s], ValueRange{ci, i, j}, pad,
          ArrayRef<bool>{whole}));
    for (int64_t nu = 0; nu < a; ++nu) {
      Value plane = linearCombination(ob, loc, columns, mf.bt.slice(nu * a, a));
      out = vector::TransferWriteOp::create(
                ob, loc, plane, out,
                ValueRange{index(ob, loc, xi * a + nu), ci, i, j},
                ArrayRef<bool>{whole})
                .getResult();
    }
    return out;
  };
  // One loop nest per xi: a write streams at a time, not a*a.
  Value v = init;
  for (int64_t xi = 0; xi < a; ++xi)
    v = independentLoopNest(
        b, loc, {c, rows, tw}, {1, 1, lanes}, v,
        [&](OpBuilder &ib, Value ci, Value i, Value j, Value out) {
          return body(ib, xi, ci, i, j, out);
        });
  return v;
}

/// The output transform into the tiles of the result in [row][column]
/// [channel] order,
///   Z[i, row, j, col, f] = sum_xi At[row, xi] sum_nu At[col, nu]
///                          M[xi * a + nu, i, j, f]
/// as a loop nest over (i, j, 16 channels) of vector code on tensors: each
/// step reads the a*a products of one tile once and writes its m*m outputs
/// (as linalg ops the first sum was a tensor of its own, written and read
/// back, and the outputs were inserted one by one).
Value outputPass(OpBuilder &b, Location loc, Value product,
                 const MinimalFilter &mf, int64_t rows, int64_t tw, int64_t f,
                 Type e) {
  int64_t m = mf.m, a = mf.a;
  constexpr int64_t kLanes = 16;
  auto vectorType = VectorType::get({kLanes}, e);
  Value pad = constantScalar(b, loc, e, 0);
  Value init = tensor::EmptyOp::create(b, loc, {rows, m, tw, m, f}, e);
  auto body = [&](OpBuilder &ob, Value i, Value j, Value c0, Value out) {
    // S[col][xi] = sum_nu At[col, nu] M[xi * a + nu].
    SmallVector<SmallVector<Value>> s(m);
    for (int64_t xi = 0; xi < a; ++xi) {
      SmallVector<Value> byNu;
      for (int64_t nu = 0; nu < a; ++nu)
        byNu.push_back(vector::TransferReadOp::create(
            ob, loc, vectorType, product,
            ValueRange{index(ob, loc, xi * a + nu), i, j, c0}, pad,
            ArrayRef<bool>{true}));
      for (int64_t col = 0; col < m; ++col)
        s[col].push_back(
            linearCombination(ob, loc, byNu, mf.at.slice(col * a, a)));
    }
    for (int64_t row = 0; row < m; ++row)
      for (int64_t col = 0; col < m; ++col) {
        Value tile =
            linearCombination(ob, loc, s[col], mf.at.slice(row * a, a));
        out =
            vector::TransferWriteOp::create(
                ob, loc, tile, out,
                ValueRange{i, index(ob, loc, row), j, index(ob, loc, col), c0},
                ArrayRef<bool>{true})
                .getResult();
      }
    return out;
  };
  return independentLoopNest(b, loc, {rows, tw, f}, {1, 1, kLanes}, init, body);
}

/// The input transform of `image` (C x (rows*m + 2) x (tw*m + 2), padded):
/// V (a*a x C x rows x tw), written into `init` when given (a slice of a
/// larger V, in place).
Value inputTransform(OpBuilder &b, Location loc, Value image,
                     const MinimalFilter &mf, int64_t rows, int64_t tw,
                     Value init = nullptr) {
  auto in = cast<RankedTensorType>(image.getType());
  Type e = in.getElementType();
  int64_t c = in.getDimSize(0), w = in.getDimSize(2);
  int64_t m = mf.m, a = mf.a;

  // Rows: T[xi][c, i, x] = sum_r Bt[xi, r] d[c, i*m + r, x].
  SmallVector<Value> inputRows;
  for (int64_t r = 0; r < a; ++r)
    inputRows.push_back(
        slice(b, loc, image, {0, r, 0}, {c, rows, w}, {1, m, 1}));
  SmallVector<Value> byXi =
      combine(b, loc, RankedTensorType::get({c, rows, w}, e), inputRows, a,
              [&](int64_t xi, int64_t r) { return mf.bt[xi * a + r]; });
  // The columns j*m + s of T[xi] (every m-th, read as one vector of their
  // span and a shuffle: see --relay-tile-and-vectorize).
  SmallVector<SmallVector<Value>> t(a);
  for (int64_t xi = 0; xi < a; ++xi)
    for (int64_t s = 0; s < a; ++s)
      t[xi].push_back(
          slice(b, loc, byXi[xi], {0, 0, s}, {c, rows, tw}, {1, 1, m}));
  return columnPass(b, loc, t, mf, c, rows, tw, e, init);
}

/// The a*a products of `v` (a*a x C x rows*tw, the transformed input) with
/// the transformed weights `u` over the C channels, and the output
/// transform: F x rows*m x tw*m.
Value productAndOutput(OpBuilder &b, Location loc, Value v, Value u,
                       const MinimalFilter &mf, int64_t rows, int64_t tw) {
  MLIRContext *ctx = b.getContext();
  auto ut = cast<RankedTensorType>(u.getType());
  Type e = ut.getElementType();
  int64_t lanes = ut.getDimSize(3), f = ut.getDimSize(1) * lanes;
  int64_t m = mf.m, a = mf.a, p = rows * tw;
  Value zero = constantScalar(b, loc, e, 0);

  // The a*a products over channels. Loops (t, p, fo, fi, c).
  auto map = [&](ArrayRef<unsigned> dims) {
    SmallVector<AffineExpr> exprs;
    for (unsigned d : dims)
      exprs.push_back(getAffineDimExpr(d, ctx));
    return AffineMap::get(5, 0, exprs, ctx);
  };
  auto productType = RankedTensorType::get({a * a, p, f / lanes, lanes}, e);
  Value init = linalg::FillOp::create(
                   b, loc, zero,
                   tensor::EmptyOp::create(b, loc, productType.getShape(), e)
                       .getResult())
                   .getResult(0);
  SmallVector<utils::IteratorType> iterators(5, utils::IteratorType::parallel);
  iterators.back() = utils::IteratorType::reduction;
  Value product =
      linalg::GenericOp::create(
          b, loc, TypeRange{productType}, ValueRange{v, u}, ValueRange{init},
          SmallVector<AffineMap>{map({0, 4, 1}), map({0, 2, 4, 3}),
                                 map({0, 1, 2, 3})},
          iterators,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            Value mul = arith::MulFOp::create(nb, l, args[0], args[1]);
            linalg::YieldOp::create(
                nb, l, arith::AddFOp::create(nb, l, args[2], mul).getResult());
          })
          .getResult(0);
  product = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({a * a, p, f}, e), product,
      SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}});
  product = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({a * a, rows, tw, f}, e), product,
      SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}});
  Value z = outputPass(b, loc, product, mf, rows, tw, f, e);
  // Back to channels first (a transpose in 16x16 blocks where the sizes
  // allow: see --relay-tile-and-vectorize).
  int64_t hh = rows * m, ww = tw * m;
  z = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({hh * ww, f}, e), z,
      SmallVector<ReassociationIndices>{{0, 1, 2, 3}, {4}});
  Value empty = tensor::EmptyOp::create(b, loc, {f, hh * ww}, e);
  Value out =
      linalg::TransposeOp::create(b, loc, z, empty, {1, 0})->getResult(0);
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({f, hh, ww}, e), out,
      SmallVector<ReassociationIndices>{{0}, {1, 2}});
}

/// The convolution of `image` (C x (rows*m + 2) x (tw*m + 2), padded) with
/// the transformed weights `u`: F x rows*m x tw*m.
Value convolveTileRows(OpBuilder &b, Location loc, Value image, Value u,
                       const MinimalFilter &mf, int64_t rows, int64_t tw) {
  Value v = inputTransform(b, loc, image, mf, rows, tw);
  auto vt = cast<RankedTensorType>(v.getType());
  v = tensor::CollapseShapeOp::create(
      b, loc,
      RankedTensorType::get({vt.getDimSize(0), vt.getDimSize(1), rows * tw},
                            vt.getElementType()),
      v, SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}});
  return productAndOutput(b, loc, v, u, mf, rows, tw);
}

/// `data` padded by `low` and `high` elements along each dimension with
/// `value`: strips of `value` around it, then `data` inserted (as
/// padImage does, so that the producer of `data` can write into the
/// padded tensor in place).
Value padBox(OpBuilder &b, Location loc, Value data, ArrayRef<int64_t> low,
             ArrayRef<int64_t> high, Value value) {
  auto in = cast<RankedTensorType>(data.getType());
  int64_t rank = in.getRank();
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d)
    shape.push_back(in.getDimSize(d) + low[d] + high[d]);
  if (ArrayRef<int64_t>(shape) == in.getShape())
    return data;
  Value out = tensor::EmptyOp::create(b, loc, shape, in.getElementType());
  SmallVector<int64_t> ones(rank, 1);
  // Along each dimension d its low and high strips, over the image's extent
  // in the dimensions before d and all of those after.
  for (int64_t d = 0; d < rank; ++d)
    for (auto [begin, size] : {std::pair(int64_t(0), low[d]),
                               std::pair(low[d] + in.getDimSize(d), high[d])}) {
      if (!size)
        continue;
      SmallVector<int64_t> offsets, sizes;
      for (int64_t j = 0; j < rank; ++j) {
        offsets.push_back(j < d ? low[j] : j == d ? begin : 0);
        sizes.push_back(j < d ? in.getDimSize(j) : j == d ? size : shape[j]);
      }
      Value box = slice(b, loc, out, offsets, sizes, ones);
      Value filled = linalg::FillOp::create(b, loc, value, box).getResult(0);
      out = tensor::InsertSliceOp::create(
          b, loc, filled, out, getAsIndexOpFoldResult(b.getContext(), offsets),
          getAsIndexOpFoldResult(b.getContext(), sizes),
          getAsIndexOpFoldResult(b.getContext(), ones));
    }
  return tensor::InsertSliceOp::create(
      b, loc, data, out, getAsIndexOpFoldResult(b.getContext(), low),
      getAsIndexOpFoldResult(b.getContext(), in.getShape()),
      getAsIndexOpFoldResult(b.getContext(), ones));
}

/// The most bytes of transformed depth slices a band of a 3-d convolution
/// holds (a run of output depths needs KD - 1 more than it has depths).
constexpr int64_t kMaxTransformedSlicesBytes = 32 << 20;

/// How winogradConv3d computes a 3-d convolution: F(m x m, 3 x 3) on each
/// depth slice, `th` x `tw` tiles a slice in bands of `bandRows` tile rows,
/// the output depths in `chunks` runs of consecutive ones.
struct Winograd3dPlan {
  const MinimalFilter *mf;
  int64_t th, tw, bandRows, chunks;
};

/// The plan for a stride-1, undilated convolution of f32 NCDHW `in` padded
/// by (front, top, left, back, bottom, right) with OIDHW weights `wt`
/// (KD x 3 x 3, KD > 1) into `type`; none where Winograd does not apply or
/// pay, by the 2-d convolution's rules with the product's channels those
/// of all the depth taps.
std::optional<Winograd3dPlan>
planWinograd3d(RankedTensorType type, RankedTensorType in, RankedTensorType wt,
               ArrayRef<int64_t> padding, const CPUDescription &cpu) {
  Type e = type.getElementType();
  if (!e.isF32() || in.getElementType() != e || wt.getElementType() != e ||
      !type.hasStaticShape() || !in.hasStaticShape() || !wt.hasStaticShape() ||
      type.getRank() != 5 || in.getRank() != 5 || wt.getRank() != 5 ||
      padding.size() != 6)
    return std::nullopt;
  int64_t c = in.getDimSize(1), f = type.getDimSize(1), kd = wt.getDimSize(2);
  if (wt.getDimSize(0) != f || wt.getDimSize(1) != c || kd < 2 ||
      wt.getDimSize(3) != 3 || wt.getDimSize(4) != 3 ||
      type.getDimSize(0) != in.getDimSize(0))
    return std::nullopt;
  int64_t od = type.getDimSize(2), oh = type.getDimSize(3),
          ow = type.getDimSize(4);
  if (od != in.getDimSize(2) + padding[0] + padding[3] - (kd - 1) ||
      oh != in.getDimSize(3) + padding[1] + padding[4] - 2 ||
      ow != in.getDimSize(4) + padding[2] + padding[5] - 2 || od < 1)
    return std::nullopt;
  if (c < kMinChannels || f % 16)
    return std::nullopt;
  const MinimalFilter *mf = nullptr;
  for (const MinimalFilter *candidate : {&kF4, &kF2})
    if (ceilDiv(oh, candidate->m) * ceilDiv(ow, candidate->m) >= kMinTiles) {
      mf = candidate;
      break;
    }
  if (!mf || mf->a * mf->a * kd * c * f * 4 > kMaxTransformedWeightBytes)
    return std::nullopt;
  int64_t th = ceilDiv(oh, mf->m), tw = ceilDiv(ow, mf->m);
  // A band's window of transformed depth slices is the product's operand,
  // as the stacked taps' transform is the 2-d convolution's.
  int64_t maxRows = bandTileRows(*mf, kd * c, f, th, tw, th, cpu);
  int64_t bandRows = dividingBandRows(th, ceilDiv(th, ceilDiv(th, maxRows)));
  // With threads, each takes a run of output depths (and transforms the
  // KD - 1 slices before its first once more). A band holds the slices of
  // its run, so long clips are cut into runs of at most
  // kMaxTransformedSlicesBytes of them (runs of equal length: of one depth
  // where nothing else divides the depths).
  int64_t sliceBytes = mf->a * mf->a * c * bandRows * tw * 4;
  int64_t maxDepths =
      std::max<int64_t>(1, kMaxTransformedSlicesBytes / sliceBytes - (kd - 1));
  int64_t chunks =
      cpu.threads > 1 && od % cpu.threads == 0 ? cpu.threads : int64_t(1);
  while (od % chunks || od / chunks > maxDepths)
    ++chunks;
  return Winograd3dPlan{mf, ceilDiv(th, bandRows) * bandRows, tw, bandRows,
                        chunks};
}

} // namespace

namespace mlir::relay::cpu {

Value winogradConv2d(OpBuilder &b, Location loc, RankedTensorType type,
                     Value data, Value weight, ArrayRef<int64_t> padding) {
  auto in = cast<RankedTensorType>(data.getType());
  auto wt = cast<RankedTensorType>(weight.getType());
  Type e = type.getElementType();
  if (!e.isF32() || in.getElementType() != e || wt.getElementType() != e ||
      !type.hasStaticShape() || !in.hasStaticShape() || !wt.hasStaticShape() ||
      wt.getDimSize(2) != 3 || wt.getDimSize(3) != 3 ||
      wt.getDimSize(1) != in.getDimSize(1))
    return nullptr;
  int64_t c = in.getDimSize(1), f = type.getDimSize(1);
  int64_t oh = type.getDimSize(2), ow = type.getDimSize(3);
  // Stride 1 and no dilation: the output is the padded input less 2.
  if (oh != in.getDimSize(2) + padding[0] + padding[2] - 2 ||
      ow != in.getDimSize(3) + padding[1] + padding[3] - 2)
    return nullptr;
  if (c < kMinChannels)
    return nullptr;
  // Output channels that are not whole vectors (the product's lanes) are
  // padded with zero filters where that wastes little: R(2+1)D's 230, 460
  // and 921 channels went to the im2col product at a third of the speed.
  if (f % 16) {
    int64_t paddedF = ceilDiv(f, 16) * 16;
    if ((paddedF - f) * 100 >= f * kMaxPaddedChannelsPercent)
      return nullptr;
    SmallVector<int64_t> shape(type.getShape());
    shape[1] = paddedF;
    Value out =
        winogradConv2d(b, loc, type.clone(shape), data,
                       zeroPaddedRows(b, loc, weight, paddedF), padding);
    if (!out)
      return nullptr;
    shape[1] = f;
    return slice(b, loc, out, {0, 0, 0, 0}, shape, {1, 1, 1, 1});
  }
  // A batch with weights only known at run time competes with an im2col
  // product whose columns are padded to whole vectors (constant weights
  // with the transposed product of packed weights, which is faster on
  // small images), and its images share the transformed weights.
  int64_t minTiles = type.getDimSize(0) > 1 && !constantThroughReshapes(weight)
                         ? kMinTilesRuntimeWeights
                         : kMinTiles;
  // F(4x4) where there are enough 4x4 tiles, else F(2x2). (A batch of
  // small images stacked as one tall image, each one tile row taller, ran
  // slower than the im2col product: ResNet-18's 14x14 and 7x7 layers give
  // 4 and 2 tile columns, the vector lanes of the column pass.)
  const MinimalFilter *chosen = nullptr;
  for (const MinimalFilter *mf : {&kF4, &kF2})
    if (ceilDiv(oh, mf->m) * ceilDiv(ow, mf->m) >= minTiles) {
      chosen = mf;
      break;
    }
  if (!chosen)
    return nullptr;
  const MinimalFilter &mf = *chosen;
  if (mf.a * mf.a * c * f * 4 > kMaxTransformedWeightBytes)
    return nullptr;
  int64_t m = mf.m;
  int64_t th = ceilDiv(oh, m), tw = ceilDiv(ow, m);
  // Bands of tile rows, each convolved on its own: as many rows as keep a
  // band's transformed input V within the L2 cache (it stays there for the
  // product) unless streaming U once more per band costs more
  // (bandTileRows), split evenly (tile rows that do not fill the last band
  // are zeros). An image whose V fits takes one band, whatever the threads:
  // each band streams all of U, which in a network comes from memory (the
  // layers before evicted it). Two bands of a 14x14 image (one per thread,
  // as was done for parallelism) read ResNet-50's 4 MB U of its 256-channel
  // layers twice: on a Xeon a chain of 16 such layers ran 1.80 -> 1.24 ms a
  // layer at one thread and 0.91 -> 0.72 at two (the product splits U
  // between the threads instead), ResNet-50 73.3 -> 68.8 ms, VGG-16
  // 158 -> 145 ms. A batch's images run in parallel, each in its bands.
  int64_t n = type.getDimSize(0);
  int64_t maxRows = bandTileRows(mf, c, f, th, tw, th, cpuAt(b));
  int64_t bandRows = dividingBandRows(th, ceilDiv(th, ceilDiv(th, maxRows)));
  th = ceilDiv(th, bandRows) * bandRows;
  int64_t bands = th / bandRows;
  int64_t lanes = f % 32 == 0 ? 32 : 16;
  Value u = transformedWeights(b, loc, weight, mf, lanes);
  if (!u)
    u = runtimeTransformedWeights(b, loc, weight, mf, lanes);

  // The image padded so that the tiles cover it: (th*m + 2) x (tw*m + 2).
  Value zero = constantScalar(b, loc, e, 0);
  Value image = padImage(b, loc, data,
                         {padding[0], padding[1], padding[2] + th * m - oh,
                          padding[3] + tw * m - ow},
                         2, 3, zero);
  int64_t h = th * m + 2, w = tw * m + 2, hh = th * m, ww = tw * m;
  // One image (C x h x w) convolved: 1 x F x oh x ow. The bands insert
  // into the NCHW result itself, so that when the tiles cover the output
  // exactly the elementwise op after the convolution (bias, activation)
  // can join each band (--relay-fuse-elementwise).
  auto nchw = [&](OpBuilder &ib, Value v, int64_t rows) -> Value {
    return tensor::ExpandShapeOp::create(
        ib, loc, RankedTensorType::get({1, f, rows, ww}, e), v,
        SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}});
  };
  auto convolveImage = [&](OpBuilder &ib, Value one) -> Value {
    Value out;
    if (bands == 1) {
      out = nchw(ib, convolveTileRows(ib, loc, one, u, mf, bandRows, tw), hh);
    } else {
      Value init = tensor::EmptyOp::create(ib, loc, {1, f, hh, ww}, e);
      int64_t rowsIn = bandRows * m + 2, rowsOut = bandRows * m;
      scf::ForOp bandLoop = loopOp(
          ib, loc, hh, rowsOut, init, [&](OpBuilder &lb, Value row, Value acc) {
            OpFoldResult zeroIndex = lb.getIndexAttr(0);
            Value band = sliceAt(lb, loc, one, {zeroIndex, row, zeroIndex},
                                 {c, rowsIn, w});
            return insertAt(
                lb, loc,
                nchw(lb, convolveTileRows(lb, loc, band, u, mf, bandRows, tw),
                     rowsOut),
                acc, {zeroIndex, zeroIndex, row, zeroIndex},
                {1, f, rowsOut, ww});
          });
      // --relay-to-llvm runs the bands of one image in parallel with
      // threads (--relay-parallelize-loops).
      if (n == 1)
        relay::setCodegenMark(bandLoop,
                              relay::CodegenMark::IndependentIterations);
      out = bandLoop.getResult(0);
    }
    if (hh != oh || ww != ow)
      out = slice(ib, loc, out, {0, 0, 0, 0}, {1, f, oh, ow}, {1, 1, 1, 1});
    return out;
  };
  // A batch goes image by image (each one's bands in parallel).
  auto imageType = RankedTensorType::get({c, h, w}, e);
  auto convolveOne = [&](OpBuilder &ib, Value one) -> Value {
    one = tensor::CollapseShapeOp::create(
        ib, loc, imageType, one,
        SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}});
    return convolveImage(ib, one);
  };
  if (n == 1)
    return convolveOne(b, image);
  Value out = eachImage(b, loc, type, image, convolveOne);
  relay::setCodegenMark(out.getDefiningOp<scf::ForOp>(),
                        relay::CodegenMark::IndependentIterations);
  return out;
}

bool winogradConv3dApplies(RankedTensorType type, RankedTensorType data,
                           RankedTensorType weight, ArrayRef<int64_t> padding,
                           const CPUDescription &cpu) {
  return planWinograd3d(type, data, weight, padding, cpu).has_value();
}

Value winogradConv3d(OpBuilder &b, Location loc, RankedTensorType type,
                     Value data, Value weight, ArrayRef<int64_t> padding) {
  auto in = cast<RankedTensorType>(data.getType());
  auto wt = cast<RankedTensorType>(weight.getType());
  const CPUDescription &cpu = cpuAt(b);
  std::optional<Winograd3dPlan> plan =
      planWinograd3d(type, in, wt, padding, cpu);
  if (!plan)
    return nullptr;
  const MinimalFilter &mf = *plan->mf;
  MLIRContext *ctx = b.getContext();
  Type e = type.getElementType();
  int64_t c = in.getDimSize(1), f = type.getDimSize(1), kd = wt.getDimSize(2);
  int64_t od = type.getDimSize(2), oh = type.getDimSize(3),
          ow = type.getDimSize(4);
  int64_t m = mf.m, a = mf.a, th = plan->th, tw = plan->tw;
  int64_t rows = plan->bandRows, rowsIn = rows * m + 2, rowsOut = rows * m;
  int64_t hh = th * m, ww = tw * m;
  int64_t chunkDepth = od / plan->chunks, slots = chunkDepth + kd - 1;
  int64_t lanes = f % 32 == 0 ? 32 : 16;

  // U of the depth taps' channels, tap-major: channel t*C + c of the
  // product is channel c of depth tap t.
  Value u = transformedWeights(b, loc, weight, mf, lanes, kd * c,
                               [&](int64_t fi, int64_t ci) {
                                 return ((fi * c + ci % c) * kd + ci / c) * 9;
                               });
  if (!u) {
    Value taps = linalg::TransposeOp::create(
                     b, loc, weight,
                     tensor::EmptyOp::create(b, loc, {f, kd, c, 3, 3}, e),
                     {0, 2, 1, 3, 4})
                     ->getResult(0);
    taps = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({f, kd * c, 3, 3}, e), taps,
        SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
    u = runtimeTransformedWeights(b, loc, taps, mf, lanes);
  }
  // The images padded in depth as the convolution asks, and in rows and
  // columns also to whole tiles: N x C x Dp x (hh + 2) x (ww + 2).
  Value zero = constantScalar(b, loc, e, 0);
  Value image = padBox(
      b, loc, data, {0, 0, padding[0], padding[1], padding[2]},
      {0, 0, padding[3], padding[4] + hh - oh, padding[5] + ww - ow}, zero);
  int64_t dp = in.getDimSize(2) + padding[0] + padding[3];
  int64_t wp = ww + 2;
  auto unit = [&](int64_t rank) {
    return SmallVector<OpFoldResult>(rank, b.getIndexAttr(1));
  };
  auto sizes = [&](ArrayRef<int64_t> s) {
    return getAsIndexOpFoldResult(ctx, s);
  };

  // One image (C x Dp x (hh + 2) x (ww + 2)): for each run of output
  // depths, for each band of tile rows, the band of each depth slice is
  // transformed once into its slot of V (a*a x slots x C x rows x tw), and
  // output depth j is the product of the window of KD slots from j, one
  // a*a x KD*C x rows*tw operand, with U: the transforms of the stacked
  // taps' 2-d convolution (each depth slice once per tap, after the taps
  // were copied into the stack) are done a KD-th as often, and the depth
  // slices are read where they are.
  auto convolveImage = [&](OpBuilder &ib, Value x) -> Value {
    Value result = tensor::EmptyOp::create(ib, loc, {1, f, od, hh, ww}, e);
    scf::ForOp chunkLoop = loopOp(
        ib, loc, od, chunkDepth, result,
        [&](OpBuilder &cb, Value d0, Value acc) -> Value {
          Value chunkOut =
              tensor::EmptyOp::create(cb, loc, {f, chunkDepth, hh, ww}, e);
          Value bands = loop(
              cb, loc, hh, rowsOut, chunkOut,
              [&](OpBuilder &bb, Value row, Value chunkAcc) -> Value {
                Value v = tensor::EmptyOp::create(
                    bb, loc, {a * a, slots, c, rows, tw}, e);
                // Slot s: the band of depth slice d0 + s, transformed.
                auto transformSlot = [&](OpBuilder &tb, Value slot,
                                         Value vIn) -> Value {
                  Value depth = arith::AddIOp::create(tb, loc, d0, slot);
                  OpFoldResult z = tb.getIndexAttr(0);
                  Value band = tensor::ExtractSliceOp::create(
                      tb, loc, RankedTensorType::get({c, rowsIn, wp}, e), x,
                      SmallVector<OpFoldResult>{z, depth, row, z},
                      sizes({c, 1, rowsIn, wp}), unit(4));
                  SmallVector<OpFoldResult> at = {z, slot, z, z, z};
                  SmallVector<OpFoldResult> extent =
                      sizes({a * a, 1, c, rows, tw});
                  Value dest = tensor::ExtractSliceOp::create(
                      tb, loc, RankedTensorType::get({a * a, c, rows, tw}, e),
                      vIn, at, extent, unit(5));
                  Value transformed =
                      inputTransform(tb, loc, band, mf, rows, tw, dest);
                  return tensor::InsertSliceOp::create(tb, loc, transformed,
                                                       vIn, at, extent, unit(5))
                      .getResult();
                };
                v = loop(bb, loc, kd - 1, 1, v, transformSlot);
                Value bandOut = tensor::EmptyOp::create(
                    bb, loc, {f, chunkDepth, rowsOut, ww}, e);
                auto depthLoop = scf::ForOp::create(
                    bb, loc, index(bb, loc, 0), index(bb, loc, chunkDepth),
                    index(bb, loc, 1), ValueRange{v, bandOut},
                    [&](OpBuilder &db, Location, Value j, ValueRange args) {
                      Value slot = arith::AddIOp::create(
                          db, loc, j, index(db, loc, kd - 1));
                      Value vNow = transformSlot(db, slot, args[0]);
                      OpFoldResult z = db.getIndexAttr(0);
                      Value window = tensor::ExtractSliceOp::create(
                          db, loc,
                          RankedTensorType::get({a * a, kd, c, rows, tw}, e),
                          vNow, SmallVector<OpFoldResult>{z, j, z, z, z},
                          sizes({a * a, kd, c, rows, tw}), unit(5));
                      window = tensor::CollapseShapeOp::create(
                          db, loc,
                          RankedTensorType::get({a * a, kd * c, rows * tw}, e),
                          window,
                          SmallVector<ReassociationIndices>{
                              {0}, {1, 2}, {3, 4}});
                      Value y =
                          productAndOutput(db, loc, window, u, mf, rows, tw);
                      Value out = tensor::InsertSliceOp::create(
                          db, loc, y, args[1],
                          SmallVector<OpFoldResult>{z, j, z, z},
                          sizes({f, 1, rowsOut, ww}), unit(4));
                      scf::YieldOp::create(db, loc, ValueRange{vNow, out});
                    });
                OpFoldResult z = bb.getIndexAttr(0);
                return tensor::InsertSliceOp::create(
                           bb, loc, depthLoop.getResult(1), chunkAcc,
                           SmallVector<OpFoldResult>{z, z, row, z},
                           sizes({f, chunkDepth, rowsOut, ww}), unit(4))
                    .getResult();
              });
          bands = tensor::ExpandShapeOp::create(
              cb, loc, RankedTensorType::get({1, f, chunkDepth, hh, ww}, e),
              bands, SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
          OpFoldResult z = cb.getIndexAttr(0);
          return insertAt(cb, loc, bands, acc, {z, z, d0, z, z},
                          {1, f, chunkDepth, hh, ww});
        });
    // The runs of depths run in parallel with threads; on one thread the
    // loop of one run is still marked, so that the bias and activation
    // after the convolution join it (--relay-fuse-elementwise).
    if (plan->chunks > 1 || cpu.threads == 1)
      relay::setCodegenMark(chunkLoop,
                            relay::CodegenMark::IndependentIterations);
    Value out = chunkLoop.getResult(0);
    if (hh != oh || ww != ow)
      out = slice(ib, loc, out, {0, 0, 0, 0, 0}, {1, f, od, oh, ow},
                  {1, 1, 1, 1, 1});
    return out;
  };
  auto imageType = RankedTensorType::get({c, dp, hh + 2, wp}, e);
  auto convolveOne = [&](OpBuilder &ib, Value one) -> Value {
    one = tensor::CollapseShapeOp::create(
        ib, loc, imageType, one,
        SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
    return convolveImage(ib, one);
  };
  if (type.getDimSize(0) == 1)
    return convolveOne(b, image);
  Value out = eachImage(b, loc, type, image, convolveOne);
  relay::setCodegenMark(out.getDefiningOp<scf::ForOp>(),
                        relay::CodegenMark::IndependentIterations);
  return out;
}

Value dilatedWinogradConv2d(OpBuilder &b, Location loc, RankedTensorType type,
                            Value data, Value weight,
                            ArrayRef<int64_t> dilation,
                            ArrayRef<int64_t> padding) {
  auto in = cast<RankedTensorType>(data.getType());
  auto wt = cast<RankedTensorType>(weight.getType());
  if (!in.hasStaticShape() || !type.hasStaticShape() || in.getRank() != 4 ||
      !wt.hasStaticShape() || wt.getDimSize(2) != 3 || wt.getDimSize(3) != 3 ||
      !type.getElementType().isF32())
    return nullptr;
  int64_t dh = dilation[0], dw = dilation[1];
  int64_t n = in.getDimSize(0), c = in.getDimSize(1), h = in.getDimSize(2),
          w = in.getDimSize(3), f = type.getDimSize(1);
  // Output row d*y + a reads rows d*(y + k - 1) + a: phase a of the image
  // (its rows a, a + d, ...) convolved undilated, padded by one row.
  if ((dh == 1 && dw == 1) || padding[0] != dh || padding[2] != dh ||
      padding[1] != dw || padding[3] != dw || type.getDimSize(2) != h ||
      type.getDimSize(3) != w)
    return nullptr;
  Type e = type.getElementType();
  int64_t ph = ceilDiv(h, dh), pw = ceilDiv(w, dw);
  int64_t mh = dh * (ph + 1), mw = dw * (pw + 1);
  // Small phases make the gutters a large part of the mosaic: at most half
  // as many outputs again as the convolution's (a 28x28 map dilated by 4:
  // 1.31 times; a 65x65 one by 12: 1.67).
  if (2 * mh * mw > 3 * h * w)
    return nullptr;
  // An image of partial phases (DeepLab's 513x513 inputs give 65x65 maps)
  // is extended with zeros to whole ones: the rows past it are the
  // padding's zeros to the outputs kept, and the outputs past it go.
  if (h % dh || w % dw) {
    int64_t h2 = ph * dh, w2 = pw * dw;
    Value out = dilatedWinogradConv2d(
        b, loc, RankedTensorType::get({n, f, h2, w2}, e),
        padHighTo(b, loc, data, {n, c, h2, w2}), weight, dilation, padding);
    return out ? slice(b, loc, out, {0, 0, 0, 0}, type.getShape(), {1, 1, 1, 1})
               : nullptr;
  }
  // The phases side by side in one image, each followed by a row and a
  // column of zeros (its padding, and the next phase's): d*d small images
  // would give Winograd too few tiles each (a 28x28 map dilated by 4 has
  // 7x7 phases), the mosaic enough for F(4x4) (32x32).
  //   N x C x H x W -> N x C x ph x dh x pw x dw -> N x C x dh x ph x dw x pw
  //   -> N x C x dh x (ph + 1) x dw x (pw + 1) -> N x C x mh x mw.
  Value split = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({n, c, ph, dh, pw, dw}, e), data,
      SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}, {4, 5}});
  Value phases = linalg::TransposeOp::create(
                     b, loc, split,
                     tensor::EmptyOp::create(b, loc, {n, c, dh, ph, dw, pw}, e),
                     {0, 1, 3, 2, 5, 4})
                     ->getResult(0);
  Value gutters = tensor::createPadHighOp(
      RankedTensorType::get({n, c, dh, ph + 1, dw, pw + 1}, e), phases,
      constantScalar(b, loc, e, 0), /*nofold=*/false, loc, b);
  Value mosaic = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({n, c, mh, mw}, e), gutters,
      SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}, {4, 5}});
  // Output (r, s) of the mosaic is centred on its pixel (r, s).
  Value out = winogradConv2d(b, loc, RankedTensorType::get({n, f, mh, mw}, e),
                             mosaic, weight, {1, 1, 1, 1});
  if (!out)
    return nullptr;
  // Back: the phases' outputs without the gutters' and interleaved.
  out = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({n, f, dh, ph + 1, dw, pw + 1}, e), out,
      SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}, {4, 5}});
  out = slice(b, loc, out, {0, 0, 0, 0, 0, 0}, {n, f, dh, ph, dw, pw},
              {1, 1, 1, 1, 1, 1});
  out = linalg::TransposeOp::create(
            b, loc, out,
            tensor::EmptyOp::create(b, loc, {n, f, ph, dh, pw, dw}, e),
            {0, 1, 3, 2, 5, 4})
            ->getResult(0);
  return tensor::CollapseShapeOp::create(
      b, loc, type, out,
      SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}, {4, 5}});
}

} // namespace mlir::relay::cpu

//===- MatrixProducts.cpp - Products shaped for register tiles --*- C++ -*-===//
//
// The CPU's contractions: the m and n loops of a product padded so that
// its register tiles (CPUDescription.h) are whole, the operand read across
// k-major rows copied so that n is innermost (the vectors run along n), and
// one-row products (an RNN cell's dense layers, a classifier at batch 1) as
// a split reduction that reads the weight rows as vectors.
//
//===----------------------------------------------------------------------===//

#include "transforms/Codegen/CPU/CPUKernels.h"

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "dialects/relay/RelayDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

/// The size an m (`isN` false) or n loop of a product is padded to so that
/// its register tiles are whole: m as CPUDescription::paddedTileRows says, n
/// to whole 16-float vectors; small sizes stay.
int64_t paddedExtent(OpBuilder &b, int64_t size, bool isN) {
  if (isN)
    return size > 16 && size % 16 ? (size + 15) / 16 * 16 : size;
  return cpu::cpuAt(b).paddedTileRows(size);
}

/// `operand` (read through `map` in a product of `numDims` loops, k last)
/// with its dimension along the result's innermost loop n moved innermost,
/// when it had k there: the product's vectors run along n, and reading
/// them across k-major rows (dense's weight [n, k], batch_matmul's
/// transposed B) would load one element per lane. Copying costs n * k
/// moves against 2 * m * n * k flops, so only products of 4 or more rows
/// get it. `map` is updated to read the copy.
Value nInnermost(OpBuilder &b, Location loc, Value operand, AffineMap &map,
                 unsigned numDims, RankedTensorType type, AffineMap result) {
  unsigned rank = result.getNumResults();
  if (rank < 2 || type.getDimSize(rank - 2) < 4)
    return operand;
  unsigned n = result.getDimPosition(rank - 1), last = map.getNumResults() - 1;
  std::optional<unsigned> at =
      map.getResultPosition(getAffineDimExpr(n, b.getContext()));
  if (!map.isProjectedPermutation() || !at || *at == last ||
      map.getDimPosition(last) != numDims - 1)
    return operand;
  SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, last + 1));
  std::swap(perm[*at], perm[last]);
  auto t = cast<RankedTensorType>(operand.getType());
  SmallVector<int64_t> shape(t.getShape());
  std::swap(shape[*at], shape[last]);
  SmallVector<AffineExpr> exprs(map.getResults());
  std::swap(exprs[*at], exprs[last]);
  map = AffineMap::get(numDims, 0, exprs, b.getContext());
  Value init = tensor::EmptyOp::create(b, loc, shape, t.getElementType());
  return linalg::TransposeOp::create(b, loc, operand, init, perm)
      .getResult()[0];
}

} // namespace

namespace mlir::relay::cpu {

Value contract(OpBuilder &b, Location loc, RankedTensorType type,
               ValueRange inputs, unsigned numDims,
               ArrayRef<AffineMap> inputMaps) {
  SmallVector<AffineMap> maps(inputMaps);
  SmallVector<Value> operands(inputs);
  for (unsigned i = 0; i + 1 < maps.size(); ++i)
    operands[i] =
        nInnermost(b, loc, operands[i], maps[i], numDims, type, maps.back());
  return filledContraction(b, loc, type, operands, numDims, maps);
}

/// contract() with the innermost two parallel loops of the result (m and n)
/// padded with rows/columns of zeros where paddedExtent says (a
/// 197-row product would otherwise get one-row register tiles), and the result
/// sliced back.
Value paddedContract(OpBuilder &b, Location loc, RankedTensorType type,
                     ValueRange operands, unsigned numDims,
                     ArrayRef<AffineMap> maps) {
  AffineMap result = maps.back();
  SmallVector<int64_t> padded(numDims, 0), size(numDims, 0);
  unsigned rank = result.getNumResults();
  for (unsigned j = 0; j < rank; ++j) {
    unsigned d = result.getDimPosition(j);
    size[d] = type.getDimSize(j);
    padded[d] = size[d];
  }
  if (rank >= 1)
    padded[result.getDimPosition(rank - 1)] =
        paddedExtent(b, type.getDimSize(rank - 1), /*isN=*/true);
  if (rank >= 2)
    padded[result.getDimPosition(rank - 2)] =
        paddedExtent(b, type.getDimSize(rank - 2), /*isN=*/false);
  if (llvm::all_of(llvm::seq<unsigned>(0, rank), [&](unsigned j) {
        unsigned d = result.getDimPosition(j);
        return padded[d] == size[d];
      }))
    return contract(b, loc, type, operands, numDims, maps);
  Type e = type.getElementType();
  SmallVector<Value> args;
  for (auto [v, m] : llvm::zip(operands, maps)) {
    auto t = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> shape(t.getShape());
    for (unsigned j = 0; j < m.getNumResults(); ++j) {
      unsigned d = m.getDimPosition(j);
      if (padded[d])
        shape[j] = padded[d];
    }
    // Only m and n are padded: the padding's results are sliced off.
    args.push_back(padHighInPlace(b, loc, v, shape));
  }
  SmallVector<int64_t> shape;
  for (unsigned j = 0; j < rank; ++j)
    shape.push_back(padded[result.getDimPosition(j)]);
  Value out =
      contract(b, loc, RankedTensorType::get(shape, e), args, numDims, maps);
  return tensor::ExtractSliceOp::create(
      b, loc, type, out, ValueRange{}, ValueRange{}, ValueRange{},
      b.getDenseI64ArrayAttr(SmallVector<int64_t>(rank, 0)),
      b.getDenseI64ArrayAttr(type.getShape()),
      b.getDenseI64ArrayAttr(SmallVector<int64_t>(rank, 1)));
}

/// The rows of x's panels in productOnPanels: the largest divisor of its
/// (padded) rows that is a register tile's rows or fewer and keeps enough
/// accumulators; 1 (x read in place) where there is none, x has under 4
/// tiles, or x (`bytes`) fits in half of L2 (where it is read from at
/// little cost: on a Xeon with a 2 MB L2, 256^3 to 512^3 products ran 3-5%
/// faster in place, 768^3 and 1024^3 6-12% faster packed), or on a CPU
/// that reads them in place as fast at any size
/// (CPUDescription::readsProductRowsInPlace). AVX-512 only: AVX2's 6x16
/// tiles (haswell code on that Xeon) ran a 1024^3 product 10% slower packed.
static int64_t panelRows(const cpu::CPUDescription &cpu, int64_t paddedM,
                         int64_t bytes) {
  if (cpu.vectorBits != 512 || 2 * bytes <= cpu.l2Bytes ||
      cpu.readsProductRowsInPlace())
    return 1;
  int64_t vectors = cpu.registerTileColumns() / cpu.f32Lanes();
  for (int64_t r = cpu.registerTileRows();
       r * vectors >= cpu::CPUDescription::kMinTileAccumulators; --r)
    if (paddedM % r == 0)
      return paddedM >= 4 * r ? r : 1;
  return 1;
}

/// B's panels [count, k, lanes] from panel `first` on.
using PanelsAt =
    function_ref<Value(OpBuilder &, OpFoldResult first, int64_t count)>;

/// out[m, n] = sum_k x[m, k] * packed[n / lanes, k, n % lanes] (packed:
/// the weights in panels of `lanes` columns, n padded to a multiple of
/// them), x's rows padded to whole register tiles and the result sliced
/// back to `type`. x is packed too, into panels of a register tile's rows
/// each contiguous along k (xp[mo, k, mi] = x[mo * rows + mi, k]): read in
/// place, a register tile's rows are a row of x apart, and where that is a
/// multiple of 4 KB (1024 floats) they fall in one set of L1. The copy is
/// one pass over x against 2n flops per element; the product's loops then
/// go as --relay-tile-and-vectorize schedules products on panels.
static Value productOnPanels(OpBuilder &b, Location loc, RankedTensorType type,
                             Value x, int64_t panels, int64_t lanes,
                             PanelsAt panelsAt) {
  MLIRContext *ctx = b.getContext();
  Type e = type.getElementType();
  int64_t paddedN = panels * lanes;
  int64_t m = type.getDimSize(0), n = type.getDimSize(1);
  int64_t k = cast<RankedTensorType>(x.getType()).getDimSize(1);
  int64_t paddedM = paddedExtent(b, m, /*isN=*/false);
  // The padding rows' results are sliced off (zeros only keep garbage
  // out of the FMAs).
  x = padHighInPlace(b, loc, x, {paddedM, k});
  CPUDescription cpu = cpuAt(b);
  int64_t elementBytes = e.getIntOrFloatBitWidth() / 8;
  int64_t rows = panelRows(cpu, paddedM, paddedM * k * elementBytes),
          tilesM = paddedM / rows;
  if (rows > 1) {
    x = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get({tilesM, rows, k}, e), x,
        SmallVector<ReassociationIndices>{{0, 1}, {2}});
    Value init =
        tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{tilesM, k, rows}, e);
    x = linalg::TransposeOp::create(b, loc, x, init, ArrayRef<int64_t>{0, 2, 1})
            .getResult()[0];
  }
  // Loops (mo, mi, no, ni, k): out[mo, mi, no, ni] = sum_k xp[mo, k, mi] *
  // packed[no, k, ni]; each register tile streams one panel of each
  // sequentially. (The loops follow the result's dimensions:
  // vector.contract's accumulator is then the register tile's rows of
  // vectors, not its transposition.) With k in several of the schedule's k
  // tiles, each register tile is read back and written again for each: its
  // rows a row of the result apart, they fall in few sets of L1 (a 1024^3
  // product's C loops on a Xeon: 118 GFLOP/s, against 155 with each tile's
  // rows contiguous). The result then goes in panels too, loops (no, mo,
  // mi, ni, k): outP[no, mo, mi, ni], copied back after. That copy and its
  // second buffer (the pages of a fresh one fault in) cost more than the
  // rows' sets save once the result is far beyond the caches: on a Zen 5 at
  // one thread 16384x512x4096 (a 256 MB result) took 1630 ms in panels
  // against 329 in rows, 16384x1024x4096 1991 against 628, 8192x2048x4096
  // (128 MB) 657 against 606, while with 64 MB results panels won (4096^3
  // 633 against 1063, 4096x2048x4096 325 against 483) or nearly tied
  // (4096x1024x4096: 165 against 157). So panels only up to 64 MB of
  // result (a bound measured on that one CPU, with x packed, as it was then;
  // that CPU now reads x in place, and no CPU that packs x has measured
  // it). With x in place, loops (m, no, ni, k): out[m, no, ni] = sum_k x[m,
  // k] * packed[no, k, ni].
  enum class Layout { InPlace, Rows, Panels };
  constexpr int64_t maxPanelsResultBytes = int64_t(64) << 20;
  bool panelsPay = k > cpu.panelSliceK(lanes, elementBytes) &&
                   paddedM * paddedN * elementBytes <= maxPanelsResultBytes;
  Layout layout = rows == 1   ? Layout::InPlace
                  : panelsPay ? Layout::Panels
                              : Layout::Rows;
  // The result's shape with `count` panels, and the dimension of panels.
  auto shapeWith = [&](int64_t count) {
    switch (layout) {
    case Layout::InPlace:
      return SmallVector<int64_t>{paddedM, count, lanes};
    case Layout::Rows:
      return SmallVector<int64_t>{tilesM, rows, count, lanes};
    case Layout::Panels:
      return SmallVector<int64_t>{count, tilesM, rows, lanes};
    }
    llvm_unreachable("a layout");
  };
  unsigned panelDim = layout == Layout::Panels ? 0 : shapeWith(1).size() - 2;
  auto product = [&](OpBuilder &pb, Value w, int64_t count) {
    auto t = RankedTensorType::get(shapeWith(count), e);
    switch (layout) {
    case Layout::InPlace:
      return contract(pb, loc, t, ValueRange{x, w}, 4,
                      {map(ctx, 4, {0, 3}), map(ctx, 4, {1, 3, 2}),
                       map(ctx, 4, {0, 1, 2})});
    case Layout::Rows:
      return contract(pb, loc, t, ValueRange{x, w}, 5,
                      {map(ctx, 5, {0, 4, 1}), map(ctx, 5, {2, 4, 3}),
                       map(ctx, 5, {0, 1, 2, 3})});
    case Layout::Panels:
      return contract(pb, loc, t, ValueRange{x, w}, 5,
                      {map(ctx, 5, {1, 4, 2}), map(ctx, 5, {0, 4, 3}),
                       map(ctx, 5, {0, 1, 2, 3})});
    }
    llvm_unreachable("a layout");
  };
  // Blocks of panels, each multiplied by all of x before the next, where
  // that moves fewer bytes from memory than one pass over all of them. A
  // block the threads' perThread of the last level cache hold is read from
  // memory once, x once per block; without blocks x is read once and the
  // panels once per block of x's rows the schedule keeps in L2 (a cache
  // tile's rows where x is read in place). On a Zen 5 (4 MB a core), blocks
  // of the cache's share made 4096^3 slower (one / two threads 722 / 430 ms,
  // 620 / 324 without): by this count they move 1.9x / 1x the bytes.
  // Blocks divide the panels; a divisor under half the share (61 panels in
  // blocks of 1) would read all of x once per few panels instead.
  int64_t panelBytes = k * lanes * elementBytes;
  int64_t share = std::max<int64_t>(
      1, cpu.l3BytesPerCore * std::max<int64_t>(1, cpu.threads) / panelBytes);
  int64_t blockPanels = share;
  while (panels % blockPanels)
    --blockPanels;
  int64_t rowsPerPass =
      layout == Layout::InPlace
          ? cpu.cacheTileRows()
          : cpu.panelBlockBytes() /
                (std::min(k, cpu.panelSliceK(lanes, elementBytes)) *
                 elementBytes);
  int64_t xBytes = paddedM * k * elementBytes, wBytes = panels * panelBytes;
  int64_t blockedBytes = xBytes * (panels / blockPanels) + wBytes;
  int64_t passes = llvm::divideCeil(paddedM, std::max<int64_t>(1, rowsPerPass));
  int64_t unblockedBytes = xBytes + wBytes * (panels > share ? passes : 1);
  // The product of `count` panels from `no` on, inserted into `acc`.
  auto insertProduct = [&](OpBuilder &lb, Value no, Value acc, int64_t count) {
    OpFoldResult zero = lb.getIndexAttr(0);
    SmallVector<OpFoldResult> at(shapeWith(1).size(), zero);
    at[panelDim] = no;
    return insertAt(lb, loc, product(lb, panelsAt(lb, no, count), count), acc,
                    at, shapeWith(count));
  };
  // With threads, each takes an equal share of the panels in one loop of
  // independent iterations that packs its panels (where B is packed at run
  // time), multiplies them and, for a result in panels, copies its columns
  // back to rows: one parallel region instead of three (pack B, product,
  // copy back), each ending at a barrier. At two threads on a Zen 5
  // 384^3 to 768^3 products spent 15% of their time waiting at those.
  int64_t perThread =
      cpu.threads > 1 && panels % cpu.threads == 0 ? panels / cpu.threads : 0;
  bool blocked = blockPanels < panels && 2 * blockPanels > share &&
                 blockedBytes < unblockedBytes;
  bool inPanels = layout == Layout::Panels;
  Value out;
  if (blocked) {
    Value init = tensor::EmptyOp::create(b, loc, shapeWith(panels), e);
    out = loop(b, loc, panels, blockPanels, init,
               [&](OpBuilder &lb, Value no, Value acc) {
                 return insertProduct(lb, no, acc, blockPanels);
               });
  } else if (perThread && 2 * paddedM * paddedN * k >=
                              cpu::CPUDescription::kParallelMinFlops) {
    SmallVector<int64_t> rowsShape =
        inPanels ? SmallVector<int64_t>{paddedM, panels, lanes}
                 : shapeWith(panels);
    Value init = tensor::EmptyOp::create(b, loc, rowsShape, e);
    scf::ForOp shareLoop =
        loopOp(b, loc, panels, perThread, init,
               [&](OpBuilder &lb, Value no, Value acc) {
                 if (!inPanels)
                   return insertProduct(lb, no, acc, perThread);
                 // outP[no', mo, mi, ni] -> out[mo * rows + mi, no + no', ni].
                 Value part =
                     product(lb, panelsAt(lb, no, perThread), perThread);
                 part = tensor::CollapseShapeOp::create(
                     lb, loc, part,
                     SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}});
                 Value rowsInit = tensor::EmptyOp::create(
                     lb, loc, ArrayRef<int64_t>{paddedM, perThread, lanes}, e);
                 part = linalg::TransposeOp::create(lb, loc, part, rowsInit,
                                                    ArrayRef<int64_t>{1, 0, 2})
                            .getResult()[0];
                 OpFoldResult zero = lb.getIndexAttr(0);
                 return insertAt(lb, loc, part, acc, {zero, no, zero},
                                 {paddedM, perThread, lanes});
               });
    relay::setCodegenMark(shareLoop, relay::CodegenMark::IndependentIterations);
    out = shareLoop.getResult(0);
    inPanels = false;
  } else {
    out = product(b, panelsAt(b, b.getIndexAttr(0), panels), panels);
  }
  if (inPanels) {
    // outP[no, mo, mi, ni] -> out[mo, mi, no, ni]: copies of whole rows of
    // a panel.
    Value init = tensor::EmptyOp::create(
        b, loc, ArrayRef<int64_t>{paddedM, panels, lanes}, e);
    out = tensor::CollapseShapeOp::create(
        b, loc, out, SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}});
    out = linalg::TransposeOp::create(b, loc, out, init,
                                      ArrayRef<int64_t>{1, 0, 2})
              .getResult()[0];
  }
  // Panels' result is in rows now, as InPlace's.
  out = tensor::CollapseShapeOp::create(
      b, loc, out,
      layout == Layout::Rows ? SmallVector<ReassociationIndices>{{0, 1}, {2, 3}}
                             : SmallVector<ReassociationIndices>{{0}, {1, 2}});
  if (paddedM == m && paddedN == n)
    return out;
  return tensor::ExtractSliceOp::create(
      b, loc, type, out, ValueRange{}, ValueRange{}, ValueRange{},
      b.getDenseI64ArrayAttr({0, 0}), b.getDenseI64ArrayAttr({m, n}),
      b.getDenseI64ArrayAttr({1, 1}));
}

/// Whether out = x * w (w [n, k] when `wIsNK`, else [k, n]) is a static 2-d
/// float product of one element type; sets m, n, k.
static bool isFloatMatrixProduct(RankedTensorType type, Value x, Value w,
                                 bool wIsNK, int64_t &m, int64_t &n,
                                 int64_t &k) {
  auto xt = dyn_cast<RankedTensorType>(x.getType());
  auto wt = dyn_cast<RankedTensorType>(w.getType());
  Type e = type.getElementType();
  if (!xt || !wt || !isa<FloatType>(e) || xt.getElementType() != e ||
      wt.getElementType() != e || xt.getRank() != 2 || wt.getRank() != 2 ||
      !type.hasStaticShape() || !xt.hasStaticShape() || !wt.hasStaticShape())
    return false;
  m = xt.getDimSize(0);
  k = xt.getDimSize(1);
  n = wt.getDimSize(wIsNK ? 0 : 1);
  return true;
}

Value packedWeightProduct(OpBuilder &b, Location loc, RankedTensorType type,
                          Value x, Value w, bool wIsNK) {
  int64_t m, n, k;
  if (!isFloatMatrixProduct(type, x, w, wIsNK, m, n, k))
    return nullptr;
  // Fewer rows do not repay the panel layout (one row has its own
  // kernel); narrow products are one panel anyway.
  if (m < 4 || n < 32 || !constantThroughReshapes(w))
    return nullptr;
  int64_t paddedN = (n + 15) / 16 * 16;
  Value packed =
      packedConstantMatrix(b, loc, w, cpuAt(b).panelColumns(paddedN), paddedN,
                           /*transposed=*/!wIsNK);
  if (!packed)
    return nullptr;
  auto pt = cast<RankedTensorType>(packed.getType());
  int64_t panels = pt.getDimSize(0), lanes = pt.getDimSize(2);
  return productOnPanels(
      b, loc, type, x, panels, lanes,
      [&](OpBuilder &pb, OpFoldResult first, int64_t count) {
        if (count == panels)
          return packed;
        OpFoldResult zero = pb.getIndexAttr(0);
        return sliceAt(pb, loc, packed, {first, zero, zero}, {count, k, lanes});
      });
}

Value packedOperandProduct(OpBuilder &b, Location loc, RankedTensorType type,
                           Value x, Value w, bool wIsNK) {
  int64_t m, n, k;
  if (!isFloatMatrixProduct(type, x, w, wIsNK, m, n, k))
    return nullptr;
  Type e = type.getElementType();
  int64_t elementBytes = e.getIntOrFloatBitWidth() / 8;
  int64_t bytes = n * k * elementBytes;
  // The copy costs n * k moves against 2 * m * n * k flops. It pays where
  // the operand is too large for the cache tiles to find its rows in L2;
  // where its rows are a multiple of 4 KB apart (the register tile's reads
  // of successive rows fall in one L1 set, and 8 to 12 ways hold a few of
  // them: a 1024^3 product on a Xeon with a 2 MB L2 ran at 0.18-0.28 of
  // the CPU's peak read in place, 0.54-0.63 packed); and, on that Xeon,
  // from 2^17 elements, where the copy is itself split across threads:
  // 384^3 to 768^3 at one thread went from 80-120 GFLOP/s in place to
  // 114-150 packed (Zen 4 read them in place at 91-99% of oneDNN). 256^3
  // at two threads was slower packed (155 against 220-260 GFLOP/s), and a
  // training step's 128 x 3136 weight gradient over 64 may be too
  // (benchmark/RESULTS.md): m, the reuse of each copied element, is not
  // weighed yet.
  int64_t rowBytes = (wIsNK ? k : n) * elementBytes;
  bool rowsAlias = rowBytes % 4096 == 0;
  bool large = n * k >= (int64_t(1) << 17);
  if (m < 64 || n < 32 ||
      (bytes <= 2 * cpuAt(b).l2Bytes && !rowsAlias && !large))
    return nullptr;
  MLIRContext *ctx = b.getContext();
  int64_t paddedN = (n + 15) / 16 * 16, lanes = cpuAt(b).panelColumns(paddedN);
  w = padHighTo(b, loc, w,
                wIsNK ? SmallVector<int64_t>{paddedN, k}
                      : SmallVector<int64_t>{k, paddedN});
  // packed[no, k, ni] = w[no * lanes + ni, k] (NK) or w[k, no * lanes + ni]
  // (KN): the columns split into panels by a reshape, then one permuting
  // copy (vector copies of rows for KN, 16x16 transposed blocks for NK) of
  // the panels each part of the product reads.
  int64_t panels = paddedN / lanes;
  AffineExpr no, kk, ni;
  bindDims(ctx, no, kk, ni);
  Value split;
  AffineMap read;
  if (wIsNK) {
    split = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get({panels, lanes, k}, e), w,
        SmallVector<ReassociationIndices>{{0, 1}, {2}});
    read = AffineMap::get(3, 0, {no, ni, kk}, ctx);
  } else {
    split = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get({k, panels, lanes}, e), w,
        SmallVector<ReassociationIndices>{{0}, {1, 2}});
    read = AffineMap::get(3, 0, {kk, no, ni}, ctx);
  }
  return productOnPanels(
      b, loc, type, x, panels, lanes,
      [&](OpBuilder &pb, OpFoldResult first, int64_t count) {
        Value part = split;
        if (count != panels) {
          OpFoldResult zero = pb.getIndexAttr(0);
          part = wIsNK ? sliceAt(pb, loc, split, {first, zero, zero},
                                 {count, lanes, k})
                       : sliceAt(pb, loc, split, {zero, first, zero},
                                 {k, count, lanes});
        }
        return copyThroughMap(pb, loc, part, {count, k, lanes}, read);
      });
}

/// The vector width (f32 lanes) of one-row products.
constexpr int64_t kRowLanes = 16;

/// Whether x [1, K] times w^T (w [N, K]) is a one-row product of floats
/// that rowTimesTransposed takes.
bool isOneRowProduct(RankedTensorType type, Value x, Value w) {
  auto xt = cast<RankedTensorType>(x.getType());
  auto wt = cast<RankedTensorType>(w.getType());
  Type e = type.getElementType();
  return isa<FloatType>(e) && xt.getElementType() == e &&
         wt.getElementType() == e && xt.getRank() == 2 && wt.getRank() == 2 &&
         xt.getDimSize(0) == 1 && xt.getDimSize(1) % kRowLanes == 0;
}

/// out[0, n] = sum_k x[0, k] * w[n, k] for one row x (an RNN cell's dense
/// layers, a classifier at batch 1). As a matrix product its vectors would
/// run along n, reading w with a stride; instead a split reduction
///   partial[n, j] = sum_kk x[kk * 16 + j] * w[n, kk * 16 + j]
/// reads w's rows as vectors (loops n, kk, j with j the vector and the
/// partial sums in registers across kk), then sums over j.
Value rowTimesTransposed(OpBuilder &b, Location loc, RankedTensorType type,
                         Value x, Value w) {
  MLIRContext *ctx = b.getContext();
  Type e = type.getElementType();
  auto wt = cast<RankedTensorType>(w.getType());
  int64_t n = wt.getDimSize(0), k = wt.getDimSize(1), kk = k / kRowLanes;
  Value x2 = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({1, kk, kRowLanes}, e), x,
      SmallVector<ReassociationIndices>{{0}, {1, 2}});
  x2 = tensor::CollapseShapeOp::create(
      b, loc, x2, SmallVector<ReassociationIndices>{{0, 1}, {2}});
  Value w3 = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({n, kk, kRowLanes}, e), w,
      SmallVector<ReassociationIndices>{{0}, {1, 2}});
  Value zero = constantScalar(b, loc, e, 0);
  auto filled = [&](ArrayRef<int64_t> shape) {
    return linalg::FillOp::create(
               b, loc, zero,
               tensor::EmptyOp::create(b, loc, shape, e).getResult())
        .getResult(0);
  };
  using utils::IteratorType;
  Value partial =
      linalg::GenericOp::create(
          b, loc, TypeRange{RankedTensorType::get({n, kRowLanes}, e)},
          ValueRange{x2, w3}, filled({n, kRowLanes}),
          {map(ctx, 3, {1, 2}), map(ctx, 3, {0, 1, 2}), map(ctx, 3, {0, 2})},
          {IteratorType::parallel, IteratorType::reduction,
           IteratorType::parallel},
          [](OpBuilder &nb, Location l, ValueRange a) {
            Value product = arith::MulFOp::create(nb, l, a[0], a[1]);
            linalg::YieldOp::create(
                nb, l, Value(arith::AddFOp::create(nb, l, a[2], product)));
          })
          .getResult(0);
  Value sums =
      linalg::GenericOp::create(
          b, loc, TypeRange{RankedTensorType::get({n}, e)}, partial,
          filled({n}), {map(ctx, 2, {0, 1}), map(ctx, 2, {0})},
          {IteratorType::parallel, IteratorType::reduction},
          [](OpBuilder &nb, Location l, ValueRange a) {
            linalg::YieldOp::create(
                nb, l, Value(arith::AddFOp::create(nb, l, a[1], a[0])));
          })
          .getResult(0);
  return tensor::ExpandShapeOp::create(
      b, loc, type, sums, SmallVector<ReassociationIndices>{{0, 1}});
}

} // namespace mlir::relay::cpu

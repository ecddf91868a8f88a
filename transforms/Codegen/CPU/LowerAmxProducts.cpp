//===- LowerAmxProducts.cpp - bf16 and int8 products on AMX tiles ---------===//
//
// --relay-lower-amx-products: the products AmxProducts.cpp marks, computed
// with the amx dialect (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "transforms/Codegen/CPU/CPUDescription.h"
#include "transforms/Codegen/CPU/CPUKernels.h"
#include "transforms/Passes.h"

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::relay {
#define GEN_PASS_DEF_LOWERAMXPRODUCTS
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kRequestAmx = "relay_rt_request_amx";

/// Whether `v` is a static memref with the identity layout (rows
/// contiguous) whose dimensions flagged in `multiples` are multiples of 32.
bool isDenseBlocked(Value v, ArrayRef<bool> multiples) {
  auto type = dyn_cast<MemRefType>(v.getType());
  if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getRank() != static_cast<int64_t>(multiples.size()))
    return false;
  for (auto [size, multiple] : llvm::zip(type.getShape(), multiples))
    if (multiple && size % 32 != 0)
      return false;
  return true;
}

/// Whether the body of `product` is out + ext(a) * ext(b): extf, mulf and
/// addf, or (`int8`) extsi, muli and addi.
template <typename Ext, typename Mul, typename Add>
bool isProductBodyOf(linalg::GenericOp product) {
  Block *body = product.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto add = yield.getNumOperands() == 1
                 ? yield.getOperand(0).getDefiningOp<Add>()
                 : nullptr;
  if (!add || add.getLhs() != body->getArgument(2))
    return false;
  auto mul = add.getRhs().template getDefiningOp<Mul>();
  if (!mul || body->getOperations().size() != 5)
    return false;
  auto x = mul.getLhs().template getDefiningOp<Ext>();
  auto y = mul.getRhs().template getDefiningOp<Ext>();
  return x && y && x.getIn() == body->getArgument(0) &&
         y.getIn() == body->getArgument(1);
}

bool isProductBody(linalg::GenericOp product, bool int8) {
  return int8 ? isProductBodyOf<arith::ExtSIOp, arith::MulIOp, arith::AddIOp>(
                    product)
              : isProductBodyOf<arith::ExtFOp, arith::MulFOp, arith::AddFOp>(
                    product);
}

/// Whether `a` is int8 (else bf16): the group of B's VNNI layout is then 4.
bool isInt8Product(linalg::GenericOp product) {
  auto at = dyn_cast<MemRefType>(product.getDpsInputs()[0].getType());
  return at && at.getElementType().isInteger(8);
}

/// Whether `product` is AmxProducts.cpp's generic on buffers this pass can
/// tile: A (M x K bf16), B (N/32 x K/2 x 32 x 2 bf16), out (M x N f32); or
/// A (M x K i8, K a multiple of 64), B (N/32 x K/4 x 32 x 4 i8), out (M x N
/// i32).
bool isTileable(linalg::GenericOp product) {
  if (!relay::hasCodegenMark(product, relay::CodegenMark::AmxTiles) ||
      !product.hasPureBufferSemantics() || product.getNumDpsInputs() != 2 ||
      product.getNumDpsInits() != 1)
    return false;
  bool int8 = isInt8Product(product);
  int64_t group = int8 ? 4 : 2;
  // The maps and body of AmxProducts.cpp's product: a generic marked by
  // hand with anything else keeps its own meaning.
  if (product.getIndexingMapsArray() !=
          relay::cpu::amxProductMaps(product.getContext(), group) ||
      product.getIteratorTypesArray() != relay::cpu::amxProductIterators() ||
      !isProductBody(product, int8))
    return false;
  Value a = product.getDpsInputs()[0], b = product.getDpsInputs()[1];
  Value out = product.getDpsInits()[0];
  if (!isDenseBlocked(a, {true, true}) ||
      !isDenseBlocked(b, {false, false, true, false}) ||
      !isDenseBlocked(out, {true, true}))
    return false;
  auto at = cast<MemRefType>(a.getType()), bt = cast<MemRefType>(b.getType());
  auto ot = cast<MemRefType>(out.getType());
  bool types =
      int8 ? bt.getElementType().isInteger(8) &&
                 ot.getElementType().isInteger(32) && at.getDimSize(1) % 64 == 0
           : at.getElementType().isBF16() && bt.getElementType().isBF16() &&
                 ot.getElementType().isF32();
  return types && bt.getDimSize(2) == 32 && bt.getDimSize(3) == group &&
         bt.getDimSize(1) * group == at.getDimSize(1) &&
         bt.getDimSize(0) * 32 == ot.getDimSize(1) &&
         at.getDimSize(0) == ot.getDimSize(0);
}

/// The linalg.fill with zero of `out` right before `product`; null when
/// there is none.
linalg::FillOp zeroFillBefore(linalg::GenericOp product, Value out) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(product->getPrevNode());
  if (!fill || fill.getOutputs()[0] != out)
    return nullptr;
  if (!matchPattern(fill.getInputs()[0], m_AnyZeroFloat()) &&
      !matchPattern(fill.getInputs()[0], m_Zero()))
    return nullptr;
  return fill;
}

/// Declares the C runtime's relay_rt_request_amx in `module`.
void declareRequestAmx(ModuleOp module) {
  if (module.lookupSymbol(kRequestAmx))
    return;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto decl = func::FuncOp::create(b, module.getLoc(), kRequestAmx,
                                   b.getFunctionType({}, {}));
  decl.setPrivate();
}

/// Replaces `product` by its loops of AMX tiles.
void lowerToTiles(IRRewriter &rw, linalg::GenericOp product) {
  Location loc = product.getLoc();
  Value a = product.getDpsInputs()[0], b = product.getDpsInputs()[1];
  Value out = product.getDpsInits()[0];
  auto at = cast<MemRefType>(a.getType());
  auto ot = cast<MemRefType>(out.getType());
  int64_t m = ot.getDimSize(0), n = ot.getDimSize(1), k = at.getDimSize(1);
  // A tile row is 64 bytes: 32 bf16 or 64 int8 along K, in groups of
  // `group` (B's VNNI layout) per 4-byte column.
  bool int8 = isInt8Product(product);
  int64_t group = int8 ? 4 : 2, depth = 16 * group;
  linalg::FillOp fill = zeroFillBefore(product, out);
  rw.setInsertionPoint(product);
  func::CallOp::create(rw, loc, kRequestAmx, TypeRange{}, ValueRange{});

  // B as rows of groups: each panel's K/g rows of 32 groups, panel after
  // panel. A tile is 16 rows of 16 groups.
  Value rows = memref::CollapseShapeOp::create(
      rw, loc, b, SmallVector<ReassociationIndices>{{0, 1}, {2, 3}});
  // Index constants, made once before the loops.
  llvm::SmallDenseMap<int64_t, Value> constants;
  Operation *beforeLoops = rows.getDefiningOp();
  auto c = [&](int64_t v) {
    Value &constant = constants[v];
    if (!constant) {
      OpBuilder::InsertionGuard guard(rw);
      rw.setInsertionPoint(beforeLoops);
      constant = arith::ConstantIndexOp::create(rw, loc, v);
    }
    return constant;
  };
  auto operandTile = amx::TileType::get(
      {16, depth}, int8 ? Type(rw.getI8Type()) : Type(rw.getBF16Type()));
  auto accTile = amx::TileType::get({16, 16}, int8 ? Type(rw.getI32Type())
                                                   : Type(rw.getF32Type()));

  // One iteration per 32x32 block of `out`. Consecutive blocks share the
  // larger operand's panel, which then comes from memory once and stays in
  // L2 while the smaller operand's panels stream past it: the rows' blocks
  // inside where B (the weights) is the larger (a convolution of a small
  // image with many channels: ResNet's last 3x3 layers read 4.7 MB of
  // weights for 49 pixels), else the columns' blocks inside.
  int64_t mBlocks = m / 32, nBlocks = n / 32;
  bool rowsInside = n > m;
  auto blocks = scf::ForOp::create(rw, loc, c(0), c(mBlocks * nBlocks), c(1));
  relay::setCodegenMark(blocks, relay::CodegenMark::IndependentIterations);
  rw.setInsertionPointToStart(blocks.getBody());
  Value block = blocks.getInductionVar();
  Value inner = c(rowsInside ? mBlocks : nBlocks);
  Value outerIndex = arith::DivUIOp::create(rw, loc, block, inner);
  Value innerIndex = arith::RemUIOp::create(rw, loc, block, inner);
  Value row = arith::MulIOp::create(
      rw, loc, rowsInside ? innerIndex : outerIndex, c(32));
  Value col = arith::MulIOp::create(
      rw, loc, rowsInside ? outerIndex : innerIndex, c(32));
  Value row16 = arith::AddIOp::create(rw, loc, row, c(16));
  Value col16 = arith::AddIOp::create(rw, loc, col, c(16));
  SmallVector<std::pair<Value, Value>> corners = {
      {row, col}, {row, col16}, {row16, col}, {row16, col16}};
  SmallVector<Value> acc;
  for (auto [i, j] : corners)
    acc.push_back(
        fill ? amx::TileZeroOp::create(rw, loc, accTile).getResult()
             : amx::TileLoadOp::create(rw, loc, accTile, out, ValueRange{i, j})
                   .getResult());

  // B's tiles are at row (col / 32) * K/g + k/g of the rows, columns 0
  // and 16 groups later.
  Value panelRow = arith::MulIOp::create(
      rw, loc, arith::DivUIOp::create(rw, loc, col, c(32)), c(k / group));
  auto ks = scf::ForOp::create(
      rw, loc, c(0), c(k), c(depth), acc,
      [&](OpBuilder &lb, Location ll, Value kk, ValueRange sums) {
        Value pairRow = arith::AddIOp::create(
            lb, ll, panelRow, arith::DivUIOp::create(lb, ll, kk, c(group)));
        Value a0 = amx::TileLoadOp::create(lb, ll, operandTile, a,
                                           ValueRange{row, kk});
        Value a1 = amx::TileLoadOp::create(lb, ll, operandTile, a,
                                           ValueRange{row16, kk});
        Value b0 = amx::TileLoadOp::create(lb, ll, operandTile, rows,
                                           ValueRange{pairRow, c(0)});
        Value b1 = amx::TileLoadOp::create(lb, ll, operandTile, rows,
                                           ValueRange{pairRow, c(depth)});
        SmallVector<Value> next;
        for (auto [i, lhs, rhs] :
             llvm::enumerate(SmallVector<Value>{a0, a0, a1, a1},
                             SmallVector<Value>{b0, b1, b0, b1}))
          // tdpbssd (signed bytes, no zext) or tdpbf16ps.
          next.push_back(
              int8 ? amx::TileMulIOp::create(lb, ll, accTile, lhs, rhs, sums[i])
                         .getResult()
                   : amx::TileMulFOp::create(lb, ll, accTile, lhs, rhs, sums[i])
                         .getResult());
        scf::YieldOp::create(lb, ll, next);
      });
  for (auto [i, corner] : llvm::enumerate(corners))
    amx::TileStoreOp::create(
        rw, loc, out, ValueRange{corner.first, corner.second}, ks.getResult(i));
  rw.eraseOp(product);
  if (fill)
    rw.eraseOp(fill);
}

struct LowerAmxProducts : relay::impl::LowerAmxProductsBase<LowerAmxProducts> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<linalg::GenericOp> products;
    module.walk([&](linalg::GenericOp product) {
      relay::cpu::CPUDescription cpu = relay::cpu::cpuFor(product);
      if (isTileable(product) &&
          (isInt8Product(product) ? cpu.amxInt8 : cpu.amx))
        products.push_back(product);
    });
    if (products.empty())
      return;
    declareRequestAmx(module);
    IRRewriter rw(&getContext());
    for (linalg::GenericOp product : products) {
      lowerToTiles(rw, product);
      ++numLowered;
    }
  }
};

} // namespace

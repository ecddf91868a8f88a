//===- PackedRewrites.cpp - Packed-layout operators unpacked ---*- C++ -*-===//
//
// nn.contrib_conv2d_NCHWc, nn.contrib_depthwise_conv2d_NCHWc,
// nn.contrib_dense_pack and qnn.contrib_dense_pack as layout_transforms
// around nn.conv2d, nn.dense and qnn.dense: this project's code generation
// packs operands itself, for the CPU it compiles for. The GEMM convolution's
// interleaved weight is read back into HWIO for an nn.conv2d by reshapes and
// transposes. nn.conv2d, nn.conv2d_transpose, the 2-d poolings and
// nn.upsampling on packed layouts (TVM's NCHW16c, OIHW16i16o: what its
// AlterOpLayout writes for x86) likewise become the operator on plain
// layouts between layout_transforms.
//
//===----------------------------------------------------------------------===//

#include "transforms/Decompose/Rewrites.h"

#include "transforms/Decompose/Decompose.h"

#include "dialects/relay/RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

namespace {

/// `v` moved from layout `src` to `dst` (itself when they are the same).
Value transformLayout(Emitter &b, Value v, StringRef src, StringRef dst) {
  if (src == dst)
    return v;
  return b.op<LayoutTransformOp>(
      {v}, {b.str("src_layout", src), b.str("dst_layout", dst)});
}

/// The op's attributes (with their defaults) but `replaced`'s.
SmallVector<NamedAttribute> attrsBut(Operation *op,
                                     ArrayRef<NamedAttribute> replaced) {
  NamedAttrList attrs(getOperatorAttributes(op));
  for (NamedAttribute attr : replaced)
    attrs.set(attr.getName(), attr.getValue());
  return SmallVector<NamedAttribute>(attrs.begin(), attrs.end());
}

Value conv2dNCHWc(Emitter &b, Operation *op) {
  StringRef dataLayout = strAttr(op, "data_layout");
  StringRef outLayout = strAttr(op, "out_layout");
  if (outLayout.empty())
    outLayout = dataLayout;
  Value data = transformLayout(b, op->getOperand(0), dataLayout, "NCHW");
  Value weight = transformLayout(b, op->getOperand(1),
                                 strAttr(op, "kernel_layout"), "OIHW");
  Value conv = b.op<Conv2DOp>(
      {data, weight},
      attrsBut(op, {b.str("data_layout", "NCHW"),
                    b.str("kernel_layout", "OIHW"), b.str("out_layout", "")}));
  return transformLayout(b, conv, "NCHW", outLayout);
}

/// The layouts of an operator that may pack an axis: its operands' (as its
/// relation unpacks them, solveUnpacked), and
/// `outAttr` (cleared in the plain form; with `outPacks` the layout of the
/// result, else operand 0's is).
struct PackableOperator {
  const char *name;
  SmallVector<LayoutOperand, 2> operands;
  const char *outAttr;
  bool outPacks;
};

ArrayRef<PackableOperator> packableOperators() {
  static const PackableOperator ops[] = {
      {"relay.nn.conv2d",
       {{0, "data_layout", "NCHW", "NCHW", "data"},
        {1, "kernel_layout", "OIHW", "OIHW", "weight"}},
       "out_layout",
       true},
      {"relay.nn.conv2d_transpose",
       {{0, "data_layout", "NCHW", "NCHW", "data"},
        {1, "kernel_layout", "IOHW", "IOHW", "weight"}},
       "out_layout",
       true},
      // The poolings' results are in `layout`: TVM's relations read no
      // out_layout.
      {"relay.nn.max_pool2d",
       {{0, "layout", "NCHW", "NCHW", "data"}},
       "out_layout",
       false},
      {"relay.nn.avg_pool2d",
       {{0, "layout", "NCHW", "NCHW", "data"}},
       "out_layout",
       false},
      {"relay.nn.global_max_pool2d",
       {{0, "layout", "NCHW", "NCHW", "data"}},
       "out_layout",
       false},
      {"relay.nn.global_avg_pool2d",
       {{0, "layout", "NCHW", "NCHW", "data"}},
       "out_layout",
       false},
      {"relay.nn.adaptive_max_pool2d",
       {{0, "layout", "NCHW", "NCHW", "data"}},
       "out_layout",
       false},
      {"relay.nn.adaptive_avg_pool2d",
       {{0, "layout", "NCHW", "NCHW", "data"}},
       "out_layout",
       false},
      {"relay.nn.upsampling",
       {{0, "layout", "NCHW", "NCHW", "data"}},
       "",
       false},
      {"relay.dyn.nn.upsampling",
       {{0, "layout", "NCHW", "NCHW", "data"}},
       "",
       false}};
  return ops;
}

/// `op`'s string attribute `attr`, `dflt` when it has none.
StringRef layoutOf(Operation *op, StringRef attr, StringRef dflt) {
  auto value = op->getAttrOfType<StringAttr>(attr);
  return value ? value.getValue() : dflt;
}

/// The packable operator `op` is, when one of its layouts packs an axis.
const PackableOperator *findPacked(Operation *op) {
  StringRef name = op->getName().getStringRef();
  ArrayRef<PackableOperator> ops = packableOperators();
  const PackableOperator *found = llvm::find_if(
      ops, [&](const PackableOperator &p) { return name == p.name; });
  if (found == ops.end())
    return nullptr;
  bool packed =
      found->outPacks && isPackedLayout(layoutOf(op, found->outAttr, ""));
  for (const LayoutOperand &operand : found->operands)
    packed |= isPackedLayout(layoutOf(op, operand.attr, operand.dflt));
  return packed ? found : nullptr;
}

/// An operator with packed layouts (NCHW16c, OIHW16i16o, ...): its
/// operands unpacked to their plain layouts, the operator on those, its
/// result (in operand 0's plain layout) packed again. Null when no layout
/// packs.
Value unpackLayouts(Emitter &b, Operation *op) {
  const PackableOperator *packable = findPacked(op);
  if (!packable)
    return Value();
  SmallVector<Value> args(op->getOperands());
  SmallVector<NamedAttribute> plain;
  StringRef outLayout;
  if (*packable->outAttr) {
    plain.push_back(b.str(packable->outAttr, ""));
    if (packable->outPacks)
      outLayout = layoutOf(op, packable->outAttr, "");
  }
  const LayoutOperand &data = packable->operands.front();
  if (outLayout.empty())
    outLayout = layoutOf(op, data.attr, data.dflt);
  for (const LayoutOperand &operand : packable->operands) {
    args[operand.input] = transformLayout(
        b, args[operand.input], layoutOf(op, operand.attr, operand.dflt),
        operand.plain);
    plain.push_back(b.str(operand.attr, operand.plain));
  }
  return transformLayout(b, b.like(op, args, plain), data.plain, outLayout);
}

/// layout_transform(layout_transform(x, A -> B), B -> C) is
/// layout_transform(x, A -> C), nothing when C is A.
struct ComposeLayoutTransforms : OpRewritePattern<LayoutTransformOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LayoutTransformOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getSrcLayout() == op.getDstLayout() &&
        op.getData().getType() == op.getResult().getType()) {
      rewriter.replaceOp(op, op.getData());
      return success();
    }
    auto inner = op.getData().getDefiningOp<LayoutTransformOp>();
    if (!inner || inner.getDstLayout() != op.getSrcLayout())
      return failure();
    if (inner.getSrcLayout() == op.getDstLayout() &&
        inner.getData().getType() == op.getResult().getType()) {
      rewriter.replaceOp(op, inner.getData());
      return success();
    }
    rewriter.modifyOpInPlace(op, [&] {
      op.getDataMutable().assign(inner.getData());
      op.setSrcLayout(inner.getSrcLayout());
    });
    return success();
  }
};

/// E(layout_transform(x, S -> D), ...) as layout_transform(E(x, ...), S ->
/// D) for an elementwise or broadcast operator E whose tensor operands are
/// all moved from S to D (or constants, moved back to S; 0-d operands
/// stay): the change of layout moves past E, where the next one can cancel
/// it. Operators on packed layouts in a row (a convolution, its bias and
/// relu, a pooling) then keep the operators between them in the plain
/// layout, without a repacking.
struct SinkLayoutTransforms : RewritePattern {
  SinkLayoutTransforms(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    const OperatorInfo *info = lookupOperator(op->getName().getStringRef());
    if (!info ||
        (info->pattern != OpPatternKind::ElemWise &&
         info->pattern != OpPatternKind::Broadcast) ||
        op->getNumResults() != 1)
      return failure();
    auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!result)
      return failure();
    // The tensor operands: each moved from S to D, or a constant (TVM
    // folds a bias's packing into it), moved back here and folded later;
    // 0-d operands stay. Tensors of the result's rank only: an operand of
    // another rank (bias_add's vector) is laid out along an axis.
    LayoutTransformOp first;
    for (Value v : op->getOperands()) {
      auto type = dyn_cast<RankedTensorType>(v.getType());
      if (type && type.getRank() == 0)
        continue;
      if (!type || type.getRank() != result.getRank())
        return failure();
      if (v.getDefiningOp<ConstantOp>())
        continue;
      auto moved = v.getDefiningOp<LayoutTransformOp>();
      if (!moved || (first && (moved.getSrcLayout() != first.getSrcLayout() ||
                               moved.getDstLayout() != first.getDstLayout())))
        return failure();
      first = first ? first : moved;
    }
    if (!first)
      return failure();
    RelayBuilder rb(rewriter, op->getLoc());
    SmallVector<Value> operands;
    for (Value v : op->getOperands()) {
      if (cast<RankedTensorType>(v.getType()).getRank() == 0)
        operands.push_back(v);
      else if (auto moved = v.getDefiningOp<LayoutTransformOp>())
        operands.push_back(moved.getData());
      else
        operands.push_back(rb.op<LayoutTransformOp>(
            {v},
            {rewriter.getNamedAttr("src_layout", first.getDstLayoutAttr()),
             rewriter.getNamedAttr("dst_layout", first.getSrcLayoutAttr())}));
      if (!operands.back())
        return rewriter.notifyMatchFailure(op, "a constant does not move");
    }
    Value plain = rb.like(op, operands);
    Value back =
        plain ? rb.op<LayoutTransformOp>(
                    {plain}, {rewriter.getNamedAttr("src_layout",
                                                    first.getSrcLayoutAttr()),
                              rewriter.getNamedAttr("dst_layout",
                                                    first.getDstLayoutAttr())})
              : Value();
    if (!back || back.getType() != result) {
      // What was built is unused; the greedy driver erases it.
      return rewriter.notifyMatchFailure(op, "does not type as before");
    }
    rewriter.replaceOp(op, back);
    return success();
  }
};

} // namespace

void mlir::relay::populateComposeLayoutTransformsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ComposeLayoutTransforms, SinkLayoutTransforms>(
      patterns.getContext());
}

bool mlir::relay::hasPackedLayouts(Operation *op) {
  return findPacked(op) != nullptr;
}

namespace {

Value densePack(Emitter &b, Operation *op) {
  Value weight =
      transformLayout(b, op->getOperand(1), strAttr(op, "weight_layout"), "NC");
  NamedAttrList attrs(getOperatorAttributes(op));
  attrs.erase("weight_layout");
  return b.op<DenseOp>({op->getOperand(0), weight},
                       SmallVector<NamedAttribute>(attrs.begin(), attrs.end()));
}

/// qnn.contrib_dense_pack: qnn.dense of the weight unpacked to NC.
Value qnnDensePack(Emitter &b, Operation *op) {
  SmallVector<Value> operands(op->getOperands());
  operands[1] =
      transformLayout(b, operands[1], strAttr(op, "weight_layout"), "NC");
  NamedAttrList attrs(getOperatorAttributes(op));
  attrs.erase("weight_layout");
  return b.op<QnnDenseOp>(
      operands, SmallVector<NamedAttribute>(attrs.begin(), attrs.end()));
}

/// The GEMM weight transform: HWIO flattened to [K, N], padded to whole
/// tiles [K' / cols, cols, N' / rows, rows], tiles first.
Value gemmWeightTransform(Emitter &b, Operation *op) {
  Value w = op->getOperand(0);
  ArrayRef<int64_t> shape = shapeOf(w), out = shapeOf(op->getResult(0));
  int64_t k = shape[0] * shape[1] * shape[2], n = shape[3];
  int64_t rows = out[2], cols = out[3];
  Value flat = b.reshape(w, {k, n});
  if (out[1] * cols != k || out[0] * rows != n)
    flat = b.op<PadOp>(
        {flat, b.scalar(0, flat)},
        {b.ints("pad_width", {0, out[1] * cols - k, 0, out[0] * rows - n})});
  return b.op<TransposeOp>({b.reshape(flat, {out[1], cols, out[0], rows})},
                           {b.ints("axes", {2, 0, 3, 1})});
}

/// The GEMM convolution: the interleaved weight's matrix read back, its
/// first K rows and N columns as the HWIO weight of an nn.conv2d.
Value gemmConv2d(Emitter &b, Operation *op) {
  Value w = op->getOperand(1);
  ArrayRef<int64_t> tiles = shapeOf(w);
  ArrayRef<int64_t> kernel = intsAttr(op, "kernel_size");
  int64_t in = shapeOf(op->getOperand(0))[3], n = intAttr(op, "channels");
  int64_t k = kernel[0] * kernel[1] * in;
  Value matrix =
      b.reshape(b.op<TransposeOp>({w}, {b.ints("axes", {1, 3, 0, 2})}),
                {tiles[1] * tiles[3], tiles[0] * tiles[2]});
  if (tiles[1] * tiles[3] != k || tiles[0] * tiles[2] != n)
    matrix = b.op<StridedSliceOp>(
        {matrix}, {b.ints("begin", {0, 0}), b.ints("end", {k, n})});
  Value hwio = b.reshape(matrix, {kernel[0], kernel[1], in, n});
  return b.op<Conv2DOp>({op->getOperand(0), hwio},
                        attrsBut(op, {b.str("kernel_layout", "HWIO")}));
}

} // namespace

void mlir::relay::decompose::addPackedRewrites(AddRewrite add) {
  add("nn.contrib_conv2d_gemm_weight_transform", gemmWeightTransform);
  add("nn.contrib_conv2d_gemm_without_weight_transform", gemmConv2d);
  add("nn.contrib_conv2d_NCHWc", conv2dNCHWc);
  add("nn.contrib_depthwise_conv2d_NCHWc", conv2dNCHWc);
  add("nn.contrib_dense_pack", densePack);
  add("qnn.contrib_dense_pack", qnnDensePack);
}

void mlir::relay::decompose::addPackedLayoutRewrites(AddRewrite add) {
  for (const PackableOperator &packable : packableOperators())
    add(StringRef(packable.name).drop_front(strlen("relay.")), unpackLayouts);
}

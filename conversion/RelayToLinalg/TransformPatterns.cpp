//===- TransformPatterns.cpp - Data movement operators to linalg ----------===//
//
// reshape and friends, transpose, nn.pad, split, concatenate, stack, take,
// gather, strided_slice and layout_transform: tensor reshapes, slices and
// inserts, linalg.transpose, and generics that read their source index.
//
//===----------------------------------------------------------------------===//

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "conversion/RelayToLinalg/OperatorPattern.h"
#include "conversion/RelayToLinalg/RelayToLinalg.h"

#include "dialects/relay/RelayOps.h"

#include "conversion/RelayCommon/BoxedValues.h"
#include "dialects/relay/RelationUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

/// reshape and friends: the relation gave the result shape.
FailureOr<SmallVector<Value>> reshapeRule(OpBuilder &b, Operation *op,
                                          ValueRange operands) {
  RankedTensorType type = resultType(op);
  if (!type || !type.hasStaticShape())
    return failure();
  Location loc = op->getLoc();
  return SmallVector<Value>{reshapeStatic(b, loc, operands[0], type)};
}

FailureOr<SmallVector<Value>> transposeRule(OpBuilder &b, Operation *op,
                                            ValueRange operands) {
  RankedTensorType type = resultType(op);
  auto in = cast<RankedTensorType>(operands[0].getType());
  int64_t rank = in.getRank();
  SmallVector<int64_t> axes = cast<TransposeOp>(op).getPermutation(rank);
  Location loc = op->getLoc();
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return SmallVector<Value>{
      linalg::TransposeOp::create(b, loc, operands[0], init, axes)
          .getResult()[0]};
}

/// nn.pad: constant (tensor.pad), edge and reflect (a generic reading the
/// source index).
FailureOr<SmallVector<Value>> padRule(OpBuilder &b, Operation *op,
                                      ValueRange operands) {
  RankedTensorType type = resultType(op);
  StringRef mode = strAttr(op, "pad_mode", "constant");
  SmallVector<int64_t> w = intsAttr(op, "pad_width", {});
  SmallVector<int64_t> low, high;
  for (size_t i = 0; i + 1 < w.size(); i += 2) {
    low.push_back(w[i]);
    high.push_back(w[i + 1]);
  }
  Location loc = op->getLoc();
  if (mode == "edge" || mode == "reflect") {
    // out[i] = data[source(i - low)]: edge clamps into [0, n); reflect
    // mirrors without repeating the edge (numpy's "reflect").
    auto in = cast<RankedTensorType>(operands[0].getType());
    int64_t rank = type.getRank();
    Value data = operands[0];
    bool reflect = mode == "reflect";
    return SmallVector<Value>{
        linalg::GenericOp::create(
            b, loc, TypeRange{type}, ValueRange{},
            ValueRange{tensor::EmptyOp::create(b, loc, type.getShape(),
                                               type.getElementType())
                           .getResult()},
            {AffineMap::getMultiDimIdentityMap(rank, b.getContext())},
            SmallVector<utils::IteratorType>(rank,
                                             utils::IteratorType::parallel),
            [&](OpBuilder &nb, Location l, ValueRange) {
              SmallVector<Value> indices;
              for (int64_t d = 0; d < rank; ++d) {
                int64_t n = in.getDimSize(d);
                Value j = arith::SubIOp::create(
                    nb, l, linalg::IndexOp::create(nb, l, d),
                    arith::ConstantIndexOp::create(nb, l, low[d]));
                Value zero = arith::ConstantIndexOp::create(nb, l, 0);
                Value last = arith::ConstantIndexOp::create(nb, l, n - 1);
                Value below = arith::CmpIOp::create(
                    nb, l, arith::CmpIPredicate::slt, j, zero);
                Value above = arith::CmpIOp::create(
                    nb, l, arith::CmpIPredicate::sgt, j, last);
                Value lowSource =
                    reflect ? Value(arith::SubIOp::create(nb, l, zero, j))
                            : zero;
                Value highSource = reflect ? Value(arith::SubIOp::create(
                                                 nb, l,
                                                 arith::ConstantIndexOp::create(
                                                     nb, l, 2 * (n - 1)),
                                                 j))
                                           : last;
                Value k = arith::SelectOp::create(nb, l, below, lowSource, j);
                indices.push_back(
                    arith::SelectOp::create(nb, l, above, highSource, k));
              }
              linalg::YieldOp::create(
                  nb, l,
                  Value(tensor::ExtractOp::create(nb, l, data, indices)));
            })
            .getResult(0)};
  }
  if (mode != "constant")
    return failure();
  Value value = tensor::ExtractOp::create(b, loc, operands[1], ValueRange{});
  // A pad value of another dtype (TVM's text pads f16 data with an int32
  // 0) is cast to the data's, as TVM's pad casts it.
  if (value.getType() != type.getElementType())
    value = convertScalar(b, loc, value, type.getElementType(),
                          isUnsignedValue(op->getOperand(1)),
                          isUnsignedValue(op->getResult(0)));
  return SmallVector<Value>{tensor::PadOp::create(
      b, loc, type, operands[0], getAsIndexOpFoldResult(b.getContext(), low),
      getAsIndexOpFoldResult(b.getContext(), high), value)};
}

/// split: one static slice per piece of the tuple result.
FailureOr<SmallVector<Value>> splitRule(OpBuilder &b, Operation *op,
                                        ValueRange operands) {
  auto tuple = dyn_cast<TupleType>(op->getResult(0).getType());
  auto in = cast<RankedTensorType>(operands[0].getType());
  if (!tuple)
    return failure();
  int64_t axis = intAttr(op, "axis", 0);
  if (axis < 0)
    axis += in.getRank();
  SmallVector<Value> pieces;
  int64_t offset = 0;
  for (Type t : tuple.getTypes()) {
    auto piece = cast<RankedTensorType>(t);
    SmallVector<int64_t> offsets(in.getRank(), 0), strides(in.getRank(), 1);
    offsets[axis] = offset;
    // An empty piece reads nothing (its offset may be past the end).
    pieces.push_back(
        piece.getNumElements() == 0
            ? Value(tensor::EmptyOp::create(b, op->getLoc(), piece.getShape(),
                                            in.getElementType()))
            : Value(tensor::ExtractSliceOp::create(
                  b, op->getLoc(), piece, operands[0], ValueRange{},
                  ValueRange{}, ValueRange{}, offsets, piece.getShape(),
                  strides)));
    offset += piece.getDimSize(axis);
  }
  return pieces;
}

/// concatenate and stack (the tuple's fields are the operands): each input
/// inserted at its offset along `axis`.
/// The most inputs a concatenation or stack inserts as slices of one
/// tensor (so that their producers can write into it); more are a
/// tensor.concat, which bufferizes to a copy of each: one-shot
/// bufferization's analysis of a chain of n inserted slices grows faster
/// than n^2 (SSDlite's 90-way concatenation of its boxes: 8 s in the
/// analysis; a stack of 128 rows, 28 s).
constexpr size_t kMaxInsertedSlices = 16;

/// stack of windows of one tensor: each operand a slice of the same source,
/// of the same sizes, at offsets that step over a grid of one or two axes,
/// operand i at (i / k2) steps along the first and (i % k2) along the
/// second (an im2col matrix: a weight gradient's 3x3 taps of an image).
/// One generic reads each window where the stack writes it, instead of one
/// copy per operand each streaming the source again. Null when `operands`
/// are not such windows.
static Value stackedWindows(OpBuilder &b, Location loc, RankedTensorType type,
                            int64_t axis, ValueRange operands) {
  int64_t n = operands.size();
  if (n < 2)
    return nullptr;
  SmallVector<tensor::ExtractSliceOp> slices;
  for (Value v : operands) {
    auto slice = v.getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice || !slice.hasUnitStride() ||
        ShapedType::isDynamicShape(slice.getStaticOffsets()) ||
        !slice.getType().hasStaticShape() ||
        slice.getSourceType().getRank() != slice.getType().getRank() ||
        (!slices.empty() && (slice.getSource() != slices[0].getSource() ||
                             slice.getType() != slices[0].getType())))
      return nullptr;
    slices.push_back(slice);
  }
  ArrayRef<int64_t> first = slices[0].getStaticOffsets();
  int64_t rank = first.size();
  auto step = [&](int64_t i, int64_t d) {
    return slices[i].getStaticOffsets()[d] - first[d];
  };
  // The axes along which the windows move (one or two).
  SmallVector<int64_t> moving;
  for (int64_t d = 0; d < rank; ++d)
    if (llvm::any_of(llvm::seq<int64_t>(1, n),
                     [&](int64_t i) { return step(i, d) != 0; }))
      moving.push_back(d);
  if (moving.empty() || moving.size() > 2)
    return nullptr;
  // Windows on a grid of k1 x k2 (k1 = 1 for one axis): the outer axis
  // moves every k2 operands by s1, the inner one every operand by s2.
  int64_t outer = moving.front(), inner = moving.back();
  int64_t k2 = n;
  if (moving.size() == 2) {
    k2 = 1;
    while (k2 < n && step(k2, outer) == 0)
      ++k2;
  }
  if (n % k2)
    return nullptr;
  int64_t k1 = n / k2;
  int64_t s2 = step(1, inner), s1 = k1 > 1 ? step(k2, outer) : 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t d = 0; d < rank; ++d) {
      int64_t want = 0;
      if (d == inner)
        want += (i % k2) * s2;
      if (d == outer && moving.size() == 2)
        want += (i / k2) * s1;
      if (step(i, d) != want)
        return nullptr;
    }
  // Loops over the result with the stacked axis as (k1, k2): the source at
  // each window's first offset plus the grid's steps.
  MLIRContext *ctx = b.getContext();
  int64_t loops = rank + 2;
  AffineExpr a1 = getAffineDimExpr(axis, ctx),
             a2 = getAffineDimExpr(axis + 1, ctx);
  SmallVector<AffineExpr> read;
  for (int64_t d = 0; d < rank; ++d) {
    AffineExpr at = getAffineDimExpr(d < axis ? d : d + 2, ctx) + first[d];
    if (d == inner)
      at = at + a2 * s2;
    if (d == outer && moving.size() == 2)
      at = at + a1 * s1;
    read.push_back(at);
  }
  SmallVector<int64_t> shape(type.getShape());
  shape[axis] = k2;
  shape.insert(shape.begin() + axis, k1);
  Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  Value grid =
      linalg::GenericOp::create(
          b, loc, TypeRange{init.getType()}, ValueRange{slices[0].getSource()},
          ValueRange{init},
          ArrayRef<AffineMap>{AffineMap::get(loops, 0, read, ctx),
                              AffineMap::getMultiDimIdentityMap(loops, ctx)},
          SmallVector<utils::IteratorType>(loops,
                                           utils::IteratorType::parallel),
          [](OpBuilder &nb, Location l, ValueRange args) {
            linalg::YieldOp::create(nb, l, args[0]);
          })
          .getResult(0);
  SmallVector<ReassociationIndices> merge;
  for (int64_t d = 0; d < loops; ++d) {
    if (d == axis + 1)
      merge.back().push_back(d);
    else
      merge.push_back({d});
  }
  return tensor::CollapseShapeOp::create(b, loc, type, grid, merge);
}

FailureOr<SmallVector<Value>> concatenateRule(OpBuilder &b, Operation *op,
                                              ValueRange operands) {
  RankedTensorType type = resultType(op);
  if (!type)
    return failure();
  int64_t axis = intAttr(op, "axis", 0);
  if (axis < 0)
    axis += type.getRank();
  Location loc = op->getLoc();
  Value out =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  bool stack = isa<StackOp>(op);
  int64_t rank = type.getRank();
  if (stack && axis == rank - 1 && operands.size() > 1 &&
      operands.size() <= kMaxInsertedSlices) {
    // A new innermost axis: inserted slices would be strided in the
    // innermost dimension, and empty-tensor elimination then makes their
    // producers (a matmul, say) write through that stride, far slower than
    // this one pass that reads every input at each position and selects
    // (one select per input: many inputs are a tensor.concat, below).
    MLIRContext *ctx = b.getContext();
    SmallVector<AffineExpr> outer;
    for (int64_t d = 0; d + 1 < rank; ++d)
      outer.push_back(b.getAffineDimExpr(d));
    SmallVector<AffineMap> maps(operands.size(),
                                AffineMap::get(rank, 0, outer, ctx));
    maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
    return SmallVector<Value>{
        linalg::GenericOp::create(
            b, loc, TypeRange{type}, operands, ValueRange{out}, maps,
            SmallVector<utils::IteratorType>(rank,
                                             utils::IteratorType::parallel),
            [&](OpBuilder &nb, Location l, ValueRange args) {
              Value k = linalg::IndexOp::create(nb, l, rank - 1);
              Value picked = args[operands.size() - 1];
              for (int64_t i = int64_t(operands.size()) - 2; i >= 0; --i) {
                Value isI = arith::CmpIOp::create(
                    nb, l, arith::CmpIPredicate::eq, k,
                    arith::ConstantIndexOp::create(nb, l, i));
                picked = arith::SelectOp::create(nb, l, isI, args[i], picked);
              }
              linalg::YieldOp::create(nb, l, picked);
            })
            .getResult(0)};
  }
  if (stack)
    if (Value windows = stackedWindows(b, loc, type, axis, operands))
      return SmallVector<Value>{windows};
  if (operands.size() > kMaxInsertedSlices) {
    // stack's inputs gain their unit axis first (a view).
    SmallVector<Value> parts(operands);
    if (stack)
      for (Value &v : parts) {
        auto in = cast<RankedTensorType>(v.getType());
        SmallVector<int64_t> shape(in.getShape());
        shape.insert(shape.begin() + axis, 1);
        SmallVector<ReassociationIndices> groups;
        for (int64_t d = 0; d < in.getRank(); ++d)
          groups.push_back({d < axis ? d : d + 1});
        if (in.getRank() > 0) {
          // The unit axis joins its neighbour's group.
          int64_t owner = std::min<int64_t>(axis, in.getRank() - 1);
          groups[owner].push_back(axis);
          llvm::sort(groups[owner]);
        }
        v = tensor::ExpandShapeOp::create(
            b, loc, RankedTensorType::get(shape, in.getElementType()), v,
            groups);
      }
    return SmallVector<Value>{
        tensor::ConcatOp::create(b, loc, type, axis, parts).getResult()};
  }
  int64_t offset = 0;
  for (Value v : operands) {
    auto in = cast<RankedTensorType>(v.getType());
    // stack inserts each input as a slice of size 1 along the new axis.
    SmallVector<int64_t> sizes(in.getShape());
    if (stack)
      sizes.insert(sizes.begin() + axis, 1);
    SmallVector<int64_t> offsets(type.getRank(), 0), strides(type.getRank(), 1);
    offsets[axis] = offset;
    out = tensor::InsertSliceOp::create(b, loc, v, out, ValueRange{},
                                        ValueRange{}, ValueRange{}, offsets,
                                        sizes, strides);
    offset += sizes[axis];
  }
  return SmallVector<Value>{out};
}

/// Raises a located run-time error, before an operator reads data with
/// them, if any of `indices` (checked all at once: a reduction over them
/// into one flag) lies outside [low, high).
void failIfAnyIndexOutside(OpBuilder &b, Operation *op, Value indices,
                           int64_t low, int64_t high, bool isUnsigned,
                           StringRef what) {
  Location loc = op->getLoc();
  MLIRContext *ctx = b.getContext();
  auto indexType = cast<RankedTensorType>(indices.getType());
  int64_t rank = indexType.getRank();
  Type it = indexType.getElementType();
  // A bound the index type cannot reach needs no comparison (and could not
  // be one: an int8 index against 1000 would compare with a wrapped 232).
  unsigned width = it.getIntOrFloatBitWidth();
  auto reachable = [&](int64_t bound) {
    if (width >= 64)
      return true;
    if (isUnsigned)
      return bound >= 0 && bound <= int64_t((uint64_t(1) << width) - 1);
    int64_t max = (int64_t(1) << (width - 1)) - 1;
    return bound >= -max - 1 && bound <= max;
  };
  bool checkHigh = reachable(high), checkLow = !isUnsigned && reachable(low);
  if (!checkHigh && !checkLow)
    return;
  Value flagInit = filledTensor(
      b, loc, {}, arith::ConstantOp::create(b, loc, b.getBoolAttr(false)));
  Value anyOut =
      linalg::GenericOp::create(
          b, loc, TypeRange{flagInit.getType()}, ValueRange{indices},
          ValueRange{flagInit},
          {AffineMap::getMultiDimIdentityMap(rank, ctx),
           AffineMap::get(rank, 0, {}, ctx)},
          SmallVector<utils::IteratorType>(rank,
                                           utils::IteratorType::reduction),
          [&](OpBuilder &nb, Location l, ValueRange a) {
            Value bad;
            if (checkHigh)
              bad = arith::CmpIOp::create(
                  nb, l,
                  isUnsigned ? arith::CmpIPredicate::uge
                             : arith::CmpIPredicate::sge,
                  a[0], constantScalar(nb, l, it, double(high)));
            if (checkLow) {
              Value below =
                  arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, a[0],
                                        constantScalar(nb, l, it, low));
              bad = bad ? arith::OrIOp::create(nb, l, bad, below).getResult()
                        : below;
            }
            linalg::YieldOp::create(
                nb, l, arith::OrIOp::create(nb, l, a[1], bad).getResult());
          })
          .getResult(0);
  Value outOfRange = tensor::ExtractOp::create(b, loc, anyOut, ValueRange{});
  auto check = scf::IfOp::create(b, loc, outOfRange, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(check.thenBlock());
  RuntimeCalls(op->getParentOfType<ModuleOp>())
      .fail(b, loc,
            describeLocation(loc) + "\t" + what.str() +
                ": an index is out of range [" + std::to_string(low) + ", " +
                std::to_string(high) + ")");
}

/// take: a gather. Each output element reads its index from `indices` (its
/// batch_dims leading axes shared with data's) and then the element of
/// `data`; indices are clamped ("clip") or wrapped ("wrap"). "fast", whose
/// out-of-range behaviour TVM leaves undefined, is a located run-time error
/// there, as in the interpreter (ONNX's Gather, whose out-of-range indices
/// are an error, imports as it).
FailureOr<SmallVector<Value>> takeRule(OpBuilder &b, Operation *op,
                                       ValueRange operands) {
  RankedTensorType type = resultType(op);
  if (!type)
    return failure();
  Location loc = op->getLoc();
  MLIRContext *ctx = b.getContext();
  Value data = operands[0];
  auto dataType = cast<RankedTensorType>(data.getType());
  auto idxType = cast<RankedTensorType>(operands[1].getType());
  if (dataType.getRank() == 0)
    return failure();
  bool flat = !getOperatorAttributes(op).get("axis");
  int64_t batchDims = intAttr(op, "batch_dims", 0);
  if (batchDims < 0)
    batchDims += idxType.getRank();
  if (batchDims < 0 || (flat && batchDims != 0))
    return failure();
  if (flat && dataType.getRank() != 1) {
    SmallVector<ReassociationIndices> all(1);
    for (int64_t d = 0; d < dataType.getRank(); ++d)
      all[0].push_back(d);
    data = tensor::CollapseShapeOp::create(b, loc, data, all);
    dataType = cast<RankedTensorType>(data.getType());
  }
  int64_t axis = flat ? 0 : intAttr(op, "axis", 0);
  if (axis < 0)
    axis += dataType.getRank();
  int64_t extent = dataType.getDimSize(axis);
  // No element to read (an empty axis): the interpreter's error.
  if (extent == 0 && type.getNumElements() != 0)
    return failure();
  int64_t ri = idxType.getRank(), rank = type.getRank();
  StringRef mode = strAttr(op, "mode", "clip");
  bool wrap = mode == "wrap";
  bool isUnsigned = isUnsignedValue(op->getOperand(1));
  if (mode == "fast")
    failIfAnyIndexOutside(b, op, operands[1], 0, extent, isUnsigned, "take");
  // out = data[:axis] + indices[batch_dims:] + data[axis+1:], the indices'
  // batch axes the output's (and data's) first ones.
  SmallVector<AffineExpr> idxExprs;
  for (int64_t d = 0; d < batchDims; ++d)
    idxExprs.push_back(getAffineDimExpr(d, ctx));
  for (int64_t d = batchDims; d < ri; ++d)
    idxExprs.push_back(getAffineDimExpr(axis + d - batchDims, ctx));
  AffineMap idxMap = AffineMap::get(rank, 0, idxExprs, ctx);
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return SmallVector<Value>{
      linalg::GenericOp::create(
          b, loc, TypeRange{type}, operands[1], init,
          {idxMap, AffineMap::getMultiDimIdentityMap(rank, ctx)},
          SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
          [&](OpBuilder &nb, Location l, ValueRange a) {
            // (uint8's 255 is row 255, not -1 clamped to 0.)
            Value i =
                isUnsigned
                    ? arith::IndexCastUIOp::create(nb, l, nb.getIndexType(),
                                                   a[0])
                          .getResult()
                    : arith::IndexCastOp::create(nb, l, nb.getIndexType(), a[0])
                          .getResult();
            Value n = arith::ConstantIndexOp::create(nb, l, extent);
            Value zero = arith::ConstantIndexOp::create(nb, l, 0);
            if (wrap) {
              Value r = arith::RemSIOp::create(nb, l, i, n);
              Value neg = arith::CmpIOp::create(
                  nb, l, arith::CmpIPredicate::slt, r, zero);
              i = arith::SelectOp::create(
                  nb, l, neg, arith::AddIOp::create(nb, l, r, n), r);
            } else {
              Value last = arith::ConstantIndexOp::create(nb, l, extent - 1);
              i = arith::MaxSIOp::create(
                  nb, l, arith::MinSIOp::create(nb, l, i, last), zero);
            }
            SmallVector<Value> index;
            for (int64_t d = 0; d < axis; ++d)
              index.push_back(linalg::IndexOp::create(nb, l, d));
            index.push_back(i);
            for (int64_t d = axis + ri - batchDims; d < rank; ++d)
              index.push_back(linalg::IndexOp::create(nb, l, d));
            linalg::YieldOp::create(
                nb, l,
                tensor::ExtractOp::create(nb, l, data, index).getResult());
          })
          .getResult(0)};
}

/// argmax/argmin: the index (int32 by default) of the first extreme along
/// the reduced axes (their linear index when several).
/// gather: each output element reads data at its own index with the axis
/// coordinate from `indices` (negative counts from the end). An index out
/// of range is a located run-time error, as in the interpreter: a
/// reduction over the indices checks them first.
FailureOr<SmallVector<Value>> gatherRule(OpBuilder &b, Operation *op,
                                         ValueRange operands) {
  RankedTensorType type = resultType(op);
  auto in = cast<RankedTensorType>(operands[0].getType());
  if (!type || !type.hasStaticShape() || !in.hasStaticShape())
    return failure();
  int64_t axis = intAttr(op, "axis", 0);
  if (axis < 0)
    axis += in.getRank();
  int64_t extent = in.getDimSize(axis);
  Value data = operands[0], indices = operands[1];
  bool isUnsigned = isUnsignedValue(op->getOperand(1));
  failIfAnyIndexOutside(b, op, indices, isUnsigned ? 0 : -extent, extent,
                        isUnsigned, "gather");
  return SmallVector<Value>{generateTensor(
      b, op->getLoc(), type, [&](OpBuilder &nb, Location l, ValueRange i) {
        Value raw = tensor::ExtractOp::create(nb, l, indices, i);
        Type it = raw.getType();
        Value zero = constantScalar(nb, l, it, 0);
        Value size = constantScalar(nb, l, it, double(extent));
        if (!isUnsigned) {
          Value negative = arith::CmpIOp::create(
              nb, l, arith::CmpIPredicate::slt, raw, zero);
          raw = arith::SelectOp::create(
              nb, l, negative, arith::AddIOp::create(nb, l, raw, size), raw);
          raw = arith::MaxSIOp::create(nb, l, raw, zero);
        }
        Value index =
            arith::IndexCastUIOp::create(nb, l, nb.getIndexType(), raw);
        index = arith::MinUIOp::create(
            nb, l, index, arith::ConstantIndexOp::create(nb, l, extent - 1));
        SmallVector<Value> at(i);
        at[axis] = index;
        return tensor::ExtractOp::create(nb, l, data, at).getResult();
      })};
}

/// strided_slice (static): out[i] = in[first + i * step] per axis, any
/// step sign: a strided view, read backwards where a step is negative.
FailureOr<SmallVector<Value>> stridedSliceRule(OpBuilder &b, Operation *op,
                                               ValueRange operands) {
  RankedTensorType type = resultType(op);
  auto in = cast<RankedTensorType>(operands[0].getType());
  if (!type)
    return failure();
  int64_t rank = in.getRank();
  StridedSliceStarts starts = stridedSliceStarts(
      in.getShape(), intsAttr(op, "begin", {}), intsAttr(op, "strides", {1}),
      intsAttr(op, "axes", {}), strAttr(op, "slice_mode", "end") == "size");
  ArrayRef<int64_t> first = starts.first, step = starts.step;
  // Forward steps are a strided view (tensor.extract_slice); dimensions
  // walked backwards are then read reversed by a generic over the view.
  Location loc = op->getLoc();
  SmallVector<int64_t> offsets(rank, 0), sizes(in.getShape()),
      viewStrides(rank, 1);
  bool backwards = false;
  for (int64_t d = 0; d < rank; ++d) {
    if (step[d] < 0) {
      backwards = true;
      continue;
    }
    offsets[d] = first[d];
    sizes[d] = type.getDimSize(d);
    viewStrides[d] = step[d];
  }
  // An empty result reads nothing (its offsets may be past the end).
  if (type.getNumElements() == 0)
    return SmallVector<Value>{tensor::EmptyOp::create(b, loc, type.getShape(),
                                                      type.getElementType())};
  Value view = tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get(sizes, type.getElementType()), operands[0],
      ValueRange{}, ValueRange{}, ValueRange{}, b.getDenseI64ArrayAttr(offsets),
      b.getDenseI64ArrayAttr(sizes), b.getDenseI64ArrayAttr(viewStrides));
  if (!backwards)
    return SmallVector<Value>{view};
  // The backward dimensions' positions are computed in the body and read
  // by tensor.extract: an indexing map with a negative coefficient
  // (first - i) is not one tiling slices correctly (it sizes an operand's
  // tile from the map's values at the tile's first and last points).
  return SmallVector<Value>{generateTensor(
      b, loc, type, [&](OpBuilder &nb, Location l, ValueRange at) -> Value {
        IndexMath math{nb, l};
        SmallVector<Value> from(at.begin(), at.end());
        for (int64_t d = 0; d < rank; ++d)
          if (step[d] < 0)
            from[d] =
                math.add(math.c(first[d]), math.mul(at[d], math.c(step[d])));
        return tensor::ExtractOp::create(nb, l, view, from);
      })};
}

FailureOr<SmallVector<Value>> layoutTransformRule(OpBuilder &b, Operation *op,
                                                  ValueRange operands) {
  RankedTensorType type = resultType(op);
  auto in = cast<RankedTensorType>(operands[0].getType());
  FailureOr<relay::DataLayout> src =
      relay::DataLayout::parse(strAttr(op, "src_layout", ""));
  FailureOr<relay::DataLayout> dst =
      relay::DataLayout::parse(strAttr(op, "dst_layout", ""));
  if (!type || !type.hasStaticShape() || !in.hasStaticShape() || failed(src) ||
      failed(dst) || src->axes.size() != static_cast<size_t>(in.getRank()))
    return failure();
  // What a step along axis `k` of `layout` moves its primal axis by: the
  // product of the factors of the primal's sub-axes after it.
  auto strideOf = [](const relay::DataLayout &layout, size_t k) -> int64_t {
    char name = llvm::toUpper(layout.axes[k].name);
    int64_t stride = 1;
    for (size_t sub : layout.subAxes(name))
      if (sub > k || layout.axes[k].factor == 0)
        stride *= layout.axes[sub].factor;
    return stride;
  };
  Value data = operands[0];
  return SmallVector<Value>{generateTensor(
      b, op->getLoc(), type, [&](OpBuilder &nb, Location l, ValueRange i) {
        auto c = [&](int64_t v) -> Value {
          return arith::ConstantIndexOp::create(nb, l, v);
        };
        // The coordinate on each primal axis, from the output index.
        llvm::SmallDenseMap<char, Value> primal;
        for (auto [k, axis] : llvm::enumerate(dst->axes)) {
          char name = llvm::toUpper(axis.name);
          int64_t scale = strideOf(*dst, k);
          Value part =
              scale == 1 ? i[k] : arith::MulIOp::create(nb, l, i[k], c(scale));
          auto [it, inserted] = primal.try_emplace(name, part);
          if (!inserted)
            it->second = arith::AddIOp::create(nb, l, it->second, part);
        }
        SmallVector<Value> at;
        for (auto [k, axis] : llvm::enumerate(src->axes)) {
          Value coordinate = primal.lookup(llvm::toUpper(axis.name));
          // (coordinate / stride) % factor; the primal axis has no factor.
          int64_t stride = strideOf(*src, k);
          if (stride != 1)
            coordinate = arith::DivUIOp::create(nb, l, coordinate, c(stride));
          if (axis.factor)
            coordinate =
                arith::RemUIOp::create(nb, l, coordinate, c(axis.factor));
          at.push_back(coordinate);
        }
        return tensor::ExtractOp::create(nb, l, data, at).getResult();
      })};
}

} // namespace

void mlir::relay::populateRelayTransformToLinalgPatterns(
    RelayTypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  // The relation gave the result shape: a reshape to it.
  patterns.add<RuleLowering<ReshapeOp, reshapeRule>,
               RuleLowering<ReshapeLikeOp, reshapeRule>,
               RuleLowering<SqueezeOp, reshapeRule>,
               RuleLowering<ExpandDimsOp, reshapeRule>,
               RuleLowering<BatchFlattenOp, reshapeRule>>(converter, context);
  patterns
      .add<RuleLowering<TransposeOp, transposeRule>,
           RuleLowering<PadOp, padRule>, RuleLowering<SplitOp, splitRule>,
           RuleLowering<ConcatenateOp, concatenateRule>,
           RuleLowering<StackOp, concatenateRule>,
           RuleLowering<TakeOp, takeRule>, RuleLowering<GatherOp, gatherRule>,
           RuleLowering<StridedSliceOp, stridedSliceRule>,
           RuleLowering<LayoutTransformOp, layoutTransformRule>>(converter,
                                                                 context);
}

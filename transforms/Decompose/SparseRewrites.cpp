//===- SparseRewrites.cpp - Sparse matrices as dense ones ------*- C++ -*-===//
//
// nn.sparse_dense, nn.sparse_add, nn.sparse_conv2d and nn.sparse_transpose:
// the CSR or BSR matrix is scattered into a dense one (each value's row
// found by a cumulative sum of where the row pointers start), then the
// dense operator (nn.sparse_conv2d's an nn.conv2d, the matrix its weight); the
// transpose is compacted back into CSR form by a cumulative count of the values
// present. Values whose column or row lies outside the matrix are dropped, so
// malformed matrices give wrong numbers, never out-of-bounds writes.
//
//===----------------------------------------------------------------------===//

#include "transforms/Decompose/Rewrites.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::decompose;

namespace {

/// The axis-0 slice [begin, end) of the 1-d `v`.
Value slice1D(Emitter &b, Value v, int64_t begin, int64_t end) {
  return b.op<StridedSliceOp>({v},
                              {b.ints("begin", {begin}), b.ints("end", {end})});
}

/// The rows (of blocks for BSR) each of the `count` values (blocks) of a
/// sparse matrix with `indptr` belongs to: #{n >= 1 : indptr[n] <= p}, by
/// marking where each row starts and summing the marks. Int64, [count].
Value rowOfEach(Emitter &b, Value indptr, int64_t count) {
  Type i64 = b.getRewriter().getI64Type();
  int64_t rows = shapeOf(indptr)[0] - 1;
  Value starts = b.op<MaximumOp>(
      {b.op<MinimumOp>({castTo(b, slice1D(b, indptr, 1, rows + 1), i64),
                        i64Constant(b, {}, {count})}),
       i64Constant(b, {}, {0})});
  SmallVector<int64_t> zeros(count + 1, 0), ones(rows, 1);
  Value marks =
      b.op<ScatterElementsOp>({i64Constant(b, {count + 1}, zeros), starts,
                               i64Constant(b, {rows}, ones)},
                              {b.i64("axis", 0), b.str("reduction", "add")});
  return slice1D(b, b.op<CumsumOp>({marks}, {b.i64("axis", 0)}), 0, count);
}

/// The sparse matrix (`data` [n] or BSR blocks [n, br, bc], `indices`,
/// `indptr`) of `columns` columns as a flat dense [rows * columns] tensor;
/// `present`, when given, gets 1 where a value was placed (int64).
Value densify(Emitter &b, Value data, Value indices, Value indptr,
              int64_t columns, Value *present = nullptr) {
  ArrayRef<int64_t> shape = shapeOf(data);
  int64_t count = shape[0];
  int64_t br = shape.size() == 3 ? shape[1] : 1;
  int64_t bc = shape.size() == 3 ? shape[2] : 1;
  int64_t blockRows = shapeOf(indptr)[0] - 1, blockCols = columns / bc;
  int64_t size = blockRows * br * columns;
  Type i64 = b.getRewriter().getI64Type();
  Value rowOf = rowOfEach(b, indptr, count);
  Value colOf = castTo(b, indices, i64);
  Value zero = i64Constant(b, {}, {0});
  Value valid = b.op<LogicalAndOp>(
      {b.op<LogicalAndOp>(
           {b.op<GreaterEqualOp>({colOf, zero}),
            b.op<LessOp>({colOf, i64Constant(b, {}, {blockCols})})}),
       b.op<LessOp>({rowOf, i64Constant(b, {}, {blockRows})})});
  // Element (r, c) of block j lands at (row_j * br + r) * columns +
  // col_j * bc + c.
  auto blockAxis = [&](Value v) { return b.reshape(v, {count, 1, 1}); };
  SmallVector<int64_t> rs, cs;
  for (int64_t r = 0; r < br; ++r)
    rs.push_back(r * columns);
  for (int64_t c = 0; c < bc; ++c)
    cs.push_back(c);
  Value flat =
      b.add(b.add(blockAxis(b.mul(rowOf, i64Constant(b, {}, {br * columns}))),
                  i64Constant(b, {1, br, 1}, rs)),
            b.add(blockAxis(b.mul(colOf, i64Constant(b, {}, {bc}))),
                  i64Constant(b, {1, 1, bc}, cs)));
  flat = b.op<MaximumOp>(
      {b.op<MinimumOp>({flat, i64Constant(b, {}, {size - 1})}), zero});
  int64_t n = count * br * bc;
  Value keep =
      b.reshape(b.op<BroadcastToOp>({blockAxis(valid)},
                                    {b.ints("shape", {count, br, bc})}),
                {n});
  flat = b.reshape(flat, {n});
  Value values = b.reshape(data, {n});
  Value scatteredValues = b.op<WhereOp>({keep, values, b.scalar(0, values)});
  auto scatter = [&](Value updates) {
    Value zeros = b.op<ZerosOp>(
        {}, {b.ints("shape", {size}), b.type("dtype", elementOf(updates))});
    return b.op<ScatterElementsOp>(
        {zeros, flat, updates}, {b.i64("axis", 0), b.str("reduction", "add")});
  };
  if (present)
    *present = scatter(castTo(b, keep, i64));
  return scatter(scatteredValues);
}

/// A sparse matrix (at operand `first`) of `columns` columns with no
/// values, rows or columns: every sum is zero, and there is nowhere to
/// scatter to.
bool isEmpty(Operation *op, unsigned first, int64_t columns) {
  return columns == 0 || shapeOf(op->getOperand(first))[0] == 0 ||
         shapeOf(op->getOperand(first + 2))[0] <= 1;
}

Value sparseDense(Emitter &b, Operation *op) {
  Value dense = op->getOperand(0);
  ArrayRef<int64_t> result = shapeOf(op->getResult(0));
  int64_t columns = shapeOf(dense)[1];
  if (isEmpty(op, 1, columns))
    return b.op<ZerosOp>(
        {}, {b.ints("shape", result), b.type("dtype", elementOf(dense))});
  bool lhs = boolAttr(op, "sparse_lhs");
  Value sparse = b.reshape(densify(b, op->getOperand(1), op->getOperand(2),
                                   op->getOperand(3), columns),
                           {result[lhs ? 0 : 1], columns});
  return lhs ? b.op<DenseOp>({sparse, dense}) : b.op<DenseOp>({dense, sparse});
}

/// nn.sparse_conv2d: the BSR matrix made dense [N, window columns] and
/// reshaped into the weight of an nn.conv2d (OIHW for NCHW data; HWIO for
/// NHWC, whose window columns are in HWI order), padded by one pixel for a
/// 3x3 window.
Value sparseConv2d(Emitter &b, Operation *op) {
  Value data = op->getOperand(0), values = op->getOperand(1);
  ArrayRef<int64_t> result = shapeOf(op->getResult(0));
  bool nhwc = strAttr(op, "layout") == "NHWC";
  int64_t channels = shapeOf(data)[nhwc ? 3 : 1], out = result[nhwc ? 3 : 1];
  DictionaryAttr attrs = getOperatorAttributes(op);
  int64_t k = 1;
  if (auto kernel =
          dyn_cast_or_null<DenseI64ArrayAttr>(attrs.get("kernel_size")))
    k = kernel[0];
  int64_t columns = k * k * channels;
  if (isEmpty(op, 1, columns))
    return b.op<ZerosOp>(
        {}, {b.ints("shape", result), b.type("dtype", elementOf(data))});
  ArrayRef<int64_t> blocks = shapeOf(values);
  if (blocks.size() == 2)
    values = b.reshape(values, {blocks[0], blocks[1], 1});
  Value matrix =
      densify(b, values, op->getOperand(2), op->getOperand(3), columns);
  Value weight;
  if (nhwc)
    weight = b.op<TransposeOp>({b.reshape(matrix, {out, k, k, channels})},
                               {b.ints("axes", {1, 2, 3, 0})});
  else
    weight = b.reshape(matrix, {out, channels, k, k});
  return b.op<Conv2DOp>({data, weight},
                        {b.ints("padding", {k / 2, k / 2}),
                         b.i64("channels", out), b.ints("kernel_size", {k, k}),
                         b.str("data_layout", nhwc ? "NHWC" : "NCHW"),
                         b.str("kernel_layout", nhwc ? "HWIO" : "OIHW")});
}

Value sparseAdd(Emitter &b, Operation *op) {
  Value dense = op->getOperand(0);
  ArrayRef<int64_t> shape = shapeOf(dense);
  if (isEmpty(op, 1, shape[1]))
    return dense;
  Value sparse = densify(b, op->getOperand(1), op->getOperand(2),
                         op->getOperand(3), shape[1]);
  return b.add(dense, b.reshape(sparse, shape));
}

/// Transposes the dense form, then numbers the values present in row-major
/// order (an exclusive cumulative count) and scatters each value and its
/// column to its number; the row pointers count the values of each row.
Value sparseTranspose(Emitter &b, Operation *op) {
  Value data = op->getOperand(0), indices = op->getOperand(1),
        indptr = op->getOperand(2);
  int64_t n = shapeOf(indptr)[0] - 1, count = shapeOf(data)[0];
  Type i64 = b.getRewriter().getI64Type();
  if (isEmpty(op, 0, n)) {
    Value pointers = b.op<ZerosOp>(
        {}, {b.ints("shape", {n + 1}), b.type("dtype", elementOf(indptr))});
    return b.tuple({data, indices, pointers});
  }
  Value present;
  Value values = densify(b, data, indices, indptr, n, &present);
  auto transposed = [&](Value v) {
    return b.reshape(
        b.op<TransposeOp>({b.reshape(v, {n, n})}, {b.ints("axes", {1, 0})}),
        {n * n});
  };
  values = transposed(values);
  Value here = b.op<GreaterOp>({transposed(present), i64Constant(b, {}, {0})});
  Value number = b.op<CumsumOp>(
      {castTo(b, here, i64)}, {b.i64("axis", 0), b.boolean("exclusive", true)});
  // Positions without a value all go to the spare slot `count`.
  Value slot = b.op<MinimumOp>(
      {b.op<WhereOp>({here, number, i64Constant(b, {}, {count})}),
       i64Constant(b, {}, {count})});
  SmallVector<int64_t> positions;
  for (int64_t i = 0; i < n * n; ++i)
    positions.push_back(i % n);
  auto compact = [&](Value v) {
    Value zeros = b.op<ZerosOp>(
        {}, {b.ints("shape", {count + 1}), b.type("dtype", elementOf(v))});
    return slice1D(
        b, b.op<ScatterElementsOp>({zeros, slot, v}, {b.i64("axis", 0)}), 0,
        count);
  };
  Value newData = compact(values);
  Value newIndices = castTo(b, compact(i64Constant(b, {n * n}, positions)),
                            elementOf(indices));
  Value perRow = b.op<SumOp>({b.reshape(castTo(b, here, i64), {n, n})},
                             {b.ints("axis", {1})});
  Value pointers = b.op<ConcatenateOp>(
      {b.tuple({i64Constant(b, {1}, {0}),
                b.op<CumsumOp>({perRow}, {b.i64("axis", 0)})})},
      {b.i64("axis", 0)});
  return b.tuple({newData, newIndices, castTo(b, pointers, elementOf(indptr))});
}

/// The row-major strides of the shape vector `shape` (int64): the
/// exclusive products of its later entries.
Value stridesOf(Emitter &b, Value shape) {
  Value reversed = b.op<ReverseOp>({shape}, {b.i64("axis", 0)});
  Value products = b.op<CumprodOp>(
      {reversed}, {b.i64("axis", 0), b.boolean("exclusive", true)});
  return b.op<ReverseOp>({products}, {b.i64("axis", 0)});
}

/// sparse_reshape: the -1 of the new shape is the old element count over
/// the product of the others; each coordinate row becomes a flat index by
/// the old strides and new coordinates by the new ones.
Value sparseReshape(Emitter &b, Operation *op) {
  Value indices = op->getOperand(0), prev = op->getOperand(1),
        next = op->getOperand(2);
  Type i64 = b.getRewriter().getI64Type();
  int64_t count = shapeOf(indices)[0], rank = shapeOf(next)[0];
  Value one = i64Constant(b, {}, {1});
  Value oldShape = castTo(b, prev, i64), newShape = castTo(b, next, i64);
  Value missing = b.op<EqualOp>({newShape, i64Constant(b, {}, {-1})});
  Value known = b.op<ProdOp>({b.op<WhereOp>({missing, one, newShape})});
  Value inferred = b.op<FloorDivideOp>(
      {b.op<ProdOp>({oldShape}), b.op<MaximumOp>({known, one})});
  Value resolved = b.op<WhereOp>({missing, inferred, newShape});
  Value shapeOut = castTo(b, resolved, elementOf(next));
  if (count == 0 || rank == 0) {
    Value none = b.op<ZerosOp>({}, {b.ints("shape", {count, rank}),
                                    b.type("dtype", elementOf(indices))});
    return b.tuple({none, shapeOut});
  }
  Value flat =
      b.op<SumOp>({b.mul(castTo(b, indices, i64), stridesOf(b, oldShape))},
                  {b.ints("axis", {1}), b.boolean("keepdims", true)});
  Value strides = b.op<MaximumOp>({stridesOf(b, resolved), one});
  Value coordinates = b.op<FloorModOp>(
      {b.op<FloorDivideOp>({flat, strides}), b.op<MaximumOp>({resolved, one})});
  return b.tuple({castTo(b, coordinates, elementOf(indices)), shapeOut});
}

} // namespace

void mlir::relay::decompose::addSparseRewrites(AddRewrite add) {
  add("sparse_reshape", sparseReshape);
  add("nn.sparse_dense", sparseDense);
  add("nn.sparse_add", sparseAdd);
  add("nn.sparse_conv2d", sparseConv2d);
  add("nn.sparse_transpose", sparseTranspose);
}

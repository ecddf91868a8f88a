//===- RelationsSparse.cpp - Relations of sparse operators ------*- C++ -*-===//
//
// TVM's operators on CSR and BSR matrices (nn.sparse_dense, nn.sparse_add,
// nn.sparse_conv2d, nn.sparse_transpose): a matrix is three inputs, its values,
// their (block) columns and the row pointers; and the COO coordinates of
// sparse_reshape and sparse_fill_empty_rows.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;

namespace {
/// A CSR or BSR matrix read from three consecutive inputs.
struct SparseMatrix {
  TensorInfo data, indices, indptr;
  /// Rows of the matrix (of blocks times their rows for BSR).
  Dim rows;
  bool isBlocked() const { return data.getRank() == 3; }
};
} // namespace

/// Reads the sparse matrix at inputs `first`..`first + 2`: values of
/// `dtype` (1-d, or 3-d blocks when `blocks`), 1-d integer indices (one per
/// value or block) and row pointers (at least one).
static RelationStatus readSparse(RelationArgs &args, unsigned first, Type dtype,
                                 bool blocks, SparseMatrix &m) {
  READ_TENSOR_OR_RETURN(args, first, m.data);
  if (!(m.data.getRank() == 1 || (blocks && m.data.getRank() == 3)) ||
      m.data.dtype != dtype)
    return args.fail(Twine("expected the sparse values as a 1-d") +
                     (blocks ? " (CSR) or 3-d (BSR)" : "") + " tensor of " +
                     typeStr(dtype) + ", got " + typeStr(args.getInput(first)));
  if (RelationStatus s =
          readIntegerVector(args, first + 1, m.indices, "the sparse indices");
      s != RelationStatus::Solved)
    return s;
  if (RelationStatus s = readIntegerVector(args, first + 2, m.indptr,
                                           "the sparse row pointers");
      s != RelationStatus::Solved)
    return s;
  if (failed(unifyDims(m.data.dims[0], m.indices.dims[0])))
    return args.fail("expected one index per sparse " +
                     Twine(m.isBlocked() ? "block" : "value") + ", got " +
                     typeStr(args.getInput(first)) + " and " +
                     typeStr(args.getInput(first + 1)));
  Dim pointers = m.indptr.dims[0];
  if (pointers.isStatic() && pointers.size < 1)
    return args.fail("expected at least one row pointer, got " +
                     typeStr(args.getInput(first + 2)));
  m.rows = pointers.isStatic() ? Dim::of(pointers.size - 1) : Dim::any();
  if (m.isBlocked())
    m.rows = mulDims(m.rows, m.data.dims[1]);
  return RelationStatus::Solved;
}

/// nn.sparse_dense: [M, K] dense times the transpose of an N x K sparse
/// matrix, or with sparse_lhs an M x K sparse matrix times the transpose of
/// [N, K] dense: [M, N] either way.
static RelationStatus sparseDenseRelation(RelationArgs &args) {
  TensorInfo dense;
  READ_TENSOR_OR_RETURN(args, 0, dense);
  if (dense.getRank() != 2 || !isFloatLike(dense.dtype))
    return args.fail("expected a 2-d floating-point dense matrix, got " +
                     typeStr(args.getInput(0)));
  SparseMatrix sparse;
  if (RelationStatus s = readSparse(args, 1, dense.dtype, true, sparse);
      s != RelationStatus::Solved)
    return s;
  Dim k = dense.dims[1];
  if (sparse.isBlocked()) {
    Dim blockCols = sparse.data.dims[2];
    if (k.isStatic() && blockCols.isStatic() &&
        (blockCols.size == 0 || k.size % blockCols.size != 0))
      return args.fail("the BSR blocks' " + Twine(blockCols.size) +
                       " columns do not divide the dense matrix's " +
                       Twine(k.size) + " columns");
  }
  SmallVector<Dim> result = {dense.dims[0], sparse.rows};
  if (args.getBool("sparse_lhs", false))
    std::swap(result[0], result[1]);
  return args.solve(makeTensor(args.getContext(), result, dense.dtype));
}

/// nn.sparse_conv2d: NHWC or NCHW data, a BSR weight ([blocks, bs_r] or
/// [blocks, bs_r, bs_c] of the data's dtype) of N rows whose columns are
/// a 1x1 or 3x3 window's; the data's size with N channels.
static RelationStatus sparseConv2dRelation(RelationArgs &args) {
  TensorInfo data, values, indices, indptr;
  READ_TENSOR_OR_RETURN(args, 0, data);
  StringRef layout = args.getString("layout", "NHWC");
  if (layout != "NHWC" && layout != "NCHW")
    return args.fail("layout must be NHWC or NCHW, got '" + layout + "'");
  if (data.getRank() != 4 || data.dtype.isInteger(1))
    return args.fail("expected 4-d numeric data, got " +
                     typeStr(args.getInput(0)));
  SmallVector<int64_t> kernel = args.getInts("kernel_size", {1, 1});
  if (kernel.size() != 2 || kernel[0] != kernel[1] ||
      (kernel[0] != 1 && kernel[0] != 3))
    return args.fail(
        "kernel_size must be [1, 1] or [3, 3] (TVM's kernels), "
        "got [" +
        llvm::join(llvm::map_range(kernel,
                                   [](int64_t k) { return std::to_string(k); }),
                   ", ") +
        "]");
  READ_TENSOR_OR_RETURN(args, 1, values);
  if ((values.getRank() != 2 && values.getRank() != 3) ||
      values.dtype != data.dtype)
    return args.fail("expected the BSR blocks as [blocks, bs_r] or [blocks, "
                     "bs_r, bs_c] of the data's dtype, got " +
                     typeStr(args.getInput(1)));
  for (unsigned i : {2u, 3u})
    if (RelationStatus s = readIntegerVector(args, i, i == 2 ? indices : indptr,
                                             i == 2 ? "the blocks' columns"
                                                    : "the block row pointers");
        s != RelationStatus::Solved)
      return s;
  if (failed(unifyDims(values.dims[0], indices.dims[0])))
    return args.fail("expected one column per block, got " +
                     typeStr(args.getInput(1)) + " and " +
                     typeStr(args.getInput(2)));
  Dim pointers = indptr.dims[0];
  if (pointers.isStatic() && pointers.size < 1)
    return args.fail("expected at least one row pointer, got " +
                     typeStr(args.getInput(3)));
  Dim channels = data.dims[layout == "NHWC" ? 3 : 1];
  Dim blockCols = values.getRank() == 3 ? values.dims[2] : Dim::of(1);
  Dim columns = mulDims(channels, Dim::of(kernel[0] * kernel[1]));
  if (columns.isStatic() && blockCols.isStatic() &&
      (blockCols.size == 0 || columns.size % blockCols.size != 0))
    return args.fail("the BSR blocks' " + Twine(blockCols.size) +
                     " columns do not divide the weight matrix's " +
                     Twine(columns.size) + " columns");
  Dim rows = pointers.isStatic() ? Dim::of(pointers.size - 1) : Dim::any();
  rows = mulDims(rows, values.dims[1]);
  SmallVector<Dim> result(data.dims.begin(), data.dims.end());
  result[layout == "NHWC" ? 3 : 1] = rows;
  return args.solve(makeTensor(args.getContext(), result, data.dtype));
}

/// nn.sparse_add: [M, N] dense plus a CSR matrix of M rows.
static RelationStatus sparseAddRelation(RelationArgs &args) {
  TensorInfo dense;
  READ_TENSOR_OR_RETURN(args, 0, dense);
  if (dense.getRank() != 2)
    return args.fail("expected a 2-d dense matrix, got " +
                     typeStr(args.getInput(0)));
  SparseMatrix sparse;
  if (RelationStatus s = readSparse(args, 1, dense.dtype, false, sparse);
      s != RelationStatus::Solved)
    return s;
  if (failed(unifyDims(sparse.rows, dense.dims[0])))
    return args.fail("the CSR matrix has " + toString(sparse.rows) +
                     " rows (row pointers " + typeStr(args.getInput(3)) +
                     ") where the dense matrix " + typeStr(args.getInput(0)) +
                     " has " + toString(dense.dims[0]));
  return args.solve(args.getInput(0));
}

/// nn.sparse_transpose: a square CSR matrix's transpose as the tuple of its
/// three tensors, typed as the input's.
static RelationStatus sparseTransposeRelation(RelationArgs &args) {
  TensorInfo data;
  READ_TENSOR_OR_RETURN(args, 0, data);
  SparseMatrix sparse;
  if (RelationStatus s = readSparse(args, 0, data.dtype, false, sparse);
      s != RelationStatus::Solved)
    return s;
  return args.solve(
      TupleType::get(args.getContext(),
                     {args.getInput(0), args.getInput(1), args.getInput(2)}));
}

/// sparse_reshape: integer coordinates [N, R], the old shape [R] and the
/// new one [S]; the new coordinates [N, S] and the new shape.
static RelationStatus sparseReshapeRelation(RelationArgs &args) {
  TensorInfo indices, prev, next;
  READ_TENSOR_OR_RETURN(args, 0, indices);
  if (indices.getRank() != 2 || !isa<IntegerType>(indices.dtype))
    return args.fail("expected the coordinates as a 2-d integer tensor "
                     "[values, rank], got " +
                     typeStr(args.getInput(0)));
  if (RelationStatus s = readIntegerVector(args, 1, prev, "the old shape");
      s != RelationStatus::Solved)
    return s;
  if (RelationStatus s = readIntegerVector(args, 2, next, "the new shape");
      s != RelationStatus::Solved)
    return s;
  if (failed(unifyDims(indices.dims[1], prev.dims[0])))
    return args.fail("the coordinates " + typeStr(args.getInput(0)) +
                     " do not have one entry per axis of the old shape " +
                     typeStr(args.getInput(1)));
  MLIRContext *ctx = args.getContext();
  return args.solve(TupleType::get(
      ctx, {makeTensor(ctx, {indices.dims[0], next.dims[0]}, indices.dtype),
            args.getInput(2)}));
}

/// sparse_fill_empty_rows: coordinates [N, R], values [N], the dense
/// shape [R] and a 0-d or [1] default of the values' dtype; the result
/// sizes depend on the data.
static RelationStatus sparseFillEmptyRowsRelation(RelationArgs &args) {
  TensorInfo indices, values, shape, fill;
  READ_TENSOR_OR_RETURN(args, 0, indices);
  READ_TENSOR_OR_RETURN(args, 1, values);
  READ_TENSOR_OR_RETURN(args, 3, fill);
  if (indices.getRank() != 2 || !isa<IntegerType>(indices.dtype))
    return args.fail("expected the coordinates as a 2-d integer tensor "
                     "[values, rank], got " +
                     typeStr(args.getInput(0)));
  if (values.getRank() != 1 ||
      failed(unifyDims(values.dims[0], indices.dims[0])))
    return args.fail("expected one value per coordinate row of " +
                     typeStr(args.getInput(0)) + ", got " +
                     typeStr(args.getInput(1)));
  if (RelationStatus s = readIntegerVector(args, 2, shape, "the dense shape");
      s != RelationStatus::Solved)
    return s;
  if (failed(unifyDims(indices.dims[1], shape.dims[0])))
    return args.fail("the coordinates " + typeStr(args.getInput(0)) +
                     " do not have one entry per axis of the dense shape " +
                     typeStr(args.getInput(2)));
  bool scalarFill =
      fill.getRank() == 0 ||
      (fill.getRank() == 1 && succeeded(unifyDims(fill.dims[0], Dim::of(1))));
  if (!scalarFill || fill.dtype != values.dtype)
    return args.fail("expected the default value as a 0-d or [1] tensor of "
                     "the values' dtype, got " +
                     typeStr(args.getInput(3)));
  MLIRContext *ctx = args.getContext();
  Type i64 = IntegerType::get(ctx, 64);
  return args.solve(
      TupleType::get(ctx, {makeTensor(ctx, {Dim::any(), indices.dims[1]}, i64),
                           makeTensor(ctx, {Dim::any()}, values.dtype),
                           makeTensor(ctx, {Dim::any()}, i64)}));
}

void mlir::relay::registerSparseRelations() {
  registerTypeRelation("SparseFillEmptyRows", sparseFillEmptyRowsRelation);
  registerTypeRelation("SparseReshape", sparseReshapeRelation);
  registerTypeRelation("SparseDense", sparseDenseRelation);
  registerTypeRelation("SparseConv2d", sparseConv2dRelation);
  registerTypeRelation("SparseAdd", sparseAddRelation);
  registerTypeRelation("SparseTranspose", sparseTransposeRelation);
}

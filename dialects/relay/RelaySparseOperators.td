//===- RelaySparseOperators.td - TVM's sparse operators ----*- tablegen -*-===//
//
// TVM's operators on sparse matrices in CSR form (`data`, `indices`,
// `indptr`: the values, their columns, and where each row's values begin)
// or BSR form (`data` of [blocks, rows, columns] blocks, `indices` their
// block columns, `indptr` where each block row begins): nn.sparse_dense,
// nn.sparse_add, nn.sparse_conv2d and nn.sparse_transpose; and sparse_reshape and
// sparse_fill_empty_rows on COO coordinates (TensorFlow's SparseReshape
// and SparseFillEmptyRows; the latter's result size depends on the data,
// so the interpreter runs it). The others are composites: their
// decompositions (transforms/Decompose/SparseRewrites.cpp) place the
// values in a dense matrix by scatters, so the cost is a dense one's, and
// relinearise the coordinates.
//
// Included by RelayOperators.td.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_SPARSE_OPERATORS
#define RELAY_SPARSE_OPERATORS

def Relay_SparseDenseOp
    : Relay_OperatorOp<"nn.sparse_dense", "SparseDense", "OutEWiseFusable", 4> {
  let summary = "A dense matrix times the transpose of a sparse one (or, "
                "with `sparse_lhs`, the sparse one times the dense one's "
                "transpose)";
  let description = [{
    TVM's: `dense_data` [M, K] times the transpose of the CSR or BSR matrix
    (`sparse_data`, `sparse_indices`, `sparse_indptr`) of N rows and K
    columns, giving [M, N]; with `sparse_lhs`, the sparse matrix of M rows
    times the transpose of `dense_data` [N, K], giving [M, N]. A CSR
    matrix's rows are `sparse_indptr`'s length less one; a BSR matrix's
    that times its blocks' rows. Column indices outside the matrix are
    ignored.
  }];
  let arguments = (ins AnyType:$dense_data, AnyType:$sparse_data,
                       AnyType:$sparse_indices, AnyType:$sparse_indptr,
                       DefaultValuedAttr<BoolAttr, "false">:$sparse_lhs);
}

def Relay_SparseConv2DOp
    : Relay_OperatorOp<"nn.sparse_conv2d", "SparseConv2d", "OutEWiseFusable",
                       4> {
  let summary = "A convolution with a BSR weight matrix (1x1, or 3x3 with "
                "one pixel of padding)";
  let description = [{
    TVM's: `dense_data` NHWC (the default `layout`) or NCHW, the weight a
    BSR matrix of N output channels: blocks `sparse_data` [blocks, bs_r,
    bs_c] (or [blocks, bs_r], one column each), their block columns and
    the row pointers. With `kernel_size` [1, 1] (the default) its columns
    are the input channels; with [3, 3] (TVM's x86 kernels) they are the
    3x3 window's, in HWI order for NHWC and IHW for NCHW, the window
    padded by one pixel with zeros. Columns outside the matrix are ignored.
  }];
  let arguments = (ins AnyType:$dense_data, AnyType:$sparse_data,
                       AnyType:$sparse_indices, AnyType:$sparse_indptr,
                       DefaultValuedStrAttr<StrAttr, "NHWC">:$layout,
                       OptionalAttr<DenseI64ArrayAttr>:$kernel_size);
}

def Relay_SparseAddOp
    : Relay_OperatorOp<"nn.sparse_add", "SparseAdd", "Opaque", 4> {
  let summary = "A dense matrix plus a CSR matrix of its shape";
  let description = [{
    TVM's: `dense_data` [M, N] plus the CSR matrix (`sparse_data`,
    `sparse_indices`, `sparse_indptr` of M + 1 entries); the result is
    dense. Column indices outside the matrix are ignored.
  }];
  let arguments = (ins AnyType:$dense_data, AnyType:$sparse_data,
                       AnyType:$sparse_indices, AnyType:$sparse_indptr);
}

def Relay_SparseTransposeOp
    : Relay_OperatorOp<"nn.sparse_transpose", "SparseTranspose",
                       "OutEWiseFusable", 3> {
  let summary = "The transpose of a square CSR matrix, in CSR form";
  let description = [{
    TVM's: (`sparse_data`, `sparse_indices`, `sparse_indptr`) of N rows
    and N columns gives the tuple (data, indices, indptr) of its transpose,
    of the same types; within a row of the transpose the values keep the
    order of their rows in the input.
  }];
  let arguments = (ins AnyType:$sparse_data, AnyType:$sparse_indices,
                       AnyType:$sparse_indptr);
}

def Relay_SparseReshapeOp
    : Relay_OperatorOp<"sparse_reshape", "SparseReshape", "Injective", 3, 3> {
  let summary = "The coordinates of a sparse tensor's values after a "
                "reshape, and the new shape";
  let description = [{
    TVM's (TensorFlow's SparseReshape): `sparse_indices` [N, R] holds the
    coordinates of N values in a tensor of shape `prev_shape` [R];
    `new_shape` [S] (at most one -1, inferred) is the shape to reshape to.
    The result is the tuple of the N coordinates in the new shape [N, S]
    (row-major order kept) and the new shape with its -1 resolved. All are
    integers known when the program runs.
  }];
  let arguments = (ins AnyType:$sparse_indices, AnyType:$prev_shape,
                       AnyType:$new_shape);
}

def Relay_SparseFillEmptyRowsOp
    : Relay_OperatorOp<"sparse_fill_empty_rows", "SparseFillEmptyRows",
                       "Opaque", 4, 3> {
  let summary = "A sparse tensor with a default value in each empty row";
  let description = [{
    TVM's (TensorFlow's SparseFillEmptyRows): `sparse_indices` [N, R]
    holds the coordinates of the N `sparse_values` [N] in a tensor of
    shape `dense_shape` [R]; each row (first coordinate) without a value
    gets `default_value` (0-d or [1]) at column 0. The result is the tuple
    of the coordinates [M, R] (int64, ordered by row, the given order kept
    within a row), their values [M] and a [rows] int64 indicator of the
    rows that were empty. M depends on the data, so it runs on the
    interpreter. TVM types the values int64 whatever their dtype (and
    truncates floats); here they keep their dtype.
  }];
  let arguments = (ins AnyType:$sparse_indices, AnyType:$sparse_values,
                       AnyType:$dense_shape, AnyType:$default_value);
}

#endif // RELAY_SPARSE_OPERATORS

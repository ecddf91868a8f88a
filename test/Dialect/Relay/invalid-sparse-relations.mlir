// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// The errors of TVM's sparse operators' relations (nn.sparse_dense,
// nn.sparse_add, nn.sparse_transpose, sparse_reshape,
// sparse_fill_empty_rows), found by the op verifiers.

// Tests that nn.sparse_dense takes a 2-d dense matrix.
relay.func @dense_rank(%x: tensor<6xf32>, %d: tensor<9xf32>, %i: tensor<9xi32>, %p: tensor<6xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.sparse_dense: expected a 2-d floating-point dense matrix, got 'tensor<6xf32>'}}
  %r = relay.nn.sparse_dense %x, %d, %i, %p : (tensor<6xf32>, tensor<9xf32>, tensor<9xi32>, tensor<6xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the sparse values are 1-d (CSR) or 3-d (BSR).
relay.func @values_rank(%x: tensor<3x6xf32>, %d: tensor<9x1xf32>, %i: tensor<9xi32>, %p: tensor<6xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.sparse_dense: expected the sparse values as a 1-d (CSR) or 3-d (BSR) tensor of 'f32', got 'tensor<9x1xf32>'}}
  %r = relay.nn.sparse_dense %x, %d, %i, %p : (tensor<3x6xf32>, tensor<9x1xf32>, tensor<9xi32>, tensor<6xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the sparse values have the dense matrix's dtype.
relay.func @values_dtype(%x: tensor<3x6xf32>, %d: tensor<9xf16>, %i: tensor<9xi32>, %p: tensor<6xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.sparse_dense: expected the sparse values as a 1-d (CSR) or 3-d (BSR) tensor of 'f32', got 'tensor<9xf16>'}}
  %r = relay.nn.sparse_dense %x, %d, %i, %p : (tensor<3x6xf32>, tensor<9xf16>, tensor<9xi32>, tensor<6xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the sparse indices are integers.
relay.func @indices_dtype(%x: tensor<3x6xf32>, %d: tensor<9xf32>, %p: tensor<6xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.sparse_dense: expected the sparse indices as a 1-d integer tensor, got 'tensor<9xf32>'}}
  %r = relay.nn.sparse_dense %x, %d, %d, %p : (tensor<3x6xf32>, tensor<9xf32>, tensor<9xf32>, tensor<6xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the row pointers are a 1-d integer tensor.
relay.func @indptr_rank(%x: tensor<3x6xf32>, %d: tensor<9xf32>, %i: tensor<9xi32>, %p: tensor<2x3xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.sparse_dense: expected the sparse row pointers as a 1-d integer tensor, got 'tensor<2x3xi32>'}}
  %r = relay.nn.sparse_dense %x, %d, %i, %p : (tensor<3x6xf32>, tensor<9xf32>, tensor<9xi32>, tensor<2x3xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that there is one index per value.
relay.func @index_count(%x: tensor<3x6xf32>, %d: tensor<9xf32>, %i: tensor<8xi32>, %p: tensor<6xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.sparse_dense: expected one index per sparse value, got 'tensor<9xf32>' and 'tensor<8xi32>'}}
  %r = relay.nn.sparse_dense %x, %d, %i, %p : (tensor<3x6xf32>, tensor<9xf32>, tensor<8xi32>, tensor<6xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that there is at least one row pointer.
relay.func @no_pointers(%x: tensor<3x6xf32>, %d: tensor<0xf32>, %i: tensor<0xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.sparse_dense: expected at least one row pointer, got 'tensor<0xi32>'}}
  %r = relay.nn.sparse_dense %x, %d, %i, %i : (tensor<3x6xf32>, tensor<0xf32>, tensor<0xi32>, tensor<0xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that BSR blocks tile the dense matrix's columns.
relay.func @block_columns(%x: tensor<3x6xf32>, %d: tensor<3x2x4xf32>, %i: tensor<3xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.sparse_dense: the BSR blocks' 4 columns do not divide the dense matrix's 6 columns}}
  %r = relay.nn.sparse_dense %x, %d, %i, %i : (tensor<3x6xf32>, tensor<3x2x4xf32>, tensor<3xi32>, tensor<3xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that nn.sparse_add's matrix has the dense one's rows.
relay.func @add_rows(%x: tensor<4x6xf32>, %d: tensor<9xf32>, %i: tensor<9xi32>, %p: tensor<6xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.sparse_add: the CSR matrix has 5 rows (row pointers 'tensor<6xi32>') where the dense matrix 'tensor<4x6xf32>' has 4}}
  %r = relay.nn.sparse_add %x, %d, %i, %p : (tensor<4x6xf32>, tensor<9xf32>, tensor<9xi32>, tensor<6xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that nn.sparse_add takes CSR only.
relay.func @add_bsr(%x: tensor<4x6xf32>, %d: tensor<3x2x3xf32>, %i: tensor<3xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.sparse_add: expected the sparse values as a 1-d tensor of 'f32', got 'tensor<3x2x3xf32>'}}
  %r = relay.nn.sparse_add %x, %d, %i, %i : (tensor<4x6xf32>, tensor<3x2x3xf32>, tensor<3xi32>, tensor<3xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that nn.sparse_transpose's indices are integers.
relay.func @transpose_indices(%d: tensor<9xf32>, %p: tensor<6xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.sparse_transpose: expected the sparse indices as a 1-d integer tensor, got 'tensor<9xf32>'}}
  %r = relay.nn.sparse_transpose %d, %d, %p : (tensor<9xf32>, tensor<9xf32>, tensor<6xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the type of nn.sparse_transpose's result is checked: the
// input's three types.
relay.func @transpose_result(%d: tensor<9xf32>, %i: tensor<9xi32>, %p: tensor<6xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.sparse_transpose}}
  %r = relay.nn.sparse_transpose %d, %i, %p : (tensor<9xf32>, tensor<9xi32>, tensor<6xi32>) -> tuple<tensor<9xf32>, tensor<9xi32>, tensor<5xi32>>
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that sparse_reshape's coordinates are a 2-d integer tensor.
relay.func @reshape_coordinates(%i: tensor<5xi64>, %s: tensor<3xi64>) -> tensor<i1> {
  // expected-error @+1 {{sparse_reshape: expected the coordinates as a 2-d integer tensor [values, rank], got 'tensor<5xi64>'}}
  %r = relay.sparse_reshape %i, %s, %s : (tensor<5xi64>, tensor<3xi64>, tensor<3xi64>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that sparse_reshape's shapes are integers.
relay.func @reshape_shape(%i: tensor<5x3xi64>, %s: tensor<3xi64>, %f: tensor<2xf32>) -> tensor<i1> {
  // expected-error @+1 {{sparse_reshape: expected the new shape as a 1-d integer tensor, got 'tensor<2xf32>'}}
  %r = relay.sparse_reshape %i, %s, %f : (tensor<5x3xi64>, tensor<3xi64>, tensor<2xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that sparse_reshape's coordinates have one entry per old axis.
relay.func @reshape_rank(%i: tensor<5x2xi64>, %s: tensor<3xi64>) -> tensor<i1> {
  // expected-error @+1 {{sparse_reshape: the coordinates 'tensor<5x2xi64>' do not have one entry per axis of the old shape 'tensor<3xi64>'}}
  %r = relay.sparse_reshape %i, %s, %s : (tensor<5x2xi64>, tensor<3xi64>, tensor<3xi64>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that sparse_fill_empty_rows has one value per coordinate row.
relay.func @fill_values(%i: tensor<5x2xi64>, %v: tensor<4xf32>, %s: tensor<2xi64>, %d: tensor<f32>) -> tensor<i1> {
  // expected-error @+1 {{sparse_fill_empty_rows: expected one value per coordinate row of 'tensor<5x2xi64>', got 'tensor<4xf32>'}}
  %r = relay.sparse_fill_empty_rows %i, %v, %s, %d : (tensor<5x2xi64>, tensor<4xf32>, tensor<2xi64>, tensor<f32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that sparse_fill_empty_rows' dense shape has one size per coordinate.
relay.func @fill_shape(%i: tensor<5x2xi64>, %v: tensor<5xf32>, %s: tensor<3xi64>, %d: tensor<f32>) -> tensor<i1> {
  // expected-error @+1 {{sparse_fill_empty_rows: the coordinates 'tensor<5x2xi64>' do not have one entry per axis of the dense shape 'tensor<3xi64>'}}
  %r = relay.sparse_fill_empty_rows %i, %v, %s, %d : (tensor<5x2xi64>, tensor<5xf32>, tensor<3xi64>, tensor<f32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that sparse_fill_empty_rows' default value is one of the values' dtype.
relay.func @fill_default(%i: tensor<5x2xi64>, %v: tensor<5xf32>, %s: tensor<2xi64>, %d: tensor<2xf32>) -> tensor<i1> {
  // expected-error @+1 {{sparse_fill_empty_rows: expected the default value as a 0-d or [1] tensor of the values' dtype, got 'tensor<2xf32>'}}
  %r = relay.sparse_fill_empty_rows %i, %v, %s, %d : (tensor<5x2xi64>, tensor<5xf32>, tensor<2xi64>, tensor<2xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that sparse_fill_empty_rows' coordinates are integers.
relay.func @fill_indices(%i: tensor<5x2xf32>, %v: tensor<5xf32>, %s: tensor<2xi64>, %d: tensor<f32>) -> tensor<i1> {
  // expected-error @+1 {{sparse_fill_empty_rows: expected the coordinates as a 2-d integer tensor [values, rank], got 'tensor<5x2xf32>'}}
  %r = relay.sparse_fill_empty_rows %i, %v, %s, %d : (tensor<5x2xf32>, tensor<5xf32>, tensor<2xi64>, tensor<f32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that nn.sparse_conv2d's windows are TVM's kernels': 1x1 or 3x3.
relay.func @conv_kernel(%x: tensor<1x4x4x8xf32>, %v: tensor<2x2x4xf32>, %i: tensor<2xi32>, %p: tensor<3xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.sparse_conv2d: kernel_size must be [1, 1] or [3, 3] (TVM's kernels), got [5, 5]}}
  %r = relay.nn.sparse_conv2d %x, %v, %i, %p {kernel_size = array<i64: 5, 5>} : (tensor<1x4x4x8xf32>, tensor<2x2x4xf32>, tensor<2xi32>, tensor<3xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the blocks must have the data's dtype (nn.conv2d's).
relay.func @conv_dtype(%x: tensor<1x4x4x8xf32>, %v: tensor<2x2x4xf64>, %i: tensor<2xi32>, %p: tensor<3xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.sparse_conv2d: expected the BSR blocks as [blocks, bs_r] or [blocks, bs_r, bs_c] of the data's dtype, got 'tensor<2x2x4xf64>'}}
  %r = relay.nn.sparse_conv2d %x, %v, %i, %p : (tensor<1x4x4x8xf32>, tensor<2x2x4xf64>, tensor<2xi32>, tensor<3xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the blocks' columns must divide the window's columns.
relay.func @conv_block_columns(%x: tensor<1x4x4x6xf32>, %v: tensor<2x2x4xf32>, %i: tensor<2xi32>, %p: tensor<3xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.sparse_conv2d: the BSR blocks' 4 columns do not divide the weight matrix's 6 columns}}
  %r = relay.nn.sparse_conv2d %x, %v, %i, %p : (tensor<1x4x4x6xf32>, tensor<2x2x4xf32>, tensor<2xi32>, tensor<3xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that each block has one column index.
relay.func @conv_indices(%x: tensor<1x4x4x8xf32>, %v: tensor<2x2x4xf32>, %i: tensor<3xi32>, %p: tensor<3xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.sparse_conv2d: expected one column per block, got 'tensor<2x2x4xf32>' and 'tensor<3xi32>'}}
  %r = relay.nn.sparse_conv2d %x, %v, %i, %p : (tensor<1x4x4x8xf32>, tensor<2x2x4xf32>, tensor<3xi32>, tensor<3xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that the layout is NHWC or NCHW.
relay.func @conv_layout(%x: tensor<1x4x4x8xf32>, %v: tensor<2x2x4xf32>, %i: tensor<2xi32>, %p: tensor<3xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.sparse_conv2d: layout must be NHWC or NCHW, got 'HWCN'}}
  %r = relay.nn.sparse_conv2d %x, %v, %i, %p {layout = "HWCN"} : (tensor<1x4x4x8xf32>, tensor<2x2x4xf32>, tensor<2xi32>, tensor<3xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

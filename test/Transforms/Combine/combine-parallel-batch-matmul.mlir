// RUN: relay-mlir-opt %s --relay-combine-parallel-batch-matmul | FileCheck %s

// Tests that the query, key and value projections of one input (batch
// matmuls with transposed weights) become one on the weights concatenated
// along N.
// CHECK-LABEL: relay.func @qkv(
// CHECK: relay.concatenate {{.*}} {axis = 1 : i64} {{.*}} -> tensor<1x24x16xf32>
// CHECK: %[[P:.*]] = relay.nn.batch_matmul {{.*}} -> tensor<1x5x24xf32>
// CHECK-COUNT-3: relay.strided_slice %[[P]]
relay.func @qkv(%x: tensor<1x5x16xf32>, %wq: tensor<1x8x16xf32>, %wk: tensor<1x8x16xf32>, %wv: tensor<1x8x16xf32>) -> tensor<1x5x8xf32> {
  %q = relay.nn.batch_matmul %x, %wq {transpose_b = true} : (tensor<1x5x16xf32>, tensor<1x8x16xf32>) -> tensor<1x5x8xf32>
  %k = relay.nn.batch_matmul %x, %wk {transpose_b = true} : (tensor<1x5x16xf32>, tensor<1x8x16xf32>) -> tensor<1x5x8xf32>
  %v = relay.nn.batch_matmul %x, %wv {transpose_b = true} : (tensor<1x5x16xf32>, tensor<1x8x16xf32>) -> tensor<1x5x8xf32>
  %a = relay.add %q, %k : (tensor<1x5x8xf32>, tensor<1x5x8xf32>) -> tensor<1x5x8xf32>
  %r = relay.add %a, %v : (tensor<1x5x8xf32>, tensor<1x5x8xf32>) -> tensor<1x5x8xf32>
  relay.return %r : tensor<1x5x8xf32>
}

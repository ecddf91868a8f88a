// RUN: relay-mlir-opt %s --split-input-file --relay-set-target-cpu=cpu=znver3 --relay-tile-and-vectorize | FileCheck %s --check-prefix=AVX2
// RUN: relay-mlir-opt %s --split-input-file --relay-set-target-cpu=cpu=znver4 --relay-tile-and-vectorize | FileCheck %s --check-prefix=AVX512

// Tests that a product of 49 rows (a 7x7 map's positions: ResNet-18's last
// convolutions, multiplied transposed against packed weights) keeps its
// accumulators busy with AVX2's 16 vector registers: 49 has no divisor
// near AVX2's 6-row tiles, so instead of 1 row of 2 vectors (2
// accumulators) it takes 7 rows of one vector (7), and its 49 rows stay
// one cache tile (m tiles of 7 rows read all of B again for each). With
// AVX-512 the tile stays 7 rows of 2 vectors.
// AVX2-LABEL: func.func @forty_nine_rows
// AVX2-NOT:    scf.for {{.*}} to %c49
// AVX2:        scf.for {{.*}} to %c256 step %c64
// AVX2:          scf.for {{.*}} to %c49 step %c7
// AVX2:        vector.contract {{.*}} : vector<7x1xf32>, vector<1x8xf32> into vector<7x8xf32>
// AVX512-LABEL: func.func @forty_nine_rows
// AVX512:      vector.contract {{.*}} : vector<7x1xf32>, vector<1x32xf32> into vector<7x32xf32>
func.func @forty_nine_rows(%a: memref<49x512xf32>, %b: memref<512x256xf32>,
                           %c: memref<49x256xf32>) {
  linalg.matmul ins(%a, %b : memref<49x512xf32>, memref<512x256xf32>)
                outs(%c : memref<49x256xf32>)
  return
}

// -----

// Tests that rows the 6-row tiles divide take AVX2's 6x16 register tile
// (12 accumulators) and nothing else (AVX-512: 8x32).
// AVX2-LABEL: func.func @rows_of_six
// AVX2:        vector.contract {{.*}} : vector<6x1xf32>, vector<1x16xf32> into vector<6x16xf32>
// AVX2-NOT:    vector.contract
// AVX512-LABEL: func.func @rows_of_six
// AVX512:      vector.contract {{.*}} : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
func.func @rows_of_six(%a: memref<48x512xf32>, %b: memref<512x256xf32>,
                       %c: memref<48x256xf32>) {
  linalg.matmul ins(%a, %b : memref<48x512xf32>, memref<512x256xf32>)
                outs(%c : memref<48x256xf32>)
  return
}

// -----

// Tests that a cache tile's rows that the 6-row tiles do not divide are
// split instead of all taking the divisor's 4x16 tiles (8 accumulators):
// the 64 rows' cache tiles of 32 rows compute 24 rows in 6x16 tiles and
// the last 8 in 4x16 ones (2 rows left over would be 2x16: 4
// accumulators). AVX-512's 8x32 tiles divide them.
// AVX2-LABEL: func.func @rows_split
// AVX2:        scf.for {{.*}} to %c64 step %c32
// AVX2:          scf.for {{.*}} to %c24 step %c6
// AVX2:            vector.contract {{.*}} : vector<6x1xf32>, vector<1x16xf32> into vector<6x16xf32>
// AVX2:          scf.for {{.*}} to %c8 step %c4
// AVX2:            vector.contract {{.*}} : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
// AVX512-LABEL: func.func @rows_split
// AVX512:      vector.contract {{.*}} : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// AVX512-NOT:  vector.contract
func.func @rows_split(%a: memref<64x512xf32>, %b: memref<512x256xf32>,
                      %c: memref<64x256xf32>) {
  linalg.matmul ins(%a, %b : memref<64x512xf32>, memref<512x256xf32>)
                outs(%c : memref<64x256xf32>)
  return
}

// -----

// Tests that a split product over a freshly zeroed buffer still starts
// both parts' accumulators from zero (the fill goes) and that each part
// writes only its own rows.
// AVX2-LABEL: func.func @rows_split_from_zero
// AVX2-NOT:    linalg.fill
// AVX2-DAG:    %[[ZERO6:.*]] = arith.constant dense<0.000000e+00> : vector<6x16xf32>
// AVX2-DAG:    %[[ZERO4:.*]] = arith.constant dense<0.000000e+00> : vector<4x16xf32>
// AVX2:        scf.for {{.*}} to %c24 step %c6
// AVX2:          scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO6]]) -> (vector<6x16xf32>)
// AVX2:        scf.for {{.*}} to %c8 step %c4
// AVX2:          scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO4]]) -> (vector<4x16xf32>)
// AVX2-NOT:    linalg.fill
// AVX512-LABEL: func.func @rows_split_from_zero
func.func @rows_split_from_zero(%a: memref<64x256xf32>, %b: memref<256x256xf32>) -> memref<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x256xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x256xf32>)
  linalg.matmul ins(%a, %b : memref<64x256xf32>, memref<256x256xf32>)
                outs(%c : memref<64x256xf32>)
  return %c : memref<64x256xf32>
}

// -----

// Tests that a cache tile's columns that are not whole vectors (120: a 1x1
// convolution computed in a depthwise one's 5-row windows of 24 columns)
// are split on AVX-512: 112 columns in whole 16-lane vectors, the last 8
// in tiles of their own, instead of all in 30-column tiles (vectors of 16,
// 8, 4 and 2 lanes), both parts starting from zero (the fill goes). AVX2's
// 8-lane vectors divide 120.
// AVX2-LABEL: func.func @columns_split
// AVX2:        vector.contract {{.*}} into vector<12x8xf32>
// AVX2-NOT:    vector.contract
// AVX512-LABEL: func.func @columns_split
// AVX512-NOT:  linalg.fill
// AVX512:      scf.for {{.*}} to %c112 step %c16
// AVX512:        vector.contract {{.*}} into vector<16x16xf32>
// AVX512:      vector.contract {{.*}} into vector<8x8xf32>
// AVX512-NOT:  x30xf32>
func.func @columns_split(%a: memref<960x160xf32>, %b: memref<160x120xf32>) -> memref<960x120xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<960x120xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<960x120xf32>)
  linalg.matmul ins(%a, %b : memref<960x160xf32>, memref<160x120xf32>)
                outs(%c : memref<960x120xf32>)
  return %c : memref<960x120xf32>
}

// -----

// Tests that with AVX2's 8-lane vectors a transpose of whole 16x16 blocks
// goes in 8x8 blocks of shuffles on 8-lane vectors (a 16x16 block's
// shuffles of 16 lanes are two registers each), and that 8x8 blocks of
// int32 (an int8 convolution's results) take the same shuffles; AVX-512
// keeps 16x16 blocks.
// AVX2-LABEL: func.func @block_transpose
// AVX2: vector.transfer_read {{.*}} : memref<32x48xf32>, vector<8x8xf32>
// AVX2: vector.shuffle %{{.*}}, %{{.*}} [0, 8, 1, 9, 4, 12, 5, 13] : vector<8xf32>, vector<8xf32>
// AVX2-NOT: vector.transpose
// AVX2: vector.transfer_write {{.*}} : vector<8x8xf32>
// AVX2-LABEL: func.func @int_block_transpose
// AVX2: vector.shuffle %{{.*}}, %{{.*}} [0, 8, 1, 9, 4, 12, 5, 13] : vector<8xi32>, vector<8xi32>
// AVX2-NOT: vector.transpose
// AVX2: vector.transfer_write {{.*}} : vector<1x8x1x8xi32>
// AVX512-LABEL: func.func @block_transpose
// AVX512: vector.transfer_read {{.*}} : memref<32x48xf32>, vector<16x16xf32>
func.func @block_transpose(%in: memref<32x48xf32>, %out: memref<48x32xf32>) {
  linalg.transpose ins(%in : memref<32x48xf32>) outs(%out : memref<48x32xf32>) permutation = [1, 0]
  return
}
#nhwc_to_nchw = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
#nchw = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @int_block_transpose(%in: memref<1x4x32x32xi32>, %out: memref<1x32x4x32xi32>) {
  linalg.generic {indexing_maps = [#nhwc_to_nchw, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%in : memref<1x4x32x32xi32>) outs(%out : memref<1x32x4x32xi32>) {
  ^bb0(%x: i32, %o: i32):
    linalg.yield %x : i32
  }
  return
}

// -----

// Tests that rows with no divisor near the register tile's (46: R(2+1)D's
// 230 output channels in cache tiles of 46) are split where the columns
// take one vector per row too: AVX-512's 112 columns are 7 vectors, no
// whole 32-column tiles, and 46 rows gave 2x16 tiles (2 accumulators);
// now 32 rows take 16x16 tiles and the last 14 their own 14x16. AVX2's
// 16-column tiles split the rows as before: 42 in 6x16 tiles, 4 in 4x16.
// AVX2-LABEL: func.func @one_vector_rows_split
// AVX2:          scf.for {{.*}} to %c42 step %c6
// AVX2:            vector.contract {{.*}} : vector<6x1xf32>, vector<1x16xf32> into vector<6x16xf32>
// AVX2:            vector.contract {{.*}} : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
// AVX512-LABEL: func.func @one_vector_rows_split
// AVX512:          scf.for {{.*}} to %c32 step %c16
// AVX512:            vector.contract {{.*}} : vector<16x1xf32>, vector<1x16xf32> into vector<16x16xf32>
// AVX512:            vector.contract {{.*}} : vector<14x1xf32>, vector<1x16xf32> into vector<14x16xf32>
// AVX512-NOT:        vector<2x1xf32>
func.func @one_vector_rows_split(%a: memref<46x576xf32>, %b: memref<576x112xf32>,
                                 %c: memref<46x112xf32>) {
  linalg.matmul ins(%a, %b : memref<46x576xf32>, memref<576x112xf32>)
                outs(%c : memref<46x112xf32>)
  return
}

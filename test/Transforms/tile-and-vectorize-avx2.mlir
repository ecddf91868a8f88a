// RUN: relay-mlir-opt %s --split-input-file --relay-set-target-cpu=cpu=znver3 --relay-tile-and-vectorize | FileCheck %s --check-prefix=AVX2
// RUN: relay-mlir-opt %s --split-input-file --relay-set-target-cpu=cpu=znver4 --relay-tile-and-vectorize | FileCheck %s --check-prefix=AVX512

// Tests that a product of 49 rows (a 7x7 map's positions: ResNet-18's last
// convolutions, multiplied transposed against packed weights) keeps its
// accumulators busy with AVX2's 16 vector registers: 49 has no divisor
// among AVX2's 4-row tiles, so instead of 1 row of 2 vectors (2
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

// Tests that rows the 4-row tiles divide keep AVX2's 4x16 register tile
// (8 accumulators).
// AVX2-LABEL: func.func @rows_of_four
// AVX2:        vector.contract {{.*}} : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
// AVX512-LABEL: func.func @rows_of_four
// AVX512:      vector.contract {{.*}} : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
func.func @rows_of_four(%a: memref<64x512xf32>, %b: memref<512x256xf32>,
                        %c: memref<64x256xf32>) {
  linalg.matmul ins(%a, %b : memref<64x512xf32>, memref<512x256xf32>)
                outs(%c : memref<64x256xf32>)
  return
}

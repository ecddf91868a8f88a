// RUN: relay-mlir-opt %s --split-input-file --relay-set-target-cpu=cpu=znver4 --relay-tile-and-vectorize | FileCheck %s

// A matmul: cache tiles (64x128x512), register tiles (8x32, k step 1), a
// vector.contract whose 8x32 accumulator stays in registers across k.
// CHECK-LABEL: func.func @matmul
// CHECK:       scf.for {{.*}} step %c64
// CHECK:         scf.for {{.*}} step %c128
// CHECK:           scf.for {{.*}} step %c512
// CHECK:             scf.for {{.*}} step %c8
// CHECK:               scf.for {{.*}} step %c32
// CHECK:                 %[[ACC:.*]] = vector.transfer_read %{{.*}} : memref<256x512xf32>, vector<8x32xf32>
// CHECK:                 %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[A:.*]] = %[[ACC]]) -> (vector<8x32xf32>)
// CHECK:                   vector.transfer_read %{{.*}} : memref<256x1024xf32>, vector<8x1xf32>
// CHECK:                   vector.transfer_read %{{.*}} : memref<1024x512xf32>, vector<1x32xf32>
// CHECK:                   vector.contract {{.*}} %[[A]] : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK:                 vector.transfer_write %[[SUM]]
// CHECK-NOT:   linalg.matmul
func.func @matmul(%a: memref<256x1024xf32>, %b: memref<1024x512xf32>,
                  %c: memref<256x512xf32>) {
  linalg.matmul ins(%a, %b : memref<256x1024xf32>, memref<1024x512xf32>)
                outs(%c : memref<256x512xf32>)
  return
}

// -----

// The accumulator stays in registers even when its buffer is reshaped
// afterwards (upstream's hoisting refuses buffers with view users): nothing
// else in the k loop touches the allocation.
// CHECK-LABEL: func.func @matmul_then_reshape
// CHECK:       %[[C:.*]] = memref.alloc() : memref<64x96xf32>
// CHECK:       %[[ACC:.*]] = vector.transfer_read %[[C]]{{.*}} : memref<64x96xf32>, vector<8x32xf32>
// CHECK:       %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[A:.*]] = %[[ACC]]) -> (vector<8x32xf32>)
// CHECK:         vector.contract {{.*}} %[[A]]
// CHECK:       vector.transfer_write %[[SUM]], %[[C]]
// CHECK:       memref.expand_shape %[[C]]
func.func @matmul_then_reshape(%a: memref<64x48xf32>, %b: memref<48x96xf32>) -> memref<1x64x8x12xf32> {
  %c = memref.alloc() : memref<64x96xf32>
  linalg.matmul ins(%a, %b : memref<64x48xf32>, memref<48x96xf32>)
                outs(%c : memref<64x96xf32>)
  %r = memref.expand_shape %c [[0, 1], [2, 3]] output_shape [1, 64, 8, 12] : memref<64x96xf32> into memref<1x64x8x12xf32>
  return %r : memref<1x64x8x12xf32>
}

// -----

// n = 208 (a 14x14 map padded to whole vectors) takes one vector per row:
// the register tile has 16 rows, so it still holds 16 accumulators.
// CHECK-LABEL: func.func @one_vector_per_row
// CHECK:       vector.contract {{.*}} : vector<16x1xf32>, vector<1x16xf32> into vector<16x16xf32>
func.func @one_vector_per_row(%a: memref<96x64xf32>, %b: memref<64x208xf32>,
                              %c: memref<96x208xf32>) {
  linalg.matmul ins(%a, %b : memref<96x64xf32>, memref<64x208xf32>)
                outs(%c : memref<96x208xf32>)
  return
}

// -----

// Sizes that the preferred tiles do not divide get the largest divisor, so
// every tile stays static: m = 100 gets 50 (cache) and 5 (register); n = 7 stays whole.
// CHECK-LABEL: func.func @odd_matmul
// CHECK:       vector.contract {{.*}} : vector<5x1xf32>, vector<1x7xf32> into vector<5x7xf32>
func.func @odd_matmul(%a: memref<100x3xf32>, %b: memref<3x7xf32>,
                      %c: memref<100x7xf32>) {
  linalg.matmul ins(%a, %b : memref<100x3xf32>, memref<3x7xf32>)
                outs(%c : memref<100x7xf32>)
  return
}

// -----

// Elementwise ops: the outer loop by one, the inner one as a vector.
// CHECK-LABEL: func.func @relu
// CHECK:       scf.for
// CHECK:         vector.transfer_read {{.*}} vector<1x64xf32>
// CHECK:         arith.maximumf {{.*}} : vector<1x64xf32>
// CHECK:         vector.transfer_write
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu(%x: memref<4x64xf32>, %y: memref<4x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x64xf32>) outs(%y : memref<4x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Ops the vectoriser does not take (NCHW pooling) are left whole for the
// loop lowering, and dynamic shapes are not scheduled.
// CHECK-LABEL: func.func @untouched
// CHECK:       linalg.pooling_nchw_max
// CHECK:       linalg.generic
// CHECK-NOT:   vector.
func.func @untouched(%x: memref<1x1x4x4xf32>, %w: memref<2x2xf32>,
                     %y: memref<1x1x3x3xf32>, %d: memref<?xf32>) {
  linalg.pooling_nchw_max ins(%x, %w : memref<1x1x4x4xf32>, memref<2x2xf32>)
                          outs(%y : memref<1x1x3x3xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>],
                  iterator_types = ["parallel"]} outs(%d : memref<?xf32>) {
  ^bb0(%out: f32):
    %r = arith.addf %out, %out : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A copy into a padded buffer's interior (a strided view) is vectorised as
// linalg.copy, not left to memrefCopy.
// CHECK-LABEL: func.func @pad_interior
// CHECK-NOT: memref.copy
// CHECK: vector.transfer_read %arg0{{.*}} vector<1x1x8xf32>
// CHECK: vector.transfer_write {{.*}} vector<1x1x8xf32>
func.func @pad_interior(%x: memref<1x4x8xf32>, %padded: memref<1x6x10xf32>) {
  %view = memref.subview %padded[0, 1, 1] [1, 4, 8] [1, 1, 1] : memref<1x6x10xf32> to memref<1x4x8xf32, strided<[60, 10, 1], offset: 11>>
  memref.copy %x, %view : memref<1x4x8xf32> to memref<1x4x8xf32, strided<[60, 10, 1], offset: 11>>
  return
}

// -----

// Rows read with a column stride of up to 4 (a strided window) become two
// in-bounds reads of the row's span (7 elements for 4 at stride 2): its
// first 4 and its last 4 elements, then a shuffle picking elements 0, 2
// (lanes 0, 2 of the first) and 4, 6 (lanes 1, 3 of the second).
// CHECK-LABEL: func.func @strided_window
// CHECK: %[[BASE:.*]], %[[OFFSET:.*]], %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata
// CHECK: %[[SPAN:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%[[OFFSET]]], sizes: [7], strides: [1]
// CHECK: %[[LOW:.*]] = vector.transfer_read %[[SPAN]][%c0], %{{.*}} {in_bounds = [true]} : memref<7xf32, strided<[1], offset: ?>>, vector<4xf32>
// CHECK: %[[HIGH:.*]] = vector.transfer_read %[[SPAN]][%c3], %{{.*}} {in_bounds = [true]} : memref<7xf32, strided<[1], offset: ?>>, vector<4xf32>
// CHECK: vector.shuffle %[[LOW]], %[[HIGH]] [0, 2, 5, 7] : vector<4xf32>, vector<4xf32>
// CHECK-NOT: vector.transfer_read %{{.*}} : memref<2x4xf32, strided<[64, 2]>>
func.func @strided_window(%x: memref<2x8x8xf32>, %out: memref<2x4xf32>) {
  %view = memref.subview %x[0, 0, 0] [2, 1, 4] [1, 1, 2] : memref<2x8x8xf32> to memref<2x4xf32, strided<[64, 2]>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%view : memref<2x4xf32, strided<[64, 2]>>) outs(%out : memref<2x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %o : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Larger strides keep one scalar load per element gathered into the vector.
// CHECK-LABEL: func.func @stride_5_window
// CHECK: memref.load %arg0[%{{.*}}, %c0, %c0] : memref<2x8x16xf32>
// CHECK: memref.load %arg0[%{{.*}}, %c0, %c5] : memref<2x8x16xf32>
// CHECK: memref.load %arg0[%{{.*}}, %c0, %c10] : memref<2x8x16xf32>
// CHECK: vector.from_elements {{.*}} : vector<3xf32>
func.func @stride_5_window(%x: memref<2x8x16xf32>, %out: memref<2x3xf32>) {
  %view = memref.subview %x[0, 0, 0] [2, 1, 3] [1, 1, 5] : memref<2x8x16xf32> to memref<2x3xf32, strided<[128, 5]>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%view : memref<2x3xf32, strided<[128, 5]>>) outs(%out : memref<2x3xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %o : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A zero stride (a row broadcast by its view) keeps the scalar loads.
// CHECK-LABEL: func.func @stride_0_window
// CHECK: vector.from_elements {{.*}} : vector<4xf32>
// CHECK-NOT: vector.shuffle
func.func @stride_0_window(%x: memref<8xf32>, %out: memref<2x4xf32>) {
  %view = memref.reinterpret_cast %x to offset: [0], sizes: [2, 4], strides: [1, 0] : memref<8xf32> to memref<2x4xf32, strided<[1, 0]>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%view : memref<2x4xf32, strided<[1, 0]>>) outs(%out : memref<2x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %o : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// The per-lane partial sums of a matrix-vector product (acc[n, l] +=
// x[k, l] * w[n, k, l]): eight rows at a time, so eight independent FMA
// chains share each vector of x, as multiply-adds (no vector.contract,
// whose outer-product lowering does not take this shape).
#x = affine_map<(n, k, l) -> (k, l)>
#w = affine_map<(n, k, l) -> (n, k, l)>
#acc = affine_map<(n, k, l) -> (n, l)>
// CHECK-LABEL: func.func @matvec_partials
// CHECK:       scf.for {{.*}} step %c8
// CHECK:         %[[ACC:.*]] = vector.transfer_read {{.*}} : memref<64x16xf32>, vector<8x16xf32>
// CHECK:         scf.for {{.*}} iter_args(%[[A:.*]] = %[[ACC]]) -> (vector<8x16xf32>)
// CHECK:           vector.fma {{.*}}, %[[A]] : vector<8x16xf32>
// CHECK-NOT:   vector.contract
func.func @matvec_partials(%x: memref<4x16xf32>, %w: memref<64x4x16xf32>, %acc: memref<64x16xf32>) {
  linalg.generic {indexing_maps = [#x, #w, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x, %w : memref<4x16xf32>, memref<64x4x16xf32>) outs(%acc : memref<64x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Tests that the partial sums over a buffer zeroed right before them start
// from zero in registers and the fill goes; with 2 rows (one register
// tile: no row loop around the k loop) the fill stays.
#x = affine_map<(n, k, l) -> (k, l)>
#w = affine_map<(n, k, l) -> (n, k, l)>
#acc = affine_map<(n, k, l) -> (n, l)>
// CHECK-LABEL: func.func @zeroed_matvec_partials
// CHECK-DAG:   %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8x16xf32>
// CHECK-NOT:   linalg.fill
// CHECK:       scf.for {{.*}} step %c8
// CHECK-NOT:     vector.transfer_read {{.*}} : memref<64x16xf32>
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (vector<8x16xf32>)
// CHECK:         vector.transfer_write {{.*}} : vector<8x16xf32>, memref<64x16xf32>
// CHECK-LABEL: func.func @zeroed_matvec_partials_two_rows
// CHECK:       vector.transfer_write {{.*}} : vector<1x16xf32>, memref<2x16xf32>
// CHECK:       vector.transfer_read {{.*}} : memref<2x16xf32>, vector<2x16xf32>
// CHECK:       scf.for
func.func @zeroed_matvec_partials(%x: memref<4x16xf32>, %w: memref<64x4x16xf32>) -> memref<64x16xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<64x16xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<64x16xf32>)
  linalg.generic {indexing_maps = [#x, #w, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x, %w : memref<4x16xf32>, memref<64x4x16xf32>) outs(%acc : memref<64x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return %acc : memref<64x16xf32>
}
func.func @zeroed_matvec_partials_two_rows(%x: memref<4x16xf32>, %w: memref<2x4x16xf32>) -> memref<2x16xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<2x16xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<2x16xf32>)
  linalg.generic {indexing_maps = [#x, #w, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x, %w : memref<4x16xf32>, memref<2x4x16xf32>) outs(%acc : memref<2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return %acc : memref<2x16xf32>
}

// -----

// Tests that rows summed over one vector each (a matrix-vector product's
// per-lane partial sums) go 16 rows at a time, summed as a tree of
// two-source shuffles (halves of 8, then chunks of 4, 2 and 1 partials):
// no reduction per row.
#in = affine_map<(i, j) -> (i, j)>
#out = affine_map<(i, j) -> (i)>
// CHECK-LABEL: func.func @row_sums
// CHECK:       scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK:       vector.transfer_read {{.*}} : memref<32x16xf32>, vector<16x16xf32>
// CHECK-COUNT-8: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23]
// CHECK-COUNT-4: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27]
// CHECK-COUNT-2: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29]
// CHECK:       vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]
// CHECK:       vector.shuffle %{{.*}}, %{{.*}} [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31]
// CHECK:       vector.transfer_write {{.*}} : vector<16xf32>, memref<32xf32>
// CHECK-NOT:   vector.reduction
// CHECK-NOT:   vector.multi_reduction
func.func @row_sums(%in: memref<32x16xf32>, %out: memref<32xf32>) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%in : memref<32x16xf32>) outs(%out : memref<32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Tests that rows of several vectors (or whose count is no multiple of 16)
// are reduced one by one, reassociated, so that LLVM adds each row's lanes
// as a tree rather than one after another.
#in = affine_map<(i, j) -> (i, j)>
#out = affine_map<(i, j) -> (i)>
// CHECK-LABEL: func.func @wide_row_sums
// CHECK:       vector.reduction <add>, %{{.*}}, %{{.*}} fastmath<reassoc> : vector<48xf32> into f32
// CHECK-NOT:   vector.multi_reduction
// CHECK-LABEL: func.func @few_row_sums
// CHECK:       vector.reduction <add>, %{{.*}}, %{{.*}} fastmath<reassoc> : vector<16xf32> into f32
// CHECK-NOT:   vector.multi_reduction
func.func @wide_row_sums(%in: memref<32x48xf32>, %out: memref<32xf32>) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%in : memref<32x48xf32>) outs(%out : memref<32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  }
  return
}
func.func @few_row_sums(%in: memref<40x16xf32>, %out: memref<40xf32>) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%in : memref<40x16xf32>) outs(%out : memref<40xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Tests that a row reduction whose length has no divisor of a register or
// more (197, a ViT's tokens: softmax's maximum) is reduced over whole
// vectors, then a 5-lane tail into the same accumulator, not one element
// at a time.
#in = affine_map<(i, j) -> (i, j)>
#out = affine_map<(i, j) -> (i)>
// CHECK-LABEL: func.func @prime_row_max
// CHECK:       scf.for %{{.*}} = %c0 to %c197 step %c1
// CHECK:         scf.for %{{.*}} = %c0 to %c192 step %c64
// CHECK:           vector.reduction <maximumf>, %{{.*}}, %{{.*}} : vector<64xf32> into f32
// CHECK:         vector.transfer_read %{{.*}}[%{{.*}}, %c192], {{.*}} : memref<197x197xf32>, vector<1x5xf32>
// CHECK:         vector.reduction <maximumf>, %{{.*}}, %{{.*}} : vector<5xf32> into f32
// CHECK-NOT:   vector<1x1xf32>, memref<197x197xf32>
func.func @prime_row_max(%in: memref<197x197xf32>, %out: memref<197xf32>) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%in : memref<197x197xf32>) outs(%out : memref<197xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %o, %a : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A product over a buffer zeroed right before it, with k in one cache tile
// (96 <= 512): its register tiles start from zero and the fill goes.
// CHECK-LABEL: func.func @zeroed_product
// CHECK-DAG:   %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8x32xf32>
// CHECK-NOT:   vector.transfer_write %{{.*}}, %[[C:.*]][{{.*}}] {{.*}} : vector<{{.*}}>, memref<64x256xf32>
// CHECK:       scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (vector<8x32xf32>)
// CHECK-NOT:   vector.transfer_read %{{.*}} : memref<64x256xf32>
// CHECK:       vector.transfer_write %{{.*}} : vector<8x32xf32>, memref<64x256xf32>
// CHECK-NOT:   linalg.fill
func.func @zeroed_product(%a: memref<64x96xf32>, %b: memref<96x256xf32>) -> memref<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x256xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x256xf32>)
  linalg.matmul ins(%a, %b : memref<64x96xf32>, memref<96x256xf32>)
                outs(%c : memref<64x256xf32>)
  return %c : memref<64x256xf32>
}

// -----

// Filled with another value: the fill stays (vectorised) and the product
// reads its accumulators.
// CHECK-LABEL: func.func @filled_with_one
// CHECK:       vector.transfer_write %{{.*}} : vector<{{.*}}>, memref<64x256xf32>
// CHECK:       %[[ACC:.*]] = vector.transfer_read %{{.*}} : memref<64x256xf32>, vector<8x32xf32>
// CHECK:       scf.for {{.*}} iter_args(%{{.*}} = %[[ACC]])
func.func @filled_with_one(%a: memref<64x96xf32>, %b: memref<96x256xf32>) -> memref<64x256xf32> {
  %one = arith.constant 1.0 : f32
  %c = memref.alloc() : memref<64x256xf32>
  linalg.fill ins(%one : f32) outs(%c : memref<64x256xf32>)
  linalg.matmul ins(%a, %b : memref<64x96xf32>, memref<96x256xf32>)
                outs(%c : memref<64x256xf32>)
  return %c : memref<64x256xf32>
}

// -----

// With k over several cache tiles (1024 = 2 x 512) the first k tile is
// peeled off and starts from zero; the second reads the accumulators the
// first wrote. No fill is left.
// CHECK-LABEL: func.func @long_k
// CHECK-DAG:   %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8x32xf32>
// CHECK-NOT:   vector<1x64xf32>
// CHECK:       scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (vector<8x32xf32>)
// CHECK:       vector.transfer_write %{{.*}} : vector<8x32xf32>, memref<64x256xf32>
// CHECK:       %[[ACC:.*]] = vector.transfer_read %{{.*}} : memref<64x256xf32>, vector<8x32xf32>
// CHECK:       scf.for {{.*}} iter_args(%{{.*}} = %[[ACC]])
// CHECK:       vector.transfer_write %{{.*}} : vector<8x32xf32>, memref<64x256xf32>
func.func @long_k(%a: memref<64x1024xf32>, %b: memref<1024x256xf32>) -> memref<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x256xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x256xf32>)
  linalg.matmul ins(%a, %b : memref<64x1024xf32>, memref<1024x256xf32>)
                outs(%c : memref<64x256xf32>)
  return %c : memref<64x256xf32>
}

// -----

// Bufferizing an insert_slice of a slice filled in place copies the slice
// onto itself: the copy goes.
// CHECK-LABEL: func.func @self_copy
// CHECK-NOT:   memref.copy
// CHECK-NOT:   linalg.copy
// CHECK:       return
func.func @self_copy(%m: memref<4x16xf32>) {
  %a = memref.subview %m[1, 0] [2, 16] [1, 1] : memref<4x16xf32> to memref<2x16xf32, strided<[16, 1], offset: 16>>
  %b = memref.subview %m[1, 0] [2, 16] [1, 1] : memref<4x16xf32> to memref<2x16xf32, strided<[16, 1], offset: 16>>
  memref.copy %a, %b : memref<2x16xf32, strided<[16, 1], offset: 16>> to memref<2x16xf32, strided<[16, 1], offset: 16>>
  return
}

// -----

// One register tile: the only loop is over k (which hoisting replaces), so
// the fill stays and the product reads its accumulator.
// CHECK-LABEL: func.func @one_register_tile
// CHECK:       vector.transfer_write %{{.*}} : vector<{{.*}}>, memref<8x32xf32>
// CHECK:       %[[ACC:.*]] = vector.transfer_read %{{.*}} : memref<8x32xf32>, vector<8x32xf32>
// CHECK:       scf.for {{.*}} iter_args(%{{.*}} = %[[ACC]])
func.func @one_register_tile(%a: memref<8x64xf32>, %b: memref<64x32xf32>) -> memref<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<8x32xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<8x32xf32>)
  linalg.matmul ins(%a, %b : memref<8x64xf32>, memref<64x32xf32>)
                outs(%c : memref<8x32xf32>)
  return %c : memref<8x32xf32>
}

// -----

// A transpose of whole 16x16 blocks goes block by block, each block's
// vector.transpose a network of shuffles (not one load per element).
// CHECK-LABEL: func.func @block_transpose
// CHECK: scf.for
// CHECK: scf.for
// CHECK: vector.transfer_read {{.*}} : memref<{{.*}}>, vector<16x16xf32>
// CHECK: vector.shuffle
// CHECK-NOT: vector.transpose
// CHECK: vector.transfer_write {{.*}} : vector<16x16xf32>
func.func @block_transpose(%in: memref<32x48xf32>, %out: memref<48x32xf32>) {
  linalg.transpose ins(%in : memref<32x48xf32>) outs(%out : memref<48x32xf32>) permutation = [1, 0]
  return
}

// -----

// A transpose whose output rows are not whole blocks (49 = 48 + 1) goes in
// 16x16 blocks of shuffles for the first 48 columns, and the last column
// on its own.
// CHECK-LABEL: func.func @ragged_transpose
// CHECK: scf.for
// CHECK: scf.for %{{.*}} = %c0 to %c48 step %c16
// CHECK: vector.transfer_read {{.*}} : memref<49x32xf32>, vector<16x16xf32>
// CHECK: vector.shuffle
// CHECK: vector.transfer_write {{.*}} : vector<16x16xf32>, memref<32x49xf32>
// CHECK: scf.for
// CHECK: vector.transfer_read %arg0[%c48, %{{.*}}]
// CHECK: return
func.func @ragged_transpose(%in: memref<49x32xf32>, %out: memref<32x49xf32>) {
  linalg.transpose ins(%in : memref<49x32xf32>) outs(%out : memref<32x49xf32>) permutation = [1, 0]
  return
}

// -----

// Tests that a transpose whose rows are whole 8-lane vectors but not
// 16-lane ones (56: MobileNet's 56x56 maps) goes in 8x8 blocks, each
// AVX2's 24 shuffles (unpack, shufps, 128-bit lane permutes), with no
// rest of columns read element by element.
// CHECK-LABEL: func.func @eight_wide_transpose
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c8
// CHECK: scf.for %{{.*}} = %c0 to %c56 step %c8
// CHECK: vector.transfer_read {{.*}} : memref<56x32xf32>, vector<8x8xf32>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 8, 1, 9, 4, 12, 5, 13] : vector<8xf32>, vector<8xf32>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 8, 9, 4, 5, 12, 13] : vector<8xf32>, vector<8xf32>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 8, 9, 10, 11] : vector<8xf32>, vector<8xf32>
// CHECK-NOT: vector.transpose
// CHECK: vector.transfer_write {{.*}} : vector<8x8xf32>, memref<32x56xf32>
// CHECK-NOT: scf.for
// CHECK: return
func.func @eight_wide_transpose(%in: memref<56x32xf32>, %out: memref<32x56xf32>) {
  linalg.transpose ins(%in : memref<56x32xf32>) outs(%out : memref<32x56xf32>) permutation = [1, 0]
  return
}

// -----

// Tests that NCHW -> NHWC of 14x14 maps (rows of 14: no whole blocks) goes
// with H and W as one dimension of 196 (memref.collapse_shape of both
// buffers): 16x16 blocks of shuffles over the first 192 positions, the last
// 4 read element by element.
// CHECK-LABEL: func.func @nchw_to_nhwc
// CHECK-DAG: memref.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : memref<2x32x14x14xf32> into memref<2x32x196xf32>
// CHECK-DAG: memref.collapse_shape %arg1 {{\[}}[0], [1, 2], [3]] : memref<2x14x14x32xf32> into memref<2x196x32xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c192 step %c16
// CHECK: vector.transfer_read {{.*}} : memref<2x32x196xf32>, vector<1x16x16xf32>
// CHECK: vector.shuffle
// CHECK: vector.transfer_write {{.*}} : vector<1x16x16xf32>, memref<2x196x32xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK: vector.transfer_read {{.*}} : memref<2x32x196xf32>, vector<1x32x1xf32>
// CHECK: return
func.func @nchw_to_nhwc(%in: memref<2x32x14x14xf32>, %out: memref<2x14x14x32xf32>) {
  linalg.transpose ins(%in : memref<2x32x14x14xf32>) outs(%out : memref<2x14x14x32xf32>) permutation = [0, 2, 3, 1]
  return
}

// -----

// Tests that NCHW -> NHWC read from a padded image's interior (strided
// rows: H and W cannot be one dimension) goes in 8x8 blocks over the first
// 8 of each row's 14 columns, the other 6 element by element.
// CHECK-LABEL: func.func @strided_nchw_to_nhwc
// CHECK-NOT: memref.collapse_shape
// CHECK: vector.transfer_read {{.*}} vector<1x8x1x8xf32>
// CHECK: vector.shuffle
// CHECK: vector.transfer_write {{.*}} : vector<1x1x8x8xf32>
// CHECK: vector.transfer_read {{.*}} vector<1x64x1x1xf32>
// CHECK: return
func.func @strided_nchw_to_nhwc(%padded: memref<2x64x16x16xf32>, %out: memref<2x14x14x64xf32>) {
  %in = memref.subview %padded[0, 0, 1, 1] [2, 64, 14, 14] [1, 1, 1, 1] : memref<2x64x16x16xf32> to memref<2x64x14x14xf32, strided<[16384, 256, 16, 1], offset: 17>>
  linalg.transpose ins(%in : memref<2x64x14x14xf32, strided<[16384, 256, 16, 1], offset: 17>>) outs(%out : memref<2x14x14x64xf32>) permutation = [0, 2, 3, 1]
  return
}

// -----

// Tests that an all-parallel generic of 32-bit elements reading its input
// through a transposition (an int8 convolution's [P, O] result read back
// into NCHW with its requantization) goes in 16x16 blocks too, a 4-d
// block with unit dimensions transposed as a 2-d one.
#nhwc_to_nchw = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
#nchw = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @transposing_generic
// CHECK: vector.transfer_read {{.*}} vector<1x1x16x16xi32>
// CHECK: arith.shrsi {{.*}} : vector<1x1x16x16xi32>
// CHECK: vector.shape_cast {{.*}} : vector<1x1x16x16xi32> to vector<16x16xi32>
// CHECK: vector.shuffle
// CHECK-NOT: vector.transpose
// CHECK: vector.transfer_write {{.*}} : vector<1x16x1x16xi32>
// CHECK: return
func.func @transposing_generic(%in: memref<1x4x32x32xi32>, %out: memref<1x32x4x32xi32>) {
  linalg.generic {indexing_maps = [#nhwc_to_nchw, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%in : memref<1x4x32x32xi32>) outs(%out : memref<1x32x4x32xi32>) {
  ^bb0(%x: i32, %o: i32):
    %c9 = arith.constant 9 : i32
    %y = arith.shrsi %x, %c9 : i32
    linalg.yield %y : i32
  }
  return
}

// -----

// A row that is not whole 16-lane vectors (56) goes as 48 lanes and a tail
// of 8, in the same loop over rows, instead of one vector of 56 lanes (3.5
// registers, each operation split by LLVM).
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @row_tail
// CHECK:       scf.for
// CHECK:         scf.for
// CHECK:           vector.transfer_read %arg0[%{{.*}}, %{{.*}}, %c0]{{.*}} vector<1x1x48xf32>
// CHECK:           vector.transfer_write {{.*}} vector<1x1x48xf32>
// CHECK:           vector.transfer_read %arg0[%{{.*}}, %{{.*}}, %c48]{{.*}} vector<1x1x8xf32>
// CHECK:           vector.transfer_write {{.*}} vector<1x1x8xf32>
// CHECK-NOT:   vector<1x1x56xf32>
func.func @row_tail(%x: memref<2x4x56xf32>, %y: memref<2x4x56xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#id3, #id3],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<2x4x56xf32>) outs(%y : memref<2x4x56xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// An op with more than 8 inputs (a depthwise convolution's taps and their
// broadcast weights) takes vectors of at most 32 lanes: a row of 56 is
// three vectors of 16 and a tail of 8. A reduction along the row is not
// split.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#ch = affine_map<(d0, d1) -> (d0)>
#sum = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @many_inputs
// CHECK:       scf.for %{{.*}} = %c0 to %c48 step %c16
// CHECK:         math.fma {{.*}} : vector<1x16xf32>
// CHECK:       math.fma {{.*}} : vector<1x8xf32>
// CHECK-LABEL: func.func @row_reduction
// CHECK-NOT:   vector<1x48xf32>
// CHECK:       vector.reduction <add>, %{{.*}} : vector<56xf32> into f32
func.func @many_inputs(%a: memref<4x56xf32>, %b: memref<4x56xf32>,
                       %c: memref<4x56xf32>, %d: memref<4x56xf32>,
                       %e: memref<4x56xf32>, %wa: memref<4xf32>,
                       %wb: memref<4xf32>, %wc: memref<4xf32>,
                       %wd: memref<4xf32>, %we: memref<4xf32>,
                       %y: memref<4x56xf32>) {
  linalg.generic {indexing_maps = [#id2, #ch, #id2, #ch, #id2, #ch, #id2, #ch,
                                   #id2, #ch, #id2],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a, %wa, %b, %wb, %c, %wc, %d, %wd, %e, %we
          : memref<4x56xf32>, memref<4xf32>, memref<4x56xf32>, memref<4xf32>,
            memref<4x56xf32>, memref<4xf32>, memref<4x56xf32>, memref<4xf32>,
            memref<4x56xf32>, memref<4xf32>)
      outs(%y : memref<4x56xf32>) {
  ^bb0(%x0: f32, %w0: f32, %x1: f32, %w1: f32, %x2: f32, %w2: f32, %x3: f32,
       %w3: f32, %x4: f32, %w4: f32, %o: f32):
    %s0 = arith.mulf %x0, %w0 : f32
    %s1 = math.fma %x1, %w1, %s0 : f32
    %s2 = math.fma %x2, %w2, %s1 : f32
    %s3 = math.fma %x3, %w3, %s2 : f32
    %s4 = math.fma %x4, %w4, %s3 : f32
    linalg.yield %s4 : f32
  }
  return
}
func.func @row_reduction(%x: memref<4x56xf32>, %y: memref<4xf32>) {
  linalg.generic {indexing_maps = [#id2, #sum],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x56xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Tests that a product whose B panel (all of k for one n tile: 32768 x 64
// floats, 8 MB) would not stay in the cache loops over k tiles outside the
// m tiles, so that each k tile of B is read once for every m tile.
// CHECK-LABEL: func.func @long_k
// CHECK:       scf.for {{.*}} to %c32768 step %c512
// CHECK:         scf.for {{.*}} to %c128 step %c64
// CHECK:           scf.for {{.*}} step %c8
// CHECK:             scf.for {{.*}} step %c32
// CHECK:               vector.contract
func.func @long_k(%a: memref<128x32768xf32>, %b: memref<32768x64xf32>,
                  %c: memref<128x64xf32>) {
  linalg.matmul ins(%a, %b : memref<128x32768xf32>, memref<32768x64xf32>)
                outs(%c : memref<128x64xf32>)
  return
}

// -----

// Tests that a reduction whose body does not read its input (a fill's
// value folded in by --relay-fuse-elementwise: sum(full(c, [3])) is
// `out + c` three times) is left to the loop lowering: upstream's
// vectoriser would add c once.
// CHECK-LABEL: func.func @invariant_reduction
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["reduction"]
// CHECK-NOT: vector.transfer_read
func.func @invariant_reduction(%in: memref<3xf32>, %out: memref<f32>) {
  %c = arith.constant 1.745 : f32
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                  iterator_types = ["reduction"]}
      ins(%in : memref<3xf32>) outs(%out : memref<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %c : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Tests that one element of a strided buffer, read to be broadcast, is a
// load: a 0-d transfer of it had no lowering to LLVM (found by the
// random-program differential run, seed 1048).
// CHECK-LABEL: func.func @broadcast_element
// CHECK: %[[E:.*]] = memref.load %arg0[%{{.*}}] : memref<1xi32, strided<[?], offset: ?>>
// CHECK-NOT: vector.transfer_read %arg0
// CHECK: vector.broadcast %[[E]]
func.func @broadcast_element(%a: memref<1xi32, strided<[?], offset: ?>>, %b: memref<4xi32>, %out: memref<4xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                  iterator_types = ["parallel"]}
      ins(%a, %b : memref<1xi32, strided<[?], offset: ?>>, memref<4xi32>) outs(%out : memref<4xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %m = arith.maxsi %x, %y : i32
    linalg.yield %m : i32
  }
  return
}

// -----

// Tests that a copy whose input map adds loop dimensions (windows of one
// image stacked: out[c, kh, kw, h, w] = in[c, h + kh, w + kw], which the
// linalg vectoriser does not take) goes row by row, each row one vector
// read of the input at the row's window and one vector write.
// CHECK-LABEL: func.func @stacked_windows
// CHECK: scf.for %[[C:.*]] = %c0 to %c2
// CHECK: scf.for %[[KH:.*]] = %c0 to %c3
// CHECK: scf.for %[[KW:.*]] = %c0 to %c3
// CHECK: scf.for %[[H:.*]] = %c0 to %c14
// CHECK: %[[ROW:.*]] = affine.apply #{{.*}}(%[[KH]], %[[H]])
// CHECK: %[[V:.*]] = vector.transfer_read %arg0[%[[C]], %[[ROW]], %[[KW]]], %{{.*}} {in_bounds = [true]} : memref<2x16x16xf32>, vector<14xf32>
// CHECK: vector.transfer_write %[[V]], %arg1[%[[C]], %[[KH]], %[[KW]], %[[H]], %c0] {in_bounds = [true]} : vector<14xf32>, memref<2x3x3x14x14xf32>
// CHECK-NOT: linalg.generic
func.func @stacked_windows(%in: memref<2x16x16xf32>, %out: memref<2x3x3x14x14xf32>) {
  linalg.generic {indexing_maps = [affine_map<(c, kh, kw, h, w) -> (c, h + kh, w + kw)>,
                                   affine_map<(c, kh, kw, h, w) -> (c, kh, kw, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%in : memref<2x16x16xf32>) outs(%out : memref<2x3x3x14x14xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// Tests that a copy whose input map is not linear in the loops (a floordiv
// and a mod: bf16 weights packed in pairs) is left whole for the loop
// lowering: a row of it does not step through one input dimension.
// CHECK-LABEL: func.func @divided_copy
// CHECK: linalg.generic
// CHECK-NOT: vector.transfer_read
func.func @divided_copy(%in: memref<4x2xf32>, %out: memref<2x4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i * 2 + j floordiv 2, j mod 2)>,
                                   affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<4x2xf32>) outs(%out : memref<2x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// Tests that a product on packed panels, out[no, mo, mi, ni] = sum_k
// a[mo, k, mi] * b[no, k, ni] with (mi, ni) one 8x32 register tile, is
// scheduled as BLIS does: k tiles of 128 (a panel's slice, 128 x 32
// floats, in two thirds of a Zen 4's 32 KB L1) outermost, in each every
// panel of B, its slice read by every m tile in turn, the register tile
// summing along k; the first k tile starts from zero (the fill goes).
// Each register tile prefetches into L2 the same row of the next panel of
// B (an argument, not packed here: its panels come from memory; the last
// panel prefetches its own row), two 64-byte lines of 32 floats.
#pa = affine_map<(no, mo, mi, ni, k) -> (mo, k, mi)>
#pb = affine_map<(no, mo, mi, ni, k) -> (no, k, ni)>
#pc = affine_map<(no, mo, mi, ni, k) -> (no, mo, mi, ni)>
// CHECK-LABEL: func.func @panel_product
// CHECK-DAG:   %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<1x1x8x32xf32>
// CHECK-NOT:   linalg.fill
// CHECK:       scf.for %[[NO:.*]] = %c0 to %c4 step %c1
// CHECK:         %[[NO1:.*]] = arith.addi %[[NO]], %c1 : index
// CHECK:         %[[NEXT:.*]] = arith.minsi %[[NO1]], %c3 : index
// CHECK:         scf.for %{{.*}} = %c0 to %c16 step %c1
// CHECK:           scf.for %{{.*}} = %c0 to %c128 step %c1 iter_args(%{{.*}} = %[[ZERO]])
// CHECK:             %[[ROW:.*]] = memref.subview %arg1[%[[NEXT]], %{{.*}}, 0] [1, 1, 32] [1, 1, 1]
// CHECK:             memref.prefetch %[[ROW]][%c0, %c0, %c0], read, locality<2>, data
// CHECK:             memref.prefetch %[[ROW]][%c0, %c0, %c16], read, locality<2>, data
// CHECK:             vector.contract
// CHECK:       scf.for %{{.*}} = %c128 to %c512 step %c128
// CHECK:         scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK:           scf.for %{{.*}} = %c0 to %c16 step %c1
// CHECK:             vector.transfer_read {{.*}} : memref<4x16x8x32xf32>, vector<1x1x8x32xf32>
// CHECK:             scf.for %{{.*}} = %c0 to %c128 step %c1 iter_args
// CHECK:               vector.contract
func.func @panel_product(%a: memref<16x512x8xf32>, %b: memref<4x512x32xf32>) -> memref<4x16x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<4x16x8x32xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x16x8x32xf32>)
  linalg.generic {indexing_maps = [#pa, #pb, #pc], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<16x512x8xf32>, memref<4x512x32xf32>) outs(%c : memref<4x16x8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return %c : memref<4x16x8x32xf32>
}

// -----

// Tests that a product on panels of a B packed here (a buffer allocated and
// written in the function, so in the cache) prefetches nothing.
#ra = affine_map<(no, mo, mi, ni, k) -> (mo, k, mi)>
#rb = affine_map<(no, mo, mi, ni, k) -> (no, k, ni)>
#rc = affine_map<(no, mo, mi, ni, k) -> (no, mo, mi, ni)>
// CHECK-LABEL: func.func @panel_product_packed_here
// CHECK-NOT:   memref.prefetch
// CHECK:       vector.contract
// CHECK-NOT:   memref.prefetch
// CHECK:       return
func.func @panel_product_packed_here(%a: memref<16x512x8xf32>, %b: memref<4x512x32xf32>) -> memref<4x16x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %packed = memref.alloc() : memref<4x512x32xf32>
  memref.copy %b, %packed : memref<4x512x32xf32> to memref<4x512x32xf32>
  %c = memref.alloc() : memref<4x16x8x32xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x16x8x32xf32>)
  linalg.generic {indexing_maps = [#ra, #rb, #rc], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %packed : memref<16x512x8xf32>, memref<4x512x32xf32>) outs(%c : memref<4x16x8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return %c : memref<4x16x8x32xf32>
}

// -----

// Tests that register tiles of 7 rows (a 7x7 map's positions) read their
// 7 elements of A as scalar loads, each broadcast by the outer products
// (LLVM would split a vector<7xf32> load and broadcast two of its lanes
// by shuffles on an FMA port), while B's row stays one vector read.
#sa = affine_map<(no, mo, mi, ni, k) -> (mo, k, mi)>
#sb = affine_map<(no, mo, mi, ni, k) -> (no, k, ni)>
#sc = affine_map<(no, mo, mi, ni, k) -> (no, mo, mi, ni)>
// CHECK-LABEL: func.func @panel_product_seven_rows
// CHECK:       scf.for %{{.*}} = %c0 to %c128 step %c1 iter_args
// CHECK-COUNT-7: memref.load %{{.*}} : memref<7x128x7xf32>
// CHECK:         vector.from_elements {{.*}} : vector<1x1x7xf32>
// CHECK:         vector.transfer_read {{.*}} : memref<4x128x32xf32>, vector<1x1x32xf32>
// CHECK:         vector.contract
func.func @panel_product_seven_rows(%a: memref<7x128x7xf32>, %b: memref<4x128x32xf32>) -> memref<4x7x7x32xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<4x7x7x32xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x7x7x32xf32>)
  linalg.generic {indexing_maps = [#sa, #sb, #sc], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<7x128x7xf32>, memref<4x128x32xf32>) outs(%c : memref<4x7x7x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return %c : memref<4x7x7x32xf32>
}

// -----

// Tests that a product on panels whose register tiles' rows are not
// contiguous in its result (out[mo, mi, no, ni]) and whose k spans several
// k tiles keeps the other products' schedule: no k tile of 128.
#qa = affine_map<(mo, mi, no, ni, k) -> (mo, k, mi)>
#qb = affine_map<(mo, mi, no, ni, k) -> (no, k, ni)>
#qc = affine_map<(mo, mi, no, ni, k) -> (mo, mi, no, ni)>
// CHECK-LABEL: func.func @panel_product_strided_rows
// CHECK-NOT:   step %c128
// CHECK:       vector.contract
func.func @panel_product_strided_rows(%a: memref<16x512x8xf32>, %b: memref<4x512x32xf32>) -> memref<16x8x4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<16x8x4x32xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<16x8x4x32xf32>)
  linalg.generic {indexing_maps = [#qa, #qb, #qc], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<16x512x8xf32>, memref<4x512x32xf32>) outs(%c : memref<16x8x4x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return %c : memref<16x8x4x32xf32>
}

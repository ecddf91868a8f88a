// RUN: relay-mlir-opt %s --split-input-file --relay-set-target-cpu=cpu=znver4 --relay-tile-and-vectorize=threads=2 | FileCheck %s
// With threads, the cache tiles of a large contraction are an scf.forall:
// over the m tiles when there are two or more per thread, with the n and k
// tiles sequential loops inside; the register tiles and the accumulator
// hoisting are as without threads.

// Tests that a product with 4 m tiles for 2 threads splits only m.
// CHECK-LABEL: func.func @matmul
// CHECK:       scf.forall (%{{.*}}) = (0) to (256) step (64)
// CHECK:         scf.for {{.*}} step %c128
// CHECK:           scf.for {{.*}} step %c512
// CHECK:             scf.for {{.*}} step %c8
// CHECK:               scf.for {{.*}} step %c32
// CHECK:                 scf.for {{.*}} iter_args(%{{.*}}) -> (vector<8x32xf32>)
// CHECK:                   vector.contract
func.func @matmul(%a: memref<256x1024xf32>, %b: memref<1024x512xf32>,
                  %c: memref<256x512xf32>) {
  linalg.matmul ins(%a, %b : memref<256x1024xf32>, memref<1024x512xf32>)
                outs(%c : memref<256x512xf32>)
  return
}

// -----

// Tests that with fewer m tiles than two per thread the forall runs over
// the m and n tiles.
// CHECK-LABEL: func.func @few_rows
// CHECK:       scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (128, 512) step (64, 128)
// CHECK:         scf.for {{.*}} step %c512
func.func @few_rows(%a: memref<128x1024xf32>, %b: memref<1024x512xf32>,
                    %c: memref<128x512xf32>) {
  linalg.matmul ins(%a, %b : memref<128x1024xf32>, memref<1024x512xf32>)
                outs(%c : memref<128x512xf32>)
  return
}

// -----

// A small contraction (2*32*32*32 flops) is not worth waking threads for.
// CHECK-LABEL: func.func @small
// CHECK-NOT: scf.forall
func.func @small(%a: memref<32x32xf32>, %b: memref<32x32xf32>,
                 %c: memref<32x32xf32>) {
  linalg.matmul ins(%a, %b : memref<32x32xf32>, memref<32x32xf32>)
                outs(%c : memref<32x32xf32>)
  return
}

// -----

// A short k (MobileNet-V2's pointwise convolutions) is split as well: with
// workers that spin, the tiles of a product streaming its output through
// memory still go twice as fast on two threads.
// CHECK-LABEL: func.func @short_k
// CHECK: scf.forall
func.func @short_k(%a: memref<512x64xf32>, %b: memref<64x12544xf32>,
                   %c: memref<512x12544xf32>) {
  linalg.matmul ins(%a, %b : memref<512x64xf32>, memref<64x12544xf32>)
                outs(%c : memref<512x12544xf32>)
  return
}

// -----

// A long k but too little work (2*16*64*512 flops, 1 MFLOP): each thread
// would get too little to pay for handing it over.
// CHECK-LABEL: func.func @below_threshold
// CHECK-NOT: scf.forall
func.func @below_threshold(%a: memref<16x512xf32>, %b: memref<512x64xf32>,
                           %c: memref<16x64xf32>) {
  linalg.matmul ins(%a, %b : memref<16x512xf32>, memref<512x64xf32>)
                outs(%c : memref<16x64xf32>)
  return
}

// -----

// Other ops with at least 2^17 iterations (elementwise, pooling, depthwise
// convolutions) split their outermost parallel loop with enough iterations
// (here the channels; the batch has one) across threads; the innermost
// loop stays the vectors (a 56-wide row: 48 lanes and a tail of 8).
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @large_elementwise
// CHECK:       scf.forall (%[[C:.*]]) in (64)
// CHECK:         scf.for
// CHECK:           vector.transfer_read {{.*}}[%{{.*}}, %[[C]], %{{.*}}, %{{.*}}]{{.*}} vector<1x1x1x48xf32>
// CHECK:           arith.maximumf
// CHECK:           vector.transfer_read {{.*}}[%{{.*}}, %[[C]], %{{.*}}, %c48]{{.*}} vector<1x1x1x8xf32>
func.func @large_elementwise(%x: memref<1x64x56x56xf32>,
                             %y: memref<1x64x56x56xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#map, #map],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<1x64x56x56xf32>) outs(%y : memref<1x64x56x56xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A smaller one (1x64x8x8) is not worth handing over.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @small_elementwise
// CHECK-NOT: scf.forall
func.func @small_elementwise(%x: memref<1x64x8x8xf32>,
                             %y: memref<1x64x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#map, #map],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<1x64x8x8xf32>) outs(%y : memref<1x64x8x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Tests that an op's work counts its iterations once per pair of operands
// it streams: with 3 inputs and 3 outputs (Winograd's input transform has
// 6 and 6), 1x64x32x32 iterations (2^16) are worth splitting; a copy of the
// same size is not.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @many_operands
// CHECK:       scf.forall (%{{.*}}) in (64)
// CHECK-LABEL: func.func @one_operand_pair
// CHECK-NOT:   scf.forall
// CHECK:       return
func.func @many_operands(%x: memref<1x64x32x32xf32>, %y: memref<1x64x32x32xf32>,
                         %z: memref<1x64x32x32xf32>, %a: memref<1x64x32x32xf32>,
                         %b: memref<1x64x32x32xf32>, %c: memref<1x64x32x32xf32>) {
  linalg.generic {indexing_maps = [#map, #map, #map, #map, #map, #map],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %y, %z : memref<1x64x32x32xf32>, memref<1x64x32x32xf32>, memref<1x64x32x32xf32>)
      outs(%a, %b, %c : memref<1x64x32x32xf32>, memref<1x64x32x32xf32>, memref<1x64x32x32xf32>) {
  ^bb0(%p: f32, %q: f32, %r: f32, %o0: f32, %o1: f32, %o2: f32):
    %s = arith.addf %p, %q : f32
    %d = arith.subf %q, %r : f32
    %m = arith.mulf %p, %r : f32
    linalg.yield %s, %d, %m : f32, f32, f32
  }
  return
}
func.func @one_operand_pair(%x: memref<1x64x32x32xf32>,
                            %y: memref<1x64x32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#map, #map],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<1x64x32x32xf32>) outs(%y : memref<1x64x32x32xf32>) {
  ^bb0(%p: f32, %o: f32):
    %r = arith.maximumf %p, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Tests that a product looping over k tiles outside its m tiles (a B panel
// of 8 MB) runs the m tiles of each k tile on the threads.
// CHECK-LABEL: func.func @long_k
// CHECK:       scf.for {{.*}} to %c32768 step %c512
// CHECK:         scf.forall (%{{.*}}) = (0) to (128) step (64)
// CHECK:           vector.contract
func.func @long_k(%a: memref<128x32768xf32>, %b: memref<32768x64xf32>,
                  %c: memref<128x64xf32>) {
  linalg.matmul ins(%a, %b : memref<128x32768xf32>, memref<32768x64xf32>)
                outs(%c : memref<128x64xf32>)
  return
}

// -----

// Tests that a transposition of 2^17 or more elements (a product's [P, C]
// result read back into NCHW, 784 positions x 512 channels) runs its rows
// of 16x16 blocks on the threads; each block stays a network of shuffles.
// CHECK-LABEL: func.func @large_transpose
// CHECK:       scf.forall (%{{.*}}) = (0) to (512) step (16)
// CHECK:         scf.for %{{.*}} = %c0 to %c784 step %c16
// CHECK:           vector.transfer_read {{.*}} : memref<784x512xf32>, vector<16x16xf32>
// CHECK:           vector.shuffle
// CHECK:           vector.transfer_write {{.*}} : vector<16x16xf32>, memref<512x784xf32>
func.func @large_transpose(%in: memref<784x512xf32>,
                           %out: memref<512x784xf32>) {
  linalg.transpose ins(%in : memref<784x512xf32>)
                   outs(%out : memref<512x784xf32>) permutation = [1, 0]
  return
}

// -----

// Tests that a transposition of ragged rows (4096 channels x 49 positions)
// runs its whole blocks on the threads and the rest of each row (the 49th
// position) after them on one.
// CHECK-LABEL: func.func @large_ragged_transpose
// CHECK:       scf.forall (%{{.*}}) = (0) to (4096) step (16)
// CHECK:         vector.shuffle
// CHECK:       }
// CHECK-NOT:   scf.forall
// CHECK:       vector.transfer_read %arg0[%c48, %{{.*}}]
func.func @large_ragged_transpose(%in: memref<49x4096xf32>,
                                  %out: memref<4096x49xf32>) {
  linalg.transpose ins(%in : memref<49x4096xf32>)
                   outs(%out : memref<4096x49xf32>) permutation = [1, 0]
  return
}

// -----

// Tests that a small transposition (32x48) stays on one thread.
// CHECK-LABEL: func.func @small_transpose
// CHECK-NOT:   scf.forall
// CHECK:       vector.shuffle
func.func @small_transpose(%in: memref<32x48xf32>, %out: memref<48x32xf32>) {
  linalg.transpose ins(%in : memref<32x48xf32>)
                   outs(%out : memref<48x32xf32>) permutation = [1, 0]
  return
}

// -----

// Tests that a product on packed panels gives each thread half of B's
// panels (4 panels of 32 columns: 2 each), the k tiles and the m tiles
// inside.
#pa = affine_map<(no, mo, mi, ni, k) -> (mo, k, mi)>
#pb = affine_map<(no, mo, mi, ni, k) -> (no, k, ni)>
#pc = affine_map<(no, mo, mi, ni, k) -> (no, mo, mi, ni)>
// CHECK-LABEL: func.func @panel_product
// CHECK:       scf.forall (%{{.*}}) = (0) to (4) step (2)
// CHECK:         scf.for %{{.*}} = %c0 to %c512 step %c128
// CHECK:           scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK:             scf.for %{{.*}} = %c0 to %c16 step %c1
// CHECK:               vector.contract
func.func @panel_product(%a: memref<16x512x8xf32>, %b: memref<4x512x32xf32>, %c: memref<4x16x8x32xf32>) {
  linalg.generic {indexing_maps = [#pa, #pb, #pc], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<16x512x8xf32>, memref<4x512x32xf32>) outs(%c : memref<4x16x8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

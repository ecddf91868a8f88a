// RUN: relay-mlir-opt %s \
// RUN:   --pass-pipeline='builtin.module(func.func(relay-gpu-map-parallel-loops))' \
// RUN: | mlir-opt --convert-scf-to-cf --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// RUN: relay-mlir-opt %s \
// RUN:   --pass-pipeline='builtin.module(func.func(relay-gpu-map-parallel-loops))' \
// RUN: | FileCheck %s --check-prefix=TILES

// Tests that products and convolutions that compute a tile of results per
// thread (4 x 4 and 2 x 2: along the columns and rows of a product, the
// filters and output columns of a convolution) compute what one result per
// thread does, run here on the CPU: each is compared with the same
// computation as a generic of three inputs (a constant 1 the third), which
// keeps one result per thread. Prints the largest difference (0: the sums
// run in the same order).

// TILES-LABEL: func.func @product
// TILES:         scf.for {{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// TILES-LABEL: func.func @small_product
// TILES:         scf.for {{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32)
// TILES-LABEL: func.func @convolution
// TILES:         scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)

#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
#one3 = affine_map<(m, n, k) -> ()>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#cin = affine_map<(n, f, y, x, c, h, w) -> (n, c, y + h, x + w)>
#cfl = affine_map<(n, f, y, x, c, h, w) -> (f, c, h, w)>
#cout = affine_map<(n, f, y, x, c, h, w) -> (n, f, y, x)>
#one7 = affine_map<(n, f, y, x, c, h, w) -> ()>
#all2 = affine_map<(d0, d1) -> ()>
#all4 = affine_map<(d0, d1, d2, d3) -> ()>
func.func private @printF32(f32)
func.func private @printNewline()

// Small integers from the indices, so every sum is exact.
func.func @data2(%a: memref<?x?xf32>, %s: index) {
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%a : memref<?x?xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %c13 = arith.constant 13 : index
    %m = arith.muli %i, %s : index
    %t = arith.addi %m, %j : index
    %r = arith.remui %t, %c13 : index
    %v = arith.subi %r, %c7 : index
    %w = arith.index_cast %v : index to i32
    %f = arith.sitofp %w : i32 to f32
    linalg.yield %f : f32
  }
  return
}

func.func @data4(%a: memref<?x?x?x?xf32>) {
  linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%a : memref<?x?x?x?xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %k = linalg.index 3 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c11 = arith.constant 11 : index
    %a1 = arith.muli %i, %c5 : index
    %a2 = arith.muli %j, %c3 : index
    %s1 = arith.addi %a1, %a2 : index
    %s2 = arith.addi %s1, %k : index
    %r = arith.remui %s2, %c11 : index
    %v = arith.subi %r, %c5 : index
    %w = arith.index_cast %v : index to i32
    %f = arith.sitofp %w : i32 to f32
    linalg.yield %f : f32
  }
  return
}

func.func @maxdiff2(%a: memref<?x?xf32>, %b: memref<?x?xf32>) {
  %m = memref.alloc() : memref<f32>
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%m : memref<f32>)
  linalg.generic {indexing_maps = [#id2, #id2, #all2], iterator_types = ["reduction", "reduction"]} ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%m : memref<f32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %d = arith.subf %x, %y : f32
    %e = math.absf %d : f32
    %r = arith.maximumf %acc, %e : f32
    linalg.yield %r : f32
  }
  %v = memref.load %m[] : memref<f32>
  call @printF32(%v) : (f32) -> ()
  call @printNewline() : () -> ()
  memref.dealloc %m : memref<f32>
  return
}

func.func @product(%a: memref<512x8xf32>, %b: memref<576x8xf32>, %c: memref<512x576xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<512x576xf32>)
  linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%a, %b : memref<512x8xf32>, memref<576x8xf32>) outs(%c : memref<512x576xf32>)
  return
}

func.func @small_product(%a: memref<256x8xf32>, %b: memref<288x8xf32>, %c: memref<256x288xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<256x288xf32>)
  linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%a, %b : memref<256x8xf32>, memref<288x8xf32>) outs(%c : memref<256x288xf32>)
  return
}

func.func @reference_product(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %z = arith.constant 0.0 : f32
  %one = memref.alloc() : memref<f32>
  %c1 = arith.constant 1.0 : f32
  memref.store %c1, %one[] : memref<f32>
  linalg.fill ins(%z : f32) outs(%c : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#mk, #nk, #one3, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b, %one : memref<?x?xf32>, memref<?x?xf32>, memref<f32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %u: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %q = arith.mulf %p, %u : f32
    %s = arith.addf %acc, %q : f32
    linalg.yield %s : f32
  }
  memref.dealloc %one : memref<f32>
  return
}

func.func @convolution(%i: memref<1x3x135x134xf32>, %f: memref<16x3x3x3xf32>, %o: memref<1x16x133x132xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%o : memref<1x16x133x132xf32>)
  linalg.conv_2d_nchw_fchw ins(%i, %f : memref<1x3x135x134xf32>, memref<16x3x3x3xf32>) outs(%o : memref<1x16x133x132xf32>)
  return
}

func.func @reference_convolution(%i: memref<?x?x?x?xf32>, %f: memref<?x?x?x?xf32>, %o: memref<?x?x?x?xf32>) {
  %z = arith.constant 0.0 : f32
  %one = memref.alloc() : memref<f32>
  %c1 = arith.constant 1.0 : f32
  memref.store %c1, %one[] : memref<f32>
  linalg.fill ins(%z : f32) outs(%o : memref<?x?x?x?xf32>)
  linalg.generic {indexing_maps = [#cin, #cfl, #one7, #cout], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%i, %f, %one : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>, memref<f32>) outs(%o : memref<?x?x?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %u: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %q = arith.mulf %p, %u : f32
    %s = arith.addf %acc, %q : f32
    linalg.yield %s : f32
  }
  memref.dealloc %one : memref<f32>
  return
}

func.func @main() {
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  // 4 x 4 results per thread.
  %a = memref.alloc() : memref<512x8xf32>
  %b = memref.alloc() : memref<576x8xf32>
  %c = memref.alloc() : memref<512x576xf32>
  %r = memref.alloc() : memref<512x576xf32>
  %ad = memref.cast %a : memref<512x8xf32> to memref<?x?xf32>
  %bd = memref.cast %b : memref<576x8xf32> to memref<?x?xf32>
  %cd = memref.cast %c : memref<512x576xf32> to memref<?x?xf32>
  %rd = memref.cast %r : memref<512x576xf32> to memref<?x?xf32>
  call @data2(%ad, %c3) : (memref<?x?xf32>, index) -> ()
  call @data2(%bd, %c5) : (memref<?x?xf32>, index) -> ()
  call @product(%a, %b, %c) : (memref<512x8xf32>, memref<576x8xf32>, memref<512x576xf32>) -> ()
  call @reference_product(%ad, %bd, %rd) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  // CHECK: 0
  call @maxdiff2(%cd, %rd) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  // 2 x 2.
  %a2 = memref.alloc() : memref<256x8xf32>
  %b2 = memref.alloc() : memref<288x8xf32>
  %c2 = memref.alloc() : memref<256x288xf32>
  %r2 = memref.alloc() : memref<256x288xf32>
  %a2d = memref.cast %a2 : memref<256x8xf32> to memref<?x?xf32>
  %b2d = memref.cast %b2 : memref<288x8xf32> to memref<?x?xf32>
  %c2d = memref.cast %c2 : memref<256x288xf32> to memref<?x?xf32>
  %r2d = memref.cast %r2 : memref<256x288xf32> to memref<?x?xf32>
  call @data2(%a2d, %c5) : (memref<?x?xf32>, index) -> ()
  call @data2(%b2d, %c3) : (memref<?x?xf32>, index) -> ()
  call @small_product(%a2, %b2, %c2) : (memref<256x8xf32>, memref<288x8xf32>, memref<256x288xf32>) -> ()
  call @reference_product(%a2d, %b2d, %r2d) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  // CHECK-NEXT: 0
  call @maxdiff2(%c2d, %r2d) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  // A convolution: 4 filters x 4 output columns per thread.
  %i = memref.alloc() : memref<1x3x135x134xf32>
  %f = memref.alloc() : memref<16x3x3x3xf32>
  %o = memref.alloc() : memref<1x16x133x132xf32>
  %ro = memref.alloc() : memref<1x16x133x132xf32>
  %id = memref.cast %i : memref<1x3x135x134xf32> to memref<?x?x?x?xf32>
  %fd = memref.cast %f : memref<16x3x3x3xf32> to memref<?x?x?x?xf32>
  %od = memref.cast %o : memref<1x16x133x132xf32> to memref<?x?x?x?xf32>
  %rod = memref.cast %ro : memref<1x16x133x132xf32> to memref<?x?x?x?xf32>
  call @data4(%id) : (memref<?x?x?x?xf32>) -> ()
  call @data4(%fd) : (memref<?x?x?x?xf32>) -> ()
  call @convolution(%i, %f, %o) : (memref<1x3x135x134xf32>, memref<16x3x3x3xf32>, memref<1x16x133x132xf32>) -> ()
  call @reference_convolution(%id, %fd, %rod) : (memref<?x?x?x?xf32>, memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) -> ()
  %oc = memref.collapse_shape %o [[0, 1, 2], [3]] : memref<1x16x133x132xf32> into memref<2128x132xf32>
  %rc = memref.collapse_shape %ro [[0, 1, 2], [3]] : memref<1x16x133x132xf32> into memref<2128x132xf32>
  %ocd = memref.cast %oc : memref<2128x132xf32> to memref<?x?xf32>
  %rcd = memref.cast %rc : memref<2128x132xf32> to memref<?x?xf32>
  // CHECK-NEXT: 0
  call @maxdiff2(%ocd, %rcd) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  memref.dealloc %a : memref<512x8xf32>
  memref.dealloc %b : memref<576x8xf32>
  memref.dealloc %c : memref<512x576xf32>
  memref.dealloc %r : memref<512x576xf32>
  memref.dealloc %a2 : memref<256x8xf32>
  memref.dealloc %b2 : memref<288x8xf32>
  memref.dealloc %c2 : memref<256x288xf32>
  memref.dealloc %r2 : memref<256x288xf32>
  memref.dealloc %i : memref<1x3x135x134xf32>
  memref.dealloc %f : memref<16x3x3x3xf32>
  memref.dealloc %o : memref<1x16x133x132xf32>
  memref.dealloc %ro : memref<1x16x133x132xf32>
  return
}

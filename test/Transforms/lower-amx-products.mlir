// RUN: relay-mlir-opt %s --split-input-file --relay-set-target-cpu=cpu=sapphirerapids --relay-lower-amx-products | FileCheck %s
// RUN: relay-mlir-opt %s --split-input-file --relay-set-target-cpu=cpu=cooperlake --relay-lower-amx-products | FileCheck %s --check-prefix=NOAMX

#a = affine_map<(m, n, k, j) -> (m, k * 2 + j)>
#b = affine_map<(m, n, k, j) -> (n floordiv 32, k, n mod 32, j)>
#out = affine_map<(m, n, k, j) -> (m, n)>

// Tests that a marked product over a buffer zeroed right before it becomes
// one loop over the 32x32 blocks of the result (2 x 3 here; marked for
// --relay-parallelize-loops), four 16x16 f32
// accumulator tiles from zero (the fill goes), and along k two 16x32 tiles
// of A and two of B (each panel's 64 rows of 32 pairs, panel after panel:
// column block c's tiles are at row (c / 32) * 64 + k / 2, columns 0 and
// 32) multiplied into them; that the
// function asks the runtime for the tiles first; and that a CPU without
// AMX (Cooper Lake has AVX-512 BF16 only) keeps the generic.
// CHECK:       func.func private @relay_rt_request_amx()
// CHECK-LABEL: func.func @product
// CHECK-SAME:    (%[[A:.*]]: memref<64x128xbf16>, %[[B:.*]]: memref<3x64x32x2xbf16>, %[[OUT:.*]]: memref<64x96xf32>)
// CHECK-NOT:   linalg.fill
// CHECK:       call @relay_rt_request_amx() : () -> ()
// CHECK:       %[[ROWS:.*]] = memref.collapse_shape %[[B]] {{\[}}[0, 1], [2, 3]] : memref<3x64x32x2xbf16> into memref<192x64xbf16>
// CHECK:       scf.for %[[BLOCK:.*]] = %c0 to %c6 step %c1 {
// CHECK:         %[[R:.*]] = arith.muli %{{.*}}, %c32
// CHECK:         %[[C:.*]] = arith.muli %{{.*}}, %c32
// CHECK-COUNT-4: amx.tile_zero : !amx.tile<16x16xf32>
// CHECK:         %[[PANEL:.*]] = arith.divui %[[C]], %c32
// CHECK:         %[[P0:.*]] = arith.muli %[[PANEL]], %c64
// CHECK:         %[[SUMS:.*]]:4 = scf.for %[[K:.*]] = %c0 to %c128 step %c32 iter_args
// CHECK:           %[[KQ:.*]] = arith.divui %[[K]], %c2
// CHECK:           %[[ROW:.*]] = arith.addi %[[P0]], %[[KQ]]
// CHECK:           amx.tile_load %[[A]][%[[R]], %[[K]]] : memref<64x128xbf16> into !amx.tile<16x32xbf16>
// CHECK:           amx.tile_load %[[A]]
// CHECK:           amx.tile_load %[[ROWS]][%[[ROW]], %c0] : memref<192x64xbf16> into !amx.tile<16x32xbf16>
// CHECK:           amx.tile_load %[[ROWS]][%[[ROW]], %c32]
// CHECK-COUNT-4:   amx.tile_mulf
// CHECK:           scf.yield
// CHECK:         amx.tile_store %[[OUT]][%[[R]], %[[C]]], %[[SUMS]]#0 : memref<64x96xf32>, !amx.tile<16x16xf32>
// CHECK-COUNT-3: amx.tile_store
// CHECK:       } {relay.independent_iterations}
// CHECK-NOT:   linalg.generic
// NOAMX-NOT:   amx.
// NOAMX:       linalg.fill
// NOAMX:       linalg.generic
func.func @product(%a: memref<64x128xbf16>, %b: memref<3x64x32x2xbf16>,
                   %out: memref<64x96xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<64x96xf32>)
  linalg.generic {indexing_maps = [#a, #b, #out],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<64x128xbf16>, memref<3x64x32x2xbf16>)
      outs(%out : memref<64x96xf32>) attrs = {relay.amx_tiles} {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#a = affine_map<(m, n, k, j) -> (m, k * 2 + j)>
#b = affine_map<(m, n, k, j) -> (n floordiv 32, k, n mod 32, j)>
#out = affine_map<(m, n, k, j) -> (m, n)>

// Tests that without a zero fill right before, the accumulators start from
// the result's values (the generic accumulates into its output).
// CHECK-LABEL: func.func @accumulate
// CHECK:         amx.tile_load %{{.*}} : memref<32x32xf32> into !amx.tile<16x16xf32>
// CHECK-NOT:     amx.tile_zero
// CHECK:         scf.for
func.func @accumulate(%a: memref<32x32xbf16>, %b: memref<1x16x32x2xbf16>,
                      %out: memref<32x32xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #out],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<32x32xbf16>, memref<1x16x32x2xbf16>)
      outs(%out : memref<32x32xf32>) attrs = {relay.amx_tiles} {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#a = affine_map<(m, n, k, j) -> (m, k * 2 + j)>
#b = affine_map<(m, n, k, j) -> (n floordiv 32, k, n mod 32, j)>
#out = affine_map<(m, n, k, j) -> (m, n)>

// Tests that a marked product whose sizes are not multiples of 32, or
// whose buffers are strided views, is left as it is (still correct).
// CHECK-LABEL: func.func @untileable
// CHECK-NOT:   amx.
// CHECK:       linalg.generic
// CHECK:       linalg.generic
func.func @untileable(%a: memref<16x32xbf16>, %b: memref<1x16x32x2xbf16>,
                      %out: memref<16x32xf32>,
                      %sa: memref<32x32xbf16, strided<[64, 1]>>,
                      %sout: memref<32x32xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #out],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<16x32xbf16>, memref<1x16x32x2xbf16>)
      outs(%out : memref<16x32xf32>) attrs = {relay.amx_tiles} {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#a, #b, #out],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%sa, %b : memref<32x32xbf16, strided<[64, 1]>>, memref<1x16x32x2xbf16>)
      outs(%sout : memref<32x32xf32>) attrs = {relay.amx_tiles} {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#a = affine_map<(m, n, k, j) -> (m, k * 2 + j)>
#b = affine_map<(m, n, k, j) -> (n floordiv 32, k, n mod 32, j)>
#out = affine_map<(m, n, k, j) -> (m, n)>

// Tests that a generic marked by hand that is not the product (here a
// difference) keeps its own meaning.
// CHECK-LABEL: func.func @not_a_product
// CHECK-NOT:   amx.
// CHECK:       linalg.generic
func.func @not_a_product(%a: memref<32x32xbf16>, %b: memref<1x16x32x2xbf16>,
                         %out: memref<32x32xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #out],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<32x32xbf16>, memref<1x16x32x2xbf16>)
      outs(%out : memref<32x32xf32>) attrs = {relay.amx_tiles} {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.subf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#a = affine_map<(m, n, k, j) -> (m, k * 2 + j)>
#b = affine_map<(m, n, k, j) -> (n floordiv 32, k, n mod 32, j)>
#out = affine_map<(m, n, k, j) -> (m, n)>

// Tests that where B has more columns than A has rows (a small image with
// many output channels) the rows' blocks are the inner ones: block i is
// row block i % 2 of column block i / 2, so each panel of B is read once.
// CHECK-LABEL: func.func @wide
// CHECK:       scf.for %[[BLOCK:.*]] = %c0 to %c8 step %c1 {
// CHECK:         %[[OUTER:.*]] = arith.divui %[[BLOCK]], %c2
// CHECK:         %[[INNER:.*]] = arith.remui %[[BLOCK]], %c2
// CHECK:         %[[R:.*]] = arith.muli %[[INNER]], %c32
// CHECK:         %[[C:.*]] = arith.muli %[[OUTER]], %c32
// CHECK:         amx.tile_load %{{.*}}[%[[R]], %[[C]]] : memref<64x128xf32> into !amx.tile<16x16xf32>
func.func @wide(%a: memref<64x32xbf16>, %b: memref<4x16x32x2xbf16>,
                %out: memref<64x128xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #out],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<64x32xbf16>, memref<4x16x32x2xbf16>)
      outs(%out : memref<64x128xf32>) attrs = {relay.amx_tiles} {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#a = affine_map<(m, n, k, j) -> (m, k * 4 + j)>
#b = affine_map<(m, n, k, j) -> (n floordiv 32, k, n mod 32, j)>
#out = affine_map<(m, n, k, j) -> (m, n)>

// Tests that an int8 product (B in two panels of 32 columns, quads along k)
// over a buffer zeroed right before it takes 16x16 int32 accumulators from
// zero, along k (128 bytes) two 16x64 byte tiles of A and two of B (each
// panel's 32 rows of quads, panel after panel: column block c's tiles are
// at row (c / 32) * 32 + k / 4, columns 0 and 64) multiplied as signed
// bytes (tile_muli without zext: tdpbssd); and that a CPU without AMX-INT8
// keeps the generic.
// CHECK-LABEL: func.func @int8
// CHECK-SAME:    (%[[A:.*]]: memref<32x128xi8>, %[[B:.*]]: memref<2x32x32x4xi8>, %[[OUT:.*]]: memref<32x64xi32>)
// CHECK-NOT:   linalg.fill
// CHECK:       %[[ROWS:.*]] = memref.collapse_shape %[[B]] {{\[}}[0, 1], [2, 3]] : memref<2x32x32x4xi8> into memref<64x128xi8>
// CHECK:       scf.for %[[BLOCK:.*]] = %c0 to %c2 step %c1 {
// CHECK:         %[[R:.*]] = arith.muli %{{.*}}, %c32
// CHECK:         %[[C:.*]] = arith.muli %{{.*}}, %c32
// CHECK-COUNT-4: amx.tile_zero : !amx.tile<16x16xi32>
// CHECK:         %[[PANEL:.*]] = arith.divui %[[C]], %c32
// CHECK:         %[[P0:.*]] = arith.muli %[[PANEL]], %c32
// CHECK:         %[[SUMS:.*]]:4 = scf.for %[[K:.*]] = %c0 to %c128 step %c64 iter_args
// CHECK:           %[[KQ:.*]] = arith.divui %[[K]], %c4
// CHECK:           %[[ROW:.*]] = arith.addi %[[P0]], %[[KQ]]
// CHECK:           amx.tile_load %[[A]][%[[R]], %[[K]]] : memref<32x128xi8> into !amx.tile<16x64xi8>
// CHECK:           amx.tile_load %[[A]]
// CHECK:           amx.tile_load %[[ROWS]][%[[ROW]], %c0] : memref<64x128xi8> into !amx.tile<16x64xi8>
// CHECK:           amx.tile_load %[[ROWS]][%[[ROW]], %c64]
// CHECK-COUNT-4:   amx.tile_muli %{{[^ ]*}}, %{{[^ ]*}}, %{{[^ ]*}} : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
// CHECK:           scf.yield
// CHECK:         amx.tile_store %[[OUT]][%[[R]], %[[C]]], %[[SUMS]]#0 : memref<32x64xi32>, !amx.tile<16x16xi32>
// NOAMX-LABEL: func.func @int8
// NOAMX-NOT:   amx.
// NOAMX:       linalg.generic
func.func @int8(%a: memref<32x128xi8>, %b: memref<2x32x32x4xi8>,
                %out: memref<32x64xi32>) {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%out : memref<32x64xi32>)
  linalg.generic {indexing_maps = [#a, #b, #out],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<32x128xi8>, memref<2x32x32x4xi8>)
      outs(%out : memref<32x64xi32>) attrs = {relay.amx_tiles} {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xi = arith.extsi %x : i8 to i32
    %yi = arith.extsi %y : i8 to i32
    %p = arith.muli %xi, %yi : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  return
}

// -----

#a = affine_map<(m, n, k, j) -> (m, k * 4 + j)>
#b = affine_map<(m, n, k, j) -> (n floordiv 32, k, n mod 32, j)>
#out = affine_map<(m, n, k, j) -> (m, n)>

// Tests that an int8 product whose k is not a multiple of a tile row (64
// bytes), or that extends its bytes unsigned (not tdpbssd's product), is
// left as it is.
// CHECK-LABEL: func.func @int8_untileable
// CHECK-NOT:   amx.
// CHECK-COUNT-2: linalg.generic
func.func @int8_untileable(%a: memref<32x32xi8>, %b: memref<1x8x32x4xi8>,
                           %a2: memref<32x64xi8>, %b2: memref<1x16x32x4xi8>,
                           %out: memref<32x32xi32>) {
  linalg.generic {indexing_maps = [#a, #b, #out],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<32x32xi8>, memref<1x8x32x4xi8>)
      outs(%out : memref<32x32xi32>) attrs = {relay.amx_tiles} {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xi = arith.extsi %x : i8 to i32
    %yi = arith.extsi %y : i8 to i32
    %p = arith.muli %xi, %yi : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  linalg.generic {indexing_maps = [#a, #b, #out],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a2, %b2 : memref<32x64xi8>, memref<1x16x32x4xi8>)
      outs(%out : memref<32x32xi32>) attrs = {relay.amx_tiles} {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xi = arith.extui %x : i8 to i32
    %yi = arith.extui %y : i8 to i32
    %p = arith.muli %xi, %yi : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  return
}

// RUN: relay-mlir-opt %s --relay-fuse-elementwise --split-input-file | FileCheck %s
// RUN: %python %S/Inputs/elementwise_chain.py 600 | relay-mlir-opt --relay-fuse-elementwise | FileCheck %s --check-prefix=LONG

// Tests that a chain of 600 elementwise ops fuses into bodies of at most 256
// operations (three generics), not one: each fusion copies the producer's
// body, so one body would cost 600^2 / 2 copied operations (50,000 chained
// adds took minutes to compile).
// LONG-LABEL: func.func @long_chain
// LONG-COUNT-3: linalg.generic
// LONG-NOT: linalg.generic

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

// A chain of elementwise ops, the second reading a broadcast bias: one
// generic computes both.
// CHECK-LABEL: func.func @chain
// CHECK: linalg.generic
// CHECK-SAME: ins(%arg0, %arg1, %arg2 :
// CHECK: arith.addf
// CHECK: arith.addf
// CHECK: math.tanh
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %bias: tensor<8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s, %bias : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    %h = math.tanh %r : f32
    linalg.yield %h : f32
  } -> tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#vec = affine_map<(d0) -> (d0)>

// A producer read through a broadcast would be recomputed per row, and one
// with two users would be computed twice: neither is fused.
// CHECK-LABEL: func.func @not_fused
// CHECK: math.exp
// CHECK: linalg.generic
// CHECK: math.tanh
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK: arith.mulf
// CHECK: return
func.func @not_fused(%v: tensor<8xf32>, %a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %e1 = tensor.empty() : tensor<8xf32>
  %exp = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]}
      ins(%v : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t, %exp : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %s, %t, %m : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#sum = affine_map<(d0, d1) -> (d0)>
#vec = affine_map<(d0) -> (d0)>

// A reduction is neither fused into its user nor given its producer.
// CHECK-LABEL: func.func @reduction
// CHECK: math.exp
// CHECK: linalg.generic
// CHECK-SAME: "reduction"
// CHECK: linalg.generic
// CHECK: math.log
func.func @reduction(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%z : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id, #sum], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %o, %v : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %l = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]}
      ins(%s : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.log %v : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %l : tensor<4xf32>
}

// -----

// An elementwise op after a loop of independent bands (a convolution's row
// bands) joins the loop, band by band: it reads each band while it is in
// the cache (and, here, merges with the band's own elementwise op). The
// loop no longer assembles the bands it made.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#bias = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @band_epilogue
// CHECK:       %[[R:.*]] = scf.for %[[I:.*]] = %c0 to %c8 step %c2 iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<1x4x8x16xf32>) {
// CHECK:         %[[E:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %arg1 : tensor<1x4x2x16xf32>, tensor<4xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:           arith.maximumf
// CHECK:         %[[IN:.*]] = tensor.insert_slice %[[E]] into %[[ACC]][0, 0, %[[I]], 0] [1, 4, 2, 16]
// CHECK:         scf.yield %[[IN]] : tensor<1x4x8x16xf32>
// CHECK:       } {relay.independent_iterations}
// CHECK-NOT:   linalg.generic
// CHECK:       return %[[R]]
func.func @band_epilogue(%x: tensor<1x4x8x16xf32>, %b: tensor<4xf32>) -> tensor<1x4x8x16xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x8x16xf32>
  %r = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %e) -> (tensor<1x4x8x16xf32>) {
    %s = tensor.extract_slice %x[0, 0, %i, 0] [1, 4, 2, 16] [1, 1, 1, 1] : tensor<1x4x8x16xf32> to tensor<1x4x2x16xf32>
    %be = tensor.empty() : tensor<1x4x2x16xf32>
    %t = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%s : tensor<1x4x2x16xf32>) outs(%be : tensor<1x4x2x16xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %a : f32
      linalg.yield %m : f32
    } -> tensor<1x4x2x16xf32>
    %in = tensor.insert_slice %t into %acc[0, 0, %i, 0] [1, 4, 2, 16] [1, 1, 1, 1] : tensor<1x4x2x16xf32> into tensor<1x4x8x16xf32>
    scf.yield %in : tensor<1x4x8x16xf32>
  } {relay.independent_iterations}
  %e2 = tensor.empty() : tensor<1x4x8x16xf32>
  %y = linalg.generic {indexing_maps = [#id4, #bias, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r, %b : tensor<1x4x8x16xf32>, tensor<4xf32>) outs(%e2 : tensor<1x4x8x16xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x8x16xf32>
  return %y : tensor<1x4x8x16xf32>
}

// -----

// The loop's result also used elsewhere (returned), or a loop not marked
// as independent bands: the elementwise op stays after the loop.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @band_result_used_twice
// CHECK:       scf.for
// CHECK:       }
// CHECK:       linalg.generic
// CHECK-LABEL: func.func @not_bands
// CHECK:       scf.for
// CHECK:       }
// CHECK:       linalg.generic
func.func @band_result_used_twice(%x: tensor<1x4x8x16xf32>) -> (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %e = tensor.empty() : tensor<1x4x8x16xf32>
  %r = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %e) -> (tensor<1x4x8x16xf32>) {
    %s = tensor.extract_slice %x[0, 0, %i, 0] [1, 4, 2, 16] [1, 1, 1, 1] : tensor<1x4x8x16xf32> to tensor<1x4x2x16xf32>
    %in = tensor.insert_slice %s into %acc[0, 0, %i, 0] [1, 4, 2, 16] [1, 1, 1, 1] : tensor<1x4x2x16xf32> into tensor<1x4x8x16xf32>
    scf.yield %in : tensor<1x4x8x16xf32>
  } {relay.independent_iterations}
  %e2 = tensor.empty() : tensor<1x4x8x16xf32>
  %y = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r : tensor<1x4x8x16xf32>) outs(%e2 : tensor<1x4x8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = math.tanh %a : f32
    linalg.yield %m : f32
  } -> tensor<1x4x8x16xf32>
  return %y, %r : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>
}
func.func @not_bands(%x: tensor<1x4x8x16xf32>) -> tensor<1x4x8x16xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %e = tensor.empty() : tensor<1x4x8x16xf32>
  %r = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %e) -> (tensor<1x4x8x16xf32>) {
    %s = tensor.extract_slice %x[0, 0, %i, 0] [1, 4, 2, 16] [1, 1, 1, 1] : tensor<1x4x8x16xf32> to tensor<1x4x2x16xf32>
    %in = tensor.insert_slice %s into %acc[0, 0, %i, 0] [1, 4, 2, 16] [1, 1, 1, 1] : tensor<1x4x2x16xf32> into tensor<1x4x8x16xf32>
    scf.yield %in : tensor<1x4x8x16xf32>
  }
  %e2 = tensor.empty() : tensor<1x4x8x16xf32>
  %y = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r : tensor<1x4x8x16xf32>) outs(%e2 : tensor<1x4x8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = math.tanh %a : f32
    linalg.yield %m : f32
  } -> tensor<1x4x8x16xf32>
  return %y : tensor<1x4x8x16xf32>
}

// -----

// A row kernel's loop (its vectors written along rows into the blocks it
// inserts): the elementwise op after it, here a bias reshaped after the
// loop and a clamp, is applied to each vector before it is written. The
// bias's reshape moves above the loop; no linalg op is left.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
// CHECK-LABEL: func.func @row_kernel_epilogue
// CHECK:       %[[B:.*]] = tensor.reshape %arg1
// CHECK:       %[[R:.*]] = scf.for %[[C0:.*]] = %c0 to %c4 step %c2 iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK:         arith.mulf
// CHECK:         %[[C:.*]] = arith.addi %[[C0]], %c1
// CHECK:         %[[BC:.*]] = tensor.extract %[[B]][%[[C]], %c0, %c0]
// CHECK:         %[[BV:.*]] = vector.broadcast %[[BC]] : f32 to vector<8xf32>
// CHECK:         %[[S:.*]] = arith.addf %{{.*}}, %[[BV]] : vector<8xf32>
// CHECK:         %[[M:.*]] = arith.maximumf %[[S]], %{{.*}} : vector<8xf32>
// CHECK:         vector.transfer_write %[[M]], %{{.*}}[%c0, %c1, %c0, %c0]
// CHECK:       } {relay.independent_iterations, relay.row_kernel}
// CHECK-NOT:   linalg.generic
// CHECK:       return %[[R]]
func.func @row_kernel_epilogue(%x: tensor<1x4x1x8xf32>, %b: tensor<4xf32>) -> tensor<1x4x1x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %pad = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x1x8xf32>
  %r = scf.for %c = %c0 to %c4 step %c2 iter_args(%acc = %e) -> (tensor<1x4x1x8xf32>) {
    %blk = tensor.empty() : tensor<1x2x1x8xf32>
    %c1abs = arith.addi %c, %c1 : index
    %v = vector.transfer_read %x[%c0, %c1abs, %c0, %c0], %pad {in_bounds = [true]} : tensor<1x4x1x8xf32>, vector<8xf32>
    %sq = arith.mulf %v, %v : vector<8xf32>
    %w = vector.transfer_write %sq, %blk[%c0, %c1, %c0, %c0] {in_bounds = [true]} : vector<8xf32>, tensor<1x2x1x8xf32>
    %in = tensor.insert_slice %w into %acc[0, %c, 0, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x4x1x8xf32>
    scf.yield %in : tensor<1x4x1x8xf32>
  } {relay.independent_iterations, relay.row_kernel}
  %shape = arith.constant dense<[4, 1, 1]> : tensor<3xi64>
  %b3 = tensor.reshape %b(%shape) : (tensor<4xf32>, tensor<3xi64>) -> tensor<4x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<1x4x1x8xf32>
  %y = linalg.generic {indexing_maps = [#id4, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r, %b3 : tensor<1x4x1x8xf32>, tensor<4x1x1xf32>) outs(%e2 : tensor<1x4x1x8xf32>) {
  ^bb0(%a: f32, %bias: f32, %o: f32):
    %s = arith.addf %a, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x1x8xf32>
  return %y : tensor<1x4x1x8xf32>
}

// -----

// Rows narrower than a chunk are written under a mask: the other input
// read along the row (a residual) is read under the same mask, and the
// write keeps it.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @row_kernel_masked
// CHECK:       scf.for %[[C0:.*]] = %c0 to %c4 step %c2
// CHECK:         %[[M:.*]] = vector.constant_mask [5] : vector<16xi1>
// CHECK:         %[[RES:.*]] = vector.transfer_read %arg1[{{.*}}], %{{.*}}, %[[M]] {in_bounds = [true]} : tensor<1x4x1x5xf32>, vector<16xf32>
// CHECK:         %[[S:.*]] = arith.addf %{{.*}}, %[[RES]] : vector<16xf32>
// CHECK:         vector.transfer_write %[[S]], %{{.*}}[%c0, %c1, %c0, %c0], %[[M]] {in_bounds = [true]}
// CHECK:       } {relay.independent_iterations, relay.row_kernel}
// CHECK-NOT:   linalg.generic
func.func @row_kernel_masked(%x: tensor<1x4x1x5xf32>, %res: tensor<1x4x1x5xf32>) -> tensor<1x4x1x5xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %pad = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x1x5xf32>
  %r = scf.for %c = %c0 to %c4 step %c2 iter_args(%acc = %e) -> (tensor<1x4x1x5xf32>) {
    %blk = tensor.empty() : tensor<1x2x1x5xf32>
    %mask = vector.constant_mask [5] : vector<16xi1>
    %c1abs = arith.addi %c, %c1 : index
    %v = vector.transfer_read %x[%c0, %c1abs, %c0, %c0], %pad, %mask {in_bounds = [true]} : tensor<1x4x1x5xf32>, vector<16xf32>
    %w = vector.transfer_write %v, %blk[%c0, %c1, %c0, %c0], %mask {in_bounds = [true]} : vector<16xf32>, tensor<1x2x1x5xf32>
    %in = tensor.insert_slice %w into %acc[0, %c, 0, 0] [1, 2, 1, 5] [1, 1, 1, 1] : tensor<1x2x1x5xf32> into tensor<1x4x1x5xf32>
    scf.yield %in : tensor<1x4x1x5xf32>
  } {relay.independent_iterations, relay.row_kernel}
  %e2 = tensor.empty() : tensor<1x4x1x5xf32>
  %y = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r, %res : tensor<1x4x1x5xf32>, tensor<1x4x1x5xf32>) outs(%e2 : tensor<1x4x1x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x4x1x5xf32>
  return %y : tensor<1x4x1x5xf32>
}

// -----

// A body the row vectors cannot take (it reads its loop indices): the op
// joins the blocks as a linalg op instead.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @row_kernel_index_body
// CHECK:       scf.for
// CHECK:         vector.transfer_write %{{.*}} : vector<8xf32>, tensor<1x2x1x8xf32>
// CHECK:         linalg.generic
// CHECK:           linalg.index 3
// CHECK:       } {relay.independent_iterations}
func.func @row_kernel_index_body(%x: tensor<1x4x1x8xf32>) -> tensor<1x4x1x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %pad = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x1x8xf32>
  %r = scf.for %c = %c0 to %c4 step %c2 iter_args(%acc = %e) -> (tensor<1x4x1x8xf32>) {
    %blk = tensor.empty() : tensor<1x2x1x8xf32>
    %v = vector.transfer_read %x[%c0, %c, %c0, %c0], %pad {in_bounds = [true]} : tensor<1x4x1x8xf32>, vector<8xf32>
    %w = vector.transfer_write %v, %blk[%c0, %c1, %c0, %c0] {in_bounds = [true]} : vector<8xf32>, tensor<1x2x1x8xf32>
    %in = tensor.insert_slice %w into %acc[0, %c, 0, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x4x1x8xf32>
    scf.yield %in : tensor<1x4x1x8xf32>
  } {relay.independent_iterations, relay.row_kernel}
  %e2 = tensor.empty() : tensor<1x4x1x8xf32>
  %y = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r : tensor<1x4x1x8xf32>) outs(%e2 : tensor<1x4x1x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 3 : index
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %s = arith.addf %a, %f : f32
    linalg.yield %s : f32
  } -> tensor<1x4x1x8xf32>
  return %y : tensor<1x4x1x8xf32>
}

// -----

// A row kernel over channel blocks that reads block c of an image only in
// its iteration c, after the loop of channel bands that makes the image,
// over the same blocks: the two loops merge, and each iteration reads the
// band it has just made. The image is no longer assembled. Tests too that
// a read under a mask (a partial chunk of a row) keeps its mask: without
// it, it would read past the row.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @merge_channel_blocks
// CHECK:       %[[MASK:.*]] = vector.constant_mask [5] : vector<8xi1>
// CHECK:       %[[R:.*]] = scf.for %[[C:.*]] = %c0 to %c4 step %c2 iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<1x4x1x8xf32>) {
// CHECK:         %[[BAND:.*]] = linalg.generic
// CHECK:         scf.for %[[CI:.*]] = %c0 to %c2 step %c1
// CHECK:           vector.transfer_read %[[BAND]][%c0, %[[CI]], %c0, %c0], %{{.*}} {in_bounds = [true]}
// CHECK:           vector.transfer_read %[[BAND]][%c0, %[[CI]], %c0, %c0], %{{.*}}, %[[MASK]] {in_bounds = [true]}
// CHECK:         tensor.insert_slice %{{.*}} into %[[ACC]][0, %[[C]], 0, 0] [1, 2, 1, 8]
// CHECK:       } {relay.independent_iterations}
// CHECK-NOT:   scf.for
// CHECK:       return %[[R]]
func.func @merge_channel_blocks(%x: tensor<1x4x1x8xf32>) -> tensor<1x4x1x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %pad = arith.constant 0.0 : f32
  %mask = vector.constant_mask [5] : vector<8xi1>
  %e = tensor.empty() : tensor<1x4x1x8xf32>
  %img = scf.for %c = %c0 to %c4 step %c2 iter_args(%acc = %e) -> (tensor<1x4x1x8xf32>) {
    %s = tensor.extract_slice %x[0, %c, 0, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x4x1x8xf32> to tensor<1x2x1x8xf32>
    %be = tensor.empty() : tensor<1x2x1x8xf32>
    %band = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%s : tensor<1x2x1x8xf32>) outs(%be : tensor<1x2x1x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %a : f32
      linalg.yield %m : f32
    } -> tensor<1x2x1x8xf32>
    %in = tensor.insert_slice %band into %acc[0, %c, 0, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x4x1x8xf32>
    scf.yield %in : tensor<1x4x1x8xf32>
  } {relay.independent_iterations}
  %e2 = tensor.empty() : tensor<1x4x1x8xf32>
  %out = scf.for %c = %c0 to %c4 step %c2 iter_args(%acc = %e2) -> (tensor<1x4x1x8xf32>) {
    %blk = tensor.empty() : tensor<1x2x1x8xf32>
    %p = scf.for %ci = %c0 to %c2 step %c1 iter_args(%b = %blk) -> (tensor<1x2x1x8xf32>) {
      %ch = arith.addi %c, %ci : index
      %v = vector.transfer_read %img[%c0, %ch, %c0, %c0], %pad {in_bounds = [true]} : tensor<1x4x1x8xf32>, vector<8xf32>
      %u = vector.transfer_read %img[%c0, %ch, %c0, %c0], %pad, %mask {in_bounds = [true]} : tensor<1x4x1x8xf32>, vector<8xf32>
      %d = arith.addf %v, %u : vector<8xf32>
      %w = vector.transfer_write %d, %b[%c0, %ci, %c0, %c0] {in_bounds = [true]} : vector<8xf32>, tensor<1x2x1x8xf32>
      scf.yield %w : tensor<1x2x1x8xf32>
    }
    %in = tensor.insert_slice %p into %acc[0, %c, 0, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x4x1x8xf32>
    scf.yield %in : tensor<1x4x1x8xf32>
  } {relay.independent_iterations, relay.row_kernel}
  return %out : tensor<1x4x1x8xf32>
}

// -----

// Blocks of another size (4 channels against bands of 2, of 8): no merge.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @other_blocks
// CHECK:       scf.for {{.*}} step %c2
// CHECK:       } {relay.independent_iterations}
// CHECK:       scf.for {{.*}} step %c4
// CHECK:       } {relay.independent_iterations, relay.row_kernel}
func.func @other_blocks(%x: tensor<1x8x1x8xf32>) -> tensor<1x8x1x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x1x8xf32>
  %img = scf.for %c = %c0 to %c8 step %c2 iter_args(%acc = %e) -> (tensor<1x8x1x8xf32>) {
    %s = tensor.extract_slice %x[0, %c, 0, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x8x1x8xf32> to tensor<1x2x1x8xf32>
    %in = tensor.insert_slice %s into %acc[0, %c, 0, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x8x1x8xf32>
    scf.yield %in : tensor<1x8x1x8xf32>
  } {relay.independent_iterations}
  %e2 = tensor.empty() : tensor<1x8x1x8xf32>
  %out = scf.for %c = %c0 to %c8 step %c4 iter_args(%acc = %e2) -> (tensor<1x8x1x8xf32>) {
    %blk = tensor.empty() : tensor<1x4x1x8xf32>
    %p = scf.for %ci = %c0 to %c4 step %c1 iter_args(%b = %blk) -> (tensor<1x4x1x8xf32>) {
      %ch = arith.addi %c, %ci : index
      %v = vector.transfer_read %img[%c0, %ch, %c0, %c0], %pad {in_bounds = [true]} : tensor<1x8x1x8xf32>, vector<8xf32>
      %w = vector.transfer_write %v, %b[%c0, %ci, %c0, %c0] {in_bounds = [true]} : vector<8xf32>, tensor<1x4x1x8xf32>
      scf.yield %w : tensor<1x4x1x8xf32>
    }
    %in = tensor.insert_slice %p into %acc[0, %c, 0, 0] [1, 4, 1, 8] [1, 1, 1, 1] : tensor<1x4x1x8xf32> into tensor<1x8x1x8xf32>
    scf.yield %in : tensor<1x8x1x8xf32>
  } {relay.independent_iterations, relay.row_kernel}
  return %out : tensor<1x8x1x8xf32>
}

// -----

// A loop of image windows (a depthwise convolution's row bands) reading
// an image that a 1x1 convolution makes (a fill, a contraction, a reshape
// into NCHW, a bias and ReLU): each iteration computes its own window of
// the image. The contraction reads only its columns of the input; nothing
// of the image's size is left.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @image_windows
// CHECK-NOT:   tensor<4x128xf32>
// CHECK:       scf.for %[[O:.*]] = %c0 to %c8 step %c4
// CHECK:         %[[COL:.*]] = affine.linearize_index disjoint [%[[O]], %c0] by (8, 16)
// CHECK:         %[[IN:.*]] = tensor.extract_slice %arg1[0, %[[COL]]] [2, 64] [1, 1]
// CHECK:         %[[FILL:.*]] = linalg.fill {{.*}} -> tensor<4x64xf32>
// CHECK:         %[[P:.*]] = linalg.generic {{.*}} ins(%arg0, %[[IN]] : tensor<4x2xf32>, tensor<2x64xf32>) outs(%[[FILL]] : tensor<4x64xf32>)
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[P]] {{.*}} into tensor<1x4x4x16xf32>
// CHECK:         %[[W:.*]] = linalg.generic {{.*}} ins(%[[E]], %arg2 : tensor<1x4x4x16xf32>, tensor<4x1x1xf32>)
// CHECK:         vector.transfer_read %[[W]]
// CHECK:       } {relay.image_windows, relay.independent_iterations}
// CHECK-NOT:   linalg
// CHECK:       return
func.func @image_windows(%w: tensor<4x2xf32>, %x: tensor<2x128xf32>, %b: tensor<4x1x1xf32>) -> tensor<1x4x8x16xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x128xf32>) -> tensor<4x128xf32>
  %p = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%w, %x : tensor<4x2xf32>, tensor<2x128xf32>) outs(%f : tensor<4x128xf32>) {
  ^bb0(%a: f32, %bb: f32, %o: f32):
    %m = arith.mulf %a, %bb : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x128xf32>
  %img = tensor.expand_shape %p [[0, 1], [2, 3]] output_shape [1, 4, 8, 16] : tensor<4x128xf32> into tensor<1x4x8x16xf32>
  %e1 = tensor.empty() : tensor<1x4x8x16xf32>
  %act = linalg.generic {indexing_maps = [#id4, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%img, %b : tensor<1x4x8x16xf32>, tensor<4x1x1xf32>) outs(%e1 : tensor<1x4x8x16xf32>) {
  ^bb0(%a: f32, %bias: f32, %o: f32):
    %s = arith.addf %a, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x4x8x16xf32>
  %out = tensor.empty() : tensor<1x4x8x16xf32>
  %r = scf.for %o = %c0 to %c8 step %c4 iter_args(%acc = %out) -> (tensor<1x4x8x16xf32>) {
    %win = tensor.extract_slice %act[0, 0, %o, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<1x4x8x16xf32> to tensor<1x4x4x16xf32>
    %v = vector.transfer_read %win[%c0, %c0, %c0, %c0], %zero {in_bounds = [true]} : tensor<1x4x4x16xf32>, vector<16xf32>
    %blk = tensor.empty() : tensor<1x4x4x16xf32>
    %wr = vector.transfer_write %v, %blk[%c0, %c0, %c0, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<1x4x4x16xf32>
    %in = tensor.insert_slice %wr into %acc[0, 0, %o, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<1x4x4x16xf32> into tensor<1x4x8x16xf32>
    scf.yield %in : tensor<1x4x8x16xf32>
  } {relay.image_windows, relay.independent_iterations}
  return %r : tensor<1x4x8x16xf32>
}

// -----

// An image that something else reads too is made whole, once.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @image_windows_shared
// CHECK:       %[[IMG:.*]] = linalg.generic
// CHECK:       scf.for
// CHECK:         tensor.extract_slice %[[IMG]]
// CHECK-NOT:     linalg.generic
// CHECK:       } {relay.image_windows, relay.independent_iterations}
func.func @image_windows_shared(%x: tensor<1x4x8x16xf32>) -> (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x4x8x16xf32>
  %act = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x4x8x16xf32>) outs(%e1 : tensor<1x4x8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x4x8x16xf32>
  %out = tensor.empty() : tensor<1x4x8x16xf32>
  %r = scf.for %o = %c0 to %c8 step %c4 iter_args(%acc = %out) -> (tensor<1x4x8x16xf32>) {
    %win = tensor.extract_slice %act[0, 0, %o, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<1x4x8x16xf32> to tensor<1x4x4x16xf32>
    %v = vector.transfer_read %win[%c0, %c0, %c0, %c0], %zero {in_bounds = [true]} : tensor<1x4x4x16xf32>, vector<16xf32>
    %blk = tensor.empty() : tensor<1x4x4x16xf32>
    %wr = vector.transfer_write %v, %blk[%c0, %c0, %c0, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<1x4x4x16xf32>
    %in = tensor.insert_slice %wr into %acc[0, 0, %o, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<1x4x4x16xf32> into tensor<1x4x8x16xf32>
    scf.yield %in : tensor<1x4x8x16xf32>
  } {relay.image_windows, relay.independent_iterations}
  return %r, %act : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>
}

// -----

// Tests that an elementwise op whose result is collapsed into the rows of a
// product and inserted at the start of a larger empty tensor (the rows
// padded to whole register tiles) computes in the collapsed shape into an
// empty tensor of that shape, its unit-dimension broadcast input (a layer
// norm's statistics, read at a constant index) collapsed too: empty-tensor
// elimination can then let it write into the padded buffer in place.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#stat = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#chan = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-LABEL: func.func @into_padded_rows(
// CHECK-SAME: %[[X:[^:]*]]: tensor<1x7x7x96xf32>, %[[S:[^:]*]]: tensor<1x7x7x1xf32>, %[[G:[^:]*]]: tensor<96xf32>
// CHECK-DAG: %[[XC:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1, 2], [3]] : tensor<1x7x7x96xf32> into tensor<49x96xf32>
// CHECK-DAG: %[[S3:.*]] = tensor.collapse_shape %[[S]] {{\[}}[0], [1], [2, 3]] : tensor<1x7x7x1xf32> into tensor<1x7x7xf32>
// CHECK-DAG: %[[SC:.*]] = tensor.collapse_shape %[[S3]] {{\[}}[0, 1, 2]] : tensor<1x7x7xf32> into tensor<49xf32>
// CHECK-DAG: %[[INIT:.*]] = tensor.empty() : tensor<49x96xf32>
// CHECK: %[[N:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[XC]], %[[SC]], %[[G]] : tensor<49x96xf32>, tensor<49xf32>, tensor<96xf32>) outs(%[[INIT]] : tensor<49x96xf32>)
// CHECK: arith.divf
// CHECK: arith.mulf
// CHECK: tensor.insert_slice %[[N]] into %{{.*}}[0, 0] [49, 96] [1, 1] : tensor<49x96xf32> into tensor<54x96xf32>
func.func @into_padded_rows(%x: tensor<1x7x7x96xf32>, %s: tensor<1x7x7x1xf32>, %g: tensor<96xf32>) -> tensor<54x96xf32> {
  %e = tensor.empty() : tensor<1x7x7x96xf32>
  %n = linalg.generic {indexing_maps = [#id4, #stat, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %s, %g : tensor<1x7x7x96xf32>, tensor<1x7x7x1xf32>, tensor<96xf32>) outs(%e : tensor<1x7x7x96xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %q = arith.divf %a, %b : f32
    %r = arith.mulf %q, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x7x7x96xf32>
  %rows = tensor.collapse_shape %n [[0, 1, 2], [3]] : tensor<1x7x7x96xf32> into tensor<49x96xf32>
  %p = tensor.empty() : tensor<54x96xf32>
  %i = tensor.insert_slice %rows into %p[0, 0] [49, 96] [1, 1] : tensor<49x96xf32> into tensor<54x96xf32>
  return %i : tensor<54x96xf32>
}

// -----

// Tests that a collapsed result inserted into a tensor that is not empty
// (its other elements are defined) keeps its shape.
// CHECK-LABEL: func.func @into_defined_rows(
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x7x7x96xf32>)
// CHECK: tensor.collapse_shape
func.func @into_defined_rows(%x: tensor<1x7x7x96xf32>, %d: tensor<54x96xf32>) -> tensor<54x96xf32> {
  %e = tensor.empty() : tensor<1x7x7x96xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x7x7x96xf32>) outs(%e : tensor<1x7x7x96xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<1x7x7x96xf32>
  %rows = tensor.collapse_shape %n [[0, 1, 2], [3]] : tensor<1x7x7x96xf32> into tensor<49x96xf32>
  %i = tensor.insert_slice %rows into %d[0, 0] [49, 96] [1, 1] : tensor<49x96xf32> into tensor<54x96xf32>
  return %i : tensor<54x96xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Tests that a gather (a lookup table read at computed indices) fuses with
// the cast of its indices but not into a larger elementwise op (a
// requantization): fused, the whole op would run in scalar loops; apart,
// the larger one vectorises.
// CHECK-LABEL: func.func @gather_apart
// CHECK: %[[R:.*]] = linalg.generic
// CHECK: arith.muli
// CHECK: arith.shrsi
// CHECK-NOT: tensor.extract
// CHECK: linalg.yield
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[R]] :
// CHECK: arith.extui
// CHECK: arith.index_cast
// CHECK: tensor.extract
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @gather_apart(%acc: tensor<4x8xi32>, %table: tensor<256xi8>) -> tensor<4x8xi8> {
  %e8 = tensor.empty() : tensor<4x8xi8>
  %e32 = tensor.empty() : tensor<4x8xi32>
  %c3 = arith.constant 3 : i32
  %c7 = arith.constant 7 : i32
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc : tensor<4x8xi32>) outs(%e8 : tensor<4x8xi8>) {
  ^bb0(%x: i32, %o: i8):
    %m = arith.muli %x, %c3 : i32
    %s = arith.shrsi %m, %c7 : i32
    %t = arith.trunci %s : i32 to i8
    linalg.yield %t : i8
  } -> tensor<4x8xi8>
  %i = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%q : tensor<4x8xi8>) outs(%e32 : tensor<4x8xi32>) {
  ^bb0(%x: i8, %o: i32):
    %w = arith.extui %x : i8 to i32
    linalg.yield %w : i32
  } -> tensor<4x8xi32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%i : tensor<4x8xi32>) outs(%e8 : tensor<4x8xi8>) {
  ^bb0(%x: i32, %o: i8):
    %k = arith.index_cast %x : i32 to index
    %v = tensor.extract %table[%k] : tensor<256xi8>
    linalg.yield %v : i8
  } -> tensor<4x8xi8>
  return %r : tensor<4x8xi8>
}

// RUN: relay-mlir-opt %s --split-input-file --relay-set-target-cpu=cpu=znver4 --relay-tile-and-vectorize | FileCheck %s
// The elementwise op right after a product that starts from zero (a
// convolution's bias and activation) runs on the product's register tiles:
// each tile's rows get the op's body in registers and are stored to the
// op's output; the product's buffer goes.

// Tests that a band of a 1x1 convolution (a [16, 64] product read back as
// [1, 16, 8, 8]) applies its bias and ReLU to the 8 rows of each 8x32 tile,
// reading the bias at its row's channel and storing into the output viewed
// as [16, 64]: a row of 32 positions spans four of the image's rows.
// CHECK-LABEL: func.func @band_bias_relu
// CHECK-NOT:   memref.alloc
// CHECK:       %[[OUT:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1], [2, 3]] : memref<1x16x8x8xf32, strided<[2048, 64, 8, 1], offset: ?>> into memref<16x64xf32, strided<[64, 1], offset: ?>>
// CHECK:       %[[TILE:.*]] = scf.for {{.*}} -> (vector<8x32xf32>)
// CHECK:       %[[ROW:.*]] = vector.extract %[[TILE]][0] : vector<32xf32> from vector<8x32xf32>
// CHECK:       %[[BIAS:.*]] = memref.load %{{.*}} : memref<32x1x1xf32>
// CHECK:       %[[SPLAT:.*]] = vector.broadcast %[[BIAS]] : f32 to vector<32xf32>
// CHECK:       %[[SUM:.*]] = arith.addf %[[ROW]], %[[SPLAT]] : vector<32xf32>
// CHECK:       %[[RELU:.*]] = arith.maximumf %[[SUM]], %{{.*}} : vector<32xf32>
// CHECK:       vector.transfer_write %[[RELU]], %[[OUT]][%{{.*}}, %{{.*}}] {in_bounds = [true]} : vector<32xf32>, memref<16x64xf32, strided<[64, 1], offset: ?>>
// CHECK-COUNT-7: vector.transfer_write %{{.*}}, %[[OUT]]
// CHECK-NOT:   vector.transfer_write
// CHECK-NOT:   linalg.generic
func.func @band_bias_relu(%w: memref<16x32xf32>, %x: memref<32x64xf32>,
                          %bias: memref<32x1x1xf32>, %out: memref<1x32x8x8xf32>,
                          %f: index) {
  %zero = arith.constant 0.0 : f32
  %band = memref.alloc() : memref<16x64xf32>
  linalg.fill ins(%zero : f32) outs(%band : memref<16x64xf32>)
  linalg.matmul ins(%w, %x : memref<16x32xf32>, memref<32x64xf32>)
                outs(%band : memref<16x64xf32>)
  %image = memref.expand_shape %band [[0, 1], [2, 3]] output_shape [1, 16, 8, 8] : memref<16x64xf32> into memref<1x16x8x8xf32>
  %b = memref.subview %bias[%f, 0, 0] [16, 1, 1] [1, 1, 1] : memref<32x1x1xf32> to memref<16x1x1xf32, strided<[1, 1, 1], offset: ?>>
  %o = memref.subview %out[0, %f, 0, 0] [1, 16, 8, 8] [1, 1, 1, 1] : memref<1x32x8x8xf32> to memref<1x16x8x8xf32, strided<[2048, 64, 8, 1], offset: ?>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%image, %b : memref<1x16x8x8xf32>, memref<16x1x1xf32, strided<[1, 1, 1], offset: ?>>)
      outs(%o : memref<1x16x8x8xf32, strided<[2048, 64, 8, 1], offset: ?>>) {
  ^bb0(%p: f32, %c: f32, %unused: f32):
    %s = arith.addf %p, %c : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Tests that an epilogue reading another tensor element for element (a
// residual) reads that tensor's row along with the tile's row (8x32 tiles:
// rows of 32).
// CHECK-LABEL: func.func @residual
// CHECK-NOT:   memref.alloc
// CHECK:       %[[TILE:.*]] = scf.for {{.*}} -> (vector<8x32xf32>)
// CHECK:       %[[ROW:.*]] = vector.extract %[[TILE]][0] : vector<32xf32> from vector<8x32xf32>
// CHECK:       %[[RES:.*]] = vector.transfer_read %{{.*}} : memref<64x256xf32>, vector<32xf32>
// CHECK:       %[[SUM:.*]] = arith.addf %[[ROW]], %[[RES]] : vector<32xf32>
// CHECK:       vector.transfer_write %[[SUM]], %{{.*}} : vector<32xf32>, memref<64x256xf32>
// CHECK-NOT:   linalg.generic
func.func @residual(%a: memref<64x96xf32>, %b: memref<96x256xf32>,
                    %res: memref<64x256xf32>, %out: memref<64x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x256xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x256xf32>)
  linalg.matmul ins(%a, %b : memref<64x96xf32>, memref<96x256xf32>)
                outs(%c : memref<64x256xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c, %res : memref<64x256xf32>, memref<64x256xf32>)
      outs(%out : memref<64x256xf32>) {
  ^bb0(%p: f32, %r: f32, %unused: f32):
    %s = arith.addf %p, %r : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Tests that a scalar input of the epilogue (a leaky ReLU's slope) is
// broadcast to the rows.
// CHECK-LABEL: func.func @scalar_input(
// CHECK-SAME:  %[[SLOPE:[a-z0-9]+]]: f32
// CHECK-NOT:   memref.alloc
// CHECK:       %[[SPLAT:.*]] = vector.broadcast %[[SLOPE]] : f32 to vector<32xf32>
// CHECK:       arith.mulf %{{.*}}, %[[SPLAT]] : vector<32xf32>
// CHECK-NOT:   linalg.generic
func.func @scalar_input(%a: memref<64x96xf32>, %b: memref<96x256xf32>,
                        %out: memref<64x256xf32>, %slope: f32) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x256xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x256xf32>)
  linalg.matmul ins(%a, %b : memref<64x96xf32>, memref<96x256xf32>)
                outs(%c : memref<64x256xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c, %slope : memref<64x256xf32>, f32)
      outs(%out : memref<64x256xf32>) {
  ^bb0(%p: f32, %s: f32, %unused: f32):
    %m = arith.mulf %p, %s : f32
    %r = arith.maximumf %p, %m : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Tests that with k over two cache tiles (the second reads back what the
// first stored) the epilogue stays an op of its own, after the product,
// reading its buffer.
// CHECK-LABEL: func.func @long_k
// CHECK:       %[[C:.*]] = memref.alloc() : memref<64x256xf32>
// CHECK:       vector.transfer_read %[[C]]{{.*}} : memref<64x256xf32>, vector<8x32xf32>
// CHECK:       scf.for
// CHECK:       vector.transfer_read %[[C]]{{.*}} : memref<64x256xf32>, vector<1x64xf32>
// CHECK:       arith.maximumf
func.func @long_k(%a: memref<64x1024xf32>, %b: memref<1024x256xf32>,
                  %out: memref<64x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x256xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x256xf32>)
  linalg.matmul ins(%a, %b : memref<64x1024xf32>, memref<1024x256xf32>)
                outs(%c : memref<64x256xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x256xf32>) outs(%out : memref<64x256xf32>) {
  ^bb0(%p: f32, %unused: f32):
    %r = arith.maximumf %p, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Tests that an epilogue reading the product transposed, or writing where
// the product reads, stays an op of its own.
// CHECK-LABEL: func.func @transposed
// CHECK:       memref.alloc() : memref<64x256xf32>
// CHECK-LABEL: func.func @in_place
// CHECK:       memref.alloc() : memref<64x64xf32>
func.func @transposed(%a: memref<64x96xf32>, %b: memref<96x256xf32>,
                      %out: memref<256x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x256xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x256xf32>)
  linalg.matmul ins(%a, %b : memref<64x96xf32>, memref<96x256xf32>)
                outs(%c : memref<64x256xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x256xf32>) outs(%out : memref<256x64xf32>) {
  ^bb0(%p: f32, %unused: f32):
    %r = arith.maximumf %p, %zero : f32
    linalg.yield %r : f32
  }
  return
}
func.func @in_place(%a: memref<64x64xf32>, %b: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>)
                outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%a : memref<64x64xf32>) {
  ^bb0(%p: f32, %unused: f32):
    %r = arith.maximumf %p, %zero : f32
    linalg.yield %r : f32
  }
  return
}

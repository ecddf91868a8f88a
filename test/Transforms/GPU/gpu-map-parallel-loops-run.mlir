// RUN: relay-mlir-opt %s \
// RUN:   --pass-pipeline='builtin.module(func.func(relay-gpu-map-parallel-loops{block-size=64}))' \
// RUN: | mlir-opt --convert-scf-to-cf --expand-strided-metadata --lower-affine \
// RUN:   --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s

// Tests that the loops --relay-gpu-map-parallel-loops makes compute what the
// linalg ops did, run here on the CPU (blocks and threads in sequence): a
// product whose reduction is its middle loop (interchanged inside), a sum
// over a middle axis, a whole matrix's sum (one thread), a sum over two axes (nested loops carrying the
// accumulator), border strips filled by one kernel, copies of a strided view and of 600 elements in blocks
// of 64 (a partial last block). Inputs: a[i, j] = 10 * i + j.

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#mk = affine_map<(d0, d1, d2) -> (d0, d1)>
#kn = affine_map<(d0, d1, d2) -> (d1, d2)>
#mn = affine_map<(d0, d1, d2) -> (d0, d2)>
#in3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out3 = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func private @printMemrefF32(memref<*xf32>)

func.func @iota(%a: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%a : memref<?x?xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c10 = arith.constant 10 : index
    %m = arith.muli %i, %c10 : index
    %s = arith.addi %m, %j : index
    %t = arith.index_cast %s : index to i32
    %f = arith.sitofp %t : i32 to f32
    linalg.yield %f : f32
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<3x5xf32>
  %b = memref.alloc() : memref<5x37xf32>
  %c = memref.alloc() : memref<3x37xf32>
  %ad = memref.cast %a : memref<3x5xf32> to memref<?x?xf32>
  %bd = memref.cast %b : memref<5x37xf32> to memref<?x?xf32>
  call @iota(%ad) : (memref<?x?xf32>) -> ()
  call @iota(%bd) : (memref<?x?xf32>) -> ()
  linalg.fill ins(%c0 : f32) outs(%c : memref<3x37xf32>)
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<3x5xf32>, memref<5x37xf32>) outs(%c : memref<3x37xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  // c[i, j] = sum_k (10 i + k) (10 k + j)
  // CHECK: sizes = [3, 37]
  // CHECK-NEXT: [300, 310, 320, 330, 340, 350, 360, 370, 380, 390, 400, 410, 420, 430, 440, 450, 460, 470, 480, 490, 500, 510, 520, 530, 540, 550, 560, 570, 580, 590, 600, 610, 620, 630, 640, 650, 660],
  // CHECK-NEXT: [1300, 1360, 1420, 1480, 1540, 1600, 1660, 1720, 1780, 1840, 1900, 1960, 2020, 2080, 2140, 2200, 2260, 2320, 2380, 2440, 2500, 2560, 2620, 2680, 2740, 2800, 2860, 2920, 2980, 3040, 3100, 3160, 3220, 3280, 3340, 3400, 3460],
  // CHECK-NEXT: [2300, 2410, 2520, 2630, 2740, 2850, 2960, 3070, 3180, 3290, 3400, 3510, 3620, 3730, 3840, 3950, 4060, 4170, 4280, 4390, 4500, 4610, 4720, 4830, 4940, 5050, 5160, 5270, 5380, 5490, 5600, 5710, 5820, 5930, 6040, 6150, 6260]]
  %cu = memref.cast %c : memref<3x37xf32> to memref<*xf32>
  call @printMemrefF32(%cu) : (memref<*xf32>) -> ()
  // The whole of a: one thread's sum.
  %total = memref.alloc() : memref<f32>
  linalg.fill ins(%c0 : f32) outs(%total : memref<f32>)
  linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%a : memref<3x5xf32>) outs(%total : memref<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  // CHECK: rank = 0
  // CHECK-NEXT: [180]
  %tu = memref.cast %total : memref<f32> to memref<*xf32>
  call @printMemrefF32(%tu) : (memref<*xf32>) -> ()
  memref.dealloc %total : memref<f32>

  %t = memref.alloc() : memref<2x3x4xf32>
  %tv = memref.collapse_shape %t [[0, 1], [2]] : memref<2x3x4xf32> into memref<6x4xf32>
  %tvd = memref.cast %tv : memref<6x4xf32> to memref<?x?xf32>
  call @iota(%tvd) : (memref<?x?xf32>) -> ()
  %r = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%c0 : f32) outs(%r : memref<2x4xf32>)
  linalg.generic {indexing_maps = [#in3, #out3], iterator_types = ["parallel", "reduction", "parallel"]} ins(%t : memref<2x3x4xf32>) outs(%r : memref<2x4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  // CHECK: sizes = [2, 4]
  // CHECK-NEXT: [30, 33, 36, 39],
  // CHECK-NEXT: [120, 123, 126, 129]]
  %ru = memref.cast %r : memref<2x4xf32> to memref<*xf32>
  call @printMemrefF32(%ru) : (memref<*xf32>) -> ()
  // Two nested reduction loops (a window's sum), both carrying the
  // accumulator.
  %r2 = memref.alloc() : memref<2xf32>
  linalg.fill ins(%c0 : f32) outs(%r2 : memref<2xf32>)
  linalg.generic {indexing_maps = [#in3, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%t : memref<2x3x4xf32>) outs(%r2 : memref<2xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  // CHECK: sizes = [2]
  // CHECK-NEXT: [138, 498]
  %r2u = memref.cast %r2 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%r2u) : (memref<*xf32>) -> ()

  %view = memref.subview %b[2, 1] [3, 3] [1, 1] : memref<5x37xf32> to memref<3x3xf32, strided<[37, 1], offset: 75>>
  %dst = memref.alloc() : memref<3x3xf32>
  memref.copy %view, %dst : memref<3x3xf32, strided<[37, 1], offset: 75>> to memref<3x3xf32>
  // CHECK: sizes = [3, 3]
  // CHECK-NEXT: [21, 22, 23],
  // CHECK-NEXT: [31, 32, 33],
  // CHECK-NEXT: [41, 42, 43]]
  %du = memref.cast %dst : memref<3x3xf32> to memref<*xf32>
  call @printMemrefF32(%du) : (memref<*xf32>) -> ()

  %big = memref.alloc() : memref<20x30xf32>
  %bigd = memref.cast %big : memref<20x30xf32> to memref<?x?xf32>
  call @iota(%bigd) : (memref<?x?xf32>) -> ()
  %big2 = memref.alloc() : memref<20x30xf32>
  memref.copy %big, %big2 : memref<20x30xf32> to memref<20x30xf32>
  %last = memref.subview %big2[19, 27] [1, 3] [1, 1] : memref<20x30xf32> to memref<1x3xf32, strided<[30, 1], offset: 597>>
  // CHECK: sizes = [1, 3]
  // CHECK-NEXT: [217, 218, 219]]
  %lu = memref.cast %last : memref<1x3xf32, strided<[30, 1], offset: 597>> to memref<*xf32>
  call @printMemrefF32(%lu) : (memref<*xf32>) -> ()
  // Border strips of a 4x5 buffer (top row, left column below it) filled
  // with -1, one kernel for both.
  %m1 = arith.constant -1.0 : f32
  %img = memref.alloc() : memref<4x5xf32>
  %imgd = memref.cast %img : memref<4x5xf32> to memref<?x?xf32>
  call @iota(%imgd) : (memref<?x?xf32>) -> ()
  %row = memref.subview %img[0, 0] [1, 5] [1, 1] : memref<4x5xf32> to memref<1x5xf32, strided<[5, 1]>>
  linalg.fill ins(%m1 : f32) outs(%row : memref<1x5xf32, strided<[5, 1]>>)
  %col = memref.subview %img[1, 0] [3, 1] [1, 1] : memref<4x5xf32> to memref<3x1xf32, strided<[5, 1], offset: 5>>
  linalg.fill ins(%m1 : f32) outs(%col : memref<3x1xf32, strided<[5, 1], offset: 5>>)
  // CHECK: sizes = [4, 5]
  // CHECK-NEXT: [-1, -1, -1, -1, -1],
  // CHECK-NEXT: [-1, 11, 12, 13, 14],
  // CHECK-NEXT: [-1, 21, 22, 23, 24],
  // CHECK-NEXT: [-1, 31, 32, 33, 34]]
  %imgu = memref.cast %img : memref<4x5xf32> to memref<*xf32>
  call @printMemrefF32(%imgu) : (memref<*xf32>) -> ()
  memref.dealloc %img : memref<4x5xf32>
  memref.dealloc %a : memref<3x5xf32>
  memref.dealloc %b : memref<5x37xf32>
  memref.dealloc %c : memref<3x37xf32>
  memref.dealloc %t : memref<2x3x4xf32>
  memref.dealloc %r : memref<2x4xf32>
  memref.dealloc %r2 : memref<2xf32>
  memref.dealloc %dst : memref<3x3xf32>
  memref.dealloc %big : memref<20x30xf32>
  memref.dealloc %big2 : memref<20x30xf32>
  return
}

// RUN: relay-mlir-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(relay-gpu-map-parallel-loops))' \
// RUN:   | FileCheck %s
// RUN: not relay-mlir-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(relay-gpu-map-parallel-loops{block-size=100}))' \
// RUN:   2>&1 | FileCheck %s --check-prefix=BLOCK

// Tests that a block size that is not whole warps is refused.
// BLOCK: error: --relay-gpu-map-parallel-loops: block-size 100 is not a multiple of 32 between 32 and 1024

// Tests that a product whose reduction is its middle loop becomes one
// kernel's loops: the reduction is interchanged inside, the parallel
// dimensions (3 x 37 = 111) collapse into one tiled by 128 (111 rounded up to
// whole warps), the tiles are blocks and their iterations threads, the
// thread's index is guarded and split back into (i, j), j fastest, and the
// accumulator is carried in a register through the loop over k.

#mk = affine_map<(d0, d1, d2) -> (d0, d1)>
#kn = affine_map<(d0, d1, d2) -> (d1, d2)>
#mn = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @product(%a: memref<3x5xf32>, %b: memref<5x37xf32>, %c: memref<3x37xf32>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<3x5xf32>, memref<5x37xf32>) outs(%c : memref<3x37xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
// CHECK-LABEL: func.func @product
// CHECK-DAG:     %[[C37:.*]] = arith.constant 37 : index
// CHECK-DAG:     %[[C111:.*]] = arith.constant 111 : index
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : index
// CHECK:         scf.parallel (%[[B:.*]]) = ({{.*}}) to (%[[C111]]) step (%[[C128]]) {
// CHECK:           scf.parallel (%[[T:.*]]) = ({{.*}}) to (%[[C128]]) step ({{.*}}) {
// CHECK:             %[[ID:.*]] = arith.addi %[[T]], %[[B]] : index
// CHECK:             %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %[[C111]] : index
// CHECK:             scf.if
// CHECK:               %[[J:.*]] = arith.remsi %[[ID]], %[[C37]] : index
// CHECK:               %[[I:.*]] = arith.divsi %[[ID]], %[[C37]] : index
// CHECK:               %[[ACC:.*]] = memref.load %{{.*}}[%[[I]], %[[J]]] : memref<3x37xf32>
// CHECK:               %[[SUM:.*]] = scf.for %[[K:[^ ]*]] = {{.*}} iter_args(%[[A:.*]] = %[[ACC]]) -> (f32) {
// CHECK:                 memref.load %{{.*}}[%[[I]], %[[K]]] : memref<3x5xf32>
// CHECK:                 memref.load %{{.*}}[%[[K]], %[[J]]] : memref<5x37xf32>
// CHECK:                 %[[NEXT:.*]] = arith.addf %[[A]], %{{.*}} : f32
// CHECK:                 scf.yield %[[NEXT]] : f32
// CHECK:               memref.store %[[SUM]], %{{.*}}[%[[I]], %[[J]]] : memref<3x37xf32>
// CHECK:           } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}

// -----

// Tests that a large elementwise op is tiled by the default block of 256
// threads, and that its dynamic size makes the block count a run-time value.

func.func @elementwise(%a: memref<?x1000xf32>, %b: memref<?x1000xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<?x1000xf32>) outs(%b : memref<?x1000xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}
// CHECK-LABEL: func.func @elementwise
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG:     %[[N:.*]] = memref.dim
// CHECK:         %[[TOTAL:.*]] = arith.muli %[[N]], %{{.*}} : index
// CHECK:         scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[TOTAL]]) step (%[[C256]]) {
// CHECK:           scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[C256]])
// CHECK:             math.exp
// CHECK:           } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = block_x

// -----

// Tests that a buffer copy becomes a kernel's loops (32 elements: one warp),
// and that a parallel loop nested in a mapped one runs in sequence in its
// thread.

func.func @copy_and_nested(%a: memref<4x8xf32, strided<[16, 1]>>, %b: memref<4x8xf32>) {
  memref.copy %a, %b : memref<4x8xf32, strided<[16, 1]>> to memref<4x8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    scf.parallel (%j) = (%c0) to (%c8) step (%c1) {
      %x = memref.load %b[%i, %j] : memref<4x8xf32>
      memref.store %x, %b[%i, %j] : memref<4x8xf32>
    }
  }
  return
}
// CHECK-LABEL: func.func @copy_and_nested
// CHECK-NOT:     memref.copy
// CHECK:         scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[C32:.*]]) step (%[[C32]])
// CHECK:           scf.parallel
// CHECK:             memref.load %{{.*}} : memref<4x8xf32, strided<[16, 1]>>
// CHECK:             memref.store %{{.*}} : memref<4x8xf32>
// CHECK:           } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = block_x
// CHECK:         scf.parallel
// CHECK:           scf.parallel
// CHECK:             scf.parallel
// CHECK:             } {mapping = [#gpu.loop_dim_map<processor = sequential
// CHECK:           } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = block_x

// -----

// Tests that the fills of a padded image's border strips (boxes of one
// buffer, subviews between them) become one kernel over the buffer that
// writes the elements inside any strip.

func.func @border(%v: f32) -> memref<1x2x4x4xf32> {
  %pad = memref.alloc() : memref<1x2x4x4xf32>
  %top = memref.subview %pad[0, 0, 0, 0] [1, 2, 1, 4] [1, 1, 1, 1] : memref<1x2x4x4xf32> to memref<1x2x1x4xf32, strided<[32, 16, 4, 1]>>
  linalg.fill ins(%v : f32) outs(%top : memref<1x2x1x4xf32, strided<[32, 16, 4, 1]>>)
  %bottom = memref.subview %pad[0, 0, 3, 0] [1, 2, 1, 4] [1, 1, 1, 1] : memref<1x2x4x4xf32> to memref<1x2x1x4xf32, strided<[32, 16, 4, 1], offset: 12>>
  linalg.fill ins(%v : f32) outs(%bottom : memref<1x2x1x4xf32, strided<[32, 16, 4, 1], offset: 12>>)
  %left = memref.subview %pad[0, 0, 1, 0] [1, 2, 2, 1] [1, 1, 1, 1] : memref<1x2x4x4xf32> to memref<1x2x2x1xf32, strided<[32, 16, 4, 1], offset: 4>>
  linalg.fill ins(%v : f32) outs(%left : memref<1x2x2x1xf32, strided<[32, 16, 4, 1], offset: 4>>)
  return %pad : memref<1x2x4x4xf32>
}
// CHECK-LABEL: func.func @border
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-NOT:     linalg.fill
// CHECK-NOT:     memref.subview
// CHECK:         scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[C32]]) step (%[[C32]])
// CHECK:           scf.if
// CHECK:             %[[ROW:.*]] = arith.remsi %{{.*}}, %c4
// CHECK:             %[[TOP:.*]] = arith.cmpi ult, %[[ROW]], %c1
// CHECK:             %[[ANY:.*]] = arith.ori
// CHECK:             scf.if %[[ANY]] {
// CHECK:               memref.store %{{.*}}, %{{.*}} : memref<1x2x4x4xf32>
// CHECK-NOT:     scf.parallel
// CHECK:         return

// -----

// Tests that the fill of a product's accumulator just before it becomes the
// product's initial value (no kernel of its own), and that a fill whose
// buffer the next op also reads stays.

func.func @filled_product(%a: memref<4x5xf32>, %b: memref<5x6xf32>, %c: memref<4x6xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x6xf32>)
  linalg.matmul ins(%a, %b : memref<4x5xf32>, memref<5x6xf32>) outs(%c : memref<4x6xf32>)
  return
}
// CHECK-LABEL: func.func @filled_product
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         scf.parallel
// CHECK:           scf.parallel
// CHECK-NOT:         memref.load %{{.*}} : memref<4x6xf32>
// CHECK:             %[[SUM:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (f32)
// CHECK:             memref.store %[[SUM]], %{{.*}} : memref<4x6xf32>
// CHECK-NOT:     scf.parallel
// CHECK:         return

func.func @fill_read(%a: memref<4x4xf32>, %b: memref<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%b : memref<4x4xf32>)
  linalg.matmul ins(%b, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%b : memref<4x4xf32>)
  return
}
// CHECK-LABEL: func.func @fill_read
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         scf.parallel
// CHECK:             memref.store %[[ZERO]], %{{.*}} : memref<4x4xf32>
// CHECK:         scf.parallel
// CHECK:             scf.for

// -----

// Tests that an op without parallel dimensions (a whole tensor's sum) runs
// in one thread of one kernel, not on the host.

func.func @total(%a: memref<4x8xf32>, %out: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%a : memref<4x8xf32>) outs(%out : memref<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  return
}
// CHECK-LABEL: func.func @total
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK:         scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[C1]]) step (%[[C32]])
// CHECK:           scf.parallel
// CHECK:             arith.cmpi ult, %{{.*}}, %[[C1]]
// CHECK:             scf.for {{.*}} iter_args
// CHECK:               scf.for {{.*}} iter_args
// CHECK:             memref.store %{{.*}}, %{{.*}}[] : memref<f32>
// CHECK:           } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = block_x

// -----

// Tests that a reduction writing two accumulators carries both in
// registers: two loads before the loop, two stores after it.

func.func @two_accumulators(%a: memref<4x8xf32>, %s: memref<4xf32>, %m: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : memref<4x8xf32>) outs(%s, %m : memref<4xf32>, memref<4xf32>) {
  ^bb0(%x: f32, %acc: f32, %big: f32):
    %sum = arith.addf %acc, %x : f32
    %max = arith.maximumf %big, %x : f32
    linalg.yield %sum, %max : f32, f32
  }
  return
}
// CHECK-LABEL: func.func @two_accumulators
// CHECK:         %[[S0:.*]] = memref.load %[[S:.*]][%[[I:.*]]] : memref<4xf32>
// CHECK:         %[[M0:.*]] = memref.load %[[M:.*]][%[[I]]] : memref<4xf32>
// CHECK:         %[[R:.*]]:2 = scf.for {{.*}} iter_args(%[[SA:.*]] = %[[S0]], %[[MA:.*]] = %[[M0]]) -> (f32, f32) {
// CHECK-NOT:       memref.store
// CHECK:           scf.yield
// CHECK:         }
// CHECK:         memref.store %[[R]]#0, %[[S]][%[[I]]]
// CHECK:         memref.store %[[R]]#1, %[[M]][%[[I]]]
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x

// -----

// Tests that a parallel loop reducing into a value stays on the host (no
// mapping: the upstream conversion takes no reductions).

func.func @reducing(%a: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.parallel (%i) = (%c0) to (%c64) step (%c1) init (%zero) -> f32 {
    %x = memref.load %a[%i] : memref<64xf32>
    scf.reduce(%x : f32) {
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      scf.reduce.return %s : f32
    }
  }
  return %sum : f32
}
// CHECK-LABEL: func.func @reducing
// CHECK:         scf.parallel
// CHECK-NOT:     mapping
// CHECK:         return

// RUN: relay-mlir-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(relay-gpu-tile-contractions{split-k=1},canonicalize,cse))' \
// RUN:   | FileCheck %s
// RUN: relay-mlir-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(relay-gpu-tile-contractions,canonicalize,cse))' \
// RUN:   | FileCheck %s --check-prefix=AUTO
// RUN: relay-mlir-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(relay-gpu-tile-contractions{thread-tile=8 split-k=1},canonicalize,cse))' \
// RUN:   | FileCheck %s --check-prefix=TILE8
// RUN: relay-mlir-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(relay-gpu-tile-contractions{tensor-cores=false},canonicalize,cse))' \
// RUN:   | FileCheck %s --check-prefix=NOTC
// RUN: relay-mlir-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(relay-gpu-tile-contractions{tf32 split-k=1},canonicalize,cse))' \
// RUN:   | FileCheck %s --check-prefix=TF32
// RUN: not relay-mlir-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(relay-gpu-tile-contractions{thread-tile=3}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADTILE
// RUN: not relay-mlir-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(relay-gpu-tile-contractions{split-k=-2}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADSPLIT

// BADTILE: error: --relay-gpu-tile-contractions: thread-tile 3 is not 0 (by size), 4 or 8
// BADSPLIT: error: --relay-gpu-tile-contractions: split-k -2 is negative

// Tests that a dense layer (a contraction with a fill of zeros just before)
// becomes one launch of 256 threads per 64 x 64 block: dynamic shared
// memory holding both operands' tiles (8 deep, rows padded to 68), stored
// between barriers and read with 16-byte vector loads; the next step's
// operands loaded from global memory (clamped, zero past the edges) before
// the current step's multiply-adds, which may contract into fused
// multiply-adds; the fill folded into the accumulators' start and the
// results stored where inside the output. With thread-tile=8, 128 x 128
// blocks and 64 accumulators a thread. By default (AUTO) its one block's
// 16 steps are split between two blocks, which add into the zeroed output
// atomically. With tf32 (TF32) it runs on tensor cores: tiles of 64 rows
// by 32 floats of K (padded to 36: 16 bytes), copied by 16-byte vector
// loads, each warp's fragments read by ldmatrix as pairs of halves (4
// tiles of A, 2 of B) and multiplied by mma.sync m16n8k8 on TF32s, four
// per step of 8.

func.func @dense(%x: memref<64x128xf32>, %w: memref<32x128xf32>, %out: memref<64x32xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<64x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<64x128xf32>, memref<32x128xf32>) outs(%out : memref<64x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
// CHECK-LABEL: func.func @dense(
// CHECK-NOT:     linalg.fill
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}} = %c1, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c256, {{.*}} = %c1, {{.*}} = %c1) dynamic_shared_memory_size %c4352_i32
// CHECK:           %[[SHARED:.*]] = gpu.dynamic_shared_memory
// CHECK:           %[[A:.*]] = memref.view %[[SHARED]][%c0][] {{.*}} to memref<8x68xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[B:.*]] = memref.view %[[SHARED]][%c2176][] {{.*}} to memref<8x68xf32, #gpu.address_space<workgroup>>
// CHECK:           memref.load %{{.*}} : memref<64x128xf32>
// CHECK:           arith.select %{{.*}}, %{{.*}}, %[[ZERO]] : f32
// CHECK:           %[[LOOP:.*]]:20 = scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args(%{{.*}} = %[[ZERO]],
// CHECK:             memref.store %{{.*}}, %[[A]]
// CHECK:             memref.store %{{.*}}, %[[B]]
// CHECK:             gpu.barrier
// CHECK:             memref.load %{{.*}} : memref<64x128xf32>
// CHECK:             vector.load %[[A]][%c0, %{{.*}}] {alignment = 16 : i64} : {{.*}}, vector<4xf32>
// CHECK:             vector.load %[[B]][%c0, %{{.*}}] {alignment = 16 : i64} : {{.*}}, vector<4xf32>
// CHECK:             arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK-NEXT:        arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK:             gpu.barrier
// CHECK-NEXT:        scf.yield
// CHECK:           scf.if
// CHECK:             memref.store %[[LOOP]]#0, %{{.*}} : memref<64x32xf32>
// CHECK:           gpu.terminator
// CHECK-NOT:     linalg.generic

// AUTO-LABEL: func.func @dense(
// AUTO:         linalg.fill
// AUTO:         gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}} = %c1, {{.*}} = %c2)
// AUTO:           scf.for %{{.*}} = %c0 to %c8 step %c1
// AUTO:           memref.atomic_rmw addf

// CHECK-NOT:     nvgpu.

// TF32-LABEL: func.func @dense(
// TF32:         gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}} = %c1, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c256, {{.*}}) dynamic_shared_memory_size %c18432_i32
// TF32:           %[[A:.*]] = memref.view {{.*}} to memref<64x36xf32, #gpu.address_space<workgroup>>
// TF32:           %[[B:.*]] = memref.view {{.*}} to memref<64x36xf32, #gpu.address_space<workgroup>>
// TF32:           vector.load %{{.*}} {alignment = 16 : i64} : memref<64x128xf32>, vector<4xf32>
// TF32:           %[[LOOP:.*]]:8 = scf.for %{{.*}} = %c0 to %c4 step %c1 {{.*}} -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// TF32:             vector.store %{{.*}}, %[[A]]{{.*}} {alignment = 16 : i64}
// TF32:             gpu.barrier
// TF32-COUNT-2:     nvgpu.ldmatrix %[[A]]{{.*}} {numTiles = 4 : i32, transpose = false} {{.*}} -> vector<4x1xf32>
// TF32-COUNT-2:     nvgpu.ldmatrix %[[B]]{{.*}} {numTiles = 2 : i32, transpose = false} {{.*}} -> vector<2x1xf32>
// TF32-COUNT-4:     nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
// TF32:             gpu.barrier
// TF32:           vector.extract %[[LOOP]]#0[0, 0] : f32 from vector<2x2xf32>

// TILE8-LABEL: func.func @dense(
// TILE8:         dynamic_shared_memory_size %c8448_i32
// TILE8:         memref.view {{.*}} to memref<8x132xf32, #gpu.address_space<workgroup>>
// TILE8:         scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// TILE8:         vector.load {{.*}} vector<4xf32>

// -----

// Tests that a convolution is an implicit product: its rows are the output
// image's pixels (image, row, column: 2 x 5 x 9 = 90), its columns the
// filters, its reduction channels and window (3 x 3 x 3 = 27); the image is
// read through the convolution's indexing map (a stride of 2) at indices
// split from those, and nothing else allocated.

func.func @conv(%x: memref<2x3x11x11xf32>, %w: memref<20x3x3x3xf32>, %out: memref<2x20x5x9xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%x, %w : memref<2x3x11x11xf32>, memref<20x3x3x3xf32>) outs(%out : memref<2x20x5x9xf32>)
  return
}
// CHECK-LABEL: func.func @conv(
// CHECK-NOT:     memref.alloc
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}} = %c2, {{.*}} = %c1)
// CHECK-DAG:       arith.cmpi ult, %{{.*}}, %c90 : index
// CHECK-DAG:       arith.cmpi ult, %{{.*}}, %c27 : index
// CHECK-DAG:       arith.divui %{{.*}}, %c9 : index
// CHECK-DAG:       arith.divui %{{.*}}, %c5 : index
// CHECK:           memref.load %{{.*}} : memref<2x3x11x11xf32>
// CHECK:           memref.load %{{.*}} : memref<20x3x3x3xf32>
// CHECK:           scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK:         }
// CHECK-NOT:     linalg.conv

// -----

// Tests that a product of one row (a batch-1 dense layer, its weights
// contiguous along the reduction) gets a warp per column: lanes stride the
// reduction by 32 from their lane, their sums added by five xor shuffles,
// lane 0 storing the fill's value plus the total. A matmul of one row
// (weights contiguous along the columns) stays a linalg op for the loops.

func.func @vector(%x: memref<1x700xf32>, %w: memref<90x700xf32>, %k: memref<700x30xf32>, %out: memref<1x90xf32>, %out2: memref<1x30xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x90xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<1x700xf32>, memref<90x700xf32>) outs(%out : memref<1x90xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.fill ins(%zero : f32) outs(%out2 : memref<1x30xf32>)
  linalg.matmul ins(%x, %k : memref<1x700xf32>, memref<700x30xf32>) outs(%out2 : memref<1x30xf32>)
  return
}
// CHECK-LABEL: func.func @vector(
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c12, {{.*}} = %c1, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c256,
// CHECK:           %[[LANE:.*]] = arith.remui %{{.*}}, %c32 : index
// CHECK:           scf.if
// CHECK:             %[[SUM:.*]] = scf.for %{{.*}} = %[[LANE]] to %c700 step %c32 iter_args
// CHECK:             gpu.shuffle  xor %[[SUM]], %c16_i32, %c32_i32 : f32
// CHECK:             gpu.shuffle  xor {{.*}}, %c8_i32, %c32_i32 : f32
// CHECK:             gpu.shuffle  xor {{.*}}, %c4_i32, %c32_i32 : f32
// CHECK:             gpu.shuffle  xor {{.*}}, %c2_i32, %c32_i32 : f32
// CHECK:             %[[LAST:.*]], %{{.*}} = gpu.shuffle  xor {{.*}}, %c1_i32, %c32_i32 : f32
// CHECK:             %[[TOTAL:.*]] = arith.addf {{.*}}, %[[LAST]] : f32
// CHECK:             arith.cmpi eq, %[[LANE]], %c0 : index
// CHECK:               %[[OUT:.*]] = arith.addf %[[TOTAL]], %cst : f32
// CHECK:               memref.store %[[OUT]], %{{.*}} : memref<1x90xf32>
// CHECK:         linalg.fill
// CHECK:         linalg.matmul

// -----

// Tests that a convolution with few outputs (7 x 7 pixels by 70 filters: two
// 64 x 64 blocks) and a long reduction (256 x 3 x 3) splits it among blocks
// (the grid's z) until they fill the multiprocessors, each at least 8 steps
// of 8: its fill stays, and the blocks add their sums atomically.

func.func @split(%x: memref<1x256x9x9xf32>, %w: memref<70x256x3x3xf32>, %out: memref<1x70x7x7xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x70x7x7xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<1x256x9x9xf32>, memref<70x256x3x3xf32>) outs(%out : memref<1x70x7x7xf32>)
  return
}
// AUTO-LABEL: func.func @split(
// AUTO:         linalg.fill
// AUTO:         gpu.launch blocks({{.*}}) in ({{.*}} = %c2, {{.*}} = %c1, {{.*}} = %c36)
// AUTO:           scf.for %{{.*}} = %c0 to %c8 step %c1
// AUTO:           memref.atomic_rmw addf %{{.*}}, %{{.*}} : (f32, memref<1x70x7x7xf32>) -> f32

// -----

// Tests that a product of float16s runs on tensor cores: 64 x 64 blocks of
// eight warps, each 32 x 16 results as 2 x 2 mma.sync m16n8k16 with float32
// accumulators; tiles of 64 rows by 32 steps of K (padded to 40 halves),
// copied by 16-byte vector loads (both operands are contiguous along a
// reduction that is a multiple of 8) and read by ldmatrix (4 tiles of A, 2
// of B); the fill's zero widened into the accumulators, the results
// narrowed to float16. With tensor-cores=false (NOTC), the CUDA cores'
// kernel on float16s.

func.func @half(%x: memref<96x64xf16>, %w: memref<80x64xf16>, %out: memref<96x80xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%out : memref<96x80xf16>)
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<96x64xf16>, memref<80x64xf16>) outs(%out : memref<96x80xf16>) {
  ^bb0(%a: f16, %b: f16, %acc: f16):
    %p = arith.mulf %a, %b : f16
    %s = arith.addf %acc, %p : f16
    linalg.yield %s : f16
  }
  return
}
// CHECK-LABEL: func.func @half(
// CHECK-NOT:     linalg.fill
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c2, {{.*}} = %c2, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c256, {{.*}}) dynamic_shared_memory_size %c10240_i32
// CHECK:           %[[A:.*]] = memref.view {{.*}} to memref<64x40xf16, #gpu.address_space<workgroup>>
// CHECK:           %[[B:.*]] = memref.view {{.*}} to memref<64x40xf16, #gpu.address_space<workgroup>>
// CHECK:           vector.load %{{.*}} {alignment = 16 : i64} : memref<96x64xf16>, vector<8xf16>
// CHECK:           %[[LOOP:.*]]:6 = scf.for {{.*}} -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<8xf16>, vector<8xf16>)
// CHECK:             vector.store %{{.*}}, %[[A]]{{.*}} {alignment = 16 : i64}
// CHECK:             gpu.barrier
// CHECK-COUNT-2:     nvgpu.ldmatrix %[[A]]{{.*}} {numTiles = 4 : i32, transpose = false} {{.*}} -> vector<4x2xf16>
// CHECK-COUNT-2:     nvgpu.ldmatrix %[[B]]{{.*}} {numTiles = 2 : i32, transpose = false} {{.*}} -> vector<2x2xf16>
// CHECK-COUNT-4:     nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK:             gpu.barrier
// CHECK:           vector.extract %[[LOOP]]#0[0, 0] : f32 from vector<2x2xf32>
// CHECK-NEXT:      arith.truncf %{{.*}} : f32 to f16

// NOTC-LABEL: func.func @half(
// NOTC-NOT:     nvgpu.
// NOTC:         vector.load {{.*}} vector<4xf16>
// NOTC:         arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f16

// -----

// Tests that a product whose body widens its operands (bfloat16 into
// float32 sums, as --relay-to-mixed-precision makes) runs on the CUDA
// cores' tiles: the widening extf is cloned as it is (it has no fast-math
// flags to extend) and the multiply-add may contract.

func.func @widening(%x: memref<64x32xbf16>, %w: memref<64x32xbf16>, %out: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<64x32xbf16>, memref<64x32xbf16>) outs(%out : memref<64x64xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %a32 = arith.extf %a : bf16 to f32
    %b32 = arith.extf %b : bf16 to f32
    %p = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
// CHECK-LABEL: func.func @widening(
// CHECK:         gpu.launch
// CHECK:           scf.for
// CHECK:             arith.extf %{{.*}} fastmath<contract> : bf16 to f32
// CHECK:             arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK-NEXT:        arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK-NOT:     linalg.generic

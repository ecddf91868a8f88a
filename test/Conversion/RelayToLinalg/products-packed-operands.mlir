// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver4 --relay-to-linalg | FileCheck %s
// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver3 --relay-to-linalg | FileCheck %s --check-prefix=AVX2
// RUN: relay-mlir-opt %s --relay-set-target-cpu="cpu=znver4 threads=2" --relay-to-linalg | FileCheck %s --check-prefix=THREADS
// RUN: relay-mlir-opt %s --relay-set-target-cpu=cpu=znver5 --relay-to-linalg | FileCheck %s --check-prefix=ZEN5
// Products whose right operand is made at run time and too large for L2
// to hold the rows the cache tiles read (over twice L2: 2 MB on a Zen 4)
// get it packed by a copy into panels of 16 or 32 columns contiguous along
// k, as constant weights are at compile time; smaller ones are read in
// place. With AVX-512, a left operand over half of L2 is packed too, into
// panels of a register tile's rows.

// Tests that a 700x900 operand (2.5 MB) is split into 57 panels of 16
// columns (900 padded to 912) and copied panel-major, for a matmul (KN: a
// copy of rows) and a dense layer (NK: a transposing copy), and that the
// product reads the panels.
// CHECK-LABEL: func.func @large(
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [700, 57, 16] : tensor<700x912xf32> into tensor<700x57x16xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<700x57x16xf32>) outs(%{{.*}} : tensor<57x700x16xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<104x700xf32>, tensor<57x700x16xf32>) outs(%{{.*}} : tensor<104x57x16xf32>)
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [57, 16, 700] : tensor<912x700xf32> into tensor<57x16x700xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<57x16x700xf32>) outs(%{{.*}} : tensor<57x700x16xf32>)
// Tests that with AVX2's 6-row tiles the 101 rows (more than two 48-row
// cache tiles, and no divisor of 24 to 48 rows) are padded to 108: cache
// tiles of 36 rows. The padding rows (their results are sliced off) are
// zero, filled alone: garbage there reached the FMAs as denormal floats.
// AVX2-LABEL: func.func @large(
// AVX2: %[[ROWS:.*]] = tensor.empty() : tensor<108x700xf32>
// AVX2: %[[STRIP:.*]] = tensor.extract_slice %[[ROWS]][101, 0] [7, 700] [1, 1] : tensor<108x700xf32> to tensor<7x700xf32>
// AVX2: %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[STRIP]] : tensor<7x700xf32>)
// AVX2: %[[PADDED:.*]] = tensor.insert_slice %[[ZERO]] into %[[ROWS]][101, 0] [7, 700] [1, 1]
// AVX2: tensor.insert_slice %arg0 into %[[PADDED]][0, 0] [101, 700] [1, 1] : tensor<101x700xf32> into tensor<108x700xf32>
// AVX2: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<108x700xf32>, tensor<57x700x16xf32>) outs(%{{.*}} : tensor<108x57x16xf32>)
// AVX2: tensor.extract_slice %{{.*}}[0, 0] [101, 900] [1, 1] : tensor<108x912xf32> to tensor<101x900xf32>
relay.func @large(%a: tensor<101x700xf32>, %b: tensor<700x900xf32>, %c: tensor<900x700xf32>) -> tensor<101x900xf32> {
  %m = relay.nn.matmul %a, %b : (tensor<101x700xf32>, tensor<700x900xf32>) -> tensor<101x900xf32>
  %d = relay.nn.dense %a, %c : (tensor<101x700xf32>, tensor<900x700xf32>) -> tensor<101x900xf32>
  %s = relay.add %m, %d : (tensor<101x900xf32>, tensor<101x900xf32>) -> tensor<101x900xf32>
  relay.return %s : tensor<101x900xf32>
}

// Tests that with AVX2 196 rows, which cache tiles of 28 rows divide, stay
// unpadded (210, 5 x 42, would add 7%) and are read in place (no divisor
// of 5 or 6 rows); AVX-512's 8-row tiles pad them to 200 (2%: cache tiles
// of 40), and A (560 KB, over half of a Zen 4's 1 MB L2) is packed into 25
// panels of 8 rows contiguous along k. Its k (700) spans several k tiles
// of the schedule's (170 on a 32 KB L1), so the result is in panels too,
// [no, mo, mi, ni], and copied back to rows.
// CHECK-LABEL: func.func @divided_rows(
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [25, 8, 700] : tensor<200x700xf32> into tensor<25x8x700xf32>
// CHECK: linalg.transpose ins(%{{.*}} : tensor<25x8x700xf32>) outs(%{{.*}} : tensor<25x700x8xf32>) permutation = [0, 2, 1]
// CHECK: ins(%{{.*}}, %{{.*}} : tensor<25x700x8xf32>, tensor<57x700x16xf32>) outs(%{{.*}} : tensor<57x25x8x16xf32>)
// CHECK: linalg.transpose ins(%{{.*}} : tensor<57x200x16xf32>) outs(%{{.*}} : tensor<200x57x16xf32>) permutation = [1, 0, 2]
// AVX2-LABEL: func.func @divided_rows(
// AVX2-NOT: tensor<210x
// AVX2: ins(%arg0, %{{.*}} : tensor<196x700xf32>, tensor<57x700x16xf32>) outs(%{{.*}} : tensor<196x57x16xf32>)
relay.func @divided_rows(%a: tensor<196x700xf32>, %b: tensor<700x900xf32>) -> tensor<196x900xf32> {
  %m = relay.nn.matmul %a, %b : (tensor<196x700xf32>, tensor<700x900xf32>) -> tensor<196x900xf32>
  relay.return %m : tensor<196x900xf32>
}

// Tests that a 256x256 operand (256 KB, under 2^17 elements, rows 1 KB
// apart) and a product of fewer than 64 rows are not packed.
// CHECK-LABEL: func.func @small(
// CHECK-NOT: tensor.expand_shape
// CHECK: return
relay.func @small(%a: tensor<100x256xf32>, %b: tensor<256x256xf32>, %x: tensor<32x2048xf32>, %y: tensor<2048x2048xf32>) -> tensor<32x2048xf32> {
  %m = relay.nn.matmul %a, %b : (tensor<100x256xf32>, tensor<256x256xf32>) -> tensor<100x256xf32>
  %n = relay.nn.matmul %x, %y : (tensor<32x2048xf32>, tensor<2048x2048xf32>) -> tensor<32x2048xf32>
  relay.return %n : tensor<32x2048xf32>
}

// Tests that an operand of 256 KB (under 2^17 elements) whose rows are
// 4 KB apart is packed all the same: read in place, the register tile's
// successive rows would fall in one L1 set.
// CHECK-LABEL: func.func @aliasing(
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [64, 32, 32] : tensor<64x1024xf32> into tensor<64x32x32xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<64x32x32xf32>) outs(%{{.*}} : tensor<32x64x32xf32>)
// Tests that with AVX2 the panels are its register tile's 16 columns wide
// (32 would make each tile read half of every row of the panel).
// AVX2-LABEL: func.func @aliasing(
// AVX2: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [64, 64, 16] : tensor<64x1024xf32> into tensor<64x64x16xf32>
// AVX2: linalg.generic {{.*}} ins(%{{.*}} : tensor<64x64x16xf32>) outs(%{{.*}} : tensor<64x64x16xf32>)
relay.func @aliasing(%a: tensor<100x64xf32>, %b: tensor<64x1024xf32>) -> tensor<100x1024xf32> {
  %m = relay.nn.matmul %a, %b : (tensor<100x64xf32>, tensor<64x1024xf32>) -> tensor<100x1024xf32>
  relay.return %m : tensor<100x1024xf32>
}

// Tests that a 512x512 operand (1 MB, within twice L2, rows 2 KB apart) is
// packed for having 2^17 elements or more.
// CHECK-LABEL: func.func @medium(
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [512, 16, 32] : tensor<512x512xf32> into tensor<512x16x32xf32>
relay.func @medium(%a: tensor<100x512xf32>, %b: tensor<512x512xf32>) -> tensor<100x512xf32> {
  %m = relay.nn.matmul %a, %b : (tensor<100x512xf32>, tensor<512x512xf32>) -> tensor<100x512xf32>
  relay.return %m : tensor<100x512xf32>
}

// Tests that a tall product's rows are padded to whole cache tiles of at
// least half the cache tile's rows, not just to whole register tiles: with
// AVX2 (6-row tiles, 48-row cache tiles) 4096 rows go to 4104 (24-row cache
// tiles), not 4098 (only 6-row ones, each reading all of B again); with
// AVX-512 4096 rows are 64 cache tiles already.
// CHECK-LABEL: func.func @tall(
// CHECK-NOT: tensor.pad %arg0
// CHECK: return
// AVX2-LABEL: func.func @tall(
// AVX2: tensor.insert_slice %arg0 into %{{.*}}[0, 0] [4096, 64] [1, 1] : tensor<4096x64xf32> into tensor<4104x64xf32>
relay.func @tall(%a: tensor<4096x64xf32>, %b: tensor<64x4096xf32>) -> tensor<4096x4096xf32> {
  %m = relay.nn.matmul %a, %b : (tensor<4096x64xf32>, tensor<64x4096xf32>) -> tensor<4096x4096xf32>
  relay.return %m : tensor<4096x4096xf32>
}

// Tests that panels beyond the cache's share go in blocks of that share
// where that moves fewer bytes: on a Zen 4 (4 MB of L3 a core: 32 panels of
// 1024 x 32 x 4 bytes, of 64) x's 8192 rows take 11 passes of 771 rows (a
// block of half of L2 by a k tile of 170), each reading all of B (8 MB)
// without blocks, 32 + 88 MB against x twice and B once (72 MB) with them:
// an scf.for over the blocks of 32 panels, each packing its columns of B
// into panels and multiplying all rows by them.
// CHECK-LABEL: func.func @panel_blocks(
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c32
// CHECK: tensor.extract_slice %{{.*}}[0, %{{.*}}, 0] [1024, 32, 32] [1, 1, 1] : tensor<1024x64x32xf32> to tensor<1024x32x32xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<1024x32x32xf32>) outs(%{{.*}} : tensor<32x1024x32xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1024x1024x8xf32>, tensor<32x1024x32xf32>) outs(%{{.*}} : tensor<32x1024x8x32xf32>)
// CHECK: tensor.insert_slice
relay.func @panel_blocks(%a: tensor<8192x1024xf32>, %b: tensor<1024x2048xf32>) -> tensor<8192x2048xf32> {
  %m = relay.nn.matmul %a, %b : (tensor<8192x1024xf32>, tensor<1024x2048xf32>) -> tensor<8192x2048xf32>
  relay.return %m : tensor<8192x2048xf32>
}

// Tests that panels beyond the cache's share stay one product where x's
// rows are one pass (256 rows of a 771-row block): B is read once either
// way, and blocks would read x once for each.
// CHECK-LABEL: func.func @panels_one_pass(
// CHECK-NOT: scf.for
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<32x2048x8xf32>, tensor<32x2048x32xf32>) outs(%{{.*}} : tensor<32x32x8x32xf32>)
relay.func @panels_one_pass(%a: tensor<256x2048xf32>, %b: tensor<2048x1024xf32>) -> tensor<256x1024xf32> {
  %m = relay.nn.matmul %a, %b : (tensor<256x2048xf32>, tensor<2048x1024xf32>) -> tensor<256x1024xf32>
  relay.return %m : tensor<256x1024xf32>
}

// Tests that a square 4096^3 product stays one product: without blocks x
// (64 MB) is read once and B (64 MB) once per pass of 771 of x's rows (6),
// 448 MB, while blocks of the 4 MB share (8 of 128 panels) would read x 16 times,
// 1088 MB (on a Zen 5, 620 against 722 ms at one thread).
// CHECK-LABEL: func.func @square_no_blocks(
// CHECK-NOT: scf.for
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<128x512x8x32xf32>)
relay.func @square_no_blocks(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %m = relay.nn.matmul %a, %b : (tensor<4096x4096xf32>, tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  relay.return %m : tensor<4096x4096xf32>
}

// Tests that with one m tile (64 rows) the panels stay one product: each
// is read once anyway. A (512 KB, half of a Zen 4's L2) is read in place.
// CHECK-LABEL: func.func @panels_one_m_tile(
// CHECK-NOT: scf.for
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<64x2048xf32>, tensor<32x2048x32xf32>) outs(%{{.*}} : tensor<64x32x32xf32>)
relay.func @panels_one_m_tile(%a: tensor<64x2048xf32>, %b: tensor<2048x1024xf32>) -> tensor<64x1024xf32> {
  %m = relay.nn.matmul %a, %b : (tensor<64x2048xf32>, tensor<2048x1024xf32>) -> tensor<64x1024xf32>
  relay.return %m : tensor<64x1024xf32>
}

// Tests that panels whose count has no divisor near the share (61 panels
// of 4096 x 16 x 4 bytes, a share of 16) stay one product rather than go
// in blocks of one panel, each reading all of A again.
// CHECK-LABEL: func.func @panels_no_block_divisor(
// CHECK-NOT: scf.for
// CHECK: outs(%{{.*}} : tensor<61x32x8x16xf32>)
relay.func @panels_no_block_divisor(%a: tensor<256x4096xf32>, %b: tensor<4096x976xf32>) -> tensor<256x976xf32> {
  %m = relay.nn.matmul %a, %b : (tensor<256x4096xf32>, tensor<4096x976xf32>) -> tensor<256x976xf32>
  relay.return %m : tensor<256x976xf32>
}

// Tests that A packed into panels keeps the result in rows, [mo, mi, no,
// ni], where k (128) is one k tile of the schedule's: each register tile is
// written once.
// CHECK-LABEL: func.func @packed_rows_one_k_tile(
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<256x128x8xf32>, tensor<32x128x32xf32>) outs(%{{.*}} : tensor<256x8x32x32xf32>)
// CHECK-NOT: linalg.transpose
// CHECK: return
relay.func @packed_rows_one_k_tile(%a: tensor<2048x128xf32>, %b: tensor<128x1024xf32>) -> tensor<2048x1024xf32> {
  %m = relay.nn.matmul %a, %b : (tensor<2048x128xf32>, tensor<128x1024xf32>) -> tensor<2048x1024xf32>
  relay.return %m : tensor<2048x1024xf32>
}

// Tests that a product whose result is far beyond the caches (16384x4096,
// 256 MB) keeps it in rows even with k (512) in two k tiles: copying it
// back from panels cost more than the rows' sets save (on a Zen 5 1630
// against 329 ms at one thread). (The panels go in blocks of 64 as well.)
// CHECK-LABEL: func.func @huge_result_rows(
// CHECK: scf.for {{.*}} -> (tensor<2048x8x128x32xf32>)
// CHECK-NOT: linalg.transpose
// CHECK: return
relay.func @huge_result_rows(%a: tensor<16384x512xf32>, %b: tensor<512x4096xf32>) -> tensor<16384x4096xf32> {
  %m = relay.nn.matmul %a, %b : (tensor<16384x512xf32>, tensor<512x4096xf32>) -> tensor<16384x4096xf32>
  relay.return %m : tensor<16384x4096xf32>
}

// Tests that a 64 MB result with k in several k tiles (4096x2048x4096)
// goes in panels, [no, mo, mi, ni], and is transposed back after.
// CHECK-LABEL: func.func @panels_result(
// CHECK: outs(%{{.*}} : tensor<128x512x8x32xf32>)
// CHECK: linalg.transpose
relay.func @panels_result(%a: tensor<4096x2048xf32>, %b: tensor<2048x4096xf32>) -> tensor<4096x4096xf32> {
  %m = relay.nn.matmul %a, %b : (tensor<4096x2048xf32>, tensor<2048x4096xf32>) -> tensor<4096x4096xf32>
  relay.return %m : tensor<4096x4096xf32>
}

// Tests that with two threads each takes half of B's panels in one loop of
// independent iterations (one parallel region, not three): it packs its
// panels, multiplies all rows by them and copies its columns of the result
// from panels back to rows. On a Zen 5 (in place, below) x is not packed.
// THREADS-LABEL: func.func @threads_share(
// THREADS: linalg.transpose ins(%{{.*}} : tensor<96x8x768xf32>)
// THREADS: scf.for %{{.*}} = %c0 to %c24 step %c12 iter_args(%{{.*}} = %{{.*}}) -> (tensor<768x24x32xf32>)
// THREADS: tensor.extract_slice %{{.*}}[0, %{{.*}}, 0] [768, 12, 32] [1, 1, 1] : tensor<768x24x32xf32> to tensor<768x12x32xf32>
// THREADS: linalg.generic {{.*}} ins(%{{.*}} : tensor<768x12x32xf32>) outs(%{{.*}} : tensor<12x768x32xf32>)
// THREADS: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<96x768x8xf32>, tensor<12x768x32xf32>) outs(%{{.*}} : tensor<12x96x8x32xf32>)
// THREADS: linalg.transpose ins(%{{.*}} : tensor<12x768x32xf32>) outs(%{{.*}} : tensor<768x12x32xf32>) permutation = [1, 0, 2]
// THREADS: tensor.insert_slice %{{.*}} into %{{.*}}[0, %{{.*}}, 0] [768, 12, 32] [1, 1, 1]
// THREADS: } {relay.independent_iterations}
// THREADS-NOT: linalg.transpose
// THREADS: return
// ZEN5-LABEL: func.func @threads_share(
// ZEN5-NOT: linalg.transpose
// ZEN5: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<768x768xf32>, tensor<24x768x32xf32>) outs(%{{.*}} : tensor<768x24x32xf32>)
// ZEN5-NOT: linalg.transpose
// ZEN5: return
relay.func @threads_share(%a: tensor<768x768xf32>, %b: tensor<768x768xf32>) -> tensor<768x768xf32> {
  %m = relay.nn.matmul %a, %b : (tensor<768x768xf32>, tensor<768x768xf32>) -> tensor<768x768xf32>
  relay.return %m : tensor<768x768xf32>
}

// Tests that panels the threads cannot share evenly (49 of 16 columns)
// stay one product, which the schedule splits along x's rows.
// THREADS-LABEL: func.func @threads_odd_panels(
// THREADS-NOT: scf.for
// THREADS: linalg.generic {{.*}} outs(%{{.*}} : tensor<49x96x8x16xf32>)
// THREADS: return
relay.func @threads_odd_panels(%a: tensor<768x768xf32>, %b: tensor<768x784xf32>) -> tensor<768x784xf32> {
  %m = relay.nn.matmul %a, %b : (tensor<768x768xf32>, tensor<768x784xf32>) -> tensor<768x784xf32>
  relay.return %m : tensor<768x784xf32>
}

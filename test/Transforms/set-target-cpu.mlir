// RUN: relay-mlir-opt %s --split-input-file --relay-set-target-cpu=cpu=haswell | FileCheck %s --check-prefix=HASWELL
// RUN: relay-mlir-opt %s --split-input-file --relay-set-target-cpu=cpu=sapphirerapids | FileCheck %s --check-prefix=SPR
// RUN: relay-mlir-opt %s --split-input-file --relay-set-target-cpu | FileCheck %s --check-prefix=HOST
// RUN: relay-mlir-opt %s --split-input-file --relay-set-target-cpu=cpu=znver4 --relay-tile-and-vectorize | FileCheck %s --check-prefix=TILES
// RUN: relay-mlir-opt %s --split-input-file "--relay-set-target-cpu=cpu=haswell threads=2" | FileCheck %s --check-prefix=THREADS

// Tests that a named CPU is recorded as the module's DLTI target system
// spec with its LLVM features, its family's caches and its vector width:
// Haswell has AVX2 (256 bits) and a 256 KB L2, a Sapphire Rapids AVX-512,
// AMX and a 2 MB L2 with a 48 KB L1.
// HASWELL: module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"cpu" = "haswell", "features" = "{{[^"]*}}+avx2{{[^"]*}}", "L1_cache_size_in_bytes" = 32768 : i64, "L2_cache_size_in_bytes" = 262144 : i64, "L3_cache_size_in_bytes_per_core" = 2097152 : i64, "max_vector_op_width" = 256 : i64>>}
// HASWELL-NOT: avx512f
// HASWELL-NOT: "threads"
// Tests that the threads the code runs on, when given, are recorded too.
// THREADS: "max_vector_op_width" = 256 : i64, "threads" = 2 : i64>>}
// SPR: "cpu" = "sapphirerapids", "features" = "{{[^"]*}}+amx-tile{{[^"]*}}+avx512f{{[^"]*}}", "L1_cache_size_in_bytes" = 49152 : i64, "L2_cache_size_in_bytes" = 2097152 : i64, {{.*}}"max_vector_op_width" = 512 : i64
// The host: whatever this machine is, its name and caches are recorded.
// HOST: module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"cpu" = "{{[a-z0-9-]+}}", "features" = "{{.*}}", "L1_cache_size_in_bytes" = {{[1-9][0-9]*}} : i64, "L2_cache_size_in_bytes" = {{[1-9][0-9]*}} : i64
// TILES-LABEL: func.func @matmul
// TILES: vector.contract {{.*}} into vector<8x32xf32>
func.func @matmul(%a: memref<64x64xf32>, %b: memref<64x64xf32>,
                  %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>)
                outs(%c : memref<64x64xf32>)
  return
}

// -----

// Tests that a module's own spec is kept (a CPU described by hand): its
// keys size the tiles, those it lacks come from the CPU it names. Here an
// AVX2 CPU: register tiles of 6 rows x 2 vectors of 8 lanes, cache tiles
// of 48 rows; a 64 KB L1 and a 4 MB L2 make the k tile 1365 and 4096
// floats, the smaller capped at 1024.
// HASWELL: "cpu" = "haswell", "L1_cache_size_in_bytes" = 65536 : i64, "L2_cache_size_in_bytes" = 4194304 : i64>>}
// SPR: "cpu" = "haswell", "L1_cache_size_in_bytes" = 65536 : i64, "L2_cache_size_in_bytes" = 4194304 : i64>>}
// Tests that the threads are added to a module's own spec.
// THREADS: "cpu" = "haswell", "L1_cache_size_in_bytes" = 65536 : i64, "L2_cache_size_in_bytes" = 4194304 : i64, "threads" = 2 : i64>>}
// TILES-LABEL: func.func @described_by_hand
// TILES: scf.for {{.*}} step %c48
// TILES: scf.for {{.*}} step %c64
// TILES: scf.for {{.*}} step %c1024
// TILES: vector.contract {{.*}} into vector<6x16xf32>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "CPU" = #dlti.target_device_spec<"cpu" = "haswell",
                                     "L1_cache_size_in_bytes" = 65536 : i64,
                                     "L2_cache_size_in_bytes" = 4194304 : i64>>} {
func.func @described_by_hand(%a: memref<96x2048xf32>, %b: memref<2048x128xf32>,
                             %c: memref<96x128xf32>) {
  linalg.matmul ins(%a, %b : memref<96x2048xf32>, memref<2048x128xf32>)
                outs(%c : memref<96x128xf32>)
  return
}
}

// -----

// Tests that the last-level cache sets when a long product's B panel goes
// k tiles outside m tiles: with 64 MB per core (the threshold at its cap,
// 16 MB) the 8 MB panel of 32768 x 64 floats stays in m, n, k order.
// TILES-LABEL: func.func @long_k_large_cache
// TILES:       scf.for {{.*}} to %c128 step %c64
// TILES:         scf.for {{.*}} to %c32768 step %c512
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "CPU" = #dlti.target_device_spec<"cpu" = "znver4",
                                     "L3_cache_size_in_bytes_per_core" = 67108864 : i64>>} {
func.func @long_k_large_cache(%a: memref<128x32768xf32>, %b: memref<32768x64xf32>,
                              %c: memref<128x64xf32>) {
  linalg.matmul ins(%a, %b : memref<128x32768xf32>, memref<32768x64xf32>)
                outs(%c : memref<128x64xf32>)
  return
}
}

// -----

// Tests that the k tile also keeps a register tile's A panel within half
// of L1: a Sapphire Rapids' 2 MB L2 alone would make it 1024 floats, its
// 48 KB L1 bounds it at 768 (an 8-row panel of 24 KB), so 2048 splits into
// k tiles of 512.
// TILES-LABEL: func.func @k_tile_in_l1
// TILES:       scf.for {{.*}} to %c128 step %c64
// TILES:         scf.for {{.*}} to %c2048 step %c512
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "CPU" = #dlti.target_device_spec<"cpu" = "sapphirerapids">>} {
func.func @k_tile_in_l1(%a: memref<128x2048xf32>, %b: memref<2048x128xf32>,
                        %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x2048xf32>, memref<2048x128xf32>)
                outs(%c : memref<128x128xf32>)
  return
}
}

// -----

// Tests that the spec's other devices are kept when the CPU is recorded.
// HASWELL: module attributes {dlti.target_system_spec = #dlti.target_system_spec<"GPU" = #dlti.target_device_spec<"max_vector_op_width" = 128 : i64>, "CPU" = #dlti.target_device_spec<"cpu" = "haswell"
// THREADS: "GPU" = #dlti.target_device_spec<"max_vector_op_width" = 128 : i64>, "CPU" = {{.*}}"threads" = 2 : i64>>}
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "GPU" = #dlti.target_device_spec<"max_vector_op_width" = 128 : i64>>} {
}

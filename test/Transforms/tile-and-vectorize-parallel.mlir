// RUN: relay-mlir-opt %s --split-input-file --relay-tile-and-vectorize=threads=2 | FileCheck %s
// With threads, the m and n cache tiles of a large contraction are an
// scf.forall; k stays a sequential loop inside, and the register tiles and
// the accumulator hoisting are as without threads.

// CHECK-LABEL: func.func @matmul
// CHECK:       scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (256, 512) step (64, 128)
// CHECK:         scf.for {{.*}} step %c512
// CHECK:           scf.for {{.*}} step %c8
// CHECK:             scf.for {{.*}} step %c32
// CHECK:               scf.for {{.*}} iter_args(%{{.*}}) -> (vector<8x32xf32>)
// CHECK:                 vector.contract
func.func @matmul(%a: memref<256x1024xf32>, %b: memref<1024x512xf32>,
                  %c: memref<256x512xf32>) {
  linalg.matmul ins(%a, %b : memref<256x1024xf32>, memref<1024x512xf32>)
                outs(%c : memref<256x512xf32>)
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

// Enough work (2*512*12544*64 flops) but a short k: the product streams its
// output through memory and stays on one thread.
// CHECK-LABEL: func.func @short_k
// CHECK-NOT: scf.forall
func.func @short_k(%a: memref<512x64xf32>, %b: memref<64x12544xf32>,
                   %c: memref<512x12544xf32>) {
  linalg.matmul ins(%a, %b : memref<512x64xf32>, memref<64x12544xf32>)
                outs(%c : memref<512x12544xf32>)
  return
}

// -----

// A long k but too little work (2*128*512*256 flops, 32 MFLOP): each thread
// would get four cache tiles, not enough to pay for waking it.
// CHECK-LABEL: func.func @below_threshold
// CHECK-NOT: scf.forall
func.func @below_threshold(%a: memref<128x256xf32>, %b: memref<256x512xf32>,
                           %c: memref<128x512xf32>) {
  linalg.matmul ins(%a, %b : memref<128x256xf32>, memref<256x512xf32>)
                outs(%c : memref<128x512xf32>)
  return
}

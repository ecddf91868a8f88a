// RUN: relay-mlir-opt %s --split-input-file --relay-limit-copy-unrolling | FileCheck %s

// Tests that in a nest of copy loops (an im2col tap of an 8-channel image:
// 8 channels, 16 rows, two 32-lane halves) only the loop whose complete
// unrolling would pass 512 operations, the channels' (8 x 16 x 2 copies),
// is kept from unrolling; the rows and halves inside it still unroll.
// CHECK:       #[[$UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK:       #[[$ANNOTATION:.*]] = #llvm.loop_annotation<unroll = #[[$UNROLL]]>
// CHECK-LABEL: func.func @copy_nest
// CHECK:       scf.for
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:           }
// CHECK-NOT:       loop_annotation
// CHECK:         }
// CHECK-NOT:     loop_annotation
// CHECK:       } {llvm.loop_annotation = #[[$ANNOTATION]]}
func.func @copy_nest(%src: memref<8x16x64xf32>, %dst: memref<8x16x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %pad = arith.constant 0.0 : f32
  scf.for %c = %c0 to %c8 step %c1 {
    scf.for %r = %c0 to %c16 step %c1 {
      scf.for %h = %c0 to %c2 step %c1 {
        %col = arith.muli %h, %c32 : index
        %v = vector.transfer_read %src[%c, %r, %col], %pad {in_bounds = [true]} : memref<8x16x64xf32>, vector<32xf32>
        %w = arith.addf %v, %v : vector<32xf32>
        %u = arith.mulf %w, %v : vector<32xf32>
        vector.transfer_write %u, %dst[%c, %r, %col] {in_bounds = [true]} : vector<32xf32>, memref<8x16x64xf32>
      }
    }
  }
  return
}

// -----

// Tests that what LLVM would not unroll into a large block, or may unroll
// usefully, stays unannotated: a small nest (4 x 8 copies), a loop of more
// than 64 iterations, a loop of unknown trip count, and a reduction
// (a loop carrying a value: a product's k loop).
// CHECK-LABEL: func.func @kept
// CHECK-NOT: loop_annotation
// CHECK: return
func.func @kept(%src: memref<128x64xf32>, %dst: memref<128x64xf32>, %n: index) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<32xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = vector.transfer_read %src[%i, %j], %pad {in_bounds = [true]} : memref<128x64xf32>, vector<32xf32>
      vector.transfer_write %v, %dst[%i, %j] {in_bounds = [true]} : vector<32xf32>, memref<128x64xf32>
    }
  }
  scf.for %i = %c0 to %c128 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = vector.transfer_read %src[%i, %j], %pad {in_bounds = [true]} : memref<128x64xf32>, vector<32xf32>
      %w = arith.addf %v, %v : vector<32xf32>
      vector.transfer_write %w, %dst[%i, %j] {in_bounds = [true]} : vector<32xf32>, memref<128x64xf32>
    }
  }
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %c128 step %c1 {
      %v = vector.transfer_read %src[%j, %i], %pad {in_bounds = [true]} : memref<128x64xf32>, vector<32xf32>
      vector.transfer_write %v, %dst[%j, %i] {in_bounds = [true]} : vector<32xf32>, memref<128x64xf32>
    }
  }
  %sum = scf.for %k = %c0 to %c128 step %c1 iter_args(%acc = %zero) -> vector<32xf32> {
    %v = vector.transfer_read %src[%k, %c0], %pad {in_bounds = [true]} : memref<128x64xf32>, vector<32xf32>
    %a = arith.addf %acc, %v : vector<32xf32>
    scf.yield %a : vector<32xf32>
  }
  return %sum : vector<32xf32>
}

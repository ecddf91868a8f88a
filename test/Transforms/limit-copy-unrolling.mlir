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

// -----

// Tests that copy nests that each unroll within the bound but follow one
// another (an im2col copy's taps: 3 channels of 8 rows, 99 operations
// unrolled) are not all unrolled into one straight run: the nest that
// would take the run past 512 operations, the sixth after the constants,
// is kept as a loop (which ends the run), and the seventh unrolls again.
// CHECK:       #[[$ANNOTATION:.*]] = #llvm.loop_annotation<unroll =
// CHECK-LABEL: func.func @taps
// CHECK:       vector.transfer_write %{{.*}}, %arg1[
// CHECK-NEXT:  {{^ *}}}{{$}}
// CHECK-NEXT:  {{^ *}}}{{$}}
// CHECK:       vector.transfer_write %{{.*}}, %arg2[
// CHECK-NEXT:  {{^ *}}}{{$}}
// CHECK-NEXT:  {{^ *}}}{{$}}
// CHECK:       vector.transfer_write %{{.*}}, %arg3[
// CHECK-NEXT:  {{^ *}}}{{$}}
// CHECK-NEXT:  {{^ *}}}{{$}}
// CHECK:       vector.transfer_write %{{.*}}, %arg4[
// CHECK-NEXT:  {{^ *}}}{{$}}
// CHECK-NEXT:  {{^ *}}}{{$}}
// CHECK:       vector.transfer_write %{{.*}}, %arg5[
// CHECK-NEXT:  {{^ *}}}{{$}}
// CHECK-NEXT:  {{^ *}}}{{$}}
// CHECK:       vector.transfer_write %{{.*}}, %arg6[
// CHECK-NEXT:  {{^ *}}}{{$}}
// CHECK-NEXT:  } {llvm.loop_annotation = #[[$ANNOTATION]]}
// CHECK:       vector.transfer_write %{{.*}}, %arg7[
// CHECK-NEXT:  {{^ *}}}{{$}}
// CHECK-NEXT:  {{^ *}}}{{$}}
func.func @taps(%src: memref<3x8x32xf32>, %d0: memref<3x8x32xf32>, %d1: memref<3x8x32xf32>, %d2: memref<3x8x32xf32>, %d3: memref<3x8x32xf32>, %d4: memref<3x8x32xf32>, %d5: memref<3x8x32xf32>, %d6: memref<3x8x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  scf.for %ch0 = %c0 to %c3 step %c1 {
    scf.for %r0 = %c0 to %c8 step %c1 {
      %v0 = vector.transfer_read %src[%ch0, %r0, %c0], %pad {in_bounds = [true]} : memref<3x8x32xf32>, vector<32xf32>
      %w0 = arith.mulf %v0, %v0 : vector<32xf32>
      vector.transfer_write %w0, %d0[%ch0, %r0, %c0] {in_bounds = [true]} : vector<32xf32>, memref<3x8x32xf32>
    }
  }
  scf.for %ch1 = %c0 to %c3 step %c1 {
    scf.for %r1 = %c0 to %c8 step %c1 {
      %v1 = vector.transfer_read %src[%ch1, %r1, %c0], %pad {in_bounds = [true]} : memref<3x8x32xf32>, vector<32xf32>
      %w1 = arith.mulf %v1, %v1 : vector<32xf32>
      vector.transfer_write %w1, %d1[%ch1, %r1, %c0] {in_bounds = [true]} : vector<32xf32>, memref<3x8x32xf32>
    }
  }
  scf.for %ch2 = %c0 to %c3 step %c1 {
    scf.for %r2 = %c0 to %c8 step %c1 {
      %v2 = vector.transfer_read %src[%ch2, %r2, %c0], %pad {in_bounds = [true]} : memref<3x8x32xf32>, vector<32xf32>
      %w2 = arith.mulf %v2, %v2 : vector<32xf32>
      vector.transfer_write %w2, %d2[%ch2, %r2, %c0] {in_bounds = [true]} : vector<32xf32>, memref<3x8x32xf32>
    }
  }
  scf.for %ch3 = %c0 to %c3 step %c1 {
    scf.for %r3 = %c0 to %c8 step %c1 {
      %v3 = vector.transfer_read %src[%ch3, %r3, %c0], %pad {in_bounds = [true]} : memref<3x8x32xf32>, vector<32xf32>
      %w3 = arith.mulf %v3, %v3 : vector<32xf32>
      vector.transfer_write %w3, %d3[%ch3, %r3, %c0] {in_bounds = [true]} : vector<32xf32>, memref<3x8x32xf32>
    }
  }
  scf.for %ch4 = %c0 to %c3 step %c1 {
    scf.for %r4 = %c0 to %c8 step %c1 {
      %v4 = vector.transfer_read %src[%ch4, %r4, %c0], %pad {in_bounds = [true]} : memref<3x8x32xf32>, vector<32xf32>
      %w4 = arith.mulf %v4, %v4 : vector<32xf32>
      vector.transfer_write %w4, %d4[%ch4, %r4, %c0] {in_bounds = [true]} : vector<32xf32>, memref<3x8x32xf32>
    }
  }
  scf.for %ch5 = %c0 to %c3 step %c1 {
    scf.for %r5 = %c0 to %c8 step %c1 {
      %v5 = vector.transfer_read %src[%ch5, %r5, %c0], %pad {in_bounds = [true]} : memref<3x8x32xf32>, vector<32xf32>
      %w5 = arith.mulf %v5, %v5 : vector<32xf32>
      vector.transfer_write %w5, %d5[%ch5, %r5, %c0] {in_bounds = [true]} : vector<32xf32>, memref<3x8x32xf32>
    }
  }
  scf.for %ch6 = %c0 to %c3 step %c1 {
    scf.for %r6 = %c0 to %c8 step %c1 {
      %v6 = vector.transfer_read %src[%ch6, %r6, %c0], %pad {in_bounds = [true]} : memref<3x8x32xf32>, vector<32xf32>
      %w6 = arith.mulf %v6, %v6 : vector<32xf32>
      vector.transfer_write %w6, %d6[%ch6, %r6, %c0] {in_bounds = [true]} : vector<32xf32>, memref<3x8x32xf32>
    }
  }
  return
}

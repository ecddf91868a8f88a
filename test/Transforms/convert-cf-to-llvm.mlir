// RUN: relay-mlir-opt %s --split-input-file --relay-convert-cf-to-llvm | FileCheck %s

// Tests that a branch carrying AMX tiles (the accumulators of
// --relay-lower-amx-products' k loop, once lowered to blocks) becomes
// llvm.br with x86_amx block arguments, where upstream's --convert-cf-to-llvm
// cannot convert the tile type.
// CHECK-LABEL: func.func @tiles
// CHECK:       %[[ZERO:.*]] = llvm.call_intrinsic "llvm.x86.tilezero.internal"
// CHECK:       llvm.br ^bb1(%[[ZERO]] : !llvm.x86_amx)
// CHECK:     ^bb1(%[[T:.*]]: !llvm.x86_amx):
// CHECK:       llvm.cond_br %{{.*}}, ^bb1(%[[T]] : !llvm.x86_amx), ^bb2
// CHECK:       llvm.call_intrinsic "llvm.x86.tilestored64.internal"
func.func @tiles(%out: memref<16x16xf32>, %again: i1) {
  %c0 = arith.constant 0 : index
  %zero = amx.tile_zero : !amx.tile<16x16xf32>
  cf.br ^loop(%zero : !amx.tile<16x16xf32>)
^loop(%t: !amx.tile<16x16xf32>):
  cf.cond_br %again, ^loop(%t : !amx.tile<16x16xf32>), ^done
^done:
  amx.tile_store %out[%c0, %c0], %t : memref<16x16xf32>, !amx.tile<16x16xf32>
  return
}

// -----

// Tests that other control flow lowers as upstream's pass lowers it.
// CHECK-LABEL: func.func @plain
// CHECK:       llvm.cond_br %{{.*}}, ^bb1, ^bb2
// CHECK:       llvm.br ^bb2
func.func @plain(%c: i1) {
  cf.cond_br %c, ^a, ^b
^a:
  cf.br ^b
^b:
  return
}

// -----

#unroll = #llvm.loop_unroll<disable = true>
#annotation = #llvm.loop_annotation<unroll = #unroll>

// Tests that the loop annotation scf-to-cf copies onto a loop's back edge
// (--relay-limit-copy-unrolling's) becomes the llvm.br's own, which the
// translation writes as llvm.loop metadata, and leaves no discardable copy.
// CHECK-LABEL: func.func @annotated_back_edge
// CHECK:       llvm.br ^bb1 {loop_annotation = #{{.*}}}
// CHECK-NOT:   llvm.loop_annotation =
func.func @annotated_back_edge(%again: i1) {
  cf.br ^loop
^loop:
  cf.cond_br %again, ^latch, ^done
^latch:
  cf.br ^loop {llvm.loop_annotation = #annotation}
^done:
  return
}

// RUN: relay-mlir-opt %s --relay-fuse-elementwise --split-input-file | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

// A chain of elementwise ops, the second reading a broadcast bias: one
// generic computes both.
// CHECK-LABEL: func.func @chain
// CHECK: linalg.generic
// CHECK-SAME: ins(%arg0, %arg1, %arg2 :
// CHECK: arith.addf
// CHECK: arith.addf
// CHECK: math.tanh
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %bias: tensor<8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s, %bias : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    %h = math.tanh %r : f32
    linalg.yield %h : f32
  } -> tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#vec = affine_map<(d0) -> (d0)>

// A producer read through a broadcast would be recomputed per row, and one
// with two users would be computed twice: neither is fused.
// CHECK-LABEL: func.func @not_fused
// CHECK: math.exp
// CHECK: linalg.generic
// CHECK: math.tanh
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK: arith.mulf
// CHECK: return
func.func @not_fused(%v: tensor<8xf32>, %a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %e1 = tensor.empty() : tensor<8xf32>
  %exp = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]}
      ins(%v : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t, %exp : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %s, %t, %m : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#sum = affine_map<(d0, d1) -> (d0)>
#vec = affine_map<(d0) -> (d0)>

// A reduction is neither fused into its user nor given its producer.
// CHECK-LABEL: func.func @reduction
// CHECK: math.exp
// CHECK: linalg.generic
// CHECK-SAME: "reduction"
// CHECK: linalg.generic
// CHECK: math.log
func.func @reduction(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%z : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id, #sum], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %o, %v : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %l = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]}
      ins(%s : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.log %v : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %l : tensor<4xf32>
}

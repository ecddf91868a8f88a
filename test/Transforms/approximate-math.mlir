// RUN: relay-mlir-opt %s --relay-approximate-math --split-input-file | FileCheck %s

// f32 tanh, exp and log on vectors become arithmetic on the same vectors:
// no math op (and so no per-element libm call) is left.
// CHECK-LABEL: func.func @vectors
// CHECK-NOT: math.tanh
// CHECK-NOT: math.exp
// CHECK-NOT: math.log
// CHECK: math.fma {{.*}} : vector<16xf32>
// CHECK: return
func.func @vectors(%x: vector<16xf32>) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>) {
  %t = math.tanh %x : vector<16xf32>
  %e = math.exp %x : vector<16xf32>
  %l = math.log %x : vector<16xf32>
  return %t, %e, %l : vector<16xf32>, vector<16xf32>, vector<16xf32>
}

// -----

// Scalars are approximated too; erf and expm1 are in the set.
// CHECK-LABEL: func.func @scalars
// CHECK-NOT: math.erf
// CHECK-NOT: math.expm1
// CHECK: return
func.func @scalars(%x: f32) -> (f32, f32) {
  %a = math.erf %x : f32
  %b = math.expm1 %x : f32
  return %a, %b : f32, f32
}

// -----

// sin (inaccurate far from zero in upstream's approximation) and f64 ops
// are left for libm.
// CHECK-LABEL: func.func @kept
// CHECK: math.sin %{{.*}} : vector<16xf32>
// CHECK: math.tanh %{{.*}} : f64
func.func @kept(%x: vector<16xf32>, %y: f64) -> (vector<16xf32>, f64) {
  %s = math.sin %x : vector<16xf32>
  %t = math.tanh %y : f64
  return %s, %t : vector<16xf32>, f64
}

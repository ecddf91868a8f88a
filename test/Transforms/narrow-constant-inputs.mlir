// RUN: relay-mlir-opt %s --relay-narrow-constant-inputs --split-input-file | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#ch = affine_map<(d0, d1) -> (d1)>

// Tests that a requantization's per-channel constants become the narrowest
// type that holds them (the significands i32, the shifts i8), each
// sign-extended where the body reads it, while the rounding terms, which
// need 64 bits, stay i64; the arithmetic is unchanged.
// CHECK-LABEL: func.func @requantize
// CHECK-DAG: %[[M:.*]] = arith.constant dense<[1518500250, 1073741824]> : tensor<2xi32>
// CHECK-DAG: %[[R:.*]] = arith.constant dense<[4294967296, 2147483648]> : tensor<2xi64>
// CHECK-DAG: %[[S:.*]] = arith.constant dense<[33, 32]> : tensor<2xi8>
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %[[M]], %[[R]], %[[S]] : tensor<4x2xi32>, tensor<2xi32>, tensor<2xi64>, tensor<2xi8>)
// CHECK: ^bb0(%[[X:.*]]: i32, %[[M32:.*]]: i32, %[[R64:.*]]: i64, %[[S8:.*]]: i8, %{{.*}}: i8):
// CHECK-DAG: %[[SW:.*]] = arith.extsi %[[S8]] : i8 to i64
// CHECK-DAG: %[[MW:.*]] = arith.extsi %[[M32]] : i32 to i64
// CHECK: %[[XW:.*]] = arith.extsi %[[X]] : i32 to i64
// CHECK: %[[P:.*]] = arith.muli %[[XW]], %[[MW]] : i64
// CHECK: %[[T:.*]] = arith.addi %[[P]], %[[R64]] : i64
// CHECK: arith.shrsi %[[T]], %[[SW]] : i64
func.func @requantize(%x: tensor<4x2xi32>) -> tensor<4x2xi8> {
  %m = arith.constant dense<[1518500250, 1073741824]> : tensor<2xi64>
  %r = arith.constant dense<[4294967296, 2147483648]> : tensor<2xi64>
  %s = arith.constant dense<[33, 32]> : tensor<2xi64>
  %e = tensor.empty() : tensor<4x2xi8>
  %y = linalg.generic {indexing_maps = [#id, #ch, #ch, #ch, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m, %r, %s : tensor<4x2xi32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) outs(%e : tensor<4x2xi8>) {
  ^bb0(%a: i32, %b: i64, %c: i64, %d: i64, %o: i8):
    %w = arith.extsi %a : i32 to i64
    %p = arith.muli %w, %b : i64
    %t = arith.addi %p, %c : i64
    %q = arith.shrsi %t, %d : i64
    %n = arith.trunci %q : i64 to i8
    linalg.yield %n : i8
  } -> tensor<4x2xi8>
  return %y : tensor<4x2xi8>
}

// -----

#id = affine_map<(d0) -> (d0)>

// Tests that the bounds of each width are kept exactly: -32768 and 32767
// fit 16 bits, -32769 needs 32, and a splat narrows like any constant.
// CHECK-LABEL: func.func @bounds
// CHECK-DAG: arith.constant dense<[-32768, 32767]> : tensor<2xi16>
// CHECK-DAG: arith.constant dense<[-32769, 0]> : tensor<2xi32>
// CHECK-DAG: arith.constant dense<-128> : tensor<2xi8>
// CHECK-NOT: arith.constant {{.*}} : tensor<2xi64>
// CHECK: ^bb0(%{{.*}}: i16, %{{.*}}: i32, %{{.*}}: i8, %{{.*}}: i64):
func.func @bounds() -> tensor<2xi64> {
  %a = arith.constant dense<[-32768, 32767]> : tensor<2xi64>
  %b = arith.constant dense<[-32769, 0]> : tensor<2xi64>
  %c = arith.constant dense<-128> : tensor<2xi64>
  %e = tensor.empty() : tensor<2xi64>
  %y = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b, %c : tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) outs(%e : tensor<2xi64>) {
  ^bb0(%p: i64, %q: i64, %r: i64, %o: i64):
    %s = arith.addi %p, %q : i64
    %t = arith.addi %s, %r : i64
    linalg.yield %t : i64
  } -> tensor<2xi64>
  return %y : tensor<2xi64>
}

// -----

#id = affine_map<(d0) -> (d0)>

// Tests that what is not a 64-bit constant the body reads stays: a value
// that needs 64 bits, an i32 constant, a function argument, and a
// constant the body never reads.
// CHECK-LABEL: func.func @kept
// CHECK-DAG: arith.constant dense<[2147483648, 1]> : tensor<2xi64>
// CHECK-DAG: arith.constant dense<[5, 6]> : tensor<2xi32>
// CHECK-DAG: arith.constant dense<7> : tensor<2xi64>
// CHECK-NOT: arith.extsi
// CHECK: return
func.func @kept(%arg: tensor<2xi64>) -> tensor<2xi64> {
  %big = arith.constant dense<[2147483648, 1]> : tensor<2xi64>
  %i32 = arith.constant dense<[5, 6]> : tensor<2xi32>
  %unused = arith.constant dense<7> : tensor<2xi64>
  %e = tensor.empty() : tensor<2xi64>
  %y = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%big, %i32, %arg, %unused : tensor<2xi64>, tensor<2xi32>, tensor<2xi64>, tensor<2xi64>) outs(%e : tensor<2xi64>) {
  ^bb0(%p: i64, %q: i32, %r: i64, %u: i64, %o: i64):
    %w = arith.extui %q : i32 to i64
    %s = arith.addi %p, %w : i64
    %t = arith.addi %s, %r : i64
    linalg.yield %t : i64
  } -> tensor<2xi64>
  return %y : tensor<2xi64>
}

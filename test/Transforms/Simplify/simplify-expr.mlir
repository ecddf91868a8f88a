// RUN: relay-mlir-opt %s --split-input-file --relay-simplify-expr | FileCheck %s

// Tests that a chain of reshape-like ops is one reshape, and that a chain
// back to the operand's type is the operand.
// CHECK-LABEL: relay.func @reshapes(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>
// CHECK: %[[R:.*]] = relay.reshape %[[X]] {newshape = array<i64: 3, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NOT: relay.expand_dims
// CHECK: relay.tuple(%[[R]], %[[X]]
relay.func @reshapes(%x: tensor<2x3xf32>) -> tuple<tensor<3x2xf32>, tensor<2x3xf32>> {
  %a = relay.reshape %x {newshape = array<i64: 6>} : (tensor<2x3xf32>) -> tensor<6xf32>
  %b = relay.expand_dims %a {axis = 0 : i64} : (tensor<6xf32>) -> tensor<1x6xf32>
  %c = relay.reshape %b {newshape = array<i64: 3, 2>} : (tensor<1x6xf32>) -> tensor<3x2xf32>
  %d = relay.reshape %a {newshape = array<i64: 2, 3>} : (tensor<6xf32>) -> tensor<2x3xf32>
  %t = relay.tuple(%c, %d : tensor<3x2xf32>, tensor<2x3xf32>)
  relay.return %t : tuple<tensor<3x2xf32>, tensor<2x3xf32>>
}

// -----

// Tests that two transposes compose into one, and into nothing when they
// cancel.
// CHECK-LABEL: relay.func @transposes(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>
// CHECK: %[[T:.*]] = relay.transpose %[[X]] {axes = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK: relay.tuple(%[[T]], %[[X]]
relay.func @transposes(%x: tensor<2x3x4xf32>) -> tuple<tensor<4x2x3xf32>, tensor<2x3x4xf32>> {
  %a = relay.transpose %x {axes = array<i64: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %b = relay.transpose %a {axes = array<i64: 1, 0, 2>} : (tensor<2x4x3xf32>) -> tensor<4x2x3xf32>
  %c = relay.transpose %a {axes = array<i64: 0, 2, 1>} : (tensor<2x4x3xf32>) -> tensor<2x3x4xf32>
  %t = relay.tuple(%b, %c : tensor<4x2x3xf32>, tensor<2x3x4xf32>)
  relay.return %t : tuple<tensor<4x2x3xf32>, tensor<2x3x4xf32>>
}

// -----

// Tests that x * 1, 1 * x, x / 1, x + 0 and x - 0 are x, while a constant
// that broadcasts x to another shape is kept.
// CHECK-LABEL: relay.func @identities(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>
// CHECK: %[[B:.*]] = relay.multiply %[[X]], %{{.*}} : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK: relay.tuple(%[[X]], %[[B]]
relay.func @identities(%x: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<2x4xf32>> {
  %one = relay.constant dense<1.0> : tensor<f32>
  %zero = relay.constant dense<0.0> : tensor<f32>
  %ones = relay.constant dense<1.0> : tensor<2x4xf32>
  %a = relay.multiply %x, %one : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %b = relay.multiply %one, %a : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %c = relay.divide %b, %one : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %d = relay.add %c, %zero : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %e = relay.subtract %d, %zero : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %f = relay.multiply %e, %ones : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %t = relay.tuple(%e, %f : tensor<4xf32>, tensor<2x4xf32>)
  relay.return %t : tuple<tensor<4xf32>, tensor<2x4xf32>>
}

// -----

// Tests that a cast to the same type goes, and a cast of a widening cast
// casts the original value, while a narrowing one stays.
// CHECK-LABEL: relay.func @casts(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi32>
// CHECK: %[[H:.*]] = relay.cast %[[X]] {dtype = f16}
// CHECK: %[[N:.*]] = relay.cast %[[I]] {dtype = i8}
// CHECK: %[[W:.*]] = relay.cast %[[N]] {dtype = i32}
// CHECK: relay.tuple(%[[X]], %[[H]], %[[W]]
relay.func @casts(%x: tensor<4xf32>, %i: tensor<4xi32>) -> tuple<tensor<4xf32>, tensor<4xf16>, tensor<4xi32>> {
  %same = relay.cast %x {dtype = f32} : (tensor<4xf32>) -> tensor<4xf32>
  %wide = relay.cast %x {dtype = f64} : (tensor<4xf32>) -> tensor<4xf64>
  %half = relay.cast %wide {dtype = f16} : (tensor<4xf64>) -> tensor<4xf16>
  %narrow = relay.cast %i {dtype = i8} : (tensor<4xi32>) -> tensor<4xi8>
  %back = relay.cast %narrow {dtype = i32} : (tensor<4xi8>) -> tensor<4xi32>
  %t = relay.tuple(%same, %half, %back : tensor<4xf32>, tensor<4xf16>, tensor<4xi32>)
  relay.return %t : tuple<tensor<4xf32>, tensor<4xf16>, tensor<4xi32>>
}

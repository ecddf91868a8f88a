// RUN: relay-mlir-opt %s --split-input-file --relay-gradient=mode=first-order -verify-diagnostics | FileCheck %s

// Tests that the operators without a gradient rule (nor a decomposition
// into operators with one) are reported in one error, each at its location.
// expected-error @+1 {{relay-gradient: no gradient rule for relay.mod, relay.floor_mod}}
relay.func @main(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
  // expected-note @+1 {{'relay.mod' here}}
  %p = relay.mod %x, %x : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  // expected-note @+1 {{'relay.floor_mod' here}}
  %f = relay.floor_mod %p, %p : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %e = relay.exp %f : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  relay.return %e : tensor<1x1x2x2xf32>
}

// -----

// Tests that a scatter that multiplies (whose rule covers only overwriting
// and adding) is reported where it is.
relay.func @main(%x: tensor<3xf32>, %i: tensor<2xi64>, %u: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{relay-gradient: the gradient rule of 'relay.scatter_elements' does not cover this use}}
  %s = relay.scatter_elements %x, %i, %u {reduction = "mul"} : (tensor<3xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<3xf32>
  relay.return %s : tensor<3xf32>
}

// -----

// Tests that a composite operator without a rule of its own (lrn, sort) is
// differentiated through its decomposition: no error, and the gradient
// holds no lrn or sort.
relay.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = relay.nn.lrn %x {size = 3 : i64, axis = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %f = relay.sort %s : (tensor<4xf32>) -> tensor<4xf32>
  %e = relay.exp %f : (tensor<4xf32>) -> tensor<4xf32>
  relay.return %e : tensor<4xf32>
}
// CHECK-LABEL: relay.func @main_grad
// CHECK-NOT:     relay.nn.lrn
// CHECK-NOT:     relay.sort
// CHECK:         relay.return

// -----

// Tests that control flow is an error at the construct: the first-order
// gradient covers operators, constants, tuples and projections.
relay.func @main(%x: tensor<f32>, %c: tensor<i1>) -> tensor<f32> {
  // expected-error @+1 {{relay-gradient: the first-order gradient cannot differentiate 'relay.if' (it covers operators, constants, tuples and projections)}}
  %r = relay.if %c : tensor<i1> -> tensor<f32> {
    relay.yield %x : tensor<f32>
  } else {
    relay.yield %x : tensor<f32>
  }
  relay.return %r : tensor<f32>
}

// -----

// Tests that a call asks for inlining first.
relay.func private @g(%x: tensor<f32>) -> tensor<f32> {
  relay.return %x : tensor<f32>
}
relay.func @main(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{relay-gradient: the first-order gradient cannot differentiate 'relay.call' (inline the callee first: --inline)}}
  %r = relay.call @g(%x) : (tensor<f32>) -> tensor<f32>
  relay.return %r : tensor<f32>
}

// -----

// Tests that a parameter holding a function is an error at the function
// (tuples of tensors are differentiated).
// expected-error @+1 {{relay-gradient: @main takes a 'tuple<tensor<f32>, !relay.fn<(tensor<f32>) -> tensor<f32>>>'; the first-order gradient differentiates functions of tensors and (nested) tuples of them}}
relay.func @main(%t: tuple<tensor<f32>, !relay.fn<(tensor<f32>) -> tensor<f32>>>) -> tensor<f32> {
  %x = relay.tuple_get %t[0] : tuple<tensor<f32>, !relay.fn<(tensor<f32>) -> tensor<f32>>>
  relay.return %x : tensor<f32>
}

// -----

// Tests that a missing function is an error.
// expected-error @+1 {{relay-gradient: the module has no function @main}}
module {
  relay.func @other(%x: tensor<f32>) -> tensor<f32> {
    relay.return %x : tensor<f32>
  }
}

// -----

// Tests that an image.resize2d of data of run-time sizes (whose rule needs
// the static sizes its taps are tables of) is reported where it is.
relay.func @main(%x: tensor<1x1x?x?xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error @+1 {{relay-gradient: the gradient rule of 'relay.image.resize2d' does not cover this use}}
  %u = relay.image.resize2d %x {size = array<i64: 4, 4>} : (tensor<1x1x?x?xf32>) -> tensor<1x1x4x4xf32>
  relay.return %u : tensor<1x1x4x4xf32>
}

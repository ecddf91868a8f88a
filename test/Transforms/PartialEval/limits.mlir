// RUN: relay-mlir-opt %s --split-input-file --relay-partial-eval=max-depth=4 -verify-diagnostics | FileCheck %s
// RUN: not relay-mlir-opt %s --relay-partial-eval=fuel=lots 2>&1 | FileCheck %s --check-prefix=OPTION

// Tests that a recursion that never ends is unfolded up to the budget, with
// a remark, then emitted as a call: the pass terminates.
// OPTION: for the --fuel option: 'lots' value invalid
// CHECK-LABEL: relay.func @spin(
// CHECK-COUNT-5: relay.exp
// CHECK: relay.call @spin(
// expected-remark @+1 {{relay-partial-eval: not unfolded: at max-depth (the rest of the evaluation emits calls)}}
relay.func @spin(%x: tensor<f32>) -> tensor<f32> {
  %e = relay.exp %x : (tensor<f32>) -> tensor<f32>
  %r = relay.call @spin(%e) : (tensor<f32>) -> tensor<f32>
  %n = relay.negative %r : (tensor<f32>) -> tensor<f32>
  relay.return %n : tensor<f32>
}

// -----

// Tests that a tail-recursive loop that never ends runs out of fuel.
// CHECK-LABEL: relay.func @loop(
// CHECK: relay.call @loop(
// expected-remark @+1 {{relay-partial-eval: not unfolded: out of fuel (the rest of the evaluation emits calls)}}
relay.func @loop(%x: tensor<f32>) -> tensor<f32> {
  %r = relay.call @loop(%x) : (tensor<f32>) -> tensor<f32>
  relay.return %r : tensor<f32>
}

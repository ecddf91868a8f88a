// RUN: relay-mlir-opt %s --relay-defunctionalize="entry-functions=main" | FileCheck %s
// RUN: not relay-mlir-opt %s --relay-defunctionalize 2>&1 | FileCheck %s --check-prefix=ALL

// Tests that, given entry functions, the functions they do not reach are
// erased before closures become ADTs: @apply_twice, left behind when
// constant folding removed its only call with the closure made there,
// applies a closure type no function of the module has, which would
// otherwise need an apply function with no case. Without entry functions
// every function stays, and the application is the error it was.
// CHECK-NOT: @apply_twice
// CHECK-LABEL: relay.func @main(
// CHECK-NEXT: relay.constant dense<3.000000e+00>
// CHECK-NOT: @apply_twice
// CHECK-NOT: @helper
// ALL: defunctionalize-unreachable.mlir:[[# @LINE + 2]]:8: error: relay-defunctionalize: a closure of type '!relay.fn<(tensor<f32>) -> tensor<f32>>' is applied, but the module makes no function of that type
relay.func @apply_twice(%f: !relay.fn<(tensor<f32>) -> tensor<f32>>, %x: tensor<f32>) -> tensor<f32> {
  %a = relay.apply %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  %b = relay.apply %f(%a) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  relay.return %b : tensor<f32>
}

relay.func @main() -> tensor<f32> {
  %c = relay.constant dense<3.0> : tensor<f32>
  relay.return %c : tensor<f32>
}

relay.func @helper(%x: tensor<f32>) -> tensor<f32> {
  relay.return %x : tensor<f32>
}

// RUN: relay-mlir-opt %s --split-input-file --relay-inline-primitives | FileCheck %s
// RUN: relay-mlir-opt %s --split-input-file --relay-fuse-ops --relay-inline-primitives | FileCheck %s --check-prefix=ROUNDTRIP

// Tests that each call of a primitive function becomes the function's body
// and that the function, then unused, is erased, while a function that is
// not primitive stays called.
// CHECK-LABEL: relay.func @main(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[A:.*]] = relay.add %[[X]], %[[Y]]
// CHECK-NEXT: %[[R:.*]] = relay.nn.relu %[[A]]
// CHECK-NEXT: %[[B:.*]] = relay.add %[[R]], %[[X]]
// CHECK-NEXT: %[[S:.*]] = relay.nn.relu %[[B]]
// CHECK-NEXT: %[[T:.*]] = relay.call @helper(%[[S]])
// CHECK-NEXT: relay.return %[[T]]
// CHECK-NOT: @fused_add_nn_relu
// CHECK: relay.func @helper(
// ROUNDTRIP-LABEL: relay.func @main(
// ROUNDTRIP-NOT: relay.call @fused
// ROUNDTRIP: relay.call @helper(
// ROUNDTRIP-NOT: relay.primitive
relay.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %a = relay.call @fused_add_nn_relu(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b = relay.call @fused_add_nn_relu(%a, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %c = relay.call @helper(%b) : (tensor<4xf32>) -> tensor<4xf32>
  relay.return %c : tensor<4xf32>
}
relay.func private @fused_add_nn_relu(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> attributes {relay.primitive} {
  %s = relay.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = relay.nn.relu %s : (tensor<4xf32>) -> tensor<4xf32>
  relay.return %r : tensor<4xf32>
}
relay.func @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  %n = relay.negative %a : (tensor<4xf32>) -> tensor<4xf32>
  relay.return %n : tensor<4xf32>
}

// -----

// Tests that a public primitive function (another module may call it)
// stays after its calls are inlined.
// CHECK-LABEL: relay.func @caller(
// ROUNDTRIP-LABEL: relay.func @caller(
// CHECK-NEXT: relay.exp
// CHECK: relay.func @fused_exp(
relay.func @caller(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = relay.call @fused_exp(%x) : (tensor<4xf32>) -> tensor<4xf32>
  relay.return %a : tensor<4xf32>
}
relay.func @fused_exp(%a: tensor<4xf32>) -> tensor<4xf32> attributes {relay.primitive} {
  %e = relay.exp %a : (tensor<4xf32>) -> tensor<4xf32>
  relay.return %e : tensor<4xf32>
}

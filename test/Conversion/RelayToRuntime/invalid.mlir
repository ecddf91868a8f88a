// RUN: relay-mlir-opt %s --split-input-file --relay-to-runtime -verify-diagnostics

// Tests that a closure left in the module is an error naming the pass that
// lowers closures (as ADTs) first.
relay.func @scale(%x: tensor<f32>, %w: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{relay-to-runtime: cannot lower 'relay.fn': closures are lowered as ADTs, run --relay-defunctionalize first}}
  %f = relay.fn (%v: tensor<f32>) -> tensor<f32> {
    %m = relay.multiply %v, %w : (tensor<f32>, tensor<f32>) -> tensor<f32>
    relay.return %m : tensor<f32>
  }
  %r = relay.apply %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  relay.return %r : tensor<f32>
}

// -----

// Tests that a global function used as a value is one of them.
relay.func @double(%x: tensor<f32>) -> tensor<f32> {
  %y = relay.add %x, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
  relay.return %y : tensor<f32>
}
relay.func @value() -> !relay.fn<(tensor<f32>) -> tensor<f32>> {
  // expected-error @+1 {{relay-to-runtime: cannot lower 'relay.global_ref': closures are lowered as ADTs, run --relay-defunctionalize first}}
  %f = relay.global_ref @double : !relay.fn<(tensor<f32>) -> tensor<f32>>
  relay.return %f : !relay.fn<(tensor<f32>) -> tensor<f32>>
}

// RUN: relay-mlir-opt %s --split-input-file --relay-to-runtime -verify-diagnostics

// Tests that a global function used as a value needs the functions
// converted first: the closure kind's function calls it.
// expected-error @+1 {{relay-to-runtime: @double is used as a value; convert the functions first (--relay-to-scf)}}
relay.func @double(%x: tensor<f32>) -> tensor<f32> {
  %y = relay.add %x, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
  relay.return %y : tensor<f32>
}
relay.func @value() -> !relay.fn<(tensor<f32>) -> tensor<f32>> {
  %f = relay.global_ref @double : !relay.fn<(tensor<f32>) -> tensor<f32>>
  relay.return %f : !relay.fn<(tensor<f32>) -> tensor<f32>>
}

// -----

// Tests that a reference to a polymorphic function is reported at the op.
relay.func @id[a](%x: !relay.tvar<a>) -> !relay.tvar<a> {
  relay.return %x : !relay.tvar<a>
}
relay.func @poly_value() -> !relay.fn<[a](!relay.tvar<a>) -> !relay.tvar<a>> {
  // expected-error @+1 {{relay-to-runtime: cannot lower a reference to a polymorphic global function yet}}
  %f = relay.global_ref @id : !relay.fn<[a](!relay.tvar<a>) -> !relay.tvar<a>>
  relay.return %f : !relay.fn<[a](!relay.tvar<a>) -> !relay.tvar<a>>
}

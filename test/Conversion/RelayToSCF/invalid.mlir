// RUN: relay-mlir-opt %s --split-input-file --relay-to-scf -verify-diagnostics

// Tests that a polymorphic function is reported: it must be specialised.
// expected-error @+1 {{relay-to-scf: cannot lower polymorphic @id (run --relay-specialize first)}}
relay.func @id[a](%x: !relay.tvar<a>) -> !relay.tvar<a> {
  relay.return %x : !relay.tvar<a>
}

// -----

// Tests that a signature with a dynamic shape is reported at the function.
// expected-error @+1 {{relay-to-scf: cannot lower @dyn yet: its signature has 'tensor<?xf32>' (native code handles tensors of static shape and tuples of them)}}
relay.func @dyn(%x: tensor<?xf32>) -> tensor<?xf32> {
  relay.return %x : tensor<?xf32>
}

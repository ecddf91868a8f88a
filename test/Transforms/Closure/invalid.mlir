// RUN: relay-mlir-opt %s --split-input-file --relay-defunctionalize -verify-diagnostics

// Tests that applying a closure of a type no function of the module has (a
// function argument of the entry point) is an error at the application:
// defunctionalization sees the whole program.
relay.func @main(%f: !relay.fn<(tensor<f32>) -> tensor<f32>>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{relay-defunctionalize: a closure of type '!relay.fn<(tensor<f32>) -> tensor<f32>>' is applied, but the module makes no function of that type (a closure cannot come from outside the module)}}
  %r = relay.apply %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  relay.return %r : tensor<f32>
}

// -----

// Tests that a polymorphic closure no use gives one type is an error: its
// ADT would have no single signature.
relay.func @main() -> !relay.fn<[A](!relay.tvar<A>) -> !relay.tvar<A>> {
  // expected-error @+1 {{relay-defunctionalize: the closure has type '!relay.fn<[A](!relay.tvar<A>) -> !relay.tvar<A>>'; defunctionalization needs a monomorphic function type}}
  %f = relay.fn [A](%y: !relay.tvar<A>) -> !relay.tvar<A> {
    relay.return %y : !relay.tvar<A>
  }
  relay.return %f : !relay.fn<[A](!relay.tvar<A>) -> !relay.tvar<A>>
}

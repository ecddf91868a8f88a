// RUN: relay-mlir-opt %s --split-input-file --relay-forward-ad -verify-diagnostics

// Tests that the operators without a tangent rule are reported together,
// each at its location.
// expected-error @+1 {{relay-forward-ad: no tangent rule for relay.floor_divide, relay.floor_mod}}
relay.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{'relay.floor_divide' here}}
  %s = relay.floor_divide %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // expected-note @+1 {{'relay.floor_mod' here}}
  %m = relay.floor_mod %s, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  relay.return %m : tensor<4xf32>
}

// -----

// Tests that a missing function is an error.
// expected-error @+1 {{relay-forward-ad: the module has no function @main}}
module {
  relay.func @other(%x: tensor<f32>) -> tensor<f32> {
    relay.return %x : tensor<f32>
  }
}

// -----

// Tests that a closure parameter of the differentiated function is an
// error at it.
// expected-error @+1 {{relay-forward-ad: @main takes a '!relay.fn<(tensor<f32>) -> tensor<f32>>'; a derivative is taken with respect to tensors and tuples of tensors (build other values inside the function)}}
relay.func @main(%f: !relay.fn<(tensor<f32>) -> tensor<f32>>, %x: tensor<f32>) -> tensor<f32> {
  %y = relay.apply %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  relay.return %y : tensor<f32>
}

// -----

// Tests that a function returning an ADT value (CharRNN's list of
// characters) is an error at it, not a crash: a tangent has the result's
// type, tensors and tuples of them.
relay.data @Box {
  relay.ctor @Full(tensor<2xf32>)
}
// expected-error @+1 {{relay-forward-ad: @main returns '!relay.adt<@Box>'; a Jacobian-vector product needs a result of tensors (a tensor or a tuple of them)}}
relay.func @main(%x: tensor<2xf32>) -> !relay.adt<@Box> {
  %b = relay.construct @Box::@Full(%x) : (tensor<2xf32>) -> !relay.adt<@Box>
  relay.return %b : !relay.adt<@Box>
}

// -----

// Tests that a polymorphic local function left by a module that was not
// type-checked (a use's type incomplete) is an error at it, and that the
// transformation goes on past it: it crashed building the call that passes
// the closure it had not made.
relay.func @id[A](%arg0: !relay.tvar<A>) -> !relay.tvar<A> {
  relay.return %arg0 : !relay.tvar<A>
}
relay.func @apply_f(%arg0: !relay.fn<(tensor<f32>) -> tensor<f32>>, %arg1: tensor<f32>) -> tensor<f32> {
  %0 = relay.apply %arg0(%arg1) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  relay.return %0 : tensor<f32>
}
relay.func @main(%arg0: tensor<f32>, %arg1: tensor<i32>) -> tuple<tensor<f32>, tensor<f32>, tensor<i32>> {
  // expected-error @+1 {{relay-forward-ad: cannot differentiate a polymorphic closure (run --relay-specialize first)}}
  %0 = relay.fn [B](%arg2: !relay.tvar<B>) -> !relay.tvar<B> {
    relay.return %arg2 : !relay.tvar<B>
  }
  %1 = relay.global_ref @id : !relay.fn<[A](!relay.tvar<A>) -> !relay.tvar<A>>
  %2 = relay.call @apply_f(%1, %arg0) : (!relay.fn<[A](!relay.tvar<A>) -> !relay.tvar<A>>, tensor<f32>) -> tensor<f32>
  %3 = relay.call @apply_f(%0, %arg0) : (!relay.fn<[B](!relay.tvar<B>) -> !relay.tvar<B>>, tensor<f32>) -> tensor<f32>
  %4 = relay.apply %0(%arg1) : (!relay.fn<[B](!relay.tvar<B>) -> !relay.tvar<B>>, tensor<i32>) -> !relay.incomplete
  %5 = relay.tuple(%2, %3, %4 : tensor<f32>, tensor<f32>, !relay.incomplete)
  relay.return %5 : tuple<tensor<f32>, tensor<f32>, !relay.incomplete>
}

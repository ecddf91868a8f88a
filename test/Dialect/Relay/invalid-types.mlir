// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics

// Tests unknown type kinds.
// expected-error @+1 {{unknown type kind 'Dim', expected Type, Shape, BaseType or ShapeVar}}
relay.func @f(%x: !relay.tvar<n : Dim>) -> tensor<f32>

// -----

// Tests that a concrete !relay.tensor is rejected for the builtin one.
// expected-error @+1 {{a tensor with a concrete shape and dtype must be the builtin tensor type}}
relay.func @f(%x: !relay.tensor<[2, 3], f32>) -> tensor<f32>

// -----

// Tests tensor dtypes.
// expected-error @+1 {{tensor dtype must be an integer, float or bool type, got 'tuple<>'}}
relay.func @f(%x: !relay.tensor<s, tuple<>>) -> tensor<f32>

// -----

// Tests negative dimensions.
// expected-error @+1 {{tensor dimension must be non-negative, got -3}}
relay.func @f(%x: !relay.tensor<[n, -3], f32>) -> tensor<f32>

// -----

// Tests malformed function types.
// expected-error @+1 {{expected '->'}}
relay.func @f(%x: !relay.fn<(tensor<f32>)>) -> tensor<f32>

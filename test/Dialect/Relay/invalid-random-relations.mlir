// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// The errors of the random operators' relations: the Threefry key (a
// tensor<10xui64>), out_shape, the distributions' dtypes and parameters,
// multinomial's probabilities.

// Tests that a key of 9 words is refused (TVM's
// test_threefry_generate_infer_fail).
relay.func @generate_short_key(%k: tensor<9xui64>) -> tensor<i1> {
  // expected-error @+1 {{random.threefry_generate: the Threefry key must have type 'tensor<10xui64>', got 'tensor<9xui64>'}}
  %r = relay.random.threefry_generate %k {out_shape = array<i64: 12>} : (tensor<9xui64>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that a key of signed words is refused (TVM's
// test_threefry_split_infer_fail asks the same of the key's size).
relay.func @split_signed_key(%k: tensor<10xi64>) -> tensor<i1> {
  // expected-error @+1 {{random.threefry_split: the Threefry key must have type 'tensor<10xui64>', got 'tensor<10xi64>'}}
  %r = relay.random.threefry_split %k : (tensor<10xi64>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that out_shape's sizes must be non-negative.
relay.func @generate_negative(%k: tensor<10xui64>) -> tensor<i1> {
  // expected-error @+1 {{random.threefry_generate: out_shape sizes must be non-negative, got -3}}
  %r = relay.random.threefry_generate %k {out_shape = array<i64: 2, -3>} : (tensor<10xui64>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that more numbers than Threefry's 64-bit counter counts are
// refused.
relay.func @generate_too_many(%k: tensor<10xui64>) -> tensor<i1> {
  // expected-error @+1 {{random.threefry_generate: out_shape asks for more than 2^64 - 1 numbers}}
  %r = relay.random.threefry_generate %k {out_shape = array<i64: 4294967296, 4294967296>} : (tensor<10xui64>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that uniform draws only float32 or float64 (TVM's UniformRel).
relay.func @uniform_half(%k: tensor<10xui64>, %lo: tensor<f16>, %hi: tensor<f16>) -> tensor<i1> {
  // expected-error @+1 {{random.uniform: out_dtype must be float32 or float64, got 'f16'}}
  %r = relay.random.uniform %k, %lo, %hi {out_shape = array<i64: 3>, out_dtype = f16} : (tensor<10xui64>, tensor<f16>, tensor<f16>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that uniform's bounds must be 0-d tensors of out_dtype (float32
// when absent).
relay.func @uniform_bounds(%k: tensor<10xui64>, %lo: tensor<f64>, %hi: tensor<f32>) -> tensor<i1> {
  // expected-error @+1 {{random.uniform: low must have type 'tensor<f32>', got 'tensor<f64>'}}
  %r = relay.random.uniform %k, %lo, %hi {out_shape = array<i64: 3>} : (tensor<10xui64>, tensor<f64>, tensor<f32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that normal's scale must be 0-d.
relay.func @normal_scale(%k: tensor<10xui64>, %m: tensor<f64>, %s: tensor<2xf64>) -> tensor<i1> {
  // expected-error @+1 {{random.normal: scale must have type 'tensor<f64>', got 'tensor<2xf64>'}}
  %r = relay.random.normal %k, %m, %s {out_shape = array<i64: 2>, out_dtype = f64} : (tensor<10xui64>, tensor<f64>, tensor<2xf64>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that multinomial needs probabilities with an axis to draw from
// (TVM's relation reads past a 0-d tensor's shape).
relay.func @multinomial_scalar(%k: tensor<10xui64>, %p: tensor<f32>) -> tensor<i1> {
  // expected-error @+1 {{random.multinomial: expected the probabilities as a numeric tensor of at least one axis, got 'tensor<f32>'}}
  %r = relay.random.multinomial %k, %p : (tensor<10xui64>, tensor<f32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that boolean probabilities are refused.
relay.func @multinomial_bool(%k: tensor<10xui64>, %p: tensor<3xi1>) -> tensor<i1> {
  // expected-error @+1 {{random.multinomial: expected the probabilities as a numeric tensor of at least one axis, got 'tensor<3xi1>'}}
  %r = relay.random.multinomial %k, %p : (tensor<10xui64>, tensor<3xi1>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that an empty last axis (no index to draw) is refused.
relay.func @multinomial_empty(%k: tensor<10xui64>, %p: tensor<2x0xf32>) -> tensor<i1> {
  // expected-error @+1 {{random.multinomial: the probabilities' last axis is empty: no index to draw}}
  %r = relay.random.multinomial %k, %p {num_samples = 2 : i64} : (tensor<10xui64>, tensor<2x0xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that num_samples must be non-negative.
relay.func @multinomial_samples(%k: tensor<10xui64>, %p: tensor<4xf32>) -> tensor<i1> {
  // expected-error @+1 {{random.multinomial: num_samples must be non-negative, got -1}}
  %r = relay.random.multinomial %k, %p {num_samples = -1 : i64} : (tensor<10xui64>, tensor<4xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

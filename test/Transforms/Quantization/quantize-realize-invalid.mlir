// RUN: relay-mlir-opt %s -split-input-file --relay-quantize-realize -verify-diagnostics

// Tests that an uncalibrated scale (not a constant) is rejected.
relay.func @uncalibrated(%x: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xf32> {
  %lo = relay.constant dense<-127.0> : tensor<f32>
  %hi = relay.constant dense<127.0> : tensor<f32>
  // expected-error @+1 {{realizing needs a positive constant scale and constant clip bounds (run --relay-quantize-calibrate first)}}
  %q = relay.annotation.simulated_quantize %x, %s, %lo, %hi {kind = 1 : i64} : (tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  relay.return %q : tensor<4xf32>
}

// -----

// Tests that per-channel scales must vary along one axis only.
relay.func @two_axes(%x: tensor<1x2x3x3xf32>) -> tensor<2x2x1x1xf32> {
  %w = relay.constant dense<1.0> : tensor<2x2x1x1xf32>
  %s = relay.constant dense<[[[[0.5]], [[0.25]]], [[[0.5]], [[0.25]]]]> : tensor<2x2x1x1xf32>
  %lo = relay.constant dense<-127.0> : tensor<f32>
  %hi = relay.constant dense<127.0> : tensor<f32>
  // expected-error @+1 {{per-channel scales vary along one axis}}
  %qw = relay.annotation.simulated_quantize %w, %s, %lo, %hi {kind = 2 : i64} : (tensor<2x2x1x1xf32>, tensor<2x2x1x1xf32>, tensor<f32>, tensor<f32>) -> tensor<2x2x1x1xf32>
  relay.return %qw : tensor<2x2x1x1xf32>
}

// -----

// Tests that per-channel scales quantize a float weight, not a value that
// is already integers.
relay.func @per_channel_of_quantized(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %s = relay.constant dense<0.0625> : tensor<f32>
  %ws = relay.constant dense<[[0.5], [0.25]]> : tensor<2x1xf32>
  %lo = relay.constant dense<-127.0> : tensor<f32>
  %hi = relay.constant dense<127.0> : tensor<f32>
  %q = relay.annotation.simulated_quantize %x, %s, %lo, %hi {kind = 1 : i64} : (tensor<2x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  // expected-error @+1 {{per-channel scales quantize a float weight, not a quantized value}}
  %qq = relay.annotation.simulated_quantize %q, %ws, %lo, %hi {kind = 2 : i64} : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  relay.return %qq : tensor<2x3xf32>
}

// RUN: relay-mlir-opt %s -split-input-file --relay-quantize-calibrate -verify-diagnostics | FileCheck %s
// RUN: relay-mlir-opt %s -split-input-file '--relay-quantize-calibrate=weight-scale=max global-scale=4 nbit-input=4' -verify-diagnostics | FileCheck %s --check-prefix=MAX
// RUN: relay-mlir-opt %s -split-input-file '--relay-quantize-calibrate=per-channel=true' -verify-diagnostics | FileCheck %s --check-prefix=PC

// Tests the scales of global-scale calibration: an input's is
// global-scale / 2^(nbit-1) (8 / 128), a weight's its largest magnitude
// (1.5) rounded up to a power of two (2 / 128) or, with weight-scale=max,
// itself (1.5 / 128); the clip bounds are +-(2^(nbit-1) - 1).
// CHECK-LABEL: relay.func @scales
// MAX-LABEL: relay.func @scales
relay.func @scales(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = relay.constant dense<[0.5, -1.5, 1.0, 0.25]> : tensor<4xf32>
  %one = relay.constant dense<1.0> : tensor<f32>
  %lo = relay.constant dense<-127.0> : tensor<f32>
  %hi = relay.constant dense<127.0> : tensor<f32>
  // CHECK-DAG: %[[S:.*]] = relay.constant dense<6.250000e-02> : tensor<f32>
  // CHECK-DAG: %[[LO:.*]] = relay.constant dense<-1.270000e+02> : tensor<f32>
  // CHECK-DAG: %[[HI:.*]] = relay.constant dense<1.270000e+02> : tensor<f32>
  // CHECK: relay.annotation.simulated_quantize %x, %[[S]], %[[LO]], %[[HI]] {kind = 1 : i64}
  // MAX-DAG: %[[S:.*]] = relay.constant dense<5.000000e-01> : tensor<f32>
  // MAX-DAG: %[[LO:.*]] = relay.constant dense<-7.000000e+00> : tensor<f32>
  // MAX-DAG: %[[HI:.*]] = relay.constant dense<7.000000e+00> : tensor<f32>
  // MAX: relay.annotation.simulated_quantize %x, %[[S]], %[[LO]], %[[HI]] {kind = 1 : i64}
  %q = relay.annotation.simulated_quantize %x, %one, %lo, %hi {kind = 1 : i64} : (tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  // CHECK: %[[WS:.*]] = relay.constant dense<1.562500e-02> : tensor<f32>
  // CHECK: relay.annotation.simulated_quantize %{{.*}}, %[[WS]], {{.*}} {kind = 2 : i64}
  // MAX: %[[WS:.*]] = relay.constant dense<0.01171875> : tensor<f32>
  // MAX: relay.annotation.simulated_quantize %{{.*}}, %[[WS]], {{.*}} {kind = 2 : i64}
  %qw = relay.annotation.simulated_quantize %w, %one, %lo, %hi {kind = 2 : i64} : (tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  %r = relay.multiply %q, %qw : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  relay.return %r : tensor<4xf32>
}

// -----

// Tests that a weight that is not a constant cannot be calibrated.
relay.func @parameter_weight(%w: tensor<4xf32>) -> tensor<4xf32> {
  %one = relay.constant dense<1.0> : tensor<f32>
  // expected-error @+1 {{calibration needs the quantized weight to be a constant (bind the parameters first, or skip this layer)}}
  %qw = relay.annotation.simulated_quantize %w, %one, %one, %one {kind = 2 : i64} : (tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  relay.return %qw : tensor<4xf32>
}

// -----

// Tests that per-channel=true scales a convolution's weight per output
// channel (axis O of OIHW): channel 0's largest magnitude 1.5 -> 2 / 128,
// channel 1's 0.25 -> 0.25 / 128, as a [2, 1, 1, 1] tensor that
// broadcasts to the weight; the input keeps one scale.
// PC-LABEL: relay.func @per_channel
// PC: relay.constant dense<{{\[\[\[\[}}1.562500e-02]]], {{\[\[\[}}0.001953125]]]]> : tensor<2x1x1x1xf32>
// PC: relay.annotation.simulated_quantize {{.*}} {kind = 2 : i64} : (tensor<2x1x1x1xf32>, tensor<2x1x1x1xf32>, tensor<f32>, tensor<f32>)
relay.func @per_channel(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = relay.constant dense<[[[[1.5]]], [[[-0.25]]]]> : tensor<2x1x1x1xf32>
  %one = relay.constant dense<1.0> : tensor<f32>
  %q = relay.annotation.simulated_quantize %x, %one, %one, %one {kind = 1 : i64} : (tensor<1x1x3x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x1x3x3xf32>
  %qw = relay.annotation.simulated_quantize %w, %one, %one, %one {kind = 2 : i64} : (tensor<2x1x1x1xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x1x1x1xf32>
  %r = relay.nn.conv2d %q, %qw {channels = 2 : i64} : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  relay.return %r : tensor<1x2x3x3xf32>
}

// RUN: relay-mlir-opt %s -split-input-file '--relay-quantize-partition=fully-integral' -verify-diagnostics | FileCheck %s

// Tests the split of a quantized program: the input's quantization (the
// whole chain of conversions, its cast to int32 too) in @quantize_inputs,
// the int32 layer in @quantized_main, the
// dequantization in @dequantize_outputs, and @main calling them in turn.
// CHECK-LABEL: relay.func @main
// CHECK: %[[Q:.*]] = relay.call @quantize_inputs(%x)
// CHECK: %[[F:.*]] = relay.tuple_get %[[Q]][0]
// CHECK: %[[M:.*]] = relay.call @quantized_main(%[[F]]) : (tensor<4xi32>) -> tensor<4xi32>
// CHECK: %[[D:.*]] = relay.call @dequantize_outputs(%[[M]])
// CHECK: relay.return %[[D]]
// CHECK-LABEL: relay.func @quantize_inputs
// CHECK: relay.multiply
// CHECK: relay.round
// CHECK: relay.clip
// CHECK: relay.cast %{{.*}} {dtype = i8}
// CHECK: relay.cast %{{.*}} {dtype = i32}
// CHECK-LABEL: relay.func @quantized_main(%arg0: tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT: relay.nn.relu %arg0
// CHECK-LABEL: relay.func @dequantize_outputs(%arg0: tensor<4xi32>)
// CHECK: relay.cast %arg0 {dtype = f32}
// CHECK: relay.multiply
relay.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %inv = relay.constant dense<16.0> : tensor<f32>
  %s = relay.constant dense<0.0625> : tensor<f32>
  %0 = relay.multiply %x, %inv : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = relay.round %0 : (tensor<4xf32>) -> tensor<4xf32>
  %2 = relay.clip %1 {a_min = -127.0 : f64, a_max = 127.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  %3 = relay.cast %2 {dtype = i8} : (tensor<4xf32>) -> tensor<4xi8>
  %4 = relay.cast %3 {dtype = i32} : (tensor<4xi8>) -> tensor<4xi32>
  %5 = relay.nn.relu %4 : (tensor<4xi32>) -> tensor<4xi32>
  %6 = relay.cast %5 {dtype = f32} : (tensor<4xi32>) -> tensor<4xf32>
  %7 = relay.multiply %6, %s : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  relay.return %7 : tensor<4xf32>
}

// -----

// Tests that a float operator between the quantized layers is an error
// with fully-integral.
relay.func @main(%x: tensor<4xi8>) -> tensor<4xf32> {
  %s = relay.constant dense<0.0625> : tensor<f32>
  %0 = relay.cast %x {dtype = f32} : (tensor<4xi8>) -> tensor<4xf32>
  // expected-error @+1 {{the quantized part computes a 'tensor<4xf32>' here (fully-integral allows only the quantized dtypes)}}
  %1 = relay.sigmoid %0 : (tensor<4xf32>) -> tensor<4xf32>
  %2 = relay.cast %1 {dtype = i32} : (tensor<4xf32>) -> tensor<4xi32>
  %3 = relay.nn.relu %2 : (tensor<4xi32>) -> tensor<4xi32>
  %4 = relay.cast %3 {dtype = f32} : (tensor<4xi32>) -> tensor<4xf32>
  %5 = relay.multiply %4, %s : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  relay.return %5 : tensor<4xf32>
}

// -----

// Tests that a float operator after the quantized part is an error with
// fully-integral.
relay.func @main(%x: tensor<4xi32>) -> tensor<4xf32> {
  %r = relay.nn.relu %x : (tensor<4xi32>) -> tensor<4xi32>
  %f = relay.cast %r {dtype = f32} : (tensor<4xi32>) -> tensor<4xf32>
  // expected-error @+1 {{this operator stays in float after the quantized part (fully-integral)}}
  %t = relay.tanh %f : (tensor<4xf32>) -> tensor<4xf32>
  relay.return %t : tensor<4xf32>
}

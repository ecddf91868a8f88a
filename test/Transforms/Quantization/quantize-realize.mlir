// RUN: relay-mlir-opt %s --relay-quantize-realize | FileCheck %s

// Tests the integer program of calibrated simulated quantization: the
// input and weight quantized from float (x * 1/s, rounded, clipped) and
// cast to int8 for an int8 x int8 -> int32 convolution (scale 1/16 * 1/64);
// the bias (scale 1/256) brought to that scale (1/1024) by a left shift of
// 2 and added in int32; relu on the integers; the activation brought to
// the input scale 1/16 by a right shift of 6 rounding half up (+32), cast
// to int8 for max pooling; sigmoid reads the result dequantized. (Scales
// whose ratio is not a power of two are requantized by qnn.requantize.)
// CHECK-LABEL: relay.func @main
// CHECK: %[[INV_X:.*]] = relay.constant dense<1.600000e+01> : tensor<f32>
// CHECK: %[[XM:.*]] = relay.multiply %{{.*}}, %[[INV_X]]
// CHECK: %[[XR:.*]] = relay.round %[[XM]]
// CHECK: %[[XC:.*]] = relay.clip %[[XR]] {a_max = 1.270000e+02 : f64, a_min = -1.270000e+02 : f64}
// CHECK: %[[INV_W:.*]] = relay.constant dense<6.400000e+01> : tensor<f32>
// CHECK: relay.multiply %{{.*}}, %[[INV_W]]
// CHECK: %[[X8:.*]] = relay.cast %[[XC]] {dtype = i8}
// CHECK: %[[W8:.*]] = relay.cast %{{.*}} {dtype = i8}
// CHECK: %[[CONV:.*]] = relay.nn.conv2d %[[X8]], %[[W8]] {out_dtype = i32} : (tensor<1x2x4x4xi8>, tensor<3x2x1x1xi8>) -> tensor<1x3x4x4xi32>
// CHECK: %[[TWO:.*]] = relay.constant dense<2> : tensor<i32>
// CHECK: %[[B:.*]] = relay.left_shift %{{.*}}, %[[TWO]] : (tensor<3x1x1xi32>, tensor<i32>)
// CHECK: %[[SUM:.*]] = relay.add %[[CONV]], %[[B]] : (tensor<1x3x4x4xi32>, tensor<3x1x1xi32>)
// CHECK: %[[RELU:.*]] = relay.nn.relu %[[SUM]] : (tensor<1x3x4x4xi32>)
// CHECK: %[[HALF:.*]] = relay.constant dense<32> : tensor<i32>
// CHECK: %[[BIASED:.*]] = relay.add %[[RELU]], %[[HALF]]
// CHECK: %[[SIX:.*]] = relay.constant dense<6> : tensor<i32>
// CHECK: %[[RQ:.*]] = relay.right_shift %[[BIASED]], %[[SIX]]
// CHECK: %[[RC:.*]] = relay.clip %[[RQ]]
// CHECK: %[[R8:.*]] = relay.cast %[[RC]] {dtype = i8}
// CHECK: %[[POOL:.*]] = relay.nn.max_pool2d %[[R8]] {{.*}} : (tensor<1x3x4x4xi8>) -> tensor<1x3x2x2xi8>
// CHECK: %[[F:.*]] = relay.cast %{{.*}} {dtype = f32}
// CHECK: %[[D:.*]] = relay.multiply %[[F]]
// CHECK: relay.sigmoid %[[D]]
// CHECK-NOT: simulated_quantize
relay.func @main(%arg0: tensor<1x2x4x4xf32>) -> tensor<1x3x2x2xf32> {
  %0 = relay.constant dense<5.000000e-01> : tensor<2x2x1x1xf32>
  %1 = relay.constant dense<[[[[2.500000e-01]], [[-7.500000e-01]]], [[[1.500000e+00]], [[5.000000e-01]]], [[[-1.250000e-01]], [[1.000000e+00]]]]> : tensor<3x2x1x1xf32>
  %2 = relay.constant dense<[[[1.000000e-01]], [[-2.000000e-01]], [[3.000000e-01]]]> : tensor<3x1x1xf32>
  %3 = relay.nn.conv2d %arg0, %0 : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %4 = relay.constant dense<6.250000e-02> : tensor<f32>
  %5 = relay.constant dense<-1.270000e+02> : tensor<f32>
  %6 = relay.constant dense<1.270000e+02> : tensor<f32>
  %7 = relay.annotation.simulated_quantize %3, %4, %5, %6 {kind = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %8 = relay.constant dense<1.562500e-02> : tensor<f32>
  %9 = relay.constant dense<-1.270000e+02> : tensor<f32>
  %10 = relay.constant dense<1.270000e+02> : tensor<f32>
  %11 = relay.annotation.simulated_quantize %1, %8, %9, %10 {kind = 2 : i64} : (tensor<3x2x1x1xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<3x2x1x1xf32>
  %12 = relay.nn.conv2d %7, %11 : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %13 = relay.constant dense<3.906250e-03> : tensor<f32>
  %14 = relay.constant dense<-1.270000e+02> : tensor<f32>
  %15 = relay.constant dense<1.270000e+02> : tensor<f32>
  %16 = relay.annotation.simulated_quantize %2, %13, %14, %15 {kind = 2 : i64} : (tensor<3x1x1xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<3x1x1xf32>
  %17 = relay.add %12, %16 : (tensor<1x3x4x4xf32>, tensor<3x1x1xf32>) -> tensor<1x3x4x4xf32>
  %18 = relay.nn.relu %17 : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %19 = relay.constant dense<6.250000e-02> : tensor<f32>
  %20 = relay.constant dense<-1.270000e+02> : tensor<f32>
  %21 = relay.constant dense<1.270000e+02> : tensor<f32>
  %22 = relay.annotation.simulated_quantize %18, %19, %20, %21 {kind = 1 : i64} : (tensor<1x3x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x4x4xf32>
  %23 = relay.nn.max_pool2d %22 {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x2x2xf32>
  %24 = relay.constant dense<6.250000e-02> : tensor<f32>
  %25 = relay.constant dense<-1.270000e+02> : tensor<f32>
  %26 = relay.constant dense<1.270000e+02> : tensor<f32>
  %27 = relay.annotation.simulated_quantize %23, %24, %25, %26 {kind = 1 : i64} : (tensor<1x3x2x2xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x2x2xf32>
  %28 = relay.sigmoid %27 : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  relay.return %28 : tensor<1x3x2x2xf32>
}

// Tests that a convolution with per-channel weight scales (a [2, 1, 1, 1]
// dom_scale) quantizes each channel of the weight by its own scale (x64,
// x512) and requantizes the int32 result per channel (axis 1, scales
// 1/16 times the weight's) to the activation's scale.
// CHECK-LABEL: relay.func @per_channel
// CHECK: relay.constant dense<{{\[\[\[\[}}6.400000e+01]]], {{\[\[\[}}5.120000e+02]]]]> : tensor<2x1x1x1xf32>
// CHECK: relay.nn.conv2d {{.*}} : (tensor<1x1x3x3xi8>, tensor<2x1x1x1xi8>) -> tensor<1x2x3x3xi32>
// CHECK: %[[S:.*]] = relay.constant dense<[9.765625E-4, 1.22070313E-4]> : tensor<2xf32>
// CHECK: relay.qnn.requantize %{{.*}}, %[[S]], %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64, out_dtype = i32, rounding = "UPWARD"}
relay.func @per_channel(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = relay.constant dense<[[[[1.5]]], [[[-0.25]]]]> : tensor<2x1x1x1xf32>
  %s = relay.constant dense<6.250000e-02> : tensor<f32>
  %ws = relay.constant dense<[[[[1.562500e-02]]], [[[0.001953125]]]]> : tensor<2x1x1x1xf32>
  %as = relay.constant dense<0.03125> : tensor<f32>
  %lo = relay.constant dense<-127.0> : tensor<f32>
  %hi = relay.constant dense<127.0> : tensor<f32>
  %q = relay.annotation.simulated_quantize %x, %s, %lo, %hi {kind = 1 : i64} : (tensor<1x1x3x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x1x3x3xf32>
  %qw = relay.annotation.simulated_quantize %w, %ws, %lo, %hi {kind = 2 : i64} : (tensor<2x1x1x1xf32>, tensor<2x1x1x1xf32>, tensor<f32>, tensor<f32>) -> tensor<2x1x1x1xf32>
  %c = relay.nn.conv2d %q, %qw {channels = 2 : i64} : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %a = relay.annotation.simulated_quantize %c, %as, %lo, %hi {kind = 3 : i64} : (tensor<1x2x3x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x2x3x3xf32>
  relay.return %a : tensor<1x2x3x3xf32>
}

// Tests that any other reader of a per-channel result (a float sigmoid, an
// add of a quantized bias) reads it at one scale, the smallest channel's
// (1/8192): requantized per channel once; the bias (scale 1/2) shifted
// left by 12 to it.
// CHECK-LABEL: relay.func @per_channel_read
// CHECK: %[[S:.*]] = relay.constant dense<[9.765625E-4, 1.22070313E-4]> : tensor<2xf32>
// CHECK: %[[T:.*]] = relay.constant dense<1.22070313E-4> : tensor<f32>
// CHECK: %[[R:.*]] = relay.qnn.requantize %{{.*}}, %[[S]], %{{.*}}, %[[T]], %{{.*}} {axis = 1 : i64
// CHECK: relay.sigmoid
// CHECK: relay.left_shift %{{.*}}, %{{.*}} : (tensor<2x1x1xi32>, tensor<i32>)
// CHECK: relay.add %[[R]], %{{.*}} : (tensor<1x2x3x3xi32>, tensor<2x1x1xi32>)
relay.func @per_channel_read(%x: tensor<1x1x3x3xf32>) -> tuple<tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>> {
  %w = relay.constant dense<[[[[1.5]]], [[[-0.25]]]]> : tensor<2x1x1x1xf32>
  %s = relay.constant dense<6.250000e-02> : tensor<f32>
  %ws = relay.constant dense<[[[[1.562500e-02]]], [[[0.001953125]]]]> : tensor<2x1x1x1xf32>
  %bs = relay.constant dense<0.5> : tensor<f32>
  %b = relay.constant dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %lo = relay.constant dense<-127.0> : tensor<f32>
  %hi = relay.constant dense<127.0> : tensor<f32>
  %q = relay.annotation.simulated_quantize %x, %s, %lo, %hi {kind = 1 : i64} : (tensor<1x1x3x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x1x3x3xf32>
  %qw = relay.annotation.simulated_quantize %w, %ws, %lo, %hi {kind = 2 : i64} : (tensor<2x1x1x1xf32>, tensor<2x1x1x1xf32>, tensor<f32>, tensor<f32>) -> tensor<2x1x1x1xf32>
  %qb = relay.annotation.simulated_quantize %b, %bs, %lo, %hi {kind = 2 : i64} : (tensor<2x1x1xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x1x1xf32>
  %c = relay.nn.conv2d %q, %qw {channels = 2 : i64} : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %r = relay.sigmoid %c : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %a = relay.add %c, %qb : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %t = relay.tuple(%r, %a : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>)
  relay.return %t : tuple<tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>>
}

// Tests that a per-channel weight read by something else than a convolution
// or dense layer (a multiply) is read at one scale, its smallest channel's:
// requantized along its axis 0 first.
// CHECK-LABEL: relay.func @per_channel_multiply
// CHECK: %[[W:.*]] = relay.qnn.requantize %{{.*}} {axis = 0 : i64, out_dtype = i32, rounding = "UPWARD"} : (tensor<2x3xi32>, tensor<2xf32>, tensor<i32>, tensor<f32>, tensor<i32>)
// CHECK: relay.multiply %{{.*}}, %[[W]] : (tensor<2x3xi32>, tensor<2x3xi32>)
relay.func @per_channel_multiply(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %w = relay.constant dense<1.0> : tensor<2x3xf32>
  %s = relay.constant dense<0.0625> : tensor<f32>
  %ws = relay.constant dense<[[0.5], [0.25]]> : tensor<2x1xf32>
  %lo = relay.constant dense<-127.0> : tensor<f32>
  %hi = relay.constant dense<127.0> : tensor<f32>
  %q = relay.annotation.simulated_quantize %x, %s, %lo, %hi {kind = 1 : i64} : (tensor<2x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  %qw = relay.annotation.simulated_quantize %w, %ws, %lo, %hi {kind = 2 : i64} : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  %m = relay.multiply %q, %qw : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  relay.return %m : tensor<2x3xf32>
}

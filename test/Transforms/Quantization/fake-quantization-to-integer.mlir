// RUN: relay-mlir-opt %s --split-input-file --relay-fake-quantization-to-integer | FileCheck %s

// Tests that a convolution between dequantizes, with a dequantized int32
// bias and a relu, becomes qnn.conv2d into int32 with the bias added as it
// is (its scale is the product of the operands', to float32's precision)
// and the quantize a requantize from that scale to uint8: no float
// operator, dequantize or quantize is left.
// CHECK-LABEL: relay.func @conv_bias_relu
// CHECK-DAG: %[[SX:.*]] = relay.constant dense<5.000000e-01> : tensor<f32>
// CHECK-DAG: %[[SW:.*]] = relay.constant dense<2.500000e-01> : tensor<f32>
// CHECK-DAG: %[[ZX:.*]] = relay.constant dense<128> : tensor<i32>
// CHECK: %[[C:.*]] = relay.qnn.conv2d %x, %{{.*}}, %[[ZX]], %{{.*}}, %[[SX]], %[[SW]] {out_dtype = i32, padding = array<i64: 1, 1>} : (tensor<1x2x4x4xui8>, tensor<3x2x3x3xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<1x3x4x4xi32>
// CHECK: %[[B:.*]] = relay.nn.bias_add %[[C]], %{{.*}} : (tensor<1x3x4x4xi32>, tensor<3xi32>)
// CHECK: %[[R:.*]] = relay.nn.relu %[[B]] : (tensor<1x3x4x4xi32>)
// CHECK: %[[SACC:.*]] = relay.constant dense<1.250000e-01> : tensor<f32>
// CHECK: %[[Q:.*]] = relay.qnn.requantize %[[R]], %[[SACC]], %{{.*}}, %{{.*}}, %{{.*}} {out_dtype = ui8}
// CHECK: relay.return %[[Q]]
// CHECK-NOT: relay.qnn.dequantize
// CHECK-NOT: relay.qnn.quantize
// CHECK-NOT: relay.nn.conv2d
relay.func @conv_bias_relu(%x: tensor<1x2x4x4xui8>) -> tensor<1x3x4x4xui8> {
  %sx = relay.constant dense<0.5> : tensor<f32>
  %zx = relay.constant dense<128> : tensor<i32>
  %wq = relay.constant dense<3> : tensor<3x2x3x3xi8>
  %sw = relay.constant dense<0.25> : tensor<f32>
  %zw = relay.constant dense<0> : tensor<i32>
  %bq = relay.constant dense<[10, -20, 30]> : tensor<3xi32>
  %sb = relay.constant dense<0.125> : tensor<f32>
  %so = relay.constant dense<0.1> : tensor<f32>
  %zo = relay.constant dense<0> : tensor<i32>
  %xf = relay.qnn.dequantize %x, %sx, %zx : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<i32>) -> tensor<1x2x4x4xf32>
  %wf = relay.qnn.dequantize %wq, %sw, %zw : (tensor<3x2x3x3xi8>, tensor<f32>, tensor<i32>) -> tensor<3x2x3x3xf32>
  %bf = relay.qnn.dequantize %bq, %sb, %zw : (tensor<3xi32>, tensor<f32>, tensor<i32>) -> tensor<3xf32>
  %c = relay.nn.conv2d %xf, %wf {padding = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x4x4xf32>
  %b = relay.nn.bias_add %c, %bf : (tensor<1x3x4x4xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  %r = relay.nn.relu %b : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %q = relay.qnn.quantize %r, %so, %zo {out_dtype = ui8} : (tensor<1x3x4x4xf32>, tensor<f32>, tensor<i32>) -> tensor<1x3x4x4xui8>
  relay.return %q : tensor<1x3x4x4xui8>
}

// -----

// Tests that weights quantized per output channel give a per-channel
// accumulator: a float constant bias is quantized at each channel's scale
// (0.5 * [0.1, 0.2] = [0.05, 0.1]: 1.0 / 0.05 = 20, 1.0 / 0.1 = 10), and
// the requantize reads the channel scales along the output's C axis.
// CHECK-LABEL: relay.func @per_channel_float_bias
// CHECK: %[[C:.*]] = relay.qnn.conv2d %x, {{.*}} : (tensor<1x1x3x3xi8>, tensor<2x1x1x1xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<2xf32>) -> tensor<1x2x3x3xi32>
// CHECK: %[[BIAS:.*]] = relay.constant dense<[20, 10]> : tensor<2xi32>
// CHECK: %[[B:.*]] = relay.nn.bias_add %[[C]], %[[BIAS]]
// CHECK: %[[SCALES:.*]] = relay.constant dense<[5.000000e-02, 1.000000e-01]> : tensor<2xf32>
// CHECK: relay.qnn.requantize %[[B]], %[[SCALES]], {{.*}} {axis = 1 : i64, out_dtype = i8}
relay.func @per_channel_float_bias(%x: tensor<1x1x3x3xi8>) -> tensor<1x2x3x3xi8> {
  %sx = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %wq = relay.constant dense<[[[[1]]], [[[2]]]]> : tensor<2x1x1x1xi8>
  %sw = relay.constant dense<[0.1, 0.2]> : tensor<2xf32>
  %bias = relay.constant dense<1.0> : tensor<2xf32>
  %so = relay.constant dense<0.3> : tensor<f32>
  %xf = relay.qnn.dequantize %x, %sx, %z : (tensor<1x1x3x3xi8>, tensor<f32>, tensor<i32>) -> tensor<1x1x3x3xf32>
  %wf = relay.qnn.dequantize %wq, %sw, %z {axis = 0 : i64} : (tensor<2x1x1x1xi8>, tensor<2xf32>, tensor<i32>) -> tensor<2x1x1x1xf32>
  %c = relay.nn.conv2d %xf, %wf : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %b = relay.nn.bias_add %c, %bias : (tensor<1x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %q = relay.qnn.quantize %b, %so, %z : (tensor<1x2x3x3xf32>, tensor<f32>, tensor<i32>) -> tensor<1x2x3x3xi8>
  relay.return %q : tensor<1x2x3x3xi8>
}

// -----

// Tests that a dense layer whose bias is added as a float constant (ONNX's
// Gemm) adds the bias quantized at the accumulator's scale (0.5 * 0.25:
// 0.25 / 0.125 = 2, -1.0 / 0.125 = -8).
// CHECK-LABEL: relay.func @dense_add_constant
// CHECK: %[[D:.*]] = relay.qnn.dense %x, {{.*}} -> tensor<1x2xi32>
// CHECK: %[[BIAS:.*]] = relay.constant dense<[2, -8]> : tensor<2xi32>
// CHECK: %[[A:.*]] = relay.add %[[D]], %[[BIAS]] : (tensor<1x2xi32>, tensor<2xi32>) -> tensor<1x2xi32>
// CHECK: relay.qnn.requantize %[[A]]
relay.func @dense_add_constant(%x: tensor<1x4xui8>) -> tensor<1x2xui8> {
  %sx = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %wq = relay.constant dense<1> : tensor<2x4xi8>
  %sw = relay.constant dense<0.25> : tensor<f32>
  %bias = relay.constant dense<[0.25, -1.0]> : tensor<2xf32>
  %so = relay.constant dense<0.2> : tensor<f32>
  %xf = relay.qnn.dequantize %x, %sx, %z : (tensor<1x4xui8>, tensor<f32>, tensor<i32>) -> tensor<1x4xf32>
  %wf = relay.qnn.dequantize %wq, %sw, %z : (tensor<2x4xi8>, tensor<f32>, tensor<i32>) -> tensor<2x4xf32>
  %d = relay.nn.dense %xf, %wf : (tensor<1x4xf32>, tensor<2x4xf32>) -> tensor<1x2xf32>
  %a = relay.add %d, %bias : (tensor<1x2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  %q = relay.qnn.quantize %a, %so, %z {out_dtype = ui8} : (tensor<1x2xf32>, tensor<f32>, tensor<i32>) -> tensor<1x2xui8>
  relay.return %q : tensor<1x2xui8>
}

// -----

// Tests that a residual addition followed by a relu (PyTorch's add_relu)
// adds in int32 at the smaller of the two scales (each operand requantized
// there), the relu clips in int32, and the quantize requantizes from it.
// CHECK-LABEL: relay.func @add_relu
// CHECK-DAG: %[[FINE:.*]] = relay.constant dense<2.500000e-01> : tensor<f32>
// CHECK: %[[L:.*]] = relay.qnn.requantize %a, {{.*}}, %[[FINE]], {{.*}} {out_dtype = i32}
// CHECK: %[[R:.*]] = relay.qnn.requantize %b, {{.*}} {out_dtype = i32}
// CHECK: %[[A:.*]] = relay.add %[[L]], %[[R]] : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK: %[[RELU:.*]] = relay.nn.relu %[[A]]
// CHECK: relay.qnn.requantize %[[RELU]], {{.*}} {out_dtype = ui8}
relay.func @add_relu(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui8> {
  %sa = relay.constant dense<0.5> : tensor<f32>
  %za = relay.constant dense<3> : tensor<i32>
  %sb = relay.constant dense<0.25> : tensor<f32>
  %zb = relay.constant dense<7> : tensor<i32>
  %so = relay.constant dense<1.0> : tensor<f32>
  %zo = relay.constant dense<0> : tensor<i32>
  %af = relay.qnn.dequantize %a, %sa, %za : (tensor<4xui8>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  %bf = relay.qnn.dequantize %b, %sb, %zb : (tensor<4xui8>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  %s = relay.add %af, %bf : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = relay.nn.relu %s : (tensor<4xf32>) -> tensor<4xf32>
  %q = relay.qnn.quantize %r, %so, %zo {out_dtype = ui8} : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xui8>
  relay.return %q : tensor<4xui8>
}

// -----

// Tests that an addition the quantize reads directly becomes qnn.add at
// the quantize's parameters (nothing requantizes after it).
// CHECK-LABEL: relay.func @add_at_root
// CHECK: %[[A:.*]] = relay.qnn.add %a, %b, {{.*}} -> tensor<4xi8>
// CHECK-NEXT: relay.return %[[A]]
relay.func @add_at_root(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi8> {
  %sa = relay.constant dense<0.5> : tensor<f32>
  %sb = relay.constant dense<0.25> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %so = relay.constant dense<1.0> : tensor<f32>
  %af = relay.qnn.dequantize %a, %sa, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  %bf = relay.qnn.dequantize %b, %sb, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  %s = relay.add %af, %bf : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %q = relay.qnn.quantize %s, %so, %z : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  relay.return %q : tensor<4xi8>
}

// -----

// Tests that max pooling between a dequantize and a quantize of the same
// parameters pools the integers and the quantize disappears.
// CHECK-LABEL: relay.func @max_pool_same_parameters
// CHECK-NEXT: %[[P:.*]] = relay.nn.max_pool2d %x {{.*}} : (tensor<1x1x4x4xui8>) -> tensor<1x1x2x2xui8>
// CHECK-NEXT: relay.return %[[P]]
relay.func @max_pool_same_parameters(%x: tensor<1x1x4x4xui8>) -> tensor<1x1x2x2xui8> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<4> : tensor<i32>
  %xf = relay.qnn.dequantize %x, %s, %z : (tensor<1x1x4x4xui8>, tensor<f32>, tensor<i32>) -> tensor<1x1x4x4xf32>
  %p = relay.nn.max_pool2d %xf {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  %q = relay.qnn.quantize %p, %s, %z {out_dtype = ui8} : (tensor<1x1x2x2xf32>, tensor<f32>, tensor<i32>) -> tensor<1x1x2x2xui8>
  relay.return %q : tensor<1x1x2x2xui8>
}

// -----

// Tests that global average pooling sums in int32 (exact): the sum over H
// and W at the scale divided by the window's size (16) and the zero point
// times it.
// CHECK-LABEL: relay.func @global_avg_pool
// CHECK: %[[X:.*]] = relay.cast %x {dtype = i32}
// CHECK: %[[P:.*]] = relay.sum %[[X]] {axis = array<i64: 2, 3>, keepdims = true} : (tensor<1x2x4x4xi32>) -> tensor<1x2x1x1xi32>
// CHECK-DAG: %[[S:.*]] = relay.constant dense<3.125000e-02> : tensor<f32>
// CHECK-DAG: %[[Z:.*]] = relay.constant dense<64> : tensor<i32>
// CHECK: relay.qnn.requantize %[[P]], %[[S]], %[[Z]]
relay.func @global_avg_pool(%x: tensor<1x2x4x4xui8>) -> tensor<1x2x1x1xui8> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<4> : tensor<i32>
  %xf = relay.qnn.dequantize %x, %s, %z : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<i32>) -> tensor<1x2x4x4xf32>
  %p = relay.nn.global_avg_pool2d %xf : (tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32>
  %q = relay.qnn.quantize %p, %s, %z {out_dtype = ui8} : (tensor<1x2x1x1xf32>, tensor<f32>, tensor<i32>) -> tensor<1x2x1x1xui8>
  relay.return %q : tensor<1x2x1x1xui8>
}

// -----

// Tests that windowed average pooling averages the values times the
// window's size (4) in int32, at the scale divided by it.
// CHECK-LABEL: relay.func @avg_pool
// CHECK: %[[X:.*]] = relay.cast %x {dtype = i32}
// CHECK: %[[K:.*]] = relay.constant dense<4> : tensor<i32>
// CHECK: %[[M:.*]] = relay.multiply %[[X]], %[[K]]
// CHECK: %[[P:.*]] = relay.nn.avg_pool2d %[[M]] {{.*}} : (tensor<1x1x4x4xi32>) -> tensor<1x1x2x2xi32>
// CHECK: relay.qnn.requantize %[[P]]
relay.func @avg_pool(%x: tensor<1x1x4x4xi8>) -> tensor<1x1x2x2xi8> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<1> : tensor<i32>
  %xf = relay.qnn.dequantize %x, %s, %z : (tensor<1x1x4x4xi8>, tensor<f32>, tensor<i32>) -> tensor<1x1x4x4xf32>
  %p = relay.nn.avg_pool2d %xf {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  %q = relay.qnn.quantize %p, %s, %z : (tensor<1x1x2x2xf32>, tensor<f32>, tensor<i32>) -> tensor<1x1x2x2xi8>
  relay.return %q : tensor<1x1x2x2xi8>
}

// -----

// Tests that relu and clip on values with a zero point clip at the
// quantized bounds: relu at the zero point 128, clip(0, 6) at 128 and
// 6 / 0.05 + 128 = 248, a pad value 0.0 becomes the zero point.
// CHECK-LABEL: relay.func @clips_and_pad
// CHECK: %[[R:.*]] = relay.clip %x {a_max = 2.550000e+02 : f64, a_min = 1.280000e+02 : f64}
// CHECK: %[[C:.*]] = relay.clip %[[R]] {a_max = 2.480000e+02 : f64, a_min = 1.280000e+02 : f64}
// CHECK: %[[ZP:.*]] = relay.constant dense<128> : tensor<ui8>
// CHECK: %[[P:.*]] = relay.nn.pad %[[C]], %[[ZP]]
// CHECK-NEXT: relay.return %[[P]]
relay.func @clips_and_pad(%x: tensor<1x1x2x2xui8>) -> tensor<1x1x4x4xui8> {
  %s = relay.constant dense<0.05> : tensor<f32>
  %z = relay.constant dense<128> : tensor<i32>
  %zero = relay.constant dense<0.0> : tensor<f32>
  %xf = relay.qnn.dequantize %x, %s, %z : (tensor<1x1x2x2xui8>, tensor<f32>, tensor<i32>) -> tensor<1x1x2x2xf32>
  %r = relay.nn.relu %xf : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %c = relay.clip %r {a_min = 0.0 : f64, a_max = 6.0 : f64} : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %p = relay.nn.pad %c, %zero {pad_width = array<i64: 0, 0, 0, 0, 1, 1, 1, 1>} : (tensor<1x1x2x2xf32>, tensor<f32>) -> tensor<1x1x4x4xf32>
  %q = relay.qnn.quantize %p, %s, %z {out_dtype = ui8} : (tensor<1x1x4x4xf32>, tensor<f32>, tensor<i32>) -> tensor<1x1x4x4xui8>
  relay.return %q : tensor<1x1x4x4xui8>
}

// -----

// Tests that the scales and zero points may be computed from constants (as
// ONNX exports cast their zero points) and are read as constants.
// CHECK-LABEL: relay.func @computed_parameters
// CHECK: relay.nn.max_pool2d %x
// CHECK-NOT: relay.qnn
relay.func @computed_parameters(%x: tensor<1x1x4x4xui8>) -> tensor<1x1x2x2xui8> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z8 = relay.constant dense<200> : tensor<ui8>
  %z = relay.cast %z8 {dtype = i32} : (tensor<ui8>) -> tensor<i32>
  %xf = relay.qnn.dequantize %x, %s, %z : (tensor<1x1x4x4xui8>, tensor<f32>, tensor<i32>) -> tensor<1x1x4x4xf32>
  %p = relay.nn.max_pool2d %xf {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  %q = relay.qnn.quantize %p, %s, %z {out_dtype = ui8} : (tensor<1x1x2x2xf32>, tensor<f32>, tensor<i32>) -> tensor<1x1x2x2xui8>
  relay.return %q : tensor<1x1x2x2xui8>
}

// -----

// Tests that a subgraph with an operator without an integer rule (softmax)
// stays in float, as does one whose scale is only known at run time.
// CHECK-LABEL: relay.func @stays_in_float
// CHECK: relay.qnn.dequantize
// CHECK: relay.nn.softmax
// CHECK: relay.qnn.quantize
// CHECK: relay.qnn.dequantize
// CHECK: relay.nn.max_pool2d {{.*}} -> tensor<1x1x2x2xf32>
// CHECK: relay.qnn.quantize
relay.func @stays_in_float(%x: tensor<1x1x4x4xi8>, %runtime: tensor<f32>) -> tuple<tensor<1x1x4x4xi8>, tensor<1x1x2x2xi8>> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %xf = relay.qnn.dequantize %x, %s, %z : (tensor<1x1x4x4xi8>, tensor<f32>, tensor<i32>) -> tensor<1x1x4x4xf32>
  %g = relay.nn.softmax %xf : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %q = relay.qnn.quantize %g, %s, %z : (tensor<1x1x4x4xf32>, tensor<f32>, tensor<i32>) -> tensor<1x1x4x4xi8>
  %yf = relay.qnn.dequantize %x, %runtime, %z : (tensor<1x1x4x4xi8>, tensor<f32>, tensor<i32>) -> tensor<1x1x4x4xf32>
  %p = relay.nn.max_pool2d %yf {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  %q2 = relay.qnn.quantize %p, %s, %z : (tensor<1x1x2x2xf32>, tensor<f32>, tensor<i32>) -> tensor<1x1x2x2xi8>
  %t = relay.tuple(%q, %q2 : tensor<1x1x4x4xi8>, tensor<1x1x2x2xi8>)
  relay.return %t : tuple<tensor<1x1x4x4xi8>, tensor<1x1x2x2xi8>>
}

// -----

// Tests that nn.matmul of a [K, N] weight (ONNX's MatMul) becomes
// qnn.dense on the weight transposed to [N, K], per channel along N.
// CHECK-LABEL: relay.func @matmul
// CHECK: %[[T:.*]] = relay.transpose %{{.*}} {axes = array<i64: 1, 0>} : (tensor<4x2xi8>) -> tensor<2x4xi8>
// CHECK: %[[D:.*]] = relay.qnn.dense %x, %[[T]], {{.*}} -> tensor<1x2xi32>
// CHECK: relay.qnn.requantize %[[D]], {{.*}} {axis = 1 : i64, out_dtype = i8}
relay.func @matmul(%x: tensor<1x4xi8>) -> tensor<1x2xi8> {
  %sx = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %wq = relay.constant dense<1> : tensor<4x2xi8>
  %sw = relay.constant dense<[0.25, 0.5]> : tensor<2xf32>
  %so = relay.constant dense<0.2> : tensor<f32>
  %xf = relay.qnn.dequantize %x, %sx, %z : (tensor<1x4xi8>, tensor<f32>, tensor<i32>) -> tensor<1x4xf32>
  %wf = relay.qnn.dequantize %wq, %sw, %z {axis = 1 : i64} : (tensor<4x2xi8>, tensor<2xf32>, tensor<i32>) -> tensor<4x2xf32>
  %d = relay.nn.matmul %xf, %wf : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  %q = relay.qnn.quantize %d, %so, %z : (tensor<1x2xf32>, tensor<f32>, tensor<i32>) -> tensor<1x2xi8>
  relay.return %q : tensor<1x2xi8>
}

// -----

// Tests that a product of two dequantized activations (ONNX's MatMul of
// attention's queries and keys: a broadcast_to, then nn.batch_matmul of
// untransposed operands) becomes qnn.batch_matmul with the same transposes
// on the integers, broadcast_to keeping its parameters, into int32 at the
// product of the scales.
// CHECK-LABEL: relay.func @batch_matmul
// CHECK: %[[B:.*]] = relay.broadcast_to %y {{.*}} : (tensor<1x8x3xi8>) -> tensor<2x8x3xi8>
// CHECK: %[[M:.*]] = relay.qnn.batch_matmul %x, %[[B]], {{.*}} {out_dtype = i32} : (tensor<2x4x8xui8>, tensor<2x8x3xi8>, {{.*}}) -> tensor<2x4x3xi32>
// CHECK: %[[S:.*]] = relay.constant dense<1.250000e-01> : tensor<f32>
// CHECK: relay.qnn.requantize %[[M]], %[[S]], {{.*}} {out_dtype = i8}
// CHECK-NOT: relay.nn.batch_matmul
// CHECK-NOT: relay.qnn.dequantize
relay.func @batch_matmul(%x: tensor<2x4x8xui8>, %y: tensor<1x8x3xi8>) -> tensor<2x4x3xi8> {
  %sx = relay.constant dense<0.5> : tensor<f32>
  %zx = relay.constant dense<128> : tensor<i32>
  %sy = relay.constant dense<0.25> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %so = relay.constant dense<2.0> : tensor<f32>
  %xf = relay.qnn.dequantize %x, %sx, %zx : (tensor<2x4x8xui8>, tensor<f32>, tensor<i32>) -> tensor<2x4x8xf32>
  %yf = relay.qnn.dequantize %y, %sy, %z : (tensor<1x8x3xi8>, tensor<f32>, tensor<i32>) -> tensor<1x8x3xf32>
  %yb = relay.broadcast_to %yf {shape = array<i64: 2, 8, 3>} : (tensor<1x8x3xf32>) -> tensor<2x8x3xf32>
  %m = relay.nn.batch_matmul %xf, %yb {transpose_b = false} : (tensor<2x4x8xf32>, tensor<2x8x3xf32>) -> tensor<2x4x3xf32>
  %q = relay.qnn.quantize %m, %so, %z : (tensor<2x4x3xf32>, tensor<f32>, tensor<i32>) -> tensor<2x4x3xi8>
  relay.return %q : tensor<2x4x3xi8>
}

// -----

// Tests that a batch_matmul whose second operand is quantized per channel
// stays in float (hard-fail names it in the invalid cases).
// CHECK-LABEL: relay.func @batch_matmul_per_channel
// CHECK: relay.nn.batch_matmul
// CHECK-NOT: relay.qnn.batch_matmul
relay.func @batch_matmul_per_channel(%x: tensor<1x4x8xi8>) -> tensor<1x4x2xi8> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %wq = relay.constant dense<1> : tensor<1x2x8xi8>
  %sw = relay.constant dense<[0.25, 0.5]> : tensor<2xf32>
  %xf = relay.qnn.dequantize %x, %s, %z : (tensor<1x4x8xi8>, tensor<f32>, tensor<i32>) -> tensor<1x4x8xf32>
  %wf = relay.qnn.dequantize %wq, %sw, %z {axis = 1 : i64} : (tensor<1x2x8xi8>, tensor<2xf32>, tensor<i32>) -> tensor<1x2x8xf32>
  %m = relay.nn.batch_matmul %xf, %wf {transpose_b = true} : (tensor<1x4x8xf32>, tensor<1x2x8xf32>) -> tensor<1x4x2xf32>
  %q = relay.qnn.quantize %m, %s, %z : (tensor<1x4x2xf32>, tensor<f32>, tensor<i32>) -> tensor<1x4x2xi8>
  relay.return %q : tensor<1x4x2xi8>
}

// -----

// Tests that a subtraction the quantize reads becomes qnn.subtract, and
// that a transpose and a reshape before it keep their operand's
// parameters (no requantize between them).
// CHECK-LABEL: relay.func @transpose_reshape_subtract
// CHECK: %[[T:.*]] = relay.transpose %a {axes = array<i64: 1, 0>} : (tensor<2x3xi8>) -> tensor<3x2xi8>
// CHECK: %[[R:.*]] = relay.reshape %[[T]] {{.*}} : (tensor<3x2xi8>) -> tensor<6xi8>
// CHECK: %[[S:.*]] = relay.qnn.subtract %[[R]], %b, {{.*}} -> tensor<6xi8>
// CHECK-NEXT: relay.return %[[S]]
relay.func @transpose_reshape_subtract(%a: tensor<2x3xi8>, %b: tensor<6xi8>) -> tensor<6xi8> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<1> : tensor<i32>
  %af = relay.qnn.dequantize %a, %s, %z : (tensor<2x3xi8>, tensor<f32>, tensor<i32>) -> tensor<2x3xf32>
  %bf = relay.qnn.dequantize %b, %s, %z : (tensor<6xi8>, tensor<f32>, tensor<i32>) -> tensor<6xf32>
  %t = relay.transpose %af {axes = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %r = relay.reshape %t {newshape = array<i64: 6>} : (tensor<3x2xf32>) -> tensor<6xf32>
  %d = relay.subtract %r, %bf : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %q = relay.qnn.quantize %d, %s, %z : (tensor<6xf32>, tensor<f32>, tensor<i32>) -> tensor<6xi8>
  relay.return %q : tensor<6xi8>
}

// -----

// Tests that a subgraph of elementwise operators on one dequantized 8-bit
// tensor and scalar constants becomes a 256-entry table indexed by the
// integers: x + 1 on int8 at scale 1 is table[i] = min(i - 128 + 1, 127)
// (-127 = 0x81, ..., 127 = 0x7F twice), read at x - (-128).
// CHECK-LABEL: relay.func @table_add_constant
// CHECK: %[[I:.*]] = relay.cast %x {dtype = i32} : (tensor<2x3xi8>) -> tensor<2x3xi32>
// CHECK: %[[LO:.*]] = relay.constant dense<-128> : tensor<i32>
// CHECK: %[[IDX:.*]] = relay.subtract %[[I]], %[[LO]]
// CHECK: %[[T:.*]] = relay.constant dense<"0x818283{{[0-9A-F]*}}7C7D7E7F7F"> : tensor<256xi8>
// CHECK: %[[R:.*]] = relay.take %[[T]], %[[IDX]] : (tensor<256xi8>, tensor<2x3xi32>) -> tensor<2x3xi8>
// CHECK: relay.return %[[R]]
// CHECK-NOT: relay.add
// CHECK-NOT: relay.qnn.dequantize
relay.func @table_add_constant(%x: tensor<2x3xi8>) -> tensor<2x3xi8> {
  %s = relay.constant dense<1.0> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %one = relay.constant dense<1.0> : tensor<f32>
  %xf = relay.qnn.dequantize %x, %s, %z : (tensor<2x3xi8>, tensor<f32>, tensor<i32>) -> tensor<2x3xf32>
  %y = relay.add %xf, %one : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %q = relay.qnn.quantize %y, %s, %z {out_dtype = i8} : (tensor<2x3xf32>, tensor<f32>, tensor<i32>) -> tensor<2x3xi8>
  relay.return %q : tensor<2x3xi8>
}

// -----

// Tests that hardswish as ONNX importers write it, x * clip(x / 6 + 0.5,
// 0, 1), with x used twice, and a sigmoid on uint8 (indices from 0: no
// offset) each become one table; constants broadcast to the tensor's shape
// count as scalars when all their elements are equal.
// CHECK-LABEL: relay.func @table_hardswish_sigmoid
// CHECK: %[[I:.*]] = relay.cast %x {dtype = i32}
// CHECK: %[[T:.*]] = relay.constant dense<{{.*}}> : tensor<256xui8>
// CHECK: %[[H:.*]] = relay.take %[[T]], %[[I]] : (tensor<256xui8>, tensor<1x4xi32>) -> tensor<1x4xui8>
// CHECK: %[[I2:.*]] = relay.cast %[[H]] {dtype = i32}
// CHECK: %[[T2:.*]] = relay.constant dense<{{.*}}> : tensor<256xui8>
// CHECK: %[[S:.*]] = relay.take %[[T2]], %[[I2]] :
// CHECK: relay.return %[[S]]
// CHECK-NOT: relay.sigmoid
// CHECK-NOT: relay.clip
// CHECK-NOT: relay.multiply
relay.func @table_hardswish_sigmoid(%x: tensor<1x4xui8>) -> tensor<1x4xui8> {
  %s = relay.constant dense<0.05> : tensor<f32>
  %z = relay.constant dense<100> : tensor<i32>
  %sixth = relay.constant dense<0.166666672> : tensor<1x4xf32>
  %half = relay.constant dense<0.5> : tensor<f32>
  %so = relay.constant dense<0.00390625> : tensor<f32>
  %zo = relay.constant dense<0> : tensor<i32>
  %xf = relay.qnn.dequantize %x, %s, %z : (tensor<1x4xui8>, tensor<f32>, tensor<i32>) -> tensor<1x4xf32>
  %a = relay.multiply %xf, %sixth : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %b = relay.add %a, %half : (tensor<1x4xf32>, tensor<f32>) -> tensor<1x4xf32>
  %c = relay.clip %b {a_max = 1.0 : f64, a_min = 0.0 : f64} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %h = relay.multiply %xf, %c : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %hq = relay.qnn.quantize %h, %s, %z {out_dtype = ui8} : (tensor<1x4xf32>, tensor<f32>, tensor<i32>) -> tensor<1x4xui8>
  %hf = relay.qnn.dequantize %hq, %s, %z : (tensor<1x4xui8>, tensor<f32>, tensor<i32>) -> tensor<1x4xf32>
  %g = relay.sigmoid %hf : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %q = relay.qnn.quantize %g, %so, %zo {out_dtype = ui8} : (tensor<1x4xf32>, tensor<f32>, tensor<i32>) -> tensor<1x4xui8>
  relay.return %q : tensor<1x4xui8>
}

// -----

// Tests that a relu alone is not a table: the integer clip is exact.
// CHECK-LABEL: relay.func @relu_not_table
// CHECK: relay.nn.relu %x
// CHECK-NOT: relay.take
relay.func @relu_not_table(%x: tensor<4xi8>) -> tensor<4xi8> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %xf = relay.qnn.dequantize %x, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  %r = relay.nn.relu %xf : (tensor<4xf32>) -> tensor<4xf32>
  %q = relay.qnn.quantize %r, %s, %z {out_dtype = i8} : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  relay.return %q : tensor<4xi8>
}

// -----

// Tests that a product of two dequantized tensors the quantize reads is
// qnn.mul at the quantize's parameters (the squeeze-and-excitation gate of
// MobileNet-V3, broadcast over H and W).
// CHECK-LABEL: relay.func @mul_at_root
// CHECK: %[[M:.*]] = relay.qnn.mul %x, %g, {{.*}} : (tensor<1x2x3x3xui8>, tensor<1x2x1x1xui8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<1x2x3x3xui8>
// CHECK: relay.return %[[M]]
// CHECK-NOT: relay.multiply
relay.func @mul_at_root(%x: tensor<1x2x3x3xui8>, %g: tensor<1x2x1x1xui8>) -> tensor<1x2x3x3xui8> {
  %sx = relay.constant dense<0.1> : tensor<f32>
  %zx = relay.constant dense<3> : tensor<i32>
  %sg = relay.constant dense<0.00390625> : tensor<f32>
  %zg = relay.constant dense<0> : tensor<i32>
  %so = relay.constant dense<0.2> : tensor<f32>
  %xf = relay.qnn.dequantize %x, %sx, %zx : (tensor<1x2x3x3xui8>, tensor<f32>, tensor<i32>) -> tensor<1x2x3x3xf32>
  %gf = relay.qnn.dequantize %g, %sg, %zg : (tensor<1x2x1x1xui8>, tensor<f32>, tensor<i32>) -> tensor<1x2x1x1xf32>
  %m = relay.multiply %xf, %gf : (tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %q = relay.qnn.quantize %m, %so, %zx {out_dtype = ui8} : (tensor<1x2x3x3xf32>, tensor<f32>, tensor<i32>) -> tensor<1x2x3x3xui8>
  relay.return %q : tensor<1x2x3x3xui8>
}

// -----

// Tests that a product the quantize does not read directly is computed in
// int32 as (x - zx) * (y - zy) at the product of the scales (0.5 * 0.25),
// and that a multiplication by a positive scalar constant only scales the
// scale: x * 2 at scale 0.5 is x at scale 1, the quantize's own, so
// nothing is requantized.
// CHECK-LABEL: relay.func @mul_int32
// CHECK: %[[A:.*]] = relay.cast %x {dtype = i32}
// CHECK: %[[ZA:.*]] = relay.constant dense<1> : tensor<i32>
// CHECK: %[[CA:.*]] = relay.subtract %[[A]], %[[ZA]]
// CHECK: %[[B:.*]] = relay.cast %y {dtype = i32}
// CHECK: %[[M:.*]] = relay.multiply %[[CA]], %[[B]] : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK: %[[R:.*]] = relay.nn.relu %[[M]]
// CHECK: %[[S:.*]] = relay.constant dense<1.250000e-01> : tensor<f32>
// CHECK: %[[Q:.*]] = relay.qnn.requantize %[[R]], %[[S]]
// CHECK-LABEL: relay.func @mul_constant
// CHECK-NEXT: relay.return %x : tensor<4xi8>
relay.func @mul_int32(%x: tensor<4xi8>, %y: tensor<4xi8>) -> tensor<4xi8> {
  %sx = relay.constant dense<0.5> : tensor<f32>
  %zx = relay.constant dense<1> : tensor<i32>
  %sy = relay.constant dense<0.25> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %xf = relay.qnn.dequantize %x, %sx, %zx : (tensor<4xi8>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  %yf = relay.qnn.dequantize %y, %sy, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  %m = relay.multiply %xf, %yf : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = relay.nn.relu %m : (tensor<4xf32>) -> tensor<4xf32>
  %q = relay.qnn.quantize %r, %sx, %z {out_dtype = i8} : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  relay.return %q : tensor<4xi8>
}
relay.func @mul_constant(%x: tensor<4xi8>) -> tensor<4xi8> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %two = relay.constant dense<2.0> : tensor<f32>
  %so = relay.constant dense<1.0> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %xf = relay.qnn.dequantize %x, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  %m = relay.multiply %two, %xf : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %q = relay.qnn.quantize %m, %so, %z {out_dtype = i8} : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  relay.return %q : tensor<4xi8>
}

// -----

// Tests that a concatenation of tensors with the same parameters joins the
// integers, and one of different parameters the quantize reads is
// qnn.concatenate at the quantize's parameters (tuples of the inputs'
// scales and zero points).
// CHECK-LABEL: relay.func @concat_same
// CHECK: %[[T:.*]] = relay.tuple(%x, %y
// CHECK: %[[C:.*]] = relay.concatenate %[[T]] {axis = 1 : i64} : (tuple<tensor<1x2xi8>, tensor<1x3xi8>>) -> tensor<1x5xi8>
// CHECK: relay.return %[[C]]
// CHECK-LABEL: relay.func @concat_different
// CHECK: %[[D:.*]] = relay.tuple(%x, %y
// CHECK: %[[S:.*]] = relay.tuple(
// CHECK: %[[Z:.*]] = relay.tuple(
// CHECK: %[[C:.*]] = relay.qnn.concatenate %[[D]], %[[S]], %[[Z]], {{.*}} {axis = -1 : i64}
// CHECK: relay.return %[[C]]
relay.func @concat_same(%x: tensor<1x2xi8>, %y: tensor<1x3xi8>) -> tensor<1x5xi8> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %xf = relay.qnn.dequantize %x, %s, %z : (tensor<1x2xi8>, tensor<f32>, tensor<i32>) -> tensor<1x2xf32>
  %yf = relay.qnn.dequantize %y, %s, %z : (tensor<1x3xi8>, tensor<f32>, tensor<i32>) -> tensor<1x3xf32>
  %t = relay.tuple(%xf, %yf : tensor<1x2xf32>, tensor<1x3xf32>)
  %c = relay.concatenate %t {axis = 1 : i64} : (tuple<tensor<1x2xf32>, tensor<1x3xf32>>) -> tensor<1x5xf32>
  %q = relay.qnn.quantize %c, %s, %z {out_dtype = i8} : (tensor<1x5xf32>, tensor<f32>, tensor<i32>) -> tensor<1x5xi8>
  relay.return %q : tensor<1x5xi8>
}
relay.func @concat_different(%x: tensor<1x2xi8>, %y: tensor<1x3xi8>) -> tensor<1x5xi8> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %s2 = relay.constant dense<0.25> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %xf = relay.qnn.dequantize %x, %s, %z : (tensor<1x2xi8>, tensor<f32>, tensor<i32>) -> tensor<1x2xf32>
  %yf = relay.qnn.dequantize %y, %s2, %z : (tensor<1x3xi8>, tensor<f32>, tensor<i32>) -> tensor<1x3xf32>
  %t = relay.tuple(%xf, %yf : tensor<1x2xf32>, tensor<1x3xf32>)
  %c = relay.concatenate %t {axis = -1 : i64} : (tuple<tensor<1x2xf32>, tensor<1x3xf32>>) -> tensor<1x5xf32>
  %q = relay.qnn.quantize %c, %s, %z {out_dtype = i8} : (tensor<1x5xf32>, tensor<f32>, tensor<i32>) -> tensor<1x5xi8>
  relay.return %q : tensor<1x5xi8>
}

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
// CHECK: %[[C:.*]] = relay.qnn.conv2d %arg0, %{{.*}}, %[[ZX]], %{{.*}}, %[[SX]], %[[SW]] {out_dtype = i32, padding = array<i64: 1, 1>} : (tensor<1x2x4x4xui8>, tensor<3x2x3x3xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<1x3x4x4xi32>
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
// CHECK: %[[C:.*]] = relay.qnn.conv2d %arg0, {{.*}} : (tensor<1x1x3x3xi8>, tensor<2x1x1x1xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<2xf32>) -> tensor<1x2x3x3xi32>
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
// CHECK: %[[D:.*]] = relay.qnn.dense %arg0, {{.*}} -> tensor<1x2xi32>
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
// CHECK: %[[L:.*]] = relay.qnn.requantize %arg0, {{.*}}, %[[FINE]], {{.*}} {out_dtype = i32}
// CHECK: %[[R:.*]] = relay.qnn.requantize %arg1, {{.*}} {out_dtype = i32}
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
// CHECK: %[[A:.*]] = relay.qnn.add %arg0, %arg1, {{.*}} -> tensor<4xi8>
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
// CHECK-NEXT: %[[P:.*]] = relay.nn.max_pool2d %arg0 {{.*}} : (tensor<1x1x4x4xui8>) -> tensor<1x1x2x2xui8>
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
// CHECK: %[[X:.*]] = relay.cast %arg0 {dtype = i32}
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
// CHECK: %[[X:.*]] = relay.cast %arg0 {dtype = i32}
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
// CHECK: %[[R:.*]] = relay.clip %arg0 {a_max = 2.550000e+02 : f64, a_min = 1.280000e+02 : f64}
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
// CHECK: relay.nn.max_pool2d %arg0
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

// Tests that a subgraph with an operator without an integer rule (sigmoid)
// stays in float, as does one whose scale is only known at run time.
// CHECK-LABEL: relay.func @stays_in_float
// CHECK: relay.qnn.dequantize
// CHECK: relay.sigmoid
// CHECK: relay.qnn.quantize
// CHECK: relay.qnn.dequantize
// CHECK: relay.nn.max_pool2d {{.*}} -> tensor<1x1x2x2xf32>
// CHECK: relay.qnn.quantize
relay.func @stays_in_float(%x: tensor<1x1x4x4xi8>, %runtime: tensor<f32>) -> tuple<tensor<1x1x4x4xi8>, tensor<1x1x2x2xi8>> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %xf = relay.qnn.dequantize %x, %s, %z : (tensor<1x1x4x4xi8>, tensor<f32>, tensor<i32>) -> tensor<1x1x4x4xf32>
  %g = relay.sigmoid %xf : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
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
// CHECK: %[[D:.*]] = relay.qnn.dense %arg0, %[[T]], {{.*}} -> tensor<1x2xi32>
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

// Tests that a subtraction the quantize reads becomes qnn.subtract, and
// that a transpose and a reshape before it keep their operand's
// parameters (no requantize between them).
// CHECK-LABEL: relay.func @transpose_reshape_subtract
// CHECK: %[[T:.*]] = relay.transpose %arg0 {axes = array<i64: 1, 0>} : (tensor<2x3xi8>) -> tensor<3x2xi8>
// CHECK: %[[R:.*]] = relay.reshape %[[T]] {{.*}} : (tensor<3x2xi8>) -> tensor<6xi8>
// CHECK: %[[S:.*]] = relay.qnn.subtract %[[R]], %arg1, {{.*}} -> tensor<6xi8>
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

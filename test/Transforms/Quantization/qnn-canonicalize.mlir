// RUN: relay-mlir-opt %s --relay-qnn-canonicalize | FileCheck %s

// Tests that requantize becomes TVM's fixed-point multiply in int64: the
// input zero point subtracted, times the significand of the ratio of the
// float32 scales 0.01 / 0.2 (about 0.05 = 1717986854 * 2^-35), the rounding
// term 2^34 added, shifted right by 35,
// the output zero point added, clipped and cast.
// CHECK-LABEL: relay.func @requantize
relay.func @requantize(%x: tensor<4xi32>) -> tensor<4xi8> {
  %s_in = relay.constant dense<0.01> : tensor<f32>
  %z_in = relay.constant dense<3> : tensor<i32>
  %s_out = relay.constant dense<0.2> : tensor<f32>
  %z_out = relay.constant dense<-5> : tensor<i32>
  // CHECK-DAG: %[[ZIN:.*]] = relay.constant dense<3> : tensor<i64>
  // CHECK-DAG: %[[SIG:.*]] = relay.constant dense<1717986854> : tensor<i64>
  // CHECK-DAG: %[[HALF:.*]] = relay.constant dense<17179869184> : tensor<i64>
  // CHECK-DAG: %[[SHIFT:.*]] = relay.constant dense<35> : tensor<i64>
  // CHECK-DAG: %[[ZOUT:.*]] = relay.constant dense<-5> : tensor<i64>
  // CHECK: %[[X:.*]] = relay.cast %{{.*}} {dtype = i64}
  // CHECK: %[[C:.*]] = relay.subtract %[[X]], %[[ZIN]]
  // CHECK: %[[M:.*]] = relay.multiply %[[C]], %[[SIG]]
  // CHECK: %[[R:.*]] = relay.add %[[M]], %[[HALF]]
  // CHECK: %[[S:.*]] = relay.right_shift %[[R]], %[[SHIFT]]
  // CHECK: %[[O:.*]] = relay.add %[[S]], %[[ZOUT]]
  // CHECK: %[[K:.*]] = relay.clip %[[O]] {a_max = 1.270000e+02 : f64, a_min = -1.280000e+02 : f64}
  // CHECK: relay.cast %[[K]] {dtype = i8}
  // CHECK-NOT: relay.qnn
  %r = relay.qnn.requantize %x, %s_in, %z_in, %s_out, %z_out : (tensor<4xi32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  relay.return %r : tensor<4xi8>
}

// Tests that TONEAREST rounds ties away from zero: the rounding term is one
// less for negative products (a where on the sign).
// CHECK-LABEL: relay.func @requantize_to_nearest
relay.func @requantize_to_nearest(%x: tensor<4xi32>) -> tensor<4xi32> {
  %s_in = relay.constant dense<0.5> : tensor<f32>
  %s_out = relay.constant dense<1.0> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  // CHECK-DAG: %[[UP:.*]] = relay.constant dense<1073741824> : tensor<i64>
  // CHECK-DAG: %[[DOWN:.*]] = relay.constant dense<1073741823> : tensor<i64>
  // CHECK: %[[M:.*]] = relay.multiply
  // CHECK: %[[NONNEG:.*]] = relay.greater_equal %[[M]]
  // CHECK: %[[TERM:.*]] = relay.where %[[NONNEG]], %[[UP]], %[[DOWN]]
  // CHECK: relay.add %[[M]], %[[TERM]]
  %r = relay.qnn.requantize %x, %s_in, %z, %s_out, %z {rounding = "TONEAREST", out_dtype = i32} : (tensor<4xi32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi32>
  relay.return %r : tensor<4xi32>
}

// Tests that a per-channel requantize reads one multiplier and shift per
// channel, shaped along its axis (in int64: the ratios 0.4 to 0.8 shift
// by 31 and 32 bits).
// CHECK-LABEL: relay.func @requantize_per_channel
relay.func @requantize_per_channel(%x: tensor<2x3xi32>) -> tensor<2x3xi8> {
  %s_in = relay.constant dense<[0.2, 0.3, 0.4]> : tensor<3xf32>
  %s_out = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  // CHECK: relay.multiply %{{.*}}, %{{.*}} : (tensor<2x3xi64>, tensor<1x3xi64>)
  // CHECK: relay.right_shift %{{.*}}, %{{.*}} : (tensor<2x3xi64>, tensor<1x3xi64>)
  %r = relay.qnn.requantize %x, %s_in, %z, %s_out, %z {axis = 1 : i64} : (tensor<2x3xi32>, tensor<3xf32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<2x3xi8>
  relay.return %r : tensor<2x3xi8>
}

// Tests that a requantize whose every channel's ratio is under 1/4 (a
// product's accumulator: total right shifts 36, 35, 34) is done in 32 bits:
// the high half of the int64 product, then the rounding 2^(q-1) and the
// shift q = n - 32 in int32, the clip in int32.
// CHECK-LABEL: relay.func @requantize_in_32_bits
// CHECK-DAG: %[[Q:.*]] = relay.constant dense<{{\[\[}}4, 3, 2]]> : tensor<1x3xi32>
// CHECK-DAG: %[[HALF:.*]] = relay.constant dense<{{\[\[}}8, 4, 2]]> : tensor<1x3xi32>
// CHECK-DAG: %[[C32:.*]] = relay.constant dense<32> : tensor<i64>
// CHECK-DAG: %[[M:.*]] = relay.constant dense<1374389504> : tensor<1x3xi64>
// CHECK: %[[X:.*]] = relay.cast %x {dtype = i64}
// CHECK: %[[P:.*]] = relay.multiply %[[X]], %[[M]]
// CHECK: %[[HI:.*]] = relay.right_shift %[[P]], %[[C32]]
// CHECK: %[[HI32:.*]] = relay.cast %[[HI]] {dtype = i32}
// CHECK: %[[R:.*]] = relay.add %[[HI32]], %[[HALF]]
// CHECK: %[[Y:.*]] = relay.right_shift %[[R]], %[[Q]] : (tensor<2x3xi32>, tensor<1x3xi32>)
// CHECK: relay.clip %[[Y]] {{.*}} : (tensor<2x3xi32>) -> tensor<2x3xi32>
relay.func @requantize_in_32_bits(%x: tensor<2x3xi32>) -> tensor<2x3xi8> {
  %s_in = relay.constant dense<[0.01, 0.02, 0.04]> : tensor<3xf32>
  %s_out = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %r = relay.qnn.requantize %x, %s_in, %z, %s_out, %z {axis = 1 : i64} : (tensor<2x3xi32>, tensor<3xf32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<2x3xi8>
  relay.return %r : tensor<2x3xi8>
}

// Tests that an int32 input with a zero point stays in int64 (x - z could
// leave 32 bits), and so do the TONEAREST rounding and an int16 input
// whose zero point is far outside 16 bits.
// CHECK-LABEL: relay.func @requantize_kept_in_64_bits
// CHECK: relay.subtract %{{.*}}, %{{.*}} : (tensor<4xi64>, tensor<i64>)
// CHECK: relay.right_shift %{{.*}}, %{{.*}} : (tensor<4xi64>, tensor<i64>)
// CHECK: relay.where
// CHECK: relay.right_shift %{{.*}}, %{{.*}} : (tensor<4xi64>, tensor<i64>)
// CHECK: relay.cast %{{.*}} {dtype = i64} : (tensor<4xi16>)
// CHECK: relay.subtract %{{.*}}, %{{.*}} : (tensor<4xi64>, tensor<i64>)
// CHECK: relay.right_shift %{{.*}}, %{{.*}} : (tensor<4xi64>, tensor<i64>)
relay.func @requantize_kept_in_64_bits(%x: tensor<4xi32>, %h: tensor<4xi16>) -> tuple<tensor<4xi8>, tensor<4xi8>, tensor<4xi8>> {
  %s_in = relay.constant dense<0.01> : tensor<f32>
  %s_out = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %z_in = relay.constant dense<3> : tensor<i32>
  %z_far = relay.constant dense<100000000> : tensor<i32>
  %a = relay.qnn.requantize %x, %s_in, %z_in, %s_out, %z : (tensor<4xi32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  %b = relay.qnn.requantize %x, %s_in, %z, %s_out, %z {rounding = "TONEAREST"} : (tensor<4xi32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  %c = relay.qnn.requantize %h, %s_in, %z_far, %s_out, %z : (tensor<4xi16>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  %t = relay.tuple(%a, %b, %c : tensor<4xi8>, tensor<4xi8>, tensor<4xi8>)
  relay.return %t : tuple<tensor<4xi8>, tensor<4xi8>, tensor<4xi8>>
}

// Tests that quantize and dequantize are their float arithmetic.
// CHECK-LABEL: relay.func @quantize_dequantize
relay.func @quantize_dequantize(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = relay.constant dense<0.1> : tensor<f32>
  %z = relay.constant dense<2> : tensor<i32>
  // CHECK: %[[D:.*]] = relay.divide %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<f32>)
  // CHECK: %[[R:.*]] = relay.round %[[D]]
  // CHECK: %[[A:.*]] = relay.add %[[R]], %{{.*}} : (tensor<4xf32>, tensor<f32>)
  // CHECK: %[[C:.*]] = relay.clip %[[A]] {a_max = 2.550000e+02 : f64, a_min = 0.000000e+00 : f64}
  // CHECK: %[[Q:.*]] = relay.cast %[[C]] {dtype = ui8}
  %q = relay.qnn.quantize %x, %s, %z {out_dtype = ui8} : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xui8>
  // CHECK: %[[F:.*]] = relay.cast %[[Q]] {dtype = f32}
  // CHECK: %[[S:.*]] = relay.subtract %[[F]]
  // CHECK: relay.multiply %[[S]]
  %d = relay.qnn.dequantize %q, %s, %z : (tensor<4xui8>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  relay.return %d : tensor<4xf32>
}

// Tests that a convolution with zero points 0 runs on the int8 operands
// themselves (int32 out), and one with zero points on the shifted int32
// operands, the kernel's per output channel.
// CHECK-LABEL: relay.func @conv2d
relay.func @conv2d(%x: tensor<1x2x4x4xi8>, %w: tensor<3x2x3x3xi8>) -> tuple<tensor<1x3x2x2xi32>, tensor<1x3x2x2xi32>> {
  %s = relay.constant dense<0.1> : tensor<f32>
  %z0 = relay.constant dense<0> : tensor<i32>
  %zx = relay.constant dense<4> : tensor<i32>
  %zw = relay.constant dense<[1, 0, -1]> : tensor<3xi32>
  // CHECK: relay.nn.conv2d %x, %w {{{.*}}out_dtype = i32{{.*}}} : (tensor<1x2x4x4xi8>, tensor<3x2x3x3xi8>) -> tensor<1x3x2x2xi32>
  %a = relay.qnn.conv2d %x, %w, %z0, %z0, %s, %s : (tensor<1x2x4x4xi8>, tensor<3x2x3x3xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<1x3x2x2xi32>
  // CHECK: %[[XI:.*]] = relay.cast %x {dtype = i32}
  // CHECK: %[[XS:.*]] = relay.subtract %[[XI]], %{{.*}} : (tensor<1x2x4x4xi32>, tensor<i32>)
  // CHECK: %[[WI:.*]] = relay.cast %w {dtype = i32}
  // CHECK: %[[WS:.*]] = relay.subtract %[[WI]], %{{.*}} : (tensor<3x2x3x3xi32>, tensor<3x1x1x1xi32>)
  // CHECK: relay.nn.conv2d %[[XS]], %[[WS]]
  %b = relay.qnn.conv2d %x, %w, %zx, %zw, %s, %s : (tensor<1x2x4x4xi8>, tensor<3x2x3x3xi8>, tensor<i32>, tensor<3xi32>, tensor<f32>, tensor<f32>) -> tensor<1x3x2x2xi32>
  %t = relay.tuple(%a, %b : tensor<1x3x2x2xi32>, tensor<1x3x2x2xi32>)
  relay.return %t : tuple<tensor<1x3x2x2xi32>, tensor<1x3x2x2xi32>>
}

// Tests that a dense of a uint8 input with a scalar zero point by int8
// weights without one (PyTorch's quantized linear layers) shifts the input
// into int8 and takes the product on int8 operands (which the CPU runs on
// its int8 convolution kernels), adding back (128 - z) times each
// output's weight sum.
// CHECK-LABEL: relay.func @dense_u8_s8
// CHECK: %[[XS:.*]] = relay.cast %{{.*}} {dtype = i8} : (tensor<2x5xi32>) -> tensor<2x5xi8>
// CHECK: %[[P:.*]] = relay.nn.dense %[[XS]], %w {{{.*}}out_dtype = i32{{.*}}} : (tensor<2x5xi8>, tensor<3x5xi8>) -> tensor<2x3xi32>
// CHECK: %[[S:.*]] = relay.sum %{{.*}} {axis = array<i64: 1>} : (tensor<3x5xi32>) -> tensor<3xi32>
// CHECK: %[[K:.*]] = relay.multiply %[[S]], %{{.*}} : (tensor<3xi32>, tensor<i32>)
// CHECK: relay.add %[[P]], %[[K]] : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
relay.func @dense_u8_s8(%x: tensor<2x5xui8>, %w: tensor<3x5xi8>) -> tensor<2x3xi32> {
  %s = relay.constant dense<0.1> : tensor<f32>
  %z0 = relay.constant dense<0> : tensor<i32>
  %zx = relay.constant dense<3> : tensor<i32>
  %d = relay.qnn.dense %x, %w, %zx, %z0, %s, %s : (tensor<2x5xui8>, tensor<3x5xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<2x3xi32>
  relay.return %d : tensor<2x3xi32>
}

// Tests that zero points that are casts of constants (what the ONNX
// importer makes of QLinearMatMul's and QLinearConv's int8 and uint8 zero
// points, before constants are folded) count as constants: a dense with
// zero points 0 stays on its int8 operands, and a uint8 input's zero
// point 128 takes the shifted int8 product.
// CHECK-LABEL: relay.func @cast_zero_points
// CHECK: relay.nn.dense %x, %w {{{.*}}out_dtype = i32{{.*}}} : (tensor<2x5xi8>, tensor<3x5xi8>) -> tensor<2x3xi32>
// CHECK: %[[XS:.*]] = relay.cast %{{.*}} {dtype = i8} : (tensor<2x5xi32>) -> tensor<2x5xi8>
// CHECK: relay.nn.dense %[[XS]], %w {{{.*}}out_dtype = i32{{.*}}} : (tensor<2x5xi8>, tensor<3x5xi8>) -> tensor<2x3xi32>
relay.func @cast_zero_points(%x: tensor<2x5xi8>, %w: tensor<3x5xi8>, %u: tensor<2x5xui8>) -> tuple<tensor<2x3xi32>, tensor<2x3xi32>> {
  %s = relay.constant dense<0.1> : tensor<f32>
  %z8 = relay.constant dense<0> : tensor<i8>
  %z = relay.cast %z8 {dtype = i32} : (tensor<i8>) -> tensor<i32>
  %zu8 = relay.constant dense<128> : tensor<ui8>
  %zu = relay.cast %zu8 {dtype = i32} : (tensor<ui8>) -> tensor<i32>
  %a = relay.qnn.dense %x, %w, %z, %z, %s, %s : (tensor<2x5xi8>, tensor<3x5xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<2x3xi32>
  %b = relay.qnn.dense %u, %w, %zu, %z, %s, %s : (tensor<2x5xui8>, tensor<3x5xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<2x3xi32>
  %t = relay.tuple(%a, %b : tensor<2x3xi32>, tensor<2x3xi32>)
  relay.return %t : tuple<tensor<2x3xi32>, tensor<2x3xi32>>
}

// Tests that qnn.add only casts an operand whose parameters are the
// output's, requantizes the other, and corrects the zero point once.
// CHECK-LABEL: relay.func @add
relay.func @add(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi8> {
  %s1 = relay.constant dense<0.1> : tensor<f32>
  %s2 = relay.constant dense<0.3> : tensor<f32>
  %z = relay.constant dense<1> : tensor<i32>
  // CHECK: %[[L:.*]] = relay.cast %a {dtype = i32}
  // CHECK: relay.right_shift
  // CHECK: %[[R:.*]] = relay.cast %{{.*}} {dtype = i32}
  // CHECK: %[[SUM:.*]] = relay.add %[[L]], %[[R]]
  // CHECK: relay.subtract %[[SUM]]
  %r = relay.qnn.add %a, %b, %s1, %z, %s2, %z, %s1, %z : (tensor<4xi8>, tensor<4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  relay.return %r : tensor<4xi8>
}

// Tests that simulated_quantize becomes round(clip(x / s)) * s, and kind 0
// the identity.
// CHECK-LABEL: relay.func @simulated_quantize
relay.func @simulated_quantize(%x: tensor<4xf32>, %s: tensor<f32>, %lo: tensor<f32>, %hi: tensor<f32>) -> tensor<4xf32> {
  // CHECK: %[[D:.*]] = relay.divide %x, %s
  // CHECK: %[[MIN:.*]] = relay.minimum %[[D]], %hi
  // CHECK: %[[MAX:.*]] = relay.maximum %[[MIN]], %lo
  // CHECK: %[[R:.*]] = relay.round %[[MAX]]
  // CHECK: %[[Y:.*]] = relay.multiply %[[R]], %s
  %y = relay.annotation.simulated_quantize %x, %s, %lo, %hi {kind = 2 : i64} : (tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  // CHECK-NOT: simulated_quantize
  // CHECK: relay.return %[[Y]]
  %i = relay.annotation.simulated_quantize %y, %s, %lo, %hi {kind = 0 : i64} : (tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  relay.return %i : tensor<4xf32>
}

// Tests that scales known only at run time are read as operands where the
// arithmetic is float (dequantize, a float32 requantize), and that the
// int64 fixed-point requantize, whose multiplier is computed here, stays.
// CHECK-LABEL: relay.func @runtime_scale
relay.func @runtime_scale(%x: tensor<4xi8>, %s: tensor<f32>, %acc: tensor<4xi32>) -> tuple<tensor<4xf32>, tensor<4xi8>, tensor<4xi8>> {
  %z = relay.constant dense<0> : tensor<i32>
  // CHECK: %[[F:.*]] = relay.cast %x {dtype = f32}
  // CHECK: relay.multiply %[[F]], %s
  %d = relay.qnn.dequantize %x, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  // CHECK: %[[RATIO:.*]] = relay.divide %s, %s
  // CHECK: relay.multiply %{{.*}}, %[[RATIO]]
  %f = relay.qnn.requantize %acc, %s, %z, %s, %z {compute_dtype = "float32"} : (tensor<4xi32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  // CHECK: relay.qnn.requantize %acc, %s, %{{.*}}, %s, %{{.*}} :
  %r = relay.qnn.requantize %acc, %s, %z, %s, %z : (tensor<4xi32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  %t = relay.tuple(%d, %f, %r : tensor<4xf32>, tensor<4xi8>, tensor<4xi8>)
  relay.return %t : tuple<tensor<4xf32>, tensor<4xi8>, tensor<4xi8>>
}

// Tests that TVM's quantized unary operators take their canonical form,
// dequantize (float32 arithmetic), the float operator and quantize (round,
// clip, cast), with no qnn operator left, where a parameter is not a
// constant.
// CHECK-LABEL: relay.func @qnn_tanh
relay.func @qnn_tanh(%x: tensor<4xi8>, %so: tensor<f32>) -> tensor<4xi8> {
  %s = relay.constant dense<0.05> : tensor<f32>
  %z = relay.constant dense<3> : tensor<i32>
  // CHECK: relay.cast %{{.*}} {dtype = f32}
  // CHECK: relay.tanh
  // CHECK: relay.round
  // CHECK: relay.clip %{{.*}} {a_max = 1.270000e+02 : f64, a_min = -1.280000e+02 : f64}
  // CHECK: relay.cast %{{.*}} {dtype = i8}
  // CHECK-NOT: relay.qnn
  %r = relay.qnn.tanh %x, %s, %z, %so, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  relay.return %r : tensor<4xi8>
}

// Tests that a quantized unary operator of constant parameters on int8 data
// becomes a table of its 256 results (the canonical form evaluated: tanh of
// (-128 - 3) * 0.05 is -1, quantized to -125 = 0x83 at scale 0.008) read by take
// at the data's value + 128.
// CHECK-LABEL: relay.func @qnn_tanh_table
relay.func @qnn_tanh_table(%x: tensor<2x3xi8>) -> tensor<2x3xi8> {
  %s = relay.constant dense<0.05> : tensor<f32>
  %z = relay.constant dense<3> : tensor<i32>
  %so = relay.constant dense<0.008> : tensor<f32>
  %zo = relay.constant dense<0> : tensor<i32>
  // CHECK-DAG: %[[TABLE:.*]] = relay.constant dense<"0x838383{{.*}}"> : tensor<256xi8>
  // CHECK-DAG: %[[LO:.*]] = relay.constant dense<-128> : tensor<i32>
  // CHECK: %[[I:.*]] = relay.cast %{{.*}} {dtype = i32}
  // CHECK: %[[J:.*]] = relay.subtract %[[I]], %[[LO]]
  // CHECK: relay.take %[[TABLE]], %[[J]] {axis = 0 : i64} : (tensor<256xi8>, tensor<2x3xi32>) -> tensor<2x3xi8>
  // CHECK-NOT: relay.qnn
  // CHECK-NOT: relay.tanh
  %r = relay.qnn.tanh %x, %s, %z, %so, %zo : (tensor<2x3xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<2x3xi8>
  relay.return %r : tensor<2x3xi8>
}

// Tests that qnn.leaky_relu's canonical form multiplies in fixed point: the
// requantized values by alpha = 0.25 (2^30 * 2^-32) and the output zero
// point by 0.75 (1610612736 * 2^-31), chosen where the data is below its
// zero point (an output zero point that is not a constant: no table, and
// the requantize stays).
// CHECK-LABEL: relay.func @qnn_leaky_relu
relay.func @qnn_leaky_relu(%x: tensor<4xi8>, %zo: tensor<i32>) -> tensor<4xi8> {
  %s = relay.constant dense<0.1> : tensor<f32>
  %z = relay.constant dense<3> : tensor<i32>
  %so = relay.constant dense<0.2> : tensor<f32>
  // CHECK-DAG: relay.qnn.requantize %{{.*}} {out_dtype = i32}
  // CHECK-DAG: relay.fixed_point_multiply %{{.*}} {multiplier = 1073741824 : i64, shift = -1 : i64}
  // CHECK-DAG: relay.fixed_point_multiply %{{.*}} {multiplier = 1610612736 : i64, shift = 0 : i64}
  // CHECK-DAG: relay.less
  // CHECK: relay.where
  // CHECK: relay.cast %{{.*}} {dtype = i8}
  %r = relay.qnn.leaky_relu %x, %s, %z, %so, %zo {alpha = 0.25 : f64} : (tensor<4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  relay.return %r : tensor<4xi8>
}

// Tests that qnn.softmax's canonical form is integer arithmetic only (TVM's
// Shiftmax: shifts, a sum, the 2^30 normalisation), requantized to int8.
// CHECK-LABEL: relay.func @qnn_softmax
relay.func @qnn_softmax(%x: tensor<2x5xi8>) -> tensor<2x5xi8> {
  %s = relay.constant dense<0.08> : tensor<f32>
  %z = relay.constant dense<2> : tensor<i32>
  %so = relay.constant dense<0.00390625> : tensor<f32>
  %zo = relay.constant dense<-128> : tensor<i32>
  // CHECK-DAG: relay.constant dense<1073741824> : tensor<i32>
  // CHECK-DAG: relay.constant dense<-13> : tensor<i32>
  // CHECK: relay.max %{{.*}} {axis = array<i64: 1>, keepdims = true}
  // CHECK: relay.left_shift
  // CHECK: relay.sum %{{.*}} {axis = array<i64: 1>, keepdims = true}
  // CHECK-NOT: relay.qnn
  // CHECK-NOT: f32>
  // CHECK: relay.return
  %r = relay.qnn.softmax %x, %s, %z, %so, %zo : (tensor<2x5xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<2x5xi8>
  relay.return %r : tensor<2x5xi8>
}

// Tests that qnn.avg_pool2d pools the requantized int32 values.
// CHECK-LABEL: relay.func @qnn_avg_pool2d
relay.func @qnn_avg_pool2d(%x: tensor<1x1x4x4xui8>) -> tensor<1x1x2x2xui8> {
  %s = relay.constant dense<0.1> : tensor<f32>
  %z = relay.constant dense<128> : tensor<i32>
  // CHECK: relay.nn.avg_pool2d %{{.*}} : (tensor<1x1x4x4xi32>) -> tensor<1x1x2x2xi32>
  // CHECK: relay.clip %{{.*}} {a_max = 2.550000e+02 : f64, a_min = 0.000000e+00 : f64}
  // CHECK: relay.cast %{{.*}} {dtype = ui8}
  // CHECK-NOT: relay.qnn
  %r = relay.qnn.avg_pool2d %x, %s, %z, %s, %z {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xui8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<1x1x2x2xui8>
  relay.return %r : tensor<1x1x2x2xui8>
}

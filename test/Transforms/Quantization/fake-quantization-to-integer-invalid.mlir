// RUN: relay-mlir-opt %s --split-input-file --relay-fake-quantization-to-integer=hard-fail -verify-diagnostics

// Tests that with hard-fail an operator without an integer rule is an error
// naming it, with a note at the quantize whose subgraph holds it.
relay.func @no_rule(%x: tensor<4xi8>) -> tensor<4xi8> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %xf = relay.qnn.dequantize %x, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  // expected-error @+1 {{cannot rewrite 'relay.nn.softmax' in integers: there is no integer rule for it}}
  %g = relay.nn.softmax %xf : (tensor<4xf32>) -> tensor<4xf32>
  // expected-note @+1 {{in the subgraph of this qnn.quantize}}
  %q = relay.qnn.quantize %g, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  relay.return %q : tensor<4xi8>
}

// -----

// Tests that with hard-fail a dequantize whose scale is not a constant is
// an error.
relay.func @runtime_scale(%x: tensor<4xi8>, %s: tensor<f32>) -> tensor<4xi8> {
  %z = relay.constant dense<0> : tensor<i32>
  %c = relay.constant dense<0.5> : tensor<f32>
  // expected-error @+1 {{cannot rewrite 'relay.qnn.dequantize' in integers: its scale and zero point are not constants}}
  %xf = relay.qnn.dequantize %x, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  %r = relay.nn.relu %xf : (tensor<4xf32>) -> tensor<4xf32>
  // expected-note @+1 {{in the subgraph of this qnn.quantize}}
  %q = relay.qnn.quantize %r, %c, %z : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  relay.return %q : tensor<4xi8>
}

// -----

// Tests that with hard-fail a quantize of float values no dequantize
// reaches (a model's input) is a real quantization: no error, it stays.
relay.func @real_quantize(%x: tensor<4xf32>) -> tensor<4xi8> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %q = relay.qnn.quantize %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  relay.return %q : tensor<4xi8>
}

// -----

// Tests that an elementwise function of two dequantized tensors is no
// table (a table reads one): with hard-fail, the sigmoid is the error.
relay.func @two_leaves(%x: tensor<4xi8>, %y: tensor<4xi8>) -> tensor<4xi8> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %xf = relay.qnn.dequantize %x, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  %yf = relay.qnn.dequantize %y, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  // expected-error @+1 {{cannot rewrite 'relay.sigmoid' in integers: there is no integer rule for it}}
  %g = relay.sigmoid %xf : (tensor<4xf32>) -> tensor<4xf32>
  %a = relay.add %g, %yf : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // expected-note @+1 {{in the subgraph of this qnn.quantize}}
  %q = relay.qnn.quantize %a, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  relay.return %q : tensor<4xi8>
}

// -----

// Tests that a multiplication by a negative constant is an error (a scale
// is positive).
relay.func @negative_factor(%x: tensor<4xi8>) -> tensor<4xi8> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %m1 = relay.constant dense<-1.0> : tensor<f32>
  %xf = relay.qnn.dequantize %x, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  // expected-error @+1 {{cannot rewrite 'relay.multiply' in integers: it multiplies by a constant that is not one positive scalar}}
  %m = relay.multiply %xf, %m1 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %r = relay.nn.relu %m : (tensor<4xf32>) -> tensor<4xf32>
  // expected-note @+1 {{in the subgraph of this qnn.quantize}}
  %q = relay.qnn.quantize %r, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  relay.return %q : tensor<4xi8>
}

// -----

// Tests that a concatenation of differently quantized tensors that the
// quantize does not read directly is an error.
relay.func @concat_inside(%x: tensor<2xi8>, %y: tensor<2xi8>) -> tensor<4xi8> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %s2 = relay.constant dense<0.25> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %xf = relay.qnn.dequantize %x, %s, %z : (tensor<2xi8>, tensor<f32>, tensor<i32>) -> tensor<2xf32>
  %yf = relay.qnn.dequantize %y, %s2, %z : (tensor<2xi8>, tensor<f32>, tensor<i32>) -> tensor<2xf32>
  %t = relay.tuple(%xf, %yf : tensor<2xf32>, tensor<2xf32>)
  // expected-error @+1 {{cannot rewrite 'relay.concatenate' in integers: its operands' parameters differ and it does not feed the qnn.quantize}}
  %c = relay.concatenate %t : (tuple<tensor<2xf32>, tensor<2xf32>>) -> tensor<4xf32>
  %r = relay.nn.relu %c : (tensor<4xf32>) -> tensor<4xf32>
  // expected-note @+1 {{in the subgraph of this qnn.quantize}}
  %q = relay.qnn.quantize %r, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  relay.return %q : tensor<4xi8>
}

// -----

// Tests that a concatenation of tensors quantized per channel is an error
// (the channels' parameters are not joined).
relay.func @concat_per_channel(%x: tensor<1x2xi8>, %y: tensor<1x2xi8>) -> tensor<1x4xi8> {
  %s = relay.constant dense<[0.5, 0.25]> : tensor<2xf32>
  %so = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %xf = relay.qnn.dequantize %x, %s, %z {axis = 1 : i64} : (tensor<1x2xi8>, tensor<2xf32>, tensor<i32>) -> tensor<1x2xf32>
  %yf = relay.qnn.dequantize %y, %s, %z {axis = 1 : i64} : (tensor<1x2xi8>, tensor<2xf32>, tensor<i32>) -> tensor<1x2xf32>
  %t = relay.tuple(%xf, %yf : tensor<1x2xf32>, tensor<1x2xf32>)
  // expected-error @+1 {{cannot rewrite 'relay.concatenate' in integers: an operand is quantized per channel}}
  %c = relay.concatenate %t {axis = 1 : i64} : (tuple<tensor<1x2xf32>, tensor<1x2xf32>>) -> tensor<1x4xf32>
  // expected-note @+1 {{in the subgraph of this qnn.quantize}}
  %q = relay.qnn.quantize %c, %so, %z : (tensor<1x4xf32>, tensor<f32>, tensor<i32>) -> tensor<1x4xi8>
  relay.return %q : tensor<1x4xi8>
}

// -----

// Tests that with hard-fail a batch_matmul whose second operand is
// quantized per channel is an error saying so.
relay.func @batch_matmul_per_channel(%x: tensor<1x4x8xi8>) -> tensor<1x4x2xi8> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %wq = relay.constant dense<1> : tensor<1x2x8xi8>
  %sw = relay.constant dense<[0.25, 0.5]> : tensor<2xf32>
  %xf = relay.qnn.dequantize %x, %s, %z : (tensor<1x4x8xi8>, tensor<f32>, tensor<i32>) -> tensor<1x4x8xf32>
  %wf = relay.qnn.dequantize %wq, %sw, %z {axis = 1 : i64} : (tensor<1x2x8xi8>, tensor<2xf32>, tensor<i32>) -> tensor<1x2x8xf32>
  // expected-error @+1 {{cannot rewrite 'relay.nn.batch_matmul' in integers: its second operand is quantized per channel}}
  %m = relay.nn.batch_matmul %xf, %wf {transpose_b = true} : (tensor<1x4x8xf32>, tensor<1x2x8xf32>) -> tensor<1x4x2xf32>
  // expected-note @+1 {{in the subgraph of this qnn.quantize}}
  %q = relay.qnn.quantize %m, %s, %z : (tensor<1x4x2xf32>, tensor<f32>, tensor<i32>) -> tensor<1x4x2xi8>
  relay.return %q : tensor<1x4x2xi8>
}

// -----

// Tests that with hard-fail a convolution on packed layouts is an error
// (qnn.conv2d takes plain layouts).
relay.func @packed_conv(%x: tensor<1x1x4x4x4xi8>, %w: tensor<4x4x1x1xi8>) -> tensor<1x1x4x4x4xi8> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %xf = relay.qnn.dequantize %x, %s, %z : (tensor<1x1x4x4x4xi8>, tensor<f32>, tensor<i32>) -> tensor<1x1x4x4x4xf32>
  %wf = relay.qnn.dequantize %w, %s, %z : (tensor<4x4x1x1xi8>, tensor<f32>, tensor<i32>) -> tensor<4x4x1x1xf32>
  // expected-error @+1 {{cannot rewrite 'relay.nn.conv2d' in integers: its layouts pack an axis (qnn.conv2d takes plain layouts)}}
  %c = relay.nn.conv2d %xf, %wf {data_layout = "NCHW4c"} : (tensor<1x1x4x4x4xf32>, tensor<4x4x1x1xf32>) -> tensor<1x1x4x4x4xf32>
  // expected-note @+1 {{in the subgraph of this qnn.quantize}}
  %q = relay.qnn.quantize %c, %s, %z : (tensor<1x1x4x4x4xf32>, tensor<f32>, tensor<i32>) -> tensor<1x1x4x4x4xi8>
  relay.return %q : tensor<1x1x4x4x4xi8>
}

// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// Every relation's errors, found by the op verifiers (the relations run on
// the types the IR states).

// Tests broadcast dtypes.
relay.func @f0(%a: tensor<3xf32>, %b: tensor<3xi32>) -> tensor<i1> {
  // expected-error @+1 {{add: dtype mismatch between 'tensor<3xf32>' and 'tensor<3xi32>'}}
  %r = relay.add %a, %b : (tensor<3xf32>, tensor<3xi32>) -> tensor<3xf32>
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests broadcast shapes.
relay.func @f1(%a: tensor<3x4xf32>, %b: tensor<5xf32>) -> tensor<i1> {
  // expected-error @+1 {{add: cannot broadcast 'tensor<3x4xf32>' with 'tensor<5xf32>'}}
  %r = relay.add %a, %b : (tensor<3x4xf32>, tensor<5xf32>) -> tensor<3x4xf32>
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests symbolic dims that differ.
relay.func @f2[n : ShapeVar, m : ShapeVar](%a: !relay.tensor<[n], f32>, %b: !relay.tensor<[m], f32>) -> tensor<i1> {
  // expected-error @+1 {{maximum: cannot broadcast '!relay.tensor<[n], f32>' with '!relay.tensor<[m], f32>'}}
  %r = relay.maximum %a, %b : (!relay.tensor<[n], f32>, !relay.tensor<[m], f32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests compare shapes.
relay.func @f3(%a: tensor<2xi32>, %b: tensor<3xi32>) -> tensor<i1> {
  // expected-error @+1 {{equal: cannot broadcast 'tensor<2xi32>' with 'tensor<3xi32>'}}
  %r = relay.equal %a, %b : (tensor<2xi32>, tensor<3xi32>) -> tensor<2xi1>
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests result disagrees with the relation.
relay.func @f4(%a: tensor<2x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{'relay.exp' op result type 'tensor<3x2xf32>' but its type relation implies 'tensor<2x3xf32>'}}
  %r = relay.exp %a : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests identity on a tuple.
relay.func @f5(%a: tuple<tensor<f32>>) -> tensor<i1> {
  // expected-error @+1 {{negative: expected a tensor for operand #0, got 'tuple<tensor<f32>>'}}
  %r = relay.negative %a : (tuple<tensor<f32>>) -> tensor<f32>
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests softmax axis.
relay.func @f6(%a: tensor<2x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.softmax: axis 2 is out of range for a tensor of rank 2 (expected in [-2, 2))}}
  %r = relay.nn.softmax %a {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests softmax of integers.
relay.func @f7(%a: tensor<2x3xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.softmax: expected a float tensor, got 'tensor<2x3xi32>'}}
  %r = relay.nn.softmax %a : (tensor<2x3xi32>) -> tensor<2x3xi32>
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests negative init shape.
relay.func @f8() -> tensor<i1> {
  // expected-error @+1 {{zeros: shape dimensions must be non-negative, got -1}}
  %r = relay.zeros {shape = array<i64: 2, -1>} : () -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests full with a non-scalar fill.
relay.func @f9(%v: tensor<2xf32>) -> tensor<i1> {
  // expected-error @+1 {{full: operand #0 must be a scalar, got 'tensor<2xf32>'}}
  %r = relay.full %v {shape = array<i64: 2>} : (tensor<2xf32>) -> tensor<2xf32>
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests full_like with a non-scalar fill.
relay.func @f10(%a: tensor<2xf32>, %v: tensor<2xf32>) -> tensor<i1> {
  // expected-error @+1 {{full_like: operand #1 must be a scalar, got 'tensor<2xf32>'}}
  %r = relay.full_like %a, %v : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests where dtypes.
relay.func @f11(%c: tensor<2xi1>, %x: tensor<2xf32>, %y: tensor<2xi32>) -> tensor<i1> {
  // expected-error @+1 {{where: dtype mismatch between 'tensor<2xf32>' and 'tensor<2xi32>'}}
  %r = relay.where %c, %x, %y : (tensor<2xi1>, tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests where shapes.
relay.func @f12(%c: tensor<3xi1>, %x: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<i1> {
  // expected-error @+1 {{where: cannot broadcast 'tensor<3xi1>', 'tensor<2xf32>' and 'tensor<2xf32>'}}
  %r = relay.where %c, %x, %y : (tensor<3xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests bias of the wrong size.
relay.func @f13(%d: tensor<1x8x4x4xf32>, %b: tensor<4xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.bias_add: bias must have type 'tensor<8xf32>', got 'tensor<4xf32>'}}
  %r = relay.nn.bias_add %d, %b : (tensor<1x8x4x4xf32>, tensor<4xf32>) -> tensor<1x8x4x4xf32>
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests prelu slope of the wrong dtype.
relay.func @f14(%d: tensor<1x8xf32>, %b: tensor<8xf16>) -> tensor<i1> {
  // expected-error @+1 {{nn.prelu: alpha must have type 'tensor<8xf32>', got 'tensor<8xf16>'}}
  %r = relay.nn.prelu %d, %b : (tensor<1x8xf32>, tensor<8xf16>) -> tensor<1x8xf32>
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests dropout rate.
relay.func @f15(%d: tensor<4xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.dropout: rate must be in [0, 1], got 1.50}}
  %r = relay.nn.dropout %d {rate = 1.5 : f64} : (tensor<4xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests reduce axis.
relay.func @f16(%d: tensor<4x5xf32>) -> tensor<i1> {
  // expected-error @+1 {{sum: axis 2 is out of range for a tensor of rank 2 (expected in [-2, 2))}}
  %r = relay.sum %d {axis = array<i64: 2>} : (tensor<4x5xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests reduce axis twice.
relay.func @f17(%d: tensor<4x5xf32>) -> tensor<i1> {
  // expected-error @+1 {{mean: axis -1 is given more than once}}
  %r = relay.mean %d {axis = array<i64: 1, -1>} : (tensor<4x5xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests argmin axis.
relay.func @f18(%d: tensor<4xf32>) -> tensor<i1> {
  // expected-error @+1 {{argmin: axis -2 is out of range for a tensor of rank 1 (expected in [-1, 1))}}
  %r = relay.argmin %d {axis = array<i64: -2>} : (tensor<4xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests reshape element count.
relay.func @f19(%d: tensor<2x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{reshape: cannot reshape 'tensor<2x3xf32>' (6 elements) to 8 elements}}
  %r = relay.reshape %d {newshape = array<i64: 4, 2>} : (tensor<2x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests reshape with two -1.
relay.func @f20(%d: tensor<2x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{reshape: newshape [-1, -1] has more than one -1}}
  %r = relay.reshape %d {newshape = array<i64: -1, -1>} : (tensor<2x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests reshape with -1 not dividing.
relay.func @f21(%d: tensor<2x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{reshape: cannot infer the -1 dimension of newshape [4, -1] for 'tensor<2x3xf32>'}}
  %r = relay.reshape %d {newshape = array<i64: 4, -1>} : (tensor<2x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests reshape with an unknown code.
relay.func @f22(%d: tensor<2x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{reshape: invalid value -5 in newshape [-5]}}
  %r = relay.reshape %d {newshape = array<i64: -5>} : (tensor<2x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests reshape_like element count.
relay.func @f23(%d: tensor<2x3xf32>, %l: tensor<7xf32>) -> tensor<i1> {
  // expected-error @+1 {{reshape_like: cannot reshape 'tensor<2x3xf32>' (6 elements) to 7 elements}}
  %r = relay.reshape_like %d, %l : (tensor<2x3xf32>, tensor<7xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests batch_flatten of a scalar.
relay.func @f24(%d: tensor<f32>) -> tensor<i1> {
  // expected-error @+1 {{nn.batch_flatten: expected a tensor of rank >= 1, got 'tensor<f32>'}}
  %r = relay.nn.batch_flatten %d : (tensor<f32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests transpose axes not a permutation.
relay.func @f25(%d: tensor<2x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{transpose: axes [0, 0] is not a permutation}}
  %r = relay.transpose %d {axes = array<i64: 0, 0>} : (tensor<2x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests transpose axes count.
relay.func @f26(%d: tensor<2x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{transpose: axes [0] must have 2 entries}}
  %r = relay.transpose %d {axes = array<i64: 0>} : (tensor<2x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests squeeze a non-1 axis.
relay.func @f27(%d: tensor<2x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{squeeze: cannot squeeze axis 1 of size 3}}
  %r = relay.squeeze %d {axis = array<i64: 1>} : (tensor<2x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests expand_dims axis.
relay.func @f28(%d: tensor<2x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{expand_dims: axis 4 is out of range for a tensor of rank 3 (expected in [-3, 3))}}
  %r = relay.expand_dims %d {axis = 4 : i64} : (tensor<2x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests concatenate mismatched dims.
relay.func @f29(%t: tuple<tensor<2x3xf32>, tensor<2x4xf32>>) -> tensor<i1> {
  // expected-error @+1 {{concatenate: dimension 1 differs between the fields of 'tuple<tensor<2x3xf32>, tensor<2x4xf32>>'}}
  %r = relay.concatenate %t : (tuple<tensor<2x3xf32>, tensor<2x4xf32>>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests concatenate mismatched ranks.
relay.func @f30(%t: tuple<tensor<2x3xf32>, tensor<2xf32>>) -> tensor<i1> {
  // expected-error @+1 {{concatenate: tuple fields have different ranks: 'tuple<tensor<2x3xf32>, tensor<2xf32>>'}}
  %r = relay.concatenate %t {axis = 1 : i64} : (tuple<tensor<2x3xf32>, tensor<2xf32>>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests concatenate a tensor.
relay.func @f31(%t: tensor<2x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{concatenate: expected a tuple of tensors, got 'tensor<2x3xf32>'}}
  %r = relay.concatenate %t : (tensor<2x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests concatenate mixed dtypes.
relay.func @f32(%t: tuple<tensor<2xf32>, tensor<2xi8>>) -> tensor<i1> {
  // expected-error @+1 {{concatenate: tuple fields have different dtypes: 'tuple<tensor<2xf32>, tensor<2xi8>>'}}
  %r = relay.concatenate %t : (tuple<tensor<2xf32>, tensor<2xi8>>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests stack different shapes.
relay.func @f33(%t: tuple<tensor<2xf32>, tensor<3xf32>>) -> tensor<i1> {
  // expected-error @+1 {{stack: tuple fields have different shapes: 'tuple<tensor<2xf32>, tensor<3xf32>>'}}
  %r = relay.stack %t : (tuple<tensor<2xf32>, tensor<3xf32>>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests split into unequal sections.
relay.func @f34(%d: tensor<5xf32>) -> tensor<i1> {
  // expected-error @+1 {{split: cannot split dimension 0 of size 5 into 2 equal sections}}
  %r = relay.split %d {indices_or_sections = 2 : i64} : (tensor<5xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests split at decreasing indices.
relay.func @f35(%d: tensor<5xf32>) -> tensor<i1> {
  // expected-error @+1 {{split: split indices must be increasing, got [3, 1]}}
  %r = relay.split %d {indices_or_sections = array<i64: 3, 1>} : (tensor<5xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests take with float indices.
relay.func @f36(%d: tensor<5xf32>, %i: tensor<2xf32>) -> tensor<i1> {
  // expected-error @+1 {{take: indices must be integers, got 'tensor<2xf32>'}}
  %r = relay.take %d, %i : (tensor<5xf32>, tensor<2xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests take with an unknown mode.
relay.func @f37(%d: tensor<5xf32>, %i: tensor<2xi32>) -> tensor<i1> {
  // expected-error @+1 {{take: mode must be "clip", "wrap" or "fast", got "nearest"}}
  %r = relay.take %d, %i {axis = 0 : i64, mode = "nearest"} : (tensor<5xf32>, tensor<2xi32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests strided_slice with a zero stride.
relay.func @f38(%d: tensor<5xf32>) -> tensor<i1> {
  // expected-error @+1 {{strided_slice: strides must be non-zero}}
  %r = relay.strided_slice %d {begin = array<i64: 0>, end = array<i64: 5>, strides = array<i64: 0>} : (tensor<5xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests strided_slice with too many entries.
relay.func @f39(%d: tensor<5xf32>) -> tensor<i1> {
  // expected-error @+1 {{strided_slice: begin and end have more entries than the rank 1}}
  %r = relay.strided_slice %d {begin = array<i64: 0, 0>, end = array<i64: 5, 5>} : (tensor<5xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests broadcast_to an incompatible shape.
relay.func @f40(%d: tensor<3xf32>) -> tensor<i1> {
  // expected-error @+1 {{broadcast_to: cannot broadcast 'tensor<3xf32>' to shape [2, 4]}}
  %r = relay.broadcast_to %d {shape = array<i64: 2, 4>} : (tensor<3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests pad_width of the wrong length.
relay.func @f41(%d: tensor<3x3xf32>, %v: tensor<f32>) -> tensor<i1> {
  // expected-error @+1 {{nn.pad: pad_width needs 4 values (a before and an after per axis), got 2}}
  %r = relay.nn.pad %d, %v {pad_width = array<i64: 1, 1>} : (tensor<3x3xf32>, tensor<f32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests pad with a non-scalar value.
relay.func @f42(%d: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.pad: pad_value must be a scalar, got 'tensor<3xf32>'}}
  %r = relay.nn.pad %d, %v {pad_width = array<i64: 1, 1>} : (tensor<3xf32>, tensor<3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests layout_transform with a bad layout.
relay.func @f43(%d: tensor<1x3x4x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{layout_transform: invalid layout "NC4"}}
  %r = relay.layout_transform %d {src_layout = "NCHW", dst_layout = "NC4"} : (tensor<1x3x4x4xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests layout_transform not dividing.
relay.func @f44(%d: tensor<1x3x4x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{layout_transform: axis C of size 3 is not divisible by 2}}
  %r = relay.layout_transform %d {src_layout = "NCHW", dst_layout = "NCHW2c"} : (tensor<1x3x4x4xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests that layout_transform's source sub-axis must hold its factor
// (TVM reads the factor: a shorter sub-axis would be read past).
relay.func @layout_sub_axis(%d: tensor<1x2x4x4x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{layout_transform: sub-axis 4c of src_layout "NCHW4c" has extent 3 in 'tensor<1x2x4x4x3xf32>'}}
  %r = relay.layout_transform %d {src_layout = "NCHW4c", dst_layout = "NCHW"} : (tensor<1x2x4x4x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests that a primal axis appears once in a layout (its sub-axes may
// repeat: OIHW4i16o4i), and that repeated sub-axes divide their axis by
// the product of their factors (16 input channels are not blocks of 32).
relay.func @layout_repeated(%d: tensor<16x16x1x1xf32>) -> tensor<i1> {
  // expected-error @+1 {{layout_transform: invalid layout "OIHWO"}}
  %r = relay.layout_transform %d {src_layout = "OIHW", dst_layout = "OIHWO"} : (tensor<16x16x1x1xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

relay.func @layout_repeated_factors(%d: tensor<16x16x1x1xf32>) -> tensor<i1> {
  // expected-error @+1 {{layout_transform: axis I of size 16 is not divisible by 32}}
  %s = relay.layout_transform %d {src_layout = "OIHW", dst_layout = "OIHW8i16o4i"} : (tensor<16x16x1x1xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests layout_transform losing an axis.
relay.func @f45(%d: tensor<1x3x4x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{layout_transform: dst_layout "NCHD" has axis D that src_layout "NCHW" lacks}}
  %r = relay.layout_transform %d {src_layout = "NCHW", dst_layout = "NCHD"} : (tensor<1x3x4x4xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests conv2d channel mismatch.
relay.func @f46(%x: tensor<1x3x8x8xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv2d: weight 'tensor<8x4x3x3xf32>' has 4 input channels, expected 3 (data channels / groups)}}
  %r = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<8x4x3x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests conv2d channels attribute mismatch.
relay.func @f47(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv2d: weight 'tensor<8x3x3x3xf32>' has 8 output channels but channels = 16}}
  %r = relay.nn.conv2d %x, %w {channels = 16 : i64} : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests conv2d groups.
relay.func @f48(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv2d: the 3 input channels are not divisible by groups = 2}}
  %r = relay.nn.conv2d %x, %w {groups = 2 : i64} : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests conv2d window larger than the input.
relay.func @f49(%x: tensor<1x3x2x2xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv2d: the window (3) is larger than the height dimension 2 plus padding 0}}
  %r = relay.nn.conv2d %x, %w : (tensor<1x3x2x2xf32>, tensor<8x3x3x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests conv2d layout.
relay.func @f50(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv2d: data_layout "CHWN" is not supported (expected "NCHW" or "NHWC")}}
  %r = relay.nn.conv2d %x, %w {data_layout = "CHWN"} : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests conv2d of a 3-d tensor.
relay.func @f51(%x: tensor<3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv2d: expected a 4-d data tensor, got 'tensor<3x8x8xf32>'}}
  %r = relay.nn.conv2d %x, %w : (tensor<3x8x8xf32>, tensor<8x3x3x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests conv2d padding count.
relay.func @f52(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv2d: padding must have 1, 2 or 4 values, got 3}}
  %r = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests conv2d_transpose channel mismatch.
relay.func @f53(%x: tensor<1x16x8x8xf32>, %w: tensor<8x4x4x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv2d_transpose: weight 'tensor<8x4x4x4xf32>' has 8 input channels, expected 16 (data channels / groups)}}
  %r = relay.nn.conv2d_transpose %x, %w : (tensor<1x16x8x8xf32>, tensor<8x4x4x4xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests dense reduction mismatch.
relay.func @f54(%x: tensor<4x8xf32>, %w: tensor<16x7xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.dense: reduction dimensions differ: 'tensor<4x8xf32>' and 'tensor<16x7xf32>'}}
  %r = relay.nn.dense %x, %w : (tensor<4x8xf32>, tensor<16x7xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests dense units mismatch.
relay.func @f55(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.dense: weight 'tensor<16x8xf32>' does not have units = 10}}
  %r = relay.nn.dense %x, %w {units = 10 : i64} : (tensor<4x8xf32>, tensor<16x8xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests matmul reduction mismatch.
relay.func @f56(%x: tensor<4x8xf32>, %w: tensor<7x5xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.matmul: reduction dimensions differ: 'tensor<4x8xf32>' and 'tensor<7x5xf32>'}}
  %r = relay.nn.matmul %x, %w : (tensor<4x8xf32>, tensor<7x5xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests batch_matmul batch mismatch.
relay.func @f57(%x: tensor<2x4x8xf32>, %y: tensor<3x5x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.batch_matmul: batch dimensions differ: 'tensor<2x4x8xf32>' and 'tensor<3x5x8xf32>'}}
  %r = relay.nn.batch_matmul %x, %y {transpose_b = true} : (tensor<2x4x8xf32>, tensor<3x5x8xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests max_pool2d window.
relay.func @f58(%x: tensor<1x3x2x2xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.max_pool2d: the window (3) is larger than the height dimension 2 plus padding 0}}
  %r = relay.nn.max_pool2d %x {pool_size = array<i64: 3, 3>} : (tensor<1x3x2x2xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests avg_pool2d stride.
relay.func @f59(%x: tensor<1x3x8x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.avg_pool2d: strides must be positive, got 0}}
  %r = relay.nn.avg_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 0, 1>} : (tensor<1x3x8x8xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests that a global pool's plain layout must be NCHW or NHWC (packed
// ones are invalid-packed-relations.mlir's).
relay.func @f60(%x: tensor<1x3x8x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.global_max_pool2d: layout "CHWN" is not supported (expected "NCHW" or "NHWC")}}
  %r = relay.nn.global_max_pool2d %x {layout = "CHWN"} : (tensor<1x3x8x8xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests adaptive pool output size.
relay.func @f61(%x: tensor<1x3x8x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.adaptive_max_pool2d: output_size must have 1 or 2 values}}
  %r = relay.nn.adaptive_max_pool2d %x {output_size = array<i64: 1, 2, 3>} : (tensor<1x3x8x8xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests upsampling method.
relay.func @f62(%x: tensor<1x3x8x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.upsampling: method must be "nearest_neighbor", "bilinear" or "bicubic", got "area"}}
  %r = relay.nn.upsampling %x {method = "area"} : (tensor<1x3x8x8xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests batch_norm parameter shape.
relay.func @f63(%x: tensor<1x3x8x8xf32>, %g: tensor<4xf32>, %p: tensor<3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.batch_norm: gamma must have type 'tensor<3xf32>', got 'tensor<4xf32>'}}
  %r = relay.nn.batch_norm %x, %g, %p, %p, %p : (tensor<1x3x8x8xf32>, tensor<4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests batch_norm of integers.
relay.func @f64(%x: tensor<1x3xi32>, %p: tensor<3xi32>) -> tensor<i1> {
  // expected-error @+1 {{nn.batch_norm: expected a float tensor, got 'tensor<1x3xi32>'}}
  %r = relay.nn.batch_norm %x, %p, %p, %p, %p : (tensor<1x3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}
// -----

// Tests layer_norm parameter shape.
relay.func @f65(%x: tensor<2x8xf32>, %g: tensor<8xf32>, %b: tensor<2xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.layer_norm: beta must have type 'tensor<8xf32>', got 'tensor<2xf32>'}}
  %r = relay.nn.layer_norm %x, %g, %b : (tensor<2x8xf32>, tensor<8xf32>, tensor<2xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests gather with indices of another rank.
relay.func @gather_rank(%d: tensor<3x4xf32>, %i: tensor<3xi64>) -> !relay.incomplete {
  // expected-error @+1 {{gather: indices must have the data's rank 2, got 'tensor<3xi64>'}}
  %r = relay.gather %d, %i {axis = 1 : i64} : (tensor<3x4xf32>, tensor<3xi64>) -> !relay.incomplete
  relay.return %r : !relay.incomplete
}

// -----

// Tests gather with indices larger than the data off the axis.
relay.func @gather_size(%d: tensor<3x4xf32>, %i: tensor<5x2xi64>) -> !relay.incomplete {
  // expected-error @+1 {{gather: indices dimension 0 (5) exceeds the data's (3)}}
  %r = relay.gather %d, %i {axis = 1 : i64} : (tensor<3x4xf32>, tensor<5x2xi64>) -> !relay.incomplete
  relay.return %r : !relay.incomplete
}

// -----

// Tests scatter_elements with float indices.
relay.func @scatter_float_indices(%d: tensor<3x4xf32>, %i: tensor<3x4xf32>) -> !relay.incomplete {
  // expected-error @+1 {{scatter_elements: indices must be integers, got 'tensor<3x4xf32>'}}
  %r = relay.scatter_elements %d, %i, %d : (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> !relay.incomplete
  relay.return %r : !relay.incomplete
}

// -----

// Tests scatter_elements with updates of another shape than the indices.
relay.func @scatter_updates(%d: tensor<3x4xf32>, %i: tensor<2x4xi64>, %u: tensor<3x4xf32>) -> !relay.incomplete {
  // expected-error @+1 {{scatter_elements: updates (the indices' shape, the data's dtype) must have type 'tensor<2x4xf32>', got 'tensor<3x4xf32>'}}
  %r = relay.scatter_elements %d, %i, %u : (tensor<3x4xf32>, tensor<2x4xi64>, tensor<3x4xf32>) -> !relay.incomplete
  relay.return %r : !relay.incomplete
}

// -----

// Tests scatter_elements with an unknown reduction.
relay.func @scatter_reduction(%d: tensor<3x4xf32>, %i: tensor<3x4xi64>) -> !relay.incomplete {
  // expected-error @+1 {{scatter_elements: reduction "sum" is not one of update, add, mul, min, max}}
  %r = relay.scatter_elements %d, %i, %d {reduction = "sum"} : (tensor<3x4xf32>, tensor<3x4xi64>, tensor<3x4xf32>) -> !relay.incomplete
  relay.return %r : !relay.incomplete
}

// -----

// Tests scatter_elements with an axis out of range.
relay.func @scatter_axis(%d: tensor<3x4xf32>, %i: tensor<3x4xi64>) -> !relay.incomplete {
  // expected-error @+1 {{scatter_elements: axis 2 is out of range}}
  %r = relay.scatter_elements %d, %i, %d {axis = 2 : i64} : (tensor<3x4xf32>, tensor<3x4xi64>, tensor<3x4xf32>) -> !relay.incomplete
  relay.return %r : !relay.incomplete
}

// -----

// Tests scatter_nd with index tuples longer than the data's rank.
relay.func @scatter_nd_tuples(%d: tensor<3x4xf32>, %i: tensor<3x2xi64>, %u: tensor<2xf32>) -> !relay.incomplete {
  // expected-error @+1 {{scatter_nd: index tuples of length 3 do not fit data of rank 2}}
  %r = relay.scatter_nd %d, %i, %u : (tensor<3x4xf32>, tensor<3x2xi64>, tensor<2xf32>) -> !relay.incomplete
  relay.return %r : !relay.incomplete
}

// -----

// Tests scatter_nd with index tuples of a length known only at run time,
// which the ranks give (3 here, more than the data's rank).
relay.func @scatter_nd_dynamic(%d: tensor<3x4xf32>, %i: tensor<?x2xi64>, %u: tensor<f32>) -> !relay.incomplete {
  // expected-error @+1 {{scatter_nd: index tuples of length 3 do not fit data of rank 2}}
  %r = relay.scatter_nd %d, %i, %u : (tensor<3x4xf32>, tensor<?x2xi64>, tensor<f32>) -> !relay.incomplete
  relay.return %r : !relay.incomplete
}

// -----

// Tests scatter_nd with updates of the wrong shape.
relay.func @scatter_nd_updates(%d: tensor<3x4xf32>, %i: tensor<1x2xi64>, %u: tensor<2x3xf32>) -> !relay.incomplete {
  // expected-error @+1 {{scatter_nd: updates (indices.shape[1:] + data.shape[M:], the data's dtype) must have type 'tensor<2x4xf32>', got 'tensor<2x3xf32>'}}
  %r = relay.scatter_nd %d, %i, %u : (tensor<3x4xf32>, tensor<1x2xi64>, tensor<2x3xf32>) -> !relay.incomplete
  relay.return %r : !relay.incomplete
}

// -----

// Tests scatter_nd with an unknown mode.
relay.func @scatter_nd_mode(%d: tensor<3x4xf32>, %i: tensor<1x2xi64>, %u: tensor<2x4xf32>) -> !relay.incomplete {
  // expected-error @+1 {{scatter_nd: mode "mean" is not one of update, add, mul, min, max}}
  %r = relay.scatter_nd %d, %i, %u {mode = "mean"} : (tensor<3x4xf32>, tensor<1x2xi64>, tensor<2x4xf32>) -> !relay.incomplete
  relay.return %r : !relay.incomplete
}

// -----

// Tests tile's reps.
relay.func @tile_reps(%a: tensor<3xf32>) -> tensor<i1> {
  // expected-error @+1 {{tile: reps must be positive, got 0}}
  %r = relay.tile %a {reps = array<i64: 0>} : (tensor<3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests repeat's axis.
relay.func @repeat_axis(%a: tensor<3xf32>) -> tensor<i1> {
  // expected-error @+1 {{repeat: axis 2 is out of range for a tensor of rank 1 (expected in [-1, 1))}}
  %r = relay.repeat %a {repeats = 2 : i64, axis = 2 : i64} : (tensor<3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests group_norm's groups.
relay.func @group_norm_groups(%a: tensor<1x6x2x2xf32>, %g: tensor<6xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.group_norm: the 6 channels do not split into 4 groups}}
  %r = relay.nn.group_norm %a, %g, %g {num_groups = 4 : i64} : (tensor<1x6x2x2xf32>, tensor<6xf32>, tensor<6xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests broadcast_to_like's shapes.
relay.func @broadcast_like(%a: tensor<3xf32>, %b: tensor<2x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{broadcast_to_like: cannot broadcast 'tensor<3xf32>' to the shape of 'tensor<2x4xf32>'}}
  %r = relay.broadcast_to_like %a, %b : (tensor<3xf32>, tensor<2x4xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests isnan's dtype.
relay.func @isnan_int(%a: tensor<3xi32>) -> tensor<i1> {
  // expected-error @+1 {{isnan: expected a float tensor, got 'tensor<3xi32>'}}
  %r = relay.isnan %a : (tensor<3xi32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests conv1d's weight channels.
relay.func @conv1d_channels(%a: tensor<1x4x9xf32>, %w: tensor<6x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv1d: weight 'tensor<6x3x3xf32>' has 3 input channels, expected 4 (data channels / groups)}}
  %r = relay.nn.conv1d %a, %w : (tensor<1x4x9xf32>, tensor<6x3x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests max_pool1d's layout.
relay.func @pool1d_layout(%a: tensor<1x9x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.max_pool1d: layout 'NWC' is not supported (only NCW)}}
  %r = relay.nn.max_pool1d %a {pool_size = array<i64: 2>, layout = "NWC"} : (tensor<1x9x4xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests one_hot's indices.
relay.func @one_hot_float(%a: tensor<3xf32>, %v: tensor<f32>) -> tensor<i1> {
  // expected-error @+1 {{one_hot: expected integer indices, got 'tensor<3xf32>'}}
  %r = relay.one_hot %a, %v, %v {depth = 4 : i64, dtype = f32} : (tensor<3xf32>, tensor<f32>, tensor<f32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests depth_to_space's channels.
relay.func @depth_to_space_channels(%a: tensor<1x6x2x2xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.depth_to_space: the channels (6) must be a multiple of 4}}
  %r = relay.nn.depth_to_space %a {block_size = 2 : i64} : (tensor<1x6x2x2xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that a topk whose k needs sorting the axis is bounded by the
// sorting network's longest axis.
relay.func @topk_large(%a: tensor<2x300000xf32>) -> tensor<i1> {
  // expected-error @+1 {{topk: k = 100 sorts the axis of 300000 elements; sorting supports at most 262144}}
  %r = relay.topk %a {k = 100 : i64} : (tensor<2x300000xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests argsort's longest axis.
relay.func @argsort_large(%a: tensor<300000xf32>) -> tensor<i1> {
  // expected-error @+1 {{argsort: the axis has 300000 elements; sorting supports at most 262144}}
  %r = relay.argsort %a : (tensor<300000xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests mirror_pad's pads in REFLECT mode.
relay.func @mirror_pad_reflect(%a: tensor<3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.mirror_pad: pads 3, 0 do not fit axis 0 in REFLECT mode}}
  %r = relay.nn.mirror_pad %a {pad_width = array<i64: 3, 0>, mode = "REFLECT"} : (tensor<3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests variance's mean.
relay.func @variance_mean(%a: tensor<2x3xf32>, %m: tensor<4xf32>) -> tensor<i1> {
  // expected-error @+1 {{variance: the mean 'tensor<4xf32>' does not broadcast to the data 'tensor<2x3xf32>'}}
  %r = relay.variance %a, %m : (tensor<2x3xf32>, tensor<4xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that image.grid_sample wants a grid [N, 2, H_out, W_out].
relay.func @grid_sample_grid(%a: tensor<1x1x4x4xf32>, %g: tensor<1x6x5x2xf32>) -> tensor<i1> {
  // expected-error @+1 {{image.grid_sample: expected a grid [N, 2, H_out, W_out] of the data's batch and dtype, got 'tensor<1x6x5x2xf32>'}}
  %r = relay.image.grid_sample %a, %g : (tensor<1x1x4x4xf32>, tensor<1x6x5x2xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that vision.roi_align wants rois [R, 5] of the data's dtype.
relay.func @roi_align_rois(%a: tensor<1x2x6x6xf32>, %r: tensor<3x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{vision.roi_align: expected rois [R, 5] (batch index, x1, y1, x2, y2) of the data's dtype, got 'tensor<3x4xf32>'}}
  %y = relay.vision.roi_align %a, %r {pooled_size = array<i64: 2, 2>, spatial_scale = 1.0 : f64, sample_ratio = 2 : i64} : (tensor<1x2x6x6xf32>, tensor<3x4xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that vision.roi_align rejects more sample points per bin side than
// it supports.
relay.func @roi_align_dense_grid(%a: tensor<1x2x6x6xf32>, %r: tensor<3x5xf32>) -> tensor<i1> {
  // expected-error @+1 {{vision.roi_align: sample_ratio 65 is more points per bin side than supported (64)}}
  %y = relay.vision.roi_align %a, %r {pooled_size = array<i64: 2, 2>, spatial_scale = 1.0 : f64, sample_ratio = 65 : i64} : (tensor<1x2x6x6xf32>, tensor<3x5xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests vision.roi_align's mode.
relay.func @roi_align_mode(%a: tensor<1x2x6x6xf32>, %r: tensor<3x5xf32>) -> tensor<i1> {
  // expected-error @+1 {{vision.roi_align: mode must be avg or max, got 'sum'}}
  %y = relay.vision.roi_align %a, %r {pooled_size = array<i64: 2, 2>, spatial_scale = 1.0 : f64, sample_ratio = 2 : i64, mode = "sum"} : (tensor<1x2x6x6xf32>, tensor<3x5xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests vision.roi_align's pooled size.
relay.func @roi_align_size(%a: tensor<1x2x6x6xf32>, %r: tensor<3x5xf32>) -> tensor<i1> {
  // expected-error @+1 {{vision.roi_align: pooled_size must be two positive values}}
  %z = relay.vision.roi_align %a, %r {pooled_size = array<i64: 0, 2>, spatial_scale = 1.0 : f64, sample_ratio = 2 : i64} : (tensor<1x2x6x6xf32>, tensor<3x5xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests image.grid_sample's padding mode.
relay.func @grid_sample_padding(%a: tensor<1x1x4x4xf32>, %g: tensor<1x2x5x5xf32>) -> tensor<i1> {
  // expected-error @+1 {{image.grid_sample: padding_mode must be zeros, border or reflection, got 'wrap'}}
  %r = relay.image.grid_sample %a, %g {padding_mode = "wrap"} : (tensor<1x1x4x4xf32>, tensor<1x2x5x5xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests resize2d's method.
relay.func @resize_method(%a: tensor<1x1x4x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{image.resize2d: method must be nearest_neighbor, linear or cubic, got 'area'}}
  %r = relay.image.resize2d %a {size = array<i64: 8, 8>, method = "area"} : (tensor<1x1x4x4xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that resize2d names the layouts it takes: NCHW's axes in any order,
// not a packed one.
relay.func @resize_packed_layout(%a: tensor<1x1x4x4x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{image.resize2d: layout 'NCHW4c' is not supported (expected NCHW or another order of its axes, such as NHWC)}}
  %r = relay.image.resize2d %a {size = array<i64: 8, 8>, layout = "NCHW4c"} : (tensor<1x1x4x4x4xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that resize1d's rank error names the layout it was given.
relay.func @resize1d_layout_rank(%a: tensor<1x4x4x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{image.resize1d: expected a 3-d (NWC) float tensor, got 'tensor<1x4x4x3xf32>'}}
  %r = relay.image.resize1d %a {size = array<i64: 8>, layout = "NWC"} : (tensor<1x4x4x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that resize2d's tf_crop_and_resize needs its region of interest.
relay.func @resize_crop_roi(%a: tensor<1x1x4x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{image.resize2d: tf_crop_and_resize needs roi = (start_h, start_w, end_h, end_w)}}
  %r = relay.image.resize2d %a {size = array<i64: 3, 3>, coordinate_transformation_mode = "tf_crop_and_resize"} : (tensor<1x1x4x4xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that dyn.image.resize2d has no tf_crop_and_resize (no roi).
relay.func @dyn_resize_crop(%a: tensor<1x1x4x4xf32>, %s: tensor<2xi64>) -> tensor<i1> {
  // expected-error @+1 {{dyn.image.resize2d: coordinate_transformation_mode 'tf_crop_and_resize' is not supported}}
  %r = relay.dyn.image.resize2d %a, %s {coordinate_transformation_mode = "tf_crop_and_resize"} : (tensor<1x1x4x4xf32>, tensor<2xi64>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests sequence_mask's lengths.
relay.func @sequence_mask_lengths(%a: tensor<5x2xf32>, %n: tensor<3xi32>) -> tensor<i1> {
  // expected-error @+1 {{sequence_mask: valid_length must be integer lengths, one per batch entry, got 'tensor<3xi32>'}}
  %r = relay.sequence_mask %a, %n : (tensor<5x2xf32>, tensor<3xi32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that a quantize's scale must be float32.
relay.func @quantize_scale_dtype(%x: tensor<4xf32>, %s: tensor<f64>, %z: tensor<i32>) -> tensor<i1> {
  // expected-error @+1 {{qnn.quantize: output_scale must be 'f32' values, got 'tensor<f64>'}}
  %r = relay.qnn.quantize %x, %s, %z : (tensor<4xf32>, tensor<f64>, tensor<i32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that a per-channel parameter has one value per channel of the axis.
relay.func @quantize_channels(%x: tensor<2x3xf32>, %s: tensor<2xf32>, %z: tensor<i32>) -> tensor<i1> {
  // expected-error @+1 {{qnn.quantize: output_scale must be a scalar or a vector of 3 (one per channel), got 'tensor<2xf32>'}}
  %r = relay.qnn.quantize %x, %s, %z {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2xf32>, tensor<i32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that quantize's out_dtype is an integer storage type.
relay.func @quantize_out_dtype(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i32>) -> tensor<i1> {
  // expected-error @+1 {{qnn.quantize: out_dtype must be one of int8, uint8, int16, uint16, int32, got 'f16'}}
  %r = relay.qnn.quantize %x, %s, %z {out_dtype = f16} : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that dequantize takes integers.
relay.func @dequantize_float(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i32>) -> tensor<i1> {
  // expected-error @+1 {{qnn.dequantize: expected integer data (int8, uint8, int16, uint16, int32), got 'tensor<4xf32>'}}
  %r = relay.qnn.dequantize %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that requantize names an unknown rounding mode.
relay.func @requantize_rounding(%x: tensor<4xi32>, %s: tensor<f32>, %z: tensor<i32>) -> tensor<i1> {
  // expected-error @+1 {{qnn.requantize: rounding must be "UPWARD", "TONEAREST" or "None", got "DOWN"}}
  %r = relay.qnn.requantize %x, %s, %z, %s, %z {rounding = "DOWN"} : (tensor<4xi32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that qnn.conv2d checks its convolution like nn.conv2d does.
relay.func @qnn_conv2d_channels(%x: tensor<1x2x5x5xi8>, %w: tensor<3x4x3x3xi8>, %s: tensor<f32>, %z: tensor<i32>) -> tensor<i1> {
  // expected-error @+1 {{qnn.conv2d: weight 'tensor<3x4x3x3xi8>' has 4 input channels, expected 2 (data channels / groups)}}
  %r = relay.qnn.conv2d %x, %w, %z, %z, %s, %s : (tensor<1x2x5x5xi8>, tensor<3x4x3x3xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that a kernel zero point per channel matches the output channels.
relay.func @qnn_dense_kernel_zero_point(%x: tensor<2x8xi8>, %w: tensor<4x8xi8>, %s: tensor<f32>, %z: tensor<i32>, %zc: tensor<3xi32>) -> tensor<i1> {
  // expected-error @+1 {{qnn.dense: kernel_zero_point must be a scalar or a vector of 4 (one per channel), got 'tensor<3xi32>'}}
  %r = relay.qnn.dense %x, %w, %z, %zc, %s, %s : (tensor<2x8xi8>, tensor<4x8xi8>, tensor<i32>, tensor<3xi32>, tensor<f32>, tensor<f32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that qnn.dense takes 8- or 16-bit integers.
relay.func @qnn_dense_float(%x: tensor<2x8xf32>, %w: tensor<4x8xi8>, %s: tensor<f32>, %z: tensor<i32>) -> tensor<i1> {
  // expected-error @+1 {{qnn.dense: expected int8, uint8, int16 or uint16 operands, got 'tensor<2x8xf32>' and 'tensor<4x8xi8>'}}
  %r = relay.qnn.dense %x, %w, %z, %z, %s, %s : (tensor<2x8xf32>, tensor<4x8xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that qnn.concatenate has one scale per input.
relay.func @qnn_concatenate_scales(%a: tensor<2xi8>, %s: tensor<f32>, %z: tensor<i32>) -> tensor<i1> {
  %t = relay.tuple(%a, %a : tensor<2xi8>, tensor<2xi8>)
  %ts = relay.tuple(%s : tensor<f32>)
  %tz = relay.tuple(%z, %z : tensor<i32>, tensor<i32>)
  // expected-error @+1 {{qnn.concatenate: input_scales has 1 values for 2 inputs}}
  %r = relay.qnn.concatenate %t, %ts, %tz, %s, %z : (tuple<tensor<2xi8>, tensor<2xi8>>, tuple<tensor<f32>>, tuple<tensor<i32>, tensor<i32>>, tensor<f32>, tensor<i32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that TVM's quantized unary operators take int8 or uint8 data.
relay.func @qnn_unary_dtype(%x: tensor<4xi32>, %s: tensor<f32>, %z: tensor<i32>) -> tensor<i1> {
  // expected-error @+1 {{qnn.tanh: expected int8 or uint8 data, got 'tensor<4xi32>'}}
  %r = relay.qnn.tanh %x, %s, %z, %s, %z : (tensor<4xi32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that qnn.leaky_relu's parameters are scalars, named as TVM names them.
relay.func @qnn_leaky_relu_scale(%x: tensor<2x3xi8>, %s: tensor<3xf32>, %c: tensor<f32>, %z: tensor<i32>) -> tensor<i1> {
  // expected-error @+1 {{qnn.leaky_relu: input_scale must be a scalar, got 'tensor<3xf32>'}}
  %r = relay.qnn.leaky_relu %x, %s, %z, %c, %z {alpha = 0.1 : f64} : (tensor<2x3xi8>, tensor<3xf32>, tensor<i32>, tensor<f32>, tensor<i32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that qnn.softmax's axis is one of the data's.
relay.func @qnn_softmax_axis(%x: tensor<2x3xi8>, %s: tensor<f32>, %z: tensor<i32>) -> tensor<i1> {
  // expected-error @+1 {{qnn.softmax: axis 2 is out of range for a tensor of rank 2 (expected in [-2, 2))}}
  %r = relay.qnn.softmax %x, %s, %z, %s, %z {axis = 2 : i64} : (tensor<2x3xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that qnn.avg_pool2d's zero points are int32 and its pooling is nn.avg_pool2d's.
relay.func @qnn_avg_pool2d_zero_point(%x: tensor<1x2x4x4xui8>, %s: tensor<f32>, %z: tensor<i8>, %zo: tensor<i32>) -> tensor<i1> {
  // expected-error @+1 {{qnn.avg_pool2d: input_zero_point must be 'i32' values, got 'tensor<i8>'}}
  %r = relay.qnn.avg_pool2d %x, %s, %z, %s, %zo {pool_size = array<i64: 2, 2>} : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that qnn.conv2d_transpose's kernel zero point is one per output channel (the IOHW kernel's O).
relay.func @qnn_conv2d_transpose_zero_points(%x: tensor<1x2x4x4xi8>, %w: tensor<2x3x3x3xi8>, %z: tensor<i32>, %kz: tensor<2xi32>, %s: tensor<f32>) -> tensor<i1> {
  // expected-error @+1 {{qnn.conv2d_transpose: kernel_zero_point must be a scalar or a vector of 3 (one per channel), got 'tensor<2xi32>'}}
  %r = relay.qnn.conv2d_transpose %x, %w, %z, %kz, %s, %s : (tensor<1x2x4x4xi8>, tensor<2x3x3x3xi8>, tensor<i32>, tensor<2xi32>, tensor<f32>, tensor<f32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that qnn.leaky_relu's alpha is finite.
relay.func @qnn_leaky_relu_alpha(%x: tensor<4xi8>, %s: tensor<f32>, %z: tensor<i32>) -> tensor<i1> {
  // expected-error @+1 {{qnn.leaky_relu: alpha must be finite}}
  %r = relay.qnn.leaky_relu %x, %s, %z, %s, %z {alpha = 0x7FF0000000000000 : f64} : (tensor<4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that qnn.simulated_quantize's dtype code is an int32 scalar.
relay.func @qnn_simulated_quantize_code(%x: tensor<4xf32>, %c: tensor<i64>, %s: tensor<f32>, %z: tensor<i32>) -> tensor<i1> {
  // expected-error @+1 {{qnn.simulated_quantize: dtype must be 'i32' values, got 'tensor<i64>'}}
  %r = relay.qnn.simulated_quantize %x, %c, %s, %z : (tensor<4xf32>, tensor<i64>, tensor<f32>, tensor<i32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that qnn.softmax takes data of rank 1 or more.
relay.func @qnn_softmax_rank(%x: tensor<i8>, %s: tensor<f32>, %z: tensor<i32>) -> tensor<i1> {
  // expected-error @+1 {{qnn.softmax: expected data of rank 1 or more, got 'tensor<i8>'}}
  %r = relay.qnn.softmax %x, %s, %z, %s, %z : (tensor<i8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests simulated_quantize's kind.
relay.func @simulated_quantize_kind(%x: tensor<4xf32>, %s: tensor<f32>) -> tensor<i1> {
  // expected-error @+1 {{annotation.simulated_quantize: kind must be 0 (identity), 1 (input), 2 (weight) or 3 (activation), got 7}}
  %r = relay.annotation.simulated_quantize %x, %s, %s, %s {kind = 7 : i64} : (tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that a per-channel dom_scale must broadcast to the data.
relay.func @simulated_quantize_scale_shape(%x: tensor<3x4xf32>, %s: tensor<4x1xf32>, %c: tensor<f32>) -> tensor<i1> {
  // expected-error @+1 {{annotation.simulated_quantize: dom_scale must be a scalar or broadcast to the data 'tensor<3x4xf32>', got 'tensor<4x1xf32>'}}
  %r = relay.annotation.simulated_quantize %x, %s, %c, %c {kind = 2 : i64} : (tensor<3x4xf32>, tensor<4x1xf32>, tensor<f32>, tensor<f32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that qnn.mul takes one scale per operand (it requantizes from
// their product).
relay.func @qnn_mul_channel_scale(%a: tensor<2x3xi8>, %s: tensor<f32>, %sc: tensor<3xf32>, %z: tensor<i32>) -> tensor<i1> {
  // expected-error @+1 {{qnn.mul: lhs_scale must be a scalar, got 'tensor<3xf32>'}}
  %r = relay.qnn.mul %a, %a, %sc, %z, %s, %z, %s, %z {lhs_axis = 1 : i64} : (tensor<2x3xi8>, tensor<2x3xi8>, tensor<3xf32>, tensor<i32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that cross_entropy's targets must have the predictions' shape.
relay.func @cross_entropy_shapes(%p: tensor<3x4xf32>, %t: tensor<3x5xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.cross_entropy: the targets' shape 'tensor<3x5xf32>' differs from the predictions' 'tensor<3x4xf32>'}}
  %r = relay.nn.cross_entropy %p, %t : (tensor<3x4xf32>, tensor<3x5xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that cross_entropy wants [batch, classes] predictions.
relay.func @cross_entropy_rank(%p: tensor<3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.cross_entropy_with_logits: expected predictions of shape [batch, classes], got 'tensor<3xf32>'}}
  %r = relay.nn.cross_entropy_with_logits %p, %p : (tensor<3xf32>, tensor<3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that nll_loss's targets are integer class indices.
relay.func @nll_loss_float_targets(%p: tensor<3x4xf32>, %t: tensor<3xf32>, %w: tensor<4xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.nll_loss: expected integer targets of shape [N, ...] (the predictions' without C), got 'tensor<3xf32>'}}
  %r = relay.nn.nll_loss %p, %t, %w : (tensor<3x4xf32>, tensor<3xf32>, tensor<4xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that nll_loss's weights have one value per class.
relay.func @nll_loss_weights(%p: tensor<3x4xf32>, %t: tensor<3xi32>, %w: tensor<5xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.nll_loss: expected weights of shape [C] and the predictions' dtype, got 'tensor<5xf32>'}}
  %r = relay.nn.nll_loss %p, %t, %w : (tensor<3x4xf32>, tensor<3xi32>, tensor<5xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that nll_loss's reduction is mean, sum or none.
relay.func @nll_loss_reduction(%p: tensor<3x4xf32>, %t: tensor<3xi32>, %w: tensor<4xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.nll_loss: unknown reduction 'avg' (expected mean, sum or none)}}
  %r = relay.nn.nll_loss %p, %t, %w {reduction = "avg"} : (tensor<3x4xf32>, tensor<3xi32>, tensor<4xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that conv3d takes 5-d (NCDHW) data.
relay.func @conv3d_rank(%a: tensor<1x4x9x9xf32>, %w: tensor<6x4x3x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv3d: expected a 5-d (NCDHW) data tensor, got 'tensor<1x4x9x9xf32>'}}
  %r = relay.nn.conv3d %a, %w : (tensor<1x4x9x9xf32>, tensor<6x4x3x3x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that conv3d's weight has the data's channels per group.
relay.func @conv3d_channels(%a: tensor<1x4x5x9x9xf32>, %w: tensor<6x4x3x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv3d: weight 'tensor<6x4x3x3x3xf32>' has 4 input channels, expected 2 (data channels / groups)}}
  %r = relay.nn.conv3d %a, %w {groups = 2 : i64} : (tensor<1x4x5x9x9xf32>, tensor<6x4x3x3x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that conv3d's padding has 1, 3 or 6 values.
relay.func @conv3d_padding(%a: tensor<1x4x5x9x9xf32>, %w: tensor<6x4x3x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv3d: padding must have 1, 3 or 6 non-negative values, got 2}}
  %r = relay.nn.conv3d %a, %w {padding = array<i64: 1, 1>} : (tensor<1x4x5x9x9xf32>, tensor<6x4x3x3x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that conv3d supports only the NCDHW data layout, by name.
relay.func @conv3d_layout(%a: tensor<1x5x9x9x4xf32>, %w: tensor<6x4x3x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv3d: data_layout 'NDHWC' is not supported (only NCDHW)}}
  %r = relay.nn.conv3d %a, %w {data_layout = "NDHWC"} : (tensor<1x5x9x9x4xf32>, tensor<6x4x3x3x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that a 3-d window larger than the padded depth is an error.
relay.func @conv3d_window(%a: tensor<1x4x2x9x9xf32>, %w: tensor<6x4x3x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv3d: the window (3) is larger than the depth dimension 2 plus padding 0}}
  %r = relay.nn.conv3d %a, %w : (tensor<1x4x2x9x9xf32>, tensor<6x4x3x3x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that max_pool3d's strides are positive.
relay.func @pool3d_strides(%a: tensor<1x4x5x9x9xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.max_pool3d: strides must have 1 or 3 positive values, got 3 values}}
  %r = relay.nn.max_pool3d %a {pool_size = array<i64: 2>, strides = array<i64: 2, 0, 2>} : (tensor<1x4x5x9x9xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that adaptive_avg_pool3d's output_size has 1 or 3 values.
relay.func @adaptive_pool3d_size(%a: tensor<1x4x5x9x9xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.adaptive_avg_pool3d: output_size must have 1 or 3 positive values, got 2 values}}
  %r = relay.nn.adaptive_avg_pool3d %a {output_size = array<i64: 2, 2>} : (tensor<1x4x5x9x9xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that conv3d_transpose's weight (IODHW) has the data's channels first.
relay.func @conv3d_transpose_channels(%a: tensor<1x4x5x9x9xf32>, %w: tensor<6x4x3x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv3d_transpose: weight 'tensor<6x4x3x3x3xf32>' has 6 input channels, expected 4}}
  %r = relay.nn.conv3d_transpose %a, %w : (tensor<1x4x5x9x9xf32>, tensor<6x4x3x3x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that conv3d_transpose's output_padding is smaller than its stride.
relay.func @conv3d_transpose_output_padding(%a: tensor<1x4x5x9x9xf32>, %w: tensor<4x2x3x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv3d_transpose: output_padding must be non-negative and smaller than the stride or the dilation}}
  %r = relay.nn.conv3d_transpose %a, %w {strides = array<i64: 2>, output_padding = array<i64: 0, 2, 0>} : (tensor<1x4x5x9x9xf32>, tensor<4x2x3x3x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that conv3d_transpose takes 5-d data and weights.
relay.func @conv3d_transpose_rank(%a: tensor<1x4x9x9xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv3d_transpose: expected 5-d (NCDHW) data and (IODHW) weights of one dtype, got 'tensor<1x4x9x9xf32>' and 'tensor<4x2x3x3xf32>'}}
  %r = relay.nn.conv3d_transpose %a, %w : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that padding larger than conv3d_transpose's output is an error.
relay.func @conv3d_transpose_no_output(%a: tensor<1x4x1x9x9xf32>, %w: tensor<4x2x1x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv3d_transpose: the padding leaves no output}}
  %r = relay.nn.conv3d_transpose %a, %w {padding = array<i64: 1, 0, 0>} : (tensor<1x4x1x9x9xf32>, tensor<4x2x1x3x3xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that padding larger than conv2d_transpose's output is an error (it
// gave a negative dimension before).
relay.func @conv2d_transpose_no_output(%a: tensor<1x4x1x1xf32>, %w: tensor<4x2x1x1xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.conv2d_transpose: the padding leaves no output}}
  %r = relay.nn.conv2d_transpose %a, %w {padding = array<i64: 1, 0, 1, 0>} : (tensor<1x4x1x1xf32>, tensor<4x2x1x1xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that reinterpret keeps each element's width: f32 is no i16.
relay.func @reinterpret_width(%a: tensor<2xf32>) -> tensor<i1> {
  // expected-error @+1 {{reinterpret: keeps each element's bits, so dtype 'i16' (16 bits) must be as wide as the data's 'f32' (32 bits)}}
  %r = relay.reinterpret %a {dtype = i16} : (tensor<2xf32>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that bool, which has no bit layout, is not reinterpreted.
relay.func @reinterpret_bool(%a: tensor<2xi8>) -> tensor<i1> {
  // expected-error @+1 {{reinterpret: works on dtypes of 8 bits or more, not on bool}}
  %r = relay.reinterpret %a {dtype = i1} : (tensor<2xi8>) -> !relay.incomplete
  %ok = relay.constant dense<true> : tensor<i1>
  relay.return %ok : tensor<i1>
}

// -----

// Tests that trilu needs a matrix and an integer scalar k.
relay.func @trilu_vector(%a: tensor<3xf32>, %k: tensor<i64>) -> tensor<i1> {
  // expected-error @+1 {{trilu: expected a tensor of at least 2 axes, got 'tensor<3xf32>'}}
  %r = relay.trilu %a, %k : (tensor<3xf32>, tensor<i64>) -> !relay.incomplete
  %t = relay.constant dense<true> : tensor<i1>
  relay.return %t : tensor<i1>
}

// -----

// Tests that gather_nd's coordinates fit the data.
relay.func @gather_nd_too_many(%a: tensor<2x3xf32>, %i: tensor<3x4xi32>) -> tensor<i1> {
  // expected-error @+1 {{gather_nd: batch_dims 0 and 3 coordinates do not fit data 'tensor<2x3xf32>' and indices 'tensor<3x4xi32>'}}
  %r = relay.gather_nd %a, %i : (tensor<2x3xf32>, tensor<3x4xi32>) -> !relay.incomplete
  %t = relay.constant dense<true> : tensor<i1>
  relay.return %t : tensor<i1>
}

// -----

// Tests that a sorted sequence of several axes shares the values' leading
// axes.
relay.func @searchsorted_rows(%s: tensor<2x5xf32>, %v: tensor<3x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{searchsorted: a sorted sequence of more than one axis must share its leading axes with the values, got 'tensor<2x5xf32>' and 'tensor<3x4xf32>'}}
  %r = relay.searchsorted %s, %v : (tensor<2x5xf32>, tensor<3x4xf32>) -> !relay.incomplete
  %t = relay.constant dense<true> : tensor<i1>
  relay.return %t : tensor<i1>
}

// -----

// Tests that space_to_batch_nd's padded axes divide into whole blocks.
relay.func @space_to_batch_uneven(%a: tensor<1x5x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.space_to_batch_nd: axis 1 of 5 padded by 0 is not a multiple of its block 2}}
  %r = relay.nn.space_to_batch_nd %a {block_shape = array<i64: 2>, paddings = array<i64: 0, 0>} : (tensor<1x5x4xf32>) -> !relay.incomplete
  %t = relay.constant dense<true> : tensor<i1>
  relay.return %t : tensor<i1>
}

// -----

// Tests that paddings whose sum passes 64-bit sizes saturate into an error
// instead of wrapping into a negative axis.
relay.func @space_to_batch_huge_padding(%a: tensor<1x4x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.space_to_batch_nd: axis 1 of 4 padded by 9223372036854775807 is not a multiple of its block 2}}
  %r = relay.nn.space_to_batch_nd %a {block_shape = array<i64: 2>, paddings = array<i64: 5000000000000000000, 5000000000000000000>} : (tensor<1x4x4xf32>) -> !relay.incomplete
  %t = relay.constant dense<true> : tensor<i1>
  relay.return %t : tensor<i1>
}

// -----

// Tests that dilate takes one stride per axis.
relay.func @dilate_strides(%a: tensor<2x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.dilate: strides needs one positive value per axis of 'tensor<2x3xf32>', got 1 values}}
  %r = relay.nn.dilate %a {strides = array<i64: 2>} : (tensor<2x3xf32>) -> !relay.incomplete
  %t = relay.constant dense<true> : tensor<i1>
  relay.return %t : tensor<i1>
}

// -----

// Tests that sparse_to_dense's coordinate rows match output_shape's rank.
relay.func @sparse_to_dense_rank(%i: tensor<3x2xi32>, %v: tensor<3xf32>, %d: tensor<f32>) -> tensor<i1> {
  // expected-error @+1 {{sparse_to_dense: sparse_indices must be integers, [N] or 0-d for a 1-d output_shape, [N, 3] for this one, got 'tensor<3x2xi32>'}}
  %r = relay.sparse_to_dense %i, %v, %d {output_shape = array<i64: 4, 4, 4>} : (tensor<3x2xi32>, tensor<3xf32>, tensor<f32>) -> !relay.incomplete
  %t = relay.constant dense<true> : tensor<i1>
  relay.return %t : tensor<i1>
}

// -----

// Tests that einsum reports a label whose sizes differ between operands.
relay.func @einsum_sizes(%a: tensor<3x4xf32>, %b: tensor<5x6xf32>) -> tensor<i1> {
  %t = relay.tuple(%a, %b : tensor<3x4xf32>, tensor<5x6xf32>)
  // expected-error @+1 {{einsum: label 'j' has size 4 in one operand and 5 in operand 1}}
  %r = relay.einsum %t {equation = "ij,jk->ik"} : (tuple<tensor<3x4xf32>, tensor<5x6xf32>>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that einsum reports subscripts that do not fit an operand's rank.
relay.func @einsum_rank(%a: tensor<3x4xf32>) -> tensor<i1> {
  %t = relay.tuple(%a : tensor<3x4xf32>)
  // expected-error @+1 {{einsum: subscripts 'ijk' have 3 letters for an operand of rank 2}}
  %r = relay.einsum %t {equation = "ijk->k"} : (tuple<tensor<3x4xf32>>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that einsum reports a result subscript no operand has.
relay.func @einsum_output(%a: tensor<3x4xf32>) -> tensor<i1> {
  %t = relay.tuple(%a : tensor<3x4xf32>)
  // expected-error @+1 {{einsum: the result's subscript 'z' is not an operand's}}
  %r = relay.einsum %t {equation = "ij->z"} : (tuple<tensor<3x4xf32>>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that meshgrid takes vectors only.
relay.func @meshgrid_rank(%a: tensor<3x4xf32>) -> tensor<i1> {
  %t = relay.tuple(%a : tensor<3x4xf32>)
  // expected-error @+1 {{meshgrid: expected a tuple of 0-d or 1-d tensors, got 'tuple<tensor<3x4xf32>>'}}
  %r = relay.meshgrid %t : (tuple<tensor<3x4xf32>>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that matrix_set_diag names the diagonal shape its band needs.
relay.func @matrix_set_diag_shape(%a: tensor<2x3x4xf32>, %d: tensor<2x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{matrix_set_diag: diagonal must be 'tensor<2x2x3xf32>' for diagonals -1..0 of 'tensor<2x3x4xf32>', got 'tensor<2x3xf32>'}}
  %r = relay.matrix_set_diag %a, %d {k1 = -1 : i64} : (tensor<2x3x4xf32>, tensor<2x3xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that matrix_set_diag's band lies in the matrix.
relay.func @matrix_set_diag_band(%a: tensor<3x4xf32>, %d: tensor<3xf32>) -> tensor<i1> {
  // expected-error @+1 {{matrix_set_diag: diagonals 4..4 are not all in a matrix of 3x4}}
  %r = relay.matrix_set_diag %a, %d {k1 = 4 : i64, k2 = 4 : i64} : (tensor<3x4xf32>, tensor<3xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that image.crop_and_resize wants one box index per box.
relay.func @crop_and_resize_indices(%d: tensor<1x3x8x8xf32>, %b: tensor<2x4xf32>, %i: tensor<3xi32>) -> tensor<i1> {
  // expected-error @+1 {{image.crop_and_resize: expected box_indices [B], one integer per box, got 'tensor<3xi32>'}}
  %r = relay.image.crop_and_resize %d, %b, %i {crop_size = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<2x4xf32>, tensor<3xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that image.crop_and_resize names the methods it has.
relay.func @crop_and_resize_method(%d: tensor<1x3x8x8xf32>, %b: tensor<2x4xf32>, %i: tensor<2xi32>) -> tensor<i1> {
  // expected-error @+1 {{image.crop_and_resize: method must be bilinear or nearest_neighbor, got 'bicubic'}}
  %r = relay.image.crop_and_resize %d, %b, %i {crop_size = array<i64: 2, 2>, method = "bicubic"} : (tensor<1x3x8x8xf32>, tensor<2x4xf32>, tensor<2xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that image.resize3d wants NCDHW data.
relay.func @resize3d_rank(%d: tensor<1x3x8x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{image.resize3d: expected a 5-d (NCDHW) float tensor, got 'tensor<1x3x8x8xf32>'}}
  %r = relay.image.resize3d %d {size = array<i64: 2, 2, 2>} : (tensor<1x3x8x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that image.resize1d wants one size.
relay.func @resize1d_size(%d: tensor<1x3x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{image.resize1d: size must be 1 positive value}}
  %r = relay.image.resize1d %d {size = array<i64: 2, 2>} : (tensor<1x3x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that reverse_sequence wants one length per batch entry.
relay.func @reverse_sequence_lengths(%d: tensor<4x6xf32>, %l: tensor<3xi32>) -> tensor<i1> {
  // expected-error @+1 {{reverse_sequence: seq_lengths must hold one integer per batch entry (4), got 'tensor<3xi32>'}}
  %r = relay.reverse_sequence %d, %l : (tensor<4x6xf32>, tensor<3xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that reverse_sequence wants two different axes.
relay.func @reverse_sequence_axes(%d: tensor<4x6xf32>, %l: tensor<4xi32>) -> tensor<i1> {
  // expected-error @+1 {{reverse_sequence: seq_axis and batch_axis must differ}}
  %r = relay.reverse_sequence %d, %l {seq_axis = 0 : i64} : (tensor<4x6xf32>, tensor<4xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that slice_like cannot grow the data.
relay.func @slice_like_larger(%d: tensor<4x6xf32>, %l: tensor<5x2xf32>) -> tensor<i1> {
  // expected-error @+1 {{slice_like: shape_like's axis 0 (5) is larger than the data's (4)}}
  %r = relay.slice_like %d, %l : (tensor<4x6xf32>, tensor<5x2xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that nn.upsampling3d names its methods.
relay.func @upsampling3d_method(%d: tensor<1x2x3x4x5xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.upsampling3d: method must be "nearest_neighbor" or "trilinear", got "bilinear"}}
  %r = relay.nn.upsampling3d %d {method = "bilinear"} : (tensor<1x2x3x4x5xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that image.affine_grid wants [N, 2, 3] transforms.
relay.func @affine_grid_shape(%d: tensor<2x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{image.affine_grid: expected affine transforms [N, 2, 3] (float), got 'tensor<2x3x3xf32>'}}
  %r = relay.image.affine_grid %d {target_shape = array<i64: 4, 4>} : (tensor<2x3x3xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that image.affine_grid wants target sizes above 1.
relay.func @affine_grid_target(%d: tensor<2x2x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{image.affine_grid: target_shape must be two sizes above 1 (height, width)}}
  %r = relay.image.affine_grid %d {target_shape = array<i64: 1, 4>} : (tensor<2x2x3xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that image.dilation2d wants one weight channel per data channel.
relay.func @dilation2d_channels(%d: tensor<1x3x8x8xf32>, %w: tensor<2x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{image.dilation2d: expected a weight [C, KH, KW] of the data's channels and dtype, got 'tensor<2x3x3xf32>'}}
  %r = relay.image.dilation2d %d, %w : (tensor<1x3x8x8xf32>, tensor<2x3x3xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that image.dilation2d's window must fit the padded data.
relay.func @dilation2d_window(%d: tensor<1x3x4x4xf32>, %w: tensor<3x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{image.dilation2d: the window (5) is larger than the height dimension 4 plus padding 0}}
  %r = relay.image.dilation2d %d, %w {dilations = array<i64: 2, 2>} : (tensor<1x3x4x4xf32>, tensor<3x3x3xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that nn.correlation wants an odd kernel.
relay.func @correlation_kernel(%a: tensor<1x3x8x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.correlation: kernel_size must be a positive odd number, got 2}}
  %r = relay.nn.correlation %a, %a {kernel_size = 2 : i64} : (tensor<1x3x8x8xf32>, tensor<1x3x8x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that nn.correlation's displacements must leave a position.
relay.func @correlation_border(%a: tensor<1x3x6x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.correlation: the height 6 plus padding 0 leaves no position 3 from each side (max_displacement plus the kernel's radius)}}
  %r = relay.nn.correlation %a, %a {max_displacement = 3 : i64} : (tensor<1x3x6x8xf32>, tensor<1x3x6x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that nn.correlation wants two maps of one type.
relay.func @correlation_types(%a: tensor<1x3x8x8xf32>, %b: tensor<1x2x8x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.correlation: expected data2 of data1's type 'tensor<1x3x8x8xf32>', got 'tensor<1x2x8x8xf32>'}}
  %r = relay.nn.correlation %a, %b : (tensor<1x3x8x8xf32>, tensor<1x2x8x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that vision.multibox_prior wants positive sizes.
relay.func @multibox_prior_sizes(%a: tensor<1x3x8x8xf32>) -> tensor<i1> {
  // expected-error @+1 {{vision.multibox_prior: sizes and ratios must be positive}}
  %r = relay.vision.multibox_prior %a {sizes = array<f64: 0.5, -0.1>} : (tensor<1x3x8x8xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that fixed_point_multiply takes int32 values only.
relay.func @fixed_point_multiply_dtype(%a: tensor<4xi64>) -> tensor<i1> {
  // expected-error @+1 {{fixed_point_multiply: expected an int32 tensor, got 'tensor<4xi64>'}}
  %r = relay.fixed_point_multiply %a {multiplier = 1073741824 : i64, shift = 1 : i64} : (tensor<4xi64>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that fixed_point_multiply's shift stays within 64 bits.
relay.func @fixed_point_multiply_shift(%a: tensor<4xi32>) -> tensor<i1> {
  // expected-error @+1 {{fixed_point_multiply: shift must be within [-32, 32], got 40}}
  %r = relay.fixed_point_multiply %a {multiplier = 1073741824 : i64, shift = 40 : i64} : (tensor<4xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that vision.multibox_transform_loc wants four offsets per anchor.
relay.func @multibox_transform_loc_offsets(%p: tensor<1x3x5xf32>, %l: tensor<1x16xf32>, %a: tensor<1x5x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{vision.multibox_transform_loc: expected location predictions [B, N * 4] (1 x 20) of the probabilities' dtype, got 'tensor<1x16xf32>'}}
  %r = relay.vision.multibox_transform_loc %p, %l, %a : (tensor<1x3x5xf32>, tensor<1x16xf32>, tensor<1x5x4xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that vision.multibox_transform_loc wants four variances.
relay.func @multibox_transform_loc_variances(%p: tensor<1x3x5xf32>, %l: tensor<1x20xf32>, %a: tensor<1x5x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{vision.multibox_transform_loc: variances must have 4 values (x, y, w, h)}}
  %r = relay.vision.multibox_transform_loc %p, %l, %a {variances = array<f64: 0.1, 0.2>} : (tensor<1x3x5xf32>, tensor<1x20xf32>, tensor<1x5x4xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that vision.get_valid_counts reads a score inside the boxes.
relay.func @get_valid_counts_score(%d: tensor<2x8x6xf32>, %t: tensor<f32>) -> tensor<i1> {
  // expected-error @+1 {{vision.get_valid_counts: score_index 6 is not an element of boxes of 6}}
  %r = relay.vision.get_valid_counts %d, %t {score_index = 6 : i64} : (tensor<2x8x6xf32>, tensor<f32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that vision.non_max_suppression reads its four coordinates inside
// the boxes.
relay.func @nms_coordinates(%d: tensor<2x8x6xf32>, %v: tensor<2xi32>, %i: tensor<2x8xi32>, %m: tensor<i32>, %t: tensor<f32>) -> tensor<i1> {
  // expected-error @+1 {{vision.non_max_suppression: coord_start 3: the 4 coordinates are not elements of boxes of 6}}
  %r = relay.vision.non_max_suppression %d, %v, %i, %m, %t {coord_start = 3 : i64} : (tensor<2x8x6xf32>, tensor<2xi32>, tensor<2x8xi32>, tensor<i32>, tensor<f32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that vision.non_max_suppression wants a count per batch.
relay.func @nms_valid_count(%d: tensor<2x8x6xf32>, %v: tensor<3xi32>, %i: tensor<2x8xi32>, %m: tensor<i32>, %t: tensor<f32>) -> tensor<i1> {
  // expected-error @+1 {{vision.non_max_suppression: valid_count must be a [B] integer tensor of the boxes' batch, got 'tensor<3xi32>'}}
  %r = relay.vision.non_max_suppression %d, %v, %i, %m, %t : (tensor<2x8x6xf32>, tensor<3xi32>, tensor<2x8xi32>, tensor<i32>, tensor<f32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that vision.non_max_suppression wants a 0-d float threshold.
relay.func @nms_threshold(%d: tensor<2x8x6xf32>, %v: tensor<2xi32>, %i: tensor<2x8xi32>, %m: tensor<i32>, %t: tensor<i32>) -> tensor<i1> {
  // expected-error @+1 {{vision.non_max_suppression: iou_threshold must be a 0-d float tensor, got 'tensor<i32>'}}
  %r = relay.vision.non_max_suppression %d, %v, %i, %m, %t : (tensor<2x8x6xf32>, tensor<2xi32>, tensor<2x8xi32>, tensor<i32>, tensor<i32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that vision.get_valid_counts wants a 0-d threshold.
relay.func @get_valid_counts_threshold(%d: tensor<2x8x6xf32>, %t: tensor<2xf32>) -> tensor<i1> {
  // expected-error @+1 {{vision.get_valid_counts: score_threshold must be a 0-d float tensor, got 'tensor<2xf32>'}}
  %r = relay.vision.get_valid_counts %d, %t : (tensor<2x8x6xf32>, tensor<2xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that vision.roi_pool wants rois of five values.
relay.func @roi_pool_rois(%d: tensor<1x3x8x8xf32>, %r: tensor<4x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{vision.roi_pool: expected rois [R, 5] (batch index, x1, y1, x2, y2) of the data's dtype, got 'tensor<4x4xf32>'}}
  %p = relay.vision.roi_pool %d, %r {pooled_size = array<i64: 2, 2>, spatial_scale = 1.0 : f64} : (tensor<1x3x8x8xf32>, tensor<4x4xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that dyn.broadcast_to's shape cannot drop the data's dimensions.
relay.func @dyn_broadcast_to_rank(%d: tensor<2x3x4xf32>, %s: tensor<2xi64>) -> tensor<i1> {
  // expected-error @+1 {{dyn.broadcast_to: a shape of 2 dimensions cannot hold the data's 3}}
  %r = relay.dyn.broadcast_to %d, %s : (tensor<2x3x4xf32>, tensor<2xi64>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that dyn.zeros needs a shape of known length (it gives the rank).
relay.func @dyn_zeros_rank(%s: tensor<?xi64>) -> tensor<i1> {
  // expected-error @+1 {{dyn.zeros: shape must have a static length (it gives the result's rank)}}
  %r = relay.dyn.zeros %s : (tensor<?xi64>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that nn.deformable_conv2d's offset must have one (row, column) pair
// per deformable group and tap at each output pixel.
relay.func @deformable_conv2d_offset(%d: tensor<1x4x5x5xf32>, %o: tensor<1x9x5x5xf32>, %w: tensor<2x4x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.deformable_conv2d: offset must be (1, 18, 5, 5) of the data's dtype (batch, deformable_groups * kernel height * width * 2, output height, width, in the data's layout), got 'tensor<1x9x5x5xf32>'}}
  %r = relay.nn.deformable_conv2d %d, %o, %w {padding = array<i64: 1, 1>} : (tensor<1x4x5x5xf32>, tensor<1x9x5x5xf32>, tensor<2x4x3x3xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that nn.deformable_conv2d's deformable groups divide the channels.
relay.func @deformable_conv2d_groups(%d: tensor<1x4x5x5xf32>, %o: tensor<1x54x3x3xf32>, %w: tensor<2x4x3x3xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.deformable_conv2d: deformable_groups = 3 must divide the data's 4 channels}}
  %r = relay.nn.deformable_conv2d %d, %o, %w {deformable_groups = 3 : i64} : (tensor<1x4x5x5xf32>, tensor<1x54x3x3xf32>, tensor<2x4x3x3xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that nn.deformable_conv2d's offset is in the data's layout (TVM's):
// NHWC data takes an (N, OH, OW, fields) offset.
relay.func @deformable_conv2d_layout(%d: tensor<1x5x5x4xf32>, %o: tensor<1x18x3x3xf32>, %w: tensor<3x3x4x2xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.deformable_conv2d: offset must be (1, 3, 3, 18) of the data's dtype (batch, deformable_groups * kernel height * width * 2, output height, width, in the data's layout), got 'tensor<1x18x3x3xf32>'}}
  %r = relay.nn.deformable_conv2d %d, %o, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x5x5x4xf32>, tensor<1x18x3x3xf32>, tensor<3x3x4x2xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that sliding_window needs a window and a stride per axis from
// `axis` on.
relay.func @sliding_window_lengths(%d: tensor<2x6x7xf32>) -> tensor<i1> {
  // expected-error @+1 {{sliding_window: window_shape and strides need 2 values each (one per axis from axis 1 on), got 1 and 1}}
  %r = relay.sliding_window %d {axis = 1 : i64, window_shape = array<i64: 3>, strides = array<i64: 1>} : (tensor<2x6x7xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that sliding_window's window fits the axis it slides along.
relay.func @sliding_window_fit(%d: tensor<2x6x7xf32>) -> tensor<i1> {
  // expected-error @+1 {{sliding_window: a window of 8 does not fit axis 2 of size 7}}
  %r = relay.sliding_window %d {axis = 1 : i64, window_shape = array<i64: 3, 8>, strides = array<i64: 1, 1>} : (tensor<2x6x7xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that vision.yolo_reorg's channels divide by stride^2.
relay.func @yolo_reorg_channels(%d: tensor<1x6x4x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{vision.yolo_reorg: the data's channels (6) must divide by 4 for stride 2}}
  %r = relay.vision.yolo_reorg %d {stride = 2 : i64} : (tensor<1x6x4x4xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that a stride whose square passes 64-bit sizes is an error (the
// square saturates), not a wrapped divisor.
relay.func @yolo_reorg_huge_stride(%d: tensor<1x6x4x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{vision.yolo_reorg: the data's channels (6) must divide by 9223372036854775807 for stride 4000000000}}
  %r = relay.vision.yolo_reorg %d {stride = 4000000000 : i64} : (tensor<1x6x4x4xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that adv_index takes at most one index tensor per axis of the data.
relay.func @adv_index_count(%d: tensor<2x3xf32>, %i: tensor<2xi64>) -> tensor<i1> {
  %t = relay.tuple(%d, %i, %i, %i : tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>)
  // expected-error @+1 {{adv_index: 3 index tensors for data of rank 2}}
  %r = relay.adv_index %t : (tuple<tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that adv_index's indices are integers.
relay.func @adv_index_dtype(%d: tensor<2x3xf32>, %i: tensor<2xf32>) -> tensor<i1> {
  %t = relay.tuple(%d, %i : tensor<2x3xf32>, tensor<2xf32>)
  // expected-error @+1 {{adv_index: index 0 must be an integer tensor, got 'tensor<2xf32>'}}
  %r = relay.adv_index %t : (tuple<tensor<2x3xf32>, tensor<2xf32>>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that adv_index's indices broadcast together.
relay.func @adv_index_broadcast(%d: tensor<2x3xf32>, %i: tensor<2xi64>, %j: tensor<3xi64>) -> tensor<i1> {
  %t = relay.tuple(%d, %i, %j : tensor<2x3xf32>, tensor<2xi64>, tensor<3xi64>)
  // expected-error @+1 {{adv_index: the index tensors do not broadcast together: 'tuple<tensor<2x3xf32>, tensor<2xi64>, tensor<3xi64>>'}}
  %r = relay.adv_index %t : (tuple<tensor<2x3xf32>, tensor<2xi64>, tensor<3xi64>>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that adv_index needs an index tensor.
relay.func @adv_index_none(%d: tensor<2x3xf32>) -> tensor<i1> {
  %t = relay.tuple(%d : tensor<2x3xf32>)
  // expected-error @+1 {{adv_index: expected a tuple of the data and at least one index tensor, got 'tuple<tensor<2x3xf32>>'}}
  %r = relay.adv_index %t : (tuple<tensor<2x3xf32>>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that fixed_point_multiply_per_axis's parameters are shaped as the
// data's axes.
relay.func @fixed_point_per_axis_shape(%x: tensor<2x3x4xi32>, %m: tensor<4xi32>, %s: tensor<3xi32>) -> tensor<i1> {
  // expected-error @+1 {{fixed_point_multiply_per_axis: the multipliers must be int32 and shaped as the data's axes (3), got 'tensor<4xi32>'}}
  %r = relay.fixed_point_multiply_per_axis %x, %m, %s, %s {axes = array<i64: 1>} : (tensor<2x3x4xi32>, tensor<4xi32>, tensor<3xi32>, tensor<3xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that fixed_point_multiply_per_axis's axes increase.
relay.func @fixed_point_per_axis_order(%x: tensor<2x3x4xi32>, %m: tensor<4x3xi32>) -> tensor<i1> {
  // expected-error @+1 {{fixed_point_multiply_per_axis: axes must be increasing}}
  %r = relay.fixed_point_multiply_per_axis %x, %m, %m, %m {axes = array<i64: 2, 1>} : (tensor<2x3x4xi32>, tensor<4x3xi32>, tensor<4x3xi32>, tensor<4x3xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that fixed_point_multiply_per_axis takes int32 data.
relay.func @fixed_point_per_axis_dtype(%x: tensor<2x3xf32>, %m: tensor<3xi32>) -> tensor<i1> {
  // expected-error @+1 {{fixed_point_multiply_per_axis: expected int32 data, got 'tensor<2x3xf32>'}}
  %r = relay.fixed_point_multiply_per_axis %x, %m, %m, %m {axes = array<i64: 1>} : (tensor<2x3xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that contrib_reverse_reshape checks the element count (of the
// reversed shapes it reshapes).
relay.func @reverse_reshape_count(%x: tensor<10x5x4xf32>) -> tensor<i1> {
  // expected-error @+2 {{contrib_reverse_reshape: cannot reshape 'tensor<4x5x10xf32>' (200 elements) to 28 elements}}
  // expected-note @+1 {{contrib_reverse_reshape reads both shapes from the right: this is reshape on them reversed}}
  %r = relay.contrib_reverse_reshape %x {newshape = array<i64: 7, 0>} : (tensor<10x5x4xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that strided_set's values have the data's rank.
relay.func @strided_set_rank(%x: tensor<4x6xf32>, %v: tensor<2xf32>, %b: tensor<2xi32>) -> tensor<i1> {
  // expected-error @+1 {{strided_set: expected the values v of the data's dtype and rank ('tensor<4x6xf32>'), got 'tensor<2xf32>'}}
  %r = relay.strided_set %x, %v, %b, %b, %b : (tensor<4x6xf32>, tensor<2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that strided_set's bounds are integers.
relay.func @strided_set_bounds(%x: tensor<4x6xf32>, %v: tensor<2x2xf32>, %b: tensor<2xi32>, %f: tensor<2xf32>) -> tensor<i1> {
  // expected-error @+1 {{strided_set: expected end as a 1-d integer tensor, got 'tensor<2xf32>'}}
  %r = relay.strided_set %x, %v, %b, %f, %b : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<2xi32>, tensor<2xf32>, tensor<2xi32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that strided_set's bounds have at most one entry per axis.
relay.func @strided_set_long(%x: tensor<4x6xf32>, %v: tensor<2x2xf32>, %b: tensor<2xi32>, %s: tensor<3xi64>) -> tensor<i1> {
  // expected-error @+1 {{strided_set: strides has 3 entries for 'tensor<4x6xf32>' of rank 2}}
  %r = relay.strided_set %x, %v, %b, %b, %s : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<3xi64>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that nn.fifo_buffer's data is shorter than the buffer.
relay.func @fifo_longer(%x: tensor<3x6xf32>, %b: tensor<3x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.fifo_buffer: expected data shorter than the buffer along axis 1, got 6 and 4}}
  %r = relay.nn.fifo_buffer %x, %b {axis = 1 : i64} : (tensor<3x6xf32>, tensor<3x4xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that nn.fifo_buffer's data and buffer agree on the other axes.
relay.func @fifo_other_axis(%x: tensor<2x1xf32>, %b: tensor<3x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.fifo_buffer: data 'tensor<2x1xf32>' and buffer 'tensor<3x4xf32>' differ along axis 0}}
  %r = relay.nn.fifo_buffer %x, %b {axis = 1 : i64} : (tensor<2x1xf32>, tensor<3x4xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

// -----

// Tests that nn.fifo_buffer's axis is one of the buffer's.
relay.func @fifo_axis(%x: tensor<3x1xf32>, %b: tensor<3x4xf32>) -> tensor<i1> {
  // expected-error @+1 {{nn.fifo_buffer: axis 2 is out of range}}
  %r = relay.nn.fifo_buffer %x, %b {axis = 2 : i64} : (tensor<3x1xf32>, tensor<3x4xf32>) -> !relay.incomplete
  %c = relay.constant dense<true> : tensor<i1>
  relay.return %c : tensor<i1>
}

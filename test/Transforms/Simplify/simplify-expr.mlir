// RUN: relay-mlir-opt %s --split-input-file --relay-simplify-expr | FileCheck %s

// Tests that a chain of reshape-like ops is one reshape, and that a chain
// back to the operand's type is the operand.
// CHECK-LABEL: relay.func @reshapes(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>
// CHECK: %[[R:.*]] = relay.reshape %[[X]] {newshape = array<i64: 3, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NOT: relay.expand_dims
// CHECK: relay.tuple(%[[R]], %[[X]]
relay.func @reshapes(%x: tensor<2x3xf32>) -> tuple<tensor<3x2xf32>, tensor<2x3xf32>> {
  %a = relay.reshape %x {newshape = array<i64: 6>} : (tensor<2x3xf32>) -> tensor<6xf32>
  %b = relay.expand_dims %a {axis = 0 : i64} : (tensor<6xf32>) -> tensor<1x6xf32>
  %c = relay.reshape %b {newshape = array<i64: 3, 2>} : (tensor<1x6xf32>) -> tensor<3x2xf32>
  %d = relay.reshape %a {newshape = array<i64: 2, 3>} : (tensor<6xf32>) -> tensor<2x3xf32>
  %t = relay.tuple(%c, %d : tensor<3x2xf32>, tensor<2x3xf32>)
  relay.return %t : tuple<tensor<3x2xf32>, tensor<2x3xf32>>
}

// -----

// Tests that two transposes compose into one, and into nothing when they
// cancel.
// CHECK-LABEL: relay.func @transposes(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>
// CHECK: %[[T:.*]] = relay.transpose %[[X]] {axes = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK: relay.tuple(%[[T]], %[[X]]
relay.func @transposes(%x: tensor<2x3x4xf32>) -> tuple<tensor<4x2x3xf32>, tensor<2x3x4xf32>> {
  %a = relay.transpose %x {axes = array<i64: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %b = relay.transpose %a {axes = array<i64: 1, 0, 2>} : (tensor<2x4x3xf32>) -> tensor<4x2x3xf32>
  %c = relay.transpose %a {axes = array<i64: 0, 2, 1>} : (tensor<2x4x3xf32>) -> tensor<2x3x4xf32>
  %t = relay.tuple(%b, %c : tensor<4x2x3xf32>, tensor<2x3x4xf32>)
  relay.return %t : tuple<tensor<4x2x3xf32>, tensor<2x3x4xf32>>
}

// -----

// Tests that x * 1, 1 * x, x / 1, x + 0 and x - 0 are x, while a constant
// that broadcasts x to another shape is kept.
// CHECK-LABEL: relay.func @identities(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>
// CHECK: %[[B:.*]] = relay.multiply %[[X]], %{{.*}} : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK: relay.tuple(%[[X]], %[[B]]
relay.func @identities(%x: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<2x4xf32>> {
  %one = relay.constant dense<1.0> : tensor<f32>
  %zero = relay.constant dense<0.0> : tensor<f32>
  %ones = relay.constant dense<1.0> : tensor<2x4xf32>
  %a = relay.multiply %x, %one : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %b = relay.multiply %one, %a : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %c = relay.divide %b, %one : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %d = relay.add %c, %zero : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %e = relay.subtract %d, %zero : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %f = relay.multiply %e, %ones : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %t = relay.tuple(%e, %f : tensor<4xf32>, tensor<2x4xf32>)
  relay.return %t : tuple<tensor<4xf32>, tensor<2x4xf32>>
}

// -----

// Tests that a cast to the same type goes, and a cast of a widening cast
// casts the original value, while a narrowing one stays.
// CHECK-LABEL: relay.func @casts(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi32>
// CHECK: %[[H:.*]] = relay.cast %[[X]] {dtype = f16}
// CHECK: %[[N:.*]] = relay.cast %[[I]] {dtype = i8}
// CHECK: %[[W:.*]] = relay.cast %[[N]] {dtype = i32}
// CHECK: relay.tuple(%[[X]], %[[H]], %[[W]]
relay.func @casts(%x: tensor<4xf32>, %i: tensor<4xi32>) -> tuple<tensor<4xf32>, tensor<4xf16>, tensor<4xi32>> {
  %same = relay.cast %x {dtype = f32} : (tensor<4xf32>) -> tensor<4xf32>
  %wide = relay.cast %x {dtype = f64} : (tensor<4xf32>) -> tensor<4xf64>
  %half = relay.cast %wide {dtype = f16} : (tensor<4xf64>) -> tensor<4xf16>
  %narrow = relay.cast %i {dtype = i8} : (tensor<4xi32>) -> tensor<4xi8>
  %back = relay.cast %narrow {dtype = i32} : (tensor<4xi8>) -> tensor<4xi32>
  %t = relay.tuple(%same, %half, %back : tensor<4xf32>, tensor<4xf16>, tensor<4xi32>)
  relay.return %t : tuple<tensor<4xf32>, tensor<4xf16>, tensor<4xi32>>
}

// -----

// Tests that a convolution whose off-centre taps read only its padding for
// every output (DeepLabV3's dilation-36 branch on a 28x28 map) becomes a
// 1x1 convolution with the centre tap's weights, unpadded and undilated.
// CHECK-LABEL: relay.func @padding_taps(
// CHECK-SAME: %[[X:.*]]: tensor<1x8x28x28xf32>, %[[W:.*]]: tensor<4x8x3x3xf32>
// CHECK: %[[C:.*]] = relay.strided_slice %[[W]] {axes = array<i64: 2, 3>, begin = array<i64: 1, 1>, end = array<i64: 2, 2>, strides = array<i64: 1, 1>} : (tensor<4x8x3x3xf32>) -> tensor<4x8x1x1xf32>
// CHECK: relay.nn.conv2d %[[X]], %[[C]] {channels = 4 : i64, dilation = array<i64: 1, 1>, kernel_size = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>} : (tensor<1x8x28x28xf32>, tensor<4x8x1x1xf32>) -> tensor<1x4x28x28xf32>
relay.func @padding_taps(%x: tensor<1x8x28x28xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x4x28x28xf32> {
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 36, 36>, dilation = array<i64: 36, 36>, kernel_size = array<i64: 3, 3>, channels = 4 : i64} : (tensor<1x8x28x28xf32>, tensor<4x8x3x3xf32>) -> tensor<1x4x28x28xf32>
  relay.return %y : tensor<1x4x28x28xf32>
}

// -----

// Tests that only the axis with dead taps shrinks: 4 rows with dilation 6
// leave the middle row of taps; the columns keep their 3 taps (stride 2:
// the last column of padding was never read).
// CHECK-LABEL: relay.func @padding_rows(
// CHECK: relay.strided_slice %{{.*}} {axes = array<i64: 2, 3>, begin = array<i64: 1, 0>, end = array<i64: 2, 3>, strides = array<i64: 1, 1>} : (tensor<4x8x3x3xf32>) -> tensor<4x8x1x3xf32>
// CHECK: relay.nn.conv2d {{.*}} {dilation = array<i64: 1, 1>, padding = array<i64: 0, 1, 0, 0>, strides = array<i64: 1, 2>} : (tensor<1x8x4x28xf32>, tensor<4x8x1x3xf32>) -> tensor<1x4x4x14xf32>
relay.func @padding_rows(%x: tensor<1x8x4x28xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x4x4x14xf32> {
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 6, 1>, dilation = array<i64: 6, 1>, strides = array<i64: 1, 2>} : (tensor<1x8x4x28xf32>, tensor<4x8x3x3xf32>) -> tensor<1x4x4x14xf32>
  relay.return %y : tensor<1x4x4x14xf32>
}

// -----

// Tests that convolutions stay whole where every tap reads the image for
// most outputs (dilation 6 on 28 rows and columns: 73% of the products
// read the image; a 3x3 kernel padded by 1 on a 7x7 map: 82%), where the
// only live tap starts inside the image (4 rows padded by 5, dilation 6:
// the centre tap reads rows 1 and 2, which would need a cropped image),
// and where the regions would be too many (a 7x7 kernel dilated by 2 on a
// 12x12 map: 6 x 6 regions, though only 51% of the products read it).
// CHECK-LABEL: relay.func @all_taps_live(
// CHECK-NOT: relay.strided_slice
// CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} {dilation = array<i64: 6, 6>, padding = array<i64: 6, 6>}
// CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} {padding = array<i64: 1, 1>}
// CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} {dilation = array<i64: 6, 6>, padding = array<i64: 5, 5>}
// CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} {dilation = array<i64: 2, 2>, padding = array<i64: 6, 6>}
relay.func @all_taps_live(%x: tensor<1x8x28x28xf32>, %m: tensor<1x8x7x7xf32>, %s: tensor<1x8x4x4xf32>, %w: tensor<4x8x3x3xf32>, %q: tensor<1x8x12x12xf32>, %k: tensor<4x8x7x7xf32>) -> tuple<tensor<1x4x28x28xf32>, tensor<1x4x7x7xf32>, tensor<1x4x2x2xf32>, tensor<1x4x12x12xf32>> {
  %a = relay.nn.conv2d %x, %w {padding = array<i64: 6, 6>, dilation = array<i64: 6, 6>} : (tensor<1x8x28x28xf32>, tensor<4x8x3x3xf32>) -> tensor<1x4x28x28xf32>
  %c = relay.nn.conv2d %m, %w {padding = array<i64: 1, 1>} : (tensor<1x8x7x7xf32>, tensor<4x8x3x3xf32>) -> tensor<1x4x7x7xf32>
  %b = relay.nn.conv2d %s, %w {padding = array<i64: 5, 5>, dilation = array<i64: 6, 6>} : (tensor<1x8x4x4xf32>, tensor<4x8x3x3xf32>) -> tensor<1x4x2x2xf32>
  %d = relay.nn.conv2d %q, %k {padding = array<i64: 6, 6>, dilation = array<i64: 2, 2>} : (tensor<1x8x12x12xf32>, tensor<4x8x7x7xf32>) -> tensor<1x4x12x12xf32>
  %t = relay.tuple(%a, %c, %b, %d : tensor<1x4x28x28xf32>, tensor<1x4x7x7xf32>, tensor<1x4x2x2xf32>, tensor<1x4x12x12xf32>)
  relay.return %t : tuple<tensor<1x4x28x28xf32>, tensor<1x4x7x7xf32>, tensor<1x4x2x2xf32>, tensor<1x4x12x12xf32>>
}

// -----

// Tests that a convolution whose outer taps reach the image from only a
// few outputs (DeepLabV3's dilation-24 branch on a 28x28 map: from 4 of the
// 28 rows and columns at each side) becomes one unpadded convolution per
// region of outputs with the same live taps, each on the window of the
// image it reads (none for the whole image; the corner regions share it),
// with those taps' weights, concatenated along the columns, then the rows.
// CHECK-LABEL: relay.func @partial_taps(
// CHECK-SAME: %[[X:.*]]: tensor<1x8x28x28xf32>, %[[W:.*]]: tensor<4x8x3x3xf32>
// The top rows: the centre and bottom rows of taps.
// CHECK: %[[W00:.*]] = relay.strided_slice %[[W]] {axes = array<i64: 2, 3>, begin = array<i64: 1, 1>, end = array<i64: 3, 3>, strides = array<i64: 1, 1>} : (tensor<4x8x3x3xf32>) -> tensor<4x8x2x2xf32>
// CHECK: %[[Y00:.*]] = relay.nn.conv2d %[[X]], %[[W00]] {dilation = array<i64: 24, 24>, padding = array<i64: 0, 0, 0, 0>} : (tensor<1x8x28x28xf32>, tensor<4x8x2x2xf32>) -> tensor<1x4x4x4xf32>
// CHECK: %[[X01:.*]] = relay.strided_slice %[[X]] {axes = array<i64: 2, 3>, begin = array<i64: 0, 4>, end = array<i64: 28, 24>, strides = array<i64: 1, 1>} : (tensor<1x8x28x28xf32>) -> tensor<1x8x28x20xf32>
// CHECK: %[[W01:.*]] = relay.strided_slice %[[W]] {axes = array<i64: 2, 3>, begin = array<i64: 1, 1>, end = array<i64: 3, 2>, strides = array<i64: 1, 1>} : (tensor<4x8x3x3xf32>) -> tensor<4x8x2x1xf32>
// CHECK: %[[Y01:.*]] = relay.nn.conv2d %[[X01]], %[[W01]] {dilation = array<i64: 24, 1>, padding = array<i64: 0, 0, 0, 0>} : (tensor<1x8x28x20xf32>, tensor<4x8x2x1xf32>) -> tensor<1x4x4x20xf32>
// CHECK: %[[W02:.*]] = relay.strided_slice %[[W]] {axes = array<i64: 2, 3>, begin = array<i64: 1, 0>, end = array<i64: 3, 2>, strides = array<i64: 1, 1>}
// CHECK: %[[Y02:.*]] = relay.nn.conv2d %[[X]], %[[W02]] {{.*}} -> tensor<1x4x4x4xf32>
// CHECK: %[[T0:.*]] = relay.tuple(%[[Y00]], %[[Y01]], %[[Y02]] :
// CHECK: %[[R0:.*]] = relay.concatenate %[[T0]] {axis = 3 : i64} : {{.*}} -> tensor<1x4x4x28xf32>
// The middle rows: the centre row of taps; in the middle, a 1x1
// convolution of the image's middle.
// CHECK: relay.nn.conv2d {{.*}} -> tensor<1x4x20x4xf32>
// CHECK: %[[X11:.*]] = relay.strided_slice %[[X]] {axes = array<i64: 2, 3>, begin = array<i64: 4, 4>, end = array<i64: 24, 24>, strides = array<i64: 1, 1>} : (tensor<1x8x28x28xf32>) -> tensor<1x8x20x20xf32>
// CHECK: %[[W11:.*]] = relay.strided_slice %[[W]] {axes = array<i64: 2, 3>, begin = array<i64: 1, 1>, end = array<i64: 2, 2>, strides = array<i64: 1, 1>} : (tensor<4x8x3x3xf32>) -> tensor<4x8x1x1xf32>
// CHECK: relay.nn.conv2d %[[X11]], %[[W11]] {dilation = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>} : (tensor<1x8x20x20xf32>, tensor<4x8x1x1xf32>) -> tensor<1x4x20x20xf32>
// CHECK: relay.nn.conv2d {{.*}} -> tensor<1x4x20x4xf32>
// CHECK: %[[R1:.*]] = relay.concatenate {{.*}} {axis = 3 : i64} : {{.*}} -> tensor<1x4x20x28xf32>
// The bottom rows: the top and centre rows of taps.
// CHECK: %[[W20:.*]] = relay.strided_slice %[[W]] {axes = array<i64: 2, 3>, begin = array<i64: 0, 1>, end = array<i64: 2, 3>, strides = array<i64: 1, 1>}
// CHECK: relay.nn.conv2d %[[X]], %[[W20]] {{.*}} -> tensor<1x4x4x4xf32>
// CHECK: relay.nn.conv2d %[[X01]], {{.*}} -> tensor<1x4x4x20xf32>
// CHECK: %[[R2:.*]] = relay.concatenate {{.*}} {axis = 3 : i64} : {{.*}} -> tensor<1x4x4x28xf32>
// CHECK: %[[T:.*]] = relay.tuple(%[[R0]], %[[R1]], %[[R2]] :
// CHECK: %[[Y:.*]] = relay.concatenate %[[T]] {axis = 2 : i64} : {{.*}} -> tensor<1x4x28x28xf32>
// CHECK: relay.return %[[Y]]
relay.func @partial_taps(%x: tensor<1x8x28x28xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x4x28x28xf32> {
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 24, 24>, dilation = array<i64: 24, 24>} : (tensor<1x8x28x28xf32>, tensor<4x8x3x3xf32>) -> tensor<1x4x28x28xf32>
  relay.return %y : tensor<1x4x28x28xf32>
}

// -----

// Tests that a unary elementwise operator whose only use is a gather
// (through a reshape) applies to the gathered elements: Mask R-CNN's
// sigmoid of every class's mask, of which one per detection is kept.
// CHECK-LABEL: relay.func @sink_sigmoid
// CHECK: %[[R:.*]] = relay.reshape %x {{.*}} : (tensor<?x91x28x28xf32>) -> tensor<?x784xf32>
// CHECK: %[[T:.*]] = relay.take %[[R]], %i {{.*}} -> tensor<?x784xf32>
// CHECK: %[[S:.*]] = relay.sigmoid %[[T]] : (tensor<?x784xf32>) -> tensor<?x784xf32>
// CHECK: relay.return %[[S]]
relay.func @sink_sigmoid(%x: tensor<?x91x28x28xf32>, %i: tensor<?xi64>) -> tensor<?x784xf32> {
  %s = relay.sigmoid %x : (tensor<?x91x28x28xf32>) -> tensor<?x91x28x28xf32>
  %r = relay.reshape %s {newshape = array<i64: -1, 784>} : (tensor<?x91x28x28xf32>) -> tensor<?x784xf32>
  %t = relay.take %r, %i {axis = 0 : i64, mode = "wrap"} : (tensor<?x784xf32>, tensor<?xi64>) -> tensor<?x784xf32>
  relay.return %t : tensor<?x784xf32>
}

// -----

// Tests that the operator stays before a gather that gives as many
// elements or more (an embedding's rows taken more often than there are),
// and before one that shares its result with another use.
// CHECK-LABEL: relay.func @keep_unary
// CHECK: %[[E:.*]] = relay.exp %x
// CHECK: relay.take %[[E]], %i
// CHECK: %[[N:.*]] = relay.tanh %x
// CHECK: relay.take %[[N]], %j
// CHECK: relay.add %{{.*}}, %[[N]]
relay.func @keep_unary(%x: tensor<4x3xf32>, %i: tensor<6xi64>, %j: tensor<2xi64>) -> tuple<tensor<6x3xf32>, tensor<4x3xf32>> {
  %e = relay.exp %x : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %a = relay.take %e, %i {axis = 0 : i64} : (tensor<4x3xf32>, tensor<6xi64>) -> tensor<6x3xf32>
  %n = relay.tanh %x : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %b = relay.take %n, %j {axis = 0 : i64} : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %c = relay.sum %b {axis = array<i64: 0>, keepdims = true} : (tensor<2x3xf32>) -> tensor<1x3xf32>
  %d = relay.add %c, %n : (tensor<1x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %r = relay.tuple(%a, %d : tensor<6x3xf32>, tensor<4x3xf32>)
  relay.return %r : tuple<tensor<6x3xf32>, tensor<4x3xf32>>
}

// -----

// Tests that a bias_add and a ReLU after a transpose and a unit-dimension
// reshape (a 3-d convolution decomposed into a 2-d one over its depth
// slices, its result moved back to NCDHW) move above both, the bias's axis
// following its dimension (the transpose's 1 is the 2-d result's 1), so
// that they join the convolution's epilogue; the layout ops follow.
// CHECK-LABEL: relay.func @bias_relu_above_layout(
// CHECK-SAME: %[[X:[^:]*]]: tensor<16x64x8x8xf32>, %[[B:[^:]*]]: tensor<64xf32>
// CHECK: %[[A:.*]] = relay.nn.bias_add %[[X]], %[[B]] : (tensor<16x64x8x8xf32>, tensor<64xf32>) -> tensor<16x64x8x8xf32>
// CHECK: %[[R:.*]] = relay.nn.relu %[[A]] : (tensor<16x64x8x8xf32>)
// CHECK: %[[S:.*]] = relay.reshape %[[R]] {{.*}} -> tensor<1x16x64x8x8xf32>
// CHECK: relay.transpose %[[S]] {axes = array<i64: 0, 2, 1, 3, 4>}
relay.func @bias_relu_above_layout(%x: tensor<16x64x8x8xf32>, %b: tensor<64xf32>) -> tensor<1x64x16x8x8xf32> {
  %r = relay.reshape %x {newshape = array<i64: 1, 16, 64, 8, 8>} : (tensor<16x64x8x8xf32>) -> tensor<1x16x64x8x8xf32>
  %t = relay.transpose %r {axes = array<i64: 0, 2, 1, 3, 4>} : (tensor<1x16x64x8x8xf32>) -> tensor<1x64x16x8x8xf32>
  %a = relay.nn.bias_add %t, %b : (tensor<1x64x16x8x8xf32>, tensor<64xf32>) -> tensor<1x64x16x8x8xf32>
  %y = relay.nn.relu %a : (tensor<1x64x16x8x8xf32>) -> tensor<1x64x16x8x8xf32>
  relay.return %y : tensor<1x64x16x8x8xf32>
}

// -----

// Tests that an elementwise op of a transpose and a value computed from
// constants only moves above the transpose with the constant laid out as
// the transpose's operand is (computed then: [2, 1, 1] broadcast along the
// transpose's dimension 0, its operand's dimension 2), and that a
// bias_add's axis follows its dimension the same way.
// CHECK-LABEL: relay.func @constant_above_transpose(
// CHECK-DAG: %[[C:.*]] = relay.constant dense<{{\[\[\[}}2.000000e+00, 6.000000e+00]]]> : tensor<1x1x2xf32>
// CHECK: %[[M:.*]] = relay.multiply %x, %[[C]] : (tensor<3x4x2xf32>, tensor<1x1x2xf32>) -> tensor<3x4x2xf32>
// CHECK: relay.transpose %[[M]] {axes = array<i64: 2, 0, 1>} : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>
relay.func @constant_above_transpose(%x: tensor<3x4x2xf32>) -> tensor<2x3x4xf32> {
  %c = relay.constant dense<[[[1.0]], [[3.0]]]> : tensor<2x1x1xf32>
  %two = relay.constant dense<2.0> : tensor<f32>
  %s = relay.multiply %c, %two : (tensor<2x1x1xf32>, tensor<f32>) -> tensor<2x1x1xf32>
  %t = relay.transpose %x {axes = array<i64: 2, 0, 1>} : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>
  %m = relay.multiply %t, %s : (tensor<2x3x4xf32>, tensor<2x1x1xf32>) -> tensor<2x3x4xf32>
  relay.return %m : tensor<2x3x4xf32>
}

// CHECK-LABEL: relay.func @bias_axis_moves(
// CHECK: relay.nn.bias_add %x, %b {axis = 2 : i64} : (tensor<3x4x2xf32>, tensor<2xf32>) -> tensor<3x4x2xf32>
// CHECK: relay.transpose
relay.func @bias_axis_moves(%x: tensor<3x4x2xf32>, %b: tensor<2xf32>) -> tensor<2x3x4xf32> {
  %t = relay.transpose %x {axes = array<i64: 2, 0, 1>} : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>
  %a = relay.nn.bias_add %t, %b {axis = 0 : i64} : (tensor<2x3x4xf32>, tensor<2xf32>) -> tensor<2x3x4xf32>
  relay.return %a : tensor<2x3x4xf32>
}

// -----

// Tests that nothing moves where the layout op has another user (it would
// be computed twice), where the other operand is not constant (a residual
// addition), or where the reshape merges dimensions (the constant has no
// layout on the other side).
// CHECK-LABEL: relay.func @layout_stays(
// CHECK: %[[T:.*]] = relay.transpose %x
// CHECK: relay.nn.relu %[[T]]
// CHECK: relay.add %[[T]], %y
// CHECK: %[[R:.*]] = relay.reshape %z {{.*}} -> tensor<12x2xf32>
// CHECK: relay.add %[[R]], %{{.*}} : (tensor<12x2xf32>, tensor<12x1xf32>)
relay.func @layout_stays(%x: tensor<3x4xf32>, %y: tensor<4x3xf32>, %z: tensor<3x4x2xf32>) -> tuple<tensor<4x3xf32>, tensor<4x3xf32>, tensor<12x2xf32>> {
  %t = relay.transpose %x : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %u = relay.nn.relu %t : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %a = relay.add %t, %y : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %r = relay.reshape %z {newshape = array<i64: 12, 2>} : (tensor<3x4x2xf32>) -> tensor<12x2xf32>
  %c = relay.constant dense<[[1.0], [2.0], [3.0], [4.0], [5.0], [6.0], [7.0], [8.0], [9.0], [10.0], [11.0], [12.0]]> : tensor<12x1xf32>
  %b = relay.add %r, %c : (tensor<12x2xf32>, tensor<12x1xf32>) -> tensor<12x2xf32>
  %o = relay.tuple(%u, %a, %b : tensor<4x3xf32>, tensor<4x3xf32>, tensor<12x2xf32>)
  relay.return %o : tuple<tensor<4x3xf32>, tensor<4x3xf32>, tensor<12x2xf32>>
}
